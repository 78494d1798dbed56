package neon

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/arch/arm64/arm64asm"
)

var wordLine = regexp.MustCompile(`^\tWORD \$0x([0-9A-F]{8}) // (.+)$`)

// parseWords returns the (encoding, comment) pairs of every WORD line.
func parseWords(t *testing.T, text string) (encs []uint32, comments []string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if !strings.Contains(line, "WORD") {
			continue
		}
		m := wordLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("malformed WORD line %q", line)
		}
		v, err := strconv.ParseUint(m[1], 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		encs = append(encs, uint32(v))
		comments = append(comments, m[2])
	}
	return
}

func decodeWord(enc uint32) (arm64asm.Inst, error) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], enc)
	return arm64asm.Decode(b[:])
}

var regCombos = [][3]VReg{
	{V0, V0, V0},
	{V31, V31, V31},
	{V0, V1, V2},
	{V2, V1, V0},
	{V31, V0, V17},
	{V0, V31, V16},
	{V17, V16, V31},
	{V5, V23, V9},
	{V30, V29, V28},
}

func TestWordRoundTrip(t *testing.T) {
	covered := map[string]bool{}
	for _, op := range WordOps() {
		imms := []uint{0}
		if op.Shape == ShapeDNImm {
			imms = []uint{op.ImmMin, op.ImmMin + 1, 3, 17, 31, 32, 33, 48, 62, 63, op.ImmMax}
		}
		for _, rc := range regCombos {
			for _, imm := range imms {
				d, n, m := rc[0], rc[1], rc[2]
				e := New()
				op.Emit(e, d, n, m, imm)
				encs, comments := parseWords(t, e.String())
				if len(encs) != 1 {
					t.Fatalf("%s: want exactly one WORD line, got:\n%s", op.Method, e.String())
				}
				inst, err := decodeWord(encs[0])
				if err != nil {
					t.Errorf("%s %v: %08x does not decode: %v", op.Method, rc, encs[0], err)
					continue
				}
				if got := arm64asm.GNUSyntax(inst); got != comments[0] {
					t.Errorf("%s %v imm=%d: %08x decodes as %q, comment says %q", op.Method, rc, imm, encs[0], got, comments[0])
				}
				if !strings.HasPrefix(comments[0], op.Mnemonic+" ") {
					t.Errorf("%s: comment %q does not start with mnemonic %q", op.Method, comments[0], op.Mnemonic)
				}
				// Operands must be exactly the registers passed.
				up := "." + strings.ToUpper(op.Arr)
				want := []string{fmt.Sprintf("V%d%s", d, up), fmt.Sprintf("V%d%s", n, up)}
				switch op.Shape {
				case ShapeDNM:
					want = append(want, fmt.Sprintf("V%d%s", m, up))
				case ShapeDNImm:
					want = append(want, fmt.Sprintf("#%d", imm))
				}
				if op.Operands != nil {
					want = op.Operands(d, n)
				}
				var got []string
				for _, a := range inst.Args {
					if a == nil {
						break
					}
					s := a.String()
					if im, ok := a.(arm64asm.Imm); ok {
						s = fmt.Sprintf("#%d", im.Imm)
					}
					got = append(got, s)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: operands %v, want %v (%s)", op.Method, got, want, comments[0])
				}
				covered[op.Method] = true
			}
		}
	}
	if len(covered) != len(WordOps()) {
		t.Errorf("covered %d of %d WordOps (duplicate Method names?)", len(covered), len(WordOps()))
	}
}

// nonInstruction lists the exported Emitter methods that are not
// instruction emitters.
var nonInstruction = map[string]bool{
	"Bytes": true, "String": true, "AllowGPR": true,
	"Raw": true, "Label": true, "Comment": true,
}

// callAny calls an exported instruction method of e with valid, generic
// arguments, using reflection, so that methods added later are covered
// automatically.
func callAny(t *testing.T, e *Emitter, name string) {
	t.Helper()
	m := reflect.ValueOf(e).MethodByName(name)
	mt := m.Type()
	var args []reflect.Value
	nextV := V3
	for i := 0; i < mt.NumIn(); i++ {
		in := mt.In(i)
		if mt.IsVariadic() && i == mt.NumIn()-1 {
			args = append(args, reflect.ValueOf(nextV))
			continue
		}
		switch in {
		case reflect.TypeOf(VReg(0)):
			args = append(args, reflect.ValueOf(nextV))
			nextV += 5
		case reflect.TypeOf(GPR(0)):
			args = append(args, reflect.ValueOf(R1))
		case reflect.TypeOf(uint(0)):
			args = append(args, reflect.ValueOf(uint(7)))
		case reflect.TypeOf(int(0)):
			v := 0 // lane
			if strings.HasSuffix(name, "Post") {
				v = 16 // one register
			}
			args = append(args, reflect.ValueOf(v))
		default:
			t.Fatalf("method %s has an argument of type %v the coverage test does not know; extend callAny", name, in)
		}
	}
	if mt.IsVariadic() {
		m.CallSlice(append(args[:len(args)-1], reflect.ValueOf([]VReg{args[len(args)-1].Interface().(VReg)})))
	} else {
		m.Call(args)
	}
}

// TestWordCoverage calls every exported instruction method and checks that
// a method emits WORD exactly when it is listed in WordOps.
func TestWordCoverage(t *testing.T) {
	listed := map[string]WordOp{}
	for _, op := range WordOps() {
		listed[op.Method] = op
		if _, ok := reflect.TypeOf(&Emitter{}).MethodByName(op.Method); !ok {
			t.Errorf("WordOps lists %s, which is not an Emitter method", op.Method)
		}
	}
	typ := reflect.TypeOf(&Emitter{})
	nword := 0
	for i := 0; i < typ.NumMethod(); i++ {
		name := typ.Method(i).Name
		if nonInstruction[name] {
			continue
		}
		e := New()
		callAny(t, e, name)
		text := e.String()
		if strings.Count(strings.TrimRight(text, "\n"), "\n") != 0 {
			t.Errorf("%s emitted more than one line:\n%s", name, text)
		}
		isWord := strings.Contains(text, "WORD")
		_, isListed := listed[name]
		switch {
		case isWord && !isListed:
			t.Errorf("%s emits WORD but is missing from WordOps: %s", name, text)
		case !isWord && isListed:
			t.Errorf("%s is in WordOps but emitted no WORD: %s", name, text)
		}
		if isWord {
			nword++
		}
	}
	if nword != len(WordOps()) {
		t.Errorf("%d methods emit WORD, WordOps has %d entries", nword, len(WordOps()))
	}
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: expected panic", what)
		}
	}()
	f()
}

func TestMisuse(t *testing.T) {
	e := New()
	mustPanic(t, "V32", func() { e.FADD(32, V0, V1) })
	mustPanic(t, "V32 native", func() { e.FMLA(V0, 32, V1) })
	mustPanic(t, "SSHR 0", func() { e.SSHR(V0, V1, 0) })
	mustPanic(t, "SSHR 65", func() { e.SSHR(V0, V1, 65) })
	mustPanic(t, "USHR 0", func() { e.USHR(V0, V1, 0) })
	mustPanic(t, "SHL 64", func() { e.SHL(V0, V1, 64) })
	mustPanic(t, "R31", func() { e.LD1(31, V0) })
	for _, r := range []GPR{R18, R26, R27, R28, R29, R30} {
		mustPanic(t, "reserved "+r.String(), func() { e.DUP(V0, r) })
	}
	mustPanic(t, "LD1 none", func() { e.LD1(R0) })
	mustPanic(t, "LD1 five", func() { e.LD1(R0, V0, V1, V2, V3, V4) })
	mustPanic(t, "LD1 gap", func() { e.LD1(R0, V0, V2) })
	mustPanic(t, "LD1 wrap", func() { e.LD1(R0, V31, V0) })
	mustPanic(t, "LD1 overflow", func() { e.LD1(R0, V30, V31, 32) })
	mustPanic(t, "LD1Post bytes", func() { e.LD1Post(R0, 16, V0, V1) })
	mustPanic(t, "ST1Post bytes", func() { e.ST1Post(R0, 48, V0, V1) })
	mustPanic(t, "UMOVD lane", func() { e.UMOVD(R0, V0, 2) })
	mustPanic(t, "label", func() { e.Label("a b") })
	if e.String() != "" {
		t.Errorf("failed calls emitted text:\n%s", e.String())
	}
	e.AllowGPR(R29)
	e.DUP(V0, R29) // allowed now
	mustPanic(t, "still reserved", func() { e.DUP(V0, R28) })
}

func TestEmitterText(t *testing.T) {
	e := New()
	e.Raw("TEXT ·f(SB), NOSPLIT, $0-8")
	e.Label("loop")
	e.Comment("hello")
	e.FADD(V0, V1, V2)
	e.FMLA(V3, V2, V1)
	e.LD1Post(R0, 32, V0, V1)
	want := "TEXT ·f(SB), NOSPLIT, $0-8\n" +
		"loop:\n" +
		"\t// hello\n" +
		"\tWORD $0x4E62D420 // fadd v0.2d, v1.2d, v2.2d\n" +
		"\tVFMLA V1.D2, V2.D2, V3.D2 // fmla v3.2d, v2.2d, v1.2d\n" +
		"\tVLD1.P 32(R0), [V0.D2, V1.D2] // ld1 {v0.2d, v1.2d}, [x0],#32\n"
	if got := string(e.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
