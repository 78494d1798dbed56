#!/usr/bin/env bash
# One interleaved before/after run for issue 11 (not committed; the exact
# commands are in the closing note). old = 4804cde (session start), new = main.
set -u
out=<tmp>/bf; mkdir -p $out
B() { local v=$1; shift; echo "### $v $*"; $out/$v.test -test.run '^$' -test.cpu 1 "$@" 2>&1 | grep -E "^Benchmark|SKIP"; }
{
date; uptime; grep -m1 'model name' /proc/cpuinfo
for rep in 1 2 3; do
  for v in old new; do
    B $v -test.bench 'Fit/method=gbrff2/' -test.benchtime 3x -test.timeout 30m
    B $v -test.bench 'FrequencyStep/n=100000/d=20/path=avx512/' -test.benchtime 200x
    B $v -test.bench 'Predict/gbrff2$' -test.count 3
    B $v -test.bench 'FeatureMap/.*/.*/.*/path=avx512/procs=1$' -test.benchtime 5x
  done
done
for v in old new; do
  B $v -test.bench 'Fit/method=(pbrff|rks)/n=(10000|100000)$' -test.benchtime 1x -test.timeout 30m
done
date; uptime
} > $out/run.txt 2>&1
