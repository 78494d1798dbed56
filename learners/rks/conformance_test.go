package rks_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/learnertest"
	_ "github.com/rfkit/rfkit/learners/rks"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "rks", Tasks: learnertest.AllTasks, Params: []string{"features=20"}, Rounds: 2, NumParams: 8, NoLoss: []int{1},
	// The data of the golden files are bit-identical everywhere (package
	// synth), and every step of Fit is too: the standardisation (prep), the
	// frequency draws (internal/xrand), the features (asm.CosAffine), L-BFGS
	// with its Moré–Thuente line search and the logistic loss (trig.Exp,
	// xmath.Log1p), and the ridge Gram matrix and Cholesky solve (package
	// solvers, fixed order, no fused products).
	Golden: map[string][]string{
		"logistic":     {"features=40", "seed=3"},
		"ridge":        {"features=40", "task=regression", "lambda=1e-4", "seed=4"},
		"binary-ridge": {"features=30", "loss=ridge", "seed=5"},
		"multiclass":   {"task=multiclass", "features=20", "seed=3"},
		// every map; a Nyström model is rebuilt from its landmarks on
		// Load, so its bytes also pin the eigendecomposition
		"orf":            {"map=orf", "features=30", "seed=6"},
		"laplacian":      {"map=laplacian", "features=30", "task=regression", "seed=7"},
		"nystrom":        {"map=nystrom", "features=30", "seed=8"},
		"nystrom-kmeans": {"map=nystrom-kmeans++", "features=30", "task=regression", "seed=9"},
	},
	// RKS with the defaults measured 0.966–0.99 on the rings with both
	// losses (a linear classifier: 0.44–0.55 on 10 seeds) and RMSE
	// 0.14–0.19 on the sine (the noise floor is 0.1, the mean predictor's
	// ≈ 0.89) on 10 seeds.
	Accuracy:     &learnertest.Learns{Rings: 0.90, Sine: 0.3, Each: [][]string{{"loss=ridge"}}},
	BadParams:    learnertest.Linear,
	Variants:     [][]string{{"map=orf"}, {"map=laplacian"}, {"map=nystrom"}, {"map=nystrom-kmeans++"}},
	VariantTasks: []learners.Task{learners.Binary, learners.Regression},
	// weight 2 ≡ the row twice, 0 ≡ dropped, for every task and both losses
	Weighted: [][]string{{"task=multiclass", weighted}, {"loss=logistic", weighted}, {"loss=ridge", weighted}, {"task=regression", weighted}}}

// weighted is the setting of the weights check.
const weighted = "features=30 seed=2"

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
