/* search: the design space and its exhaustive, parallel exploration.
 *
 * The space is a mixed-radix index range over the knobs' value lists.
 * Exhaustive search hands blocks of that range round-robin to the MPI ranks
 * and, inside a rank, dynamically to OpenMP threads, an epoch of blocks at
 * a time; every thread keeps its own Pareto front, and between epochs
 * what the fronts gained is merged thread -> rank -> root, where the
 * search checkpoints, reports progress and answers stop requests.
 *
 * Fronts are deterministic: a point is dropped when another is at least as
 * good in every objective and better in one, or equal in every objective
 * with a smaller index.  The set that survives does not depend on how the
 * range was split, and rows are sorted by objectives then index, so the
 * front is identical for any number of ranks and threads.
 */
#ifndef SEARCH_SEARCH_H
#define SEARCH_SEARCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "core/error.h"
#include "search/strategies.h"
#include "sim/cycle.h"
#include "sim/sim.h"

#define SEARCH_MAX_KNOBS 32
#define SEARCH_MAX_OBJECTIVES 6
#define SEARCH_MAX_CONSTRAINTS 16

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
/* The index of knob values "knobs"; UINT64_MAX when a value is not in its
 * knob's list.
 */
uint64_t search_space_encode(const search_space *space, const int32_t *knobs);

/* Tiling chains, which the genetic strategy's operators work on.  Knobs
 * that tile the same loop form a chain: "chain" (>= 0) names it, "level"
 * orders it from the outermost tile (0) inwards, and "top" is the loop's
 * trip count.  A legal point's values along a chain divide one another:
 * top >= level 0 >= level 1 ..., each a multiple of the next.  Knobs
 * without a chain (chain -1, the default) are plain choices.
 */
dse_stat search_space_set_chain(search_space *space, int k, int chain,
	int level, int64_t top, dse_error *err);
/* Knob k's chain (-1: none); its level and top when "level"/"top" are not
 * NULL.
 */
int search_space_knob_chain(const search_space *space, int k, int *level,
	int64_t *top);

/* Spaces made of parts: the points of several spaces one after another,
 * as one index range (part 0's points first).  This is how a sweep over
 * several dataflows (space-time candidates) is one space although each
 * has knobs of its own: the parts' knobs differ in number, names and
 * values, so no single mixed-radix digit could hold them without points
 * that stand for nothing.  A point of the whole has n_knobs knobs: knob 0
 * is its part's label (labels[p], e.g. the candidate's number), and part
 * p's knob k is the whole's knob place[p * SEARCH_MAX_KNOBS + k] (>= 1,
 * distinct within a part); the whole's knobs a part does not place are 0.
 * The whole's knob k lists the values its parts place there (with 0 where
 * a part leaves it out), so names and sizes read as for any space;
 * decode and encode go through the parts.  The search runs each part with
 * its own evaluator (search_evaluator.part).  Takes the parts (set to
 * NULL in "parts", freed on failure too).  NULL and an error when the
 * placement is inconsistent or the whole has more than 2^64 points.
 */
search_space *search_space_alloc_parts(int n_parts, search_space **parts,
	const int32_t *labels, int n_knobs, const char *const *names,
	const int *place, dse_error *err);
/* The number of parts; 0 for a plain space. */
int search_space_n_parts(const search_space *space);
const search_space *search_space_part(const search_space *space, int p);
int32_t search_space_part_label(const search_space *space, int p);
/* The index of part p's first point; p = n_parts gives the size. */
uint64_t search_space_part_offset(const search_space *space, int p);
/* The part holding index "idx"; -1 beyond the space. */
int search_space_part_of(const search_space *space, uint64_t idx);
/* Part p's knobs "local" as a point of the whole (n_knobs of the whole). */
void search_space_place(const search_space *space, int p,
	const int32_t *local, int32_t *whole);
/* The part of the whole's point "whole" (by its label) and its knobs in
 * "local"; -1 when no part has that label.
 */
int search_space_pick(const search_space *space, const int32_t *whole,
	int32_t *local);

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
/* Bounds a front's memory.  A front holds every point nothing beats,
 * which in several objectives can be a large share of the space; with
 * "max" > 0 a front that outgrows max points is thinned to an epsilon-box
 * front: each objective's logarithm is cut into boxes of width
 * log(1 + eps), a point is beaten by any point whose boxes are no worse in
 * every objective and better in one, and of the points of one box only
 * the one with the smallest product of objectives (then index) stays.
 * That keeps at most one point per box, and every point dropped is within
 * the factor (1 + eps)^2 of a point kept in every objective.  Thinning
 * starts at eps = "resolution" (SEARCH_DEFAULT_FRONT_RESOLUTION when 0)
 * and doubles the boxes' width until at most max points remain; it
 * never goes back.  With "resolution" > 0 the front is a box front from
 * its first point: the box rule is again a strict partial order, so such a
 * front is the same however its points were split and merged, as long as
 * it never outgrows max.  The band of search_front_alloc_band is not
 * applied inside boxes.  "max" is 0 (no bound) or at least
 * SEARCH_MIN_FRONT_MAX; "resolution" 0 or in [1e-6, 1].  Returns 0, or -1
 * for values out of range or on memory exhaustion.
 */
int search_front_limit(search_front *front, size_t max, double resolution);
/* The eps of the front's boxes: 0 while the front is exact. */
double search_front_resolution(const search_front *front);
#define SEARCH_MIN_FRONT_MAX 1000
#define SEARCH_DEFAULT_FRONT_MAX 100000
#define SEARCH_DEFAULT_FRONT_RESOLUTION 0.001
/* Sorts the rows by objectives, then index. */
void search_front_sort(search_front *front);
size_t search_front_size(const search_front *front);
const search_point *search_front_at(const search_front *front, size_t i);

/* The hypervolume of "front": the measure of the region of objective
 * space its points dominate inside the box [lo, ref], as a fraction of the
 * box's volume (0..1).  Every objective is taken as minimised: a
 * maximised metric's value v counts as 1/v (see search_objective_value);
 * lo and ref hold n_obj values in that form.  Points outside the box add
 * only their part inside it.  Exact for 1-3 objectives; for more, a Monte
 * Carlo estimate with a fixed seed (so the same front gives the same
 * figure).  NaN when a box side is empty or not finite.
 */
double search_front_hypervolume(const search_front *front, const double *lo,
	const double *ref);
/* The same measured on the logarithms of the objectives, in the box
 * [log lo, log ref] (lo > 0): every factor of improvement counts alike,
 * whatever the objective's scale, which suits metrics spanning decades
 * such as latency and DSP count.  NaN when a box side is empty, not
 * finite or lo is not positive.
 */
double search_front_hypervolume_log(const search_front *front,
	const double *lo, const double *ref);
/* Objective j of "p" as the hypervolume takes it: the metric for a
 * minimised one, its reciprocal for a maximised one.
 */
double search_objective_value(const search_front *front,
	const search_point *p, int j);

/* --- the cloud: a bounded, deterministic sample of evaluated points ----- */

/* The cloud keeps, of all points offered, the "max" with the smallest hash
 * of their index (a bottom-k sketch).  Which points survive does not
 * depend on the order of offers or on how they were split and merged, so
 * the cloud, like the front, is the same for any number of ranks and
 * threads, and its memory is bounded by "max".
 */
typedef struct search_cloud search_cloud;
search_cloud *search_cloud_alloc(size_t max);
search_cloud *search_cloud_free(search_cloud *cloud);
/* Offers a point; 1 kept, 0 not kept (or already there), -1 out of
 * memory.
 */
int search_cloud_add(search_cloud *cloud, const search_point *p);
dse_stat search_cloud_merge(search_cloud *cloud, const search_cloud *other,
	dse_error *err);
/* Sorts the points by index. */
void search_cloud_sort(search_cloud *cloud);
size_t search_cloud_size(const search_cloud *cloud);
const search_point *search_cloud_at(const search_cloud *cloud, size_t i);

/* --- MPI -------------------------------------------------------------- */

/* Starts MPI for dse: MPI_Init_thread at MPI_THREAD_FUNNELED (refused when
 * the library gives less, since OpenMP threads run beside MPI), and
 * MPI_ERRORS_RETURN on MPI_COMM_WORLD so that MPI errors come back as
 * return codes that the callers check and turn into dse_errors.  After an
 * error the caller finalises MPI when MPI_Initialized says it started.
 * Collective over MPI_COMM_WORLD.
 */
dse_stat search_mpi_init(int *argc, char ***argv, dse_error *err);

/* --- strategies -------------------------------------------------------- */

enum search_strategy {
#define SEARCH_STRATEGY_ID(id, name) id,
	SEARCH_STRATEGY_TABLE(SEARCH_STRATEGY_ID)
#undef SEARCH_STRATEGY_ID
	SEARCH_N_STRATEGIES
};
/* "exhaustive", "random", "genetic", "anneal". */
const char *search_strategy_name(int strategy);
/* The strategy called "name"; -1 when there is none. */
int search_strategy_find(const char *name);

/* Defaults of the heuristic strategies' options (0 in search_options). */
#define SEARCH_DEFAULT_ISLANDS 8
#define SEARCH_DEFAULT_POPULATION 64
/* The largest population a genetic island takes: NSGA-II's domination
 * matrix of parents and children holds 2 x population^2 bytes, 128 MiB
 * here.
 */
#define SEARCH_MAX_POPULATION 8192
#define SEARCH_DEFAULT_MIGRATE_EVERY 10
#define SEARCH_DEFAULT_MIGRANTS 4
/* The default budget: this fraction of the space, clamped to
 * [min(space, SEARCH_MIN_BUDGET), SEARCH_MAX_DEFAULT_BUDGET].
 */
#define SEARCH_DEFAULT_BUDGET_FRACTION 0.05
#define SEARCH_MIN_BUDGET 2000
#define SEARCH_MAX_DEFAULT_BUDGET 1000000

/* --- the run ----------------------------------------------------------- */

/* A design meets a constraint when min <= metric <= max.  Every metric
 * is non-negative, so min = 0 (as a zeroed struct has it) is no lower
 * bound, and max = INFINITY no upper bound.
 */
typedef struct search_constraint {
	int metric;		/* enum sim_metric */
	double max;		/* absolute upper bound */
	double min;		/* absolute lower bound ("gops >= 500") */
} search_constraint;

typedef struct search_progress {
	int stage;		/* 1: the analytic sweep; 2: re-evaluating the
				 * band with the sampled cycle model (then
				 * evaluated/total count band points) */
	uint64_t evaluated;	/* over all ranks at the last
				 * synchronisation; exhaustive search
				 * counts pruned points too, so that it
				 * reaches "total" */
	uint64_t valid;
	uint64_t total;
	size_t front_size;	/* the merged front at the last
				 * synchronisation */
	double seconds;
	int strategy;		/* enum search_strategy */
	/* The hypervolume of the merged front at the last synchronisation,
	 * in the box from 0 to a reference point fixed at the first
	 * synchronisation with a non-empty front (each objective's worst
	 * front value times 2); it only grows as the front improves.  NaN
	 * before it is known.
	 */
	double hypervolume;
	uint64_t generation;	/* heuristic strategies; 0 otherwise */
} search_progress;

/* What a checkpoint hands its writer (on root): the search's whole state
 * as opaque, self-checking bytes, and the figures so far for the user.
 */
typedef struct search_checkpoint {
	const void *state;
	size_t size;
	const search_front *front;	/* the merged front so far */
	uint64_t evaluated;	/* over all ranks */
	uint64_t valid;
	uint64_t total;		/* the points or the budget to reach */
	double seconds;		/* search time so far, resumed runs included */
	int final;		/* 1: the last one, written because the
				 * search was stopped */
} search_checkpoint;

/* Writes a checkpoint; a failure ends the search with that error. */
typedef dse_stat (*search_checkpoint_fn)(const search_checkpoint *cp,
	void *user, dse_error *err);

typedef void (*search_progress_fn)(const search_progress *p, void *user);

typedef struct search_options {
	int n_obj;
	int objectives[SEARCH_MAX_OBJECTIVES];	/* enum sim_metric */
	int n_constraints;
	search_constraint constraints[SEARCH_MAX_CONSTRAINTS];
	uint64_t block;		/* points per work block; 0 for the default */
	/* Exhaustive search deals its blocks to the ranks as they free up;
	 * 1 here deals them by index instead (block j of an epoch to rank
	 * j mod P), as it once did, for benchmarks that compare the two.
	 * The front and the counters are the same either way.
	 */
	int deal_by_index;
	/* Exhaustive search: 1 skips whole sub-ranges of the index range
	 * (a prefix of knob values) that its bounds show hold no point of the
	 * front: illegal by their prefix (settled, each point counted with
	 * its status), over a constraint, or beaten by a point of a reference
	 * (the front of a sample of the space, refined by a local search)
	 * evaluated first.  The front, exact or bounded, is exactly the one
	 * without pruning; skipped points are counted in result->pruned and
	 * are in no cloud.  Needs the evaluator's prefix_status and
	 * bound_box.  Single points are checked too when a sample shows it
	 * pays; 2 checks them always.
	 */
	int prune;
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
	uint64_t seed;		/* with the point index, the sample seed;
				 * the islands' seeds derive from it */
	sim_cycle_opts cycle;	/* fifo depth, samples, ...; seed ignored */

	/* The strategy (enum search_strategy) and its budgets.  "budget"
	 * counts evaluations over all islands (0: the default above);
	 * "budget_seconds" (0: none) stops the search at the first
	 * synchronisation after it, which makes the front depend on the
	 * machine's speed.  Exhaustive search ignores "budget" and honours
	 * "budget_seconds": it then returns the front of the prefix of the
	 * index range it swept (not marked interrupted, with fewer points
	 * evaluated than the space has), through the second stage as usual.
	 */
	int strategy;
	uint64_t budget;
	double budget_seconds;
	/* Islands of the heuristic strategies (0: the defaults above).  The
	 * islands, not the ranks or threads, are the unit of work: island i
	 * has its own seed derived from "seed" and i and runs on rank
	 * i mod P, so the front does not depend on P or on the threads.
	 * Every "migrate_every" generations (annealing: that many times
	 * "population" steps) island i receives the "migrants" best points
	 * of island i - 1 (mod islands).
	 */
	int islands;
	int population;
	int migrate_every;
	int migrants;
	/* Simulated annealing minimises a weighted sum of the logarithms of
	 * the objectives; with every weight 0 island i takes its own
	 * weights, spread evenly over the simplex, so the islands together
	 * cover the whole front.
	 */
	double weights[SEARCH_MAX_OBJECTIVES];

	/* Checkpoints: every "checkpoint_interval" seconds (0: never) root
	 * calls "checkpoint" with the state at a synchronisation point.
	 * "resume" (NULL: a fresh start; the same bytes on every rank)
	 * continues from such a state, which must come from the same
	 * space, strategy, objectives and seed.  When *stop becomes
	 * non-zero on any rank (a signal handler sets it) the search stops
	 * at its next synchronisation, writes a final checkpoint and
	 * returns with result->interrupted set.  An interrupted two-stage
	 * search skips the second stage (the resumed one runs it): its
	 * front is the analytic front so far.
	 */
	double checkpoint_interval;
	/* The most of the wall time writing checkpoints may take (0: no
	 * limit): where a write takes long (a slow disk's fsync, a large
	 * front), the next checkpoint waits longer than the interval.
	 */
	double checkpoint_share;
	search_checkpoint_fn checkpoint;
	void *checkpoint_user;
	const void *resume;
	size_t resume_size;
	const volatile sig_atomic_t *stop;

	/* Points kept in result->cloud (0: none): legal points, within the
	 * constraints or not; points an evaluator's bound pruned were never
	 * evaluated and are in no cloud.
	 */
	size_t cloud_max;
	/* The bound on every front the search keeps (threads', ranks',
	 * islands' and root's), and the box size to start from (see
	 * search_front_limit); 0 and 0 for no bound and an exact front.
	 */
	size_t front_max;
	double front_resolution;
} search_options;

#define SEARCH_DEFAULT_BAND_MAX 10000

typedef struct search_result {
	search_front *front;	/* the merged front on root, NULL elsewhere */
	uint64_t evaluated;	/* summed over all ranks, on every rank */
	uint64_t valid;		/* legal and within the constraints */
	uint64_t status_count[SIM_N_STATUS];	/* why points were illegal */
	uint64_t over_constraint;	/* legal but over a constraint */
	double seconds;		/* wall time of the search on root;
				 * exhaustive: the sweep without the
				 * second stage, resumed runs included */
	double cpu_seconds;	/* CPU time of the search (search_run),
				 * summed over every rank and thread: the
				 * time ranks spend waiting in MPI counts
				 * too, as busy polling uses its core */
	int threads;		/* OpenMP threads per rank */
	/* Two-stage evaluation (zero for the analytic model). */
	uint64_t band_points;	/* the band before the band_max cut */
	uint64_t resimulated;	/* points run through the sampled model */
	uint64_t band_cut;	/* band points band_max left out */
	uint64_t resim_dropped;	/* illegal or over a constraint once
				 * re-evaluated */
	uint64_t resim_failed;	/* of those, points whose simulation
				 * failed (status SIM_FAILED): recorded and
				 * left out, the search goes on */
	double resim_seconds;	/* wall time of the second stage */
	int strategy;		/* enum search_strategy */
	uint64_t pruned;	/* exhaustive: points skipped because a
				 * bound showed they cannot be on the front
				 * (not in evaluated; those a per-point
				 * resource bound put over a constraint
				 * are counted in over_constraint too) */
	uint64_t pruned_beaten;	/* of those, points of sub-ranges a
				 * point of the reference beats
				 * (opt->prune) */
	uint64_t modelled;	/* points the evaluator's model evaluated,
				 * the pruner's reference included; the
				 * others of "evaluated" were settled by
				 * their knobs alone */
	uint64_t generations;	/* heuristic strategies */
	int islands;
	int interrupted;	/* stopped by opt->stop; the front is the
				 * front so far */
	int resumed;		/* started from opt->resume */
	search_cloud *cloud;	/* on root when opt->cloud_max > 0 */
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
	/* Optional (NULL: none): lower bounds of the resource metrics
	 * (dsp, bram18k, uram, lut, ff; the others left 0), much cheaper
	 * than "eval", and the status "eval" would give (so an illegal
	 * point needs no evaluation).  The exhaustive sweep skips a point
	 * whose bound already breaks a constraint; a bound never above the
	 * metric "eval" gives keeps the front exactly as it was.
	 */
	void (*bound)(const void *model, const int32_t *knobs,
		sim_metrics *lower);
	/* Optional (NULL: none), for pruning whole sub-ranges (see
	 * opt->prune): the status every point whose first n knobs are those
	 * of "knobs" has when those knobs alone decide it, else SIM_OK (as
	 * sim_prefix_status); and the best metrics any legal point of a box
	 * of knob values can have (as sim_bound_box).
	 */
	int (*prefix_status)(const void *model, const int32_t *knobs, int n);
	void (*bound_box)(const void *model, const int32_t *lo,
		const int32_t *hi, sim_metrics *best);
	/* Needed for a space made of parts, ignored otherwise: fills *out
	 * with the evaluator of part p, which takes that part's own knobs
	 * (the search evaluates every part with its own, so a point costs
	 * what it costs in a search of that part alone).  Returns 0, or -1
	 * when there is no such part.
	 */
	int (*part)(const void *model, int p, struct search_evaluator *out);
} search_evaluator;

/* The evaluator of a systolic array's sim_model. */
search_evaluator search_evaluator_sim(const sim_model *model);

/* search_exhaustive with any evaluator.  Collective over "comm". */
dse_stat search_exhaustive_with(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

/* Runs opt->strategy: search_exhaustive_with, or the heuristic strategy
 * on its islands; a heuristic strategy's front, too, goes through the
 * second stage when opt->model is SIM_MODEL_SAMPLED.  Collective over
 * "comm".  The caller frees result->front and result->cloud.
 */
dse_stat search_run(const search_space *space, const search_evaluator *ev,
	const search_options *opt, MPI_Comm comm, search_result *result,
	dse_error *err);

/* Checks that "state" (a checkpoint's bytes) is intact and was made by a
 * search of this space, strategy, objectives and seed: an input error
 * saying what differs (or that the bytes are corrupt or truncated)
 * otherwise.  Not collective.
 */
dse_stat search_state_check(const search_space *space,
	const search_options *opt, const void *state, size_t size,
	dse_error *err);

/* Whether a legal point's metrics are within opt's constraints. */
int search_feasible(const search_options *opt, const sim_metrics *m);

/* The seed of the sampled cycle model for the point of index "index" of
 * a search seeded with "seed": a mix of both, so that the sample of a point
 * does not depend on which rank or thread simulates it.
 */
uint64_t search_point_seed(uint64_t seed, uint64_t index);

#endif
