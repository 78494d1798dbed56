// Package dataset loads and prepares tabular data for rfkit learners.
//
// It reads two formats into a dense, row-major [Dataset]:
//
//   - CSV with a header row ([ReadCSV], [LoadCSV]). All columns must be
//     numeric; one column (by default the last column named "y", else the
//     last column) is the label or regression target. This is the layout of
//     the reproduction data sets (features first, label "y" last, binary
//     labels -1/+1).
//   - LIBSVM / svmlight sparse text ([ReadLIBSVM], [LoadLIBSVM]), densified.
//
// Both readers stream their input (memory proportional to the data, not to
// the file plus a copy), require every value to be finite, and report errors
// that name the offending line (and, for CSV, the column), for example
//
//	dataset: line 17, column "age": "abc" is not a number
//
// The LIBSVM reader bounds its allocation: feature indices above
// [LIBSVMOptions].MaxFeatures and dense matrices above
// [LIBSVMOptions].MaxBytes are refused before anything that large is
// allocated.
//
// A [Dataset] goes straight into a learner: [Dataset.Matrix] is the
// featmap.Matrix view (the layout of gonum's blas64.General) every Fit and
// PredictBatch takes, sharing the data.
//
// The synthetic sets of the papers (moons, checkerboard, SRFF's SE1–SE3,
// …), generated bit-identically everywhere, are in the subpackage
// dataset/synth: readers and generators both end in featmap.Matrix.
//
// Around the readers are the pieces of the evaluation protocol: [Scaler]
// applies a standardisation fitted on a training split
// (learners.Standardize), and [StratifiedSplit], [StratifiedKFold] and
// [KFold] produce deterministic (seeded, math/rand/v2 PCG) index splits.
// Two-class labels are mapped by learners.BinaryLabels.
package dataset
