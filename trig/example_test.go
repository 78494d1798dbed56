package trig_test

import (
	"fmt"

	"github.com/rfkit/rfkit/trig"
)

func ExampleCos() {
	x := []float64{0, 1, 3.141592653589793, 1e22}
	y := make([]float64, len(x))
	trig.Cos(y, x)
	fmt.Println(y)
	// Output: [1 0.5403023058681398 -1 0.523214785395139]
}

func ExampleSincos() {
	x := []float64{0.5, -2}
	s := make([]float64, len(x))
	c := make([]float64, len(x))
	trig.Sincos(s, c, x)
	fmt.Printf("%.6f %.6f\n", s, c)
	// Output: [0.479426 -0.909297] [0.877583 -0.416147]
}

func ExampleExp() {
	x := []float64{0, 1, 709.782712893384, -745.1332191019411, 710}
	trig.Exp(x, x) // in place
	fmt.Println(x)
	// Output: [1 2.718281828459045 1.7976931348622732e+308 5e-324 +Inf]
}
