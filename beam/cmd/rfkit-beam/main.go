// Command rfkit-beam runs rfkit on Apache Beam: scoring a model file over
// a CSV or LIBSVM file, the distributed RKS ridge fit, and a
// cross-validation grid fanned out over workers.
//
//	rfkit-beam score --model FILE --input DATA --output PREFIX [--shards 4] [--output-kind predict|score|probability]
//	rfkit-beam train-rks --input DATA --model FILE [--param name=value]... [--shards 16] [--task binary|regression] [--seed N]
//	rfkit-beam train-online --method rrf|fogd --input DATA --model FILE [--param name=value]... [--shards 4] [--epochs 3] [--task binary|regression] [--seed N]
//	rfkit-beam cv --method NAME --input DATA --grid name=v1,v2... [--param name=value]... [--folds 5] [--seed N] [--model BEST]
//
// score writes PREFIX-SSSSS-of-NNNNN, one "ROW,PREDICTION" line per data
// row (ROW 0-based, PREDICTION as rfkit predict prints it), and
// PREFIX-bad, the rows that could not be read or scored with the reason
// ("FILE: data row N: REASON", N 1-based as rfkit counts data rows).
// train-rks writes the model file of rks with the ridge loss, fitted by
// exact sufficient statistics (the same bits for any --shards).
// train-online writes the model file of rrf or fogd trained by iterative
// parameter mixing (--epochs rounds of one pass per shard, then the
// average of the shards' models). cv prints
// the table rfkit cv prints and writes the best setting's model with
// --model. The job runs on the in-process Prism runner by default; the
// usual Beam flags (--runner, --endpoint, --environment_type,
// --environment_config, --job_endpoint, --project, --region,
// --temp_location, …) run it elsewhere (Flink, Spark, Dataflow), with
// paths every worker can read and write (gs://… on Dataflow). Only Prism is
// tested. Exit status: 0 success, 1 a failed job or bad data, 2 a usage
// error.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	rfbeam "github.com/rfkit/rfkit/beam"
	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/internal/interrupt"
	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/fogd"
	"github.com/rfkit/rfkit/learners/rks"
	"github.com/rfkit/rfkit/learners/rrf"

	_ "github.com/rfkit/rfkit/learners/gbrff"    // gbrff2, gbrff1
	_ "github.com/rfkit/rfkit/learners/mfga"     // mfga
	_ "github.com/rfkit/rfkit/learners/pbrff"    // pbrff
	_ "github.com/rfkit/rfkit/learners/prff"     // prff
	_ "github.com/rfkit/rfkit/learners/rfselect" // eerf, lkrf
	_ "github.com/rfkit/rfkit/learners/srff"     // srff
)

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

var (
	model     = flag.String("model", "", "model `FILE`: read by score, written by train-rks and cv")
	input     = flag.String("input", "", "data `FILE` (CSV with a header, or LIBSVM), or a glob for score and train-rks")
	output    = flag.String("output", "", "score: output `PREFIX` of the prediction files")
	shards    = intRange("shards", 4, 1, rfbeam.MaxShards, "score: output files; train-rks: shards of the sums; train-online: shards mixed")
	epochs    = intRange("epochs", 1, 1, rfbeam.MaxOnlineEpochs, "train-online: rounds of one pass per shard and an average")
	kind      = flag.String("output-kind", "predict", "score: predict, score or probability")
	format    = flag.String("format", "", "csv or libsvm (default: from the extension, .csv → csv, else libsvm)")
	label     = flag.String("label", "", "CSV label column: name or 0-based index (default: the last column named y, else the last)")
	inputs    = intRange("inputs", 0, 0, maxInputs, "train-rks, train-online: number of features (default: from the CSV header; required for LIBSVM)")
	method    = flag.String("method", "", "cv: the learner; train-online: rrf or fogd")
	task      = flag.String("task", "auto", "auto, binary or regression")
	folds     = intRange("folds", 5, 2, maxFolds, "cv: number of folds")
	seed      = flag.Uint64("seed", 0, "seed of the learner (and of cv's folds)")
	params    multi
	grid      multi
	errUsage  = errors.New("usage")
	usageText = `usage:
  rfkit-beam score --model FILE --input DATA --output PREFIX [--shards N] [--output-kind predict|score|probability]
  rfkit-beam train-rks --input DATA --model FILE [--param name=value]... [--shards N] [--task binary|regression] [--seed N]
  rfkit-beam train-online --method rrf|fogd --input DATA --model FILE [--param name=value]... [--shards N] [--epochs E] [--task binary|regression] [--seed N]
  rfkit-beam cv --method NAME --input DATA --grid name=v1,v2,... [--grid ...] [--param name=value]... [--folds K] [--seed N] [--model BEST]
Beam flags (--runner, --endpoint, --environment_type, ...) choose where the job runs (default: Prism, in process).
`
)

func init() {
	flag.Var(&params, "param", "hyper-parameter `name=value` (repeatable)")
	flag.Var(&grid, "grid", "cv: hyper-parameter `name=v1,v2,...` to search (repeatable)")
}

func main() {
	os.Exit(exitCode(os.Args[1:], os.Stdout, os.Stderr, beam.Init))
}

// exitCode runs the command line args (the command, then the flags) and
// returns the exit status: 0 success, 1 a failed job or bad data, 2 a
// usage error, which is one line on stderr (-h prints the usage). init
// runs between the parse and the job (beam.Init: a worker started by a
// runner does not return from it).
func exitCode(args []string, stdout, stderr io.Writer, init func()) int {
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stderr, usageText)
		flag.CommandLine.SetOutput(stderr)
		flag.PrintDefaults()
		return 0
	}
	if err == nil {
		init()
		// The signals rfkit handles (interrupt.Signals) cancel the job alike.
		ctx, stop := interrupt.Context(context.Background())
		err = run(ctx, cmd, stdout)
		stop()
	}
	switch {
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "rfkit-beam: %v (see rfkit-beam -h)\n", err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "rfkit-beam: %v\n", err)
		return 1
	}
	return 0
}

func usagef(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}

func run(ctx context.Context, cmd string, stdout io.Writer) error {
	if flag.NArg() > 0 {
		return usagef("unexpected argument %q", flag.Arg(0))
	}
	if err := checkFlags(cmd); err != nil {
		return err
	}
	if *input == "" {
		return usagef("--input is required")
	}
	if err := checkPaths(cmd != "score"); err != nil {
		return err
	}
	f := rfbeam.Format(*format)
	if f == "" {
		f = rfbeam.LIBSVM
		if strings.HasSuffix(strings.ToLower(*input), ".csv") {
			f = rfbeam.CSV
		}
	}
	if f != rfbeam.CSV && f != rfbeam.LIBSVM {
		return usagef("--format %q: want csv or libsvm", *format)
	}
	p, s := beam.NewPipelineWithRoot()
	var after func() error
	switch cmd {
	case "score":
		if *model == "" || *output == "" {
			return usagef("score needs --model and --output")
		}
		if !strings.Contains(*input, "://") {
			if files, _ := filepath.Glob(*input); len(files) > 1 {
				return usagef("--input %s matches %d files: score one file at a time (ROW numbers the rows of one file)", *input, len(files))
			}
		}
		data, err := readModel(*model)
		if err != nil {
			return err
		}
		m, err := rfbeam.CheckModel(data, rfbeam.Output(*kind))
		if err != nil {
			return err
		}
		var names []string
		if n, ok := m.(interface{ FeatureNames() []string }); ok && f == rfbeam.CSV {
			names = n.FeatureNames()
		}
		rows, bad, err := rfbeam.ReadRows(s, rfbeam.TextOptions{Format: f, Inputs: m.NumInputs(), Label: *label, Names: names}, *input)
		if err != nil {
			return err
		}
		preds, bad2, err := rfbeam.Score(s, data, rfbeam.Output(*kind), beam.Reshuffle(s, rows))
		if err != nil {
			return err
		}
		if _, err := rfbeam.WritePredictions(s, *output, *shards, preds); err != nil {
			return err
		}
		rfbeam.WriteBadRows(s, *output, beam.Flatten(s, bad, bad2))
	case "train-rks":
		if *model == "" {
			return usagef("train-rks needs --model (the file to write)")
		}
		cfg := rks.Config{Loss: rks.Ridge, Seed: *seed}
		switch *task {
		case "regression":
			cfg.Task = learners.Regression
		case "binary", "auto":
		default:
			return usagef("--task %q: want binary or regression (auto means binary for train-rks)", *task)
		}
		if err := setParams(&cfg); err != nil {
			return err
		}
		d, ex, bad, err := readExamples(s, f)
		if err != nil {
			return err
		}
		if err := learners.CheckSize("train-rks", cfg, nil, d, 0); err != nil {
			return err
		}
		m, bad2, err := rfbeam.RKSModel(s, cfg, rfbeam.TrainOptions{Inputs: d, Shards: *shards}, ex)
		if err != nil {
			return err
		}
		rfbeam.WriteModel(s, *model, m)
		rfbeam.WriteBadRows(s, *model, beam.Flatten(s, bad, bad2))
	case "train-online":
		if *model == "" {
			return usagef("train-online needs --model (the file to write)")
		}
		var t learners.Task
		switch *task {
		case "regression":
			t = learners.Regression
		case "binary", "auto":
		default:
			return usagef("--task %q: want binary or regression (auto means binary for train-online)", *task)
		}
		opt := rfbeam.OnlineOptions{Method: *method, Shards: *shards, Epochs: *epochs,
			RRF: rrf.Config{Task: t, Seed: *seed}, FOGD: fogd.Config{Task: t, Seed: *seed}}
		switch *method {
		case rrf.Name:
			if err := setParams(&opt.RRF); err != nil {
				return err
			}
		case fogd.Name:
			if err := setParams(&opt.FOGD); err != nil {
				return err
			}
		default:
			return usagef("--method %q: want rrf or fogd", *method)
		}
		d, ex, bad, err := readExamples(s, f)
		if err != nil {
			return err
		}
		opt.Inputs = d
		size := any(opt.RRF)
		if *method == fogd.Name {
			size = opt.FOGD
		}
		if err := learners.CheckSize("train-online", size, nil, d, 0); err != nil {
			return err
		}
		m, bad2, err := rfbeam.OnlineModel(s, opt, ex)
		if err != nil {
			return err
		}
		rfbeam.WriteModel(s, *model, m)
		rfbeam.WriteBadRows(s, *model, beam.Flatten(s, bad, bad2))
	case "cv":
		g := map[string][]string{}
		for _, kv := range grid {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || v == "" {
				return usagef("--grid %q: want name=v1,v2,...", kv)
			}
			g[k] = strings.Split(v, ",")
		}
		seedSet := false
		flag.Visit(func(fl *flag.Flag) { seedSet = seedSet || fl.Name == "seed" })
		opt := rfbeam.CVOptions{Method: *method, Params: params, Grid: g, Folds: *folds, Seed: *seed, SetSeed: seedSet,
			Task: *task, Data: *input, Format: f, Label: *label}
		res, best, err := rfbeam.CrossValidate(s, opt)
		if err != nil {
			return err
		}
		tablePath := *model + ".cv.txt"
		if *model == "" {
			tmp, err := os.CreateTemp("", "rfkit-beam-cv-*.txt")
			if err != nil {
				return err
			}
			tmp.Close()
			tablePath = tmp.Name()
			defer os.Remove(tablePath)
		} else {
			rfbeam.WriteModel(s, *model, best)
		}
		rfbeam.WriteTable(s, tablePath, res)
		after = func() error {
			table, err := os.ReadFile(tablePath)
			if err != nil {
				return err
			}
			_, err = stdout.Write(table)
			return err
		}
	case "":
		return usagef("no command")
	default:
		return usagef("unknown command %q", cmd)
	}
	if err := beamx.Run(ctx, p); err != nil {
		return err
	}
	if after != nil {
		return after()
	}
	return nil
}

// checkPaths checks the local paths of the command line before the job
// starts: --input must match a file (else a one-line error, not a failed
// DoFn), and --model, when the command writes it (writesModel), must not
// be one of them (an output that is an input is a usage error, as in
// rfkit). Paths with a scheme (gs://…) are left to the job.
func checkPaths(writesModel bool) error {
	if strings.Contains(*input, "://") {
		return nil
	}
	files, err := filepath.Glob(*input)
	if err != nil {
		return usagef("--input %s: %v", *input, err)
	}
	if len(files) == 0 {
		if _, err := os.Stat(*input); err != nil {
			return fmt.Errorf("--input %s: %w", *input, err)
		}
		return fmt.Errorf("--input %s: no file matches", *input)
	}
	var same *atomicfile.SameFileError
	if err := atomicfile.CheckDistinct(*model, files...); writesModel && errors.As(err, &same) {
		return usagef("--model %s is the same file as the input %s: writing it would destroy the input; choose another model file", *model, same.Input)
	}
	return nil
}

// readModel reads the model file at path as rfkit does
// (learners.ReadModel: the magic first, every declared length bounded),
// so /dev/zero or a lying header is a one-line error, not a full memory.
func readModel(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := learners.ReadModel(bufio.NewReader(fh))
	if err != nil {
		return nil, fmt.Errorf("--model %s: %w", path, err)
	}
	return data, nil
}

// setParams applies the --param flags to cfg.
func setParams(cfg any) error {
	for _, kv := range params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return usagef("--param %q: want name=value", kv)
		}
		if err := learners.SetParam(cfg, k, v); err != nil {
			return usagef("--param %s: %v", kv, err)
		}
	}
	return nil
}

// readExamples reads the labelled examples of --input: d inputs (--inputs,
// or from the CSV header).
func readExamples(s beam.Scope, f rfbeam.Format) (d int, ex, bad beam.PCollection, err error) {
	d = *inputs
	if d == 0 && f == rfbeam.CSV {
		if d, err = csvInputs(*input); err != nil {
			return 0, ex, bad, err
		}
	}
	ex, bad, err = rfbeam.ReadExamples(s, rfbeam.TextOptions{Format: f, Inputs: d, Label: *label}, *input)
	return d, ex, bad, err
}

// csvInputs is the number of feature columns of a CSV file's header.
func csvInputs(path string) (int, error) {
	fh, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	buf := make([]byte, 1<<20)
	n, _ := io.ReadFull(fh, buf)
	head, _, _ := strings.Cut(string(buf[:n]), "\n")
	cols := strings.Count(head, ",") + 1
	if cols < 2 {
		return 0, fmt.Errorf("%s: the header %q has no feature column beside the label", path, strconv.Quote(head))
	}
	return cols - 1, nil
}
