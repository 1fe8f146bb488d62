/* The overlay systolic family (Tensil) against Tensil's published
 * benchmark table, and the speed of a design-space sweep.
 *
 * (a) For Tensil's three published configurations -- Arty A7-35 with an
 *     8 x 8 array at 150 MHz, PYNQ-Z1 12 x 12 at 150 MHz, Ultra96-V2
 *     16 x 16 at 300 MHz, with the memory depths of the architecture files
 *     Tensil ships (tensil_arch_default) -- the predicted latency and
 *     frames a second of ResNet-20v2, YOLOv4-tiny and ResNet-50v2 beside
 *     the published figures, with their ratio, for the analytic model
 *     (Tensil's own latency model over the scheduler's program) and the
 *     full cycle model of the instruction stream.
 *
 *     YOLOv4-tiny is compared at the 192 x 192 input: the published 175 ms
 *     on the Arty cannot be a 416 x 416 run, whose 3.45 G multiply-
 *     accumulates alone take 3.45e9 / 64 MACs / 150 MHz = 360 ms on an
 *     8 x 8 array, and 192 is the input Tensil's YOLO tutorial and its
 *     driver's benchmarks compile.  The 416 figures are printed too.
 * (b) A full sweep of array sizes x local depths x accumulator depths x
 *     data types for ResNet-50v2 on one board with the analytic model on
 *     every OpenMP thread: its time and points a second, and the fastest
 *     point that fits the board.
 *
 * Never fails on a figure; exits with status 1 only when something cannot
 * be built.
 *
 * Usage: bench_tensil [--layers] [--terms] [--board NAME]
 *   --layers   also print the per-layer plan of ResNet-50v2 on Ultra96-V2
 *   --terms    also print the latency model's terms per board and model
 *   --board    the board of the sweep (default ultra96-v2)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "tensil/family.h"
#include "tensil/sched.h"

#define GOAL_RATIO 0.25
#define GOAL_SWEEP_S 60.0
#define N_BOARDS 3
#define N_MODELS 3

/* Tensil's documentation, Reference > Benchmarks ("Benchmarks are
 * generated using the Tensil compiler. Each instruction is evaluated
 * against a latency model to compute expected execution time"): latency in
 * ms and frames a second of each model on each board.
 */
static const char *const boards[N_BOARDS] = {
	"arty-a7-35", "pynq-z1", "ultra96-v2"
};
static const int published_array[N_BOARDS] = { 8, 12, 16 };
static const char *const models[N_MODELS] = {
	"resnet20v2", "yolov4-tiny-192", "resnet50v2"
};
static const double published_ms[N_MODELS][N_BOARDS] = {
	{ 21, 14, 4 },		/* ResNet-20v2 */
	{ 175, 112, 36 },	/* YoloV4-tiny */
	{ 1969, 833, 260 },	/* ResNet-50v2 */
};
static const double published_fps[N_MODELS][N_BOARDS] = {
	{ 48, 71, 250 },
	{ 5.7, 8.9, 28 },
	{ 0.5, 1.2, 3.8 },
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

static tensil_family *family(const char *model, const char *board)
{
	dse_error err = { 0 };
	tensil_model *m = tensil_model_builtin(model, &err);
	tensil_family *f = NULL;

	if (m)
		f = tensil_family_alloc(m, arch_board_find(board), &err);
	tensil_model_free(m);
	if (!f)
		fprintf(stderr, "bench_tensil: %s on %s: %s\n", model, board,
			err.msg);
	return f;
}

struct row_result {
	double analytic_ms, cycle_ms;
	int ok;
};

/* Evaluates "model" on board b with the shipped architecture. */
static int predict(const char *model, int b, struct row_result *r)
{
	tensil_family *f = family(model, boards[b]);
	int32_t k[TENSIL_N_KNOBS];
	sim_cycle_report full;
	sim_metrics an;
	dse_error err = { 0 };

	memset(r, 0, sizeof(*r));
	if (!f)
		return 0;
	tensil_family_defaults(f, k);
	tensil_family_eval(f, k, &an);
	if (an.status == SIM_OK && tensil_family_simulate(f, k,
	    SIM_MODEL_FULL, NULL, &full, &err) == dse_stat_ok) {
		r->analytic_ms = an.latency_s * 1e3;
		r->cycle_ms = full.metrics.latency_s * 1e3;
		r->ok = 1;
	}
	tensil_family_free(f);
	return 1;
}

static int within(double ratio)
{
	return fabs(ratio - 1.0) <= GOAL_RATIO;
}

static int compare(void)
{
	int m, b, hits[2] = { 0, 0 };

	printf("(a) Tensil's benchmark table (latency model) against the "
		"analytic model\n    (the same latency model over this "
		"scheduler's program) and the cycle model\n\n");
	printf("%-16s %-11s %5s | %9s %7s | %9s %7s %5s | %9s %5s\n",
		"model", "board", "array", "published", "fps", "analytic",
		"fps", "ratio", "cycle", "ratio");
	for (m = 0; m < N_MODELS; m++)
		for (b = 0; b < N_BOARDS; b++) {
			struct row_result r;
			double ra, rc;

			if (!predict(models[m], b, &r))
				return 0;
			if (!r.ok) {
				printf("%-16s %-11s does not fit\n", models[m],
					boards[b]);
				continue;
			}
			ra = r.analytic_ms / published_ms[m][b];
			rc = r.cycle_ms / published_ms[m][b];
			hits[0] += within(ra);
			hits[1] += within(rc);
			printf("%-16s %-11s %2dx%-2d | %7.0f ms %7.1f | %6.1f ms "
				"%7.1f %5.2f | %6.1f ms %5.2f\n", models[m],
				boards[b], published_array[b],
				published_array[b], published_ms[m][b],
				published_fps[m][b], r.analytic_ms,
				1e3 / r.analytic_ms, ra, r.cycle_ms, rc);
		}
	printf("\nYOLOv4-tiny at its 416 x 416 input, for reference:\n");
	for (b = 0; b < N_BOARDS; b++) {
		struct row_result r;

		if (!predict("yolov4-tiny", b, &r))
			return 0;
		printf("%-16s %-11s analytic %7.1f ms (%.1f fps), cycle "
			"%7.1f ms; published %3.0f ms\n", "yolov4-tiny",
			boards[b], r.analytic_ms, 1e3 / r.analytic_ms,
			r.cycle_ms, published_ms[1][b]);
	}
	printf("\ngoal: every ratio within %.0f%% of 1: analytic %d of 9, "
		"cycle %d of 9\n\n", 100 * GOAL_RATIO, hits[0], hits[1]);
	return 1;
}

/* The per-layer plan of ResNet-50v2 on Ultra96-V2. */
static int layers(void)
{
	tensil_family *f = family("resnet50v2", "ultra96-v2");
	const tensil_model *m;
	int32_t k[TENSIL_N_KNOBS];
	tensil_arch a;
	int i;

	if (!f)
		return 0;
	m = tensil_family_model(f);
	tensil_family_defaults(f, k);
	tensil_family_arch(f, k, &a);
	printf("ResNet-50v2 on Ultra96-V2, layer by layer (cycles of the "
		"latency model):\n");
	printf("%-20s %6s %6s %8s %11s %10s %10s %10s\n", "layer", "rows",
		"blocks", "stages", "cycles", "DRAM0 in", "DRAM1 in",
		"MatMul");
	for (i = 0; i < tensil_model_n_layers(m); i++) {
		tensil_plan p;

		tensil_plan_layer(tensil_model_layer(m, i), &a, &p);
		printf("%-20s %6d %6d %8lld %11.0f %10.0f %10.0f %10.0f\n",
			tensil_model_layer(m, i)->name, p.stage_rows, p.blocks,
			(long long) p.stages, p.total_cycles,
			p.cycles[TENSIL_OP_DRAM0_LOAD],
			p.cycles[TENSIL_OP_DRAM1_LOAD],
			p.cycles[TENSIL_OP_MATMUL]);
	}
	printf("\n");
	tensil_family_free(f);
	return 1;
}

/* One model's latency-model totals on one board, summed over its layers:
 * milliseconds by instruction class, stages, and the MatMul and DRAM read
 * vectors.
 */
struct terms {
	double ms[TENSIL_N_OPS], total_ms;
	double mm_vectors, dram0_vectors, dram1_vectors, mhz;
	int64_t stages;
};

static int model_terms(const char *model, int b, struct terms *t)
{
	tensil_family *f = family(model, boards[b]);
	const tensil_model *m;
	int32_t k[TENSIL_N_KNOBS];
	tensil_arch a;
	int i, op;

	memset(t, 0, sizeof(*t));
	if (!f)
		return 0;
	m = tensil_family_model(f);
	tensil_family_defaults(f, k);
	tensil_family_arch(f, k, &a);
	t->mhz = a.mhz;
	for (i = 0; i < tensil_model_n_layers(m); i++) {
		tensil_plan p;

		tensil_plan_layer(tensil_model_layer(m, i), &a, &p);
		for (op = 0; op < TENSIL_N_OPS; op++)
			t->ms[op] += p.cycles[op] / (a.mhz * 1e3);
		t->total_ms += p.total_cycles / (a.mhz * 1e3);
		t->stages += p.stages;
		t->mm_vectors += (double) p.vectors[TENSIL_OP_MATMUL];
		t->dram0_vectors += (double) p.vectors[TENSIL_OP_DRAM0_LOAD];
		t->dram1_vectors += (double) p.vectors[TENSIL_OP_DRAM1_LOAD];
	}
	tensil_family_free(f);
	return 1;
}

/* The latency model's terms per board, with the Arty/PYNQ ratio of each
 * term beside the published one, and the published cycles per MatMul
 * vector of the program: the figures that say which term a board's
 * outlier would have to come from.
 */
static int terms(void)
{
	int m, b, op;

	printf("Latency-model terms (ms) per board, and the Arty/PYNQ "
		"ratio\n");
	for (m = 0; m < N_MODELS; m++) {
		struct terms t[N_BOARDS];

		for (b = 0; b < N_BOARDS; b++)
			if (!model_terms(models[m], b, &t[b]))
				return 0;
		printf("%-24s %10s %10s %10s %10s\n", models[m], boards[0],
			boards[1], boards[2], "arty/pynq");
		for (op = 0; op <= TENSIL_N_OPS; op++) {
			const char *name = op < TENSIL_N_OPS ?
				tensil_op_name(op) : "total";
			double v[N_BOARDS];

			for (b = 0; b < N_BOARDS; b++)
				v[b] = op < TENSIL_N_OPS ? t[b].ms[op] :
					t[b].total_ms;
			printf("  %-22s %10.1f %10.1f %10.1f %10.2f\n", name,
				v[0], v[1], v[2], v[1] > 0 ? v[0] / v[1] : 0);
		}
		printf("  %-22s %10.0f %10.0f %10.0f %10.2f\n", "published",
			published_ms[m][0], published_ms[m][1],
			published_ms[m][2],
			published_ms[m][0] / published_ms[m][1]);
		printf("  %-22s %10lld %10lld %10lld\n", "stages",
			(long long) t[0].stages, (long long) t[1].stages,
			(long long) t[2].stages);
		printf("  %-22s %10.2f %10.2f %10.2f %10.2f\n",
			"MatMul vectors (M)", t[0].mm_vectors / 1e6,
			t[1].mm_vectors / 1e6, t[2].mm_vectors / 1e6,
			t[0].mm_vectors / t[1].mm_vectors);
		printf("  %-22s %10.2f %10.2f %10.2f\n",
			"DRAM0 reads / MatMul", t[0].dram0_vectors /
			t[0].mm_vectors, t[1].dram0_vectors / t[1].mm_vectors,
			t[2].dram0_vectors / t[2].mm_vectors);
		printf("  %-22s %10.2f %10.2f %10.2f\n",
			"DRAM1 reads / MatMul", t[0].dram1_vectors /
			t[0].mm_vectors, t[1].dram1_vectors / t[1].mm_vectors,
			t[2].dram1_vectors / t[2].mm_vectors);
		printf("  %-22s %10.2f %10.2f %10.2f\n",
			"published cyc / MatMul",
			published_ms[m][0] * t[0].mhz * 1e3 / t[0].mm_vectors,
			published_ms[m][1] * t[1].mhz * 1e3 / t[1].mm_vectors,
			published_ms[m][2] * t[2].mhz * 1e3 / t[2].mm_vectors);
	}
	printf("\n");
	return 1;
}

/* The sweep's axes: every array size, local depths in steps of 2048,
 * accumulator depths in powers of two, both data types.
 */
#define SWEEP_LOCAL_STEP 2048
#define SWEEP_ACC_MIN 256

struct axes {
	int n_array, n_local, n_acc;
	int32_t base[TENSIL_N_KNOBS];	/* clock and bandwidth */
};

/* The knobs of point i of the sweep. */
static void decode(const struct axes *x, int64_t i, int32_t *k)
{
	memcpy(k, x->base, sizeof(x->base));
	k[TENSIL_K_DTYPE] = (int32_t) (i % TENSIL_N_DTYPES);
	i /= TENSIL_N_DTYPES;
	k[TENSIL_K_ACC] = SWEEP_ACC_MIN << (i % x->n_acc);
	i /= x->n_acc;
	k[TENSIL_K_LOCAL] = (int32_t) (i % x->n_local + 1) * SWEEP_LOCAL_STEP;
	i /= x->n_local;
	k[TENSIL_K_ARRAY] = (int32_t) (TENSIL_MIN_ARRAY + i);
}

static int fits_board(const sim_metrics *o, const arch_board *b)
{
	return o->dsp <= b->dsp && o->bram18k <= b->bram18k &&
		o->uram <= b->uram && o->lut <= b->lut && o->ff <= b->ff;
}

struct sweep_result {
	int64_t legal, fit, best;
	double best_s;
};

/* Evaluates every point on every thread; the fastest point that fits
 * the board (the first in sweep order among equals).
 */
static void run_sweep(const tensil_family *f, const struct axes *x,
	int64_t total, struct sweep_result *r)
{
	const arch_board *bd = tensil_family_board(f);

	r->legal = r->fit = 0;
	r->best = -1;
	r->best_s = INFINITY;
#pragma omp parallel
	{
		struct sweep_result my = { 0, 0, -1, INFINITY };
		int64_t i;

#pragma omp for schedule(dynamic, 64)
		for (i = 0; i < total; i++) {
			int32_t k[TENSIL_N_KNOBS];
			sim_metrics out;

			decode(x, i, k);
			tensil_family_eval(f, k, &out);
			if (out.status != SIM_OK)
				continue;
			my.legal++;
			if (!fits_board(&out, bd))
				continue;
			my.fit++;
			if (out.latency_s < my.best_s) {
				my.best_s = out.latency_s;
				my.best = i;
			}
		}
#pragma omp critical
		{
			r->legal += my.legal;
			r->fit += my.fit;
			if (my.best >= 0 && (my.best_s < r->best_s ||
			    (my.best_s == r->best_s && my.best < r->best))) {
				r->best_s = my.best_s;
				r->best = my.best;
			}
		}
	}
}

static int sweep(const char *board)
{
	tensil_family *f = family("resnet50v2", board);
	struct axes x;
	struct sweep_result r;
	int64_t total;
	double t0, dt;

	if (!f)
		return 0;
	x.n_array = TENSIL_MAX_ARRAY - TENSIL_MIN_ARRAY + 1;
	x.n_local = TENSIL_MAX_ONCHIP_DEPTH / SWEEP_LOCAL_STEP;
	x.n_acc = 0;
	while ((SWEEP_ACC_MIN << x.n_acc) <= TENSIL_MAX_ONCHIP_DEPTH)
		x.n_acc++;
	tensil_family_defaults(f, x.base);
	total = (int64_t) x.n_array * x.n_local * x.n_acc * TENSIL_N_DTYPES;
	t0 = now();
	run_sweep(f, &x, total, &r);
	dt = now() - t0;
	printf("(b) sweep of ResNet-50v2 on %s: %d array sizes x %d local "
		"depths x %d accumulator depths x %d data types = %lld "
		"points on %d threads\n", board, x.n_array, x.n_local,
		x.n_acc, TENSIL_N_DTYPES, (long long) total,
		omp_get_max_threads());
	printf("    %.2f s, %.0f points/s (%.1f us a point a thread); %lld "
		"legal, %lld fit the board\n", dt, (double) total / dt,
		dt * 1e6 * omp_get_max_threads() / (double) total,
		(long long) r.legal, (long long) r.fit);
	if (r.best >= 0) {
		int32_t k[TENSIL_N_KNOBS];
		char desc[160];

		decode(&x, r.best, k);
		tensil_family_describe(f, k, desc, sizeof(desc));
		printf("    fastest that fits: %s, %.1f ms\n", desc,
			r.best_s * 1e3);
	}
	printf("goal: under %.0f s on 2 cores: %s\n", GOAL_SWEEP_S,
		dt < GOAL_SWEEP_S ? "met" : "missed");
	tensil_family_free(f);
	return 1;
}

int main(int argc, char **argv)
{
	const char *board = "ultra96-v2";
	int show_layers = 0, show_terms = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--layers")) {
			show_layers = 1;
		} else if (!strcmp(argv[i], "--terms")) {
			show_terms = 1;
		} else if (!strcmp(argv[i], "--board") && i + 1 < argc) {
			board = argv[++i];
		} else {
			fprintf(stderr, "usage: bench_tensil [--layers] "
				"[--terms] [--board NAME]\n");
			return 1;
		}
	}
	if (!arch_board_find(board)) {
		fprintf(stderr, "bench_tensil: unknown board '%s'\n", board);
		return 1;
	}
	if (!compare())
		return 1;
	if (show_terms && !terms())
		return 1;
	if (show_layers && !layers())
		return 1;
	return sweep(board) ? 0 : 1;
}
