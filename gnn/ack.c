/* gnn: the cycle model of the Adaptive Computation Kernel in SpDMM and
 * SDDMM modes (GraphAGILE sections 5.3.2, 5.4, 5.5 and 7).
 *
 * Modelling choices, each a reading of the paper where it is silent:
 *
 *  - The Edge Buffer sends up to p_sys/2 edges a cycle, in the order the
 *    compiler laid them out (Algorithms 2 and 3; gnn__ack_interleave).  An edge leaves only when the queue in front
 *    of its bank has room; it then waits, and the edges behind it wait
 *    with it (the Edge Buffer is read in order).
 *  - The Index Shuffle Network is a butterfly with buffered switches
 *    (section 7, Figure 12, after HBM Connect [29]).  Its buffering is
 *    modelled as a queue of "bank_queue" indices in front of each of the
 *    p_sys banks, reached "isn" cycles after the edge left the Edge
 *    Buffer.  SpDMM routes the src index of every edge; SDDMM routes both
 *    the src and the dst index (p_sys indices a cycle).
 *  - The Feature Buffer has p_sys banks, vertex v in bank v mod p_sys
 *    (section 5.5).  A bank serves one read a cycle; a read gives p_sys
 *    words of one vertex, so an edge over "passes" = ceil(cols / p_sys)
 *    slices of the fiber holds its bank for "passes" cycles.  Indices of
 *    the same bank are served one after the other, in order.  The bank of
 *    a vertex is taken from its global index: the shard height is a
 *    multiple of p_sys in every legal design, so it equals the bank of
 *    the index local to the subshard.
 *  - The Data Shuffle Network routes the (features, edge) pair to UR
 *    pipeline floor((dst mod p_sys) / 2) in SpDMM (section 5.4) and to
 *    the pipeline of the edge's lane (its position among the p_sys/2
 *    edges sent together) in SDDMM (section 5.5).  It holds "pipe_queue"
 *    pairs for each pipeline; when that queue is full the bank holding
 *    the next pair for it waits (back-pressure into the banks, and from
 *    their queues into the Edge Buffer).
 *  - A UR pipeline takes one pair-slice a cycle, the slices of one edge on
 *    consecutive cycles, pairs in the order they were sent.  SpDMM: the
 *    Update Unit multiplies ("update" cycles), then the RAW unit holds a
 *    pair whose destination has an earlier update still inside the
 *    Reduce Unit ("reduce" cycles: reading the partial result, reducing,
 *    writing it back) until that update is written; the pipeline stalls
 *    behind it (the paper's reorder buffer is a FIFO, section 7).
 *    SDDMM: the multiply-adder tree ("tree" cycles, accumulating the
 *    slices at its root); each edge's result is its own, so there is no
 *    RAW hazard.
 *  - A run starts with an empty kernel and ends when the last result is
 *    written: the cycles include filling and draining the pipeline.
 *
 * Every timing is computed from a few numbers per bank and per pipeline
 * (the last times they were free, the start times of their last
 * GNN__ACK_RING requests): O(1) work per edge and no allocation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ack.h"

/* Latencies of the ACK's parts in cycles at the design's clock.
 *
 *  - Shuffle networks: log2(p_sys) switch stages of a butterfly, each
 *    registered, plus the input register (Figure 12).
 *  - Bank read: a BRAM or URAM read with its output register, 2 cycles
 *    (UltraScale+ memory resources, UG573, with the optional output
 *    register that the 300 MHz clock of section 7 needs).
 *  - Multiplier: the Update Unit's multiply, 6 cycles for a floating-
 *    point type (Floating-Point Operator PG060, single-precision multiply
 *    with full DSP usage at its maximum latency for 300 MHz and more) and
 *    3 for an integer (the A, M and P registers of a DSP48E2).
 *  - The reduction's adder is the data type's accumulation latency
 *    (arch_dtype.acc_latency); the Reduce Unit's window adds the bank
 *    read of the partial result and a write-back cycle.
 *  - SDDMM tree: log2(p_sys) adder levels plus the root's accumulation.
 * The switch queues are estimates: two entries per butterfly stage on the
 * path to a bank or a pipeline (HBM Connect's switches carry small FIFOs;
 * the paper gives no depth).
 */
static const struct ack_latency_table {
	int net_input_reg;	/* cycles before the first switch stage */
	int net_per_stage;	/* per butterfly stage */
	int bank_read;
	int mul_float, mul_int;
	int writeback;
	int queue_per_stage;
} ack_table = { 1, 1, 2, 6, 3, 1, 2 };

#define RING_MASK (GNN__ACK_RING - 1)

_Static_assert((GNN__ACK_RING & RING_MASK) == 0, "ring size power of two");

static int log2_exact(int x)
{
	int k = 0;

	while ((1 << k) < x)
		k++;
	return (1 << k) == x ? k : -1;
}

void gnn__ack_default_cfg(struct gnn__ack_cfg *c, int p_sys, int mode,
	int passes, const arch_dtype *dtype)
{
	int stages = log2_exact(p_sys);
	int add = dtype && dtype->acc_latency > 0 ? dtype->acc_latency : 1;

	if (stages < 1)
		stages = 1;
	memset(c, 0, sizeof(*c));
	c->p_sys = p_sys;
	c->mode = mode;
	c->passes = passes;
	c->bank_queue = ack_table.queue_per_stage * stages;
	c->pipe_queue = ack_table.queue_per_stage * stages;
	c->lat.isn = ack_table.net_input_reg + ack_table.net_per_stage * stages;
	c->lat.dsn = c->lat.isn;
	c->lat.bank = ack_table.bank_read;
	c->lat.update = dtype && !dtype->is_float ? ack_table.mul_int :
		ack_table.mul_float;
	c->lat.reduce = ack_table.bank_read + add + ack_table.writeback;
	c->lat.tree = stages * add + add;
}

int gnn__ack_cfg_ok(const struct gnn__ack_cfg *c)
{
	int s = c ? log2_exact(c->p_sys) : -1;

	return s >= 1 && c->p_sys <= GNN__ACK_MAX_PSYS &&
		(c->mode == GNN__ACK_SPDMM || c->mode == GNN__ACK_SDDMM) &&
		c->passes >= 1 && c->bank_queue >= 1 &&
		c->bank_queue <= GNN__ACK_RING && c->pipe_queue >= 1 &&
		c->pipe_queue <= GNN__ACK_RING &&
		(c->mode == GNN__ACK_SPDMM || c->bank_queue >= 2) &&
		c->lat.isn >= 0 && c->lat.bank >= 0 && c->lat.dsn >= 0 &&
		c->lat.update >= 0 && c->lat.tree >= 0 && c->lat.reduce >= 1 &&
		c->lat.reduce < GNN__ACK_RING;
}

/* The state of one run: the configuration's numbers, per bank and per
 * pipeline when it is next free, how many requests it has taken and the
 * start times of the last GNN__ACK_RING of them; the issue times of the
 * last p_sys/2 edges; the counters of the run.
 */
struct ack_state {
	int mask, k, passes, bq, pq;
	int64_t isn, to_pipe, update, reduce, tree;
	int lane;		/* next slot of issue[] */
	int64_t last_issue;	/* -1 before the first edge */
	int64_t end;
	struct gnn__ack_stats st;
	int64_t issue[GNN__ACK_MAX_PSYS / 2];
	int64_t bank_free[GNN__ACK_MAX_PSYS];
	uint64_t bank_n[GNN__ACK_MAX_PSYS];
	int64_t pipe_free[GNN__ACK_MAX_PSYS / 2];
	uint64_t pipe_n[GNN__ACK_MAX_PSYS / 2];
	int64_t bank_start[GNN__ACK_MAX_PSYS][GNN__ACK_RING];
	int64_t pipe_start[GNN__ACK_MAX_PSYS / 2][GNN__ACK_RING];
	uint32_t pipe_dst[GNN__ACK_MAX_PSYS / 2][GNN__ACK_RING];
};

static void state_init(struct ack_state *s, const struct gnn__ack_cfg *c)
{
	int k = c->p_sys / 2;

	s->mask = c->p_sys - 1;
	s->k = k;
	s->passes = c->passes;
	s->bq = c->bank_queue;
	s->pq = c->pipe_queue;
	s->isn = c->lat.isn;
	s->to_pipe = c->lat.bank + c->lat.dsn;
	s->update = c->lat.update;
	s->reduce = c->lat.reduce;
	s->tree = c->lat.tree;
	s->lane = 0;
	s->last_issue = -1;
	s->end = 0;
	memset(&s->st, 0, sizeof(s->st));
	/* The rings are only read at entries written in this run, so only
	 * the counters and times need clearing.
	 */
	memset(s->bank_free, 0, sizeof(s->bank_free[0]) * (size_t) c->p_sys);
	memset(s->bank_n, 0, sizeof(s->bank_n[0]) * (size_t) c->p_sys);
	memset(s->pipe_free, 0, sizeof(s->pipe_free[0]) * (size_t) k);
	memset(s->pipe_n, 0, sizeof(s->pipe_n[0]) * (size_t) k);
}

/* The earliest issue of edge number "i" by the port: not before the
 * previous edge (in order), and not in the cycle of the edge p_sys/2
 * before it.
 */
static inline int64_t port_slot(const struct ack_state *s, int64_t i)
{
	int64_t t = s->last_issue < 0 ? 0 : s->last_issue;

	if (i >= s->k && s->issue[s->lane] + 1 > t)
		t = s->issue[s->lane] + 1;
	return t;
}

/* The earliest issue at which an index finds room in the queue of bank
 * "b", with "ahead" more indices of the same edge before it.
 */
static inline int64_t bank_room(const struct ack_state *s, int b, int ahead,
	int64_t t)
{
	uint64_t n = s->bank_n[b] + (uint64_t) ahead;

	if (n >= (uint64_t) s->bq) {
		int64_t left = s->bank_start[b][(n - (uint64_t) s->bq) &
			RING_MASK] - s->isn + 1;

		if (left > t)
			return left;
	}
	return t;
}

/* Records the issue of an edge at "t", "nat" being when the port alone
 * would have sent it.
 */
static inline void issued(struct ack_state *s, int64_t t, int64_t nat)
{
	s->st.eb_stall += (uint64_t) (t - nat);
	s->st.issue_cycles += t != s->last_issue;
	s->issue[s->lane] = t;
	s->lane = s->lane + 1 == s->k ? 0 : s->lane + 1;
	s->last_issue = t;
}

/* The earliest start of a read for pipeline "q" that finds room in the
 * pipeline's queue when its data gets there.
 */
static inline int64_t pipe_room(const struct ack_state *s, int q)
{
	uint64_t n = s->pipe_n[q];

	if (n < (uint64_t) s->pq)
		return 0;
	return s->pipe_start[q][(n - (uint64_t) s->pq) & RING_MASK] -
		s->to_pipe + 1;
}

/* Serves one index at bank "b", arriving at "arrive", not before "room";
 * returns the start of its read.
 */
static inline int64_t bank_read(struct ack_state *s, int b, int64_t arrive,
	int64_t room)
{
	int64_t t = arrive;

	if (s->bank_free[b] > t) {
		s->st.isn_wait += (uint64_t) (s->bank_free[b] - t);
		t = s->bank_free[b];
	}
	if (room > t) {
		s->st.bank_blocked += (uint64_t) (room - t);
		t = room;
	}
	s->bank_start[b][s->bank_n[b]++ & RING_MASK] = t;
	s->bank_free[b] = t + s->passes;
	return t;
}

/* The cycle at which a pair arriving at pipeline "q" at "arrive" starts,
 * the pipeline taking its pairs in order.
 */
static inline int64_t pipe_free_at(struct ack_state *s, int q, int64_t arrive)
{
	if (s->pipe_free[q] > arrive) {
		s->st.dsn_wait += (uint64_t) (s->pipe_free[q] - arrive);
		return s->pipe_free[q];
	}
	return arrive;
}

/* The RAW unit: holds a pair for destination "d" starting at "u" while an
 * update of d is inside the Reduce Unit.  Starts in a pipeline grow by at
 * least a cycle a pair, so only the last "reduce" pairs can still be
 * inside; the most recent one to d decides.
 */
static inline int64_t raw_hold(struct ack_state *s, int q, uint32_t d,
	int64_t u)
{
	uint64_t n = s->pipe_n[q], j;

	for (j = n; j > 0 && j + GNN__ACK_RING > n; j--) {
		int64_t prev = s->pipe_start[q][(j - 1) & RING_MASK];

		if (prev + s->reduce <= u)
			break;
		if (s->pipe_dst[q][(j - 1) & RING_MASK] == d) {
			s->st.raw_stall += (uint64_t) (prev + s->reduce - u);
			return prev + s->reduce;
		}
	}
	return u;
}

/* Enters a pair into pipeline "q" at "u". */
static inline void pipe_enter(struct ack_state *s, int q, uint32_t d,
	int64_t u)
{
	uint64_t n = s->pipe_n[q];

	s->pipe_start[q][n & RING_MASK] = u;
	s->pipe_dst[q][n & RING_MASK] = d;
	s->pipe_n[q] = n + 1;
	s->pipe_free[q] = u + s->passes;
}

static inline void spdmm_edge(struct ack_state *s, int64_t i, uint32_t src,
	uint32_t dst)
{
	int b = (int) (src & (uint32_t) s->mask);
	int q = (int) (dst & (uint32_t) s->mask) >> 1;
	int64_t nat = port_slot(s, i), t = bank_room(s, b, 0, nat), r, u;

	issued(s, t, nat);
	r = bank_read(s, b, t + s->isn, pipe_room(s, q));
	u = pipe_free_at(s, q, r + s->to_pipe);
	u = raw_hold(s, q, dst, u);
	pipe_enter(s, q, dst, u);
	u += s->update + s->passes - 1 + s->reduce;
	if (u > s->end)
		s->end = u;
}

static inline void sddmm_edge(struct ack_state *s, int64_t i, uint32_t src,
	uint32_t dst)
{
	int b0 = (int) (src & (uint32_t) s->mask);
	int b1 = (int) (dst & (uint32_t) s->mask);
	int q = s->lane;	/* the lane this edge is sent on */
	int64_t nat = port_slot(s, i), t, room, r0, r1, u;

	t = bank_room(s, b0, 0, nat);
	t = bank_room(s, b1, b1 == b0, t);
	issued(s, t, nat);
	room = pipe_room(s, q);
	r0 = bank_read(s, b0, t + s->isn, room);
	r1 = bank_read(s, b1, t + s->isn, room);
	u = pipe_free_at(s, q, (r0 > r1 ? r0 : r1) + s->to_pipe);
	pipe_enter(s, q, dst, u);
	u += s->update + s->passes - 1 + s->tree;
	if (u > s->end)
		s->end = u;
}

void gnn__ack_run(const struct gnn__ack_cfg *c, const uint32_t *src,
	const uint32_t *dst, const uint32_t *order, const uint32_t *perm,
	int64_t n, struct gnn__ack_stats *out)
{
	struct ack_state s;
	int64_t i;

	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return;
	state_init(&s, c);
	/* One loop per case keeps the per-edge work free of branches. */
	if (c->mode == GNN__ACK_SPDMM && perm) {
		for (i = 0; i < n; i++) {
			int64_t e = order[perm[i]];

			spdmm_edge(&s, i, src[e], dst[e]);
		}
	} else if (c->mode == GNN__ACK_SPDMM && order) {
		for (i = 0; i < n; i++)
			spdmm_edge(&s, i, src[order[i]], dst[order[i]]);
	} else if (c->mode == GNN__ACK_SPDMM) {
		for (i = 0; i < n; i++)
			spdmm_edge(&s, i, src[i], dst[i]);
	} else {
		for (i = 0; i < n; i++) {
			int64_t e = perm ? order[perm[i]] : order ? order[i] : i;

			sddmm_edge(&s, i, src[e], dst[e]);
		}
	}
	*out = s.st;
	/* Every edge takes its slices through a bank (two in SDDMM) and
	 * through a pipeline.
	 */
	out->bank_reads = (uint64_t) n * (uint64_t) c->passes *
		(c->mode == GNN__ACK_SPDMM ? 1u : 2u);
	out->ur_busy = (uint64_t) n * (uint64_t) c->passes;
	out->edges = (uint64_t) n;
	out->cycles = (uint64_t) s.end;
}

/* --- closed forms -------------------------------------------------------- */

/* E[max] = sum over m >= 1 of P(max >= m) = sum of 1 - P(every bin < m).
 * P(every bin < m) comes from placing the balls bin after bin: with r
 * balls left and b bins to go, the next bin takes j of them with the
 * binomial probability C(r, j) (1/b)^j (1 - 1/b)^(r - j).  The dynamic
 * programme over (bins, balls left) is exact; its cost, bins x balls x m
 * per m, is paid once per configuration, not per design point.
 */
static double prob_all_below(int balls, int bins, int m, double *cur,
	double *next)
{
	int b, r, j;

	for (r = 0; r <= balls; r++)
		cur[r] = r == balls;
	for (b = bins; b >= 1; b--) {
		double p = 1.0 / b;

		for (r = 0; r <= balls; r++)
			next[r] = 0;
		for (r = 0; r <= balls; r++) {
			double w = cur[r], pj;

			if (w == 0)
				continue;
			if (b == 1) {
				if (r < m)
					next[0] += w;
				continue;
			}
			/* j = 0 term, then the binomial recurrence. */
			pj = pow(1 - p, r);
			for (j = 0; j < m && j <= r; j++) {
				next[r - j] += w * pj;
				pj *= (double) (r - j) / (double) (j + 1) *
					p / (1 - p);
			}
		}
		memcpy(cur, next, sizeof(double) * (size_t) (balls + 1));
	}
	return cur[0];
}

double gnn__ack_expected_max(int balls, int bins)
{
	double cur[4097], next[4097], e = 0;
	int m;

	if (balls <= 0 || bins <= 0 || balls > 4096 || bins > 4096)
		return balls > 0 ? balls : 0;
	if (bins == 1)
		return balls;
	for (m = 1; m <= balls; m++) {
		double below = prob_all_below(balls, bins, m, cur, next);

		e += 1 - below;
		if (1 - below < 1e-12)
			break;
	}
	return e;
}

/* The steady-state cycles per edge and pass for random indices.
 *
 * At full rate every cycle brings p_sys/2 edges; a conflict-free cycle
 * gives each bank and each pipeline at most one request.  The expected
 * excess of the busiest server of a cycle over that one request,
 * E[max] - 1 (gnn__ack_expected_max: p_sys/2 src indices over p_sys
 * banks and p_sys/2 destinations over p_sys/2 pipelines in SpDMM; p_sys
 * indices over p_sys banks in SDDMM, whose pipelines take the edges in
 * turn), is work that the server's queue of depth Q can absorb over
 * Q + 1 cycles before it holds the Edge Buffer: the factor on the
 * conflict-free rate is 1 + (E[max] - 1) / (Q + 1), the larger one of the
 * banks and the pipelines.  This is a closed-form approximation of the
 * queueing, not an exact result; against this file's cycle model on
 * uniformly random indices it is within 5% for p_sys 4 to 64 and one or
 * two passes (tests/gnn/test_ack.c checks it).
 */
static double excess(double emax, int queue)
{
	return emax > 1 ? (emax - 1) / (queue + 1) : 0;
}

double gnn__ack_random_rate(const struct gnn__ack_cfg *c)
{
	int k = c->p_sys / 2;
	double bank, pipe = 0;

	if (c->mode == GNN__ACK_SPDMM) {
		bank = excess(gnn__ack_expected_max(k, c->p_sys),
			c->bank_queue);
		pipe = excess(gnn__ack_expected_max(k, k), c->pipe_queue);
	} else {
		bank = excess(gnn__ack_expected_max(c->p_sys, c->p_sys),
			c->bank_queue);
	}
	return (1 + (bank > pipe ? bank : pipe)) / k;
}

/* --- the compiler's edge order ------------------------------------------
 *
 * Why interleave.  Storage order is (dst, src): every in-edge of a
 * destination follows the one before it, and the RAW unit holds each of
 * them until the previous update of that destination has left the Reduce
 * Unit; the pipeline behind it stalls, its queue fills, and the in-order
 * Edge Buffer stops.  A subshard then costs about a RAW window per edge
 * instead of 2 / p_sys cycles.  Sparse accelerators with a hazard unit
 * are fed with the destinations interleaved, so that consecutive edges
 * rarely share one, and GraphAGILE's compiler preprocesses the graph
 * before it runs: ordering each subshard by (rank of the edge among its
 * destination's edges, destination) is a counting sort, O(edges) once
 * per partition, and leaves back-to-back updates of one destination only
 * in the rounds a hub has to itself.
 */

int gnn__ack_round_class(int64_t d)
{
	int o = 0;

	if (d < 1 || d >= GNN__ACK_ROUND_MAX)
		return -1;
	if (d < GNN__ACK_ROUND_EXACT)
		return (int) d - 1;
	while (((int64_t) GNN__ACK_ROUND_EXACT << (o + 1)) <= d)
		o++;
	return GNN__ACK_ROUND_EXACT - 1 + o * GNN__ACK_ROUND_SPLIT +
		(int) ((d - ((int64_t) GNN__ACK_ROUND_EXACT << o)) /
		(((int64_t) GNN__ACK_ROUND_EXACT / GNN__ACK_ROUND_SPLIT) << o));
}

int64_t gnn__ack_round_low(int c)
{
	int o, j;

	if (c < GNN__ACK_ROUND_EXACT - 1)
		return c + 1;
	o = (c - (GNN__ACK_ROUND_EXACT - 1)) / GNN__ACK_ROUND_SPLIT;
	j = (c - (GNN__ACK_ROUND_EXACT - 1)) % GNN__ACK_ROUND_SPLIT;
	return ((int64_t) GNN__ACK_ROUND_EXACT << o) +
		(((int64_t) j * GNN__ACK_ROUND_EXACT / GNN__ACK_ROUND_SPLIT) <<
		o);
}

int64_t gnn__ack_interleave(const uint32_t *dst, const uint32_t *order,
	int64_t n, uint32_t dst_base, uint32_t *cnt, int64_t *end,
	uint32_t *perm)
{
	int64_t i, r, rounds = 0, sum = 0;

	/* Ranks, and the size of every round in end[]. */
	for (i = 0; i < n; i++) {
		uint32_t k = cnt[dst[order[i]] - dst_base]++;

		if (k == rounds)
			end[rounds++] = 0;
		end[k]++;
	}
	/* end[r] becomes the start of round r, then, as the stable scatter
	 * fills it, its end.
	 */
	for (r = 0; r < rounds; r++) {
		int64_t x = end[r];

		end[r] = sum;
		sum += x;
	}
	for (i = 0; i < n; i++)
		cnt[dst[order[i]] - dst_base] = 0;
	for (i = 0; i < n; i++) {
		uint32_t k = cnt[dst[order[i]] - dst_base]++;

		perm[end[k]++] = (uint32_t) i;
	}
	for (i = 0; i < n; i++)
		cnt[dst[order[i]] - dst_base] = 0;
	return rounds;
}

double gnn__ack_round_stall(const double *cum_n, const double *cum_d,
	double tau, double hold)
{
	double bound, x;
	int c;

	if (!(hold > 0) || !(tau > 0))
		return 0;
	bound = hold / tau;
	if (bound <= 1)
		return 0;
	c = bound >= (double) GNN__ACK_ROUND_MAX ? GNN__ACK_ROUND_CLASSES :
		gnn__ack_round_class((int64_t) bound) + 1;
	x = hold * cum_n[c] - tau * cum_d[c];
	return x > 0 ? x : 0;
}

double gnn__ack_hold(const struct gnn__ack_cfg *c)
{
	if (c->mode != GNN__ACK_SPDMM)
		return 0;
	return c->lat.reduce > c->passes ? c->lat.reduce : c->passes;
}

/* --- laying out a partition ---------------------------------------------- */

/* The busiest bank and pipeline of one subshard for every p_sys, from the
 * counts of its indices mod the widest kernel's 64 banks.
 */
static void sub_loads(const struct gnn__ack_part *p, int64_t s,
	const double *rate_sp, const double *rate_sd, float *out)
{
	int64_t hs[GNN__ACK_MAX_PSYS] = { 0 }, hd[GNN__ACK_MAX_PSYS] = { 0 };
	int64_t i, n = p->sub_edges[s];
	const uint32_t *order = p->order + p->sub_off[s];
	int lp, j;

	for (i = 0; i < n; i++) {
		hs[p->src[order[i]] & (GNN__ACK_MAX_PSYS - 1)]++;
		hd[p->dst[order[i]] & (GNN__ACK_MAX_PSYS - 1)]++;
	}
	for (lp = 1; lp < GNN__ACK_N_PSYS; lp++) {
		int64_t bank[GNN__ACK_MAX_PSYS] = { 0 };
		int64_t both[GNN__ACK_MAX_PSYS] = { 0 };
		int64_t pipe[GNN__ACK_MAX_PSYS / 2] = { 0 };
		int64_t mb = 0, mq = 0, m2 = 0, pm = (1 << lp) - 1;
		double sp = (double) n * rate_sp[lp], sd = (double) n *
			rate_sd[lp];

		for (j = 0; j < GNN__ACK_MAX_PSYS; j++) {
			bank[j & pm] += hs[j];
			both[j & pm] += hs[j] + hd[j];
			pipe[(j & pm) >> 1] += hd[j];
		}
		for (j = 0; j <= pm; j++) {
			mb = bank[j] > mb ? bank[j] : mb;
			m2 = both[j] > m2 ? both[j] : m2;
			mq = j <= pm / 2 && pipe[j] > mq ? pipe[j] : mq;
		}
		sp = (double) mb > sp ? (double) mb : sp;
		sp = (double) mq > sp ? (double) mq : sp;
		sd = (double) m2 > sd ? (double) m2 : sd;
		out[GNN__ACK_SPDMM * GNN__ACK_N_PSYS + lp] = (float) sp;
		out[GNN__ACK_SDDMM * GNN__ACK_N_PSYS + lp] = (float) sd;
	}
}

/* The loads of every subshard (gnn__ack_order_build). */
static void part_loads(const struct gnn__ack_part *p, const arch_dtype *dtype,
	float *sub_load)
{
	double sp[GNN__ACK_N_PSYS] = { 0 }, sd[GNN__ACK_N_PSYS] = { 0 };
	int64_t s;
	int lp;

	for (lp = 1; lp < GNN__ACK_N_PSYS; lp++) {
		struct gnn__ack_cfg c;

		gnn__ack_default_cfg(&c, 1 << lp, GNN__ACK_SPDMM, 1, dtype);
		sp[lp] = gnn__ack_random_rate(&c);
		gnn__ack_default_cfg(&c, 1 << lp, GNN__ACK_SDDMM, 1, dtype);
		sd[lp] = gnn__ack_random_rate(&c);
	}
	for (s = 0; s < p->n_sub; s++) {
		float *o = sub_load + gnn__ack_load_at(s, 0, 0);

		o[GNN__ACK_SPDMM * GNN__ACK_N_PSYS] = 0;
		o[GNN__ACK_SDDMM * GNN__ACK_N_PSYS] = 0;
		sub_loads(p, s, sp, sd, o);
	}
}

/* Appends the rounds of one subshard ("n_rounds" of them, round r ending
 * at end[r]) to o's runs, whose arrays have room for *cap; 0 when out of
 * memory.
 */
static int add_runs(struct gnn__ack_order *o, int64_t *cap,
	const int64_t *end, int64_t n_rounds)
{
	int64_t r, first = o->n_runs;

	for (r = 0; r < n_rounds; r++) {
		int64_t start = r ? end[r - 1] : 0, d = end[r] - start;

		if (o->n_runs > first && o->run_d[o->n_runs - 1] == d) {
			o->run_n[o->n_runs - 1]++;
			continue;
		}
		if (o->n_runs == *cap) {
			int64_t c = *cap ? 2 * *cap : 1024;
			uint32_t *a = realloc(o->run_pos, (size_t) c * 4);
			uint32_t *b = a ? realloc(o->run_d, (size_t) c * 4) : NULL;
			uint32_t *n = NULL;

			o->run_pos = a ? a : o->run_pos;
			o->run_d = b ? b : o->run_d;
			if (b && (n = realloc(o->run_n, (size_t) c * 4)))
				o->run_n = n;
			if (!n)
				return 0;
			*cap = c;
		}
		o->run_pos[o->n_runs] = (uint32_t) start;
		o->run_d[o->n_runs] = (uint32_t) d;
		o->run_n[o->n_runs++] = 1;
	}
	return 1;
}

/* The rounds of shard row "i" followed by another, by class,
 * cumulatively (struct gnn__ack_order).
 */
static void count_row(const struct gnn__ack_part *p,
	const struct gnn__ack_order *o, int64_t i)
{
	const int w = GNN__ACK_ROUND_CLASSES + 1;
	double *rn = o->row_n + i * w, *rd = o->row_d + i * w;
	int64_t s, k;
	int c;

	for (s = p->row_first[i]; s < p->row_first[i + 1]; s++)
		for (k = o->run_first[s]; k < o->run_first[s + 1]; k++) {
			/* The last round of a subshard has no successor. */
			double n = (double) o->run_n[k] -
				(k + 1 == o->run_first[s + 1]);

			c = gnn__ack_round_class(o->run_d[k]);
			if (c < 0 || n <= 0)
				continue;
			rn[c + 1] += n;
			rd[c + 1] += n * o->run_d[k];
		}
	for (c = 1; c < w; c++) {
		rn[c] += rn[c - 1];
		rd[c] += rd[c - 1];
	}
}

/* Counts the sources and destinations mod GNN__ACK_MAX_PSYS of the edges
 * of subshard "s" in the order of "perm", per position block.
 */
static void count_indices(const struct gnn__ack_part *p, int64_t s,
	const uint32_t *perm, uint16_t *hist)
{
	const uint32_t *order = p->order + p->sub_off[s];
	int64_t q;

	for (q = 0; q < p->sub_edges[s]; q++) {
		int64_t e = order[perm[q]];
		uint16_t *h = hist + (p->sub_block[s] + q / GNN__ACK_POS_BLOCK) *
			2 * GNN__ACK_MAX_PSYS;

		h[p->src[e] & (GNN__ACK_MAX_PSYS - 1)]++;
		h[GNN__ACK_MAX_PSYS + (p->dst[e] & (GNN__ACK_MAX_PSYS - 1))]++;
	}
}

void gnn__ack_order_clear(struct gnn__ack_order *o)
{
	free(o->perm);
	free(o->run_first);
	free(o->run_pos);
	free(o->run_d);
	free(o->run_n);
	free(o->sub_block);
	free(o->hist);
	free(o->sub_load);
	free(o->row_n);
	free(o->row_d);
	memset(o, 0, sizeof(*o));
}

/* The arrays of "o" for "p", the first position block of every subshard
 * filled in; 0 when out of memory.
 */
static int order_alloc(const struct gnn__ack_part *p, struct gnn__ack_order *o)
{
	size_t w = (size_t) (p->rows * (GNN__ACK_ROUND_CLASSES + 1));
	int64_t s, nb = 0;

	o->perm = malloc((size_t) (p->n_edges ? p->n_edges : 1) * 4);
	o->run_first = malloc((size_t) (p->n_sub + 1) * sizeof(int64_t));
	o->sub_block = malloc((size_t) (p->n_sub + 1) * sizeof(int64_t));
	o->sub_load = malloc((size_t) (p->n_sub ? p->n_sub : 1) * 2 *
		GNN__ACK_N_PSYS * sizeof(float));
	o->row_n = calloc(w ? w : 1, sizeof(double));
	o->row_d = calloc(w ? w : 1, sizeof(double));
	if (!o->perm || !o->run_first || !o->sub_block || !o->sub_load ||
	    !o->row_n || !o->row_d)
		return 0;
	for (s = 0; s < p->n_sub; s++) {
		o->sub_block[s] = nb;
		nb += (p->sub_edges[s] + GNN__ACK_POS_BLOCK - 1) /
			GNN__ACK_POS_BLOCK;
	}
	o->sub_block[p->n_sub] = nb;
	o->hist = calloc((size_t) (nb ? nb : 1) * 2 * GNN__ACK_MAX_PSYS,
		sizeof(uint16_t));
	return o->hist != NULL;
}

int gnn__ack_order_build(struct gnn__ack_part *p, const arch_dtype *dtype,
	struct gnn__ack_order *o)
{
	int64_t i, s, most = 0, cap = 0;
	uint32_t *cnt = NULL;
	int64_t *end = NULL;
	int ok;

	memset(o, 0, sizeof(*o));
	for (s = 0; s < p->n_sub; s++)
		most = p->sub_edges[s] > most ? p->sub_edges[s] : most;
	ok = most < ((int64_t) 1 << 32) && order_alloc(p, o);
	if (ok) {
		cnt = calloc((size_t) (p->n1 > 0 ? p->n1 : 1), sizeof(*cnt));
		end = malloc((size_t) (most + 1) * sizeof(*end));
		ok = cnt && end;
	}
	p->sub_block = o->sub_block;
	for (i = 0; ok && i < p->rows; i++) {
		for (s = p->row_first[i]; ok && s < p->row_first[i + 1]; s++) {
			int64_t off = p->sub_off[s], r;

			r = gnn__ack_interleave(p->dst, p->order + off,
				p->sub_edges[s], (uint32_t) (i * p->n1), cnt,
				end, o->perm + off);
			o->run_first[s] = o->n_runs;
			ok = add_runs(o, &cap, end, r);
			if (ok)
				count_indices(p, s, o->perm + off, o->hist);
		}
		o->run_first[p->row_first[i + 1]] = o->n_runs;
		if (ok)
			count_row(p, o, i);
	}
	free(cnt);
	free(end);
	if (!ok) {
		gnn__ack_order_clear(o);
		p->sub_block = NULL;
		return 0;
	}
	part_loads(p, dtype, o->sub_load);
	p->perm = o->perm;
	p->run_first = o->run_first;
	p->run_pos = o->run_pos;
	p->run_d = o->run_d;
	p->run_n = o->run_n;
	p->hist = o->hist;
	p->sub_load = o->sub_load;
	return 1;
}

/* --- the cycle models over a partition ------------------------------------
 *
 * The full model runs every tile.  The sampled model:
 *
 *  - stratifies the tiles by log2 of their edges and by the class of
 *    the share of RAW stalls predicted for them (none, below 5%, below
 *    20%, more: the tiles with the tails of hub vertices, which cost a
 *    RAW window an edge, get strata of their own), and draws up to
 *    "samples" tiles of each stratum, at least two where it has two
 *    (Knuth's selection sampling, reproducible for a seed);
 *  - predicts every tile's cycles from two figures known without running
 *    it: the pipeline's fill plus its edges at the random-index rate, and
 *    the RAW stall of the rounds that start in it
 *    (gnn__ack_round_stall's bound applied to the round counts of the
 *    position blocks it covers, each round at the middle of its class).
 *    Their weights are fitted by least squares on the drawn tiles
 *    (weighted by the inverse of the first figure, as the errors grow
 *    with the tile) when there are MIN_FIT of them, else 1 each;
 *  - estimates each stratum's tiles not drawn with the stratum's ratio of
 *    run to predicted cycles (a ratio estimator with the prediction as
 *    its auxiliary variable), corrected per shard row by an empirical
 *    Bayes estimate of the row's effect (row_effects: the hubs of a
 *    power-law graph gather in a few rows, and the slowest block sets a
 *    layer's time);
 *  - gives the variance of the estimated total, N^2 (1 - n/N) s^2 / n per
 *    stratum with s^2 the variance of the residuals y - r x, and, per row
 *    or subshard, the variance of its own estimate from the strata's
 *    relative residuals.
 */

#define SIZE_CLASSES 40
#define STALL_CLASSES 4
#define N_STRATA (SIZE_CLASSES * STALL_CLASSES)
#define N_FEATURES 2
#define MIN_FIT 8

/* The RAW stall of the rounds of subshard "sub" that start in positions
 * [a, a + n) and are followed by another round, at "tau" cycles an edge
 * with window "hold" (gnn__ack_round_stall's bound, round by round).
 */
static double tile_stall(const struct gnn__ack_part *p, int64_t sub,
	int64_t a, int64_t n, double tau, double hold)
{
	int64_t lo = p->run_first[sub], hi = p->run_first[sub + 1], k;
	int64_t last = p->sub_edges[sub];
	double x = 0;

	/* The first run starting at or before a. */
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;

		if (p->run_pos[mid] <= a)
			lo = mid;
		else
			hi = mid;
	}
	for (k = lo; k < p->run_first[sub + 1] && p->run_pos[k] < a + n; k++) {
		int64_t d = p->run_d[k], pos = p->run_pos[k];
		int64_t from = a > pos ? (a - pos + d - 1) / d : 0;
		int64_t to = (a + n - pos + d - 1) / d;
		double w = hold - (double) d * tau;

		/* Rounds from..to - 1 of the run start in the tile; the
		 * subshard's last round has no successor.
		 */
		to = to < p->run_n[k] ? to : p->run_n[k];
		if (pos + (int64_t) p->run_n[k] * d == last && to == p->run_n[k])
			to--;
		if (w > 0 && to > from)
			x += w * (double) (to - from);
	}
	return x;
}

/* The figures of the tile at positions [a, a + n) of subshard "sub" (its
 * own positions, from 0) that predict its cycles (f[0], f[1]): the
 * pipeline's fill plus its load (the larger of its edges at the
 * random-index rate "rate" and the slices of its busiest bank or
 * pipeline, from the counts of its position blocks, the partial ones in
 * proportion; the subshard's load when there are no counts), and the RAW
 * stall of its rounds (tile_stall) at the pace of that load.
 */
static void tile_figures(const struct gnn__ack_part *p,
	const struct gnn__ack_cfg *c, int lp, double rate, int64_t sub,
	int64_t a, int64_t n, double *f)
{
	double h[2 * GNN__ACK_MAX_PSYS] = { 0 }, g[GNN__ACK_MAX_PSYS] = { 0 };
	double q[GNN__ACK_MAX_PSYS / 2] = { 0 };
	double load = (double) n * rate, most = 0;
	int64_t b, end = a + n, pm = c->p_sys - 1, e = p->sub_edges[sub];
	int j;

	for (b = a / GNN__ACK_POS_BLOCK; p->hist && b * GNN__ACK_POS_BLOCK <
	     end; b++) {
		int64_t lo = b * GNN__ACK_POS_BLOCK, hi = lo + GNN__ACK_POS_BLOCK;
		const uint16_t *x = p->hist + (p->sub_block[sub] + b) * 2 *
			GNN__ACK_MAX_PSYS;
		double in = (double) ((hi < end ? hi : end) - (lo > a ? lo : a)) /
			(double) ((hi < e ? hi : e) - lo);

		for (j = 0; j < 2 * GNN__ACK_MAX_PSYS; j++)
			h[j] += in * x[j];
	}
	if (p->hist) {
		for (j = 0; j < GNN__ACK_MAX_PSYS; j++) {
			g[j & pm] += h[j] + (c->mode == GNN__ACK_SDDMM ?
				h[GNN__ACK_MAX_PSYS + j] : 0);
			q[(j & pm) >> 1] += h[GNN__ACK_MAX_PSYS + j];
		}
		for (j = 0; j <= pm; j++)
			most = g[j] > most ? g[j] : most;
		for (j = 0; c->mode == GNN__ACK_SPDMM && j <= pm / 2; j++)
			most = q[j] > most ? q[j] : most;
		load = most > load ? most : load;
	} else if (p->sub_load) {
		load = (double) n * p->sub_load[gnn__ack_load_at(sub, c->mode,
			lp)] / (double) e;
	}
	f[0] = c->lat.isn + c->lat.bank + c->lat.dsn + c->lat.update +
		(c->mode == GNN__ACK_SPDMM ? c->lat.reduce : c->lat.tree) +
		c->passes * load;
	f[1] = p->run_first ? tile_stall(p, sub, a, n, c->passes * load /
		(double) n, gnn__ack_hold(c)) : 0;
}

struct est_stratum {
	double n_tiles;
	int64_t need, seen, taken, ran;
	double x, y, yy, xy, xx;	/* over the drawn tiles */
	double q1, q2;		/* sums of y / x and its square */
	double r, v;		/* ratio; variance of y / x */
	double aux;		/* predicted cycles of every tile */
	struct gnn__ack_stats st;
};

/* A drawn tile: its figures, cycles, stratum and row. */
struct est_drawn {
	double f[N_FEATURES], y;
	int h;
};

struct est_walk {
	const struct gnn__ack_cfg *c;
	const struct gnn__ack_part *p;
	struct gnn__ack_result *out;
	int64_t half;
	int per_sub, sampled;
	int lp;			/* log2 p_sys */
	uint32_t *gsrc, *gdst;	/* a tile's indices, gathered */
	double rate, coef[N_FEATURES];
	double v_pool;		/* relative residual variance, all strata */
	uint64_t rng;
	struct est_drawn *drawn;
	int64_t n_drawn;
	double *rel, *rel_n;	/* per row: relative residuals */
	double *left;		/* per row or subshard: predicted cycles of
				 * the tiles not drawn */
	struct est_stratum s[N_STRATA];
};

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The stratum of a tile: log2 of its edges, and the class of its
 * predicted stall's share of its predicted cycles (none, below 5%, below
 * 20%, more).
 */
static int stratum_of(int64_t len, const double *f)
{
	double share = f[1] / (f[0] + f[1]);
	int h = 0, q = share <= 0 ? 0 : share < 0.05 ? 1 : share < 0.2 ? 2 : 3;

	while (h + 1 < SIZE_CLASSES && ((int64_t) 2 << h) <= len)
		h++;
	return h * STALL_CLASSES + q;
}

static void stats_add(struct gnn__ack_stats *a, const struct gnn__ack_stats *b,
	double f)
{
	a->cycles += (uint64_t) llround((double) b->cycles * f);
	a->edges += (uint64_t) llround((double) b->edges * f);
	a->issue_cycles += (uint64_t) llround((double) b->issue_cycles * f);
	a->eb_stall += (uint64_t) llround((double) b->eb_stall * f);
	a->isn_wait += (uint64_t) llround((double) b->isn_wait * f);
	a->bank_reads += (uint64_t) llround((double) b->bank_reads * f);
	a->bank_blocked += (uint64_t) llround((double) b->bank_blocked * f);
	a->dsn_wait += (uint64_t) llround((double) b->dsn_wait * f);
	a->ur_busy += (uint64_t) llround((double) b->ur_busy * f);
	a->raw_stall += (uint64_t) llround((double) b->raw_stall * f);
}

/* Whether the next tile of stratum "s" is drawn: with "left" tiles to see
 * and "want" to take, with probability want / left.
 */
static int draw(struct est_walk *w, struct est_stratum *s)
{
	int64_t left = (int64_t) s->n_tiles - s->seen, want = s->need - s->taken;
	double u = (double) (splitmix(&w->rng) >> 11) * 0x1p-53;

	s->seen++;
	if (want <= 0 || !(u * (double) left < (double) want))
		return 0;
	s->taken++;
	return 1;
}

static double predict(const struct est_walk *w, const double *f)
{
	double x = 0;
	int j;

	for (j = 0; j < N_FEATURES; j++)
		x += w->coef[j] * f[j];
	return x > 1 ? x : 1;
}

/* Copies the indices of the tile of "len" edges at position "a" (of the
 * subshard at "off") into w->gsrc, w->gdst.  The loads are independent of
 * each other, unlike the cycle model's steps: gathering first lets the
 * memory system overlap them.
 */
static void gather(struct est_walk *w, int64_t off, int64_t a, int64_t len)
{
	const struct gnn__ack_part *p = w->p;
	const uint32_t *order = p->order + off;
	int64_t q;

	if (p->perm) {
		for (q = 0; q < len; q++) {
			int64_t e = order[p->perm[a + q]];

			w->gsrc[q] = p->src[e];
			w->gdst[q] = p->dst[e];
		}
	} else {
		for (q = 0; q < len; q++) {
			w->gsrc[q] = p->src[p->order[a + q]];
			w->gdst[q] = p->dst[p->order[a + q]];
		}
	}
}

/* What a pass does with the tile of "len" edges at position "a" of shard
 * row "i" (its subshard starting at "off"), whose cycles go to entry
 * "at".  Pass 0 counts the strata; pass 1 runs the drawn tiles (every
 * tile in the full model); pass 2 replays the draw: a drawn tile adds its
 * relative residual to its row's, another its estimate.
 */
static void est_tile(struct est_walk *w, int pass, int64_t i, int64_t at,
	int64_t sub, int64_t a, int64_t len)
{
	const struct gnn__ack_part *p = w->p;
	const struct gnn__ack_cfg *c = w->c;
	int64_t off = p->sub_off[sub];
	double f[N_FEATURES], x;
	struct est_stratum *st;
	struct gnn__ack_stats r;
	int j;

	tile_figures(p, c, w->lp, w->rate, sub, a - off, len, f);
	st = &w->s[stratum_of(len, f)];

	if (pass == 0) {
		st->n_tiles += 1;
		w->out->tiles++;
		return;
	}
	if (w->sampled && !draw(w, st)) {
		if (pass == 2) {
			x = predict(w, f);
			st->aux += x;
			w->out->est[at] += st->r * x;
			w->left[at] += x;
			w->out->var[at] += st->v * x * x;
		}
		return;
	}
	if (pass == 2) {
		x = predict(w, f);
		st->aux += x;
		w->rel[i] += w->drawn[w->n_drawn++].y / x - st->r;
		w->rel_n[i] += 1;
		return;
	}
	gather(w, off, a, len);
	gnn__ack_run(c, w->gsrc, w->gdst, NULL, NULL, len, &r);
	w->out->exact[at] += (double) r.cycles;
	w->out->simulated++;
	w->out->sim_cycles += (double) r.cycles;
	st->ran++;
	stats_add(&st->st, &r, 1.0);
	if (!w->drawn)
		return;
	for (j = 0; j < N_FEATURES; j++)
		w->drawn[w->n_drawn].f[j] = f[j];
	w->drawn[w->n_drawn].y = (double) r.cycles;
	w->drawn[w->n_drawn++].h = (int) (st - w->s);
}

/* One pass over the tiles, an Edge Buffer load of each nonempty subshard
 * after the other, in the partition's order.
 */
static void est_pass(struct est_walk *w, int pass, uint64_t seed)
{
	const struct gnn__ack_part *p = w->p;
	int64_t i, s, t, h = w->half;
	int k;

	w->rng = seed;
	w->n_drawn = 0;
	for (k = 0; k < N_STRATA; k++)
		w->s[k].seen = w->s[k].taken = 0;
	for (i = 0; i < p->rows; i++)
		for (s = p->row_first[i]; s < p->row_first[i + 1]; s++) {
			int64_t e = p->sub_edges[s], loads = (e + h - 1) / h;
			int64_t at = w->per_sub ? s : i, off = p->sub_off[s];

			if (pass == 0)
				w->out->loads[at] += loads;
			for (t = 0; t < loads; t++)
				est_tile(w, pass, i, at, s, off + t * h,
					t + 1 < loads ? h : e - t * h);
		}
}

/* The prediction's weights: 1 each, or the least-squares fit of the drawn
 * tiles when there are enough of them.  A negative weight, which a
 * collinear sample can give, drops to 0 and the other is fitted alone;
 * when no drawn tile stalls (or every one stalls in proportion to its
 * size) the stall keeps its weight of 1 and the other is fitted on what
 * is left.
 */
static void fit(struct est_walk *w)
{
	double a00 = 0, a01 = 0, a11 = 0, b0 = 0, b1 = 0, det;
	int64_t d;

	w->coef[0] = 1;
	w->coef[1] = 1;
	if (w->n_drawn < MIN_FIT)
		return;
	for (d = 0; d < w->n_drawn; d++) {
		const struct est_drawn *t = &w->drawn[d];
		double wt = 1 / t->f[0];

		a00 += t->f[0] * t->f[0] * wt;
		a01 += t->f[0] * t->f[1] * wt;
		a11 += t->f[1] * t->f[1] * wt;
		b0 += t->f[0] * t->y * wt;
		b1 += t->f[1] * t->y * wt;
	}
	det = a00 * a11 - a01 * a01;
	if (!(a11 > 0 && det > 1e-9 * a00 * a11)) {
		w->coef[0] = (b0 - a01) / a00;
	} else {
		w->coef[0] = (b0 * a11 - b1 * a01) / det;
		w->coef[1] = (a00 * b1 - a01 * b0) / det;
		if (w->coef[1] < 0) {
			w->coef[1] = 0;
			w->coef[0] = b0 / a00;
		}
	}
	if (w->coef[0] < 0) {
		w->coef[0] = 0;
		w->coef[1] = a11 > 0 && b1 > 0 ? b1 / a11 : 1;
	}
}

/* The strata's ratios and relative variances from the drawn tiles. */
static void ratios(struct est_walk *w)
{
	int64_t d;
	int h;

	for (d = 0; d < w->n_drawn; d++) {
		const struct est_drawn *t = &w->drawn[d];
		struct est_stratum *s = &w->s[t->h];
		double x = predict(w, t->f);

		s->x += x;
		s->y += t->y;
		s->yy += t->y * t->y;
		s->xy += x * t->y;
		s->xx += x * x;
		s->q1 += t->y / x;
		s->q2 += t->y / x * t->y / x;
	}
	double num = 0, den = 0;

	for (h = 0; h < N_STRATA; h++) {
		struct est_stratum *s = &w->s[h];
		double n = (double) s->taken;

		s->r = s->x > 0 ? s->y / s->x : 0;
		s->v = n >= 2 ? (s->q2 - 2 * s->r * s->q1 + s->r * s->r * n) /
			(n - 1) : 0;
		if (s->v < 0)
			s->v = 0;
		if (n >= 2) {
			num += (n - 1) * s->v;
			den += n - 1;
		}
	}
	w->v_pool = den > 0 ? num / den : 0;
}

/* The rows' effects, an empirical Bayes estimate: row i's effect is
 * drawn from N(0, tau^2) and the mean relative residual m_i of its n_i
 * drawn tiles is that effect plus noise of variance v / n_i (v the pooled
 * relative residual variance).  tau^2 is the moment estimate, the mean of
 * m_i^2 - v / n_i over the rows with drawn tiles (at least 0); a row's
 * estimates move by B_i m_i, B_i = tau^2 / (tau^2 + v / n_i), and their
 * variance grows by B_i v / n_i (tau^2 for a row without drawn tiles),
 * times the square of their predicted cycles.
 */
static void row_effects(struct est_walk *w)
{
	const struct gnn__ack_part *p = w->p;
	struct gnn__ack_result *o = w->out;
	double tau2 = 0, v = w->v_pool;
	int64_t i, s, rows = 0;

	if (!w->sampled)
		return;
	for (i = 0; i < p->rows; i++)
		if (w->rel_n[i] > 0) {
			double m = w->rel[i] / w->rel_n[i];

			tau2 += m * m - v / w->rel_n[i];
			rows++;
		}
	tau2 = rows && tau2 > 0 ? tau2 / (double) rows : 0;
	for (i = 0; i < p->rows; i++) {
		double n = w->rel_n[i], b = 0, add = tau2;

		if (n > 0 && tau2 + v / n > 0) {
			b = tau2 / (tau2 + v / n);
			add = b * v / n;
		}
		for (s = w->per_sub ? p->row_first[i] : i;
		     s < (w->per_sub ? p->row_first[i + 1] : i + 1); s++) {
			o->est[s] += (n > 0 ? b * w->rel[i] / n : 0) *
				w->left[s];
			o->var[s] += add * w->left[s] * w->left[s];
		}
	}
}

/* The row effects, the totals and the variance of the estimate. */
static void finish(struct est_walk *w)
{
	const struct gnn__ack_part *p = w->p;
	struct gnn__ack_result *o = w->out;
	int64_t s;
	int h;

	row_effects(w);
	for (h = 0; h < N_STRATA; h++) {
		struct est_stratum *st = &w->s[h];
		double n = (double) st->taken, ss, v;

		if (!st->ran)
			continue;
		stats_add(&o->st, &st->st, w->sampled && st->x > 0 ?
			st->aux / st->x : 1.0);
		if (!w->sampled || n >= st->n_tiles || n < 2)
			continue;
		ss = st->yy - 2 * st->r * st->xy + st->r * st->r * st->xx;
		v = st->n_tiles * st->n_tiles * (1 - n / st->n_tiles) / n *
			(ss > 0 ? ss : 0) / (n - 1);
		o->var_total += v;
		o->dfd += v * v / (n - 1);
	}
	for (s = 0; s < (w->per_sub ? p->n_sub : p->rows); s++)
		o->cycles += o->exact[s] + o->est[s];
}

void gnn__ack_result_clear(struct gnn__ack_result *r)
{
	free(r->exact);
	free(r->est);
	free(r->var);
	free(r->loads);
	memset(r, 0, sizeof(*r));
}

/* The walk's arrays once the strata are counted: the drawn tiles and the
 * rows' residuals of the sampled model, and the gather buffers ("n"
 * entries a row or subshard); 0 when out of memory.
 */
static int walk_alloc(struct est_walk *w, int samples, size_t n)
{
	const struct gnn__ack_part *p = w->p;
	int64_t drawn = 0, most = 0, s;
	size_t rows = (size_t) p->rows + 1;
	int h;

	for (h = 0; h < N_STRATA; h++) {
		int64_t nt = (int64_t) w->s[h].n_tiles;
		int64_t want = w->sampled ? (samples < 2 ? 2 : samples) : nt;

		w->s[h].need = want < nt ? want : nt;
		drawn += w->s[h].need;
	}
	if (w->sampled) {
		w->drawn = malloc((size_t) (drawn + 1) * sizeof(*w->drawn));
		w->rel = calloc(rows, sizeof(double));
		w->rel_n = calloc(rows, sizeof(double));
		w->left = calloc(n, sizeof(double));
		if (!w->drawn || !w->rel || !w->rel_n || !w->left)
			return 0;
	}
	for (s = 0; s < p->n_sub; s++)
		most = p->sub_edges[s] > most ? p->sub_edges[s] : most;
	most = most < w->half ? most : w->half;
	w->gsrc = malloc((size_t) (most + 1) * sizeof(uint32_t));
	w->gdst = malloc((size_t) (most + 1) * sizeof(uint32_t));
	return w->gsrc && w->gdst;
}

int gnn__ack_partition(const struct gnn__ack_cfg *c,
	const struct gnn__ack_part *p, int64_t half, int per_sub, int samples,
	uint64_t seed, struct gnn__ack_result *out)
{
	struct est_walk *w = calloc(1, sizeof(*w));
	size_t n = (size_t) (per_sub ? p->n_sub : p->rows) + 1;
	int ok;

	memset(out, 0, sizeof(*out));
	out->exact = calloc(n, sizeof(double));
	out->est = calloc(n, sizeof(double));
	out->var = calloc(n, sizeof(double));
	out->loads = calloc(n, sizeof(int64_t));
	ok = w && out->exact && out->est && out->var && out->loads;
	if (!ok) {
		free(w);
		return 0;
	}
	w->c = c;
	w->p = p;
	w->out = out;
	w->half = half;
	w->per_sub = per_sub;
	w->sampled = samples > 0;
	w->rate = gnn__ack_random_rate(c);
	while ((2 << w->lp) <= c->p_sys)
		w->lp++;
	est_pass(w, 0, seed);
	ok = walk_alloc(w, samples, n);
	if (ok) {
		est_pass(w, 1, seed);
		if (w->sampled) {
			fit(w);
			ratios(w);
			est_pass(w, 2, seed);
		}
		finish(w);
	}
	free(w->drawn);
	free(w->rel);
	free(w->rel_n);
	free(w->left);
	free(w->gsrc);
	free(w->gdst);
	free(w);
	return ok;
}

