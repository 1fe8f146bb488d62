/* sim: performance and resource models of a design point.
 *
 * A sim_model is built once from a design template, a board and a data type
 * and is then read-only: any number of threads may call sim_eval on it at
 * once.  sim_eval is the hot path of the search and costs well under a
 * microsecond.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stdint.h>

#include "arch/arch.h"
#include "dse/error.h"
#include "polyhedral/poly.h"

/* The metrics of one evaluated design point.  A small value. */
typedef struct sim_metrics {
	uint64_t cycles;
	double latency_s;
	double gops;		/* GFLOP/s for floats, GOP/s for integers */
	int64_t dsp;
	int64_t bram18k;
	int64_t uram;
	int32_t pe_rows;
	int32_t pe_cols;
	int32_t ii;		/* initiation interval of the PE loop */
	int32_t status;		/* enum sim_status */
} sim_metrics;

/* Why a point is not a legal design.  SIM_OK for legal ones. */
enum sim_status {
	SIM_OK = 0,
	SIM_BAD_TILE,		/* array_part does not divide the loop bound */
	SIM_BAD_LATENCY,	/* latency does not divide array_part */
	SIM_BAD_SIMD,		/* simd does not divide the reduction tile */
	SIM_TOO_LARGE,		/* cycles or resources beyond 64 bits */
	SIM_N_STATUS
};
const char *sim_status_name(int status);

/* Metric identifiers, for objectives and constraints. */
enum sim_metric {
	SIM_M_LATENCY = 0,	/* seconds */
	SIM_M_CYCLES,
	SIM_M_DSP,
	SIM_M_BRAM18K,
	SIM_M_URAM,
	SIM_M_GOPS,
	SIM_N_METRICS
};

/* Name of a metric ("latency", "cycles", "dsp", ...) and its unit. */
const char *sim_metric_name(enum sim_metric m);
const char *sim_metric_unit(enum sim_metric m);
/* Finds a metric by name; -1 when unknown. */
int sim_metric_find(const char *name);
/* Whether smaller is better (1) or larger is better (0). */
int sim_metric_minimise(enum sim_metric m);
/* The metric's value as a double. */
double sim_metrics_get(const sim_metrics *m, enum sim_metric id);
/* The board's capacity for a resource metric (dsp, bram18k, uram);
 * 0 for metrics that are not resources.
 */
double sim_metric_capacity(const arch_board *board, enum sim_metric m);

typedef struct sim_model sim_model;

/* Builds the analytic model of "tmpl" on "board" with data type "dtype".
 * The caller keeps ownership of the arguments, which are copied.  Returns
 * NULL and fills err when the template has no model yet.
 */
sim_model *sim_model_alloc(const poly_template *tmpl, const arch_board *board,
	const arch_dtype *dtype, dse_error *err);
sim_model *sim_model_free(sim_model *model);

/* The knobs a design point of this model has, in order: their number and
 * their names ("array_part_i", "latency_j", "simd_k", ...), and for each
 * knob the loop it tiles (an index into the template's loops).
 */
int sim_model_n_knobs(const sim_model *model);
const char *sim_model_knob_name(const sim_model *model, int knob);
int sim_model_knob_loop(const sim_model *model, int knob);
/* The knob's family ("array_part", "latency" or "simd"). */
const char *sim_model_knob_kind(const sim_model *model, int knob);

/* Evaluates one design point with the analytic model.  "knobs" holds
 * sim_model_n_knobs() values.  Always fills "out"; out->status says whether
 * the point is legal.  Thread-safe.
 */
void sim_eval(const sim_model *model, const int32_t *knobs, sim_metrics *out);

/* Writes the AutoSA --sa-sizes string of a design point into buf, e.g.
 * "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];
 *   kernel[]->latency[8,8];kernel[]->simd[2]}".
 */
void sim_sa_sizes(const sim_model *model, const int32_t *knobs, char *buf,
	int size);

#endif
