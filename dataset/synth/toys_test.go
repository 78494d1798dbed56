package synth

import (
	"math"
	"testing"
)

const geomTol = 1e-12

func TestCheckerboardParity(t *testing.T) {
	s, err := Checkerboard(5000, 0, 9)
	if err != nil {
		t.Fatal(err)
	}
	var cells [checkerboardCells * checkerboardCells]int
	for i := range s.N {
		x := s.Row(i)
		if x[0] < 0 || x[0] >= 4 || x[1] < 0 || x[1] >= 4 {
			t.Fatalf("point %d = %v outside [0, 4)²", i, x)
		}
		c0, c1 := int(math.Floor(x[0])), int(math.Floor(x[1]))
		want := -1.0
		if (c0+c1)%2 == 1 {
			want = 1
		}
		if s.Y[i] != want {
			t.Fatalf("point %d = %v in cell (%d, %d): label %v, want %v", i, x, c0, c1, s.Y[i], want)
		}
		cells[4*c0+c1]++
	}
	for c, k := range cells { // uniform: 312.5 expected per cell
		if k < 230 || k > 400 {
			t.Errorf("cell %d holds %d points, want about 312", c, k)
		}
	}
}

func TestCirclesRadiusBands(t *testing.T) {
	s, err := Circles(4003, 0, 11)
	if err != nil {
		t.Fatal(err)
	}
	var rings [4]int
	for i := range s.N {
		x := s.Row(i)
		r := math.Hypot(x[0], x[1])
		k := math.Round(r)
		if math.Abs(r-k) > geomTol || k < 1 || k > 4 {
			t.Fatalf("point %d at radius %v, want 1, 2, 3 or 4", i, r)
		}
		want := 1.0
		if int(k)%2 == 0 {
			want = -1
		}
		if s.Y[i] != want {
			t.Fatalf("point %d at radius %v: label %v, want %v", i, r, s.Y[i], want)
		}
		rings[int(k)-1]++
	}
	if rings != [4]int{1001, 1001, 1001, 1000} {
		t.Errorf("ring counts %v, want [1001 1001 1001 1000]", rings)
	}
}

func TestMoonsOnArcs(t *testing.T) {
	s, err := Moons(3000, 0, 13)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.N {
		x := s.Row(i)
		cx, cy, upper := 0.0, 0.0, true // -1: upper arc of the unit circle at 0
		if s.Y[i] == 1 {
			cx, cy, upper = 1, 0.5, false // +1: lower arc of the unit circle at (1, ½)
		}
		if d := math.Hypot(x[0]-cx, x[1]-cy); math.Abs(d-1) > geomTol {
			t.Fatalf("point %d = %v (label %v) at distance %v from its centre, want 1", i, x, s.Y[i], d)
		}
		if (upper && x[1] < cy-geomTol) || (!upper && x[1] > cy+geomTol) {
			t.Fatalf("point %d = %v (label %v) on the wrong half of its circle", i, x, s.Y[i])
		}
	}
}

func TestSpiralsOnCurves(t *testing.T) {
	s, err := Spirals(3000, 0, 17)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.N {
		x := s.Row(i)
		// Undo the rotation of the -1 spiral, then recover θ from the radius.
		p0, p1 := s.Y[i]*x[0], s.Y[i]*x[1]
		r := math.Hypot(p0, p1)
		if r < 0.5-geomTol || r > 3.5+geomTol {
			t.Fatalf("point %d = %v at radius %v, want [0.5, 3.5]", i, x, r)
		}
		theta := math.Pi * r
		if math.Abs(r*math.Cos(theta)-p0) > 1e-9 || math.Abs(r*math.Sin(theta)-p1) > 1e-9 {
			t.Fatalf("point %d = %v (label %v) is not on its spiral", i, x, s.Y[i])
		}
	}
}

// TestToysNearestNeighbour checks that the toys are learnable:
// leave-one-out 1-NN accuracy on 800 points is far above chance. The
// checkerboard runs without noise, because noise > 0 relabels points near
// the cell borders.
func TestToysNearestNeighbour(t *testing.T) {
	for _, c := range []struct {
		name  string
		f     func(int, float64, uint64) (*Set, error)
		noise float64
	}{{"moons", Moons, 0.1}, {"spirals", Spirals, 0.1}, {"circles", Circles, 0.1}, {"checkerboard", Checkerboard, 0}} {
		s, err := c.f(800, c.noise, 19)
		if err != nil {
			t.Fatal(err)
		}
		correct := 0
		for i := range s.N {
			best, bestD := -1, math.Inf(1)
			for j := range s.N {
				if j == i {
					continue
				}
				if d := math.Hypot(s.X[2*i]-s.X[2*j], s.X[2*i+1]-s.X[2*j+1]); d < bestD {
					best, bestD = j, d
				}
			}
			if s.Y[best] == s.Y[i] {
				correct++
			}
		}
		if acc := float64(correct) / float64(s.N); acc < 0.9 {
			t.Errorf("%s: leave-one-out 1-NN accuracy %.3f, want >= 0.9", c.name, acc)
		}
	}
}
