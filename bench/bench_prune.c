/* Pruning by bounds: points evaluated and skipped, and the time saved.
 *
 * For each config the exhaustive sweep runs twice on this run's ranks and
 * threads, with pruning off and on (the config's own objectives and
 * constraints, the analytic model), and prints per run: the points the
 * model evaluated (the pruned run's reference included) and of those the
 * legal ones the sweep evaluated (the reference's not counted; points a
 * per-point resource bound skipped are counted as legal), the points settled
 * by their knobs alone (illegal prefixes), skipped by bounds (and of those
 * beaten by the sample's front), the wall and CPU seconds (CPU time summed
 * over ranks and threads: on a loaded machine wall-clock rates
 * under-report), the points swept per CPU second, and whether the two
 * fronts are the same byte for byte.  Prints figures; fails only when the
 * fronts differ, which would be a bug, not a slow machine.
 *
 * Usage: [mpirun -np P] bench_prune [config ...]
 * Default configs: configs/conv.cfg bench/conv-vgg.cfg configs/mm.cfg.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench_setup.h"

static int setup(dse_ctx *ctx, const char *path, dse_error *err)
{
	if (bench_setup(ctx, path, err))
		return -1;
	ctx->sopt.strategy = SEARCH_EXHAUSTIVE;
	return 0;
}

static int sweep(const dse_ctx *ctx, int prune, search_result *res)
{
	search_options opt = ctx->sopt;
	search_evaluator ev = dse_evaluator(ctx);
	dse_error err;

	dse_error_clear(&err);
	opt.prune = prune;
	if (search_run(ctx->space, &ev, &opt, ctx->comm, res, &err)) {
		if (ctx->rank == 0)
			fprintf(stderr, "bench_prune: %s\n", err.msg);
		return -1;
	}
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
	uint64_t total)
{
	uint64_t settled = r->evaluated - (r->modelled > r->evaluated ?
		r->evaluated : r->modelled);

	printf("  %-4s model %9llu (legal %9llu)  settled %9llu  skipped "
		"%9llu (beaten %9llu)  %6.2f s wall %6.2f s CPU  %6.2f M "
		"points/CPU s\n", what, (unsigned long long) r->modelled,
		(unsigned long long) (r->valid + r->over_constraint),
		(unsigned long long) settled, (unsigned long long) r->pruned,
		(unsigned long long) r->pruned_beaten, r->seconds,
		r->cpu_seconds, r->cpu_seconds > 0 ?
		(double) total / r->cpu_seconds / 1e6 : 0.0);
}

static int bench(const char *path, MPI_Comm comm)
{
	dse_ctx ctx;
	dse_error err;
	search_result off, on;
	uint64_t total;
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
	if (sweep(&ctx, 0, &off) || sweep(&ctx, 1, &on)) {
		dse_ctx_clear(&ctx);
		return -1;
	}
	total = search_space_size(ctx.space);
	if (ctx.rank == 0) {
		ok = same_front(off.front, on.front);
		printf("%s: %llu points, %d ranks x %d threads, front of %zu "
			"designs\n", path, (unsigned long long) total, ctx.size,
			on.threads, search_front_size(on.front));
		print_run("off", &off, total);
		print_run("on", &on, total);
		printf("  model evaluations %.1fx fewer, CPU time %.1fx less, "
			"fronts %s\n", on.modelled ? (double) off.modelled /
			(double) on.modelled : 0.0, on.cpu_seconds > 0 ?
			off.cpu_seconds / on.cpu_seconds : 0.0,
			ok ? "identical byte for byte" : "DIFFERENT");
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
	int i, n = argc > 1 ? argc - 1 : 3, failed = 0;
	dse_error err;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	for (i = 0; i < n; i++)
		failed |= bench(argc > 1 ? argv[i + 1] : defaults[i],
			MPI_COMM_WORLD) != 0;
	MPI_Finalize();
	return failed ? 1 : 0;
}
