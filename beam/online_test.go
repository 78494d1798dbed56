package rfbeam

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/rfkit/rfkit/dataset"
	"github.com/rfkit/rfkit/dataset/synth"
	"github.com/rfkit/rfkit/featmap"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/rrf"
)

// split is a labelled data set cut into a training and a test part.
type split struct {
	name          string
	d             int
	train, test   []Example
	trainX, testX []float64
	trainY, testY []float64
}

func newSplit(name string, X, Y []float64, d, every int) split {
	s := split{name: name, d: d}
	for i := range Y {
		x := X[i*d : (i+1)*d]
		if i%every == 0 {
			s.test = append(s.test, Example{Index: int64(len(s.test)), X: x, Y: Y[i]})
			s.testX, s.testY = append(s.testX, x...), append(s.testY, Y[i])
		} else {
			s.train = append(s.train, Example{Index: int64(len(s.train)), X: x, Y: Y[i]})
			s.trainX, s.trainY = append(s.trainX, x...), append(s.trainY, Y[i])
		}
	}
	return s
}

func synthSplit(t testing.TB, name string, n int) split {
	t.Helper()
	set, err := synth.ByName(name, n, 3)
	if err != nil {
		t.Fatal(err)
	}
	return newSplit(name, set.X, set.Y, set.D, 3)
}

// occupancySplit reads ../../shared/datasets/occupancy (20 560 rows,
// labels ±1), every 5th row held out; the test is skipped without it.
func occupancySplit(t testing.TB) split {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "shared", "datasets", "occupancy", "occupancy.csv"))
	if err != nil {
		t.Skipf("occupancy data: %v", err)
	}
	defer f.Close()
	ds, err := dataset.ReadCSV(f, dataset.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return newSplit("occupancy", ds.X, ds.Y, ds.D, 5)
}

// onlineRuns trains OnlineModel for every option on train in one Prism
// pipeline and returns the model files.
func onlineRuns(t testing.TB, train []Example, opts []OnlineOptions) [][]byte {
	t.Helper()
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	ex := beam.CreateList(s, train)
	for i, o := range opts {
		model, bad, err := OnlineModel(s, o, ex)
		if err != nil {
			t.Fatal(err)
		}
		WriteModel(s, filepath.Join(dir, fmt.Sprint(i)), model)
		WriteBadRows(s, filepath.Join(dir, fmt.Sprint(i)), bad)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, len(opts))
	for i := range opts {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		if bad, _ := os.ReadFile(filepath.Join(dir, fmt.Sprint(i)+"-bad")); len(bad) > 0 {
			t.Fatalf("dead letters: %s", bad)
		}
		out[i] = data
	}
	return out
}

// fileOrder is one Learner of opt run Epochs times over train in order,
// with the standardisation of std (the model OnlineModel made).
func fileOrder(t testing.TB, opt OnlineOptions, mean, scale []float64, train []Example) []byte {
	t.Helper()
	type learner interface {
		Update([]float64, float64) (learners.Outcome, error)
		SetStandardization(mean, scale []float64) error
	}
	var l learner
	var snap func() ([]byte, error)
	if opt.Method == rrf.Name {
		r, err := rrf.NewLearner(opt.Inputs, opt.RRF)
		if err != nil {
			t.Fatal(err)
		}
		l, snap = r, func() ([]byte, error) { return r.Snapshot().MarshalBinary() }
	} else {
		r, err := fogd.NewLearner(opt.Inputs, opt.FOGD)
		if err != nil {
			t.Fatal(err)
		}
		l, snap = r, func() ([]byte, error) { return r.Snapshot().MarshalBinary() }
	}
	if err := l.SetStandardization(mean, scale); err != nil {
		t.Fatal(err)
	}
	for range opt.Epochs {
		for _, e := range train {
			if _, err := l.Update(e.X, e.Y); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, err := snap()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// accuracy is the share of the rows of X (d inputs) that model predicts as y.
func accuracy(t testing.TB, model learners.Model, X, y []float64, d int) float64 {
	t.Helper()
	ok := 0
	for i := range y {
		if model.Predict(X[i*d:(i+1)*d]) == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

func load(t testing.TB, data []byte) learners.Model {
	t.Helper()
	m, err := learners.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func onlineOpt(method string, d, shards, epochs int, shuffle learners.Toggle) OnlineOptions {
	return OnlineOptions{Method: method, Inputs: d, Shards: shards, Epochs: epochs,
		RRF:  rrf.Config{Features: 64, Seed: 5, Shuffle: shuffle},
		FOGD: fogd.Config{Features: 64, Seed: 5, Shuffle: shuffle}}
}

// TestOnlineOneShard: mixing with one shard, Shuffle off, has the bits of
// one Learner run over the rows in file order, for 1 and 3 epochs, rrf and
// fogd; the standardisation is that of the whole training set.
func TestOnlineOneShard(t *testing.T) {
	sp := synthSplit(t, "moons", 1500)
	var opts []OnlineOptions
	for _, m := range []string{rrf.Name, fogd.Name} {
		for _, e := range []int{1, 3} {
			opts = append(opts, onlineOpt(m, sp.d, 1, e, learners.Disabled))
		}
	}
	files := onlineRuns(t, sp.train, opts)
	mean, scale, _, err := learners.Standardize(featmap.Dense(len(sp.trainY), sp.d, sp.trainX))
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range opts {
		gm, gs := modelStd(t, o.Method, files[i])
		for j := range mean {
			if rel(gm[j], mean[j]) > 1e-14 || rel(gs[j], scale[j]) > 1e-14 {
				t.Fatalf("%s: standardisation %v %v, want %v %v", o.Method, gm, gs, mean, scale)
			}
		}
		if want := fileOrder(t, o, gm, gs, sp.train); string(files[i]) != string(want) {
			t.Errorf("%s, %d epochs, 1 shard: the model differs from the one-machine run in file order", o.Method, o.Epochs)
		}
	}
}

// modelStd is the mean and scale of a model file of method.
func modelStd(t testing.TB, method string, data []byte) (mean, scale []float64) {
	t.Helper()
	if method == rrf.Name {
		m, err := rrf.Load(data)
		if err != nil {
			t.Fatal(err)
		}
		return m.Standardization()
	}
	m, err := fogd.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return m.Standardization()
}

func rel(a, b float64) float64 {
	if a == b {
		return 0
	}
	return abs(a-b) / max(abs(a), abs(b))
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// oneMachine is the one-machine online run: Fit with the options' Epochs
// (standardised, seeded shuffles).
func oneMachine(t testing.TB, o OnlineOptions, sp split) learners.Model {
	t.Helper()
	X := featmap.Dense(len(sp.trainY), sp.d, sp.trainX)
	var m learners.Model
	var err error
	if o.Method == rrf.Name {
		c := o.RRF
		c.Epochs = o.Epochs
		m, err = rrf.Fit(context.Background(), X, sp.trainY, c)
	} else {
		c := o.FOGD
		c.Epochs = o.Epochs
		m, err = fogd.Fit(context.Background(), X, sp.trainY, c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// onlineMargin is how much test accuracy 4-shard mixing may lose against
// the one-machine run on moons and occupancy, where one pass nearly
// converges (measured at most 0.0055: see README). Spirals, in the table
// only, shows the loss when it does not.
const onlineMargin = 0.015

// TestOnlineShardsAccuracy: with 4 shards (1 and 3 epochs) the test
// accuracy of the mixed model is within onlineMargin of the one-machine
// online run, on moons and on occupancy; RFBEAM_ONLINE_TABLE=1 logs the
// README's table (shards 1, 2, 4, and spirals, not asserted).
func TestOnlineShardsAccuracy(t *testing.T) {
	shards := []int{4}
	sets := []split{synthSplit(t, "moons", 6000), occupancySplit(t)}
	table := os.Getenv("RFBEAM_ONLINE_TABLE") != ""
	if table {
		shards = []int{1, 2, 4}
		sets = append(sets, synthSplit(t, "spirals", 6000))
	}
	var b strings.Builder
	for _, sp := range sets {
		var opts []OnlineOptions
		for _, m := range []string{rrf.Name, fogd.Name} {
			for _, e := range []int{1, 3} {
				for _, k := range shards {
					opts = append(opts, onlineOpt(m, sp.d, k, e, learners.Default))
				}
			}
		}
		files := onlineRuns(t, sp.train, opts)
		for i, o := range opts {
			mixed := accuracy(t, load(t, files[i]), sp.testX, sp.testY, sp.d)
			one := accuracy(t, oneMachine(t, o, sp), sp.testX, sp.testY, sp.d)
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %.4f | %.4f |\n", sp.name, o.Method, o.Epochs, o.Shards, one, mixed)
			if mixed < one-onlineMargin && sp.name != "spirals" {
				t.Errorf("%s %s, %d epochs, %d shards: accuracy %.4f, one machine %.4f", sp.name, o.Method, o.Epochs, o.Shards, mixed, one)
			}
		}
	}
	t.Logf("test accuracy (set, method, epochs, shards, one machine, mixed):\n%s", b.String())
}

// TestOnlineErrors: bad options are errors when the pipeline is built.
func TestOnlineErrors(t *testing.T) {
	for _, tc := range []struct {
		opt  OnlineOptions
		want string
	}{
		{OnlineOptions{Method: "rks", Inputs: 2}, "Method"},
		{OnlineOptions{Method: rrf.Name}, "Inputs"},
		{OnlineOptions{Method: rrf.Name, Inputs: 2, Shards: -1}, "Shards"},
		{OnlineOptions{Method: fogd.Name, Inputs: 2, Epochs: -2}, "Epochs"},
		{OnlineOptions{Method: fogd.Name, Inputs: 2, Epochs: MaxOnlineEpochs + 1}, "Epochs"},
		{OnlineOptions{Method: rrf.Name, Inputs: 2, RRF: rrf.Config{Eta: -1}}, "Eta"},
		{OnlineOptions{Method: fogd.Name, Inputs: 2, FOGD: fogd.Config{Features: -3}}, "Features"},
	} {
		_, s := beam.NewPipelineWithRoot()
		ex := beam.CreateList(s, []Example{{X: []float64{1, 2}, Y: 1}})
		if _, _, err := OnlineModel(s, tc.opt, ex); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one mentioning %q", tc.opt, err, tc.want)
		}
	}
}
