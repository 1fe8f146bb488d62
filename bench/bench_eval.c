/* Analytic-model speed on the matrix-multiply space and on the 2-D
 * convolution of configs/conv.cfg, one core.
 *
 * Prints three figures: the rate of sim_eval alone over every point of
 * the mm space (legal and illegal, as a sweep sees them), the rate of the
 * whole single-thread search loop (enumeration, model, constraints, front)
 * through search_exhaustive on one rank, and the rate of sim_eval over a
 * modest conv space with the io_network and double_buffer knobs.  Never
 * fails on a time.
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

/* The conv space: divisors up to 32 for array_part, 1/2/4 for latency,
 * 1/2/4/8 for simd, both I/O networks, double buffering on and off.
 */
static search_space *conv_space(const sim_model *model,
	const poly_template *t)
{
	int k, n = sim_model_n_knobs(model);
	search_space *s = search_space_alloc(n);

	for (k = 0; k < n; k++) {
		const char *kind = sim_model_knob_kind(model, k);
		int loop = sim_model_knob_loop(model, k);
		int64_t v[64], d, e = loop >= 0 ? t->extent[loop] : 0;
		int nv = 0;

		if (!strcmp(kind, "array_part")) {
			for (d = 1; d <= e && d <= 32; d++)
				if (e % d == 0)
					v[nv++] = d;
		} else if (!strcmp(kind, "latency")) {
			for (d = 1; d <= 4; d *= 2)
				v[nv++] = d;
		} else if (!strcmp(kind, "simd")) {
			for (d = 1; d <= 8; d *= 2)
				v[nv++] = d;
		} else {
			v[nv++] = 0;
			v[nv++] = 1;
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

/* The conv layer of configs/conv.cfg, built through the front end. */
static int bench_conv(void)
{
	static const int64_t params[6] = { 64, 32, 28, 28, 3, 3 };
	const example_kernel *k = example_kernel_find("conv");
	poly_kernel_desc desc = example_kernel_desc(k, params);
	sim_options sopt = { 0, 1, 1, 0, 0, { 0, 0, 0 } };
	poly_template t;
	sim_model *model;
	search_space *s;
	uint64_t legal, total;
	double secs, best = 1e30;
	dse_error err;
	int rep;

	dse_error_clear(&err);
	if (poly_template_build(&desc, -1, &t, &err) ||
	    !(model = sim_model_alloc(&t, arch_board_find("u250"),
			arch_dtype_find("fp32"), &sopt, &err))) {
		fprintf(stderr, "bench_eval: %s\n", err.msg);
		return 1;
	}
	s = conv_space(model, &t);
	total = search_space_size(s);
	for (rep = 0; rep < 5; rep++) {
		secs = bench_model(model, s, &legal);
		best = secs < best ? secs : best;
	}
	printf("model: conv O=64 I=32 R=C=28 P=Q=3 fp32 on u250 "
		"(space_time[%d], io_network and double_buffer knobs), %llu "
		"points (%llu legal), best of 5: %.1f ns/point = %.2f M "
		"points/s per core\n", t.space_time,
		(unsigned long long) total, (unsigned long long) legal,
		best / total * 1e9, total / best / 1e6);
	search_space_free(s);
	sim_model_free(model);
	return 0;
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

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
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
	rep = bench_conv();
	MPI_Finalize();
	return rep;
}
