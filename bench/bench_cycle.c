/* Accuracy and speed of the cycle models: for designs of the kernels in
 * configs/ (each built from its config exactly as "dse simulate" builds
 * it), the full cycle simulation, the sampled cycle model and the analytic
 * model side by side.
 *
 * Prints per design: full-simulation cycles, sampled cycles and their error
 * against full, analytic cycles and their error, the time of the full and
 * of the sampled run (CPU seconds, see timed), the speed-up of sampled
 * over full, and the PE-cycles the full simulation runs per second; then
 * the goal lines.
 * Never fails on a time or an error figure; exits with status 1 only when
 * a config, a design or a simulation fails.
 *
 * Usage: bench_cycle [CONFIG_DIR [FILTER]]
 *   CONFIG_DIR  default: the source tree's configs/
 *   FILTER      only the designs whose label contains it
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dse/ctx.h"

#define GOAL_ERROR_PCT 2.0
#define GOAL_SPEEDUP 100.0
#define GOAL_PE_CYCLES 100e6
/* Every timed run runs once (which also warms the caches), then in
 * BATCHES batches of as many runs as take about MIN_RUN_S / BATCHES by
 * that first run (at least one), and the figure is the time of a run in
 * the fastest batch: stable when one run takes microseconds (the first
 * run, with cold caches, would otherwise weigh on the full simulation's
 * figure alone), and on a shared machine the time of the work itself
 * rather than of what else ran meanwhile (see now_s).  The clock is read
 * around a batch, not a run: reading a CPU-time clock is a system call
 * that would weigh on a run of microseconds.  Both models are timed
 * alike, so their ratio is favoured neither way.
 */
#define MIN_RUN_S 0.05
#define BATCHES 5

struct bench_design {
	const char *config;	/* in configs/ */
	const char *label;
	const char *sa;
};

/* Two or three designs per kernel, from the fronts of the example sweeps,
 * and the 1024^3 matrix multiply design of AutoSA's examples.
 */
static const struct bench_design designs[] = {
	{ "mm.cfg", "mm 260,256,512 lat 20,16 simd 8",
	  "{kernel[]->space_time[3];kernel[]->array_part[260,256,512];"
	  "kernel[]->latency[20,16];kernel[]->simd[8]}" },
	{ "mm.cfg", "mm 128,128,16 lat 8,16 simd 8",
	  "{kernel[]->space_time[3];kernel[]->array_part[128,128,16];"
	  "kernel[]->latency[8,16];kernel[]->simd[8]}" },
	{ "mm.cfg", "mm 16,16,16 lat 4,16 simd 8",
	  "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];"
	  "kernel[]->latency[4,16];kernel[]->simd[8]}" },
	{ "conv.cfg", "conv 8,28,14,32",
	  "{kernel[]->space_time[4];kernel[]->array_part[8,28,14,32];"
	  "kernel[]->latency[1,4,2];kernel[]->simd[8]}" },
	{ "conv.cfg", "conv 2,4,14,8",
	  "{kernel[]->space_time[4];kernel[]->array_part[2,4,14,8];"
	  "kernel[]->latency[2,2,2];kernel[]->simd[8]}" },
	{ "mttkrp.cfg", "mttkrp 8,64,16",
	  "{kernel[]->space_time[3];kernel[]->array_part[8,64,16];"
	  "kernel[]->latency[1,8];kernel[]->simd[8]}" },
	{ "mttkrp.cfg", "mttkrp 2,8,4",
	  "{kernel[]->space_time[3];kernel[]->array_part[2,8,4];"
	  "kernel[]->latency[1,8];kernel[]->simd[8]}" },
	{ "ttmc.cfg", "ttmc 32,8,8,2",
	  "{kernel[]->space_time[4];kernel[]->array_part[32,8,8,2];"
	  "kernel[]->latency[1,2,4];kernel[]->simd[4]}" },
	{ "ttmc.cfg", "ttmc 4,2,4,4",
	  "{kernel[]->space_time[4];kernel[]->array_part[4,2,4,4];"
	  "kernel[]->latency[1,2,4];kernel[]->simd[4]}" },
	{ "fir.cfg", "fir 512,64 lat 16",
	  "{kernel[]->space_time[2];kernel[]->array_part[512,64];"
	  "kernel[]->latency[16]}" },
	{ "fir.cfg", "fir 64,8 lat 16",
	  "{kernel[]->space_time[2];kernel[]->array_part[64,8];"
	  "kernel[]->latency[16]}" },
	/* The space loop f comes first (AutoSA's order): e = 1024, f = 64. */
	{ "gnn-agg.cfg", "gnn-agg 1024,64 lat 8",
	  "{kernel[]->space_time[0];kernel[]->array_part[64,1024];"
	  "kernel[]->latency[8]}" },
	{ "gnn-agg.cfg", "gnn-agg 1024,8 lat 4",
	  "{kernel[]->space_time[0];kernel[]->array_part[8,1024];"
	  "kernel[]->latency[4]}" },
};
#define N_DESIGNS ((int) (sizeof(designs) / sizeof(designs[0])))

struct figures {
	double worst_error;	/* sampled vs full, % */
	double worst_speedup;
	double slowest_rate;	/* full PE-cycles per second */
};

/* The CPU time of this thread: the work of a run, not the time other
 * processes of a shared machine held the core meanwhile (on an idle
 * machine the two agree).
 */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static double error_pct(double v, double ref)
{
	return ref > 0 ? 100.0 * (v - ref) / ref : 0.0;
}

/* Runs "kind" (in batches when "repeat", see MIN_RUN_S) and returns the
 * time of one run, or -1 on failure.
 */
static double timed(const dse_design *d, int kind, int repeat,
	sim_cycle_report *rep, dse_error *err)
{
	sim_cycle_opts co;
	double t0, first, best = INFINITY;
	long runs, i;
	int batch;

	memset(&co, 0, sizeof(co));
	co.seed = 1;
	t0 = now_s();
	if (sim_simulate(d->model, d->knobs, kind, &co, rep, err))
		return -1;
	first = now_s() - t0;
	if (!repeat)
		return first;
	runs = first > 0 ? (long) (MIN_RUN_S / BATCHES / first) : 1000;
	runs = runs < 1 ? 1 : runs;
	for (batch = 0; batch < BATCHES; batch++) {
		t0 = now_s();
		for (i = 0; i < runs; i++)
			if (sim_simulate(d->model, d->knobs, kind, &co, rep,
			    err))
				return -1;
		best = fmin(best, (now_s() - t0) / (double) runs);
	}
	return best;
}

/* Builds the context of "config" under "dir". */
static int load(dse_ctx *ctx, const char *dir, const char *config,
	dse_error *err)
{
	char path[DSE_PATH_LEN];

	dse_ctx_clear(ctx);
	memset(ctx, 0, sizeof(*ctx));
	ctx->comm = MPI_COMM_WORLD;
	ctx->size = 1;
	snprintf(path, sizeof(path), "%s/%s", dir, config);
	ctx->cfg = dse_cfg_parse_file(path, err);
	return !ctx->cfg || dse_ctx_setup(ctx, "/dev/null", err) ? -1 : 0;
}

static int bench_one(const dse_ctx *ctx, const struct bench_design *b,
	struct figures *fig)
{
	sim_cycle_report full, sam, ana;
	double tf, ts, rate, es, ea;
	dse_design d;
	dse_error err;
	int rc = 0;

	if (dse_design_build(ctx, b->sa, -1, -1, &d, &err) ||
	    (tf = timed(&d, SIM_MODEL_FULL, 1, &full, &err)) < 0 ||
	    (ts = timed(&d, SIM_MODEL_SAMPLED, 1, &sam, &err)) < 0 ||
	    timed(&d, SIM_MODEL_ANALYTIC, 0, &ana, &err) < 0) {
		fprintf(stderr, "bench_cycle: %s: %s\n", b->label, err.msg);
		dse_design_clear(&d);
		return -1;
	}
	if (full.metrics.status != SIM_OK) {
		fprintf(stderr, "bench_cycle: %s: illegal: %s\n", b->label,
			sim_status_name(full.metrics.status));
		rc = -1;
	}
	es = error_pct((double) sam.metrics.cycles,
		(double) full.metrics.cycles);
	ea = error_pct((double) ana.metrics.cycles,
		(double) full.metrics.cycles);
	rate = tf > 0 ? (double) full.pe_cycles / tf : 0;
	printf("%-32s %12llu %12llu %7.2f %12llu %8.2f %9.4f %9.6f %8.0fx "
		"%9.1f\n", b->label, (unsigned long long) full.metrics.cycles,
		(unsigned long long) sam.metrics.cycles, es,
		(unsigned long long) ana.metrics.cycles, ea, tf, ts,
		ts > 0 ? tf / ts : 0.0, rate / 1e6);
	fflush(stdout);
	fig->worst_error = fmax(fig->worst_error, fabs(es));
	fig->worst_speedup = fmin(fig->worst_speedup, ts > 0 ? tf / ts : 0);
	fig->slowest_rate = fmin(fig->slowest_rate, rate);
	dse_design_clear(&d);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : DSE_SOURCE_DIR "/configs";
	const char *filter = argc > 2 ? argv[2] : "";
	struct figures fig = { 0, INFINITY, INFINITY };
	const char *loaded = NULL;
	dse_ctx ctx;
	dse_error err;
	int i, failed = 0;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	memset(&ctx, 0, sizeof(ctx));
	printf("%-32s %12s %12s %7s %12s %8s %9s %9s %9s %9s\n", "design",
		"full", "sampled", "err%", "analytic", "err%", "full s",
		"sampled s", "speed-up", "M PE-c/s");
	for (i = 0; i < N_DESIGNS; i++) {
		if (!strstr(designs[i].label, filter))
			continue;
		if (!loaded || strcmp(loaded, designs[i].config)) {
			loaded = designs[i].config;
			if (load(&ctx, dir, loaded, &err) < 0) {
				fprintf(stderr, "bench_cycle: %s: %s\n",
					loaded, err.msg);
				failed = 1;
				loaded = NULL;
				continue;
			}
		}
		if (bench_one(&ctx, &designs[i], &fig) < 0)
			failed = 1;
	}
	printf("goal: sampled within %.0f%% of full on every design: %s "
		"(worst %.2f%%)\n", GOAL_ERROR_PCT, fig.worst_error <=
		GOAL_ERROR_PCT ? "met" : "NOT met", fig.worst_error);
	printf("goal: sampled >= %.0fx faster than full on every design: %s "
		"(smallest %.0fx)\n", GOAL_SPEEDUP, fig.worst_speedup >=
		GOAL_SPEEDUP ? "met" : "NOT met", fig.worst_speedup);
	printf("goal: full simulation >= %.0f M PE-cycles/s per core: %s "
		"(slowest %.1f M)\n", GOAL_PE_CYCLES / 1e6, fig.slowest_rate >=
		GOAL_PE_CYCLES ? "met" : "NOT met", fig.slowest_rate / 1e6);
	dse_ctx_clear(&ctx);
	MPI_Finalize();
	return failed;
}
