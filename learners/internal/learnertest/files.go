package learnertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// fileErrors checks the learner's own part of the model file: every
// array other than mean and scale missing or one element short, every
// header meta value missing, the config with its defaults unresolved
// ("{}"), with a numeric field out of range, and (binary models) with the
// regression task must each fail to load with an error wrapping
// learners.ErrCorrupt that starts with the prefix and says what is wrong.
func (s *suite) fileErrors(t *testing.T) {
	mm, _, _ := s.fit(t, s.c.tasks()[0], 60, 3)
	good := Bytes(t, mm)
	f0, err := modelfile.Parse(good)
	if err != nil {
		t.Fatal(err)
	}
	try := func(name, want string, mod func(f *modelfile.File)) {
		t.Helper()
		m, err := s.meth.Load(Rewrite(t, good, mod))
		if err == nil || m != nil {
			t.Errorf("%s: got %v, %v; want error %q", name, m, err, want)
		} else if !errors.Is(err, learners.ErrCorrupt) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), s.c.prefix()) {
			t.Errorf("%s: got %q, want ErrCorrupt, prefix %q and %q", name, err, s.c.prefix(), want)
		}
	}
	for i, a := range f0.Arrays {
		if a.Name == "mean" || a.Name == "scale" {
			continue
		}
		try("no "+a.Name, fmt.Sprintf("no array %q", a.Name), func(f *modelfile.File) { f.Arrays = slices.Delete(f.Arrays, i, i+1) })
		if len(a.Data) > 0 && !slices.Contains(s.c.FreeArrays, a.Name) {
			try("short "+a.Name, fmt.Sprintf("array %q has %d elements, want %d", a.Name, len(a.Data)-1, len(a.Data)),
				func(f *modelfile.File) { f.Arrays[i].Data = a.Data[:len(a.Data)-1] })
		}
	}
	for k := range f0.Header.Meta {
		try("no "+k, fmt.Sprintf("no meta value %q", k), func(f *modelfile.File) { delete(f.Header.Meta, k) })
	}
	try("unresolved", "unresolved defaults", func(f *modelfile.File) { f.Header.Config = []byte(`{}`) })
	var cfg map[string]any
	if err := json.Unmarshal(f0.Header.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	with := func(k string, v any) []byte {
		c := maps.Clone(cfg)
		c[k] = v
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, p := range learners.Params(s.meth.NewConfig()) {
		if p.Type == "float64" && !slices.Contains(s.c.Negative, p.Name) {
			k := goName(t, s.meth.NewConfig(), p.Name)
			try("config "+k, k+" = -1", func(f *modelfile.File) { f.Header.Config = with(k, -1) })
		}
	}
	if f0.Header.Task == modelfile.TaskBinary && slices.Contains(s.c.tasks(), learners.Regression) {
		// the valid config of a regression model in a binary file
		reg, _, _ := s.fit(t, learners.Regression, 60, 3)
		h, err := modelfile.ReadHeader(Bytes(t, reg))
		if err != nil {
			t.Fatal(err)
		}
		try("config task", "config task regression, header task binary", func(f *modelfile.File) { f.Header.Config = h.Config })
	}
}
