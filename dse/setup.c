/* Building the run context from a parsed config.
 *
 * The config parser has already checked the language (sections, keys,
 * types); what is checked here needs the other modules: board names, data
 * types, the kernel itself (through isl), loop names in per-loop knob keys,
 * metric names.  Every error still points at file:line:col and the key.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

/* Sanity bounds on board overrides: far above any real device, low enough
 * that the model's arithmetic cannot overflow.
 */
#define MAX_RESOURCE 1000000000
#define MAX_PORT_BITS 8192
/* The largest work block a rank takes at once. */
#define MAX_BLOCK (INT64_C(1) << 30)

dse_stat dse_ctx_error(const dse_ctx *ctx, const char *section,
	const char *key, int offset, dse_error *err, const char *fmt, ...)
{
	int line = 0, col = 0;
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	dse_cfg_pos(ctx->cfg, section, key, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set_at(err, dse_cfg_file(ctx->cfg), line,
		col + (offset > 0 ? offset : 0), key, "%s", msg);
}

/* An input error at the value of "key" (or its section when absent). */
#define error_at(ctx, section, key, err, ...) \
	dse_ctx_error(ctx, section, key, -1, err, __VA_ARGS__)

static dse_stat setup_board(dse_ctx *ctx, dse_error *err)
{
	static const char *const ints[] = { "dsp", "bram18k", "uram", "lut",
		"ff" };
	const char *name = dse_cfg_string(ctx->cfg, "platform", "board",
		"u250");
	const arch_board *b = arch_board_find(name);
	int64_t *field[5], port;
	char known[512];
	int i;

	if (!b) {
		arch_board_names(known, sizeof(known));
		return error_at(ctx, "platform", "board", err,
			"unknown board '%s' (known boards: %s)", name, known);
	}
	ctx->board = *b;
	field[0] = &ctx->board.dsp;
	field[1] = &ctx->board.bram18k;
	field[2] = &ctx->board.uram;
	field[3] = &ctx->board.lut;
	field[4] = &ctx->board.ff;
	for (i = 0; i < 5; i++) {
		*field[i] = dse_cfg_int(ctx->cfg, "platform", ints[i],
			*field[i]);
		if (*field[i] > MAX_RESOURCE)
			return error_at(ctx, "platform", ints[i], err,
				"%s is more than any FPGA has (at most "
				"1000000000)", ints[i]);
	}
	if (dse_setup_board_rates(ctx, b, err))
		return dse_stat_error;
	port = dse_cfg_int(ctx->cfg, "platform", "dram_port_bits",
		ctx->board.dram_port_bits);
	if (port < 8 || port > MAX_PORT_BITS)
		return error_at(ctx, "platform", "dram_port_bits", err,
			"dram_port_bits must be between 8 and 8192");
	ctx->board.dram_port_bits = (int) port;
	return dse_stat_ok;
}

static poly_source source(const dse_ctx *ctx, const char *section,
	const char *key)
{
	poly_source s;

	s.file = dse_cfg_file(ctx->cfg);
	s.key = key;
	dse_cfg_pos(ctx->cfg, section, key, &s.line, &s.col);
	return s;
}

/* Kernel names become HDF5 group names and default file names, so they
 * must not contain '/', '.' or spaces.
 */
static int valid_name(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n >= POLY_NAME_LEN || isdigit((unsigned char) name[0]) ||
	    name[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char) name[i]) && name[i] != '_' &&
		    name[i] != '-')
			return 0;
	return 1;
}

dse_stat dse_ctx_kernel_desc(const dse_ctx *ctx, poly_kernel_desc *d,
	cfront_kernel **c, dse_error *err)
{
	const dse_cfg *cfg = ctx->cfg;
	int i;

	memset(d, 0, sizeof(*d));
	*c = NULL;
	d->name = dse_cfg_string(cfg, "kernel", "name", "kernel");
	if (dse_cfg_has(cfg, "kernel", "source") &&
	    dse_c_kernel(ctx, d, c, err) != dse_stat_ok)
		return dse_stat_error;
	if (!valid_name(d->name))
		return error_at(ctx, "kernel", "name", err,
			"the kernel name '%s' must be a short identifier "
			"(letters, digits, '_' or '-', at most 31 characters); "
			"it names the group in the results file", d->name);
	if (!*c) {
		d->domain = dse_cfg_string(cfg, "kernel", "domain", "");
		d->reads = dse_cfg_string(cfg, "kernel", "reads", "");
		d->writes = dse_cfg_string(cfg, "kernel", "writes", "");
	}
	/* A C kernel's program order comes from the file; a schedule in the
	 * config replaces it (a skew of its statement, named as the C reader
	 * names it: S0, S1, ... in program order).
	 */
	if (!*c || dse_cfg_has(cfg, "kernel", "schedule")) {
		d->schedule = dse_cfg_string(cfg, "kernel", "schedule", NULL);
		d->schedule_src = source(ctx, "kernel", "schedule");
	}
	d->reduction = dse_cfg_string(cfg, "kernel", "reduction", NULL);
	d->ops_per_point = (int) dse_cfg_int(cfg, "kernel", "ops", 0);
	if (d->ops_per_point > 64)
		return error_at(ctx, "kernel", "ops", err,
			"ops (operations per statement instance) must be at "
			"most 64");
	d->max_space = (int) dse_cfg_int(cfg, "kernel", "max_space", 2);
	if (d->max_space > POLY_MAX_SPACE)
		return error_at(ctx, "kernel", "max_space", err,
			"max_space must be 1, 2 or 3 (the dimensions of the "
			"arrays to enumerate)");
	if (dse_cfg_int(cfg, "kernel", "analysis_seconds", 0) > 86400)
		return error_at(ctx, "kernel", "analysis_seconds", err,
			"analysis_seconds must be at most 86400 (a day)");
	d->max_seconds = (int) dse_cfg_int(cfg, "kernel", "analysis_seconds",
		POLY_MAX_SECONDS);
	d->reduction_src = source(ctx, "kernel", "reduction");
	d->space_time_src = source(ctx, "space", "space_time");
	if (*c)
		return dse_stat_ok;
	d->n_params = dse_cfg_n_params(cfg, "kernel", "params");
	if (d->n_params > POLY_MAX_PARAMS)
		return error_at(ctx, "kernel", "params", err,
			"too many parameters (at most %d)", POLY_MAX_PARAMS);
	for (i = 0; i < d->n_params; i++) {
		d->param_name[i] = dse_cfg_param_name(cfg, "kernel", "params",
			i);
		d->param_value[i] = dse_cfg_param_value(cfg, "kernel",
			"params", i);
	}
	d->domain_src = source(ctx, "kernel", "domain");
	d->reads_src = source(ctx, "kernel", "reads");
	d->writes_src = source(ctx, "kernel", "writes");
	d->params_src = source(ctx, "kernel", "params");
	return dse_stat_ok;
}

static dse_stat setup_candidates(dse_ctx *ctx, const char *name,
	dse_error *err);

static dse_stat setup_kernel(dse_ctx *ctx, dse_error *err)
{
	const dse_cfg *cfg = ctx->cfg;
	poly_kernel_desc d;
	cfront_kernel *c;

	/* A C kernel is an input file like a graph: a checkpoint resumes
	 * only on the file it was made from, and no output may overwrite it.
	 */
	if (dse_cfg_has(cfg, "kernel", "source")) {
		char path[DSE_PATH_LEN];

		dse_config_path(ctx, dse_cfg_string(cfg, "kernel", "source",
			""), path, sizeof(path));
		if (dse_input_add(ctx, "kernel", "source", path, err))
			return dse_stat_error;
	}
	if (dse_ctx_kernel_desc(ctx, &d, &c, err))
		return dse_stat_error;
	if (c && (cfront_dtype(c) || dse_cfg_has(cfg, "kernel", "dtype")))
		snprintf(ctx->kernel_dtype, sizeof(ctx->kernel_dtype), "%s",
			cfront_dtype(c) ? cfront_dtype(c) : "");
	else if (c) {
		int line, col;

		cfront_type_where(c, &line, &col);
		dse_error_set_at(err, cfront_file(c), line, col, NULL, "%s; "
			"give the data type to model with dtype = ... in "
			"[kernel]", cfront_type_note(c));
		cfront_free(c);
		return dse_stat_error;
	}
	ctx->analysis = poly_analyze(&d, err);
	cfront_free(c);
	if (!ctx->analysis)
		return dse_stat_error;
	return setup_candidates(ctx, d.name, err);
}

/* The candidate's name: its space loops as dse analyze lists them. */
static void cand_name(const poly_analysis *a, int i, char *buf, size_t size)
{
	const poly_candidate *c = &a->cand[i];
	int s;

	snprintf(buf, size, "[");
	for (s = 0; s < c->n_space; s++)
		dse_appendf(buf, size, "%s%s", s ? "," : "",
			a->loop[c->space[s]]);
	dse_appendf(buf, size, "]");
}

/* Where the number "v" is written in "text" (the first time, as a whole
 * number), for an error that points at it; 0 when it is not there.
 */
static int number_at(const char *text, int v)
{
	char num[16];
	const char *p = text;
	size_t n;

	snprintf(num, sizeof(num), "%d", v);
	n = strlen(num);
	for (; v >= 0 && (p = strstr(p, num)); p += n)
		if ((p == text || !isdigit((unsigned char) p[-1])) &&
		    !isdigit((unsigned char) p[n]))
			return (int) (p - text);
	return 0;
}

/* [space] space_time: one candidate (the analysis's default without the
 * key) into ctx->tmpl, or, for "all" and lists, every candidate named
 * into ctx->cands.
 */
static dse_stat setup_candidates(dse_ctx *ctx, const char *name,
	dse_error *err)
{
	const poly_analysis *a = ctx->analysis;
	int list[POLY_MAX_CANDIDATES], i, n;

	n = dse_cfg_candidates(ctx->cfg, "space", "space_time", list,
		POLY_MAX_CANDIDATES);
	if (n < 0)
		for (n = 0; n < a->n_candidates; n++)
			list[n] = n;
	else if (n == 0)
		list[n++] = a->default_candidate;
	for (i = 0; i < n; i++)
		if (i >= POLY_MAX_CANDIDATES || list[i] >= a->n_candidates)
			return dse_ctx_error(ctx, "space", "space_time",
				number_at(dse_cfg_string(ctx->cfg, "space",
				"space_time", ""), i < POLY_MAX_CANDIDATES ?
				list[i] : -1), err, "kernel '%s' has %d "
				"space-time candidates (0..%d); 'dse analyze' "
				"lists them", name, a->n_candidates,
				a->n_candidates - 1);
	if (n == 1 && dse_cfg_candidates(ctx->cfg, "space", "space_time",
			NULL, 0) >= 0)
		return poly_template_from(a, list[0], &ctx->tmpl, err);
	ctx->cands = calloc((size_t) n, sizeof(*ctx->cands));
	if (!ctx->cands)
		return dse_error_nomem(err, "the candidates",
			(double) n * sizeof(*ctx->cands));
	ctx->n_cands = n;
	for (i = 0; i < n; i++) {
		if (poly_template_from(a, list[i], &ctx->cands[i].tmpl, err))
			return dse_stat_error;
		cand_name(a, list[i], ctx->cands[i].name,
			sizeof(ctx->cands[i].name));
	}
	ctx->tmpl = ctx->cands[0].tmpl;
	return dse_stat_ok;
}

/* Which config key gives knob k's values: "kind.loop" when present, else
 * "kind", else NULL (the built-in default applies).
 */
static const char *knob_key(const dse_ctx *ctx, int k, char *buf,
	size_t size)
{
	const char *kind = sim_model_knob_kind(ctx->model, k);
	int loop = sim_model_knob_loop(ctx->model, k);

	if (loop >= 0) {
		snprintf(buf, size, "%s.%s", kind, ctx->tmpl.loop[loop]);
		if (dse_cfg_has(ctx->cfg, "space", buf))
			return buf;
	}
	if (dse_cfg_has(ctx->cfg, "space", kind))
		return kind;
	return NULL;
}

/* The built-in values of a knob the config does not set.  A loop left out
 * of a per-loop array_part_L2 setting gets no second tiling level (its L2
 * tile is the whole loop), rather than multiplying the space by all its
 * divisors.
 */
static void default_values(const dse_ctx *ctx, int k, char *buf, size_t size)
{
	const char *kind = sim_model_knob_kind(ctx->model, k);
	int loop = sim_model_knob_loop(ctx->model, k);

	if (!strcmp(kind, "array_part"))
		snprintf(buf, size, "1..%lld divisors",
			(long long) ctx->tmpl.extent[loop]);
	else if (!strcmp(kind, "array_part_L2"))
		snprintf(buf, size, "%lld",
			(long long) ctx->tmpl.extent[loop]);
	else if (!strcmp(kind, "latency"))
		snprintf(buf, size, "1..64 pow2");
	else
		snprintf(buf, size, "1, 2, 4, 8");
}

/* Whether the config asks for the second tiling level, with the plain key
 * or a per-loop one.
 */
static int wants_l2(const dse_ctx *ctx)
{
	static const char prefix[] = "array_part_L2.";
	int i, n = dse_cfg_n_keys(ctx->cfg, "space");

	if (dse_cfg_has(ctx->cfg, "space", "array_part_L2"))
		return 1;
	for (i = 0; i < n; i++)
		if (!strncmp(dse_cfg_key_at(ctx->cfg, "space", i), prefix,
				sizeof(prefix) - 1))
			return 1;
	return 0;
}

/* Appends the per-loop knobs of "model" (on template "t") to "knobs";
 * returns 1 when one of them is "key".
 */
static int loop_knobs(const sim_model *model, const poly_template *t,
	const char *key, char *knobs, size_t size)
{
	char name[96];
	int k, found = 0;

	for (k = 0; k < sim_model_n_knobs(model); k++) {
		int loop = sim_model_knob_loop(model, k);

		/* io_network and double_buffer have no loop. */
		if (loop < 0)
			continue;
		snprintf(name, sizeof(name), "%s.%s",
			sim_model_knob_kind(model, k), t->loop[loop]);
		found |= !strcmp(name, key);
		if (!strstr(knobs, name) &&
		    strlen(knobs) + strlen(name) + 3 < size) {
			strcat(knobs, knobs[0] ? ", " : "");
			strcat(knobs, name);
		}
	}
	return found;
}

/* Per-loop keys must name a knob the model has (of a sweep over several
 * candidates: a knob of at least one of them).
 */
static dse_stat check_space_keys(const dse_ctx *ctx, dse_error *err)
{
	int i, c, n = dse_cfg_n_keys(ctx->cfg, "space");
	char knobs[1024];

	for (i = 0; i < n; i++) {
		const char *key = dse_cfg_key_at(ctx->cfg, "space", i);
		int found = 0;

		if (dse_family_knob_known(ctx, key))
			return error_at(ctx, "space", key, err, "'%s' is a "
				"knob of a workload family; this config "
				"explores a [kernel]", key);
		if (!dse_cfg_key_listed(ctx->cfg, "space", key))
			return dse_cfg_unknown_key(ctx->cfg, "space", key, NULL,
				err);
		if (!strchr(key, '.'))
			continue;
		knobs[0] = '\0';
		if (!ctx->n_cands)
			found = loop_knobs(ctx->model, &ctx->tmpl, key, knobs,
				sizeof(knobs));
		for (c = 0; c < ctx->n_cands; c++)
			found |= loop_knobs(ctx->cands[c].model,
				&ctx->cands[c].tmpl, key, knobs,
				sizeof(knobs));
		if (!found)
			return error_at(ctx, "space", key, err,
				"this design has no such knob (per-loop knobs: "
				"%s)", knobs);
	}
	return dse_stat_ok;
}

/* The values of a knob with no loop (io_network, double_buffer): the
 * config's list, whose parser already checked every name.  The model only
 * has these knobs when the config sets them.
 */
static dse_stat choice_values(const dse_ctx *ctx, const char *kind,
	int64_t **values, int *nv, dse_error *err)
{
	int i, n = dse_cfg_n_choices(ctx->cfg, "space", kind);

	if (n == 0)
		return dse_error_set(err, DSE_E_RUNTIME, "the model has a "
			"'%s' knob the config does not set", kind);
	*values = malloc((size_t) n * sizeof(**values));
	if (!*values)
		return dse_error_nomem(err, "the values of a knob",
			(double) n * sizeof(**values));
	for (i = 0; i < n; i++)
		(*values)[i] = dse_cfg_choice_at(ctx->cfg, "space", kind, i);
	*nv = n;
	return dse_stat_ok;
}

/* The values of knob k from the config, or its built-in default. */
static dse_stat knob_values(const dse_ctx *ctx, int k, const char *key,
	int64_t **values, int *nv, dse_error *err)
{
	int loop = sim_model_knob_loop(ctx->model, k);
	char text[64];

	if (loop < 0)
		return choice_values(ctx, sim_model_knob_kind(ctx->model, k),
			values, nv, err);
	if (key)
		return dse_cfg_int_set(ctx->cfg, "space", key,
			ctx->tmpl.extent[loop], values, nv, err);
	default_values(ctx, k, text, sizeof(text));
	return dse_cfg_int_set_text(text, ctx->tmpl.extent[loop], values, nv,
		err);
}

static dse_stat setup_space(dse_ctx *ctx, dse_error *err)
{
	/* A loop's tiling chain from the outermost tile inwards: a legal
	 * point's array_part_L2 is a multiple of its array_part, which is a
	 * multiple of its latency (a latency loop) or of its simd (the simd
	 * loop, never a latency loop); the chain is named by the loop.
	 */
	static const char *const level_kind[] = { "array_part_L2",
		"array_part", "latency", "simd" };
	int k, n = sim_model_n_knobs(ctx->model);
	char keybuf[96];

	if (!ctx->n_cands && check_space_keys(ctx, err))
		return dse_stat_error;
	ctx->space = search_space_alloc(n);
	if (!ctx->space)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory: the "
			"design space of %d knobs", n);
	for (k = 0; k < n; k++) {
		const char *key = knob_key(ctx, k, keybuf, sizeof(keybuf));
		int loop = sim_model_knob_loop(ctx->model, k);
		int64_t *values = NULL;
		int nv = 0, level;
		dse_stat r;

		r = knob_values(ctx, k, key, &values, &nv, err);
		if (r == dse_stat_ok)
			r = search_space_set_knob(ctx->space, k,
				sim_model_knob_name(ctx->model, k), values,
				nv, err);
		free(values);
		for (level = 0; r == dse_stat_ok && loop >= 0 && level < 4;
		     level++)
			if (!strcmp(sim_model_knob_kind(ctx->model, k),
					level_kind[level]))
				r = search_space_set_chain(ctx->space, k, loop,
					level, ctx->tmpl.extent[loop], err);
		if (r != dse_stat_ok)
			return r;
		if (search_space_size(ctx->space) == UINT64_MAX)
			return error_at(ctx, "space", key ? key : "", err,
				"the space has more than 2^64 points; narrow "
				"the knob ranges");
	}
	return dse_stat_ok;
}

static dse_stat setup_objectives(dse_ctx *ctx, dse_error *err)
{
	search_options *o = &ctx->sopt;
	int i, j, n = dse_cfg_n_names(ctx->cfg, "search", "objectives");
	char known[256] = "";

	for (i = 0; i < SIM_N_METRICS; i++) {
		strcat(known, i ? ", " : "");
		strcat(known, sim_metric_name(i));
	}
	if (n == 0) {
		o->n_obj = 2;
		o->objectives[0] = SIM_M_LATENCY;
		o->objectives[1] = SIM_M_DSP;
		return dse_stat_ok;
	}
	if (n > SEARCH_MAX_OBJECTIVES)
		return error_at(ctx, "search", "objectives", err,
			"at most %d objectives", SEARCH_MAX_OBJECTIVES);
	for (i = 0; i < n; i++) {
		const char *name = dse_cfg_name_at(ctx->cfg, "search",
			"objectives", i);
		int m = sim_metric_find(name), line, col;

		dse_cfg_pos(ctx->cfg, "search", "objectives", &line, &col);
		col = dse_cfg_name_col(ctx->cfg, "search", "objectives", i);
		if (m < 0)
			return dse_error_set_at(err, dse_cfg_file(ctx->cfg),
				line, col, "objectives",
				"unknown metric '%s' (known metrics: %s)",
				name, known);
		for (j = 0; j < i; j++)
			if (o->objectives[j] == m)
				return dse_error_set_at(err,
					dse_cfg_file(ctx->cfg), line, col,
					"objectives",
					"metric '%s' is listed twice", name);
		o->objectives[i] = m;
	}
	o->n_obj = n;
	return dse_stat_ok;
}

/* The largest band: points within 10x of the front are hardly a
 * neighbourhood, and a typo ("band = 10" for 10%) should not quietly
 * re-simulate most of the space.
 */
#define MAX_BAND 10.0
/* The most band points and sampled tiles one may ask for. */
#define MAX_BAND_POINTS 10000000
#define MAX_SAMPLES 1000000
#define MAX_FIFO_DEPTH 65536

/* Reads a [search] key that is a fraction ("0.1") or a percentage
 * ("10%") from 0 to "max", "def" when absent.
 */
static dse_stat read_fraction(dse_ctx *ctx, const char *key, double max,
	double def, double *out, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "search", key, NULL);
	char *end;
	double v;

	*out = def;
	if (!text)
		return dse_stat_ok;
	v = strtod(text, &end);
	if (end != text && *end == '%') {
		v /= 100.0;
		end++;
	}
	if (end == text || *end || !isfinite(v) || v < 0 || v > max)
		return error_at(ctx, "search", key, err, "%s must be a "
			"fraction from 0 to %g (e.g. 0.1) or a percentage "
			"(e.g. 10%%), got '%s'", key, max, text);
	*out = v;
	return dse_stat_ok;
}

/* The largest front one may ask for: about 40 GB of fronts per thread. */
#define MAX_FRONT_POINTS 100000000

/* [search] front_max and front_resolution: the bound on every front and
 * the box size it starts from (see search_front_limit).
 */
static dse_stat setup_front(dse_ctx *ctx, dse_error *err)
{
	int64_t v = dse_cfg_int(ctx->cfg, "search", "front_max",
		SEARCH_DEFAULT_FRONT_MAX);
	double r;

	if (v < SEARCH_MIN_FRONT_MAX || v > MAX_FRONT_POINTS)
		return error_at(ctx, "search", "front_max", err, "front_max "
			"must be from %d to %d points", SEARCH_MIN_FRONT_MAX,
			MAX_FRONT_POINTS);
	ctx->sopt.front_max = (size_t) v;
	if (read_fraction(ctx, "front_resolution", 1.0, 0.0, &r, err))
		return dse_stat_error;
	if (r > 0 && r < 1e-6)
		return error_at(ctx, "search", "front_resolution", err,
			"front_resolution must be 0 (an exact front) or at "
			"least 1e-6, got %g", r);
	ctx->sopt.front_resolution = r;
	return dse_stat_ok;
}

/* [search] model, band, band_max, samples, fifo_depth. */
static dse_stat setup_model(dse_ctx *ctx, dse_error *err)
{
	const char *model = dse_cfg_string(ctx->cfg, "search", "model",
		"analytic");
	int64_t v;

	ctx->sopt.model = sim_model_kind_find(model);
	if (ctx->sopt.model != SIM_MODEL_ANALYTIC &&
	    ctx->sopt.model != SIM_MODEL_SAMPLED)
		return error_at(ctx, "search", "model", err, "model must be "
			"analytic or sampled, got '%s'", model);
	if (read_fraction(ctx, "band", MAX_BAND, 0.1, &ctx->sopt.band, err) ||
	    setup_front(ctx, err))
		return dse_stat_error;
	v = dse_cfg_int(ctx->cfg, "search", "band_max",
		SEARCH_DEFAULT_BAND_MAX);
	if (v > MAX_BAND_POINTS)
		return error_at(ctx, "search", "band_max", err, "band_max must "
			"be at most %d points", MAX_BAND_POINTS);
	ctx->sopt.band_max = (size_t) v;
	v = dse_cfg_int(ctx->cfg, "search", "samples", 0);
	if (v > MAX_SAMPLES)
		return error_at(ctx, "search", "samples", err, "samples must "
			"be at most %d tiles per class", MAX_SAMPLES);
	ctx->sopt.cycle.samples = (int) v;
	v = dse_cfg_int(ctx->cfg, "search", "fifo_depth", 0);
	if (v > MAX_FIFO_DEPTH)
		return error_at(ctx, "search", "fifo_depth", err, "fifo_depth "
			"must be at most %d", MAX_FIFO_DEPTH);
	ctx->sopt.cycle.fifo_depth = (int) v;
	return dse_stat_ok;
}

/* Upper bounds of the heuristic strategies' options: far beyond any use,
 * low enough that products such as islands x population stay small.
 */
#define MAX_ISLANDS 4096
/* The population's bound is the search's own: setup checks it here so
 * that its error names the key.
 */
#define MAX_POPULATION SEARCH_MAX_POPULATION
#define MAX_MIGRATE_EVERY 1000000
#define MAX_BUDGET (INT64_C(1) << 53)
#define MAX_WEIGHT 1e6
#define MAX_CHECKPOINT_S 1e7
#define DEFAULT_CHECKPOINT_S 60.0
/* Exhaustive search enumerates signed 64-bit indices at most. */
#define MAX_EXHAUSTIVE (UINT64_C(1) << 63)

#define S_EXH (1u << SEARCH_EXHAUSTIVE)
#define S_RND (1u << SEARCH_RANDOM)
#define S_GEN (1u << SEARCH_GENETIC)
#define S_ANN (1u << SEARCH_ANNEAL)

/* Which strategies take which [search] key, and why the others do not:
 * a key that would be silently ignored is a mistake worth reporting.
 */
static const struct strategy_key {
	const char *key;
	unsigned strategies;
	const char *why;
} strategy_keys[] = {
	{ "budget", S_RND | S_GEN | S_ANN, "exhaustive search evaluates "
	  "every point; a budget needs strategy = random, genetic or anneal" },
	{ "budget_seconds", S_RND | S_GEN | S_ANN, "exhaustive search "
	  "evaluates every point; a time budget needs strategy = random, "
	  "genetic or anneal" },
	{ "islands", S_RND | S_GEN | S_ANN, "islands are the unit of work of "
	  "the random, genetic and anneal strategies; exhaustive search "
	  "splits the index range instead" },
	{ "population", S_GEN, "population is the number of designs a "
	  "genetic island breeds; set strategy = genetic" },
	{ "migrate_every", S_GEN | S_ANN, "only genetic and anneal islands "
	  "exchange points" },
	{ "migrants", S_GEN | S_ANN, "only genetic and anneal islands "
	  "exchange points" },
	{ "weights", S_ANN, "weights weigh the objectives of simulated "
	  "annealing; set strategy = anneal" },
	{ "prune", S_EXH, "pruning by bounds skips parts of an exhaustive "
	  "sweep; the other strategies evaluate only the points they draw" },
	{ "deal", S_EXH, "deal says how the blocks of an exhaustive sweep "
	  "reach the ranks; the other strategies' unit of work is the "
	  "island" },
};

/* Reads [search] budget: evaluations ("100000") or a share of the space
 * ("5%", at least one point).
 */
static dse_stat setup_budget(dse_ctx *ctx, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "search", "budget", NULL);
	double size = (double) search_space_size(ctx->space), v;
	char *end;

	ctx->sopt.budget = 0;
	if (!text)
		return dse_stat_ok;
	v = strtod(text, &end);
	if (end != text && *end == '%' && !end[1] && isfinite(v) && v > 0 &&
	    v <= 100) {
		v = ceil(v / 100.0 * size);
		ctx->sopt.budget = v < 1 ? 1 : (uint64_t) v;
		return dse_stat_ok;
	}
	if (end != text && !*end && isdigit((unsigned char) text[0]) &&
	    v >= 1 && v <= (double) MAX_BUDGET && v == floor(v)) {
		ctx->sopt.budget = (uint64_t) v;
		return dse_stat_ok;
	}
	return error_at(ctx, "search", "budget", err, "budget must be a number "
		"of evaluations from 1 to 2^53 (e.g. 100000) or a percentage "
		"of the space above 0 and at most 100 (e.g. 5%%), got '%s'",
		text);
}

/* Reads [search] weights: one non-negative number per objective. */
static dse_stat setup_weights(dse_ctx *ctx, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "search", "weights", NULL);
	const char *p = text;
	int n = 0;

	memset(ctx->sopt.weights, 0, sizeof(ctx->sopt.weights));
	if (!text)
		return dse_stat_ok;
	for (;;) {
		char *end;
		double v;

		while (*p == ' ' || *p == '\t')
			p++;
		v = strtod(p, &end);
		if (end == p || !isfinite(v) || v < 0 || v > MAX_WEIGHT)
			return dse_ctx_error(ctx, "search", "weights",
				(int) (p - text), err, "weights are numbers "
				"from 0 to %.0f, one per objective, separated "
				"by commas (e.g. 1, 0.5)", MAX_WEIGHT);
		if (n < SEARCH_MAX_OBJECTIVES)
			ctx->sopt.weights[n] = v;
		n++;
		for (p = end; *p == ' ' || *p == '\t'; p++)
			;
		if (!*p)
			break;
		if (*p != ',')
			return dse_ctx_error(ctx, "search", "weights",
				(int) (p - text), err, "expected ',' between "
				"weights");
		p++;
	}
	if (n != ctx->sopt.n_obj)
		return error_at(ctx, "search", "weights", err, "%d weight%s for "
			"%d objective%s: give one weight per objective, in the "
			"order of 'objectives'", n, n == 1 ? "" : "s",
			ctx->sopt.n_obj, ctx->sopt.n_obj == 1 ? "" : "s");
	return dse_stat_ok;
}

/* Reads [search] checkpoint: seconds between checkpoints; "off" or 0
 * writes none (a stopped search still writes its last one).
 */
static dse_stat setup_checkpoint(dse_ctx *ctx, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "search", "checkpoint",
		NULL);
	char *end;
	double v;

	ctx->sopt.checkpoint_interval = DEFAULT_CHECKPOINT_S;
	/* A designer asks for a checkpoint interval to bound the work a
	 * crash loses, not to spend the sweep writing: on a slow disk the
	 * checkpoints are spaced out so they take at most a tenth of it.
	 */
	ctx->sopt.checkpoint_share = 0.1;
	if (!text)
		return dse_stat_ok;
	if (!strcmp(text, "off")) {
		ctx->sopt.checkpoint_interval = 0;
		return dse_stat_ok;
	}
	v = strtod(text, &end);
	if (end == text || *end || !isfinite(v) || v < 0 ||
	    v > MAX_CHECKPOINT_S)
		return error_at(ctx, "search", "checkpoint", err, "checkpoint "
			"must be the seconds between checkpoints (e.g. 60; at "
			"most %.0f) or 'off', got '%s'", MAX_CHECKPOINT_S,
			text);
	ctx->sopt.checkpoint_interval = v;
	return dse_stat_ok;
}

/* A positive [search] integer with an upper bound; 0 when absent (the
 * search's default).
 */
static dse_stat bounded_int(dse_ctx *ctx, const char *key, int64_t max,
	int *out, dse_error *err)
{
	int64_t v = dse_cfg_int(ctx->cfg, "search", key, 0);

	if (v > max)
		return error_at(ctx, "search", key, err, "%s must be at most "
			"%lld", key, (long long) max);
	*out = (int) v;
	return dse_stat_ok;
}

/* An exhaustive sweep of more than 2^63 points cannot be enumerated; the
 * error sits at [space], where the knob ranges are.
 */
static dse_stat check_exhaustive_size(dse_ctx *ctx, dse_error *err)
{
	uint64_t size = search_space_size(ctx->space);
	int line = 0, col = 0;

	if (ctx->sopt.strategy != SEARCH_EXHAUSTIVE || size <= MAX_EXHAUSTIVE)
		return dse_stat_ok;
	/* The [space] header; without one (default knob ranges), the
	 * strategy key or the [search] header.
	 */
	dse_cfg_pos(ctx->cfg, "space", "", &line, &col);
	if (line == 0)
		dse_cfg_pos(ctx->cfg, "search", "strategy", &line, &col);
	return dse_error_set_at(err, dse_cfg_file(ctx->cfg), line, col, NULL,
		"the space has %.3g points, more than 2^63: too many for "
		"exhaustive search; set [search] strategy = genetic with a "
		"budget, or narrow the knob ranges", (double) size);
}

/* [search] strategy and the keys of the heuristic strategies. */
static dse_stat setup_strategy(dse_ctx *ctx, dse_error *err)
{
	const char *name = dse_cfg_string(ctx->cfg, "search", "strategy",
		"exhaustive");
	search_options *o = &ctx->sopt;
	size_t i;

	o->strategy = search_strategy_find(name);
	if (o->strategy < 0)
		return error_at(ctx, "search", "strategy", err, "unknown "
			"strategy '%s'", name);
	for (i = 0; i < sizeof(strategy_keys) / sizeof(strategy_keys[0]);
	     i++)
		if (dse_cfg_has(ctx->cfg, "search", strategy_keys[i].key) &&
		    !(strategy_keys[i].strategies & (1u << o->strategy)))
			return error_at(ctx, "search", strategy_keys[i].key,
				err, "%s does not apply to strategy = %s: %s",
				strategy_keys[i].key, name,
				strategy_keys[i].why);
	o->budget_seconds = dse_cfg_float(ctx->cfg, "search",
		"budget_seconds", 0);
	/* Pruning never changes the front, so it is on unless asked off. */
	o->prune = o->strategy == SEARCH_EXHAUSTIVE && strcmp(dse_cfg_string(
		ctx->cfg, "search", "prune", "on"), "off");
	o->deal_by_index = !strcmp(dse_cfg_string(ctx->cfg, "search", "deal",
		"dynamic"), "index");
	if (setup_budget(ctx, err) || setup_weights(ctx, err) ||
	    setup_checkpoint(ctx, err) ||
	    bounded_int(ctx, "islands", MAX_ISLANDS, &o->islands, err) ||
	    bounded_int(ctx, "population", MAX_POPULATION, &o->population,
		err) ||
	    bounded_int(ctx, "migrate_every", MAX_MIGRATE_EVERY,
		&o->migrate_every, err) ||
	    bounded_int(ctx, "migrants", MAX_POPULATION, &o->migrants, err))
		return dse_stat_error;
	if (o->migrants > (o->population ? o->population :
			SEARCH_DEFAULT_POPULATION))
		return error_at(ctx, "search", "migrants", err, "migrants must "
			"be at most the population (%d)", o->population ?
			o->population : SEARCH_DEFAULT_POPULATION);
	return check_exhaustive_size(ctx, err);
}

/* The nominal speed of the analytic model per core, for the estimate
 * of how long an exhaustive sweep takes.
 */
#define NOMINAL_POINTS_PER_S 20e6
#define BIG_SPACE_S 3600.0
#define BIG_SPACE_POINTS 1e12

/* "d" seconds as "12.3 days", "4.5 h", "17 min" or "40 s". */
static void duration(double d, char *buf, size_t size)
{
	if (d >= 86400)
		snprintf(buf, size, "%.1f days", d / 86400);
	else if (d >= 3600)
		snprintf(buf, size, "%.1f h", d / 3600);
	else if (d >= 60)
		snprintf(buf, size, "%.0f min", d / 60);
	else
		snprintf(buf, size, "%.0f s", d);
}

int dse_space_warning(const dse_ctx *ctx, int ranks, int threads,
	char *buf, size_t size)
{
	double points = (double) search_space_size(ctx->space);
	double workers = (double) (ranks > 0 ? ranks : 1) *
		(threads > 0 ? threads : 1);
	double eta = points / (NOMINAL_POINTS_PER_S * workers);
	char when[32];

	if (ctx->sopt.strategy != SEARCH_EXHAUSTIVE ||
	    (eta <= BIG_SPACE_S && points <= BIG_SPACE_POINTS))
		return 0;
	duration(eta, when, sizeof(when));
	snprintf(buf, size, "the space has %.3g points: exhaustive search "
		"takes about %s at a nominal 20 M points/s per core on %d "
		"ranks x %d threads; consider [search] strategy = genetic with "
		"a budget (e.g. budget = 1000000)", points, when,
		ranks, threads);
	return 1;
}

/* The points the cloud table keeps: a sample for plots, bounded so a
 * typo cannot ask root for more memory than a machine has.
 */
#define DEFAULT_CLOUD 5000
#define MAX_CLOUD 10000000

static dse_stat setup_cloud(dse_ctx *ctx, dse_error *err)
{
	int64_t v = dse_cfg_int(ctx->cfg, "output", "cloud", DEFAULT_CLOUD);

	if (v > MAX_CLOUD)
		return error_at(ctx, "output", "cloud", err, "cloud must be at "
			"most %d points", MAX_CLOUD);
	ctx->sopt.cloud_max = (size_t) v;
	return dse_stat_ok;
}

static void setup_output(dse_ctx *ctx, const char *out_override)
{
	const char *file = out_override ? out_override :
		dse_cfg_string(ctx->cfg, "output", "file", NULL);

	ctx->out_given = out_override != NULL;
	ctx->out_from_cfg = !out_override && file;
	if (file)
		snprintf(ctx->out_path, sizeof(ctx->out_path), "%s", file);
	else
		snprintf(ctx->out_path, sizeof(ctx->out_path),
			"results/%s.h5", ctx->tmpl.kernel);
}

static dse_stat setup_search(dse_ctx *ctx, const char *out_override,
	dse_error *err);

/* A workload's name names the group of its results, as a kernel's does:
 * [workload] name is checked before the setup ("derived" 0), the name
 * taken from the network file when there is none, after it (1).
 */
static dse_stat check_workload_name(const dse_ctx *ctx, int derived,
	dse_error *err)
{
	const char *name = dse_cfg_string(ctx->cfg, "workload", "name", NULL);
	const char *key = dse_cfg_has(ctx->cfg, "workload", "topology") ?
		"topology" : "family";

	if (!derived && name && !valid_name(name))
		return error_at(ctx, "workload", "name", err, "the workload "
			"name '%s' must be a short identifier (letters, digits, "
			"'_' or '-', at most 31 characters); it names the group "
			"in the results file", name);
	if (derived && !name && !valid_name(ctx->tmpl.kernel))
		return error_at(ctx, "workload", key, err, "the workload is "
			"named '%s' after its network, which is not a short "
			"identifier (letters, digits, '_' or '-'); set [workload] "
			"name", ctx->tmpl.kernel);
	return dse_stat_ok;
}

/* The code-generation options of [kernel]: AutoSA's data packing bounds
 * (three positive byte counts, innermost level first), buffers at DRAM in
 * URAM, and DSP packing, which only a data type that packs takes.
 */
static dse_stat setup_codegen(dse_ctx *ctx, sim_options *o, dse_error *err)
{
	const char *v = dse_cfg_string(ctx->cfg, "kernel", "data_pack", NULL);
	const char *p = v;
	int n = 0;

	while (p && *p) {
		char *end;
		long b;

		while (*p == ' ' || *p == '\t')
			p++;
		b = strtol(p, &end, 10);
		if (end == p || b < 1 || b > 4096 || n == 3)
			return dse_ctx_error(ctx, "kernel", "data_pack",
				(int) (p - v), err, n == 3 ? "data_pack takes "
				"3 sizes" : "data_pack: expected a number of "
				"bytes in 1..4096 (3 of them, for L1, L2 and "
				"L3, as AutoSA's --data-pack-sizes)");
		o->data_pack[n++] = (int) b;
		for (p = end; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return dse_ctx_error(ctx, "kernel", "data_pack",
				(int) (p - v), err, "data_pack: expected ',' "
				"between the sizes");
	}
	if (v && n != 3)
		return error_at(ctx, "kernel", "data_pack", err, "data_pack "
			"takes 3 sizes in bytes (L1, L2, L3, as AutoSA's "
			"--data-pack-sizes), got %d", n);
	o->uram = !strcmp(dse_cfg_string(ctx->cfg, "kernel", "uram_buffers",
		"off"), "on");
	o->dsp_packing = !strcmp(dse_cfg_string(ctx->cfg, "kernel",
		"dsp_packing", "off"), "on");
	if (o->dsp_packing && ctx->dtype->mul_per_dsp < 2)
		return error_at(ctx, "kernel", "dsp_packing", err, "data type "
			"'%s' does not pack in a DSP; dsp_packing is for int8",
			ctx->dtype->name);
	return dse_stat_ok;
}

/* A sweep over several candidates: every candidate's model and space,
 * as a sweep of that candidate alone would have them, made into one
 * space of parts.  ctx->tmpl and ctx->model stay the first candidate's.
 */
static dse_stat setup_cands_space(dse_ctx *ctx, dse_error *err)
{
	search_space *parts[POLY_MAX_CANDIDATES] = { NULL };
	int c;
	dse_stat st = dse_stat_ok;

	for (c = 0; c < ctx->n_cands; c++) {
		ctx->cands[c].model = sim_model_alloc(&ctx->cands[c].tmpl,
			&ctx->board, ctx->dtype, &ctx->sim_opt, err);
		if (!ctx->cands[c].model)
			return dse_stat_error;
	}
	if (check_space_keys(ctx, err))
		return dse_stat_error;
	for (c = 0; c < ctx->n_cands && st == dse_stat_ok; c++) {
		ctx->tmpl = ctx->cands[c].tmpl;
		ctx->model = ctx->cands[c].model;
		st = setup_space(ctx, err);
		parts[c] = ctx->space;
		ctx->space = NULL;
	}
	ctx->tmpl = ctx->cands[0].tmpl;
	ctx->model = ctx->cands[0].model;
	if (st != dse_stat_ok) {
		for (c = 0; c < ctx->n_cands; c++)
			search_space_free(parts[c]);
		return st;
	}
	ctx->space = dse_cands_space(ctx, parts, err);
	return ctx->space ? dse_stat_ok : dse_stat_error;
}

dse_stat dse_ctx_setup(dse_ctx *ctx, const char *out_override,
	dse_error *err)
{
	const char *dt, *file = dse_cfg_file(ctx->cfg);

	/* The built-in sweep has no file; one read back from a results
	 * file (tune --from) names a file that may not exist any more.
	 */
	if (file && strcmp(file, "<default>") &&
	    dse_input_add(ctx, NULL, "config", file, err))
		return dse_stat_error;
	if (setup_board(ctx, err))
		return dse_stat_error;
	if (dse_cfg_has(ctx->cfg, "workload", "family")) {
		if (check_workload_name(ctx, 0, err) ||
		    dse_workload_setup(ctx, err) ||
		    check_workload_name(ctx, 1, err))
			return dse_stat_error;
		return setup_search(ctx, out_override, err);
	}
	if (setup_kernel(ctx, err))
		return dse_stat_error;
	dt = dse_cfg_string(ctx->cfg, "kernel", "dtype",
		ctx->kernel_dtype[0] ? ctx->kernel_dtype : "fp32");
	ctx->dtype = arch_dtype_find(dt);
	if (!ctx->dtype) {
		char known[128];

		arch_dtype_names(known, sizeof(known));
		if (!dse_cfg_has(ctx->cfg, "kernel", "dtype"))
			return error_at(ctx, "kernel", "source", err, "the C "
				"kernel's arrays hold %s, which this build does "
				"not model (known: %s); give dtype = ... in "
				"[kernel]", dt, known);
		return error_at(ctx, "kernel", "dtype", err,
			"unknown data type '%s' (known: %s)", dt, known);
	}
	memset(&ctx->sim_opt, 0, sizeof(ctx->sim_opt));
	ctx->sim_opt.array_part_L2 = wants_l2(ctx);
	/* Without the keys every point uses the daisy chain and double
	 * buffering, and the space has no such knobs.
	 */
	ctx->sim_opt.io_network = dse_cfg_has(ctx->cfg, "space",
		"io_network");
	ctx->sim_opt.double_buffer = dse_cfg_has(ctx->cfg, "space",
		"double_buffer");
	if (setup_codegen(ctx, &ctx->sim_opt, err))
		return dse_stat_error;
	if (ctx->n_cands) {
		if (setup_cands_space(ctx, err))
			return dse_stat_error;
		return setup_search(ctx, out_override, err);
	}
	ctx->model = sim_model_alloc(&ctx->tmpl, &ctx->board, ctx->dtype,
		&ctx->sim_opt, err);
	if (!ctx->model)
		return dse_stat_error;
	if (setup_space(ctx, err))
		return dse_stat_error;
	return setup_search(ctx, out_override, err);
}

/* What the kernel and workload sweeps share: objectives, constraints,
 * seed, work blocks, the search model and the output path.
 */
static dse_stat setup_search(dse_ctx *ctx, const char *out_override,
	dse_error *err)
{
	int64_t block;

	if (setup_objectives(ctx, err) || dse_setup_constraints(ctx, err))
		return dse_stat_error;
	ctx->seed = dse_cfg_int(ctx->cfg, "search", "seed", 1);
	block = dse_cfg_int(ctx->cfg, "search", "block", 0);
	if (block > MAX_BLOCK)
		return error_at(ctx, "search", "block", err,
			"block must be at most 1073741824 points");
	ctx->sopt.block = (uint64_t) block;
	ctx->sopt.seed = (uint64_t) ctx->seed;
	if (setup_model(ctx, err) || setup_strategy(ctx, err) ||
	    setup_cloud(ctx, err))
		return dse_stat_error;
	setup_output(ctx, out_override);
	return dse_stat_ok;
}

void dse_ctx_clear(dse_ctx *ctx)
{
	ctx->lock = res_lock_release(ctx->lock);
	dse_inputs_clear(ctx);
	ctx->space = search_space_free(ctx->space);
	if (ctx->fam)
		ctx->fam_obj = ctx->fam->free(ctx->fam_obj);
	ctx->fam = NULL;
	ctx->graph = gnn_graph_free(ctx->graph);
	/* After the graph and family, which read the node's copy. */
	ctx->share = gnn_share_free(ctx->share);
	/* ctx->model is the first candidate's when there are several. */
	if (ctx->n_cands)
		ctx->model = NULL;
	while (ctx->n_cands > 0)
		sim_model_free(ctx->cands[--ctx->n_cands].model);
	free(ctx->cands);
	ctx->cands = NULL;
	ctx->model = sim_model_free(ctx->model);
	ctx->analysis = poly_analysis_free(ctx->analysis);
	ctx->cfg = dse_cfg_free(ctx->cfg);
}

void dse_note(const dse_ctx *ctx, enum dse_note_kind kind, const char *fmt,
	...)
{
	char msg[1024];
	va_list ap;

	if (!ctx->note || ctx->rank != 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->note(ctx->note_user, kind, msg);
}

const char *dse_space_time_name(const dse_ctx *ctx, int space_time,
	char *buf, size_t size)
{
	if (!ctx->analysis || space_time < 0 ||
	    space_time >= ctx->analysis->n_candidates) {
		snprintf(buf, size, "%s", "");
		return buf;
	}
	cand_name(ctx->analysis, space_time, buf, size);
	return buf;
}
