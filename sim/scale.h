/* sim_scale: a plain rows x cols systolic array running a GEMM or a
 * convolution layer with an output-, weight- or input-stationary dataflow,
 * in the setting of the SCALE-Sim simulator (v2): the same lowering, the
 * same folds, the same double-buffered SRAMs in front of DRAM, so that its
 * reports and ours can be compared figure by figure.
 *
 * Cycles, SRAM accesses, utilisation and mapping efficiency are closed
 * forms over the folds.  DRAM traffic, stalls and the start and stop cycles
 * of each memory's activity come from replaying the address stream of
 * every fold through a model of the SRAM buffers (sim/scale_mem.c): in
 * SCALE-Sim's bandwidth-estimating mode (CALC) a read buffer fetches each
 * distinct address once while it stays in the active half of the buffer;
 * in the user-bandwidth mode (USER) the buffers fetch at a fixed rate and
 * the array stalls when they fall behind.
 *
 * The types are small values.  sim_scale_run allocates scratch memory in
 * proportion to the layer's operands and frees it before it returns, so
 * any thread may run any layer at any time.  Nothing here is collective
 * over a communicator, and nothing prints.
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

/* How DRAM feeds the SRAMs: CALC lets it run as fast as the array needs
 * (no stall; the report gives the bandwidth that took), USER gives it a
 * fixed number of words a cycle per buffer.
 */
enum sim_scale_bw_mode {
	SIM_SCALE_CALC = 0,
	SIM_SCALE_USER = 1
};

/* The three operands, in the order of SCALE-Sim's reports. */
enum sim_scale_operand {
	SIM_SCALE_IFMAP = 0,
	SIM_SCALE_FILTER = 1,
	SIM_SCALE_OFMAP = 2,
	SIM_SCALE_N_OPERANDS = 3
};

/* A layer.  A convolution has an IFMAP of h x w pixels and c channels and
 * k filters of r x s x c at a stride of stride_h rows and stride_w columns.
 * The output has ceil((h - r + stride_h) / stride_h) rows (and the same
 * for the columns), as SCALE-Sim sizes it: when the stride does not divide
 * h - r the last windows run past the IFMAP's edge and their taps there
 * read nothing.  A GEMM C = A B with A of m x k and B of k x n is the
 * convolution SCALE-Sim makes of it: h = m, w = k, r = 1, s = k, c = 1,
 * n filters, stride 1 (m output pixels, a window of k, n filters).
 */
typedef struct sim_scale_layer {
	int64_t h, w;		/* IFMAP height and width */
	int64_t r, s;		/* filter height and width */
	int64_t c;		/* channels */
	int64_t k;		/* number of filters */
	int64_t stride_h, stride_w;
} sim_scale_layer;

/* The array and its memories.  SRAM sizes are per operand, in KiB (1024
 * bytes), and hold words of word_bytes bytes (SCALE-Sim's words are one
 * byte).  In USER mode "bandwidth" is the words a cycle each buffer
 * exchanges with DRAM; CALC ignores it.
 */
typedef struct sim_scale_arch {
	int64_t rows, cols;
	enum sim_scale_dataflow dataflow;
	int64_t sram_kb[SIM_SCALE_N_OPERANDS];
	int64_t word_bytes;
	enum sim_scale_bw_mode bw_mode;
	int64_t bandwidth;
} sim_scale_arch;

/* The figures of SCALE-Sim's three report files for one layer, with its
 * conventions (see scale.c): total_cycles is the index of the last cycle
 * (one less than the count), percentages are in percent, and cycles of
 * memory activity may be negative (DRAM fetches before the first cycle).
 */
typedef struct sim_scale_report {
	int64_t total_cycles;
	int64_t stall_cycles;
	double overall_util, mapping_eff, compute_util;	/* % */
	int64_t sram_accesses[SIM_SCALE_N_OPERANDS];	/* reads, reads,
							 * writes */
	int64_t dram_accesses[SIM_SCALE_N_OPERANDS];	/* reads, reads,
							 * writes */
	int64_t sram_start[SIM_SCALE_N_OPERANDS];
	int64_t sram_stop[SIM_SCALE_N_OPERANDS];
	int64_t dram_start[SIM_SCALE_N_OPERANDS];
	int64_t dram_stop[SIM_SCALE_N_OPERANDS];
	double sram_bw[SIM_SCALE_N_OPERANDS];	/* words a cycle */
	double dram_bw[SIM_SCALE_N_OPERANDS];
} sim_scale_report;

/* What one layer costs, as counts (the truth; see "report" for the same
 * run in SCALE-Sim's conventions).  Counts are in words unless the name
 * says bytes; "per operand" arrays are indexed by enum sim_scale_operand.
 */
typedef struct sim_scale_result {
	int64_t out_h, out_w;	/* output rows and columns */
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
	int64_t macs;			/* e * win * k, taps past the edge
					 * included, as the array spends them */
	int64_t cycles;			/* every cycle, stalls included */
	int64_t compute_cycles;		/* t per fold: operands streaming */
	int64_t fill_drain_cycles;	/* per fold, the rest */
	int64_t stall_cycles;		/* waiting for DRAM */
	double utilization;		/* macs / (rows * cols * cycles) */
	double mapping_efficiency;	/* macs / (rows * cols * compute) */
	/* SRAM: IFMAP and FILTER reads of a word that exists (a tap past
	 * the IFMAP's edge reads nothing); OFMAP writes of results and
	 * partial sums.
	 */
	int64_t sram_reads[SIM_SCALE_N_OPERANDS];	/* OFMAP: 0 */
	int64_t sram_writes[SIM_SCALE_N_OPERANDS];	/* IFMAP, FILTER: 0 */
	int64_t dram_reads[SIM_SCALE_N_OPERANDS];	/* OFMAP: 0 */
	int64_t dram_writes[SIM_SCALE_N_OPERANDS];	/* IFMAP, FILTER: 0 */
	int64_t dram_bytes;		/* all DRAM traffic, both directions */
	sim_scale_report report;
} sim_scale_result;

/* Fills "layer" with the GEMM C (m x n) = A (m x k) B (k x n). */
void sim_scale_gemm(sim_scale_layer *layer, int64_t m, int64_t n, int64_t k);

/* Fills "arch" with a rows x cols array of the given dataflow and the
 * memories of SCALE-Sim's example configuration (configs/scale.cfg in its
 * repository): SRAMs of 64 KiB each, one-byte words, CALC mode (and a
 * bandwidth of 10 words a cycle should the mode be switched to USER).
 */
void sim_scale_arch_default(sim_scale_arch *arch, int64_t rows, int64_t cols,
	enum sim_scale_dataflow dataflow);

/* Runs "layer" on "arch" and fills "res".  Returns dse_stat_error with a
 * DSE_E_INPUT error (and leaves "res" zeroed) when a size is not positive,
 * the filter is larger than the IFMAP, an SRAM holds fewer than 100 words,
 * the dataflow or mode is unknown, or a count would not fit 63 bits; with
 * DSE_E_NOMEM when the scratch memory cannot be had.
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
