/* Searching a space made of parts (search_space_alloc_parts).
 *
 * Each part is searched with the strategy of the options and its own
 * evaluator, one part after another in part order, and what the parts
 * found is folded into one front, one cloud and one set of counters over
 * the whole's index range.  So a point costs what it costs in a search of
 * its part alone, and the front of the whole is the non-dominated union of
 * the parts' fronts: the same set a single search of the whole would keep,
 * since a point beaten by a point of another part is beaten in the union.
 * Every part's search is the same for any rank and thread count, and the
 * folding is in part order, so the whole's front is too.
 *
 * Exhaustive search sweeps the parts' ranges in index order, exactly as a
 * mixed-radix digit would.  The heuristic strategies split the budget over
 * the parts by their sizes (their islands search within a part); a time
 * budget is spent part after part, leaving the later parts unsearched.
 * Two-stage evaluation runs within each part: a part's band around its own
 * front is re-evaluated, which is a superset of the whole front's band.
 *
 * A checkpoint holds the finished parts' counters, front and cloud, the
 * part under way and that part's own state; it is framed with the whole's
 * header, whose space identity covers every part.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

/* The payload's first word: "PARTS" states and others never mix. */
#define PARTS_TAG UINT64_C(0x5354524150455344)

struct parts_run {
	const search_space *space;
	const search_options *opt;
	int rank;
	int part;		/* the part being searched */
	search_front *front;	/* root: the finished parts' points */
	search_cloud *cloud;	/* root, with opt->cloud_max */
	search_result done;	/* the finished parts' counters (every
				 * rank); its front and cloud are NULL */
	uint64_t total;		/* points, or the budget, of the whole */
};

/* Point "from" of part p (in its own knobs and index) as a point of the
 * whole.
 */
static search_point placed(const struct parts_run *run, int p,
	const search_point *from)
{
	search_point q = *from;

	search_space_place(run->space, p, from->knobs, q.knobs);
	q.index += search_space_part_offset(run->space, p);
	return q;
}

/* Part p's front or cloud into the whole's.  -1 on memory exhaustion. */
static int fold_front(const struct parts_run *run, int p,
	const search_front *from, search_front *to)
{
	size_t i, n = from ? search_front_size(from) : 0;

	for (i = 0; i < n; i++) {
		search_point q = placed(run, p, search_front_at(from, i));

		if (search_front_add(to, &q) < 0)
			return -1;
	}
	return 0;
}

static int fold_cloud(const struct parts_run *run, int p,
	const search_cloud *from, search_cloud *to)
{
	size_t i, n = from ? search_cloud_size(from) : 0;

	for (i = 0; i < n; i++) {
		search_point q = placed(run, p, search_cloud_at(from, i));

		if (search_cloud_add(to, &q) < 0)
			return -1;
	}
	return 0;
}

/* Adds a part's counters to the finished parts'. */
static void add_counts(search_result *to, const search_result *r)
{
	int s;

	to->evaluated += r->evaluated;
	to->valid += r->valid;
	for (s = 0; s < SIM_N_STATUS; s++)
		to->status_count[s] += r->status_count[s];
	to->over_constraint += r->over_constraint;
	to->seconds += r->seconds;
	to->threads = r->threads;
	to->band_points += r->band_points;
	to->resimulated += r->resimulated;
	to->band_cut += r->band_cut;
	to->resim_dropped += r->resim_dropped;
	to->resim_failed += r->resim_failed;
	to->resim_seconds += r->resim_seconds;
	to->pruned += r->pruned;
	to->pruned_beaten += r->pruned_beaten;
	to->modelled += r->modelled;
	to->generations += r->generations;
	to->islands = r->islands;
}

/* What the progress and checkpoints count as done: exhaustive search
 * counts the points its bounds skipped too, as it does within a part.
 */
static uint64_t done_count(const struct parts_run *run)
{
	return run->done.evaluated + (run->opt->strategy == SEARCH_EXHAUSTIVE ?
		run->done.pruned : 0);
}

static void part_progress(const search_progress *p, void *user)
{
	const struct parts_run *run = user;
	search_progress q = *p;

	if (q.stage == 1) {
		q.evaluated += done_count(run);
		q.valid += run->done.valid;
		q.total = run->total;
	}
	q.seconds += run->done.seconds;
	/* A part's hypervolume is not the whole's. */
	q.hypervolume = NAN;
	run->opt->progress(&q, run->opt->progress_user);
}

/* The whole's state around the running part's "cp": the finished parts'
 * counters, front and cloud, the part, and the part's own state.
 */
static dse_stat frame_state(const struct parts_run *run,
	const search_checkpoint *cp, search__buf *out, dse_error *err)
{
	search__buf payload = { 0 };
	search_result done = run->done;
	dse_stat st;

	done.front = NULL;
	done.cloud = NULL;
	search__put_u64(&payload, PARTS_TAG);
	search__put_u64(&payload, (uint64_t) search_space_n_parts(run->space));
	search__put_u64(&payload, (uint64_t) run->part);
	search__put(&payload, &done, sizeof(done));
	search__put_front(&payload, run->front);
	search__put_u64(&payload, run->cloud != NULL);
	if (run->cloud)
		search__put_cloud(&payload, run->cloud);
	search__put_u64(&payload, cp->size);
	search__put(&payload, cp->state, cp->size);
	st = search__state_frame(run->space, run->opt, &payload, out, err);
	search__buf_clear(&payload);
	return st;
}

/* The running part's checkpoint as the whole's (root only). */
static dse_stat part_checkpoint(const search_checkpoint *cp, void *user,
	dse_error *err)
{
	const struct parts_run *run = user;
	search__buf state = { 0 };
	search_checkpoint whole = *cp;
	search_front *front;
	dse_stat st;

	front = search_front_alloc(run->opt->n_obj, run->opt->objectives);
	if (!front || search_front_limit(front, run->opt->front_max,
			run->opt->front_resolution) < 0 ||
	    search_front_merge(front, run->front, err) ||
	    fold_front(run, run->part, cp->front, front) < 0) {
		search_front_free(front);
		return dse_error_set(err, DSE_E_NOMEM, "out of memory writing "
			"a checkpoint");
	}
	search_front_sort(front);
	st = frame_state(run, cp, &state, err);
	if (st == dse_stat_ok) {
		whole.state = state.p;
		whole.size = state.n;
		whole.front = front;
		whole.evaluated += done_count(run);
		whole.valid += run->done.valid;
		whole.total = run->total;
		whole.seconds += run->done.seconds;
		st = run->opt->checkpoint(&whole, run->opt->checkpoint_user,
			err);
	}
	search__buf_clear(&state);
	search_front_free(front);
	return st;
}

/* Reads a resumed state (the same bytes on every rank): the part to go
 * on with, the finished parts' figures and the part's own state.
 */
static dse_stat load_state(struct parts_run *run, const void **sub,
	size_t *sub_size, dse_error *err)
{
	search__reader r;
	uint64_t tag, n, part, has_cloud, size;

	if (search__state_open(run->space, run->opt, run->opt->resume,
			run->opt->resume_size, &r, err))
		return dse_stat_error;
	if (search__get_u64(&r, &tag) || tag != PARTS_TAG ||
	    search__get_u64(&r, &n) ||
	    n != (uint64_t) search_space_n_parts(run->space) ||
	    search__get_u64(&r, &part) || part >= n ||
	    search__get(&r, &run->done, sizeof(run->done)) ||
	    search__get_front(&r, run->front) ||
	    search__get_u64(&r, &has_cloud) ||
	    has_cloud != (run->cloud != NULL) ||
	    (run->cloud && search__get_cloud(&r, run->cloud)) ||
	    search__get_u64(&r, &size) || size != r.n - r.off)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"corrupt: its parts do not read back");
	run->done.front = NULL;
	run->done.cloud = NULL;
	run->part = (int) part;
	*sub = r.p + r.off;
	*sub_size = (size_t) size;
	return dse_stat_ok;
}

/* The whole's budget as the islands would take it, and part p's share of
 * it by size (at least one evaluation, at most the part).
 */
static uint64_t whole_budget(const search_space *space,
	const search_options *opt)
{
	uint64_t size = search_space_size(space), b, lo;

	if (opt->budget)
		return opt->budget < size ? opt->budget : size;
	b = (uint64_t) (SEARCH_DEFAULT_BUDGET_FRACTION * (double) size);
	lo = size < SEARCH_MIN_BUDGET ? size : SEARCH_MIN_BUDGET;
	if (b < lo)
		b = lo;
	return b > SEARCH_MAX_DEFAULT_BUDGET ? SEARCH_MAX_DEFAULT_BUDGET : b;
}

static uint64_t part_budget(const search_space *space, uint64_t budget,
	int p)
{
	uint64_t size = search_space_size(space);
	uint64_t ps = search_space_size(search_space_part(space, p));
	uint64_t b = (uint64_t) ((long double) budget * (long double) ps /
		(long double) size);

	if (b < 1)
		b = 1;
	return b < ps ? b : ps;
}

/* Runs part p: its options, its evaluator, the strategy. */
static dse_stat run_part(struct parts_run *run, const search_evaluator *ev,
	int p, const void *sub, size_t sub_size, MPI_Comm comm,
	search_result *r, dse_error *err)
{
	const search_options *opt = run->opt;
	const search_space *part = search_space_part(run->space, p);
	search_options o = *opt;
	search_evaluator pe;

	memset(r, 0, sizeof(*r));
	memset(&pe, 0, sizeof(pe));
	if (!ev->part || ev->part(ev->model, p, &pe) < 0)
		return search__agree(dse_error_set(err, DSE_E_RUNTIME, "the "
			"evaluator has no part %d of the space", p), comm,
			err);
	o.resume = sub;
	o.resume_size = sub_size;
	o.checkpoint = opt->checkpoint ? part_checkpoint : NULL;
	o.checkpoint_user = run;
	o.progress = opt->progress ? part_progress : NULL;
	o.progress_user = run;
	if (opt->strategy != SEARCH_EXHAUSTIVE)
		o.budget = part_budget(run->space, run->total, p);
	if (opt->budget_seconds > 0)
		o.budget_seconds = opt->budget_seconds - run->done.seconds;
	run->part = p;
	if (opt->strategy == SEARCH_EXHAUSTIVE)
		return search_exhaustive_with(part, &pe, &o, comm, r, err);
	return search__heuristic(part, &pe, &o, comm, r, err);
}

/* Folds part p's result into the run (fronts and clouds on root). */
static dse_stat fold_part(struct parts_run *run, int p, search_result *r,
	dse_error *err)
{
	int bad = 0;

	if (run->front)
		bad |= fold_front(run, p, r->front, run->front) < 0;
	if (run->cloud)
		bad |= fold_cloud(run, p, r->cloud, run->cloud) < 0;
	add_counts(&run->done, r);
	run->done.resumed |= r->resumed;
	search_front_free(r->front);
	search_cloud_free(r->cloud);
	r->front = NULL;
	r->cloud = NULL;
	return bad ? dse_error_set(err, DSE_E_NOMEM, "out of memory "
		"folding the fronts of a space's parts") : dse_stat_ok;
}

static dse_stat alloc_run(struct parts_run *run, const search_space *space,
	const search_options *opt, MPI_Comm comm, dse_error *err)
{
	memset(run, 0, sizeof(*run));
	run->space = space;
	run->opt = opt;
	if (MPI_Comm_rank(comm, &run->rank) != MPI_SUCCESS)
		return dse_error_set(err, DSE_E_RUNTIME, "MPI_Comm_rank failed");
	run->total = opt->strategy == SEARCH_EXHAUSTIVE ?
		search_space_size(space) : whole_budget(space, opt);
	/* Every rank reads a resumed front; root keeps it. */
	run->front = search_front_alloc(opt->n_obj, opt->objectives);
	if (run->front && search_front_limit(run->front, opt->front_max,
			opt->front_resolution) < 0)
		run->front = search_front_free(run->front);
	if (opt->cloud_max)
		run->cloud = search_cloud_alloc(opt->cloud_max);
	if (!run->front || (opt->cloud_max && !run->cloud))
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	return dse_stat_ok;
}

dse_stat search__run_parts(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err)
{
	struct parts_run run;
	const void *sub = NULL;
	size_t sub_size = 0;
	int p, n = search_space_n_parts(space);
	dse_stat st;

	memset(result, 0, sizeof(*result));
	st = alloc_run(&run, space, opt, comm, err);
	if (st == dse_stat_ok && opt->resume)
		st = load_state(&run, &sub, &sub_size, err);
	st = search__agree(st, comm, err);
	for (p = run.part; st == dse_stat_ok && p < n; p++) {
		search_result r;

		if (opt->budget_seconds > 0 &&
		    run.done.seconds >= opt->budget_seconds)
			break;
		st = run_part(&run, ev, p, p == run.part ? sub : NULL,
			p == run.part ? sub_size : 0, comm, &r, err);
		if (st == dse_stat_ok)
			st = fold_part(&run, p, &r, err);
		else {
			search_front_free(r.front);
			search_cloud_free(r.cloud);
		}
		st = search__agree(st, comm, err);
		if (st == dse_stat_ok && r.interrupted) {
			result->interrupted = 1;
			break;
		}
	}
	if (st == dse_stat_ok) {
		int interrupted = result->interrupted;

		*result = run.done;
		result->interrupted = interrupted;
		result->resumed |= opt->resume != NULL;
		if (run.rank == 0) {
			search_front_sort(run.front);
			result->front = run.front;
			if (run.cloud)
				search_cloud_sort(run.cloud);
			result->cloud = run.cloud;
			run.front = NULL;
			run.cloud = NULL;
		}
	}
	search_front_free(run.front);
	search_cloud_free(run.cloud);
	return st;
}
