/* core: what a cycle-level run of one design reports, whatever the family:
 * which model produced the figures, the busy and stall cycles of each
 * module class, the options every cycle model takes, and the Student's t
 * quantile every sampled model's confidence interval uses.
 *
 * The systolic family (sim/), the GNN families (gnn/) and the Tensil
 * overlay (tensil/) fill these reports; the search, the results writer and
 * dse simulate read them.
 */
#ifndef CORE_REPORT_H
#define CORE_REPORT_H

#include <stdint.h>

#include "core/metrics.h"

/* Which model produced a set of metrics (the "model" column of a front),
 * X(id, name).  The numbers are stored in checkpoints: new kinds go at the
 * end.
 */
#define SIM_MODEL_KIND_TABLE(X) \
	X(SIM_MODEL_ANALYTIC, "analytic") \
	X(SIM_MODEL_SAMPLED, "sampled") \
	X(SIM_MODEL_FULL, "full")

enum sim_model_kind {
#define SIM_MODEL_KIND_ID(id, name) id,
	SIM_MODEL_KIND_TABLE(SIM_MODEL_KIND_ID)
#undef SIM_MODEL_KIND_ID
	SIM_N_MODEL_KINDS
};
/* "analytic", "sampled", "full" (NULL out of range); sim_model_kind_find
 * gives -1 when unknown.
 */
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

/* Student's t quantile: the value below which a share p of the
 * distribution with df degrees of freedom lies: exact for 1 and 2, above
 * them the Cornish-Fisher expansion around the normal quantile, whose
 * error shrinks with df: for the 95% intervals the sampled models give
 * (p = 0.975) it is 4e-3 at 3 degrees of freedom and below 1e-3 from 4
 * on; for p = 0.995 it is 5e-2 at 3, 1.2e-2 at 4 and 1e-3 from 10 on.
 * Every sampled model's interval uses it.
 */
double sim_t_quantile(double p, double df);

#endif
