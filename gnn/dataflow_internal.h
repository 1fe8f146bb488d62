/* gnn: what the two halves of the gnn-dataflow family (AGILE) share.
 * Private to gnn/.
 *
 * dataflow.c turns the IR into passes, reads a design point and holds the
 * analytic model, the resources, the energy and the report; dataflow_sim.c
 * holds the event-driven cycle model and its sampled version, which run
 * the passes on a design point and use the analytic model's per-node
 * costs (to plan and calibrate the replays).  This header gives both the
 * structures they exchange, AGILE's timing table and the functions that
 * cross between them.
 */
#ifndef GNN_DATAFLOW_INTERNAL_H
#define GNN_DATAFLOW_INTERNAL_H

#include <stdint.h>

#include "core/util.h"
#include "family_internal.h"

/* Timing of AGILE's units in kernel cycles, and its fixed sizes, from
 * the sections of AGILE's "2. Microarchitecture Specification" (seed 000)
 * named in quotes.  The table is static: both files fold its constants.
 *  - axi_bytes 64: the memory interconnect's 512-bit data bus ("Internal
 *    Interconnects"); it bounds the read bandwidth per cycle.
 *  - ptr_bytes 4: one adjacency pointer ("Feature Bank").
 *  - msgq_bytes: the message queue of a fetch tag, sized in "Fetch Tag"
 *    at 262 kB (256 KiB); a node with more message bytes is streamed
 *    partially.  adjq_depth: the address queue, 4096 pointers (Choice:
 *    one URAM's depth).
 *  - nsb 2: one valid-ready request and response between the node
 *    scoreboard and a unit (Choice: a cycle each way).
 *  - issue 1: nodeslots are programmed one per cycle (Choice: the host
 *    writes them ahead; the register bank's 50 MHz domain is not
 *    modelled).
 *  - acc 16: accumulators per aggregation core; flit_bits 64 (2 fp32
 *    features); head_tail 2 flits per packet; ctrl_flits 2: the
 *    allocation and buffer-manager packets ("Aggregation Manager").
 *  - hop 2: cycles per router hop (Choice: input buffer and switch
 *    traversal of the Politecnico di Milano router, an estimate).
 *  - sys 16: systolic module side; mac 2: the MAC's two pipeline stages;
 *    post 2: the bias and activation pulses ("Systolic Module").
 *  - wait_max 16: the transformation wait count of the common use case.
 *  - ab_banks 16: the aggregation buffer is read 16 slots at a time by
 *    the Systolic Module Driver.
 *  - flit_wires 66: a flit and its valid/last bits in a router FIFO of
 *    router_fifo 4 entries (Choice).
 */
static const struct timing {
	int axi_bytes, ptr_bytes;
	int64_t msgq_bytes;
	int adjq_depth, nsb, issue, acc, flit_bits, head_tail, ctrl_flits;
	int hop, sys, mac, post, wait_max, ab_banks, flit_wires, router_fifo;
} agile = { 64, 4, 256 * 1024, 4096, 2, 1, 16, 64, 2, 2, 2, 16, 2, 2, 16,
	16, 66, 4 };

enum pass_kind { P_AGG = 0, P_LINEAR, P_VADD, P_VINNER };

/* One sweep of node tasks through the accelerator. */
struct pass {
	int kind;
	int graph;		/* 1: a node's messages are its in-edges */
	int extra;		/* messages per node beside the in-edges */
	int64_t f;		/* features per message */
	int64_t g;		/* features out of the transformation; 0: none */
};

/* Vertices per entry of the table of largest in-degrees (dflow's
 * chunk_max); the sampled model's blocks are multiples of it.
 */
#define CHUNK 64

struct dflow {
	struct pass pass[GNN_MAX_LAYERS];
	int n_pass;
	const int64_t *in_ptr;
	int64_t nv, ne, dmax;
	double ops;		/* the model's operations */
	arch_board board;
	arch_dtype dtype;
	arch_lane_cost lane;
	/* The in-degree histogram: n_hist distinct degrees, ascending; and
	 * the largest in-degree of every CHUNK consecutive vertices.
	 */
	int64_t *hist_deg, *hist_cnt, *chunk_max;
	int64_t n_hist;
};

/* A design point, as read_point reads the knobs. */
struct dpt {
	int slots, tags, rows, cols, fte, cores, lat, bytes;
	int64_t ab_bytes;	/* aggregation buffer */
	double mhz;
	double bw;		/* DRAM bytes per cycle */
};

/* What a pass costs per node on a design point. */
struct pgeo {
	int slots;		/* nodeslots */
	int nc;			/* aggregation cores per node */
	int par;		/* nodes the engine can aggregate at once */
	int w;			/* transformation wait count */
	int64_t n_ab;		/* aggregation buffer slots */
	int64_t pk_full, pk_last, flits;	/* flits per packet, message */
	int64_t msg_bytes, out_bytes;	/* per message read, node written */
	int64_t t_block;	/* FTE cycles per 16-row block; 0: none */
	int64_t wload;		/* cycles to load the weights */
};

/* The analytic cost of a node of m messages at each shared unit, a
 * linear form a + b m (see "the analytic model" in dataflow.c).
 */
struct nodecost {
	double rho;		/* a stream's rate, flits per cycle */
	double s0, s1;		/* aggregation manager hold */
	double pre0, pre1;	/* issue to aggregation request */
	double out0, out1;	/* bytes written back */
	double byte0, byte1;	/* DRAM bytes */
	double buf;		/* buffer manager phase */
	double batch;		/* transformation of a batch of w */
	double life0, life1;	/* issue to write-back, alone */
	double tag0, tag1;	/* fetch tag hold */
};

/* Busy times of the units in a cycle-model run. */
struct stats {
	double slot, tag, agm, core, bm, fte, dram, bytes;
};

/* What a full or sampled run gives the report. */
struct outcome {
	double cycles, var, dfd;	/* estimate, its variance, the
					 * denominator of its degrees of
					 * freedom */
	double bias;			/* the replays' resolution */
	double sim_cycles;		/* cycles simulated */
	int64_t tiles, simulated;
	struct stats st;		/* busy times, scaled to the run */
};

/* --- the analytic model's pieces the cycle models use (dataflow.c) --- */

/* The per-node figures of pass "q" on point "p"; SIM_BAD_KNOB when the
 * mesh cannot hold a node's cores or the aggregation buffer cannot
 * double-buffer.
 */
int gnn__df_pass_geo(const struct dpt *p, const struct pass *q,
	struct pgeo *g);

/* Cycles of the transformation engine for a batch of "b" nodes: the
 * systolic modules' rounds, or the write path's beats for "out" bytes a
 * node when the pass has no transformation.
 */
double gnn__df_batch_cycles(const struct pgeo *g, int64_t b, int64_t out);

/* The mean rate of "par" streams from managers in consecutive columns of
 * a mesh "cols" wide, flits per cycle.
 */
double gnn__df_stream_rate(int cols, int par);

/* The node cost of pass "q"; rho is gnn__df_stream_rate(cols, par). */
void gnn__df_node_cost(const struct dpt *p, const struct pass *q,
	const struct pgeo *g, double rho, struct nodecost *c);

/* The steady-state cost of one node of "m" messages. */
double gnn__df_node_x(const struct dpt *p, const struct pgeo *g,
	const struct nodecost *c, double m);

/* The bound of a pass without its fill and weight load, and the fill and
 * drain beyond that bound.
 */
double gnn__df_pass_bound(const struct dflow *d, const struct dpt *p,
	const struct pass *q, const struct pgeo *g, const struct nodecost *c);
double gnn__df_pass_fill(const struct dflow *d, const struct pass *q,
	const struct nodecost *c, double bound);

/* --- the cycle models (dataflow_sim.c) --- */

/* Runs every pass of "d" on point "p" (which gnn__df_pass_geo accepts
 * for every pass) through the full cycle model, or through the sampled
 * one with "opt" (may be NULL), adding to "o" (zeroed by the caller).
 * Returns 1, 0 when out of memory, -1 when the simulation stalls (a
 * defect).
 */
int gnn__df_run_full(const struct dflow *d, const struct dpt *p,
	struct outcome *o);
int gnn__df_run_sampled(const struct dflow *d, const struct dpt *p,
	const sim_cycle_opts *opt, struct outcome *o);

#endif
