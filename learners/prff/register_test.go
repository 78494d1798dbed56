package prff_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/prff"
)

func TestRegistered(t *testing.T) {
	meth, err := learners.Lookup("prff")
	if err != nil {
		t.Fatal(err)
	}
	cfg := meth.NewConfig()
	for k, v := range map[string]string{"features": "20", "Task": "regression", "LAMBDA": "0.01", "seed": "7"} {
		if err := learners.SetParam(cfg, k, v); err != nil {
			t.Fatal(err)
		}
	}
	want := prff.Config{Features: 20, Task: learners.Regression, Lambda: 0.01, Seed: 7}
	if c := *cfg.(*prff.Config); c.Features != want.Features || c.Task != want.Task || c.Lambda != want.Lambda || c.Seed != want.Seed {
		t.Fatalf("config %+v", c)
	}
	if err := learners.SetParam(cfg, "loss", "hinge"); err != nil { // Validate's business
		t.Fatal(err)
	}
	X, y := sine(100, 1)
	if _, err := meth.Fit(context.Background(), X, y, cfg, nil); err == nil || !strings.Contains(err.Error(), `unknown Loss "hinge"`) {
		t.Fatalf("bad loss: %v", err)
	}
	_ = learners.SetParam(cfg, "loss", "ridge")
	rounds := 0
	m, err := meth.Fit(context.Background(), X, y, cfg, func(learners.Event) error { rounds++; return nil })
	if err != nil || rounds != 21 || m.Task() != learners.Regression || m.NumInputs() != 2 {
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
	if _, err := meth.Fit(context.Background(), X, y, prff.Config{}, nil); err == nil {
		t.Error("Fit accepted a Config value instead of a pointer")
	}

	names := map[string]bool{}
	for _, p := range learners.Params(cfg) {
		names[p.Name] = true
	}
	if len(names) != 12 || !names["gamma"] || !names["alpha"] || !names["freqlambda"] || names["progress"] {
		t.Errorf("params %v", names)
	}
}
