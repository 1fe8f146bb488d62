/* Analytic-model speed on the matrix-multiply space, one core.
 *
 * Prints two figures: the rate of sim_eval alone over every point of the
 * space (legal and illegal, as a sweep sees them), and the rate of the
 * whole single-thread search loop (enumeration, model, constraints, front)
 * through search_exhaustive on one rank.  Never fails on a time.
 *
 * Usage: bench_eval [M N K]   (default 1024 1024 1024)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <omp.h>

#include "search/search.h"
#include "tests/support/mm_kernel.h"

/* The default sweep's knob lists: divisors for array_part (and
 * array_part_L2), 1..64 in powers of two for latency, 1/2/4/8 for simd.
 */
static search_space *mm_space(const sim_model *model, const poly_template *t)
{
	int k, n = sim_model_n_knobs(model);
	search_space *s = search_space_alloc(n);

	for (k = 0; k < n; k++) {
		const char *kind = sim_model_knob_kind(model, k);
		int64_t e = t->extent[sim_model_knob_loop(model, k)];
		int64_t v[4096], d;
		int nv = 0;

		if (!strncmp(kind, "array_part", 10)) {
			for (d = 1; d <= e && nv < 4096; d++)
				if (e % d == 0)
					v[nv++] = d;
		} else {
			for (d = 1; d <= (strcmp(kind, "simd") ? 64 : 8);
					d *= 2)
				v[nv++] = d;
		}
		search_space_set_knob(s, k, sim_model_knob_name(model, k), v,
			nv, NULL);
	}
	return s;
}

static double bench_model(const sim_model *model, const search_space *s,
	uint64_t *legal)
{
	uint64_t idx, n = search_space_size(s);
	int32_t knobs[SEARCH_MAX_KNOBS];
	sim_metrics m;
	double t0 = omp_get_wtime();

	*legal = 0;
	for (idx = 0; idx < n; idx++) {
		search_space_decode(s, idx, knobs);
		sim_eval(model, knobs, &m);
		*legal += m.status == SIM_OK;
	}
	return omp_get_wtime() - t0;
}

int main(int argc, char **argv)
{
	int64_t m = 1024, n = 1024, k = 1024;
	poly_template t;
	sim_model *model;
	search_space *s;
	search_options opt;
	search_result res;
	uint64_t legal, total;
	double secs, best = 1e30;
	dse_error err;
	int rep;

	MPI_Init(&argc, &argv);
	if (argc == 4) {
		m = atoll(argv[1]);
		n = atoll(argv[2]);
		k = atoll(argv[3]);
	}
	t = mm_kernel_template(m, n, k);
	model = sim_model_alloc(&t, arch_board_find("u250"),
		arch_dtype_find("fp32"), NULL, &err);
	if (!model) {
		fprintf(stderr, "bench_eval: %s\n", err.msg);
		MPI_Finalize();
		return 1;
	}
	s = mm_space(model, &t);
	total = search_space_size(s);
	for (rep = 0; rep < 5; rep++) {
		secs = bench_model(model, s, &legal);
		best = secs < best ? secs : best;
	}
	printf("model: mm %lldx%lldx%lld fp32 on u250, %llu points (%llu "
		"legal), best of 5: %.1f ns/point = %.2f M points/s per core\n",
		(long long) m, (long long) n, (long long) k,
		(unsigned long long) total, (unsigned long long) legal,
		best / total * 1e9, total / best / 1e6);

	memset(&opt, 0, sizeof(opt));
	opt.n_obj = 2;
	opt.objectives[0] = SIM_M_LATENCY;
	opt.objectives[1] = SIM_M_DSP;
	opt.n_constraints = 2;
	opt.constraints[0].metric = SIM_M_DSP;
	opt.constraints[0].max = 0.75 * 12288;
	opt.constraints[1].metric = SIM_M_BRAM18K;
	opt.constraints[1].max = 0.7 * 5376;
	omp_set_num_threads(1);
	best = 1e30;
	for (rep = 0; rep < 5; rep++) {
		if (search_exhaustive(s, model, &opt, MPI_COMM_SELF, &res,
				NULL))
			return 1;
		best = res.seconds < best ? res.seconds : best;
		if (rep == 4)
			printf("search: 1 thread, %llu valid, front %zu, best "
				"of 5: %.3f s = %.2f M points/s per core\n",
				(unsigned long long) res.valid,
				search_front_size(res.front), best,
				total / best / 1e6);
		search_front_free(res.front);
	}
	search_space_free(s);
	sim_model_free(model);
	MPI_Finalize();
	return 0;
}
