package main

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRunSmoke runs the whole protocol at tiny sizes on cpu_act (skipped
// when ../shared/datasets is absent) and checks the table and the plot.
func TestRunSmoke(t *testing.T) {
	data := filepath.Join("..", "..", "..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(data, "cpu_act", "cpu_act.csv")); err != nil {
		t.Skip("no ../shared/datasets")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "fig3.md")
	o := options{data: data, percentile: 5, maxTrain: 60, feats: []int{3, 8}, seeds: 1, sets: []string{"cpu_act"}, out: out, png: filepath.Join(dir, "fig3")}
	if err := run(context.Background(), o, io.Discard); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"## cpu_act (MSE; 60 training, 656 validation, 819 test rows; γ = ", "| D | PRFF | RFF | ORF | Nyström | best |", "| 3 | ", "| 8 | ", "(a) PRFF better than RFF and ORF at every D: "} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "fig3-cpu_act.png")); err != nil || fi.Size() == 0 {
		t.Errorf("no plot: %v", err)
	}
}

// TestRidge: the centred normal equations give the ridge solution with an
// intercept (checked against the gradient of the objective), on a subset
// of rows too.
func TestRidge(t *testing.T) {
	n, D := 30, 4
	z := mat.NewDense(n, D, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < D; j++ {
			z.Set(i, j, math.Sin(float64(3*i+7*j+1)))
		}
		y[i] = math.Cos(float64(i)) + 2
	}
	idx := []int{0, 2, 3, 5, 8, 9, 11, 12, 17, 20, 21, 25, 29}
	for _, rows := range [][]int{nil, idx} {
		alpha := 0.3
		w, b, err := newStats(z, y, rows).solve(alpha)
		if err != nil {
			t.Fatal(err)
		}
		use := rows
		if use == nil {
			for i := 0; i < n; i++ {
				use = append(use, i)
			}
		}
		// ∂/∂w: −2Σ r_i z_i + 2αw = 0; ∂/∂b: −2Σ r_i = 0.
		g := make([]float64, D)
		var gb float64
		for _, i := range use {
			r := y[i] - b
			for j := 0; j < D; j++ {
				r -= w[j] * z.At(i, j)
			}
			for j := 0; j < D; j++ {
				g[j] -= r * z.At(i, j)
			}
			gb -= r
		}
		for j := range g {
			if math.Abs(g[j]+alpha*w[j]) > 1e-9 {
				t.Errorf("rows %v: gradient %d is %g", rows != nil, j, g[j]+alpha*w[j])
			}
		}
		if math.Abs(gb) > 1e-9 {
			t.Errorf("rows %v: intercept gradient %g", rows != nil, gb)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []options{
		{feats: []int{2}, seeds: 0, percentile: 5},
		{feats: []int{2}, seeds: 1, maxTrain: -1, percentile: 5},
		{feats: []int{2}, seeds: 1, percentile: 0},
		{feats: []int{2}, seeds: 1, sets: []string{"nope"}, percentile: 5},
	} {
		if err := run(context.Background(), o, io.Discard); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := ints("10,x"); err == nil {
		t.Error(`ints("10,x") succeeded`)
	}
}
