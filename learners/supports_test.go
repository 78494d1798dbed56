package learners_test

import (
	"slices"
	"testing"

	"github.com/rfkit/rfkit/learners"
	_ "github.com/rfkit/rfkit/learners/fogd"
	_ "github.com/rfkit/rfkit/learners/mfga"
	_ "github.com/rfkit/rfkit/learners/pbrff"
	_ "github.com/rfkit/rfkit/learners/prff"
	_ "github.com/rfkit/rfkit/learners/rfselect"
	_ "github.com/rfkit/rfkit/learners/rrf"
)

// TestSupports: the multiclass learners, and gbrff and pbrff (no Task
// field) as binary classifiers only.
func TestSupports(t *testing.T) {
	mc := learners.MethodsFor(learners.Multiclass)
	for _, name := range []string{"eerf", "fogd", "lkrf", "mfga", "prff", "rks", "rrf"} {
		if !slices.Contains(mc, name) {
			t.Errorf("%s missing from the multiclass methods %v", name, mc)
		}
	}
	for _, name := range []string{"gbrff2", "gbrff1", "gbrff", "pbrff"} {
		if m, err := learners.Lookup(name); err == nil {
			if m.Supports(learners.Multiclass) || m.Supports(learners.Regression) || !m.Supports(learners.Binary) {
				t.Errorf("%s: supports multiclass %v, regression %v, binary %v", name,
					m.Supports(learners.Multiclass), m.Supports(learners.Regression), m.Supports(learners.Binary))
			}
			if slices.Contains(mc, name) {
				t.Errorf("%s listed for multiclass", name)
			}
		}
	}
	if m, _ := learners.Lookup("rks"); !m.Supports(learners.Regression) || !m.Supports(learners.Binary) {
		t.Error("rks: regression or binary not supported")
	}
}
