package rrf

import "slices"

// Constants the external tests read.
const DefaultEpochs = defaultEpochs
const DefaultRegressionEpochs = defaultRegressionEpochs
const MaxLogWidth = maxLogWidth

// LogWidths returns a copy of the log widths γ̃ of m.
func LogWidths(m *Model) []float64 { return slices.Clone(m.Body().p.lg) }
