package dataset

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Default limits of [LIBSVMOptions] (its field docs state them).
const (
	defaultMaxFeatures = 1 << 20 // largest feature index accepted
	defaultMaxBytes    = 1 << 31 // largest dense X, in bytes
)

// LIBSVMOptions configures [ReadLIBSVM] and [LoadLIBSVM]. The zero value
// infers the dimension from the data with the default limits.
type LIBSVMOptions struct {
	// NumFeatures, if > 0, fixes the dimension D (for example so that a
	// test file matches its training file); an index above it is an
	// error. If 0, D is the largest index seen.
	NumFeatures int

	// MaxFeatures bounds the feature indices accepted when NumFeatures is
	// 0 (0 means 2²⁰ = 1048576). It keeps a tiny hostile line such as
	// "1 999999999:1" from allocating gigabytes.
	MaxFeatures int

	// MaxBytes bounds the size of the dense feature matrix, N*D*8 bytes
	// (0 means 2³¹, 2 GiB). The check is made while reading, before
	// the matrix is allocated. Lower it for untrusted input: with the
	// defaults each short line may still cost up to 8 MiB.
	MaxBytes int64

	// MaxLineBytes bounds the length of a line (0 means 32 MiB, room for
	// about three million numeric fields), so input without line breaks
	// fails instead of being buffered whole.
	MaxLineBytes int
}

// LoadLIBSVM opens path and reads it with [ReadLIBSVM]. Errors are
// prefixed with the path.
func LoadLIBSVM(path string, opt LIBSVMOptions) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	ds, err := ReadLIBSVM(f, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ds, nil
}

// ReadLIBSVM reads LIBSVM / svmlight sparse text and returns it densified.
//
// Each non-blank line is
//
//	label index:value index:value ... [# comment]
//
// with a numeric label (±1, 0/1, class ids or regression targets are all
// accepted; see learners.BinaryLabels) and strictly increasing 1-based integer
// indices; missing indices are zeros. Fields are separated by spaces or
// tabs. Text from '#' to the end of the line is a comment; blank and
// comment-only lines are skipped. "qid:n" tokens are ignored. A UTF-8
// byte-order mark and \r\n line endings are accepted. Feature j (1-based)
// of the file is column j-1 of X; FeatureNames is nil.
//
// Errors name the (1-based, physical) line, e.g.
//
//	dataset: line 3: bad token "abc" (want index:value)
//	dataset: line 3: feature index 0 in "0:1" is not positive (indices are 1-based)
//	dataset: line 3: feature index 2 in "2:1" does not increase (previous index 5)
//	dataset: line 3: value "x" in "2:x" is not a number
//	dataset: line 3: label "abc" is not a number
//	dataset: line 1: feature index 999999999 exceeds MaxFeatures (1048576)
func ReadLIBSVM(r io.Reader, opt LIBSVMOptions) (*Dataset, error) {
	if opt.NumFeatures < 0 || opt.MaxFeatures < 0 || opt.MaxBytes < 0 {
		return nil, errors.New("dataset: LIBSVMOptions: NumFeatures, MaxFeatures and MaxBytes must not be negative")
	}
	if opt.MaxLineBytes < 0 {
		return nil, errors.New("dataset: LIBSVMOptions: MaxLineBytes must not be negative")
	}
	maxIndex := opt.MaxFeatures
	if maxIndex == 0 {
		maxIndex = defaultMaxFeatures
	}
	limitName := "MaxFeatures"
	if opt.NumFeatures > 0 {
		maxIndex, limitName = opt.NumFeatures, "NumFeatures"
	}
	maxIndex = min(maxIndex, math.MaxInt32)
	maxBytes := opt.MaxBytes
	if maxBytes == 0 {
		maxBytes = defaultMaxBytes
	}
	maxCells := min(maxBytes/8, math.MaxInt) // n*d must also fit in an int

	// Sparse staging: row i's entries are idx/val[start[i]:start[i+1]].
	// Its size is proportional to the input length.
	var (
		y     []float64
		start = []int{0}
		idx   []int32
		val   []float64
		d     = opt.NumFeatures // current dimension
	)

	br, err := openText(r, opt.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadString('\n')
		if errors.Is(err, errLineTooLong) {
			return nil, err
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("dataset: line %d: %w", lineNo, err)
		}
		if line == "" && err == io.EOF {
			break
		}
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		rest := line
		tok, rest := nextToken(rest)
		if tok != "" {
			// The label is parsed as a CSV value is, with the same
			// wording ("out of range", "not finite", "not a number").
			lab, problem := parseValue(tok)
			if problem != "" {
				return nil, fmt.Errorf("dataset: line %d: label %s", lineNo, problem)
			}
			prev := 0
			for {
				tok, rest = nextToken(rest)
				if tok == "" {
					break
				}
				if strings.HasPrefix(tok, "qid:") {
					continue
				}
				colon := strings.IndexByte(tok, ':')
				if colon < 0 {
					return nil, fmt.Errorf("dataset: line %d: bad token %s (want index:value)", lineNo, quoteShort(tok))
				}
				is, vs := tok[:colon], tok[colon+1:]
				j64, ierr := strconv.ParseInt(is, 10, 64)
				if ierr != nil && !errors.Is(ierr, strconv.ErrRange) {
					return nil, fmt.Errorf("dataset: line %d: bad feature index in %s (want index:value)", lineNo, quoteShort(tok))
				}
				if j64 <= 0 {
					return nil, fmt.Errorf("dataset: line %d: feature index %s in %s is not positive (indices are 1-based)", lineNo, shortDigits(is), quoteShort(tok))
				}
				if j64 > int64(maxIndex) {
					return nil, fmt.Errorf("dataset: line %d: feature index %s exceeds %s (%d)", lineNo, shortDigits(is), limitName, maxIndex)
				}
				j := int(j64)
				if j <= prev {
					return nil, fmt.Errorf("dataset: line %d: feature index %d in %s does not increase (previous index %d)", lineNo, j, quoteShort(tok), prev)
				}
				prev = j
				v, problem := parseValue(vs)
				if problem != "" {
					return nil, fmt.Errorf("dataset: line %d: value in %s: %s", lineNo, quoteShort(tok), problem)
				}
				idx = append(idx, int32(j-1))
				val = append(val, v)
			}
			d = max(d, prev)
			y = append(y, lab)
			start = append(start, len(idx))
			if int64(d) > 0 && int64(len(y)) > maxCells/int64(d) {
				return nil, fmt.Errorf("dataset: line %d: dense matrix of %d rows × %d features exceeds MaxBytes (%d bytes)", lineNo, len(y), d, maxBytes)
			}
		}
		if err == io.EOF {
			break
		}
	}
	if len(y) == 0 {
		return nil, errors.New("dataset: no data rows")
	}
	if d == 0 {
		return nil, errors.New("dataset: no features (every row is empty; set NumFeatures)")
	}
	n := len(y)
	ds := &Dataset{X: make([]float64, n*d), N: n, D: d, Y: y}
	for i := 0; i < n; i++ {
		row := ds.X[i*d : (i+1)*d]
		for k := start[i]; k < start[i+1]; k++ {
			row[idx[k]] = val[k]
		}
	}
	return ds, nil
}

// nextToken returns the first space- or tab-separated token of s and the
// remainder.
func nextToken(s string) (tok, rest string) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isSpace(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// shortDigits truncates a long run of digits for an error message.
func shortDigits(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}
