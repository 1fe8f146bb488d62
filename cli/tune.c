/* "dse tune" emitted: the best design dse_tune found, in the form the
 * downstream tool takes (the kernel's C file, its --simd-info file and
 * the AutoSA command; a Tensil .tarch; or a JSON of the knobs and
 * metrics), written to -o atomically or to standard output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/json.h"

/* AutoSA's form: with -o, the folder of files (dse_autosa_write) and
 * the command on standard output; without, a shell snippet that writes
 * the C file and the --simd-info file where it runs, then the command.
 */
static dse_stat emit_autosa(const dse_ctx *ctx, const dse_tune_opts *opts,
	const dse_tuned *b, dse_error *err)
{
	char dir[DSE_PATH_LEN];
	size_t n;
	dse_autosa a;

	if (opts->output && dse_autosa_dir(opts->output, dir, sizeof(dir),
			err))
		return dse_stat_error;
	if (dse_autosa_build(ctx, b->knobs, opts->output ? dir : NULL, &a,
			err))
		return dse_stat_error;
	if (opts->output && dse_autosa_write(ctx, &a, dir, err)) {
		dse_autosa_free(&a);
		return dse_stat_error;
	}
	if (!opts->output) {
		n = strlen(a.c);
		printf("# AutoSA build of the best design of %s on %s\n",
			ctx->tmpl.kernel, ctx->board.name);
		printf("cat > %s <<'DSE_EOF'\n%s%sDSE_EOF\n", a.c_name, a.c,
			n && a.c[n - 1] != '\n' ? "\n" : "");
		printf("cat > simd_info.json <<'DSE_EOF'\n%sDSE_EOF\n", a.info);
	}
	/* Of a sweep over several dataflows, which one won. */
	if (ctx->n_cands && dse_cand_find(ctx, b->knobs[0]))
		printf("# dataflow: space_time[%d] %s, best of %d candidates\n",
			(int) b->knobs[0], dse_cand_find(ctx,
			b->knobs[0])->name, ctx->n_cands);
	printf("%s\n", a.command);
	dse_autosa_free(&a);
	return fflush(stdout) != 0 || ferror(stdout) ? dse_error_set(err,
		DSE_E_IO, "cannot write the design to standard output") :
		dse_stat_ok;
}

/* The design's knobs and every metric as one JSON object. */
static void emit_json(const dse_ctx *ctx, const dse_tuned *b, FILE *out)
{
	struct cli_json j;
	char text[512];
	int k;

	cli_json_begin(&j, out, 1);
	cli_json_open(&j, NULL, '{', 0);
	cli_json_str(&j, "family", dse_workload_family(ctx));
	cli_json_str(&j, "workload", ctx->tmpl.kernel);
	cli_json_str(&j, "board", ctx->board.name);
	cli_json_str(&j, "objective", sim_metric_name(b->metric));
	cli_json_str(&j, "model", sim_model_kind_name(b->model));
	dse_design_text(ctx, b->knobs, text, sizeof(text));
	cli_json_str(&j, "design", text);
	if (ctx->n_cands && dse_cand_find(ctx, b->knobs[0]))
		cli_json_str(&j, "space_time_name", dse_cand_find(ctx,
			b->knobs[0])->name);
	cli_json_open(&j, "knobs", '{', 1);
	for (k = 0; k < search_space_n_knobs(ctx->space); k++)
		cli_json_int(&j, search_space_knob_name(ctx->space, k),
			(int) b->knobs[k]);
	cli_json_close(&j, '}');
	cli_json_open(&j, "metrics", '{', 1);
	for (k = 0; k < SIM_N_METRICS; k++)
		cli_json_f64(&j, sim_metric_name(k),
			sim_metrics_get(&b->metrics, k));
	cli_json_close(&j, '}');
	cli_json_close(&j, '}');
	fputc('\n', out);
}

/* What the user does next with a family's design file (for a network
 * read from ONNX, Tensil's compiler command that compiles it for the
 * architecture being written): on standard error, so that standard
 * output stays the file.
 */
static void emit_hint(const dse_ctx *ctx, const dse_tune_opts *opts)
{
	char hint[2 * DSE_PATH_LEN + 640];

	if (ctx->quiet || !ctx->fam->emit_hint)
		return;
	ctx->fam->emit_hint(ctx->fam_obj, opts->output, hint, sizeof(hint));
	if (hint[0])
		fprintf(stderr, "dse: %s\n", hint);
}

/* The family's design file, ending in a newline. */
static void emit_family(const dse_ctx *ctx, const dse_tuned *b, FILE *out)
{
	char buf[4096];
	int n = ctx->fam->emit(ctx->fam_obj, b->knobs, buf, sizeof(buf));

	fputs(buf, out);
	if (n > 0 && n < (int) sizeof(buf) && buf[n - 1] != '\n')
		fputc('\n', out);
}

/* Writes the emitted form to opts->output (atomically: a temporary name
 * renamed at the end) or to standard output.
 */
dse_stat cli_tune_emit(const dse_ctx *ctx, const dse_tune_opts *opts,
	const dse_tuned *b, dse_error *err)
{
	const char *real = b->output;
	char tmp[DSE_PATH_LEN + 32];
	FILE *out = stdout;
	int bad, fd = -1;

	if (b->form == DSE_EMIT_AUTOSA)
		return emit_autosa(ctx, opts, b, err);
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
	if (b->form == DSE_EMIT_FAMILY) {
		emit_hint(ctx, opts);
		emit_family(ctx, b, out);
	} else {
		emit_json(ctx, b, out);
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

