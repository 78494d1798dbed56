// peers.h: what the C peers share (a measuring tool only: rfkit never links C).
// The random numbers are xorshift64* draws, the same in every peer; the clock
// reads CPU or wall time in seconds.
#ifndef RFKIT_PEERS_H
#define RFKIT_PEERS_H
#include <math.h>
#include <stdint.h>
#include <time.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(void) { // xorshift64*, in (0, 1)
	rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
	return ((rng * 2685821657736338717ull) >> 11) * 0x1p-53 + 0x1p-54;
}
static double normal(void) { return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform()); }

static double now(clockid_t c) {
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}
#endif
