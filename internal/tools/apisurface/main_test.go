package main

import (
	"reflect"
	"testing"
)

func TestSurface(t *testing.T) {
	got, err := surface("testdata/tree")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pub.C", "pub.F", "pub.I", "pub.I.Do", "pub.T", "pub.T.M", "pub.V"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("surface = %q\nwant      %q", got, want)
	}
	*fields = true
	defer func() { *fields = false }()
	got, _ = surface("testdata/tree")
	if len(got) != len(want)+1 || got[5] != "pub.T.Field" {
		t.Errorf("with -fields: %q", got)
	}
}
