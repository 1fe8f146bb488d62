/* gnn: the cycle model of GraphAGILE's Adaptive Computation Kernel (ACK)
 * in its edge-centric modes, SpDMM and SDDMM (sections 5.3.2, 5.4, 5.5
 * and 7).  Private to gnn/.
 *
 * gnn__ack_run runs a sequence of edges (one Edge Buffer load of a
 * subshard, in the order the compiler laid them out) through the kernel
 * of one PE:
 *
 *   Edge Buffer -> Index Shuffle Network -> Feature Buffer banks
 *     -> Data Shuffle Network -> UR pipelines (Update, RAW unit, Reduce)
 *
 * and gives the cycles from the first edge leaving the Edge Buffer to the
 * last result written back, with what each part did.  It keeps a few
 * numbers per bank and per pipeline and never allocates: it runs tens of
 * millions of edges a second on one core, and any number of threads may
 * run it at once.  The closed forms beside it give the analytic model its
 * conflict factor and its RAW stalls, gnn__ack_order_partition lays out
 * every subshard as the compiler does, and gnn__ack_partition runs a
 * whole partition, every load (the full model) or a stratified sample of
 * them (the sampled model).
 */
#ifndef GNN_ACK_H
#define GNN_ACK_H

#include <stdint.h>

#include "arch/arch.h"

enum gnn__ack_mode { GNN__ACK_SPDMM = 0, GNN__ACK_SDDMM };

/* The widest kernel the model takes (p_sys), and the longest reduce window
 * and the deepest queue (both bounded by the per-bank and per-pipeline
 * history it keeps).
 */
#define GNN__ACK_MAX_PSYS 64
#define GNN__ACK_RING 64

/* Pipeline latencies in cycles (gnn__ack_default_lat fills them from the
 * named table of ack.c).
 */
struct gnn__ack_lat {
	int isn;	/* Edge Buffer to a bank's queue */
	int bank;	/* one Feature Buffer read */
	int dsn;	/* bank output to a UR pipeline's input */
	int update;	/* Update Unit (multiply by the edge weight) */
	int reduce;	/* Reduce Unit: read of the destination's partial
			 * result, the reduction and the write-back; the
			 * RAW window */
	int tree;	/* SDDMM: the multiply-adder tree and the
			 * accumulation at its root */
};

struct gnn__ack_cfg {
	int p_sys;		/* a power of two in 2..GNN__ACK_MAX_PSYS */
	int mode;		/* enum gnn__ack_mode */
	int passes;		/* ceil(cols / p_sys) >= 1: cycles each edge
				 * spends in a bank and in a pipeline */
	int bank_queue;		/* indices the ISN holds for one bank */
	int pipe_queue;		/* inputs the DSN holds for one pipeline */
	struct gnn__ack_lat lat;
};

/* What one run did.  Sums over the run; "cycles" is its length. */
struct gnn__ack_stats {
	uint64_t cycles;
	uint64_t edges;
	uint64_t issue_cycles;	/* cycles in which the Edge Buffer sent
				 * at least one edge */
	uint64_t eb_stall;	/* cycles the Edge Buffer was held because
				 * a bank's queue was full */
	uint64_t isn_wait;	/* index-cycles spent queued before a busy
				 * bank (the serialisation of conflicts) */
	uint64_t bank_reads;	/* bank-cycles of reading, all banks */
	uint64_t bank_blocked;	/* bank-cycles a bank waited for room in a
				 * pipeline's queue */
	uint64_t dsn_wait;	/* input-cycles spent queued before a busy
				 * pipeline */
	uint64_t ur_busy;	/* pipeline-cycles of work, all pipelines */
	uint64_t raw_stall;	/* pipeline-cycles stalled by RAW hazards */
};

/* The default configuration of a p_sys-wide kernel for data type "dtype"
 * (its accumulation latency sets the reduce window) and "passes".
 */
void gnn__ack_default_cfg(struct gnn__ack_cfg *c, int p_sys, int mode,
	int passes, const arch_dtype *dtype);

/* 1 when "c" can be run: p_sys a power of two in range, passes >= 1,
 * queues in 1..GNN__ACK_RING, latencies >= 0, reduce below GNN__ACK_RING.
 */
int gnn__ack_cfg_ok(const struct gnn__ack_cfg *c);

/* Runs "n" edges: edge i is (src[e], dst[e]) with e = order[perm[i]]
 * when perm is given, order[i] when only order is, i when neither is.
 * "c" must pass gnn__ack_cfg_ok.  Fills "out" (all zero for n = 0).
 */
void gnn__ack_run(const struct gnn__ack_cfg *c, const uint32_t *src,
	const uint32_t *dst, const uint32_t *order, const uint32_t *perm,
	int64_t n, struct gnn__ack_stats *out);

/* The expected largest count among "bins" equally likely bins after
 * "balls" independent throws: the exact value from the occupancy
 * distribution (see ack.c).  balls <= 4096, bins <= 4096.
 */
double gnn__ack_expected_max(int balls, int bins);

/* The expected cycles per edge and pass of the steady state for indices
 * drawn at random (see ack.c for the formula), for the analytic model.
 */
double gnn__ack_random_rate(const struct gnn__ack_cfg *c);

/* --- the compiler's edge order ------------------------------------------
 *
 * The compiler lays out every subshard's edges in DRAM (GraphAGILE's
 * compiler preprocesses the graph, section 6.5) so that the Edge Buffer
 * sends them interleaved by destination: the first in-edge of every
 * destination of the subshard, then the second in-edge of every one that
 * has two, and so on.  Edges of one rank form a "round"; inside a round
 * the storage order ((dst, src) in gnn_shards_edges) is kept.  An update
 * then meets the previous update of its destination one round earlier,
 * and waits in the RAW unit only when the rounds are shorter than the
 * Reduce Unit's window: the tail of a hub, whose last rounds hold it
 * alone.
 *
 * Rounds are counted by size class: sizes 1 .. GNN__ACK_ROUND_EXACT - 1
 * each a class of their own, then GNN__ACK_ROUND_SPLIT classes per
 * octave up to GNN__ACK_ROUND_MAX.  Larger rounds never wait: a window
 * is below GNN__ACK_RING cycles and a round of d destinations takes at
 * least d / (GNN__ACK_MAX_PSYS / 2) cycles to send.
 */
#define GNN__ACK_ROUND_EXACT 16
#define GNN__ACK_ROUND_SPLIT 4
#define GNN__ACK_ROUND_MAX 2048
#define GNN__ACK_ROUND_CLASSES (GNN__ACK_ROUND_EXACT - 1 + \
	7 * GNN__ACK_ROUND_SPLIT)

_Static_assert(GNN__ACK_ROUND_MAX == GNN__ACK_ROUND_EXACT << 7,
	"seven octaves of split classes");
_Static_assert(GNN__ACK_ROUND_MAX >= GNN__ACK_RING * GNN__ACK_MAX_PSYS / 2,
	"every round that can wait has a class");

/* The class of a round of "d" destinations, -1 when d < 1 or d >=
 * GNN__ACK_ROUND_MAX; the smallest size in class "c" (c =
 * GNN__ACK_ROUND_CLASSES gives GNN__ACK_ROUND_MAX).
 */
int gnn__ack_round_class(int64_t d);
int64_t gnn__ack_round_low(int c);

/* Interleaves one subshard of "n" edges whose storage order is
 * order[0 .. n - 1] (indices into dst): writes perm (n entries) with
 * order[perm[i]] the edge at position i of the compiler's order, and
 * returns the number of rounds R; round r ends at position end[r] (R
 * entries of "end", which needs n + 1).  "cnt" is scratch of one entry per
 * destination of the subshard, indexed by dst - dst_base: all zero on
 * entry, and left so.  O(n + R).
 */
int64_t gnn__ack_interleave(const uint32_t *dst, const uint32_t *order,
	int64_t n, uint32_t dst_base, uint32_t *cnt, int64_t *end,
	uint32_t *perm);

/* The RAW stall of a kernel over rounds, in closed form: a round followed
 * by another takes at least "hold" cycles (its destinations' next updates
 * wait that long after theirs) and otherwise d x "tau" (tau the stream's
 * cycles per edge), so the rounds of fewer than hold / tau destinations
 * add hold - d tau each.  cum_n[c] and cum_d[c] (GNN__ACK_ROUND_CLASSES
 * + 1 entries) are the number and the total size of the rounds of the
 * classes below c.  The class holding hold / tau is counted whole (its
 * rounds above the bound subtract what they do not stall); never below
 * 0.
 */
double gnn__ack_round_stall(const double *cum_n, const double *cum_d,
	double tau, double hold);

/* The window a round must fill in "c": the Reduce Unit's, or an edge's
 * slices when they take longer, in SpDMM; 0 in SDDMM (no RAW hazard).
 */
double gnn__ack_hold(const struct gnn__ack_cfg *c);

/* --- the cycle models over a partition ------------------------------------
 *
 * A "tile" is one Edge Buffer load: up to "half" consecutive edges of a
 * nonempty subshard in the compiler's order (half the edge buffer; the
 * other half is being filled), run as one SpDMM or SDDMM instruction from
 * an empty kernel.
 */

/* For the sampled model the sources and destinations are counted per
 * position block: GNN__ACK_POS_BLOCK consecutive positions of one
 * subshard in the compiler's order (the last block of a subshard may be
 * shorter), so that a tile's figures never mix two subshards.
 */
#define GNN__ACK_POS_BLOCK 4096

_Static_assert(GNN__ACK_POS_BLOCK <= UINT16_MAX, "block counts in 16 bits");

/* Entries per mode of a subshard's loads: one per log2 p_sys, 0 unused. */
#define GNN__ACK_N_PSYS 7

/* A partition as the cycle models see it.  Given: the graph's arrays,
 * the edge order of gnn_shards_edges, the nonempty subshards row by row
 * (those of shard row i are row_first[i] .. row_first[i + 1] - 1), the
 * shard height.  Made by gnn__ack_order_build (NULL before):
 *   - perm, the compiler's order: the edge at position q of subshard s is
 *     order[sub_off[s] + perm[sub_off[s] + q]];
 *   - the rounds of each subshard as runs of rounds of equal size (the
 *     sizes never grow along a subshard): runs run_first[s] ..
 *     run_first[s + 1] - 1 of subshard s, run k holding run_n[k] rounds
 *     of run_d[k] destinations from position run_pos[k] of the subshard;
 *   - per position block (the first block of subshard s is sub_block[s],
 *     sub_block[n_sub] is their number) the counts of its edges' sources
 *     and destinations mod GNN__ACK_MAX_PSYS (hist, 2 x GNN__ACK_MAX_PSYS
 *     entries a block, sources first);
 *   - the loads of every subshard (sub_load, at gnn__ack_load_at: the
 *     cycles one pass needs at least, see gnn__ack_order_build).
 */
struct gnn__ack_part {
	const uint32_t *src, *dst;
	const uint32_t *order;
	int64_t rows, n_sub, n_edges, n1;
	const int64_t *row_first, *sub_off, *sub_edges;
	const uint32_t *perm;
	const int64_t *run_first;
	const uint32_t *run_pos, *run_d, *run_n;
	const int64_t *sub_block;
	const uint16_t *hist;
	const float *sub_load;
};

/* Where the load of subshard "s" in "mode" at p_sys = 2^lp is. */
static inline int64_t gnn__ack_load_at(int64_t s, int mode, int lp)
{
	return (s * 2 + mode) * GNN__ACK_N_PSYS + lp;
}

/* What gnn__ack_order_build makes (owned; gnn__ack_order_clear frees it),
 * and per shard row the rounds that are followed by another one, by
 * class, cumulatively: row_n[i (GNN__ACK_ROUND_CLASSES + 1) + c] of them
 * in the classes below c, of row_d[...] destinations in all (as
 * gnn__ack_round_stall takes them).
 */
struct gnn__ack_order {
	uint32_t *perm;
	int64_t *run_first;
	uint32_t *run_pos, *run_d, *run_n;
	int64_t n_runs;
	int64_t *sub_block;
	uint16_t *hist;
	float *sub_load;
	double *row_n, *row_d;
};

/* Lays out every subshard of "p" in the compiler's order and counts what
 * the models need (struct gnn__ack_part, struct gnn__ack_order), then
 * points p's made fields at it.  A subshard's load in a mode is the
 * larger of its edges at the random-index rate (gnn__ack_random_rate of
 * the default kernel for "dtype") and the slices of its busiest Feature
 * Buffer bank and, in SpDMM, of its busiest UR pipeline: the vertices of
 * a graph need not spread evenly over the banks (R-MAT's ids, for one,
 * have skewed low bits), and a bank serves one read a cycle whatever the
 * order.  O(edges).  Returns 0 when out of memory or when a subshard
 * holds 2^32 edges or more ("o" cleared).
 */
int gnn__ack_order_build(struct gnn__ack_part *p, const arch_dtype *dtype,
	struct gnn__ack_order *o);
void gnn__ack_order_clear(struct gnn__ack_order *o);

/* What the full or sampled model gives for one configuration over every
 * tile: per shard row, or per nonempty subshard with "per_sub", the
 * cycles run ("exact"), the cycles estimated for the tiles not run and
 * the variance of that estimate, the tiles (Edge Buffer loads); the
 * module counters and cycles over every tile; the tiles run and their
 * cycles; the variance of the estimated total and the denominator of its
 * Satterthwaite degrees of freedom (sum of v^2 / (n - 1) over strata).
 */
struct gnn__ack_result {
	double *exact, *est, *var;
	int64_t *loads;
	struct gnn__ack_stats st;
	double cycles;
	uint64_t tiles, simulated;
	double sim_cycles;
	double var_total, dfd;
};

/* Runs every tile of "p" ("samples" = 0: the full model) or a stratified
 * sample of at most "samples" tiles per stratum (at least two), drawn
 * reproducibly from "seed" (see ack.c for the estimator).  Allocates the
 * arrays of "out"; returns 0 when out of memory (clear "out" anyway).
 */
int gnn__ack_partition(const struct gnn__ack_cfg *c,
	const struct gnn__ack_part *p, int64_t half, int per_sub, int samples,
	uint64_t seed, struct gnn__ack_result *out);
void gnn__ack_result_clear(struct gnn__ack_result *r);


#endif
