/* Long sweeps: checkpoints, --resume and the stop signals.
 *
 * A checkpoint is the results file itself, written at its final name
 * with "complete" 0, the front found so far and the search's state as
 * the byte dataset /checkpoint/state.  Each is written under a temporary
 * name and renamed (res_file_commit), so a kill at any moment leaves
 * either the previous checkpoint or the new one, never half a file.  The
 * finished sweep replaces the last checkpoint the same way, with
 * "complete" 1 and no /checkpoint group.
 */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ctx.h"

#define STATE_PATH "/checkpoint/state"
/* The widest piece of a line quoted in the "another config" message. */
#define QUOTE_LEN 80
/* Bytes per MPI_Bcast of the state, well inside an int count. */
#define BCAST_CHUNK ((size_t) 1 << 30)

/* ---- writing ---------------------------------------------------------- */

/* The figures of a checkpoint as a search result, so that the front and
 * attributes go through the same writer as the finished sweep's.
 */
static void checkpoint_result(const dse_ctx *ctx, const search_checkpoint *cp,
	search_result *res)
{
	memset(res, 0, sizeof(*res));
	/* The writer only reads the front. */
	res->front = (search_front *) cp->front;
	res->evaluated = cp->evaluated;
	res->valid = cp->valid;
	res->seconds = cp->seconds;
	res->threads = omp_get_max_threads();
	res->strategy = ctx->sopt.strategy;
	res->islands = ctx->sopt.strategy == SEARCH_EXHAUSTIVE ? 0 :
		ctx->sopt.islands ? ctx->sopt.islands : SEARCH_DEFAULT_ISLANDS;
	res->interrupted = cp->final;
	res->resumed = ctx->sopt.resume != NULL;
}

/* A checkpoint that could not be written: losing the sweep over it would
 * lose far more than the checkpoint, so the error is reported and the
 * search goes on (the file keeps the last checkpoint written).  Only
 * running out of memory, where going on would fail anyway, ends it.
 */
static dse_stat checkpoint_failed(dse_checkpointer *c,
	const search_checkpoint *cp, dse_error *err)
{
	char line[DSE_ERROR_MSG_LEN + DSE_ERROR_FILE_LEN + 64];

	if (err->code == DSE_E_NOMEM)
		return dse_stat_error;
	c->failed++;
	c->failing++;
	dse_error_format(err, line, sizeof(line));
	/* A disk stays full for a while: the 1st, 2nd, 4th, 8th, ... of a
	 * run of failures is reported, so the log says it goes on without
	 * filling up.
	 */
	if (cp->final)
		dse_note(c->ctx, DSE_NOTE_WARNING, "the last checkpoint "
			"could not be written: %s", line);
	else if ((c->failing & (c->failing - 1)) == 0)
		dse_note(c->ctx, DSE_NOTE_WARNING, "warning: %d checkpoint%s "
			"in a row could not be written (%s); the sweep goes on "
			"and tries again every %g s", c->failing, c->failing > 1 ?
			"s" : "", line, c->ctx->sopt.checkpoint_interval);
	dse_error_clear(err);
	return dse_stat_ok;
}

dse_stat dse_checkpoint_write(const search_checkpoint *cp, void *user,
	dse_error *err)
{
	dse_checkpointer *c = user;
	const dse_ctx *ctx = c->ctx;
	search_result res;
	res_file *f;

	checkpoint_result(ctx, cp, &res);
	f = res_file_create(ctx->out_real, err);
	if (!f)
		return checkpoint_failed(c, cp, err);
	if (dse_write_contents(ctx, f, &res, MPI_Wtime() - c->t0, err) ||
	    res_attr_i64(f, "complete", 0, err) ||
	    res_attr_f64(f, "checkpoint_time", (double) time(NULL), err) ||
	    res_attr_i64(f, "points_to_reach", (int64_t) cp->total, err) ||
	    res_write_bytes(f, STATE_PATH, cp->state, cp->size, err) ||
	    res_attr_string_at(f, STATE_PATH, "note", "the search state, "
		"opaque and self-checking: 'dse --resume' with the same config "
		"continues from it", err)) {
		res_file_abort(f);
		return checkpoint_failed(c, cp, err);
	}
	if (res_file_commit(f, err))
		return checkpoint_failed(c, cp, err);
	if (c->failing)
		dse_note(ctx, DSE_NOTE_WARNING, "a checkpoint was written "
			"again, after %d that could not be", c->failing);
	c->failing = 0;
	c->written++;
	c->evaluated = cp->evaluated;
	c->total = cp->total;
	return dse_stat_ok;
}

/* ---- resuming --------------------------------------------------------- */

/* Turns the error in "err" into an input error about resuming from
 * "path": the file, not the program, is what is wrong (unless memory ran
 * out).
 */
static dse_stat refuse(dse_error *err, const char *path)
{
	char msg[DSE_ERROR_MSG_LEN];
	enum dse_code code = err->code == DSE_E_NOMEM ? DSE_E_NOMEM :
		DSE_E_INPUT;

	snprintf(msg, sizeof(msg), "%s", err->msg);
	return dse_error_set(err, code, "cannot resume from %s: %s", path,
		msg);
}

/* Line "n" (1-based) of "text" quoted into "buf", "(none)" past its end. */
static void quote_line(const char *text, int n, char *buf, size_t size)
{
	const char *p = text, *end;
	size_t len;

	for (; n > 1 && p; n--) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p) {
		snprintf(buf, size, "(none: the text ends before)");
		return;
	}
	end = strchr(p, '\n');
	len = end ? (size_t) (end - p) : strlen(p);
	snprintf(buf, size, "'%.*s%s'", (int) (len > QUOTE_LEN ? QUOTE_LEN :
		len), p, len > QUOTE_LEN ? "..." : "");
}

/* The first line where "a" and "b" differ, 0 when they are equal. */
static int first_diff_line(const char *a, const char *b)
{
	int line = 1;

	for (; *a && *a == *b; a++, b++)
		if (*a == '\n')
			line++;
	return *a == *b ? 0 : line;
}

/* The file's config must be this config, byte for byte. */
static dse_stat check_config(const dse_ctx *ctx, res_reader *r,
	dse_error *err)
{
	const char *path = ctx->out_path, *mine = dse_cfg_text(ctx->cfg);
	char *theirs = res_read_attr_string(r, "config", err);
	char qa[QUOTE_LEN + 40], qb[QUOTE_LEN + 40];
	int line;

	if (!theirs)
		return refuse(err, path);
	line = first_diff_line(theirs, mine);
	if (line) {
		quote_line(theirs, line, qa, sizeof(qa));
		quote_line(mine, line, qb, sizeof(qb));
		dse_error_set(err, DSE_E_INPUT, "%s was written by another "
			"config: line %d differs (%s there, %s in %s); resume "
			"with the config the sweep started with", path, line, qa,
			qb, dse_cfg_file(ctx->cfg));
	}
	free(theirs);
	return line ? dse_stat_error : dse_stat_ok;
}

/* The input files must be the ones the checkpoint was made from. */
static dse_stat check_inputs(const dse_ctx *ctx, res_reader *r,
	dse_error *err)
{
	char *theirs = NULL;
	dse_stat st;

	/* A checkpoint made before dse recorded its inputs has none, and a
	 * sweep that reads none has nothing to check.
	 */
	if (res_reader_has_attr(r, "input_files"))
		theirs = res_read_attr_string(r, "input_files", err);
	else
		theirs = calloc(1, 1);
	if (!theirs)
		return refuse(err, ctx->out_path);
	st = dse_inputs_check(ctx, theirs, ctx->out_path, err);
	free(theirs);
	return st;
}

/* The "complete" attribute of the file at "path", with the message that
 * fits when there is none: a dse results file without it was written
 * before checkpoints existed, any other file is no results file, and a
 * file whose attributes cannot be read is damaged.
 */
static dse_stat read_complete(res_reader *r, const char *path,
	int64_t *complete, dse_error *err)
{
	char *tool;
	int has = res_reader_has_attr(r, "complete");

	if (has > 0 && res_read_attr_i64(r, "complete", complete, err) == 0)
		return dse_stat_ok;
	if (has != 0)
		return has < 0 ? dse_error_set(err, DSE_E_INPUT, "cannot resume "
			"from %s: its attributes cannot be read (the file is "
			"damaged)", path) : refuse(err, path);
	tool = res_read_attr_string(r, "tool", err);
	if (tool && !strcmp(tool, "dse"))
		dse_error_set(err, DSE_E_INPUT, "%s is no checkpoint: it has no "
			"'complete' attribute (a results file of a dse from "
			"before checkpoints); nothing to resume", path);
	else
		dse_error_set(err, DSE_E_INPUT, "%s is no checkpoint: it is not "
			"a dse results file (no 'tool' attribute 'dse'); nothing "
			"to resume", path);
	free(tool);
	return dse_stat_error;
}

/* Rank 0: the checked state of the checkpoint at ctx->out_path. */
static dse_stat read_checkpoint(const dse_ctx *ctx, void **state,
	size_t *size, dse_error *err)
{
	const char *path = ctx->out_path;
	struct stat sb;
	res_reader *r;
	int64_t complete = 0;
	dse_stat st;

	if (stat(path, &sb) != 0)
		return dse_error_set(err, DSE_E_INPUT, "nothing to resume: %s "
			"does not exist", path);
	r = res_reader_open(path, err);
	if (!r)
		return refuse(err, path);
	st = read_complete(r, path, &complete, err);
	if (st == dse_stat_ok && complete)
		st = dse_error_set(err, DSE_E_INPUT, "%s is a finished sweep; "
			"nothing to resume", path);
	if (st == dse_stat_ok)
		st = check_config(ctx, r, err);
	if (st == dse_stat_ok)
		st = check_inputs(ctx, r, err);
	if (st == dse_stat_ok && res_read_bytes(r, STATE_PATH, state, size,
			err))
		st = refuse(err, path);
	res_reader_close(r);
	if (st == dse_stat_ok && search_state_check(ctx->space, &ctx->sopt,
			*state, *size, err))
		st = refuse(err, path);
	if (st != dse_stat_ok) {
		free(*state);
		*state = NULL;
	}
	return st;
}

/* Sends rank 0's "n" bytes at "buf" to every rank, in pieces that fit
 * an int count.
 */
static int bcast_bytes(unsigned char *buf, size_t n, MPI_Comm comm)
{
	size_t done;

	for (done = 0; done < n; done += BCAST_CHUNK) {
		size_t part = n - done < BCAST_CHUNK ? n - done : BCAST_CHUNK;

		if (MPI_Bcast(buf + done, (int) part, MPI_BYTE, 0, comm) !=
				MPI_SUCCESS)
			return -1;
	}
	return 0;
}

dse_stat dse_resume_load(const dse_ctx *ctx, void **state, size_t *size,
	dse_error *err)
{
	/* Rank 0's verdict (its error code, 0 for none) and the size. */
	long long head[2] = { 0, 0 };
	int ok, all_ok;

	*state = NULL;
	*size = 0;
	if (ctx->rank == 0) {
		if (read_checkpoint(ctx, state, size, err))
			head[0] = err->code ? err->code : DSE_E_RUNTIME;
		head[1] = (long long) *size;
	}
	if (MPI_Bcast(head, 2, MPI_LONG_LONG, 0, ctx->comm) != MPI_SUCCESS) {
		free(*state);
		*state = NULL;
		return dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the "
			"checkpoint failed");
	}
	if (head[0]) {
		if (ctx->rank != 0)
			dse_error_set(err, (enum dse_code) head[0], "resuming "
				"failed on rank 0");
		return dse_stat_error;
	}
	if (ctx->rank != 0) {
		*size = (size_t) head[1];
		*state = malloc(*size ? *size : 1);
	}
	/* A rank short of memory must not leave the others waiting in the
	 * broadcast: all agree first that every buffer exists.
	 */
	ok = *state != NULL;
	if (MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, ctx->comm) !=
			MPI_SUCCESS)
		all_ok = 0;
	if (!all_ok) {
		free(*state);
		*state = NULL;
		return dse_error_set(err, ok ? DSE_E_RUNTIME : DSE_E_NOMEM,
			"no memory for the checkpoint (%zu bytes) on %s", *size,
			ok ? "another rank" : "this rank");
	}
	if (bcast_bytes(*state, *size, ctx->comm)) {
		free(*state);
		*state = NULL;
		return dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the "
			"checkpoint failed");
	}
	return dse_stat_ok;
}

void dse_resume_command(const dse_ctx *ctx, char *buf, size_t size)
{
	const char *file = dse_cfg_file(ctx->cfg);
	const char *named = dse_cfg_string(ctx->cfg, "output", "file", NULL);
	char dflt[DSE_PATH_LEN];
	int n;

	if (named)
		snprintf(dflt, sizeof(dflt), "%s", named);
	else
		snprintf(dflt, sizeof(dflt), "results/%s.h5",
			ctx->tmpl.kernel);
	n = snprintf(buf, size, "dse --resume");
	if (n > 0 && (size_t) n < size && strcmp(dflt, ctx->out_path))
		n += snprintf(buf + n, size - n, " -o %s", ctx->out_path);
	/* The built-in sweep has no file to name. */
	if (n > 0 && (size_t) n < size && strcmp(file, "<default>"))
		snprintf(buf + n, size - n, " %s", file);
}

/* ---- signals ---------------------------------------------------------- */

/* The number of the stop signal caught, 0 before one.  A signal handler
 * may only store to an object of type volatile sig_atomic_t (C11
 * 7.14.1.1), so this flag is the one piece of mutable file-scope state in
 * the program: the handler cannot reach anything a caller owns.  The
 * search reads it through search_options.stop.
 */
static volatile sig_atomic_t caught_signal;

static void on_stop_signal(int sig)
{
	caught_signal = sig;
}

dse_stat dse_signals_install(dse_signals *s, dse_error *err)
{
	struct sigaction sa;

	memset(s, 0, sizeof(*s));
	memset(&sa, 0, sizeof(sa));
	caught_signal = 0;
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* SA_RESETHAND puts the default action back once the handler has
	 * run, so a second Ctrl-C ends the process at once; SA_RESTART keeps
	 * MPI's and HDF5's system calls from failing with EINTR meanwhile.
	 */
	sa.sa_flags = SA_RESETHAND | SA_RESTART;
	if (sigaction(SIGINT, &sa, &s->old_int) < 0)
		return dse_error_set(err, DSE_E_RUNTIME, "cannot catch SIGINT: "
			"%s", strerror(errno));
	if (sigaction(SIGTERM, &sa, &s->old_term) < 0) {
		sigaction(SIGINT, &s->old_int, NULL);
		return dse_error_set(err, DSE_E_RUNTIME, "cannot catch SIGTERM: "
			"%s", strerror(errno));
	}
	/* A signal the process was started ignoring (a background job of a
	 * script ignores SIGINT, a nohup'ed one may ignore more) stays
	 * ignored, as the shell meant.
	 */
	if (s->old_int.sa_handler == SIG_IGN)
		(void) sigaction(SIGINT, &s->old_int, NULL);
	if (s->old_term.sa_handler == SIG_IGN)
		(void) sigaction(SIGTERM, &s->old_term, NULL);
	s->installed = 1;
	s->stop = &caught_signal;
	return dse_stat_ok;
}

dse_stat dse_signals_hold(dse_signals *s, dse_error *err)
{
	struct sigaction sa;

	if (!s->installed)
		return dse_stat_ok;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESETHAND: while the results are written, every stop
	 * request, the second Ctrl-C too, waits for the write to end; only
	 * SIGKILL ends the process then.  The writes take seconds at most.
	 */
	sa.sa_flags = SA_RESTART;
	if ((s->old_int.sa_handler != SIG_IGN &&
	     sigaction(SIGINT, &sa, NULL) < 0) ||
	    (s->old_term.sa_handler != SIG_IGN &&
	     sigaction(SIGTERM, &sa, NULL) < 0))
		return dse_error_set(err, DSE_E_RUNTIME, "cannot hold the stop "
			"signals: %s", strerror(errno));
	return dse_stat_ok;
}

int dse_signals_restore(dse_signals *s)
{
	if (s->installed) {
		/* Nothing useful can be done if this fails: the handlers
		 * only set a flag nobody reads any more.
		 */
		(void) sigaction(SIGINT, &s->old_int, NULL);
		(void) sigaction(SIGTERM, &s->old_term, NULL);
		s->installed = 0;
	}
	s->stop = NULL;
	return caught_signal;
}
