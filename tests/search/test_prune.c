/* Pruning by bounds keeps the front, byte for byte: on random kernels
 * (the examples of configs/ with random sizes, data types, boards and
 * knob and code-generation options), random knob lists, random
 * objectives and constraints (ceilings, and floors on GFLOP/s),
 * and some two-stage searches (whose band the bounds must respect), the
 * exhaustive sweep with opt.prune gives exactly the front of the sweep
 * without it, with every point either counted or skipped; and the pruned
 * sweep's counters are the same on any number of ranks and threads (ctest
 * runs this binary under mpiexec with 1, 2 and 4 ranks), since what it
 * skips depends only on the space.  Across the cases pruning must skip a
 * large share of the points, or the test proves nothing: more than twice
 * as many as are legal, which takes the bounds of each fixed tiling's I/O
 * (DRAM latency, port beats and bandwidth, drains, on either network and
 * with double buffering on or off) and not only its compute.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpi.h>

#include "search/search.h"
#include "search/search_private.h"
#include "tests/support/mm_kernel.h"

#define N_CASES 36
#define MAX_POINTS 30000

static int rank_;

static uint64_t lcg(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 33;
}

/* A random size for each parameter of kernel k: small, with divisors. */
static void random_params(const example_kernel *k, uint64_t *seed,
	int64_t *params)
{
	static const int64_t sizes[] = { 3, 4, 8, 12, 16, 24, 32, 48, 64,
		96 };
	int p;

	for (p = 0; p < k->n_params; p++)
		params[p] = sizes[lcg(seed) % 10];
}

/* Random lists: array_part a random subset of the loop's divisors (and
 * now and then a tile that does not divide, padded), latency and simd
 * random subsets of 1, 2, 4, 8 (now and then 3, which seldom divides),
 * io_network and double_buffer one or both values.  The longest list is
 * cut until the space holds at most MAX_POINTS.
 */
static search_space *random_space(const sim_model *m, const poly_template *t,
	uint64_t *seed)
{
	static const int64_t small[] = { 1, 2, 3, 4, 8 };
	int64_t v[SIM_MAX_KNOBS][64];
	int nv[SIM_MAX_KNOBS], k, n = sim_model_n_knobs(m), longest, i;
	uint64_t size;
	search_space *s = search_space_alloc(n);

	for (k = 0; k < n; k++) {
		int loop = sim_model_knob_loop(m, k);
		int64_t e = loop >= 0 ? t->extent[loop] : 2, d;

		nv[k] = 0;
		if (loop < 0) {
			v[k][nv[k]++] = 1;
			if (lcg(seed) % 2)
				v[k][nv[k]++] = 0;
		} else if (!strncmp(sim_model_knob_kind(m, k), "array", 5)) {
			for (d = 1; d <= e && nv[k] < 64; d++)
				if ((e % d == 0 && (d == 1 || lcg(seed) % 4)) ||
				    lcg(seed) % 32 == 0)
					v[k][nv[k]++] = d;
		} else {
			for (i = 0; i < 5; i++)
				if (i == 0 || lcg(seed) % (i == 2 ? 6 : 4))
					v[k][nv[k]++] = small[i];
		}
	}
	for (;;) {
		for (size = 1, k = 0; k < n; k++)
			size *= (uint64_t) nv[k];
		if (size <= MAX_POINTS)
			break;
		for (longest = 0, k = 1; k < n; k++)
			if (nv[k] > nv[longest])
				longest = k;
		/* Keep the first and last values, drop one from the middle. */
		memmove(&v[longest][nv[longest] / 2],
			&v[longest][nv[longest] / 2 + 1],
			(size_t) (nv[longest] - nv[longest] / 2 - 1) *
			sizeof(int64_t));
		nv[longest]--;
	}
	for (k = 0; k < n; k++)
		assert_int_equal(search_space_set_knob(s, k,
			sim_model_knob_name(m, k), v[k], nv[k], NULL),
			dse_stat_ok);
	return s;
}

/* Random objectives (2 or 3 distinct metrics) and 0 to 2 constraints on
 * resources, latency, GFLOP/s or off-chip bytes, at fractions of the
 * board or of a sampled point's figure.
 */
static void random_options(const sim_model *m, const search_space *s,
	const arch_board *board, uint64_t *seed, search_options *opt)
{
	static const int objectives[] = { SIM_M_LATENCY, SIM_M_DSP,
		SIM_M_CYCLES, SIM_M_GOPS, SIM_M_LUT, SIM_M_FF, SIM_M_ENERGY,
		SIM_M_EDP, SIM_M_OFFCHIP, SIM_M_BRAM18K };
	static const int limited[] = { SIM_M_DSP, SIM_M_LUT, SIM_M_BRAM18K,
		SIM_M_LATENCY, SIM_M_GOPS, SIM_M_OFFCHIP };
	int i, j, dup;

	memset(opt, 0, sizeof(*opt));
	opt->n_obj = 2 + (int) (lcg(seed) % 2);
	/* Latency and DSP, the usual pair, half the time. */
	for (i = 0; i < opt->n_obj; i++) {
		do {
			opt->objectives[i] = i < 2 && lcg(seed) % 2 ?
				objectives[i] : objectives[lcg(seed) % 10];
			for (dup = 0, j = 0; j < i; j++)
				dup |= opt->objectives[j] == opt->objectives[i];
		} while (dup);
	}
	opt->n_constraints = (int) (lcg(seed) % 3);
	for (i = 0; i < opt->n_constraints; i++) {
		int metric = limited[lcg(seed) % 6];
		double frac = 0.05 + 0.1 * (double) (lcg(seed) % 8);
		int32_t knobs[SEARCH_MAX_KNOBS];
		sim_metrics e;

		opt->constraints[i].metric = metric;
		opt->constraints[i].max = INFINITY;
		if (metric == SIM_M_LATENCY || metric == SIM_M_GOPS ||
		    metric == SIM_M_OFFCHIP) {
			search_space_decode(s, lcg(seed) %
				search_space_size(s), knobs);
			sim_eval(m, knobs, &e);
			/* A floor on GFLOP/s, the one maximised metric, at a
			 * share of a random point's.
			 */
			if (metric == SIM_M_GOPS)
				opt->constraints[i].min = e.status == SIM_OK ?
					e.gops * frac : 0;
			else if (metric == SIM_M_OFFCHIP)
				opt->constraints[i].max = e.status == SIM_OK ?
					(double) e.offchip_bytes * (0.5 + frac) :
					1e9;
			else
				opt->constraints[i].max = e.status == SIM_OK ?
					e.latency_s * (0.5 + frac) : 1.0;
		} else {
			opt->constraints[i].max = frac *
				sim_metric_capacity(board, metric);
		}
	}
	opt->block = 1 + lcg(seed) % 300;
}

static void assert_fronts_equal(const search_front *a, const search_front *b,
	const char *what)
{
	size_t i;

	if (search_front_size(a) != search_front_size(b))
		fail_msg("%s: %zu rows pruned, %zu without", what,
			search_front_size(a), search_front_size(b));
	for (i = 0; i < search_front_size(a); i++)
		if (memcmp(search_front_at(a, i), search_front_at(b, i),
				sizeof(search_point)))
			fail_msg("%s: row %zu differs", what, i);
}

static void test_pruned_front(void **state)
{
	static const char *const kernels[] = { "mm", "conv", "mttkrp", "fir",
		"ttmc" };
	static const char *const dtypes[] = { "fp32", "fp16", "int8",
		"int16" };
	static const char *const boards[] = { "u250", "zcu102",
		"ultra96-v2" };
	uint64_t seed = 2024, total = 0, pruned = 0, beaten = 0, legal = 0;
	int c;

	(void) state;
	for (c = 0; c < N_CASES; c++) {
		const example_kernel *k = example_kernel_find(
			kernels[lcg(&seed) % 5]);
		const arch_board *board = arch_board_find(
			boards[lcg(&seed) % 3]);
		sim_options so;
		int64_t params[POLY_MAX_PARAMS];
		poly_kernel_desc desc;
		poly_template t;
		sim_model *m;
		search_space *s;
		search_options opt;
		search_evaluator ev;
		search_result plain, res;
		char what[128];
		int two_stage = c % 6 == 5;

		assert_non_null(k);
		/* The knob options and the code-generation ones that change
		 * every point's resources: the bounds must hold with each.
		 */
		memset(&so, 0, sizeof(so));
		so.array_part_L2 = (int) (lcg(&seed) % 2);
		so.io_network = (int) (lcg(&seed) % 2);
		so.double_buffer = (int) (lcg(&seed) % 2);
		so.dsp_packing = (int) (lcg(&seed) % 2);
		so.uram = (int) (lcg(&seed) % 2);
		random_params(k, &seed, params);
		desc = example_kernel_desc(k, params);
		assert_int_equal(poly_template_build(&desc, -1, &t, NULL),
			dse_stat_ok);
		m = sim_model_alloc(&t, board,
			arch_dtype_find(dtypes[lcg(&seed) % 4]), &so, NULL);
		assert_non_null(m);
		s = random_space(m, &t, &seed);
		random_options(m, s, board, &seed, &opt);
		if (two_stage) {
			opt.model = SIM_MODEL_SAMPLED;
			opt.band = 0.05 * (double) (1 + lcg(&seed) % 4);
			opt.band_max = 40;
			opt.seed = seed;
		}
		snprintf(what, sizeof(what), "case %d (%s, %llu points, %d "
			"objectives, %d constraints%s)", c, k->name,
			(unsigned long long) search_space_size(s), opt.n_obj,
			opt.n_constraints, two_stage ? ", two-stage" : "");
		ev = search_evaluator_sim(m);
		assert_int_equal(search_exhaustive_with(s, &ev, &opt,
			MPI_COMM_WORLD, &plain, NULL), dse_stat_ok);
		/* Every other case checks every single point as well. */
		opt.prune = 1 + c % 2;
		assert_int_equal(search_exhaustive_with(s, &ev, &opt,
			MPI_COMM_WORLD, &res, NULL), dse_stat_ok);
		assert_int_equal(res.evaluated + res.pruned,
			search_space_size(s));
		assert_true(res.pruned_beaten <= res.pruned);
		assert_true(res.valid <= plain.valid);
		if (rank_ == 0) {
			search_result one;

			assert_fronts_equal(res.front, plain.front, what);
			/* What is skipped depends on the space alone: one
			 * rank skips exactly what all of them did.
			 */
			assert_int_equal(search_exhaustive_with(s, &ev, &opt,
				MPI_COMM_SELF, &one, NULL), dse_stat_ok);
			assert_int_equal(one.pruned, res.pruned);
			assert_int_equal(one.pruned_beaten, res.pruned_beaten);
			assert_int_equal(one.evaluated, res.evaluated);
			assert_int_equal(one.valid, res.valid);
			assert_int_equal(one.modelled, res.modelled);
			assert_fronts_equal(one.front, res.front, what);
			search_front_free(one.front);
		}
		total += search_space_size(s);
		legal += plain.valid + plain.over_constraint;
		pruned += res.pruned;
		beaten += res.pruned_beaten;
		search_front_free(plain.front);
		search_front_free(res.front);
		search_space_free(s);
		sim_model_free(m);
	}
	if (rank_ == 0)
		print_message("%llu points in %d cases, %llu legal: %llu "
			"skipped by bounds, %llu of them beaten by the "
			"sample's front\n", (unsigned long long) total,
			N_CASES, (unsigned long long) legal,
			(unsigned long long) pruned,
			(unsigned long long) beaten);
	/* The bounds must skip far more than the legal points: with the
	 * compute alone in the cycle bound these cases skipped 42,358 points
	 * and 35,662 as beaten (fewer than their 65,908 legal ones); with
	 * each fixed tiling's I/O and drains counted, 204,252 and 187,087.
	 */
	assert_true(pruned > 2 * legal && beaten > legal);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pruned_front),
	};
	int fails;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
	fails = cmocka_run_group_tests(tests, NULL, NULL);
	MPI_Finalize();
	return fails ? 1 : 0;
}
