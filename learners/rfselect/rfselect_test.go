package rfselect_test

import (
	"testing"

	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	"github.com/rfkit/rfkit/learners/rfselect"
)

// The registry's methods fix Selection, so the unknown one is Fit's alone
// (the rest of the Config checks run in the conformance suite).
func TestUnknownSelection(t *testing.T) {
	X, y := rings(20, 0, 0, 1, 1)
	learnertest.FitErrors(t, "rfselect: ", rfselect.Fit, []learnertest.FitCase[rfselect.Config]{{Name: "unknown selection", X: X, Y: y, Cfg: rfselect.Config{Selection: "top"}, Want: `rfselect: unknown Selection "top"`}})
}

// A file whose config names the other selection than its method.
func TestSelectionMismatch(t *testing.T) {
	X, y := rings(30, 0, 0, 1, 3)
	good := learnertest.Bytes(t, learnertest.MustFit(t, rfselect.Fit, X, y, rfselect.Config{Features: 10}))
	learnertest.LoadErrors(t, "rfselect: ", rfselect.Load, []learnertest.LoadCase{{Name: "selection mismatch", Data: learnertest.Rewrite(t, good, func(f *modelfile.File) {
		f.Header.Config = []byte(`{"Selection":"lkrf","Features":10,"Candidates":200,"Gamma":1,"Rho":1,"Lambda":1,"Loss":"ridge"}`)
	}), Want: `config selection "lkrf" in a "eerf" model`}})
}
