/* search: the design space and its exhaustive, parallel exploration.
 *
 * The space is a mixed-radix index range over the knobs' value lists.
 * Exhaustive search hands blocks of that range round-robin to the MPI ranks
 * and, inside a rank, dynamically to OpenMP threads; every thread keeps its
 * own Pareto front, and fronts are merged thread -> rank -> root.
 *
 * Fronts are deterministic: a point is dropped when another is at least as
 * good in every objective and better in one, or equal in every objective
 * with a smaller index.  The set that survives does not depend on how the
 * range was split, and rows are sorted by objectives then index, so the
 * front is identical for any number of ranks and threads.
 */
#ifndef SEARCH_SEARCH_H
#define SEARCH_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "dse/error.h"
#include "sim/cycle.h"
#include "sim/sim.h"

#define SEARCH_MAX_KNOBS 32
#define SEARCH_MAX_OBJECTIVES 6
#define SEARCH_MAX_CONSTRAINTS 8

/* A design point must hold every knob the model can have. */
_Static_assert(SEARCH_MAX_KNOBS >= SIM_MAX_KNOBS,
	"SEARCH_MAX_KNOBS is below the model's largest knob count");

/* --- the space --------------------------------------------------------- */

typedef struct search_space search_space;

/* A space of "n_knobs" dimensions, each to be given its values. */
search_space *search_space_alloc(int n_knobs);
search_space *search_space_free(search_space *space);
/* Copies "values" (n of them, each fitting in int32) as knob k's values. */
dse_stat search_space_set_knob(search_space *space, int k, const char *name,
	const int64_t *values, int n, dse_error *err);
int search_space_n_knobs(const search_space *space);
const char *search_space_knob_name(const search_space *space, int k);
int search_space_knob_size(const search_space *space, int k);
/* The knob named "name"; -1 when the space has none. */
int search_space_knob_index(const search_space *space, const char *name);
/* The number of points; saturates at UINT64_MAX. */
uint64_t search_space_size(const search_space *space);
/* Decodes index "idx" into knob values (knob 0 is the most significant
 * digit).
 */
void search_space_decode(const search_space *space, uint64_t idx,
	int32_t *knobs);

/* --- one evaluated point and fronts ------------------------------------ */

typedef struct search_point {
	uint64_t index;
	int32_t knobs[SEARCH_MAX_KNOBS];
	sim_metrics metrics;
	int32_t model;		/* enum sim_model_kind of the metrics */
	double cycles_low;	/* confidence interval of the cycles; both */
	double cycles_high;	/* equal the cycles for the analytic model */
	double sampled_fraction;	/* tiles simulated / tiles; 0 for
					 * the analytic model */
} search_point;

/* A Pareto front over a set of objectives (all minimised after sign
 * adjustment for metrics where larger is better).
 */
typedef struct search_front search_front;
search_front *search_front_alloc(int n_obj, const int *objectives);
/* A front widened into an epsilon band: p is kept unless some q, with every
 * objective of q made worse by the factor (1 + band) (multiplied for
 * minimised metrics, divided for maximised ones), still beats p.  The
 * relation is again a strict partial order, so bands merge as
 * deterministically as fronts; band 0 is the plain front, and the band
 * always contains the plain front.  NULL for a negative or non-finite band.
 */
search_front *search_front_alloc_band(int n_obj, const int *objectives,
	double band);
search_front *search_front_free(search_front *front);
/* Offers a point; keeps it when nothing in the front beats it and drops
 * the points it beats.  Returns 1 when kept, 0 when dropped, -1 on memory
 * exhaustion.
 */
int search_front_add(search_front *front, const search_point *p);
/* Adds every point of "other" to "front". */
dse_stat search_front_merge(search_front *front, const search_front *other,
	dse_error *err);
/* Sorts the rows by objectives, then index. */
void search_front_sort(search_front *front);
size_t search_front_size(const search_front *front);
const search_point *search_front_at(const search_front *front, size_t i);

/* --- the run ----------------------------------------------------------- */

typedef struct search_constraint {
	int metric;		/* enum sim_metric */
	double max;		/* absolute upper bound */
} search_constraint;

typedef struct search_progress {
	int stage;		/* 1: the analytic sweep; 2: re-evaluating the
				 * band with the sampled cycle model (then
				 * evaluated/total count band points) */
	uint64_t evaluated;	/* estimated over all ranks */
	uint64_t valid;
	uint64_t total;
	size_t front_size;	/* largest thread front on rank 0; the
				 * merged front at the last call */
	double seconds;
} search_progress;

typedef void (*search_progress_fn)(const search_progress *p, void *user);

typedef struct search_options {
	int n_obj;
	int objectives[SEARCH_MAX_OBJECTIVES];	/* enum sim_metric */
	int n_constraints;
	search_constraint constraints[SEARCH_MAX_CONSTRAINTS];
	uint64_t block;		/* points per work block; 0 for the default */
	double progress_interval;	/* seconds between progress calls */
	search_progress_fn progress;	/* called on rank 0 only; may be NULL */
	void *progress_user;
	/* Two-stage evaluation.  With model SIM_MODEL_SAMPLED the sweep keeps
	 * the analytic front and its epsilon band (see
	 * search_front_alloc_band), cut to band_max points, re-evaluates
	 * each with the sampled cycle model and rebuilds the front from
	 * those numbers.  SIM_MODEL_ANALYTIC (0) is the one-stage search.
	 */
	int model;		/* enum sim_model_kind: analytic or sampled */
	double band;		/* e.g. 0.1: within 10% of the front */
	size_t band_max;	/* 0: SEARCH_DEFAULT_BAND_MAX */
	uint64_t seed;		/* with the point index, the sample seed */
	sim_cycle_opts cycle;	/* fifo depth, samples, ...; seed ignored */
} search_options;

#define SEARCH_DEFAULT_BAND_MAX 10000

typedef struct search_result {
	search_front *front;	/* the merged front on root, NULL elsewhere */
	uint64_t evaluated;	/* summed over all ranks, on every rank */
	uint64_t valid;		/* legal and within the constraints */
	uint64_t status_count[SIM_N_STATUS];	/* why points were illegal */
	uint64_t over_constraint;	/* legal but over a constraint */
	double seconds;		/* wall time of the search on root */
	int threads;		/* OpenMP threads per rank */
	/* Two-stage evaluation (zero for the analytic model). */
	uint64_t band_points;	/* the band before the band_max cut */
	uint64_t resimulated;	/* points run through the sampled model */
	uint64_t band_cut;	/* band points band_max left out */
	uint64_t resim_dropped;	/* illegal or over a constraint once
				 * re-evaluated */
	double resim_seconds;	/* wall time of the second stage */
} search_result;

/* Explores every point of "space" with the analytic model, then, when
 * opt->model is SIM_MODEL_SAMPLED, re-evaluates the band of the front with
 * the sampled cycle model over every rank and thread.  Collective over
 * "comm": every rank must call it with the same space and options.  On
 * success the caller owns result->front (on root) and frees it with
 * search_front_free().  The front is the same for any number of ranks and
 * threads.
 */
dse_stat search_exhaustive(const search_space *space, const sim_model *model,
	const search_options *opt, MPI_Comm comm, search_result *result,
	dse_error *err);

/* What a search evaluates its points with, for any accelerator family:
 * "eval" is the analytic model (thread-safe, the hot path), "simulate" the
 * cycle models of the second stage (as sim_simulate); "model" is passed
 * to both.
 */
typedef struct search_evaluator {
	const void *model;
	void (*eval)(const void *model, const int32_t *knobs,
		sim_metrics *out);
	dse_stat (*simulate)(const void *model, const int32_t *knobs,
		int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
		dse_error *err);
} search_evaluator;

/* The evaluator of a systolic array's sim_model. */
search_evaluator search_evaluator_sim(const sim_model *model);

/* search_exhaustive with any evaluator.  Collective over "comm". */
dse_stat search_exhaustive_with(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

/* The seed of the sampled cycle model for the point of index "index" of
 * a search seeded with "seed": a mix of both, so that the sample of a point
 * does not depend on which rank or thread simulates it.
 */
uint64_t search_point_seed(uint64_t seed, uint64_t index);

#endif
