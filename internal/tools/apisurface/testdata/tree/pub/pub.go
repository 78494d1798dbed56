package pub

// T is a type.
type T[P any] struct {
	Field  int
	hidden int
}

// I is an interface.
type I interface{ Do() }

// M is a method.
func (*T[P]) M() {}

func (T[P]) m() {}

// F, C and V are top-level.
func F() {}

const C, c = 1, 2

var V int
