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
#define MAX_DRAM_GBPS 100000.0
#define MAX_MHZ 5000.0
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
	ctx->board.dram_gbps = dse_cfg_float(ctx->cfg, "platform",
		"dram_gbps", ctx->board.dram_gbps);
	if (ctx->board.dram_gbps > MAX_DRAM_GBPS)
		return error_at(ctx, "platform", "dram_gbps", err,
			"dram_gbps must be at most 100000");
	ctx->board.mhz = dse_cfg_float(ctx->cfg, "platform", "mhz",
		ctx->board.mhz);
	if (ctx->board.mhz > MAX_MHZ)
		return error_at(ctx, "platform", "mhz", err,
			"mhz must be at most 5000");
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
	dse_error *err)
{
	const dse_cfg *cfg = ctx->cfg;
	int i;

	memset(d, 0, sizeof(*d));
	d->name = dse_cfg_string(cfg, "kernel", "name", "kernel");
	if (!valid_name(d->name))
		return error_at(ctx, "kernel", "name", err,
			"the kernel name '%s' must be a short identifier "
			"(letters, digits, '_' or '-', at most 31 characters); "
			"it names the group in the results file", d->name);
	d->domain = dse_cfg_string(cfg, "kernel", "domain", "");
	d->reads = dse_cfg_string(cfg, "kernel", "reads", "");
	d->writes = dse_cfg_string(cfg, "kernel", "writes", "");
	d->schedule = dse_cfg_string(cfg, "kernel", "schedule", NULL);
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
	d->schedule_src = source(ctx, "kernel", "schedule");
	d->params_src = source(ctx, "kernel", "params");
	d->reduction_src = source(ctx, "kernel", "reduction");
	d->space_time_src = source(ctx, "space", "space_time");
	return dse_stat_ok;
}

static dse_stat setup_kernel(dse_ctx *ctx, dse_error *err)
{
	const dse_cfg *cfg = ctx->cfg;
	poly_kernel_desc d;
	int choice;

	if (dse_ctx_kernel_desc(ctx, &d, err))
		return dse_stat_error;
	ctx->analysis = poly_analyze(&d, err);
	if (!ctx->analysis)
		return dse_stat_error;
	choice = ctx->analysis->default_candidate;
	if (dse_cfg_has(cfg, "space", "space_time")) {
		int64_t v = dse_cfg_int(cfg, "space", "space_time", 0);

		if (v >= ctx->analysis->n_candidates)
			return error_at(ctx, "space", "space_time", err,
				"kernel '%s' has %d space-time candidates "
				"(0..%d); 'dse analyze' lists them", d.name,
				ctx->analysis->n_candidates,
				ctx->analysis->n_candidates - 1);
		choice = (int) v;
	}
	return poly_template_from(ctx->analysis, choice, &ctx->tmpl, err);
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

/* Per-loop keys must name a knob the model has. */
static dse_stat check_space_keys(const dse_ctx *ctx, dse_error *err)
{
	int i, k, n = dse_cfg_n_keys(ctx->cfg, "space");
	char name[96], knobs[1024];

	for (i = 0; i < n; i++) {
		const char *key = dse_cfg_key_at(ctx->cfg, "space", i);
		int found = 0;

		if (gnn_family_knob_find(GNN_OVERLAY, key) >= 0 ||
		    gnn_family_knob_find(GNN_DATAFLOW, key) >= 0 ||
		    tensil_family_knob_find(key) >= 0)
			return error_at(ctx, "space", key, err, "'%s' is a "
				"knob of a workload family; this config "
				"explores a [kernel]", key);
		if (!strchr(key, '.'))
			continue;
		knobs[0] = '\0';
		for (k = 0; k < sim_model_n_knobs(ctx->model); k++) {
			int loop = sim_model_knob_loop(ctx->model, k);

			/* io_network and double_buffer have no loop. */
			if (loop < 0)
				continue;
			snprintf(name, sizeof(name), "%s.%s",
				sim_model_knob_kind(ctx->model, k),
				ctx->tmpl.loop[loop]);
			found |= !strcmp(name, key);
			if (strlen(knobs) + strlen(name) + 3 < sizeof(knobs)) {
				strcat(knobs, knobs[0] ? ", " : "");
				strcat(knobs, name);
			}
		}
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
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
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
	int k, n = sim_model_n_knobs(ctx->model);
	char keybuf[96];

	if (check_space_keys(ctx, err))
		return dse_stat_error;
	ctx->space = search_space_alloc(n);
	if (!ctx->space)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	for (k = 0; k < n; k++) {
		const char *key = knob_key(ctx, k, keybuf, sizeof(keybuf));
		int64_t *values = NULL;
		int nv = 0;
		dse_stat r;

		r = knob_values(ctx, k, key, &values, &nv, err);
		if (r == dse_stat_ok)
			r = search_space_set_knob(ctx->space, k,
				sim_model_knob_name(ctx->model, k), values,
				nv, err);
		free(values);
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

static dse_stat setup_constraints(dse_ctx *ctx, dse_error *err)
{
	search_options *o = &ctx->sopt;
	int i, n = dse_cfg_n_constraints(ctx->cfg, "search", "constraints");

	if (n > SEARCH_MAX_CONSTRAINTS)
		return error_at(ctx, "search", "constraints", err,
			"at most %d constraints", SEARCH_MAX_CONSTRAINTS);
	for (i = 0; i < n; i++) {
		const dse_cfg_constraint *c = dse_cfg_constraint_at(ctx->cfg,
			"search", "constraints", i);
		int m = sim_metric_find(c->metric);
		double cap;

		if (m < 0)
			return dse_error_set_at(err, dse_cfg_file(ctx->cfg),
				c->line, c->col, "constraints",
				"unknown metric '%s' in a constraint",
				c->metric);
		cap = sim_metric_capacity(&ctx->board, m);
		if (c->fraction && cap > 0 && c->bound > 1.0)
			return dse_error_set_at(err, dse_cfg_file(ctx->cfg),
				c->line, c->col, "constraints",
				"a fraction of the board above 1 (100%%) allows "
				"more '%s' than the board has", c->metric);
		/* A fraction only means something for a resource the board
		 * has; other metrics (latency in seconds) take the bound as
		 * written.
		 */
		o->constraints[i].metric = m;
		o->constraints[i].max = c->fraction && cap > 0 ?
			c->bound * cap : c->bound;
	}
	o->n_constraints = n;
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

/* Reads [search] band: a fraction ("0.1") or a percentage ("10%"). */
static dse_stat setup_band(dse_ctx *ctx, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "search", "band", NULL);
	char *end;
	double v;

	ctx->sopt.band = 0.1;
	if (!text)
		return dse_stat_ok;
	v = strtod(text, &end);
	if (end != text && *end == '%') {
		v /= 100.0;
		end++;
	}
	if (end == text || *end || !isfinite(v) || v < 0 || v > MAX_BAND)
		return error_at(ctx, "search", "band", err, "band must be a "
			"fraction from 0 to %g (e.g. 0.1) or a percentage "
			"(e.g. 10%%), got '%s'", MAX_BAND, text);
	ctx->sopt.band = v;
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
	if (setup_band(ctx, err))
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

static void setup_output(dse_ctx *ctx, const char *out_override)
{
	const char *file = out_override ? out_override :
		dse_cfg_string(ctx->cfg, "output", "file", NULL);

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

dse_stat dse_ctx_setup(dse_ctx *ctx, const char *out_override,
	dse_error *err)
{
	const char *dt;

	if (setup_board(ctx, err))
		return dse_stat_error;
	if (dse_cfg_has(ctx->cfg, "workload", "family")) {
		if (check_workload_name(ctx, 0, err) ||
		    dse_workload_setup(ctx, err) ||
		    check_workload_name(ctx, 1, err))
			return dse_stat_error;
		return setup_search(ctx, out_override, err);
	}
	dt = dse_cfg_string(ctx->cfg, "kernel", "dtype", "fp32");
	ctx->dtype = arch_dtype_find(dt);
	if (!ctx->dtype) {
		char known[128];

		arch_dtype_names(known, sizeof(known));
		return error_at(ctx, "kernel", "dtype", err,
			"unknown data type '%s' (known: %s)", dt, known);
	}
	if (setup_kernel(ctx, err))
		return dse_stat_error;
	memset(&ctx->sim_opt, 0, sizeof(ctx->sim_opt));
	ctx->sim_opt.array_part_L2 = wants_l2(ctx);
	/* Without the keys every point uses the daisy chain and double
	 * buffering, and the space has no such knobs.
	 */
	ctx->sim_opt.io_network = dse_cfg_has(ctx->cfg, "space",
		"io_network");
	ctx->sim_opt.double_buffer = dse_cfg_has(ctx->cfg, "space",
		"double_buffer");
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

	if (setup_objectives(ctx, err) || setup_constraints(ctx, err))
		return dse_stat_error;
	ctx->seed = dse_cfg_int(ctx->cfg, "search", "seed", 1);
	block = dse_cfg_int(ctx->cfg, "search", "block", 0);
	if (block > MAX_BLOCK)
		return error_at(ctx, "search", "block", err,
			"block must be at most 1073741824 points");
	ctx->sopt.block = (uint64_t) block;
	ctx->sopt.seed = (uint64_t) ctx->seed;
	if (setup_model(ctx, err))
		return dse_stat_error;
	setup_output(ctx, out_override);
	return dse_stat_ok;
}

void dse_ctx_clear(dse_ctx *ctx)
{
	ctx->space = search_space_free(ctx->space);
	ctx->family = gnn_family_free(ctx->family);
	ctx->tensil = tensil_family_free(ctx->tensil);
	ctx->graph = gnn_graph_free(ctx->graph);
	ctx->model = sim_model_free(ctx->model);
	ctx->analysis = poly_analysis_free(ctx->analysis);
	ctx->cfg = dse_cfg_free(ctx->cfg);
}
