package neon

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/arch/arm64/arm64asm"
)

// nativeCases emits each native (non-WORD) instruction method. d, n, m are
// distinct vector registers, r a GPR, imm a shift amount.
var nativeCases = map[string]func(e *Emitter, d, n, m VReg, r GPR, imm uint){
	"FMLA": func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.FMLA(d, n, m) },
	"FMLS": func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.FMLS(d, n, m) },
	"ADD":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.ADD(d, n, m) },
	"SUB":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.SUB(d, n, m) },
	"CMEQ": func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.CMEQ(d, n, m) },
	"AND":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.AND(d, n, m) },
	"ORR":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.ORR(d, n, m) },
	"EOR":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.EOR(d, n, m) },
	"BSL":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.BSL(d, n, m) },
	"BIT":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.BIT(d, n, m) },
	"BIF":  func(e *Emitter, d, n, m VReg, _ GPR, _ uint) { e.BIF(d, n, m) },
	"MOV":  func(e *Emitter, d, n, _ VReg, _ GPR, _ uint) { e.MOV(d, n) },
	"SHL":  func(e *Emitter, d, n, _ VReg, _ GPR, imm uint) { e.SHL(d, n, imm-1) },
	"USHR": func(e *Emitter, d, n, _ VReg, _ GPR, imm uint) { e.USHR(d, n, imm) },
	"LD1Post": func(e *Emitter, d, _, _ VReg, r GPR, imm uint) {
		k := int(imm%4) + 1
		if d > V31+1-VReg(k) {
			d = V31 + 1 - VReg(k)
		}
		regs := []VReg{d, d + 1, d + 2, d + 3}[:k]
		e.LD1Post(r, 16*k, regs...)
	},
	"LD1S4Post": func(e *Emitter, d, _, _ VReg, r GPR, imm uint) {
		k := int(imm+2)%4 + 1
		if d > V31+1-VReg(k) {
			d = V31 + 1 - VReg(k)
		}
		regs := []VReg{d, d + 1, d + 2, d + 3}[:k]
		e.LD1S4Post(r, 16*k, regs...)
	},
	"ST1Post": func(e *Emitter, d, _, _ VReg, r GPR, imm uint) {
		k := int(imm+1)%4 + 1
		if d > V31+1-VReg(k) {
			d = V31 + 1 - VReg(k)
		}
		regs := []VReg{d, d + 1, d + 2, d + 3}[:k]
		e.ST1Post(r, 16*k, regs...)
	},
	"LD1": func(e *Emitter, d, _, _ VReg, r GPR, imm uint) {
		k := int(imm+2)%4 + 1
		if d > V31+1-VReg(k) {
			d = V31 + 1 - VReg(k)
		}
		e.LD1(r, []VReg{d, d + 1, d + 2, d + 3}[:k]...)
	},
	"ST1": func(e *Emitter, d, _, _ VReg, r GPR, imm uint) {
		k := int(imm+3)%4 + 1
		if d > V31+1-VReg(k) {
			d = V31 + 1 - VReg(k)
		}
		e.ST1(r, []VReg{d, d + 1, d + 2, d + 3}[:k]...)
	},
	"LD1R":  func(e *Emitter, d, _, _ VReg, r GPR, _ uint) { e.LD1R(r, d) },
	"DUP":   func(e *Emitter, d, _, _ VReg, r GPR, _ uint) { e.DUP(d, r) },
	"UMOVD": func(e *Emitter, _, n, _ VReg, r GPR, imm uint) { e.UMOVD(r, n, int(imm%2)) },
}

// TestNativeCasesComplete checks that nativeCases lists every instruction
// method that does not emit WORD.
func TestNativeCasesComplete(t *testing.T) {
	word := map[string]bool{}
	for _, op := range WordOps() {
		word[op.Method] = true
	}
	typ := reflect.TypeOf(&Emitter{})
	for i := 0; i < typ.NumMethod(); i++ {
		name := typ.Method(i).Name
		if nonInstruction[name] || word[name] {
			continue
		}
		if nativeCases[name] == nil {
			t.Errorf("native method %s is missing from nativeCases", name)
		}
	}
	for name := range nativeCases {
		if _, ok := typ.MethodByName(name); !ok || word[name] {
			t.Errorf("nativeCases lists %s, which is not a native Emitter method", name)
		}
	}
}

var nativeCombos = []struct {
	d, n, m VReg
	r       GPR
	imm     uint
}{
	{V3, V2, V1, R0, 1},
	{V0, V31, V16, R1, 2},
	{V31, V0, V7, R17, 3},
	{V17, V16, V31, R25, 32},
	{V5, V23, V9, R19, 63},
	{V30, V29, V28, R2, 64},
}

// nativeSample returns an assembly file with every native form (and two
// WORD lines) and, for each line number, the expected GNU disassembly.
func nativeSample(t *testing.T) (string, map[int]string) {
	e := New()
	e.Raw("#include \"textflag.h\"")
	e.Raw("")
	e.Raw("TEXT ·sample(SB), NOSPLIT, $0-0")
	names := make([]string, 0, len(nativeCases))
	for name := range nativeCases {
		names = append(names, name)
	}
	sortStrings(names)
	for _, name := range names {
		for _, c := range nativeCombos {
			nativeCases[name](e, c.d, c.n, c.m, c.r, c.imm)
		}
	}
	e.FADD(V0, V1, V2)
	e.SSHR(V31, V0, 64)
	e.Raw("\tRET")
	want := map[int]string{}
	for i, line := range strings.Split(e.String(), "\n") {
		if !strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "\t//") || line == "\tRET" {
			continue
		}
		_, c, ok := strings.Cut(line, " // ")
		if !ok {
			t.Fatalf("instruction line without disassembly comment: %q", line)
		}
		want[i+1] = c
	}
	return e.String(), want
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// goTool returns the go command, skipping the test if there is none.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not on PATH; skipping assembler test")
	}
	return p
}

// crossEnv is the environment for arm64 builds of throwaway modules.
func crossEnv() []string {
	env := []string{"GOOS=linux", "GOARCH=arm64", "GOWORK=off", "GOFLAGS=-mod=mod", "CGO_ENABLED=0"}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS", "GOARCH", "GOWORK", "GOFLAGS", "CGO_ENABLED", "GOARM64":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

var objdumpLine = regexp.MustCompile(`^\s+sample_arm64\.s:(\d+)\s+0x[0-9a-f]+\s+([0-9a-f]{8})\s`)

// TestNativeForms assembles every native form with the Go assembler and
// checks, by decoding the produced machine code, that the instruction and
// its operand order are what the emitter's comment (and doc) claim.
func TestNativeForms(t *testing.T) {
	gocmd := goTool(t)
	src, want := nativeSample(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module sample\n\ngo 1.21\n",
		"sample.go":       "package sample\n\nfunc sample()\n",
		"sample_arm64.s":  src,
		"sample_other.go": "//go:build !arm64\n\npackage sample\n\nfunc sample() {}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := crossEnv()
	// The file must build as part of a package (also runs the asm checks).
	run(t, dir, env, gocmd, "build", "./...")
	goroot := strings.TrimSpace(run(t, dir, env, gocmd, "env", "GOROOT"))
	obj := filepath.Join(dir, "sample.o")
	run(t, dir, env, gocmd, "tool", "asm", "-p", "sample",
		"-I", filepath.Join(goroot, "pkg", "include"), "-o", obj, "sample_arm64.s")
	dump := run(t, dir, env, gocmd, "tool", "objdump", obj)

	got := map[int]uint32{}
	sc := bufio.NewScanner(strings.NewReader(dump))
	for sc.Scan() {
		m := objdumpLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ln, _ := strconv.Atoi(m[1])
		v, _ := strconv.ParseUint(m[2], 16, 32)
		if _, dup := got[ln]; dup && want[ln] != "" {
			t.Errorf("line %d assembled to more than one instruction", ln)
		}
		got[ln] = uint32(v)
	}
	lines := strings.Split(src, "\n")
	for ln, w := range want {
		enc, ok := got[ln]
		if !ok {
			t.Errorf("line %d %q: no instruction in objdump output", ln, lines[ln-1])
			continue
		}
		inst, err := decodeWord(enc)
		if err != nil {
			t.Errorf("line %d %q: %08x does not decode: %v", ln, lines[ln-1], enc, err)
			continue
		}
		if g := arm64asm.GNUSyntax(inst); g != w {
			t.Errorf("line %d %q:\n\tassembled to %08x = %q\n\tcomment claims %q", ln, lines[ln-1], enc, g, w)
		}
	}
	if len(want) < len(nativeCases)*len(nativeCombos) {
		t.Errorf("sample has only %d instructions", len(want))
	}
}
