/* Tests of the ACK cycle model (gnn/ack.h): hand-computed runs of a
 * p_sys = 4 kernel, the closed forms, and properties on random edges.
 *
 * The hand-computed runs use round latencies: ISN 1, bank read 1, DSN 1,
 * Update 1, Reduce (the RAW window) 3, SDDMM tree 2, and queues of 8
 * unless a case says otherwise.  With p_sys = 4 two edges leave the Edge
 * Buffer a cycle (edges 0 and 1 at cycle 0, 2 and 3 at cycle 1), there
 * are banks 0..3 (vertex v in bank v mod 4) and two UR pipelines
 * (destination d in pipeline (d mod 4) / 2).  For an SpDMM edge issued at
 * t whose bank is free:
 *   read starts at t + 1, reaches its pipeline at t + 3, and with P
 *   passes the run is done at start + 1 (update) + (P - 1) + 3 (reduce).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/util.h"
#include "gnn/ack.h"
#include "gnn/graph.h"


static void easy_cfg(struct gnn__ack_cfg *c, int mode, int passes)
{
	memset(c, 0, sizeof(*c));
	c->p_sys = 4;
	c->mode = mode;
	c->passes = passes;
	c->bank_queue = 8;
	c->pipe_queue = 8;
	c->lat.isn = 1;
	c->lat.bank = 1;
	c->lat.dsn = 1;
	c->lat.update = 1;
	c->lat.reduce = 3;
	c->lat.tree = 2;
}

struct hand_case {
	const char *what;
	int mode, passes, bank_queue;
	int n;
	uint32_t src[4], dst[4];
	uint64_t cycles, isn_wait, raw_stall, dsn_wait, eb_stall;
};

/* Each expectation worked out by hand:
 *
 * spdmm conflict-free: (0,0) (1,2) at t=0 go to banks 0,1 and pipelines
 *   0,1, start at 3, done 3+1+0+3 = 7; (2,1) (3,3) at t=1 use banks 2,3
 *   and pipelines 0,1, start at 4, done 8.  Cycles 8, no waits.
 * spdmm all-same-bank: every src is bank 0.  Reads start at 1, 2, 3, 4
 *   (the arrivals are 1, 1, 2, 2: waits 0+1+1+2 = 4), the pairs reach
 *   pipelines 0,1,0,1 at 3, 4, 5, 6 and start at once; the last is done
 *   at 6+1+3 = 10.
 * spdmm all-same-dst: every edge to vertex 0, pipeline 0, banks 0..3.
 *   Arrivals 3, 3, 4, 4.  Edge 0 starts at 3; edge 1 waits for the
 *   pipeline (free at 4: 1 cycle) and then for edge 0's reduce (3+3 = 6:
 *   RAW 2); edge 2 arrives at 4, pipeline free at 7 (3 cycles), RAW until
 *   6+3 = 9 (2); edge 3: pipeline free at 10 (6 cycles), RAW until 12
 *   (2).  Done at 12+1+3 = 16; RAW 6, DSN waits 1+3+6 = 10.
 * spdmm same bank, queue 1: the same edges, but a bank's queue holds one
 *   index, so an edge leaves the Edge Buffer only once the read before it
 *   in its bank has started: edge 1 at 1 (not 0), edge 2 at 2 (not 1),
 *   edge 3 at 3 (not 2): 3 stall cycles.  Each then finds the bank just
 *   free (reads at 1, 2, 3, 4, no ISN wait) and the end is 10 as before.
 * spdmm two passes: the conflict-free edges; each holds its bank and its
 *   pipeline two cycles.  Edges 0, 1 start at 3 (done 3+1+1+3 = 8);
 *   edges 2, 3 arrive at 4 and wait for their pipelines until 5 (DSN 1
 *   each), done 5+1+1+3 = 10.
 * sddmm conflict-free: (0,1) (2,3): four banks, lanes 0 and 1; both
 *   reads at 1, pairs at 3, done 3+1+0+2 = 6.
 * sddmm all-same-bank: (0,4) (8,12): all four indices in bank 0.  Edge 0
 *   reads at 1 and 2 (wait 1), starts at 2+2 = 4, done 4+1+2 = 7; edge 1
 *   (same cycle, lane 1) reads at 3 and 4 (waits 2 and 3), starts at 6,
 *   done 9.  ISN waits 1+2+3 = 6.
 */
static const struct hand_case hand[] = {
	{ "spdmm conflict-free", GNN__ACK_SPDMM, 1, 8, 4,
	  { 0, 1, 2, 3 }, { 0, 2, 1, 3 }, 8, 0, 0, 0, 0 },
	{ "spdmm all-same-bank", GNN__ACK_SPDMM, 1, 8, 4,
	  { 0, 4, 8, 12 }, { 0, 2, 1, 3 }, 10, 4, 0, 0, 0 },
	{ "spdmm all-same-dst", GNN__ACK_SPDMM, 1, 8, 4,
	  { 0, 1, 2, 3 }, { 0, 0, 0, 0 }, 16, 0, 6, 10, 0 },
	{ "spdmm same bank, queue 1", GNN__ACK_SPDMM, 1, 1, 4,
	  { 0, 4, 8, 12 }, { 0, 2, 1, 3 }, 10, 0, 0, 0, 3 },
	{ "spdmm two passes", GNN__ACK_SPDMM, 2, 8, 4,
	  { 0, 1, 2, 3 }, { 0, 2, 1, 3 }, 10, 0, 0, 2, 0 },
	{ "sddmm conflict-free", GNN__ACK_SDDMM, 1, 8, 2,
	  { 0, 2 }, { 1, 3 }, 6, 0, 0, 0, 0 },
	{ "sddmm all-same-bank", GNN__ACK_SDDMM, 1, 8, 2,
	  { 0, 8 }, { 4, 12 }, 9, 6, 0, 0, 0 },
};

static void test_hand(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(hand); i++) {
		const struct hand_case *h = &hand[i];
		struct gnn__ack_cfg c;
		struct gnn__ack_stats st;

		easy_cfg(&c, h->mode, h->passes);
		c.bank_queue = h->bank_queue;
		assert_true(gnn__ack_cfg_ok(&c));
		gnn__ack_run(&c, h->src, h->dst, NULL, NULL, h->n, &st);
		if (st.cycles != h->cycles || st.isn_wait != h->isn_wait ||
		    st.raw_stall != h->raw_stall ||
		    st.dsn_wait != h->dsn_wait || st.eb_stall != h->eb_stall)
			fail_msg("%s: cycles %llu (want %llu), isn wait %llu "
				"(%llu), raw %llu (%llu), dsn wait %llu (%llu), "
				"eb stall %llu (%llu)", h->what,
				(unsigned long long) st.cycles,
				(unsigned long long) h->cycles,
				(unsigned long long) st.isn_wait,
				(unsigned long long) h->isn_wait,
				(unsigned long long) st.raw_stall,
				(unsigned long long) h->raw_stall,
				(unsigned long long) st.dsn_wait,
				(unsigned long long) h->dsn_wait,
				(unsigned long long) st.eb_stall,
				(unsigned long long) h->eb_stall);
		assert_int_equal(st.edges, (uint64_t) h->n);
		assert_int_equal(st.ur_busy,
			(uint64_t) (h->n * h->passes));
		assert_int_equal(st.bank_reads, (uint64_t) (h->n * h->passes *
			(h->mode == GNN__ACK_SPDMM ? 1 : 2)));
	}
}

/* The order array gives the same run as the permuted arrays. */
static void test_order(void **state)
{
	static const uint32_t src[4] = { 3, 2, 1, 0 }, dst[4] = { 0, 0, 0, 0 };
	static const uint32_t order[4] = { 3, 2, 1, 0 };
	struct gnn__ack_cfg c;
	struct gnn__ack_stats a;

	(void) state;
	easy_cfg(&c, GNN__ACK_SPDMM, 1);
	gnn__ack_run(&c, src, dst, order, NULL, 4, &a);
	assert_int_equal(a.cycles, 16);
	assert_int_equal(a.raw_stall, 6);
	gnn__ack_run(&c, src, dst, order, NULL, 0, &a);
	assert_int_equal(a.cycles, 0);
	assert_int_equal(a.edges, 0);
}

static void test_cfg(void **state)
{
	static const arch_dtype fp32 = { "fp32", 32, 5.0, 5, 1, 3, 2, 1 };
	struct gnn__ack_cfg c;
	int p;

	(void) state;
	for (p = 2; p <= 64; p *= 2) {
		gnn__ack_default_cfg(&c, p, GNN__ACK_SDDMM, 3, &fp32);
		assert_true(gnn__ack_cfg_ok(&c));
		assert_int_equal(c.passes, 3);
		/* The RAW window covers at least the adder. */
		assert_true(c.lat.reduce >= fp32.acc_latency);
	}
	gnn__ack_default_cfg(&c, 16, GNN__ACK_SPDMM, 1, &fp32);
	c.p_sys = 12;
	assert_false(gnn__ack_cfg_ok(&c));
	c.p_sys = 128;
	assert_false(gnn__ack_cfg_ok(&c));
	c.p_sys = 16;
	c.passes = 0;
	assert_false(gnn__ack_cfg_ok(&c));
	c.passes = 1;
	c.bank_queue = 0;
	assert_false(gnn__ack_cfg_ok(&c));
	c.bank_queue = 4;
	c.lat.reduce = GNN__ACK_RING;
	assert_false(gnn__ack_cfg_ok(&c));
}

/* E[max] by hand: 2 balls in 2 bins: max 1 or 2 with probability 1/2
 * each, 1.5; 2 balls in 4 bins: max 2 with probability 1/4, 1.25;
 * 3 balls in 3 bins: all apart 6/27, all together 3/27, else 2:
 * (6 + 2 x 18 + 3 x 3) / 27 = 51/27; one bin: every ball.
 */
static void test_expected_max(void **state)
{
	static const struct { int balls, bins; double want; } t[] = {
		{ 2, 2, 1.5 }, { 2, 4, 1.25 }, { 3, 3, 51.0 / 27.0 },
		{ 7, 1, 7.0 }, { 1, 9, 1.0 }, { 0, 5, 0.0 },
	};
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(t); i++)
		assert_float_equal(gnn__ack_expected_max(t[i].balls,
			t[i].bins), t[i].want, 1e-9);
	/* More balls in the same bins: the maximum grows. */
	assert_true(gnn__ack_expected_max(64, 16) >
		gnn__ack_expected_max(32, 16));
}

static uint64_t rng_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The closed-form rate against the cycle model on uniformly random
 * indices: within 5% for p_sys 4..64, one and two passes.
 */
static void test_random_rate(void **state)
{
	static const arch_dtype fp32 = { "fp32", 32, 5.0, 5, 1, 3, 2, 1 };
	int64_t n = 100000, i;
	uint32_t *src = malloc((size_t) n * 4), *dst = malloc((size_t) n * 4);
	uint64_t x = 12345;
	int mode, p, passes;

	(void) state;
	assert_non_null(src);
	assert_non_null(dst);
	for (i = 0; i < n; i++) {
		src[i] = (uint32_t) (rng_next(&x) % 1000003);
		dst[i] = (uint32_t) (rng_next(&x) % 1000003);
	}
	for (mode = 0; mode < 2; mode++)
		for (p = 4; p <= 64; p *= 2)
			for (passes = 1; passes <= 2; passes++) {
				struct gnn__ack_cfg c;
				struct gnn__ack_stats st;
				double sim, an;

				gnn__ack_default_cfg(&c, p, mode, passes,
					&fp32);
				gnn__ack_run(&c, src, dst, NULL, NULL, n, &st);
				sim = (double) st.cycles / (double) n / passes;
				an = gnn__ack_random_rate(&c);
				if (an < 0.95 * sim || an > 1.05 * sim)
					fail_msg("mode %d p_sys %d passes %d: "
						"closed form %.4f, model %.4f",
						mode, p, passes, an, sim);
			}
	free(src);
	free(dst);
}

/* Bounds any schedule must respect, on random and skewed edge lists: the
 * port sends p_sys/2 edges a cycle, a bank reads one slice a cycle, a
 * pipeline takes one slice a cycle, and consecutive updates of one
 * destination are a reduce window apart.
 */
static void test_bounds(void **state)
{
	static const arch_dtype fp32 = { "fp32", 32, 5.0, 5, 1, 3, 2, 1 };
	uint32_t src[600], dst[600];
	uint64_t x = 99;
	int trial;

	(void) state;
	for (trial = 0; trial < 40; trial++) {
		int p = 2 << (trial % 5), passes = 1 + trial % 3, k = p / 2;
		int mode = trial % 2, n = 50 + trial * 13, i, b, mod = 1 + trial;
		uint64_t bank[64] = { 0 }, pipe[32] = { 0 }, need = 0;
		struct gnn__ack_cfg c;
		struct gnn__ack_stats st;

		for (i = 0; i < n; i++) {
			src[i] = (uint32_t) (rng_next(&x) % 4096);
			/* Skewed destinations: small ranges repeat. */
			dst[i] = (uint32_t) (rng_next(&x) % (uint64_t) mod);
		}
		gnn__ack_default_cfg(&c, p, mode, passes, &fp32);
		gnn__ack_run(&c, src, dst, NULL, NULL, n, &st);
		for (i = 0; i < n; i++) {
			bank[src[i] % (uint32_t) p] += (uint64_t) passes;
			if (mode == GNN__ACK_SDDMM) {
				bank[dst[i] % (uint32_t) p] += (uint64_t) passes;
				pipe[i % k] += (uint64_t) passes;
			} else
				pipe[(dst[i] % (uint32_t) p) / 2] +=
					(uint64_t) passes;
		}
		for (b = 0; b < p; b++)
			need = bank[b] > need ? bank[b] : need;
		for (b = 0; b < k; b++)
			need = pipe[b] > need ? pipe[b] : need;
		if ((uint64_t) ((n + k - 1) / k) > need)
			need = (uint64_t) ((n + k - 1) / k);
		assert_true(st.cycles >= need);
		if (mode == GNN__ACK_SPDMM && mod == 1)
			assert_true(st.cycles >= (uint64_t) (n - 1) *
				(uint64_t) c.lat.reduce);
		assert_int_equal(st.edges, (uint64_t) n);
	}
}

/* --- the compiler's order ------------------------------------------------ */

/* A subshard whose six edges go to two destinations, 0 and 1, both in UR
 * pipeline 0, with sources 0..5 (in storage order (dst, src): (0,0)
 * (0,2) (0,4) (1,1) (1,3) (1,5)).
 *
 * Interleaved by rank, the order is edges 0 3 1 4 2 5: rounds {0, 1}
 * three times, ending at positions 2, 4, 6; the sources go to banks 0 1
 * 2 3 0 1, two a cycle, without conflicts.  By hand (see the header):
 *   e0 (dst 0) issued 0, read 1, at its pipeline 3, starts 3;
 *   e3 (dst 1) issued 0, read 1, at 3, pipeline free at 4: starts 4;
 *   e1 (dst 0) issued 1, read 2, at 4, pipeline free at 5, RAW until
 *      3 + 3 = 6: starts 6 (RAW 1);
 *   e4 (dst 1) issued 1, read 2, at 4, pipeline free at 7, RAW until
 *      4 + 3 = 7: starts 7;
 *   e2 (dst 0) issued 2, read 3, at 5, pipeline free at 8, RAW until 9:
 *      starts 9 (RAW 1);
 *   e5 (dst 1) issued 2, read 3, at 5, pipeline free at 10, RAW until
 *      10: starts 10; done at 10 + 1 + 3 = 14.
 *   RAW 2, DSN waits 1 + 1 + 3 + 3 + 5 = 13.
 * In storage order every edge waits for the one before it to its
 * destination: e0 starts 3; e1 RAW until 6 (2); e2 (bank 0 again, read
 * at 2, at 4) pipeline 7, RAW until 9 (2); e3 pipeline 10; e4 pipeline
 * 11, RAW until 13 (2); e5 pipeline 14, RAW until 16 (2): done at 20,
 * RAW 8, DSN waits 1 + 3 + 6 + 6 + 9 = 25.
 */
static void test_interleave_two(void **state)
{
	static const uint32_t src[6] = { 0, 2, 4, 1, 3, 5 };
	static const uint32_t dst[6] = { 0, 0, 0, 1, 1, 1 };
	static const uint32_t order[6] = { 0, 1, 2, 3, 4, 5 };
	static const uint32_t want_perm[6] = { 0, 3, 1, 4, 2, 5 };
	static const int64_t want_end[3] = { 2, 4, 6 };
	uint32_t cnt[4] = { 0 }, perm[6];
	int64_t end[7], rounds;
	struct gnn__ack_cfg c;
	struct gnn__ack_stats st;
	int i;

	(void) state;
	rounds = gnn__ack_interleave(dst, order, 6, 0, cnt, end, perm);
	assert_int_equal(rounds, 3);
	for (i = 0; i < 6; i++)
		assert_int_equal(perm[i], want_perm[i]);
	for (i = 0; i < 3; i++)
		assert_int_equal(end[i], want_end[i]);
	for (i = 0; i < 4; i++)
		assert_int_equal(cnt[i], 0);
	easy_cfg(&c, GNN__ACK_SPDMM, 1);
	gnn__ack_run(&c, src, dst, order, perm, 6, &st);
	assert_int_equal(st.cycles, 14);
	assert_int_equal(st.raw_stall, 2);
	assert_int_equal(st.dsn_wait, 13);
	assert_int_equal(st.isn_wait, 0);
	gnn__ack_run(&c, src, dst, order, NULL, 6, &st);
	assert_int_equal(st.cycles, 20);
	assert_int_equal(st.raw_stall, 8);
	assert_int_equal(st.dsn_wait, 25);
}

/* Size classes: 1..15 one each, then four a octave; every size lies in
 * its class's range.
 */
static void test_round_classes(void **state)
{
	static const struct { int64_t d; int c; } t[] = {
		{ 1, 0 }, { 15, 14 }, { 16, 15 }, { 19, 15 }, { 20, 16 },
		{ 31, 18 }, { 32, 19 }, { 100, 25 }, { 2047, 42 },
		{ 2048, -1 }, { 0, -1 },
	};
	size_t i;
	int64_t d;

	(void) state;
	assert_int_equal(GNN__ACK_ROUND_CLASSES, 43);
	for (i = 0; i < DSE_N_OF(t); i++)
		assert_int_equal(gnn__ack_round_class(t[i].d), t[i].c);
	assert_int_equal(gnn__ack_round_low(GNN__ACK_ROUND_CLASSES),
		GNN__ACK_ROUND_MAX);
	for (d = 1; d < GNN__ACK_ROUND_MAX; d++) {
		int c = gnn__ack_round_class(d);

		assert_true(gnn__ack_round_low(c) <= d &&
			d < gnn__ack_round_low(c + 1));
	}
}

/* Three rounds of 1 destination (class 0), two of 4 (class 3) and one of
 * 100 (class 25), at 0.5 cycles an edge with a window of 8: the bound is
 * 16 destinations, so the first five stall, 8 x 5 - 0.5 x (3 + 8) = 34.5
 * cycles, and the one of 100 not at all.  A bound of at most one round
 * gives none.
 */
static void test_round_stall(void **state)
{
	double n[GNN__ACK_ROUND_CLASSES + 1] = { 0 };
	double d[GNN__ACK_ROUND_CLASSES + 1] = { 0 };
	int c;

	(void) state;
	for (c = 1; c <= GNN__ACK_ROUND_CLASSES; c++) {
		n[c] = (c > 0 ? 3 : 0) + (c > 3 ? 2 : 0) + (c > 25 ? 1 : 0);
		d[c] = (c > 0 ? 3 : 0) + (c > 3 ? 8 : 0) + (c > 25 ? 100 : 0);
	}
	assert_float_equal(gnn__ack_round_stall(n, d, 0.5, 8), 34.5, 1e-9);
	assert_float_equal(gnn__ack_round_stall(n, d, 8, 8), 0, 1e-9);
	/* A bound above every class counts all six: 48 - 0.001 x 111. */
	assert_float_equal(gnn__ack_round_stall(n, d, 0.001, 8),
		48 - 0.111, 1e-9);
}

/* The nonempty subshards of "sh" row by row, as struct gnn__ack_part
 * lists them (the arrays allocated here).
 */
static void list_subshards(const gnn_graph *g, const gnn_shards *sh,
	struct gnn__ack_part *p)
{
	int64_t c = gnn_shards_count(sh), n = 0, i, j;
	int64_t *first = calloc((size_t) c + 1, sizeof(int64_t));
	int64_t *off = malloc((size_t) (c * c) * sizeof(int64_t));
	int64_t *cnt = malloc((size_t) (c * c) * sizeof(int64_t));

	assert_true(first && off && cnt);
	for (i = 0; i < c; i++) {
		first[i] = n;
		for (j = 0; j < c; j++)
			if (gnn_shards_edges_in(sh, i, j)) {
				off[n] = gnn_shards_offset(sh, i, j);
				cnt[n++] = gnn_shards_edges_in(sh, i, j);
			}
	}
	first[c] = n;
	memset(p, 0, sizeof(*p));
	p->src = gnn_graph_src(g);
	p->dst = gnn_graph_dst(g);
	p->order = gnn_shards_edges(sh);
	p->rows = c;
	p->n_sub = n;
	p->n_edges = gnn_graph_n_edges(g);
	p->n1 = gnn_shards_n1(sh);
	p->row_first = first;
	p->sub_off = off;
	p->sub_edges = cnt;
}

/* The edge at position q of subshard s in the compiler's order. */
static int64_t edge_at(const struct gnn__ack_part *p, int64_t s, int64_t q)
{
	return p->order[p->sub_off[s] + p->perm[p->sub_off[s] + q]];
}

/* The compiler's order of a power-law partition: each subshard's
 * positions are a permutation of its edges; within a round the
 * destinations rise (so each appears once) and the rounds never grow;
 * the runs cover the subshard; the index counts and loads agree with the
 * edges.
 */
static void test_order_build(void **state)
{
	static const arch_dtype fp32 = { "fp32", 32, 5.0, 5, 1, 3, 2, 1 };
	dse_error err;
	gnn_graph *g = gnn_graph_rmat(3000, 40000, 0.57, 0.19, 0.19, 0.05, 7,
		&err);
	gnn_shards *sh = gnn_shards_alloc(g, 512, &err);
	char *seen = calloc(40000, 1);
	struct gnn__ack_part p;
	struct gnn__ack_order o;
	int64_t s, k, j;

	(void) state;
	assert_non_null(sh);
	list_subshards(g, sh, &p);
	assert_true(gnn__ack_order_build(&p, &fp32, &o));
	for (s = 0; s < p.n_sub; s++) {
		int64_t pos = 0, prev_d = INT64_MAX, hs = 0, q;
		uint32_t r;

		for (k = p.run_first[s]; k < p.run_first[s + 1]; k++) {
			assert_int_equal(p.run_pos[k], pos);
			assert_true(p.run_d[k] < prev_d && p.run_n[k] >= 1);
			prev_d = p.run_d[k];
			for (r = 0; r < p.run_n[k]; r++, pos += p.run_d[k])
				for (q = pos + 1; q < pos + p.run_d[k]; q++)
					assert_true(p.dst[edge_at(&p, s, q)] >
						p.dst[edge_at(&p, s, q - 1)]);
		}
		assert_int_equal(pos, p.sub_edges[s]);
		for (q = 0; q < p.sub_edges[s]; q++) {
			assert_int_equal(seen[edge_at(&p, s, q)], 0);
			seen[edge_at(&p, s, q)] = 1;
		}
		for (k = p.sub_block[s]; k < p.sub_block[s + 1]; k++)
			for (j = 0; j < 2 * GNN__ACK_MAX_PSYS; j++)
				hs += p.hist[k * 2 * GNN__ACK_MAX_PSYS + j];
		assert_int_equal(hs, 2 * p.sub_edges[s]);
		/* A pass takes at least the edges at p_sys / 2 a cycle. */
		assert_true(p.sub_load[gnn__ack_load_at(s, GNN__ACK_SPDMM, 4)] >=
			p.sub_edges[s] / 8.0);
	}
	for (k = 0; k < 40000; k++)
		assert_int_equal(seen[k], 1);
	gnn__ack_order_clear(&o);
	free((void *) p.row_first);
	free((void *) p.sub_off);
	free((void *) p.sub_edges);
	free(seen);
	gnn_shards_free(sh);
	gnn_graph_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_cfg),
		cmocka_unit_test(test_expected_max),
		cmocka_unit_test(test_random_rate),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_interleave_two),
		cmocka_unit_test(test_round_classes),
		cmocka_unit_test(test_round_stall),
		cmocka_unit_test(test_order_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
