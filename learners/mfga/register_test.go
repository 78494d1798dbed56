package mfga_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/mfga"
)

func TestRegistered(t *testing.T) {
	meth, err := learners.Lookup("mfga")
	if err != nil {
		t.Fatal(err)
	}
	cfg := meth.NewConfig()
	for k, v := range map[string]string{"features": "20", "Task": "regression", "LAMBDA": "0.01", "seed": "7", "perstep": "2"} {
		if err := learners.SetParam(cfg, k, v); err != nil {
			t.Fatal(err)
		}
	}
	want := mfga.Config{Features: 20, Task: learners.Regression, Lambda: 0.01, Seed: 7, PerStep: 2}
	if c := *cfg.(*mfga.Config); c.Features != want.Features || c.Task != want.Task || c.Lambda != want.Lambda || c.Seed != want.Seed || c.PerStep != want.PerStep {
		t.Fatalf("config %+v", c)
	}
	if err := learners.SetParam(cfg, "degree", "3"); err != nil { // Validate's business
		t.Fatal(err)
	}
	X, y := sine(100, 1)
	if _, err := meth.Fit(context.Background(), X, y, cfg, nil); err == nil || !strings.Contains(err.Error(), "Degree = 3") {
		t.Fatalf("bad degree: %v", err)
	}
	_ = learners.SetParam(cfg, "degree", "0")
	rounds := 0
	m, err := meth.Fit(context.Background(), X, y, cfg, func(learners.Event) error { rounds++; return nil })
	if err != nil || rounds != 4 || m.Task() != learners.Regression || m.NumInputs() != 2 {
		t.Fatalf("Fit: %v, %d rounds", err, rounds)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if m2, err := meth.Load(data); err != nil || m2.Predict(X.Row(0)) != m.Predict(X.Row(0)) {
		t.Fatalf("Load: %v", err)
	}
	if m2, err := meth.Load(data[:10]); err == nil || m2 != nil {
		t.Fatalf("Load of a truncated file: %v, %v", m2, err)
	}
	if _, err := meth.Fit(context.Background(), X, y, mfga.Config{}, nil); err == nil {
		t.Error("Fit accepted a Config value instead of a pointer")
	}

	names := map[string]bool{}
	for _, p := range learners.Params(cfg) {
		names[p.Name] = true
	}
	if len(names) != 8 || !names["sigma"] || !names["perstep"] || names["progress"] {
		t.Errorf("params %v", names)
	}
}
