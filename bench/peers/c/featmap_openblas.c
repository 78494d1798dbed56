// The C peer of BenchmarkFeatureMap. It sits in its own directory because Go
// refuses C files beside the Go files of a package built without cgo.
// featmap_openblas: the peer of BenchmarkFeatureMap. Z = s·cos(XW + b) as
// OpenBLAS dgemm followed by a cosine pass (SLEEF's u10 vector cos when built
// with -DHAVE_SLEEF, else libm cos), on one thread, at the shapes.
// Built and run by featmap-openblas.sh (make bench-peers-featmap); a
// measuring tool only: rfkit never links C.
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "peers.h"
#ifdef HAVE_SLEEF
#include <immintrin.h>
#include <sleef.h>
#endif

void openblas_set_num_threads(int);

static void cos_pass(double *Z, const double *b, int n, int D, double s) {
	for (int i = 0; i < n; i++) {
		double *z = Z + (size_t)i * D;
		int j = 0;
#if defined(HAVE_SLEEF) && defined(__AVX512F__)
		__m512d vs = _mm512_set1_pd(s);
		for (; j + 8 <= D; j += 8) {
			__m512d v = _mm512_add_pd(_mm512_loadu_pd(z + j), _mm512_loadu_pd(b + j));
			_mm512_storeu_pd(z + j, _mm512_mul_pd(vs, Sleef_cosd8_u10avx512f(v)));
		}
#elif defined(HAVE_SLEEF) && defined(__AVX2__)
		__m256d vs = _mm256_set1_pd(s);
		for (; j + 4 <= D; j += 4) {
			__m256d v = _mm256_add_pd(_mm256_loadu_pd(z + j), _mm256_loadu_pd(b + j));
			_mm256_storeu_pd(z + j, _mm256_mul_pd(vs, Sleef_cosd4_u10avx2(v)));
		}
#endif
		for (; j < D; j++) z[j] = s * cos(z[j] + b[j]);
	}
}

int main(int argc, char **argv) {
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	const int shapes[3][3] = {{10000, 10, 1000}, {10000, 100, 1000}, {50000, 18, 300}};
	openblas_set_num_threads(1);
#if defined(HAVE_SLEEF) && defined(__AVX512F__)
	const char *cosname = "SLEEF u10 avx512f";
#elif defined(HAVE_SLEEF) && defined(__AVX2__)
	const char *cosname = "SLEEF u10 avx2";
#else
	const char *cosname = "libm cos (no SLEEF)";
#endif
	printf("# OpenBLAS %s, 1 thread; cos: %s; best and median of %d runs\n", openblas_get_config(), cosname, reps);
	printf("# shape               gemm-ms   cos-ms  total-ms(best)  total-ms(median)  cpu-ms(best)  floor-ms\n");
	for (int si = 0; si < 3; si++) {
		int n = shapes[si][0], d = shapes[si][1], D = shapes[si][2];
		double *X = malloc(sizeof(double) * n * d), *W = malloc(sizeof(double) * d * D);
		double *b = malloc(sizeof(double) * D), *Z = malloc(sizeof(double) * n * D);
		for (size_t i = 0; i < (size_t)n * d; i++) X[i] = normal();
		for (size_t i = 0; i < (size_t)d * D; i++) W[i] = normal() / sqrt(d);
		for (int j = 0; j < D; j++) b[j] = 2 * M_PI * uniform();
		double s = sqrt(2.0 / D);
		double tot[64], gbest = 1e9, cbest = 1e9, best = 1e9, cpubest = 1e9;
		reps = reps > 64 ? 64 : reps;
		for (int r = -1; r < reps; r++) { // r = -1 warms up
			double c0 = now(CLOCK_PROCESS_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC);
			cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, D, d, 1, X, d, W, D, 0, Z, D);
			double t1 = now(CLOCK_MONOTONIC);
			cos_pass(Z, b, n, D, s);
			double t2 = now(CLOCK_MONOTONIC), c2 = now(CLOCK_PROCESS_CPUTIME_ID);
			if (r < 0) continue;
			tot[r] = t2 - t0;
			if (t1 - t0 < gbest) gbest = t1 - t0;
			if (t2 - t1 < cbest) cbest = t2 - t1;
			if (t2 - t0 < best) best = t2 - t0;
			if (c2 - c0 < cpubest) cpubest = c2 - c0;
		}
		for (int i = 1; i < reps; i++) // insertion sort for the median
			for (int k = i; k > 0 && tot[k] < tot[k - 1]; k--) { double t = tot[k]; tot[k] = tot[k - 1]; tot[k - 1] = t; }
		double floor = 2.0 * n * d * D / 108e9 * 1e3 + (double)n * D * 0.645e-6;
		printf("n=%d/d=%d/D=%d  %8.2f %8.2f %14.2f %17.2f %13.2f %9.2f\n", n, d, D, gbest * 1e3, cbest * 1e3,
		       best * 1e3, tot[reps / 2] * 1e3, cpubest * 1e3, floor);
		free(X); free(W); free(b); free(Z);
	}
	return 0;
}
