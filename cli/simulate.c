/* "dse simulate" printed: the run dse_simulate returns (a kernel's design
 * or a workload's) as lines for people or as one JSON object through the
 * command line's JSON writer.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/json.h"

static const char *mode_title(int mode)
{
	switch (mode) {
	case SIM_MODEL_FULL: return "full cycle simulation";
	case SIM_MODEL_SAMPLED: return "sampled cycle model";
	default: return "analytic model";
	}
}

/* The cycles, with the interval and the tiles simulated when sampled. */
static void print_cycles(const dse_simulation *r, FILE *out)
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
static int print_timing(const dse_ctx *ctx, const dse_simulation *r,
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
	cli_print_fit(out, ctx, m);
	print_cycles(r, out);
	cli_print_bound(out, &r->d.tmpl, m);
	fprintf(out, "  %-14s %.6g ms\n", "latency", m->latency_s * 1e3);
	fprintf(out, "  %-14s %.2f %s\n", "throughput", m->gops,
		ctx->dtype->is_float ? "GFLOP/s" : "GOP/s");
	return 1;
}

static void print_text(const dse_ctx *ctx, const dse_simulate_opts *opts,
	const dse_simulation *r, FILE *out)
{
	const sim_metrics *m = &r->rep.metrics;
	char cand[128];

	fprintf(out, "dse simulate: %s on %s, %s, space_time[%d] %s, %s\n",
		r->d.tmpl.kernel, ctx->board.name, ctx->dtype->name,
		r->d.tmpl.space_time, dse_space_time_name(ctx,
		r->d.tmpl.space_time, cand, sizeof(cand)),
		mode_title(opts->mode));
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
	cli_resource_lines(out, ctx, m);
	fprintf(out, "  %-14s %.3f s, %.3g PE-cycles/s\n", "simulated in",
		r->seconds, r->seconds > 0 ?
		(double) r->rep.pe_cycles / r->seconds : 0.0);
	print_modules(&r->rep, out);
}


static void workload_print_text(const dse_ctx *ctx, const dse_simulate_opts *o,
	const dse_simulation *r, FILE *out)
{
	const sim_metrics *m = &r->rep.metrics;
	family_fact fact[DSE_MAX_FACTS];
	int i, n = dse_workload_facts(ctx, fact, DSE_MAX_FACTS);

	/* The workload's facts in brackets after its name: "(cora, 2708
	 * vertices, 5429 edges)".
	 */
	fprintf(out, "dse simulate: %s", ctx->tmpl.kernel);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : " (", out);
		if (fact[i].text)
			fputs(fact[i].text, out);
		else
			fprintf(out, "%lld %s", (long long) fact[i].value,
				fact[i].label);
	}
	fprintf(out, "%s on %s, %s, %s\n", n ? ")" : "", ctx->board.name,
		dse_workload_family(ctx), mode_title(o->mode));
	fprintf(out, "  %-14s %s\n", "design", r->d.sa);
	if (!print_timing(ctx, r, out))
		return;
	fprintf(out, "  %-14s %lld\n", "PEs", (long long) m->n_pe);
	fprintf(out, "  %-14s %.1f%%\n", "PE utilisation",
		100.0 * r->rep.pe_utilisation);
	fprintf(out, "  %-14s %.3f GB/s\n", "DRAM bandwidth",
		r->rep.dram_gbps);
	cli_resource_lines(out, ctx, m);
	fprintf(out, "  %-14s %.3f s\n", "simulated in", r->seconds);
	print_modules(&r->rep, out);
}


/* ---- JSON ----------------------------------------------------------------- */

static void json_modules(struct cli_json *j, const sim_cycle_report *rep)
{
	int i;

	cli_json_open(j, "modules", '[', 1);
	for (i = 0; i < rep->n_modules && i < SIM_MAX_MODULES; i++) {
		const sim_module_stat *m = &rep->module[i];
		char name[SIM_MODULE_NAME_LEN + 1];

		snprintf(name, sizeof(name), "%.*s", SIM_MODULE_NAME_LEN,
			m->name);
		cli_json_open(j, NULL, '{', 1);
		cli_json_int(j, "count", m->count);
		cli_json_str(j, "name", name);
		cli_json_int(j, "busy", (long long) m->busy);
		cli_json_int(j, "stall_in", (long long) m->stall_in);
		cli_json_int(j, "stall_out", (long long) m->stall_out);
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
}

/* The cycles with their interval, the tiles simulated, latency and
 * throughput, as JSON members.
 */
static void json_timing(struct cli_json *j, const sim_cycle_report *rep)
{
	const sim_metrics *m = &rep->metrics;

	cli_json_int(j, "cycles", (long long) m->cycles);
	cli_json_f64(j, "cycles_low", rep->cycles_low);
	cli_json_f64(j, "cycles_high", rep->cycles_high);
	cli_json_int(j, "tiles", (long long) rep->tiles);
	cli_json_int(j, "tiles_simulated", (long long) rep->tiles_simulated);
	cli_json_f64(j, "fraction", rep->fraction);
	cli_json_f64(j, "latency_s", m->latency_s);
	cli_json_f64(j, "gops", m->gops);
}

static void print_json(const dse_ctx *ctx, const dse_simulate_opts *opts,
	const dse_simulation *r, FILE *out)
{
	const sim_cycle_report *rep = &r->rep;
	const sim_metrics *m = &rep->metrics;
	struct cli_json j;
	char cand[128];

	cli_json_begin(&j, out, 1);
	cli_json_open(&j, NULL, '{', 0);
	cli_json_int(&j, "space_time", r->d.tmpl.space_time);
	cli_json_str(&j, "space_time_name", dse_space_time_name(ctx,
		r->d.tmpl.space_time, cand, sizeof(cand)));
	cli_json_str(&j, "kernel", r->d.tmpl.kernel);
	cli_json_str(&j, "board", ctx->board.name);
	cli_json_str(&j, "sa_sizes", r->d.sa);
	cli_json_str(&j, "io_network", dse_net_name(r->d.io_network));
	cli_json_int(&j, "double_buffer", r->d.double_buffer);
	cli_json_str(&j, "mode", sim_model_kind_name(opts->mode));
	cli_json_str(&j, "model", sim_model_kind_name(rep->model));
	cli_json_design_status(&j, ctx, m);
	cli_json_int(&j, "seed", (long long) r->co.seed);
	json_timing(&j, rep);
	cli_json_design_bound(&j, &r->d.tmpl, m);
	cli_json_f64(&j, "mhz", m->mhz);
	cli_json_f64(&j, "pe_utilisation", rep->pe_utilisation);
	cli_json_f64(&j, "dram_gbps", rep->dram_gbps);
	cli_json_int(&j, "pe_cycles", (long long) rep->pe_cycles);
	cli_json_f64(&j, "seconds", r->seconds);
	cli_json_int(&j, "n_pe", m->n_pe);
	cli_json_int(&j, "pe_rows", m->pe_rows);
	cli_json_int(&j, "pe_cols", m->pe_cols);
	cli_json_resources(&j, m);
	cli_json_int(&j, "offchip_bytes", m->offchip_bytes);
	cli_json_f64(&j, "energy", m->energy_j);
	cli_json_board(&j, ctx, m);
	json_modules(&j, rep);
	cli_json_close(&j, '}');
	fputc('\n', out);
}

static void workload_print_json(const dse_ctx *ctx, const dse_simulate_opts *o,
	const dse_simulation *r, FILE *out)
{
	const sim_cycle_report *rep = &r->rep;
	const sim_metrics *m = &rep->metrics;
	family_fact fact[DSE_MAX_FACTS];
	struct cli_json j;
	int i, n;

	cli_json_begin(&j, out, 1);
	cli_json_open(&j, NULL, '{', 0);
	cli_json_str(&j, "family", dse_workload_family(ctx));
	cli_json_str(&j, "workload", ctx->tmpl.kernel);
	/* The text facts (a graph's name) beside the workload's name. */
	n = dse_workload_facts(ctx, fact, DSE_MAX_FACTS);
	for (i = 0; i < n; i++)
		if (fact[i].text)
			cli_json_str(&j, fact[i].name, fact[i].text);
	cli_json_str(&j, "board", ctx->board.name);
	cli_json_str(&j, "design", r->d.sa);
	cli_json_str(&j, "mode", sim_model_kind_name(o->mode));
	cli_json_str(&j, "model", sim_model_kind_name(rep->model));
	cli_json_design_status(&j, ctx, m);
	if (r->why[0])
		cli_json_str(&j, "why", r->why);
	json_timing(&j, rep);
	cli_json_int(&j, "n_pe", m->n_pe);
	cli_json_resources(&j, m);
	cli_json_f64(&j, "energy", m->energy_j);
	cli_json_board(&j, ctx, m);
	cli_json_f64(&j, "seconds", r->seconds);
	json_modules(&j, rep);
	cli_json_close(&j, '}');
	fputc('\n', out);
}

dse_stat cli_simulation_print(const dse_ctx *ctx, const dse_simulation *res,
	const dse_simulate_opts *opts, FILE *out, dse_error *err)
{
	if (res->workload)
		(opts->json ? workload_print_json : workload_print_text)(ctx,
			opts, res, out);
	else
		(opts->json ? print_json : print_text)(ctx, opts, res, out);
	if (fflush(out) != 0 || ferror(out))
		return dse_error_set(err, DSE_E_IO, "cannot write the "
			"simulation to standard output");
	return dse_stat_ok;
}
