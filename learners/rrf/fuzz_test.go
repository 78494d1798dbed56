package rrf_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/rrf"
)

func FuzzUnmarshal(f *testing.F) {
	X, y := rings(60, 2, 1)
	m, err := rrf.Fit(context.Background(), featmap.Dense(60, 2, X), y, rrf.Config{Features: 4, Epochs: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(must(m.MarshalBinary()))
	l, _ := rrf.NewLearner(2, rrf.Config{Features: 3, Classes: []float64{1, 2, 3}})
	f.Add(must(l.Snapshot().MarshalBinary()))
	f.Add([]byte("RFKITMDL"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := rrf.Load(data)
		if err != nil {
			if !errors.Is(err, learners.ErrCorrupt) {
				t.Fatalf("error without ErrCorrupt: %v", err)
			}
			return
		}
		x := make([]float64, m.NumInputs())
		m.Predict(x)
		if _, err := m.MarshalBinary(); err != nil {
			t.Fatal(err)
		}
	})
}
