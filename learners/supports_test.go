package learners_test

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/kernel"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/nogd"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rks"
	_ "github.com/rfkit/rfkit/learners/rrf"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// TestSupports: the multiclass learners (gbrff2, gbrff1 and pbrff among
// them), gbrff1 for binary and regression too, and pbrff for binary and
// multiclass only.
func TestSupports(t *testing.T) {
	mc := learners.MethodsFor(learners.Multiclass)
	for _, name := range []string{"eerf", "fogd", "gbrff1", "gbrff2", "lkrf", "mfga", "pbrff", "prff", "rks", "rrf"} {
		if !slices.Contains(mc, name) {
			t.Errorf("%s missing from the multiclass methods %v", name, mc)
		}
	}
	if m, err := learners.Lookup("gbrff1"); err != nil || !slices.Contains(m.Tasks, learners.Regression) || !slices.Contains(m.Tasks, learners.Binary) {
		t.Errorf("gbrff1: want binary and regression too (%v)", err)
	}
	for _, name := range []string{"pbrff"} {
		if m, err := learners.Lookup(name); err == nil {
			if !slices.Contains(m.Tasks, learners.Multiclass) || slices.Contains(m.Tasks, learners.Regression) || !slices.Contains(m.Tasks, learners.Binary) {
				t.Errorf("%s: supports multiclass %v, regression %v, binary %v", name,
					slices.Contains(m.Tasks, learners.Multiclass), slices.Contains(m.Tasks, learners.Regression), slices.Contains(m.Tasks, learners.Binary))
			}
			if slices.Contains(learners.MethodsFor(learners.Regression), name) {
				t.Errorf("%s listed for regression", name)
			}
		}
	}
	if m, _ := learners.Lookup("rks"); !slices.Contains(m.Tasks, learners.Regression) || !slices.Contains(m.Tasks, learners.Binary) {
		t.Error("rks: regression or binary not supported")
	}
	// srff is regression only: its zero Task stands for regression, so a
	// trial Validate with Task = binary passes and used to list it for binary.
	if m, _ := learners.Lookup("srff"); slices.Contains(m.Tasks, learners.Binary) || slices.Contains(m.Tasks, learners.Multiclass) || !slices.Contains(m.Tasks, learners.Regression) {
		t.Errorf("srff: want regression only, declared %v", m.Tasks)
	}
}

// TestTasksAgreeWithValidate: the tasks each learner declares at
// registration are exactly those its Config's Validate accepts. A Config
// without a task parameter does Binary only. For a learner that declares no
// Binary (srff), the zero Task stands for its default task, so Binary is
// not asked of its Validate.
func TestTasksAgreeWithValidate(t *testing.T) {
	all := []learners.Task{learners.Binary, learners.Multiclass, learners.Regression}
	if n := len(learners.Methods()); n < 13 {
		t.Fatalf("%d methods registered; the imports above are missing learners", n)
	}
	for _, m := range learners.Methods() {
		for _, task := range all {
			if task == learners.Binary && !slices.Contains(m.Tasks, learners.Binary) {
				continue
			}
			cfg := m.NewConfig()
			var accepts bool
			if err := learners.SetParam(cfg, "task", task.String()); err == nil {
				accepts = validate(cfg) == nil
			} else {
				accepts = task == learners.Binary && validate(cfg) == nil
			}
			if accepts != slices.Contains(m.Tasks, task) {
				t.Errorf("%s: Validate accepts %v: %v; declared Tasks %v", m.Name, task, accepts, m.Tasks)
			}
		}
	}
}

// validate calls the Validate of the Config cfg points to.
func validate(cfg any) error {
	if v, ok := cfg.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	if v, ok := reflect.ValueOf(cfg).Elem().Interface().(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

// TestPackageDocTasks: the package doc's sentence on which learners fit
// which task names, for each task, the learners that do not declare it.
func TestPackageDocTasks(t *testing.T) {
	src, err := os.ReadFile("learners.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "//", "")), " ")
	without := func(task learners.Task) string {
		var out []string
		for _, m := range learners.Methods() {
			if m.Name == "fake" || m.Name == "eerf" || m.Name == "lkrf" || m.Name == "gbrff1" || m.Name == "gbrff2" {
				continue // the test double; variants share their package's line
			}
			if !slices.Contains(m.Tasks, task) {
				out = append(out, m.Name)
			}
		}
		switch len(out) {
		case 1:
			return out[0]
		case 0:
			return ""
		}
		return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
	}
	for _, want := range []string{
		"every learner but " + without(learners.Binary) + " (regression only) does Binary",
		"all but " + without(learners.Regression) + " do Regression",
		"all but " + without(learners.Multiclass) + " do Multiclass",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the package doc (learners.go) does not say %q", want)
		}
	}
}
