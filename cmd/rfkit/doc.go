// Command rfkit trains, evaluates and applies rfkit's random-Fourier-feature
// learners from the command line, and shows what the library does on a
// machine (demo, bench).
//
// Usage:
//
//	rfkit train      -method NAME -data FILE [-format csv|libsvm] [-label COL] [-weight COL]
//	                 [-task auto|binary|multiclass|regression] [-param k=v]... [-seed N] -model OUT
//	rfkit predict    -model FILE -data FILE [-output label|proba|score] [-out FILE]
//	rfkit eval       -model FILE -data FILE [-weight COL] [-json]
//	rfkit cv         -method NAME -data FILE -grid k=v1,v2,... [-folds 5] [-metric NAME]
//	                 [-weight COL] [-json] [-model OUT]
//	rfkit importance -model FILE [-data FILE [-metric M] [-repeats N] [-seed N]] [-top N] [-json]
//	rfkit demo       [-png FILE] [-save DIR] [-seed N]
//	rfkit bench      [-n 4096] [-benchtime 200ms] [-count 1]
//	rfkit export     -format onnx -model FILE -out FILE
//	rfkit info       [-json] MODEL
//	rfkit version
//
// Every subcommand takes -h. The methods are the learners linked into the
// binary (methods.go imports them; each registers itself with package
// learners), so the command has no per-method code: hyper-parameters are the
// learner's Config field names, set with -param and matched
// case-insensitively (`rfkit train -method NAME -h` lists them).
//
// Tasks: -task auto (the default) is binary classification for a label
// column of two distinct values, multiclass for 3 to 20 distinct integer
// values, regression otherwise; -task multiclass takes up to 1000 integer
// classes. A method that cannot do the task is a usage error naming the
// methods that can: the command asks each method's Config (its Task field
// and Validate; rrf's multiclass parameter), so a learner that gains a task
// is offered for it without a change here.
//
// Sample weights: -weight COL names a CSV column (by header name or 0-based
// index) that holds one weight per row; it is not a feature. Weights are
// finite and ≥ 0 (0 drops a row), not all 0; a bad one is an error naming
// the data row. They enter the fit (learners/cv.FitWeighted: integer
// weights repeat rows for learners without weights of their own), cv's
// stratified folds and every score.
//
// Outputs: predict writes labels (-output label), class probabilities as
// CSV with a header p_<class> per class (-output proba), or a binary
// model's score (-output score). eval prints the accuracy, log loss, AUC
// (binary), macro-F1 and confusion matrix of a classifier, the RMSE, MAE and
// R² of a regression; eval -json and cv -json print one JSON object (null
// for a value that is not a number).
//
// One indexing convention: a column (in -label, -weight and in messages)
// is a header name or a 0-based index, negative counting from the end; a
// row in messages is a 1-based data row, counted after the header.
//
// Data files are CSV with a header row (the label column chosen by -label,
// by default the last column named y, else the last column) or LIBSVM;
// -format overrides the guess from the extension; -data - reads stdin, and
// a file is read once, so pipes work. A model stores the feature names of
// its CSV training file, and predict, eval and importance refuse a file
// whose header names other features (-ignore-names reads by position). train and cv show a progress bar when
// stderr is a terminal and a progress line every few seconds otherwise (not
// with -quiet). Ctrl-C or SIGTERM cancels a run at the learner's next check;
// model and output files are written to a temporary file and renamed, so
// they are complete or absent (a device or pipe is written through, a
// symbolic link followed, an existing file's mode kept, a new file created
// 0666 less the umask, a file the user could not write refused, and an
// output that is the same file as an input, through links too, a usage
// error before anything is read). -max-inputs and
// -max-size bound what train and cv allocate.
//
// Exit status: 0 on success, 1 on a runtime error (bad data, a failed fit,
// an interrupt, output that cannot be written), 2 on a usage error. Errors are one line on stderr.
package main
