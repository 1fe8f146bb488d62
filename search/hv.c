/* Hypervolume of a front, as a fraction of a box [lo, ref].
 *
 * Every objective is first taken as minimised (search_objective_value) and
 * scaled so that the box becomes the unit cube; a point then dominates the
 * box from its clipped coordinates up to 1 in every objective.  Two
 * objectives: a sort and a sweep of horizontal strips, O(n log n).  Three:
 * slices along the last objective, each a two-objective sweep over the
 * points below it, O(n^2).  Four or more: Monte Carlo over the bounding box
 * of the points with a fixed seed, so a front always gives the same figure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

/* Monte Carlo samples: the standard error of a fraction estimated from N
 * samples is sqrt(f (1 - f) / N) <= 0.5 / sqrt(N), here 0.001 of the
 * bounding box.
 */
#define MC_SAMPLES (UINT64_C(1) << 18)
#define MC_SEED UINT64_C(0x5eed0f4b0c5eed01)

/* The front's points scaled into the unit box and clipped at 0; points not
 * strictly below 1 in every objective add nothing and are left out.
 * Returns the count, or (size_t) -1 on memory exhaustion; *out is malloc'd.
 */
static size_t scaled_points(const search_front *front, const double *lo,
	const double *ref, int d, int logs, double **out)
{
	size_t n = search_front_size(front), i, m = 0;
	double *u = malloc((n ? n : 1) * d * sizeof(*u));
	int j;

	*out = u;
	if (!u)
		return (size_t) -1;
	for (i = 0; i < n; i++) {
		const search_point *p = search_front_at(front, i);
		int inside = 1;

		for (j = 0; j < d; j++) {
			double x = search_objective_value(front, p, j);
			double v = logs ? (log(x) - log(lo[j])) /
				(log(ref[j]) - log(lo[j])) :
				(x - lo[j]) / (ref[j] - lo[j]);

			if (!(v < 1.0))	/* also NaN */
				inside = 0;
			u[m * d + j] = v > 0 ? v : 0;
		}
		m += inside;
	}
	return m;
}

static int cmp_xy(const void *va, const void *vb)
{
	const double *a = va, *b = vb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Two objectives over points sorted by x then y (stride "d"): the union of
 * the boxes [x, 1] x [y, 1], summed as horizontal strips.
 */
static double sweep2(const double *u, size_t n, int d)
{
	double area = 0, y = 1.0;
	size_t i;

	for (i = 0; i < n; i++) {
		const double *p = u + i * d;

		if (p[1] < y) {
			area += (1.0 - p[0]) * (y - p[1]);
			y = p[1];
		}
	}
	return area;
}

static int cmp_z(const void *va, const void *vb)
{
	const double *a = va, *b = vb;

	return (a[2] > b[2]) - (a[2] < b[2]);
}

/* Three objectives: between consecutive z values the dominated region is
 * the two-objective region of the points at or below that z.  "xy" keeps
 * those points sorted by x then y, one insertion per slice.
 */
static double slice3(double *u, size_t n)
{
	double *xy = malloc((n ? n : 1) * 3 * sizeof(*xy)), vol = 0;
	size_t i, k, m = 0;

	if (!xy)
		return NAN;
	qsort(u, n, 3 * sizeof(*u), cmp_z);
	for (i = 0; i < n; i++) {
		double *p = u + i * 3, next = i + 1 < n ? u[(i + 1) * 3 + 2] : 1;

		for (k = m; k > 0 && cmp_xy(xy + (k - 1) * 3, p) > 0; k--)
			memcpy(xy + k * 3, xy + (k - 1) * 3, 3 * sizeof(*xy));
		memcpy(xy + k * 3, p, 3 * sizeof(*xy));
		m++;
		if (next > p[2])
			vol += sweep2(xy, m, 3) * (next - p[2]);
	}
	free(xy);
	return vol;
}

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Monte Carlo over the bounding box [min point, 1] of scaled points. */
static double monte_carlo(const double *u, size_t n, int d, uint64_t samples)
{
	double low[SEARCH_MAX_OBJECTIVES], x[SEARCH_MAX_OBJECTIVES], box = 1;
	uint64_t s = MC_SEED, t, hits = 0;
	size_t i, last = 0;
	int j;

	if (n == 0 || samples == 0)
		return 0;
	for (j = 0; j < d; j++) {
		low[j] = 1;
		for (i = 0; i < n; i++)
			low[j] = u[i * d + j] < low[j] ? u[i * d + j] : low[j];
		box *= 1 - low[j];
	}
	for (t = 0; t < samples; t++) {
		for (j = 0; j < d; j++)
			x[j] = low[j] + (1 - low[j]) *
				((double) (next_random(&s) >> 11) * 0x1p-53);
		/* Try the point that covered the last sample first: samples
		 * that hit tend to hit the same large boxes.
		 */
		for (i = 0; i < n; i++) {
			size_t q = (last + i) % n;

			for (j = 0; j < d && u[q * d + j] <= x[j]; j++)
				;
			if (j == d) {
				hits++;
				last = q;
				break;
			}
		}
	}
	return box * (double) hits / (double) samples;
}

static int box_ok(int d, const double *lo, const double *ref, int logs)
{
	int j;

	for (j = 0; j < d; j++)
		if (!isfinite(lo[j]) || !isfinite(ref[j]) ||
		    !(ref[j] > lo[j]) || (logs && !(lo[j] > 0)))
			return 0;
	return 1;
}

double search__hypervolume_mc(const search_front *front, const double *lo,
	const double *ref, uint64_t samples)
{
	int d = front ? search__front_n_obj(front) : 0;
	double *u, v;
	size_t n;

	if (d < 1 || !box_ok(d, lo, ref, 0))
		return NAN;
	n = scaled_points(front, lo, ref, d, 0, &u);
	v = n == (size_t) -1 ? NAN : monte_carlo(u, n, d, samples);
	free(u);
	return v;
}

/* The hypervolume in the box [lo, ref] of the objectives, or of their
 * logarithms when "logs" is set.
 */
static double hypervolume(const search_front *front, const double *lo,
	const double *ref, int logs)
{
	int d = front ? search__front_n_obj(front) : 0;
	double *u, v = 0, best = 1;
	size_t n, i;

	if (d < 1 || !box_ok(d, lo, ref, logs))
		return NAN;
	n = scaled_points(front, lo, ref, d, logs, &u);
	if (n == (size_t) -1)
		return NAN;
	if (d == 1) {
		for (i = 0; i < n; i++)
			best = u[i] < best ? u[i] : best;
		v = 1 - best;
	} else if (d == 2) {
		qsort(u, n, 2 * sizeof(*u), cmp_xy);
		v = sweep2(u, n, 2);
	} else if (d == 3) {
		v = slice3(u, n);
	} else {
		v = monte_carlo(u, n, d, MC_SAMPLES);
	}
	free(u);
	return v;
}

double search_front_hypervolume(const search_front *front, const double *lo,
	const double *ref)
{
	return hypervolume(front, lo, ref, 0);
}

double search_front_hypervolume_log(const search_front *front,
	const double *lo, const double *ref)
{
	return hypervolume(front, lo, ref, 1);
}
