/* tensil: what the module's files share.  Private to tensil/. */
#ifndef TENSIL_INTERNAL_H
#define TENSIL_INTERNAL_H

#include <stdint.h>

#include "tensil/model.h"
#include "tensil/sched.h"
#include "tensil/tarch.h"

/* The taps of "out" windows of f at stride s, "pad" before, that land in
 * an input of size "in" (the sum over outputs of their overlap).
 */
int64_t tensil__taps_inside(int out, int in, int f, int s, int pad);

/* The geometry of a layer on an architecture, worked out once and shared
 * by the plan, the stage enumeration and the cycle model.
 */
struct tensil__geom {
	int pool_layer;		/* a TENSIL_POOL layer */
	int a;			/* array size */
	int kv, fv, taps;	/* input vectors a pixel, blocks, taps */
	int64_t weights;	/* DRAM1 vectors a stage loads */
	int64_t acc_consts;	/* constant vectors a stage holds in the
				 * accumulators */
	int units, unit_w;	/* rows and columns of the final output */
	int whole;		/* a stage must hold every output (global
				 * pooling) */
	int pooled;		/* in-layer max pooling */
	int ppad_top, ppad_left;	/* its SAME padding */
	int resid, saves;
	int simd_per_pixel;	/* SIMD instructions per multiply output */
	int simd_per_output;	/* per final output */
	int simd_per_stage;	/* once per stage (register set-up) */
	int64_t max_size;	/* vectors one instruction moves */
	int local_stride_ok;	/* MatMuls along a row roll into one */
	int dram_stride_ok;	/* a pooling layer's channel vector of
				 * every pixel loads as one strided run */
};

void tensil__geom(const tensil_layer *l, const tensil_arch *a,
	struct tensil__geom *g);

#endif
