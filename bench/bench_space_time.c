/* A sweep over every space-time candidate against sweeps of one.
 *
 * For a config (default configs/conv.cfg): exhaustive sweeps of each
 * candidate alone ([space] space_time = c) and of all of them at once
 * (space_time = all), each the best of --repeat runs by CPU time, with
 * the points swept (pruned ones included, as the progress line counts
 * them), the wall time and the CPU time of every rank and thread.  It prints the
 * points per second per core by CPU time and by wall time, and the rate
 * of the sweep over all candidates as a share of the config's own
 * candidate's rate and of the candidates' rate one by one (their points
 * over their summed times).  Prints figures; never fails on a time.
 *
 * Usage: bench_space_time [--repeat N] [config]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_setup.h"

struct figures {
	uint64_t points;
	double wall, cpu;
	int threads;
};

/* The config's text with [space] space_time set to "value". */
static char *with_space_time(const char *text, const char *value)
{
	size_t n = strlen(text) + strlen(value) + 64;
	char *out = malloc(n), *p;
	const char *s = strstr(text, "\n[space]");
	const char *e, *line;

	if (!out || !s)
		return free(out), NULL;
	s += strlen("\n[space]");
	snprintf(out, n, "%.*s\nspace_time = %s", (int) (s - text), text,
		value);
	/* The rest without any space_time line of its own. */
	for (line = s; *line; line = *e ? e + 1 : e) {
		e = strchr(line, '\n');
		if (!e)
			e = line + strlen(line);
		if (strncmp(line, "space_time", 10)) {
			p = out + strlen(out);
			snprintf(p, n - (size_t) (p - out), "%.*s%s",
				(int) (e - line), line, *e ? "\n" : "");
		}
	}
	return out;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc((size_t) n + 1);
	if (buf && fread(buf, 1, (size_t) n, f) != (size_t) n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The best of "repeat" exhaustive sweeps of "text" (by CPU time, which
 * other work on a shared machine disturbs less than wall time).
 */
static int sweep(const char *path, const char *text, int repeat,
	struct figures *best, int *n_cands, int *space_time)
{
	dse_ctx ctx;
	dse_error err;
	int i, rc = 0;

	memset(&ctx, 0, sizeof(ctx));
	memset(best, 0, sizeof(*best));
	dse_error_clear(&err);
	ctx.comm = MPI_COMM_WORLD;
	ctx.mpi = 1;
	MPI_Comm_rank(ctx.comm, &ctx.rank);
	MPI_Comm_size(ctx.comm, &ctx.size);
	if (bench_setup_cfg(&ctx, dse_cfg_parse_string(text, path, &err),
			&err)) {
		if (ctx.rank == 0)
			fprintf(stderr, "bench_space_time: %s\n", err.msg);
		dse_ctx_clear(&ctx);
		return -1;
	}
	ctx.sopt.strategy = SEARCH_EXHAUSTIVE;
	*n_cands = ctx.n_cands;
	*space_time = ctx.tmpl.space_time;
	for (i = 0; i < repeat && !rc; i++) {
		search_evaluator ev = dse_evaluator(&ctx);
		search_result res;

		rc = search_run(ctx.space, &ev, &ctx.sopt, ctx.comm, &res,
			&err) ? -1 : 0;
		if (rc)
			break;
		if (i == 0 || res.cpu_seconds < best->cpu) {
			best->points = res.evaluated + res.pruned;
			best->wall = res.seconds;
			best->cpu = res.cpu_seconds;
			best->threads = res.threads;
		}
		search_front_free(res.front);
		search_cloud_free(res.cloud);
	}
	dse_ctx_clear(&ctx);
	return rc;
}

static double per_core_cpu(const struct figures *f)
{
	return f->cpu > 0 ? (double) f->points / f->cpu : 0;
}

static double per_core_wall(const struct figures *f, int ranks)
{
	double cores = (double) ranks * f->threads;

	return f->wall > 0 ? (double) f->points / (f->wall * cores) : 0;
}

static void row(const char *what, const struct figures *f, int ranks)
{
	printf("  %-22s %10llu %9.4f %9.4f %12.0f %12.0f\n", what,
		(unsigned long long) f->points, f->wall, f->cpu,
		per_core_cpu(f), per_core_wall(f, ranks));
}

int main(int argc, char **argv)
{
	const char *path = "configs/conv.cfg";
	struct figures all, one, sum, mine;
	char *text, *cfg, label[32];
	int rank, size, repeat = 3, i, n = 0, c, st, dflt = -1;
	dse_error err;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atoi(argv[++i]);
		else
			path = argv[i];
	text = read_text(path);
	cfg = text ? with_space_time(text, "all") : NULL;
	if (repeat < 1 || !cfg || sweep(path, cfg, repeat, &all, &n, &st)) {
		if (rank == 0)
			fprintf(stderr, "usage: bench_space_time [--repeat N] "
				"[config with a [space] section]\n");
		MPI_Finalize();
		return 2;
	}
	free(cfg);
	/* The config's own candidate: its space_time, else the default. */
	cfg = text;
	if (sweep(path, cfg, 1, &mine, &i, &dflt))
		dflt = -1;
	if (rank == 0)
		printf("bench_space_time: %s, %d candidates, %d ranks x %d "
			"threads, exhaustive, best of %d\n  %-22s %10s %9s %9s "
			"%12s %12s\n", path, n, size, all.threads, repeat,
			"sweep", "points", "wall s", "cpu s", "pts/s/core",
			"(by wall)");
	memset(&sum, 0, sizeof(sum));
	memset(&mine, 0, sizeof(mine));
	for (c = 0; c < n; c++) {
		snprintf(label, sizeof(label), "%d", c);
		cfg = with_space_time(text, label);
		if (!cfg || sweep(path, cfg, repeat, &one, &i, &st)) {
			free(cfg);
			MPI_Finalize();
			return 1;
		}
		free(cfg);
		snprintf(label, sizeof(label), "space_time = %d", c);
		if (rank == 0)
			row(label, &one, size);
		sum.points += one.points;
		sum.wall += one.wall;
		sum.cpu += one.cpu;
		sum.threads = one.threads;
		if (c == dflt)
			mine = one;
	}
	if (rank == 0) {
		row("the candidates, summed", &sum, size);
		row("space_time = all", &all, size);
		if (mine.points)
			printf("  all / candidate %d alone: %.3f of its points/s "
				"per core by CPU time, %.3f by wall time\n",
				dflt, per_core_cpu(&all) / per_core_cpu(&mine),
				per_core_wall(&all, size) /
				per_core_wall(&mine, size));
		printf("  all / the candidates one by one: %.3f by CPU time, "
			"%.3f by wall time\n", per_core_cpu(&all) /
			per_core_cpu(&sum), per_core_wall(&all, size) /
			per_core_wall(&sum, size));
	}
	free(text);
	MPI_Finalize();
	return 0;
}
