/* The parallel exhaustive search gives exactly the front and counts of a
 * plain serial sweep, for any rank count, thread count and block size; the
 * two-stage search (the band re-evaluated with the sampled cycle model)
 * gives exactly the front of a serial band, cut and re-evaluation.
 * ctest runs this binary under mpiexec with 1, 2 and 4 ranks and with
 * OMP_NUM_THREADS 1 and 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
	  { SIM_M_LATENCY, SIM_M_DSP }, 0, { { 0, 0 } }, 0 },
	{ "tiny blocks split unevenly", { 48, 32, 96 }, 2,
	  { SIM_M_LATENCY, SIM_M_DSP }, 1, { { SIM_M_DSP, 600 } }, 7 },
	{ "three objectives with two constraints", { 128, 64, 32 }, 3,
	  { SIM_M_LATENCY, SIM_M_DSP, SIM_M_BRAM18K }, 2,
	  { { SIM_M_DSP, 2000 }, { SIM_M_BRAM18K, 300 } }, 100 },
	{ "throughput x dsp", { 32, 32, 32 }, 2,
	  { SIM_M_GOPS, SIM_M_DSP }, 0, { { 0, 0 } }, 33 },
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
	assert_int_equal(res.evaluated, search_space_size(s));
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
	};
	int rc;

	MPI_Init(&argc, &argv);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	/* A failed assertion on one rank must not leave the others waiting
	 * in a collective forever.
	 */
	if (rc)
		MPI_Abort(MPI_COMM_WORLD, rc);
	MPI_Finalize();
	return rc;
}
