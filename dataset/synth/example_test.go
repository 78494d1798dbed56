package synth_test

import (
	"fmt"
	"log"

	"github.com/rfkit/rfkit/dataset/synth"
)

func ExampleCheckerboard() {
	s, err := synth.Checkerboard(1000, 0, 1)
	if err != nil {
		log.Fatal(err)
	}
	pos := 0
	for _, y := range s.Y {
		if y > 0 {
			pos++
		}
	}
	fmt.Printf("%s: %d×%d, %s, %d of %d labels are +1\n", s.Name, s.N, s.D, s.Task, pos, s.N)
	for i := range 3 {
		x := s.Row(i)
		fmt.Printf("x = (%.3f, %.3f)  cell (%d, %d)  y = %+.0f\n", x[0], x[1], int(x[0]), int(x[1]), s.Y[i])
	}
	// Output:
	// checkerboard: 1000×2, binary, 508 of 1000 labels are +1
	// x = (3.970, 2.594)  cell (3, 2)  y = +1
	// x = (3.066, 0.040)  cell (3, 0)  y = +1
	// x = (1.588, 0.122)  cell (1, 0)  y = +1
}
