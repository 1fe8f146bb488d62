/* sim: the cycle-level simulator of a generated systolic array, and the
 * sampled cycle model built on it.
 *
 * The full simulation runs every tile of a design point through the PEs,
 * every I/O module level of every group (each a process with FIFOs of a
 * given depth and back-pressure), the daisy chain or multicast network and
 * DRAM (bandwidth, latency, burst size from the board).  It is the
 * reference the other two models are judged by.  The sampled model
 * classifies the tiles (interior, boundary in each dimension, first,
 * last), simulates a sample of each class in context and extrapolates with
 * the class counts, giving an estimate with a confidence interval; it is
 * exactly reproducible for a seed.
 *
 * Unlike sim_eval these calls allocate and take time proportional to what
 * they simulate; they are thread-safe (no shared mutable state) and never
 * abort on a design: an illegal point comes back with its status.
 */
#ifndef SIM_CYCLE_H
#define SIM_CYCLE_H

#include <stdint.h>

#include "dse/error.h"
#include "sim/sim.h"

/* Which model produced a set of metrics (the "model" column of a front). */
enum sim_model_kind {
	SIM_MODEL_ANALYTIC = 0,
	SIM_MODEL_SAMPLED,
	SIM_MODEL_FULL,
	SIM_N_MODEL_KINDS
};
/* "analytic", "sampled", "full"; sim_model_kind_find gives -1 when unknown. */
const char *sim_model_kind_name(int kind);
int sim_model_kind_find(const char *name);

#define SIM_MAX_MODULES 64
#define SIM_MODULE_NAME_LEN 48

/* What one module (or a class of identical modules, e.g. every PE) did. */
typedef struct sim_module_stat {
	char name[SIM_MODULE_NAME_LEN];	/* "PE", "A_IO_L2", "dram", ... */
	int count;			/* modules of this class */
	uint64_t busy;			/* cycles doing work (per module,
					 * averaged over the class) */
	uint64_t stall_in;		/* waiting for input (empty FIFO, DRAM) */
	uint64_t stall_out;		/* waiting for room (full FIFO) */
} sim_module_stat;

typedef struct sim_cycle_opts {
	int fifo_depth;		/* FIFO depth between modules; 0: 2, AutoSA's */
	int burst_bytes;	/* DRAM burst; 0: the port width x 16 beats */
	uint64_t seed;		/* sampled model: which tiles are sampled */
	int samples;		/* sampled model: at most this many tiles
				 * per class, fewer when the first ones
				 * agree; 0: 4 */
	double confidence;	/* sampled model: of the interval; 0: 0.95 */
} sim_cycle_opts;

typedef struct sim_cycle_report {
	int model;		/* enum sim_model_kind */
	sim_metrics metrics;	/* cycles, latency, gops from the chosen
				 * model; resources and energy as sim_eval */
	uint64_t tiles;		/* tiles of the design */
	uint64_t tiles_simulated;
	double fraction;	/* tiles_simulated / tiles */
	double cycles_low;	/* confidence interval of the cycles (both
				 * equal to cycles for full and analytic) */
	double cycles_high;
	uint64_t pe_cycles;	/* PE-cycles simulated (n_pe x simulated
				 * cycles), for the simulator's speed */
	double dram_gbps;	/* achieved DRAM bandwidth */
	double pe_utilisation;	/* busy PE-cycles / (n_pe x cycles) */
	int n_modules;
	sim_module_stat module[SIM_MAX_MODULES];
} sim_cycle_report;

/* Runs design point "knobs" of "model" through the model "kind" and fills
 * "out".  For SIM_MODEL_ANALYTIC it is sim_eval with the report around
 * it.  An illegal point is not an error: out->metrics.status says why.
 * Returns an error only for a failure of the simulator itself (memory).
 * "opt" may be NULL for the defaults.  Thread-safe.
 */
dse_stat sim_simulate(const sim_model *model, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err);

/* Student's t quantile: the value below which a share p of the
 * distribution with df degrees of freedom lies (exact for 1 and 2, the
 * Cornish-Fisher expansion around the normal quantile, within 1e-3,
 * above).  Every sampled model's interval uses it.
 */
double sim_t_quantile(double p, double df);

#endif
