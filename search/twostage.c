/* The second stage of a two-stage search: the band around the analytic
 * front, re-evaluated with the sampled cycle model.
 *
 * Root broadcasts the band (sorted, so every rank sees the same list);
 * point i belongs to rank i mod P and, inside a rank, threads take points
 * dynamically, since one simulation may cost a hundred times another.  The
 * sample of a point is seeded from the search's seed and the point's index
 * in the space, never from who simulates it, so the numbers and the front
 * rebuilt from them on root are the same for any ranks and threads.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "search_private.h"

uint64_t search_point_seed(uint64_t seed, uint64_t index)
{
	/* splitmix64 of the pair: nearby indices get unrelated seeds. */
	uint64_t z = seed * UINT64_C(0x9e3779b97f4a7c15) + index +
		UINT64_C(0x632be59bd9b4e019);

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

struct stage {
	const search_evaluator *ev;
	const search_options *opt;
	int rank;
	int size;
	uint64_t total;		/* band points over all ranks */
	search_point *mine;	/* this rank's points, simulated in place */
	size_t n_mine;
	uint64_t done;		/* atomic */
	double t0;
	double next_report;
};

static void report(struct stage *s, int final)
{
	search_progress pr;
	double now = omp_get_wtime();
	uint64_t done;

	if (!s->opt->progress || s->rank != 0)
		return;
	if (!final && now < s->next_report)
		return;
	s->next_report = now + s->opt->progress_interval;
	done = __atomic_load_n(&s->done, __ATOMIC_RELAXED);
	memset(&pr, 0, sizeof(pr));
	pr.stage = 2;
	/* Points are dealt round-robin: rank 0's share scales to the whole. */
	pr.evaluated = final ? s->total : done * (uint64_t) s->size;
	if (pr.evaluated > s->total)
		pr.evaluated = s->total;
	pr.total = s->total;
	pr.seconds = now - s->t0;
	s->opt->progress(&pr, s->opt->progress_user);
}

/* Re-evaluates one point in place with the sampled model. */
static dse_stat simulate_point(const struct stage *s, search_point *p,
	dse_error *err)
{
	sim_cycle_opts co = s->opt->cycle;
	sim_cycle_report rep;

	co.seed = search_point_seed(s->opt->seed, p->index);
	if (s->ev->simulate(s->ev->model, p->knobs, SIM_MODEL_SAMPLED, &co, &rep,
			err))
		return dse_stat_error;
	p->metrics = rep.metrics;
	p->model = rep.model;
	p->cycles_low = rep.cycles_low;
	p->cycles_high = rep.cycles_high;
	p->sampled_fraction = rep.fraction;
	return dse_stat_ok;
}

static void simulate_mine(struct stage *s)
{
	#pragma omp parallel
	{
		dse_error err;
		size_t i;

		dse_error_clear(&err);
		#pragma omp for schedule(dynamic, 1)
		for (i = 0; i < s->n_mine; i++) {
			/* A point whose simulation fails is a result: it is
			 * marked, left out of the front and counted, and
			 * the stage goes on with the others.
			 */
			if (simulate_point(s, &s->mine[i], &err)) {
				s->mine[i].metrics.status = SIM_FAILED;
				dse_error_clear(&err);
			}
			__atomic_add_fetch(&s->done, 1, __ATOMIC_RELAXED);
			if (omp_get_thread_num() == 0)
				report(s, 0);
		}
	}
}

/* Every rank gets the band as root sorted it; each keeps its share. */
static dse_stat share_band(struct stage *s, const search_front *band,
	MPI_Datatype type, MPI_Comm comm, dse_error *err)
{
	search_point *all = NULL;
	dse_stat st = dse_stat_ok;
	size_t i;

	if (s->rank == 0)
		s->total = search_front_size(band);
	st = search__mpi_check(MPI_Bcast(&s->total, 1, MPI_UINT64_T, 0, comm),
		"MPI_Bcast of the band size", err);
	if (st != dse_stat_ok)
		return st;
	if (s->total > INT_MAX)
		return dse_error_set(err, DSE_E_INPUT, "a band of %llu points "
			"is too large", (unsigned long long) s->total);
	all = malloc(s->total ? s->total * sizeof(*all) : 1);
	s->n_mine = s->total > (uint64_t) s->rank ?
		(s->total - s->rank + s->size - 1) / s->size : 0;
	s->mine = malloc(s->n_mine ? s->n_mine * sizeof(*s->mine) : 1);
	if (!all || !s->mine)
		st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	if (search__agree(st, comm, err) != dse_stat_ok) {
		free(all);
		return dse_stat_error;
	}
	for (i = 0; s->rank == 0 && i < s->total; i++)
		all[i] = *search_front_at(band, i);
	st = search__mpi_check(MPI_Bcast(all, (int) s->total, type, 0, comm),
		"MPI_Bcast of the band", err);
	for (i = 0; st == dse_stat_ok && i < s->n_mine; i++)
		s->mine[i] = all[(uint64_t) s->rank + i * (uint64_t) s->size];
	free(all);
	return st;
}

/* Root collects the simulated points back into band order and builds the
 * front of those that are still legal and feasible.
 */
static dse_stat collect(struct stage *s, search_front *front,
	MPI_Datatype type, MPI_Comm comm, search_result *result,
	dse_error *err)
{
	int *counts = NULL, *displs = NULL, r, n = (int) s->n_mine;
	search_point *got = NULL;
	dse_stat st = dse_stat_ok;
	uint64_t i;

	if (s->rank == 0) {
		counts = calloc(s->size, sizeof(int));
		displs = calloc(s->size, sizeof(int));
		got = malloc(s->total ? s->total * sizeof(*got) : 1);
		if (!counts || !displs || !got)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
		for (r = 0; st == dse_stat_ok && r < s->size; r++) {
			counts[r] = s->total > (uint64_t) r ? (int) ((s->total -
				r + s->size - 1) / s->size) : 0;
			displs[r] = r ? displs[r - 1] + counts[r - 1] : 0;
		}
	}
	if (search__agree(st, comm, err) == dse_stat_ok)
		st = search__agree(search__mpi_check(MPI_Gatherv(s->mine, n,
			type, got, counts, displs, type, 0, comm),
			"MPI_Gatherv of the simulated band", err), comm, err);
	else
		st = dse_stat_error;
	for (i = 0; st == dse_stat_ok && s->rank == 0 && i < s->total; i++) {
		/* Point i came from rank i mod P, at its position i / P. */
		const search_point *p = &got[displs[i % s->size] +
			i / s->size];

		result->resim_failed += p->metrics.status == SIM_FAILED;
		if (p->metrics.status != SIM_OK ||
		    !search__feasible(s->opt, &p->metrics))
			result->resim_dropped++;
		else if (search_front_add(front, p) < 0)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	if (st == dse_stat_ok && s->rank == 0)
		search_front_sort(front);
	free(counts);
	free(displs);
	free(got);
	return st;
}

dse_stat search__resimulate(const search_front *band, search_front *front,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err)
{
	struct stage s;
	MPI_Datatype type;
	dse_stat st;

	memset(&s, 0, sizeof(s));
	s.ev = ev;
	s.opt = opt;
	if (search__mpi_check(MPI_Comm_rank(comm, &s.rank), "MPI_Comm_rank",
			err) ||
	    search__mpi_check(MPI_Comm_size(comm, &s.size), "MPI_Comm_size",
			err))
		return dse_stat_error;
	/* Every rank runs the same binary, so a point travels as raw bytes. */
	st = search__mpi_check(MPI_Type_contiguous((int) sizeof(search_point),
		MPI_BYTE, &type), "MPI_Type_contiguous", err);
	if (st == dse_stat_ok &&
	    search__mpi_check(MPI_Type_commit(&type), "MPI_Type_commit", err)) {
		MPI_Type_free(&type);
		st = dse_stat_error;
	}
	if (search__agree(st, comm, err) != dse_stat_ok)
		return dse_stat_error;
	st = search__agree(share_band(&s, band, type, comm, err), comm, err);
	if (st == dse_stat_ok) {
		s.t0 = omp_get_wtime();
		s.next_report = s.t0 + opt->progress_interval;
		simulate_mine(&s);
	}
	if (st == dse_stat_ok)
		st = collect(&s, front, type, comm, result, err);
	if (st == dse_stat_ok) {
		result->resimulated = s.total;
		result->resim_seconds = omp_get_wtime() - s.t0;
		report(&s, 1);
	}
	MPI_Type_free(&type);
	free(s.mine);
	return st;
}
