package learners_test

import (
	"slices"
	"testing"

	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/gbrff"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rrf"
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
	if m, err := learners.Lookup("gbrff1"); err != nil || !m.Supports(learners.Regression) || !m.Supports(learners.Binary) {
		t.Errorf("gbrff1: want binary and regression too (%v)", err)
	}
	for _, name := range []string{"pbrff"} {
		if m, err := learners.Lookup(name); err == nil {
			if !m.Supports(learners.Multiclass) || m.Supports(learners.Regression) || !m.Supports(learners.Binary) {
				t.Errorf("%s: supports multiclass %v, regression %v, binary %v", name,
					m.Supports(learners.Multiclass), m.Supports(learners.Regression), m.Supports(learners.Binary))
			}
			if slices.Contains(learners.MethodsFor(learners.Regression), name) {
				t.Errorf("%s listed for regression", name)
			}
		}
	}
	if m, _ := learners.Lookup("rks"); !m.Supports(learners.Regression) || !m.Supports(learners.Binary) {
		t.Error("rks: regression or binary not supported")
	}
}
