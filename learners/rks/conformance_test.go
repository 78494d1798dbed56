package rks_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	_ "github.com/rfkit/rfkit/learners/rks"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "rks", Tasks: learnertest.AllTasks, Params: []string{"features=20"}, Rounds: 2, NumParams: 11, NoLoss: []int{1},
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
	// ≈ 0.89) on 10 seeds. Every map learns both (100 features, logistic:
	// rff 0.990, orf 0.973, laplacian 0.965, nystrom 0.993,
	// nystrom-kmeans++ 0.993; RMSE rff 0.173, orf 0.150, laplacian 0.134,
	// nystrom 0.124, nystrom-kmeans++ 0.124).
	Accuracy: &learnertest.Learns{Rings: 0.90, Sine: 0.3, Each: append([][]string{{"loss=ridge"}}, maps...), SineEach: maps},
	// Regression resolves the loss to ridge; every map is stored by its
	// name, rff (the default) as "".
	Resolved: map[string][]string{"task=regression": {"Loss=ridge"}, "map=rff": {"Map="}, "map=orf": {"Map=orf"},
		"map=laplacian": {"Map=laplacian"}, "map=nystrom": {"Map=nystrom"}, "map=nystrom-kmeans++": {"Map=nystrom-kmeans++"}},
	BadParams:    learnertest.Linear,
	Variants:     maps,
	VariantTasks: []learners.Task{learners.Binary, learners.Regression},
	// weight 2 ≡ the row twice, 0 ≡ dropped, for every task and both losses
	Weighted: [][]string{{"task=multiclass", weighted}, {"loss=logistic", weighted}, {"loss=ridge", weighted}, {"task=regression", weighted}}}

// maps are the settings of the maps other than the default rff.
var maps = [][]string{{"map=orf"}, {"map=laplacian"}, {"map=nystrom"}, {"map=nystrom-kmeans++"}}

// weighted is the setting of the weights check.
const weighted = "features=30 seed=2"

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
