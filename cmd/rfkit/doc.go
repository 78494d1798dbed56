// Command rfkit trains, evaluates and applies rfkit's random-Fourier-feature
// learners from the command line, and shows what the library does on a
// machine (demo, bench).
//
// Usage:
//
//	rfkit train      -method NAME -data FILE [-format csv|libsvm] [-label COL]
//	                 [-task auto|binary|regression] [-param k=v]... [-seed N] -model OUT
//	rfkit predict    -model FILE -data FILE [-out FILE]
//	rfkit eval       -model FILE -data FILE [-json]
//	rfkit cv         -method NAME -data FILE -grid k=v1,v2,... [-folds 5]
//	rfkit importance -model FILE [-data FILE] [-top N]
//	rfkit demo       [-png FILE] [-save DIR] [-seed N]
//	rfkit bench      [-n 4096] [-benchtime 200ms] [-count 1]
//	rfkit info       [-json] MODEL
//	rfkit version
//
// Every subcommand takes -h. The methods are the learners linked into the
// binary (methods.go imports them; each registers itself with package
// learners), so the command has no per-method code: hyper-parameters are the
// learner's Config field names, set with -param and matched
// case-insensitively (`rfkit train -method NAME -h` lists them).
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
// symbolic link followed, an existing file's mode kept). -max-inputs and
// -max-size bound what train and cv allocate.
//
// Exit status: 0 on success, 1 on a runtime error (bad data, a failed fit,
// an interrupt, output that cannot be written), 2 on a usage error. Errors are one line on stderr.
package main
