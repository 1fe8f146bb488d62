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

#include "core/error.h"
#include "core/report.h"
#include "sim/sim.h"

/* Runs design point "knobs" of "model" through the model "kind" and fills
 * "out".  For SIM_MODEL_ANALYTIC it is sim_eval with the report around
 * it.  An illegal point is not an error: out->metrics.status says why.
 * Returns an error only for a failure of the simulator itself (memory).
 * "opt" may be NULL for the defaults.  Thread-safe.
 */
dse_stat sim_simulate(const sim_model *model, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err);

#endif
