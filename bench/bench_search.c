/* The search strategies against the exhaustive front.
 *
 * For each config: the exhaustive sweep gives the true front; then every
 * heuristic strategy runs with budgets of a few per cent of the space and
 * several seeds, and the hypervolume of its front is printed as a share of
 * the exhaustive front's, measured in the same box (from the true front's
 * best value of each objective to its worst plus a tenth of the range, the
 * usual nadir margin), once on the plain objectives and once on their
 * logarithms (the box from the best value to the worst times 1.1), where
 * a factor gained on the slow, small designs counts as much as one on the
 * fast, large ones; and the share of the true front's designs found.
 * With --speed it prints instead the points per
 * second of each strategy on this run's ranks and threads, for
 * bench/search_parallel.sh to turn into parallel efficiency.  Prints
 * figures; never fails on a time or a figure.
 *
 * Usage: bench_search [--seeds N] [--budgets 0.005,0.01,...]
 *                     [--strategies random,genetic,anneal] [--speed]
 *                     [config ...]
 * Default configs: configs/mm.cfg configs/conv.cfg bench/conv-vgg.cfg.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_setup.h"

#define MAX_BUDGETS 16
#define MAX_STRATEGIES 4

struct args {
	int seeds;
	double budget[MAX_BUDGETS];
	int n_budgets;
	int strategy[MAX_STRATEGIES];
	int n_strategies;
	int speed;
	const char **configs;
	int n_configs;
};

/* The box the hypervolumes are measured in, from the true front. */
struct box {
	double lo[SEARCH_MAX_OBJECTIVES];
	double ref[SEARCH_MAX_OBJECTIVES];
	double log_ref[SEARCH_MAX_OBJECTIVES];
	double hv;		/* the true front's, in each box */
	double log_hv;
};

/* One strategy's figures at one budget, summed over the seeds. */
struct score {
	double hv, hv_min, log_hv, log_min, found, secs;
	uint64_t evaluated;
};

static int setup(dse_ctx *ctx, const char *path, dse_error *err)
{
	if (bench_setup(ctx, path, err))
		return -1;
	return 0;
}

/* One search of ctx's space with "strategy"; the result on every rank,
 * the front on rank 0.
 */
static int search(const dse_ctx *ctx, int strategy, uint64_t budget,
	uint64_t seed, search_result *res)
{
	search_options opt = ctx->sopt;
	search_evaluator ev = dse_evaluator(ctx);
	dse_error err;

	dse_error_clear(&err);
	opt.strategy = strategy;
	opt.budget = strategy == SEARCH_EXHAUSTIVE ? 0 : budget;
	opt.seed = seed;
	if (search_run(ctx->space, &ev, &opt, ctx->comm, res, &err)) {
		if (ctx->rank == 0)
			fprintf(stderr, "bench_search: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static struct box true_box(const search_front *front, int n_obj)
{
	struct box b;
	size_t i, n = search_front_size(front);
	int j;

	for (j = 0; j < n_obj; j++) {
		double lo = INFINITY, hi = -INFINITY;

		for (i = 0; i < n; i++) {
			double v = search_objective_value(front,
				search_front_at(front, i), j);

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		b.lo[j] = lo;
		/* A one-point front has no range; widen by a tenth of the
		 * value so the box is not empty.
		 */
		b.ref[j] = hi + (hi > lo ? 0.1 * (hi - lo) : 0.1 * hi);
		b.log_ref[j] = 1.1 * hi;
	}
	b.hv = search_front_hypervolume(front, b.lo, b.ref);
	b.log_hv = search_front_hypervolume_log(front, b.lo, b.log_ref);
	return b;
}

/* The share of the true front's designs that "front" holds. */
static double found(const search_front *truth, const search_front *front)
{
	size_t i, j, n = search_front_size(truth), m = search_front_size(front);
	size_t hit = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < m; j++)
			if (search_front_at(front, j)->index ==
			    search_front_at(truth, i)->index) {
				hit++;
				break;
			}
	return n ? (double) hit / (double) n : 1.0;
}

/* Adds one run's figures (root). */
static void score_run(struct score *sc, const struct box *box,
	const search_front *truth, const search_front *front)
{
	double hv = search_front_hypervolume(front, box->lo, box->ref) /
		box->hv;
	double lhv = search_front_hypervolume_log(front, box->lo,
		box->log_ref) / box->log_hv;

	sc->hv += hv;
	sc->hv_min = hv < sc->hv_min ? hv : sc->hv_min;
	sc->log_hv += lhv;
	sc->log_min = lhv < sc->log_min ? lhv : sc->log_min;
	sc->found += found(truth, front);
}

/* One row of the quality table: a strategy at one budget over the seeds. */
static int quality_row(const dse_ctx *ctx, const struct args *a,
	int strategy, double fraction, const struct box *box,
	const search_front *truth)
{
	uint64_t size = search_space_size(ctx->space);
	uint64_t budget = (uint64_t) (fraction * (double) size + 0.5);
	struct score sc = { 0, INFINITY, 0, INFINITY, 0, 0, 0 };
	int s, n = a->seeds;

	for (s = 1; s <= n; s++) {
		search_result res;

		if (search(ctx, strategy, budget, (uint64_t) s, &res))
			return -1;
		sc.evaluated += res.evaluated;
		sc.secs += res.seconds;
		if (ctx->rank == 0)
			score_run(&sc, box, truth, res.front);
		search_front_free(res.front);
		search_cloud_free(res.cloud);
	}
	if (ctx->rank == 0)
		printf("  %-8s %6.2f%% %9.0f  %7.2f%% %7.2f%%  %7.2f%% "
			"%7.2f%%  %6.1f%%  %7.3f\n",
			search_strategy_name(strategy), 100 * fraction,
			(double) sc.evaluated / n, 100 * sc.hv / n,
			100 * sc.hv_min, 100 * sc.log_hv / n,
			100 * sc.log_min, 100 * sc.found / n, sc.secs / n);
	return 0;
}

static int quality(const char *path, const struct args *a)
{
	dse_ctx ctx;
	dse_error err;
	search_result ex;
	struct box box;
	int i, b, rc = 0;

	memset(&ctx, 0, sizeof(ctx));
	dse_error_clear(&err);
	ctx.comm = MPI_COMM_WORLD;
	MPI_Comm_rank(ctx.comm, &ctx.rank);
	MPI_Comm_size(ctx.comm, &ctx.size);
	if (setup(&ctx, path, &err) || search(&ctx, SEARCH_EXHAUSTIVE, 0,
			1, &ex)) {
		if (ctx.rank == 0 && err.msg[0])
			fprintf(stderr, "bench_search: %s\n", err.msg);
		dse_ctx_clear(&ctx);
		return -1;
	}
	if (ctx.rank == 0) {
		box = true_box(ex.front, ctx.sopt.n_obj);
		printf("%s: %s, %llu points, exhaustive front %zu designs in "
			"%.3f s\n", path, ctx.tmpl.kernel,
			(unsigned long long) search_space_size(ctx.space),
			search_front_size(ex.front), ex.seconds);
		printf("  %-8s %7s %9s  %8s %8s  %8s %8s  %7s  %7s\n",
			"strategy", "budget", "evals", "HV mean", "HV min",
			"logHV", "min", "found", "time(s)");
	}
	MPI_Bcast(&box, (int) sizeof(box), MPI_BYTE, 0, ctx.comm);
	for (i = 0; i < a->n_strategies && !rc; i++)
		for (b = 0; b < a->n_budgets && !rc; b++)
			rc = quality_row(&ctx, a, a->strategy[i], a->budget[b],
				&box, ex.front);
	search_front_free(ex.front);
	search_cloud_free(ex.cloud);
	dse_ctx_clear(&ctx);
	return rc;
}

/* Points per second of each strategy on this run's ranks and threads:
 * the exhaustive sweep over the whole space, the heuristics at the
 * largest budget.
 */
static int speed(const char *path, const struct args *a)
{
	dse_ctx ctx;
	dse_error err;
	int i, rc = 0;

	memset(&ctx, 0, sizeof(ctx));
	dse_error_clear(&err);
	ctx.comm = MPI_COMM_WORLD;
	MPI_Comm_rank(ctx.comm, &ctx.rank);
	MPI_Comm_size(ctx.comm, &ctx.size);
	if (setup(&ctx, path, &err)) {
		if (ctx.rank == 0)
			fprintf(stderr, "bench_search: %s\n", err.msg);
		dse_ctx_clear(&ctx);
		return -1;
	}
	for (i = -1; i < a->n_strategies && !rc; i++) {
		int strategy = i < 0 ? SEARCH_EXHAUSTIVE : a->strategy[i];
		uint64_t budget = (uint64_t) (a->budget[a->n_budgets - 1] *
			(double) search_space_size(ctx.space));
		search_result res;

		rc = search(&ctx, strategy, budget, 1, &res);
		if (!rc && ctx.rank == 0)
			printf("speed %s %s ranks %d threads %d points %llu "
				"seconds %.6f rate %.1f\n", path,
				search_strategy_name(strategy), ctx.size,
				res.threads, (unsigned long long) res.evaluated,
				res.seconds, res.seconds > 0 ?
				res.evaluated / res.seconds : 0.0);
		if (!rc) {
			search_front_free(res.front);
			search_cloud_free(res.cloud);
		}
	}
	dse_ctx_clear(&ctx);
	return rc;
}

static int parse_list(const char *s, struct args *a, int budgets)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	if (budgets)
		a->n_budgets = 0;
	else
		a->n_strategies = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (budgets && a->n_budgets < MAX_BUDGETS) {
			a->budget[a->n_budgets] = atof(tok);
			if (!(a->budget[a->n_budgets] > 0))
				return -1;
			a->n_budgets++;
		} else if (!budgets && a->n_strategies < MAX_STRATEGIES) {
			int st = search_strategy_find(tok);

			if (st < 0 || st == SEARCH_EXHAUSTIVE)
				return -1;
			a->strategy[a->n_strategies++] = st;
		}
	}
	return budgets ? (a->n_budgets ? 0 : -1) :
		(a->n_strategies ? 0 : -1);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const char *defaults[] = { "configs/mm.cfg", "configs/conv.cfg",
		"bench/conv-vgg.cfg" };
	int i;

	memset(a, 0, sizeof(*a));
	a->seeds = 3;
	parse_list("0.001,0.005,0.01,0.02,0.05", a, 1);
	parse_list("random,genetic,anneal", a, 0);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--speed"))
			a->speed = 1;
		else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
			a->seeds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--budgets") && i + 1 < argc) {
			if (parse_list(argv[++i], a, 1))
				return -1;
		} else if (!strcmp(argv[i], "--strategies") && i + 1 < argc) {
			if (parse_list(argv[++i], a, 0))
				return -1;
		} else
			return -1;
	}
	if (a->seeds < 1)
		return -1;
	a->configs = i < argc ? (const char **) argv + i : defaults;
	a->n_configs = i < argc ? argc - i : 3;
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	int rank, i, rc = 0;
	dse_error err;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (parse_args(argc, argv, &a)) {
		if (rank == 0)
			fprintf(stderr, "usage: bench_search [--seeds N] "
				"[--budgets F,F,...] [--strategies "
				"random,genetic,anneal] [--speed] "
				"[config ...]\n");
		MPI_Finalize();
		return 2;
	}
	for (i = 0; i < a.n_configs && !rc; i++)
		rc = a.speed ? speed(a.configs[i], &a) :
			quality(a.configs[i], &a);
	MPI_Finalize();
	return rc ? 1 : 0;
}
