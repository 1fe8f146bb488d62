/* sim_scale: a plain rows x cols systolic array running one GEMM or one
 * unpadded convolution layer with an output-, weight- or input-stationary
 * dataflow, in the setting of the SCALE-Sim simulator (v2), so that its
 * results can be set side by side with that simulator's reports.
 *
 * Everything is a closed form over the folds of the layer (see scale.c for
 * the per-dataflow mapping and the fill/drain assumption of each fold); a
 * call costs a few hundred nanoseconds whatever the layer size.  The types
 * are small values; nothing is allocated, so any thread may call these
 * functions at any time.  Nothing here is collective over a communicator.
 */
#ifndef SIM_SCALE_H
#define SIM_SCALE_H

#include <stdint.h>

#include "core/error.h"

/* Which operand stays in the PEs for the length of a fold. */
enum sim_scale_dataflow {
	SIM_SCALE_OS = 0,	/* output stationary */
	SIM_SCALE_WS = 1,	/* weight (filter) stationary */
	SIM_SCALE_IS = 2	/* input (ifmap) stationary */
};

/* The three operands, in the order of SCALE-Sim's reports. */
enum sim_scale_operand {
	SIM_SCALE_IFMAP = 0,
	SIM_SCALE_FILTER = 1,
	SIM_SCALE_OFMAP = 2,
	SIM_SCALE_N_OPERANDS = 3
};

/* A layer.  A convolution has an IFMAP of h x w pixels and c channels, k
 * filters of r x s x c, and a stride; it is never padded.  A GEMM C = A B
 * with A of m x k and B of k x n is the convolution SCALE-Sim makes of it:
 * h = m, w = k, r = 1, s = k, c = 1, n filters, stride 1 (m output pixels,
 * a window of k, n filters).
 */
typedef struct sim_scale_layer {
	int64_t h, w;		/* IFMAP height and width */
	int64_t r, s;		/* filter height and width */
	int64_t c;		/* channels */
	int64_t k;		/* number of filters */
	int64_t stride;
} sim_scale_layer;

/* The array and its memories.  SRAM sizes are per operand, in KiB (1024
 * bytes), and hold words of word_bytes bytes (SCALE-Sim's default is one
 * byte a word).
 */
typedef struct sim_scale_arch {
	int64_t rows, cols;
	enum sim_scale_dataflow dataflow;
	int64_t sram_kb[SIM_SCALE_N_OPERANDS];
	int64_t word_bytes;
} sim_scale_arch;

/* What one layer costs.  Counts are in words unless the name says bytes;
 * "per operand" arrays are indexed by enum sim_scale_operand.
 */
typedef struct sim_scale_result {
	/* The operand matrices after im2col: IFMAP e x win, FILTER win x k,
	 * OFMAP e x k.
	 */
	int64_t e;		/* output pixels */
	int64_t win;		/* window r * s * c */
	int64_t k;		/* filters */
	/* The dataflow's mapping: sr along the rows, sc along the columns,
	 * t streamed in time; folds = row_folds * col_folds.
	 */
	int64_t sr, sc, t;
	int64_t row_folds, col_folds, folds;
	int64_t macs;			/* e * win * k */
	int64_t cycles;			/* total, stall-free */
	int64_t compute_cycles;		/* t per fold: operands streaming */
	int64_t fill_drain_cycles;	/* cycles - compute_cycles */
	int64_t stall_cycles;		/* always 0: see scale.c */
	double utilization;		/* macs / (rows * cols * cycles) */
	double mapping_efficiency;	/* macs / (rows * cols * compute) */
	int64_t sram_reads[SIM_SCALE_N_OPERANDS];	/* OFMAP: 0 */
	int64_t sram_writes[SIM_SCALE_N_OPERANDS];	/* IFMAP, FILTER: 0 */
	int64_t dram_reads[SIM_SCALE_N_OPERANDS];	/* words */
	int64_t dram_writes[SIM_SCALE_N_OPERANDS];	/* words */
	int64_t dram_bytes;		/* all DRAM traffic, both directions */
	int fits[SIM_SCALE_N_OPERANDS];	/* the operand's reuse set fits its
					 * SRAM, so DRAM sees it once */
} sim_scale_result;

/* Fills "layer" with the GEMM C (m x n) = A (m x k) B (k x n). */
void sim_scale_gemm(sim_scale_layer *layer, int64_t m, int64_t n, int64_t k);

/* Fills "arch" with a rows x cols array of the given dataflow, SRAMs of
 * 6144, 6144 and 2048 KiB and one-byte words.
 */
void sim_scale_arch_default(sim_scale_arch *arch, int64_t rows, int64_t cols,
	enum sim_scale_dataflow dataflow);

/* Runs "layer" on "arch" and fills "res".  Returns dse_stat_error with a
 * DSE_E_INPUT error (and leaves "res" zeroed) when a size is not positive,
 * the filter is larger than the IFMAP, the dataflow is unknown, or a count
 * would not fit 63 bits.
 */
dse_stat sim_scale_run(const sim_scale_arch *arch,
	const sim_scale_layer *layer, sim_scale_result *res, dse_error *err);

/* The dataflow's short name ("os", "ws", "is"), NULL when out of range. */
const char *sim_scale_dataflow_name(enum sim_scale_dataflow dataflow);

/* Reads "os", "ws" or "is"; returns dse_stat_error (no error recorded)
 * for anything else.
 */
dse_stat sim_scale_dataflow_parse(const char *name,
	enum sim_scale_dataflow *dataflow);

/* The operand's name in SCALE-Sim's reports ("ifmap", "filter", "ofmap"). */
const char *sim_scale_operand_name(enum sim_scale_operand op);

#endif
