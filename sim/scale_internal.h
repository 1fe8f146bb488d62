/* sim_scale: what scale.c and scale_mem.c share.  Private to sim/. */
#ifndef SIM_SCALE_INTERNAL_H
#define SIM_SCALE_INTERNAL_H

#include <stdint.h>

#include "sim/scale.h"

/* The shape of a layer on an array, worked out once by scale.c. */
struct sim_scale__geom {
	const sim_scale_arch *arch;
	const sim_scale_layer *layer;
	int64_t out_h, out_w, e, win, k;
	int64_t sr, sc, t;
	int64_t row_folds, col_folds, folds;
	int64_t fold_len;	/* rows of the demand (cycles) of one fold */
	int64_t rows_total;	/* folds * fold_len */
	/* Distinct words of the IFMAP and FILTER that some tap reads. */
	int64_t distinct[2];
};

/* Replays the layer's address streams through the SRAM buffers and fills
 * the stall cycles, the DRAM counts (res->dram_*) and the memory part of
 * res->report (accesses, start and stop cycles, total and stall cycles).
 * Returns dse_stat_error with DSE_E_NOMEM when scratch memory runs out.
 */
dse_stat sim_scale__memory(const struct sim_scale__geom *g,
	sim_scale_result *res, dse_error *err);

#endif
