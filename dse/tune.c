/* "dse tune": the auto-tuner.  It finds the single best design of a sweep
 * for one objective under the config's constraints -- by running the
 * search with that objective alone, or by reading the front of a finished
 * results file (--from) -- and emits it in the form the downstream tool
 * takes: for a systolic array a shell snippet that writes AutoSA's
 * --simd-info file and runs AutoSA with the design's --sa-sizes; for an
 * overlay systolic array Tensil's .tarch architecture file; for any
 * family a JSON of the design's knobs and metrics.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"

static const char *const emit_names[DSE_N_EMITS] = { "autosa", "tensil",
	"json" };

int dse_emit_find(const char *name)
{
	int i;

	for (i = 0; name && i < DSE_N_EMITS; i++)
		if (!strcmp(name, emit_names[i]))
			return i;
	return -1;
}

/* The best design found: its knobs and metrics. */
struct best {
	int32_t knobs[SEARCH_MAX_KNOBS];
	sim_metrics metrics;
	int model;		/* enum sim_model_kind of the metrics */
};

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
	if (ctx->tensil)
		return DSE_EMIT_TENSIL;
	return ctx->family ? DSE_EMIT_JSON : DSE_EMIT_AUTOSA;
}

/* Picks, on root, the best row of the front of results file "from". */
static dse_stat best_from_file(const dse_ctx *ctx, const char *from,
	int metric, struct best *b, dse_error *err)
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
	memset(b, 0, sizeof(*b));
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
static dse_stat evaluate(const dse_ctx *ctx, struct best *b, int kind,
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

/* AutoSA's command for the design, with its --simd-info file: per kernel
 * (the space-time candidate), whether each loop AutoSA's SIMD pass asks
 * about is a reduction ("y") or not ("n").
 */
static void emit_autosa(const dse_ctx *ctx, const struct best *b,
	FILE *out)
{
	char sa[512], info[512];

	dse_sa_write(&ctx->tmpl, ctx->model, b->knobs, sa, sizeof(sa));
	dse_sa_simd_info(&ctx->tmpl, ctx->model, b->knobs, info,
		sizeof(info));
	fprintf(out, "# AutoSA build of the best design of %s on %s\n",
		ctx->tmpl.kernel, ctx->board.name);
	fprintf(out, "cat > simd_info.json <<'EOF'\n%sEOF\n", info);
	fprintf(out, "./autosa ./%s.c --config=./autosa_config/"
		"autosa_config.json --target=autosa_hls_c --output-dir=./"
		"autosa.tmp/output --sa-sizes=\"%s\" --simd-info=./"
		"simd_info.json --host-serialize --hls\n", ctx->tmpl.kernel,
		sa);
}

static void json_metrics(const sim_metrics *m, FILE *out)
{
	int i;

	fputs(",\"metrics\":{", out);
	for (i = 0; i < SIM_N_METRICS; i++) {
		double v = sim_metrics_get(m, i);

		fprintf(out, i ? ",\"%s\":" : "\"%s\":", sim_metric_name(i));
		if (isfinite(v))
			fprintf(out, "%.17g", v);
		else
			fputs("null", out);
	}
	fputc('}', out);
}

static void emit_json(const dse_ctx *ctx, const struct best *b, int metric,
	FILE *out)
{
	char text[512];
	int k;

	fprintf(out, "{\"family\":\"%s\"", dse_workload_family(ctx));
	dse_json_str(out, "workload", ctx->tmpl.kernel);
	dse_json_str(out, "board", ctx->board.name);
	dse_json_str(out, "objective", sim_metric_name(metric));
	dse_json_str(out, "model", sim_model_kind_name(b->model));
	dse_design_text(ctx, b->knobs, text, sizeof(text));
	dse_json_str(out, "design", text);
	fputs(",\"knobs\":{", out);
	for (k = 0; k < search_space_n_knobs(ctx->space); k++)
		fprintf(out, k ? ",\"%s\":%d" : "\"%s\":%d",
			search_space_knob_name(ctx->space, k),
			(int) b->knobs[k]);
	fputc('}', out);
	json_metrics(&b->metrics, out);
	fputs("}\n", out);
}

/* For a workload read from ONNX, the Tensil compiler's command that
 * compiles that model for the architecture being written: on standard
 * error, so that standard output stays the .tarch file.
 */
static void tensil_command(const dse_ctx *ctx, const dse_tune_opts *opts)
{
	char onnx[DSE_PATH_LEN], outputs[512];

	if (ctx->quiet || !dse_workload_onnx(ctx, onnx, sizeof(onnx)))
		return;
	if (tensil_onnx_outputs(onnx, outputs, sizeof(outputs)) ||
	    !outputs[0])
		snprintf(outputs, sizeof(outputs), "<output node>");
	fprintf(stderr, "dse: compile it with Tensil: tensil compile -a %s "
		"-m %s -o \"%s\" -s true\n", opts->output ? opts->output :
		"design.tarch", onnx, outputs);
}

/* Writes the emitted form to opts->output (atomically: a temporary name
 * renamed at the end) or to standard output.
 */
static dse_stat emit(const dse_ctx *ctx, const dse_tune_opts *opts,
	const char *real, const struct best *b, int metric, int form,
	dse_error *err)
{
	char tmp[DSE_PATH_LEN + 32];
	FILE *out = stdout;
	int bad, fd = -1;

	if (opts->output) {
		if (res_path_make_parent(real, err) < 0 ||
		    res_path_tmp(real, tmp, sizeof(tmp)) < 0)
			return dse_stat_error;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		out = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!out) {
			if (fd >= 0) {
				close(fd);
				remove(tmp);
			}
			return dse_error_set(err, DSE_E_IO, "cannot write %s: "
				"%s", tmp, strerror(errno));
		}
	}
	if (form == DSE_EMIT_AUTOSA) {
		emit_autosa(ctx, b, out);
	} else if (form == DSE_EMIT_TENSIL) {
		tensil_command(ctx, opts);
		char buf[1024];

		int n = tensil_tarch_json(ctx->tensil, b->knobs, buf,
			sizeof(buf));

		fputs(buf, out);
		if (n > 0 && n < (int) sizeof(buf) && buf[n - 1] != '\n')
			fputc('\n', out);
	} else {
		emit_json(ctx, b, metric, out);
	}
	bad = fflush(out) != 0 || ferror(out);
	if (opts->output) {
		bad |= fsync(fd) != 0;
		bad |= fclose(out) != 0;
		if (bad || rename(tmp, real) != 0) {
			int e = errno;

			remove(tmp);
			return dse_error_set(err, DSE_E_IO, "cannot write %s: "
				"%s", opts->output, strerror(e));
		}
	}
	return bad ? dse_error_set(err, DSE_E_IO, "cannot write the design "
		"to standard output") : dse_stat_ok;
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
	if (*form == DSE_EMIT_TENSIL && !ctx->tensil)
		return dse_error_set(err, DSE_E_INPUT, "--emit tensil needs an "
			"overlay-systolic workload; this sweep is %s",
			dse_workload_family(ctx));
	if (opts->output && dse_output_check(ctx, opts->output, "-o", real,
			DSE_PATH_LEN, err))
		return dse_stat_error;
	return dse_stat_ok;
}

dse_stat dse_tune(dse_ctx *ctx, const dse_tune_opts *opts, dse_error *err)
{
	char real[DSE_PATH_LEN];
	struct best b;
	search_result res;
	int metric = 0, form = 0;
	dse_stat st;

	memset(&res, 0, sizeof(res));
	/* The results file read is an input -o must not overwrite. */
	st = opts->from ? dse_input_add(ctx, NULL, "--from", opts->from,
		err) : dse_stat_ok;
	if (st == dse_stat_ok)
		st = check(ctx, opts, &metric, &form, real, err);
	if (st == dse_stat_ok && opts->from) {
		if (ctx->rank == 0) {
			st = best_from_file(ctx, opts->from, metric, &b, err);
			if (st == dse_stat_ok)
				st = evaluate(ctx, &b, ctx->sopt.model, err);
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

				memset(&b, 0, sizeof(b));
				memcpy(b.knobs, p->knobs, sizeof(b.knobs));
				b.metrics = p->metrics;
				b.model = p->model;
			}
		}
		search_front_free(res.front);
		search_cloud_free(res.cloud);
	}
	if (st == dse_stat_ok && ctx->rank == 0)
		st = emit(ctx, opts, real, &b, metric, form, err);
	return dse_root_verdict(ctx, st, err);
}
