package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The numeric flags of every command are declared with their bounds
// (flagSet.intRange, int64Range, durationRange): a value out of range, or
// not a number, fails in parse as a usage error (exit status 2) naming
// the flag and its range, before anything is read or allocated. It is the
// one validation path of a number given on the command line.

// boundedInt is an integer flag bounded to [lo, hi].
type boundedInt struct {
	p      *int64
	lo, hi int64
}

func (b *boundedInt) String() string {
	if b.p == nil {
		return "0"
	}
	return strconv.FormatInt(*b.p, 10)
}

func (b *boundedInt) Set(s string) error {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v < b.lo || v > b.hi {
		return fmt.Errorf("want an integer from %d to %d", b.lo, b.hi)
	}
	*b.p = v
	return nil
}

// intRange defines an int flag bounded to [lo, hi].
func (fs *flagSet) intRange(name string, def, lo, hi int, usage string) *int {
	p := new(int)
	fs.intRangeVar(p, name, def, lo, hi, usage)
	return p
}

// intRangeVar is intRange storing into p.
func (fs *flagSet) intRangeVar(p *int, name string, def, lo, hi int, usage string) {
	*p = def
	fs.Var(&intView{p: p, b: boundedInt{lo: int64(lo), hi: int64(hi)}}, name, usage)
}

// intView is a boundedInt that stores an int.
type intView struct {
	p *int
	b boundedInt
}

func (v *intView) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v *intView) Set(s string) error {
	var x int64
	v.b.p = &x
	if err := v.b.Set(s); err != nil {
		return err
	}
	*v.p = int(x)
	return nil
}

// int64RangeVar defines an int64 flag bounded to [lo, hi], stored in p.
func (fs *flagSet) int64RangeVar(p *int64, name string, def, lo, hi int64, usage string) {
	*p = def
	fs.Var(&boundedInt{p: p, lo: lo, hi: hi}, name, usage)
}

// boundedDuration is a duration flag bounded to [lo, hi].
type boundedDuration struct {
	p      *time.Duration
	lo, hi time.Duration
}

func (b *boundedDuration) String() string {
	if b.p == nil {
		return "0s"
	}
	return b.p.String()
}

func (b *boundedDuration) Set(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return errors.New("want a duration such as 200ms or 2s")
	}
	if v < b.lo || v > b.hi {
		return fmt.Errorf("want a duration from %v to %v", b.lo, b.hi)
	}
	*b.p = v
	return nil
}

// durationRange defines a duration flag bounded to [lo, hi].
func (fs *flagSet) durationRange(name string, def, lo, hi time.Duration, usage string) *time.Duration {
	p := new(time.Duration)
	*p = def
	fs.Var(&boundedDuration{p: p, lo: lo, hi: hi}, name, usage)
	return p
}
