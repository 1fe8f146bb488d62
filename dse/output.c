/* The file a sweep writes: checked, locked and cleaned up before the
 * search starts, so that a bad name costs nothing and a good one never
 * destroys what is not dse's.
 *
 * The rules (docs/developer/reliability.md): the name is resolved (a
 * symbolic link is followed and its target written); anything there but a
 * regular file is refused; so is a name that is one of the sweep's input
 * files, whatever path reaches it; one writer holds the lock for the whole
 * run; an existing file is replaced only when it is a dse results file,
 * and not when it is an unfinished checkpoint of this same config, which
 * only --resume continues or --restart discards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ctx.h"

/* Moves an error about the output name to where the name came from: the
 * [output] file key, or the -o option.
 */
static dse_stat at_name(const dse_ctx *ctx, const char *what, dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];
	enum dse_code code = err->code;

	snprintf(msg, sizeof(msg), "%s", err->msg);
	if (code == DSE_E_INPUT && what && !strcmp(what, "file"))
		return dse_ctx_error(ctx, "output", "file", 0, err, "%s", msg);
	if (what)
		return dse_error_set(err, code, "%s: %s", what, msg);
	return dse_stat_error;
}

dse_stat dse_output_check(const dse_ctx *ctx, const char *path,
	const char *what, char *real, size_t size, dse_error *err)
{
	const dse_input *in;

	if (res_path_resolve(path, real, size, err) < 0)
		return at_name(ctx, what, err);
	in = dse_input_same_file(ctx, real);
	if (in) {
		dse_error_set(err, DSE_E_INPUT, "'%s' is the %s file '%s' this "
			"run reads; writing it would destroy it: choose another "
			"output name", path, in->key, in->path);
		return at_name(ctx, what, err);
	}
	return dse_stat_ok;
}

/* An unfinished checkpoint of this config at the output name: a run
 * without --resume would start again and overwrite it at its first
 * checkpoint, losing every point the stopped run evaluated.
 */
static dse_stat refuse_checkpoint(const dse_ctx *ctx, res_reader *r,
	dse_error *err)
{
	int64_t done = 0, total = 0;
	char cmd[2 * DSE_PATH_LEN + 32], when[64] = "";
	double t = 0;

	(void) res_read_attr_i64(r, "points_evaluated", &done, err);
	(void) res_read_attr_i64(r, "points_to_reach", &total, err);
	if (res_read_attr_f64(r, "checkpoint_time", &t, err) == dse_stat_ok &&
	    t > 0) {
		time_t tt = (time_t) t;
		struct tm tm;

		if (localtime_r(&tt, &tm))
			strftime(when, sizeof(when), ", written %Y-%m-%d "
				"%H:%M", &tm);
	}
	dse_resume_command(ctx, cmd, sizeof(cmd));
	return dse_error_set(err, DSE_E_INPUT, "%s holds an unfinished sweep "
		"of this config (%lld of %lld points%s); continue it with '%s', "
		"or start again with --restart, which discards it",
		ctx->out_path, (long long) done, (long long) total, when, cmd);
}

/* What is at the output name already may be replaced: nothing, an empty
 * file, or a dse results file that is no unfinished checkpoint of this
 * config (unless "restart").
 */
static dse_stat check_existing(const dse_ctx *ctx, int restart,
	dse_error *err)
{
	struct stat sb;
	res_reader *r;
	char *tool, *config;
	int64_t complete = 1;
	dse_stat st = dse_stat_ok;

	if (stat(ctx->out_real, &sb) != 0 || sb.st_size == 0)
		return dse_stat_ok;
	r = res_reader_open(ctx->out_real, err);
	tool = r ? res_read_attr_string(r, "tool", err) : NULL;
	if (!tool || strcmp(tool, "dse")) {
		char why[DSE_ERROR_MSG_LEN];

		snprintf(why, sizeof(why), "%s", tool ? "its 'tool' attribute "
			"is not dse" : err->msg);
		st = dse_error_set(err, DSE_E_INPUT, "%s exists and is not a "
			"dse results file (%s); dse replaces only its own "
			"results: remove it or choose another name",
			ctx->out_path, why);
	}
	free(tool);
	config = st == dse_stat_ok && !restart ?
		res_read_attr_string(r, "config", err) : NULL;
	if (config && res_read_attr_i64(r, "complete", &complete, err) ==
			dse_stat_ok && !complete &&
	    !strcmp(config, dse_cfg_text(ctx->cfg)))
		st = refuse_checkpoint(ctx, r, err);
	free(config);
	res_reader_close(r);
	return st;
}

/* Rank 0's part of dse_output_prepare. */
static dse_stat prepare_root(dse_ctx *ctx, int resume, int restart,
	dse_error *err)
{
	if (dse_output_check(ctx, ctx->out_path, ctx->out_from_cfg ? "file" :
			ctx->out_given ? "-o" : NULL, ctx->out_real,
			sizeof(ctx->out_real), err) < 0)
		return dse_stat_error;
	if (res_path_make_parent(ctx->out_real, err) < 0)
		return dse_stat_error;
	ctx->lock = res_lock_take(ctx->out_real, err);
	if (!ctx->lock)
		return dse_stat_error;
	ctx->stale_removed = res_path_sweep_stale(ctx->lock, ctx->out_real);
	if (res_path_probe(ctx->out_real, err) < 0)
		return dse_stat_error;
	return resume ? dse_stat_ok : check_existing(ctx, restart, err);
}

dse_stat dse_output_prepare(dse_ctx *ctx, int resume, int restart,
	dse_error *err)
{
	int code = 0;

	if (ctx->rank == 0 && prepare_root(ctx, resume, restart, err) < 0)
		code = err->code ? (int) err->code : DSE_E_RUNTIME;
	if (MPI_Bcast(&code, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS)
		return dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the output "
			"check failed");
	if (code && ctx->rank != 0)
		dse_error_set(err, (enum dse_code) code, "the results file was "
			"refused on rank 0");
	/* Every rank knows the file written, for the messages of all. */
	if (!code && MPI_Bcast(ctx->out_real, DSE_PATH_LEN, MPI_CHAR, 0,
			ctx->comm) != MPI_SUCCESS)
		return dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the output "
			"name failed");
	return code ? dse_stat_error : dse_stat_ok;
}
