/* The template of one candidate (what the models see) and the integer
 * formulas on it: footprints and inner runs of hand-computed tiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/polyhedral/poly_test.h"

#define MM16 { 16, 16, 16 }
#define CONV_SMALL { 8, 4, 6, 6, 3, 3 }	/* O, I, R, C, P, Q */

/* "i j" for the loop indices in idx[0..n), "-" for none. */
static void fmt_loops(const poly_template *t, const int *idx, int n,
	char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len + 1 < size; i++)
		len += (size_t) snprintf(buf + len, size - len, "%s%s",
			i ? " " : "", idx[i] >= 0 && idx[i] < t->n_loops ?
			t->loop[idx[i]] : "?");
	if (!n)
		snprintf(buf, size, "-");
}

struct template_case {
	const char *kernel;
	int64_t values[MAX_VALUES];
	int max_space;
	int space_time;		/* -1: the default candidate */
	int build;		/* also compare with poly_template_build */
	/* expected */
	int index;
	const char *order, *space, *latency, *simd;
};

/* The template's loops are AutoSA's order for the candidate: the space
 * loops outermost in the band's order, then the other loops as written
 * (so mm's space_time[5], space j,k, runs j k i).  The latency loops are
 * the parallel band loops but the SIMD loop, in that order; the SIMD loop
 * is dropped when it is a space loop.
 */
static const struct template_case cases[] = {
	{ "mm", MM16, 0, 3, 1, 3, "i j k", "i j", "i j", "k" },
	{ "mm", MM16, 0, -1, 1, 3, "i j k", "i j", "i j", "k" },
	{ "mm", MM16, 0, 0, 0, 0, "i j k", "i", "i j", "k" },
	{ "mm", MM16, 0, 1, 0, 1, "j i k", "j", "j i", "k" },
	{ "mm", MM16, 0, 2, 0, 2, "k i j", "k", "i j", "-" },
	{ "mm", MM16, 0, 5, 0, 5, "j k i", "j k", "j i", "-" },
	{ "mm", MM16, 3, 6, 1, 6, "i j k", "i j k", "i j", "-" },
	{ "mm-init", MM16, 0, -1, 0, 3, "i j k", "i j", "i j", "k" },
	{ "conv", CONV_SMALL, 0, -1, 1, 4, "o r c i p q", "o r", "o r c",
	  "i" },
	{ "conv", CONV_SMALL, 0, 3, 0, 3, "i o r c p q", "i", "o r c", "-" },
	{ "mttkrp", { 8, 8, 4, 4 }, 0, -1, 0, 3, "i j k l", "i j", "i j",
	  "l" },
	{ "ttmc", { 4, 4, 4, 4, 4 }, 0, -1, 0, 4, "i j k l m", "i j",
	  "i j k", "m" },
	{ "fir", { 16, 4 }, 0, -1, 0, 2, "i j", "i j", "i", "-" },
	{ "fir", { 16, 4 }, 0, 0, 1, 0, "i j", "i", "i", "j" },
	{ "gnn-agg", { 16, 8, 4 }, 0, -1, 1, 0, "f e", "f", "f", "-" },
};

/* The template repeats the analysis and the candidate's groups, with its
 * loops permuted into the candidate's order: loop l of the template is
 * loop order[l] of the analysis, for every per-loop field.
 */
static void check_copied(const char *what, const poly_analysis *a,
	const poly_template *t)
{
	const poly_candidate *c = &a->cand[t->space_time];
	int order[POLY_MAX_LOOPS];

	expect_str(what, "kernel", t->kernel, a->kernel);
	expect_str(what, "statement", t->statement, a->statement);
	assert_int_equal(poly_candidate_order(a, c, order), a->n_loops);
	assert_int_equal(t->n_loops, a->n_loops);
	for (int l = 0; l < t->n_loops; l++) {
		expect_str(what, "loop", t->loop[l], a->loop[order[l]]);
		assert_true(t->extent[l] == a->extent[order[l]]);
		if (a->reduction == order[l])
			assert_int_equal(t->reduction, l);
	}
	if (a->reduction < 0)
		assert_int_equal(t->reduction, -1);
	assert_int_equal(t->band, a->band);
	assert_true(t->points == a->points);
	assert_int_equal(t->ops_per_point, a->ops_per_point);
	assert_int_equal(t->n_accesses, a->n_accesses);
	for (int i = 0; i < a->n_accesses; i++) {
		const poly_access *x = &a->access[i], *y = &t->access[i];

		expect_str(what, "access", y->text, x->text);
		assert_memory_equal(y->extent, x->extent, sizeof(y->extent));
		assert_memory_equal(y->exact, x->exact, sizeof(y->exact));
		for (int d = 0; d < x->n_dims; d++)
			for (int l = 0; l < a->n_loops; l++)
				assert_true(y->coef[d][l] ==
					x->coef[d][order[l]]);
	}
	assert_int_equal(t->n_space, c->n_space);
	assert_int_equal(t->n_groups, c->n_groups);
	assert_memory_equal(t->group, c->group, sizeof(t->group));
	for (int l = 0; l < t->n_loops; l++) {
		assert_int_equal(poly_template_is_space(t, l), l < c->n_space);
		assert_int_equal(poly_template_loop(t, t->loop[l]), l);
	}
}

static void test_templates(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct template_case *c = &cases[i];
		poly_kernel_desc d = test_desc(c->kernel, c->values);
		const poly_analysis *a = cache_get(*state, c->kernel,
			c->values, c->max_space);
		poly_template t, built;
		dse_error err;
		char what[64], buf[LINE_LEN];
		int st, order[POLY_MAX_LOOPS];

		d.max_space = c->max_space;
		snprintf(what, sizeof(what), "%s space_time[%d]", c->kernel,
			c->space_time);
		st = c->space_time < 0 ? a->default_candidate : c->space_time;
		memset(&t, 0x5a, sizeof(t));
		if (poly_template_from(a, st, &t, &err) != dse_stat_ok)
			fail_msg("%s: %s", what, err.msg);
		assert_int_equal(t.space_time, c->index);
		for (int l = 0; l < POLY_MAX_LOOPS; l++)
			order[l] = l;
		fmt_loops(&t, order, t.n_loops, buf, sizeof(buf));
		expect_str(what, "loop order", buf, c->order);
		fmt_loops(&t, t.space_loop, t.n_space, buf, sizeof(buf));
		expect_str(what, "space loops", buf, c->space);
		fmt_loops(&t, t.latency_loop, t.n_latency, buf, sizeof(buf));
		expect_str(what, "latency loops", buf, c->latency);
		fmt_loops(&t, &t.simd_loop, t.simd_loop >= 0, buf,
			sizeof(buf));
		expect_str(what, "simd loop", buf, c->simd);
		check_copied(what, a, &t);
		if (!c->build)
			continue;
		/* Building from the description gives the same template. */
		memset(&built, 0, sizeof(built));
		if (poly_template_build(&d, c->space_time, &built, &err) !=
		    dse_stat_ok)
			fail_msg("%s: build: %s", what, err.msg);
		assert_memory_equal(&built, &t, sizeof(t));
	}
}

static void test_loop_lookup(void **state)
{
	static const struct {
		const char *name;
		int index;
	} lookups[] = {
		{ "o", 0 }, { "r", 1 }, { "c", 2 }, { "i", 3 }, { "p", 4 },
		{ "q", 5 }, { "x", -1 }, { "", -1 }, { "or", -1 },
		{ "S0", -1 }, { NULL, -1 },
	};
	const int64_t v[MAX_VALUES] = CONV_SMALL;
	const poly_analysis *a = cache_get(*state, "conv", v, 0);
	poly_template t;
	dse_error err;

	assert_int_equal(poly_template_from(a, 4, &t, &err), dse_stat_ok);
	for (size_t i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++) {
		assert_int_equal(poly_template_loop(&t, lookups[i].name),
			lookups[i].index);
		assert_int_equal(poly_analysis_loop(a, lookups[i].name),
			lookups[i].index);
	}
	assert_int_equal(poly_template_loop(NULL, "o"), -1);
	assert_int_equal(poly_analysis_loop(NULL, "o"), -1);
	assert_int_equal(poly_template_is_space(NULL, 0), 0);
	assert_int_equal(poly_template_is_space(&t, -1), 0);
}

/* ------------------------------------------------------------------ */
/* Formulas on real templates.                                         */

struct formula_case {
	const char *what;
	const char *kernel;
	int64_t values[MAX_VALUES];
	const char *access;	/* "A[i][k] R" */
	int64_t tile[POLY_MAX_LOOPS];
	int64_t footprint, inner_run;
};

static const struct formula_case formula_cases[] = {
	{ "mm A", "mm", MM16, "A[i][k] R", { 4, 8, 16 }, 4 * 16, 16 },
	{ "mm B", "mm", MM16, "B[k][j] R", { 4, 8, 16 }, 16 * 8, 8 },
	{ "mm C written", "mm", MM16, "C[i][j] W", { 4, 8, 16 }, 4 * 8, 8 },
	{ "mm A, one point", "mm", MM16, "A[i][k] R", { 1, 1, 1 }, 1, 1 },
	{ "mm A, tile past the array", "mm", MM16, "A[i][k] R",
	  { 32, 1, 64 }, 16 * 16, 16 },
	{ "conv In", "conv", CONV_SMALL, "In[i][r + p][c + q] R",
	  { 1, 4, 4, 2, 3, 3 }, 2 * 6 * 6, 6 },
	{ "conv W", "conv", CONV_SMALL, "W[o][i][p][q] R",
	  { 1, 4, 4, 2, 3, 3 }, 1 * 2 * 3 * 3, 3 },
	{ "conv out", "conv", CONV_SMALL, "out[o][r][c] W",
	  { 1, 4, 4, 2, 3, 3 }, 1 * 4 * 4, 4 },
	/* r + p spans 8 + 3 - 1 = 10 rows, but the array has R + P - 1. */
	{ "conv In capped at the array", "conv", CONV_SMALL,
	  "In[i][r + p][c + q] R", { 1, 8, 8, 4, 3, 3 }, 4 * 8 * 8, 8 },
	{ "fir x", "fir", { 16, 4 }, "x[i + j] R", { 8, 4 }, 11, 11 },
	{ "fir x whole", "fir", { 16, 4 }, "x[i + j] R", { 16, 4 }, 19, 19 },
	{ "fir h", "fir", { 16, 4 }, "h[j] R", { 8, 2 }, 2, 2 },
	/* A data-dependent row covers all V rows whatever the tile. */
	{ "gnn H, may dimension", "gnn-agg", { 16, 8, 4 }, "H[*][f] R",
	  { 4, 2 }, 4 * 2, 2 },
	{ "gnn H, one edge", "gnn-agg", { 16, 8, 4 }, "H[*][f] R",
	  { 1, 1 }, 4, 1 },
	{ "gnn out written", "gnn-agg", { 16, 8, 4 }, "out[*][f] W",
	  { 4, 8 }, 4 * 8, 8 },
	{ "gnn val", "gnn-agg", { 16, 8, 4 }, "val[e] R", { 4, 8 }, 4, 4 },
};

/* The index of the access printed as "text R" or "text W", or -1. */
static int find_access(const poly_template *t, const char *spec)
{
	for (int i = 0; i < t->n_accesses; i++) {
		char buf[POLY_TEXT_LEN + 4];

		snprintf(buf, sizeof(buf), "%s %s", t->access[i].text,
			t->access[i].write ? "W" : "R");
		if (!strcmp(buf, spec))
			return i;
	}
	return -1;
}

static void test_formulas(void **state)
{
	for (size_t i = 0; i < sizeof(formula_cases) /
	     sizeof(formula_cases[0]); i++) {
		const struct formula_case *c = &formula_cases[i];
		const poly_analysis *a = cache_get(*state, c->kernel,
			c->values, 0);
		poly_template t;
		int64_t tile[POLY_MAX_LOOPS] = { 0 };
		dse_error err;
		int acc;

		if (poly_template_from(a, a->default_candidate, &t, &err) !=
		    dse_stat_ok)
			fail_msg("%s: %s", c->what, err.msg);
		acc = find_access(&t, c->access);
		if (acc < 0)
			fail_msg("%s: no access %s", c->what, c->access);
		/* The tiles are written in the kernel's loop order. */
		for (int l = 0; l < a->n_loops; l++)
			tile[poly_template_loop(&t, a->loop[l])] = c->tile[l];
		if (poly_footprint(&t, acc, tile) != c->footprint)
			fail_msg("%s: footprint %lld, want %lld", c->what,
				(long long) poly_footprint(&t, acc, tile),
				(long long) c->footprint);
		if (poly_inner_run(&t, acc, tile) != c->inner_run)
			fail_msg("%s: inner run %lld, want %lld", c->what,
				(long long) poly_inner_run(&t, acc, tile),
				(long long) c->inner_run);
	}
}

/* A kernel with a negative and a non-unit coefficient: x[2j - i + 7]
 * over a tile of 4 x 3 spans 1*(4-1) + 2*(3-1) + 1 = 8 elements.
 */
static void test_formula_coefficients(void **state)
{
	static const struct {
		int64_t tile[2], footprint;
	} tiles[] = {
		{ { 4, 3 }, 8 }, { { 1, 1 }, 1 }, { { 8, 1 }, 8 },
		{ { 1, 8 }, 15 }, { { 8, 8 }, 22 }, { { 2, 2 }, 4 },
	};
	const int64_t unused[2] = { 1, 1 };
	poly_kernel_desc d = test_desc("fir", unused);
	poly_template t;
	dse_error err;
	int acc;

	(void) state;
	d.domain = "{ S0[i,j] : 0 <= i < 8 and 0 <= j < 8 }";
	d.reads = "{ S0[i,j] -> x[2*j - i + 7]; S0[i,j] -> y[i] }";
	d.writes = "{ S0[i,j] -> y[i] }";
	d.n_params = 0;
	if (poly_template_build(&d, -1, &t, &err) != dse_stat_ok)
		fail_msg("%s", err.msg);
	acc = find_access(&t, "x[-i + 2*j + 7] R");
	if (acc < 0)
		fail_msg("no access x[-i + 2*j + 7]; first is %s",
			t.access[0].text);
	assert_int_equal(t.access[acc].extent[0], 22);
	for (size_t i = 0; i < sizeof(tiles) / sizeof(tiles[0]); i++) {
		assert_int_equal(poly_footprint(&t, acc, tiles[i].tile),
			tiles[i].footprint);
		assert_int_equal(poly_inner_run(&t, acc, tiles[i].tile),
			tiles[i].footprint);
	}
}

/* ------------------------------------------------------------------ */
/* Formulas on a hand-made template: limits and bad arguments.         */

static poly_template wide_template(void)
{
	poly_template t;

	memset(&t, 0, sizeof(t));
	t.n_loops = 4;
	t.n_accesses = 3;
	/* Access 0: four dimensions of 2^20 elements, one per loop. */
	t.access[0].n_dims = 4;
	for (int d = 0; d < 4; d++) {
		t.access[0].coef[d][d] = 1;
		t.access[0].exact[d] = 1;
		t.access[0].extent[d] = INT64_C(1) << 20;
	}
	/* Access 1: a coefficient whose step overflows. */
	t.access[1].n_dims = 1;
	t.access[1].coef[0][0] = INT64_MAX / 2;
	t.access[1].exact[0] = 1;
	t.access[1].extent[0] = 1000;
	/* Access 2: a scalar. */
	t.access[2].n_dims = 0;
	return t;
}

static void test_formula_limits(void **state)
{
	poly_template t = wide_template();
	const int64_t big[4] = { 1 << 20, 1 << 20, 1 << 20, 1 << 20 };
	const int64_t small[4] = { 2, 3, 4, 5 };
	const int64_t three[4] = { 3, 1, 1, 1 };

	(void) state;
	assert_int_equal(poly_footprint(&t, 0, small), 2 * 3 * 4 * 5);
	assert_int_equal(poly_inner_run(&t, 0, small), 5);
	/* 2^80 elements saturate. */
	assert_true(poly_footprint(&t, 0, big) == INT64_MAX);
	assert_int_equal(poly_inner_run(&t, 0, big), 1 << 20);
	/* An overflowing step is capped at the array's extent. */
	assert_int_equal(poly_footprint(&t, 1, three), 1000);
	assert_int_equal(poly_inner_run(&t, 1, three), 1000);
	assert_int_equal(poly_footprint(&t, 2, small), 1);
	assert_int_equal(poly_inner_run(&t, 2, small), 1);
	/* Bad arguments give 0. */
	assert_int_equal(poly_footprint(NULL, 0, small), 0);
	assert_int_equal(poly_footprint(&t, -1, small), 0);
	assert_int_equal(poly_footprint(&t, 3, small), 0);
	assert_int_equal(poly_footprint(&t, 0, NULL), 0);
	assert_int_equal(poly_inner_run(NULL, 0, small), 0);
	assert_int_equal(poly_inner_run(&t, 3, small), 0);
	assert_int_equal(poly_inner_run(&t, 0, NULL), 0);
}

int run_template_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_templates),
		cmocka_unit_test(test_loop_lookup),
	};

	return cmocka_run_group_tests_name("polyhedral.template", tests,
		cache_setup, cache_teardown);
}

int run_formulas_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formulas),
		cmocka_unit_test(test_formula_coefficients),
		cmocka_unit_test(test_formula_limits),
	};

	return cmocka_run_group_tests_name("polyhedral.formulas", tests,
		cache_setup, cache_teardown);
}
