/* Tests of gnn/dataflow.c, the gnn-dataflow family (AGILE): the full
 * cycle model's cycles on tiny graphs worked out by hand, properties of
 * the cycle model on random graphs (more nodeslots are never slower, the
 * sampled model is the full one when it samples every block, its interval
 * covers the full model on a table of R-MAT graphs), the illegal knobs,
 * the passes the built-in models become and the resources of the default
 * point.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <math.h>

#include "gnn/family.h"

#define N_KNOBS 8
#define MAX_E 8

enum { SLOTS, TAGS, ROWS, COLS, FTE, FEAT_KB, MHZ, GBPS };

static const arch_board *u250(void)
{
	return arch_board_find("u250");
}

static const arch_dtype *fp32(void)
{
	return arch_dtype_find("fp32");
}

static void default_knobs(int32_t *k)
{
	int i;

	assert_int_equal(gnn_family_n_knobs(GNN_DATAFLOW), N_KNOBS);
	for (i = 0; i < N_KNOBS; i++)
		k[i] = (int32_t) gnn_family_knob_default(GNN_DATAFLOW, i);
}

/* A model of one GNN layer: Aggregate of f features, then Linear to g. */
static gnn_model *agg_linear(int64_t nv, int64_t ne, int64_t f, int64_t g)
{
	gnn_model *m = gnn_model_alloc("agg-linear", nv, ne);
	gnn_layer l;
	dse_error err;
	int a;

	memset(&l, 0, sizeof(l));
	l.kind = GNN_AGGREGATE;
	l.f_in = f;
	a = gnn_model_add(m, &l, &err);
	assert_true(a >= 0);
	memset(&l, 0, sizeof(l));
	l.kind = GNN_LINEAR;
	l.n_parent = 1;
	l.parent[0] = a;
	l.f_out = g;
	assert_true(gnn_model_add(m, &l, &err) >= 0);
	return m;
}

static gnn_family *family(const gnn_model *m, const gnn_graph *g)
{
	dse_error err;
	gnn_family *f = gnn_family_alloc(GNN_DATAFLOW, m, g, u250(), fp32(),
		&err);

	assert_non_null(f);
	return f;
}

static void simulate(const gnn_family *f, const int32_t *k, int kind,
	const sim_cycle_opts *opt, sim_cycle_report *r)
{
	dse_error err;

	assert_int_equal(gnn_family_simulate(f, k, kind, opt, r, &err),
		dse_stat_ok);
}

/* --- full model, by hand ----------------------------------------------
 *
 * Every case runs the one-layer model Aggregate(16) -> Linear(16) in fp32
 * at 300 MHz on the U250, whose DRAM latency is 64 cycles at its own 300
 * MHz, with 20 GB/s: 66.7 bytes a cycle, above the 64-byte bus, so the
 * bandwidth is 64 bytes a cycle.  One fte module, a 1 KiB aggregation
 * buffer (16 slots of 16 fp32 features: the wait count is min(16, 16/2,
 * slots/2), at least 1).  With 16 features a node needs 1 core; a message
 * is 64 bytes of DRAM and a packet of 8 body flits and a head and a tail,
 * 10 flits; the allocation and buffer-manager packets are 2 flits; a hop
 * is 2 cycles; a handshake with the scoreboard 2 cycles.
 *
 * The weights load first: 16 rows, each a request (64 cycles) and 16
 * features written one a cycle: 16 x 80 = 1280 cycles.
 *
 * A node of m > 0 messages alone in a 1 x 1 mesh (its core at column 0,
 * row 1; the buffer manager at column 1, row 1):
 *   adjacency list: 64 + 4m/64; scoreboard 2; messages: 64 + 64m/64;
 *   request to the engine 2; allocation of 1 core 1; stream of
 *   2 + 10m flits, one a cycle; tail to the core 1 hop, 2;
 *   buffer phase 2 (allocation packet) + 10 (the core's sums) + 2 (done)
 *   + 2 (scoreboard) + 2 x (1 + 1 + 1 + 1) hops = 24;
 *   transformation of one 16-row block: 16 + 3 x 16 + 2 + 2 = 68;
 *   write-back of 64 bytes: 1.
 *   In all 230 + 11m + m/16 cycles.
 * A node without messages skips both fetches (but still takes the fetch
 * tag): 2 + 1 + 2 + 2 + 24 + 68 + 1 = 100 cycles.
 * With one nodeslot the nodes run one after the other.
 *
 * In a 2 x 2 mesh the managers and cores are granted round-robin: node k
 * gets manager k mod 2 and core k; core c is at column c mod 2, row
 * 1 + c / 2; the buffer manager at column 2, row 1.  Against the 1 x 1
 * case (tail 2 + buffer 24) a node of core (x, y) and manager a pays
 * 2 (|x - a| + y) for the tail and 16 + 2 (|x - a| + y + (2 - x) +
 * (y - 1) + (2 - a) + 1) for the buffer phase:
 *   node 0 (a 0, core 0 at 0,1): tail 2, buffer 28: +4;
 *   node 1 (a 1, core 1 at 1,1): tail 2, buffer 24: +0;
 *   node 2 (a 0, core 2 at 0,2): tail 4, buffer 32: +10;
 *   node 3 (a 1, core 3 at 1,2): tail 4, buffer 28: +6.
 */
struct hand_case {
	const char *what;
	int nv, ne;
	uint32_t src[MAX_E], dst[MAX_E];
	int32_t knobs[N_KNOBS];
	uint64_t cycles;
};

static const struct hand_case hand_cases[] = {
	/* Vertex 0 has 4 messages, 1..4 none: 274.25 + 4 x 100 = 674.25,
	 * + 1280 = 1954.25.
	 */
	{ "star into vertex 0, one slot", 5, 4, { 1, 2, 3, 4 },
	  { 0, 0, 0, 0 }, { 1, 1, 1, 1, 1, 1, 300, 20 }, 1954 },
	/* Vertex 0 none, 1..3 one message each (241.0625): 100 + 723.1875
	 * + 1280 = 2103.1875.
	 */
	{ "chain 0-1-2-3, one slot", 4, 3, { 0, 1, 2 }, { 1, 2, 3 },
	  { 1, 1, 1, 1, 1, 1, 300, 20 }, 2103 },
	/* A ring: one message each, 241.0625 - 26 = 215.0625 plus the tail
	 * and buffer phase of each node: 4 x 215.0625 + 4 x 26 + 4 + 0 + 10
	 * + 6 = 984.25, + 1280 = 2264.25.
	 */
	{ "ring 0-1-2-3-0 on a 2 x 2 mesh, one slot", 4, 4, { 0, 1, 2, 3 },
	  { 1, 2, 3, 0 }, { 1, 1, 2, 2, 1, 1, 300, 20 }, 2264 },
	/* Two vertices without messages: 2 x 100 + 1280. */
	{ "two isolated vertices, one slot", 2, 0, { 0 }, { 0 },
	  { 1, 1, 1, 1, 1, 1, 300, 20 }, 1480 },
	/* The same with two slots (wait count 2 / 2 = 1): node 0, issued at
	 * 0, takes the tag, asks at 2, is allocated at 3, streams 2 flits to
	 * 5, its tail arrives at 7 (the tag is freed), buffered at 31 and
	 * transformed 31..99, written at 100.  Node 1, issued at 1, gets the
	 * tag at 7, asks at 9, waits for the only core until 31, streams
	 * 32..34, tail 36, buffered 60, waits for the engine until 99,
	 * transformed 99..167, written at 168: + 1280 = 1448.
	 */
	{ "two isolated vertices, two slots", 2, 0, { 0 }, { 0 },
	  { 2, 1, 1, 1, 1, 1, 300, 20 }, 1448 },
};

static void test_hand_cycles(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(hand_cases) / sizeof(hand_cases[0]); i++) {
		const struct hand_case *c = &hand_cases[i];
		dse_error err;
		gnn_graph *g = gnn_graph_from_edges(c->nv, c->ne, c->src,
			c->dst, NULL, &err);
		gnn_model *m = agg_linear(c->nv, c->ne, 16, 16);
		gnn_family *f;
		sim_cycle_report r;

		assert_non_null(g);
		f = family(m, g);
		simulate(f, c->knobs, SIM_MODEL_FULL, NULL, &r);
		if (r.metrics.status != SIM_OK || r.metrics.cycles != c->cycles)
			fail_msg("%s: status %d, %llu cycles, expected %llu",
				c->what, r.metrics.status,
				(unsigned long long) r.metrics.cycles,
				(unsigned long long) c->cycles);
		assert_int_equal(r.tiles, (uint64_t) c->nv);
		assert_int_equal(r.tiles_simulated, (uint64_t) c->nv);
		gnn_family_free(f);
		gnn_model_free(m);
		gnn_graph_free(g);
	}
}

/* --- properties of the cycle model ------------------------------------ */

static gnn_graph *random_graph(int i, int64_t nv, int64_t ne)
{
	dse_error err;
	gnn_graph *g = i % 2 ?
		gnn_graph_rmat(nv, ne, 0.57, 0.19, 0.19, 0.05, 1000 + i, &err) :
		gnn_graph_uniform(nv, ne, 1000 + i, &err);

	assert_non_null(g);
	return g;
}

/* The full model's cycles for slots 1, 2, 4, ..., 128 on random graphs
 * and models.  With one fetch tag the fetches go one after the other and
 * more nodes in flight can only start work earlier: from 32 slots on,
 * where the wait count stays at 16, the cycles never grow.  Below, the
 * wait count is half the slots, and a larger batch may finish the last
 * nodes a few cycles later; with several tags the round-robin of the
 * memory interconnect shares the bandwidth among all fetches in flight,
 * so one more node in flight slows the fetches of the nodes before it a
 * little, and the order in which nodes reach the engine changes: nodes
 * without neighbours, issued earlier, overtake a heavy node still
 * fetching, whose long stream then starts later.  There the cycles must
 * not grow by more than 2% (the largest in this table is 1.3%, on small
 * R-MAT graphs whose heavy vertex 0 streams for a good part of the
 * pass).  Overall they must fall from 1 slot to 128.
 */
static void test_more_slots(void **state)
{
	static const char *const models[] = { "b1", "b2", "b6" };
	int i, mi, tags;

	(void) state;
	for (i = 0; i < 12; i++) {
		int64_t nv = 300 + 137 * i, ne = nv * (2 + i % 5);
		gnn_graph *g = random_graph(i, nv, ne);

		for (mi = 0; mi < 3; mi++)
			for (tags = 1; tags <= 16; tags += 15) {
				dse_error err;
				gnn_model *m = gnn_model_builtin(models[mi],
					nv, ne, 16 + 8 * (i % 5), 7, &err);
				gnn_family *f = family(m, g);
				int32_t k[N_KNOBS];
				double prev = INFINITY, first = 0;
				sim_cycle_report r;

				default_knobs(k);
				k[TAGS] = tags;
				k[ROWS] = 2 + i % 3;
				k[COLS] = 4 + i % 4;
				for (k[SLOTS] = 1; k[SLOTS] <= 128;
				     k[SLOTS] *= 2) {
					double c;

					simulate(f, k, SIM_MODEL_FULL, NULL,
						&r);
					assert_int_equal(r.metrics.status,
						SIM_OK);
					c = (double) r.metrics.cycles;
					first = first ? first : c;
					if (c > prev * (tags == 1 &&
					    k[SLOTS] > 32 ? 1 : 1.02))
						fail_msg("graph %d %s tags %d: "
							"%d slots %.0f cycles, "
							"%d slots %.0f", i,
							models[mi], tags,
							k[SLOTS] / 2, prev,
							k[SLOTS], c);
					prev = c;
				}
				assert_true(prev < first);
				gnn_family_free(f);
				gnn_model_free(m);
			}
		gnn_graph_free(g);
	}
}

/* Asking for at least as many blocks as a pass has makes every pass run
 * whole: the sampled model is then the full one, with a point interval.
 * And a sampled run is the same for the same seed.
 */
static void test_sampled_whole(void **state)
{
	dse_error err;
	gnn_graph *g = random_graph(1, 9000, 54000);
	gnn_model *m = gnn_model_builtin("b6", 9000, 54000, 64, 5, &err);
	gnn_family *f = family(m, g);
	sim_cycle_opts opt;
	sim_cycle_report full, s, again;
	int32_t k[N_KNOBS];

	(void) state;
	default_knobs(k);
	k[SLOTS] = 16;
	simulate(f, k, SIM_MODEL_FULL, NULL, &full);
	memset(&opt, 0, sizeof(opt));
	/* Blocks of 4 x 16 = 64 vertices: 141 of them. */
	opt.samples = 141;
	opt.seed = 7;
	simulate(f, k, SIM_MODEL_SAMPLED, &opt, &s);
	assert_int_equal(s.metrics.status, SIM_OK);
	assert_int_equal(s.metrics.cycles, full.metrics.cycles);
	assert_true(s.cycles_low == (double) full.metrics.cycles);
	assert_true(s.cycles_high == (double) full.metrics.cycles);
	assert_int_equal(s.tiles, full.tiles);
	assert_int_equal(s.tiles_simulated, s.tiles);
	assert_true(s.fraction == 1.0);
	/* Fewer blocks: a real sample, reproducible for a seed. */
	opt.samples = 4;
	simulate(f, k, SIM_MODEL_SAMPLED, &opt, &s);
	simulate(f, k, SIM_MODEL_SAMPLED, &opt, &again);
	assert_true(s.fraction < 1.0);
	assert_int_equal(s.metrics.cycles, again.metrics.cycles);
	assert_true(s.cycles_low == again.cycles_low);
	assert_int_equal(s.tiles_simulated, again.tiles_simulated);
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* The sampled model with its default sample on a table of R-MAT graphs
 * (not the graphs its constants were chosen on): each estimate within 6%
 * of the full model, a real sample (at most 40% of the node tasks), and
 * the 95% interval covering the full model in at least 22 of the 24
 * cases (a 95% interval may miss about one in twenty).
 */
static const struct rmat_case {
	int64_t nv, deg;
	uint64_t seed;
	const char *model;
	int slots;
} rmat_cases[] = {
	{ 12000, 4, 101, "b1", 64 }, { 12000, 8, 102, "b2", 64 },
	{ 16000, 6, 103, "b8", 64 }, { 20000, 5, 104, "b3", 64 },
	{ 16000, 10, 105, "b6", 32 }, { 24000, 4, 106, "b1", 32 },
	{ 20000, 8, 107, "b5", 64 }, { 12000, 16, 108, "b2", 32 },
};

static void test_interval_covers(void **state)
{
	int covered = 0, n = 0;
	size_t i;
	uint64_t seed;

	(void) state;
	for (i = 0; i < sizeof(rmat_cases) / sizeof(rmat_cases[0]); i++) {
		const struct rmat_case *c = &rmat_cases[i];
		int64_t ne = c->nv * c->deg;
		dse_error err;
		gnn_graph *g = gnn_graph_rmat(c->nv, ne, 0.57, 0.19, 0.19,
			0.05, c->seed, &err);
		gnn_model *m = gnn_model_builtin(c->model, c->nv, ne, 128, 8,
			&err);
		gnn_family *f = family(m, g);
		sim_cycle_report full, s;
		int32_t k[N_KNOBS];

		default_knobs(k);
		k[SLOTS] = c->slots;
		simulate(f, k, SIM_MODEL_FULL, NULL, &full);
		for (seed = 1; seed <= 3; seed++) {
			sim_cycle_opts opt;
			double e;

			memset(&opt, 0, sizeof(opt));
			opt.seed = seed;
			simulate(f, k, SIM_MODEL_SAMPLED, &opt, &s);
			e = ((double) s.metrics.cycles -
				(double) full.metrics.cycles) /
				(double) full.metrics.cycles;
			if (fabs(e) > 0.06 || s.fraction > 0.4)
				fail_msg("case %zu seed %llu: error %.2f%%, "
					"fraction %.3f", i,
					(unsigned long long) seed, 100 * e,
					s.fraction);
			covered += s.cycles_low <= (double) full.metrics.cycles
				&& (double) full.metrics.cycles <=
				s.cycles_high;
			n++;
		}
		gnn_family_free(f);
		gnn_model_free(m);
		gnn_graph_free(g);
	}
	if (covered < n - 2)
		fail_msg("the interval covers the full model in %d of %d",
			covered, n);
}

/* --- knobs, passes, resources ------------------------------------------ */

struct bad_case {
	const char *what;
	int knob;
	int32_t value;
	int64_t f;		/* the layer's features */
	int32_t fixed;		/* a legal value of the knob */
	int other;		/* and of one more knob (-1: none) */
	int32_t other_value;
	const char *why;	/* a part of gnn_family_why's text */
};

/* Knob values out of range, and legal values that cannot run the model:
 * an 8 x 8 mesh has 64 cores, fewer than ceil(1040/16) = 65; a 1 KiB
 * buffer holds 1024 / (16 x 16 x 4) = 1 slot of 256 features (2 KiB: 2).
 */
static const struct bad_case bad_cases[] = {
	{ "no nodeslot", SLOTS, 0, 16, 1, -1, 0,
	  "slots is 0, outside 1..65536" },
	{ "negative fetch tags", TAGS, -1, 16, 1, -1, 0,
	  "fetch_tags is -1, outside 1..65536" },
	{ "no mesh row", ROWS, 0, 16, 1, -1, 0,
	  "mesh_rows is 0, outside 1..256" },
	{ "mesh of 257 columns", COLS, 257, 16, 256, -1, 0,
	  "mesh_cols is 257, outside 1..256" },
	{ "no transformation module", FTE, 0, 16, 1, -1, 0,
	  "fte is 0, outside 1..4096" },
	{ "no buffer", FEAT_KB, 0, 16, 1, -1, 0, "feat_kb is 0, outside 1.." },
	{ "no clock", MHZ, 0, 16, 1, -1, 0, "mhz is 0, outside 1..2000" },
	{ "no DRAM", GBPS, 0, 16, 1, -1, 0, "dram_gbps is 0, outside 1.." },
	{ "too few cores for 1040 features", ROWS, 8, 1040, 8, COLS, 9,
	  "1040 features need 65 aggregation cores, the 8 x 8 mesh has 64" },
	{ "buffer below two slots", FEAT_KB, 1, 256, 2, -1, 0,
	  "feat_kb = 1 has room for 1 of a node's 256-feature aggregations, "
	  "fewer than the 2" },
};

static void test_bad_knobs(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		uint32_t src[1] = { 0 }, dst[1] = { 1 };
		dse_error err;
		gnn_graph *g = gnn_graph_from_edges(2, 1, src, dst, NULL, &err);
		gnn_model *m = agg_linear(2, 1, c->f, 16);
		gnn_family *f = family(m, g);
		int32_t k[N_KNOBS];
		sim_metrics out;
		sim_cycle_report r;
		char why[256];
		int kind;

		default_knobs(k);
		k[c->knob] = c->value;
		gnn_family_eval(f, k, &out);
		if (out.status != SIM_BAD_KNOB)
			fail_msg("%s: status %d", c->what, out.status);
		for (kind = 0; kind < SIM_N_MODEL_KINDS; kind++) {
			simulate(f, k, kind, NULL, &r);
			assert_int_equal(r.metrics.status, SIM_BAD_KNOB);
		}
		gnn_family_why(f, k, why, sizeof(why));
		if (!strstr(why, c->why))
			fail_msg("%s: why is \"%s\", want \"%s\"", c->what,
				why, c->why);
		/* One step back is legal. */
		k[c->knob] = c->fixed;
		if (c->other >= 0)
			k[c->other] = c->other_value;
		gnn_family_eval(f, k, &out);
		if (out.status != SIM_OK)
			fail_msg("%s, corrected: status %d", c->what,
				out.status);
		gnn_family_why(f, k, why, sizeof(why));
		assert_string_equal(why, "");
		gnn_family_free(f);
		gnn_model_free(m);
		gnn_graph_free(g);
	}
}

/* The passes of the built-in models (tiles = passes x vertices):
 * b1, b2 GCN: 2 x (Aggregate + Linear); b3, b4 GraphSAGE: 2 x
 * (Aggregate + Linear, the self Linear, the Vector-Add); b5 GIN: 5 x
 * (Aggregate with the self-adding Vector-Add + Linear, the second MLP
 * Linear); b6 GAT: 2 x (Linear, Vector-Inner, Aggregate); b7 SGC:
 * Aggregate, Aggregate + Linear; b8 GraphGym: pre-processing Linear, 3 x
 * (Aggregate + Linear), post-processing Linear.
 */
static void test_passes(void **state)
{
	static const int passes[] = { 2, 2, 6, 6, 10, 6, 2, 5 };
	gnn_graph *g = random_graph(3, 500, 2000);
	int i;

	(void) state;
	assert_int_equal(gnn_model_builtin_count(), 8);
	for (i = 0; i < 8; i++) {
		dse_error err;
		gnn_model *m = gnn_model_builtin(gnn_model_builtin_name(i),
			500, 2000, 100, 5, &err);
		gnn_family *f = family(m, g);
		int32_t k[N_KNOBS];
		sim_cycle_report r;

		default_knobs(k);
		simulate(f, k, SIM_MODEL_ANALYTIC, NULL, &r);
		assert_int_equal(r.metrics.status, SIM_OK);
		if (r.tiles != (uint64_t) passes[i] * 500)
			fail_msg("%s: %llu node tasks, expected %d passes",
				gnn_model_builtin_name(i),
				(unsigned long long) r.tiles, passes[i]);
		gnn_family_free(f);
		gnn_model_free(m);
	}
	gnn_graph_free(g);
}

/* Resources of the default point (16 tags, 8 x 8 mesh, 4 modules, 128
 * KiB buffer, 64 slots) for GCN with 500 input features and 16 hidden:
 *  DSP: (4 x 256 systolic MACs + 64 x 16 accumulators) x 5 (fp32) =
 *    10240;
 *  URAM: each tag's message queue of 4096 beats of 512 bits is
 *    ceil(512/72) = 8 URAM, its address queue of 4096 32-bit pointers 1:
 *    16 x 9 = 144;
 *  BRAM18K: the aggregation buffer, 16384 words of 64 bits in 16 banks
 *    of 1024: 2 x 2 = 4 each (a URAM would replace fewer than 8), 64; the
 *    weight bank, 500 x 16 = 8000 words of 32 bits in 64 banks of 125:
 *    1 each, 64; the routers' 4-deep FIFOs are shift registers: 128.
 * One more fetch tag adds its control (300 LUT, 400 FF) and 9 URAM; one
 * more nodeslot its registers (150 LUT, 250 FF); one more module 256
 * MACs (1280 DSP).
 */
static void test_default_resources(void **state)
{
	dse_error err;
	gnn_graph *g = random_graph(5, 800, 4000);
	gnn_model *m = gnn_model_builtin("b1", 800, 4000, 500, 3, &err);
	gnn_family *f = family(m, g);
	int32_t k[N_KNOBS];
	sim_metrics base, more;

	(void) state;
	default_knobs(k);
	assert_int_equal(k[SLOTS], 64);
	assert_int_equal(k[TAGS], 16);
	assert_int_equal(k[ROWS], 8);
	assert_int_equal(k[COLS], 8);
	assert_int_equal(k[FTE], 4);
	assert_int_equal(k[FEAT_KB], 128);
	assert_int_equal(k[MHZ], 200);
	gnn_family_eval(f, k, &base);
	assert_int_equal(base.status, SIM_OK);
	assert_int_equal(base.dsp, 10240);
	assert_int_equal(base.uram, 144);
	assert_int_equal(base.bram18k, 128);
	assert_true(base.mhz == 200);
	k[TAGS]++;
	gnn_family_eval(f, k, &more);
	assert_int_equal(more.lut - base.lut, 300);
	assert_int_equal(more.ff - base.ff, 400);
	assert_int_equal(more.uram - base.uram, 9);
	k[TAGS]--;
	k[SLOTS]++;
	gnn_family_eval(f, k, &more);
	assert_int_equal(more.lut - base.lut, 150);
	assert_int_equal(more.ff - base.ff, 250);
	k[SLOTS]--;
	k[FTE]++;
	gnn_family_eval(f, k, &more);
	assert_int_equal(more.dsp - base.dsp, 1280);
	gnn_family_free(f);
	gnn_model_free(m);
	gnn_graph_free(g);
}

/* The analytic model stays within a factor 1.5 of the full one on random
 * graphs, and an evaluation takes microseconds.
 */
static void test_analytic(void **state)
{
	static const char *const models[] = { "b1", "b3", "b6", "b8" };
	int i;

	(void) state;
	for (i = 0; i < 8; i++) {
		int64_t nv = 2000 + 500 * i, ne = nv * (3 + i);
		gnn_graph *g = random_graph(i, nv, ne);
		dse_error err;
		gnn_model *m = gnn_model_builtin(models[i % 4], nv, ne, 100,
			6, &err);
		gnn_family *f = family(m, g);
		int32_t k[N_KNOBS];
		sim_cycle_report full, an;
		double ratio;

		default_knobs(k);
		simulate(f, k, SIM_MODEL_FULL, NULL, &full);
		simulate(f, k, SIM_MODEL_ANALYTIC, NULL, &an);
		ratio = (double) an.metrics.cycles /
			(double) full.metrics.cycles;
		if (ratio < 1 / 1.5 || ratio > 1.5)
			fail_msg("graph %d: analytic / full = %.3f", i, ratio);
		if (i == 0) {
			clock_t t0 = clock();
			sim_metrics out;
			int j;

			for (j = 0; j < 20000; j++)
				gnn_family_eval(f, k, &out);
			/* 20,000 evaluations in well under 2 s. */
			assert_true((double) (clock() - t0) / CLOCKS_PER_SEC <
				2.0);
		}
		gnn_family_free(f);
		gnn_model_free(m);
		gnn_graph_free(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_cycles),
		cmocka_unit_test(test_more_slots),
		cmocka_unit_test(test_sampled_whole),
		cmocka_unit_test(test_interval_covers),
		cmocka_unit_test(test_bad_knobs),
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_default_resources),
		cmocka_unit_test(test_analytic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
