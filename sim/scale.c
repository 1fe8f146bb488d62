/* sim_scale: output-, weight- and input-stationary GEMM and convolution on a
 * plain rows x cols systolic array, following the conventions of SCALE-Sim
 * v2 (Samajdar et al., "SCALE-Sim: Systolic CNN Accelerator Simulator",
 * and its v2 code) so that its reports and ours can be compared line by
 * line.
 *
 * Operands.  A convolution is lowered by im2col, as SCALE-Sim lowers it:
 * the IFMAP becomes an e x win matrix (e = ((h - r) / stride + 1) *
 * ((w - s) / stride + 1) output pixels, unpadded, and a window win = r * s
 * * c), the filters a win x k matrix, the OFMAP e x k.  A GEMM M,N,K is
 * the layer h = M, w = K, r = 1, s = K, c = 1, N filters, stride 1, as
 * SCALE-Sim's GEMM topologies are read: e = M, win = K, k = N.
 *
 * Mapping.  Each dataflow spreads two of the three dimensions over the
 * array (sr over the rows, sc over the columns) and streams the third (t)
 * through it in time:
 *
 *   os: sr = e,   sc = k, t = win  (an output stays in a PE)
 *   ws: sr = win, sc = k, t = e    (a filter weight stays in a PE)
 *   is: sr = win, sc = e, t = k    (an IFMAP element stays in a PE)
 *
 * When sr > rows or sc > cols the operands are cut into row_folds =
 * ceil(sr / rows) times col_folds = ceil(sc / cols) folds; the last fold of
 * each direction may be partial (it still occupies the whole array for its
 * whole duration, as in SCALE-Sim).  Folds run one after the other, column
 * folds outermost, row folds inside, and never overlap: the next fold
 * starts once the previous one has drained, as SCALE-Sim's demand matrices
 * are laid out.
 *
 * Fill and drain per fold (SCALE-Sim's demand-matrix lengths):
 *
 *   os: t + (rows - 1) + (cols - 1) cycles.  Inputs enter skewed from the
 *       left and the top edges, so the last PE starts rows + cols - 2
 *       cycles after the first; the t-long reductions then end skewed and
 *       the finished outputs drain, which SCALE-Sim folds into the same
 *       rows + cols - 2 (its OFMAP demand is t - 1 idle rows, rows rows of
 *       outputs, skewed over cols columns).
 *   ws: rows + t + (rows - 1) + (cols - 1) cycles.  The fold's weights are
 *       first preloaded, one array row per cycle (rows cycles); then the t
 *       IFMAP rows stream in skewed over the rows (rows - 1 to fill) and
 *       each partial sum runs down its column and leaves at the bottom
 *       (cols - 1 more to drain the last one).
 *   is: the same as ws with the IFMAP tile preloaded in place of the
 *       weights and the filters streaming: rows + t + (rows - 1) +
 *       (cols - 1).
 *
 * So cycles = sum over folds = folds * (t + rows + cols - 2) for os and
 * folds * (t + 2 rows + cols - 2) for ws and is; compute_cycles = folds *
 * t (the cycles in which operands stream) and fill_drain_cycles the rest.
 * Utilisation is macs / (rows * cols * cycles), so fill and drain and the
 * unused PEs of partial folds lower it; the mapping efficiency, macs /
 * (rows * cols * compute_cycles), is SCALE-Sim's average of used PEs per
 * fold and is 100% exactly when every fold fills the array.
 *
 * Stall-free.  The SRAMs are double-buffered and DRAM is assumed fast
 * enough to prefetch the next fold's operands while the current fold runs,
 * so there is no stall (stall_cycles = 0) and the cycles are the lengths
 * of SCALE-Sim's demand matrices, its cycles when its DRAM bandwidth is
 * large enough (derived from its mapping, not yet checked against a run
 * of SCALE-Sim itself).  The cold fill of
 * the first fold's SRAM and the last OFMAP drain to DRAM are not counted,
 * nor are they in SCALE-Sim's compute report.
 *
 * SRAM accesses are the useful entries of SCALE-Sim's demand matrices (the
 * padding of partial folds is not an access): per fold, the streamed
 * operands are read t times per used row or column, the stationary one
 * once per PE used, and the OFMAP is written once per output the fold
 * produces.  In ws and is a fold produces partial sums over its slice of
 * the window, so the OFMAP is written row_folds times; the accumulation
 * into the SRAM is not counted as a read, as SCALE-Sim does not count it.
 *
 * DRAM traffic depends on what each operand's SRAM holds.  An operand
 * whose tile depends on the row fold only is swept whole once per column
 * fold: it is read from DRAM once when it fits its SRAM, else once per
 * column fold.  An operand whose tile depends on the column fold only is
 * reused by the row folds inside it: read once when one column slice
 * fits, else once per row fold.  An operand whose tile changes every fold
 * is read once.  Partial sums (ws, is) stay in the OFMAP SRAM when a
 * column slice of outputs (t x cols) fits, and the OFMAP is written to
 * DRAM once; otherwise each row fold's partial sums go to DRAM and all
 * but the first are read back.  Here we deviate from SCALE-Sim, whose
 * write buffer sends every OFMAP SRAM write to DRAM (row_folds times the
 * OFMAP in ws and is, whatever the SRAM size) and never reads a partial
 * sum back.  SCALE-Sim also adds rows + cols to its os OFMAP write counter
 * per fold; that is bookkeeping of its own and is left out here, so our
 * OFMAP writes match the valid entries its traces and access report count.
 */
#include <string.h>

#include "core/util.h"
#include "scale.h"

/* How an operand's tile depends on the fold: on the row fold only, on the
 * column fold only, or on both (a new tile every fold).
 */
enum reuse { BY_ROW, BY_COL, BY_BOTH };

/* The mapping of one dataflow: which layer dimension goes where, and how
 * each operand's tile follows the folds.
 */
struct mapping {
	int extra_rows;		/* preload cycles per fold: 0 or rows */
	enum reuse reuse[SIM_SCALE_N_OPERANDS];
};

static const struct mapping mappings[] = {
	[SIM_SCALE_OS] = { 0, { BY_ROW, BY_COL, BY_BOTH } },
	[SIM_SCALE_WS] = { 1, { BY_ROW, BY_BOTH, BY_COL } },
	[SIM_SCALE_IS] = { 1, { BY_BOTH, BY_ROW, BY_COL } }
};

static const char *const dataflow_names[] = { "os", "ws", "is" };
static const char *const operand_names[] = { "ifmap", "filter", "ofmap" };

/* Overflow-checked arithmetic: each returns 0 and stores the result, or
 * returns 1 when it does not fit int64_t.
 */
static int mul(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

static int add(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_add_overflow(a, b, out);
}

void sim_scale_gemm(sim_scale_layer *layer, int64_t m, int64_t n, int64_t k)
{
	layer->h = m;
	layer->w = k;
	layer->r = 1;
	layer->s = k;
	layer->c = 1;
	layer->k = n;
	layer->stride = 1;
}

void sim_scale_arch_default(sim_scale_arch *arch, int64_t rows, int64_t cols,
	enum sim_scale_dataflow dataflow)
{
	arch->rows = rows;
	arch->cols = cols;
	arch->dataflow = dataflow;
	arch->sram_kb[SIM_SCALE_IFMAP] = 6144;
	arch->sram_kb[SIM_SCALE_FILTER] = 6144;
	arch->sram_kb[SIM_SCALE_OFMAP] = 2048;
	arch->word_bytes = 1;
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

/* Checks the sizes a user gave; the checks come first so that later
 * arithmetic only needs to watch for overflow.
 */
static dse_stat check_input(const sim_scale_arch *arch,
	const sim_scale_layer *l, dse_error *err)
{
	int i;

	if (arch->rows < 1 || arch->cols < 1)
		return dse_error_set(err, DSE_E_INPUT, "the array must have "
			"at least one row and one column (got %lldx%lld)",
			(long long) arch->rows, (long long) arch->cols);
	if ((unsigned) arch->dataflow > SIM_SCALE_IS)
		return dse_error_set(err, DSE_E_INPUT, "unknown dataflow %d "
			"(os, ws or is)", (int) arch->dataflow);
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
		if (arch->sram_kb[i] < 0)
			return dse_error_set(err, DSE_E_INPUT, "the %s SRAM "
				"size is negative", operand_names[i]);
	if (arch->word_bytes < 1)
		return dse_error_set(err, DSE_E_INPUT, "a word must have at "
			"least one byte");
	if (l->h < 1 || l->w < 1 || l->r < 1 || l->s < 1 || l->c < 1 ||
	    l->k < 1 || l->stride < 1)
		return dse_error_set(err, DSE_E_INPUT, "every layer size and "
			"the stride must be at least 1");
	if (l->r > l->h || l->s > l->w)
		return dse_error_set(err, DSE_E_INPUT, "the filter (%lldx%lld) "
			"is larger than the IFMAP (%lldx%lld); layers are not "
			"padded", (long long) l->r, (long long) l->s,
			(long long) l->h, (long long) l->w);
	return dse_stat_ok;
}

/* The im2col shape, the mapping and the fold counts, the MACs and the
 * cycles.  Returns 1 on overflow.
 */
static int shape_and_cycles(const sim_scale_arch *arch,
	const sim_scale_layer *l, sim_scale_result *res)
{
	const struct mapping *map = &mappings[arch->dataflow];
	int64_t oh = (l->h - l->r) / l->stride + 1;
	int64_t ow = (l->w - l->s) / l->stride + 1;
	int64_t per_fold, fd, pes;

	res->k = l->k;
	if (mul(oh, ow, &res->e) || mul(l->r, l->s, &res->win) ||
	    mul(res->win, l->c, &res->win))
		return 1;
	if (arch->dataflow == SIM_SCALE_OS) {
		res->sr = res->e;
		res->sc = res->k;
		res->t = res->win;
	} else if (arch->dataflow == SIM_SCALE_WS) {
		res->sr = res->win;
		res->sc = res->k;
		res->t = res->e;
	} else {
		res->sr = res->win;
		res->sc = res->e;
		res->t = res->k;
	}
	res->row_folds = dse_cdiv(res->sr, arch->rows);
	res->col_folds = dse_cdiv(res->sc, arch->cols);
	/* Fill and drain of one fold: the skew over rows and columns, plus
	 * the preload of the stationary operand in ws and is.
	 */
	fd = (arch->rows - 1) + (arch->cols - 1);
	if (map->extra_rows && add(fd, arch->rows, &fd))
		return 1;
	if (mul(res->row_folds, res->col_folds, &res->folds) ||
	    mul(res->e, res->win, &res->macs) ||
	    mul(res->macs, res->k, &res->macs) ||
	    add(res->t, fd, &per_fold) ||
	    mul(res->folds, per_fold, &res->cycles) ||
	    mul(res->folds, res->t, &res->compute_cycles) ||
	    mul(res->folds, fd, &res->fill_drain_cycles) ||
	    mul(arch->rows, arch->cols, &pes))
		return 1;
	res->stall_cycles = 0;
	res->utilization = (double) res->macs /
		((double) pes * (double) res->cycles);
	res->mapping_efficiency = (double) res->macs /
		((double) pes * (double) res->compute_cycles);
	return 0;
}

/* SRAM and DRAM traffic of the input operand "op" of "size" words whose
 * matrix has the fold dimension sr (BY_ROW) or sc (BY_COL) and "size /
 * that dimension" words per index of it.  Returns 1 on overflow.
 */
static int input_traffic(const sim_scale_arch *arch, sim_scale_result *res,
	int op, int64_t size, enum reuse reuse, int64_t cap)
{
	int64_t sram = size, slice;

	res->fits[op] = 1;
	if (reuse == BY_ROW) {
		/* Swept whole once per column fold. */
		if (mul(size, res->col_folds, &sram))
			return 1;
		res->fits[op] = size <= cap;
	} else if (reuse == BY_COL) {
		/* One column slice serves every row fold inside it. */
		if (mul(size, res->row_folds, &sram) ||
		    mul(size / res->sc, dse_min64(arch->cols, res->sc), &slice))
			return 1;
		res->fits[op] = slice <= cap;
	}
	res->sram_reads[op] = sram;
	res->dram_reads[op] = res->fits[op] ? size : sram;
	return 0;
}

/* SRAM and DRAM traffic of the OFMAP of "size" words.  Returns 1 on
 * overflow.
 */
static int output_traffic(const sim_scale_arch *arch, sim_scale_result *res,
	int64_t size, enum reuse reuse, int64_t cap)
{
	int op = SIM_SCALE_OFMAP;
	int64_t writes = size, slice;

	res->fits[op] = 1;
	res->dram_writes[op] = size;
	if (reuse == BY_COL) {
		/* Every row fold writes its partial sums of the slice. */
		if (mul(size, res->row_folds, &writes) ||
		    mul(size / res->sc, dse_min64(arch->cols, res->sc), &slice))
			return 1;
		res->fits[op] = res->row_folds == 1 || slice <= cap;
		if (!res->fits[op]) {
			res->dram_writes[op] = writes;
			res->dram_reads[op] = writes - size;
		}
	}
	res->sram_writes[op] = writes;
	return 0;
}

/* Fills the SRAM and DRAM counts.  Returns 1 on overflow. */
static int traffic(const sim_scale_arch *arch, sim_scale_result *res)
{
	const struct mapping *map = &mappings[arch->dataflow];
	int64_t size[SIM_SCALE_N_OPERANDS], cap[SIM_SCALE_N_OPERANDS];
	int64_t words = 0;
	int i;

	if (mul(res->e, res->win, &size[SIM_SCALE_IFMAP]) ||
	    mul(res->win, res->k, &size[SIM_SCALE_FILTER]) ||
	    mul(res->e, res->k, &size[SIM_SCALE_OFMAP]))
		return 1;
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++) {
		/* A size beyond 63 bits of words never fits; saturate. */
		if (mul(arch->sram_kb[i], 1024, &cap[i]))
			cap[i] = INT64_MAX;
		cap[i] /= arch->word_bytes;
	}
	for (i = SIM_SCALE_IFMAP; i <= SIM_SCALE_FILTER; i++)
		if (input_traffic(arch, res, i, size[i], map->reuse[i],
			cap[i]))
			return 1;
	if (output_traffic(arch, res, size[SIM_SCALE_OFMAP],
		map->reuse[SIM_SCALE_OFMAP], cap[SIM_SCALE_OFMAP]))
		return 1;
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
		if (add(words, res->dram_reads[i], &words) ||
		    add(words, res->dram_writes[i], &words))
			return 1;
	return mul(words, arch->word_bytes, &res->dram_bytes);
}

dse_stat sim_scale_run(const sim_scale_arch *arch,
	const sim_scale_layer *layer, sim_scale_result *res, dse_error *err)
{
	memset(res, 0, sizeof(*res));
	if (check_input(arch, layer, err))
		return dse_stat_error;
	if (shape_and_cycles(arch, layer, res) || traffic(arch, res)) {
		memset(res, 0, sizeof(*res));
		return dse_error_set(err, DSE_E_INPUT, "the layer is too "
			"large: a count does not fit 63 bits");
	}
	return dse_stat_ok;
}
