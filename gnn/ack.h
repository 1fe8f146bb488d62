/* gnn: the cycle model of GraphAGILE's Adaptive Computation Kernel (ACK)
 * in its edge-centric modes, SpDMM and SDDMM (sections 5.3.2, 5.4, 5.5
 * and 7).  Private to gnn/.
 *
 * gnn__ack_run runs a sequence of edges (one Edge Buffer load of a
 * subshard, in the order they are stored) through the kernel of one PE:
 *
 *   Edge Buffer -> Index Shuffle Network -> Feature Buffer banks
 *     -> Data Shuffle Network -> UR pipelines (Update, RAW unit, Reduce)
 *
 * and gives the cycles from the first edge leaving the Edge Buffer to the
 * last result written back, with what each part did.  It keeps a few
 * numbers per bank and per pipeline and never allocates: it runs tens of
 * millions of edges a second on one core, and any number of threads may
 * run it at once.  The closed forms beside it give the analytic model its
 * conflict factor, and gnn__ack_partition runs a whole partition, every
 * load (the full model) or a stratified sample of them (the sampled
 * model).
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

/* Runs "n" edges: edge i is (src[order[i]], dst[order[i]]), or
 * (src[i], dst[i]) when order is NULL.  "c" must pass gnn__ack_cfg_ok.
 * Fills "out" (all zero for n = 0).
 */
void gnn__ack_run(const struct gnn__ack_cfg *c, const uint32_t *src,
	const uint32_t *dst, const int64_t *order, int64_t n,
	struct gnn__ack_stats *out);

/* The expected largest count among "bins" equally likely bins after
 * "balls" independent throws: the exact value from the occupancy
 * distribution (see ack.c).  balls <= 4096, bins <= 4096.
 */
double gnn__ack_expected_max(int balls, int bins);

/* The expected cycles per edge and pass of the steady state for indices
 * drawn at random (see ack.c for the formula), for the analytic model.
 */
double gnn__ack_random_rate(const struct gnn__ack_cfg *c);

/* --- the cycle models over a partition ------------------------------------
 *
 * A "tile" is one Edge Buffer load: up to "half" consecutive edges of a
 * nonempty subshard (half the edge buffer; the other half is being
 * filled), run as one SpDMM or SDDMM instruction from an empty kernel.
 */

/* Repeats (edges with the destination of the edge before them in their
 * subshard) are counted per block of GNN__ACK_REP_BLOCK positions of the
 * partition's edge order, split into "short" ones (the first
 * GNN__ACK_RUN_SPLIT of a run of one destination) and "long" ones.
 */
#define GNN__ACK_REP_BLOCK 4096
#define GNN__ACK_RUN_SPLIT 8

/* A partition as the cycle models see it: the graph's arrays, the edge
 * order of gnn_shards_edges, the nonempty subshards row by row (those of
 * shard row i are row_first[i] .. row_first[i + 1] - 1) and the repeat
 * counts.
 */
struct gnn__ack_part {
	const uint32_t *src, *dst;
	const int64_t *order;
	int64_t rows, n_sub, n_edges;
	const int64_t *row_first, *sub_off, *sub_edges;
	const uint16_t *rep_short, *rep_long;
};

/* Fills rep_short and rep_long (n_edges / GNN__ACK_REP_BLOCK + 1 entries
 * each, zeroed by the caller) for the partition "p".
 */
void gnn__ack_count_repeats(const struct gnn__ack_part *p,
	uint16_t *rep_short, uint16_t *rep_long);

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

/* Student's t quantile of probability "p" with "df" degrees of freedom. */
double gnn__ack_t_quantile(double p, double df);

#endif
