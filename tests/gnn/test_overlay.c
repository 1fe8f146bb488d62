/* Tests of the gnn-overlay family (gnn/overlay.c) through gnn/family.h:
 * resources of the paper's design, a hand-computed Linear layer, illegal
 * points, the rows a sparse subshard's feature loads gather, the
 * analytic model against the full cycle model, the sampled
 * model against the full one, the compiler's fiber widths, and more PEs
 * never being slower.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "gnn/family.h"


enum { PE, PSYS, WROWS, EROWS, N1, N2, MHZ, GBPS };

/* The knob index of each name, checked once against the family table. */
static int kidx(int k)
{
	static const char *const names[] = { "n_pe", "p_sys", "weight_rows",
		"edge_rows", "feat_rows", "feat_cols", "mhz", "dram_gbps" };
	int i = gnn_family_knob_find(GNN_OVERLAY, names[k]);

	assert_true(i >= 0);
	return i;
}

static void defaults(int32_t *knobs)
{
	int i;

	for (i = 0; i < gnn_family_n_knobs(GNN_OVERLAY); i++)
		knobs[i] = (int32_t) gnn_family_knob_default(GNN_OVERLAY, i);
}

/* Builds the family and prepares the default of every knob plus the extra
 * feature buffer heights, fiber widths and PE counts given (0-terminated
 * lists, may be NULL).
 */
static gnn_family *family_pe(const gnn_model *m, const gnn_graph *g,
	const int64_t *n1s, const int64_t *n2s, const int64_t *pes)
{
	dse_error err;
	gnn_family *f = gnn_family_alloc(GNN_OVERLAY, m, g,
		arch_board_find("u250"), arch_dtype_find("fp32"), &err);
	int i;

	if (!f)
		fail_msg("alloc: %s", err.msg);
	for (i = 0; i < gnn_family_n_knobs(GNN_OVERLAY); i++) {
		int64_t v = gnn_family_knob_default(GNN_OVERLAY, i);

		assert_int_equal(gnn_family_prepare(f, i, &v, 1, &err),
			dse_stat_ok);
	}
	for (i = 0; n1s && n1s[i]; i++)
		assert_int_equal(gnn_family_prepare(f, kidx(N1), &n1s[i], 1,
			&err), dse_stat_ok);
	for (i = 0; n2s && n2s[i]; i++)
		assert_int_equal(gnn_family_prepare(f, kidx(N2), &n2s[i], 1,
			&err), dse_stat_ok);
	for (i = 0; pes && pes[i]; i++)
		assert_int_equal(gnn_family_prepare(f, kidx(PE), &pes[i], 1,
			&err), dse_stat_ok);
	return f;
}

/* PE counts 1..16. */
static const int64_t pes_1_16[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
	13, 14, 15, 16, 0 };

static gnn_family *family(const gnn_model *m, const gnn_graph *g,
	const int64_t *n1s, const int64_t *n2s)
{
	return family_pe(m, g, n1s, n2s, pes_1_16);
}

static gnn_model *builtin(const char *name, const gnn_graph *g, int64_t f_in,
	int64_t classes)
{
	dse_error err;
	gnn_model *m = gnn_model_builtin(name, gnn_graph_n_vertices(g),
		gnn_graph_n_edges(g), f_in, classes, &err);

	if (!m)
		fail_msg("model %s: %s", name, err.msg);
	return m;
}

static gnn_graph *rmat(int64_t v, int64_t e, uint64_t seed)
{
	dse_error err;
	gnn_graph *g = gnn_graph_rmat(v, e, 0.57, 0.19, 0.19, 0.05, seed,
		&err);

	if (!g)
		fail_msg("rmat: %s", err.msg);
	return g;
}

/* --- resources ----------------------------------------------------------- */

/* GraphAGILE on the U250 (section 7): 8 PEs of 16 x 16 ALUs, 5 DSP per
 * fp32 ALU: exactly 8 x 256 x 5 = 10240 DSP; everything within the board;
 * the LUTs near the paper's 778K (the calibration point).
 */
static void test_resources(void **state)
{
	const arch_board *u250 = arch_board_find("u250");
	static const int64_t n2s[] = { 32, 0 };
	gnn_graph *g = rmat(3000, 6000, 1);
	gnn_model *m = builtin("b1", g, 500, 7);
	gnn_family *f = family(m, g, NULL, n2s);
	int32_t k[GNN_MAX_KNOBS];
	sim_metrics out;

	(void) state;
	defaults(k);
	gnn_family_eval(f, k, &out);
	assert_int_equal(out.status, SIM_OK);
	assert_int_equal(out.dsp, 8 * 256 * 5);
	assert_true(out.bram18k > 0 && out.bram18k <= u250->bram18k);
	assert_true(out.uram > 0 && out.uram <= u250->uram);
	assert_true(out.ff > 0 && out.ff <= u250->ff);
	assert_true(out.lut <= u250->lut);
	assert_true(fabs((double) out.lut - 778000.0) < 0.05 * 778000.0);
	assert_int_equal(out.n_pe, 8);
	assert_int_equal(out.pe_rows, 16);
	/* Four PEs of 32 x 32: 4 x 1024 x 5 DSP; twice the PEs, twice the
	 * memories and the fabric.
	 */
	k[kidx(PE)] = 4;
	k[kidx(PSYS)] = 32;
	k[kidx(N2)] = 32;
	gnn_family_eval(f, k, &out);
	assert_int_equal(out.status, SIM_OK);
	assert_int_equal(out.dsp, 4 * 1024 * 5);
	{
		sim_metrics two;

		k[kidx(PE)] = 8;
		gnn_family_eval(f, k, &two);
		assert_int_equal(two.dsp, 2 * out.dsp);
		assert_int_equal(two.bram18k, 2 * out.bram18k);
		assert_int_equal(two.uram, 2 * out.uram);
		assert_true(llabs(two.lut - 2 * out.lut) <= 2);
	}
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* --- a Linear layer by hand ---------------------------------------------- */

/* A model of one Linear layer, 32 -> 16, on a 64-vertex ring. */
static gnn_model *one_linear(const gnn_graph *g)
{
	dse_error err;
	gnn_model *m = gnn_model_alloc("lin", gnn_graph_n_vertices(g),
		gnn_graph_n_edges(g));
	gnn_layer l;

	memset(&l, 0, sizeof(l));
	l.kind = GNN_LINEAR;
	l.f_in = 32;
	l.f_out = 16;
	assert_true(gnn_model_add(m, &l, &err) == 0);
	return m;
}

static gnn_graph *ring(int64_t n)
{
	uint32_t *src = malloc((size_t) n * 4), *dst = malloc((size_t) n * 4);
	dse_error err;
	gnn_graph *g;
	int64_t i;

	for (i = 0; i < n; i++) {
		src[i] = (uint32_t) i;
		dst[i] = (uint32_t) ((i + 1) % n);
	}
	g = gnn_graph_from_edges(n, n, src, dst, NULL, &err);
	free(src);
	free(dst);
	assert_non_null(g);
	return g;
}

/* p_sys = 16, fp32 (4 bytes), 300 MHz and 77 GB/s: 256.67 bytes a cycle;
 * the layer's CSI costs 64 cycles plus the U250's DRAM latency.
 *
 * n1 = 64, one PE: one block of 64 rows x 16 columns, k = 32.
 *   compute: ceil(64/16) x ceil(16/16) x 32 = 128, fill/drain 2 x 16 =
 *     32, two k-chunks of n2 = 16 at 2 + 1 cycles each: 166;
 *   bytes: features 64 x 32 x 4 = 8192, weights 32 x 16 x 4 = 2048,
 *     output 64 x 16 x 4 = 4096: 14336, of which the first load
 *     (64 x 16 + 16 x 16) x 4 = 5120;
 *   block: max(166, 9216 / 256.67 = 35.9) + 5120 / 256.67 = 185.95 ->
 *     186; the channel bound 14336 / 256.67 = 55.9 is lower.
 *   cycles 186 + 64 + latency.
 * n1 = 32, two blocks of 32 rows: compute 2 x 32 + 32 + 6 = 102; bytes
 *   4096 + 2048 + 2048 = 8192, first (32 x 16 + 256) x 4 = 3072; block
 *   max(102, 19.95) + 11.97 = 113.97 -> 114.  One PE: 228; two: 114.
 */
static void test_linear_by_hand(void **state)
{
	static const int64_t n1s[] = { 64, 32, 0 };
	static const struct { int n_pe; int n1; uint64_t body; } t[] = {
		{ 1, 64, 186 }, { 2, 64, 186 }, { 1, 32, 228 }, { 2, 32, 114 },
	};
	gnn_graph *g = ring(64);
	gnn_model *m = one_linear(g);
	gnn_family *f = family(m, g, n1s, NULL);
	uint64_t extra = 64 + (uint64_t) arch_board_find("u250")->dram_latency;
	int32_t k[GNN_MAX_KNOBS];
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(t); i++) {
		sim_metrics out;

		defaults(k);
		k[kidx(PE)] = t[i].n_pe;
		k[kidx(N1)] = t[i].n1;
		gnn_family_eval(f, k, &out);
		assert_int_equal(out.status, SIM_OK);
		assert_int_equal(out.cycles, t[i].body + extra);
		assert_int_equal(out.offchip_bytes, t[i].n1 == 64 ? 14336 :
			2 * 8192);
		assert_float_equal(out.latency_s, (double) out.cycles / 300e6,
			1e-12);
		/* 2 x 64 x 32 x 16 operations. */
		assert_float_equal(out.gops, 65536.0 / out.latency_s / 1e9,
			1e-6);
		assert_true(out.energy_j > 0);
	}
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* --- illegal points ------------------------------------------------------ */

static void test_bad_knobs(void **state)
{
	static const int64_t n1s[] = { 1000, 0 }, n2s[] = { 24, 0 };
	static const struct {
		int knob;
		int32_t value;
		const char *why;	/* a part of gnn_family_why's text */
	} t[] = {
		{ N1, 8192, "feat_rows = 8192 is not among the values" },
		{ N2, 32, "feat_cols = 32 is not among the values" },
		{ PSYS, 3, "p_sys is 3, not a power of two" },
		{ PSYS, 0, "p_sys is 0, outside 2..64" },
		{ PSYS, 128, "p_sys is 128, outside 2..64" },
		{ PSYS, 1, "p_sys is 1, outside 2..64" },
		{ N2, 24, "feat_cols (24) is not a multiple of p_sys (16)" },
		{ N1, 1000, "feat_rows (1000) is not a multiple of p_sys (16)" },
		{ PE, 0, "n_pe is 0, outside 1..4096" },
		{ MHZ, 0, "mhz is 0, outside 1..2000" },
		{ GBPS, 0, "dram_gbps is 0, outside 1.." },
		{ EROWS, 1, "edge_rows is 1, outside 2.." },
	};
	char why[256];
	gnn_graph *g = rmat(2000, 8000, 3);
	gnn_model *m = builtin("b6", g, 64, 4);
	gnn_family *f = family(m, g, n1s, n2s);
	int32_t k[GNN_MAX_KNOBS];
	sim_cycle_report r;
	dse_error err;
	int64_t zero = 0;
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(t); i++) {
		sim_metrics out;

		defaults(k);
		k[kidx(t[i].knob)] = t[i].value;
		gnn_family_eval(f, k, &out);
		if (out.status != SIM_BAD_KNOB)
			fail_msg("case %zu: status %d", i, out.status);
		assert_int_equal(out.cycles, 0);
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_FULL,
			NULL, &r, &err), dse_stat_ok);
		assert_int_equal(r.metrics.status, SIM_BAD_KNOB);
		gnn_family_why(f, k, why, sizeof(why));
		if (!strstr(why, t[i].why))
			fail_msg("case %zu: why is \"%s\", want \"%s\"", i,
				why, t[i].why);
	}
	/* p_sys = 8 divides the prepared 24 and 1000. */
	defaults(k);
	k[kidx(PSYS)] = 8;
	k[kidx(N1)] = 1000;
	k[kidx(N2)] = 24;
	gnn_family_eval(f, k, &r.metrics);
	assert_int_equal(r.metrics.status, SIM_OK);
	gnn_family_why(f, k, why, sizeof(why));
	assert_string_equal(why, "");
	assert_int_equal(r.metrics.dsp, 8 * 64 * 5);
	assert_int_equal(gnn_family_prepare(f, kidx(N1), &zero, 1, &err),
		dse_stat_error);
	assert_int_equal(err.code, DSE_E_INPUT);
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* --- analytic against full ----------------------------------------------- */

/* A model of one layer of "kind" (Aggregate or Vector-Inner) on f
 * features.
 */
static gnn_model *one_layer(const gnn_graph *g, int kind, int64_t f)
{
	dse_error err;
	gnn_model *m = gnn_model_alloc("one", gnn_graph_n_vertices(g),
		gnn_graph_n_edges(g));
	gnn_layer l;

	memset(&l, 0, sizeof(l));
	l.kind = kind;
	l.f_in = f;
	assert_true(gnn_model_add(m, &l, &err) == 0);
	return m;
}

/* --- feature loads of sparse subshards ---------------------------------- */

/* 128 vertices, n1 = 64 (one PE: the only rung), 16 features in one
 * fiber of 16, fp32: three edges 0 -> 64, 0 -> 65, 1 -> 66, all in
 * subshard (1, 0), two distinct sources and three destinations.  Edges
 * are 3 x 32-bit words: 12 bytes.
 *   Aggregate: a block per shard row.  Row 0 has no edge and stores its
 *     output, 64 x 16 x 4 = 4096; row 1 loads the edges, 36, the rows of
 *     its 2 sources, 2 x 16 x 4 = 128 (not the 64 of the sub-fiber,
 *     4096), and stores 4096: 8356 in all.
 *   Vector-Inner: one block, subshard (1, 0), one Edge Buffer load: the
 *     edges read and written, 72, and the rows of 3 destinations and 2
 *     sources, 5 x 16 x 4 = 320 (not 128 rows, 8192): 392.
 * Every model counts the same bytes.
 */
static void test_sparse_gather(void **state)
{
	static const uint32_t src[] = { 0, 0, 1 }, dst[] = { 64, 65, 66 };
	static const int64_t n1s[] = { 64, 0 };
	static const struct { int kind; int64_t bytes; } t[] = {
		{ GNN_AGGREGATE, 8356 }, { GNN_VECTOR_INNER, 392 },
	};
	static const int kinds[] = { SIM_MODEL_ANALYTIC, SIM_MODEL_FULL,
		SIM_MODEL_SAMPLED };
	dse_error err;
	gnn_graph *g = gnn_graph_from_edges(128, 3, src, dst, NULL, &err);
	int32_t k[GNN_MAX_KNOBS];
	size_t i, j;

	(void) state;
	assert_non_null(g);
	for (i = 0; i < DSE_N_OF(t); i++) {
		gnn_model *m = one_layer(g, t[i].kind, 16);
		gnn_family *f = family(m, g, n1s, NULL);

		defaults(k);
		k[kidx(PE)] = 1;
		k[kidx(N1)] = 64;
		for (j = 0; j < DSE_N_OF(kinds); j++) {
			sim_cycle_report r;

			assert_int_equal(gnn_family_simulate(f, k, kinds[j],
				NULL, &r, &err), dse_stat_ok);
			assert_int_equal(r.metrics.status, SIM_OK);
			if (r.metrics.offchip_bytes != t[i].bytes)
				fail_msg("case %zu, model %d: %lld bytes", i,
					kinds[j],
					(long long) r.metrics.offchip_bytes);
		}
		gnn_family_free(f);
		gnn_model_free(m);
	}
	gnn_graph_free(g);
}

/* Every vertex has one in-edge from a random source: the edges in
 * (dst, src) order have distinct destinations and random sources, the
 * indices the analytic conflict factor assumes.
 */
static gnn_graph *random_sources(int64_t n, uint64_t seed)
{
	uint32_t *src = malloc((size_t) n * 4), *dst = malloc((size_t) n * 4);
	uint64_t x = seed;
	dse_error err;
	gnn_graph *g;
	int64_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		src[i] = (uint32_t) (x % (uint64_t) n);
		dst[i] = (uint32_t) i;
	}
	g = gnn_graph_from_edges(n, n, src, dst, NULL, &err);
	free(src);
	free(dst);
	assert_non_null(g);
	return g;
}

/* On such a graph the two models differ only by the conflicts the closed
 * form approximates: within 5% for an Aggregate and a Vector-Inner layer
 * on one PE (compute-bound), for 16 and 40 features.
 */
static void test_analytic_vs_full(void **state)
{
	static const struct { int kind; int64_t f; } t[] = {
		{ GNN_AGGREGATE, 16 }, { GNN_AGGREGATE, 40 },
		{ GNN_VECTOR_INNER, 16 }, { GNN_VECTOR_INNER, 40 },
	};
	static const int64_t n1s[] = { 4096, 0 };
	gnn_graph *g = random_sources(8192, 77);
	int32_t k[GNN_MAX_KNOBS];
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(t); i++) {
		gnn_model *m = one_layer(g, t[i].kind, t[i].f);
		gnn_family *f = family(m, g, n1s, NULL);
		sim_cycle_report a, full;
		dse_error err;
		double ratio;

		defaults(k);
		k[kidx(PE)] = 1;
		k[kidx(N1)] = 4096;
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_ANALYTIC,
			NULL, &a, &err), dse_stat_ok);
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_FULL,
			NULL, &full, &err), dse_stat_ok);
		assert_int_equal(a.metrics.status, SIM_OK);
		ratio = (double) a.metrics.cycles /
			(double) full.metrics.cycles;
		if (ratio < 0.95 || ratio > 1.05)
			fail_msg("case %zu: analytic %llu, full %llu", i,
				(unsigned long long) a.metrics.cycles,
				(unsigned long long) full.metrics.cycles);
		assert_int_equal(full.tiles_simulated, full.tiles);
		assert_true(full.tiles > 0);
		assert_int_equal(a.tiles_simulated, 0);
		gnn_family_free(f);
		gnn_model_free(m);
	}
	gnn_graph_free(g);
}

/* On power-law graphs the analytic model follows the full one: the
 * compiler interleaves each subshard's destinations, so the RAW unit
 * holds only the short rounds of hub destinations, which the analytic
 * model counts at prepare, and the busiest bank or pipeline (R-MAT's ids
 * have skewed low bits) bounds the stream in both.  Within 5% for
 * built-in models on R-MAT graphs of several skews, densities and
 * shapes, compute-bound (a channel too wide to matter) and at the
 * paper's 77 GB/s; and the RAW unit does stall (the hubs' tails).
 */
static void test_analytic_tracks_full(void **state)
{
	static const struct {
		int64_t v, e;
		double a, b, c, d;
		const char *model;
		int32_t n1, gbps;
	} t[] = {
		{ 8192, 65536, 0.57, 0.19, 0.19, 0.05, "b1", 4096, 100000 },
		{ 8192, 262144, 0.57, 0.19, 0.19, 0.05, "b1", 2048, 100000 },
		{ 6000, 200000, 0.45, 0.22, 0.22, 0.11, "b6", 1024, 100000 },
		{ 10000, 300000, 0.65, 0.15, 0.15, 0.05, "b7", 16384, 100000 },
		{ 10000, 300000, 0.57, 0.19, 0.19, 0.05, "b3", 16384, 77 },
		{ 4000, 120000, 0.25, 0.25, 0.25, 0.25, "b4", 16384, 100000 },
	};
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(t); i++) {
		dse_error err;
		gnn_graph *g = gnn_graph_rmat(t[i].v, t[i].e, t[i].a, t[i].b,
			t[i].c, t[i].d, 40 + i, &err);
		gnn_model *m = builtin(t[i].model, g, 64, 8);
		int64_t n1s[2] = { t[i].n1, 0 }, gb[2] = { t[i].gbps, 0 };
		gnn_family *f = family(m, g, n1s, NULL);
		sim_cycle_report a, full;
		int32_t k[GNN_MAX_KNOBS];
		double ratio;
		int j;

		assert_int_equal(gnn_family_prepare(f, kidx(GBPS), gb, 1, &err),
			dse_stat_ok);
		defaults(k);
		k[kidx(N1)] = t[i].n1;
		k[kidx(GBPS)] = t[i].gbps;
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_ANALYTIC,
			NULL, &a, &err), dse_stat_ok);
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_FULL,
			NULL, &full, &err), dse_stat_ok);
		assert_int_equal(a.metrics.status, SIM_OK);
		ratio = (double) a.metrics.cycles /
			(double) full.metrics.cycles;
		if (ratio < 0.95 || ratio > 1.05)
			fail_msg("graph %zu: analytic %llu, full %llu", i,
				(unsigned long long) a.metrics.cycles,
				(unsigned long long) full.metrics.cycles);
		for (j = 0; j < full.n_modules; j++)
			if (!strcmp(full.module[j].name, "raw_unit"))
				break;
		assert_true(j < full.n_modules);
		if (t[i].a > 0.25)
			assert_true(full.module[j].stall_out > 0);
		gnn_family_free(f);
		gnn_model_free(m);
		gnn_graph_free(g);
	}
}

/* --- sampled against full ------------------------------------------------ */

/* Small shards and a small edge buffer give hundreds of tiles. */
static void small_point(int32_t *k)
{
	defaults(k);
	k[kidx(N1)] = 256;
	k[kidx(EROWS)] = 512;
}

/* With a sample larger than every stratum, every tile is run: the sampled
 * model is the full one, with an empty interval.
 */
static void test_sampled_all(void **state)
{
	static const int64_t n1s[] = { 256, 0 };
	gnn_graph *g = rmat(3000, 60000, 5);
	gnn_model *m = builtin("b6", g, 48, 5);
	gnn_family *f = family(m, g, n1s, NULL);
	sim_cycle_opts o;
	sim_cycle_report s, full;
	int32_t k[GNN_MAX_KNOBS];
	dse_error err;

	(void) state;
	small_point(k);
	memset(&o, 0, sizeof(o));
	o.samples = 1000000;
	o.seed = 3;
	assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_SAMPLED, &o, &s,
		&err), dse_stat_ok);
	assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_FULL, NULL, &full,
		&err), dse_stat_ok);
	assert_true(full.tiles > 100);
	assert_int_equal(s.tiles, full.tiles);
	assert_int_equal(s.tiles_simulated, s.tiles);
	assert_float_equal(s.fraction, 1.0, 1e-12);
	assert_int_equal(s.metrics.cycles, full.metrics.cycles);
	assert_float_equal(s.cycles_low, (double) full.metrics.cycles, 0.5);
	assert_float_equal(s.cycles_high, (double) full.metrics.cycles, 0.5);
	assert_int_equal(s.pe_cycles, full.pe_cycles);
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* On R-MAT graphs of several sizes, skews and seeds, with the default
 * sample, the interval of the sampled model holds the full model's cycles
 * and a strict part of the tiles is run.  The same seed gives the same
 * estimate.
 */
static void test_interval(void **state)
{
	static const struct {
		int64_t v, e;
		double a, b, c, d;
		uint64_t seed;
		const char *model;
	} t[] = {
		{ 4000, 80000, 0.57, 0.19, 0.19, 0.05, 11, "b1" },
		{ 4000, 80000, 0.45, 0.22, 0.22, 0.11, 12, "b1" },
		{ 6000, 150000, 0.57, 0.19, 0.19, 0.05, 13, "b6" },
		{ 3000, 120000, 0.25, 0.25, 0.25, 0.25, 14, "b3" },
		{ 5000, 100000, 0.65, 0.15, 0.15, 0.05, 15, "b5" },
		{ 8000, 60000, 0.57, 0.19, 0.19, 0.05, 16, "b7" },
	};
	static const int64_t n1s[] = { 256, 0 };
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(t); i++) {
		dse_error err;
		gnn_graph *g = gnn_graph_rmat(t[i].v, t[i].e, t[i].a, t[i].b,
			t[i].c, t[i].d, t[i].seed, &err);
		gnn_model *m;
		gnn_family *f;
		sim_cycle_opts o;
		sim_cycle_report s, s2, full;
		int32_t k[GNN_MAX_KNOBS];

		assert_non_null(g);
		m = builtin(t[i].model, g, 32, 6);
		f = family(m, g, n1s, NULL);
		small_point(k);
		memset(&o, 0, sizeof(o));
		o.seed = 100 + i;
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_SAMPLED,
			&o, &s, &err), dse_stat_ok);
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_SAMPLED,
			&o, &s2, &err), dse_stat_ok);
		assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_FULL,
			NULL, &full, &err), dse_stat_ok);
		assert_int_equal(s.metrics.cycles, s2.metrics.cycles);
		assert_true(s.tiles_simulated < s.tiles);
		if (!(s.cycles_low <= (double) full.metrics.cycles &&
		      (double) full.metrics.cycles <= s.cycles_high))
			fail_msg("graph %zu: full %llu outside [%.0f, %.0f] "
				"(sampled %llu)", i,
				(unsigned long long) full.metrics.cycles,
				s.cycles_low, s.cycles_high,
				(unsigned long long) s.metrics.cycles);
		assert_true(s.cycles_low <= (double) s.metrics.cycles &&
			(double) s.metrics.cycles <= s.cycles_high);
		gnn_family_free(f);
		gnn_model_free(m);
		gnn_graph_free(g);
	}
}

/* --- the compiler's shard height ----------------------------------------- */

/* A uniform graph of 4,096 vertices fits one feature buffer load of the
 * default 16,384 rows: with that one shard, a layer would be one block
 * and 8 PEs no faster than 1.  The compiler cuts it instead: with 8 PEs
 * its ladder goes down to 16 shards of 256 rows, and it takes at least 8
 * shards (8 of 512 rows are even on a uniform graph and cheaper than 16:
 * fewer subshards), so every layer of GraphSAGE (b3) spreads over all 8
 * PEs.  The uniform graph leaves no subshard empty: at least 64 tiles,
 * against 2 for the one shard.  With a channel too wide to matter the time
 * drops by more than 6 times from 1 PE (ideally 8; the per-layer CSI and
 * DRAM latency and the pipeline fills do not shrink).
 */
static void test_compiler_spreads(void **state)
{
	static const int64_t wide[] = { 100000, 0 };
	dse_error err;
	gnn_graph *g = gnn_graph_uniform(4096, 40960, 3, &err);
	gnn_model *m = builtin("b3", g, 128, 8);
	gnn_family *f = family(m, g, NULL, NULL);
	sim_cycle_report one, eight;
	int32_t k[GNN_MAX_KNOBS];

	(void) state;
	assert_int_equal(gnn_family_prepare(f, kidx(GBPS), wide, 1, &err),
		dse_stat_ok);
	defaults(k);
	k[kidx(GBPS)] = (int32_t) wide[0];
	k[kidx(PE)] = 1;
	assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_ANALYTIC, NULL,
		&one, &err), dse_stat_ok);
	k[kidx(PE)] = 8;
	assert_int_equal(gnn_family_simulate(f, k, SIM_MODEL_ANALYTIC, NULL,
		&eight, &err), dse_stat_ok);
	assert_int_equal(one.metrics.status, SIM_OK);
	assert_int_equal(eight.metrics.status, SIM_OK);
	assert_true(eight.tiles >= 64);
	if (!(6.0 * (double) eight.metrics.cycles <
	      (double) one.metrics.cycles))
		fail_msg("1 PE %llu cycles, 8 PEs %llu",
			(unsigned long long) one.metrics.cycles,
			(unsigned long long) eight.metrics.cycles);
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* --- the fiber width ----------------------------------------------------- */

/* The compiler sizes the fibers to the Feature Buffer's words, not to its
 * width alone (gnn__ovl_fiber_widths): a shard height below feat_rows
 * leaves room for wider fibers.
 *   - GCN-128 on 2,048 vertices of 1,024 features: a Linear's blocks are
 *     its output's sub-fibers, each reading its shard's whole input, so
 *     fibers of 16 would read the input X (8 MB) 128 / 16 = 8 times.
 *     With 8 PEs the ladder has 256-row shards, whose 262,144-word
 *     buffer takes fibers of 1,024: the first Linear reads X once, and
 *     on a channel slow enough to matter (8 GB/s) the design moves less
 *     than 2.5 X in all.
 *   - Buffers of the same words, narrower and taller, offer the compiler
 *     every partition the wider ones do (more heights, the same widths
 *     and narrower ones): a design never gets slower as its buffer gets
 *     taller.
 */
static void test_fiber_widths(void **state)
{
	static const char *const models[] = { "b1", "b2", "b6", "b8" };
	static const int64_t n1s[] = { 4096, 1024, 0 }, n2s[] = { 64, 256, 0 };
	static const int32_t shapes[][2] = { { 1024, 256 }, { 4096, 64 },
		{ 16384, 16 } };
	dse_error err;
	gnn_graph *g = gnn_graph_uniform(2048, 20000, 9, &err);
	size_t i, s;

	(void) state;
	assert_non_null(g);
	for (i = 0; i < DSE_N_OF(models); i++) {
		gnn_model *m = builtin(models[i], g, 1024, 8);
		gnn_family *f = family_pe(m, g, n1s, n2s, NULL);
		uint64_t prev = UINT64_MAX;
		int32_t k[GNN_MAX_KNOBS];

		for (s = 0; s < DSE_N_OF(shapes); s++) {
			sim_metrics out;

			defaults(k);
			k[kidx(N1)] = shapes[s][0];
			k[kidx(N2)] = shapes[s][1];
			gnn_family_eval(f, k, &out);
			assert_int_equal(out.status, SIM_OK);
			if (out.cycles > prev)
				fail_msg("%s: %d x %d buffer %llu cycles, the "
					"wider one %llu", models[i],
					shapes[s][0], shapes[s][1],
					(unsigned long long) out.cycles,
					(unsigned long long) prev);
			prev = out.cycles;
			if (strcmp(models[i], "b2") || s + 1 < DSE_N_OF(shapes))
				continue;
			/* Where the channel is what counts. */
			k[kidx(GBPS)] = 8;
			gnn_family_eval(f, k, &out);
			assert_int_equal(out.status, SIM_OK);
			if (!((double) out.offchip_bytes < 2.5 * 2048 * 1024 * 4))
				fail_msg("GCN-128 moves %lld bytes",
					(long long) out.offchip_bytes);
		}
		gnn_family_free(f);
		gnn_model_free(m);
	}
	gnn_graph_free(g);
}

/* --- more PEs ------------------------------------------------------------ */

/* On the same workload, a design with more PEs (everything else equal) is
 * never slower: in the analytic model, with the 256-row buffer (which
 * bounds every height of the compiler's ladder here: one partition for
 * every n_pe) and with the 1024- and 16384-row ones (the compiler's
 * height changes with n_pe, 5,000 vertices over up to 32 shards; its
 * ladder keeps every height fewer PEs could use), and in the full model
 * with the 256-row buffer.
 */
static void test_more_pes(void **state)
{
	static const char *const models[] = { "b1", "b4", "b5", "b6", "b8" };
	static const int64_t n1s[] = { 256, 1024, 0 }, n2s[] = { 32, 0 };
	static const int32_t shapes[][2] = { { 256, 16 }, { 1024, 32 },
		{ 16384, 16 } };
	gnn_graph *g = rmat(5000, 50000, 21);
	size_t i, s;

	(void) state;
	for (i = 0; i < DSE_N_OF(models); i++) {
		gnn_model *m = builtin(models[i], g, 100, 10);
		gnn_family *f = family(m, g, n1s, n2s);

		for (s = 0; s < DSE_N_OF(shapes); s++) {
			uint64_t prev = UINT64_MAX, prev_full = UINT64_MAX;
			int32_t k[GNN_MAX_KNOBS];
			int n;

			defaults(k);
			k[kidx(N1)] = shapes[s][0];
			k[kidx(N2)] = shapes[s][1];
			for (n = 1; n <= 16; n++) {
				sim_metrics out;

				k[kidx(PE)] = n;
				gnn_family_eval(f, k, &out);
				assert_int_equal(out.status, SIM_OK);
				if (out.cycles > prev)
					fail_msg("%s n1 %d: %d PEs %llu > %llu",
						models[i], shapes[s][0], n,
						(unsigned long long) out.cycles,
						(unsigned long long) prev);
				prev = out.cycles;
				if (n <= 8 && s == 0) {
					sim_cycle_report r;
					dse_error err;

					assert_int_equal(gnn_family_simulate(f,
						k, SIM_MODEL_FULL, NULL, &r,
						&err), dse_stat_ok);
					assert_true(r.metrics.cycles <=
						prev_full);
					prev_full = r.metrics.cycles;
				}
			}
		}
		gnn_family_free(f);
		gnn_model_free(m);
	}
	gnn_graph_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resources),
		cmocka_unit_test(test_linear_by_hand),
		cmocka_unit_test(test_fiber_widths),
		cmocka_unit_test(test_bad_knobs),
		cmocka_unit_test(test_sparse_gather),
		cmocka_unit_test(test_analytic_vs_full),
		cmocka_unit_test(test_analytic_tracks_full),
		cmocka_unit_test(test_sampled_all),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_compiler_spreads),
		cmocka_unit_test(test_more_pes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
