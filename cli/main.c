/* The dse command: its entry point, the runners of the command table
 * (cli/commands.c), and the sweep's progress and summary.
 */
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#define MAX_SHOWN_ROWS 12

static int report_error(const dse_ctx *ctx, const dse_error *err)
{
	char line[DSE_ERROR_MSG_LEN + DSE_ERROR_FILE_LEN + 128];

	if (ctx->rank == 0) {
		dse_error_format(err, line, sizeof(line));
		fprintf(stderr, "dse: %s\n", line);
	}
	return dse_error_exit_status(err) ? dse_error_exit_status(err) : 1;
}

/* Whether "path" names a C file rather than a config. */
static int is_c_file(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/* The config of a C kernel given on the command line: every rank makes
 * the same text from the same arguments.  -D and -I with a config file
 * are refused, as the config says its own defines.
 */
static dse_cfg *c_config(const struct cli *cli, dse_error *err)
{
	dse_cfg *cfg;
	char *text;

	if (!is_c_file(cli->config)) {
		dse_error_set(err, DSE_E_INPUT, "-D and -I apply to a C kernel "
			"given on the command line (dse kernel.c); a config "
			"sets them with defines and include in [kernel]");
		return NULL;
	}
	text = dse_c_config(cli->config, cli->define, cli->n_defines,
		cli->include, cli->n_includes);
	if (!text) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	cfg = dse_cfg_parse_string(text, "<command-line>", err);
	free(text);
	return cfg;
}

/* Rank 0 reads the config and every rank parses the same text, so every
 * rank reaches the same verdict without reading the file itself.  Without
 * MPI the one process reads it.
 */
static dse_cfg *load_config(const dse_ctx *ctx, const char *path,
	dse_error *err)
{
	dse_cfg *cfg = NULL;
	long len = 0;
	char *text;

	if (!path)
		return dse_cfg_parse_string(dse_default_config(), "<default>",
			err);
	if (!ctx->mpi)
		return dse_cfg_parse_file(path, err);
	if (ctx->rank == 0) {
		cfg = dse_cfg_parse_file(path, err);
		len = cfg ? (long) strlen(dse_cfg_text(cfg)) : -1;
	}
	if (MPI_Bcast(&len, 1, MPI_LONG, 0, ctx->comm) != MPI_SUCCESS) {
		dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the config failed");
		return dse_cfg_free(cfg);
	}
	if (len < 0) {
		if (ctx->rank != 0)
			dse_error_set(err, DSE_E_INPUT, "bad config on rank 0");
		return NULL;
	}
	text = ctx->rank == 0 ? (char *) dse_cfg_text(cfg) : calloc(len + 1, 1);
	if (!text || MPI_Bcast(text, (int) len, MPI_CHAR, 0, ctx->comm) !=
			MPI_SUCCESS) {
		dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the config failed");
		if (ctx->rank != 0)
			free(text);
		return dse_cfg_free(cfg);
	}
	if (ctx->rank != 0) {
		cfg = dse_cfg_parse_string(text, path, err);
		free(text);
	}
	return cfg;
}

/* Seconds between progress lines when stderr is not a terminal (a log
 * file): the search may report more often, at its own synchronisations.
 */
#define LOG_INTERVAL 5.0

struct progress_state {
	int tty;
	int printed;
	int stage;		/* of the last line printed */
	double last;		/* search seconds at the last line */
};

/* The second stage: band points through the sampled cycle model. */
static void print_stage2(const search_progress *p, struct progress_state *ps)
{
	double rate = p->seconds > 0 ? p->evaluated / p->seconds : 0;
	double eta = rate > 0 ? (p->total - p->evaluated) / rate : 0;

	fprintf(stderr, "%sdse: sampled model: %5.1f%%  %llu/%llu band points"
		"  %.1f points/s  ETA %.1f s%s", ps->tty ? "\r\033[K" : "",
		p->total ? 100.0 * p->evaluated / p->total : 100.0,
		(unsigned long long) p->evaluated,
		(unsigned long long) p->total, rate, eta, ps->tty ? "" : "\n");
	ps->printed = 1;
	fflush(stderr);
}

static void print_progress(const search_progress *p, void *user)
{
	struct progress_state *ps = user;
	double rate = p->seconds > 0 ? p->evaluated / p->seconds : 0;
	/* The count is an estimate over the ranks and may pass the total. */
	double left = p->total > p->evaluated ?
		(double) (p->total - p->evaluated) : 0;
	double eta = rate > 0 ? left / rate : 0;
	double valid = p->evaluated ? 100.0 * p->valid / p->evaluated : 0;
	char hv[32], what[48];

	if (p->stage == 2) {
		/* The sweep's last line stays on screen above this one. */
		if (ps->tty && ps->stage == 1)
			fputc('\n', stderr);
		ps->stage = 2;
		print_stage2(p, ps);
		return;
	}
	/* A log gets a line per interval, and the last one. */
	if (!ps->tty && ps->printed && ps->stage == 1 &&
	    p->seconds - ps->last < LOG_INTERVAL && p->evaluated < p->total)
		return;
	ps->last = p->seconds;
	ps->stage = 1;
	/* The hypervolume is unknown (NaN) until the front has a point. */
	hv[0] = '\0';
	if (!isnan(p->hypervolume))
		snprintf(hv, sizeof(hv), "  hv %.4f", p->hypervolume);
	/* A heuristic search counts evaluations against its budget and
	 * says which generation it has reached.
	 */
	if (p->strategy != SEARCH_EXHAUSTIVE)
		snprintf(what, sizeof(what), "%s gen %llu  ",
			search_strategy_name(p->strategy),
			(unsigned long long) p->generation);
	else
		what[0] = '\0';
	fprintf(stderr, "%sdse: %s%5.1f%%  %llu/%llu %s  %.2f M points/s  "
		"valid %.1f%%  front %zu%s  ETA %.1f s%s",
		ps->tty ? "\r\033[K" : "", what,
		p->total ? 100.0 * p->evaluated / p->total : 100.0,
		(unsigned long long) p->evaluated,
		(unsigned long long) p->total,
		p->strategy != SEARCH_EXHAUSTIVE ? "of budget" : "points",
		rate / 1e6, valid, p->front_size, hv, eta,
		ps->tty ? "" : "\n");
	ps->printed = 1;
	fflush(stderr);
}

/* The knobs --sa-sizes does not carry (io_network, double_buffer), as
 * " multicast, no double buffering"; "" when the model has neither.
 */
static const char *knob_suffix(const dse_ctx *ctx, const search_point *p,
	char *buf, size_t size)
{
	int k;

	buf[0] = '\0';
	/* By name: a sweep over several candidates has other positions. */
	for (k = 0; ctx->model && k < search_space_n_knobs(ctx->space); k++) {
		const char *kind = search_space_knob_name(ctx->space, k);
		size_t len = strlen(buf);

		if (!strcmp(kind, "io_network"))
			snprintf(buf + len, size - len, " %s",
				p->knobs[k] == SIM_NET_MULTICAST ?
				"multicast" : "daisy");
		else if (!strcmp(kind, "double_buffer"))
			snprintf(buf + len, size - len, " %s",
				p->knobs[k] ? "db" : "no-db");
	}
	return buf;
}

/* How long the summary may spend looking for an example of each kind of
 * illegal point, evaluating the space from its first index.
 */
#define EXAMPLE_SECONDS 0.3

/* One illegal design of each status the sweep counted, with what is wrong
 * with it, found by evaluating the space in index order: a sweep that
 * lost points should show one, not only count them.
 */
static void print_examples(const dse_ctx *ctx, const search_result *res)
{
	search_evaluator ev = dse_evaluator(ctx);
	uint64_t size = search_space_size(ctx->space), idx;
	uint64_t first[SIM_N_STATUS] = { 0 };
	int shown[SIM_N_STATUS] = { 0 }, want = 0, st;
	double t0 = MPI_Wtime();

	for (st = 1; st < SIM_N_STATUS; st++)
		want += res->status_count[st] > 0;
	for (idx = 0; idx < size && want > 0; idx++) {
		int32_t knobs[SEARCH_MAX_KNOBS];
		sim_metrics m;

		if ((idx & 63) == 63 && MPI_Wtime() - t0 > EXAMPLE_SECONDS)
			break;
		search_space_decode(ctx->space, idx, knobs);
		ev.eval(ev.model, knobs, &m);
		st = m.status;
		if (st <= SIM_OK || st >= SIM_N_STATUS || shown[st] ||
		    !res->status_count[st])
			continue;
		shown[st] = 1;
		first[st] = idx;
		want--;
	}
	/* In the order of the counts on the line above. */
	for (st = 1; st < SIM_N_STATUS; st++) {
		int32_t knobs[SEARCH_MAX_KNOBS];
		char design[256], why[256];

		if (!shown[st])
			continue;
		search_space_decode(ctx->space, first[st], knobs);
		dse_design_text(ctx, knobs, design, sizeof(design));
		why[0] = '\0';
		if (dse_is_workload(ctx))
			dse_workload_why(ctx, knobs, why, sizeof(why));
		printf("    e.g. %s: %s\n", design, why[0] ? why :
			sim_status_name(st));
	}
}

/* Why points were left out, when some were: a sweep with an empty front
 * must say whether its constraints or its knob ranges are to blame.
 */
static void print_rejected(const dse_ctx *ctx, const search_result *res)
{
	int st, illegal = 0;

	if (res->valid == res->evaluated)
		return;
	printf("  left out: %llu over a constraint",
		(unsigned long long) res->over_constraint);
	for (st = 1; st < SIM_N_STATUS; st++)
		if (res->status_count[st]) {
			printf(", %llu illegal (%s)",
				(unsigned long long) res->status_count[st],
				sim_status_name(st));
			illegal = 1;
		}
	printf("\n");
	if (illegal)
		print_examples(ctx, res);
}

/* An empty front although legal points were evaluated, or skipped by a
 * bound that broke a constraint (pruned but not beaten): which bound
 * ruled out the most of them, from a sample of the space, with the
 * runners-up, so that a slip such as "dsp <= 1" is found at once.
 */
static void print_empty_front(const dse_ctx *ctx, const search_result *res)
{
	uint64_t legal, broken[SEARCH_MAX_CONSTRAINTS];
	int order[SEARCH_MAX_CONSTRAINTS], i, j, n = ctx->sopt.n_constraints;

	if (search_front_size(res->front) || (!res->over_constraint &&
	    res->pruned == res->pruned_beaten))
		return;
	dse_bound_blame(ctx, 1.0, &legal, broken);
	if (!legal)
		return;
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && broken[order[j - 1]] < broken[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	printf("  the front is empty: every legal design breaks a "
		"constraint; of %llu legal designs looked at again,\n",
		(unsigned long long) legal);
	for (i = 0; i < n && i < 3 && broken[order[i]]; i++) {
		const dse_bound *b = &ctx->bound[order[i]];

		printf("    %5.1f%% break %s", 100.0 * (double) broken[order[i]] /
			(double) legal, b->text);
		if (b->line)
			printf(" (%s:%d:%d)", dse_cfg_file(ctx->cfg), b->line,
				b->col);
		printf("\n");
	}
}

/* The share of the board resource "id" of "m" takes, in percent. */
static double share(const dse_ctx *ctx, const sim_metrics *m,
	enum sim_metric id)
{
	double cap = sim_metric_capacity(&ctx->board, id);

	return cap > 0 ? 100.0 * sim_metrics_get(m, id) / cap : 0.0;
}

static void print_summary(const dse_ctx *ctx, const search_result *res)
{
	size_t i, n = search_front_size(res->front);
	char sa[256], extra[64];
	/* Points skipped by bounds were swept too. */
	uint64_t swept = res->evaluated + res->pruned;

	printf("dse: %s on %s, %s search: %llu points in %.2f s (%d ranks x "
		"%d threads, %.2f M points/s), %llu valid, front of %zu designs "
		"-> %s\n", ctx->tmpl.kernel, ctx->board.name,
		search_strategy_name(ctx->sopt.strategy),
		(unsigned long long) swept, res->seconds, ctx->size,
		res->threads, res->seconds > 0 ?
		(double) swept / res->seconds / 1e6 : 0.0,
		(unsigned long long) res->valid, n, ctx->out_path);
	print_rejected(ctx, res);
	print_empty_front(ctx, res);
	if (n)
		printf("  %12s %10s %7s %8s %6s %6s %10s %9s  %s\n",
			"latency(ms)", ctx->dtype->is_float ? "GFLOP/s" :
			"GOP/s", "DSP", "BRAM18K", "LUT%", "FF%", "energy(mJ)",
			"PEs", dse_is_workload(ctx) ? "design" :
			"AutoSA --sa-sizes");
	for (i = 0; i < n && i < MAX_SHOWN_ROWS; i++) {
		const search_point *p = search_front_at(res->front, i);
		char pes[32];

		dse_design_text(ctx, p->knobs, sa, sizeof(sa));
		/* rows x cols names a 2-D grid only; a 1-D or 3-D array
		 * shows its PE count, so the figure never understates it.
		 */
		if ((int64_t) p->metrics.pe_rows * p->metrics.pe_cols ==
		    p->metrics.n_pe)
			snprintf(pes, sizeof(pes), "%dx%d", p->metrics.pe_rows,
				p->metrics.pe_cols);
		else
			snprintf(pes, sizeof(pes), "%lld",
				(long long) p->metrics.n_pe);
		printf("  %12.4f %10.1f %7lld %8lld %6.1f %6.1f %10.3f %9s  "
			"%s%s\n", p->metrics.latency_s * 1e3, p->metrics.gops,
			(long long) p->metrics.dsp,
			(long long) p->metrics.bram18k,
			share(ctx, &p->metrics, SIM_M_LUT),
			share(ctx, &p->metrics, SIM_M_FF),
			p->metrics.energy_j * 1e3, pes, sa,
			knob_suffix(ctx, p, extra, sizeof(extra)));
	}
	if (n > MAX_SHOWN_ROWS)
		printf("  ... %zu more rows in %s\n", n - MAX_SHOWN_ROWS,
			ctx->out_path);
}

/* The second stage in one or two lines: how many band points the sampled
 * model re-evaluated, and whether band_max cut the band.
 */
static void print_two_stage(const dse_ctx *ctx, const search_result *res)
{
	if (ctx->sopt.model != SIM_MODEL_SAMPLED)
		return;
	printf("  two-stage: %llu points within %g%% of the analytic front "
		"re-evaluated with the sampled cycle model in %.2f s; %llu "
		"dropped (illegal or over a constraint); front rows say "
		"model=sampled\n", (unsigned long long) res->resimulated,
		100.0 * ctx->sopt.band, res->resim_seconds,
		(unsigned long long) res->resim_dropped);
	if (res->resim_failed)
		printf("  two-stage: the simulation of %llu of them failed; "
			"they are left out of the front\n",
			(unsigned long long) res->resim_failed);
	if (res->band_cut)
		printf("  two-stage: the band had %llu points; band_max = %zu "
			"left out the %llu farthest from the front\n",
			(unsigned long long) res->band_points,
			ctx->sopt.band_max,
			(unsigned long long) res->band_cut);
}

/* Whether the front was kept in boxes (front_resolution) or outgrew
 * front_max and was thinned, and how to get it exact or reproducible.
 */
static void print_thinning(const dse_ctx *ctx, const search_result *res)
{
	double r = res->front ? search_front_resolution(res->front) : 0;

	if (r <= 0)
		return;
	if (r <= ctx->sopt.front_resolution * (1 + 1e-9)) {
		printf("  front: one design per box of %.3g%% in every "
			"objective (front_resolution)\n", 100 * r);
		return;
	}
	fprintf(stderr, "dse: warning: the front outgrew front_max = %zu "
		"points and was thinned to one design per box of %.3g%% in "
		"every objective; every design left out is within %.3g%% of "
		"one kept. Raise [search] front_max for an exact front, or set "
		"front_resolution = %.6g for this front on any number of "
		"ranks\n", ctx->sopt.front_max, 100 * r,
		100 * ((1 + r) * (1 + r) - 1), r);
}

/* What the strategy did, when there is more to say than the points: the
 * generations and islands of a heuristic search, the points exhaustive
 * search skipped on resource bounds, and whether it resumed.
 */
static void print_strategy(const dse_ctx *ctx, const search_result *res)
{
	if (ctx->sopt.strategy != SEARCH_EXHAUSTIVE)
		printf("  %s: %llu generations on %d islands\n",
			search_strategy_name(ctx->sopt.strategy),
			(unsigned long long) res->generations, res->islands);
	else if (res->pruned)
		printf("  pruned: %llu points skipped by bounds (%llu beaten by "
			"a design of the reference, the rest over a "
			"constraint); the model evaluated %llu points\n",
			(unsigned long long) res->pruned,
			(unsigned long long) res->pruned_beaten,
			(unsigned long long) res->modelled);
	if (res->resumed)
		printf("  resumed from a checkpoint\n");
	print_thinning(ctx, res);
}

/* The config's warnings (ctx->warnings), on rank 0, each "dse: " and
 * its line.
 */
static void print_warnings(const dse_ctx *ctx)
{
	const char *p = ctx->warnings, *e;

	if (ctx->rank != 0 || ctx->quiet)
		return;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		fprintf(stderr, "dse: %.*s\n", (int) (e - p), p);
	}
}

/* Warns, on rank 0, about an exhaustive sweep that will take hours. */
static void warn_big_space(const dse_ctx *ctx)
{
	char msg[512];

	if (ctx->rank == 0 && !ctx->quiet && dse_space_warning(ctx,
			ctx->size, omp_get_max_threads(), msg, sizeof(msg)))
		fprintf(stderr, "dse: warning: %s\n", msg);
}

/* Runs the search with SIGINT and SIGTERM caught ("s" installed here, for
 * the caller to restore).  Collective.
 */
static dse_stat search_with_signals(dse_ctx *ctx, search_result *res,
	dse_signals *s, dse_error *err)
{
	search_evaluator ev = dse_evaluator(ctx);
	dse_stat st;

	/* Without the handlers (sigaction never fails in practice) a signal
	 * just ends the process, as it would have before.
	 */
	if (dse_signals_install(s, NULL) == dse_stat_ok)
		ctx->sopt.stop = s->stop;
	st = search_run(ctx->space, &ev, &ctx->sopt, ctx->comm, res, err);
	ctx->sopt.stop = NULL;
	return st;
}

/* A stopped search: rank 0 says where the checkpoint is and how to go
 * on.  Returns the exit status, 128 + the signal's number on every rank,
 * so a script cannot take the stop for success.  Collective.
 */
static int stopped(const dse_ctx *ctx, search_result *res,
	const dse_checkpointer *cp, int sig)
{
	char cmd[2 * DSE_PATH_LEN + 32];
	int any = sig;

	if (MPI_Allreduce(&sig, &any, 1, MPI_INT, MPI_MAX, ctx->comm) !=
			MPI_SUCCESS || any <= 0)
		any = sig > 0 ? sig : SIGINT;
	if (ctx->rank == 0 && cp->written && cp->failing) {
		/* The stop's own checkpoint failed: an older one is there. */
		dse_resume_command(ctx, cmd, sizeof(cmd));
		fprintf(stderr, "dse: interrupted after %llu points; %s keeps "
			"the last checkpoint written, at %llu of %llu points; "
			"continue with: %s\n",
			(unsigned long long) res->evaluated, ctx->out_path,
			(unsigned long long) cp->evaluated,
			(unsigned long long) cp->total, cmd);
	} else if (ctx->rank == 0 && cp->written) {
		dse_resume_command(ctx, cmd, sizeof(cmd));
		fprintf(stderr, "dse: interrupted after %llu of %llu points; "
			"checkpoint written to %s; continue with: %s\n",
			(unsigned long long) cp->evaluated,
			(unsigned long long) cp->total, ctx->out_path, cmd);
	} else if (ctx->rank == 0) {
		fprintf(stderr, "dse: interrupted after %llu points; no "
			"checkpoint was written\n",
			(unsigned long long) res->evaluated);
	}
	search_front_free(res->front);
	search_cloud_free(res->cloud);
	return 128 + any;
}

/* The finished search's stop signals: a stop that came after the search
 * had ended (during the final write or the summary) found the sweep
 * complete, so the run says so and succeeds; a failed final write says
 * what the file still holds.
 */
static int after_final_write(const dse_ctx *ctx, const dse_checkpointer *cp,
	int ok, int sig, dse_error *err)
{
	if (ctx->rank != 0)
		return 0;
	if (ok && sig)
		fprintf(stderr, "dse: %s arrived while the results were being "
			"written; the write was finished: %s holds the whole "
			"sweep\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
			ctx->out_path);
	if (ok)
		return 0;
	if (cp->written)
		fprintf(stderr, "dse: the results could not be written; %s "
			"keeps the last checkpoint (%llu of %llu points), which "
			"--resume continues\n", ctx->out_path,
			(unsigned long long) cp->evaluated,
			(unsigned long long) cp->total);
	return report_error(ctx, err);
}

/* Rank 0 writes the finished sweep over the last checkpoint and prints
 * the summary, with the stop signals held so that a stop during the
 * write does not lose it.  Returns the exit status.
 */
static int finish(const dse_ctx *ctx, search_result *res, dse_signals *s,
	const dse_checkpointer *cp, dse_error *err)
{
	res_file *out;
	int ok = 1;

	(void) dse_signals_hold(s, NULL);
	if (ctx->rank == 0) {
		out = res_file_create(ctx->out_real, err);
		ok = out && dse_write_results(ctx, out, res, MPI_Wtime() -
			cp->t0, err) == dse_stat_ok;
		if (ok && !ctx->quiet) {
			print_summary(ctx, res);
			print_strategy(ctx, res);
			print_two_stage(ctx, res);
		}
	}
	search_front_free(res->front);
	search_cloud_free(res->cloud);
	fflush(stdout);
	return after_final_write(ctx, cp, ok, dse_signals_restore(s), err);
}

/* Runs the sweep once the context is built, from the checkpoint with
 * --resume; --restart starts again over an unfinished checkpoint.
 * Returns the exit status.
 */
int cli_run_sweep(dse_ctx *ctx, struct cli *cli, dse_error *err)
{
	int resume = cli->resume;
	struct progress_state ps = { isatty(2), 0, 0, 0 };
	dse_checkpointer cp = { ctx, MPI_Wtime(), 0, 0, 0, 0, 0 };
	search_result res;
	void *state = NULL;
	size_t state_size = 0;
	dse_signals sigs;
	dse_stat st;

	/* The output is checked and locked before the checkpoint is read,
	 * so no other writer can replace it meanwhile.
	 */
	if (dse_output_prepare(ctx, resume, cli->restart, err))
		return report_error(ctx, err);
	if (ctx->rank == 0 && ctx->stale_removed && !ctx->quiet)
		fprintf(stderr, "dse: removed %d temporary file%s that stopped "
			"runs left beside %s\n", ctx->stale_removed,
			ctx->stale_removed > 1 ? "s" : "", ctx->out_path);
	if (resume && dse_resume_load(ctx, &state, &state_size, err))
		return report_error(ctx, err);
	warn_big_space(ctx);
	if (!ctx->quiet) {
		ctx->sopt.progress = print_progress;
		ctx->sopt.progress_user = &ps;
	}
	ctx->sopt.progress_interval = ps.tty ? 0.5 : LOG_INTERVAL;
	ctx->sopt.resume = state;
	ctx->sopt.resume_size = state_size;
	ctx->sopt.checkpoint = dse_checkpoint_write;
	ctx->sopt.checkpoint_user = &cp;
	st = search_with_signals(ctx, &res, &sigs, err);
	free(state);
	ctx->sopt.resume = NULL;
	if (ps.printed && ps.tty)
		fputc('\n', stderr);
	if (st) {
		dse_signals_restore(&sigs);
		return report_error(ctx, err);
	}
	if (res.interrupted)
		return stopped(ctx, &res, &cp, dse_signals_restore(&sigs));
	return finish(ctx, &res, &sigs, &cp, err);
}

/* "dse tune" once the context is built, with the sweep's progress line.
 * Returns the exit status.
 */
int cli_run_tune(dse_ctx *ctx, struct cli *cli, dse_error *err)
{
	struct progress_state ps = { isatty(2), 0, 0, 0 };
	const dse_tune_opts *opts = &cli->topt;
	dse_tuned best;
	dse_stat st;

	if (!ctx->quiet && !opts->from) {
		ctx->sopt.progress = print_progress;
		ctx->sopt.progress_user = &ps;
	}
	ctx->sopt.progress_interval = ps.tty ? 0.5 : LOG_INTERVAL;
	if (dse_tune(ctx, opts, &best, err))
		return report_error(ctx, err);
	/* Rank 0 writes the design; every rank then exits with its
	 * outcome.
	 */
	st = ctx->rank == 0 ? cli_tune_emit(ctx, opts, &best, err) :
		dse_stat_ok;
	if (dse_root_verdict(ctx, st, err))
		return report_error(ctx, err);
	if (ps.printed && ps.tty)
		fputc('\n', stderr);
	return 0;
}

/* "dse analyze": only the [kernel] matters, and no context is built. */
int cli_run_analyze(dse_ctx *ctx, struct cli *cli, dse_error *err)
{
	dse_analysis res;
	dse_stat st;

	if (dse_cfg_has(ctx->cfg, "workload", "family")) {
		int line = 0, col = 0;

		dse_cfg_pos(ctx->cfg, "workload", "family", &line, &col);
		dse_error_set_at(err, dse_cfg_file(ctx->cfg), line, col,
			"family", "'dse analyze' analyses a [kernel]; "
			"this config is a GNN workload");
		return report_error(ctx, err);
	}
	if (dse_analyze(ctx, &cli->aopt, &res, err))
		return report_error(ctx, err);
	st = ctx->rank == 0 ? cli_analysis_print(ctx, &res, &cli->aopt,
		stdout, err) : dse_stat_ok;
	dse_analysis_clear(&res);
	return st ? report_error(ctx, err) : 0;
}

int cli_run_eval(dse_ctx *ctx, struct cli *cli, dse_error *err)
{
	dse_evaluation *res;
	dse_stat st;

	if (dse_is_workload(ctx)) {
		dse_error_set(err, DSE_E_INPUT, "'dse eval' takes a kernel's "
			"--sa-sizes; for a workload use 'dse simulate "
			"--mode analytic --design ...'");
		return report_error(ctx, err);
	}
	st = dse_eval(ctx, &cli->eopt, &res, err);
	/* A design that is illegal or over the board is shown, then
	 * refused; the write's own failure comes first.
	 */
	if (res && cli_evaluation_print(ctx, res, cli->eopt.json, stdout,
			err))
		st = dse_stat_error;
	dse_evaluation_free(res);
	return st ? report_error(ctx, err) : 0;
}

int cli_run_simulate(dse_ctx *ctx, struct cli *cli, dse_error *err)
{
	dse_simulation *res;
	dse_stat st;

	st = dse_simulate(ctx, &cli->sopt, &res, err);
	if (res && cli_simulation_print(ctx, res, &cli->sopt, stdout, err))
		st = dse_stat_error;
	dse_simulation_free(res);
	return st ? report_error(ctx, err) : 0;
}

/* Parses argv for "cmd" (whose name, when it has one, is argv[1]);
 * returns 0, or 2 after saying what is wrong.
 */
static int parse_cli(const struct dse_command *cmd, int argc, char **argv,
	struct cli *cli, int rank)
{
	char msg[256];
	int skip = cmd->name[0] ? 1 : 0;

	memset(cli, 0, sizeof(*cli));
	cli->cmd = cmd;
	opterr = 0;
	optind = 1;
	if (!cmd->parse(argc - skip, argv + skip, cli, msg, sizeof(msg)))
		return 0;
	if (rank == 0)
		fprintf(stderr, "dse: error: %s\n"
			"Try 'dse %s%s--help' for more information.\n", msg,
			cmd->name, cmd->name[0] ? " " : "");
	return 2;
}

/* Prints what the application has to say (dse_note), as every other
 * line dse writes to stderr: "dse: " and the message.
 */
static void print_note(void *user, enum dse_note_kind kind, const char *msg)
{
	const dse_ctx *ctx = user;

	if (kind == DSE_NOTE_PROGRESS && ctx->quiet)
		return;
	fprintf(stderr, "dse: %s\n", msg);
}

/* Builds the context the command needs (collective when it runs under
 * MPI) and runs it.  Returns the exit status.
 */
static int run_command(dse_ctx *ctx, struct cli *cli)
{
	const struct dse_command *cmd = cli->cmd;
	dse_error err;
	int bad, any_bad;

	dse_error_clear(&err);
	ctx->quiet = cli->quiet;
	ctx->note = print_note;
	ctx->note_user = ctx;
	ctx->cfg = cmd->run == cli_run_tune && cli->topt.from ?
		dse_tune_config(cli->topt.from, &err) :
		is_c_file(cli->config) || cli->n_defines || cli->n_includes ?
		c_config(cli, &err) : load_config(ctx, cli->config, &err);
	if (!cmd->setup)
		return ctx->cfg ? cmd->run(ctx, cli, &err) :
			report_error(ctx, &err);
	bad = !ctx->cfg || dse_ctx_setup(ctx, cli->output, &err);
	/* Every rank builds the same context from the same text, so they
	 * normally agree; but a rank short of memory must not leave the
	 * others waiting in the search's collectives.
	 */
	any_bad = bad;
	if (ctx->mpi && MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX,
			ctx->comm) != MPI_SUCCESS)
		any_bad = 1;
	if (any_bad && !bad)
		dse_error_set(&err, DSE_E_RUNTIME,
			"setting up the sweep failed on another rank");
	if (any_bad)
		return report_error(ctx, &err);
	print_warnings(ctx);
	return cmd->run(ctx, cli, &err);
}

/* The rank a launcher such as mpirun gave this process, 0 without one. */
static int launcher_rank(void)
{
	const char *r = getenv("OMPI_COMM_WORLD_RANK");

	if (!r)
		r = getenv("PMI_RANK");
	return r ? atoi(r) : 0;
}

/* Starts MPI for a command that needs it; returns 0, or the exit status
 * after saying why it could not.
 */
static int start_mpi(int *argc, char ***argv, dse_ctx *ctx)
{
	dse_error err;
	int started = 0;

	dse_error_clear(&err);
	if (search_mpi_init(argc, argv, &err)) {
		char msg[DSE_ERROR_MSG_LEN + 64];

		dse_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "dse: %s\n", msg);
		if (MPI_Initialized(&started) == MPI_SUCCESS && started)
			MPI_Finalize();
		return dse_error_exit_status(&err);
	}
	ctx->mpi = 1;
	ctx->comm = MPI_COMM_WORLD;
	MPI_Comm_rank(ctx->comm, &ctx->rank);
	MPI_Comm_size(ctx->comm, &ctx->size);
	return 0;
}

/* Only the commands that search start MPI.  The others run on the
 * launcher's first rank alone (under mpirun the other ranks just leave),
 * so their output appears once and "dse --help" costs no MPI start-up.
 */
int main(int argc, char **argv)
{
	const struct dse_command *cmd = cli_command_of(argc, argv);
	struct cli cli;
	dse_ctx ctx;
	int status, quick;

	res_init();
	if (cmd->main)
		return launcher_rank() == 0 ? cmd->main(argc - 1, argv + 1) :
			0;
	memset(&ctx, 0, sizeof(ctx));
	ctx.rank = launcher_rank();
	ctx.size = 1;
	if (parse_cli(cmd, argc, argv, &cli, ctx.rank))
		return 2;
	quick = cli.help || cli.version || cli.print_default;
	if (quick || !cmd->needs_mpi) {
		if (ctx.rank != 0)
			return 0;
		ctx.rank = 0;
		if (cli.help)
			cli_help(stdout, cmd);
		else if (cli.version)
			fputs("dse " DSE_VERSION "\n", stdout);
		else if (cli.print_default)
			fputs(dse_default_config(), stdout);
		status = quick ? 0 : run_command(&ctx, &cli);
		dse_ctx_clear(&ctx);
		return status;
	}
	status = start_mpi(&argc, &argv, &ctx);
	if (status)
		return status;
	status = run_command(&ctx, &cli);
	dse_ctx_clear(&ctx);
	fflush(stdout);
	MPI_Finalize();
	return status;
}
