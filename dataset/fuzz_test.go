package dataset

import (
	"bytes"
	"testing"
)

// fuzzMaxBytes bounds the dense matrix in FuzzReadLIBSVM.
const fuzzMaxBytes = 1 << 22

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"a,b,y\n1,2,-1\n3,4,1\n",
		"\uFEFFa,y\r\n1,2\r\n",
		"a,y\n\"1\n2\",3\n",
		"x,x,y\n1,2,3\n",
		"a,y\nNaN,1\n",
		"a,b\n1\n",
		"# c\na;b\n0x1p3;-1e-5\n",
		"",
	} {
		f.Add([]byte(s), "", false)
	}
	f.Add([]byte("a,y\n1,2\n"), "-1", false)
	f.Add([]byte("a,y\n1,2\n"), "", true)
	f.Add([]byte("y,a,y\n1,2,3\n"), "y", false)
	f.Fuzz(func(t *testing.T, data []byte, label string, noLabel bool) {
		if noLabel {
			label = ""
		}
		opt := CSVOptions{Label: label, NoLabel: noLabel}
		if bytes.Contains(data, []byte(";")) {
			opt.Comma, opt.Comment = ';', '#'
		}
		ds, err := ReadCSV(bytes.NewReader(data), opt)
		if err != nil {
			if ds != nil {
				t.Fatalf("non-nil Dataset with error %v", err)
			}
			return
		}
		if err := ds.Validate(); err != nil {
			t.Fatalf("invalid result: %v", err)
		}
		if noLabel != (ds.Y == nil) || ds.FeatureNames == nil {
			t.Fatalf("labels/names: %+v", ds)
		}
		// Allocation is bounded by the input: each value needs at least
		// one byte plus a separator.
		if 2*(len(ds.X)+len(ds.Y)) > len(data)+2*ds.N+8 {
			t.Fatalf("%d values from %d bytes", len(ds.X)+len(ds.Y), len(data))
		}
	})
}

func FuzzReadLIBSVM(f *testing.F) {
	for _, s := range []string{
		"+1 1:0.5 3:2\n-1 2:1 # c\n",
		"\uFEFF# c\r\n0 qid:1 1:1\r\n\r\n",
		"1 999999999:1",
		"1 5:1 2:1\n",
		"1 0:1\n",
		"x 1:1\n",
		"1 1:x\n",
		"1\n-1\n",
		"1 1048576:1\n1 1048576:1\n",
		"",
	} {
		f.Add([]byte(s), 0)
	}
	f.Add([]byte("1 1:1\n"), 3)
	f.Fuzz(func(t *testing.T, data []byte, numFeatures int) {
		opt := LIBSVMOptions{NumFeatures: numFeatures, MaxFeatures: 1 << 16, MaxBytes: fuzzMaxBytes}
		ds, err := ReadLIBSVM(bytes.NewReader(data), opt)
		if err != nil {
			if ds != nil {
				t.Fatalf("non-nil Dataset with error %v", err)
			}
			return
		}
		if err := ds.Validate(); err != nil {
			t.Fatalf("invalid result: %v", err)
		}
		if 8*len(ds.X) > fuzzMaxBytes {
			t.Fatalf("dense matrix of %d bytes exceeds the limit", 8*len(ds.X))
		}
		if numFeatures > 0 && ds.D != numFeatures {
			t.Fatalf("D = %d, NumFeatures = %d", ds.D, numFeatures)
		}
		if ds.Y == nil || ds.FeatureNames != nil {
			t.Fatalf("labels/names: Y %v names %v", ds.Y == nil, ds.FeatureNames)
		}
	})
}
