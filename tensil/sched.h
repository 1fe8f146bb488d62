/* tensil: the scheduler (each layer's matrix multiply tiled into stages
 * that fit local memory and the accumulators) and the analytic evaluation
 * of its instructions with Tensil's latency model.
 *
 * As in Tensil's compiler, a stage computes the outputs of one block of
 * array_size output channels over a run of output pixels: it loads the
 * block's weights and bias from DRAM1 and the inputs those pixels need
 * from DRAM0 into local memory (stages share neither weights nor local
 * data nor accumulators), then for every tile -- a filter tap and a block
 * of array_size input channels -- a LoadWeights of array_size + 1 vectors
 * (the weights and the bias row) and MatMuls over every pixel of the stage
 * into the accumulators, then the SIMD work of the layer (residual add,
 * batch normalisation, activation, pooling), and finally moves the
 * results from the accumulators through local memory to DRAM0.  The runs
 * of pixels are whole output rows when at least one row fits, else chunks
 * of one row; a layer whose single pixel does not fit is reported with a
 * status, not tiled.
 *
 * Everything here is a pure function of its arguments: thread-safe, no
 * allocation.
 */
#ifndef TENSIL_SCHED_H
#define TENSIL_SCHED_H

#include <stdint.h>

#include "tensil/model.h"
#include "tensil/tarch.h"

/* Whether a layer can be tiled. */
enum tensil_fit {
	TENSIL_FIT_OK = 0,
	TENSIL_FIT_LOCAL,	/* one output pixel's weights and inputs
				 * exceed local memory */
	TENSIL_FIT_ACC,		/* one output pixel's results exceed the
				 * accumulators */
	TENSIL_FIT_WHOLE,	/* a layer that needs all its outputs at once
				 * (global pooling) or whole pooling rows
				 * does not fit */
	TENSIL_FIT_ARCH,	/* the architecture is out of range */
	TENSIL_N_FITS
};
const char *tensil_fit_name(int fit);

/* The instruction classes of a layer's program. */
enum tensil_op {
	TENSIL_OP_DRAM1_LOAD = 0,	/* DataMove DRAM1 -> local: weights,
					 * bias and SIMD constants */
	TENSIL_OP_DRAM0_LOAD,		/* DataMove DRAM0 -> local: inputs and
					 * the residual operand */
	TENSIL_OP_LOAD_WEIGHTS,
	TENSIL_OP_MATMUL,
	TENSIL_OP_LOCAL_TO_ACC,		/* DataMove local -> accumulators */
	TENSIL_OP_SIMD,
	TENSIL_OP_NOOP,
	TENSIL_OP_ACC_TO_LOCAL,		/* DataMove accumulators -> local */
	TENSIL_OP_DRAM0_STORE,		/* DataMove local -> DRAM0 */
	TENSIL_N_OPS
};
/* "DataMove(DRAM1->local)", "MatMul", ...: the class's name. */
const char *tensil_op_name(int op);

/* The plan of one layer on one architecture. */
typedef struct tensil_plan {
	int status;		/* enum tensil_fit */
	int blocks;		/* output-channel blocks (channel vectors of
				 * a pooling layer); every block runs the
				 * same stages */
	int kv;			/* vectors of one input pixel */
	int taps;		/* filter taps (pooling window of a pooling
				 * layer) */
	int tiles;		/* LoadWeights per stage: taps x kv */
	int stage_rows;		/* rows of the layer's final output per
				 * stage; 0 when stages are chunks of a row */
	int stage_cols;		/* outputs per chunk (stage_rows == 0) */
	int64_t stages_per_block;
	int64_t stages;		/* blocks x stages_per_block */
	int64_t weight_vectors;	/* per stage, from DRAM1 */
	int64_t local_used;	/* the largest stage's local vectors (the
				 * smallest stage's when the layer does not
				 * fit: what the memories lack) */
	int64_t acc_used;	/* and accumulator vectors */
	int64_t count[TENSIL_N_OPS];	/* instructions */
	int64_t vectors[TENSIL_N_OPS];	/* vectors each class moves or
					 * computes (SIMD, NoOp: 1 each) */
	double cycles[TENSIL_N_OPS];	/* Tensil's latency model */
	double total_cycles;
	int64_t dram_read_bytes, dram_write_bytes;
	int64_t mac_vectors;	/* MatMul vectors; each is array_size^2
				 * multiply-accumulates on the array */
} tensil_plan;

/* Plans layer "l" on "a" and evaluates it with the latency model.  Always
 * fills "p"; p->status says whether the layer fits (the counts are zero
 * when it does not).
 */
void tensil_plan_layer(const tensil_layer *l, const tensil_arch *a,
	tensil_plan *p);

/* One stage of a planned layer.  Rows and columns are half-open ranges.
 * A stage runs every tile of its block over its pixels: the tile of tap t
 * (0 <= t < taps) and input channel block j (0 <= j < kv) multiplies
 * channels [j * array_size, (j + 1) * array_size) of the inputs under tap
 * t by the weights of filters [block * array_size, (block + 1) *
 * array_size), for each of the "pixels" outputs in rows [crow0, crow1) x
 * columns [ccol0, ccol1) of the multiply's output.
 */
typedef struct tensil_stage {
	int block;
	int row0, row1, col0, col1;	/* of the final (pooled) output */
	int crow0, crow1, ccol0, ccol1;	/* of the multiply's output */
	int irow0, irow1, icol0, icol1;	/* bounding box of the inputs read */
	int64_t pixels;		/* multiply outputs: MatMul vectors a tile */
	int64_t outputs;	/* final outputs written (per save) */
	int64_t in_vectors;	/* input vectors loaded from DRAM0 */
	int64_t in_runs;	/* DataMove instructions loading them */
	int64_t mm_runs;	/* MatMul instructions of one tile */
	int64_t local_used, acc_used;
	int64_t dram_read_vectors;	/* the stage's DRAM traffic: weights,
					 * inputs, residual operand */
	int64_t dram_write_vectors;	/* outputs, every save */
} tensil_stage;

/* Stage "s" (0 <= s < p->stages, ordered block by block, then row by row,
 * then chunk by chunk) of layer "l" planned as "p" on "a".
 */
void tensil_plan_stage(const tensil_layer *l, const tensil_arch *a,
	const tensil_plan *p, int64_t s, tensil_stage *st);

/* The totals of a whole model. */
typedef struct tensil_totals {
	int status;		/* enum tensil_fit of the first layer that
				 * does not fit, TENSIL_FIT_OK else */
	int bad_layer;		/* its index; -1 when every layer fits */
	double cycles;		/* Tensil's latency model */
	int64_t stages;
	int64_t instructions;
	int64_t dram_read_bytes, dram_write_bytes;
	int64_t mac_vectors;
	int64_t local_accesses;	/* vectors read or written in local memory */
	int64_t acc_accesses;	/* and in the accumulators */
	double op_cycles[TENSIL_N_OPS];
} tensil_totals;

/* Plans every layer of "m" on "a" and sums them.  Stops at the first
 * layer that does not fit.
 */
void tensil_plan_model(const tensil_model *m, const tensil_arch *a,
	tensil_totals *t);

#endif
