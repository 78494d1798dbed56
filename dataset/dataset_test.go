package dataset

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func readCSV(t *testing.T, s string, opt CSVOptions) (*Dataset, error) {
	t.Helper()
	ds, err := ReadCSV(strings.NewReader(s), opt)
	if err == nil {
		if verr := ds.Validate(); verr != nil {
			t.Fatalf("ReadCSV result invalid: %v", verr)
		}
	}
	return ds, err
}

func TestReadCSVHappy(t *testing.T) {
	in := "\uFEFFa, b ,y\r\n1,2,-1\r\n\r\n 3.5 ,-4e-1,1\r\n0x1p-2,5,1\r\n"
	ds, err := readCSV(t, in, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Dataset{
		X: []float64{1, 2, 3.5, -0.4, 0.25, 5}, N: 3, D: 2,
		Y: []float64{-1, 1, 1}, FeatureNames: []string{"a", "b"}, LabelName: "y",
	}
	if !reflect.DeepEqual(ds, want) {
		t.Fatalf("got %+v\nwant %+v", ds, want)
	}
	if got := ds.Row(2); !slices.Equal(got, []float64{0.25, 5}) || cap(got) != 2 {
		t.Fatalf("Row(2) = %v cap %d", got, cap(got))
	}
}

func TestReadCSVLabelSelection(t *testing.T) {
	const in = "a,y,b,c\n1,2,3,4\n5,6,7,8\n"
	cases := []struct {
		label  string
		name   string
		y      []float64
		x      []float64
		noLab  bool
		header []string
	}{
		{"", "y", []float64{2, 6}, []float64{1, 3, 4, 5, 7, 8}, false, []string{"a", "b", "c"}},
		{"c", "c", []float64{4, 8}, []float64{1, 2, 3, 5, 6, 7}, false, []string{"a", "y", "b"}},
		{"0", "a", []float64{1, 5}, []float64{2, 3, 4, 6, 7, 8}, false, []string{"y", "b", "c"}},
		{"-1", "c", []float64{4, 8}, []float64{1, 2, 3, 5, 6, 7}, false, []string{"a", "y", "b"}},
		{"-4", "a", []float64{1, 5}, []float64{2, 3, 4, 6, 7, 8}, false, []string{"y", "b", "c"}},
		{"", "", nil, []float64{1, 2, 3, 4, 5, 6, 7, 8}, true, []string{"a", "y", "b", "c"}},
	}
	for _, c := range cases {
		ds, err := readCSV(t, in, CSVOptions{Label: c.label, NoLabel: c.noLab})
		if err != nil {
			t.Fatalf("label %q: %v", c.label, err)
		}
		if ds.LabelName != c.name || !slices.Equal(ds.Y, c.y) || !slices.Equal(ds.X, c.x) ||
			!slices.Equal(ds.FeatureNames, c.header) || (c.noLab && ds.Y != nil) {
			t.Errorf("label %q: got %+v", c.label, ds)
		}
	}
	// Without a "y" column the default is the last column.
	ds, err := readCSV(t, "p;q\n1;2\n", CSVOptions{Comma: ';'})
	if err != nil || ds.LabelName != "q" || ds.Y[0] != 2 {
		t.Fatalf("default last column: %+v, %v", ds, err)
	}
	// Comments, tab separator.
	ds, err = readCSV(t, "# note\np\tq\n# more\n1\t2\n", CSVOptions{Comma: '\t', Comment: '#'})
	if err != nil || ds.N != 1 || ds.X[0] != 1 {
		t.Fatalf("comments: %+v, %v", ds, err)
	}
	// Duplicate names are fine unless the label is selected by that name.
	ds, err = readCSV(t, "x,x,y\n1,2,3\n", CSVOptions{})
	if err != nil || !slices.Equal(ds.FeatureNames, []string{"x", "x"}) {
		t.Fatalf("duplicate names: %+v, %v", ds, err)
	}
	ds, err = readCSV(t, "x,x,y\n1,2,3\n", CSVOptions{Label: "1"})
	if err != nil || ds.Y[0] != 2 {
		t.Fatalf("duplicate by index: %+v, %v", ds, err)
	}
}

func TestReadCSVErrors(t *testing.T) {
	cases := []struct {
		name, in string
		opt      CSVOptions
		want     string
	}{
		{"not a number", "age,y\n1,1\n2,1\nabc,1\n", CSVOptions{}, `dataset: line 4, column "age": "abc" is not a number`},
		{"label not a number", "age,y\n1,yes\n", CSVOptions{}, `dataset: line 2, column "y": "yes" is not a number`},
		{"empty value", "age,y\n1,1\n,1\n", CSVOptions{}, `dataset: line 3, column "age": empty value (missing data is not supported)`},
		{"blank value", "age,y\n1,  \n", CSVOptions{}, `dataset: line 2, column "y": empty value`},
		{"NaN", "a,y\nNaN,1\n", CSVOptions{}, `dataset: line 2, column "a": "NaN" is not finite (data must be finite)`},
		{"Inf", "a,y\n1,-Inf\n", CSVOptions{}, `dataset: line 2, column "y": "-Inf" is not finite`},
		{"overflow", "a,y\n1e999,1\n", CSVOptions{}, `dataset: line 2, column "a": "1e999" is out of range for float64`},
		{"ragged", "a,b,c,d,e,f,g,y\n1,2,3,4,5,6,7,8\n1,2,3,4,5,6,7,8\n1,2,3,4,5,6,7,8\n1,2,3,4,5,6,7\n", CSVOptions{}, `dataset: line 5 has 7 fields, header has 8`},
		{"too many", "a,y\n1,2,3\n", CSVOptions{}, `dataset: line 2 has 3 fields, header has 2`},
		{"empty file", "", CSVOptions{}, `dataset: empty input (no header row)`},
		{"only BOM", "\uFEFF\r\n", CSVOptions{}, `dataset: empty input (no header row)`},
		{"header only", "a,y\r\n", CSVOptions{}, `dataset: no data rows (header only)`},
		{"ambiguous", "y,a,y\n1,2,3\n", CSVOptions{Label: "y"}, `dataset: label column "y" is ambiguous: the header has 2 columns with that name (indices 0, 2); select it by index`},
		{"unknown label", "a,b\n1,2\n", CSVOptions{Label: "z"}, `dataset: label column "z" not found in the header`},
		{"index range", "a,b\n1,2\n", CSVOptions{Label: "2"}, `dataset: label column index 2 out of range for 2 columns`},
		{"neg index range", "a,b\n1,2\n", CSVOptions{Label: "-3"}, `dataset: label column index -3 out of range for 2 columns`},
		{"only label", "y\n1\n", CSVOptions{}, `dataset: no feature columns (the header has only the label column "y")`},
		{"both", "a\n1\n", CSVOptions{Label: "a", NoLabel: true}, `dataset: CSVOptions.Label and NoLabel are mutually exclusive`},
		{"dup column named", "x,x,y\n1,z,3\n", CSVOptions{}, `dataset: line 2, column "x" (index 1): "z" is not a number`},
		{"bare quote", "a,y\n1,2\n3,4\"\n", CSVOptions{}, `dataset: line 3: bare " in non-quoted-field`},
		{"bad comma", "a,y\n", CSVOptions{Comma: '"'}, `dataset: csv: invalid field or comment delimiter`},
		{"ignore and no label", "a\n1\n", CSVOptions{IgnoreLabel: true, NoLabel: true}, `dataset: CSVOptions.IgnoreLabel and NoLabel are mutually exclusive`},
		{"gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\"a,y\n", CSVOptions{}, `dataset: the input is gzip-compressed; decompress it first (gunzip)`},
		{"zstd", "\x28\xb5\x2f\xfd a,y\n", CSVOptions{}, `dataset: the input is zstd-compressed`},
		{"long line", "a,y\n1,2\n" + strings.Repeat("1", 100) + ",2\n", CSVOptions{MaxLineBytes: 64}, `dataset: line 3 is longer than 64 bytes (line too long; raise MaxLineBytes if the file is right)`},
		{"long header", strings.Repeat("a", 65) + ",y\n1,2\n", CSVOptions{MaxLineBytes: 64}, `dataset: line 1 is longer than 64 bytes`},
	}
	for _, c := range cases {
		_, err := readCSV(t, c.in, c.opt)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got error %v\nwant prefix      %s", c.name, err, c.want)
		}
	}
	// The line reported is that of the field, after a multi-line record.
	_, err := readCSV(t, "a,y\n\"1\n2\",5\n3,x\n", CSVOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), `dataset: line 2, column "a": "1\n2" is not a number`) {
		t.Errorf("multi-line: %v", err)
	}
	_, err = readCSV(t, "a,y\n1,2\n3,x\n", CSVOptions{})
	if want := `dataset: line 3, column "y": "x" is not a number`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestLoadCSVMissingFile(t *testing.T) {
	_, err := LoadCSV(filepath.Join(t.TempDir(), "nope.csv"), CSVOptions{})
	if err == nil || !strings.Contains(err.Error(), "nope.csv") {
		t.Fatalf("got %v", err)
	}
	p := filepath.Join(t.TempDir(), "bad.csv")
	if err := os.WriteFile(p, []byte("a,y\n1,q\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadCSV(p, CSVOptions{})
	if err == nil || err.Error() != p+`: dataset: line 2, column "y": "q" is not a number` {
		t.Fatalf("got %v", err)
	}
}

func readLIBSVM(t *testing.T, s string, opt LIBSVMOptions) (*Dataset, error) {
	t.Helper()
	ds, err := ReadLIBSVM(strings.NewReader(s), opt)
	if err == nil {
		if verr := ds.Validate(); verr != nil {
			t.Fatalf("ReadLIBSVM result invalid: %v", verr)
		}
	}
	return ds, err
}

func TestReadLIBSVMHappy(t *testing.T) {
	in := "\uFEFF# header comment\r\n" +
		"+1 qid:3 1:0.5 3:-2 # trailing\r\n" +
		"\n" +
		"   \t\n" +
		"0\t2:1e2\n" +
		"7 1:1 2:0 4:4" // no final newline
	ds, err := readLIBSVM(t, in, LIBSVMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Dataset{
		X: []float64{0.5, 0, -2, 0, 0, 100, 0, 0, 1, 0, 0, 4}, N: 3, D: 4,
		Y: []float64{1, 0, 7},
	}
	if !reflect.DeepEqual(ds, want) {
		t.Fatalf("got %+v\nwant %+v", ds, want)
	}
	ds, err = readLIBSVM(t, "1 1:1\n-1\n", LIBSVMOptions{NumFeatures: 5})
	if err != nil || ds.D != 5 || !slices.Equal(ds.X, []float64{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("NumFeatures: %+v, %v", ds, err)
	}
	// A row with no features is all zeros.
	ds, err = readLIBSVM(t, "1\n2 2:3\n", LIBSVMOptions{})
	if err != nil || !slices.Equal(ds.X, []float64{0, 0, 0, 3}) {
		t.Fatalf("empty row: %+v, %v", ds, err)
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	cases := []struct {
		name, in string
		opt      LIBSVMOptions
		want     string
	}{
		{"bad token", "1 1:1\n\n1 abc\n", LIBSVMOptions{}, `dataset: line 3: bad token "abc" (want index:value)`},
		{"bad index", "1 x:1\n", LIBSVMOptions{}, `dataset: line 1: bad feature index in "x:1" (want index:value)`},
		{"empty index", "1 :1\n", LIBSVMOptions{}, `dataset: line 1: bad feature index in ":1"`},
		{"index 0", "1 1:1\n1 0:1\n", LIBSVMOptions{}, `dataset: line 2: feature index 0 in "0:1" is not positive (indices are 1-based)`},
		{"index negative", "1 -2:1\n", LIBSVMOptions{}, `dataset: line 1: feature index -2 in "-2:1" is not positive`},
		{"index huge negative", "1 -99999999999999999999999:1\n", LIBSVMOptions{}, `dataset: line 1: feature index -99999999999999999999999 in`},
		{"not increasing", "1 5:1 2:1\n", LIBSVMOptions{}, `dataset: line 1: feature index 2 in "2:1" does not increase (previous index 5)`},
		{"repeated", "1 2:1 2:1\n", LIBSVMOptions{}, `dataset: line 1: feature index 2 in "2:1" does not increase (previous index 2)`},
		{"bad value", "1 2:x\n", LIBSVMOptions{}, `dataset: line 1: value in "2:x": "x" is not a number`},
		{"empty value", "1 2:\n", LIBSVMOptions{}, `dataset: line 1: value in "2:": empty value`},
		{"nan value", "1 2:nan\n", LIBSVMOptions{}, `dataset: line 1: value in "2:nan": "nan" is not finite (data must be finite)`},
		{"bad label", "# c\nabc 1:1\n", LIBSVMOptions{}, `dataset: line 2: label "abc" is not a number`},
		{"inf label", "inf 1:1\n", LIBSVMOptions{}, `dataset: line 1: label "inf" is not finite (data must be finite)`},
		{"multi label", "1,2 1:1\n", LIBSVMOptions{}, `dataset: line 1: label "1,2" is not a number`},
		{"hostile index", "1 999999999:1", LIBSVMOptions{}, `dataset: line 1: feature index 999999999 exceeds MaxFeatures (1048576)`},
		{"overflowing index", "1 99999999999999999999999999:1", LIBSVMOptions{}, `dataset: line 1: feature index 999999999999999999999999... exceeds MaxFeatures (1048576)`},
		{"MaxFeatures", "1 11:1", LIBSVMOptions{MaxFeatures: 10}, `dataset: line 1: feature index 11 exceeds MaxFeatures (10)`},
		{"NumFeatures", "1 1:1\n1 9:1", LIBSVMOptions{NumFeatures: 8}, `dataset: line 2: feature index 9 exceeds NumFeatures (8)`},
		{"MaxBytes", "1 1:1\n1 1000:1\n1 1:1\n", LIBSVMOptions{MaxBytes: 8 * 1000}, `dataset: line 2: dense matrix of 2 rows × 1000 features exceeds MaxBytes (8000 bytes)`},
		{"MaxBytes default", strings.Repeat("1 1048576:1\n", 300), LIBSVMOptions{}, `dataset: line 257: dense matrix of 257 rows × 1048576 features exceeds MaxBytes (2147483648 bytes)`},
		{"NumFeatures huge", "1\n", LIBSVMOptions{NumFeatures: math.MaxInt32}, `dataset: line 1: dense matrix of 1 rows × 2147483647 features exceeds MaxBytes`},
		{"empty", "", LIBSVMOptions{}, `dataset: no data rows`},
		{"comments only", "# a\n\n  # b\n", LIBSVMOptions{}, `dataset: no data rows`},
		{"no features", "1\n-1 # x\n", LIBSVMOptions{}, `dataset: no features (every row is empty; set NumFeatures)`},
		{"negative opt", "1 1:1\n", LIBSVMOptions{MaxBytes: -1}, `dataset: LIBSVMOptions: NumFeatures, MaxFeatures and MaxBytes must not be negative`},
		{"label out of range", "1 1:1\n1e400 1:2\n", LIBSVMOptions{}, `dataset: line 2: label "1e400" is out of range for float64`},
		{"label empty value", "-1e400 1:2\n", LIBSVMOptions{}, `dataset: line 1: label "-1e400" is out of range for float64`},
		{"gzip", "\x1f\x8b\x08\x00", LIBSVMOptions{}, `dataset: the input is gzip-compressed; decompress it first (gunzip)`},
		{"long line", "1 1:1\n1 " + strings.Repeat("1:1 ", 40) + "\n", LIBSVMOptions{MaxLineBytes: 64}, `dataset: line 2 is longer than 64 bytes`},
	}
	for _, c := range cases {
		_, err := readLIBSVM(t, c.in, c.opt)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got error %v\nwant prefix      %s", c.name, err, c.want)
		}
	}
}

func TestHostileLIBSVMAllocation(t *testing.T) {
	in := "1 999999999:1"
	allocs := testing.AllocsPerRun(5, func() { ReadLIBSVM(strings.NewReader(in), LIBSVMOptions{}) })
	if allocs > 50 {
		t.Errorf("%v allocations", allocs)
	}
	var ds *Dataset
	var err error
	// Small input, tight byte limit: refused before the dense matrix exists.
	bytes := testingAllocBytes(func() {
		ds, err = ReadLIBSVM(strings.NewReader(strings.Repeat("1 1048576:1\n", 100)), LIBSVMOptions{MaxBytes: 1 << 20})
	})
	if err == nil || ds != nil || bytes > 1<<20 {
		t.Errorf("err %v, %d bytes allocated", err, bytes)
	}
}

func TestDatasetValidate(t *testing.T) {
	good := &Dataset{X: []float64{1, 2, 3, 4}, N: 2, D: 2, Y: []float64{1, -1}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ds   *Dataset
		want string
	}{
		{nil, "dataset: nil Dataset"},
		{&Dataset{D: 1}, "dataset: N = 0, need at least one sample"},
		{&Dataset{N: 1, X: []float64{1}}, "dataset: D = 0, need at least one feature"},
		{&Dataset{N: 2, D: 2, X: []float64{1, 2, 3}}, "dataset: len(X) = 3, want N*D = 2*2"},
		{&Dataset{N: 1, D: 1, X: []float64{1}, Y: []float64{1, 2}}, "dataset: len(Y) = 2, want N = 1"},
		{&Dataset{N: 1, D: 1, X: []float64{1}, FeatureNames: []string{}}, "dataset: len(FeatureNames) = 0, want D = 1"},
		{&Dataset{N: 2, D: 2, X: []float64{1, 2, math.NaN(), 4}}, "dataset: X[1, 0] = NaN is not finite"},
		{&Dataset{N: 1, D: 1, X: []float64{1}, Y: []float64{math.Inf(-1)}}, "dataset: Y[0] = -Inf is not finite"},
	}
	for _, c := range cases {
		if err := c.ds.Validate(); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
	sub := good.Subset([]int{1, 1, 0})
	if !slices.Equal(sub.X, []float64{3, 4, 3, 4, 1, 2}) || !slices.Equal(sub.Y, []float64{-1, -1, 1}) || sub.Validate() != nil {
		t.Errorf("Subset: %+v", sub)
	}
}

// TestScaler: Transform and Inverse of a Scaler (learners.Standardize fits
// one; its tests check the statistics).
func TestScaler(t *testing.T) {
	X := []float64{
		1, 5, 10,
		3, 5, 20,
		5, 5, 60,
	}
	s := &Scaler{Mean: []float64{3, 5, 30}, Scale: []float64{2, 1, 20}}
	Z := make([]float64, len(X))
	s.Transform(Z, X)
	if want := []float64{-1, 0, -1, 0, 0, -0.5, 1, 0, 1.5}; !slices.Equal(Z, want) {
		t.Errorf("Transform = %v, want %v", Z, want)
	}
	// In place, then back.
	W := slices.Clone(X)
	s.Transform(W, W)
	if !slices.Equal(W, Z) {
		t.Errorf("in-place Transform differs")
	}
	s.Inverse(W, W)
	for k := range W {
		if math.Abs(W[k]-X[k]) > 1e-12 {
			t.Fatalf("Inverse: %v, want %v", W, X)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Transform with bad length did not panic")
		}
	}()
	s.Transform(make([]float64, 4), make([]float64, 4))
}

// TestMatrix: the view a learner takes shares the data.
func TestMatrix(t *testing.T) {
	ds := &Dataset{X: []float64{1, 2, 3, 4, 5, 6}, N: 3, D: 2}
	m := ds.Matrix()
	if m.Rows != 3 || m.Cols != 2 || m.Stride != 2 || &m.Data[0] != &ds.X[0] || !slices.Equal(m.Row(2), ds.Row(2)) {
		t.Errorf("Matrix() = %+v", m)
	}
}

func isPartition(t *testing.T, n int, parts ...[]int) {
	t.Helper()
	seen := make([]bool, n)
	for _, p := range parts {
		if !slices.IsSorted(p) {
			t.Errorf("not sorted: %v", p)
		}
		for _, i := range p {
			if seen[i] {
				t.Fatalf("index %d twice", i)
			}
			seen[i] = true
		}
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("index %d missing", i)
		}
	}
}

func TestStratifiedSplit(t *testing.T) {
	y := make([]float64, 100)
	for i := range y {
		if i%4 == 0 {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	train, test := StratifiedSplit(y, 0.2, 7)
	isPartition(t, len(y), train, test)
	pos := 0
	for _, i := range test {
		if y[i] == 1 {
			pos++
		}
	}
	if len(test) != 20 || pos != 5 {
		t.Errorf("test size %d with %d positives, want 20 and 5", len(test), pos)
	}
	tr2, te2 := StratifiedSplit(y, 0.2, 7)
	if !slices.Equal(train, tr2) || !slices.Equal(test, te2) {
		t.Error("not deterministic")
	}
	_, te3 := StratifiedSplit(y, 0.2, 8)
	if slices.Equal(test, te3) {
		t.Error("seed ignored")
	}
	// Small classes keep a member on each side.
	_, te := StratifiedSplit([]float64{1, 1, 2, 2, 2, 2, 2, 2, 2, 2}, 0.1, 1)
	if len(te) != 2 {
		t.Errorf("small class: test %v", te)
	}
	defer func() {
		if recover() == nil {
			t.Error("bad testFrac did not panic")
		}
	}()
	StratifiedSplit(y, math.NaN(), 1)
}

func TestStratifiedKFold(t *testing.T) {
	y := make([]float64, 103)
	for i := range y {
		y[i] = float64(i % 3)
	}
	folds, err := StratifiedKFold(y, 5, 11)
	if err != nil {
		t.Fatal(err)
	}
	isPartition(t, len(y), folds...)
	for f, fold := range folds {
		if len(fold) < 20 || len(fold) > 21 {
			t.Errorf("fold %d has %d members", f, len(fold))
		}
		cnt := map[float64]int{}
		for _, i := range fold {
			cnt[y[i]]++
		}
		for c, k := range cnt {
			if k < 6 || k > 7 {
				t.Errorf("fold %d class %v: %d members", f, c, k)
			}
		}
		tr := TrainIndices(folds, f)
		isPartition(t, len(y), tr, fold)
	}
	again, _ := StratifiedKFold(y, 5, 11)
	if !reflect.DeepEqual(folds, again) {
		t.Error("not deterministic")
	}
	for _, c := range []struct {
		y    []float64
		k    int
		want string
	}{
		{y, 1, "dataset: StratifiedKFold: k = 1, need k >= 2"},
		{[]float64{1, 2}, 3, "dataset: StratifiedKFold: 2 samples cannot fill 3 folds"},
		{[]float64{1, 1, 1, 2, 2}, 3, "dataset: StratifiedKFold: class 2 has 2 members, fewer than k = 3"},
	} {
		if _, err := StratifiedKFold(c.y, c.k, 1); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

func TestKFold(t *testing.T) {
	folds, err := KFold(23, 4, 5)
	if err != nil {
		t.Fatal(err)
	}
	isPartition(t, 23, folds...)
	for _, f := range folds {
		if len(f) < 5 || len(f) > 6 {
			t.Errorf("fold size %d", len(f))
		}
	}
	again, _ := KFold(23, 4, 5)
	if !reflect.DeepEqual(folds, again) {
		t.Error("not deterministic")
	}
	if _, err := KFold(3, 4, 1); err == nil || err.Error() != "dataset: KFold: 3 samples cannot fill 4 folds" {
		t.Errorf("got %v", err)
	}
	if _, err := KFold(3, 0, 1); err == nil || err.Error() != "dataset: KFold: k = 0, need k >= 2" {
		t.Errorf("got %v", err)
	}
}

// zeros is an endless stream of zero bytes, like /dev/zero; read counts
// what was taken from it.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestEndlessLine: input without a line break (/dev/zero) fails after about
// MaxLineBytes instead of being buffered until memory runs out.
func TestEndlessLine(t *testing.T) {
	const limit = 1 << 16
	for _, format := range []string{"csv", "libsvm"} {
		z := &zeros{}
		var err error
		if format == "csv" {
			_, err = ReadCSV(z, CSVOptions{MaxLineBytes: limit})
		} else {
			_, err = ReadLIBSVM(z, LIBSVMOptions{MaxLineBytes: limit})
		}
		if err == nil || !strings.Contains(err.Error(), "line 1 is longer than 65536 bytes") {
			t.Errorf("%s: error %v", format, err)
		}
		if z.read > 2*limit {
			t.Errorf("%s: read %d bytes of a line limited to %d", format, z.read, limit)
		}
	}
}

// TestIgnoreLabel: the label column's content is not read (empty, "?",
// text), the features are, and Y is nil.
func TestIgnoreLabel(t *testing.T) {
	ds, err := readCSV(t, "a,y,b\n1,,2\n3,?,4\n5,cat,6\n", CSVOptions{IgnoreLabel: true})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Y != nil || ds.D != 2 || ds.N != 3 || ds.LabelName != "y" || fmt.Sprint(ds.X) != "[1 2 3 4 5 6]" {
		t.Errorf("got %+v", ds)
	}
	if _, err := readCSV(t, "a,y,b\n1,,x\n", CSVOptions{IgnoreLabel: true}); err == nil || !strings.Contains(err.Error(), `column "b": "x" is not a number`) {
		t.Errorf("a bad feature: %v", err)
	}
}
