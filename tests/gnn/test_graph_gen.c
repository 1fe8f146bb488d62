/* Tests of gnn/graph_gen.c: reproducibility of the generators, exact
 * counts, the quadrant convention and probabilities of R-MAT, the skew
 * R-MAT gives over uniform graphs, simple R-MAT (no repeated edge, no
 * self loop), bad arguments, and the preset table against GraphAGILE
 * Table IV.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "gnn/graph.h"

static const double skewed[4] = { 0.57, 0.19, 0.19, 0.05 };

static gnn_graph *rmat(int64_t nv, int64_t ne, const double *p,
	uint64_t seed)
{
	dse_error err = { 0 };
	gnn_graph *g = gnn_graph_rmat(nv, ne, p[0], p[1], p[2], p[3], seed,
		&err);

	if (!g)
		fail_msg("rmat(%lld, %lld): %s", (long long) nv, (long long) ne,
			err.msg);
	return g;
}

static gnn_graph *rmat_simple(int64_t nv, int64_t ne, const double *p,
	uint64_t seed)
{
	dse_error err = { 0 };
	gnn_graph *g = gnn_graph_rmat_simple(nv, ne, p[0], p[1], p[2], p[3],
		seed, &err);

	if (!g)
		fail_msg("rmat_simple(%lld, %lld): %s", (long long) nv,
			(long long) ne, err.msg);
	return g;
}

static gnn_graph *uniform(int64_t nv, int64_t ne, uint64_t seed)
{
	dse_error err = { 0 };
	gnn_graph *g = gnn_graph_uniform(nv, ne, seed, &err);

	if (!g)
		fail_msg("uniform: %s", err.msg);
	return g;
}

static int same_graph(const gnn_graph *g, const gnn_graph *h)
{
	size_t n = (size_t) gnn_graph_n_edges(g);

	return gnn_graph_n_vertices(g) == gnn_graph_n_vertices(h) &&
		gnn_graph_n_edges(g) == gnn_graph_n_edges(h) &&
		!memcmp(gnn_graph_src(g), gnn_graph_src(h), n * 4) &&
		!memcmp(gnn_graph_dst(g), gnn_graph_dst(h), n * 4);
}

/* Sizes: one vertex, powers of two and not, no edges, more than one
 * block of random numbers.
 */
static const struct { int64_t nv, ne; } sizes[] = {
	{ 1, 10 }, { 2, 1 }, { 7, 0 }, { 1000, 5000 }, { 1024, 3000 },
	{ 30000, 200001 },
};

static void test_counts_and_seeds(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
		int64_t nv = sizes[c].nv, ne = sizes[c].ne, e;
		gnn_graph *g[2][3];
		int kind;

		for (kind = 0; kind < 2; kind++) {
			g[kind][0] = kind ? uniform(nv, ne, 1) :
				rmat(nv, ne, skewed, 1);
			g[kind][1] = kind ? uniform(nv, ne, 1) :
				rmat(nv, ne, skewed, 1);
			g[kind][2] = kind ? uniform(nv, ne, 2) :
				rmat(nv, ne, skewed, 2);
			assert_int_equal(gnn_graph_n_vertices(g[kind][0]), nv);
			assert_int_equal(gnn_graph_n_edges(g[kind][0]), ne);
			for (e = 0; e < ne; e++) {
				assert_true(gnn_graph_src(g[kind][0])[e] < nv);
				assert_true(gnn_graph_weight(g[kind][0])[e] ==
					1.0f);
			}
			assert_true(same_graph(g[kind][0], g[kind][1]));
			/* Only graphs with room for variety must differ. */
			if (nv > 2 && ne > 100)
				assert_false(same_graph(g[kind][0],
					g[kind][2]));
			gnn_graph_free(g[kind][0]);
			gnn_graph_free(g[kind][1]);
			gnn_graph_free(g[kind][2]);
		}
	}
}

/* A probability 1 on one quadrant puts every edge in one corner of an
 * 8 x 8 matrix: a at (0, 0), b at row 0 / column 7 (src 0, dst 7), c at
 * row 7 / column 0, d at (7, 7).
 */
static const struct corner_case {
	double p[4];
	uint32_t src, dst;
} corner_cases[] = {
	{ { 1, 0, 0, 0 }, 0, 0 },
	{ { 0, 1, 0, 0 }, 0, 7 },
	{ { 0, 0, 1, 0 }, 7, 0 },
	{ { 0, 0, 0, 1 }, 7, 7 },
};

static void test_corners(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(corner_cases) / sizeof(corner_cases[0]); c++) {
		const struct corner_case *k = &corner_cases[c];
		gnn_graph *g = rmat(8, 100, k->p, 3);
		int e;

		for (e = 0; e < 100; e++) {
			assert_int_equal(gnn_graph_src(g)[e], k->src);
			assert_int_equal(gnn_graph_dst(g)[e], k->dst);
		}
		gnn_graph_free(g);
	}
}

/* With two vertices there is one level: the four edges 0->0, 0->1, 1->0,
 * 1->1 must come with frequencies a, b, c, d.  The bound is over 8
 * standard deviations of a binomial of 200000 draws.
 */
static void test_quadrant_frequencies(void **state)
{
	static const double probs[][4] = {
		{ 0.57, 0.19, 0.19, 0.05 }, { 0.25, 0.25, 0.25, 0.25 },
		{ 0.1, 0.2, 0.3, 0.4 },
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(probs) / sizeof(probs[0]); c++) {
		int64_t ne = 200000, count[4] = { 0 }, e;
		gnn_graph *g = rmat(2, ne, probs[c], 9);
		int q;

		for (e = 0; e < ne; e++)
			count[gnn_graph_src(g)[e] * 2 + gnn_graph_dst(g)[e]]++;
		for (q = 0; q < 4; q++)
			assert_float_equal((double) count[q] / (double) ne,
				probs[c][q], 0.009);
		gnn_graph_free(g);
	}
}

/* Uniform endpoints: every vertex of ten gets about a tenth of the edges
 * on each side (bound: 8 standard deviations, sqrt(10^5 .1 .9) = 95).
 */
static void test_uniform_spread(void **state)
{
	gnn_graph *g = uniform(10, 100000, 4);
	int64_t out[10] = { 0 }, e;
	const int64_t *in_ptr = gnn_graph_in_ptr(g);
	int v;

	(void) state;
	for (e = 0; e < 100000; e++)
		out[gnn_graph_src(g)[e]]++;
	for (v = 0; v < 10; v++) {
		assert_in_range(out[v], 10000 - 760, 10000 + 760);
		assert_in_range(in_ptr[v + 1] - in_ptr[v], 10000 - 760,
			10000 + 760);
	}
	gnn_graph_free(g);
}

/* The skew is visible in the Gini coefficient of the in-degrees: the
 * power-law setting is far above uniform endpoints, and R-MAT with equal
 * quadrants is uniform.
 */
static void test_skew(void **state)
{
	static const double flat[4] = { 0.25, 0.25, 0.25, 0.25 };
	gnn_graph *gs = rmat(4096, 65536, skewed, 5);
	gnn_graph *gf = rmat(4096, 65536, flat, 5);
	gnn_graph *gu = uniform(4096, 65536, 5);
	gnn_degree_stats s, f, u;

	(void) state;
	gnn_graph_degree_stats(gs, &s);
	gnn_graph_degree_stats(gf, &f);
	gnn_graph_degree_stats(gu, &u);
	print_message("gini: rmat %.3f, flat rmat %.3f, uniform %.3f\n",
		s.in_gini, f.in_gini, u.in_gini);
	assert_true(s.in_gini > u.in_gini + 0.3);
	assert_true(s.in_max > 4 * u.in_max);
	assert_float_equal(f.in_gini, u.in_gini, 0.03);
	gnn_graph_free(gs);
	gnn_graph_free(gf);
	gnn_graph_free(gu);
}

/* Simple R-MAT: exactly the edges asked for, none twice, no self loop,
 * the same graph for the same seed and another for another seed (unless
 * only one graph has that many edges: the complete ones); from no edge
 * to complete graphs, skewed matrices crowded enough to need many rounds
 * of redrawing, and more than one block of random numbers.
 */
static const double even4[4] = { 0.25, 0.25, 0.25, 0.25 };

static const struct simple_case {
	int64_t nv, ne;
	const double *p;
} simple_cases[] = {
	{ 5, 0, skewed }, { 2, 2, even4 }, { 8, 56, even4 }, { 100, 9900, even4 },
	{ 64, 1500, skewed }, { 1000, 5000, skewed }, { 4096, 400000, skewed },
	{ 30000, 200001, skewed },
};

static void test_rmat_simple(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(simple_cases) / sizeof(simple_cases[0]); c++) {
		const struct simple_case *k = &simple_cases[c];
		gnn_graph *g = rmat_simple(k->nv, k->ne, k->p, 3);
		gnn_graph *h = rmat_simple(k->nv, k->ne, k->p, 3);
		gnn_graph *o = rmat_simple(k->nv, k->ne, k->p, 4);
		const uint32_t *src = gnn_graph_src(g), *dst = gnn_graph_dst(g);
		int64_t e;

		assert_int_equal(gnn_graph_n_vertices(g), k->nv);
		assert_int_equal(gnn_graph_n_edges(g), k->ne);
		assert_non_null(strstr(gnn_graph_name(g), "rmat_simple"));
		for (e = 0; e < k->ne; e++) {
			if (src[e] == dst[e])
				fail_msg("case %zu: self loop at %u", c, src[e]);
			/* The graph keeps its edges sorted by (dst, src). */
			if (e && src[e] == src[e - 1] && dst[e] == dst[e - 1])
				fail_msg("case %zu: edge %u -> %u twice", c,
					src[e], dst[e]);
		}
		assert_true(same_graph(g, h));
		if (k->ne > 0 && k->ne < k->nv * (k->nv - 1))
			assert_false(same_graph(g, o));
		gnn_graph_free(g);
		gnn_graph_free(h);
		gnn_graph_free(o);
	}
}

/* Plain R-MAT repeats the heavy cells; the simple variant has the same
 * count of distinct edges only, so its heaviest vertex is far lighter.
 */
static void test_rmat_simple_skew(void **state)
{
	gnn_graph *plain = rmat(4096, 400000, skewed, 5);
	gnn_graph *simple = rmat_simple(4096, 400000, skewed, 5);
	gnn_degree_stats a, b;

	(void) state;
	gnn_graph_degree_stats(plain, &a);
	gnn_graph_degree_stats(simple, &b);
	print_message("in_max: rmat %lld, simple %lld\n",
		(long long) a.in_max, (long long) b.in_max);
	assert_true(b.in_max <= 4095);
	assert_true(a.in_max > 4095);
	/* Still a power law: far more skewed than uniform. */
	assert_true(b.in_gini > 0.5);
	gnn_graph_free(plain);
	gnn_graph_free(simple);
}

static const struct bad_case {
	int64_t nv, ne;
	double p[4];
	const char *msg;
} bad_cases[] = {
	{ 0, 10, { 0.25, 0.25, 0.25, 0.25 }, "vertices" },
	{ (int64_t) UINT32_MAX + 1, 10, { 0.25, 0.25, 0.25, 0.25 },
	  "vertices" },
	{ 10, -1, { 0.25, 0.25, 0.25, 0.25 }, "negative" },
	{ 10, 10, { 0.5, 0.5, 0.5, -0.5 }, "probability d" },
	{ 10, 10, { 0.5, 0.25, 0.25, 0.25 }, "not 1" },
	{ 10, 10, { NAN, 0.25, 0.25, 0.25 }, "probability a" },
	/* Everything in the corner (7, 7), outside five vertices. */
	{ 5, 10, { 0, 0, 0, 1 }, "almost no edge" },
};

/* Simple R-MAT's own failures: more edges than a simple graph holds, a
 * matrix whose mass is all on the diagonal (every draw a self loop), and
 * one that can never reach some cells (d = 0: no edge between two ids
 * that share a set bit at the same place, such as 3 -> 7) asked for the
 * complete graph.
 */
static const struct bad_case simple_bad[] = {
	{ 1, 1, { 0.25, 0.25, 0.25, 0.25 }, "do not fit" },
	{ 3, 7, { 0.25, 0.25, 0.25, 0.25 }, "do not fit" },
	{ 8, 10, { 0.5, 0, 0, 0.5 }, "almost no edge" },
	{ 16, 240, { 0.7, 0.15, 0.15, 0 }, "cannot place" },
	{ 10, 10, { 0.5, 0.25, 0.25, 0.25 }, "not 1" },
};

static void test_bad_args(void **state)
{
	size_t c;

	for (c = 0; c < sizeof(simple_bad) / sizeof(simple_bad[0]); c++) {
		const struct bad_case *k = &simple_bad[c];
		dse_error err = { 0 };

		assert_null(gnn_graph_rmat_simple(k->nv, k->ne, k->p[0],
			k->p[1], k->p[2], k->p[3], 1, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		if (!strstr(err.msg, k->msg))
			fail_msg("simple case %zu: \"%s\" lacks \"%s\"", c,
				err.msg, k->msg);
	}

	(void) state;
	for (c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++) {
		const struct bad_case *k = &bad_cases[c];
		dse_error err = { 0 };

		assert_null(gnn_graph_rmat(k->nv, k->ne, k->p[0], k->p[1],
			k->p[2], k->p[3], 1, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		if (!strstr(err.msg, k->msg))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", c, err.msg,
				k->msg);
	}
	{
		dse_error err = { 0 };

		assert_null(gnn_graph_uniform(0, 1, 1, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_null(gnn_graph_uniform(3, -2, 1, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_null(gnn_graph_preset(NULL, 1, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
	}
}

/* GraphAGILE Table IV, typed from the paper: name, dataset, code,
 * vertices, edges, features, classes.
 */
static const gnn_preset table_iv[] = {
	{ "citeseer", "Citeseer", "CI", 3327, 4732, 3703, 6 },
	{ "cora", "Cora", "CO", 2708, 5429, 1433, 7 },
	{ "pubmed", "Pubmed", "PU", 19717, 44338, 500, 3 },
	{ "flickr", "Flickr", "FL", 89250, 899756, 500, 7 },
	{ "reddit", "Reddit", "RE", 232965, 116069919, 602, 41 },
	{ "yelp", "Yelp", "YE", 716847, 6977410, 300, 100 },
	{ "amazon-products", "Amazon-Products", "AP", 1569960, 264339468,
	  200, 107 },
};

static void test_preset_table(void **state)
{
	char buf[256], small[12];
	int i;

	(void) state;
	assert_int_equal(gnn_preset_count(), 7);
	for (i = 0; i < 7; i++) {
		const gnn_preset *p = gnn_preset_at(i), *w = &table_iv[i];

		assert_non_null(p);
		assert_string_equal(p->name, w->name);
		assert_string_equal(p->dataset, w->dataset);
		assert_string_equal(p->code, w->code);
		assert_int_equal(p->n_vertices, w->n_vertices);
		assert_int_equal(p->n_edges, w->n_edges);
		assert_int_equal(p->n_features, w->n_features);
		assert_int_equal(p->n_classes, w->n_classes);
		assert_ptr_equal(gnn_preset_find(w->name), p);
	}
	assert_null(gnn_preset_at(-1));
	assert_null(gnn_preset_at(7));
	assert_ptr_equal(gnn_preset_find("CORA"), gnn_preset_at(1));
	assert_ptr_equal(gnn_preset_find("Amazon-Products"),
		gnn_preset_at(6));
	assert_null(gnn_preset_find("imagenet"));
	assert_null(gnn_preset_find(NULL));
	gnn_preset_names(buf, sizeof(buf));
	assert_string_equal(buf, "citeseer, cora, pubmed, flickr, reddit, "
		"yelp, amazon-products");
	memset(small, 'z', sizeof(small));
	gnn_preset_names(small, sizeof(small));
	assert_string_equal(small, "citeseer, c");
}

/* The small presets' graphs: the table's counts, the name, and the same
 * graph for the same seed.
 */
static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* The sorted in- and out-degree sequences of a graph, into deg (2 |V|). */
static void degree_sequences(const gnn_graph *g, int64_t *deg)
{
	int64_t nv = gnn_graph_n_vertices(g), ne = gnn_graph_n_edges(g), i;
	const uint32_t *src = gnn_graph_src(g), *dst = gnn_graph_dst(g);

	memset(deg, 0, (size_t) (2 * nv) * sizeof(*deg));
	for (i = 0; i < ne; i++) {
		deg[dst[i]]++;
		deg[nv + src[i]]++;
	}
	qsort(deg, (size_t) nv, sizeof(*deg), cmp_i64);
	qsort(deg + nv, (size_t) nv, sizeof(*deg), cmp_i64);
}

static int same_degrees(const gnn_graph *a, const gnn_graph *b)
{
	int64_t nv = gnn_graph_n_vertices(a);
	int64_t *da = malloc((size_t) (2 * nv) * sizeof(*da));
	int64_t *db = malloc((size_t) (2 * nv) * sizeof(*db));
	int same;

	assert_non_null(da);
	assert_non_null(db);
	degree_sequences(a, da);
	degree_sequences(b, db);
	same = !memcmp(da, db, (size_t) (2 * nv) * sizeof(*da));
	free(da);
	free(db);
	return same;
}

/* The largest share of the edges whose destination has one value of its
 * id mod 16.
 */
static double low_bits_share(const gnn_graph *g)
{
	int64_t count[16] = { 0 }, i, best = 0;
	const uint32_t *dst = gnn_graph_dst(g);

	for (i = 0; i < gnn_graph_n_edges(g); i++)
		count[dst[i] % 16]++;
	for (i = 0; i < 16; i++)
		best = count[i] > best ? count[i] : best;
	return (double) best / (double) gnn_graph_n_edges(g);
}

static void test_preset_graphs(void **state)
{
	static const char *const names[] = { "citeseer", "cora", "pubmed",
		"flickr" };
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(names) / sizeof(names[0]); c++) {
		const gnn_preset *p = gnn_preset_find(names[c]);
		dse_error err = { 0 };
		gnn_graph *g = gnn_graph_preset(p, 11, &err);
		gnn_graph *h = gnn_graph_preset(p, 11, &err);
		gnn_graph *r = rmat_simple(p->n_vertices, p->n_edges, skewed,
			11);
		char name[64];

		assert_non_null(g);
		assert_non_null(h);
		snprintf(name, sizeof(name), "synthetic-%s", names[c]);
		assert_string_equal(gnn_graph_name(g), name);
		assert_int_equal(gnn_graph_n_vertices(g), p->n_vertices);
		assert_int_equal(gnn_graph_n_edges(g), p->n_edges);
		assert_true(same_graph(g, h));
		/* A preset is simple R-MAT (0.57, 0.19, 0.19, 0.05) with its
		 * vertices renamed: the same degrees, other ids.
		 */
		assert_false(same_graph(g, r));
		assert_true(same_degrees(g, r));
		assert_non_null(strstr(gnn_graph_name(r), "rmat"));
		/* Plain R-MAT crowds the heavy vertices into ids with low
		 * bits 0; renamed, the edges spread over id mod 16 as a
		 * real numbering spreads them.
		 */
		assert_true(low_bits_share(r) > 2.0 / 16);
		if (p->n_edges >= 40000)
			assert_true(low_bits_share(g) < 1.5 / 16);
		gnn_graph_free(g);
		gnn_graph_free(h);
		gnn_graph_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_seeds),
		cmocka_unit_test(test_corners),
		cmocka_unit_test(test_quadrant_frequencies),
		cmocka_unit_test(test_uniform_spread),
		cmocka_unit_test(test_skew),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_rmat_simple),
		cmocka_unit_test(test_rmat_simple_skew),
		cmocka_unit_test(test_preset_table),
		cmocka_unit_test(test_preset_graphs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
