/* Speed of the polyhedral analysis (poly_analyze) on the example kernels
 * at realistic sizes, one core.
 *
 * Prints one row per kernel: its loops, statements, dependences,
 * space-time candidates, I/O groups per candidate, and the best time of
 * the analysis over the runs.  Never fails on a time; exits with status 1
 * only when an analysis fails.
 *
 * Usage: bench_poly [RUNS]   (default 5)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "polyhedral/poly.h"
#include "tests/support/mm_kernel.h"

/* Each analysis runs once per sweep, before the search starts. */
#define GOAL_MS 1000.0
#define MAX_VALUES 6

struct bench_kernel {
	const char *label;
	const char *example;
	int64_t values[MAX_VALUES];	/* in the example's parameter order */
	int max_space;
};

static const struct bench_kernel kernels[] = {
	{ "mm 1024^3", "mm", { 1024, 1024, 1024 }, 0 },
	{ "mm 1024^3, 3-D arrays", "mm", { 1024, 1024, 1024 }, 3 },
	{ "mm-init 1024^3", "mm-init", { 1024, 1024, 1024 }, 0 },
	/* O, I, R, C, P, Q: a ResNet layer, 64 to 64 channels of 56x56. */
	{ "conv 64x56x56x64x3x3", "conv", { 64, 64, 56, 56, 3, 3 }, 0 },
	/* I, J, K, L: a 512^3 tensor, rank 32. */
	{ "mttkrp 512x32x512x512", "mttkrp", { 512, 32, 512, 512 }, 0 },
	/* I, J, K, L, M: a 256^3 tensor to a 256x32x32 core. */
	{ "ttmc 256x32x32x256x256", "ttmc", { 256, 32, 32, 256, 256 }, 0 },
	/* N, T: 64 taps over 64 Ki samples. */
	{ "fir 65536x64", "fir", { 65536, 64 }, 0 },
	/* E, F, V: 128 Ki edges, 128 features, 16 Ki vertices. */
	{ "gnn-agg 131072x128", "gnn-agg", { 131072, 128, 16384 }, 0 },
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

/* Runs the analysis "runs" times; prints its row and returns 0, or
 * prints the error and returns -1.
 */
static int bench_one(const struct bench_kernel *b, int runs, double *worst)
{
	poly_kernel_desc d = example_kernel_desc(
		example_kernel_find(b->example), b->values);
	poly_analysis *a = NULL;
	double best = -1;
	dse_error err;

	d.max_space = b->max_space;
	for (int r = 0; r < runs; r++) {
		double t0 = now_ms(), t;

		poly_analysis_free(a);
		a = poly_analyze(&d, &err);
		t = now_ms() - t0;
		if (!a) {
			fprintf(stderr, "bench_poly: %s: %s\n", b->label,
				err.msg);
			return -1;
		}
		if (best < 0 || t < best)
			best = t;
	}
	printf("%-26s %5d %5d %5d %5d %6d %10.2f\n", b->label, a->n_loops,
		a->n_statements, a->n_deps, a->n_candidates,
		a->cand[a->default_candidate].n_groups, best);
	*worst = best > *worst ? best : *worst;
	poly_analysis_free(a);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 5;
	double worst = 0;
	int failed = 0;

	if (runs < 1 || argc > 2) {
		fprintf(stderr, "usage: bench_poly [RUNS]\n");
		return 2;
	}
	printf("poly_analyze, best of %d run%s (one core)\n", runs,
		runs > 1 ? "s" : "");
	printf("%-26s %5s %5s %5s %5s %6s %10s\n", "kernel", "loops", "stmts",
		"deps", "cands", "groups", "ms");
	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		failed |= bench_one(&kernels[i], runs, &worst) < 0;
	printf("slowest: %.2f ms\n", worst);
	printf("goal: < %.0f ms per kernel\n", GOAL_MS);
	return failed ? 1 : 0;
}
