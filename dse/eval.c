/* "dse eval": one design, given in AutoSA's --sa-sizes syntax, evaluated
 * with the model a sweep uses; the command line prints every metric with
 * its unit (cli/eval.c).
 *
 * The config is read exactly as a sweep reads it (board, kernel, data
 * type, [space] io_network / double_buffer), so a row of a sweep's front
 * evaluates back to the same numbers.  The design may name any space-time
 * candidate of the kernel: the template and the model are rebuilt for it.
 * Only rank 0 evaluates; the other ranks learn the outcome through one
 * broadcast, as in "dse analyze".
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "sa_sizes.h"

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

/* ---- Names, the string escaper and the verdict ------------------------ */

const char *dse_net_name(int v)
{
	return v == SIM_NET_MULTICAST ? "multicast" : "daisy";
}







const char *dse_bound_array(const poly_template *t, const sim_metrics *m)
{
	int g = m->bound_group;

	if (!t || (m->bound_by != SIM_BOUND_IO &&
	    m->bound_by != SIM_BOUND_DRAIN) || g < 0 || g >= t->n_groups)
		return "";
	return t->group[g].array;
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





/* Rank 0's part.  An illegal design, or one over the board, is returned
 * with a runtime error (exit status 1): the request was valid, the
 * design is not, and the command line still shows it.
 */
static dse_stat eval_root(const dse_ctx *ctx, const dse_eval_opts *opts,
	dse_evaluation **res, dse_error *err)
{
	dse_evaluation *d = calloc(1, sizeof(*d));

	if (!d)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	d->n_parts = -1;
	if (dse_design_build(ctx, opts->sa_sizes, opts->io_network,
			opts->double_buffer, &d->d, err)) {
		dse_evaluation_free(d);
		return dse_stat_error;
	}
	if (opts->breakdown)
		sim_breakdown(d->d.model, d->d.knobs, d->parts, &d->n_parts,
			&d->m);
	else
		sim_eval(d->d.model, d->d.knobs, &d->m);
	*res = d;
	return dse_fit_verdict(ctx, d->d.sa, &d->m, err);
}

dse_stat dse_eval(const dse_ctx *ctx, const dse_eval_opts *opts,
	dse_evaluation **res, dse_error *err)
{
	dse_stat st = dse_stat_ok;

	*res = NULL;
	if (ctx->rank == 0)
		st = eval_root(ctx, opts, res, err);
	return dse_root_verdict(ctx, st, err);
}

dse_evaluation *dse_evaluation_free(dse_evaluation *res)
{
	if (res) {
		dse_design_clear(&res->d);
		free(res);
	}
	return NULL;
}
