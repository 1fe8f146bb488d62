/* Pareto fronts and the space encoding, table-driven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/search.h"
#include "search/search_private.h"

/* A point given by (latency seconds, dsp, bram18k) and its index. */
struct pt {
	uint64_t index;
	double latency;
	int64_t dsp;
	int64_t bram;
};

struct front_case {
	const char *what;
	int n_obj;
	int obj[3];
	int n;
	struct pt pts[8];
	int n_expect;
	uint64_t expect[8];	/* indices of the front, in sorted order */
};

static const struct front_case front_cases[] = {
	{ "one point", 2, { SIM_M_LATENCY, SIM_M_DSP }, 1,
	  { { 7, 1.0, 10, 0 } }, 1, { 7 } },
	{ "trade-off kept, dominated dropped", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 4,
	  { { 0, 1.0, 100, 0 }, { 1, 2.0, 50, 0 }, { 2, 3.0, 60, 0 },
	    { 3, 0.5, 400, 0 } },
	  3, { 3, 0, 1 } },
	{ "full tie keeps the smaller index", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 3,
	  { { 9, 1.0, 10, 0 }, { 4, 1.0, 10, 0 }, { 6, 1.0, 10, 0 } },
	  1, { 4 } },
	{ "equal in one objective, better in the other", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 3,
	  { { 1, 1.0, 10, 0 }, { 2, 1.0, 8, 0 }, { 3, 0.9, 10, 0 } },
	  2, { 3, 2 } },
	{ "three objectives keep a point best in bram only", 3,
	  { SIM_M_LATENCY, SIM_M_DSP, SIM_M_BRAM18K }, 3,
	  { { 1, 1.0, 10, 50 }, { 2, 2.0, 20, 5 }, { 3, 2.0, 20, 6 } },
	  2, { 1, 2 } },
	{ "a late point removes several", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 4,
	  { { 1, 3.0, 30, 0 }, { 2, 4.0, 20, 0 }, { 3, 5.0, 10, 0 },
	    { 4, 1.0, 5, 0 } },
	  1, { 4 } },
	{ "maximised throughput", 2, { SIM_M_GOPS, SIM_M_DSP }, 3,
	  { { 1, 1.0, 10, 0 }, { 2, 0.5, 20, 0 }, { 3, 2.0, 20, 0 } },
	  2, { 2, 1 } },
};

static search_point make_point(const struct pt *p)
{
	search_point s;

	memset(&s, 0, sizeof(s));
	s.index = p->index;
	s.metrics.latency_s = p->latency;
	s.metrics.gops = 1.0 / p->latency;
	s.metrics.dsp = p->dsp;
	s.metrics.bram18k = p->bram;
	return s;
}

static void check_front(const struct front_case *c, const search_front *f)
{
	size_t i;

	assert_int_equal(search_front_size(f), c->n_expect);
	for (i = 0; i < (size_t) c->n_expect; i++)
		assert_int_equal(search_front_at(f, i)->index, c->expect[i]);
}

/* The points of c added in order to a front of the given band. */
static search_front *build(const struct front_case *c, double band)
{
	search_front *f = search_front_alloc_band(c->n_obj, c->obj, band);
	int i;

	assert_non_null(f);
	for (i = 0; i < c->n; i++) {
		search_point p = make_point(&c->pts[i]);

		assert_true(search_front_add(f, &p) >= 0);
	}
	search_front_sort(f);
	return f;
}

static void test_front_table(void **state)
{
	size_t t;

	(void) state;
	for (t = 0; t < sizeof(front_cases) / sizeof(front_cases[0]); t++) {
		const struct front_case *c = &front_cases[t];
		search_front *f = build(c, 0.0);

		print_message("case: %s\n", c->what);
		check_front(c, f);
		search_front_free(f);
	}
}

/* Epsilon bands: which points lie within (1 + band) of the front. */
struct band_case {
	double band;
	struct front_case c;
};

static const struct band_case band_cases[] = {
	{ 0.1, { "within 10% in both objectives kept, beyond dropped", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 7,
	  { { 0, 1.0, 100, 0 }, { 1, 1.05, 100, 0 }, { 2, 1.2, 100, 0 },
	    { 3, 1.2, 120, 0 }, { 4, 2.0, 50, 0 }, { 5, 2.1, 54, 0 },
	    { 6, 2.3, 56, 0 } },
	  5, { 0, 1, 2, 4, 5 } } },
	{ 0.0, { "band 0 is the plain front", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 7,
	  { { 0, 1.0, 100, 0 }, { 1, 1.05, 100, 0 }, { 2, 1.2, 100, 0 },
	    { 3, 1.2, 120, 0 }, { 4, 2.0, 50, 0 }, { 5, 2.1, 54, 0 },
	    { 6, 2.3, 56, 0 } },
	  2, { 0, 4 } } },
	{ 0.25, { "a maximised objective is divided", 2,
	  { SIM_M_GOPS, SIM_M_DSP }, 3,
	  { { 1, 1.0, 10, 0 }, { 2, 1.2, 10, 0 }, { 3, 1.3, 13, 0 } },
	  2, { 1, 2 } } },
	{ 0.1, { "equal points are all within the band", 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 3,
	  { { 5, 1.0, 10, 0 }, { 3, 1.0, 10, 0 }, { 8, 1.5, 20, 0 } },
	  2, { 3, 5 } } },
	{ 0.1, { "a zero objective stays zero when widened", 3,
	  { SIM_M_LATENCY, SIM_M_DSP, SIM_M_BRAM18K }, 4,
	  { { 1, 1.0, 10, 0 }, { 2, 1.05, 10, 0 }, { 3, 2.0, 20, 0 },
	    { 4, 1.2, 12, 1 } },
	  2, { 1, 2 } } },
};
#define N_BAND_CASES (sizeof(band_cases) / sizeof(band_cases[0]))

static void test_band_table(void **state)
{
	size_t t;

	(void) state;
	for (t = 0; t < N_BAND_CASES; t++) {
		search_front *f = build(&band_cases[t].c, band_cases[t].band);

		print_message("band case: %s\n", band_cases[t].c.what);
		check_front(&band_cases[t].c, f);
		search_front_free(f);
	}
	assert_null(search_front_alloc_band(2, band_cases[0].c.obj, -0.1));
}

/* band_max keeps the points closest to the plain front: in the first
 * band case the front (0, 4) is at 1, point 1 at 1.05, 5 at 1.08 (its
 * dsp), 2 at 1.2.
 */
static void test_band_cut(void **state)
{
	static const struct {
		size_t max;
		size_t cut;
		int n;
		uint64_t keep[5];
	} cuts[] = {
		{ 10, 0, 5, { 0, 1, 2, 4, 5 } },
		{ 5, 0, 5, { 0, 1, 2, 4, 5 } },
		{ 4, 1, 4, { 0, 1, 4, 5 } },
		{ 3, 2, 3, { 0, 1, 4 } },
		{ 2, 3, 2, { 0, 4 } },
		{ 1, 4, 1, { 0 } },
	};
	size_t t, cut;
	int i;

	(void) state;
	for (t = 0; t < sizeof(cuts) / sizeof(cuts[0]); t++) {
		search_front *f = build(&band_cases[0].c, band_cases[0].band);

		assert_int_equal(search__front_cut(f, cuts[t].max, &cut), 0);
		assert_int_equal(cut, cuts[t].cut);
		assert_int_equal(search_front_size(f), cuts[t].n);
		for (i = 0; i < cuts[t].n; i++)
			assert_int_equal(search_front_at(f, i)->index,
				cuts[t].keep[i]);
		search_front_free(f);
	}
}

/* Any split of the points into two fronts (or bands), merged, gives the
 * same set as adding them all to one, whatever the insertion order.
 */
static void split_merge(const struct front_case *c, double band)
{
	unsigned mask;

	for (mask = 0; mask < (1u << c->n); mask++) {
		search_front *a = search_front_alloc_band(c->n_obj, c->obj,
			band);
		search_front *b = search_front_alloc_band(c->n_obj, c->obj,
			band);
		int i;

		for (i = c->n - 1; i >= 0; i--) {
			search_point p = make_point(&c->pts[i]);

			search_front_add(mask >> i & 1 ? a : b, &p);
		}
		assert_int_equal(search_front_merge(b, a, NULL), dse_stat_ok);
		search_front_sort(b);
		check_front(c, b);
		search_front_free(a);
		search_front_free(b);
	}
}

static void test_front_split_merge(void **state)
{
	size_t t;

	(void) state;
	for (t = 0; t < sizeof(front_cases) / sizeof(front_cases[0]); t++)
		split_merge(&front_cases[t], 0.0);
	for (t = 0; t < N_BAND_CASES; t++)
		split_merge(&band_cases[t].c, band_cases[t].band);
}

/* Restoring a saved front (what --resume does) gives the front adding
 * its points one by one gives: the same points, whatever their order,
 * for plain fronts, bands and thinned fronts, into an empty front (taken
 * as they are) and into one that already holds points (offered one by
 * one).  The points lie near a trade-off curve so that most are kept.
 */
struct restore_case {
	int n_obj;
	double band;
	double resolution;	/* 0: exact */
	size_t front_max;	/* 0: none */
	int n;
	int preload;		/* points already in the front restored into */
};

static const struct restore_case restore_cases[] = {
	{ 2, 0.0, 0.0, 0, 3000, 0 },
	{ 3, 0.0, 0.0, 0, 3000, 0 },
	{ 2, 0.05, 0.0, 0, 3000, 0 },
	{ 3, 0.1, 0.0, 0, 2000, 0 },
	{ 2, 0.0, 0.01, 0, 3000, 0 },
	{ 3, 0.0, 0.0, 1000, 4000, 0 },
	{ 2, 0.05, 0.0, 0, 2000, 50 },
};

/* A point of a seeded curve: latency x dsp about constant, bram noise. */
static search_point curve_point(uint64_t *seed, uint64_t index)
{
	search_point s;
	double u, v;

	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	u = (double) (*seed >> 11) / (double) (1ULL << 53);
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	v = (double) (*seed >> 11) / (double) (1ULL << 53);
	memset(&s, 0, sizeof(s));
	s.index = index;
	s.metrics.latency_s = 1e-3 * (1.0 + 99.0 * u);
	s.metrics.gops = 1.0 / s.metrics.latency_s;
	s.metrics.dsp = (int64_t) (1e5 / (1.0 + 99.0 * u) * (1.0 + 0.2 * v));
	s.metrics.bram18k = (int64_t) (1000.0 * v);
	return s;
}

static search_front *restore_front(const struct restore_case *c)
{
	static const int obj[3] = { SIM_M_LATENCY, SIM_M_DSP, SIM_M_BRAM18K };
	search_front *f = search_front_alloc_band(c->n_obj, obj, c->band);

	assert_non_null(f);
	assert_int_equal(search_front_limit(f, c->front_max, c->resolution),
		0);
	return f;
}

static void test_restore(void **state)
{
	(void) state;
	for (size_t t = 0; t < sizeof(restore_cases) /
			sizeof(restore_cases[0]); t++) {
		const struct restore_case *c = &restore_cases[t];
		search_front *a = restore_front(c), *b = restore_front(c);
		search_front *kept = restore_front(c);
		search_point *saved, pre;
		uint64_t seed = 12345 + t, pseed = 99;
		size_t n, i;

		for (int i2 = 0; i2 < c->preload; i2++) {
			pre = curve_point(&pseed, 1000000 + (uint64_t) i2);
			assert_true(search_front_add(a, &pre) >= 0);
			assert_true(search_front_add(b, &pre) >= 0);
		}
		/* "kept" is what a search kept; its points, reversed, are
		 * what a checkpoint saved.
		 */
		for (int i2 = 0; i2 < c->n; i2++) {
			search_point p = curve_point(&seed, (uint64_t) i2);

			assert_true(search_front_add(kept, &p) >= 0);
		}
		n = search_front_size(kept);
		assert_true(n > 10);
		saved = malloc(n * sizeof(*saved));
		assert_non_null(saved);
		for (i = 0; i < n; i++)
			saved[i] = *search_front_at(kept, n - 1 - i);
		assert_int_equal(search__front_raise(b,
			search__front_level(kept)), 0);
		assert_int_equal(search__front_raise(a,
			search__front_level(kept)), 0);
		for (i = 0; i < n; i++)
			assert_true(search_front_add(a, &saved[i]) >= 0);
		assert_int_equal(search__front_restore(b, saved, n), 0);
		search_front_sort(a);
		search_front_sort(b);
		assert_int_equal(search_front_size(a), search_front_size(b));
		for (i = 0; i < search_front_size(a); i++)
			assert_int_equal(search_front_at(a, i)->index,
				search_front_at(b, i)->index);
		free(saved);
		search_front_free(kept);
		search_front_free(a);
		search_front_free(b);
	}
}

struct space_case {
	int n;
	int sizes[4];
	uint64_t total;
};

static const struct space_case space_cases[] = {
	{ 1, { 5 }, 5 },
	{ 3, { 2, 3, 4 }, 24 },
	{ 4, { 1, 7, 1, 3 }, 21 },
};

/* Decoding every index gives every combination once, in odometer order
 * with knob 0 most significant.
 */
static void test_space_decode(void **state)
{
	size_t t;

	(void) state;
	for (t = 0; t < sizeof(space_cases) / sizeof(space_cases[0]); t++) {
		const struct space_case *c = &space_cases[t];
		search_space *s = search_space_alloc(c->n);
		int32_t knobs[SEARCH_MAX_KNOBS];
		uint64_t idx, expect_code = 0;
		int k;

		for (k = 0; k < c->n; k++) {
			int64_t v[8];
			int i;

			for (i = 0; i < c->sizes[k]; i++)
				v[i] = 10 * (k + 1) + i;
			assert_int_equal(search_space_set_knob(s, k, "knob", v,
				c->sizes[k], NULL), dse_stat_ok);
		}
		assert_int_equal(search_space_size(s), c->total);
		for (idx = 0; idx < c->total; idx++) {
			uint64_t code = 0;

			search_space_decode(s, idx, knobs);
			for (k = 0; k < c->n; k++)
				code = code * c->sizes[k] +
					(knobs[k] - 10 * (k + 1));
			assert_int_equal(code, expect_code++);
		}
		search_space_free(s);
	}
}

static void test_space_errors(void **state)
{
	search_space *s = search_space_alloc(2);
	int64_t big = INT64_C(1) << 40, ok = 4;
	dse_error err;

	(void) state;
	assert_null(search_space_alloc(0));
	assert_null(search_space_alloc(SEARCH_MAX_KNOBS + 1));
	assert_int_equal(search_space_set_knob(s, 0, "a", &ok, 0, &err),
		dse_stat_error);
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_int_equal(search_space_set_knob(s, 1, "b", &big, 1, &err),
		dse_stat_error);
	assert_non_null(strstr(err.msg, "32 bits"));
	assert_int_equal(search_space_set_knob(s, 5, "c", &ok, 1, &err),
		dse_stat_error);
	search_space_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_front_table),
		cmocka_unit_test(test_front_split_merge),
		cmocka_unit_test(test_band_table),
		cmocka_unit_test(test_band_cut),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_space_decode),
		cmocka_unit_test(test_space_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
