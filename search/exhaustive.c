/* Exhaustive search over MPI ranks and OpenMP threads, in epochs.
 *
 * The index range is swept in order, an epoch of blocks at a time.  The
 * blocks of an epoch are dealt as ranks free up: a rank takes the next
 * ones from a counter shared by all ranks (deal.c), so a rank on a slower
 * or busier core takes fewer and no rank waits for another's share; inside
 * a rank, the thread that talks to MPI fetches a few blocks ahead and every
 * thread takes them as it frees up.  Each thread keeps its own front (and
 * cloud), which filters its points for the whole sweep.
 *
 * Between epochs is a synchronisation point: what the threads gained in
 * the epoch (the points of their fronts and clouds with an index in the
 * epoch: older ones were sent before) and their counters go up a binomial
 * tree of ranks to root (tree.c), each rank merging its children's gains
 * into its own on the way; root merges them into the global front and
 * cloud, reports progress, and decides (search__sync) whether to stop and
 * whether to write a checkpoint.  Every block of the epoch is swept by
 * then, whoever swept it, so a checkpoint describes a prefix of the index
 * range exactly: the next index to sweep, the counters, the global front
 * and cloud.  Since a front and a cloud depend only on the set of points
 * offered, and the counters only on which points were swept, the result
 * is the same for any number of ranks and threads and any dealing, and a
 * run resumed from any checkpoint ends with the front, cloud and counters
 * of an uninterrupted one.
 *
 * Root sizes the epochs so that one takes about EPOCH_SECONDS: short
 * enough to answer a stop signal promptly and to keep the checkpoint
 * interval, long enough that the synchronisation (a tree of small messages,
 * one small collective, and the idle tail of the epoch's last blocks, at
 * most a couple of blocks per thread now that blocks are dealt
 * dynamically) costs well under 1% of the sweep.
 *
 * A time budget (opt->budget_seconds) stops the sweep at the first
 * synchronisation after it: the result is then the front of the prefix
 * swept, not interrupted, with fewer points evaluated than the space has,
 * and it goes through the second stage as usual.
 */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "search_private.h"

#define DEFAULT_BLOCK 4096
/* The wall time an epoch should take, and how fast epochs may grow. */
#define EPOCH_SECONDS 0.3
#define EPOCH_GROWTH 4

/* Counters, as one array so that they travel and add up as one. */
enum {
	T_EVALUATED, T_VALID, T_OVER, T_PRUNED, T_BEATEN, T_MODELLED,
	T_STATUS, T_N = T_STATUS + SIM_N_STATUS
};

/* What one thread keeps while it sweeps. */
struct worker {
	search_front *front;	/* the thread's front, over the whole sweep */
	search_cloud *cloud;	/* likewise; NULL without a cloud */
	uint64_t t[T_N];	/* counters of the current epoch */
	int failed;		/* out of memory */
};

/* A constraint the evaluator's bound can break. */
struct prune {
	int metric;
	double max;
};

/* This rank's blocks of the current epoch, fetched ahead from the dealer
 * by thread 0 (the one thread that calls MPI) and taken by every thread:
 * block numbers relative to the epoch's start, in a ring.  Guarded by the
 * critical section "search_blocks".
 */
struct queue {
	uint64_t *ring;
	int cap;
	int head;
	int n;
	int done;		/* the epoch has no blocks left to fetch */
	uint64_t own;		/* blocks dealt by index so far this epoch */
	int failed;		/* the dealer failed (its error in run->deal_err) */
};

struct run {
	const search_space *space;
	search_evaluator ev;
	const search_options *opt;
	int rank;
	int size;
	int nt;			/* threads per rank */
	uint64_t lanes;		/* ranks x the most threads of a rank */
	uint64_t total;
	uint64_t block;
	int n_prune;
	struct prune prune[SEARCH_MAX_CONSTRAINTS];
	search__pruner *pr;	/* NULL: every point is looked at */
	uint64_t pilot;		/* points the pruner's sample evaluated */
	struct worker *w;
	search__dealer *dealer;
	uint64_t deal_base;	/* the dealer's count when this epoch began */
	uint64_t ceiling;	/* root's cloud ceiling at the last sync */
	struct queue q;
	dse_error deal_err;
	/* Root's merged state: everything swept before "pos". */
	uint64_t pos;		/* the next index to sweep (every rank) */
	search_front *front;
	search_cloud *cloud;
	uint64_t sum[T_N];
	search__clock clock;
	double next_report;
	double epoch_t0;	/* root: when the current epoch began */
	double ref[SEARCH_MAX_OBJECTIVES];
	int have_ref;
	double hv;		/* at the last report; NaN before */
	int front_changed;	/* since hv was computed */
};

int search__feasible(const search_options *opt, const sim_metrics *m)
{
	int i;

	for (i = 0; i < opt->n_constraints; i++) {
		double v = sim_metrics_get(m, opt->constraints[i].metric);

		if (v > opt->constraints[i].max || v < opt->constraints[i].min)
			return 0;
	}
	return 1;
}

/* Points of the trial that decides whether to use the bound, and the
 * least share of the trial's legal points it must prune to be used: it
 * costs about a fifth of an evaluation on every legal point, so a bound
 * that seldom prunes is a loss.  The trial looks at points spread evenly
 * over the index range, so every rank, whatever the rank and thread
 * counts, takes the same decision and the counters stay reproducible.
 */
#define BOUND_TRIAL 4096
#define BOUND_MIN_SHARE 0.1

/* The bound of "knobs": the model's status for them in *status, and
 * whether (for a legal point) the bound already breaks a constraint.
 */
static int over_bound(const struct run *run, const int32_t *knobs,
	int *status)
{
	sim_metrics lower;
	int c;

	memset(&lower, 0, sizeof(lower));
	run->ev.bound(run->ev.model, knobs, &lower);
	*status = lower.status;
	if (lower.status != SIM_OK)
		return 0;
	for (c = 0; c < run->n_prune; c++)
		if (sim_metrics_get(&lower, run->prune[c].metric) >
				run->prune[c].max)
			return 1;
	return 0;
}

/* Whether the bound prunes enough of a trial of the space's points. */
static int bound_pays(const struct run *run)
{
	uint64_t step = run->total / BOUND_TRIAL, i, legal = 0, cut = 0;
	int32_t knobs[SEARCH_MAX_KNOBS];
	int status;

	if (step == 0)
		step = 1;
	for (i = 0; i < run->total && i / step < BOUND_TRIAL; i += step) {
		search_space_decode(run->space, i, knobs);
		cut += over_bound(run, knobs, &status);
		legal += status == SIM_OK;
	}
	return legal && (double) cut >= BOUND_MIN_SHARE * (double) legal;
}

/* The constraints on metrics the evaluator's bound covers; none when the
 * bound would not pay.
 */
static void setup_prune(struct run *run)
{
	const search_options *opt = run->opt;
	int i, m;

	run->n_prune = 0;
	if (!run->ev.bound)
		return;
	for (i = 0; i < opt->n_constraints; i++) {
		m = opt->constraints[i].metric;
		/* The bound is a lower bound of the resources: it can only
		 * break an upper bound.
		 */
		if ((m == SIM_M_DSP || m == SIM_M_BRAM18K || m == SIM_M_URAM ||
		     m == SIM_M_LUT || m == SIM_M_FF) &&
		    isfinite(opt->constraints[i].max)) {
			run->prune[run->n_prune].metric = m;
			run->prune[run->n_prune].max = opt->constraints[i].max;
			run->n_prune++;
		}
	}
	if (run->n_prune && !bound_pays(run))
		run->n_prune = 0;
}

/* The least share of a sample's legal points that the bound of a single
 * point must skip for the sweep to check every point's bound before
 * evaluating it.
 */
#define LEAF_MIN_SHARE 0.3

/* The most points the reference's refinement evaluates, as a multiple
 * of the sample (see refine_reference).
 */
#define REFINE_BUDGET 4

/* The indices the reference has evaluated, sorted, so that the refinement
 * evaluates each point once.
 */
struct seen {
	uint64_t *idx;
	size_t n, cap;
};

/* Inserts "idx"; 0 when it was there already, 1 when new, -1 on memory
 * exhaustion.
 */
static int seen_add(struct seen *s, uint64_t idx)
{
	size_t lo = 0, hi = s->n, mid;
	uint64_t *grown;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->idx[mid] < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->n && s->idx[lo] == idx)
		return 0;
	if (s->n == s->cap) {
		grown = realloc(s->idx, sizeof(*grown) * (s->cap ?
			2 * s->cap : 1024));
		if (!grown)
			return -1;
		s->idx = grown;
		s->cap = s->cap ? 2 * s->cap : 1024;
	}
	memmove(s->idx + lo + 1, s->idx + lo, (s->n - lo) * sizeof(*s->idx));
	s->idx[lo] = idx;
	s->n++;
	return 1;
}

/* Evaluates the point of index "idx" for the pruner's reference, once,
 * and adds it to "ref" when it is legal and feasible.  Returns 1 when the
 * reference kept it, 0 when not (or it was seen before), -1 on memory
 * exhaustion.
 */
static int reference_point(struct run *run, uint64_t idx, struct seen *seen,
	search_front *ref)
{
	search_point p;
	int fresh = seen_add(seen, idx);

	if (fresh <= 0)
		return fresh;
	memset(&p, 0, sizeof(p));
	search_space_decode(run->space, idx, p.knobs);
	run->ev.eval(run->ev.model, p.knobs, &p.metrics);
	run->pilot++;
	p.index = idx;
	if (p.metrics.status != SIM_OK || !search__feasible(run->opt,
			&p.metrics))
		return 0;
	return search_front_add(ref, &p);
}

/* Improves the reference by a local search that every rank runs alike:
 * each round evaluates the neighbours of the reference's points (one knob
 * one step up or down its list) not evaluated before, and the search
 * stops when a round adds nothing to the reference or the budget is
 * spent.  The sample alone leaves the reference far from the front, and
 * a bound only skips what the reference beats.  -1 on memory exhaustion.
 */
static int refine_reference(struct run *run, struct seen *seen,
	search_front *ref)
{
	int n = search_space_n_knobs(run->space), k, r = 0, added = 1;
	uint64_t stride[SEARCH_MAX_KNOBS], *idx = NULL, *grown;
	uint64_t budget = run->pilot * (REFINE_BUDGET + 1);
	size_t i, m;
	int digit[SEARCH_MAX_KNOBS];

	for (stride[n - 1] = 1, k = n - 1; k > 0; k--)
		stride[k - 1] = stride[k] *
			(uint64_t) search_space_knob_size(run->space, k);
	while (added && r >= 0 && run->pilot < budget) {
		m = search_front_size(ref);
		grown = realloc(idx, sizeof(*idx) * (m ? m : 1));
		if (!grown) {
			r = -1;
			break;
		}
		idx = grown;
		for (i = 0; i < m; i++)
			idx[i] = search_front_at(ref, i)->index;
		for (added = 0, i = 0; i < m && r >= 0; i++) {
			search__space_digits(run->space, idx[i], digit);
			for (k = 0; k < n && r >= 0; k++) {
				if (digit[k] > 0) {
					r = reference_point(run,
						idx[i] - stride[k], seen, ref);
					added += r > 0;
				}
				if (r >= 0 && digit[k] + 1 <
				    search_space_knob_size(run->space, k)) {
					r = reference_point(run,
						idx[i] + stride[k], seen, ref);
					added += r > 0;
				}
			}
		}
	}
	free(idx);
	return r < 0 ? -1 : 0;
}

/* Whether checking every single point's bound pays: it costs about half
 * an evaluation, so it must skip enough of a sample's legal points.
 */
static int leaves_pay(const struct run *run)
{
	uint64_t step = run->total / BOUND_TRIAL, i, legal = 0, skip = 0;
	int32_t knobs[SEARCH_MAX_KNOBS];
	int st, n = search_space_n_knobs(run->space);

	if (step == 0)
		step = 1;
	for (i = 0; i < run->total && i / step < BOUND_TRIAL; i += step) {
		search_space_decode(run->space, i, knobs);
		if (run->ev.prefix_status(run->ev.model, knobs, n) != SIM_OK)
			continue;
		legal++;
		skip += search__pruner_node(run->pr, knobs, n, i, &st) !=
			SEARCH__KEEP;
	}
	return legal && (double) skip >= LEAF_MIN_SHARE * (double) legal;
}

/* Sets up pruning by bounds (opt->prune): the reference is the front of
 * BOUND_TRIAL points spread evenly over the index range, refined by a
 * local search, evaluated here the same way on every rank so that every
 * rank skips the same points.  Without a pruner (pruning off, or memory
 * short) the sweep looks at every point.
 */
static void setup_pruner(struct run *run)
{
	uint64_t step = run->total / BOUND_TRIAL, i;
	search_front *ref;
	struct seen seen = { NULL, 0, 0 };
	int failed = 0;

	run->pr = search__pruner_alloc(run->space, &run->ev, run->opt);
	ref = run->pr ? search_front_alloc(run->opt->n_obj,
		run->opt->objectives) : NULL;
	if (!ref) {
		run->pr = search__pruner_free(run->pr);
		return;
	}
	if (step == 0)
		step = 1;
	for (i = 0; i < run->total && i / step < BOUND_TRIAL && !failed;
			i += step)
		failed = reference_point(run, i, &seen, ref) < 0;
	if (failed || refine_reference(run, &seen, ref) < 0 ||
	    search__pruner_set_reference(run->pr, ref) < 0)
		run->pr = search__pruner_free(run->pr);
	if (run->pr)
		search__pruner_set_leaves(run->pr, run->opt->prune == 2 ||
			leaves_pay(run));
	search_front_free(ref);
	free(seen.idx);
}

/* The bound of "knobs": 1 when it already breaks a constraint (the point
 * is pruned), 0 when the point must be evaluated.  The bound also gives
 * the status the model would, so an illegal point is settled here: it is
 * counted as evaluated, with its status, and 2 is returned.
 */
static int check_bound(const struct run *run, const int32_t *knobs,
	struct worker *w)
{
	int status;

	if (over_bound(run, knobs, &status)) {
		w->t[T_PRUNED]++;
		w->t[T_OVER]++;
		return 1;
	}
	if (status != SIM_OK) {
		w->t[T_EVALUATED]++;
		w->t[T_STATUS + status]++;
		return 2;
	}
	return 0;
}

/* Evaluates the point of index "idx" (its knobs in p) into the worker's
 * counters, cloud and front.  -1 on memory exhaustion.
 */
static int evaluate(const struct run *run, uint64_t idx, search_point *p,
	struct worker *w)
{
	run->ev.eval(run->ev.model, p->knobs, &p->metrics);
	w->t[T_EVALUATED]++;
	w->t[T_MODELLED]++;
	if (p->metrics.status != SIM_OK) {
		w->t[T_STATUS + p->metrics.status]++;
		return 0;
	}
	p->index = idx;
	p->cycles_low = p->cycles_high = (double) p->metrics.cycles;
	if (w->cloud && search_cloud_add(w->cloud, p) < 0)
		return -1;
	if (!search__feasible(run->opt, &p->metrics)) {
		w->t[T_OVER]++;
		return 0;
	}
	w->t[T_VALID]++;
	return search_front_add(w->front, p) < 0 ? -1 : 0;
}

/* A node's verdict on the worker's counters: "n" points settled with
 * "status", or skipped by a bound.
 */
static void count_node(int verdict, int status, uint64_t n,
	struct worker *w)
{
	if (verdict == SEARCH__SETTLED) {
		w->t[T_EVALUATED] += n;
		w->t[T_STATUS + status] += n;
		return;
	}
	w->t[T_PRUNED] += n;
	if (verdict == SEARCH__BEATEN)
		w->t[T_BEATEN] += n;
}

/* Moves the odometer (digits and knob values) past the node of "depth"
 * that holds it: the digits from "depth" on go to 0 and the one before
 * counts up, carrying.  Returns the first depth whose nodes start at the
 * new index (the position after the digit that counted up), 0 after the
 * last index.
 */
static int skip_node(const search_space *space, int depth, int *digit,
	int32_t *knobs)
{
	int k, n = search_space_n_knobs(space);

	for (k = depth; k < n; k++) {
		digit[k] = 0;
		knobs[k] = search__space_value(space, k, 0);
	}
	for (k = depth - 1; k >= 0; k--) {
		if (++digit[k] < search_space_knob_size(space, k)) {
			knobs[k] = search__space_value(space, k, digit[k]);
			return k + 1;
		}
		digit[k] = 0;
		knobs[k] = search__space_value(space, k, 0);
	}
	return 0;
}

/* Sweeps [start, end) with the pruner: at each index, the nodes that
 * start there (all of them at the block's first index, whose nodes may
 * have started before it) are checked from the shallowest; a node
 * settled or skipped is passed over whole, within the block.  Points
 * that survive every check are evaluated.
 */
static int sweep_pruned(const struct run *run, uint64_t start, uint64_t end,
	struct worker *w)
{
	const search__pruner *pr = run->pr;
	int digit[SEARCH_MAX_KNOBS], n = search_space_n_knobs(run->space);
	int from = 1, d, verdict = SEARCH__KEEP, status, k;
	uint64_t idx = start, size, first, stop;
	search_point p;

	memset(&p, 0, sizeof(p));
	search__space_digits(run->space, start, digit);
	for (k = 0; k < n; k++)
		p.knobs[k] = search__space_value(run->space, k, digit[k]);
	while (idx < end) {
		for (d = from; d <= n; d++) {
			if (!search__pruner_checks(pr, d))
				continue;
			size = search__pruner_node_size(pr, d);
			first = idx - idx % size;
			verdict = search__pruner_node(pr, p.knobs, d, first,
				&status);
			if (verdict != SEARCH__KEEP)
				break;
		}
		if (d > n) {
			d = n;
			verdict = SEARCH__KEEP;
			if (!(run->n_prune && check_bound(run, p.knobs, w)) &&
			    evaluate(run, idx, &p, w) < 0)
				return -1;
		}
		stop = idx - idx % search__pruner_node_size(pr, d) +
			search__pruner_node_size(pr, d);
		stop = stop < end ? stop : end;
		if (verdict != SEARCH__KEEP)
			count_node(verdict, status, stop - idx, w);
		idx = stop;
		if (idx < end)
			from = skip_node(run->space, d, digit, p.knobs);
	}
	return 0;
}

/* Sweeps the indices [start, end) into the worker's front and cloud. */
static int sweep_block(const struct run *run, uint64_t start, uint64_t end,
	struct worker *w)
{
	int digit[SEARCH_MAX_KNOBS];
	search_point p;
	uint64_t idx;
	int k, n = search_space_n_knobs(run->space);

	if (run->pr)
		return sweep_pruned(run, start, end, w);
	memset(&p, 0, sizeof(p));
	search__space_digits(run->space, start, digit);
	for (k = 0; k < n; k++)
		p.knobs[k] = search__space_value(run->space, k, digit[k]);
	for (idx = start; idx < end;
			idx++, search__space_next(run->space, digit, p.knobs)) {
		if (run->n_prune && check_bound(run, p.knobs, w))
			continue;
		if (evaluate(run, idx, &p, w) < 0)
			return -1;
	}
	return 0;
}

/* Thread 0: the next k blocks for this rank, relative to the epoch's
 * start: from the dealer, or by index (this rank's own, the ones
 * congruent to its rank, in turn) when opt->deal_by_index asks for it.
 * Returns -1 when the dealer failed.
 */
static int next_blocks(struct run *run, uint64_t k, uint64_t *first,
	uint64_t *stride)
{
	if (run->opt->deal_by_index) {
		*stride = (uint64_t) run->size;
		*first = (uint64_t) run->rank + run->q.own * *stride;
		run->q.own += k;
		return 0;
	}
	*stride = 1;
	if (search__dealer_add(run->dealer, k, first, &run->deal_err))
		return -1;
	*first -= run->deal_base;
	return 0;
}

/* Thread 0: fetches blocks of the epoch's "nb" until the queue holds
 * "low" of them or the epoch has none left.  A rank's queue is short (a
 * block or two per thread) so that at the end of the epoch no rank holds
 * blocks the others could have swept.
 */
static void refill(struct run *run, uint64_t nb, int low)
{
	uint64_t k = (uint64_t) run->nt, first, stride, i, j;
	int more;

	for (;;) {
		#pragma omp critical(search_blocks)
		more = !run->q.done && run->q.n < low;
		if (!more)
			return;
		if (next_blocks(run, k, &first, &stride) < 0) {
			#pragma omp critical(search_blocks)
			run->q.done = run->q.failed = 1;
			return;
		}
		#pragma omp critical(search_blocks)
		{
			for (i = 0; i < k && (j = first + i * stride) < nb;
					i++) {
				run->q.ring[(run->q.head + run->q.n) %
					run->q.cap] = j;
				run->q.n++;
			}
			run->q.done = first + k * stride >= nb;
		}
	}
}

/* Takes a block: 1 with its number in *b, 0 when the queue is empty for
 * now, -1 when it is empty for good (the epoch is swept).
 */
static int take(struct run *run, uint64_t *b)
{
	int got;

	#pragma omp critical(search_blocks)
	{
		got = run->q.n > 0 ? 1 : run->q.done ? -1 : 0;
		if (got == 1) {
			*b = run->q.ring[run->q.head];
			run->q.head = (run->q.head + 1) % run->q.cap;
			run->q.n--;
		}
	}
	return got;
}

/* A thread with nothing to do until thread 0 fetches more: yields its
 * core at first, then sleeps briefly, so that on a machine with more
 * threads than cores the waiting threads do not slow the working ones.
 */
static void pause_thread(int *spins)
{
	struct timespec ts = { 0, 20000 };

	if (++*spins < 64)
		sched_yield();
	else
		nanosleep(&ts, NULL);
}

/* Sweeps [start, end): the blocks this rank takes, over its threads.
 * Returns -1 when the dealer failed (its error in run->deal_err).
 */
static int sweep_epoch(struct run *run, uint64_t start, uint64_t end)
{
	uint64_t nb = (end - start + run->block - 1) / run->block;
	int low = run->nt == 1 ? 1 : 2 * run->nt;

	run->q.head = run->q.n = 0;
	run->q.done = run->q.failed = 0;
	run->q.own = 0;
	#pragma omp parallel num_threads(run->nt)
	{
		int tid = omp_get_thread_num(), got, spins = 0;
		struct worker *w = &run->w[tid];
		uint64_t b, s, e;

		for (;;) {
			if (tid == 0)
				refill(run, nb, low);
			got = take(run, &b);
			if (got < 0)
				break;
			if (got == 0) {
				if (tid != 0)
					pause_thread(&spins);
				continue;
			}
			spins = 0;
			s = start + b * run->block;
			e = end - s > run->block ? s + run->block : end;
			if (!w->failed && sweep_block(run, s, e, w) < 0)
				w->failed = 1;
		}
	}
	return run->q.failed ? -1 : 0;
}

dse_stat search__mpi_check(int rc, const char *what, dse_error *err)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (rc == MPI_SUCCESS)
		return dse_stat_ok;
	MPI_Error_string(rc, msg, &len);
	return dse_error_set(err, DSE_E_MPI, "%s failed: %s", what, msg);
}

/* Agrees on success: returns dse_stat_error on every rank when any rank
 * failed, so no rank is left waiting in a later collective.
 */
dse_stat search__agree(dse_stat st, MPI_Comm comm, dse_error *err)
{
	int mine = st != dse_stat_ok, any = 1;

	if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm) !=
			MPI_SUCCESS)
		any = 1;
	if (any && st == dse_stat_ok)
		dse_error_set(err, DSE_E_RUNTIME,
			"the search failed on another rank");
	return any ? dse_stat_error : dse_stat_ok;
}

/* What an epoch gained, on its way up the tree to root: on root the
 * global front, cloud and counters themselves, elsewhere this rank's and
 * its subtree's gains.  "points" counts the front points added, so that
 * root knows whether its front (and the hypervolume) may have changed.
 */
struct gains {
	search_front *front;
	search_cloud *cloud;	/* NULL without a cloud */
	uint64_t *t;		/* T_N counters */
	uint64_t points;
};

/* Adds what this rank's threads gained since "start" to "g": their
 * counters of the epoch, the points of their fronts and clouds with an
 * index in the epoch.  The gain is at least as thin as the thinnest
 * thread front, so that root learns how coarse the front has become.
 * Returns -1 when a thread or the merge ran out of memory.
 */
static int collect_own(struct run *run, uint64_t start, struct gains *g)
{
	int i, k, bad = 0;
	size_t j;

	for (i = 0; !bad && i < run->nt; i++)
		bad = search__front_raise(g->front,
			search__front_level(run->w[i].front)) < 0;
	for (i = 0; i < run->nt; i++) {
		struct worker *w = &run->w[i];

		bad |= w->failed;
		for (k = 0; k < T_N; k++) {
			g->t[k] += w->t[k];
			w->t[k] = 0;
		}
		for (j = 0; !bad && j < search_front_size(w->front); j++) {
			const search_point *p = search_front_at(w->front, j);

			if (p->index < start)
				continue;
			g->points++;
			bad = search_front_add(g->front, p) < 0;
		}
		for (j = 0; !bad && g->cloud &&
				j < search_cloud_size(w->cloud); j++) {
			const search_point *p = search_cloud_at(w->cloud, j);

			bad = p->index >= start &&
				search_cloud_add(g->cloud, p) < 0;
		}
	}
	return bad ? -1 : 0;
}

/* A child's gains (counters, front, cloud) into "g". */
static int absorb_gains(const void *bytes, size_t n, void *user)
{
	struct gains *g = user;
	search__reader rd = { bytes, n, 0, 0 };
	uint64_t t[T_N], before;
	int k;

	if (search__get(&rd, t, sizeof(t)) < 0)
		return -1;
	for (k = 0; k < T_N; k++)
		g->t[k] += t[k];
	before = rd.off;
	if (search__get_front(&rd, g->front) < 0)
		return -1;
	/* Any point received may have changed the front. */
	g->points += rd.off - before > 2 * sizeof(uint64_t);
	if (g->cloud)
		return search__get_cloud(&rd, g->cloud);
	return 0;
}

static int pack_gains(search__buf *out, void *user)
{
	const struct gains *g = user;

	search__put(out, g->t, sizeof(uint64_t) * T_N);
	search__put_front(out, g->front);
	if (g->cloud)
		search__put_cloud(out, g->cloud);
	return out->failed ? -1 : 0;
}

/* Every thread learns root's cloud ceiling "c": points above it can
 * never make the merged cloud, so threads need not keep them.
 */
static void set_ceiling(struct run *run, uint64_t c)
{
	int i;

	run->ceiling = c;
	for (i = 0; run->opt->cloud_max && i < run->nt; i++)
		search__cloud_set_ceiling(run->w[i].cloud, c);
}

/* Sends every rank's gains of the epoch that began at "start" up the tree
 * to root, which merges them into its front, cloud and counters.
 * Collective, but the result is this rank's own: the caller agrees on it
 * (at the next synchronisation).
 */
static dse_stat gather_gains(struct run *run, uint64_t start, MPI_Comm comm,
	dse_error *err)
{
	uint64_t t[T_N] = { 0 };
	struct gains g = { NULL, NULL, t, 0 };
	int bad = 0;
	dse_stat st;

	if (run->rank == 0) {
		g.front = run->front;
		g.cloud = run->cloud;
		g.t = run->sum;
	} else {
		g.front = search__alloc_front(run->opt);
		g.cloud = run->opt->cloud_max ?
			search_cloud_alloc(run->opt->cloud_max) : NULL;
		bad = !g.front || (run->opt->cloud_max && !g.cloud);
		if (!bad && g.cloud)
			search__cloud_set_ceiling(g.cloud, run->ceiling);
	}
	bad = bad || collect_own(run, start, &g) < 0;
	if (bad)
		dse_error_set(err, DSE_E_NOMEM, "out of memory while sweeping "
			"on rank %d", run->rank);
	st = search__tree_reduce(comm, SEARCH__TAG_GAINS, bad, absorb_gains,
		pack_gains, &g, err);
	if (run->rank == 0) {
		run->front_changed |= g.points > 0;
	} else {
		search_front_free(g.front);
		search_cloud_free(g.cloud);
	}
	return st;
}

/* Root: fixes the hypervolume's reference point at the first front that
 * gives a usable one: each objective's worst value times 2.
 */
static void fix_reference(struct run *run)
{
	size_t i, n = search_front_size(run->front);
	int j;

	if (run->have_ref || n == 0)
		return;
	for (j = 0; j < run->opt->n_obj; j++) {
		double worst = 0;

		for (i = 0; i < n; i++) {
			double v = search_objective_value(run->front,
				search_front_at(run->front, i), j);

			worst = v > worst ? v : worst;
		}
		if (!(worst > 0) || !isfinite(worst))
			return;
		run->ref[j] = 2 * worst;
	}
	run->have_ref = 1;
}

/* Root: the progress report of a synchronisation, when one is due. */
static void report(struct run *run, int final)
{
	static const double lo[SEARCH_MAX_OBJECTIVES] = { 0 };
	search_progress pr;
	double now = MPI_Wtime();

	if (!run->opt->progress || run->rank != 0)
		return;
	if (!final && now < run->next_report)
		return;
	run->next_report = now + run->opt->progress_interval;
	if (run->have_ref && run->front_changed) {
		run->hv = search_front_hypervolume(run->front, lo, run->ref);
		run->front_changed = 0;
	}
	memset(&pr, 0, sizeof(pr));
	pr.stage = 1;
	/* Pruned points are done too: the count reaches the total. */
	pr.evaluated = run->sum[T_EVALUATED] + run->sum[T_PRUNED];
	pr.valid = run->sum[T_VALID];
	pr.total = run->total;
	pr.front_size = search_front_size(run->front);
	pr.seconds = search__clock_seconds(&run->clock);
	pr.strategy = SEARCH_EXHAUSTIVE;
	pr.hypervolume = run->hv;
	pr.generation = 0;
	run->opt->progress(&pr, run->opt->progress_user);
}

/* Root: the blocks of the next epoch, from the rate of the last one (of
 * "blocks" blocks).
 */
static uint64_t next_epoch(struct run *run, uint64_t blocks)
{
	double now = MPI_Wtime(), dt = now - run->epoch_t0, want;

	run->epoch_t0 = now;
	want = dt > 0 ? (double) blocks * EPOCH_SECONDS / dt :
		(double) blocks * EPOCH_GROWTH;
	if (want > (double) blocks * EPOCH_GROWTH)
		want = (double) blocks * EPOCH_GROWTH;
	if (want > (double) (run->total / run->block + 1))
		want = (double) (run->total / run->block + 1);
	/* At least a block for every thread of every rank. */
	return want > (double) run->lanes ? (uint64_t) want : run->lanes;
}

/* The plain front of root's band (the front itself for a one-stage
 * search), for the user: a band's extra points are not a front.
 */
static search_front *plain_front(const struct run *run)
{
	search_front *f;

	if (run->opt->model != SIM_MODEL_SAMPLED)
		return run->front;
	f = search_front_alloc(run->opt->n_obj, run->opt->objectives);
	if (f && search_front_merge(f, run->front, NULL) != dse_stat_ok)
		f = search_front_free(f);
	return f;
}

/* Root: frames the state (next index, counters, search seconds, front,
 * cloud) and hands it to opt->checkpoint.
 */
static dse_stat write_checkpoint(struct run *run, int final, dse_error *err)
{
	search__buf payload = { 0 }, state = { 0 };
	search_checkpoint cp;
	search_front *plain;
	dse_stat st;

	memset(&cp, 0, sizeof(cp));
	cp.seconds = search__clock_seconds(&run->clock);
	search__put_u64(&payload, run->pos);
	search__put(&payload, run->sum, sizeof(run->sum));
	search__put_f64(&payload, cp.seconds);
	search__put_front(&payload, run->front);
	search__put_cloud(&payload, run->cloud);
	st = search__state_frame(run->space, run->opt, &payload, &state, err);
	search__buf_clear(&payload);
	plain = plain_front(run);
	if (st == dse_stat_ok && !plain)
		st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	if (st == dse_stat_ok) {
		search_front_sort(plain);
		cp.state = state.p;
		cp.size = state.n;
		cp.front = plain;
		cp.evaluated = run->sum[T_EVALUATED] + run->sum[T_PRUNED];
		cp.valid = run->sum[T_VALID];
		cp.total = run->total;
		cp.final = final;
		st = run->opt->checkpoint(&cp, run->opt->checkpoint_user, err);
	}
	if (plain != run->front)
		search_front_free(plain);
	search__buf_clear(&state);
	return st;
}

/* Reads a resumed state: every rank its position and search seconds,
 * root also the counters, front and cloud.
 */
static dse_stat resume(struct run *run, double *before, dse_error *err)
{
	search__reader rd;
	uint64_t sum[T_N];
	int ok;

	if (search__state_open(run->space, run->opt, run->opt->resume,
			run->opt->resume_size, &rd, err))
		return dse_stat_error;
	ok = search__get_u64(&rd, &run->pos) == 0 &&
		search__get(&rd, sum, sizeof(sum)) == 0 &&
		search__get_f64(&rd, before) == 0 && run->pos <= run->total;
	if (ok && run->rank == 0) {
		memcpy(run->sum, sum, sizeof(sum));
		if (search__get_front(&rd, run->front) < 0 ||
		    search__get_cloud(&rd, run->cloud) < 0 ||
		    rd.off != rd.n)
			ok = 0;
		run->front_changed = 1;
	}
	if (!ok)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"corrupt: its sweep state does not read back");
	return dse_stat_ok;
}

/* The sweep from run->pos on, epoch by epoch.  *stopped: search__sync's
 * stop decision (0 when the sweep ran to the end).  Collective.
 */
static dse_stat sweep(struct run *run, MPI_Comm comm, int *stopped,
	dse_error *err)
{
	uint64_t epoch = 2 * run->lanes, start, rem, end, v[3] = { 0, 0, 0 };
	int stop = 0, ckpt = 0;
	dse_stat st;
	int dealt;

	*stopped = 0;
	run->epoch_t0 = MPI_Wtime();
	while (run->pos < run->total) {
		start = run->pos;
		rem = run->total - start;
		end = epoch > rem / run->block ? run->total :
			start + epoch * run->block;
		dealt = sweep_epoch(run, start, end);
		st = gather_gains(run, start, comm, err);
		if (dealt < 0 && st == dse_stat_ok) {
			if (err)
				*err = run->deal_err;
			st = dse_stat_error;
		}
		run->pos = end;
		if (run->pos == run->total)
			return search__agree(st, comm, err);
		/* Every rank has sent its gains, so none is fetching blocks
		 * any more: the count root reads now is where the next epoch's
		 * blocks begin.
		 */
		if (run->rank == 0 && st == dse_stat_ok) {
			fix_reference(run);
			report(run, 0);
			v[0] = next_epoch(run, epoch);
			v[1] = search__cloud_ceiling(run->cloud);
			st = search__dealer_add(run->dealer, 0, &v[2], err);
		}
		/* One collective: the stop and checkpoint decisions, whether
		 * every rank is well, the next epoch, the cloud ceiling and
		 * the dealer's count.
		 */
		if (search__sync_value(&run->clock, run->opt, comm, st, &stop,
				&ckpt, v, 3, err))
			return dse_stat_error;
		epoch = v[0];
		set_ceiling(run, v[1]);
		run->deal_base = v[2];
		/* A spent budget ends the search here: its result is final,
		 * so it needs no checkpoint.
		 */
		if (ckpt && stop != 2) {
			double t = MPI_Wtime();

			st = run->rank == 0 ?
				write_checkpoint(run, stop == 1, err) :
				dse_stat_ok;
			if (run->rank == 0)
				search__clock_checkpointed(&run->clock, run->opt,
					t);
			if (search__agree(st, comm, err))
				return dse_stat_error;
			/* The next epoch is sized from the sweep's own rate:
			 * a slow checkpoint must not shrink it (on a slow
			 * disk, epochs of a block per thread crawled).
			 */
			run->epoch_t0 = MPI_Wtime();
		}
		if (stop) {
			*stopped = stop;
			break;
		}
	}
	return dse_stat_ok;
}

/* Allocates the workers, and root's front and cloud. */
static dse_stat setup(struct run *run, dse_error *err)
{
	const search_options *opt = run->opt;
	int i, bad = 0;

	run->nt = omp_get_max_threads();
	run->w = calloc(run->nt, sizeof(*run->w));
	/* Fetches of nt blocks while fewer than 2 nt wait: at most 3 nt. */
	run->q.cap = 3 * run->nt + 1;
	run->q.ring = calloc(run->q.cap, sizeof(*run->q.ring));
	run->ceiling = UINT64_MAX;
	if (!run->w || !run->q.ring)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	for (i = 0; i < run->nt; i++) {
		run->w[i].front = search__alloc_front(opt);
		run->w[i].cloud = opt->cloud_max ?
			search_cloud_alloc(opt->cloud_max) : NULL;
		bad |= !run->w[i].front || (opt->cloud_max && !run->w[i].cloud);
	}
	if (run->rank == 0) {
		run->front = search__alloc_front(opt);
		run->cloud = opt->cloud_max ?
			search_cloud_alloc(opt->cloud_max) : NULL;
		bad |= !run->front || (opt->cloud_max && !run->cloud);
	}
	run->hv = NAN;
	return bad ? dse_error_set(err, DSE_E_NOMEM, "out of memory") :
		dse_stat_ok;
}

static void teardown(struct run *run)
{
	int i;

	for (i = 0; run->w && i < run->nt; i++) {
		search_front_free(run->w[i].front);
		search_cloud_free(run->w[i].cloud);
	}
	free(run->w);
	run->w = NULL;
	free(run->q.ring);
	run->q.ring = NULL;
	/* Collective: every rank tears down, failed or not. */
	run->dealer = search__dealer_free(run->dealer);
	run->pr = search__pruner_free(run->pr);
	run->front = search_front_free(run->front);
	run->cloud = search_cloud_free(run->cloud);
}

/* Every rank learns the most threads any rank has: the first epoch and
 * the smallest give every thread a block.  Collective.
 */
static dse_stat count_lanes(struct run *run, MPI_Comm comm, dse_error *err)
{
	int most = 0;

	if (search__mpi_check(MPI_Allreduce(&run->nt, &most, 1, MPI_INT,
			MPI_MAX, comm), "MPI_Allreduce of thread counts", err))
		return dse_stat_error;
	run->lanes = (uint64_t) run->size * (uint64_t) most;
	return dse_stat_ok;
}

/* Checks the options and fills the run's constants. */
static dse_stat prepare(struct run *run, const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	dse_error *err)
{
	run->space = space;
	run->ev = *ev;
	run->opt = opt;
	if (search__mpi_check(MPI_Comm_rank(comm, &run->rank),
			"MPI_Comm_rank", err) ||
	    search__mpi_check(MPI_Comm_size(comm, &run->size),
			"MPI_Comm_size", err))
		return dse_stat_error;
	run->total = search_space_size(space);
	run->block = opt->block ? opt->block : DEFAULT_BLOCK;
	if (run->total == UINT64_MAX)
		return dse_error_set(err, DSE_E_INPUT,
			"the space has more than 2^64 points");
	if (opt->model != SIM_MODEL_ANALYTIC &&
	    opt->model != SIM_MODEL_SAMPLED)
		return dse_error_set(err, DSE_E_INPUT, "the search re-evaluates "
			"with the analytic or the sampled model only");
	setup_prune(run);
	setup_pruner(run);
	return dse_stat_ok;
}

/* Every rank's result from root's counters, front and cloud, after the
 * sweep.  Collective.
 */
static dse_stat finish(struct run *run, int stopped, MPI_Comm comm,
	search_result *result, dse_error *err)
{
	dse_stat st = dse_stat_ok;
	int s;

	if (run->rank == 0) {
		search_front_sort(run->front);
		fix_reference(run);
		report(run, 1);
	}
	if (search__agree(search__mpi_check(MPI_Bcast(run->sum, T_N,
			MPI_UINT64_T, 0, comm), "MPI_Bcast of counters", err),
			comm, err))
		return dse_stat_error;
	result->evaluated = run->sum[T_EVALUATED];
	result->valid = run->sum[T_VALID];
	result->over_constraint = run->sum[T_OVER];
	result->pruned = run->sum[T_PRUNED];
	result->pruned_beaten = run->sum[T_BEATEN];
	/* The sample every rank evaluated for the pruner counts once. */
	result->modelled = run->sum[T_MODELLED] + run->pilot;
	for (s = 0; s < SIM_N_STATUS; s++)
		result->status_count[s] = run->sum[T_STATUS + s];
	result->interrupted = stopped == 1;
	if (stopped == 1 && run->rank == 0 &&
	    run->opt->model == SIM_MODEL_SAMPLED) {
		/* An interrupted two-stage search skips the second stage
		 * (the resumed one runs it): its front is the analytic one.
		 */
		search_front *plain = plain_front(run);

		if (!plain)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
		search_front_free(run->front);
		run->front = plain;
	} else if (stopped != 1 && run->opt->model == SIM_MODEL_SAMPLED) {
		st = search__second_stage(&run->front, &run->ev, run->opt, comm,
			result, err);
	}
	if (st != dse_stat_ok)
		return dse_stat_error;
	if (run->rank == 0) {
		search_front_sort(run->front);
		result->front = run->front;
		run->front = NULL;
		if (run->cloud)
			search_cloud_sort(run->cloud);
		result->cloud = run->cloud;
		run->cloud = NULL;
	}
	return dse_stat_ok;
}

dse_stat search__second_stage(search_front **front,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err)
{
	size_t max = opt->band_max ? opt->band_max : SEARCH_DEFAULT_BAND_MAX;
	size_t cut = 0;
	search_front *out = search_front_alloc(opt->n_obj, opt->objectives);
	dse_stat st = out ? dse_stat_ok :
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
	int rank = 0;

	if (st == dse_stat_ok)
		st = search__mpi_check(MPI_Comm_rank(comm, &rank),
			"MPI_Comm_rank", err);
	if (st == dse_stat_ok && rank == 0) {
		result->band_points = search_front_size(*front);
		/* The re-ranked front is as coarse as the band it comes
		 * from.
		 */
		if (search__front_cut(*front, max, &cut) < 0 ||
		    search__front_raise(out, search__front_level(*front)) < 0)
			st = dse_error_set(err, DSE_E_NOMEM,
				"out of memory cutting the band");
		result->band_cut = cut;
	}
	if (search__agree(st, comm, err) != dse_stat_ok) {
		search_front_free(out);
		return dse_stat_error;
	}
	st = search__resimulate(*front, out, ev, opt, comm, result, err);
	if (st != dse_stat_ok) {
		search_front_free(out);
		return st;
	}
	search_front_free(*front);
	*front = out;
	return dse_stat_ok;
}

static void eval_sim(const void *model, const int32_t *knobs,
	sim_metrics *out)
{
	sim_eval(model, knobs, out);
}

static dse_stat simulate_sim(const void *model, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	return sim_simulate(model, knobs, kind, opt, out, err);
}

static void bound_sim(const void *model, const int32_t *knobs,
	sim_metrics *lower)
{
	sim_bound(model, knobs, lower);
}

static int prefix_sim(const void *model, const int32_t *knobs, int n)
{
	return sim_prefix_status(model, knobs, n);
}

static void box_sim(const void *model, const int32_t *lo, const int32_t *hi,
	sim_metrics *best)
{
	sim_bound_box(model, lo, hi, best);
}

search_evaluator search_evaluator_sim(const sim_model *model)
{
	search_evaluator ev = { model, eval_sim, simulate_sim, bound_sim,
		prefix_sim, box_sim, NULL };

	return ev;
}

dse_stat search_exhaustive(const search_space *space, const sim_model *model,
	const search_options *opt, MPI_Comm comm, search_result *result,
	dse_error *err)
{
	search_evaluator ev = search_evaluator_sim(model);

	return search_exhaustive_with(space, &ev, opt, comm, result, err);
}

dse_stat search_exhaustive_with(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err)
{
	struct run run;
	double before = 0;
	int stopped = 0;
	dse_stat st;

	memset(result, 0, sizeof(*result));
	memset(&run, 0, sizeof(run));
	result->strategy = SEARCH_EXHAUSTIVE;
	if (prepare(&run, space, ev, opt, comm, err))
		return dse_stat_error;
	st = search__agree(setup(&run, err), comm, err);
	if (st == dse_stat_ok)
		st = count_lanes(&run, comm, err);
	if (st == dse_stat_ok) {
		run.dealer = search__dealer_alloc(comm, err);
		st = run.dealer ? dse_stat_ok : dse_stat_error;
	}
	if (st == dse_stat_ok && opt->resume) {
		st = search__agree(resume(&run, &before, err), comm, err);
		result->resumed = 1;
	}
	/* Start the clock together, so the time measures the sweep. */
	if (st == dse_stat_ok)
		st = search__mpi_check(MPI_Barrier(comm), "MPI_Barrier", err);
	if (st == dse_stat_ok) {
		search__clock_start(&run.clock, opt, before);
		run.next_report = MPI_Wtime() + opt->progress_interval;
		st = sweep(&run, comm, &stopped, err);
	}
	result->threads = run.nt;
	result->seconds = search__clock_seconds(&run.clock);
	if (st == dse_stat_ok)
		st = finish(&run, stopped, comm, result, err);
	teardown(&run);
	if (st != dse_stat_ok) {
		result->front = search_front_free(result->front);
		result->cloud = search_cloud_free(result->cloud);
	}
	return st;
}
