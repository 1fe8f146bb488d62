/* The time "dse scalesim" takes to run a whole network: for each SCALE-Sim
 * config and topology given, every layer through sim_scale_run (the
 * replay of its memories included, the report files left out), the best
 * of several runs, in CPU milliseconds, beside the goal of 50 ms for a
 * whole topology in one process.
 *
 * Never fails on a time; exits with status 1 only when an input cannot be
 * read.
 *
 * Usage: bench_scale [-n RUNS] CONFIG TOPOLOGY[:gemm] [TOPOLOGY...]
 *        [-- CONFIG TOPOLOGY...]
 * A topology named with ":gemm" is read as M,N,K rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/scale_io.h"

#define GOAL_MS 50.0
#define MAX_TEXT (64u << 20)

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Reads a file whole into a new NUL-ended buffer. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(MAX_TEXT + 1);
	*len = buf ? fread(buf, 1, MAX_TEXT, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = 0;
	return buf;
}

/* Runs every layer once; returns the network's cycles, or -1. */
static long long run_net(const sim_scale_config *cfg,
	const sim_scale_topology *t)
{
	long long cycles = 0;
	int i;

	for (i = 0; i < sim_scale_topology_n_layers(t); i++) {
		sim_scale_result r;
		dse_error err;

		dse_error_clear(&err);
		if (sim_scale_run(&cfg->arch,
			&sim_scale_topology_layer(t, i)->layer, &r, &err)) {
			fprintf(stderr, "layer %d: %s\n", i, err.msg);
			return -1;
		}
		cycles += r.cycles;
	}
	return cycles;
}

/* Times one topology under one config: the best of "runs". */
static int bench_one(const sim_scale_config *cfg, const char *arg, int runs)
{
	char path[1024];
	const char *colon = strrchr(arg, ':');
	int gemm = colon && !strcmp(colon, ":gemm"), k;
	size_t len;
	char *text;
	sim_scale_topology *t;
	double best = 1e300;
	long long cycles = 0;
	dse_error err;

	snprintf(path, sizeof(path), "%.*s", gemm ? (int) (colon - arg) :
		(int) strlen(arg), arg);
	text = slurp(path, &len);
	dse_error_clear(&err);
	t = text ? sim_scale_parse_topology(text, len, path, gemm, &err) :
		NULL;
	free(text);
	if (!t) {
		fprintf(stderr, "%s: %s\n", path, text ? err.msg :
			"cannot read it");
		return -1;
	}
	for (k = 0; k < runs; k++) {
		double t0 = cpu_ms(), dt;

		cycles = run_net(cfg, t);
		dt = cpu_ms() - t0;
		if (dt < best)
			best = dt;
	}
	printf("  %-42.42s %6d %10.1f %8.1f %14lld  %s\n", path,
		sim_scale_topology_n_layers(t), best,
		1e3 * best / sim_scale_topology_n_layers(t), cycles,
		best < GOAL_MS ? "yes" : "no");
	sim_scale_topology_free(t);
	return cycles < 0 ? -1 : 0;
}

static int read_cfg(const char *path, sim_scale_config *cfg)
{
	size_t len;
	char *text = slurp(path, &len);
	dse_error err;
	int bad;

	dse_error_clear(&err);
	bad = !text || sim_scale_parse_config(text, len, path, cfg, &err);
	if (bad)
		fprintf(stderr, "%s: %s\n", path, text ? err.msg :
			"cannot read it");
	free(text);
	if (!bad)
		printf("%s: %lldx%lld %s, %s, SRAM %lld/%lld/%lld KiB\n", path,
			(long long) cfg->arch.rows, (long long) cfg->arch.cols,
			sim_scale_dataflow_name(cfg->arch.dataflow),
			cfg->arch.bw_mode == SIM_SCALE_USER ? "USER" : "CALC",
			(long long) cfg->arch.sram_kb[0],
			(long long) cfg->arch.sram_kb[1],
			(long long) cfg->arch.sram_kb[2]);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	sim_scale_config cfg;
	int runs = 5, i = 1, bad = 0, need_cfg = 1;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		runs = atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || runs < 1) {
		fprintf(stderr, "usage: bench_scale [-n RUNS] CONFIG "
			"TOPOLOGY[:gemm]... [-- CONFIG TOPOLOGY...]\n");
		return 1;
	}
	printf("goal: a whole topology in under %.0f ms of CPU time\n",
		GOAL_MS);
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			need_cfg = 1;
			continue;
		}
		if (need_cfg) {
			if (read_cfg(argv[i], &cfg))
				return 1;
			printf("  %-42s %6s %10s %8s %14s  %s\n", "topology",
				"layers", "CPU ms", "us/layer", "cycles",
				"< goal");
			need_cfg = 0;
			continue;
		}
		bad |= bench_one(&cfg, argv[i], runs);
	}
	return bad ? 1 : 0;
}
