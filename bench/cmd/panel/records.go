package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
)

// record is the result of one learner on one split of one set: a line of
// a results file (JSON lines). The Go learners and the peers script write
// the same fields. A metric that does not apply (log loss of a model
// without probabilities, accuracy of a regression) is null.
type record struct {
	Learner string `json:"learner"`
	Source  string `json:"source"` // "rfkit" or "peer"
	Set     string `json:"set"`
	Task    string `json:"task"`
	Split   int    `json:"split"`
	NTrain  int    `json:"n_train"`
	NTest   int    `json:"n_test"`

	Accuracy *float64 `json:"accuracy"`
	LogLoss  *float64 `json:"log_loss"`
	RMSE     *float64 `json:"rmse"`

	FitCPU    float64 `json:"fit_cpu_s"`  // process CPU seconds around the fit
	FitWall   float64 `json:"fit_wall_s"` // wall seconds around the fit
	PredictNs float64 `json:"predict_ns"` // one-row predict latency, CPU ns per row
	Procs     int     `json:"procs"`      // GOMAXPROCS or the peer's thread count

	Error    string  `json:"error,omitempty"`
	TimedOut bool    `json:"timed_out,omitempty"`
	CapS     float64 `json:"cap_s,omitempty"` // the fit's CPU-time limit in seconds (0: none)

	// Stats holds a learner's own work counts where it reports them
	// (GBRFF: rounds, freq_evals, lbfgs_iters, passes, sub_rows).
	Stats map[string]float64 `json:"stats,omitempty"`

	Rev  string `json:"rev,omitempty"`  // the code's revision, as given by -rev
	Time string `json:"time,omitempty"` // when the fit ended (UTC, RFC 3339)
}

// key identifies a record's cell: learner, set and split.
func (r *record) key() string { return fmt.Sprintf("%s|%s|%d", r.Learner, r.Set, r.Split) }

// ok reports whether the record holds results (no error, no time-out).
func (r *record) ok() bool { return r.Error == "" && !r.TimedOut }

// num returns a metric for JSON (nil for NaN: JSON has no NaN).
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// readRecords reads a results file. A missing file is no records; a
// malformed line is an error naming it (the writers replace files
// atomically, so there is no torn line to forgive). A later line for the
// same key replaces an earlier one.
func readRecords(path string) (map[string]*record, error) {
	out := map[string]*record{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		r := new(record)
		if err := json.Unmarshal(sc.Bytes(), r); err != nil || r.Learner == "" || r.Set == "" {
			return nil, fmt.Errorf("%s: line %d is not a panel record", path, line)
		}
		out[r.key()] = r
	}
	return out, sc.Err()
}

// readDir reads every *.jsonl results file of dir (the Go learners' and
// the peers'), a later file's record replacing an earlier one's for the
// same key (files in name order).
func readDir(dir string) (map[string]*record, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	out := map[string]*record{}
	for _, f := range files {
		recs, err := readRecords(f)
		if err != nil {
			return nil, err
		}
		for k, r := range recs {
			out[k] = r
		}
	}
	return out, nil
}

// readResults returns the records of every rfkit*.jsonl file of dir,
// with own (this process's file, which may not be written yet) on top.
func readResults(dir string, own map[string]*record) (map[string]*record, error) {
	files, err := filepath.Glob(filepath.Join(dir, "rfkit*.jsonl"))
	if err != nil {
		return nil, err
	}
	out := map[string]*record{}
	for _, f := range files {
		recs, err := readRecords(f)
		if err != nil {
			return nil, err
		}
		for k, r := range recs {
			out[k] = r
		}
	}
	for k, r := range own {
		out[k] = r
	}
	return out, nil
}

// store is a results file kept in memory and rewritten whole, atomically,
// after every new record: an interrupted run leaves every finished record
// and never a torn line.
type store struct {
	path string
	recs map[string]*record
	keys []string // in the order first written
}

// openStore reads path's records (fresh: start empty) for resuming.
func openStore(path string, fresh bool) (*store, error) {
	s := &store{path: path, recs: map[string]*record{}}
	if fresh {
		return s, nil
	}
	recs, err := readRecords(path)
	if err != nil {
		return nil, err
	}
	for k := range recs {
		s.keys = append(s.keys, k)
	}
	sort.Strings(s.keys)
	s.recs = recs
	return s, nil
}

// add stores r, replacing a record with its key, and rewrites the file.
func (s *store) add(r *record) error {
	k := r.key()
	if _, ok := s.recs[k]; !ok {
		s.keys = append(s.keys, k)
	}
	s.recs[k] = r
	var b strings.Builder
	for _, k := range s.keys {
		line, err := json.Marshal(s.recs[k])
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	return resultfile.Write(s.path, []byte(b.String()))
}
