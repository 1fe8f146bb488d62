/* Tests of the node's one copy of a GNN graph and its partitions
 * (gnn/share.c), on real MPI ranks of one machine (run on 1, 2 and 3
 * ranks): the node's first rank builds, the others read its copy, and
 * every rank's family evaluates every point exactly as a family built on
 * the rank's own private graph does, in the analytic, sampled and full
 * models.  On several ranks the graph's arrays of every rank (the
 * builder's too, whose own copy was moved) lie inside the shared
 * segment, and the copy holds the partitions; on one rank nothing is
 * shared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpi.h>

#include "gnn/family.h"
#include "gnn/share.h"

/* The knob values both families are prepared with: several PE counts and
 * feature buffers give several shard heights (partitions) and fiber
 * widths (plans).
 */
static const struct { const char *knob; int64_t v[4]; int n; } space[] = {
	{ "n_pe", { 1, 4, 16 }, 3 },
	{ "p_sys", { 8, 16 }, 2 },
	{ "feat_rows", { 256, 2048 }, 2 },
	{ "feat_cols", { 16, 32 }, 2 },
	{ "edge_rows", { 4096 }, 1 },
};
#define N_SPACE (sizeof(space) / sizeof(space[0]))

static gnn_graph *graph(dse_error *err)
{
	return gnn_graph_rmat_simple(3000, 40000, 0.57, 0.19, 0.19, 0.05, 7,
		err);
}

static gnn_family *family(const gnn_graph *g)
{
	dse_error err;
	gnn_model *m = gnn_model_builtin("b1", gnn_graph_n_vertices(g),
		gnn_graph_n_edges(g), 64, 8, &err);
	gnn_family *f;

	if (!m)
		fail_msg("model: %s", err.msg);
	f = gnn_family_alloc(GNN_OVERLAY, m, g, arch_board_find("u250"),
		arch_dtype_find("fp32"), &err);
	gnn_model_free(m);
	if (!f)
		fail_msg("family: %s", err.msg);
	return f;
}

static void prepare(gnn_family *f)
{
	dse_error err;
	size_t i;

	for (i = 0; i < N_SPACE; i++) {
		int k = gnn_family_knob_find(GNN_OVERLAY, space[i].knob);

		assert_true(k >= 0);
		if (gnn_family_prepare(f, k, space[i].v, space[i].n, &err))
			fail_msg("prepare %s: %s", space[i].knob, err.msg);
	}
}

/* The point of index "idx" in the mixed radix of the space, the other
 * knobs at their defaults.
 */
static void point(int idx, int32_t *knobs)
{
	size_t i;
	int k;

	for (k = 0; k < gnn_family_n_knobs(GNN_OVERLAY); k++)
		knobs[k] = (int32_t) gnn_family_knob_default(GNN_OVERLAY, k);
	for (i = 0; i < N_SPACE; i++) {
		k = gnn_family_knob_find(GNN_OVERLAY, space[i].knob);
		knobs[k] = (int32_t) space[i].v[idx % space[i].n];
		idx /= space[i].n;
	}
}

static int n_points(void)
{
	size_t i;
	int n = 1;

	for (i = 0; i < N_SPACE; i++)
		n *= space[i].n;
	return n;
}

/* Both families give the same figures at every point in every model. */
static void same_everywhere(const gnn_family *mine, const gnn_family *ref)
{
	int32_t knobs[GNN_MAX_KNOBS];
	sim_cycle_opts opt;
	dse_error err;
	int i, model;

	memset(&opt, 0, sizeof(opt));
	for (i = 0; i < n_points(); i++) {
		sim_metrics a, b;

		point(i, knobs);
		gnn_family_eval(mine, knobs, &a);
		gnn_family_eval(ref, knobs, &b);
		assert_int_equal(a.status, b.status);
		assert_int_equal(a.cycles, b.cycles);
		assert_true(a.latency_s == b.latency_s);
		/* The cycle models read the partitions' orders and loads. */
		for (model = SIM_MODEL_SAMPLED; i % 4 == 0 && a.status ==
		     SIM_OK && model <= SIM_MODEL_FULL; model++) {
			sim_cycle_report ra, rb;

			assert_int_equal(gnn_family_simulate(mine, knobs, model,
				&opt, &ra, &err), dse_stat_ok);
			assert_int_equal(gnn_family_simulate(ref, knobs, model,
				&opt, &rb, &err), dse_stat_ok);
			assert_int_equal(ra.metrics.cycles, rb.metrics.cycles);
			assert_int_equal(ra.tiles, rb.tiles);
			assert_int_equal(ra.tiles_simulated,
				rb.tiles_simulated);
			assert_true(ra.cycles_low == rb.cycles_low);
			assert_true(ra.cycles_high == rb.cycles_high);
		}
	}
}

static void test_one_copy(void **state)
{
	gnn_graph *ref_graph, *g = NULL;
	gnn_family *ref, *f;
	gnn_share *s;
	dse_error err;
	int size, node;
	dse_stat st = dse_stat_ok;

	(void) state;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	ref_graph = graph(&err);
	assert_non_null(ref_graph);
	ref = family(ref_graph);
	prepare(ref);

	s = gnn_share_alloc(MPI_COMM_WORLD, &err);
	assert_non_null(s);
	node = gnn_share_node_ranks(s);
	/* The ranks of a test run on one machine. */
	assert_int_equal(node, size);
	if (gnn_share_builds(s)) {
		g = graph(&err);
		st = g ? dse_stat_ok : dse_stat_error;
	}
	assert_int_equal(gnn_share_agree(s, st, &err), dse_stat_ok);
	assert_int_equal(gnn_share_graph(s, &g, &err), dse_stat_ok);
	assert_non_null(g);
	assert_int_equal(gnn_graph_n_edges(g), gnn_graph_n_edges(ref_graph));
	assert_string_equal(gnn_graph_name(g), gnn_graph_name(ref_graph));
	assert_memory_equal(gnn_graph_src(g), gnn_graph_src(ref_graph),
		(size_t) gnn_graph_n_edges(g) * 4);
	f = family(g);
	if (gnn_share_builds(s))
		prepare(f);
	assert_int_equal(gnn_share_agree(s, dse_stat_ok, &err), dse_stat_ok);
	assert_int_equal(gnn_share_family(s, f, &err), dse_stat_ok);
	if (!gnn_share_builds(s))
		prepare(f);

	/* Several ranks read one copy; one rank keeps its own. */
	assert_int_equal(gnn_share_holds(s, gnn_graph_src(g)), size > 1);
	assert_int_equal(gnn_share_holds(s, gnn_graph_in_ptr(g)), size > 1);
	assert_int_equal(gnn_share_holds(s, gnn_graph_src(ref_graph)), 0);
	if (size > 1) {
		/* Four bytes an edge in each of src, dst and weight, and
		 * at least one partition's edge numbers and order.
		 */
		assert_true(gnn_share_bytes(s) >
			(size_t) gnn_graph_n_edges(g) * 20);
		assert_true(gnn_share_n_parts(s) >= 2);
	} else {
		assert_int_equal(gnn_share_bytes(s), 0);
		assert_int_equal(gnn_share_n_parts(s), 0);
	}
	same_everywhere(f, ref);

	gnn_family_free(f);
	gnn_graph_free(g);
	gnn_share_free(s);
	gnn_family_free(ref);
	gnn_graph_free(ref_graph);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_copy),
	};
	int fails;

	MPI_Init(&argc, &argv);
	fails = cmocka_run_group_tests(tests, NULL, NULL);
	MPI_Finalize();
	return fails;
}
