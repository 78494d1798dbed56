package srff_test

import (
	"testing"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/learnertest"
	_ "github.com/rfkit/rfkit/learners/srff"
)

// conformance is this learner's line in the shared suite.
var conformance = learnertest.Case{Method: "srff", Params: []string{"features=20", "lambda=0.01", "maxiterations=5", "gammaiterations=5"}, Rounds: 1, Tasks: []learners.Task{learners.Regression},
	BadParams: map[string]string{
		"lambdas=1000": "Lambdas = 1000", "validation=1": "Validation = 1", "gammaiterations=101": "GammaIterations = 101",
		"lambdamin=1 lambdamax=0.5": "LambdaMin = 1 is above LambdaMax = 0.5",
	},
	// weight 2 ≡ the row twice, 0 ≡ dropped, at a given λ and simplex size
	Weighted: [][]string{{"task=regression features=20 lambda=1e-3 simplex=2 maxiterations=30 gammaiterations=1 seed=2"}}}

func TestConformance(t *testing.T) { learnertest.Run(t, conformance) }

func FuzzLoad(f *testing.F) { learnertest.Fuzz(f, conformance) }
