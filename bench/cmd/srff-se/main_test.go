package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// TestRunTiny runs the whole pipeline at toy sizes and checks the table.
func TestRunTiny(t *testing.T) {
	// At most 20 alternations: on 40 rows the smallest λ interpolates, J
	// tends to 0 and the relative stopping rule never holds.
	o := options{sets: []string{"SE1", "SE2"}, sizes: []int{40}, test: 50, features: 10, lambdas: 2, maxIter: 20, seed: 1}
	res, err := run(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || len(res[0].top) != 5 || len(res[1].relevant) != 5 {
		t.Fatalf("results %+v", res)
	}
	md := markdown(o, res)
	for _, want := range []string{"| SE1 | 40 |", "| SE2 | 40 |", "SE2 {1,…,5}", "Targets"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
	if _, err := run(context.Background(), options{sets: []string{"SE9"}, sizes: []int{40}, test: 10, features: 4, lambdas: 1}, io.Discard); err == nil {
		t.Error("unknown set accepted")
	}
}
