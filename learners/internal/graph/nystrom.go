package graph

import "github.com/rfkit/rfkit/featmap"

// Nystrom returns the block of the Nyström map n read out by coef (len
// n.Outputs(), one score).
func Nystrom(n *featmap.Nystrom, coef []float64) Block {
	return Block{Act: Gaussian, D: n.Outputs(), W: n.Landmarks(), Gamma: n.Gamma(), Proj: n.Projection(), R: coef}
}
