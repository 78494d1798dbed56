package prff

import "slices"

// Losses returns the Gram loss of each feature of m on its mini-batch
// after learning (a copy).
func Losses(m *Map) []float64 { return slices.Clone(m.losses) }
