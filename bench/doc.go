// Package bench holds rfkit's cross-package benchmarks (the hot paths at the
// shapes the issues quote, each next to a plain-Go or gonum baseline in the
// same run) and, under cmd/, the reproduction commands of the papers' tables.
//
//	go test -run '^$' -bench . -benchtime 1x ./bench      # one pass of each
//	make bench                                           # every package, benchstat format
package bench
