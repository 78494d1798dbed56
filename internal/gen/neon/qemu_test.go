package neon

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A qemuCase is one assembly function func(out, a, b, c *[8]uint64) and its
// Go reference. out starts zeroed.
type qemuCase struct {
	name  string
	body  func(e *Emitter) // R0=out, R1=a, R2=b, R3=c already loaded
	ref   func(a, b, c [8]uint64) [8]uint64
	float bool // compare as float64: any NaN matches any NaN
}

// Registers used by the lane-wise cases: a in va, b in vb, c (and the
// destination) in vd.
const (
	va = V31
	vb = V0
	vd = V17
)

func lanes(name string, float bool, op func(e *Emitter), f func(a, b, c uint64) uint64) qemuCase {
	return qemuCase{
		name:  name,
		float: float,
		body: func(e *Emitter) {
			e.LD1(R1, va)
			e.LD1(R2, vb)
			e.LD1(R3, vd)
			op(e)
			e.ST1(R0, vd)
		},
		ref: func(a, b, c [8]uint64) (out [8]uint64) {
			out[0] = f(a[0], b[0], c[0])
			out[1] = f(a[1], b[1], c[1])
			return
		},
	}
}

func ff(f func(x, y, z float64) float64) func(a, b, c uint64) uint64 {
	return func(a, b, c uint64) uint64 {
		return math.Float64bits(f(math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)))
	}
}

func mask(b bool) uint64 {
	if b {
		return ^uint64(0)
	}
	return 0
}

func fcmp(f func(x, y float64) bool) func(a, b, c uint64) uint64 {
	return func(a, b, _ uint64) uint64 {
		return mask(f(math.Float64frombits(a), math.Float64frombits(b)))
	}
}

func fcvtzs(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 0x1p63:
		return math.MaxInt64
	case x <= -0x1p63:
		return math.MinInt64
	}
	return int64(x)
}

func qemuCases() []qemuCase {
	cs := []qemuCase{
		lanes("FADD", true, func(e *Emitter) { e.FADD(vd, va, vb) }, ff(func(x, y, _ float64) float64 { return x + y })),
		lanes("FSUB", true, func(e *Emitter) { e.FSUB(vd, va, vb) }, ff(func(x, y, _ float64) float64 { return x - y })),
		lanes("FMUL", true, func(e *Emitter) { e.FMUL(vd, va, vb) }, ff(func(x, y, _ float64) float64 { return x * y })),
		lanes("FDIV", true, func(e *Emitter) { e.FDIV(vd, va, vb) }, ff(func(x, y, _ float64) float64 { return x / y })),
		lanes("FMAX", true, func(e *Emitter) { e.FMAX(vd, va, vb) }, ff(func(x, y, _ float64) float64 { return math.Max(x, y) })),
		lanes("FMIN", true, func(e *Emitter) { e.FMIN(vd, va, vb) }, ff(func(x, y, _ float64) float64 { return math.Min(x, y) })),
		lanes("FMLA", true, func(e *Emitter) { e.FMLA(vd, va, vb) }, ff(func(x, y, z float64) float64 { return math.FMA(x, y, z) })),
		lanes("FMLS", true, func(e *Emitter) { e.FMLS(vd, va, vb) }, ff(func(x, y, z float64) float64 { return math.FMA(-x, y, z) })),
		lanes("FABS", false, func(e *Emitter) { e.FABS(vd, va) }, func(a, _, _ uint64) uint64 { return a &^ (1 << 63) }),
		lanes("FNEG", false, func(e *Emitter) { e.FNEG(vd, va) }, func(a, _, _ uint64) uint64 { return a ^ (1 << 63) }),
		lanes("FSQRT", true, func(e *Emitter) { e.FSQRT(vd, va) }, ff(func(x, _, _ float64) float64 { return math.Sqrt(x) })),
		lanes("FRINTN", true, func(e *Emitter) { e.FRINTN(vd, va) }, ff(func(x, _, _ float64) float64 { return math.RoundToEven(x) })),
		lanes("FRINTM", true, func(e *Emitter) { e.FRINTM(vd, va) }, ff(func(x, _, _ float64) float64 { return math.Floor(x) })),
		lanes("FRINTP", true, func(e *Emitter) { e.FRINTP(vd, va) }, ff(func(x, _, _ float64) float64 { return math.Ceil(x) })),
		lanes("FRINTZ", true, func(e *Emitter) { e.FRINTZ(vd, va) }, ff(func(x, _, _ float64) float64 { return math.Trunc(x) })),
		lanes("FCMEQ", false, func(e *Emitter) { e.FCMEQ(vd, va, vb) }, fcmp(func(x, y float64) bool { return x == y })),
		lanes("FCMGE", false, func(e *Emitter) { e.FCMGE(vd, va, vb) }, fcmp(func(x, y float64) bool { return x >= y })),
		lanes("FCMGT", false, func(e *Emitter) { e.FCMGT(vd, va, vb) }, fcmp(func(x, y float64) bool { return x > y })),
		lanes("FCVTZS", false, func(e *Emitter) { e.FCVTZS(vd, va) }, func(a, _, _ uint64) uint64 { return uint64(fcvtzs(math.Float64frombits(a))) }),
		lanes("SCVTF", false, func(e *Emitter) { e.SCVTF(vd, va) }, func(a, _, _ uint64) uint64 { return math.Float64bits(float64(int64(a))) }),
		lanes("ADD", false, func(e *Emitter) { e.ADD(vd, va, vb) }, func(a, b, _ uint64) uint64 { return a + b }),
		lanes("SUB", false, func(e *Emitter) { e.SUB(vd, va, vb) }, func(a, b, _ uint64) uint64 { return a - b }),
		lanes("CMEQ", false, func(e *Emitter) { e.CMEQ(vd, va, vb) }, func(a, b, _ uint64) uint64 { return mask(a == b) }),
		lanes("CMGT", false, func(e *Emitter) { e.CMGT(vd, va, vb) }, func(a, b, _ uint64) uint64 { return mask(int64(a) > int64(b)) }),
		lanes("CMHI", false, func(e *Emitter) { e.CMHI(vd, va, vb) }, func(a, b, _ uint64) uint64 { return mask(a > b) }),
		lanes("AND", false, func(e *Emitter) { e.AND(vd, va, vb) }, func(a, b, _ uint64) uint64 { return a & b }),
		lanes("ORR", false, func(e *Emitter) { e.ORR(vd, va, vb) }, func(a, b, _ uint64) uint64 { return a | b }),
		lanes("EOR", false, func(e *Emitter) { e.EOR(vd, va, vb) }, func(a, b, _ uint64) uint64 { return a ^ b }),
		lanes("BIC", false, func(e *Emitter) { e.BIC(vd, va, vb) }, func(a, b, _ uint64) uint64 { return a &^ b }),
		lanes("BSL", false, func(e *Emitter) { e.BSL(vd, va, vb) }, func(a, b, c uint64) uint64 { return c&a | ^c&b }),
		lanes("BIT", false, func(e *Emitter) { e.BIT(vd, va, vb) }, func(a, b, c uint64) uint64 { return c&^b | a&b }),
		lanes("BIF", false, func(e *Emitter) { e.BIF(vd, va, vb) }, func(a, b, c uint64) uint64 { return c&b | a&^b }),
		lanes("MOV", false, func(e *Emitter) { e.MOV(vd, va) }, func(a, _, _ uint64) uint64 { return a }),
	}
	for _, s := range []uint{0, 1, 7, 63} {
		cs = append(cs, lanes(fmt.Sprintf("SHL#%d", s), false, func(e *Emitter) { e.SHL(vd, va, s) }, func(a, _, _ uint64) uint64 { return a << s }))
	}
	for _, s := range []uint{1, 7, 63, 64} {
		cs = append(cs,
			lanes(fmt.Sprintf("USHR#%d", s), false, func(e *Emitter) { e.USHR(vd, va, s) }, func(a, _, _ uint64) uint64 { return a >> s }),
			lanes(fmt.Sprintf("SSHR#%d", s), false, func(e *Emitter) { e.SSHR(vd, va, s) }, func(a, _, _ uint64) uint64 { return uint64(int64(a) >> s) }))
	}
	// In-place aliasing: d == n == m.
	cs = append(cs, qemuCase{name: "FADD-alias", float: true,
		body: func(e *Emitter) { e.LD1(R1, V9); e.FADD(V9, V9, V9); e.ST1(R0, V9) },
		ref: func(a, _, _ [8]uint64) (o [8]uint64) {
			for i := 0; i < 2; i++ {
				x := math.Float64frombits(a[i])
				o[i] = math.Float64bits(x + x)
			}
			return
		}})
	// Memory and GPR moves.
	cs = append(cs,
		qemuCase{name: "LD1Post/ST1Post x1",
			body: func(e *Emitter) {
				e.LD1Post(R1, 16, V7)
				e.LD1(R1, V8)
				e.ST1Post(R0, 16, V8)
				e.ST1(R0, V7)
			},
			ref: func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[2], a[3], a[0], a[1]} }},
		qemuCase{name: "LD1 x4/ST1Post x2",
			body: func(e *Emitter) {
				e.LD1(R1, V28, V29, V30, V31)
				e.ST1Post(R0, 32, V30, V31)
				e.ST1Post(R0, 32, V28, V29)
			},
			ref: func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[4], a[5], a[6], a[7], a[0], a[1], a[2], a[3]} }},
		qemuCase{name: "LD1Post x3/ST1 x3",
			body: func(e *Emitter) {
				e.LD1Post(R1, 48, V4, V5, V6)
				e.LD1(R1, V9)
				e.ST1Post(R0, 16, V9)
				e.ST1(R0, V4, V5, V6)
			},
			ref: func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[6], a[7], a[0], a[1], a[2], a[3], a[4], a[5]} }},
		qemuCase{name: "LD1Post x4/ST1Post x4",
			body: func(e *Emitter) {
				e.LD1Post(R1, 64, V0, V1, V2, V3)
				e.ST1Post(R0, 64, V0, V1, V2, V3)
				e.Raw("\tMOVD ZR, -8(R0)") // out[7] = 0 proves R0 advanced by 64
				e.Raw("\tMOVD -64(R1), R9")
				e.Raw("\tMOVD R9, -16(R0)") // out[6] = a[0] proves R1 advanced by 64
			},
			ref: func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[0], a[1], a[2], a[3], a[4], a[5], a[0], 0} }},
		qemuCase{name: "LD1R",
			body: func(e *Emitter) { e.LD1R(R1, V12); e.ST1(R0, V12) },
			ref:  func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[0], a[0]} }},
		qemuCase{name: "DUP",
			body: func(e *Emitter) { e.Raw("\tMOVD 8(R1), R5"); e.DUP(V13, R5); e.ST1(R0, V13) },
			ref:  func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[1], a[1]} }},
		qemuCase{name: "UMOVD",
			body: func(e *Emitter) {
				e.LD1(R1, V14)
				e.UMOVD(R6, V14, 1)
				e.UMOVD(R7, V14, 0)
				e.Raw("\tMOVD R6, 0(R0)")
				e.Raw("\tMOVD R7, 8(R0)")
			},
			ref: func(a, _, _ [8]uint64) [8]uint64 { return [8]uint64{a[1], a[0]} }},
	)
	return cs
}

func qemuInputs() [][3][8]uint64 {
	sp := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 3.7, -3.7, 0.49999999999999994,
		1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), 0x1p53 + 2, 0x1p52 + 0.5, 9.3e18, -9.3e18, -0x1p63,
		4.9e-324, 2.2e-308, math.MaxFloat64, 123456.789, -7, 2}
	var in [][3][8]uint64
	L := len(sp)
	bits := func(i int) uint64 { return math.Float64bits(sp[i%L]) }
	for i := 0; i < L; i++ {
		var v [3][8]uint64
		for k := 0; k < 8; k++ {
			v[0][k] = bits(i + k)
			v[1][k] = bits(i*3 + 5*k + 1)
			v[2][k] = bits(i*7 + 3*k + 2)
		}
		in = append(in, v)
		// Equal operands (compares, CMEQ).
		w := v
		w[1] = w[0]
		in = append(in, w)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 24; i++ {
		var v [3][8]uint64
		for j := range v {
			for k := range v[j] {
				switch r.Intn(3) {
				case 0:
					v[j][k] = r.Uint64()
				case 1:
					v[j][k] = math.Float64bits(r.NormFloat64() * 1000)
				default:
					v[j][k] = uint64(r.Int63n(1<<20) - 1<<19)
				}
			}
		}
		in = append(in, v)
	}
	return in
}

// TestQemuSemantics builds an arm64 program from emitted assembly, runs it
// under qemu-aarch64-static and compares every result with Go.
func TestQemuSemantics(t *testing.T) {
	qemu, err := exec.LookPath("qemu-aarch64-static")
	if err != nil {
		t.Skip("qemu-aarch64-static not found; skipping arm64 execution test")
	}
	if testing.Short() {
		t.Skip("skipping qemu test in -short mode")
	}
	gocmd := goTool(t)
	cases := qemuCases()
	inputs := qemuInputs()

	e := New()
	e.Raw("#include \"textflag.h\"")
	var gosrc strings.Builder
	gosrc.WriteString("package main\n\nimport \"fmt\"\n\n")
	for i, c := range cases {
		e.Raw("")
		e.Comment(c.name)
		e.Raw("TEXT ·k%d(SB), NOSPLIT, $0-32", i)
		e.Raw("\tMOVD out+0(FP), R0")
		e.Raw("\tMOVD a+8(FP), R1")
		e.Raw("\tMOVD b+16(FP), R2")
		e.Raw("\tMOVD c+24(FP), R3")
		c.body(e)
		e.Raw("\tRET")
		fmt.Fprintf(&gosrc, "func k%d(out, a, b, c *[8]uint64)\n", i)
	}
	gosrc.WriteString("\nvar fns = []func(out, a, b, c *[8]uint64){")
	for i := range cases {
		fmt.Fprintf(&gosrc, "k%d, ", i)
	}
	gosrc.WriteString("}\n\nvar inputs = [][3][8]uint64{\n")
	for _, in := range inputs {
		fmt.Fprintf(&gosrc, "\t{%#v, %#v, %#v},\n", in[0], in[1], in[2])
	}
	gosrc.WriteString(`}

func main() {
	for i, f := range fns {
		for j, in := range inputs {
			var out [8]uint64
			a, b, c := in[0], in[1], in[2]
			f(&out, &a, &b, &c)
			fmt.Print(i, " ", j)
			for _, v := range out {
				fmt.Printf(" %x", v)
			}
			fmt.Println()
		}
	}
}
`)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"go.mod":       "module qemucheck\n\ngo 1.21\n",
		"main.go":      gosrc.String(),
		"kern_arm64.s": e.String(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, dir, crossEnv(), gocmd, "vet", ".")
	run(t, dir, crossEnv(), gocmd, "build", "-o", "prog", ".")
	out := run(t, dir, os.Environ(), qemu, filepath.Join(dir, "prog"))

	seen := 0
	fails := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 10 {
			t.Fatalf("bad output line %q", line)
		}
		ci, _ := strconv.Atoi(f[0])
		ii, _ := strconv.Atoi(f[1])
		var got [8]uint64
		for k := range got {
			got[k], _ = strconv.ParseUint(f[2+k], 16, 64)
		}
		c, in := cases[ci], inputs[ii]
		want := c.ref(in[0], in[1], in[2])
		for k := range got {
			g, w := got[k], want[k]
			if g == w {
				continue
			}
			if c.float && math.IsNaN(math.Float64frombits(g)) && math.IsNaN(math.Float64frombits(w)) {
				continue
			}
			fails[c.name]++
			if fails[c.name] <= 3 {
				t.Errorf("%s input %d lane %d: got %#016x (%g), want %#016x (%g); a=%#x b=%#x c=%#x",
					c.name, ii, k, g, math.Float64frombits(g), w, math.Float64frombits(w), in[0][k%2], in[1][k%2], in[2][k%2])
			}
		}
		seen++
	}
	if seen != len(cases)*len(inputs) {
		t.Errorf("got %d results, want %d", seen, len(cases)*len(inputs))
	}
	t.Logf("%d cases x %d inputs checked under qemu", len(cases), len(inputs))
}
