/* "dse eval": one design, given in AutoSA's --sa-sizes syntax, evaluated
 * with the model a sweep uses, every metric printed with its unit.
 *
 * The config is read exactly as a sweep reads it (board, kernel, data
 * type, [space] io_network / double_buffer), so a row of a sweep's front
 * evaluates back to the same numbers.  The design may name any space-time
 * candidate of the kernel: the template and the model are rebuilt for it.
 * Only rank 0 evaluates and prints; the other ranks learn the outcome
 * through one broadcast, as in "dse analyze".
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sa_sizes.h"

/* What rank 0 evaluated: the design, its metrics and, when asked for,
 * its breakdown.
 */
struct design {
	dse_design d;
	sim_metrics m;
	int n_parts;		/* -1: no breakdown asked for */
	sim_part parts[SIM_MAX_PARTS];
};

/* The loops of the knobs of one kind ("i, j, k") and their number. */
static int kind_loops(const dse_design *d, const char *kind, char *buf,
	size_t size)
{
	int k, n = 0;

	buf[0] = '\0';
	for (k = 0; k < sim_model_n_knobs(d->model); k++) {
		int loop = sim_model_knob_loop(d->model, k);
		size_t len = strlen(buf);

		if (strcmp(sim_model_knob_kind(d->model, k), kind) || loop < 0)
			continue;
		snprintf(buf + len, size - len, "%s%s", n ? ", " : "",
			d->tmpl.loop[loop]);
		n++;
	}
	return n;
}

/* Checks that the --sa-sizes list of entry e has one value per knob of
 * its kind; array_part_L2 is only needed when given (the model then has
 * those knobs); "latency[]" fits a candidate without latency loops.  The
 * simd list is read by simd_width.
 */
static dse_stat check_list(const dse_design *d, const dse_sa_sizes *sa,
	enum dse_sa_entry e, dse_error *err)
{
	const char *kind = dse_sa_entry_name(e);
	char loops[256];
	int need = kind_loops(d, kind, loops, sizeof(loops));

	if (need == 0 && sa->given[e] && sa->n[e] > 0)
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: "
			"space_time[%d] of kernel '%s' has no %s loop; leave "
			"out the %s entry", d->tmpl.space_time, d->tmpl.kernel,
			kind, kind);
	if (need > 0 && sa->n[e] != need)
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: %s needs "
			"%d value%s, for loop%s %s (space_time[%d]); %s %d",
			kind, need, need > 1 ? "s" : "", need > 1 ? "s" : "",
			loops, d->tmpl.space_time, sa->given[e] ?
			"got" : "the entry is missing, got", sa->n[e]);
	return dse_stat_ok;
}

/* Appends a sentence to the design's note. */
static void add_note(dse_design *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_note(dse_design *d, const char *fmt, ...)
{
	size_t len = strlen(d->note);
	va_list ap;

	if (len && len + 2 < sizeof(d->note))
		strcat(d->note, "; ");
	len = strlen(d->note);
	va_start(ap, fmt);
	vsnprintf(d->note + len, sizeof(d->note) - len, fmt, ap);
	va_end(ap);
}

/* The loops of list "loops" by name, joined by ", ". */
static void loop_names(const dse_design *d, const int *loops, int n,
	char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
			i ? ", " : "", d->tmpl.loop[loops[i]]);
}

/* The factor "f" AutoSA puts on loop "l" of the design: the SIMD width
 * when l is the kernel's SIMD loop; nothing (a note) when AutoSA skips l
 * for the layout change it needs; refused when it is SIMD dse does not
 * model: on a space loop (AutoSA's --simd-touch-space) or on a loop
 * other than the kernel's SIMD loop.
 */
static dse_stat simd_on(dse_design *d, int l, int legal, int32_t f,
	int32_t *width, dse_error *err)
{
	if (l == d->tmpl.simd_loop) {
		*width = f;
		if (!legal)
			add_note(d, "AutoSA vectorises loop %s only in the "
				"layout dse analyze names for it", d->tmpl.loop[l]);
		return dse_stat_ok;
	}
	if (poly_template_is_space(&d->tmpl, l))
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: simd "
			"factor %d on loop %s, a space loop of space_time[%d], "
			"is AutoSA's --simd-touch-space (SIMD across the PEs of "
			"that loop, with --local-reduce when it is a "
			"reduction), which dse does not model; give 1 for that "
			"loop to evaluate the array without it", (int) f,
			d->tmpl.loop[l], d->tmpl.space_time);
	if (!legal) {
		add_note(d, "simd factor %d on loop %s is not applied: AutoSA "
			"skips a loop whose accesses need a layout change",
			(int) f, d->tmpl.loop[l]);
		return dse_stat_ok;
	}
	if (d->tmpl.simd_loop >= 0)
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: simd "
			"factor %d on loop %s: dse models SIMD on loop %s, the "
			"one dse analyze names", (int) f, d->tmpl.loop[l],
			d->tmpl.loop[d->tmpl.simd_loop]);
	return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: simd factor %d "
		"on loop %s: space_time[%d] of kernel '%s' has no SIMD loop in "
		"dse", (int) f, d->tmpl.loop[l], d->tmpl.space_time,
		d->tmpl.kernel);
}

/* The SIMD width a simd list asks for, the design's other knobs read.
 * AutoSA reads one factor per loop its SIMD pass takes as a candidate
 * (dse_sa_simd_loops), in order: a list as long as the candidates, with
 * or without --simd-touch-space, is read factor by factor, which tells a
 * factor on a space loop (not modelled) from one on the SIMD loop.  Any
 * other list, dse's own one-factor form included, gives its factor above
 * 1 to the kernel's SIMD loop: AutoSA's code has one SIMD width, on the
 * loop whose accesses need no layout change, and which loops its pass
 * counts depends on how isl splits the schedule, which dse reads only
 * approximately.  At most one factor may be above 1.
 */
static dse_stat simd_width(dse_design *d, const dse_sa_sizes *sa,
	int32_t *width, dse_error *err)
{
	int loops[POLY_MAX_LOOPS], legal[POLY_MAX_LOOPS], touch[POLY_MAX_LOOPS];
	int tlegal[POLY_MAX_LOOPS], nl, nt, i, pos = -1;
	int n = sa->n[DSE_SA_SIMD];
	const int32_t *v = sa->v[DSE_SA_SIMD];
	char names[256];

	*width = 1;
	for (i = 0; i < n; i++)
		if (v[i] != 1) {
			if (pos >= 0)
				return dse_error_set(err, DSE_E_INPUT,
					"--sa-sizes: simd has two factors above "
					"1 (%d and %d); AutoSA's code has one "
					"SIMD width, on one loop", (int) v[pos],
					(int) v[i]);
			pos = i;
		}
	if (pos < 0)
		return dse_stat_ok;
	nl = dse_sa_simd_loops(&d->tmpl, d->model, d->knobs, 0, loops, legal);
	nt = dse_sa_simd_loops(&d->tmpl, d->model, d->knobs, 1, touch, tlegal);
	if (n == nl)
		return simd_on(d, loops[pos], legal[pos], v[pos], width, err);
	if (n == nt)
		return simd_on(d, touch[pos], tlegal[pos], v[pos], width, err);
	if (d->tmpl.simd_loop < 0)
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: simd[...%d"
			"...]: space_time[%d] of kernel '%s' has no SIMD loop in "
			"dse", (int) v[pos], d->tmpl.space_time, d->tmpl.kernel);
	*width = v[pos];
	if (n > 1) {
		loop_names(d, loops, nl, names, sizeof(names));
		add_note(d, "simd has %d factors where dse counts %d SIMD "
			"candidates of AutoSA (%s); its factor %d is read as "
			"the SIMD width of loop %s", n, nl, nl ? names : "none",
			(int) v[pos], d->tmpl.loop[d->tmpl.simd_loop]);
	}
	return dse_stat_ok;
}

/* The value of knob k from list entry e.  -1 (AutoSA's "not tiled") is
 * the loop's whole extent.  AutoSA's array_part_L2 tiles the tile loops
 * of array_part, so its factor counts array_part tiles: the knob, in
 * iterations, is the factor times the loop's array_part ("t1", already
 * read).
 */
static int32_t tile_value(const dse_design *d, int k, enum dse_sa_entry e,
	int32_t v, const int64_t *t1)
{
	int loop = sim_model_knob_loop(d->model, k);
	int64_t x = v;

	if (loop < 0 || (e != DSE_SA_ARRAY_PART && e != DSE_SA_ARRAY_PART_L2))
		return v;
	if (v == -1)
		return (int32_t) d->tmpl.extent[loop];
	if (e == DSE_SA_ARRAY_PART_L2)
		x = (int64_t) v * t1[loop];
	/* A product past 32 bits is past every extent: the model says the
	 * tile does not fit the loop.
	 */
	return x > INT32_MAX ? INT32_MAX : (int32_t) x;
}

/* The HBM entries, which the models do not use, as a note. */
static void hbm_note(const dse_sa_sizes *sa, char *buf, size_t size)
{
	size_t len;
	int i;

	buf[0] = '\0';
	for (i = 0; i < sa->n_hbm; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
			sa->hbm[i]);
	}
	if (sa->n_hbm) {
		len = strlen(buf);
		snprintf(buf + len, size - len, ": AutoSA's HBM banks, read "
			"and not modelled (the board's DRAM is one bandwidth)");
	}
}

/* The value of a knob with no loop: the command-line choice, else the
 * config's single value, else the default a sweep without the knob uses.
 */
static int choice(const dse_ctx *ctx, const char *key, int given, int dflt)
{
	if (given >= 0)
		return given;
	if (dse_cfg_n_choices(ctx->cfg, "space", key) == 1)
		return dse_cfg_choice_at(ctx->cfg, "space", key, 0);
	return dflt;
}

/* Fills d->knobs from the parsed string and the loop-less knobs' choices
 * (-1: not given).
 */
static dse_stat fill_knobs(const dse_ctx *ctx, int io_network,
	int double_buffer, const dse_sa_sizes *sa, dse_design *d,
	dse_error *err)
{
	int used[DSE_SA_N_ENTRIES] = { 0 };
	int64_t t1[POLY_MAX_LOOPS] = { 0 };
	int32_t width;
	int k, e, simd = -1;

	for (e = DSE_SA_ARRAY_PART; e < DSE_SA_SIMD; e++)
		if (check_list(d, sa, e, err))
			return dse_stat_error;
	hbm_note(sa, d->note, sizeof(d->note));
	d->io_network = choice(ctx, "io_network", io_network, SIM_NET_DAISY);
	d->double_buffer = choice(ctx, "double_buffer", double_buffer, 1);
	for (k = 0; k < sim_model_n_knobs(d->model); k++) {
		const char *kind = sim_model_knob_kind(d->model, k);

		if (!strcmp(kind, "io_network")) {
			d->knobs[k] = d->io_network;
			continue;
		}
		if (!strcmp(kind, "double_buffer")) {
			d->knobs[k] = d->double_buffer;
			continue;
		}
		for (e = DSE_SA_ARRAY_PART; e < DSE_SA_N_ENTRIES; e++)
			if (!strcmp(kind, dse_sa_entry_name(e)))
				break;
		if (e == DSE_SA_SIMD) {
			d->knobs[k] = 1;
			simd = k;
			continue;
		}
		if (e == DSE_SA_N_ENTRIES || used[e] >= sa->n[e])
			return dse_error_set(err, DSE_E_RUNTIME, "the model's "
				"knob '%s' has no value in --sa-sizes",
				sim_model_knob_name(d->model, k));
		d->knobs[k] = tile_value(d, k, e, sa->v[e][used[e]++], t1);
		if (e == DSE_SA_ARRAY_PART && sim_model_knob_loop(d->model, k) >=
				0)
			t1[sim_model_knob_loop(d->model, k)] = d->knobs[k];
	}
	/* The simd list is read against the design's tiling. */
	if (simd_width(d, sa, &width, err))
		return dse_stat_error;
	if (simd >= 0)
		d->knobs[simd] = width;
	return dse_stat_ok;
}

dse_stat dse_design_build(const dse_ctx *ctx, const char *sa_sizes,
	int io_network, int double_buffer, dse_design *d, dse_error *err)
{
	dse_sa_sizes sa;
	sim_options so = ctx->sim_opt;
	int cand;

	memset(d, 0, sizeof(*d));
	if (dse_sa_sizes_parse(sa_sizes, &sa, err))
		return dse_stat_error;
	cand = sa.given[DSE_SA_SPACE_TIME] ? sa.v[DSE_SA_SPACE_TIME][0] :
		ctx->tmpl.space_time;
	if (cand >= ctx->analysis->n_candidates)
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: "
			"space_time[%d]: kernel '%s' has %d space-time "
			"candidates (0..%d); 'dse analyze' lists them", cand,
			ctx->tmpl.kernel, ctx->analysis->n_candidates,
			ctx->analysis->n_candidates - 1);
	if (poly_template_from(ctx->analysis, cand, &d->tmpl, err))
		return dse_stat_error;
	so.array_part_L2 = sa.given[DSE_SA_ARRAY_PART_L2];
	so.io_network |= io_network >= 0;
	so.double_buffer |= double_buffer >= 0;
	d->model = sim_model_alloc(&d->tmpl, &ctx->board, ctx->dtype, &so,
		err);
	if (!d->model || fill_knobs(ctx, io_network, double_buffer, &sa, d,
			err))
		return dse_stat_error;
	dse_sa_write(&d->tmpl, d->model, d->knobs, d->sa, sizeof(d->sa));
	return dse_stat_ok;
}

void dse_design_clear(dse_design *d)
{
	d->model = sim_model_free(d->model);
}

dse_stat dse_root_verdict(const dse_ctx *ctx, dse_stat st, dse_error *err)
{
	int code = DSE_E_NONE;

	if (!ctx->mpi)
		return st;
	if (ctx->rank == 0 && st != dse_stat_ok)
		code = err->code ? (int) err->code : DSE_E_RUNTIME;
	/* The other ranks only need the verdict, to exit with the same
	 * status; rank 0 alone prints.
	 */
	if (MPI_Bcast(&code, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
		return dse_error_set(err, DSE_E_MPI,
			"MPI_Bcast of the outcome failed");
	if (code == DSE_E_NONE)
		return dse_stat_ok;
	if (ctx->rank != 0)
		dse_error_set(err, (enum dse_code) code,
			"the command failed on rank 0");
	return dse_stat_error;
}

/* ---- Printing -------------------------------------------------------- */

const char *dse_net_name(int v)
{
	return v == SIM_NET_MULTICAST ? "multicast" : "daisy";
}

/* A resource line: the amount and its share of the board. */
void dse_resource_line(FILE *out, const dse_ctx *ctx, const char *label,
	enum sim_metric id, int64_t v)
{
	double cap = sim_metric_capacity(&ctx->board, id);

	if (cap > 0)
		fprintf(out, "  %-14s %lld (%.1f%% of %.0f)\n", label,
			(long long) v, 100.0 * (double) v / cap, cap);
	else
		fprintf(out, "  %-14s %lld\n", label, (long long) v);
}

void dse_resource_lines(FILE *out, const dse_ctx *ctx,
	const sim_metrics *m)
{
	dse_resource_line(out, ctx, "DSP", SIM_M_DSP, m->dsp);
	dse_resource_line(out, ctx, "BRAM18K", SIM_M_BRAM18K, m->bram18k);
	dse_resource_line(out, ctx, "URAM", SIM_M_URAM, m->uram);
	dse_resource_line(out, ctx, "LUT", SIM_M_LUT, m->lut);
	dse_resource_line(out, ctx, "FF", SIM_M_FF, m->ff);
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
static void print_breakdown(const struct design *d, FILE *out)
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

static void print_text(const dse_ctx *ctx, const struct design *d,
	FILE *out)
{
	const sim_metrics *m = &d->m;
	const char *ops = ctx->dtype->is_float ? "GFLOP/s" : "GOP/s";

	fprintf(out, "dse eval: %s on %s, %s, space_time[%d]\n",
		d->d.tmpl.kernel, ctx->board.name, ctx->dtype->name,
		d->d.tmpl.space_time);
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
	dse_print_fit(out, ctx, m);
	fprintf(out, "  %-14s %llu cycles\n", "cycles",
		(unsigned long long) m->cycles);
	dse_print_bound(out, &d->d.tmpl, m);
	fprintf(out, "  %-14s %.6g ms\n", "latency", m->latency_s * 1e3);
	fprintf(out, "  %-14s %.2f %s\n", "throughput", m->gops, ops);
	fprintf(out, "  %-14s %.1f MHz\n", "clock", m->mhz);
	fprintf(out, "  %-14s %d x %d (%lld PEs), II %d\n", "PE array",
		m->pe_rows, m->pe_cols, (long long) m->n_pe, m->ii);
	dse_resource_lines(out, ctx, m);
	fprintf(out, "  %-14s %lld bytes (%.2f MiB)\n", "off-chip",
		(long long) m->offchip_bytes,
		(double) m->offchip_bytes / (1024.0 * 1024.0));
	fprintf(out, "  %-14s %.6g J\n", "energy", m->energy_j);
	fprintf(out, "  %-14s %.6g J*s\n", "EDP", m->edp);
	if (d->n_parts >= 0)
		print_breakdown(d, out);
}

void dse_print_fit(FILE *out, const dse_ctx *ctx, const sim_metrics *m)
{
	char over[256];

	if (dse_over_board(ctx, m, over, sizeof(over)))
		fprintf(out, "  %-14s over the board: %s\n", "status", over);
	else
		fprintf(out, "  %-14s legal\n", "status");
}

const char *dse_bound_array(const poly_template *t, const sim_metrics *m)
{
	int g = m->bound_group;

	if (!t || (m->bound_by != SIM_BOUND_IO &&
	    m->bound_by != SIM_BOUND_DRAIN) || g < 0 || g >= t->n_groups)
		return "";
	return t->group[g].array;
}

void dse_print_bound(FILE *out, const poly_template *t,
	const sim_metrics *m)
{
	const char *a = dse_bound_array(t, m);

	if (m->status != SIM_OK || m->bound_by == SIM_BOUND_NONE)
		return;
	fprintf(out, "  %-14s %s%s%s (busy %.1f%% of the cycles)\n",
		"bound by", sim_bound_name(m->bound_by), *a ? " " : "", a,
		100.0 * m->bound_share);
}

void dse_json_bound(FILE *out, const poly_template *t, const sim_metrics *m)
{
	if (m->status != SIM_OK || m->bound_by == SIM_BOUND_NONE)
		return;
	dse_json_str(out, "bound_by", sim_bound_name(m->bound_by));
	dse_json_str(out, "bound_array", dse_bound_array(t, m));
	dse_json_f64(out, "bound_share", m->bound_share);
}

/* A JSON number; JSON has no NaN or infinity, which print as null. */
void dse_json_f64(FILE *out, const char *key, double v)
{
	if (isfinite(v))
		fprintf(out, ",\"%s\":%.17g", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

void dse_json_i64(FILE *out, const char *key, long long v)
{
	fprintf(out, ",\"%s\":%lld", key, v);
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong forms, UTF-16 surrogates and code points past U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return n;
}

/* Writes str as a JSON string: quotes, backslashes and control
 * characters escaped; bytes that are not UTF-8 (a file or kernel name can
 * be anything) become U+FFFD so the output always parses.  The one string
 * escaper of the JSON dse prints (analyze, eval, simulate, tune).
 */
void dse_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *) (str ? str : "");

	fputc('"', out);
	while (*s) {
		int n = utf8_len(s);

		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else if (*s == '\t')
			fputs("\\t", out);
		else if (*s == '\r')
			fputs("\\r", out);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(out, "\\u%04x", *s);
		else if (n == 0)
			fputs("\\ufffd", out);
		else
			fwrite(s, 1, (size_t) n, out);
		s += n ? n : 1;
	}
	fputc('"', out);
}

void dse_json_str(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	dse_json_string(out, s);
}

void dse_json_status(FILE *out, const dse_ctx *ctx, const sim_metrics *m)
{
	static const enum sim_metric res[] = { SIM_M_DSP, SIM_M_BRAM18K,
		SIM_M_URAM, SIM_M_LUT, SIM_M_FF };
	char over[256];
	size_t i;
	int n = 0;

	if (m->status != SIM_OK) {
		dse_json_str(out, "status", sim_status_name(m->status));
		dse_json_i64(out, "status_code", m->status);
		return;
	}
	dse_json_str(out, "status", dse_over_board(ctx, m, over,
		sizeof(over)) ? "over_board" : "ok");
	dse_json_i64(out, "status_code", m->status);
	fputs(",\"over_board\":[", out);
	for (i = 0; i < sizeof(res) / sizeof(res[0]); i++)
		if (sim_metrics_get(m, res[i]) > dse_fit_limit(ctx, res[i]))
			fprintf(out, "%s\"%s\"", n++ ? "," : "",
				sim_metric_name(res[i]));
	fputc(']', out);
}

dse_stat dse_fit_verdict(const dse_ctx *ctx, const char *design,
	const sim_metrics *m, dse_error *err)
{
	char over[256];

	if (m->status != SIM_OK)
		return dse_error_set(err, DSE_E_RUNTIME, "illegal design %s: "
			"%s", design, sim_status_name(m->status));
	if (dse_over_board(ctx, m, over, sizeof(over)))
		return dse_error_set(err, DSE_E_RUNTIME, "design %s does not "
			"fit %s: %s", design, ctx->board.name, over);
	return dse_stat_ok;
}

/* The share of the board of each resource, as fractions. */
void dse_json_board(FILE *out, const dse_ctx *ctx, const sim_metrics *m)
{
	static const enum sim_metric res[] = { SIM_M_DSP, SIM_M_BRAM18K,
		SIM_M_URAM, SIM_M_LUT, SIM_M_FF };
	size_t i;

	fputs(",\"board_fraction\":{", out);
	for (i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		double cap = sim_metric_capacity(&ctx->board, res[i]);
		double v = sim_metrics_get(m, res[i]);

		fprintf(out, "%s\"%s\":", i ? "," : "",
			sim_metric_name(res[i]));
		if (cap > 0)
			fprintf(out, "%.17g", v / cap);
		else
			fputs("null", out);
	}
	fputc('}', out);
}

static const char *const part_kinds[] = { "module", "buffer", "fifo" };

/* The breakdown as "breakdown": an array of rows (JSON null for the memory
 * of a module row).
 */
static void json_breakdown(const struct design *d, FILE *out)
{
	int i;

	fputs(",\"breakdown\":[", out);
	for (i = 0; i < d->n_parts; i++) {
		const sim_part *p = &d->parts[i];

		fprintf(out, "%s{\"kind\":\"%s\"", i ? "," : "",
			part_kinds[p->kind]);
		dse_json_str(out, "module", p->module);
		dse_json_str(out, "part", p->name);
		dse_json_i64(out, "level", p->level);
		dse_json_i64(out, "count", p->count);
		dse_json_i64(out, "width", p->width);
		dse_json_i64(out, "depth", p->depth);
		dse_json_i64(out, "banks", p->banks);
		dse_json_i64(out, "copies", p->copies);
		if (p->mem >= 0)
			dse_json_str(out, "memory", arch_mem_name(p->mem));
		else
			fputs(",\"memory\":null", out);
		dse_json_i64(out, "dsp", p->dsp);
		dse_json_i64(out, "bram18k", p->bram18k);
		dse_json_i64(out, "uram", p->uram);
		dse_json_i64(out, "lut", p->lut);
		dse_json_i64(out, "ff", p->ff);
		fputc('}', out);
	}
	fputc(']', out);
}

static void print_json(const dse_ctx *ctx, const struct design *d,
	FILE *out)
{
	const sim_metrics *m = &d->m;
	int k;

	fprintf(out, "{\"kernel\":\"%s\"", d->d.tmpl.kernel);
	dse_json_str(out, "board", ctx->board.name);
	dse_json_i64(out, "space_time", d->d.tmpl.space_time);
	dse_json_str(out, "sa_sizes", d->d.sa);
	if (d->d.note[0])
		dse_json_str(out, "note", d->d.note);
	dse_json_str(out, "io_network", dse_net_name(d->d.io_network));
	dse_json_i64(out, "double_buffer", d->d.double_buffer);
	dse_json_status(out, ctx, m);
	dse_json_i64(out, "cycles", (long long) m->cycles);
	dse_json_bound(out, &d->d.tmpl, m);
	dse_json_f64(out, "latency_s", m->latency_s);
	dse_json_f64(out, "gops", m->gops);
	dse_json_f64(out, "mhz", m->mhz);
	dse_json_i64(out, "dsp", m->dsp);
	dse_json_i64(out, "bram18k", m->bram18k);
	dse_json_i64(out, "uram", m->uram);
	dse_json_i64(out, "lut", m->lut);
	dse_json_i64(out, "ff", m->ff);
	dse_json_i64(out, "offchip_bytes", m->offchip_bytes);
	dse_json_f64(out, "energy", m->energy_j);
	dse_json_f64(out, "edp", m->edp);
	dse_json_i64(out, "n_pe", m->n_pe);
	dse_json_i64(out, "pe_rows", m->pe_rows);
	dse_json_i64(out, "pe_cols", m->pe_cols);
	dse_json_i64(out, "ii", m->ii);
	dse_json_board(out, ctx, m);
	fputs(",\"knobs\":{", out);
	for (k = 0; k < sim_model_n_knobs(d->d.model); k++)
		fprintf(out, "%s\"%s\":%d", k ? "," : "",
			sim_model_knob_name(d->d.model, k), (int) d->d.knobs[k]);
	fputc('}', out);
	if (d->n_parts >= 0)
		json_breakdown(d, out);
	fputs("}\n", out);
}

/* Rank 0's part.  An illegal design, or one over the board, is printed,
 * then reported as a runtime error (exit status 1): the request was
 * valid, the design is not.
 */
static dse_stat eval_root(const dse_ctx *ctx, const dse_eval_opts *opts,
	dse_error *err)
{
	struct design *d = calloc(1, sizeof(*d));
	dse_stat st;

	if (!d)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	d->n_parts = -1;
	st = dse_design_build(ctx, opts->sa_sizes, opts->io_network,
		opts->double_buffer, &d->d, err);
	if (st == dse_stat_ok) {
		if (opts->breakdown)
			sim_breakdown(d->d.model, d->d.knobs, d->parts,
				&d->n_parts, &d->m);
		else
			sim_eval(d->d.model, d->d.knobs, &d->m);
		if (opts->json)
			print_json(ctx, d, stdout);
		else
			print_text(ctx, d, stdout);
		if (fflush(stdout) != 0 || ferror(stdout))
			st = dse_error_set(err, DSE_E_IO, "cannot write the "
				"evaluation to standard output");
	}
	if (st == dse_stat_ok)
		st = dse_fit_verdict(ctx, d->d.sa, &d->m, err);
	dse_design_clear(&d->d);
	free(d);
	return st;
}

dse_stat dse_eval(const dse_ctx *ctx, const dse_eval_opts *opts,
	dse_error *err)
{
	dse_stat st = dse_stat_ok;

	if (ctx->rank == 0)
		st = eval_root(ctx, opts, err);
	return dse_root_verdict(ctx, st, err);
}
