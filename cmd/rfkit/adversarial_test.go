//go:build unix

package main

// Regression tests of the adversarial review that concern the
// command (D1–D4, H1–H3, H5, W1–W4, M2–M4) and of its item 4 (version,
// info, the method actually trained). Each test names its finding.

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
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

// D4, F6: SIGTERM, SIGHUP and SIGQUIT are handled as Ctrl-C: exit 1, one
// line, no temporary file, the old model kept (SIGHUP used to end the
// process and leave its temporary file, SIGQUIT to dump the goroutines).
func TestD4SIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and waits for it")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
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
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		select {
		case err = <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("still running 30 s after %v", sig)
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("%v: exit: %v, want status 1", sig, err)
		}
		if got := stderr.String(); !strings.HasPrefix(got, "rfkit train: interrupted") || strings.Count(got, "\n") != 1 {
			t.Errorf("%v: stderr %.300q", sig, got)
		}
		if b, _ := os.ReadFile(model); string(b) != "old model" {
			t.Errorf("%v: the model was replaced", sig)
		}
		if got := files(t, dir); len(got) != 2 {
			t.Errorf("files after %v: %v", sig, got)
		}
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
	if _, err := learners.ReadModel(z); err == nil || !strings.Contains(err.Error(), "not an rfkit model file") || z.n > 1<<16 {
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
	if _, err := learners.ReadModel(bytes.NewReader(b.Bytes())); err == nil || !strings.Contains(err.Error(), "corrupt model file") {
		t.Errorf("huge array: %v", err)
	}
	// A plausible array size backed by a stream that ends early.
	c := bytes.Clone(b.Bytes()[:b.Len()-1000-8])
	c = binary.LittleEndian.AppendUint64(c, 1<<20)
	c = append(c, make([]byte, 4096)...)
	if _, err := learners.ReadModel(bytes.NewReader(c)); err == nil || !strings.Contains(err.Error(), "corrupt model file: truncated") {
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
	rfkit(t, "train", "-method", "rks", "-data", tiny, "-model", out, "-max-inputs", "2000000").fails(t, 1, "rks: fit too large: on 1048576 inputs it would allocate about 3.146e+08 float64 values (2.52 GB) beside those of the rows, above the bound of 33554432 (-max-size)")

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
	rfkit(t, "train", "-method", "rks", "-data", wide, "-model", out, "-max-size", "50000").fails(t, 1, "rks: fit too large: on 1000 inputs it would allocate about 3.2e+05 float64 values (2.56 MB) beside those of the rows, above the bound of 50000 (-max-size)")
	rfkit(t, "train", "-method", "gbrff2", "-data", wide, "-model", out, "-max-size", "50000", "-param", "t=60").fails(t, 1, "gbrff2: fit too large: on 1000 inputs")
	rfkit(t, "train", "-method", "eerf", "-data", wide, "-model", out, "-max-size", "50000").fails(t, 1, "eerf: fit too large: on 1000 inputs")
	rfkit(t, "cv", "-method", "rks", "-data", wide, "-grid", "features=10,100", "-max-size", "50000", "-folds", "2").fails(t, 1, "grid setting features=100: rks: fit too large")
	rfkit(t, "train", "-method", "rks", "-data", wide, "-model", out, "-max-size", "320000", "-quiet").ok(t)
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
}

// H3: demo -res is bounded (100000 ran out of memory with a stack trace).
func TestH3DemoRes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.png")
	rfkit(t, "demo", "-png", out, "-res", "100000", "-ntrain", "20", "-ntest", "5").fails(t, 2, `invalid value "100000" for flag -res: want an integer from 2 to 1000`)
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
	rfkit(t, "predict", "-model", model, "-data", shifted).fails(t, 1, `feature column index 0 (of 2) is named "x1", but the model's input 0 is "x0"`)
	rfkit(t, "eval", "-model", model, "-data", shifted).fails(t, 1, `feature column index 0 (of 2) is named "x1"`)
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
	for _, want := range []string{"rfkit    github.com/rfkit/rfkit", "library  github.com/rfkit/rfkit ", "revision ", "go       go1.", "simd     "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("version: no %q in %q", want, r.stdout)
		}
	}
	for _, flag := range []string{"--version", "-version"} {
		if v := rfkit(t, flag).ok(t); v.stdout != r.stdout {
			t.Errorf("rfkit %s prints %q, rfkit version %q", flag, v.stdout, r.stdout)
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

// Third round: each test names its finding (F1–F10).

// process is the outcome of the command run as a process (runProcess).
type process struct {
	code    int
	stderr  string
	maxRSS  int64 // bytes
	elapsed time.Duration
	cpu     time.Duration // user + system time of the process
}

// runProcess runs the command line args in a new process (the test binary
// running main), killed after limit, and returns its exit code, stderr,
// peak resident memory, wall time and CPU time.
func runProcess(t *testing.T, limit time.Duration, stdin io.Reader, args ...string) process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	p := process{stderr: stderr.String(), elapsed: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		p.code = exit.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.maxRSS = int64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	p.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return p
}

// noTrace fails t when stderr holds a stack trace or more than one line.
func noTrace(t *testing.T, what, stderr string) {
	t.Helper()
	for _, s := range []string{"goroutine ", "panic", "fatal error"} {
		if strings.Contains(stderr, s) {
			t.Errorf("%s: stderr has %q: %.300q", what, s, stderr)
		}
	}
	if strings.Count(stderr, "\n") > 1 {
		t.Errorf("%s: stderr is more than one line: %.300q", what, stderr)
	}
}

// F1: every method at default parameters on the 18-byte LIBSVM file of
// the report (131072 inputs), and on 1 KB files of 131072 and 4096
// inputs, stays under 512 MB and 60 CPU-s, and a size parameter that makes
// the fit large is refused before the allocation. (srff took 94 s on 13
// rows naming input 4096: its simplex kept most of its mass on the inputs
// that are 0 on every row.) CPU time, not wall time: the bound must hold
// on a loaded machine, where a test's processes share the cores. The
// slowest legitimate fits are dense ones on the standardised inputs: on an
// AMD EPYC Zen 3 core (AVX2) nogd takes 21–23 CPU-s on the 1 KB file of
// 131072 inputs and prff 26–33 on the one of 4096 (its serial dot
// products over 4096 inputs), and 30 s of wall time, the bound before,
// failed a CI run there.
func TestF1TinyFileEveryMethod(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per method")
	}
	dir := t.TempDir()
	data := writeFile(t, dir, "t.libsvm", "1 131072:1\n-1 1:1\n")
	// 1 KB files of as many rows as fit, on 131072 and 4096 inputs, and 13
	// rows of a few inputs each, one naming input 4096.
	var b strings.Builder
	for i := 0; i < 13; i++ {
		fmt.Fprintf(&b, "%d", 2*(i%2)-1)
		for k := 1 + i%3; k <= 16; k += 3 {
			fmt.Fprintf(&b, " %d:%d", k, (i*k)%7)
		}
		if i == 0 {
			b.WriteString(" 4096:1")
		}
		b.WriteString("\n")
	}
	if b.Len() > 1024 {
		t.Fatalf("the 13-row file has %d bytes", b.Len())
	}
	var files = []string{data, writeFile(t, dir, "r13.libsvm", b.String())}
	for _, d := range []int{131072, 4096} {
		var b strings.Builder
		for i := 0; ; i++ {
			line := fmt.Sprintf("%d %d:1\n", 2*(i%2)-1, 1+(i*7919)%d)
			if b.Len()+len(line) > 1024 {
				break
			}
			b.WriteString(line)
		}
		files = append(files, writeFile(t, dir, fmt.Sprintf("k%d.libsvm", d), b.String()))
	}
	out := filepath.Join(dir, "t.model")
	for _, f := range files {
		for _, m := range learners.Methods() {
			p := runProcess(t, 120*time.Second, nil, "train", "-method", m.Name, "-data", f, "-model", out, "-quiet")
			t.Logf("%s %s: exit %d, %.0f MB, %v (%v CPU): %s", filepath.Base(f), m.Name, p.code, float64(p.maxRSS)/1e6, p.elapsed.Round(time.Millisecond), p.cpu.Round(time.Millisecond), strings.TrimSpace(p.stderr))
			if p.maxRSS > 512<<20 || p.cpu > 60*time.Second {
				t.Errorf("%s %s: %.0f MB, %v CPU", filepath.Base(f), m.Name, float64(p.maxRSS)/1e6, p.cpu)
			}
			if p.code != 0 && p.code != 1 {
				t.Errorf("%s %s: exit %d", filepath.Base(f), m.Name, p.code)
			}
			noTrace(t, m.Name, p.stderr)
		}
	}
	for _, args := range [][]string{
		{"-method", "pbrff"},
		{"-method", "pbrff", "-param", "k=20"},
		{"-method", "gbrff1"},
	} {
		rfkit(t, append([]string{"train", "-data", data, "-model", out}, args...)...).fails(t, 1, "fit too large")
	}
}

// F3: an output that is an input (by name, through a symbolic or a hard
// link) is a usage error before anything is read, and the input is kept;
// -resume M -model M continues a model in place.
func TestF3OutputIsInput(t *testing.T) {
	dir := t.TempDir()
	data, model := trained(t, dir)
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(data, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.model")
	if err := os.Link(model, hard); err != nil {
		t.Fatal(err)
	}
	dataBytes, _ := os.ReadFile(data)
	modelBytes, _ := os.ReadFile(model)
	for _, args := range [][]string{
		{"train", "-method", "rks", "-data", data, "-model", data},
		{"train", "-method", "rks", "-data", data, "-model", link},
		{"train", "-method", "rks", "-data", link, "-model", data},
		{"cv", "-method", "rks", "-data", data, "-model", link, "-grid", "features=10,20"},
		{"predict", "-model", model, "-data", data, "-out", data},
		{"predict", "-model", model, "-data", data, "-out", model},
		{"predict", "-model", model, "-data", data, "-out", hard},
	} {
		r := rfkit(t, args...)
		r.fails(t, 2, "would destroy the input")
	}
	if b, _ := os.ReadFile(data); !bytes.Equal(b, dataBytes) {
		t.Error("the data file was changed")
	}
	if b, _ := os.ReadFile(model); !bytes.Equal(b, modelBytes) {
		t.Error("the model file was changed")
	}
	rfkit(t, "predict", "-model", model, "-data", data, "-out", filepath.Join(dir, "p.txt")).ok(t)
	// A model continued in place is not an input destroyed: -resume reads
	// it whole before the new one replaces it.
	online := filepath.Join(dir, "fogd.model")
	rfkit(t, "train", "-method", "fogd", "-data", data, "-model", online, "-quiet").ok(t)
	rfkit(t, "train", "-method", "fogd", "-data", data, "-resume", online, "-model", online, "-quiet").ok(t)
}

// F7: -param task=binary says what -task binary says and is checked by the
// same rule: srff refuses it (it used to fit a regression, exit 0); a
// -param task that contradicts -task is a usage error; one that agrees
// with the method works as -task does.
func TestF7TaskParam(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 40, 1, -1, 1), true))
	out := filepath.Join(dir, "s.model")
	for _, p := range []string{"task=binary", "Task=Binary"} {
		rfkit(t, "train", "-method", "srff", "-param", p, "-data", data, "-model", out).fails(t, 2, "srff cannot do binary classification; methods that can: ")
		rfkit(t, "cv", "-method", "srff", "-param", p, "-data", data, "-grid", "lambda=1").fails(t, 2, "srff cannot do binary classification")
	}
	rfkit(t, "train", "-method", "rks", "-task", "binary", "-param", "task=regression", "-data", data, "-model", out).fails(t, 2, "-param task=regression contradicts -task binary")
	if r := rfkit(t, "train", "-method", "rks", "-param", "task=regression", "-data", data, "-model", out).ok(t); !strings.Contains(r.stdout, "rks: regression on 40 rows") {
		t.Errorf("rks -param task=regression: %q", r.stdout)
	}
}

// F4: every flag of every command, hidden ones too, with hostile values
// (huge, negative, NaN, empty, not a number): exit 0, 1 or 2 with one line
// and no stack trace, and a numeric flag refuses a value out of its range
// as a usage error (exit 2) before anything runs (demo -ntrain 100000000
// ran out of memory with a stack trace, -ntest, -rounds and -features out
// of range exited 1 with internal wording).
func TestF4EveryFlagHostile(t *testing.T) {
	dir := t.TempDir()
	data, model := trained(t, dir)
	t.Chdir(dir) // outputs named by hostile values land here
	// Each command line of a command is swept (importance: without and
	// with -data, whose flags apply only then).
	base := map[string][][]string{
		"train":      {{"-method", "rks", "-data", data, "-model", filepath.Join(dir, "o.model"), "-quiet"}},
		"predict":    {{"-model", model, "-data", data}},
		"eval":       {{"-model", model, "-data", data}},
		"cv":         {{"-method", "rks", "-data", data, "-grid", "features=5", "-folds", "2"}},
		"importance": {{"-model", model}, {"-model", model, "-data", data, "-repeats", "1"}},
		"demo":       {{"-ntrain", "20", "-ntest", "5", "-rounds", "2", "-features", "5", "-res", "2"}},
		"bench":      {{"-n", "8", "-benchtime", "1ms"}},
		"info":       {{"-model", model}},
		"version":    {{}},
		"split":      {{"-data", data, "-train", filepath.Join(dir, "s-train.csv"), "-test", filepath.Join(dir, "s-test.csv")}},
		"export":     {{"-format", "onnx", "-model", model, "-out", filepath.Join(dir, "o.onnx")}},
	}
	// 99999999999 is an int64 but above every count's bound (importance
	// -top took it); only a seed takes any uint64, and -max-size any
	// int64 (a machine with the memory may raise it that far).
	hostile := []string{"99999999999999999999", "99999999999", "-99999999999", "1e300", "-1", "NaN", "Inf", "", "x", "0"}
	numeric := map[string]bool{"99999999999999999999": true, "99999999999": true, "-99999999999": true, "1e300": true, "NaN": true, "Inf": true, "x": true}
	anyUint64 := map[string]bool{"seed": true, "max-size": true}
	for _, c := range commands {
		lines, ok := base[c.name]
		if !ok {
			t.Errorf("no base command line for %s", c.name)
			continue
		}
		for _, args := range lines {
			sweepFlags(t, c.name, args, hostile, func(flag, v string) bool { return numeric[v] && !(v == "99999999999" && anyUint64[flag]) })
		}
	}
}

// sweepFlags runs the command name with args and each of its flags set to
// each hostile value: exit 0, 1 or 2 with one line and no stack trace, and
// exit 2 for a numeric flag given a value for which refused(flag, value).
func sweepFlags(t *testing.T, name string, args, hostile []string, refused func(flag, v string) bool) {
	t.Helper()
	var made []*flagSet
	flagSetMade = func(fs *flagSet) { made = append(made, fs) }
	rfkit(t, name, "-h")
	flagSetMade = nil
	var flags []*flag.Flag
	for _, fs := range made {
		fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
	}
	if len(flags) == 0 && name != "version" {
		t.Errorf("%s: no flags seen", name)
	}
	for i, f := range flags {
		_, errN := strconv.ParseFloat(f.DefValue, 64)
		_, errD := time.ParseDuration(f.DefValue)
		isNumber := errN == nil || errD == nil
		if _, bool := f.Value.(interface{ IsBoolFlag() bool }); bool {
			continue // -quiet x: a stray argument, checked by parse
		}
		for j, v := range hostile {
			if testing.Short() && (i+j)%3 != 0 {
				// -short (the race and qemu stages, where parsing is
				// no different): every third value, rotating, so each
				// flag gets three or four and each value many flags.
				continue
			}
			r := rfkit(t, append(append([]string{name}, args...), "-"+f.Name, v)...)
			what := fmt.Sprintf("%s %q -%s %q", name, args, f.Name, v)
			noTrace(t, what, r.stderr)
			if r.code < 0 || r.code > 2 || (r.code != 0 && strings.Count(r.stderr, "\n") != 1) {
				t.Errorf("%s: exit %d, stderr %.200q", what, r.code, r.stderr)
			}
			if isNumber && refused(f.Name, v) && r.code != 2 {
				t.Errorf("%s: exit %d, want 2 (a number out of range is a usage error): %.200q", what, r.code, r.stderr)
			}
		}
	}
}

// F8: the training summary, predict and eval stop when the context is
// cancelled (the kernel's training accuracy on a9a ignored Ctrl-C for 7 s
// and the command exited 0).
func TestF8SummaryHonoursContext(t *testing.T) {
	dir := t.TempDir()
	_, model := trained(t, dir)
	m, err := loadModel(model)
	if err != nil {
		t.Fatal(err)
	}
	s := moons(t, 3000, 2, -1, 1)
	X := featmap.Dense(s.N, s.D, s.X)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := trainingFit(ctx, m.Model, X, s.Y, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("trainingFit under a cancelled context: %v", err)
	}
	if _, err := cv.PredictContext(ctx, m.Model, X); !errors.Is(err, context.Canceled) {
		t.Errorf("cv.PredictContext under a cancelled context: %v", err)
	}
	if fit, _, err := trainingFit(context.Background(), m.Model, X, s.Y, nil); err != nil || fit == "n/a" {
		t.Errorf("trainingFit: %q, %v", fit, err)
	}
}

// F10: eval says why R² is n/a when the errors overflow, and its JSON
// names every metric it prints as null (+Inf was null without a word).
func TestF10EvalOverflow(t *testing.T) {
	dir := t.TempDir()
	s := moons(t, 100, 1, -1, 1)
	data := writeFile(t, dir, "train.csv", csvText(s, true))
	model := filepath.Join(dir, "r.model")
	rfkit(t, "train", "-method", "rks", "-task", "regression", "-data", data, "-model", model, "-quiet").ok(t)
	for i := range s.Y {
		s.Y[i] = 1e300 * float64(1+i%3)
	}
	huge := writeFile(t, dir, "huge.csv", csvText(s, true))
	r := rfkit(t, "eval", "-model", model, "-data", huge).ok(t)
	if !strings.Contains(r.stdout, "r2 n/a (the squared errors overflow float64)") {
		t.Errorf("eval: %q", r.stdout)
	}
	r = rfkit(t, "eval", "-json", "-model", model, "-data", huge).ok(t)
	var got struct {
		RMSE      *float64          `json:"rmse"`
		NonFinite map[string]string `json:"non_finite"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.RMSE != nil || got.NonFinite["rmse"] != "+Inf" || got.NonFinite["value"] != "+Inf" || got.NonFinite["r2"] != "NaN" {
		t.Errorf("eval -json: %s", r.stdout)
	}
}

// F10: -resume with a parameter the continued fit ignores (standardize)
// set to another value than the model's is a usage error, not a model
// whose stored configuration says what it did not do.
func TestF10ResumeIgnoredParam(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvText(moons(t, 100, 1, -1, 1), true))
	for _, method := range []string{"fogd", "rrf", "nogd"} {
		old := filepath.Join(dir, method+".model")
		rfkit(t, "train", "-method", method, "-data", data, "-model", old, "-quiet").ok(t)
		rfkit(t, "train", "-method", method, "-data", data, "-resume", old, "-model", filepath.Join(dir, "new.model"), "-param", "standardize=false").fails(t, 2, "-param standardize=false: the model keeps its own standardize when continued")
		rfkit(t, "train", "-method", method, "-data", data, "-resume", old, "-model", filepath.Join(dir, "new.model"), "-param", "epochs=1", "-quiet").ok(t)
	}
}
