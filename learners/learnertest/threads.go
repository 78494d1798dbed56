package learnertest

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
)

// threads: a batch learner's Config has the shared thread limit, a field
// Threads of type learners.Threads that refuses −1, and a fit with
// threads=1 gives the same model bytes as with threads=2 and with the
// default (GOMAXPROCS, raised to at least 4 for the check), for every
// task, on 1000 rows (300 with -short), enough for the parallel parts to
// split. An online learner (Case.Online) has no such field.
func (s *suite) threads(t *testing.T) {
	cfg := s.meth.NewConfig()
	var field bool
	for _, p := range learners.Params(cfg) {
		field = field || p.Name == "threads"
	}
	if s.c.Online {
		if field {
			t.Error("an online learner has a threads parameter")
		}
		return
	}
	if !field {
		t.Fatal("no threads parameter (learners.Threads): every batch learner has one")
	}
	if f, ok := reflect.TypeOf(cfg).Elem().FieldByName("Threads"); !ok || f.Type != reflect.TypeFor[learners.Threads]() {
		t.Errorf("Config.Threads is %v, want a field of type learners.Threads", f.Type)
	}
	task := s.c.tasks()[0]
	X, y := data(task, 40, 1)
	if m, err := s.meth.Fit(t.Context(), X, y, s.config(t, task, "threads=-1"), nil); err == nil || m != nil ||
		!strings.HasPrefix(err.Error(), s.c.prefix()) || !strings.Contains(err.Error(), "Threads = -1") {
		t.Errorf("threads=-1: got %v, %v; want an error naming Threads = -1", m, err)
	}
	n := 1000
	if testing.Short() {
		n = 300
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0))))
	for _, task := range s.c.tasks() {
		var want []byte
		for _, th := range []string{"1", "2", "0"} {
			m, _, _ := s.fit(t, task, n, 4, "seed=42", "threads="+th)
			b, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = b
			} else if !bytes.Equal(b, want) {
				t.Errorf("%v: threads=%s: model bytes differ from threads=1", task, th)
			}
		}
	}
}
