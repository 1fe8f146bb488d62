/* "dse simulate": one design, given in AutoSA's --sa-sizes syntax, run
 * through the full cycle simulation, the sampled cycle model or the
 * analytic model, with what only a simulation shows: the confidence
 * interval of a sampled estimate, utilisation, achieved DRAM bandwidth
 * and the busy and stall cycles of every module class.
 *
 * The design is built exactly as "dse eval" builds it (dse_design_build),
 * so the two commands always agree on which design a string names.  Only
 * rank 0 simulates and prints; the other ranks learn the outcome.
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"

/* What rank 0 simulated. */
struct run {
	dse_design d;
	sim_cycle_opts co;
	sim_cycle_report rep;
	double seconds;		/* wall time of the simulation */
	char why[256];		/* an illegal workload design: what to
				 * change ("" when the status says it all) */
};

static const char *mode_title(int mode)
{
	switch (mode) {
	case SIM_MODEL_FULL: return "full cycle simulation";
	case SIM_MODEL_SAMPLED: return "sampled cycle model";
	default: return "analytic model";
	}
}

/* The cycles, with the interval and the tiles simulated when sampled. */
static void print_cycles(const struct run *r, FILE *out)
{
	const sim_cycle_report *rep = &r->rep;
	double conf = r->co.confidence > 0 ? r->co.confidence : 0.95;

	fprintf(out, "  %-14s %llu cycles\n", "cycles",
		(unsigned long long) rep->metrics.cycles);
	if (rep->model == SIM_MODEL_SAMPLED)
		fprintf(out, "  %-14s %.0f .. %.0f cycles (%.0f%% "
			"confidence)\n", "interval", rep->cycles_low, rep->cycles_high,
			100.0 * conf);
	if (rep->model != SIM_MODEL_ANALYTIC)
		fprintf(out, "  %-14s %llu of %llu simulated (%.4g%%)\n",
			"tiles",
			(unsigned long long) rep->tiles_simulated,
			(unsigned long long) rep->tiles, 100.0 * rep->fraction);
}

/* The module classes: busy and stall cycles per module of the class. */
static void print_modules(const sim_cycle_report *rep, FILE *out)
{
	int i;

	if (rep->n_modules <= 0)
		return;
	fprintf(out, "  %-20s %7s %14s %14s %14s\n", "module", "count",
		"busy", "stall_in", "stall_out");
	for (i = 0; i < rep->n_modules && i < SIM_MAX_MODULES; i++) {
		const sim_module_stat *m = &rep->module[i];

		fprintf(out, "  %-20.*s %7d %14llu %14llu %14llu\n",
			SIM_MODULE_NAME_LEN, m->name, m->count,
			(unsigned long long) m->busy,
			(unsigned long long) m->stall_in,
			(unsigned long long) m->stall_out);
	}
}

/* The status and, for a legal design, its cycles, latency and
 * throughput; returns whether the design is legal.
 */
static int print_timing(const dse_ctx *ctx, const struct run *r,
	FILE *out)
{
	const sim_metrics *m = &r->rep.metrics;

	if (m->status != SIM_OK) {
		fprintf(out, "  %-14s illegal: %s\n", "status",
			sim_status_name(m->status));
		if (r->why[0])
			fprintf(out, "  %-14s %s\n", "why", r->why);
		return 0;
	}
	dse_print_fit(out, ctx, m);
	print_cycles(r, out);
	dse_print_bound(out, &r->d.tmpl, m);
	fprintf(out, "  %-14s %.6g ms\n", "latency", m->latency_s * 1e3);
	fprintf(out, "  %-14s %.2f %s\n", "throughput", m->gops,
		ctx->dtype->is_float ? "GFLOP/s" : "GOP/s");
	return 1;
}

static void print_text(const dse_ctx *ctx, const dse_simulate_opts *opts,
	const struct run *r, FILE *out)
{
	const sim_metrics *m = &r->rep.metrics;

	fprintf(out, "dse simulate: %s on %s, %s, space_time[%d], %s\n",
		r->d.tmpl.kernel, ctx->board.name, ctx->dtype->name,
		r->d.tmpl.space_time, mode_title(opts->mode));
	fprintf(out, "  %-14s %s\n", "design", r->d.sa);
	fprintf(out, "  %-14s %s, double buffering %s\n", "I/O network",
		dse_net_name(r->d.io_network), r->d.double_buffer ?
		"on" : "off");
	if (!print_timing(ctx, r, out))
		return;
	fprintf(out, "  %-14s %d x %d (%lld PEs)\n", "PE array", m->pe_rows,
		m->pe_cols, (long long) m->n_pe);
	fprintf(out, "  %-14s %.1f%%\n", "PE utilisation",
		100.0 * r->rep.pe_utilisation);
	fprintf(out, "  %-14s %.3f GB/s (%.1f%% of %.1f GB/s)\n",
		"DRAM bandwidth", r->rep.dram_gbps, ctx->board.dram_gbps > 0 ?
		100.0 * r->rep.dram_gbps / ctx->board.dram_gbps : 0.0,
		ctx->board.dram_gbps);
	dse_resource_lines(out, ctx, m);
	fprintf(out, "  %-14s %.3f s, %.3g PE-cycles/s\n", "simulated in",
		r->seconds, r->seconds > 0 ?
		(double) r->rep.pe_cycles / r->seconds : 0.0);
	print_modules(&r->rep, out);
}

static void json_modules(const sim_cycle_report *rep, FILE *out)
{
	int i;

	fputs(",\"modules\":[", out);
	for (i = 0; i < rep->n_modules && i < SIM_MAX_MODULES; i++) {
		const sim_module_stat *m = &rep->module[i];
		char name[SIM_MODULE_NAME_LEN + 1];

		snprintf(name, sizeof(name), "%.*s", SIM_MODULE_NAME_LEN,
			m->name);
		fputs(i ? ",{" : "{", out);
		/* dse_json_str starts with a comma: open with the count. */
		fprintf(out, "\"count\":%d", m->count);
		dse_json_str(out, "name", name);
		dse_json_i64(out, "busy", (long long) m->busy);
		dse_json_i64(out, "stall_in", (long long) m->stall_in);
		dse_json_i64(out, "stall_out", (long long) m->stall_out);
		fputc('}', out);
	}
	fputc(']', out);
}

/* The cycles with their interval, the tiles simulated, latency and
 * throughput, as JSON members.
 */
static void json_timing(const sim_cycle_report *rep, FILE *out)
{
	const sim_metrics *m = &rep->metrics;

	dse_json_i64(out, "cycles", (long long) m->cycles);
	dse_json_f64(out, "cycles_low", rep->cycles_low);
	dse_json_f64(out, "cycles_high", rep->cycles_high);
	dse_json_i64(out, "tiles", (long long) rep->tiles);
	dse_json_i64(out, "tiles_simulated", (long long) rep->tiles_simulated);
	dse_json_f64(out, "fraction", rep->fraction);
	dse_json_f64(out, "latency_s", m->latency_s);
	dse_json_f64(out, "gops", m->gops);
}

static void print_json(const dse_ctx *ctx, const dse_simulate_opts *opts,
	const struct run *r, FILE *out)
{
	const sim_cycle_report *rep = &r->rep;
	const sim_metrics *m = &rep->metrics;

	fprintf(out, "{\"space_time\":%d", r->d.tmpl.space_time);
	dse_json_str(out, "kernel", r->d.tmpl.kernel);
	dse_json_str(out, "board", ctx->board.name);
	dse_json_str(out, "sa_sizes", r->d.sa);
	dse_json_str(out, "io_network", dse_net_name(r->d.io_network));
	dse_json_i64(out, "double_buffer", r->d.double_buffer);
	dse_json_str(out, "mode", sim_model_kind_name(opts->mode));
	dse_json_str(out, "model", sim_model_kind_name(rep->model));
	dse_json_status(out, ctx, m);
	dse_json_i64(out, "seed", (long long) r->co.seed);
	json_timing(rep, out);
	dse_json_bound(out, &r->d.tmpl, m);
	dse_json_f64(out, "mhz", m->mhz);
	dse_json_f64(out, "pe_utilisation", rep->pe_utilisation);
	dse_json_f64(out, "dram_gbps", rep->dram_gbps);
	dse_json_i64(out, "pe_cycles", (long long) rep->pe_cycles);
	dse_json_f64(out, "seconds", r->seconds);
	dse_json_i64(out, "n_pe", m->n_pe);
	dse_json_i64(out, "pe_rows", m->pe_rows);
	dse_json_i64(out, "pe_cols", m->pe_cols);
	dse_json_i64(out, "dsp", m->dsp);
	dse_json_i64(out, "bram18k", m->bram18k);
	dse_json_i64(out, "uram", m->uram);
	dse_json_i64(out, "lut", m->lut);
	dse_json_i64(out, "ff", m->ff);
	dse_json_i64(out, "offchip_bytes", m->offchip_bytes);
	dse_json_f64(out, "energy", m->energy_j);
	dse_json_board(out, ctx, m);
	json_modules(rep, out);
	fputs("}\n", out);
}

typedef void (*printer)(const dse_ctx *ctx, const dse_simulate_opts *opts,
	const struct run *r, FILE *out);
static void workload_print_text(const dse_ctx *ctx,
	const dse_simulate_opts *o, const struct run *r, FILE *out);
static void workload_print_json(const dse_ctx *ctx,
	const dse_simulate_opts *o, const struct run *r, FILE *out);

/* Prints what a run found (when it ran) as JSON or text; an illegal
 * design, or one over the board, is printed, then reported as a runtime
 * error, as in "dse eval".
 */
static dse_stat print_run(const dse_ctx *ctx, const dse_simulate_opts *opts,
	const struct run *r, dse_stat st, printer json, printer text,
	dse_error *err)
{
	if (st != dse_stat_ok)
		return st;
	(opts->json ? json : text)(ctx, opts, r, stdout);
	if (fflush(stdout) != 0 || ferror(stdout))
		return dse_error_set(err, DSE_E_IO, "cannot write the "
			"simulation to standard output");
	if (r->rep.metrics.status != SIM_OK && r->why[0])
		return dse_error_set(err, DSE_E_RUNTIME, "illegal design %s: "
			"%s", r->d.sa, r->why);
	return dse_fit_verdict(ctx, r->d.sa, &r->rep.metrics, err);
}

/* Rank 0's part. */
static dse_stat simulate_root(const dse_ctx *ctx,
	const dse_simulate_opts *opts, dse_error *err)
{
	struct run r;
	dse_stat st;
	double t0;

	memset(&r, 0, sizeof(r));
	st = dse_design_build(ctx, opts->sa_sizes, opts->io_network,
		opts->double_buffer, &r.d, err);
	r.co.fifo_depth = opts->fifo_depth;
	r.co.samples = opts->samples;
	r.co.seed = (uint64_t) (opts->seed >= 0 ? opts->seed : ctx->seed);
	t0 = omp_get_wtime();
	if (st == dse_stat_ok)
		st = sim_simulate(r.d.model, r.d.knobs, opts->mode, &r.co,
			&r.rep, err);
	r.seconds = omp_get_wtime() - t0;
	st = print_run(ctx, opts, &r, st, print_json, print_text, err);
	dse_design_clear(&r.d);
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

static void workload_print_text(const dse_ctx *ctx, const dse_simulate_opts *o,
	const struct run *r, FILE *out)
{
	const sim_metrics *m = &r->rep.metrics;

	if (ctx->graph)
		fprintf(out, "dse simulate: %s (%s, %lld vertices, %lld edges) "
			"on %s, %s, %s\n", ctx->tmpl.kernel,
			gnn_graph_name(ctx->graph),
			(long long) gnn_graph_n_vertices(ctx->graph),
			(long long) gnn_graph_n_edges(ctx->graph),
			ctx->board.name, dse_workload_family(ctx),
			mode_title(o->mode));
	else
		fprintf(out, "dse simulate: %s on %s, %s, %s\n",
			ctx->tmpl.kernel, ctx->board.name,
			dse_workload_family(ctx), mode_title(o->mode));
	fprintf(out, "  %-14s %s\n", "design", r->d.sa);
	if (!print_timing(ctx, r, out))
		return;
	fprintf(out, "  %-14s %lld\n", "PEs", (long long) m->n_pe);
	fprintf(out, "  %-14s %.1f%%\n", "PE utilisation",
		100.0 * r->rep.pe_utilisation);
	fprintf(out, "  %-14s %.3f GB/s\n", "DRAM bandwidth",
		r->rep.dram_gbps);
	dse_resource_lines(out, ctx, m);
	fprintf(out, "  %-14s %.3f s\n", "simulated in", r->seconds);
	print_modules(&r->rep, out);
}

static void workload_print_json(const dse_ctx *ctx, const dse_simulate_opts *o,
	const struct run *r, FILE *out)
{
	const sim_cycle_report *rep = &r->rep;
	const sim_metrics *m = &rep->metrics;

	fputs("{", out);
	fprintf(out, "\"family\":\"%s\"", dse_workload_family(ctx));
	dse_json_str(out, "workload", ctx->tmpl.kernel);
	if (ctx->graph)
		dse_json_str(out, "graph", gnn_graph_name(ctx->graph));
	dse_json_str(out, "board", ctx->board.name);
	dse_json_str(out, "design", r->d.sa);
	dse_json_str(out, "mode", sim_model_kind_name(o->mode));
	dse_json_str(out, "model", sim_model_kind_name(rep->model));
	dse_json_status(out, ctx, m);
	if (r->why[0])
		dse_json_str(out, "why", r->why);
	json_timing(rep, out);
	dse_json_i64(out, "n_pe", m->n_pe);
	dse_json_i64(out, "dsp", m->dsp);
	dse_json_i64(out, "bram18k", m->bram18k);
	dse_json_i64(out, "uram", m->uram);
	dse_json_i64(out, "lut", m->lut);
	dse_json_i64(out, "ff", m->ff);
	dse_json_f64(out, "energy", m->energy_j);
	dse_json_board(out, ctx, m);
	dse_json_f64(out, "seconds", r->seconds);
	json_modules(rep, out);
	fputs("}\n", out);
}

static dse_stat workload_simulate_root(const dse_ctx *ctx,
	const dse_simulate_opts *opts, dse_error *err)
{
	struct run r;
	dse_stat st;
	double t0;

	memset(&r, 0, sizeof(r));
	if (opts->sa_sizes && !opts->design)
		return dse_error_set(err, DSE_E_INPUT, "this config is a "
			"workload: give the design as --design \"knob=value "
			"...\", not --sa-sizes");
	st = workload_knobs(ctx, opts->design ? opts->design : "", r.d.knobs,
		err);
	if (st != dse_stat_ok)
		return st;
	dse_design_text(ctx, r.d.knobs, r.d.sa, sizeof(r.d.sa));
	st = dse_workload_prepare_design(ctx, r.d.knobs, err);
	if (st != dse_stat_ok)
		return st;
	r.co.samples = opts->samples;
	r.co.seed = (uint64_t) (opts->seed >= 0 ? opts->seed : ctx->seed);
	t0 = omp_get_wtime();
	st = dse_workload_simulate(ctx, r.d.knobs, opts->mode, &r.co,
		&r.rep, err);
	r.seconds = omp_get_wtime() - t0;
	if (st == dse_stat_ok && r.rep.metrics.status != SIM_OK)
		dse_workload_why(ctx, r.d.knobs, r.why, sizeof(r.why));
	return print_run(ctx, opts, &r, st, workload_print_json,
		workload_print_text, err);
}

dse_stat dse_simulate(const dse_ctx *ctx, const dse_simulate_opts *opts,
	dse_error *err)
{
	dse_stat st = dse_stat_ok;

	if (ctx->rank == 0) {
		if (dse_is_workload(ctx))
			st = workload_simulate_root(ctx, opts, err);
		else if (!opts->sa_sizes)
			st = dse_error_set(err, DSE_E_INPUT, "--design names a "
				"workload's design; this config is a kernel: give "
				"--sa-sizes STRING");
		else
			st = simulate_root(ctx, opts, err);
	}
	return dse_root_verdict(ctx, st, err);
}
