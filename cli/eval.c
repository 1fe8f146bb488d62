/* "dse eval" printed, and what it shares with "dse simulate": the design
 * dse_eval returns as a table of every metric with its unit, or as one
 * JSON object through the command line's JSON writer.
 */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/json.h"

/* A resource line: the amount and its share of the board. */
static void resource_line(FILE *out, const dse_ctx *ctx, const char *label,
	enum sim_metric id, int64_t v)
{
	double cap = sim_metric_capacity(&ctx->board, id);

	if (cap > 0)
		fprintf(out, "  %-14s %lld (%.1f%% of %.0f)\n", label,
			(long long) v, 100.0 * (double) v / cap, cap);
	else
		fprintf(out, "  %-14s %lld\n", label, (long long) v);
}

void cli_resource_lines(FILE *out, const dse_ctx *ctx,
	const sim_metrics *m)
{
	resource_line(out, ctx, "DSP", SIM_M_DSP, m->dsp);
	resource_line(out, ctx, "BRAM18K", SIM_M_BRAM18K, m->bram18k);
	resource_line(out, ctx, "URAM", SIM_M_URAM, m->uram);
	resource_line(out, ctx, "LUT", SIM_M_LUT, m->lut);
	resource_line(out, ctx, "FF", SIM_M_FF, m->ff);
}

void cli_print_fit(FILE *out, const dse_ctx *ctx, const sim_metrics *m)
{
	char over[256];

	if (dse_over_board(ctx, m, over, sizeof(over)))
		fprintf(out, "  %-14s over the board: %s\n", "status", over);
	else
		fprintf(out, "  %-14s legal\n", "status");
}

void cli_print_bound(FILE *out, const poly_template *t,
	const sim_metrics *m)
{
	const char *a = dse_bound_array(t, m);

	if (m->status != SIM_OK || m->bound_by == SIM_BOUND_NONE)
		return;
	fprintf(out, "  %-14s %s%s%s (busy %.1f%% of the cycles)\n",
		"bound by", sim_bound_name(m->bound_by), *a ? " " : "", a,
		100.0 * m->bound_share);
}

/* A count of the breakdown's table, "-" where the row has none. */
static void part_cell(FILE *out, int width, int64_t v, int has)
{
	if (has)
		fprintf(out, " %*lld", width, (long long) v);
	else
		fprintf(out, " %*s", width, "-");
}

/* The breakdown as a table: a row per kind of module (its own logic),
 * then its buffers and FIFOs, each with the resources of all its
 * instances; the total row is what the metrics above say, with BRAM in
 * 36-Kb tiles too, as Vivado reports it.
 */
static void print_breakdown(const dse_evaluation *d, FILE *out)
{
	int64_t dsp = 0, bram = 0, uram = 0, lut = 0, ff = 0;
	int i;

	fprintf(out, "\nbreakdown (resources of all instances of a row)\n");
	fprintf(out, "  %-22s %-34s %6s %5s %6s %5s %3s %-6s %6s %7s %5s "
		"%8s %8s\n", "module", "part", "count", "width", "depth",
		"banks", "x", "memory", "DSP", "BRAM18K", "URAM", "LUT", "FF");
	for (i = 0; i < d->n_parts; i++) {
		const sim_part *p = &d->parts[i];
		int buf = p->kind != SIM_PART_MODULE;

		fprintf(out, "  %-22s %-34s", p->module, buf ? p->name : "");
		part_cell(out, 6, p->count, 1);
		part_cell(out, 5, p->width, buf);
		part_cell(out, 6, p->depth, buf);
		part_cell(out, 5, p->banks, buf);
		part_cell(out, 3, p->copies, buf);
		fprintf(out, " %-6s", buf ? arch_mem_name(p->mem) : "-");
		fprintf(out, " %6lld %7lld %5lld %8lld %8lld\n",
			(long long) p->dsp, (long long) p->bram18k,
			(long long) p->uram, (long long) p->lut,
			(long long) p->ff);
		dsp += p->dsp;
		bram += p->bram18k;
		uram += p->uram;
		lut += p->lut;
		ff += p->ff;
	}
	fprintf(out, "  %-22s %-34s %6s %5s %6s %5s %3s %-6s %6lld %7lld %5lld "
		"%8lld %8lld\n", "total", "", "", "", "", "", "", "",
		(long long) dsp, (long long) bram, (long long) uram,
		(long long) lut, (long long) ff);
	fprintf(out, "  BRAM18K %lld = %.1f BRAM36 tiles; x: copies (2 for "
		"ping-pong buffers)\n", (long long) bram, (double) bram / 2.0);
}

static void print_text(const dse_ctx *ctx, const dse_evaluation *d,
	FILE *out)
{
	const sim_metrics *m = &d->m;
	const char *ops = ctx->dtype->is_float ? "GFLOP/s" : "GOP/s";
	char cand[128];

	fprintf(out, "dse eval: %s on %s, %s, space_time[%d] %s\n",
		d->d.tmpl.kernel, ctx->board.name, ctx->dtype->name,
		d->d.tmpl.space_time, dse_space_time_name(ctx,
		d->d.tmpl.space_time, cand, sizeof(cand)));
	fprintf(out, "  %-14s %s\n", "design", d->d.sa);
	if (d->d.note[0])
		fprintf(out, "  %-14s %s\n", "note", d->d.note);
	fprintf(out, "  %-14s %s, double buffering %s\n", "I/O network",
		dse_net_name(d->d.io_network), d->d.double_buffer ? "on" : "off");
	if (m->status != SIM_OK) {
		fprintf(out, "  %-14s illegal: %s\n", "status",
			sim_status_name(m->status));
		return;
	}
	cli_print_fit(out, ctx, m);
	fprintf(out, "  %-14s %llu cycles\n", "cycles",
		(unsigned long long) m->cycles);
	cli_print_bound(out, &d->d.tmpl, m);
	fprintf(out, "  %-14s %.6g ms\n", "latency", m->latency_s * 1e3);
	fprintf(out, "  %-14s %.2f %s\n", "throughput", m->gops, ops);
	fprintf(out, "  %-14s %.1f MHz\n", "clock", m->mhz);
	fprintf(out, "  %-14s %d x %d (%lld PEs), II %d\n", "PE array",
		m->pe_rows, m->pe_cols, (long long) m->n_pe, m->ii);
	cli_resource_lines(out, ctx, m);
	fprintf(out, "  %-14s %lld bytes (%.2f MiB)\n", "off-chip",
		(long long) m->offchip_bytes,
		(double) m->offchip_bytes / (1024.0 * 1024.0));
	fprintf(out, "  %-14s %.6g J\n", "energy", m->energy_j);
	fprintf(out, "  %-14s %.6g J*s\n", "EDP", m->edp);
	if (d->n_parts >= 0)
		print_breakdown(d, out);
}


/* ---- JSON ----------------------------------------------------------------- */

void cli_json_design_bound(struct cli_json *j, const poly_template *t,
	const sim_metrics *m)
{
	if (m->status != SIM_OK || m->bound_by == SIM_BOUND_NONE)
		return;
	cli_json_str(j, "bound_by", sim_bound_name(m->bound_by));
	cli_json_str(j, "bound_array", dse_bound_array(t, m));
	cli_json_f64(j, "bound_share", m->bound_share);
}

/* The resources a board caps, in the order the reports list them. */
static const enum sim_metric board_res[] = { SIM_M_DSP, SIM_M_BRAM18K,
	SIM_M_URAM, SIM_M_LUT, SIM_M_FF };
#define N_BOARD_RES ((int) (sizeof(board_res) / sizeof(board_res[0])))

void cli_json_design_status(struct cli_json *j, const dse_ctx *ctx,
	const sim_metrics *m)
{
	char over[256];
	int i;

	if (m->status != SIM_OK) {
		cli_json_str(j, "status", sim_status_name(m->status));
		cli_json_int(j, "status_code", m->status);
		return;
	}
	cli_json_str(j, "status", dse_over_board(ctx, m, over,
		sizeof(over)) ? "over_board" : "ok");
	cli_json_int(j, "status_code", m->status);
	cli_json_open(j, "over_board", '[', 1);
	for (i = 0; i < N_BOARD_RES; i++)
		if (sim_metrics_get(m, board_res[i]) >
		    dse_fit_limit(ctx, board_res[i]))
			cli_json_str(j, NULL, sim_metric_name(board_res[i]));
	cli_json_close(j, ']');
}

void cli_json_board(struct cli_json *j, const dse_ctx *ctx,
	const sim_metrics *m)
{
	int i;

	cli_json_open(j, "board_fraction", '{', 1);
	for (i = 0; i < N_BOARD_RES; i++) {
		double cap = sim_metric_capacity(&ctx->board, board_res[i]);
		double v = sim_metrics_get(m, board_res[i]);

		if (cap > 0)
			cli_json_f64(j, sim_metric_name(board_res[i]), v / cap);
		else
			cli_json_null(j, sim_metric_name(board_res[i]));
	}
	cli_json_close(j, '}');
}

void cli_json_resources(struct cli_json *j, const sim_metrics *m)
{
	cli_json_int(j, "dsp", m->dsp);
	cli_json_int(j, "bram18k", m->bram18k);
	cli_json_int(j, "uram", m->uram);
	cli_json_int(j, "lut", m->lut);
	cli_json_int(j, "ff", m->ff);
}

static const char *const part_kinds[] = { "module", "buffer", "fifo" };

/* The breakdown as "breakdown": an array of rows (JSON null for the memory
 * of a module row).
 */
static void json_breakdown(struct cli_json *j, const dse_evaluation *d)
{
	int i;

	cli_json_open(j, "breakdown", '[', 1);
	for (i = 0; i < d->n_parts; i++) {
		const sim_part *p = &d->parts[i];

		cli_json_open(j, NULL, '{', 1);
		cli_json_str(j, "kind", part_kinds[p->kind]);
		cli_json_str(j, "module", p->module);
		cli_json_str(j, "part", p->name);
		cli_json_int(j, "level", p->level);
		cli_json_int(j, "count", p->count);
		cli_json_int(j, "width", p->width);
		cli_json_int(j, "depth", p->depth);
		cli_json_int(j, "banks", p->banks);
		cli_json_int(j, "copies", p->copies);
		if (p->mem >= 0)
			cli_json_str(j, "memory", arch_mem_name(p->mem));
		else
			cli_json_null(j, "memory");
		cli_json_int(j, "dsp", p->dsp);
		cli_json_int(j, "bram18k", p->bram18k);
		cli_json_int(j, "uram", p->uram);
		cli_json_int(j, "lut", p->lut);
		cli_json_int(j, "ff", p->ff);
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
}

static void print_json(const dse_ctx *ctx, const dse_evaluation *d,
	FILE *out)
{
	const sim_metrics *m = &d->m;
	struct cli_json j;
	char cand[128];
	int k;

	cli_json_begin(&j, out, 1);
	cli_json_open(&j, NULL, '{', 0);
	cli_json_str(&j, "kernel", d->d.tmpl.kernel);
	cli_json_str(&j, "board", ctx->board.name);
	cli_json_int(&j, "space_time", d->d.tmpl.space_time);
	cli_json_str(&j, "space_time_name", dse_space_time_name(ctx,
		d->d.tmpl.space_time, cand, sizeof(cand)));
	cli_json_str(&j, "sa_sizes", d->d.sa);
	if (d->d.note[0])
		cli_json_str(&j, "note", d->d.note);
	cli_json_str(&j, "io_network", dse_net_name(d->d.io_network));
	cli_json_int(&j, "double_buffer", d->d.double_buffer);
	cli_json_design_status(&j, ctx, m);
	cli_json_int(&j, "cycles", (long long) m->cycles);
	cli_json_design_bound(&j, &d->d.tmpl, m);
	cli_json_f64(&j, "latency_s", m->latency_s);
	cli_json_f64(&j, "gops", m->gops);
	cli_json_f64(&j, "mhz", m->mhz);
	cli_json_resources(&j, m);
	cli_json_int(&j, "offchip_bytes", m->offchip_bytes);
	cli_json_f64(&j, "energy", m->energy_j);
	cli_json_f64(&j, "edp", m->edp);
	cli_json_int(&j, "n_pe", m->n_pe);
	cli_json_int(&j, "pe_rows", m->pe_rows);
	cli_json_int(&j, "pe_cols", m->pe_cols);
	cli_json_int(&j, "ii", m->ii);
	cli_json_board(&j, ctx, m);
	cli_json_open(&j, "knobs", '{', 1);
	for (k = 0; k < sim_model_n_knobs(d->d.model); k++)
		cli_json_int(&j, sim_model_knob_name(d->d.model, k),
			(int) d->d.knobs[k]);
	cli_json_close(&j, '}');
	if (d->n_parts >= 0)
		json_breakdown(&j, d);
	cli_json_close(&j, '}');
	fputc('\n', out);
}

dse_stat cli_evaluation_print(const dse_ctx *ctx, const dse_evaluation *res,
	int json, FILE *out, dse_error *err)
{
	if (json)
		print_json(ctx, res, out);
	else
		print_text(ctx, res, out);
	if (fflush(out) != 0 || ferror(out))
		return dse_error_set(err, DSE_E_IO, "cannot write the "
			"evaluation to standard output");
	return dse_stat_ok;
}
