/* Internal interface between the files of search/; not for other modules. */
#ifndef SEARCH_PRIVATE_H
#define SEARCH_PRIVATE_H

#include "search.h"

/* The value of knob k at position "digit" of its list. */
int32_t search__space_value(const search_space *space, int k, int digit);
/* Splits an index into per-knob digits (positions in the value lists). */
void search__space_digits(const search_space *space, uint64_t idx, int *digit);
/* Advances digits and knob values to the next index, as an odometer.
 * Returns 0 after the last index (everything wrapped to zero).
 */
int search__space_next(const search_space *space, int *digit, int32_t *knobs);

/* Offers n points at once; returns -1 on memory exhaustion. */
int search__front_add_many(search_front *front, const search_point *p,
	size_t n);
/* Puts back the n points of a saved front (search__put_front) into
 * "front", raised to the saved level: into an empty front they are taken
 * as they are, in O(n), since none beats another; otherwise they are
 * offered one by one.  Returns -1 on memory exhaustion.
 */
int search__front_restore(search_front *front, const search_point *p,
	size_t n);

/* Whether a legal point's metrics are within the constraints. */
int search__feasible(const search_options *opt, const sim_metrics *m);
/* An MPI return code as our error. */
dse_stat search__mpi_check(int rc, const char *what, dse_error *err);
/* Agrees on success: returns dse_stat_error on every rank when any rank
 * failed, so no rank is left waiting in a later collective.  Collective.
 */
dse_stat search__agree(dse_stat st, MPI_Comm comm, dse_error *err);

/* Cuts a band to its "max" points closest to its plain front (ties by
 * index), which always contains the plain front when max allows, sorted
 * again; *cut says how many went.  Returns -1 on memory exhaustion.
 */
int search__front_cut(search_front *band, size_t max, size_t *cut);
/* A front for a search with options "opt": the band of a two-stage
 * search or the plain front, bounded by opt->front_max.  NULL on memory
 * exhaustion.
 */
search_front *search__alloc_front(const search_options *opt);
/* The front's thinning level: 0 while exact, k for boxes of 2^(k-1) times
 * the starting width.
 */
int search__front_level(const search_front *front);
/* Thins the front to level "level" when it is below it.  -1 on memory
 * exhaustion.
 */
int search__front_raise(search_front *front, int level);
/* Empties a front, keeping its objectives and band. */
void search__front_clear(search_front *front);
/* Hashes from "ceiling" up are never kept from now on (a cloud's ceiling
 * only comes down).  A cloud merged into another whose ceiling is known
 * offers nothing of use above it.
 */
void search__cloud_set_ceiling(search_cloud *cloud, uint64_t ceiling);
/* The largest hash in a full cloud (no hash above it can enter):
 * UINT64_MAX while the cloud is not full.
 */
uint64_t search__cloud_ceiling(const search_cloud *cloud);
/* The number of objectives of a front. */
int search__front_n_obj(const search_front *front);
/* search_front_hypervolume by Monte Carlo with "samples" samples, for any
 * number of objectives (the tests compare it with the exact figure).
 */
double search__hypervolume_mc(const search_front *front, const double *lo,
	const double *ref, uint64_t samples);

/* The second stage of a two-stage search: re-evaluates the points of
 * "band" (root's merged band; ignored elsewhere) with the sampled cycle
 * model over every rank and thread and replaces root's "front" contents
 * with the front of the results.  Collective.
 */
dse_stat search__resimulate(const search_front *band, search_front *front,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

/* --- synchronisation points (sync.c) ------------------------------------
 *
 * Every strategy stops at synchronisation points: the exhaustive sweep
 * between epochs of blocks, the heuristic ones at migrations.  There root
 * decides, and every rank learns, whether to stop (opt->stop set on any
 * rank, or the time budget spent) and whether a checkpoint is due.
 */
typedef struct search__clock {
	double t0;		/* when this run started (MPI_Wtime) */
	double before;		/* search seconds of the runs resumed from */
	double next_checkpoint;
} search__clock;

void search__clock_start(search__clock *c, const search_options *opt,
	double before);
/* Root, after writing a checkpoint it began at "started" (MPI_Wtime):
 * the next one is due a checkpoint interval after this one ended, or
 * later where writing takes long (a slow disk's fsync), so that
 * checkpoints take at most opt->checkpoint_share of the wall time.
 */
void search__clock_checkpointed(search__clock *c, const search_options *opt,
	double started);
/* Seconds searched so far, earlier runs included. */
double search__clock_seconds(const search__clock *c);
/* Collective.  *stop: 1 when a signal asked to stop (the caller writes a
 * final checkpoint), 2 when the time budget is spent; *checkpoint: 1 when
 * a checkpoint is due (always with *stop == 1).
 */
dse_stat search__sync(search__clock *c, const search_options *opt,
	MPI_Comm comm, int *stop, int *checkpoint, dse_error *err);
/* search__sync that also agrees on success ("mine" is this rank's
 * status: dse_stat_error on every rank when any rank failed) and hands
 * root's "values" (up to 4) to every rank, all in one collective.
 */
dse_stat search__sync_value(search__clock *c, const search_options *opt,
	MPI_Comm comm, dse_stat mine, int *stop, int *checkpoint,
	uint64_t *values, int n_values, dse_error *err);
/* Gathers every rank's bytes on root, concatenated in rank order; *all
 * (malloc'd, root only) and *sizes (one per rank, root only) are the
 * caller's to free.  Collective.
 */
dse_stat search__gather_bytes(const void *mine, size_t n, MPI_Comm comm,
	void **all, size_t **sizes, dse_error *err);
/* Broadcasts root's bytes: on root *data and *n are its own, elsewhere they
 * receive a malloc'd copy.  Collective.
 */
dse_stat search__bcast_bytes(void **data, size_t *n, MPI_Comm comm,
	dse_error *err);

/* --- checkpoint state (state.c) -----------------------------------------
 *
 * A state is a header (magic, format version, the size of a search_point,
 * strategy, knob count and space size, seed, objectives, payload length
 * and an FNV-1a 64-bit checksum of the payload) and a payload the strategy
 * writes with the functions below.  Points travel as raw bytes: a state is
 * read back only by the same build of the tool, which the header checks.
 */
typedef struct search__buf {
	unsigned char *p;
	size_t n;
	size_t cap;
	int failed;		/* out of memory: every later put is a no-op */
} search__buf;

void search__put(search__buf *b, const void *data, size_t n);
void search__put_u64(search__buf *b, uint64_t v);
void search__put_f64(search__buf *b, double v);
void search__put_front(search__buf *b, const search_front *front);
void search__put_cloud(search__buf *b, const search_cloud *cloud);
void search__buf_clear(search__buf *b);

typedef struct search__reader {
	const unsigned char *p;
	size_t n;
	size_t off;
	int failed;		/* read past the end: every later get fails */
} search__reader;

int search__get(search__reader *r, void *out, size_t n);	/* 0 / -1 */
int search__get_u64(search__reader *r, uint64_t *v);
int search__get_f64(search__reader *r, double *v);
/* Adds the points read to "front" / "cloud". */
int search__get_front(search__reader *r, search_front *front);
int search__get_cloud(search__reader *r, search_cloud *cloud);

/* Frames "payload" with the header for opt and space into "out". */
dse_stat search__state_frame(const search_space *space,
	const search_options *opt, const search__buf *payload,
	search__buf *out, dse_error *err);
/* Checks a framed state (as search_state_check) and points "payload" at
 * its payload.
 */
dse_stat search__state_open(const search_space *space,
	const search_options *opt, const void *state, size_t size,
	search__reader *payload, dse_error *err);

/* --- dealing work as ranks free up (deal.c) ------------------------------
 *
 * A counter shared by every rank of a communicator, held at root in an
 * MPI window and advanced with MPI_Fetch_and_op: whatever value a rank
 * reads no other rank reads, so a count of blocks handed out this way
 * gives every block to exactly one rank, the first to ask.
 */
typedef struct search__dealer search__dealer;

/* The counter, at 0.  Collective; NULL (on every rank) on failure. */
search__dealer *search__dealer_alloc(MPI_Comm comm, dse_error *err);
/* Collective. */
search__dealer *search__dealer_free(search__dealer *d);
/* Adds k to the counter and gives its value before in *before (k = 0
 * reads it).  Not collective; one thread of a rank at a time, the one
 * that initialised MPI.
 */
dse_stat search__dealer_add(search__dealer *d, uint64_t k, uint64_t *before,
	dse_error *err);

/* --- reductions up a tree (tree.c) ---------------------------------------
 *
 * search__tree_reduce folds every rank's state into root's in
 * ceil(log2 P) steps: each rank absorbs its children's messages, then
 * packs its state for its parent.  "absorb" returns -1 when it could not
 * take a message in (out of memory), "pack" when it could not write one.
 */
typedef int (*search__absorb_fn)(const void *bytes, size_t n, void *user);
typedef int (*search__pack_fn)(search__buf *out, void *user);

/* Message tags of the reductions, apart from any other traffic. */
enum { SEARCH__TAG_GAINS = 0x5e01, SEARCH__TAG_FRONT, SEARCH__TAG_CLOUD };

/* Collective.  "mine_failed": this rank's own part failed (its error is
 * in "err"); the failure reaches root, which returns an error, and the
 * rank's parent, so no rank waits for ever.  Ranks whose subtree failed
 * return an error too; the caller agrees on the outcome afterwards.
 */
dse_stat search__tree_reduce(MPI_Comm comm, int tag, int mine_failed,
	search__absorb_fn absorb, search__pack_fn pack, void *user,
	dse_error *err);

/* The tie key of a bounded front's box rule (front.c): the sum of the
 * sign-adjusted objectives' clamped logarithms ("sign" -1 for maximised
 * metrics, whose "obj" is negated).  It never decreases as an objective
 * worsens, which lets the pruner tell when a point beats a whole sub-range
 * under the box rule too.
 */
double search__box_key(int n_obj, const double *sign, const double *obj);

/* --- pruning by bounds (prune.c) ----------------------------------------
 *
 * The nodes of the index range's tree (a prefix of knob values: a run of
 * indices) that a sweep can settle or skip whole, from the evaluator's
 * prefix_status and bound_box and a fixed reference of feasible points.
 */
typedef struct search__pruner search__pruner;

/* What a node's check decides. */
enum {
	SEARCH__KEEP = 0,	/* look inside */
	SEARCH__SETTLED,	/* every point illegal, with one status */
	SEARCH__OVER,		/* the bound breaks a constraint */
	SEARCH__BEATEN		/* a reference point beats the bound */
};

/* NULL when opt->prune is off, the evaluator has no prefix_status or
 * bound_box, or memory runs out: the sweep then looks at every point.
 */
search__pruner *search__pruner_alloc(const search_space *space,
	const search_evaluator *ev, const search_options *opt);
search__pruner *search__pruner_free(search__pruner *pr);
/* Whether nodes of "depth" are checked (depth n: single points, off
 * until search__pruner_set_leaves turns them on).
 */
int search__pruner_checks(const search__pruner *pr, int depth);
void search__pruner_set_leaves(search__pruner *pr, int on);
/* The points of a node of "depth". */
uint64_t search__pruner_node_size(const search__pruner *pr, int depth);
/* The reference: the feasible points of "front" (copied).  -1 on memory
 * exhaustion.
 */
int search__pruner_set_reference(search__pruner *pr,
	const search_front *front);
/* Checks the node of "depth" whose prefix is knobs[0..depth-1] and whose
 * first index is "first"; *status is the prefix's status (SETTLED).
 * Thread-safe.
 */
int search__pruner_node(const search__pruner *pr, const int32_t *knobs,
	int depth, uint64_t first, int *status);

/* Root's merged "*front" (a band when opt->model is SIM_MODEL_SAMPLED),
 * cut to opt->band_max points, re-evaluated with the sampled cycle model
 * over every rank and thread; *front is replaced by the new front on
 * root.  Fills result's two-stage counters.  Collective.
 */
dse_stat search__second_stage(search_front **front,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

/* The heuristic strategies on their islands (islands.c). */
dse_stat search__heuristic(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

/* Searches a space made of parts, each with the strategy and its own
 * evaluator (parts.c).  Collective.
 */
dse_stat search__run_parts(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

#endif
