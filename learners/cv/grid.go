package cv

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
)

// maxVariants bounds the size of an expanded grid.
const maxVariants = 100000

// Variant is one point of an expanded grid.
type Variant struct {
	Name   string // "key=value" pairs joined by commas, keys in sorted order; "" for an empty grid
	Config any    // a new pointer to a copy of the base Config with the values set
}

// Expand returns the Cartesian product of grid (parameter name → values) as
// configurations: each is a shallow copy of *base (a pointer to a Config
// struct, e.g. from learners.Method.NewConfig) with the values set by
// learners.SetParam. Keys are processed in sorted (lower-case) order, the
// last varying fastest; values in the order given. An empty grid gives one
// variant, a copy of base. Errors: a non-pointer base, an unknown key or bad
// value, a key given twice (in any case), a key without values, more than
// 100 000 variants.
func Expand(base any, grid map[string][]string) ([]Variant, error) {
	bv := reflect.ValueOf(base)
	if bv.Kind() != reflect.Pointer || bv.IsNil() || bv.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("cv: base config must be a non-nil pointer to a struct, got %T", base)
	}
	keys := make([]string, 0, len(grid))
	seen := map[string]string{}
	total := 1
	for k, vals := range grid {
		lk := strings.ToLower(k)
		if prev, dup := seen[lk]; dup {
			return nil, fmt.Errorf("cv: grid parameter given twice (%q and %q)", prev, k)
		}
		seen[lk] = k
		if len(vals) == 0 {
			return nil, fmt.Errorf("cv: grid parameter %q has no values", k)
		}
		if total > maxVariants/len(vals) {
			return nil, fmt.Errorf("cv: the grid has more than %d variants", maxVariants)
		}
		total *= len(vals)
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return strings.ToLower(keys[i]) < strings.ToLower(keys[j]) })

	out := make([]Variant, 0, total)
	idx := make([]int, len(keys)) // odometer over the values of each key
	for range total {
		cfg := reflect.New(bv.Elem().Type())
		cfg.Elem().Set(bv.Elem())
		parts := make([]string, len(keys))
		for i, k := range keys {
			v := grid[k][idx[i]]
			if err := learners.SetParam(cfg.Interface(), k, v); err != nil {
				return nil, fmt.Errorf("cv: %w", err)
			}
			parts[i] = strings.ToLower(k) + "=" + v
		}
		out = append(out, Variant{Name: strings.Join(parts, ","), Config: cfg.Interface()})
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < len(grid[keys[i]]) {
				break
			}
			idx[i] = 0
		}
	}
	return out, nil
}

// Candidates turns variants of a registered method's Config into grid
// candidates that call m.Fit, and FitWeighted with weights (without a
// progress callback).
func Candidates(m learners.Method, variants []Variant) []Candidate {
	out := make([]Candidate, len(variants))
	for i, v := range variants {
		out[i] = Candidate{Name: v.Name, Fit: func(ctx context.Context, X featmap.Matrix, y []float64) (learners.Model, error) {
			if m.Fit == nil {
				return nil, errors.New("method has no Fit")
			}
			return m.Fit(ctx, X, y, v.Config, nil)
		}, FitWeighted: func(ctx context.Context, X featmap.Matrix, y, w []float64) (learners.Model, error) {
			if m.Fit == nil {
				return nil, errors.New("method has no Fit")
			}
			return FitWeighted(ctx, m, X, y, w, v.Config, nil)
		}}
	}
	return out
}
