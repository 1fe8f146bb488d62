/* Hypervolume: hand-computed 2-D and 3-D fronts, clipping to the box,
 * maximised metrics, random 3-D fronts against inclusion-exclusion, and
 * the Monte Carlo estimate against exact figures.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "search/search.h"
#include "search/search_private.h"

/* Metrics that hold any value: the objectives below are all doubles
 * except offchip_bytes (used with integer values).
 */
static const int objs[4] = {
	SIM_M_LATENCY, SIM_M_ENERGY, SIM_M_EDP, SIM_M_OFFCHIP
};

static void set_obj(search_point *p, int metric, double v)
{
	switch (metric) {
	case SIM_M_LATENCY:
		p->metrics.latency_s = v;
		break;
	case SIM_M_ENERGY:
		p->metrics.energy_j = v;
		break;
	case SIM_M_EDP:
		p->metrics.edp = v;
		break;
	case SIM_M_GOPS:
		p->metrics.gops = v;
		break;
	default:
		p->metrics.offchip_bytes = (int64_t) v;
	}
}

/* A front of n points of d objectives (objective list "obj"). */
static search_front *make_front(int d, const int *obj, const double *pts,
	size_t n)
{
	search_front *f = search_front_alloc(d, obj);
	search_point p;
	size_t i;
	int j;

	assert_non_null(f);
	for (i = 0; i < n; i++) {
		memset(&p, 0, sizeof(p));
		p.index = i;
		for (j = 0; j < d; j++)
			set_obj(&p, obj[j], pts[i * d + j]);
		assert_true(search_front_add(f, &p) >= 0);
	}
	return f;
}

struct hv_case {
	const char *what;
	int d;
	int n;
	double pts[4 * 3];
	double lo[3];
	double ref[3];
	double expect;
};

/* Expected values worked out by hand, as a fraction of the box. */
static const struct hv_case cases[] = {
	{ "1-D: one value", 1, 2, { 3, 5 }, { 2 }, { 6 }, 3.0 / 4 },
	{ "2-D staircase", 2, 3, { 1, 3, 2, 2, 3, 1 }, { 0, 0 }, { 4, 4 },
	  (3.0 + 2.0 + 1.0) / 16 },
	{ "2-D dominated point adds nothing", 2, 2, { 1, 1, 2, 2 },
	  { 0, 0 }, { 4, 4 }, 9.0 / 16 },
	{ "2-D clipped below lo", 2, 1, { -1, 3 }, { 0, 0 }, { 4, 4 },
	  4.0 / 16 },
	{ "2-D beyond ref adds nothing", 2, 3, { 5, 1, 2, 5, 2, 2 },
	  { 0, 0 }, { 4, 4 }, 4.0 / 16 },
	{ "2-D on ref adds nothing", 2, 1, { 4, 0 }, { 0, 0 }, { 4, 4 },
	  0 },
	{ "2-D lo not at zero", 2, 2, { 2, 3, 3, 2 }, { 1, 1 }, { 5, 5 },
	  (3.0 * 2 + 2.0 * 1) / 16 },
	{ "3-D one point", 3, 1, { 1, 1, 1 }, { 0, 0, 0 }, { 2, 2, 2 },
	  1.0 / 8 },
	{ "3-D two overlapping boxes", 3, 2, { 0, 0, 1, 1, 1, 0 },
	  { 0, 0, 0 }, { 2, 2, 2 }, (4.0 + 2.0 - 1.0) / 8 },
	{ "3-D three axis points", 3, 3, { 0, 1, 1, 1, 0, 1, 1, 1, 0 },
	  { 0, 0, 0 }, { 2, 2, 2 }, (3 * 2.0 - 3 * 1.0 + 1.0) / 8 },
	{ "3-D clipped on two sides", 3, 1, { -3, 1, 5 }, { 0, 0, 0 },
	  { 2, 2, 2 }, 0 },
	{ "3-D clipped below", 3, 1, { -3, 1, 1 }, { 0, 0, 0 },
	  { 2, 2, 2 }, 2.0 * 1 * 1 / 8 },
};

static void test_hand_computed(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct hv_case *k = &cases[c];
		search_front *f = make_front(k->d, objs, k->pts, k->n);
		double v = search_front_hypervolume(f, k->lo, k->ref);

		print_message("%s: %g (expect %g)\n", k->what, v, k->expect);
		assert_true(fabs(v - k->expect) < 1e-12);
		search_front_free(f);
	}
}

/* GOPS is maximised: v counts as 1/v.  GOPS 2 and 4 are 0.5 and 0.25. */
static void test_maximised(void **state)
{
	const int obj[2] = { SIM_M_LATENCY, SIM_M_GOPS };
	const double pts[] = { 1, 2, 3, 4 };
	const double lo[2] = { 0, 0 }, ref[2] = { 4, 1 };
	search_front *f = make_front(2, obj, pts, 2);
	search_point p;

	(void) state;
	memset(&p, 0, sizeof(p));
	p.metrics.gops = 4;
	assert_true(search_objective_value(f, &p, 1) == 0.25);
	p.metrics.latency_s = 3;
	assert_true(search_objective_value(f, &p, 0) == 3);
	/* Strips: (1, 0.5): 3 x 0.5; (3, 0.25): 1 x 0.25. */
	assert_true(fabs(search_front_hypervolume(f, lo, ref) -
		(1.5 + 0.25) / 4) < 1e-12);
	search_front_free(f);
}

static void test_bad_boxes(void **state)
{
	const double pts[] = { 1, 1 };
	search_front *f = make_front(2, objs, pts, 1);
	search_front *e = make_front(2, objs, pts, 0);
	const double lo[2] = { 0, 0 };
	const double bad_ref[][2] = {
		{ 0, 4 }, { 4, -1 }, { INFINITY, 4 }, { 4, NAN }
	};
	const double ok[2] = { 4, 4 }, bad_lo[2] = { -INFINITY, 0 };
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad_ref) / sizeof(bad_ref[0]); i++)
		assert_true(isnan(search_front_hypervolume(f, lo, bad_ref[i])));
	assert_true(isnan(search_front_hypervolume(f, bad_lo, ok)));
	assert_true(search_front_hypervolume(e, lo, ok) == 0);
	search_front_free(f);
	search_front_free(e);
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The volume of the union of boxes [p_i, 1]^3 by inclusion-exclusion
 * over every subset: independent of the slicing code.
 */
static double union_volume(const double *u, int n, int d)
{
	double total = 0;
	unsigned mask;
	int i, j, bits;

	for (mask = 1; mask < (1u << n); mask++) {
		double vol = 1, corner;

		for (j = 0; j < d; j++) {
			corner = 0;
			for (i = 0; i < n; i++)
				if (mask & (1u << i) && u[i * d + j] > corner)
					corner = u[i * d + j];
			vol *= 1 - corner;
		}
		bits = __builtin_popcount(mask);
		total += bits % 2 ? vol : -vol;
	}
	return total;
}

/* Random 3-D fronts in the unit box: slicing matches inclusion-exclusion
 * exactly, and Monte Carlo with 2^18 samples is within 1%.
 */
static void test_random_3d(void **state)
{
	const double lo[4] = { 0, 0, 0, 0 }, ref[4] = { 1, 1, 1, 1 };
	uint64_t s = 12345;
	double pts[10 * 3];
	int trial, i;

	(void) state;
	for (trial = 0; trial < 40; trial++) {
		int n = 1 + (int) (rng(&s) % 10);
		search_front *f;
		double exact, v, mc;

		for (i = 0; i < n * 3; i++)
			pts[i] = (double) (rng(&s) % 1000) / 1000;
		f = make_front(3, objs, pts, (size_t) n);
		/* Dominated points and duplicates add nothing, so the union
		 * over all n points is the front's hypervolume.
		 */
		exact = union_volume(pts, n, 3);
		v = search_front_hypervolume(f, lo, ref);
		assert_true(fabs(v - exact) < 1e-12);
		if (trial < 8) {
			mc = search__hypervolume_mc(f, lo, ref, 1u << 18);
			print_message("3-D trial %d: exact %.6f, Monte Carlo "
				"%.6f\n", trial, exact, mc);
			assert_true(fabs(mc - exact) <= 0.01 * exact);
		}
		search_front_free(f);
	}
}

/* Four objectives go through Monte Carlo: within 1% of inclusion-
 * exclusion (offchip_bytes takes integers, so the box is scaled by 1000).
 */
static void test_four_objectives(void **state)
{
	const double lo[4] = { 0, 0, 0, 0 }, ref[4] = { 1, 1, 1, 1000 };
	double pts[6 * 4], u[6 * 4];
	uint64_t s = 777;
	int trial, i;

	(void) state;
	for (trial = 0; trial < 5; trial++) {
		int n = 2 + trial;
		search_front *f;
		double exact, v;

		for (i = 0; i < n * 4; i++) {
			double k = (double) (rng(&s) % 600);

			pts[i] = i % 4 == 3 ? k : k / 1000;
			u[i] = k / 1000;
		}
		f = make_front(4, objs, pts, (size_t) n);
		exact = union_volume(u, n, 4);
		v = search_front_hypervolume(f, lo, ref);
		print_message("4-D trial %d: exact %.6f, estimate %.6f\n",
			trial, exact, v);
		assert_true(fabs(v - exact) <= 0.01 * exact);
		/* The same front gives the same figure. */
		assert_true(v == search_front_hypervolume(f, lo, ref));
		search_front_free(f);
	}
}

/* On logarithms, worked by hand in decades: the box [1, 100] x [1, 1000]
 * is 2 x 3 decades; (1, 100) sits at (0, 2/3) of it and (10, 10) at
 * (1/2, 1/3).  The first dominates 1 x 1/3 of the unit box, the second
 * adds 1/2 x 1/3: together 1/2.  The same front on the plain values
 * dominates only (99 * 900 + 90 * 90) / (99 * 999) of its box.
 */
static void test_logs(void **state)
{
	static const int obj[2] = { SIM_M_LATENCY, SIM_M_ENERGY };
	static const double pts[4] = { 1, 100, 10, 10 };
	const double lo[2] = { 1, 1 }, ref[2] = { 100, 1000 };
	const double zero[2] = { 0, 1 };
	search_front *f = make_front(2, obj, pts, 2);

	(void) state;
	assert_true(fabs(search_front_hypervolume_log(f, lo, ref) - 0.5) <
		1e-12);
	assert_true(fabs(search_front_hypervolume(f, lo, ref) -
		(99.0 * 900 + 90.0 * 90) / (99.0 * 999)) < 1e-12);
	/* A logarithmic box must start above zero. */
	assert_true(isnan(search_front_hypervolume_log(f, zero, ref)));
	search_front_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_logs),
		cmocka_unit_test(test_maximised),
		cmocka_unit_test(test_bad_boxes),
		cmocka_unit_test(test_random_3d),
		cmocka_unit_test(test_four_objectives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
