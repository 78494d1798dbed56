package mfga

import "slices"

// RiskPath returns the regularised training risk of the intercept-only
// model followed by the risk after each greedy step (a copy).
func RiskPath(m *Model) []float64 { return slices.Clone(m.Body().path) }
