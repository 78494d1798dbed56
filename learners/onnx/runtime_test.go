package onnx_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/graph"
	"github.com/rfkit/rfkit/learners/onnx"
)

// The onnxruntime-node release the runtime check installs.
const ortPackage = "onnxruntime-node@1.20.1"

// Tolerances of the runtime check: the ONNX graph computes its cosines in
// float32 (see the package doc).
const (
	probTol    = 1e-5 // absolute, per probability
	regTol     = 1e-5 // relative (absolute for a value of 0)
	tieTol     = 1e-5 // a label may differ only where rfkit's margin is below this
	labelShare = 0.999
)

// missing reports a runtime the check cannot run without: it fails under
// CI=true and skips with a loud message otherwise, so that the check never
// passes silently.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf("ONNX RUNTIME CHECK NOT RUN: "+format, args...)
	fmt.Fprintln(os.Stderr, "!!! "+msg)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// ortModules installs onnxruntime-node into a cache directory outside the
// repository (RFKIT_ONNXRUNTIME_DIR, else the user cache) once, and
// returns its node_modules.
func ortModules(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("RFKIT_ONNXRUNTIME_DIR")
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			c = os.TempDir()
		}
		dir = filepath.Join(c, "rfkit", strings.ReplaceAll(ortPackage, "@", "-"))
	}
	mods := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(mods, "onnxruntime-node", "package.json")); err == nil {
		return mods
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		missing(t, "npm is not installed (needed once to install %s)", ortPackage)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(npm, "install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", dir, ortPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		missing(t, "npm install %s failed: %v\n%s", ortPackage, err, out)
	}
	return mods
}

type job struct {
	Onnx    string   `json:"onnx"`
	Rows    string   `json:"rows"`
	N       int      `json:"n"`
	D       int      `json:"d"`
	Outputs []string `json:"outputs"`

	kind  string
	split split
	model learners.Model
}

// TestRuntime exports one model of each exportable kind trained on three
// real data sets per task it supports (and the test learners platt and
// encoded, whose inputs are encoded as a default gbrff2 fit's are), scores the held-out rows with
// onnxruntime (Node.js) and compares with rfkit's Predict and
// Probabilities; each file also passes onnx.checker when python3-onnx is
// installed. It runs when RFKIT_ONNX_RUNTIME=1 (make test-onnx), once: the
// graph does not depend on the SIMD path.
func TestRuntime(t *testing.T) {
	if os.Getenv("RFKIT_ONNX_RUNTIME") != "1" {
		t.Skip("the ONNX runtime check runs with RFKIT_ONNX_RUNTIME=1 (make test-onnx)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "Node.js is not installed")
	}
	mods := ortModules(t)
	dir := t.TempDir()
	var jobs []*job
	encoded := map[string]int{} // models with an input encoding, per kind
	for _, task := range []learners.Task{learners.Binary, learners.Multiclass, learners.Regression} {
		for _, name := range sets[task] {
			s := loadSplit(t, task, name)
			for _, k := range append(kinds, kind{name: "platt"}, kind{name: "encoded"}) {
				var m learners.Model
				switch {
				case k.name == "platt" && task == learners.Binary:
					m = plattModel(s.train)
				case k.name == "platt":
					continue
				case k.name == "encoded":
					m = encodedModel(s.train, task)
				default:
					var ok bool
					if m, ok = fit(t, k, s); !ok {
						continue
					}
				}
				data, err := onnx.Export(m)
				if err != nil {
					t.Fatalf("%s on %v: %v", k.name, s, err)
				}
				if g, _ := graph.Of(m); g.Encoding != nil {
					encoded[k.name]++
				}
				j := &job{Onnx: filepath.Join(dir, fmt.Sprintf("%s-%s.onnx", k.name, name)),
					Rows: filepath.Join(dir, fmt.Sprintf("%s-%s.rows", k.name, name)),
					N:    s.test.N, D: s.test.D, kind: k.name, split: s, model: m}
				j.Outputs = []string{"label", "probabilities"}
				if task == learners.Regression {
					j.Outputs = []string{"variable"}
				}
				write(t, j.Onnx, data)
				write(t, j.Rows, float64Bytes(s.test.X))
				jobs = append(jobs, j)
			}
		}
	}
	manifest, _ := json.Marshal(jobs)
	write(t, filepath.Join(dir, "manifest.json"), manifest)
	cmd := exec.Command(node, filepath.Join("testdata", "score.js"), filepath.Join(dir, "manifest.json"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node score.js: %v\n%s", err, stderr.String())
	}
	latency := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Onnx      string  `json:"onnx"`
			LatencyNS float64 `json:"latency_ns"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("node output %q: %v", line, err)
		}
		latency[r.Onnx] = r.LatencyNS
	}
	rows := 0
	for _, j := range jobs {
		rows += compare(t, j, dir, latency[j.Onnx])
	}
	t.Logf("onnxruntime-node: %d models, %d held-out rows compared; with an input encoding: %v", len(jobs), rows, encoded)
	// gbrff2's default binary fit encodes the inputs of heart, pima and
	// australian (integer codes of 3 to 5 values, heavy tails)
	if encoded["gbrff2"] < 3 || encoded["gbrff2-regression"] < 1 || encoded["encoded"] != 9 {
		t.Errorf("models with an input encoding %v, want gbrff2 ≥ 3, gbrff2-regression ≥ 1 and the test learner on all 9 sets", encoded)
	}
	fmt.Printf("onnx runtime check: %d models, %d held-out rows compared with rfkit\n", len(jobs), rows)
	checker(t, jobs)
}

// compare checks the runtime's outputs of job j against rfkit's and
// returns the number of rows compared.
func compare(t *testing.T, j *job, dir string, ortNS float64) int {
	t.Helper()
	m, ts := j.model, j.split.test
	name := fmt.Sprintf("%s on %v", j.kind, j.split)
	rfNS := predictLatency(m, ts.Row(0))
	if j.split.task == learners.Regression {
		v := readFloats(t, j.Onnx+"."+"variable"+".bin", ts.N)
		var worst float64
		for i := range ts.N {
			want := m.Predict(ts.Row(i))
			e := math.Abs(v[i] - want)
			if want != 0 {
				e /= math.Abs(want)
			}
			worst = math.Max(worst, e)
			if !(e <= regTol) {
				t.Errorf("%s: row %d: onnx %v, rfkit %v (relative error %.2g)", name, i, v[i], want, e)
				break
			}
		}
		t.Logf("%-14s %-12s %4d rows  max rel err %.1e  latency onnxruntime %6.1f µs, rfkit %6.2f µs", j.kind, j.split.name, ts.N, worst, ortNS/1e3, rfNS/1e3)
		return ts.N
	}
	cm := m.(learners.ClassModel)
	K := len(cm.Classes())
	lab := readFloats(t, j.Onnx+"."+"label"+".bin", ts.N)
	prob := readFloats(t, j.Onnx+"."+"probabilities"+".bin", ts.N*K)
	p := make([]float64, K)
	scorer := m.(interface{ Score([]float64) float64 })
	same := 0
	var worst float64
	for i := range ts.N {
		x := ts.Row(i)
		if lab[i] == m.Predict(x) {
			same++
		} else if s := math.Abs(scorer.Score(x)); !(s <= tieTol) {
			t.Errorf("%s: row %d: onnx label %v, rfkit %v with margin %v (not a tie)", name, i, lab[i], m.Predict(x), s)
		}
		if err := cm.Probabilities(p, x); err != nil {
			t.Fatal(err)
		}
		for k := range K {
			e := math.Abs(prob[i*K+k] - p[k])
			worst = math.Max(worst, e)
			if !(e <= probTol) {
				t.Errorf("%s: row %d: probability %d: onnx %v, rfkit %v", name, i, k, prob[i*K+k], p[k])
			}
		}
	}
	if float64(same) < labelShare*float64(ts.N) {
		t.Errorf("%s: %d of %d labels equal, want ≥ %.1f %%", name, same, ts.N, 100*labelShare)
	}
	t.Logf("%-14s %-12s %4d rows  labels equal %4d  max prob err %.1e  latency onnxruntime %6.1f µs, rfkit %6.2f µs", j.kind, j.split.name, ts.N, same, worst, ortNS/1e3, rfNS/1e3)
	return ts.N
}

// predictLatency is the median time of one Predict (this is a report, not
// a benchmark: nothing is asserted on it).
func predictLatency(m learners.Model, x []float64) float64 {
	ts := make([]float64, 201)
	for i := range ts {
		t0 := time.Now()
		m.Predict(x)
		ts[i] = float64(time.Since(t0))
	}
	slices.Sort(ts)
	return ts[len(ts)/2]
}

// checker runs onnx.checker (Debian's python3-onnx) on every file.
func checker(t *testing.T, jobs []*job) {
	t.Helper()
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import onnx").Run(); err != nil {
		missing(t, "python3-onnx is not installed: onnx.checker not run")
	}
	files := make([]string, len(jobs))
	for i, j := range jobs {
		files[i] = j.Onnx
	}
	script := "import onnx, sys\nfor f in sys.argv[1:]:\n    onnx.checker.check_model(onnx.load(f), full_check=True)\nprint(len(sys.argv) - 1)\n"
	out, err := exec.Command(py, append([]string{"-c", script}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("onnx.checker: %v\n%s", err, out)
	}
	t.Logf("onnx.checker (full_check): %s files pass", strings.TrimSpace(string(out)))
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func float64Bytes(v []float64) []byte {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func readFloats(t *testing.T, path string, n int) []float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err == nil && len(b) != 8*n {
		err = errors.New("wrong length")
	}
	if err != nil {
		t.Fatalf("%s: %v (%d bytes for %d values)", path, err, len(b), n)
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}
