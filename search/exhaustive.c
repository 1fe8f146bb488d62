/* Exhaustive search over MPI ranks and OpenMP threads.
 *
 * The index range is cut into blocks.  Block b belongs to rank b mod P, so
 * every rank gets an even mix of the whole space (cheap illegal corners and
 * expensive legal regions alike) without any communication during the
 * sweep; inside a rank, threads take the rank's blocks dynamically.  Each
 * thread keeps its own front; fronts are merged thread -> rank -> root.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "search_private.h"

#define DEFAULT_BLOCK 4096

/* What one thread accumulates while it sweeps. */
struct tally {
	uint64_t evaluated;
	uint64_t valid;
	uint64_t over;
	uint64_t status[SIM_N_STATUS];
};

struct run {
	const search_space *space;
	search_evaluator ev;
	const search_options *opt;
	int rank;
	int size;
	uint64_t total;
	uint64_t block;
	uint64_t my_blocks;
	double t0;
	double next_report;
	uint64_t done;		/* points finished on this rank (atomic) */
	uint64_t done_valid;	/* legal and feasible (atomic) */
	uint64_t final_valid;	/* the global count, for the last report */
	int failed;		/* a thread ran out of memory (atomic) */
	int n_threads;
	size_t *front_size;	/* each thread's front size (atomic) */
};

int search__feasible(const search_options *opt, const sim_metrics *m)
{
	int i;

	for (i = 0; i < opt->n_constraints; i++)
		if (sim_metrics_get(m, opt->constraints[i].metric) >
				opt->constraints[i].max)
			return 0;
	return 1;
}

/* Sweeps the indices [start, end) into "front" and "t". */
static int sweep_block(struct run *run, uint64_t start, uint64_t end,
	search_front *front, struct tally *t)
{
	int digit[SEARCH_MAX_KNOBS];
	search_point p;
	uint64_t idx;
	int k, n = search_space_n_knobs(run->space);

	memset(&p, 0, sizeof(p));
	search__space_digits(run->space, start, digit);
	for (k = 0; k < n; k++)
		p.knobs[k] = search__space_value(run->space, k, digit[k]);
	for (idx = start; idx < end; idx++) {
		run->ev.eval(run->ev.model, p.knobs, &p.metrics);
		t->evaluated++;
		if (p.metrics.status != SIM_OK) {
			t->status[p.metrics.status]++;
		} else if (!search__feasible(run->opt, &p.metrics)) {
			t->over++;
		} else {
			t->valid++;
			p.index = idx;
			p.cycles_low = p.cycles_high = (double) p.metrics.cycles;
			if (search_front_add(front, &p) < 0)
				return -1;
		}
		search__space_next(run->space, digit, p.knobs);
	}
	return 0;
}

/* The largest thread front on this rank: the merged front is not known
 * until the end, and this is a good guide to its size.
 */
static size_t largest_front(const struct run *run)
{
	size_t best = 0, v;
	int t;

	for (t = 0; t < run->n_threads; t++) {
		v = __atomic_load_n(&run->front_size[t], __ATOMIC_RELAXED);
		best = v > best ? v : best;
	}
	return best;
}

static void report(struct run *run, size_t front_size, int final)
{
	search_progress pr;
	double now = omp_get_wtime();
	uint64_t done;

	if (!run->opt->progress || run->rank != 0)
		return;
	if (!final && now < run->next_report)
		return;
	run->next_report = now + run->opt->progress_interval;
	done = __atomic_load_n(&run->done, __ATOMIC_RELAXED);
	/* Blocks are dealt round-robin, so rank 0's share is a fair sample of
	 * the whole: scale its counts up to estimate the global progress.
	 */
	pr.evaluated = final ? run->total : done * (uint64_t) run->size;
	if (pr.evaluated > run->total)
		pr.evaluated = run->total;
	pr.valid = final ? run->final_valid :
		__atomic_load_n(&run->done_valid, __ATOMIC_RELAXED) *
		(uint64_t) run->size;
	pr.total = run->total;
	pr.stage = 1;
	pr.front_size = front_size;
	pr.seconds = now - run->t0;
	run->opt->progress(&pr, run->opt->progress_user);
}

static void sweep_thread(struct run *run, search_front *front,
	struct tally *t)
{
	uint64_t b;
	int tid = omp_get_thread_num();

	#pragma omp for schedule(dynamic, 1)
	for (b = 0; b < run->my_blocks; b++) {
		uint64_t gb = (uint64_t) run->rank + b * (uint64_t) run->size;
		uint64_t start = gb * run->block;
		uint64_t end = start + run->block;
		uint64_t before = t->evaluated, before_valid = t->valid;

		if (__atomic_load_n(&run->failed, __ATOMIC_RELAXED))
			continue;
		if (end > run->total)
			end = run->total;
		if (sweep_block(run, start, end, front, t) < 0)
			__atomic_store_n(&run->failed, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&run->done, t->evaluated - before,
			__ATOMIC_RELAXED);
		__atomic_add_fetch(&run->done_valid, t->valid - before_valid,
			__ATOMIC_RELAXED);
		__atomic_store_n(&run->front_size[tid],
			search_front_size(front), __ATOMIC_RELAXED);
		if (tid == 0)
			report(run, largest_front(run), 0);
	}
}

/* A thread's or rank's front: the plain front for a one-stage search, the
 * band around it for a two-stage one.
 */
static search_front *alloc_front(const search_options *opt)
{
	return search_front_alloc_band(opt->n_obj, opt->objectives,
		opt->model == SIM_MODEL_SAMPLED ? opt->band : 0.0);
}

/* Runs the threads of this rank and merges their fronts into "front". */
static dse_stat sweep_rank(struct run *run, search_front *front,
	struct tally *sum, int *threads, dse_error *err)
{
	int nt = omp_get_max_threads(), i, s;
	search_front **tf = calloc(nt, sizeof(*tf));
	struct tally *tt = calloc(nt, sizeof(*tt));
	dse_stat st = dse_stat_ok;

	run->n_threads = nt;
	run->front_size = calloc(nt, sizeof(*run->front_size));
	if (!tf || !tt || !run->front_size) {
		free(tf);
		free(tt);
		free(run->front_size);
		run->front_size = NULL;
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	for (i = 0; i < nt; i++)
		tf[i] = alloc_front(run->opt);
	#pragma omp parallel num_threads(nt)
	{
		int tid = omp_get_thread_num();

		if (tf[tid])
			sweep_thread(run, tf[tid], &tt[tid]);
		else
			__atomic_store_n(&run->failed, 1, __ATOMIC_RELAXED);
	}
	*threads = nt;
	for (i = 0; i < nt; i++) {
		sum->evaluated += tt[i].evaluated;
		sum->valid += tt[i].valid;
		sum->over += tt[i].over;
		for (s = 0; s < SIM_N_STATUS; s++)
			sum->status[s] += tt[i].status[s];
		if (st == dse_stat_ok && tf[i])
			st = search_front_merge(front, tf[i], err);
		search_front_free(tf[i]);
	}
	free(tf);
	free(tt);
	free(run->front_size);
	run->front_size = NULL;
	run->n_threads = 0;
	if (st == dse_stat_ok && run->failed)
		st = dse_error_set(err, DSE_E_NOMEM,
			"out of memory while sweeping");
	return st;
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

/* Gathers every rank's front on root and merges them there.  Collective.
 * Ranks agree after every step that can fail locally, so a rank out of
 * memory never leaves the others blocked in the next collective.
 */
static dse_stat gather_fronts(struct run *run, search_front *front,
	MPI_Comm comm, dse_error *err)
{
	size_t n = search_front_size(front), i;
	int count = (int) n, *counts = NULL, *displs = NULL, r;
	search_point *mine = malloc(n ? n * sizeof(*mine) : 1), *all = NULL;
	MPI_Datatype point_type;
	int64_t total = 0;
	dse_stat st = dse_stat_ok;

	if (!mine || n > INT_MAX)
		st = dse_error_set(err, DSE_E_NOMEM,
			"cannot hold a front of %zu points", n);
	for (i = 0; mine && i < n; i++)
		mine[i] = *search_front_at(front, i);
	if (st == dse_stat_ok && run->rank == 0) {
		counts = calloc(run->size, sizeof(int));
		displs = calloc(run->size, sizeof(int));
		if (!counts || !displs)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	if (search__agree(st, comm, err) != dse_stat_ok)
		goto done;
	st = search__mpi_check(MPI_Gather(&count, 1, MPI_INT, counts, 1,
		MPI_INT, 0,
		comm), "MPI_Gather of front sizes", err);
	if (st == dse_stat_ok && run->rank == 0) {
		for (r = 0; r < run->size; r++) {
			displs[r] = (int) total;
			total += counts[r];
		}
		all = total <= INT_MAX ?
			malloc(total ? total * sizeof(*all) : 1) : NULL;
		if (!all)
			st = dse_error_set(err, DSE_E_NOMEM,
				"cannot hold %lld front points on root",
				(long long) total);
	}
	if (search__agree(st, comm, err) != dse_stat_ok)
		goto done;
	/* Every rank runs the same binary, so a point travels as raw bytes. */
	st = search__mpi_check(MPI_Type_contiguous((int) sizeof(search_point),
		MPI_BYTE, &point_type), "MPI_Type_contiguous", err);
	if (st == dse_stat_ok)
		st = search__mpi_check(MPI_Type_commit(&point_type),
			"MPI_Type_commit",
			err);
	if (st == dse_stat_ok) {
		st = search__mpi_check(MPI_Gatherv(mine, count, point_type, all,
			counts, displs, point_type, 0, comm),
			"MPI_Gatherv of fronts", err);
		MPI_Type_free(&point_type);
	}
	/* Root's own points are already in "front"; add the other ranks'. */
	if (st == dse_stat_ok && run->rank == 0 &&
	    search__front_add_many(front, all + counts[0],
			(size_t) (total - counts[0])) < 0)
		st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
done:
	free(mine);
	free(all);
	free(counts);
	free(displs);
	return st;
}

/* Sums the counters over the ranks; every rank gets the totals. */
static dse_stat reduce_tally(struct tally *t, MPI_Comm comm, dse_error *err)
{
	uint64_t in[3 + SIM_N_STATUS], out[3 + SIM_N_STATUS];
	int s;

	in[0] = t->evaluated;
	in[1] = t->valid;
	in[2] = t->over;
	for (s = 0; s < SIM_N_STATUS; s++)
		in[3 + s] = t->status[s];
	if (search__mpi_check(MPI_Allreduce(in, out, 3 + SIM_N_STATUS,
			MPI_UINT64_T,
			MPI_SUM, comm), "MPI_Allreduce of counters", err))
		return dse_stat_error;
	t->evaluated = out[0];
	t->valid = out[1];
	t->over = out[2];
	for (s = 0; s < SIM_N_STATUS; s++)
		t->status[s] = out[3 + s];
	return dse_stat_ok;
}

/* Cuts root's band to opt->band_max points, re-evaluates it with the
 * sampled model and puts the new front in place of the band.  Collective.
 */
static dse_stat second_stage(struct run *run, search_front **front,
	search_result *result, MPI_Comm comm, dse_error *err)
{
	size_t max = run->opt->band_max ? run->opt->band_max :
		SEARCH_DEFAULT_BAND_MAX, cut = 0;
	search_front *out = search_front_alloc(run->opt->n_obj,
		run->opt->objectives);
	dse_stat st = out ? dse_stat_ok :
		dse_error_set(err, DSE_E_NOMEM, "out of memory");

	if (st == dse_stat_ok && run->rank == 0) {
		result->band_points = search_front_size(*front);
		if (search__front_cut(*front, max, &cut) < 0)
			st = dse_error_set(err, DSE_E_NOMEM,
				"out of memory cutting the band");
		result->band_cut = cut;
	}
	if (search__agree(st, comm, err) != dse_stat_ok) {
		search_front_free(out);
		return dse_stat_error;
	}
	st = search__resimulate(*front, out, &run->ev, run->opt, comm,
		result, err);
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

search_evaluator search_evaluator_sim(const sim_model *model)
{
	search_evaluator ev = { model, eval_sim, simulate_sim };

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
	struct tally sum;
	search_front *front;
	dse_stat st;
	int s;

	memset(result, 0, sizeof(*result));
	memset(&run, 0, sizeof(run));
	memset(&sum, 0, sizeof(sum));
	run.space = space;
	run.ev = *ev;
	run.opt = opt;
	if (search__mpi_check(MPI_Comm_rank(comm, &run.rank), "MPI_Comm_rank",
			err) ||
	    search__mpi_check(MPI_Comm_size(comm, &run.size), "MPI_Comm_size",
			err))
		return dse_stat_error;
	run.total = search_space_size(space);
	run.block = opt->block ? opt->block : DEFAULT_BLOCK;
	if (run.total == UINT64_MAX)
		return dse_error_set(err, DSE_E_INPUT,
			"the space has more than 2^64 points");
	{
		uint64_t n_blocks = (run.total + run.block - 1) / run.block;

		run.my_blocks = n_blocks > (uint64_t) run.rank ?
			(n_blocks - run.rank + run.size - 1) / run.size : 0;
	}
	if (opt->model != SIM_MODEL_ANALYTIC &&
	    opt->model != SIM_MODEL_SAMPLED)
		return dse_error_set(err, DSE_E_INPUT, "the search re-evaluates "
			"with the analytic or the sampled model only");
	front = alloc_front(opt);
	st = front ? dse_stat_ok :
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
	if (search__agree(st, comm, err) != dse_stat_ok) {
		search_front_free(front);
		return dse_stat_error;
	}
	/* Start the clock together, so the time measures the sweep. */
	if (search__mpi_check(MPI_Barrier(comm), "MPI_Barrier", err)) {
		search_front_free(front);
		return dse_stat_error;
	}
	run.t0 = omp_get_wtime();
	run.next_report = run.t0 + opt->progress_interval;
	st = sweep_rank(&run, front, &sum, &result->threads, err);
	st = search__agree(st, comm, err);
	if (st == dse_stat_ok)
		st = search__agree(gather_fronts(&run, front, comm, err), comm,
			err);
	if (st == dse_stat_ok)
		st = search__agree(reduce_tally(&sum, comm, err), comm, err);
	if (st != dse_stat_ok) {
		search_front_free(front);
		return st;
	}
	result->seconds = omp_get_wtime() - run.t0;
	if (run.rank == 0) {
		search_front_sort(front);
		run.final_valid = sum.valid;
		report(&run, search_front_size(front), 1);
	}
	if (opt->model == SIM_MODEL_SAMPLED) {
		st = second_stage(&run, &front, result, comm, err);
		if (st != dse_stat_ok) {
			search_front_free(front);
			return st;
		}
	}
	if (run.rank == 0)
		result->front = front;
	else
		search_front_free(front);
	result->evaluated = sum.evaluated;
	result->valid = sum.valid;
	result->over_constraint = sum.over;
	for (s = 0; s < SIM_N_STATUS; s++)
		result->status_count[s] = sum.status[s];
	return dse_stat_ok;
}
