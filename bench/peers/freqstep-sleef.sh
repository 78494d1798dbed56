#!/bin/sh
# Peer of BenchmarkFrequencyStep: the GBRFF2 frequency step as one fused C pass
# with SLEEF's u10 vector sincos and exp on one thread, n = 100000, d = 20
# (bench/peers/c/freqstep_sleef.c), built at -O2 and -O3 (-march=native): the
# faster build is the peer. Needs an AVX-512 machine and Debian's libsleef-dev;
# says so and exits 0 when either is missing.
# Usage: bench/peers/freqstep-sleef.sh [reps]   (or: make bench-peers-freqstep)
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/rfkit-freqstep-sleef
if ! grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
	echo "freqstep-sleef: this CPU has no AVX-512; no peer figures" >&2
	exit 0
fi
if [ ! -f /usr/include/sleef.h ] && [ ! -f /usr/include/x86_64-linux-gnu/sleef.h ]; then
	echo "freqstep-sleef: libsleef-dev is not installed (apt-get install libsleef-dev); no peer figures" >&2
	exit 0
fi
for o in 2 3; do
	${CC:-cc} -O$o -march=native -o "$out-O$o" "$dir/c/freqstep_sleef.c" -lsleef -lm
	echo "freqstep-sleef: -O$o -march=native" >&2
	"$out-O$o" "${1:-300}"
done
