/* Tests of gnn/graph.c: building a graph (the (dst, src) order, in_ptr,
 * the bad inputs), the fiber-shard partitioning and the degree
 * statistics.  The expected values of the small cases are worked out by
 * hand in the comments; the random cases check properties against an
 * independent qsort of the input.
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

#define MAX_E 16

struct edge {
	uint32_t src, dst;
	float w;
};

/* Small graphs: the edges as given, then as they must come out sorted by
 * (dst, src, weight) with the in_ptr that goes with them.
 */
static const struct sort_case {
	const char *what;
	int64_t nv;
	int ne;
	int weighted;
	struct edge in[MAX_E];
	struct edge out[MAX_E];
	int64_t in_ptr[MAX_E];
} sort_cases[] = {
	{ "weighted, with a duplicate edge of two weights", 4, 6, 1,
	  { { 3, 1, 0.5f }, { 0, 2, 1.0f }, { 2, 1, 2.0f }, { 1, 0, 3.0f },
	    { 0, 1, 4.0f }, { 2, 1, 1.5f } },
	  /* dst 0: 1; dst 1: 0, 2 (1.5), 2 (2), 3; dst 2: 0; dst 3: none */
	  { { 1, 0, 3.0f }, { 0, 1, 4.0f }, { 2, 1, 1.5f }, { 2, 1, 2.0f },
	    { 3, 1, 0.5f }, { 0, 2, 1.0f } },
	  { 0, 1, 5, 6, 6 } },
	{ "unweighted, a self loop and a repeated edge", 3, 4, 0,
	  { { 2, 0, 1 }, { 1, 2, 1 }, { 0, 0, 1 }, { 2, 0, 1 } },
	  { { 0, 0, 1 }, { 2, 0, 1 }, { 2, 0, 1 }, { 1, 2, 1 } },
	  { 0, 3, 3, 4 } },
	{ "one vertex, no edge", 1, 0, 0, { { 0 } }, { { 0 } }, { 0, 0 } },
	{ "already sorted, last vertex used", 5, 4, 1,
	  { { 4, 0, -1.0f }, { 0, 3, 2.0f }, { 1, 3, 0.0f },
	    { 3, 4, 7.0f } },
	  { { 4, 0, -1.0f }, { 0, 3, 2.0f }, { 1, 3, 0.0f },
	    { 3, 4, 7.0f } },
	  { 0, 1, 1, 1, 3, 4 } },
	{ "reversed input", 3, 3, 1,
	  { { 2, 2, 3.0f }, { 1, 1, 2.0f }, { 0, 0, 1.0f } },
	  { { 0, 0, 1.0f }, { 1, 1, 2.0f }, { 2, 2, 3.0f } },
	  { 0, 1, 2, 3 } },
};

static gnn_graph *build(int64_t nv, int ne, const struct edge *e,
	int weighted, dse_error *err)
{
	uint32_t src[MAX_E], dst[MAX_E];
	float w[MAX_E];
	int i;

	for (i = 0; i < ne; i++) {
		src[i] = e[i].src;
		dst[i] = e[i].dst;
		w[i] = e[i].w;
	}
	return gnn_graph_from_edges(nv, ne, src, dst, weighted ? w : NULL,
		err);
}

static void test_sort_small(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(sort_cases) / sizeof(sort_cases[0]); c++) {
		const struct sort_case *k = &sort_cases[c];
		dse_error err = { 0 };
		gnn_graph *g = build(k->nv, k->ne, k->in, k->weighted, &err);
		int i;

		print_message("case: %s\n", k->what);
		assert_non_null(g);
		assert_int_equal(gnn_graph_n_vertices(g), k->nv);
		assert_int_equal(gnn_graph_n_edges(g), k->ne);
		assert_non_null(gnn_graph_name(g));
		for (i = 0; i < k->ne; i++) {
			assert_int_equal(gnn_graph_src(g)[i], k->out[i].src);
			assert_int_equal(gnn_graph_dst(g)[i], k->out[i].dst);
			assert_true(gnn_graph_weight(g)[i] == k->out[i].w);
		}
		for (i = 0; i <= k->nv; i++)
			assert_int_equal(gnn_graph_in_ptr(g)[i],
				k->in_ptr[i]);
		gnn_graph_free(g);
	}
}

/* Inputs gnn_graph_from_edges must refuse, with the code and a piece of
 * the message.
 */
static const struct bad_case {
	int64_t nv, ne;
	uint32_t src, dst;
	enum dse_code code;
	const char *msg;
} bad_cases[] = {
	{ 0, 0, 0, 0, DSE_E_INPUT, "vertices" },
	{ -3, 0, 0, 0, DSE_E_INPUT, "vertices" },
	{ (int64_t) UINT32_MAX + 1, 0, 0, 0, DSE_E_INPUT, "vertices" },
	{ 4, -1, 0, 0, DSE_E_INPUT, "negative" },
	{ 4, 1, 4, 0, DSE_E_INPUT, "vertex 4 out of range" },
	{ 4, 1, 0, 7, DSE_E_INPUT, "vertex 7 out of range" },
	{ 1, 1, 0, 1, DSE_E_INPUT, "1 vertices" },
};

static void test_bad_inputs(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++) {
		const struct bad_case *k = &bad_cases[c];
		dse_error err = { 0 };
		gnn_graph *g = gnn_graph_from_edges(k->nv, k->ne, &k->src,
			&k->dst, NULL, &err);

		assert_null(g);
		assert_int_equal(err.code, k->code);
		if (!strstr(err.msg, k->msg))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", c, err.msg,
				k->msg);
	}
	/* Edges without arrays. */
	{
		dse_error err = { 0 };

		assert_null(gnn_graph_from_edges(3, 2, NULL, NULL, NULL,
			&err));
		assert_int_equal(err.code, DSE_E_INPUT);
	}
	assert_null(gnn_graph_free(NULL));
}

/* A local generator so that these tests do not depend on graph_gen.c. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->dst != b->dst)
		return a->dst < b->dst ? -1 : 1;
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	return a->w < b->w ? -1 : a->w > b->w;
}

struct rand_graph {
	int64_t nv, ne;
	uint32_t *src, *dst;
	float *w;
};

/* Random edges with duplicates, a few weight values (so that ties on
 * (dst, src) need the weight) and a hub that collects a third of the
 * edges (so that the long-run sort is exercised).
 */
static void rand_graph_init(struct rand_graph *r, int64_t nv, int64_t ne,
	uint64_t seed)
{
	int64_t e;

	r->nv = nv;
	r->ne = ne;
	r->src = malloc((size_t) ne * sizeof(*r->src));
	r->dst = malloc((size_t) ne * sizeof(*r->dst));
	r->w = malloc((size_t) ne * sizeof(*r->w));
	assert_non_null(r->src);
	assert_non_null(r->dst);
	assert_non_null(r->w);
	for (e = 0; e < ne; e++) {
		uint64_t x = next_rand(&seed);

		r->src[e] = (uint32_t) (x % (uint64_t) nv);
		r->dst[e] = x >> 60 < 5 ? (uint32_t) (nv / 2) :
			(uint32_t) ((x >> 32) % (uint64_t) nv);
		r->w[e] = (float) ((x >> 20) % 4) * 0.5f;
	}
}

static void rand_graph_free(struct rand_graph *r)
{
	free(r->src);
	free(r->dst);
	free(r->w);
}

static void check_against_qsort(const struct rand_graph *r,
	const gnn_graph *g)
{
	struct edge *ref = malloc((size_t) r->ne * sizeof(*ref));
	const int64_t *in_ptr = gnn_graph_in_ptr(g);
	int64_t e, v;

	assert_non_null(ref);
	for (e = 0; e < r->ne; e++) {
		ref[e].src = r->src[e];
		ref[e].dst = r->dst[e];
		ref[e].w = r->w[e];
	}
	qsort(ref, (size_t) r->ne, sizeof(*ref), cmp_edge);
	for (e = 0; e < r->ne; e++) {
		assert_int_equal(gnn_graph_src(g)[e], ref[e].src);
		assert_int_equal(gnn_graph_dst(g)[e], ref[e].dst);
		assert_true(gnn_graph_weight(g)[e] == ref[e].w);
	}
	assert_int_equal(in_ptr[0], 0);
	assert_int_equal(in_ptr[r->nv], r->ne);
	for (v = 0; v < r->nv; v++)
		for (e = in_ptr[v]; e < in_ptr[v + 1]; e++)
			assert_int_equal(gnn_graph_dst(g)[e], v);
	free(ref);
}

static void test_sort_random(void **state)
{
	static const struct { int64_t nv, ne; } sizes[] = {
		{ 1, 50 }, { 2, 1000 }, { 97, 3000 }, { 1000, 20000 },
		{ 70000, 200000 },
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(sizes) / sizeof(sizes[0]); c++) {
		struct rand_graph r;
		dse_error err = { 0 };
		gnn_graph *g, *h;
		int64_t e;

		rand_graph_init(&r, sizes[c].nv, sizes[c].ne, 17 + c);
		g = gnn_graph_from_edges(r.nv, r.ne, r.src, r.dst, r.w, &err);
		assert_non_null(g);
		check_against_qsort(&r, g);
		/* Reversing the input must give the very same arrays. */
		for (e = 0; e < r.ne / 2; e++) {
			int64_t f = r.ne - 1 - e;
			uint32_t s = r.src[e], d = r.dst[e];
			float w = r.w[e];

			r.src[e] = r.src[f];
			r.dst[e] = r.dst[f];
			r.w[e] = r.w[f];
			r.src[f] = s;
			r.dst[f] = d;
			r.w[f] = w;
		}
		h = gnn_graph_from_edges(r.nv, r.ne, r.src, r.dst, r.w, &err);
		assert_non_null(h);
		assert_memory_equal(gnn_graph_src(g), gnn_graph_src(h),
			(size_t) r.ne * sizeof(uint32_t));
		assert_memory_equal(gnn_graph_weight(g), gnn_graph_weight(h),
			(size_t) r.ne * sizeof(float));
		gnn_graph_free(g);
		gnn_graph_free(h);
		rand_graph_free(&r);
	}
}

/* --- shards ------------------------------------------------------------- */

/* Six vertices, ten edges (src -> dst). */
static const struct edge six[] = {
	{ 0, 1, 1 }, { 1, 0, 1 }, { 4, 0, 1 }, { 2, 3, 1 }, { 5, 2, 1 },
	{ 0, 5, 1 }, { 1, 4, 1 }, { 0, 4, 1 }, { 3, 5, 1 }, { 5, 5, 1 },
};

/* Subshard (i, j) holds dst in [2i, 2i+2), src in [2j, 2j+2):
 *   (0,0): 1->0, 0->1       (0,1): -        (0,2): 4->0
 *   (1,0): -                (1,1): 2->3     (1,2): 5->2
 *   (2,0): 0->4, 1->4, 0->5 (2,1): 3->5     (2,2): 5->5
 * For n1 = 4 (two shards per side): (0,0) has 1->0, 0->1, 2->3; (0,1)
 * has 4->0, 5->2; (1,0) has 0->4, 1->4, 0->5, 3->5; (1,1) has 5->5.
 * With one shard (n1 >= 6) the order is the graph's (dst, src) order.
 */
static const struct shard_case {
	int64_t n1, count;
	int64_t edges[9];	/* row-major counts */
	struct edge order[10];	/* the edges in subshard order */
} shard_cases[] = {
	{ 2, 3, { 2, 0, 1, 0, 1, 1, 3, 1, 1 },
	  { { 1, 0, 1 }, { 0, 1, 1 }, { 4, 0, 1 }, { 2, 3, 1 }, { 5, 2, 1 },
	    { 0, 4, 1 }, { 1, 4, 1 }, { 0, 5, 1 }, { 3, 5, 1 },
	    { 5, 5, 1 } } },
	{ 4, 2, { 3, 2, 4, 1 },
	  { { 1, 0, 1 }, { 0, 1, 1 }, { 2, 3, 1 }, { 4, 0, 1 }, { 5, 2, 1 },
	    { 0, 4, 1 }, { 1, 4, 1 }, { 0, 5, 1 }, { 3, 5, 1 },
	    { 5, 5, 1 } } },
	{ 6, 1, { 10 },
	  { { 1, 0, 1 }, { 4, 0, 1 }, { 0, 1, 1 }, { 5, 2, 1 }, { 2, 3, 1 },
	    { 0, 4, 1 }, { 1, 4, 1 }, { 0, 5, 1 }, { 3, 5, 1 },
	    { 5, 5, 1 } } },
	{ 100, 1, { 10 },
	  { { 1, 0, 1 }, { 4, 0, 1 }, { 0, 1, 1 }, { 5, 2, 1 }, { 2, 3, 1 },
	    { 0, 4, 1 }, { 1, 4, 1 }, { 0, 5, 1 }, { 3, 5, 1 },
	    { 5, 5, 1 } } },
};

static void test_shards_hand(void **state)
{
	dse_error err = { 0 };
	gnn_graph *g = build(6, 10, six, 0, &err);
	size_t c;

	(void) state;
	assert_non_null(g);
	for (c = 0; c < sizeof(shard_cases) / sizeof(shard_cases[0]); c++) {
		const struct shard_case *k = &shard_cases[c];
		gnn_shards *s = gnn_shards_alloc(g, k->n1, &err);
		int64_t i, j, off = 0;
		int e;

		assert_non_null(s);
		assert_int_equal(gnn_shards_n1(s), k->n1);
		assert_int_equal(gnn_shards_count(s), k->count);
		for (i = 0; i < k->count; i++)
			for (j = 0; j < k->count; j++) {
				assert_int_equal(gnn_shards_edges_in(s, i, j),
					k->edges[i * k->count + j]);
				assert_int_equal(gnn_shards_offset(s, i, j),
					off);
				off += k->edges[i * k->count + j];
			}
		for (e = 0; e < 10; e++) {
			int64_t n = gnn_shards_edges(s)[e];

			assert_int_equal(gnn_graph_src(g)[n],
				k->order[e].src);
			assert_int_equal(gnn_graph_dst(g)[n],
				k->order[e].dst);
		}
		assert_int_equal(gnn_shards_edges_in(s, k->count, 0), 0);
		assert_int_equal(gnn_shards_offset(s, -1, 0), -1);
		gnn_shards_free(s);
	}
	gnn_graph_free(g);
}

static void test_shards_bad(void **state)
{
	dse_error err = { 0 };
	gnn_graph *g = build(6, 10, six, 0, &err);
	uint32_t zero = 0;
	gnn_graph *big;

	(void) state;
	assert_null(gnn_shards_alloc(g, 0, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "at least 1"));
	assert_null(gnn_shards_alloc(NULL, 2, &err));
	/* 100000 vertices in shards of one: 10^10 subshards. */
	big = gnn_graph_from_edges(100000, 1, &zero, &zero, NULL, &err);
	assert_non_null(big);
	dse_error_clear(&err);
	assert_null(gnn_shards_alloc(big, 1, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "use a larger n1"));
	/* 8193 vertices in shards of one: one shard per side too many. */
	{
		gnn_graph *edge = gnn_graph_from_edges(8193, 1, &zero, &zero,
			NULL, &err);

		assert_non_null(edge);
		assert_null(gnn_shards_alloc(edge, 1, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		gnn_graph_free(edge);
	}
	/* 1000 shards per side are accepted. */
	{
		gnn_shards *s = gnn_shards_alloc(big, 100, &err);

		assert_non_null(s);
		assert_int_equal(gnn_shards_count(s), 1000);
		assert_int_equal(gnn_shards_edges_in(s, 0, 0), 1);
		gnn_shards_free(s);
	}
	assert_null(gnn_shards_free(NULL));
	gnn_graph_free(big);
	gnn_graph_free(g);
}

/* Every edge in exactly one subshard and in the right one, subshards
 * contiguous and in row-major order, (dst, src) order inside each.
 */
static void check_shards(const gnn_graph *g, int64_t n1)
{
	dse_error err = { 0 };
	gnn_shards *s = gnn_shards_alloc(g, n1, &err);
	int64_t ne = gnn_graph_n_edges(g), nv = gnn_graph_n_vertices(g);
	int64_t k, i, j, off = 0, p;
	char *seen = calloc((size_t) ne, 1);
	const uint32_t *src = gnn_graph_src(g), *dst = gnn_graph_dst(g);

	assert_non_null(s);
	assert_non_null(seen);
	k = gnn_shards_count(s);
	assert_int_equal(k, (nv + n1 - 1) / n1);
	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++) {
			int64_t n = gnn_shards_edges_in(s, i, j);

			assert_int_equal(gnn_shards_offset(s, i, j), off);
			for (p = off; p < off + n; p++) {
				int64_t e = gnn_shards_edges(s)[p];

				assert_true(e >= 0 && e < ne);
				assert_false(seen[e]);
				seen[e] = 1;
				assert_int_equal(dst[e] / n1, i);
				assert_int_equal(src[e] / n1, j);
				if (p > off)
					assert_true(e >
						gnn_shards_edges(s)[p - 1]);
			}
			off += n;
		}
	assert_int_equal(off, ne);
	free(seen);
	gnn_shards_free(s);
}

static void test_shards_property(void **state)
{
	static const int64_t n1s[] = { 1, 3, 7, 64, 999, 1000, 5000 };
	struct rand_graph r;
	dse_error err = { 0 };
	gnn_graph *g;
	size_t c;

	(void) state;
	rand_graph_init(&r, 1000, 30000, 5);
	g = gnn_graph_from_edges(r.nv, r.ne, r.src, r.dst, r.w, &err);
	assert_non_null(g);
	for (c = 0; c < sizeof(n1s) / sizeof(n1s[0]); c++)
		check_shards(g, n1s[c]);
	gnn_graph_free(g);
	rand_graph_free(&r);
}

/* The same property on skewed R-MAT graphs, whose subshards are very
 * uneven (most edges near vertex 0), with a vertex count that is not a
 * multiple of most n1 (the last shard is short).
 */
static void test_shards_rmat(void **state)
{
	static const struct { int64_t nv, ne; uint64_t seed; } graphs[] = {
		{ 3001, 40000, 1 }, { 4096, 60000, 2 }, { 50, 2000, 3 },
	};
	static const int64_t n1s[] = { 1, 2, 16, 100, 1024, 4096 };
	size_t c, n;

	(void) state;
	for (c = 0; c < sizeof(graphs) / sizeof(graphs[0]); c++) {
		dse_error err = { 0 };
		gnn_graph *g = gnn_graph_rmat(graphs[c].nv, graphs[c].ne, 0.57,
			0.19, 0.19, 0.05, graphs[c].seed, &err);

		assert_non_null(g);
		for (n = 0; n < sizeof(n1s) / sizeof(n1s[0]); n++)
			check_shards(g, n1s[n]);
		gnn_graph_free(g);
	}
}

/* --- degree statistics -------------------------------------------------- */

/* The six-vertex graph: in-degrees 2 1 1 1 2 3, out-degrees 3 2 1 1 1 2;
 * both have mean 5/3 and variance 5/9; Gini of 1 1 1 2 2 3 is
 * (-5 - 3 - 1 + 2 2 + 3 2 + 5 3) / (6 10) = 14/60.
 * Five vertices with 0->1 twice and 1->0: in 1 2 0 0 0, out 2 1 0 0 0,
 * std 0.8, three isolated, Gini (2 1 + 4 2) / (5 3) = 2/3.
 * A 4-cycle: all degrees 1, Gini 0.
 */
static const struct stats_case {
	int64_t nv;
	int ne;
	struct edge e[MAX_E];
	gnn_degree_stats want;
} stats_cases[] = {
	{ 6, 10,
	  { { 0, 1, 1 }, { 1, 0, 1 }, { 4, 0, 1 }, { 2, 3, 1 }, { 5, 2, 1 },
	    { 0, 5, 1 }, { 1, 4, 1 }, { 0, 4, 1 }, { 3, 5, 1 },
	    { 5, 5, 1 } },
	  { 6, 10, 10.0 / 6, 1, 3, 0.74535599249992989, 1, 3,
	    0.74535599249992989, 0, 14.0 / 60 } },
	{ 5, 3, { { 0, 1, 1 }, { 0, 1, 1 }, { 1, 0, 1 } },
	  { 5, 3, 0.6, 0, 2, 0.8, 0, 2, 0.8, 3, 2.0 / 3 } },
	{ 4, 4, { { 0, 1, 1 }, { 1, 2, 1 }, { 2, 3, 1 }, { 3, 0, 1 } },
	  { 4, 4, 1.0, 1, 1, 0.0, 1, 1, 0.0, 0, 0.0 } },
	{ 3, 0, { { 0 } }, { 3, 0, 0.0, 0, 0, 0.0, 0, 0, 0.0, 3, 0.0 } },
};

static void test_degree_stats(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(stats_cases) / sizeof(stats_cases[0]); c++) {
		const struct stats_case *k = &stats_cases[c];
		const gnn_degree_stats *w = &k->want;
		dse_error err = { 0 };
		gnn_graph *g = build(k->nv, k->ne, k->e, 0, &err);
		gnn_degree_stats d;

		assert_non_null(g);
		gnn_graph_degree_stats(g, &d);
		assert_int_equal(d.n_vertices, w->n_vertices);
		assert_int_equal(d.n_edges, w->n_edges);
		assert_float_equal(d.mean, w->mean, 1e-12);
		assert_int_equal(d.in_min, w->in_min);
		assert_int_equal(d.in_max, w->in_max);
		assert_float_equal(d.in_std, w->in_std, 1e-12);
		assert_int_equal(d.out_min, w->out_min);
		assert_int_equal(d.out_max, w->out_max);
		assert_float_equal(d.out_std, w->out_std, 1e-12);
		assert_int_equal(d.isolated, w->isolated);
		assert_float_equal(d.in_gini, w->in_gini, 1e-12);
		gnn_graph_free(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_small),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_sort_random),
		cmocka_unit_test(test_shards_hand),
		cmocka_unit_test(test_shards_bad),
		cmocka_unit_test(test_shards_property),
		cmocka_unit_test(test_shards_rmat),
		cmocka_unit_test(test_degree_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
