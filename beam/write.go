package rfbeam

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// MaxShards bounds the number of output files and training shards.
const MaxShards = 1 << 16

// FormatPrediction is the line Write writes for a prediction: "ROW,VALUE",
// VALUE formatted as rfkit predict prints it (strconv 'g', shortest
// representation that reads back to the same bits).
func FormatPrediction(p Prediction) string {
	b := strconv.AppendInt(nil, p.Index, 10)
	b = append(b, ',')
	return string(strconv.AppendFloat(b, p.Value, 'g', -1, 64))
}

// WritePredictions writes preds to shards text files
// PREFIX-SSSSS-of-NNNNN, one FormatPrediction line per prediction, the
// prediction of row i in shard i mod shards, each file sorted by row (and
// by source first when the rows come from several files). Files are
// written through Beam's file systems (local paths, or gs://… with the
// GCS file system linked in). It returns the written file names.
func WritePredictions(s beam.Scope, prefix string, shards int, preds beam.PCollection) (beam.PCollection, error) {
	if shards < 1 || shards > MaxShards {
		return beam.PCollection{}, fmt.Errorf("rfbeam: %d output shards, want 1 to %d", shards, MaxShards)
	}
	if prefix == "" {
		return beam.PCollection{}, fmt.Errorf("rfbeam: empty output prefix")
	}
	s = s.Scope("rfbeam.WritePredictions")
	keyed := beam.ParDo(s, &shardPredFn{Shards: shards}, preds)
	grouped := beam.GroupByKey(s, keyed)
	return beam.ParDo(s, &writeShardFn{Prefix: prefix, Shards: shards}, grouped), nil
}

// WriteBadRows writes the dead-letter records to PREFIX-bad, one
// BadRow.String() per line, sorted by source and row.
func WriteBadRows(s beam.Scope, prefix string, bad beam.PCollection) beam.PCollection {
	s = s.Scope("rfbeam.WriteBadRows")
	all := beam.AddFixedKey(s, bad)
	return beam.ParDo(s, &writeBadFn{Path: prefix + "-bad"}, beam.GroupByKey(s, all))
}

type shardPredFn struct{ Shards int }

func (f *shardPredFn) ProcessElement(p Prediction) (int, Prediction) {
	return int(uint64(p.Index) % uint64(f.Shards)), p
}

type writeShardFn struct {
	Prefix string
	Shards int
}

func (f *writeShardFn) ProcessElement(ctx context.Context, shard int, it func(*Prediction) bool, emit func(string)) error {
	var ps []Prediction
	var p Prediction
	for it(&p) {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b Prediction) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Index, b.Index))
	})
	path := fmt.Sprintf("%s-%05d-of-%05d", f.Prefix, shard, f.Shards)
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = FormatPrediction(p)
	}
	if err := writeLines(ctx, path, lines); err != nil {
		return err
	}
	emit(path)
	return nil
}

type writeBadFn struct{ Path string }

func (f *writeBadFn) ProcessElement(ctx context.Context, _ int, it func(*BadRow) bool, emit func(string)) error {
	var bs []BadRow
	var b BadRow
	for it(&b) {
		bs = append(bs, b)
	}
	slices.SortFunc(bs, func(a, b BadRow) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Index, b.Index))
	})
	lines := make([]string, len(bs))
	for i, b := range bs {
		lines[i] = b.String()
	}
	if err := writeLines(ctx, f.Path, lines); err != nil {
		return err
	}
	emit(f.Path)
	return nil
}

// writeLines writes a file of lines through Beam's file systems.
func writeLines(ctx context.Context, path string, lines []string) error {
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	return writeBytes(ctx, path, b)
}

// writeBytes writes a file through Beam's file systems.
func writeBytes(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("rfbeam: %s: %w", path, err)
	}
	return nil
}

func init() {
	register.DoFn1x2[Prediction, int, Prediction](&shardPredFn{})
	register.DoFn4x1[context.Context, int, func(*Prediction) bool, func(string), error](&writeShardFn{})
	register.DoFn4x1[context.Context, int, func(*BadRow) bool, func(string), error](&writeBadFn{})
	register.Iter1[Prediction]()
	register.Iter1[BadRow]()
}
