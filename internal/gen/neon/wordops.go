package neon

import "fmt"

// Shape describes the operands of a WORD-encoded instruction.
type Shape int

const (
	ShapeDNM   Shape = iota // op(d, n, m VReg)
	ShapeDN                 // op(d, n VReg)
	ShapeDNImm              // op(d, n VReg, imm uint)
)

// WordOp describes one Emitter method that emits a WORD-encoded
// instruction. The list returned by WordOps is the contract checked by the
// round-trip tests: every method that can emit WORD must appear in it.
type WordOp struct {
	Method   string // Emitter method name, e.g. "FADD"
	Mnemonic string // GNU mnemonic, e.g. "fadd"
	Shape    Shape
	Arr      string // GNU arrangement of all vector operands: "2d" or "16b"
	// ImmMin and ImmMax bound the immediate for ShapeDNImm.
	ImmMin, ImmMax uint
	// Operands, when set, returns the decoded operands expected for d and
	// n (for instructions whose operands differ in arrangement); otherwise
	// every vector operand has arrangement Arr.
	Operands func(d, n VReg) []string
	// Emit calls the method on e; unused operands are ignored.
	Emit func(e *Emitter, d, n, m VReg, imm uint)
}

func dnm(method, mn, arr string, f func(*Emitter, VReg, VReg, VReg)) WordOp {
	return WordOp{Method: method, Mnemonic: mn, Shape: ShapeDNM, Arr: arr,
		Emit: func(e *Emitter, d, n, m VReg, _ uint) { f(e, d, n, m) }}
}

func dn(method, mn string, f func(*Emitter, VReg, VReg)) WordOp {
	return WordOp{Method: method, Mnemonic: mn, Shape: ShapeDN, Arr: "2d",
		Emit: func(e *Emitter, d, n, _ VReg, _ uint) { f(e, d, n) }}
}

// WordOps returns every Emitter method that emits a WORD-encoded
// instruction.
func WordOps() []WordOp {
	return []WordOp{
		dnm("FADD", "fadd", "2d", (*Emitter).FADD),
		dnm("FSUB", "fsub", "2d", (*Emitter).FSUB),
		dnm("FMUL", "fmul", "2d", (*Emitter).FMUL),
		dnm("FDIV", "fdiv", "2d", (*Emitter).FDIV),
		dnm("FMAX", "fmax", "2d", (*Emitter).FMAX),
		dnm("FMIN", "fmin", "2d", (*Emitter).FMIN),
		dnm("FCMEQ", "fcmeq", "2d", (*Emitter).FCMEQ),
		dnm("FCMGE", "fcmge", "2d", (*Emitter).FCMGE),
		dnm("FCMGT", "fcmgt", "2d", (*Emitter).FCMGT),
		dnm("CMGT", "cmgt", "2d", (*Emitter).CMGT),
		dnm("CMHI", "cmhi", "2d", (*Emitter).CMHI),
		dnm("BIC", "bic", "16b", (*Emitter).BIC),
		dn("FABS", "fabs", (*Emitter).FABS),
		dn("FNEG", "fneg", (*Emitter).FNEG),
		dn("FSQRT", "fsqrt", (*Emitter).FSQRT),
		dn("FRINTN", "frintn", (*Emitter).FRINTN),
		dn("FRINTM", "frintm", (*Emitter).FRINTM),
		dn("FRINTP", "frintp", (*Emitter).FRINTP),
		dn("FRINTZ", "frintz", (*Emitter).FRINTZ),
		dn("FCVTZS", "fcvtzs", (*Emitter).FCVTZS),
		dn("SCVTF", "scvtf", (*Emitter).SCVTF),
		{Method: "FCVTL", Mnemonic: "fcvtl", Shape: ShapeDN, Arr: "2d",
			Operands: func(d, n VReg) []string { return []string{fmt.Sprintf("V%d.2D", d), fmt.Sprintf("V%d.2S", n)} },
			Emit:     func(e *Emitter, d, n, _ VReg, _ uint) { e.FCVTL(d, n) }},
		{Method: "FCVTL2", Mnemonic: "fcvtl2", Shape: ShapeDN, Arr: "2d",
			Operands: func(d, n VReg) []string { return []string{fmt.Sprintf("V%d.2D", d), fmt.Sprintf("V%d.4S", n)} },
			Emit:     func(e *Emitter, d, n, _ VReg, _ uint) { e.FCVTL2(d, n) }},
		{Method: "FADDPD", Mnemonic: "faddp", Shape: ShapeDN, Arr: "2d",
			Operands: func(d, n VReg) []string { return []string{fmt.Sprintf("D%d", d), fmt.Sprintf("V%d.2D", n)} },
			Emit:     func(e *Emitter, d, n, _ VReg, _ uint) { e.FADDPD(d, n) }},
		{Method: "SSHR", Mnemonic: "sshr", Shape: ShapeDNImm, Arr: "2d", ImmMin: 1, ImmMax: 64,
			Emit: func(e *Emitter, d, n, _ VReg, imm uint) { e.SSHR(d, n, imm) }},
	}
}
