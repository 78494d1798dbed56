#!/bin/sh
# Peer of BenchmarkFeatureMap: OpenBLAS dgemm + SLEEF u10 cos on one thread at
# the issue's three shapes (bench/peers/c/featmap_openblas.c). Needs Debian's
# libopenblas-dev; uses libsleef-dev when installed and says so when not.
# Usage: bench/peers/featmap-openblas.sh [reps]   (or: make bench-peers-featmap)
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/rfkit-featmap-openblas
if [ ! -f /usr/include/x86_64-linux-gnu/cblas.h ] && [ ! -f /usr/include/cblas.h ]; then
	echo "featmap-openblas: libopenblas-dev is not installed (apt-get install libopenblas-dev); no peer figures" >&2
	exit 0
fi
flags="-O2 -march=native"
libs="-lopenblas -lm"
if [ -f /usr/include/sleef.h ] || [ -f /usr/include/x86_64-linux-gnu/sleef.h ]; then
	flags="$flags -DHAVE_SLEEF"
	libs="-lsleef $libs"
else
	echo "featmap-openblas: libsleef-dev is not installed: the cosines use libm (slower than SLEEF u10)" >&2
fi
${CC:-cc} $flags -o "$out" "$dir/c/featmap_openblas.c" $libs
# One thread, and OpenBLAS's own cache sizes (the environment may carry
# overrides meant for other jobs). Its core detection is overridden on an
# AVX-512 machine: OpenBLAS 0.3.21 does not know every newer CPU model (the
# 2-vCPU Xeon of 2026-11-27 was detected as "Prescott", SSE3 kernels, 3x
# slower dgemm), and an unfair peer is no peer. PEER_CORETYPE overrides it.
coretype=${PEER_CORETYPE:-}
if [ -z "$coretype" ] && grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
	coretype=SkylakeX
fi
if [ -n "$coretype" ]; then
	echo "featmap-openblas: OPENBLAS_CORETYPE=$coretype" >&2
	env -u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE="$coretype" OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$out" "${1:-5}"
else
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$out" "${1:-5}"
fi
