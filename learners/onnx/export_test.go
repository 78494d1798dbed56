package onnx_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/gbrff"
	"github.com/rfkit/rfkit/learners/onnx"
	"github.com/rfkit/rfkit/learners/rks"
)

func toy() (featmap.Matrix, []float64) {
	n := 40
	X, y := make([]float64, 2*n), make([]float64, n)
	for i := range n {
		a, b := float64(i%7)/3, float64(i%5)/2
		X[2*i], X[2*i+1] = a, b
		y[i] = -1
		if a+b > 1.5 {
			y[i] = 1
		}
	}
	return featmap.Dense(n, 2, X), y
}

func TestExportErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		m    learners.Model
		want string
	}{
		{"nil", nil, "nil model"},
		{"empty", &rks.Model{}, "empty model"},
	} {
		_, err := onnx.Export(c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

// TestExportBytes: the same model gives the same bytes, which hold the
// graph's input and output names and the ONNX IR version first.
func TestExportBytes(t *testing.T) {
	X, y := toy()
	m, err := gbrff.Fit(context.Background(), X, y, gbrff.Config{T: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, err := onnx.Export(m)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := onnx.Export(m)
	if !bytes.Equal(a, b) {
		t.Error("two exports of one model differ")
	}
	if !bytes.HasPrefix(a, []byte{0x08, 8}) { // ModelProto.ir_version = 8
		t.Errorf("starts % x", a[:4])
	}
	for _, s := range []string{"X", "label", "probabilities", "Cos", "Sigmoid", "gbrff2"} {
		if !bytes.Contains(a, []byte(s)) {
			t.Errorf("no %q in the file", s)
		}
	}
}
