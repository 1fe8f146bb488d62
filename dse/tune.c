/* "dse tune": the auto-tuner.  It finds the single best design of a sweep
 * for one objective under the config's constraints -- by running the
 * search with that objective alone, or by reading the front of a finished
 * results file (--from) -- and emits it in the form the downstream tool
 * takes: for a systolic array the kernel's C file, AutoSA's --simd-info
 * file and AutoSA's command line with the design's --sa-sizes
 * (tune_autosa.c); for an
 * overlay systolic array Tensil's .tarch architecture file; for any
 * family a JSON of the design's knobs and metrics.  The command line
 * writes the emitted form (cli/tune.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ctx.h"

int dse_emit_find(const char *name)
{
	int i, n;
	const dse_family *t = dse_families(NULL, &n);

	if (!name)
		return -1;
	if (!strcmp(name, "autosa"))
		return DSE_EMIT_AUTOSA;
	if (!strcmp(name, "json"))
		return DSE_EMIT_JSON;
	for (i = 0; i < n; i++)
		if (t[i].ops->emit_name && !strcmp(name, t[i].ops->emit_name))
			return DSE_EMIT_FAMILY + 1 + i;
	return -1;
}

void dse_emit_names(char *buf, size_t size)
{
	int i, n;
	const dse_family *t = dse_families(NULL, &n);

	snprintf(buf, size, "autosa, json");
	for (i = 0; i < n; i++)
		if (t[i].ops->emit_name && dse_emit_find(t[i].ops->emit_name) ==
		    DSE_EMIT_FAMILY + 1 + i)
			dse_list_add(buf, size, t[i].ops->emit_name);
}

dse_cfg *dse_tune_config(const char *from, dse_error *err)
{
	res_reader *r = res_reader_open(from, err);
	char *text = NULL, *file = NULL;
	dse_cfg *cfg = NULL;

	/* A file that cannot be opened or read as a results file is the
	 * command line's mistake.
	 */
	if (!r) {
		if (err)
			err->code = DSE_E_INPUT;
		return NULL;
	}
	text = res_read_attr_string(r, "config", err);
	file = text ? res_read_attr_string(r, "config_file", err) : NULL;
	if (text && file)
		cfg = dse_cfg_parse_string(text, file, err);
	else if (err)
		err->code = DSE_E_INPUT;
	free(text);
	free(file);
	res_reader_close(r);
	return cfg;
}

/* The default emitted form of ctx's family. */
static int default_emit(const dse_ctx *ctx)
{
	if (!ctx->fam)
		return DSE_EMIT_AUTOSA;
	return ctx->fam->emit ? DSE_EMIT_FAMILY : DSE_EMIT_JSON;
}

/* Picks, on root, the best row of the front of results file "from". */
static dse_stat best_from_file(const dse_ctx *ctx, const char *from,
	int metric, dse_tuned *b, dse_error *err)
{
	char path[POLY_NAME_LEN + 16];
	res_reader *r = res_reader_open(from, err);
	size_t rows = 0, i, pick = 0;
	int ncols, k, n = search_space_n_knobs(ctx->space), sign;
	double *obj = NULL;
	int64_t *col = NULL;
	dse_stat st = dse_stat_ok;

	if (!r)
		return dse_stat_error;
	snprintf(path, sizeof(path), "/%s/front", ctx->tmpl.kernel);
	if (res_read_table_shape(r, path, &rows, &ncols, err)) {
		res_reader_close(r);
		return dse_stat_error;
	}
	if (rows == 0) {
		res_reader_close(r);
		return dse_error_set(err, DSE_E_RUNTIME, "%s: the front is "
			"empty: no design meets the constraints", from);
	}
	obj = malloc(rows * sizeof(*obj));
	col = malloc(rows * sizeof(*col));
	if (!obj || !col)
		st = dse_error_nomem(err, "two columns of the front",
			(double) rows * 16);
	if (st == dse_stat_ok)
		st = res_read_column(r, path, sim_metric_name(metric), obj,
			err);
	sign = sim_metric_minimise(metric) ? 1 : -1;
	for (i = 1; st == dse_stat_ok && i < rows; i++)
		if (sign * obj[i] < sign * obj[pick])
			pick = i;
	memset(b->knobs, 0, sizeof(b->knobs));
	for (k = 0; st == dse_stat_ok && k < n; k++) {
		st = res_read_column(r, path, search_space_knob_name(ctx->space,
			k), col, err);
		if (st == dse_stat_ok)
			b->knobs[k] = (int32_t) col[pick];
	}
	free(obj);
	free(col);
	res_reader_close(r);
	return st;
}

/* Evaluates the chosen knobs again with the model that produced them,
 * so the emitted metrics are the whole set, not the few of the file.
 */
static dse_stat evaluate(const dse_ctx *ctx, dse_tuned *b, int kind,
	dse_error *err)
{
	search_evaluator ev = dse_evaluator(ctx);
	sim_cycle_report rep;
	sim_cycle_opts co = ctx->sopt.cycle;

	if (kind == SIM_MODEL_ANALYTIC) {
		ev.eval(ev.model, b->knobs, &b->metrics);
		b->model = SIM_MODEL_ANALYTIC;
		return dse_stat_ok;
	}
	co.seed = (uint64_t) ctx->seed;
	if (ev.simulate(ev.model, b->knobs, kind, &co, &rep, err))
		return dse_stat_error;
	b->metrics = rep.metrics;
	b->model = kind;
	return dse_stat_ok;
}

/* Checks the options against ctx before any work; "real" gets the file
 * -o writes (as a sweep's results file: links followed, only a regular
 * file replaced, never an input).
 */
static dse_stat check(const dse_ctx *ctx, const dse_tune_opts *opts,
	int *metric, int *form, char *real, dse_error *err)
{
	const char *name = opts->objective ? opts->objective :
		sim_metric_name(ctx->sopt.objectives[0]);

	*metric = sim_metric_find(name);
	if (*metric < 0)
		return dse_error_set(err, DSE_E_INPUT, "--objective: unknown "
			"metric '%s'", name);
	*form = opts->emit >= 0 ? opts->emit : default_emit(ctx);
	if (*form == DSE_EMIT_AUTOSA && dse_is_workload(ctx))
		return dse_error_set(err, DSE_E_INPUT, "--emit autosa needs a "
			"systolic sweep (a [kernel]); this one is %s",
			dse_workload_family(ctx));
	if (*form > DSE_EMIT_FAMILY) {
		int n;
		const family_ops *want = dse_families(NULL, &n)[*form -
			DSE_EMIT_FAMILY - 1].ops;

		/* A family's own form is asked for by name: the sweep's
		 * family must be one that writes it.
		 */
		if (!ctx->fam || !ctx->fam->emit || strcmp(ctx->fam->emit_name,
				want->emit_name))
			return dse_error_set(err, DSE_E_INPUT, "--emit %s "
				"needs a workload of the family that writes it "
				"(%s); this sweep is %s", want->emit_name,
				want->name, dse_workload_family(ctx));
		*form = DSE_EMIT_FAMILY;
	}
	/* AutoSA's form is a folder of files. */
	if (opts->output && *form == DSE_EMIT_AUTOSA) {
		snprintf(real, DSE_PATH_LEN, "%s", opts->output);
		return dse_tune_autosa_check(ctx, opts->output, err);
	}
	if (opts->output && dse_output_check(ctx, opts->output, "-o", real,
			DSE_PATH_LEN, err))
		return dse_stat_error;
	return dse_stat_ok;
}

dse_stat dse_tune(dse_ctx *ctx, const dse_tune_opts *opts, dse_tuned *b,
	dse_error *err)
{
	search_result res;
	int metric = 0, form = 0;
	dse_stat st;

	memset(&res, 0, sizeof(res));
	memset(b, 0, sizeof(*b));
	/* The results file read is an input -o must not overwrite. */
	st = opts->from ? dse_input_add(ctx, NULL, "--from", opts->from,
		err) : dse_stat_ok;
	if (st == dse_stat_ok)
		st = check(ctx, opts, &metric, &form, b->output, err);
	if (st == dse_stat_ok && opts->from) {
		if (ctx->rank == 0) {
			st = best_from_file(ctx, opts->from, metric, b, err);
			if (st == dse_stat_ok)
				st = evaluate(ctx, b, ctx->sopt.model, err);
		}
	} else if (st == dse_stat_ok) {
		search_evaluator ev = dse_evaluator(ctx);

		/* The best for one objective is the front of that objective
		 * alone, found with the config's strategy; the config's
		 * constraints still hold.  Annealing's one weight is that
		 * objective's, and the tuner writes no checkpoints: its
		 * output is a design, not a results file to resume.
		 */
		ctx->sopt.n_obj = 1;
		ctx->sopt.objectives[0] = metric;
		memset(ctx->sopt.weights, 0, sizeof(ctx->sopt.weights));
		ctx->sopt.checkpoint_interval = 0;
		ctx->sopt.checkpoint = NULL;
		st = search_run(ctx->space, &ev, &ctx->sopt, ctx->comm, &res,
			err);
		if (st == dse_stat_ok && ctx->rank == 0) {
			if (search_front_size(res.front) == 0) {
				st = dse_error_set(err, DSE_E_RUNTIME, "no "
					"design meets the constraints");
			} else {
				const search_point *p =
					search_front_at(res.front, 0);

				memcpy(b->knobs, p->knobs, sizeof(b->knobs));
				b->metrics = p->metrics;
				b->model = p->model;
			}
		}
		search_front_free(res.front);
		search_cloud_free(res.cloud);
	}
	b->metric = metric;
	b->form = form;
	return dse_root_verdict(ctx, st, err);
}
