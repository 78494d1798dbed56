package gbrff_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners/gbrff"
)

// This file is the embedding example: train, save, load once at start-up,
// and Predict inside an HTTP handler. README.md quotes the code between the
// README markers verbatim (cmd/rfkit TestREADMEExample checks it).

// README:begin
// saveModel trains GBRFF2 on n rows of d features (X row-major, y two labels).
func saveModel(ctx context.Context, X []float64, n, d int, y []float64, path string) error {
	m, err := gbrff.Fit(ctx, featmap.Dense(n, d, X), y, gbrff.Config{T: 100, Gamma: 4, Seed: 1})
	if err != nil {
		return err
	}
	data, err := m.MarshalBinary() // the sampled frequencies are stored, not re-drawn
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// predictHandler answers a JSON array of features with the predicted label.
func predictHandler(model *gbrff.Model) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var x []float64
		if json.NewDecoder(r.Body).Decode(&x) != nil || len(x) != model.NumInputs() {
			http.Error(w, "want a JSON array of features", http.StatusBadRequest)
			return
		}
		fmt.Fprintln(w, model.Predict(x))
	}
}

// README:end

func Example_embedding() {
	train, _ := synth.ByName("spirals", 1000, 1)
	test, _ := synth.ByName("spirals", 200, 2)
	dir, err := os.MkdirTemp("", "rfkit-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "spirals.model")
	if err := saveModel(context.Background(), train.X, train.N, train.D, train.Y, path); err != nil {
		panic(err)
	}

	// At start-up: load the model once.
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	model, err := gbrff.Load(data)
	if err != nil {
		panic(err)
	}
	h := predictHandler(model)

	ok := 0
	for i := 0; i < test.N; i++ {
		body, _ := json.Marshal(test.Row(i))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/predict", bytes.NewReader(body)))
		if strings.TrimSpace(rec.Body.String()) == strconv.FormatFloat(test.Y[i], 'g', -1, 64) {
			ok++
		}
	}
	fmt.Println("test accuracy above 95%:", float64(ok)/float64(test.N) > 0.95)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/predict", strings.NewReader(`[1, 2, 3]`)))
	fmt.Println("three features:", rec.Code)
	// Output:
	// test accuracy above 95%: true
	// three features: 400
}
