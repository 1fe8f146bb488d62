/* tensil: the cycle model's interface to the family.  Private to
 * tensil/.
 */
#ifndef TENSIL_CYCLE_INTERNAL_H
#define TENSIL_CYCLE_INTERNAL_H

#include <stdint.h>

#include "core/error.h"
#include "tensil/model.h"
#include "tensil/sched.h"
#include "tensil/tarch.h"

/* The functional units of the machine. */
enum tensil__unit {
	TENSIL__U_DRAM0 = 0,
	TENSIL__U_DRAM1,
	TENSIL__U_ARRAY,
	TENSIL__U_ACC,
	TENSIL__N_UNITS
};

struct tensil__cycle_stats {
	double busy[TENSIL__N_UNITS];	/* cycles working */
	double stall[TENSIL__N_UNITS];	/* cycles an instruction was ready
					 * but waited on another unit */
	double dec_stall;		/* the decoder waiting for a queue */
	double chan_busy;		/* cycles the DRAM channel moved data */
	double mac_vectors;
	int64_t instructions;
	int64_t count[TENSIL_N_OPS];
};

struct tensil__cycle_result {
	double cycles;
	double low_delta, high_delta;	/* the sampled model's interval
					 * around "cycles" */
	int64_t stages, stages_simulated;
	struct tensil__cycle_stats stats;
};

/* Runs "model" on "a" through the full cycle model, or the sampled one
 * with "sampled" set.  Every layer must fit (an error otherwise);
 * DSE_E_NOMEM when the stage lists cannot be allocated.
 */
dse_stat tensil__simulate(const tensil_model *model, const tensil_arch *a,
	int sampled, struct tensil__cycle_result *res, dse_error *err);

#endif
