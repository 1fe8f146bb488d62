/* "dse simulate": one design, given in AutoSA's --sa-sizes syntax, run
 * through the full cycle simulation, the sampled cycle model or the
 * analytic model, with what only a simulation shows: the confidence
 * interval of a sampled estimate, utilisation, achieved DRAM bandwidth
 * and the busy and stall cycles of every module class.
 *
 * The design is built exactly as "dse eval" builds it (dse_design_build),
 * so the two commands always agree on which design a string names.  Only
 * rank 0 simulates; the other ranks learn the outcome.  The command line
 * prints the run (cli/simulate.c).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

/* What a simulation that ran says of its design: ok, or a runtime error
 * naming why the design is illegal or the resources over the board, as
 * in "dse eval".
 */
static dse_stat run_verdict(const dse_ctx *ctx, const dse_simulation *r,
	dse_error *err)
{
	if (r->rep.metrics.status != SIM_OK && r->why[0])
		return dse_error_set(err, DSE_E_RUNTIME, "illegal design %s: "
			"%s", r->d.sa, r->why);
	return dse_fit_verdict(ctx, r->d.sa, &r->rep.metrics, err);
}

/* Rank 0's part: the run into "r" (cleared by the caller); ok when it
 * ran, whatever the design's verdict.
 */
static dse_stat simulate_root(const dse_ctx *ctx,
	const dse_simulate_opts *opts, dse_simulation *r, dse_error *err)
{
	dse_stat st;
	double t0;

	st = dse_design_build(ctx, opts->sa_sizes, opts->io_network,
		opts->double_buffer, &r->d, err);
	r->co.fifo_depth = opts->fifo_depth;
	r->co.samples = opts->samples;
	r->co.seed = (uint64_t) (opts->seed >= 0 ? opts->seed : ctx->seed);
	t0 = omp_get_wtime();
	if (st == dse_stat_ok)
		st = sim_simulate(r->d.model, r->d.knobs, opts->mode, &r->co,
			&r->rep, err);
	r->seconds = omp_get_wtime() - t0;
	return st;
}

/* --- workloads (GNN, overlay-systolic) ----------------------------------- */

/* The knobs of a workload's design: the published configuration, the
 * config's single [space] values over it, the --design pairs over those.
 */
static dse_stat workload_knobs(const dse_ctx *ctx, const char *text,
	int32_t *knobs, dse_error *err)
{
	int n = dse_workload_n_knobs(ctx), k;
	const char *s = text;

	for (k = 0; k < n; k++) {
		int32_t v[SEARCH_MAX_KNOBS];

		knobs[k] = (int32_t) dse_workload_knob_default(ctx, k);
		if (search_space_knob_size(ctx->space, k) == 1) {
			search_space_decode(ctx->space, 0, v);
			knobs[k] = v[k];
		}
	}
	while (*s) {
		char name[64];
		long long v;
		int used = 0;

		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (sscanf(s, "%63[a-z_0-9]=%lld%n", name, &v, &used) != 2 ||
		    v < 1 || v > INT32_MAX)
			return dse_error_set(err, DSE_E_INPUT, "--design: "
				"expected knob=value (a positive integer) at "
				"'%s'", s);
		k = dse_workload_knob_find(ctx, name);
		if (k < 0)
			return dse_error_set(err, DSE_E_INPUT, "--design: the "
				"%s family has no knob '%s'",
				dse_workload_family(ctx), name);
		knobs[k] = (int32_t) v;
		s += used;
	}
	return dse_stat_ok;
}

static dse_stat workload_simulate_root(const dse_ctx *ctx,
	const dse_simulate_opts *opts, dse_simulation *r, dse_error *err)
{
	dse_stat st;
	double t0;

	r->workload = 1;
	if (opts->sa_sizes && !opts->design)
		return dse_error_set(err, DSE_E_INPUT, "this config is a "
			"workload: give the design as --design \"knob=value "
			"...\", not --sa-sizes");
	st = workload_knobs(ctx, opts->design ? opts->design : "",
		r->d.knobs, err);
	if (st != dse_stat_ok)
		return st;
	dse_design_text(ctx, r->d.knobs, r->d.sa, sizeof(r->d.sa));
	st = dse_workload_prepare_design(ctx, r->d.knobs, err);
	if (st != dse_stat_ok)
		return st;
	r->co.samples = opts->samples;
	r->co.seed = (uint64_t) (opts->seed >= 0 ? opts->seed : ctx->seed);
	t0 = omp_get_wtime();
	st = dse_workload_simulate(ctx, r->d.knobs, opts->mode, &r->co,
		&r->rep, err);
	r->seconds = omp_get_wtime() - t0;
	if (st == dse_stat_ok && r->rep.metrics.status != SIM_OK)
		dse_workload_why(ctx, r->d.knobs, r->why, sizeof(r->why));
	return st;
}

/* Rank 0's part: *res is set when the simulation ran. */
static dse_stat root(const dse_ctx *ctx, const dse_simulate_opts *opts,
	dse_simulation **res, dse_error *err)
{
	dse_simulation *r;
	dse_stat st;

	if (!dse_is_workload(ctx) && !opts->sa_sizes)
		return dse_error_set(err, DSE_E_INPUT, "--design names a "
			"workload's design; this config is a kernel: give "
			"--sa-sizes STRING");
	r = calloc(1, sizeof(*r));
	if (!r)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	st = dse_is_workload(ctx) ? workload_simulate_root(ctx, opts, r, err) :
		simulate_root(ctx, opts, r, err);
	if (st != dse_stat_ok) {
		dse_simulation_free(r);
		return st;
	}
	*res = r;
	return run_verdict(ctx, r, err);
}

dse_stat dse_simulate(const dse_ctx *ctx, const dse_simulate_opts *opts,
	dse_simulation **res, dse_error *err)
{
	dse_stat st = dse_stat_ok;

	*res = NULL;
	if (ctx->rank == 0)
		st = root(ctx, opts, res, err);
	return dse_root_verdict(ctx, st, err);
}

dse_simulation *dse_simulation_free(dse_simulation *res)
{
	if (res) {
		dse_design_clear(&res->d);
		free(res);
	}
	return NULL;
}
