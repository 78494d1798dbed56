package learnertest

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/rfkit/rfkit/learners"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// defaults checks each `default:"…"` tag of the Config against the value a
// fit resolves it to: the zero Config (only the Case's Params set, for
// speed) is fitted on the learner's first declared task, and every field
// whose tag is a plain number or boolean, and that the Case's Params leave
// alone, must hold the tag's value in the model file's resolved
// configuration when the file stores the field (a zero field selects the documented default, so the two
// say the same thing or one of them is wrong). Tags that depend on the data
// ("1/d") or on other fields ("squared (regression)") are not plain and are
// not checked here.
func (s *suite) defaults(t *testing.T) {
	task := s.meth.Tasks[0]
	X, y := data(task, 100, 1)
	// a held-out search resolves its fields to the setting it chose; the
	// tags state the documented value a fit without the search uses
	var extra []string
	for _, p := range learners.Params(s.meth.NewConfig()) {
		if p.Name == "search" {
			extra = append(extra, "search=false")
		}
	}
	cfg := s.config(t, task, extra...)
	m, err := s.meth.Fit(context.Background(), X, y, cfg, nil)
	if err != nil {
		t.Fatalf("%v: %v", task, err)
	}
	f := Parsed(t, m)
	var resolved map[string]any
	if err := json.Unmarshal(f.Header.Config, &resolved); err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{"task": true}
	for _, kv := range s.c.Params {
		k, _, _ := strings.Cut(kv, "=")
		set[strings.ToLower(k)] = true
	}
	typ := reflect.TypeOf(cfg).Elem()
	var checked int
	for i := 0; i < typ.NumField(); i++ {
		fld := typ.Field(i)
		tag, ok := fld.Tag.Lookup("default")
		if !ok || set[strings.ToLower(fld.Name)] {
			continue
		}
		got, present := resolved[fld.Name]
		if !present {
			continue // omitted from the file: not used by this configuration (kernel's C without the hinge loss)
		}
		switch fld.Type.Kind() {
		case reflect.Bool:
			want, err := strconv.ParseBool(tag)
			if err != nil {
				continue
			}
			if g, _ := got.(bool); g != want {
				t.Errorf("%s: default tag %q, resolved %v", fld.Name, tag, got)
			}
			checked++
		case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
			want, err := strconv.ParseFloat(tag, 64)
			if err != nil {
				continue
			}
			g, _ := got.(float64)
			if g != want {
				t.Errorf("%s: default tag %q, resolved %s", fld.Name, tag, fmt.Sprint(got))
			}
			checked++
		}
	}
	t.Logf("%d plain default tags checked", checked)
}
