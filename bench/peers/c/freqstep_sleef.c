// freqstep_sleef: the C peer of BenchmarkFrequencyStep (bench/hotpaths_test.go).
// One evaluation of the GBRFF2 frequency objective and its gradient,
//
//	L = (1/n) Σ_i exp(−ỹ_i·cos(ω·x_i − b)) + λ‖ω‖²
//	∇L = (1/n) Σ_i ỹ_i·sin(ω·x_i − b)·e^{−ỹ_i cos(ω·x_i − b)}·x_i + 2λω,
//
// fused into one pass over X with SLEEF's u10 (≤ 1 ULP) vector sincos and exp
// on AVX-512, eight samples per vector, at n = 100000, d = 20, one thread.
// Two data layouts: rfkit's (float32 panels of 64 samples × d, widened to
// double on load: the bytes rfkit's AVX-512 FreqStep reads at this size) and
// the plain one (row-major float64, gathered eight rows at a time). Both keep
// the d gradient sums in vector registers. It prints the fastest and the
// median evaluation of each (CPU and wall milliseconds).
// Built and run by freqstep-sleef.sh (make bench-peers-freqstep); a measuring
// tool only: rfkit never links C.
#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peers.h"

enum { N = 100000, D = 20, PANEL = 64 };

static double hsum(__m512d v) { return _mm512_reduce_add_pd(v); }

// finish turns the lane sums into L and ∇L (the regulariser added).
static double finish(__m512d acc, const __m512d *g, const double *om, double lambda, double *grad) {
	double sq = 0;
	for (int k = 0; k < D; k++) {
		grad[k] = hsum(g[k]) / N + 2 * lambda * om[k];
		sq += om[k] * om[k];
	}
	return hsum(acc) / N + lambda * sq;
}

// The body shared by both layouts: given the widened columns xk[k] of eight
// samples, their ỹ and b, add to the loss and gradient accumulators.
#define BODY(LOADCOL)                                                            \
	do {                                                                         \
		__m512d xk[D];                                                           \
		__m512d p = _mm512_setzero_pd();                                         \
		for (int k = 0; k < D; k++) {                                            \
			xk[k] = LOADCOL(k);                                                  \
			p = _mm512_fmadd_pd(_mm512_set1_pd(om[k]), xk[k], p);                \
		}                                                                        \
		Sleef___m512d_2 sc = Sleef_sincosd8_u10avx512f(_mm512_sub_pd(p, vb));     \
		__m512d y = _mm512_loadu_pd(yt + i);                                     \
		__m512d e = Sleef_expd8_u10avx512f(_mm512_mul_pd(_mm512_sub_pd(zero, y), sc.y)); \
		acc = _mm512_add_pd(acc, e);                                             \
		__m512d r = _mm512_mul_pd(_mm512_mul_pd(y, sc.x), e);                    \
		for (int k = 0; k < D; k++) g[k] = _mm512_fmadd_pd(r, xk[k], g[k]);      \
	} while (0)

static double eval_panels(const float *x32, const double *yt, const double *om, double b, double lambda, double *grad) {
	__m512d g[D], acc = _mm512_setzero_pd(), vb = _mm512_set1_pd(b), zero = _mm512_setzero_pd();
	for (int k = 0; k < D; k++) g[k] = _mm512_setzero_pd();
	for (int i = 0; i < N; i += 8) {
		const float *panel = x32 + (size_t)(i / PANEL) * PANEL * D + (i % PANEL);
#define PANELCOL(k) _mm512_cvtps_pd(_mm256_loadu_ps(panel + (k) * PANEL))
		BODY(PANELCOL);
	}
	return finish(acc, g, om, lambda, grad);
}

static double eval_rows(const double *x, const double *yt, const double *om, double b, double lambda, double *grad) {
	__m512d g[D], acc = _mm512_setzero_pd(), vb = _mm512_set1_pd(b), zero = _mm512_setzero_pd();
	__m512i idx = _mm512_mullo_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(D));
	for (int k = 0; k < D; k++) g[k] = _mm512_setzero_pd();
	for (int i = 0; i < N; i += 8) {
		const double *rows = x + (size_t)i * D;
#define ROWCOL(k) _mm512_i64gather_pd(idx, rows + (k), 8)
		BODY(ROWCOL);
	}
	return finish(acc, g, om, lambda, grad);
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

typedef double (*evalfn)(const void *, const double *, const double *, double, double, double *);

static void timeit(const char *name, evalfn f, const void *x, const double *yt, const double *om, int reps) {
	double grad[D], cpu[1000], wall[1000], loss = 0;
	if (reps > 1000) reps = 1000;
	for (int r = 0; r < reps; r++) {
		double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
		loss = f(x, yt, om, 0.7, 0.01, grad);
		cpu[r] = 1e3 * (now(CLOCK_PROCESS_CPUTIME_ID) - c0);
		wall[r] = 1e3 * (now(CLOCK_MONOTONIC) - w0);
	}
	qsort(cpu, reps, sizeof cpu[0], cmp);
	qsort(wall, reps, sizeof wall[0], cmp);
	printf("freqstep-sleef layout=%-22s n=%d d=%d reps=%d  min-ms %.4f  median-ms %.4f  cpu-min-ms %.4f  cpu-median-ms %.4f  (loss %.6f grad0 %.6f)\n",
	       name, N, D, reps, wall[0], wall[reps / 2], cpu[0], cpu[reps / 2], loss, grad[0]);
}

int main(int argc, char **argv) {
	int reps = argc > 1 ? atoi(argv[1]) : 300;
	double *x = malloc(sizeof(double) * N * D), *yt = malloc(sizeof(double) * N), om[D];
	size_t padded = (size_t)(N + PANEL - 1) / PANEL * PANEL * D; // the last panel is part-filled
	float *x32 = aligned_alloc(64, sizeof(float) * padded);
	memset(x32, 0, sizeof(float) * padded);
	for (size_t i = 0; i < (size_t)N * D; i++) x[i] = normal();
	for (int i = 0; i < N; i++) yt[i] = normal();
	for (int k = 0; k < D; k++) om[k] = normal() / sqrt(D);
	for (int i = 0; i < N; i++) // panels of 64 samples, column k of a panel contiguous
		for (int k = 0; k < D; k++)
			x32[(size_t)(i / PANEL) * PANEL * D + k * PANEL + i % PANEL] = (float)x[(size_t)i * D + k];
	printf("freqstep-sleef: SLEEF u10 avx512f sincos + exp, one thread, fused pass (GBRFF2 frequency step)\n");
	timeit("float32-panels-64", (evalfn)eval_panels, x32, yt, om, reps);
	timeit("float64-rows", (evalfn)eval_rows, x, yt, om, reps);
	return 0;
}
