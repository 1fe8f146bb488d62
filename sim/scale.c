/* sim_scale: output-, weight- and input-stationary GEMM and convolution on a
 * plain rows x cols systolic array, following SCALE-Sim v2 (Samajdar et
 * al., "SCALE-Sim: Systolic CNN Accelerator Simulator", and its code) so
 * that its reports and ours can be compared line by line.
 *
 * Operands.  A convolution is lowered by im2col, as SCALE-Sim lowers it:
 * the IFMAP becomes an e x win matrix (e = out_h * out_w output pixels,
 * win = r * s * c), the filters a win x k matrix, the OFMAP e x k.  The
 * output has out_h = ceil((h - r + stride_h) / stride_h) rows, SCALE-Sim's
 * size: when the stride does not divide h - r, the last row of windows
 * reaches past the IFMAP's bottom edge, those taps read nothing (no word,
 * no SRAM access in our counts) but the array still spends their cycles.
 * A GEMM M,N,K is the layer h = M, w = K, r = 1, s = K, c = 1, N filters,
 * stride 1: e = M, win = K, k = N.
 *
 * Mapping.  Each dataflow spreads two of the three dimensions over the
 * array (sr over the rows, sc over the columns) and streams the third (t)
 * through it in time:
 *
 *   os: sr = e,   sc = k, t = win  (an output stays in a PE)
 *   ws: sr = win, sc = k, t = e    (a filter weight stays in a PE)
 *   is: sr = win, sc = e, t = k    (an IFMAP element stays in a PE)
 *
 * The operands are cut into row_folds = ceil(sr / rows) times col_folds =
 * ceil(sc / cols) folds; a partial fold still occupies the whole array for
 * its whole length.  Folds run one after the other, column folds
 * outermost, and never overlap.  A fold lasts
 *
 *   os: t + (rows - 1) + (cols - 1) cycles (operands enter skewed from the
 *       left and top edges; the finished outputs then drain in the same
 *       skew);
 *   ws, is: rows + t + (rows - 1) + (cols - 1) (the stationary tile is
 *       preloaded a row a cycle, then the streamed operand enters skewed
 *       and each partial sum runs down its column).
 *
 * These are the lengths of SCALE-Sim's demand matrices (scale_mem.c walks
 * them).  The layer's cycles are their sum plus the stalls the memories
 * cause (none in CALC mode unless the OFMAP buffer overflows); SCALE-Sim
 * reports the index of the last cycle, one less ("report.total_cycles").
 * compute_cycles = folds * t; utilisation = MACs / (rows * cols * cycles);
 * mapping efficiency = MACs / (rows * cols * compute_cycles), which is
 * SCALE-Sim's average over folds of the PEs a fold uses.
 *
 * SRAM accesses, as counts: per fold the streamed operands are read t
 * times per row or column the fold uses, the stationary one once per PE
 * used, and the OFMAP written once per output the fold produces (in ws and
 * is each row fold writes partial sums, so row_folds times).  SCALE-Sim's
 * report counts every tap of a window that reaches past the IFMAP's edge
 * as a read, and adds rows + cols per fold to the os OFMAP writes; both
 * appear in "report" only.
 *
 * DRAM traffic, stalls and the start and stop cycles of each memory come
 * from scale_mem.c.
 */
#include <math.h>
#include <string.h>

#include "core/util.h"
#include "scale_internal.h"

static const char *const dataflow_names[] = { "os", "ws", "is" };
static const char *const operand_names[] = { "ifmap", "filter", "ofmap" };

/* Sizes far beyond any layer, small enough that the products below fit
 * 63 bits; the replay also needs the operands' address ranges in memory.
 */
#define MAX_DIM (INT64_C(1) << 24)
#define MAX_ARRAY (INT64_C(1) << 14)
#define MAX_WORDS (INT64_C(1) << 32)
#define MAX_CYCLES (INT64_C(1) << 50)
#define MAX_MACS (INT64_C(1) << 55)

enum { IF = SIM_SCALE_IFMAP, FI = SIM_SCALE_FILTER, OF = SIM_SCALE_OFMAP };

void sim_scale_gemm(sim_scale_layer *layer, int64_t m, int64_t n, int64_t k)
{
	layer->h = m;
	layer->w = k;
	layer->r = 1;
	layer->s = k;
	layer->c = 1;
	layer->k = n;
	layer->stride_h = 1;
	layer->stride_w = 1;
}

void sim_scale_arch_default(sim_scale_arch *arch, int64_t rows, int64_t cols,
	enum sim_scale_dataflow dataflow)
{
	memset(arch, 0, sizeof(*arch));
	arch->rows = rows;
	arch->cols = cols;
	arch->dataflow = dataflow;
	arch->sram_kb[IF] = 64;
	arch->sram_kb[FI] = 64;
	arch->sram_kb[OF] = 64;
	arch->word_bytes = 1;
	arch->bw_mode = SIM_SCALE_CALC;
	arch->bandwidth = 10;
}

const char *sim_scale_dataflow_name(enum sim_scale_dataflow dataflow)
{
	if ((unsigned) dataflow > SIM_SCALE_IS)
		return NULL;
	return dataflow_names[dataflow];
}

dse_stat sim_scale_dataflow_parse(const char *name,
	enum sim_scale_dataflow *dataflow)
{
	int i;

	for (i = 0; i <= SIM_SCALE_IS; i++)
		if (name && !strcmp(name, dataflow_names[i])) {
			*dataflow = (enum sim_scale_dataflow) i;
			return dse_stat_ok;
		}
	return dse_stat_error;
}

const char *sim_scale_operand_name(enum sim_scale_operand op)
{
	if ((unsigned) op >= SIM_SCALE_N_OPERANDS)
		return NULL;
	return operand_names[op];
}

/* Checks the array and its memories. */
static dse_stat check_arch(const sim_scale_arch *a, dse_error *err)
{
	int i;

	if (a->rows < 1 || a->cols < 1 || a->rows > MAX_ARRAY ||
	    a->cols > MAX_ARRAY)
		return dse_error_set(err, DSE_E_INPUT, "the array must have "
			"1 to %lld rows and columns (got %lldx%lld)",
			(long long) MAX_ARRAY, (long long) a->rows,
			(long long) a->cols);
	if ((unsigned) a->dataflow > SIM_SCALE_IS)
		return dse_error_set(err, DSE_E_INPUT, "unknown dataflow %d "
			"(os, ws or is)", (int) a->dataflow);
	if ((unsigned) a->bw_mode > SIM_SCALE_USER)
		return dse_error_set(err, DSE_E_INPUT, "unknown bandwidth "
			"mode %d (CALC or USER)", (int) a->bw_mode);
	if (a->word_bytes < 1 || a->word_bytes > 1024)
		return dse_error_set(err, DSE_E_INPUT, "a word must have 1 "
			"to 1024 bytes (got %lld)", (long long) a->word_bytes);
	if (a->bw_mode == SIM_SCALE_USER &&
	    (a->bandwidth < 1 || a->bandwidth > MAX_DIM))
		return dse_error_set(err, DSE_E_INPUT, "the bandwidth must be "
			"1 to %lld words a cycle (got %lld)",
			(long long) MAX_DIM, (long long) a->bandwidth);
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
		if (a->sram_kb[i] < 1 || a->sram_kb[i] > MAX_DIM ||
		    a->sram_kb[i] * 1024 / a->word_bytes < 100)
			return dse_error_set(err, DSE_E_INPUT, "the %s SRAM "
				"must hold at least 100 words and be at most "
				"%lld KiB (got %lld KiB of %lld-byte words)",
				operand_names[i], (long long) MAX_DIM,
				(long long) a->sram_kb[i],
				(long long) a->word_bytes);
	return dse_stat_ok;
}

/* Checks the layer's sizes. */
static dse_stat check_layer(const sim_scale_layer *l, dse_error *err)
{
	const int64_t v[] = { l->h, l->w, l->r, l->s, l->c, l->k,
		l->stride_h, l->stride_w };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] < 1 || v[i] > MAX_DIM)
			return dse_error_set(err, DSE_E_INPUT, "every layer "
				"size and stride must be 1 to %lld",
				(long long) MAX_DIM);
	if (l->r > l->h || l->s > l->w)
		return dse_error_set(err, DSE_E_INPUT, "the filter (%lldx%lld) "
			"is larger than the IFMAP (%lldx%lld)",
			(long long) l->r, (long long) l->s,
			(long long) l->h, (long long) l->w);
	return dse_stat_ok;
}

/* Along one axis of n inputs: windows of f at stride s, "out" of them.
 * Returns the taps that land inside (the sum over windows of their
 * overlap with the input) and sets *covered to the inputs some window
 * touches.
 */
static int64_t axis_taps(int64_t n, int64_t f, int64_t s, int64_t out,
	int64_t *covered)
{
	int64_t y, taps = 0, reach = 0;

	*covered = 0;
	for (y = 0; y < out; y++) {
		int64_t lo = y * s, hi = dse_min64(lo + f, n);

		if (hi <= lo)
			break;
		taps += hi - lo;
		*covered += hi - (lo > reach ? lo : reach);
		reach = hi;
	}
	return taps;
}

/* Whether a * b * c stays within "limit". */
static int within(int64_t a, int64_t b, int64_t c, int64_t limit)
{
	int64_t p;

	return !__builtin_mul_overflow(a, b, &p) &&
		!__builtin_mul_overflow(p, c, &p) && p <= limit;
}

/* The im2col shape, the mapping, the folds.  Returns 1 when a count
 * would pass the bounds.
 */
static int shape(const sim_scale_arch *a, const sim_scale_layer *l,
	struct sim_scale__geom *g)
{
	int64_t len;

	memset(g, 0, sizeof(*g));
	g->arch = a;
	g->layer = l;
	g->out_h = dse_cdiv(l->h - l->r + l->stride_h, l->stride_h);
	g->out_w = dse_cdiv(l->w - l->s + l->stride_w, l->stride_w);
	g->k = l->k;
	if (!within(g->out_h, g->out_w, 1, MAX_WORDS) ||
	    !within(l->r, l->s, l->c, MAX_WORDS) ||
	    !within(l->h, l->w, l->c, MAX_WORDS))
		return 1;
	g->e = g->out_h * g->out_w;
	g->win = l->r * l->s * l->c;
	if (!within(g->win, g->k, 1, MAX_WORDS) ||
	    !within(g->e, g->k, 1, MAX_WORDS) ||
	    !within(g->e, g->win, g->k, MAX_MACS))
		return 1;
	g->sr = a->dataflow == SIM_SCALE_OS ? g->e : g->win;
	g->sc = a->dataflow == SIM_SCALE_IS ? g->e : g->k;
	g->t = a->dataflow == SIM_SCALE_OS ? g->win :
		a->dataflow == SIM_SCALE_WS ? g->e : g->k;
	g->row_folds = dse_cdiv(g->sr, a->rows);
	g->col_folds = dse_cdiv(g->sc, a->cols);
	g->folds = g->row_folds * g->col_folds;
	len = g->t + a->rows + a->cols - 2;
	g->fold_len = a->dataflow == SIM_SCALE_OS ? len : len + a->rows;
	if (__builtin_mul_overflow(g->folds, g->fold_len, &g->rows_total) ||
	    g->rows_total > MAX_CYCLES)
		return 1;
	return 0;
}

/* SCALE-Sim's mapping efficiency and compute utilisation (in percent):
 * per fold, the PEs used over the array and the useful MAC-cycles over
 * the array's cycles of that fold, averaged over folds in its order and
 * with its own fold length (2 rows + 2 cols + t - 3 for ws and is).
 */
static void fold_averages(const struct sim_scale__geom *g,
	sim_scale_report *rep)
{
	const sim_scale_arch *a = g->arch;
	int64_t pes = a->rows * a->cols, fc, fr;
	int64_t cyc = a->dataflow == SIM_SCALE_OS ? g->fold_len :
		2 * a->rows + 2 * a->cols + g->t - 3;
	double map = 0, util = 0;

	for (fc = 0; fc < g->col_folds; fc++)
		for (fr = 0; fr < g->row_folds; fr++) {
			int64_t used = dse_min64(a->rows, g->sr - fr * a->rows) *
				dse_min64(a->cols, g->sc - fc * a->cols);

			map += (double) used / (double) pes;
			util += (double) (used * g->t) /
				((double) pes * (double) cyc);
		}
	rep->mapping_eff = map / (double) g->folds * 100;
	rep->compute_util = util / (double) g->folds * 100;
}

/* The closed forms: MACs, cycles, SRAM counts. */
static void counts(struct sim_scale__geom *g, sim_scale_result *res)
{
	const sim_scale_arch *a = g->arch;
	const sim_scale_layer *l = g->layer;
	int64_t pes = a->rows * a->cols, cov_r, cov_c, taps, sweeps;
	sim_scale_report *rep = &res->report;
	int df = a->dataflow;

	taps = axis_taps(l->h, l->r, l->stride_h, g->out_h, &cov_r) *
		axis_taps(l->w, l->s, l->stride_w, g->out_w, &cov_c) * l->c;
	g->distinct[IF] = cov_r * cov_c * l->c;
	g->distinct[FI] = g->win * g->k;
	res->out_h = g->out_h;
	res->out_w = g->out_w;
	res->e = g->e;
	res->win = g->win;
	res->k = g->k;
	res->sr = g->sr;
	res->sc = g->sc;
	res->t = g->t;
	res->row_folds = g->row_folds;
	res->col_folds = g->col_folds;
	res->folds = g->folds;
	res->macs = g->e * g->win * g->k;
	res->compute_cycles = g->folds * g->t;
	res->fill_drain_cycles = g->rows_total - res->compute_cycles;
	res->mapping_efficiency = (double) res->macs /
		((double) pes * (double) res->compute_cycles);
	/* Reads: an operand swept once per fold of the other direction. */
	sweeps = df == SIM_SCALE_IS ? 1 : g->col_folds;
	res->sram_reads[IF] = sweeps * taps;
	rep->sram_accesses[IF] = sweeps * g->e * g->win;
	res->sram_reads[FI] = g->win * g->k * (df == SIM_SCALE_OS ?
		g->row_folds : df == SIM_SCALE_IS ? g->col_folds : 1);
	rep->sram_accesses[FI] = res->sram_reads[FI];
	res->sram_writes[OF] = g->e * g->k *
		(df == SIM_SCALE_OS ? 1 : g->row_folds);
	rep->sram_accesses[OF] = res->sram_writes[OF] + (df == SIM_SCALE_OS ?
		g->folds * (a->rows + a->cols) : 0);
	fold_averages(g, rep);
}

/* The figures that depend on the cycles, once the replay has them. */
static void finish(const struct sim_scale__geom *g, sim_scale_result *res)
{
	const sim_scale_arch *a = g->arch;
	sim_scale_report *rep = &res->report;
	int64_t pes = a->rows * a->cols, i;
	/* SCALE-Sim divides by the index of the last cycle; a layer of one
	 * cycle would divide by zero there, and gets 0 here.
	 */
	double last = rep->total_cycles > 0 ? (double) rep->total_cycles :
		INFINITY;

	res->cycles = rep->total_cycles + 1;
	res->utilization = (double) res->macs /
		((double) pes * (double) res->cycles);
	rep->stall_cycles = res->stall_cycles;
	rep->overall_util = (double) (res->macs * 100) /
		((double) rep->total_cycles * (double) pes);
	if (rep->total_cycles <= 0)
		rep->overall_util = 0;
	res->dram_bytes = 0;
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++) {
		double span = (double) (rep->dram_stop[i] -
			rep->dram_start[i] + 1);

		rep->sram_bw[i] = (double) rep->sram_accesses[i] / last;
		rep->dram_bw[i] = span > 0 ?
			(double) rep->dram_accesses[i] / span : 0;
		res->dram_bytes += (res->dram_reads[i] + res->dram_writes[i]) *
			a->word_bytes;
	}
}

dse_stat sim_scale_run(const sim_scale_arch *arch,
	const sim_scale_layer *layer, sim_scale_result *res, dse_error *err)
{
	return sim_scale__run(arch, layer, SIM_SCALE__IF_AUTO, res, err);
}

dse_stat sim_scale__run(const sim_scale_arch *arch,
	const sim_scale_layer *layer, enum sim_scale__if_path if_path,
	sim_scale_result *res, dse_error *err)
{
	struct sim_scale__geom g;

	memset(res, 0, sizeof(*res));
	if (check_arch(arch, err) || check_layer(layer, err))
		return dse_stat_error;
	if (shape(arch, layer, &g))
		return dse_error_set(err, DSE_E_INPUT, "the layer is too "
			"large: an operand passes %lld words or the run %lld "
			"cycles", (long long) MAX_WORDS,
			(long long) MAX_CYCLES);
	g.if_path = if_path;
	counts(&g, res);
	if (sim_scale__memory(&g, res, err)) {
		memset(res, 0, sizeof(*res));
		return dse_stat_error;
	}
	finish(&g, res);
	return dse_stat_ok;
}
