/* What --resume spends rebuilding a saved front: the seconds to offer a
 * band of n points one by one to an empty front (what a resumed search
 * did before) and to restore it as a saved set (search__front_restore),
 * for bands of 2 and 3 objectives.  The points lie on a trade-off curve,
 * so all of them are kept, as in the band of a large two-stage sweep.
 * Prints figures; never fails on a time.
 *
 * Usage: bench_front [n ...]     (default: 5000 20000 50000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/search.h"
#include "search/search_private.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* Point i of n on the curve latency x dsp = const (bram rising with i
 * for 3 objectives): no point beats another, even within a 5 % band
 * (neighbours differ by more).
 */
static search_point curve(size_t i, size_t n)
{
	search_point p;
	double x = 1.0 + 1e-2 * (double) i;

	(void) n;
	memset(&p, 0, sizeof(p));
	p.index = i;
	p.metrics.latency_s = x;
	p.metrics.gops = 1.0 / x;
	p.metrics.dsp = (int64_t) (1e9 / x);
	p.metrics.bram18k = (int64_t) i;
	return p;
}

static void row(size_t n, int n_obj)
{
	static const int obj[3] = { SIM_M_LATENCY, SIM_M_DSP, SIM_M_BRAM18K };
	search_point *p = malloc(n * sizeof(*p));
	search_front *a = search_front_alloc_band(n_obj, obj, 0.05);
	search_front *b = search_front_alloc_band(n_obj, obj, 0.05);
	double t0, t1, t2;

	if (!p || !a || !b) {
		fprintf(stderr, "bench_front: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < n; i++)
		p[i] = curve(i, n);
	t0 = now();
	for (size_t i = 0; i < n; i++)
		search_front_add(a, &p[i]);
	t1 = now();
	search__front_restore(b, p, n);
	t2 = now();
	printf("%9zu %5d %8zu %14.3f %12.4f %9.0fx\n", n, n_obj,
		search_front_size(b), t1 - t0, t2 - t1,
		(t1 - t0) / (t2 - t1 > 1e-9 ? t2 - t1 : 1e-9));
	search_front_free(a);
	search_front_free(b);
	free(p);
}

int main(int argc, char **argv)
{
	static const size_t dflt[] = { 5000, 20000, 50000 };

	printf("%9s %5s %8s %14s %12s %10s\n", "points", "obj", "kept",
		"one by one s", "restore s", "speed-up");
	for (int k = 2; k <= 3; k++) {
		if (argc > 1)
			for (int i = 1; i < argc; i++)
				row((size_t) strtoull(argv[i], NULL, 10), k);
		else
			for (size_t i = 0; i < 3; i++)
				row(dflt[i], k);
	}
	return 0;
}
