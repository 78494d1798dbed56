package kit

import "github.com/rfkit/rfkit/learners"

// The links of a binary model's score to its probability (Common.Link).
const (
	// NoProbability: the loss does not estimate one (Probability is NaN).
	NoProbability learners.Link = iota
	// Logistic: 1/(1 + e^{−score}), for the logistic and exponential-type
	// losses. The exponential is internal/xmath's, the same bits on every
	// architecture.
	Logistic
	// Clamped: (1 + score)/2 clamped to [0, 1], for least squares on ±1
	// labels (whose minimiser is E[y|x] = 2p − 1).
	Clamped
	// HalfLogOdds: 1/(1 + e^{−2·score}), for the exponential loss, whose
	// minimiser is half the log-odds.
	HalfLogOdds
)
