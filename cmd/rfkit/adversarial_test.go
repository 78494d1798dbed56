//go:build unix

package main

// Regression tests of the adversarial run of issue 14 that concern the
// command (D1–D4, H1–H3, H5, W1–W4, M2–M4) and of its item 4 (version,
// info, the method actually trained). Each test names its finding.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
)

// trained writes a two-moons training file (labels −1/+1) and an rks model
// of it into dir.
func trained(t *testing.T, dir string) (data, model string) {
	t.Helper()
	data = writeFile(t, dir, "train.csv", csvText(moons(t, 200, 1, -1, 1), true))
	model = filepath.Join(dir, "m.model")
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", model, "-quiet").ok(t)
	return data, model
}

// D1: a symbolic link stays a link and its target is replaced; the old
// file's mode is kept; a named pipe (like a device) is written through, not
// replaced by a regular file; a dangling link gets its target created.
func TestD1OutputKinds(t *testing.T) {
	dir := t.TempDir()
	data, model := trained(t, dir)
	want, _ := os.ReadFile(model)

	v3 := filepath.Join(dir, "v3.model")
	if err := os.WriteFile(v3, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	cur := filepath.Join(dir, "current.model")
	if err := os.Symlink("v3.model", cur); err != nil {
		t.Fatal(err)
	}
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", cur, "-quiet").ok(t)
	if fi, err := os.Lstat(cur); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("current.model is no longer a symbolic link: %v %v", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(v3); !bytes.Equal(got, want) {
		t.Errorf("the link's target was not rewritten (%d bytes)", len(got))
	}
	if fi, _ := os.Stat(v3); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
	}

	dangling := filepath.Join(dir, "next.model")
	if err := os.Symlink("v4.model", dangling); err != nil {
		t.Fatal(err)
	}
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", dangling, "-quiet").ok(t)
	if got, _ := os.ReadFile(filepath.Join(dir, "v4.model")); !bytes.Equal(got, want) {
		t.Errorf("a dangling link's target was not created")
	}
	if fi, _ := os.Lstat(dangling); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the dangling link was replaced")
	}

	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan []byte, 1)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- b
	}()
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", fifo, "-quiet").ok(t)
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("read %d bytes through the FIFO, want the %d of the model", len(b), len(want))
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced by %v", fi.Mode())
	}

	sub := filepath.Join(dir, "adir")
	os.Mkdir(sub, 0o755)
	rfkit(t, "train", "-method", "rks", "-data", data, "-model", sub, "-quiet").fails(t, 1, "is a directory")
}

// D2: the data file is read once, so a pipe loses nothing (the header used
// to be read through a 4 KB buffer, then the file again).
func TestD2Pipe(t *testing.T) {
	dir := t.TempDir()
	_, model := trained(t, dir)
	text := csvText(moons(t, 1000, 7, -1, 1), true)
	file := writeFile(t, dir, "test.csv", text)
	want := rfkit(t, "predict", "-model", model, "-data", file).ok(t).stdout

	for _, cmd := range [][]string{
		{"predict", "-model", model, "-data", "-", "-format", "csv"},
		{"eval", "-model", model, "-data", "-", "-format", "csv"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		go func() { io.WriteString(w, text); w.Close() }()
		saved := os.Stdin
		os.Stdin = r
		res := rfkit(t, cmd...)
		os.Stdin = saved
		r.Close()
		res.ok(t)
		if cmd[0] == "predict" && res.stdout != want {
			t.Errorf("predict from a pipe: %d lines, want %d", len(lines(res.stdout)), len(lines(want)))
		}
		if cmd[0] == "eval" && !strings.Contains(res.stdout, "(n=1000)") {
			t.Errorf("eval from a pipe: %q", res.stdout)
		}
	}
}

// failWriter fails every write, like stdout redirected to /dev/full.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// D3: output that cannot be written is exit status 1, for every command
// that writes to stdout, -h included.
func TestD3StdoutErrors(t *testing.T) {
	dir := t.TempDir()
	data, model := trained(t, dir)
	rrf := filepath.Join(dir, "rrf.model")
	rfkit(t, "train", "-method", "rrf", "-data", data, "-model", rrf, "-quiet").ok(t)
	for _, args := range [][]string{
		{"-h"},
		{"train", "-h"},
		{"train", "-method", "rks", "-h"},
		{"train", "-method", "rks", "-data", data, "-model", filepath.Join(dir, "x.model")},
		{"predict", "-model", model, "-data", data},
		{"eval", "-json", "-model", model, "-data", data},
		{"eval", "-model", model, "-data", data},
		{"cv", "-method", "rks", "-data", data, "-grid", "gamma=1,2", "-folds", "2"},
		{"importance", "-model", rrf},
		{"demo", "-ntrain", "20", "-ntest", "5", "-rounds", "2", "-features", "5"},
		{"bench", "-n", "64", "-benchtime", "1ms"},
		{"info", model},
		{"version"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), args, failWriter{}, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), "write stdout") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and a write error", args, code, stderr.String())
		}
	}
}

// D4: a signal (the cancelled context) during the write keeps the old file
// and leaves no temporary file, also when it arrives after the last byte
// (the context is checked before the rename).
func TestD4CancelDuringWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.model")
	os.WriteFile(p, []byte("old"), 0o644)
	for _, late := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		err := atomicfile.Write(ctx, p, func(w io.Writer) error {
			w.Write([]byte("new, part 1"))
			cancel()
			if late {
				return nil
			}
			_, err := w.Write([]byte("part 2"))
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("late=%v: error %v, want context.Canceled", late, err)
		}
		if b, _ := os.ReadFile(p); string(b) != "old" {
			t.Errorf("late=%v: the file holds %q", late, b)
		}
		if got := files(t, dir); len(got) != 1 {
			t.Errorf("late=%v: files %v", late, got)
		}
	}
}

// D4: SIGTERM is handled as Ctrl-C: exit 1, one line, no temporary file,
// the old model kept.
func TestD4SIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and waits for it")
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 2000, 1, 0, 1), true))
	model := writeFile(t, dir, "m.model", "old model")
	cmd := exec.Command(os.Args[0], "train", "-method", "gbrff2", "-param", "t=1000000", "-data", data, "-model", model)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 30 s after SIGTERM")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	if got := stderr.String(); !strings.HasPrefix(got, "rfkit train: interrupted") || strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q", got)
	}
	if b, _ := os.ReadFile(model); string(b) != "old model" {
		t.Errorf("the model was replaced")
	}
	if got := files(t, dir); len(got) != 2 {
		t.Errorf("files after SIGTERM: %v", got)
	}
}

// zeroStream is an endless stream of zero bytes (/dev/zero) after prefix;
// n counts what was read.
type zeroStream struct {
	prefix []byte
	n      int
}

func (z *zeroStream) Read(p []byte) (int, error) {
	k := copy(p, z.prefix)
	z.prefix = z.prefix[k:]
	clear(p[k:])
	z.n += len(p)
	return len(p), nil
}

// H1: a model is read as a stream checked as it comes: /dev/zero fails at
// the magic, and a header that declares a huge array costs only the bytes
// that actually arrive, not the declared size.
func TestH1ModelStream(t *testing.T) {
	z := &zeroStream{}
	if _, err := readModelBytes(z); err == nil || !strings.Contains(err.Error(), "not an rfkit model file") || z.n > 1<<16 {
		t.Errorf("zeros: %v after %d bytes", err, z.n)
	}
	// A valid prologue, then an array declaring 2⁶⁰ elements, then a
	// short stream.
	var b bytes.Buffer
	b.WriteString(modelfile.Magic)
	binary.Write(&b, binary.LittleEndian, uint16(modelfile.FormatVersion))
	binary.Write(&b, binary.LittleEndian, uint32(2))
	b.WriteString("{}")
	binary.Write(&b, binary.LittleEndian, uint32(1))
	binary.Write(&b, binary.LittleEndian, uint16(1))
	b.WriteString("w")
	binary.Write(&b, binary.LittleEndian, uint64(1)<<60)
	b.Write(make([]byte, 1000))
	if _, err := readModelBytes(bytes.NewReader(b.Bytes())); err == nil || !strings.Contains(err.Error(), "corrupt model file") {
		t.Errorf("huge array: %v", err)
	}
	// A plausible array size backed by a stream that ends early.
	c := bytes.Clone(b.Bytes()[:b.Len()-1000-8])
	c = binary.LittleEndian.AppendUint64(c, 1<<20)
	c = append(c, make([]byte, 4096)...)
	if _, err := readModelBytes(bytes.NewReader(c)); err == nil || !strings.Contains(err.Error(), "corrupt model file: truncated") {
		t.Errorf("truncated array: %v", err)
	}
	// A data stream without line breaks fails at the header limit.
	if _, err := readCSVHead(&zeroStream{}); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("endless CSV header: %v", err)
	}
}

// H2: inputs × features are bounded, with an error before the fit; the
// 22-byte LIBSVM file of the report, and a wide CSV file.
func TestH2SizeLimits(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.model")
	tiny := writeFile(t, dir, "tiny.libsvm", "1 1048576:1\n-1 1:1\n")
	rfkit(t, "train", "-method", "rks", "-data", tiny, "-model", out).fails(t, 1, "feature index 1048576 exceeds -max-inputs (131072)")
	rfkit(t, "train", "-method", "rks", "-data", tiny, "-model", out, "-max-inputs", "2000000").fails(t, 1, "1048576 inputs × 100 random features exceeds -max-size 33554432")

	var b strings.Builder
	for j := range 1000 {
		fmt.Fprintf(&b, "x%d,", j)
	}
	b.WriteString("y\n")
	for i := range 4 {
		b.WriteString(strings.Repeat("0.5,", 1000) + fmt.Sprint(2*(i%2)-1) + "\n")
	}
	wide := writeFile(t, dir, "wide.csv", b.String())
	rfkit(t, "train", "-method", "rks", "-data", wide, "-model", out, "-max-inputs", "999").fails(t, 1, "1001 columns: more than 999 feature columns")
	rfkit(t, "train", "-method", "rks", "-data", wide, "-model", out, "-max-size", "50000").fails(t, 1, "1000 inputs × 100 random features exceeds -max-size 50000")
	rfkit(t, "train", "-method", "gbrff2", "-data", wide, "-model", out, "-max-size", "50000", "-param", "t=60").fails(t, 1, "1000 inputs × 60 random features")
	rfkit(t, "train", "-method", "eerf", "-data", wide, "-model", out, "-max-size", "50000").fails(t, 1, "1000 inputs × 2000 random features")
	rfkit(t, "cv", "-method", "rks", "-data", wide, "-grid", "features=10,100", "-max-size", "50000", "-folds", "2").fails(t, 1, "grid setting features=100: 1000 inputs × 100 random features")
	rfkit(t, "train", "-method", "rks", "-data", wide, "-model", out, "-max-size", "200000", "-quiet").ok(t)
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

// H3: demo -res is bounded (100000 ran out of memory with a stack trace).
func TestH3DemoRes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	rfkit(t, "demo", "-png", out, "-res", "100000", "-ntrain", "20", "-ntest", "5").fails(t, 2, "-res 100000: at most 1000")
}

// H5: without a terminal, a long fit writes a progress line every
// progressEvery; -quiet writes none.
func TestH5ProgressLines(t *testing.T) {
	saved := progressEvery
	progressEvery = time.Millisecond
	defer func() { progressEvery = saved }()
	// The line writer itself, on a buffer (not a terminal): deterministic,
	// unlike a timed fit, which may end before the first tick.
	var mu sync.Mutex
	var buf bytes.Buffer
	w := writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(b) })
	p := newProgress(w, false, "train gbrff2", 200)
	if err := p.event(learners.Event{Round: 17, Rounds: 200}); err != nil {
		t.Fatal(err)
	}
	want := "rfkit train gbrff2: 17 of 200 done, "
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		got := buf.String()
		mu.Unlock()
		if strings.Contains(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no progress line %q in 10 s: %q", want, got)
		}
	}
	p.done(true)
	mu.Lock()
	n := buf.Len()
	mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	if mu.Lock(); buf.Len() != n {
		t.Error("progress lines written after done")
	}
	mu.Unlock()
	// -quiet: nothing on stderr, whatever the fit's length.
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 300, 1, -1, 1), true))
	out := filepath.Join(dir, "m.model")
	if r := rfkit(t, "train", "-method", "gbrff2", "-param", "t=200", "-data", data, "-model", out, "-quiet").ok(t); r.stderr != "" {
		t.Errorf("-quiet wrote %q", r.stderr)
	}
}

// writerFunc is an io.Writer from a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// W1: eval refuses labels that are not the model's classes.
func TestW1EvalUnknownLabels(t *testing.T) {
	dir := t.TempDir()
	_, model := trained(t, dir)
	zeroOne := writeFile(t, dir, "01.csv", csvText(moons(t, 50, 3, 0, 1), true))
	rfkit(t, "eval", "-model", model, "-data", zeroOne).fails(t, 1, "label 0 is not a class of the model (its classes: -1, 1;")
	s := moons(t, 50, 3, 0, 1)
	for i := range s.Y {
		s.Y[i] = float64(i) / 7
	}
	reg := writeFile(t, dir, "reg.csv", csvText(s, true))
	rfkit(t, "eval", "-model", model, "-data", reg).fails(t, 1, "labels 0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.5714285714285714 are not a class")
}

// W2: a row the model cannot score (finite but extreme inputs make NaN) is
// an error naming the row, in predict and eval, never a NaN label or a
// silent miss; the JSON of a non-finite value is null.
func TestW2NonFinitePrediction(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "train.csv", csvText(moons(t, 200, 1, -1, 1), true))
	model := filepath.Join(dir, "g.model")
	rfkit(t, "train", "-method", "gbrff2", "-param", "t=10", "-data", data, "-model", model, "-quiet").ok(t)
	ext := writeFile(t, dir, "ext.csv", "x0,x1,y\n0.5,0.5,1\n1e308,-1e308,1\n")
	rfkit(t, "predict", "-model", model, "-data", ext).fails(t, 1, "data row 2: the prediction is NaN")
	rfkit(t, "eval", "-json", "-model", model, "-data", ext).fails(t, 1, "data row 2: the prediction is NaN")
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		b, err := json.Marshal(evalResult{Metric: "rmse", Value: jsonFloat(v), N: 1})
		if err != nil || string(b) != `{"metric":"rmse","value":null,"n":1}` {
			t.Errorf("%v: %s %v", v, b, err)
		}
	}
}

// W3: srff does regression only, so -task binary is a usage error; -task
// auto trains its regression on two-valued labels.
func TestW3SRFFTask(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 40, 1, -1, 1), true))
	rfkit(t, "train", "-method", "srff", "-task", "binary", "-data", data, "-model", filepath.Join(dir, "s.model")).fails(t, 2, "srff cannot do binary classification; methods that can: ")
	rfkit(t, "cv", "-method", "srff", "-task", "binary", "-data", data, "-grid", "lambda=1").fails(t, 2, "srff cannot do binary classification; methods that can: ")
	if r := rfkit(t, "train", "-method", "srff", "-data", data, "-model", filepath.Join(dir, "s.model"), "-param", "features=8").ok(t); !strings.Contains(r.stdout, "srff: regression on 40 rows") {
		t.Errorf("srff -task auto: %q", r.stdout)
	}
}

// W4: a file with exactly the model's number of columns whose header is
// not the model's feature names (here the label read as a feature, every
// column shifted) is refused, naming the first column that differs, unless
// -ignore-names. For a model without names (trained on LIBSVM) a column
// named y is the tell-tale. A file with a column too many or too few is
// refused. (names_test.go has the 13-input case of the report.)
func TestW4LabelAsFeature(t *testing.T) {
	dir := t.TempDir()
	_, model := trained(t, dir) // inputs x0, x1
	shifted := writeFile(t, dir, "shifted.csv", "x1,y\n0.5,1\n")
	rfkit(t, "predict", "-model", model, "-data", shifted).fails(t, 1, `feature column 1 of 2 is named "x1", but the model's input 1 is "x0"`)
	rfkit(t, "eval", "-model", model, "-data", shifted).fails(t, 1, `feature column 1 of 2 is named "x1"`)
	if r := rfkit(t, "predict", "-model", model, "-data", shifted, "-ignore-names").ok(t); len(lines(r.stdout)) != 1 {
		t.Errorf("-ignore-names: %q", r.stdout)
	}
	wide := writeFile(t, dir, "wide.csv", "a,b,c,y\n1,2,3,1\n")
	rfkit(t, "predict", "-model", model, "-data", wide).fails(t, 1, "4 columns, but the model takes 2 inputs")

	svm := writeFile(t, dir, "train.svm", libsvmText(moons(t, 60, 1, -1, 1)))
	unnamed := filepath.Join(dir, "unnamed.model")
	rfkit(t, "train", "-method", "rks", "-data", svm, "-model", unnamed, "-quiet").ok(t)
	rfkit(t, "predict", "-model", unnamed, "-data", shifted).fails(t, 1, "2 columns, one of them named y")
	rfkit(t, "eval", "-model", unnamed, "-data", shifted).fails(t, 1, "one of them named y")
	if r := rfkit(t, "predict", "-model", unnamed, "-data", shifted, "-ignore-names").ok(t); len(lines(r.stdout)) != 1 {
		t.Errorf("-ignore-names: %q", r.stdout)
	}
}

// M2: predict does not read the label column: empty, ? or text are fine.
func TestM2PredictIgnoresLabels(t *testing.T) {
	dir := t.TempDir()
	_, model := trained(t, dir)
	f := writeFile(t, dir, "unlabelled.csv", "x0,x1,y\n0.5,0.5,\n1,0,?\n0,1,cat\n")
	if r := rfkit(t, "predict", "-model", model, "-data", f).ok(t); len(lines(r.stdout)) != 3 {
		t.Errorf("predictions: %q", r.stdout)
	}
	// eval needs the labels, so it still reads them.
	rfkit(t, "eval", "-model", model, "-data", f).fails(t, 1, `line 2, column "y": empty value`)
}

// M3: messages: LIBSVM out-of-range labels, compressed input, and model
// load errors with one "corrupt model file" prefix and no Go values.
func TestM3Messages(t *testing.T) {
	dir := t.TempDir()
	data, model := trained(t, dir)
	out := filepath.Join(dir, "x.model")
	big := writeFile(t, dir, "big.libsvm", "1 1:1\n1e400 1:2\n")
	rfkit(t, "train", "-method", "rks", "-data", big, "-model", out).fails(t, 1, `line 2: label "1e400" is out of range for float64`)
	gz := writeFile(t, dir, "gz.csv", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03junk")
	rfkit(t, "train", "-method", "rks", "-data", gz, "-model", out).fails(t, 1, "gzip-compressed; decompress it first")

	good, _ := os.ReadFile(model)
	flip := bytes.Clone(good)
	i := bytes.Index(flip, []byte(`"rks"`))
	flip[i+1] = 'b' // method "bks", checksum now wrong
	trunc := good[:len(good)/2]
	// A valid container whose gbrff config is not what the learner wrote.
	g := filepath.Join(dir, "g.model")
	rfkit(t, "train", "-method", "gbrff2", "-param", "t=3", "-data", data, "-model", g, "-quiet").ok(t)
	gb, _ := os.ReadFile(g)
	mf, err := modelfile.Parse(gb)
	if err != nil {
		t.Fatal(err)
	}
	mf.Header.Config = bytes.Replace(mf.Header.Config, []byte(`"T":3`), []byte(`"T":0`), 1)
	badCfg, err := mf.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"flip":   {flip, "corrupt model file: checksum mismatch"},
		"trunc":  {trunc, "corrupt model file: truncated"},
		"badcfg": {badCfg, "corrupt model file: "},
		"short":  {good[:5], "corrupt model file: truncated"},
		"text":   {[]byte("x0,x1\n1,2\n"), "not an rfkit model file"},
	} {
		p := writeFile(t, dir, name+".model", string(c.data))
		r := rfkit(t, "predict", "-model", p, "-data", data)
		r.fails(t, 1, c.want)
		if strings.Count(r.stderr, "corrupt model file") > 1 || strings.ContainsAny(r.stderr, "{}") || strings.Contains(r.stderr, "modelfile:") {
			t.Errorf("%s: %q", name, r.stderr)
		}
	}
}

// M4: -h shows the defaults the method trains with; -label is trimmed; cv
// takes the flags train takes for an rrf multiclass model.
func TestM4(t *testing.T) {
	for _, c := range []struct{ method, param, want string }{
		{"lkrf", "selection", "lkrf"},
		{"eerf", "selection", "eerf"},
		{"gbrff1", "variant", "gbrff1"},
		{"srff", "task", "regression"},
	} {
		r := rfkit(t, "train", "-method", c.method, "-h").ok(t)
		found := false
		for _, l := range lines(r.stdout) {
			if f := strings.Fields(l); len(f) > 2 && f[0] == c.param {
				found = true
				if f[2] != c.want {
					t.Errorf("%s -h: %s default %q, want %q", c.method, c.param, f[2], c.want)
				}
			}
		}
		if !found {
			t.Errorf("%s -h: no %s line", c.method, c.param)
		}
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", "y,a,b\n"+strings.Repeat("1,0.1,0.2\n-1,0.9,0.7\n", 20))
	rfkit(t, "train", "-method", "rks", "-data", data, "-label", " y ", "-model", filepath.Join(dir, "m.model"), "-quiet").ok(t)

	var b strings.Builder
	b.WriteString("a,b,y\n")
	for i := range 90 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%3, (i*7)%5, i%3)
	}
	mc := writeFile(t, dir, "mc.csv", b.String())
	args := []string{"-method", "rrf", "-task", "binary", "-param", "multiclass=true", "-data", mc}
	rfkit(t, append([]string{"train", "-model", filepath.Join(dir, "mc.model"), "-quiet"}, args...)...).ok(t)
	if r := rfkit(t, append([]string{"cv", "-grid", "lambda=0.01,0.1", "-folds", "3", "-quiet"}, args...)...).ok(t); !strings.Contains(r.stdout, "best: lambda=") {
		t.Errorf("cv: %q", r.stdout)
	}
}

// Item 4: version, info and the method a parameter selected.
func TestExplains(t *testing.T) {
	r := rfkit(t, "version").ok(t)
	for _, want := range []string{"rfkit    github.com/rfkit/rfkit", "revision ", "go       go1.", "simd     "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("version: no %q in %q", want, r.stdout)
		}
	}
	dir := t.TempDir()
	data, model := trained(t, dir)
	r = rfkit(t, "info", model).ok(t)
	for _, want := range []string{"method   rks (model version 1, with a probability calibration)", "task     binary", "classes  -1, 1", "inputs   2", "format   1", "size     ", "arrays   mean[2]", "  features  100"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("info: no %q in %q", want, r.stdout)
		}
	}
	var j struct {
		Method  string    `json:"method"`
		Inputs  int       `json:"inputs"`
		Classes []float64 `json:"classes"`
		Size    int       `json:"size"`
	}
	r = rfkit(t, "info", "-json", model).ok(t)
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j.Method != "rks" || j.Inputs != 2 || len(j.Classes) != 2 || j.Size == 0 {
		t.Errorf("info -json: %+v %v", j, err)
	}
	rfkit(t, "info").fails(t, 2, "a model file is required")

	r = rfkit(t, "train", "-method", "gbrff2", "-param", "variant=gbrff1", "-param", "t=3", "-data", data, "-model", filepath.Join(dir, "g.model")).ok(t)
	if !strings.HasPrefix(r.stdout, "gbrff1 (asked for gbrff2;") {
		t.Errorf("train summary: %q", r.stdout)
	}
}

// M1: a selection that contradicts -method is a usage error (exit 2).
func TestM1SelectionContradictsMethod(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 100, 1, -1, 1), true))
	rfkit(t, "train", "-method", "eerf", "-param", "selection=lkrf", "-data", data, "-model", filepath.Join(dir, "m")).fails(t, 2, "-param selection=lkrf contradicts -method eerf")
	rfkit(t, "train", "-method", "lkrf", "-param", "selection=lkrf", "-data", data, "-model", filepath.Join(dir, "m"), "-quiet").ok(t)
}
