/* The parallel exhaustive search gives exactly the front and counts of a
 * plain serial sweep, for any rank count, thread count and block size; the
 * two-stage search (the band re-evaluated with the sampled cycle model)
 * gives exactly the front of a serial band, cut and re-evaluation.  The
 * sweep's epochs: a checkpoint at each, and a resume from any, ends with
 * the uninterrupted front, cloud and counters; a stop request on any rank
 * writes a final checkpoint; a time budget sweeps an exact prefix;
 * pruning by a resource bound keeps the front; blocks go to the ranks
 * that free up, so a slow rank sweeps less.
 * ctest runs this binary under mpiexec with 1, 2 and 4 ranks and with
 * OMP_NUM_THREADS 1 and 2.
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <mpi.h>

#include "search/search.h"
#include "search/search_private.h"
#include "tests/support/mm_kernel.h"

struct sweep_case {
	const char *what;
	int64_t extent[3];
	int n_obj;
	int obj[3];
	int n_con;
	search_constraint con[2];
	uint64_t block;
};

/* Constraint bounds are absolute here (the fraction handling is dse/'s). */
static const struct sweep_case cases[] = {
	{ "latency x dsp, default blocks", { 64, 64, 64 }, 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 0, { { 0, 0, 0 } }, 0 },
	{ "tiny blocks split unevenly", { 48, 32, 96 }, 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 1, { { SIM_M_DSP, 600, 0 } }, 7 },
	{ "three objectives with two constraints", { 128, 64, 32 }, 3,
	  { SIM_M_LATENCY, SIM_M_DSP, SIM_M_BRAM18K }, 2,
	  { { SIM_M_DSP, 2000, 0 }, { SIM_M_BRAM18K, 300, 0 } }, 100 },
	{ "throughput x dsp", { 32, 32, 32 }, 2,
	  { SIM_M_GOPS, SIM_M_DSP }, 0, { { 0, 0, 0 } }, 33 },
};

/* Every divisor of each extent as array_part, 1..8 as latency and simd:
 * many illegal points, many legal ones.
 */
static search_space *make_space(const sim_model *model,
	const poly_template *t)
{
	int k, n = sim_model_n_knobs(model);
	search_space *s = search_space_alloc(n);

	for (k = 0; k < n; k++) {
		int64_t v[64], e = t->extent[sim_model_knob_loop(model, k)], d;
		int nv = 0;

		if (!strcmp(sim_model_knob_kind(model, k), "array_part")) {
			for (d = 1; d <= e; d++)
				if (e % d == 0)
					v[nv++] = d;
		} else {
			for (d = 1; d <= 8; d++)
				v[nv++] = d;
		}
		assert_int_equal(search_space_set_knob(s, k,
			sim_model_knob_name(model, k), v, nv, NULL),
			dse_stat_ok);
	}
	return s;
}

static int feasible(const struct sweep_case *c, const sim_metrics *m)
{
	int i;

	for (i = 0; i < c->n_con; i++)
		if (sim_metrics_get(m, c->con[i].metric) > c->con[i].max)
			return 0;
	return 1;
}

/* The reference: every index in order, one front, no parallelism. */
static search_front *serial_front(const struct sweep_case *c,
	const search_space *s, const sim_model *model, uint64_t *valid)
{
	search_front *f = search_front_alloc(c->n_obj, c->obj);
	uint64_t idx, n = search_space_size(s);
	search_point p;

	memset(&p, 0, sizeof(p));
	*valid = 0;
	for (idx = 0; idx < n; idx++) {
		search_space_decode(s, idx, p.knobs);
		sim_eval(model, p.knobs, &p.metrics);
		if (p.metrics.status != SIM_OK || !feasible(c, &p.metrics))
			continue;
		p.index = idx;
		(*valid)++;
		assert_true(search_front_add(f, &p) >= 0);
	}
	search_front_sort(f);
	return f;
}

static void run_case(const struct sweep_case *c, int rank)
{
	const arch_board *board = arch_board_find("u250");
	poly_template t = mm_kernel_template(c->extent[0], c->extent[1],
		c->extent[2]);
	sim_model *model = sim_model_alloc(&t, board, arch_dtype_find("fp32"),
		NULL, NULL);
	search_space *s = make_space(model, &t);
	search_options opt;
	search_result res;
	dse_error err;

	memset(&opt, 0, sizeof(opt));
	opt.n_obj = c->n_obj;
	memcpy(opt.objectives, c->obj, sizeof(c->obj));
	opt.n_constraints = c->n_con;
	memcpy(opt.constraints, c->con, sizeof(c->con));
	opt.block = c->block;
	assert_int_equal(search_exhaustive(s, model, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	assert_int_equal(res.evaluated + res.pruned, search_space_size(s));
	if (rank == 0) {
		uint64_t valid;
		search_front *ref = serial_front(c, s, model, &valid);
		size_t i;

		print_message("case: %s: %llu points, %llu valid, front %zu\n",
			c->what, (unsigned long long) res.evaluated,
			(unsigned long long) valid, search_front_size(ref));
		assert_true(search_front_size(ref) > 1);
		assert_int_equal(res.valid, valid);
		assert_int_equal(search_front_size(res.front),
			search_front_size(ref));
		for (i = 0; i < search_front_size(ref); i++) {
			const search_point *a = search_front_at(res.front, i);
			const search_point *b = search_front_at(ref, i);

			assert_int_equal(a->index, b->index);
			assert_memory_equal(a->knobs, b->knobs,
				sizeof(a->knobs));
			assert_int_equal(a->metrics.cycles, b->metrics.cycles);
		}
		search_front_free(ref);
	} else {
		assert_null(res.front);
	}
	search_front_free(res.front);
	search_space_free(s);
	sim_model_free(model);
}

/* Two-stage cases: a band wide enough to hold many points, and one that
 * band_max cuts.
 */
struct two_case {
	const char *what;
	int64_t extent[3];
	double band;
	size_t band_max;
	uint64_t seed;
	int expect_cut;
};

static const struct two_case two_cases[] = {
	{ "band 10%, no cut", { 32, 32, 32 }, 0.1, 0, 7, 0 },
	{ "band 30% cut to 25 points", { 48, 32, 64 }, 0.3, 25, 3, 1 },
};

/* The reference: a serial band over every index, the same cut, each
 * point simulated with its own seed, one plain front.
 */
static search_front *serial_two_stage(const struct two_case *c,
	const search_options *opt, const search_space *s,
	const sim_model *model, size_t *n_resim)
{
	search_front *band = search_front_alloc_band(opt->n_obj,
		opt->objectives, c->band);
	search_front *f = search_front_alloc(opt->n_obj, opt->objectives);
	uint64_t idx, n = search_space_size(s);
	search_point p;
	size_t i, cut;

	memset(&p, 0, sizeof(p));
	for (idx = 0; idx < n; idx++) {
		search_space_decode(s, idx, p.knobs);
		sim_eval(model, p.knobs, &p.metrics);
		if (p.metrics.status != SIM_OK)
			continue;
		p.index = idx;
		assert_true(search_front_add(band, &p) >= 0);
	}
	assert_int_equal(search__front_cut(band, c->band_max ? c->band_max :
		SEARCH_DEFAULT_BAND_MAX, &cut), 0);
	assert_int_equal(cut > 0, c->expect_cut);
	*n_resim = search_front_size(band);
	for (i = 0; i < search_front_size(band); i++) {
		sim_cycle_opts co;
		sim_cycle_report rep;

		p = *search_front_at(band, i);
		memset(&co, 0, sizeof(co));
		co.seed = search_point_seed(c->seed, p.index);
		assert_int_equal(sim_simulate(model, p.knobs,
			SIM_MODEL_SAMPLED, &co, &rep, NULL), dse_stat_ok);
		assert_int_equal(rep.model, SIM_MODEL_SAMPLED);
		if (rep.metrics.status != SIM_OK)
			continue;
		p.metrics = rep.metrics;
		assert_true(search_front_add(f, &p) >= 0);
	}
	search_front_sort(f);
	search_front_free(band);
	return f;
}

static void run_two_stage(const struct two_case *c, int rank)
{
	poly_template t = mm_kernel_template(c->extent[0], c->extent[1],
		c->extent[2]);
	sim_model *model = sim_model_alloc(&t, arch_board_find("u250"),
		arch_dtype_find("fp32"), NULL, NULL);
	search_space *s = make_space(model, &t);
	search_options opt;
	search_result res;
	dse_error err;

	memset(&opt, 0, sizeof(opt));
	opt.n_obj = 2;
	opt.objectives[0] = SIM_M_LATENCY;
	opt.objectives[1] = SIM_M_DSP;
	opt.block = 13;
	opt.model = SIM_MODEL_SAMPLED;
	opt.band = c->band;
	opt.band_max = c->band_max;
	opt.seed = c->seed;
	assert_int_equal(search_exhaustive(s, model, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	if (rank == 0) {
		size_t n_resim, i;
		search_front *ref = serial_two_stage(c, &opt, s, model,
			&n_resim);

		print_message("two-stage case: %s: band %llu, resimulated "
			"%llu, front %zu\n", c->what,
			(unsigned long long) res.band_points,
			(unsigned long long) res.resimulated,
			search_front_size(ref));
		assert_int_equal(res.resimulated, n_resim);
		assert_true(res.resimulated > search_front_size(ref));
		assert_int_equal(res.band_cut > 0, c->expect_cut);
		assert_int_equal(res.band_points, res.resimulated +
			res.band_cut);
		assert_true(search_front_size(ref) > 1);
		assert_int_equal(search_front_size(res.front),
			search_front_size(ref));
		for (i = 0; i < search_front_size(ref); i++) {
			const search_point *a = search_front_at(res.front, i);
			const search_point *b = search_front_at(ref, i);

			assert_int_equal(a->index, b->index);
			assert_int_equal(a->model, SIM_MODEL_SAMPLED);
			assert_int_equal(a->metrics.cycles, b->metrics.cycles);
			assert_true(a->cycles_low <= a->cycles_high);
			assert_true(a->sampled_fraction > 0 &&
				a->sampled_fraction <= 1);
		}
		search_front_free(ref);
	} else {
		assert_null(res.front);
	}
	search_front_free(res.front);
	search_space_free(s);
	sim_model_free(model);
}

static void test_two_stage_equals_serial(void **state)
{
	size_t i;
	int rank;

	(void) state;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < sizeof(two_cases) / sizeof(two_cases[0]); i++)
		run_two_stage(&two_cases[i], rank);
}

/* A cycle simulation that fails on every point whose first knob is even:
 * the second stage records those points as failed, leaves them out and
 * goes on with the others.
 */
static dse_stat simulate_odd(const void *model, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	if (knobs[0] % 2 == 0)
		return dse_error_set(err, DSE_E_RUNTIME, "simulation failed");
	return sim_simulate(model, knobs, kind, opt, out, err);
}

static void test_failed_simulations(void **state)
{
	poly_template t = mm_kernel_template(32, 32, 32);
	sim_model *model = sim_model_alloc(&t, arch_board_find("u250"),
		arch_dtype_find("fp32"), NULL, NULL);
	search_space *s = make_space(model, &t);
	search_evaluator ev = search_evaluator_sim(model);
	search_options opt;
	search_result plain, res;
	dse_error err;
	size_t i;
	int rank;

	(void) state;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	memset(&opt, 0, sizeof(opt));
	opt.n_obj = 2;
	opt.objectives[0] = SIM_M_LATENCY;
	opt.objectives[1] = SIM_M_DSP;
	opt.model = SIM_MODEL_SAMPLED;
	opt.band = 0.3;
	opt.seed = 5;
	assert_int_equal(search_exhaustive_with(s, &ev, &opt, MPI_COMM_WORLD,
		&plain, &err), dse_stat_ok);
	ev.simulate = simulate_odd;
	assert_int_equal(search_exhaustive_with(s, &ev, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	if (rank == 0) {
		/* The same band is simulated; the failed points are dropped
		 * and none of them reaches the front.
		 */
		assert_int_equal(res.resimulated, plain.resimulated);
		assert_true(res.resim_failed > 0);
		assert_true(res.resim_failed < res.resimulated);
		assert_int_equal(plain.resim_failed, 0);
		assert_true(res.resim_dropped >= res.resim_failed);
		for (i = 0; i < search_front_size(res.front); i++) {
			const search_point *p = search_front_at(res.front, i);

			assert_int_equal(p->knobs[0] % 2, 1);
			assert_int_equal(p->model, SIM_MODEL_SAMPLED);
		}
		assert_true(search_front_size(res.front) > 0);
	}
	search_front_free(plain.front);
	search_front_free(res.front);
	search_space_free(s);
	sim_model_free(model);
}

/* --- epochs: checkpoints, resume, stop, budget, pruning, cloud -------- */

#define MAX_STATES 64

/* What root's checkpoint writer saw. */
struct states {
	void *bytes[MAX_STATES];
	size_t size[MAX_STATES];
	int final[MAX_STATES];
	uint64_t evaluated[MAX_STATES];
	int n;
};

static dse_stat keep_state(const search_checkpoint *cp, void *user,
	dse_error *err)
{
	struct states *st = user;

	(void) err;
	assert_true(st->n < MAX_STATES);
	assert_non_null(cp->front);
	assert_true(cp->evaluated <= cp->total);
	st->bytes[st->n] = malloc(cp->size);
	memcpy(st->bytes[st->n], cp->state, cp->size);
	st->size[st->n] = cp->size;
	st->final[st->n] = cp->final;
	st->evaluated[st->n] = cp->evaluated;
	st->n++;
	return dse_stat_ok;
}

static void free_states(struct states *st)
{
	int i;

	for (i = 0; i < st->n; i++)
		free(st->bytes[i]);
	st->n = 0;
}

/* A model for the epoch tests: 10 x 6 x 7 tilings x 8^3 = 215040
 * points, many illegal.
 */
struct fixture {
	poly_template t;
	sim_model *model;
	search_space *space;
	search_evaluator ev;
	search_options opt;
	int rank;
	int size;
};

static void fixture_init(struct fixture *f)
{
	f->t = mm_kernel_template(48, 32, 64);
	f->model = sim_model_alloc(&f->t, arch_board_find("u250"),
		arch_dtype_find("fp32"), NULL, NULL);
	f->space = make_space(f->model, &f->t);
	/* No bound: pruned points are never evaluated, so they are in no
	 * cloud, and the serial references here evaluate every point.
	 */
	f->ev = search_evaluator_sim(f->model);
	f->ev.bound = NULL;
	memset(&f->opt, 0, sizeof(f->opt));
	f->opt.n_obj = 2;
	f->opt.objectives[0] = SIM_M_LATENCY;
	f->opt.objectives[1] = SIM_M_DSP;
	f->opt.n_constraints = 1;
	f->opt.constraints[0].metric = SIM_M_DSP;
	f->opt.constraints[0].max = 600;
	f->opt.block = 64;
	f->opt.cloud_max = 40;
	MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &f->size);
}

static void fixture_free(struct fixture *f)
{
	search_space_free(f->space);
	sim_model_free(f->model);
}

static void free_result(search_result *r)
{
	search_front_free(r->front);
	search_cloud_free(r->cloud);
}

/* Two results of the same search agree in counters, front and cloud
 * (front and cloud on root only).
 */
static void assert_same(const search_result *a, const search_result *b,
	int rank)
{
	size_t i;
	int s;

	assert_int_equal(a->evaluated, b->evaluated);
	assert_int_equal(a->valid, b->valid);
	assert_int_equal(a->over_constraint, b->over_constraint);
	assert_int_equal(a->pruned, b->pruned);
	for (s = 0; s < SIM_N_STATUS; s++)
		assert_int_equal(a->status_count[s], b->status_count[s]);
	if (rank != 0) {
		assert_null(a->front);
		assert_null(a->cloud);
		return;
	}
	assert_int_equal(search_front_size(a->front),
		search_front_size(b->front));
	for (i = 0; i < search_front_size(a->front); i++) {
		const search_point *p = search_front_at(a->front, i);
		const search_point *q = search_front_at(b->front, i);

		assert_int_equal(p->index, q->index);
		assert_memory_equal(p->knobs, q->knobs, sizeof(p->knobs));
		assert_int_equal(p->metrics.cycles, q->metrics.cycles);
	}
	assert_int_equal(search_cloud_size(a->cloud),
		search_cloud_size(b->cloud));
	for (i = 0; i < search_cloud_size(a->cloud); i++)
		assert_int_equal(search_cloud_at(a->cloud, i)->index,
			search_cloud_at(b->cloud, i)->index);
}

/* The serial sweep of the indices [0, end): front, cloud of legal
 * points and counters, with no bound.
 */
static void serial_prefix(const struct fixture *f, uint64_t end,
	search_result *out)
{
	search_point p;
	uint64_t idx;

	memset(out, 0, sizeof(*out));
	out->front = search_front_alloc(f->opt.n_obj, f->opt.objectives);
	out->cloud = search_cloud_alloc(f->opt.cloud_max);
	memset(&p, 0, sizeof(p));
	for (idx = 0; idx < end; idx++) {
		search_space_decode(f->space, idx, p.knobs);
		sim_eval(f->model, p.knobs, &p.metrics);
		out->evaluated++;
		if (p.metrics.status != SIM_OK) {
			out->status_count[p.metrics.status]++;
			continue;
		}
		p.index = idx;
		p.cycles_low = p.cycles_high = (double) p.metrics.cycles;
		assert_true(search_cloud_add(out->cloud, &p) >= 0);
		if (!search_feasible(&f->opt, &p.metrics)) {
			out->over_constraint++;
			continue;
		}
		out->valid++;
		assert_true(search_front_add(out->front, &p) >= 0);
	}
	search_front_sort(out->front);
	search_cloud_sort(out->cloud);
}

/* Root's states, on every rank (through the byte broadcast). */
static void share_states(struct states *st, int rank)
{
	int n = st->n, i;

	MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; i < n; i++) {
		void *b = rank == 0 ? st->bytes[i] : NULL;
		size_t size = rank == 0 ? st->size[i] : 0;

		assert_int_equal(search__bcast_bytes(&b, &size, MPI_COMM_WORLD,
			NULL), dse_stat_ok);
		if (rank != 0) {
			st->bytes[i] = b;
			st->size[i] = size;
		}
	}
	st->n = n;
}

/* A checkpoint at every epoch, then a resume from each: every run ends
 * with the uninterrupted run's front, cloud and counters, and so does a
 * resume on one rank of a state written by all of them.
 */
static void test_checkpoint_resume(void **state)
{
	struct fixture f;
	struct states st;
	search_result ref, res, serial;
	uint64_t total;
	int i, step;

	(void) state;
	memset(&st, 0, sizeof(st));
	fixture_init(&f);
	total = search_space_size(f.space);
	assert_int_equal(search_run(f.space, &f.ev, &f.opt, MPI_COMM_WORLD,
		&ref, NULL), dse_stat_ok);
	assert_int_equal(ref.strategy, SEARCH_EXHAUSTIVE);
	assert_int_equal(ref.resumed, 0);
	assert_int_equal(ref.interrupted, 0);
	assert_int_equal(ref.evaluated + ref.pruned, total);
	if (f.rank == 0) {
		/* The cloud is the serial one: legal points of smallest hash,
		 * whatever the ranks and threads.
		 */
		serial_prefix(&f, total, &serial);
		assert_int_equal(search_cloud_size(ref.cloud), 40);
		for (i = 0; i < 40; i++)
			assert_int_equal(search_cloud_at(ref.cloud, i)->index,
				search_cloud_at(serial.cloud, i)->index);
		assert_int_equal(ref.valid, serial.valid);
		free_result(&serial);
	}
	f.opt.checkpoint_interval = 1e-9;
	f.opt.checkpoint = keep_state;
	f.opt.checkpoint_user = &st;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	assert_same(&res, &ref, f.rank);
	free_result(&res);
	if (f.rank == 0) {
		print_message("checkpoints: %d\n", st.n);
		assert_true(st.n >= 2);
		for (i = 0; i < st.n; i++) {
			assert_int_equal(st.final[i], 0);
			assert_true(st.evaluated[i] < total);
			assert_true(i == 0 ||
				st.evaluated[i] > st.evaluated[i - 1]);
		}
	}
	share_states(&st, f.rank);
	f.opt.checkpoint = NULL;
	/* At most 8 resumes, spread over the states, the last included. */
	step = st.n > 8 ? (st.n + 7) / 8 : 1;
	for (i = st.n - 1; i >= 0; i -= step) {
		f.opt.resume = st.bytes[i];
		f.opt.resume_size = st.size[i];
		assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
			MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
		assert_int_equal(res.resumed, 1);
		assert_same(&res, &ref, f.rank);
		free_result(&res);
	}
	if (f.rank == 0) {
		f.opt.resume = st.bytes[st.n / 2];
		f.opt.resume_size = st.size[st.n / 2];
		assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
			MPI_COMM_SELF, &res, NULL), dse_stat_ok);
		assert_same(&res, &ref, 0);
		free_result(&res);
	}
	free_states(&st);
	free_result(&ref);
	fixture_free(&f);
}

/* A stop request that reaches the last rank only (a signal that
 * arrived there first) must stop every rank at the same epoch.  It is
 * raised before the sweep starts: dealt as ranks free up, on a loaded or
 * oversubscribed machine the last rank may sweep no block at all before
 * the others finish the space, so a flag raised from its evaluations
 * might never be.
 */
static void test_stop(void **state)
{
	struct fixture f;
	struct states st;
	static volatile sig_atomic_t flag;
	search_result ref, res, prefix;
	uint64_t total, swept;
	size_t i;

	(void) state;
	memset(&st, 0, sizeof(st));
	fixture_init(&f);
	total = search_space_size(f.space);
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &ref, NULL), dse_stat_ok);
	flag = f.rank == f.size - 1;
	f.opt.stop = &flag;
	f.opt.checkpoint = keep_state;
	f.opt.checkpoint_user = &st;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	assert_int_equal(res.interrupted, 1);
	swept = res.evaluated + res.pruned;
	print_message("stopped after %llu of %llu points\n",
		(unsigned long long) swept, (unsigned long long) total);
	assert_true(swept < total);
	assert_int_equal(res.pruned, 0);
	if (f.rank == 0) {
		/* One final checkpoint, and the front of the prefix swept. */
		assert_int_equal(st.n, 1);
		assert_int_equal(st.final[0], 1);
		assert_int_equal(st.evaluated[0], swept);
		serial_prefix(&f, swept, &prefix);
		assert_int_equal(res.valid, prefix.valid);
		assert_true(search_front_size(res.front) > 0);
		assert_int_equal(search_front_size(res.front),
			search_front_size(prefix.front));
		for (i = 0; i < search_front_size(prefix.front); i++)
			assert_int_equal(search_front_at(res.front, i)->index,
				search_front_at(prefix.front, i)->index);
		free_result(&prefix);
	}
	free_result(&res);
	share_states(&st, f.rank);
	flag = 0;
	f.opt.stop = NULL;
	f.opt.checkpoint = NULL;
	f.opt.resume = st.bytes[0];
	f.opt.resume_size = st.size[0];
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	assert_int_equal(res.interrupted, 0);
	assert_same(&res, &ref, f.rank);
	free_result(&res);
	free_states(&st);
	free_result(&ref);
	fixture_free(&f);
}

/* A spent time budget ends the sweep at the next synchronisation: not
 * interrupted, a prefix of the range swept, its front exact.
 */
static void test_budget(void **state)
{
	struct fixture f;
	search_result res, prefix;
	uint64_t swept;

	(void) state;
	fixture_init(&f);
	f.opt.budget_seconds = 1e-9;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	assert_int_equal(res.interrupted, 0);
	swept = res.evaluated;
	assert_true(swept > 0 && swept < search_space_size(f.space));
	if (f.rank == 0) {
		serial_prefix(&f, swept, &prefix);
		prefix.evaluated = swept;
		assert_same(&res, &prefix, 0);
		free_result(&prefix);
	}
	free_result(&res);
	fixture_free(&f);
}

/* A lower bound of the resources (90% of the metrics, here) skips points
 * without changing the front; the skipped points count as pruned and
 * over the constraints.
 */
static void bound_90(const void *model, const int32_t *knobs,
	sim_metrics *lower)
{
	sim_metrics m;

	sim_eval(model, knobs, &m);
	memset(lower, 0, sizeof(*lower));
	/* A bound gives the model's status, so illegal points need no
	 * evaluation.
	 */
	lower->status = m.status;
	if (m.status != SIM_OK)
		return;
	lower->dsp = m.dsp * 9 / 10;
	lower->bram18k = m.bram18k * 9 / 10;
}

static void test_pruning(void **state)
{
	struct fixture f;
	search_result plain, pruned;
	uint64_t total;
	int s;

	(void) state;
	fixture_init(&f);
	total = search_space_size(f.space);
	/* Pruned points are in no cloud: compare fronts and counters.  The
	 * sweep uses a bound only when it prunes a tenth of a trial's legal
	 * points, so the DSP budget is made tight enough for that.
	 */
	f.opt.cloud_max = 0;
	f.opt.constraints[0].max = 100;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &plain, NULL), dse_stat_ok);
	assert_int_equal(plain.pruned, 0);
	assert_int_equal(plain.evaluated, total);
	f.ev.bound = bound_90;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &pruned, NULL), dse_stat_ok);
	if (f.rank == 0)
		print_message("pruned %llu of %llu points\n",
			(unsigned long long) pruned.pruned,
			(unsigned long long) total);
	assert_true(pruned.pruned > 0);
	assert_int_equal(pruned.evaluated + pruned.pruned, total);
	/* Pruned points were legal and over the constraint. */
	assert_int_equal(pruned.over_constraint, plain.over_constraint);
	for (s = 0; s < SIM_N_STATUS; s++)
		assert_int_equal(pruned.status_count[s],
			plain.status_count[s]);
	pruned.evaluated = plain.evaluated;
	pruned.pruned = 0;
	assert_same(&pruned, &plain, f.rank);
	free_result(&plain);
	free_result(&pruned);
	fixture_free(&f);
}

/* An evaluator that counts its points and, on the last rank, spends a
 * fixed wall time on each, as a rank on a core shared with a busy process
 * would.
 */
struct uneven {
	const sim_model *model;
	uint64_t count;
	double delay;		/* seconds per point; 0 on the other ranks */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static void eval_uneven(const void *model, const int32_t *knobs,
	sim_metrics *out)
{
	struct uneven *u = (struct uneven *) model;
	double until = u->delay > 0 ? now_s() + u->delay : 0;

	sim_eval(u->model, knobs, out);
	__atomic_add_fetch(&u->count, 1, __ATOMIC_RELAXED);
	while (u->delay > 0 && now_s() < until)
		;
}

/* Blocks go to the ranks that free up: a rank a hundred times slower
 * than the others sweeps far less than its 1/P of the range (dealing
 * blocks by index would give it exactly 1/P, and everyone would wait for
 * it), and the front and counters are still those of the even run, as
 * they are when blocks are dealt by index.
 */
static void test_dynamic_dealing(void **state)
{
	struct fixture f;
	struct uneven u;
	search_evaluator ev;
	search_result ref, res;
	uint64_t total, *counts = NULL;
	int r;

	(void) state;
	fixture_init(&f);
	total = search_space_size(f.space);
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &ref, NULL), dse_stat_ok);
	u.model = f.model;
	u.count = 0;
	u.delay = f.size > 1 && f.rank == f.size - 1 ? 100e-6 : 0;
	ev = f.ev;
	ev.model = &u;
	ev.eval = eval_uneven;
	assert_int_equal(search_exhaustive_with(f.space, &ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	assert_same(&res, &ref, f.rank);
	assert_int_equal(res.evaluated, total);
	if (f.rank == 0)
		counts = malloc(sizeof(*counts) * f.size);
	MPI_Gather(&u.count, 1, MPI_UINT64_T, counts, 1, MPI_UINT64_T, 0,
		MPI_COMM_WORLD);
	if (f.rank == 0) {
		uint64_t sum = 0;

		for (r = 0; r < f.size; r++) {
			print_message("rank %d swept %llu of %llu points\n", r,
				(unsigned long long) counts[r],
				(unsigned long long) total);
			sum += counts[r];
		}
		assert_int_equal(sum, total);
		if (f.size > 1)
			assert_true(counts[f.size - 1] < total / (2 * f.size));
		free(counts);
	}
	free_result(&res);
	/* Dealt by index, as the benchmarks compare, the result is the
	 * same.
	 */
	f.opt.deal_by_index = 1;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	assert_same(&res, &ref, f.rank);
	free_result(&res);
	free_result(&ref);
	fixture_free(&f);
}

/* Progress: the exhaustive strategy, generation 0, a hypervolume known
 * once the front is, never shrinking, and the whole space at the end.
 */
struct seen {
	int calls;
	double last_hv;
	int shrank;
	search_progress last;
};

static void on_progress(const search_progress *p, void *user)
{
	struct seen *s = user;

	assert_int_equal(p->strategy, SEARCH_EXHAUSTIVE);
	assert_int_equal(p->generation, 0);
	assert_int_equal(p->stage, 1);
	if (!isnan(p->hypervolume)) {
		assert_true(p->hypervolume > 0 && p->hypervolume <= 1);
		if (!isnan(s->last_hv) && p->hypervolume < s->last_hv - 1e-12)
			s->shrank = 1;
		s->last_hv = p->hypervolume;
	}
	s->last = *p;
	s->calls++;
}

static void test_progress(void **state)
{
	struct fixture f;
	struct seen seen = { 0, NAN, 0, { 0 } };
	search_result res;

	(void) state;
	fixture_init(&f);
	f.opt.progress = on_progress;
	f.opt.progress_user = &seen;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &f.opt,
		MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
	if (f.rank == 0) {
		assert_true(seen.calls >= 2);
		assert_false(seen.shrank);
		assert_false(isnan(seen.last.hypervolume));
		assert_int_equal(seen.last.evaluated,
			search_space_size(f.space));
		assert_int_equal(seen.last.front_size,
			search_front_size(res.front));
	} else {
		assert_int_equal(seen.calls, 0);
	}
	free_result(&res);
	fixture_free(&f);
}

static void test_parallel_equals_serial(void **state)
{
	size_t i;
	int rank;

	(void) state;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i], rank);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parallel_equals_serial),
		cmocka_unit_test(test_two_stage_equals_serial),
		cmocka_unit_test(test_failed_simulations),
		cmocka_unit_test(test_checkpoint_resume),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_pruning),
		cmocka_unit_test(test_dynamic_dealing),
		cmocka_unit_test(test_progress),
	};
	dse_error err;
	int rc;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	/* A failed assertion on one rank must not leave the others waiting
	 * in a collective forever.
	 */
	if (rc)
		MPI_Abort(MPI_COMM_WORLD, rc);
	MPI_Finalize();
	return rc;
}
