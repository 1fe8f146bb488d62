/* gnn: the two GNN accelerator families, explored like the systolic arrays.
 *
 *  - gnn-overlay (GraphAGILE): N_pe PEs, each an Adaptive Computation
 *    Kernel of p_sys x p_sys ALUs (GEMM, SpDMM, SDDMM, vector modes) with
 *    weight, edge and feature buffers; the compiler passes of gnn/ir.h run
 *    inside the evaluation.
 *  - gnn-dataflow (AGILE): a node scoreboard, a prefetcher with fetch
 *    tags, an aggregation mesh of cores with dimension-order wormhole
 *    routing, and 16x16 systolic transformation modules.
 *
 * Both present the interface of sim/: a family object is built once from
 * a model, a graph, a board and a data type, then evaluates design points
 * (arrays of knob values, in the order of gnn_family_knob_name) with the
 * analytic model (nanoseconds to microseconds) or through sim_cycle_report
 * with the full or sampled cycle model.  Built objects are read-only: any
 * number of threads may evaluate points at once.
 */
#ifndef GNN_FAMILY_H
#define GNN_FAMILY_H

#include <stdint.h>

#include "arch/arch.h"
#include "core/error.h"
#include "core/family.h"
#include "core/report.h"
#include "gnn/graph.h"
#include "gnn/ir.h"

enum gnn_family_kind { GNN_OVERLAY = 0, GNN_DATAFLOW, GNN_N_FAMILIES };
/* "gnn-overlay", "gnn-dataflow"; gnn_family_find gives -1 when unknown. */
const char *gnn_family_kind_name(int kind);
int gnn_family_find(const char *name);

#define GNN_MAX_KNOBS 10

/* The knobs of each family, in point order:
 *   gnn-overlay: n_pe, p_sys, weight_rows (N_W, words of p_sys each),
 *     edge_rows (N_E edges), feat_rows and feat_cols (the feature
 *     buffer's N_F1 x N_F2 words: the compiler's shard height n1 and
 *     fiber width n2 have n1 <= N_F1, n2 >= N_F2 and n1 n2 <= N_F1 N_F2),
 *     mhz, dram_gbps.
 *   gnn-dataflow: slots (node scoreboard), fetch_tags, mesh_rows,
 *     mesh_cols, fte (16x16 transformation modules), feat_kb (the
 *     aggregation buffer between the mesh and the transformation
 *     engine, KiB), mhz, dram_gbps.
 * The default value of each is the published configuration (GraphAGILE on
 * the U250: 8, 16, 16384, 65536, 16384, 16, 300, 77).
 */
int gnn_family_n_knobs(int kind);
const char *gnn_family_knob_name(int kind, int knob);
int64_t gnn_family_knob_default(int kind, int knob);
/* The index of a knob by name; -1 when unknown. */
int gnn_family_knob_find(int kind, const char *name);

typedef struct gnn_family gnn_family;

/* Builds a family's evaluator for "model" (copied; the passes run on the
 * copy) on "graph" (kept: it must outlive the family) on "board" with
 * "dtype".  The partitions a knob can ask for are built by
 * gnn_family_prepare.
 */
gnn_family *gnn_family_alloc(int kind, const gnn_model *model,
	const gnn_graph *graph, const arch_board *board,
	const arch_dtype *dtype, dse_error *err);
gnn_family *gnn_family_free(gnn_family *f);
int gnn_family_kind(const gnn_family *f);

/* Tells the family every value a knob will take in the sweep (values of
 * knob "knob", n of them), so that it can build what depends on it once
 * (for gnn-overlay the partition and plan of every feat_rows x feat_cols
 * pair).  Not thread-safe: call it for every knob before the first
 * evaluation.  A point with a value that was not prepared is evaluated
 * with status SIM_BAD_KNOB.
 */
dse_stat gnn_family_prepare(gnn_family *f, int knob, const int64_t *values,
	int n, dse_error *err);

/* The analytic model of one design point: T_LoH (cycles and latency),
 * DSP, BRAM18K, URAM, LUT, FF, off-chip bytes, energy.  Always fills
 * "out"; out->status says whether the point is legal.  Thread-safe.
 */
void gnn_family_eval(const gnn_family *f, const int32_t *knobs,
	sim_metrics *out);

/* One design point through the analytic, sampled or full model (enum
 * sim_model_kind), as sim_simulate does for systolic arrays: "tiles" are
 * the units the cycle model simulates (subshards for gnn-overlay,
 * vertices' aggregation tasks for gnn-dataflow), the interval is that of
 * the sampled estimate, the modules are the family's own.  An error only
 * for a failure of the simulator itself (memory).  Thread-safe.
 */
dse_stat gnn_family_simulate(const gnn_family *f, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err);

/* Why a point is illegal, in words a user can act on: the knob out of
 * range, the buffer that is not a multiple of p_sys, the layer whose
 * features the mesh cannot hold, ...  Writes "" for a legal point and
 * for a status whose name says it all.  Returns the length the whole text
 * needs, as snprintf.
 */
int gnn_family_why(const gnn_family *f, const int32_t *knobs, char *buf,
	int size);

/* A one-line description of a design point for reports and the front's
 * "design" column, e.g. "n_pe=8 p_sys=16 ... dram_gbps=77".
 */
void gnn_family_describe(const gnn_family *f, const int32_t *knobs,
	char *buf, int size);

/* The two families through the family interface (core/family.h), over a
 * gnn_family of their kind ("self"): gnn-overlay and gnn-dataflow.
 */
extern const family_ops gnn_overlay_family;
extern const family_ops gnn_dataflow_family;

#endif
