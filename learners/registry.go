package learners

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/internal/hook"
)

// Method describes a learner to the CLI and to cross-validation.
type Method struct {
	// Name is the registry key and the "method" of its model files, e.g.
	// "rks".
	Name string
	// Doc is a one-line description.
	Doc string
	// Tasks are the tasks Fit accepts, declared once at registration
	// (Define's tasks): the Config's Validate refuses the others, and
	// Supports, MethodsFor, the command's task choice and the README's
	// methods table follow this list (tests hold them to it).
	Tasks []Task
	// NewConfig returns a pointer to a zero (= default) Config, ready for
	// SetParam and Params.
	NewConfig func() any
	// Fit trains a model. cfg is a value NewConfig returned; progress, if
	// not nil, replaces the Config's own callback.
	Fit func(ctx context.Context, X featmap.Matrix, y []float64, cfg any, progress Progress) (Model, error)
	// FitWeighted, if not nil, trains with a weight per row (len(w) ==
	// X.Rows, finite, ≥ 0, not all 0; 0 drops the row, and a weight of 2
	// acts as the row twice); w == nil means unweighted, the model Fit
	// returns, bit for bit (as sample_weight=None does elsewhere). The
	// field is nil when the learner takes no weights.
	FitWeighted func(ctx context.Context, X featmap.Matrix, y, w []float64, cfg any, progress Progress) (Model, error)
	// Load decodes a model file written by this learner.
	Load func(data []byte) (Model, error)
}

// The registry is the package's only mutable state. It is written by
// register (kit.Define), from the init functions of learner packages (which run one at a
// time, before main), and read-only afterwards: the first Lookup, Methods or
// Load freezes it, and a later register panics. Reads therefore need no lock.
var (
	registry = map[string]Method{}
	frozen   atomic.Bool
)

func init() { hook.Register = func(m any) { register(m.(Method)) } }

// register adds a learner (the learner kit's Define, through
// hook.Register). Call it only from an init function. It panics on an
// empty or duplicate name, a nil function, or after the registry has been
// read.
func register(m Method) {
	switch {
	case frozen.Load():
		panic("learners: Register(" + m.Name + ") after the registry was read; call it from init")
	case m.Name == "" || m.Name != strings.ToLower(strings.TrimSpace(m.Name)):
		panic(fmt.Sprintf("learners: Register: bad name %q (want lower case, no spaces)", m.Name))
	case m.NewConfig == nil || m.Fit == nil || m.Load == nil:
		panic("learners: Register(" + m.Name + "): NewConfig, Fit and Load must be set")
	case len(m.Tasks) == 0:
		panic("learners: Register(" + m.Name + "): no Tasks declared")
	}
	for _, t := range m.Tasks {
		if t != Binary && t != Multiclass && t != Regression {
			panic(fmt.Sprintf("learners: Register(%s): unknown task %d", m.Name, int(t)))
		}
	}
	if _, dup := registry[m.Name]; dup {
		panic("learners: Register: duplicate method " + m.Name)
	}
	registry[m.Name] = m
}

// Lookup returns the learner called name. The error lists the registered
// names.
func Lookup(name string) (Method, error) {
	frozen.Store(true)
	if m, ok := registry[name]; ok {
		return m, nil
	}
	return Method{}, fmt.Errorf("unknown method %q (registered: %s)", name, strings.Join(names(), ", "))
}

// Methods returns every registered learner, sorted by name.
func Methods() []Method {
	frozen.Store(true)
	out := make([]Method, 0, len(registry))
	for _, n := range names() {
		out = append(out, registry[n])
	}
	return out
}

func names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Load decodes a model file written by any registered learner: it reads the
// "method" of the header and hands data to that learner's Load. The learner
// package must be linked in (imported, if only for its side effect).
// Errors for malformed files wrap ErrCorrupt.
func Load(data []byte) (Model, error) {
	h, err := modelfile.ReadHeader(data)
	if err != nil {
		return nil, fmt.Errorf("learners: %w", err)
	}
	m, err := Lookup(h.Method)
	if err != nil {
		return nil, fmt.Errorf("learners: model file: %w", err)
	}
	return m.Load(data)
}

// MethodsFor returns the names of the registered learners that fit task
// t (Method.Tasks), sorted: what a command lists when a method cannot do the
// task asked for.
func MethodsFor(t Task) []string {
	var out []string
	for _, m := range Methods() {
		if slices.Contains(m.Tasks, t) {
			out = append(out, m.Name)
		}
	}
	return out
}
