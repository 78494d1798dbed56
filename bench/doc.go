// Package bench holds rfkit's cross-package benchmarks (the hot paths at the
// shapes of the speed targets, each next to a plain-Go or gonum baseline in the
// same run), the fit and predict cost of every learner (learners_test.go:
// BenchmarkFit/method=<learner>/n=1000, 10000 and 100000,
// BenchmarkPredict/<learner> in ns/row; results in results/learners.md and
// results/gbrff-fit.md), the peer comparison of peers/ (make bench-peers:
// XGBoost on the same rows) and, under cmd/, the reproduction commands of
// the papers' tables.
//
//	go test -run '^$' -bench . -benchtime 1x -timeout 60m ./bench  # one pass of each
//	make bench                                           # every benchmark once (a smoke test, not a measurement)
//
//	go test -run '^$' -bench 'Predict' -count 3 ./bench                           # predict latency per row
//	go test -run '^$' -bench 'Fit/.*/n=10000$' -benchtime 1x ./bench              # fit, n = 10000
//	go test -run '^$' -bench 'Fit/.*/n=100000$' -benchtime 1x -timeout 60m ./bench
//
// Fits that take over 10 minutes (srff at n = 100000) are skipped with the
// measured cost unless RFKIT_BENCH_SLOW=1.
package bench
