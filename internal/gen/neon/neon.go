// Package neon is a small typed emitter of Go arm64 assembly for
// float64x2 (and 64-bit integer / bitwise) NEON code.
//
// Go's arm64 assembler knows only a handful of vector instructions. Where a
// native Go form exists and has been verified (see native_test.go) the
// emitter uses it; every other instruction is emitted as
//
//	WORD $0xXXXXXXXX // <GNU syntax, as printed by arm64asm.GNUSyntax>
//
// All methods take typed registers and panic on misuse: this package runs
// only inside the generator, so a panic is a generator bug.
//
// Operand convention for every method: the destination comes first, then
// the sources in the order of the ARM (GNU) mnemonic, i.e. FSUB(d, n, m)
// is "fsub d, n, m" and computes d = n - m. The Go assembler's operand
// order (sources reversed, destination last) is handled internally.
package neon

import (
	"bytes"
	"fmt"
	"strings"
)

// VReg is a SIMD&FP register V0..V31.
type VReg uint8

// GPR is a general purpose register R0..R30.
type GPR uint8

// Vector registers.
const (
	V0 VReg = iota
	V1
	V2
	V3
	V4
	V5
	V6
	V7
	V8
	V9
	V10
	V11
	V12
	V13
	V14
	V15
	V16
	V17
	V18
	V19
	V20
	V21
	V22
	V23
	V24
	V25
	V26
	V27
	V28
	V29
	V30
	V31
)

// General purpose registers.
const (
	R0 GPR = iota
	R1
	R2
	R3
	R4
	R5
	R6
	R7
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
	R16
	R17
	R18 // platform register: refused unless allowed
	R19
	R20
	R21
	R22
	R23
	R24
	R25
	R26 // closure context (REGCTXT): refused unless allowed
	R27 // REGTMP, used by the assembler: refused unless allowed
	R28 // g: refused unless allowed
	R29 // frame pointer: refused unless allowed
	R30 // link register: refused unless allowed
)

// String returns the Go assembler name, e.g. "V7".
func (v VReg) String() string { return fmt.Sprintf("V%d", uint8(v)) }

// String returns the Go assembler name, e.g. "R3".
func (r GPR) String() string { return fmt.Sprintf("R%d", uint8(r)) }

// Reserved reports whether r is refused by default (R18, R26..R30).
func (r GPR) Reserved() bool {
	switch r {
	case R18, R26, R27, R28, R29, R30:
		return true
	}
	return false
}

// Emitter accumulates lines of Go arm64 assembly text.
type Emitter struct {
	buf     bytes.Buffer
	allowed [31]bool
}

// New returns an empty Emitter.
func New() *Emitter { return &Emitter{} }

// Bytes returns the text emitted so far.
func (e *Emitter) Bytes() []byte { return e.buf.Bytes() }

// String returns the text emitted so far.
func (e *Emitter) String() string { return e.buf.String() }

// AllowGPR permits the use of otherwise reserved general purpose registers
// (R18, R26..R30) in subsequent instructions of this Emitter.
func (e *Emitter) AllowGPR(regs ...GPR) {
	for _, r := range regs {
		if r > R30 {
			panic(fmt.Sprintf("neon: invalid GPR R%d", uint8(r)))
		}
		e.allowed[r] = true
	}
}

// Raw emits one raw line (TEXT, RET, branches, GLOBL/DATA, ...). The text
// is written verbatim followed by a newline; instructions conventionally
// start with a tab.
func (e *Emitter) Raw(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if strings.Contains(s, "\n") {
		panic("neon: Raw line contains a newline: " + s)
	}
	e.buf.WriteString(s)
	e.buf.WriteByte('\n')
}

// Label emits "name:".
func (e *Emitter) Label(name string) {
	if name == "" || strings.ContainsAny(name, " \t\n:") {
		panic(fmt.Sprintf("neon: bad label %q", name))
	}
	e.Raw("%s:", name)
}

// Comment emits "\t// s".
func (e *Emitter) Comment(s string) {
	if strings.Contains(s, "\n") {
		panic("neon: comment contains a newline")
	}
	e.Raw("\t// %s", s)
}

func (e *Emitter) inst(s string) { e.Raw("\t%s", s) }

// word emits a raw encoding with its GNU disassembly as a comment.
func (e *Emitter) word(enc uint32, gnu string) {
	e.Raw("\tWORD $0x%08X // %s", enc, gnu)
}

func chkV(regs ...VReg) {
	for _, r := range regs {
		if r > V31 {
			panic(fmt.Sprintf("neon: invalid vector register V%d", uint8(r)))
		}
	}
}

func (e *Emitter) chkR(regs ...GPR) {
	for _, r := range regs {
		if r > R30 {
			panic(fmt.Sprintf("neon: invalid GPR R%d", uint8(r)))
		}
		if r.Reserved() && !e.allowed[r] {
			panic(fmt.Sprintf("neon: GPR %v is reserved; call AllowGPR to use it", r))
		}
	}
}

// gnu vector operand names.
func g2d(v VReg) string  { return fmt.Sprintf("v%d.2d", uint8(v)) }
func g16b(v VReg) string { return fmt.Sprintf("v%d.16b", uint8(v)) }

// ---------------------------------------------------------------------------
// WORD-encoded instructions.

// Three-register "same" encodings (base | m<<16 | n<<5 | d), Q=1 and, for
// the floating-point ones, sz=1 (.2D).
const (
	encFADD  = 0x4E60D400
	encFSUB  = 0x4EE0D400
	encFMUL  = 0x6E60DC00
	encFDIV  = 0x6E60FC00
	encFMAX  = 0x4E60F400
	encFMIN  = 0x4EE0F400
	encFCMEQ = 0x4E60E400
	encFCMGE = 0x6E60E400
	encFCMGT = 0x6EE0E400
	encCMGT  = 0x4EE03400 // size=11 (.2D)
	encCMHI  = 0x6EE03400 // size=11 (.2D)
	encBIC   = 0x4E601C00 // .16B

	// Two-register misc (base | n<<5 | d), .2D.
	encFABS   = 0x4EE0F800
	encFNEG   = 0x6EE0F800
	encFSQRT  = 0x6EE1F800
	encFRINTN = 0x4E618800
	encFRINTM = 0x4E619800
	encFRINTP = 0x4EE18800
	encFRINTZ = 0x4EE19800
	encFCVTZS = 0x4EE1B800
	encSCVTF  = 0x4E61D800

	// Widening and pairwise (base | n<<5 | d).
	encFCVTL  = 0x0E617800 // .2d from .2s
	encFCVTL2 = 0x4E617800 // .2d from .4s
	encFADDPD = 0x7E70D800 // scalar d from .2d

	// Shift by immediate (base | immh:immb<<16 | n<<5 | d), .2D.
	encSSHR = 0x4F000400 // immh:immb = 128 - shift, shift 1..64
)

func (e *Emitter) w3(base uint32, mn string, d, n, m VReg, arr func(VReg) string) {
	chkV(d, n, m)
	enc := base | uint32(m)<<16 | uint32(n)<<5 | uint32(d)
	e.word(enc, fmt.Sprintf("%s %s, %s, %s", mn, arr(d), arr(n), arr(m)))
}

func (e *Emitter) w2(base uint32, mn string, d, n VReg) {
	chkV(d, n)
	enc := base | uint32(n)<<5 | uint32(d)
	e.word(enc, fmt.Sprintf("%s %s, %s", mn, g2d(d), g2d(n)))
}

// FADD: d = n + m (float64x2).
func (e *Emitter) FADD(d, n, m VReg) { e.w3(encFADD, "fadd", d, n, m, g2d) }

// FSUB: d = n - m (float64x2).
func (e *Emitter) FSUB(d, n, m VReg) { e.w3(encFSUB, "fsub", d, n, m, g2d) }

// FMUL: d = n * m (float64x2).
func (e *Emitter) FMUL(d, n, m VReg) { e.w3(encFMUL, "fmul", d, n, m, g2d) }

// FDIV: d = n / m (float64x2).
func (e *Emitter) FDIV(d, n, m VReg) { e.w3(encFDIV, "fdiv", d, n, m, g2d) }

// FMAX: d = max(n, m), NaN-propagating (a NaN in either input gives NaN);
// max(-0, +0) = +0.
func (e *Emitter) FMAX(d, n, m VReg) { e.w3(encFMAX, "fmax", d, n, m, g2d) }

// FMIN: d = min(n, m), NaN-propagating; min(-0, +0) = -0.
func (e *Emitter) FMIN(d, n, m VReg) { e.w3(encFMIN, "fmin", d, n, m, g2d) }

// FCMEQ: d lane = all ones if n == m else 0 (false when either is NaN).
func (e *Emitter) FCMEQ(d, n, m VReg) { e.w3(encFCMEQ, "fcmeq", d, n, m, g2d) }

// FCMGE: d lane = all ones if n >= m else 0 (false when either is NaN).
func (e *Emitter) FCMGE(d, n, m VReg) { e.w3(encFCMGE, "fcmge", d, n, m, g2d) }

// FCMGT: d lane = all ones if n > m else 0 (false when either is NaN).
func (e *Emitter) FCMGT(d, n, m VReg) { e.w3(encFCMGT, "fcmgt", d, n, m, g2d) }

// CMGT: d lane = all ones if int64(n) > int64(m) else 0.
func (e *Emitter) CMGT(d, n, m VReg) { e.w3(encCMGT, "cmgt", d, n, m, g2d) }

// CMHI: d lane = all ones if uint64(n) > uint64(m) else 0.
func (e *Emitter) CMHI(d, n, m VReg) { e.w3(encCMHI, "cmhi", d, n, m, g2d) }

// BIC: d = n &^ m (128-bit bitwise).
func (e *Emitter) BIC(d, n, m VReg) { e.w3(encBIC, "bic", d, n, m, g16b) }

// FABS: d = |n| (clears the sign bit, also of NaNs).
func (e *Emitter) FABS(d, n VReg) { e.w2(encFABS, "fabs", d, n) }

// FNEG: d = -n (flips the sign bit, also of NaNs).
func (e *Emitter) FNEG(d, n VReg) { e.w2(encFNEG, "fneg", d, n) }

// FSQRT: d = sqrt(n).
func (e *Emitter) FSQRT(d, n VReg) { e.w2(encFSQRT, "fsqrt", d, n) }

// FRINTN: d = n rounded to integral, to nearest with ties to even
// (math.RoundToEven).
func (e *Emitter) FRINTN(d, n VReg) { e.w2(encFRINTN, "frintn", d, n) }

// FRINTM: d = floor(n).
func (e *Emitter) FRINTM(d, n VReg) { e.w2(encFRINTM, "frintm", d, n) }

// FRINTP: d = ceil(n).
func (e *Emitter) FRINTP(d, n VReg) { e.w2(encFRINTP, "frintp", d, n) }

// FRINTZ: d = trunc(n).
func (e *Emitter) FRINTZ(d, n VReg) { e.w2(encFRINTZ, "frintz", d, n) }

// FCVTZS: d = int64(n) per lane, rounding toward zero, saturating to
// [MinInt64, MaxInt64]; NaN converts to 0.
func (e *Emitter) FCVTZS(d, n VReg) { e.w2(encFCVTZS, "fcvtzs", d, n) }

// SCVTF: d = float64(int64(n)) per lane (round to nearest even).
func (e *Emitter) SCVTF(d, n VReg) { e.w2(encSCVTF, "scvtf", d, n) }

// FCVTL widens the low two float32 lanes of n to float64 in d (exact):
// fcvtl d.2d, n.2s.
func (e *Emitter) FCVTL(d, n VReg) {
	chkV(d, n)
	e.word(encFCVTL|uint32(n)<<5|uint32(d), fmt.Sprintf("fcvtl %s, v%d.2s", g2d(d), uint8(n)))
}

// FCVTL2 widens the high two float32 lanes of n to float64 in d (exact):
// fcvtl2 d.2d, n.4s.
func (e *Emitter) FCVTL2(d, n VReg) {
	chkV(d, n)
	e.word(encFCVTL2|uint32(n)<<5|uint32(d), fmt.Sprintf("fcvtl2 %s, v%d.4s", g2d(d), uint8(n)))
}

// FADDPD sets the scalar register d (lane 0 of Vd; lane 1 is cleared) to
// n[0] + n[1], one rounding: faddp dD, n.2d.
func (e *Emitter) FADDPD(d, n VReg) {
	chkV(d, n)
	e.word(encFADDPD|uint32(n)<<5|uint32(d), fmt.Sprintf("faddp d%d, %s", uint8(d), g2d(n)))
}

// SSHR: d = int64(n) >> imm per lane (arithmetic), imm in 1..64.
func (e *Emitter) SSHR(d, n VReg, imm uint) {
	chkV(d, n)
	if imm < 1 || imm > 64 {
		panic(fmt.Sprintf("neon: SSHR shift %d out of range 1..64", imm))
	}
	enc := encSSHR | uint32(128-imm)<<16 | uint32(n)<<5 | uint32(d)
	e.word(enc, fmt.Sprintf("sshr %s, %s, #%d", g2d(d), g2d(n), imm))
}

// ---------------------------------------------------------------------------
// Native Go assembler forms. Go writes the sources reversed and the
// destination last: "op d, n, m" is "VOP Vm, Vn, Vd". The trailing comment
// is the GNU syntax of the instruction the assembler produces (checked by
// native_test.go).

func (e *Emitter) n3(op, mn string, d, n, m VReg, goArr string, gnu func(VReg) string) {
	chkV(d, n, m)
	e.inst(fmt.Sprintf("%s %v.%s, %v.%s, %v.%s // %s %s, %s, %s",
		op, m, goArr, n, goArr, d, goArr, mn, gnu(d), gnu(n), gnu(m)))
}

// FMLA: d = d + n*m (fused, single rounding). Native VFMLA.
func (e *Emitter) FMLA(d, n, m VReg) { e.n3("VFMLA", "fmla", d, n, m, "D2", g2d) }

// FMLS: d = d - n*m (fused, single rounding). Native VFMLS.
func (e *Emitter) FMLS(d, n, m VReg) { e.n3("VFMLS", "fmls", d, n, m, "D2", g2d) }

// ADD: d = n + m (int64x2, wrapping). Native VADD.
func (e *Emitter) ADD(d, n, m VReg) { e.n3("VADD", "add", d, n, m, "D2", g2d) }

// SUB: d = n - m (int64x2, wrapping). Native VSUB.
func (e *Emitter) SUB(d, n, m VReg) { e.n3("VSUB", "sub", d, n, m, "D2", g2d) }

// CMEQ: d lane = all ones if n == m (64-bit integer compare). Native VCMEQ.
func (e *Emitter) CMEQ(d, n, m VReg) { e.n3("VCMEQ", "cmeq", d, n, m, "D2", g2d) }

// AND: d = n & m. Native VAND.
func (e *Emitter) AND(d, n, m VReg) { e.n3("VAND", "and", d, n, m, "B16", g16b) }

// ORR: d = n | m. Native VORR.
func (e *Emitter) ORR(d, n, m VReg) { e.n3("VORR", "orr", d, n, m, "B16", g16b) }

// EOR: d = n ^ m. Native VEOR.
func (e *Emitter) EOR(d, n, m VReg) { e.n3("VEOR", "eor", d, n, m, "B16", g16b) }

// BSL: bitwise select with d as the mask: d = (d & n) | (^d & m).
// Native VBSL.
func (e *Emitter) BSL(d, n, m VReg) { e.n3("VBSL", "bsl", d, n, m, "B16", g16b) }

// BIT: insert n where m is set: d = (d &^ m) | (n & m). Native VBIT.
func (e *Emitter) BIT(d, n, m VReg) { e.n3("VBIT", "bit", d, n, m, "B16", g16b) }

// BIF: insert n where m is clear: d = (d & m) | (n &^ m). Native VBIF.
func (e *Emitter) BIF(d, n, m VReg) { e.n3("VBIF", "bif", d, n, m, "B16", g16b) }

// MOV: d = n (vector copy, alias of ORR d, n, n). Native VMOV.
func (e *Emitter) MOV(d, n VReg) {
	chkV(d, n)
	e.inst(fmt.Sprintf("VMOV %v.B16, %v.B16 // mov %s, %s", n, d, g16b(d), g16b(n)))
}

// SHL: d = n << imm (per 64-bit lane), imm in 0..63. Native VSHL.
func (e *Emitter) SHL(d, n VReg, imm uint) {
	chkV(d, n)
	if imm > 63 {
		panic(fmt.Sprintf("neon: SHL shift %d out of range 0..63", imm))
	}
	e.inst(fmt.Sprintf("VSHL $%d, %v.D2, %v.D2 // shl %s, %s, #%d", imm, n, d, g2d(d), g2d(n), imm))
}

// USHR: d = uint64(n) >> imm (per lane, logical), imm in 1..64. Native VUSHR.
func (e *Emitter) USHR(d, n VReg, imm uint) {
	chkV(d, n)
	if imm < 1 || imm > 64 {
		panic(fmt.Sprintf("neon: USHR shift %d out of range 1..64", imm))
	}
	e.inst(fmt.Sprintf("VUSHR $%d, %v.D2, %v.D2 // ushr %s, %s, #%d", imm, n, d, g2d(d), g2d(n), imm))
}

// regList checks 1..4 consecutive registers and returns the Go and GNU lists
// of .2D registers.
func regList(regs []VReg) (goList, gnuList string) { return regListArr(regs, "D2", "2d") }

// regListArr is regList with the arrangement goArr (Go) / gnuArr (GNU).
func regListArr(regs []VReg, goArr, gnuArr string) (goList, gnuList string) {
	if len(regs) < 1 || len(regs) > 4 {
		panic(fmt.Sprintf("neon: LD1/ST1 need 1..4 registers, got %d", len(regs)))
	}
	chkV(regs...)
	g := make([]string, len(regs))
	for i, r := range regs {
		if r != regs[0]+VReg(i) {
			panic(fmt.Sprintf("neon: LD1/ST1 registers must be consecutive: %v", regs))
		}
		g[i] = r.String() + "." + goArr
	}
	gl := make([]string, len(regs))
	for i, r := range regs {
		gl[i] = fmt.Sprintf("v%d.%s", uint8(r), gnuArr)
	}
	gnu := "{" + strings.Join(gl, ", ") + "}"
	if len(regs) > 2 {
		// arm64asm prints three or four non-wrapping registers as a range.
		gnu = "{" + gl[0] + "-" + gl[len(gl)-1] + "}"
	}
	return "[" + strings.Join(g, ", ") + "]", gnu
}

// LD1Post loads len(regs) (1..4, consecutive) registers of two float64
// from base and then advances base by bytes, which must be 16*len(regs):
// VLD1.P bytes(base), [regs.D2].
func (e *Emitter) LD1Post(base GPR, bytes int, regs ...VReg) {
	e.chkR(base)
	gl, gnu := regList(regs)
	if bytes != 16*len(regs) {
		panic(fmt.Sprintf("neon: LD1Post of %d registers must advance by %d bytes, not %d", len(regs), 16*len(regs), bytes))
	}
	e.inst(fmt.Sprintf("VLD1.P %d(%v), %s // ld1 %s, [x%d],#%d", bytes, base, gl, gnu, uint8(base), bytes))
}

// LD1S4Post is LD1Post with the .4S arrangement (four float32 per
// register), for data the FCVTL/FCVTL2 pair widens: VLD1.P bytes(base),
// [regs.S4].
func (e *Emitter) LD1S4Post(base GPR, bytes int, regs ...VReg) {
	e.chkR(base)
	gl, gnu := regListArr(regs, "S4", "4s")
	if bytes != 16*len(regs) {
		panic(fmt.Sprintf("neon: LD1S4Post of %d registers must advance by %d bytes, not %d", len(regs), 16*len(regs), bytes))
	}
	e.inst(fmt.Sprintf("VLD1.P %d(%v), %s // ld1 %s, [x%d],#%d", bytes, base, gl, gnu, uint8(base), bytes))
}

// ST1Post stores len(regs) (1..4, consecutive) registers to base and then
// advances base by bytes, which must be 16*len(regs):
// VST1.P [regs.D2], bytes(base).
func (e *Emitter) ST1Post(base GPR, bytes int, regs ...VReg) {
	e.chkR(base)
	gl, gnu := regList(regs)
	if bytes != 16*len(regs) {
		panic(fmt.Sprintf("neon: ST1Post of %d registers must advance by %d bytes, not %d", len(regs), 16*len(regs), bytes))
	}
	e.inst(fmt.Sprintf("VST1.P %s, %d(%v) // st1 %s, [x%d],#%d", gl, bytes, base, gnu, uint8(base), bytes))
}

// LD1 loads 1..4 consecutive registers from (base): VLD1 (base), [regs.D2].
func (e *Emitter) LD1(base GPR, regs ...VReg) {
	e.chkR(base)
	gl, gnu := regList(regs)
	e.inst(fmt.Sprintf("VLD1 (%v), %s // ld1 %s, [x%d]", base, gl, gnu, uint8(base)))
}

// ST1 stores 1..4 consecutive registers to (base): VST1 [regs.D2], (base).
func (e *Emitter) ST1(base GPR, regs ...VReg) {
	e.chkR(base)
	gl, gnu := regList(regs)
	e.inst(fmt.Sprintf("VST1 %s, (%v) // st1 %s, [x%d]", gl, base, gnu, uint8(base)))
}

// LD1R loads one 64-bit value from (base) into both lanes of d.
func (e *Emitter) LD1R(base GPR, d VReg) {
	e.chkR(base)
	chkV(d)
	e.inst(fmt.Sprintf("VLD1R (%v), [%v.D2] // ld1r {%s}, [x%d]", base, d, g2d(d), uint8(base)))
}

// DUP sets both 64-bit lanes of d to r.
func (e *Emitter) DUP(d VReg, r GPR) {
	e.chkR(r)
	chkV(d)
	e.inst(fmt.Sprintf("VDUP %v, %v.D2 // dup %s, x%d", r, d, g2d(d), uint8(r)))
}

// UMOVD sets r to lane (0 or 1) of n: r = n.D[lane].
func (e *Emitter) UMOVD(r GPR, n VReg, lane int) {
	e.chkR(r)
	chkV(n)
	if lane != 0 && lane != 1 {
		panic(fmt.Sprintf("neon: UMOVD lane %d out of range 0..1", lane))
	}
	e.inst(fmt.Sprintf("VMOV %v.D[%d], %v // mov x%d, v%d.d[%d]", n, lane, r, uint8(r), uint8(n), lane))
}
