/* Fronts bounded by search_front_limit, table-driven: the bound holds
 * after every point, a thinned front still covers every point offered
 * within (1 + eps)^2, a box front is the same however its points were
 * split and merged, and the thinning level survives serialisation.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/search.h"
#include "search/search_private.h"

static const int objectives[4] = { SIM_M_LATENCY, SIM_M_ENERGY, SIM_M_LUT,
	SIM_M_GOPS };

/* A small generator of our own, so the points do not depend on libc. */
static double uniform(uint64_t *s)
{
	*s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return (double) (*s >> 11) / 9007199254740992.0;
}

/* n points near a trade-off surface: the log objectives sum to a
 * constant up to the relative "noise", so with little noise most points
 * are on the exact front and it grows large.
 */
static search_point *make_points(int n_obj, size_t n, uint64_t seed,
	double noise)
{
	search_point *p = calloc(n, sizeof(*p));
	size_t k;
	int i;

	assert_non_null(p);
	for (k = 0; k < n; k++) {
		double u[4], sum = 0;

		for (i = 0; i < n_obj; i++) {
			u[i] = uniform(&seed) + 1e-3;
			sum += u[i];
		}
		for (i = 0; i < n_obj; i++)
			u[i] = u[i] / sum * (1 + noise * uniform(&seed));
		for (; i < 4; i++)
			u[i] = 0.5;
		p[k].index = k;
		p[k].metrics.latency_s = 1e-6 * exp(12 * u[0]);
		p[k].metrics.energy_j = 1e-3 * exp(12 * u[1]);
		p[k].metrics.lut = (int64_t) (100 * exp(12 * u[2]));
		p[k].metrics.gops = exp(12 * (1 - u[3]));
	}
	return p;
}

/* Whether p is no worse than q made worse by "factor" in every
 * objective (divided for the maximised throughput).
 */
static int covers(int n_obj, const search_point *p, const search_point *q,
	double factor)
{
	int i;

	for (i = 0; i < n_obj; i++) {
		double a = sim_metrics_get(&p->metrics, objectives[i]);
		double b = sim_metrics_get(&q->metrics, objectives[i]);

		if (sim_metric_minimise(objectives[i]) ? a > b * factor :
				a < b / factor)
			return 0;
	}
	return 1;
}

struct bound_case {
	const char *what;
	int n_obj;
	size_t max;
	double resolution;
	size_t n;
	uint64_t seed;
	double noise;
	int thinned;		/* whether the bound must have been reached */
};

static const struct bound_case bound_cases[] = {
	{ "small front stays exact", 2, 1000, 0, 600, 1, 0, 0 },
	{ "two objectives outgrow 1000", 2, 1000, 0, 8000, 2, 0, 1 },
	{ "three objectives outgrow 1000", 3, 1000, 0, 12000, 3, 0.02, 1 },
	{ "four objectives outgrow 2000", 4, 2000, 0, 12000, 4, 0.02, 1 },
	{ "boxes from the start, 1%", 3, 1000, 0.01, 12000, 5, 0.02, 1 },
	{ "boxes within the bound stay as asked", 3, 1000, 0.05, 900, 6,
	  0.02, 0 },
};

static void test_bound_table(void **state)
{
	size_t t, k, j;

	(void) state;
	for (t = 0; t < sizeof(bound_cases) / sizeof(bound_cases[0]); t++) {
		const struct bound_case *c = &bound_cases[t];
		search_point *p = make_points(c->n_obj, c->n, c->seed,
			c->noise);
		search_front *f = search_front_alloc(c->n_obj, objectives);
		search_front *exact = search_front_alloc(c->n_obj, objectives);
		size_t most = 0;
		double r, factor;

		print_message("case: %s\n", c->what);
		assert_int_equal(search_front_limit(f, c->max, c->resolution),
			0);
		for (k = 0; k < c->n; k++) {
			assert_true(search_front_add(f, &p[k]) >= 0);
			assert_true(search_front_add(exact, &p[k]) >= 0);
			assert_true(search_front_size(f) <= c->max);
			if (search_front_size(exact) > most)
				most = search_front_size(exact);
		}
		r = search_front_resolution(f);
		/* The bound is reached exactly when the exact front would
		 * have outgrown it; boxes asked for are there from the start.
		 */
		print_message("  exact front at most %zu points, kept %zu, "
			"eps %g\n", most, search_front_size(f),
			search_front_resolution(f));
		assert_int_equal(most > c->max, c->thinned);
		if (c->resolution > 0 && !c->thinned)
			assert_true(fabs(r - c->resolution) <
				1e-9 * c->resolution);
		else if (c->resolution > 0)
			assert_true(r >= c->resolution * (1 - 1e-9));
		else
			assert_int_equal(r > 0, c->thinned);
		if (r == 0) {
			assert_int_equal(search_front_size(f),
				search_front_size(exact));
		} else if (c->thinned) {
			assert_true(search_front_size(f) <
				search_front_size(exact));
		}
		/* Every point offered is within (1 + r)^2 of one kept. */
		factor = (1 + r) * (1 + r) * (1 + 1e-12);
		for (k = 0; k < c->n; k++) {
			for (j = 0; j < search_front_size(f); j++)
				if (covers(c->n_obj, search_front_at(f, j),
						&p[k], factor))
					break;
			assert_true(j < search_front_size(f));
		}
		search_front_free(f);
		search_front_free(exact);
		free(p);
	}
}

struct split_case {
	int n_obj;
	double resolution;
	size_t n;
	int parts;
	uint64_t seed;
};

static const struct split_case split_cases[] = {
	{ 2, 0.01, 5000, 2, 11 },
	{ 3, 0.05, 8000, 3, 12 },
	{ 4, 0.2, 8000, 4, 13 },
};

static search_front *limited(int n_obj, double resolution)
{
	search_front *f = search_front_alloc(n_obj, objectives);

	assert_non_null(f);
	assert_int_equal(search_front_limit(f, 100000, resolution), 0);
	return f;
}

/* A box front built in order equals the merge of fronts built from
 * interleaved parts in reverse order, point for point.
 */
static void test_split_table(void **state)
{
	size_t t, k;
	int i;

	(void) state;
	for (t = 0; t < sizeof(split_cases) / sizeof(split_cases[0]); t++) {
		const struct split_case *c = &split_cases[t];
		search_point *p = make_points(c->n_obj, c->n, c->seed,
			0.02);
		search_front *whole = limited(c->n_obj, c->resolution);
		search_front *merged = limited(c->n_obj, c->resolution);
		search_front *part[4];

		for (k = 0; k < c->n; k++)
			assert_true(search_front_add(whole, &p[k]) >= 0);
		for (i = 0; i < c->parts; i++)
			part[i] = limited(c->n_obj, c->resolution);
		for (k = c->n; k-- > 0;)
			assert_true(search_front_add(part[k % c->parts],
				&p[k]) >= 0);
		for (i = 0; i < c->parts; i++) {
			assert_int_equal(search_front_merge(merged, part[i],
				NULL), dse_stat_ok);
			search_front_free(part[i]);
		}
		search_front_sort(whole);
		search_front_sort(merged);
		assert_true(search_front_size(whole) > 10);
		assert_int_equal(search_front_size(whole),
			search_front_size(merged));
		for (k = 0; k < search_front_size(whole); k++)
			assert_int_equal(search_front_at(whole, k)->index,
				search_front_at(merged, k)->index);
		assert_true(search_front_resolution(whole) ==
			search_front_resolution(merged));
		search_front_free(whole);
		search_front_free(merged);
		free(p);
	}
}

/* A thinned front written and read back into an unbounded exact front
 * keeps its boxes: the reader is raised to the writer's level.
 */
static void test_level_survives_bytes(void **state)
{
	search_point *p = make_points(3, 20000, 21, 0.02);
	search_front *f = search_front_alloc(3, objectives);
	search_front *g = search_front_alloc(3, objectives);
	search__buf b = { 0 };
	search__reader rd;
	size_t k;

	(void) state;
	assert_int_equal(search_front_limit(f, 1000, 0), 0);
	for (k = 0; k < 20000; k++)
		assert_true(search_front_add(f, &p[k]) >= 0);
	assert_true(search__front_level(f) > 0);
	search__put_front(&b, f);
	assert_false(b.failed);
	rd = (search__reader) { b.p, b.n, 0, 0 };
	assert_int_equal(search__get_front(&rd, g), 0);
	assert_int_equal(search__front_level(g), search__front_level(f));
	assert_true(search_front_resolution(g) == search_front_resolution(f));
	search_front_sort(f);
	search_front_sort(g);
	assert_int_equal(search_front_size(g), search_front_size(f));
	for (k = 0; k < search_front_size(f); k++)
		assert_int_equal(search_front_at(g, k)->index,
			search_front_at(f, k)->index);
	/* A level no front reaches reads as damage. */
	memset(b.p, 0xff, 8);
	rd = (search__reader) { b.p, b.n, 0, 0 };
	assert_int_equal(search__get_front(&rd, g), -1);
	search__buf_clear(&b);
	search_front_free(f);
	search_front_free(g);
	free(p);
}

struct limit_arg_case {
	size_t max;
	double resolution;
	int rc;
};

static const struct limit_arg_case limit_args[] = {
	{ 0, 0, 0 },
	{ 1000, 0, 0 },
	{ 999, 0, -1 },
	{ 1, 0, -1 },
	{ 5000, 1e-6, 0 },
	{ 5000, 1, 0 },
	{ 5000, 1e-7, -1 },
	{ 5000, 1.5, -1 },
	{ 5000, -0.1, -1 },
	{ 5000, NAN, -1 },
};

static void test_limit_arguments(void **state)
{
	size_t t;

	(void) state;
	for (t = 0; t < sizeof(limit_args) / sizeof(limit_args[0]); t++) {
		search_front *f = search_front_alloc(2, objectives);

		assert_int_equal(search_front_limit(f, limit_args[t].max,
			limit_args[t].resolution), limit_args[t].rc);
		search_front_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_table),
		cmocka_unit_test(test_split_table),
		cmocka_unit_test(test_level_survives_bytes),
		cmocka_unit_test(test_limit_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
