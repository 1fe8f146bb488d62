/* gnn: the GNN layer IR (GraphAGILE section 6.1), the built-in models and
 * the compiler passes that turn a model on a graph into tiling blocks.
 *
 * A model is a computation graph of layers, each a small value: Aggregate
 * (SpDMM), Linear (GEMM), Vector-Inner (SDDMM), Vector-Add, Activation and
 * BatchNorm, linked to their parents and children by layer number.  The
 * passes, in GraphAGILE's order:
 *
 *  1. computation-order optimisation: an Aggregate whose operator is
 *     linear (sum, mean) followed by a Linear that shrinks the features is
 *     swapped with it when that lowers 2 f |E| + 2 f_in f_out |V|;
 *  2. layer fusion: an Activation or BatchNorm whose parent is an
 *     Aggregate, Linear, Vector-Inner or Vector-Add (section 6.4 names it
 *     for activations) becomes a flag of that parent;
 *  3. fiber-shard partitioning: n1 vertices per shard, n2 feature columns
 *     per fiber (gnn/graph.h holds the edge side);
 *  4. kernel mapping: every layer becomes a Layer Block of Tiling Blocks,
 *     each an inseparable task for one PE (Algorithms 6 to 8);
 *  5. task scheduling: the Tiling Blocks of a layer go dynamically to the
 *     first idle PE; layers run one after the other.
 *
 * Models and plans are read-only once built; threads may share them.
 */
#ifndef GNN_IR_H
#define GNN_IR_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "gnn/graph.h"

#define GNN_MAX_LAYERS 64
#define GNN_MAX_LINKS 4
#define GNN_NAME_LEN 32

enum gnn_layer_kind {
	GNN_AGGREGATE = 0,
	GNN_LINEAR,
	GNN_VECTOR_INNER,
	GNN_VECTOR_ADD,
	GNN_ACTIVATION,
	GNN_BATCHNORM,
	GNN_N_LAYER_KINDS
};
enum gnn_aggop { GNN_AGG_SUM = 0, GNN_AGG_MEAN, GNN_AGG_MAX, GNN_AGG_MIN,
	GNN_N_AGGOPS };
enum gnn_act { GNN_ACT_NONE = 0, GNN_ACT_RELU, GNN_ACT_PRELU, GNN_ACT_SWISH,
	GNN_ACT_EXP, GNN_N_ACTS };

/* "aggregate", "linear", "vector-inner", "vector-add", "activation",
 * "batchnorm"; "sum", "mean", "max", "min"; "none", "relu", "prelu",
 * "swish", "exp".  The _find functions give -1 for an unknown name.
 */
const char *gnn_layer_kind_name(int kind);
int gnn_layer_kind_find(const char *name);
const char *gnn_aggop_name(int op);
int gnn_aggop_find(const char *name);
const char *gnn_act_name(int act);
int gnn_act_find(const char *name);

/* One computation layer (GraphAGILE Table II).  A small value. */
typedef struct gnn_layer {
	int kind;		/* enum gnn_layer_kind */
	int id;			/* its index in the model */
	int n_parent, parent[GNN_MAX_LINKS];	/* layer ids; none: the
						 * model's input */
	int n_child, child[GNN_MAX_LINKS];
	int64_t f_in, f_out;	/* feature lengths */
	int64_t n_vertices, n_edges;
	int aggop;		/* enum gnn_aggop, for Aggregate */
	int act;		/* enum gnn_act: the Activation layer's
				 * function, or the one fused into this
				 * layer */
	int act_fused;		/* 1: an activation runs at this layer's
				 * output (after fusion) */
	int bn_fused;		/* 1: a batch norm runs at its output */
} gnn_layer;

typedef struct gnn_model gnn_model;

/* An empty model named "name" on a graph of n_vertices and n_edges. */
gnn_model *gnn_model_alloc(const char *name, int64_t n_vertices,
	int64_t n_edges);
gnn_model *gnn_model_copy(const gnn_model *m);
gnn_model *gnn_model_free(gnn_model *m);

/* Appends a layer: l->id, the children and (for every kind but Linear) an
 * f_out of 0 are filled in; the parents must be existing layers (none:
 * the model's input) and the feature lengths must agree with them
 * (Vector-Add: both parents of equal length; with one parent it adds the
 * model's input; an Aggregate's optional second parent gives the edge
 * weights, as a Vector-Inner computes them).  Fails with DSE_E_INPUT and
 * a message naming the layer when they do not, or at GNN_MAX_LAYERS.
 * Returns the new layer's id, or -1 on error.
 */
int gnn_model_add(gnn_model *m, const gnn_layer *l, dse_error *err);

const char *gnn_model_name(const gnn_model *m);
int gnn_model_n_layers(const gnn_model *m);
const gnn_layer *gnn_model_layer(const gnn_model *m, int i);
/* Multiply-accumulates (or adds) of the whole model: the "ops" of its
 * throughput, counting 2 per MAC.
 */
double gnn_model_ops(const gnn_model *m);

/* The built-in models of GraphAGILE Table V:
 *   b1 GCN, 2 layers, hidden 16      b2 GCN, 2 layers, hidden 128
 *   b3 GraphSAGE, 2 layers, 128      b4 GraphSAGE, 2 layers, 256
 *   b5 GIN, 5 layers, 128            b6 GAT, 2 layers, 64
 *   b7 SGC, k = 2                    b8 GraphGym: 1 pre-processing layer,
 *                                       3 GNN layers, 1 post-processing
 *                                       layer, 256
 * on a graph of n_vertices, n_edges with f_in input features and
 * n_classes outputs, as GraphAGILE's compiler lays them out before its
 * passes (Figure 10).  Aliases "gcn16", "gcn128", "sage128", "sage256",
 * "gin", "gat", "sgc", "graphgym".  NULL and DSE_E_INPUT for an unknown
 * name.
 */
gnn_model *gnn_model_builtin(const char *name, int64_t n_vertices,
	int64_t n_edges, int64_t f_in, int64_t n_classes, dse_error *err);
int gnn_model_builtin_count(void);
const char *gnn_model_builtin_name(int i);	/* "b1".."b8" */
const char *gnn_model_builtin_about(int i);	/* "GCN, 2 layers, 16" */
void gnn_model_builtin_names(char *buf, size_t size);

/* --- passes (each rewrites the model in place) -------------------------- */

/* Computation-order optimisation; returns the number of swaps. */
int gnn_pass_order(gnn_model *m);
/* Layer fusion; returns the number of layers fused away. */
int gnn_pass_fuse(gnn_model *m);

/* --- kernel mapping ------------------------------------------------------ */

enum gnn_kernel { GNN_K_GEMM = 0, GNN_K_SPDMM, GNN_K_SDDMM, GNN_K_VADD,
	GNN_K_ELEMWISE, GNN_N_KERNELS };
const char *gnn_kernel_name(int k);	/* "gemm", "spdmm", ... */

/* One Tiling Block: the work one PE does without interruption.  A small
 * value.  What the fields mean per kernel:
 *   SpDMM (Aggregate, Algorithm 6): output shard "shard" (rows vertices)
 *     of fiber "fiber" (cols features); it reads the subshards (shard, k)
 *     for every k, "edges" edges in all, and the sub-fibers k of the input.
 *   SDDMM (Vector-Inner, Algorithm 7): subshard (shard, col_shard),
 *     "edges" edges, over every fiber of the f_in = "k" features; rows
 *     the destination shard's vertices, cols the widest fiber min(n2, k).
 *   GEMM (Linear): rows x cols of the output from the rows x k input and
 *     the k x cols weights.
 *   VADD, ELEMWISE: rows x cols elements.
 */
typedef struct gnn_block {
	int32_t layer;		/* id in the (optimised) model */
	int32_t kernel;		/* enum gnn_kernel */
	int64_t shard;		/* destination shard */
	int64_t col_shard;	/* SDDMM: the source shard; else -1 */
	int64_t fiber;		/* feature fiber; -1 for SDDMM */
	int64_t rows;		/* vertices (<= n1) */
	int64_t cols;		/* feature columns (<= n2) */
	int64_t k;		/* inner length */
	int64_t edges;		/* SpDMM, SDDMM */
} gnn_block;

typedef struct gnn_plan gnn_plan;

/* Maps every layer of "m" (after the passes) to Tiling Blocks with the
 * partition "s" (n1 = gnn_shards_n1(s)) and n2 feature columns per fiber.
 * Keeps a pointer to s, which must outlive the plan.
 */
gnn_plan *gnn_plan_alloc(const gnn_model *m, const gnn_shards *s,
	int64_t n2, dse_error *err);
gnn_plan *gnn_plan_free(gnn_plan *p);
int64_t gnn_plan_n2(const gnn_plan *p);
const gnn_shards *gnn_plan_shards(const gnn_plan *p);
const gnn_model *gnn_plan_model(const gnn_plan *p);
/* The blocks of layer "layer" are [first, first + count) of all blocks;
 * layers without work (fused away) have none.
 */
int64_t gnn_plan_n_blocks(const gnn_plan *p);
const gnn_block *gnn_plan_block(const gnn_plan *p, int64_t i);
void gnn_plan_layer_blocks(const gnn_plan *p, int layer, int64_t *first,
	int64_t *count);

/* --- task scheduling ------------------------------------------------------ */

/* Dynamic scheduling of one layer's blocks (in order) on n_pe PEs: each
 * block goes to the PE that becomes idle first (the lowest-numbered on a
 * tie).  Returns the layer's makespan in cycles (0 when n_pe < 1);
 * "pe_busy" (n_pe entries, may be NULL) gets each PE's busy cycles.
 */
uint64_t gnn_schedule(const uint64_t *block_cycles, int64_t n_blocks,
	int n_pe, uint64_t *pe_busy);

#endif
