/* Tests of the compiler passes (gnn/passes.c): computation-order
 * optimisation and layer fusion on GraphAGILE's GCN example and the
 * built-in models, kernel mapping to Tiling Blocks on a graph small
 * enough to work out by hand and on random graphs, and the dynamic task
 * scheduling.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gnn/graph.h"
#include "gnn/ir.h"

/* Cora (GraphAGILE Table IV). */
#define CORA_V 2708
#define CORA_E 5429
#define CORA_F 1433
#define CORA_C 7

/* The structural invariants every pass must keep: ids are the positions,
 * parents come before their children, every link is recorded at both
 * ends, and the lengths agree along every link.
 */
static void check_links(const gnn_model *m)
{
	int i, j, k, n = gnn_model_n_layers(m);

	for (i = 0; i < n; i++) {
		const gnn_layer *l = gnn_model_layer(m, i);

		assert_int_equal(l->id, i);
		if (l->kind != GNN_LINEAR)
			assert_int_equal(l->f_out, l->f_in);
		for (j = 0; j < l->n_parent; j++) {
			const gnn_layer *p = gnn_model_layer(m, l->parent[j]);
			int found = 0;

			assert_non_null(p);
			assert_true(p->id < i);
			assert_int_equal(p->f_out, l->f_in);
			for (k = 0; k < p->n_child; k++)
				found += p->child[k] == i;
			assert_int_equal(found, 1);
		}
		for (j = 0; j < l->n_child; j++) {
			const gnn_layer *c = gnn_model_layer(m, l->child[j]);
			int found = 0;

			assert_non_null(c);
			assert_true(c->id > i);
			for (k = 0; k < c->n_parent; k++)
				found += c->parent[k] == i;
			assert_int_equal(found, 1);
		}
	}
}

/* One expected layer: kind, lengths, parents, children, fused flags. */
struct want_layer {
	int kind;
	int64_t f_in, f_out;
	int n_parent, parent0;
	int n_child, child0;
	int act_fused, act, bn_fused;
};

static void check_model(const gnn_model *m, const struct want_layer *w,
	int n)
{
	int i;

	assert_int_equal(gnn_model_n_layers(m), n);
	for (i = 0; i < n; i++) {
		const gnn_layer *l = gnn_model_layer(m, i);

		if (l->kind != w[i].kind || l->f_in != w[i].f_in ||
				l->f_out != w[i].f_out)
			fail_msg("layer %d: %s %lld -> %lld", i,
				gnn_layer_kind_name(l->kind),
				(long long) l->f_in, (long long) l->f_out);
		assert_int_equal(l->n_parent, w[i].n_parent);
		if (l->n_parent)
			assert_int_equal(l->parent[0], w[i].parent0);
		assert_int_equal(l->n_child, w[i].n_child);
		if (l->n_child)
			assert_int_equal(l->child[0], w[i].child0);
		assert_int_equal(l->act_fused, w[i].act_fused);
		if (l->act_fused || l->kind == GNN_ACTIVATION)
			assert_int_equal(l->act, w[i].act);
		assert_int_equal(l->bn_fused, w[i].bn_fused);
	}
}

/* GraphAGILE's example (Listing 1 and 3, Figure 7): GCN on Cora, 1433 ->
 * 16 -> 7.  Both Aggregate-Linear pairs shrink the features, so both
 * swap; then the ReLU, now after the first Aggregate, fuses into it.
 */
static void test_gcn_example(void **state)
{
	static const struct want_layer ordered[] = {
		{ GNN_LINEAR, 1433, 16, 0, 0, 1, 1, 0, 0, 0 },
		{ GNN_AGGREGATE, 16, 16, 1, 0, 1, 2, 0, 0, 0 },
		{ GNN_ACTIVATION, 16, 16, 1, 1, 1, 3, 0, GNN_ACT_RELU, 0 },
		{ GNN_LINEAR, 16, 7, 1, 2, 1, 4, 0, 0, 0 },
		{ GNN_AGGREGATE, 7, 7, 1, 3, 0, 0, 0, 0, 0 },
	};
	static const struct want_layer fused[] = {
		{ GNN_LINEAR, 1433, 16, 0, 0, 1, 1, 0, 0, 0 },
		{ GNN_AGGREGATE, 16, 16, 1, 0, 1, 2, 1, GNN_ACT_RELU, 0 },
		{ GNN_LINEAR, 16, 7, 1, 1, 1, 3, 0, 0, 0 },
		{ GNN_AGGREGATE, 7, 7, 1, 2, 0, 0, 0, 0, 0 },
	};
	dse_error err;
	gnn_model *m = gnn_model_builtin("b1", CORA_V, CORA_E, CORA_F, CORA_C,
		&err);
	double before = gnn_model_ops(m);

	(void) state;
	assert_int_equal(gnn_pass_order(m), 2);
	check_model(m, ordered, 5);
	check_links(m);
	/* Equations 12 and 13 per layer: the aggregates now run on 16 and
	 * 7 features instead of 1433 and 16.
	 */
	assert_true(before - gnn_model_ops(m) ==
		2.0 * (1433 - 16) * CORA_E + 2.0 * (16 - 7) * CORA_E);
	assert_int_equal(gnn_pass_order(m), 0);
	assert_int_equal(gnn_pass_fuse(m), 1);
	check_model(m, fused, 4);
	check_links(m);
	assert_int_equal(gnn_pass_fuse(m), 0);
	gnn_model_free(m);
}

/* Swaps, fusions and the resulting layer counts of b1 to b8 on Cora, by
 * hand from their decompositions: GCN and GraphSAGE swap both layers; GIN
 * folds a BatchNorm and two ReLUs per layer (one fewer in the last); GAT
 * folds two exps and one ReLU; SGC moves its Linear through both
 * aggregates; GraphGym's pairs keep their length and do not swap.
 */
static const struct pass_case {
	const char *name;
	int swaps, fused, layers;
} pass_cases[] = {
	{ "b1", 2, 1, 4 }, { "b2", 2, 1, 4 }, { "b3", 2, 1, 8 },
	{ "b4", 2, 1, 8 }, { "b5", 0, 14, 20 }, { "b6", 0, 3, 6 },
	{ "b7", 2, 0, 3 }, { "b8", 0, 4, 8 },
};

static void test_builtin_passes(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(pass_cases) / sizeof(pass_cases[0]); i++) {
		const struct pass_case *c = &pass_cases[i];
		dse_error err;
		gnn_model *m = gnn_model_builtin(c->name, CORA_V, CORA_E,
			CORA_F, CORA_C, &err);
		double ops = gnn_model_ops(m);
		int swaps = gnn_pass_order(m), fused;

		check_links(m);
		fused = gnn_pass_fuse(m);
		check_links(m);
		if (swaps != c->swaps || fused != c->fused ||
				gnn_model_n_layers(m) != c->layers)
			fail_msg("%s: %d swaps, %d fused, %d layers", c->name,
				swaps, fused, gnn_model_n_layers(m));
		/* Fewer operations exactly when something swapped. */
		assert_true(swaps ? gnn_model_ops(m) < ops :
			gnn_model_ops(m) == ops);
		gnn_model_free(m);
	}
}

/* SGC: the Linear ends first, both aggregates run on the 7 classes. */
static void test_sgc_order(void **state)
{
	static const struct want_layer want[] = {
		{ GNN_LINEAR, 1433, 7, 0, 0, 1, 1, 0, 0, 0 },
		{ GNN_AGGREGATE, 7, 7, 1, 0, 1, 2, 0, 0, 0 },
		{ GNN_AGGREGATE, 7, 7, 1, 1, 0, 0, 0, 0, 0 },
	};
	dse_error err;
	gnn_model *m = gnn_model_builtin("sgc", CORA_V, CORA_E, CORA_F, CORA_C,
		&err);

	(void) state;
	assert_int_equal(gnn_pass_order(m), 2);
	check_model(m, want, 3);
	gnn_model_free(m);
}

/* GIN after fusion: each layer is Aggregate, Vector-Add, Linear (with the
 * batch norm and ReLU folded in), Linear (with the ReLU between layers,
 * except the last).
 */
static void test_gin_fusion(void **state)
{
	dse_error err;
	gnn_model *m = gnn_model_builtin("gin", CORA_V, CORA_E, CORA_F, CORA_C,
		&err);
	int i;

	(void) state;
	gnn_pass_order(m);
	gnn_pass_fuse(m);
	for (i = 0; i < 20; i++) {
		const gnn_layer *l = gnn_model_layer(m, i);
		static const int kinds[4] = { GNN_AGGREGATE, GNN_VECTOR_ADD,
			GNN_LINEAR, GNN_LINEAR };

		assert_int_equal(l->kind, kinds[i % 4]);
		assert_int_equal(l->bn_fused, i % 4 == 2);
		assert_int_equal(l->act_fused, i % 4 == 2 ||
			(i % 4 == 3 && i != 19));
	}
	assert_int_equal(gnn_model_layer(m, 19)->f_out, CORA_C);
	gnn_model_free(m);
}

/* Builds "Aggregate(op) -> Linear f -> g" on the input, with extra
 * layers for the cases that need them.
 */
static gnn_model *pair_model(int64_t v, int64_t e, int op, int64_t f,
	int64_t g, int extra)
{
	gnn_model *m = gnn_model_alloc("pair", v, e);
	gnn_layer l;
	dse_error err;

	memset(&l, 0, sizeof(l));
	l.kind = GNN_AGGREGATE;
	l.aggop = op;
	l.f_in = f;
	if (extra == 2) {
		l.act_fused = 1;
		l.act = GNN_ACT_RELU;
	}
	assert_int_equal(gnn_model_add(m, &l, &err), 0);
	memset(&l, 0, sizeof(l));
	l.kind = GNN_LINEAR;
	l.n_parent = 1;
	l.parent[0] = 0;
	l.f_out = g;
	assert_int_equal(gnn_model_add(m, &l, &err), 1);
	if (extra == 1) {
		/* A second reader of the aggregate. */
		memset(&l, 0, sizeof(l));
		l.kind = GNN_ACTIVATION;
		l.act = GNN_ACT_RELU;
		l.n_parent = 1;
		l.parent[0] = 0;
		assert_int_equal(gnn_model_add(m, &l, &err), 2);
	}
	return m;
}

/* Pairs the order pass must leave alone, and two that it must swap. */
static const struct order_case {
	const char *what;
	int64_t v, e;
	int op;
	int64_t f, g;
	int extra;
	int swaps;
} order_cases[] = {
	{ "linear that widens", 100, 1000, GNN_AGG_SUM, 16, 64, 0, 0 },
	{ "equal lengths", 100, 1000, GNN_AGG_SUM, 256, 256, 0, 0 },
	{ "max is not linear", 100, 1000, GNN_AGG_MAX, 64, 8, 0, 0 },
	{ "min is not linear", 100, 1000, GNN_AGG_MIN, 64, 8, 0, 0 },
	{ "aggregate read twice", 100, 1000, GNN_AGG_SUM, 64, 8, 1, 0 },
	{ "activation fused in the aggregate", 100, 1000, GNN_AGG_SUM, 64, 8,
	  2, 0 },
	{ "no edges: nothing to gain", 100, 0, GNN_AGG_SUM, 64, 8, 0, 0 },
	{ "one column less pays", 100, 1000, GNN_AGG_SUM, 64, 63, 0, 1 },
	{ "mean is linear", 100, 1000, GNN_AGG_MEAN, 64, 8, 0, 1 },
};

static void test_order_cases(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(order_cases) / sizeof(order_cases[0]); i++) {
		const struct order_case *c = &order_cases[i];
		gnn_model *m = pair_model(c->v, c->e, c->op, c->f, c->g,
			c->extra);
		gnn_model *before = gnn_model_copy(m);
		int swaps = gnn_pass_order(m), j;

		if (swaps != c->swaps)
			fail_msg("%s: %d swaps", c->what, swaps);
		check_links(m);
		if (!swaps) {
			for (j = 0; j < gnn_model_n_layers(m); j++)
				assert_memory_equal(gnn_model_layer(m, j),
					gnn_model_layer(before, j),
					sizeof(gnn_layer));
		} else {
			assert_int_equal(gnn_model_layer(m, 0)->kind,
				GNN_LINEAR);
			assert_int_equal(gnn_model_layer(m, 1)->f_in, c->g);
			assert_int_equal(gnn_model_layer(m, 1)->aggop, c->op);
		}
		gnn_model_free(before);
		gnn_model_free(m);
	}
}

/* A Linear with a fused ReLU and batch norm keeps them at the pair's
 * output when it moves before the aggregate.
 */
static void test_order_moves_fused(void **state)
{
	gnn_model *m = pair_model(100, 1000, GNN_AGG_SUM, 64, 8, 0);
	gnn_model *f = gnn_model_alloc("fused", 100, 1000);
	gnn_layer l = *gnn_model_layer(m, 0);
	dse_error err;

	(void) state;
	l.n_child = 0;
	assert_int_equal(gnn_model_add(f, &l, &err), 0);
	l = *gnn_model_layer(m, 1);
	l.act_fused = 1;
	l.act = GNN_ACT_SWISH;
	l.bn_fused = 1;
	assert_int_equal(gnn_model_add(f, &l, &err), 1);
	assert_int_equal(gnn_pass_order(f), 1);
	assert_int_equal(gnn_model_layer(f, 0)->act_fused, 0);
	assert_int_equal(gnn_model_layer(f, 0)->bn_fused, 0);
	assert_int_equal(gnn_model_layer(f, 1)->act_fused, 1);
	assert_int_equal(gnn_model_layer(f, 1)->act, GNN_ACT_SWISH);
	assert_int_equal(gnn_model_layer(f, 1)->bn_fused, 1);
	gnn_model_free(m);
	gnn_model_free(f);
}

/* Fusion that must not happen: the parent has a second child; the parent
 * already carries an activation (a batch norm after it would run in the
 * wrong order); the parent is a BatchNorm layer.  Linear -> ReLU -> BN:
 * the ReLU fuses, the BN then follows a Linear with an activation and
 * stays.  Linear -> BN -> ReLU: both fuse.  An Aggregate read by a ReLU
 * and a Linear keeps the ReLU.
 */
static void test_fuse_limits(void **state)
{
	static const struct {
		int k1, k2;	/* the two layers after the Linear */
		int fused, layers;
	} cases[] = {
		{ GNN_ACTIVATION, GNN_BATCHNORM, 1, 2 },
		{ GNN_BATCHNORM, GNN_ACTIVATION, 2, 1 },
		{ GNN_ACTIVATION, GNN_ACTIVATION, 1, 2 },
	};
	size_t i;
	gnn_model *m;
	gnn_layer l;
	dse_error err;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m = gnn_model_alloc("chain", 10, 10);
		memset(&l, 0, sizeof(l));
		l.kind = GNN_LINEAR;
		l.f_in = 8;
		l.f_out = 4;
		assert_int_equal(gnn_model_add(m, &l, &err), 0);
		memset(&l, 0, sizeof(l));
		l.kind = cases[i].k1;
		l.act = l.kind == GNN_ACTIVATION ? GNN_ACT_RELU : 0;
		l.n_parent = 1;
		l.parent[0] = 0;
		assert_int_equal(gnn_model_add(m, &l, &err), 1);
		l.kind = cases[i].k2;
		l.act = l.kind == GNN_ACTIVATION ? GNN_ACT_PRELU : 0;
		l.parent[0] = 1;
		assert_int_equal(gnn_model_add(m, &l, &err), 2);
		assert_int_equal(gnn_pass_fuse(m), cases[i].fused);
		assert_int_equal(gnn_model_n_layers(m), cases[i].layers);
		assert_int_equal(gnn_model_layer(m, 0)->act, GNN_ACT_RELU +
			(cases[i].k1 == GNN_BATCHNORM));
		check_links(m);
		gnn_model_free(m);
	}
	m = pair_model(100, 1000, GNN_AGG_SUM, 64, 8, 1);
	assert_int_equal(gnn_pass_fuse(m), 0);
	assert_int_equal(gnn_model_n_layers(m), 3);
	gnn_model_free(m);
}

/* --- kernel mapping -------------------------------------------------------
 *
 * The hand graph: 5 vertices, n1 = 2 (shards of 2, 2 and 1 vertices), the
 * edges src -> dst below.  Subshard (dst / 2, src / 2) edge counts:
 *   shard 0: (0,0) 2 [0->1, 1->0], (0,1) 1 [2->0], (0,2) 1 [4->1]: 4
 *   shard 1: (1,0) 2 [0->3, 1->3], (1,1) 1 [3->2], (1,2) 0:           3
 *   shard 2: (2,0) 0, (2,1) 1 [2->4], (2,2) 1 [4->4]:                   2
 * Seven subshards hold edges.
 */
static const uint32_t hand_src[] = { 0, 1, 2, 4, 3, 0, 1, 4, 2 };
static const uint32_t hand_dst[] = { 1, 0, 0, 1, 2, 3, 3, 4, 4 };

static gnn_graph *hand_graph(void)
{
	dse_error err;
	gnn_graph *g = gnn_graph_from_edges(5, 9, hand_src, hand_dst, NULL,
		&err);

	assert_non_null(g);
	return g;
}

/* 0 Aggregate(5) on the input, 1 Linear 5 -> 3, 2 Vector-Inner(3),
 * 3 Activation (unfused), 4 Aggregate(3) weighted by 3, 5 Vector-Add of 4
 * and 1, 6 BatchNorm (unfused).
 */
static gnn_model *hand_model(void)
{
	static const struct { int kind, p0, p1; int64_t f_in, f_out; } ls[] = {
		{ GNN_AGGREGATE, -1, -1, 5, 0 }, { GNN_LINEAR, 0, -1, 0, 3 },
		{ GNN_VECTOR_INNER, 1, -1, 0, 0 },
		{ GNN_ACTIVATION, 2, -1, 0, 0 },
		{ GNN_AGGREGATE, 1, 3, 0, 0 }, { GNN_VECTOR_ADD, 4, 1, 0, 0 },
		{ GNN_BATCHNORM, 5, -1, 0, 0 },
	};
	gnn_model *m = gnn_model_alloc("hand", 5, 9);
	size_t i;

	for (i = 0; i < sizeof(ls) / sizeof(ls[0]); i++) {
		gnn_layer l;
		dse_error err;

		memset(&l, 0, sizeof(l));
		l.kind = ls[i].kind;
		l.f_in = ls[i].f_in;
		l.f_out = ls[i].f_out;
		l.act = l.kind == GNN_ACTIVATION ? GNN_ACT_EXP : 0;
		if (ls[i].p0 >= 0)
			l.parent[l.n_parent++] = ls[i].p0;
		if (ls[i].p1 >= 0)
			l.parent[l.n_parent++] = ls[i].p1;
		if (gnn_model_add(m, &l, &err) != (int) i)
			fail_msg("hand layer %zu: %s", i, err.msg);
	}
	return m;
}

/* The blocks expected with n2 = 2, by hand: {kernel, shard, col_shard,
 * fiber, rows, cols, k, edges} in plan order.
 */
struct want_block {
	int kernel;
	int64_t shard, col_shard, fiber, rows, cols, k, edges;
};

static const struct want_block hand_agg5[] = {
	/* Aggregate of 5 columns: fibers of 2, 2, 1 outside, shards in. */
	{ GNN_K_SPDMM, 0, -1, 0, 2, 2, 5, 4 },
	{ GNN_K_SPDMM, 1, -1, 0, 2, 2, 5, 3 },
	{ GNN_K_SPDMM, 2, -1, 0, 1, 2, 5, 2 },
	{ GNN_K_SPDMM, 0, -1, 1, 2, 2, 5, 4 },
	{ GNN_K_SPDMM, 1, -1, 1, 2, 2, 5, 3 },
	{ GNN_K_SPDMM, 2, -1, 1, 1, 2, 5, 2 },
	{ GNN_K_SPDMM, 0, -1, 2, 2, 1, 5, 4 },
	{ GNN_K_SPDMM, 1, -1, 2, 2, 1, 5, 3 },
	{ GNN_K_SPDMM, 2, -1, 2, 1, 1, 5, 2 },
};
static const struct want_block hand_linear[] = {
	/* Linear 5 -> 3: output fibers of 2 and 1, k = 5. */
	{ GNN_K_GEMM, 0, -1, 0, 2, 2, 5, 0 },
	{ GNN_K_GEMM, 1, -1, 0, 2, 2, 5, 0 },
	{ GNN_K_GEMM, 2, -1, 0, 1, 2, 5, 0 },
	{ GNN_K_GEMM, 0, -1, 1, 2, 1, 5, 0 },
	{ GNN_K_GEMM, 1, -1, 1, 2, 1, 5, 0 },
	{ GNN_K_GEMM, 2, -1, 1, 1, 1, 5, 0 },
};
static const struct want_block hand_sddmm[] = {
	/* The seven subshards with edges, row-major; k = 3 features. */
	{ GNN_K_SDDMM, 0, 0, -1, 2, 2, 3, 2 },
	{ GNN_K_SDDMM, 0, 1, -1, 2, 2, 3, 1 },
	{ GNN_K_SDDMM, 0, 2, -1, 2, 2, 3, 1 },
	{ GNN_K_SDDMM, 1, 0, -1, 2, 2, 3, 2 },
	{ GNN_K_SDDMM, 1, 1, -1, 2, 2, 3, 1 },
	{ GNN_K_SDDMM, 2, 1, -1, 1, 2, 3, 1 },
	{ GNN_K_SDDMM, 2, 2, -1, 1, 2, 3, 1 },
};

static void check_blocks(const gnn_plan *p, int layer, int kernel,
	const struct want_block *w, int64_t n)
{
	int64_t first, count, i;

	gnn_plan_layer_blocks(p, layer, &first, &count);
	assert_int_equal(count, n);
	for (i = 0; i < n; i++) {
		const gnn_block *b = gnn_plan_block(p, first + i);
		assert_int_equal(b->layer, layer);
		assert_int_equal(b->kernel, kernel);
		if (w && (b->kernel != w[i].kernel ||
				b->shard != w[i].shard ||
				b->col_shard != w[i].col_shard ||
				b->fiber != w[i].fiber || b->rows != w[i].rows ||
				b->cols != w[i].cols || b->k != w[i].k ||
				b->edges != w[i].edges))
			fail_msg("layer %d block %lld: shard %lld/%lld fiber "
				"%lld rows %lld cols %lld k %lld edges %lld",
				layer, (long long) i, (long long) b->shard,
				(long long) b->col_shard, (long long) b->fiber,
				(long long) b->rows, (long long) b->cols,
				(long long) b->k, (long long) b->edges);
	}
}

static void test_plan_hand(void **state)
{
	gnn_graph *g = hand_graph();
	gnn_model *m = hand_model();
	dse_error err;
	gnn_shards *s = gnn_shards_alloc(g, 2, &err);
	gnn_plan *p = gnn_plan_alloc(m, s, 2, &err);
	int64_t first, count, i, agg3_edges = 0;

	(void) state;
	assert_non_null(p);
	assert_int_equal(gnn_plan_n2(p), 2);
	assert_ptr_equal(gnn_plan_shards(p), s);
	assert_int_equal(gnn_model_n_layers(gnn_plan_model(p)), 7);
	/* 9 + 6 + 7 + 6 (activation) + 6 + 6 (add) + 6 (batch norm). */
	assert_int_equal(gnn_plan_n_blocks(p), 46);
	check_blocks(p, 0, GNN_K_SPDMM, hand_agg5, 9);
	check_blocks(p, 1, GNN_K_GEMM, hand_linear, 6);
	check_blocks(p, 2, GNN_K_SDDMM, hand_sddmm, 7);
	check_blocks(p, 3, GNN_K_ELEMWISE, NULL, 6);
	check_blocks(p, 4, GNN_K_SPDMM, NULL, 6);
	check_blocks(p, 5, GNN_K_VADD, NULL, 6);
	check_blocks(p, 6, GNN_K_ELEMWISE, NULL, 6);
	/* The second aggregate: 2 fibers (2 + 1 columns) of 9 edges. */
	gnn_plan_layer_blocks(p, 4, &first, &count);
	for (i = 0; i < count; i++)
		agg3_edges += gnn_plan_block(p, first + i)->edges;
	assert_int_equal(agg3_edges, 18);
	/* The element-wise blocks cover 5 x 3 elements. */
	gnn_plan_layer_blocks(p, 5, &first, &count);
	for (i = 0, agg3_edges = 0; i < count; i++) {
		const gnn_block *b = gnn_plan_block(p, first + i);

		agg3_edges += b->rows * b->cols;
	}
	assert_int_equal(agg3_edges, 15);
	assert_null(gnn_plan_block(p, 46));
	assert_null(gnn_plan_block(p, -1));
	gnn_plan_layer_blocks(p, 7, &first, &count);
	assert_int_equal(count, 0);
	gnn_plan_free(p);
	gnn_shards_free(s);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* Plans that must be refused: no fiber width, a partition of another
 * graph (vertex or edge counts differ).
 */
static void test_plan_errors(void **state)
{
	gnn_graph *g = hand_graph();
	gnn_model *m = hand_model();
	gnn_model *wrong_v = gnn_model_alloc("v", 7, 9);
	gnn_model *wrong_e = gnn_model_alloc("e", 5, 8);
	dse_error err;
	gnn_shards *s = gnn_shards_alloc(g, 2, &err);

	(void) state;
	dse_error_clear(&err);
	assert_null(gnn_plan_alloc(m, s, 0, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	dse_error_clear(&err);
	assert_null(gnn_plan_alloc(wrong_v, s, 2, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "7 vertices"));
	dse_error_clear(&err);
	assert_null(gnn_plan_alloc(wrong_e, s, 2, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "8 edges"));
	assert_null(gnn_plan_alloc(NULL, s, 2, &err));
	assert_null(gnn_plan_free(NULL));
	gnn_shards_free(s);
	gnn_model_free(m);
	gnn_model_free(wrong_v);
	gnn_model_free(wrong_e);
	gnn_graph_free(g);
}

/* A small deterministic generator for the property tests. */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Over random graphs, n1 and n2: an Aggregate's blocks carry |E| edges
 * per fiber, each (shard, fiber) once, each block the edges whose
 * destination is in its shard (counted from the edge list); a
 * Vector-Inner has one block per non-empty subshard, |E| edges in all.
 */
static void check_random_plan(uint64_t *seed)
{
	int64_t v = 1 + (int64_t) (next_rand(seed) % 300);
	int64_t e = (int64_t) (next_rand(seed) % 2000);
	int64_t n1 = 1 + (int64_t) (next_rand(seed) % (uint64_t) (v + 5));
	int64_t n2 = 1 + (int64_t) (next_rand(seed) % 40);
	int64_t f = 1 + (int64_t) (next_rand(seed) % 100);
	int64_t shards = (v + n1 - 1) / n1, fibers = (f + n2 - 1) / n2;
	uint32_t *src = malloc((size_t) (e + 1) * sizeof(*src));
	uint32_t *dst = malloc((size_t) (e + 1) * sizeof(*dst));
	int64_t *per_shard = calloc((size_t) shards, sizeof(int64_t));
	int64_t *sub = calloc((size_t) (shards * shards), sizeof(int64_t));
	char *seen = calloc((size_t) (shards * fibers), 1);
	int64_t i, first, count, sum = 0, nonempty = 0;
	gnn_model *m = gnn_model_alloc("random", v, e);
	gnn_layer l;
	dse_error err;
	gnn_graph *g;
	gnn_shards *s;
	gnn_plan *p;

	for (i = 0; i < e; i++) {
		src[i] = (uint32_t) (next_rand(seed) % (uint64_t) v);
		dst[i] = (uint32_t) (next_rand(seed) % (uint64_t) v);
		per_shard[dst[i] / n1]++;
		if (!sub[(dst[i] / n1) * shards + src[i] / n1]++)
			nonempty++;
	}
	memset(&l, 0, sizeof(l));
	l.kind = GNN_AGGREGATE;
	l.f_in = f;
	assert_int_equal(gnn_model_add(m, &l, &err), 0);
	l.kind = GNN_VECTOR_INNER;
	l.n_parent = 1;
	assert_int_equal(gnn_model_add(m, &l, &err), 1);
	g = gnn_graph_from_edges(v, e, src, dst, NULL, &err);
	assert_non_null(g);
	s = gnn_shards_alloc(g, n1, &err);
	assert_non_null(s);
	p = gnn_plan_alloc(m, s, n2, &err);
	assert_non_null(p);
	gnn_plan_layer_blocks(p, 0, &first, &count);
	assert_int_equal(count, shards * fibers);
	for (i = first; i < first + count; i++) {
		const gnn_block *b = gnn_plan_block(p, i);

		assert_true(b->shard >= 0 && b->shard < shards);
		assert_true(b->fiber >= 0 && b->fiber < fibers);
		assert_int_equal(seen[b->shard * fibers + b->fiber]++, 0);
		assert_int_equal(b->edges, per_shard[b->shard]);
		assert_int_equal(b->rows, b->shard < shards - 1 ? n1 :
			v - (shards - 1) * n1);
		assert_true(b->cols >= 1 && b->cols <= n2);
		sum += b->edges;
	}
	assert_int_equal(sum, e * fibers);
	gnn_plan_layer_blocks(p, 1, &first, &count);
	assert_int_equal(count, nonempty);
	for (i = first, sum = 0; i < first + count; i++) {
		const gnn_block *b = gnn_plan_block(p, i);

		assert_int_equal(b->edges,
			sub[b->shard * shards + b->col_shard]);
		sum += b->edges;
	}
	assert_int_equal(sum, e);
	gnn_plan_free(p);
	gnn_shards_free(s);
	gnn_graph_free(g);
	gnn_model_free(m);
	free(src);
	free(dst);
	free(per_shard);
	free(sub);
	free(seen);
}

static void test_plan_random(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int i;

	(void) state;
	for (i = 0; i < 200; i++)
		check_random_plan(&seed);
}

/* --- task scheduling ------------------------------------------------------ */

/* Hand schedules.  {5,3,3,2} on 2 PEs: 5 -> PE0 (idle at 5), 3 -> PE1 (3),
 * 3 -> PE1 (6), 2 -> PE0 (7); makespan 7.  {2,2,1} on 2: the tie at 2 goes
 * to PE0.  {3,1,2} on 2: PE1 is idle first at 1.
 */
static const struct sched_case {
	uint64_t cost[8];
	int n, pe;
	uint64_t span;
	uint64_t busy[8];
} sched_cases[] = {
	{ { 5, 3, 3, 2 }, 4, 2, 7, { 7, 6 } },
	{ { 5, 3, 3, 2 }, 4, 1, 13, { 13 } },
	{ { 5, 3, 3, 2 }, 4, 4, 5, { 5, 3, 3, 2 } },
	{ { 5, 3, 3, 2 }, 4, 8, 5, { 5, 3, 3, 2, 0, 0, 0, 0 } },
	{ { 0 }, 0, 3, 0, { 0, 0, 0 } },
	{ { 1, 1, 1, 1, 1, 1, 1 }, 7, 3, 3, { 3, 2, 2 } },
	{ { 2, 2, 1 }, 3, 2, 3, { 3, 2 } },
	{ { 3, 1, 2 }, 3, 2, 3, { 3, 3 } },
	{ { 4, 1, 1, 1, 1 }, 5, 2, 4, { 4, 4 } },
};

static void test_schedule_hand(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(sched_cases) / sizeof(sched_cases[0]); i++) {
		const struct sched_case *c = &sched_cases[i];
		uint64_t busy[8];
		int j;

		memset(busy, 0xff, sizeof(busy));
		assert_int_equal(gnn_schedule(c->cost, c->n, c->pe, busy),
			c->span);
		for (j = 0; j < c->pe; j++)
			assert_int_equal(busy[j], c->busy[j]);
		assert_int_equal(gnn_schedule(c->cost, c->n, c->pe, NULL),
			c->span);
	}
	assert_int_equal(gnn_schedule(sched_cases[0].cost, 4, 0, NULL), 0);
}

/* The rule again, the slow way: scan all PEs for the earliest idle one. */
static uint64_t schedule_by_scan(const uint64_t *cost, int64_t n, int pe,
	uint64_t *busy)
{
	uint64_t span = 0;
	int64_t b;
	int i;

	for (i = 0; i < pe; i++)
		busy[i] = 0;
	for (b = 0; b < n; b++) {
		int best = 0;

		for (i = 1; i < pe; i++)
			if (busy[i] < busy[best])
				best = i;
		busy[best] += cost[b];
		if (busy[best] > span)
			span = busy[best];
	}
	return span;
}

/* Property over random workloads: the makespan is at least the largest
 * block and the mean load, at most the mean load plus the largest block
 * (list scheduling), equals the busiest PE, and matches the scan.
 */
static void test_schedule_property(void **state)
{
	static uint64_t cost[3000], busy[1500], ref[1500];
	uint64_t seed = 12345;
	int t;

	(void) state;
	for (t = 0; t < 300; t++) {
		int64_t n = (int64_t) (next_rand(&seed) % 3000), b;
		int pe = 1 + (int) (next_rand(&seed) % (t % 10 ? 64 : 1500));
		uint64_t max = 0, sum = 0, span, top = 0;
		int i;

		for (b = 0; b < n; b++) {
			cost[b] = next_rand(&seed) % (t % 2 ? 1000 : 5);
			sum += cost[b];
			if (cost[b] > max)
				max = cost[b];
		}
		span = gnn_schedule(cost, n, pe, busy);
		assert_true(span >= max);
		assert_true(span * (uint64_t) pe >= sum);
		assert_true(span * (uint64_t) pe <= sum + max * (uint64_t) pe);
		for (i = 0, b = 0; i < pe; i++) {
			if (busy[i] > top)
				top = busy[i];
			b += (int64_t) busy[i];
		}
		assert_int_equal(top, span);
		assert_int_equal(b, (int64_t) sum);
		assert_int_equal(schedule_by_scan(cost, n, pe, ref), span);
		assert_memory_equal(busy, ref, (size_t) pe * sizeof(*busy));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcn_example),
		cmocka_unit_test(test_builtin_passes),
		cmocka_unit_test(test_sgc_order),
		cmocka_unit_test(test_gin_fusion),
		cmocka_unit_test(test_order_cases),
		cmocka_unit_test(test_order_moves_fused),
		cmocka_unit_test(test_fuse_limits),
		cmocka_unit_test(test_plan_hand),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_plan_random),
		cmocka_unit_test(test_schedule_hand),
		cmocka_unit_test(test_schedule_property),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
