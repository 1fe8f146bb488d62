/* Pruning by bounds: points evaluated and skipped, and the time saved.
 *
 * For each config the exhaustive sweep runs twice on this run's ranks and
 * threads, with pruning off and on (the config's own objectives and
 * constraints, the analytic model), and prints per run: the points the
 * model evaluated (the sweep's counter, the pruned run's reference
 * included), the legal points among them (counted by a wrapper around
 * the model, so that a point a per-point resource bound skipped, which
 * the sweep counts as over a constraint, is not counted as evaluated; on
 * P ranks the reference, which every rank evaluates alike, counts P
 * times), the points settled by their knobs alone (illegal prefixes),
 * skipped by bounds (and of those beaten by the reference front), the
 * wall and CPU seconds (CPU time summed over ranks and threads: on a
 * loaded machine wall-clock rates under-report), the points swept per CPU
 * second, and whether the two fronts are the same byte for byte.  Prints
 * figures; fails only when the fronts differ, which would be a bug, not a
 * slow machine.
 *
 * With --on the unpruned sweep is left out (for spaces too large to sweep
 * point by point): the pruned sweep's figures and rate only.
 *
 * Usage: [mpirun -np P] bench_prune [--on] [config ...]
 * Default configs: configs/conv.cfg bench/conv-vgg.cfg configs/mm.cfg.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "bench/bench_setup.h"

/* One thread's counts, alone on its cache line. */
struct tally {
	uint64_t calls, legal;
	char pad[48];
};

/* The model under a wrapper that counts its evaluations per thread. */
struct counted {
	search_evaluator inner;
	struct tally *t;
	int n;
};

static void eval_counted(const void *model, const int32_t *knobs,
	sim_metrics *out)
{
	const struct counted *c = model;
	struct tally *t = &c->t[omp_get_thread_num() % c->n];

	c->inner.eval(c->inner.model, knobs, out);
	t->calls++;
	t->legal += out->status == SIM_OK;
}

static void bound_counted(const void *model, const int32_t *knobs,
	sim_metrics *lower)
{
	const struct counted *c = model;

	c->inner.bound(c->inner.model, knobs, lower);
}

static int prefix_counted(const void *model, const int32_t *knobs, int n)
{
	const struct counted *c = model;

	return c->inner.prefix_status(c->inner.model, knobs, n);
}

static void box_counted(const void *model, const int32_t *lo,
	const int32_t *hi, sim_metrics *best)
{
	const struct counted *c = model;

	c->inner.bound_box(c->inner.model, lo, hi, best);
}

static int setup(dse_ctx *ctx, const char *path, dse_error *err)
{
	if (bench_setup(ctx, path, err))
		return -1;
	ctx->sopt.strategy = SEARCH_EXHAUSTIVE;
	return 0;
}

/* One sweep; *legal: the legal points the model evaluated, over all
 * ranks.
 */
static int sweep(const dse_ctx *ctx, int prune, search_result *res,
	uint64_t *legal)
{
	search_options opt = ctx->sopt;
	struct counted c;
	search_evaluator ev;
	dse_error err;
	uint64_t mine = 0;
	int i, failed;

	c.inner = dse_evaluator(ctx);
	c.n = omp_get_max_threads();
	c.t = calloc((size_t) c.n, sizeof(*c.t));
	if (!c.t)
		return -1;
	ev = c.inner;
	ev.model = &c;
	ev.eval = eval_counted;
	ev.bound = c.inner.bound ? bound_counted : NULL;
	ev.prefix_status = c.inner.prefix_status ? prefix_counted : NULL;
	ev.bound_box = c.inner.bound_box ? box_counted : NULL;
	ev.part = NULL;
	dse_error_clear(&err);
	opt.prune = prune;
	failed = search_run(ctx->space, &ev, &opt, ctx->comm, res, &err) !=
		dse_stat_ok;
	if (failed && ctx->rank == 0)
		fprintf(stderr, "bench_prune: %s\n", err.msg);
	for (i = 0; i < c.n; i++)
		mine += c.t[i].legal;
	free(c.t);
	if (failed || MPI_Allreduce(&mine, legal, 1, MPI_UINT64_T, MPI_SUM,
			ctx->comm) != MPI_SUCCESS)
		return -1;
	return 0;
}

static int same_front(const search_front *a, const search_front *b)
{
	size_t i;

	if (search_front_size(a) != search_front_size(b))
		return 0;
	for (i = 0; i < search_front_size(a); i++)
		if (memcmp(search_front_at(a, i), search_front_at(b, i),
				sizeof(search_point)))
			return 0;
	return 1;
}

static void print_run(const char *what, const search_result *r,
	uint64_t legal, uint64_t total)
{
	uint64_t settled = r->evaluated - (r->modelled > r->evaluated ?
		r->evaluated : r->modelled);

	printf("  %-4s model %9llu (legal %9llu)  settled %12llu  skipped "
		"%12llu (beaten %12llu)  %7.2f s wall %7.2f s CPU  %8.2f M "
		"points/CPU s\n", what, (unsigned long long) r->modelled,
		(unsigned long long) legal, (unsigned long long) settled,
		(unsigned long long) r->pruned,
		(unsigned long long) r->pruned_beaten, r->seconds,
		r->cpu_seconds, r->cpu_seconds > 0 ?
		(double) total / r->cpu_seconds / 1e6 : 0.0);
}

static int bench(const char *path, int on_only, MPI_Comm comm)
{
	dse_ctx ctx;
	dse_error err;
	search_result off, on;
	uint64_t total, legal_off = 0, legal_on = 0;
	int ok = 1;

	memset(&ctx, 0, sizeof(ctx));
	dse_error_clear(&err);
	ctx.comm = comm;
	MPI_Comm_rank(comm, &ctx.rank);
	MPI_Comm_size(comm, &ctx.size);
	if (setup(&ctx, path, &err)) {
		if (ctx.rank == 0)
			fprintf(stderr, "bench_prune: %s\n", err.msg);
		dse_ctx_clear(&ctx);
		return -1;
	}
	memset(&off, 0, sizeof(off));
	memset(&on, 0, sizeof(on));
	if ((!on_only && sweep(&ctx, 0, &off, &legal_off)) ||
	    sweep(&ctx, 1, &on, &legal_on)) {
		dse_ctx_clear(&ctx);
		return -1;
	}
	total = search_space_size(ctx.space);
	if (ctx.rank == 0) {
		printf("%s: %llu points, %d ranks x %d threads, front of %zu "
			"designs\n", path, (unsigned long long) total, ctx.size,
			on.threads, search_front_size(on.front));
		if (!on_only)
			print_run("off", &off, legal_off, total);
		print_run("on", &on, legal_on, total);
		if (!on_only) {
			ok = same_front(off.front, on.front);
			printf("  model evaluations %.1fx fewer, legal points "
				"evaluated %.1fx fewer, CPU time %.1fx less, "
				"fronts %s\n", on.modelled ? (double)
				off.modelled / (double) on.modelled : 0.0,
				legal_on ? (double) legal_off /
				(double) legal_on : 0.0, on.cpu_seconds > 0 ?
				off.cpu_seconds / on.cpu_seconds : 0.0,
				ok ? "identical byte for byte" : "DIFFERENT");
		}
		fflush(stdout);
	}
	search_front_free(off.front);
	search_front_free(on.front);
	dse_ctx_clear(&ctx);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { "configs/conv.cfg",
		"bench/conv-vgg.cfg", "configs/mm.cfg" };
	int first = 1, on_only = 0, i, n, failed = 0;
	dse_error err;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "--on") == 0) {
		on_only = 1;
		first = 2;
	}
	n = argc > first ? argc - first : 3;
	for (i = 0; i < n; i++)
		failed |= bench(argc > first ? argv[first + i] : defaults[i],
			on_only, MPI_COMM_WORLD) != 0;
	MPI_Finalize();
	return failed ? 1 : 0;
}
