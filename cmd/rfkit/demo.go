package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/cv"
)

// demoSets are the toy data sets of the demo (synth.ByName names).
var demoSets = []string{"checkerboard", "spirals"}

// demoMethod is a registered method with the demo's parameters. The inputs
// are standardised by the learners, so γ = 4 resolves the checkerboard's
// cells and the spirals' arms; the default 1/d is far too smooth for them.
type demoMethod struct {
	name   string
	params [][2]string // applied with learners.SetParam, in order
}

// demoResult is one (data set, method) run.
type demoResult struct {
	set         string
	method      demoMethod
	accuracy    float64
	fit         time.Duration
	nsPerRow    float64
	model       learners.Model
	train, test *synth.Set
}

// maxDemoRes bounds -res. Each panel is drawn 384 pixels wide (4 inches at
// 96 dpi), so a finer grid shows nothing more; it only costs res² predictions
// and cells per panel (-res 100000 ran out of memory).
const maxDemoRes = 1000

// runDemo trains GBRFF2 and RKS on the checkerboard and spiral toys.
func runDemo(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("demo", "rfkit demo [-png FILE] [-save DIR] [-seed N]",
		"Generates the checkerboard and two-spirals toys (1000 training and 2000 test\n"+
			"points each), trains GBRFF2 (100 rounds) and RKS (300 random features) on\n"+
			"each, and prints the test accuracy, the fit time and the latency of a\n"+
			"single-row Predict, with the SIMD path the kernels ran on. -png draws the\n"+
			"decision boundaries; -save writes the data sets as CSV files for train,\n"+
			"predict and eval.")
	pngPath := fs.String("png", "", "draw the decision boundaries into the PNG `FILE`")
	saveDir := fs.String("save", "", "write <set>-train.csv and <set>-test.csv into `DIR`")
	seed := fs.Uint64("seed", 1, "seed `N` of the data and the models")
	nTrain := fs.Int("ntrain", 1000, "training points per data set")
	nTest := fs.Int("ntest", 2000, "test points per data set")
	rounds := fs.Int("rounds", 100, "GBRFF2 rounds")
	features := fs.Int("features", 300, "RKS features")
	res := fs.Int("res", 200, fmt.Sprintf("PNG grid resolution per axis (at most %d)", maxDemoRes))
	fs.hide("ntrain", "ntest", "rounds", "features", "res")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	switch {
	case *nTrain < 10 || *nTest < 1:
		return usagef("-ntrain must be ≥ 10 and -ntest ≥ 1")
	case *rounds < 1 || *features < 1 || *res < 2:
		return usagef("-rounds, -features and -res must be positive")
	case *res > maxDemoRes:
		return usagef("-res %d: at most %d (a panel is 384 pixels wide)", *res, maxDemoRes)
	}
	methods := []demoMethod{
		{"gbrff2", [][2]string{{"t", strconv.Itoa(*rounds)}, {"gamma", "4"}}},
		{"rks", [][2]string{{"features", strconv.Itoa(*features)}, {"gamma", "4"}}},
	}

	fmt.Fprintf(e.stdout, "rfkit demo: SIMD path %s (available: %s), GOMAXPROCS %d, %s/%s\n",
		asm.Selected(), strings.Join(asm.Paths(), " "), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(e.stdout, "%d training and %d test points per data set, seed %d\n\n", *nTrain, *nTest, *seed)
	w := newTable(e.stdout, "data set:12", "method:6", "parameters:20", "test accuracy", "fit time:8", "predict latency")
	var results []demoResult
	for k, set := range demoSets {
		train, err := synth.ByName(set, *nTrain, *seed+uint64(2*k))
		if err != nil {
			return err
		}
		test, err := synth.ByName(set, *nTest, *seed+uint64(2*k+1))
		if err != nil {
			return err
		}
		if *saveDir != "" {
			if err := saveCSV(ctx, *saveDir, set, train, test); err != nil {
				return err
			}
		}
		for _, dm := range methods {
			r, err := demoFit(ctx, dm, train, test, *seed)
			if err != nil {
				return err
			}
			results = append(results, r)
			w.row(set, dm.name, paramString(dm.params), fmt.Sprintf("%.4f", r.accuracy),
				r.fit.Round(time.Millisecond).String(), fmt.Sprintf("%.0f ns/row", r.nsPerRow))
		}
	}
	if *saveDir != "" {
		fmt.Fprintf(e.stdout, "\nwrote the data sets to %s (try: rfkit train -method gbrff2 -param t=100 -param gamma=4 -data %s -model spirals.model)\n",
			*saveDir, filepath.Join(*saveDir, "spirals-train.csv"))
	}
	if *pngPath != "" {
		if err := atomicfile.Write(ctx, *pngPath, func(w io.Writer) error { return drawDemo(w, results, *res) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\nwrote the decision boundaries to %s\n", *pngPath)
	}
	return nil
}

// demoFit trains one method through the registry and measures it.
func demoFit(ctx context.Context, dm demoMethod, train, test *synth.Set, seed uint64) (demoResult, error) {
	r := demoResult{set: train.Name, method: dm, train: train, test: test}
	m, err := learners.Lookup(dm.name)
	if err != nil {
		return r, err
	}
	cfg := m.NewConfig()
	params := append([][2]string{{"seed", strconv.FormatUint(seed, 10)}}, dm.params...)
	for _, kv := range params {
		if err := learners.SetParam(cfg, kv[0], kv[1]); err != nil {
			return r, fmt.Errorf("%s: %w", dm.name, err)
		}
	}
	start := time.Now()
	r.model, err = m.Fit(ctx, featmap.Dense(train.N, train.D, train.X), train.Y, cfg, nil)
	r.fit = time.Since(start)
	if err != nil {
		return r, fmt.Errorf("%s on %s: %w", dm.name, train.Name, err)
	}
	Xte := featmap.Dense(test.N, test.D, test.X)
	if r.accuracy, err = cv.Accuracy(r.model, Xte, test.Y); err != nil {
		return r, err
	}
	r.nsPerRow = predictLatency(r.model, Xte, 10*time.Millisecond)
	return r, nil
}

// predictLatency is the time of one single-row Predict: the mean over
// passes through the rows of X lasting at least minTime, the best of five
// such measurements (steadier on a busy machine).
func predictLatency(m learners.Model, X featmap.Matrix, minTime time.Duration) float64 {
	var sink float64
	for i := 0; i < min(X.Rows, 100); i++ { // warm up
		sink += m.Predict(X.Row(i))
	}
	best := math.Inf(1)
	for range 5 {
		rows := 0
		start := time.Now()
		for time.Since(start) < minTime || rows == 0 {
			for i := 0; i < X.Rows; i++ {
				sink += m.Predict(X.Row(i))
			}
			rows += X.Rows
		}
		best = min(best, float64(time.Since(start).Nanoseconds())/float64(rows))
	}
	runtime.KeepAlive(sink)
	return best
}

func paramString(kv [][2]string) string {
	parts := make([]string, len(kv))
	for i, p := range kv {
		parts[i] = p[0] + "=" + p[1]
	}
	return strings.Join(parts, " ")
}

// saveCSV writes train and test as DIR/<set>-train.csv and -test.csv, with
// the header x0,x1,...,y.
func saveCSV(ctx context.Context, dir, set string, train, test *synth.Set) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range []struct {
		part string
		data *synth.Set
	}{{"train", train}, {"test", test}} {
		path := filepath.Join(dir, set+"-"+s.part+".csv")
		if err := atomicfile.Write(ctx, path, func(w io.Writer) error { return writeSetCSV(w, s.data) }); err != nil {
			return err
		}
	}
	return nil
}

func writeSetCSV(w io.Writer, s *synth.Set) error {
	var b []byte
	for j := 0; j < s.D; j++ {
		b = append(b, 'x')
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, ',')
	}
	b = append(b, "y\n"...)
	for i := 0; i < s.N; i++ {
		for _, v := range s.Row(i) {
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, s.Y[i], 'g', -1, 64)
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}
