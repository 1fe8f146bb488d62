/* tensil: the scheduler's tiling of a layer into stages and the analytic
 * evaluation of the resulting program with Tensil's latency model.
 *
 * A layer's stages are identical from one output-channel block to the
 * next (a block's weights differ, not their size), so the plan works out
 * one block's stages and multiplies by the number of blocks.  Within a
 * block, stages differ only where their inputs are clipped by the edges of
 * the feature map; the sums below run over a block's stages (at most one
 * per output row) or, when stages are chunks of rows, over rows and chunks
 * separately, so a layer costs O(height + width) to plan.
 */
#include <string.h>

#include "core/util.h"
#include "internal.h"

static const char *const fit_names[TENSIL_N_FITS] = {
	"ok", "local memory too small", "accumulators too small",
	"global or window pooling does not fit", "architecture out of range"
};

static const char *const op_names[TENSIL_N_OPS] = {
	"DataMove(DRAM1->local)", "DataMove(DRAM0->local)", "LoadWeights",
	"MatMul", "DataMove(local->acc)", "SIMD", "NoOp",
	"DataMove(acc->local)", "DataMove(local->DRAM0)"
};

/* NoOps between the last SIMD write and the DataMove out of the
 * accumulators: the instruction set's notes ask for at least two, as the
 * ALU's result takes about two instructions to land.
 */
#define NOOPS_AFTER_SIMD 2

/* Constant vectors the SIMD work needs in the accumulators (Tensil loads
 * them from DRAM1 like the weights): scale and offset of a batch
 * normalisation, the slope of a LeakyReLU, the 1/(h*w) of a global
 * average.
 */
#define NORM_CONSTS 2
#define LEAKY_CONSTS 1
#define MEAN_CONSTS 1

/* SIMD instructions: a residual add moves the first operand into the
 * output (the second arrives by an accumulating DataMove); a batch
 * normalisation is move, multiply, add; ReLU one Max against a register
 * zeroed once per stage; LeakyReLU move, multiply, max.
 */
#define SIMD_ADD 1
#define SIMD_NORM 3
#define SIMD_RELU 1
#define SIMD_RELU_SETUP 1
#define SIMD_LEAKY 3

const char *tensil_fit_name(int fit)
{
	return fit >= 0 && fit < TENSIL_N_FITS ? fit_names[fit] : NULL;
}

const char *tensil_op_name(int op)
{
	return op >= 0 && op < TENSIL_N_OPS ? op_names[op] : NULL;
}

static int is_pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* The input rows (or columns) of size n that the windows of outputs
 * [o0, o1) read (f at stride s, p padding before): their number, and the
 * bounding range [*lo, *hi).
 */
static int64_t span(int64_t o0, int64_t o1, int s, int f, int p, int n,
	int *lo, int *hi)
{
	int64_t a = o0 * s - p, b = (o1 - 1) * s - p + f - 1, total, o;

	*lo = *hi = 0;
	if (o1 <= o0)
		return 0;
	a = dse_max64(a, 0);
	b = dse_min64(b, n - 1);
	if (b < a)
		return 0;
	*lo = (int) a;
	*hi = (int) b + 1;
	if (f >= s)
		return b - a + 1;
	/* Disjoint windows: f each, less what falls off either edge. */
	total = (o1 - o0) * f;
	for (o = o0; o < o1 && o * s - p < 0; o++)
		total -= dse_min64(f, p - o * s);
	for (o = o1 - 1; o >= o0 && o * s - p + f > n; o--)
		total -= dse_min64(f, o * s - p + f - n);
	return dse_max64(total, 0);
}

/* SAME padding before the first window of a pooling of "in" into "out". */
static int same_pad(int in, int out, int k, int s)
{
	int64_t total = (int64_t) (out - 1) * s + k - in;

	return total > 0 ? (int) (total / 2) : 0;
}

static void simd_counts(const tensil_layer *l, struct tensil__geom *g)
{
	int post = (l->norm ? SIMD_NORM : 0) +
		(l->act == TENSIL_ACT_RELU ? SIMD_RELU : 0) +
		(l->act == TENSIL_ACT_LEAKY ? SIMD_LEAKY : 0);

	if (g->pool_layer) {
		g->simd_per_output = g->taps;
		return;
	}
	/* A max pool takes its window's outputs one SIMD instruction each
	 * and normalises and activates the pooled value; a global average
	 * adds every output (normalised and activated first) and scales
	 * the sum once.
	 */
	g->simd_per_pixel = (l->residual ? SIMD_ADD : 0) +
		(l->pool_k > 0 ? 0 : post) + (l->global_pool ? 1 : 0);
	g->simd_per_output = l->pool_k > 0 ? l->pool_k * l->pool_k + post :
		(l->global_pool ? 1 : 0);
	g->simd_per_stage = l->act == TENSIL_ACT_RELU ? SIMD_RELU_SETUP : 0;
	g->acc_consts = (l->norm ? NORM_CONSTS : 0) +
		(l->act == TENSIL_ACT_LEAKY ? LEAKY_CONSTS : 0) +
		(l->global_pool ? MEAN_CONSTS : 0);
}

void tensil__geom(const tensil_layer *l, const tensil_arch *a,
	struct tensil__geom *g)
{
	int fh, fw;
	int64_t step;

	memset(g, 0, sizeof(*g));
	g->a = a->array_size;
	g->pool_layer = l->kind == TENSIL_POOL;
	g->kv = (int) dse_cdiv(l->channels, g->a);
	g->taps = l->fh * l->fw;
	g->fv = g->pool_layer ? g->kv : (int) dse_cdiv(l->filters, g->a);
	simd_counts(l, g);
	/* A stage's weights: array_size rows of every tap and input block,
	 * and the bias vector (Tensil loads it with the first tile's
	 * weights; the other tiles take a zero row).
	 */
	g->weights = g->pool_layer ? 0 :
		(int64_t) g->taps * g->kv * g->a + 1 + g->acc_consts;
	g->resid = l->residual;
	g->saves = l->saves;
	g->whole = l->global_pool;
	g->pooled = l->pool_k > 0;
	tensil_layer_final_dims(l, &fh, &fw);
	g->units = g->whole ? 1 : fh;
	g->unit_w = g->whole ? 1 : fw;
	if (g->pooled) {
		g->ppad_top = same_pad(l->out_h, fh, l->pool_k,
			l->pool_stride);
		g->ppad_left = same_pad(l->out_w, fw, l->pool_k,
			l->pool_stride);
	}
	g->max_size = tensil_arch_max_size(a);
	/* Along a row, consecutive outputs read inputs stride * kv vectors
	 * apart; the MatMuls roll into one instruction when that step is a
	 * stride the instruction can encode (a power of two below
	 * 2^stride0_depth).
	 */
	step = (int64_t) l->stride * g->kv;
	g->local_stride_ok = is_pow2(step) &&
		step <= ((int64_t) 1 << (a->stride0_depth - 1));
	g->dram_stride_ok = is_pow2(g->kv) &&
		g->kv <= ((int64_t) 1 << (a->stride1_depth - 1));
}

/* The multiply's output rows [*c0, *c1) that final rows [u0, u1) need. */
static void map_rows(const tensil_layer *l, const struct tensil__geom *g,
	int u0, int u1, int *c0, int *c1, int rows)
{
	int ps = l->pool_stride, pk = l->pool_k;
	int pad = rows ? g->ppad_top : g->ppad_left;
	int n = rows ? l->out_h : l->out_w;

	if (g->whole) {
		*c0 = 0;
		*c1 = n;
	} else if (g->pooled) {
		*c0 = (int) dse_max64((int64_t) u0 * ps - pad, 0);
		*c1 = (int) dse_min64((int64_t) (u1 - 1) * ps - pad + pk, n);
	} else {
		*c0 = u0;
		*c1 = u1;
	}
}

/* What a stage of cr x cc multiply outputs, ir x ic inputs and q final
 * outputs holds in local memory and the accumulators.
 */
static void stage_use(const struct tensil__geom *g, int64_t cr, int64_t cc,
	int64_t ir, int64_t ic, int64_t q, int64_t *local, int64_t *acc)
{
	int64_t pix = cr * cc;
	int64_t in = ir * ic * (g->pool_layer ? 1 : g->kv);

	if (g->pool_layer) {
		*local = in + g->saves * q;
		*acc = in + q;
		return;
	}
	*local = g->weights + in + g->resid * pix + g->saves * q;
	*acc = pix + (g->pooled || g->whole ? q : 0) + g->acc_consts;
}

/* The largest stage of r final rows, full width (an upper bound: the
 * windows are taken unclipped by the top and bottom edges).
 */
static void rows_need(const tensil_layer *l, const struct tensil__geom *g,
	int64_t r, int64_t *local, int64_t *acc)
{
	int64_t cr, ir, ic;
	int lo, hi;

	if (g->whole)
		cr = l->out_h;
	else if (g->pooled)
		cr = dse_min64((r - 1) * l->pool_stride + l->pool_k, l->out_h);
	else
		cr = r;
	ir = l->fh >= l->stride ? (cr - 1) * l->stride + l->fh :
		cr * l->fh;
	ir = dse_min64(ir, l->in_h);
	ic = span(0, l->out_w, l->stride, l->fw, l->pad_left, l->in_w, &lo,
		&hi);
	stage_use(g, cr, l->out_w, ir, ic, r * g->unit_w, local, acc);
}

/* The largest stage of c outputs of one row. */
static void chunk_need(const tensil_layer *l, const struct tensil__geom *g,
	int64_t c, int64_t *local, int64_t *acc)
{
	int64_t ir = dse_min64(l->fh, l->in_h);
	int64_t ic = l->fw >= l->stride ? (c - 1) * l->stride + l->fw :
		c * l->fw;

	stage_use(g, 1, c, ir, dse_min64(ic, l->in_w), c, local, acc);
}

static int fits(const tensil_arch *a, int64_t local, int64_t acc)
{
	return local <= a->local_depth && acc <= a->accumulator_depth;
}

/* The largest n in [1, hi] whose need fits (need grows with n); 0 when
 * even 1 does not.
 */
static int64_t largest(const tensil_layer *l, const struct tensil__geom *g,
	const tensil_arch *a, int64_t hi, int chunks)
{
	int64_t lo = 0, local, acc;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo + 1) / 2;

		if (chunks)
			chunk_need(l, g, mid, &local, &acc);
		else
			rows_need(l, g, mid, &local, &acc);
		if (fits(a, local, acc))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Chooses the stage shape, or says why there is none. */
static int choose_shape(const tensil_layer *l, const struct tensil__geom *g,
	const tensil_arch *a, tensil_plan *p)
{
	int64_t r, c, local, acc;

	r = largest(l, g, a, g->units, 0);
	if (r > 0) {
		p->stage_rows = (int) r;
		p->stage_cols = g->unit_w;
		p->stages_per_block = dse_cdiv(g->units, r);
		rows_need(l, g, r, &p->local_used, &p->acc_used);
		return TENSIL_FIT_OK;
	}
	if (g->whole || g->pooled) {
		rows_need(l, g, 1, &p->local_used, &p->acc_used);
		return TENSIL_FIT_WHOLE;
	}
	c = largest(l, g, a, l->out_w, 1);
	if (c == 0) {
		chunk_need(l, g, 1, &local, &acc);
		p->local_used = local;
		p->acc_used = acc;
		return local > a->local_depth ? TENSIL_FIT_LOCAL :
			TENSIL_FIT_ACC;
	}
	p->stage_rows = 0;
	p->stage_cols = (int) c;
	p->stages_per_block = (int64_t) l->out_h * dse_cdiv(l->out_w, c);
	chunk_need(l, g, c, &p->local_used, &p->acc_used);
	return TENSIL_FIT_OK;
}

/* The sums over one block's stages that the costs need. */
struct block_sums {
	int64_t stages;
	int64_t pixels;		/* multiply outputs */
	int64_t outputs;	/* final outputs */
	int64_t in_vectors, in_runs, mm_runs, out_runs;
};

/* DataMove instructions loading a stage's inputs: one for a run of whole
 * input rows, one a row when the columns read are contiguous, else one a
 * pixel (1 x 1 filters at stride 2, ...).  A pooling layer reads one
 * channel vector of each pixel: a strided run when the stride can be
 * encoded, else one a pixel.
 */
static int64_t input_runs(const tensil_layer *l, const struct tensil__geom *g,
	int64_t ir, int64_t ic, int full)
{
	int64_t per_pixel = g->pool_layer ? 1 : g->kv;

	if (g->pool_layer && g->kv > 1 && !g->dram_stride_ok)
		return ir * ic;
	if (full && l->fh >= l->stride && ic == l->in_w)
		return dse_cdiv(ir * ic * per_pixel, g->max_size);
	if (l->fw >= l->stride)
		return ir * dse_cdiv(ic * per_pixel, g->max_size);
	return ir * ic;
}

/* MatMul instructions of one tile over cr rows of cc outputs: one for the
 * whole stage when a 1 x 1 filter at stride 1 reads consecutive inputs,
 * else one a row when the input step is an encodable stride, else one an
 * output.
 */
static int64_t matmul_runs(const tensil_layer *l,
	const struct tensil__geom *g, int64_t cr, int64_t cc)
{
	if (g->pool_layer)
		return 0;
	if (l->fh == 1 && l->fw == 1 && l->stride == 1 &&
	    cc == l->out_w)
		return dse_cdiv(cr * cc, g->max_size);
	if (g->local_stride_ok)
		return cr * dse_cdiv(cc, g->max_size);
	return cr * cc;
}

static void row_sums(const tensil_layer *l, const struct tensil__geom *g,
	const tensil_plan *p, struct block_sums *b)
{
	int64_t j, ic;
	int lo, hi, cc0, cc1;

	map_rows(l, g, 0, g->unit_w, &cc0, &cc1, 0);
	ic = span(cc0, cc1, l->stride, l->fw, l->pad_left, l->in_w, &lo,
		&hi);
	for (j = 0; j < p->stages_per_block; j++) {
		int u0 = (int) (j * p->stage_rows);
		int u1 = (int) dse_min64(u0 + p->stage_rows, g->units);
		int c0, c1;
		int64_t ir, q = (int64_t) (u1 - u0) * g->unit_w;

		map_rows(l, g, u0, u1, &c0, &c1, 1);
		ir = span(c0, c1, l->stride, l->fh, l->pad_top, l->in_h, &lo,
			&hi);
		b->pixels += (int64_t) (c1 - c0) * (cc1 - cc0);
		b->outputs += q;
		b->in_vectors += ir * ic * (g->pool_layer ? 1 : g->kv);
		b->in_runs += input_runs(l, g, ir, ic, 1);
		b->mm_runs += matmul_runs(l, g, c1 - c0, cc1 - cc0);
		b->out_runs += dse_cdiv(q, g->max_size);
	}
	b->stages = p->stages_per_block;
}

/* Stages that are chunks of one row: the input rows of a row times the
 * input columns of a chunk, summed separately.
 */
static void chunk_sums(const tensil_layer *l, const struct tensil__geom *g,
	const tensil_plan *p, struct block_sums *b)
{
	int64_t nch = dse_cdiv(l->out_w, p->stage_cols), o, k, sir = 0, sic = 0;
	int lo, hi;

	for (o = 0; o < l->out_h; o++) {
		int64_t ir = span(o, o + 1, l->stride, l->fh, l->pad_top,
			l->in_h, &lo, &hi);

		sir += ir;
		for (k = 0; k < nch; k++) {
			int64_t c0 = k * p->stage_cols;
			int64_t c1 = dse_min64(c0 + p->stage_cols, l->out_w);
			int64_t ic = span(c0, c1, l->stride, l->fw,
				l->pad_left, l->in_w, &lo, &hi);

			if (o == 0)
				sic += ic;
			b->in_runs += input_runs(l, g, ir, ic, 0);
			b->mm_runs += matmul_runs(l, g, 1, c1 - c0);
			b->out_runs += dse_cdiv(c1 - c0, g->max_size);
		}
	}
	b->stages = p->stages_per_block;
	b->pixels = b->outputs = (int64_t) l->out_h * l->out_w;
	b->in_vectors = sir * sic * (g->pool_layer ? 1 : g->kv);
}

/* Instruction counts and vectors of one block, by class. */
static void block_counts(const struct tensil__geom *g, const tensil_plan *p,
	const struct block_sums *b, int64_t *n, int64_t *v)
{
	int64_t st = b->stages, simd;

	simd = g->simd_per_pixel * b->pixels + g->simd_per_output *
		b->outputs + g->simd_per_stage * st;
	if (!g->pool_layer) {
		n[TENSIL_OP_DRAM1_LOAD] = st * dse_cdiv(g->weights, g->max_size);
		v[TENSIL_OP_DRAM1_LOAD] = st * g->weights;
		n[TENSIL_OP_LOAD_WEIGHTS] = st * p->tiles;
		v[TENSIL_OP_LOAD_WEIGHTS] = st * p->tiles * (g->a + 1);
		n[TENSIL_OP_MATMUL] = b->mm_runs * p->tiles;
		v[TENSIL_OP_MATMUL] = b->pixels * p->tiles;
	}
	n[TENSIL_OP_DRAM0_LOAD] = b->in_runs + (g->resid ? b->out_runs : 0);
	v[TENSIL_OP_DRAM0_LOAD] = b->in_vectors + g->resid * b->pixels;
	/* Into the accumulators: the pooling layer's inputs, the residual
	 * operand, the SIMD constants.
	 */
	n[TENSIL_OP_LOCAL_TO_ACC] = (g->pool_layer ? b->in_runs : 0) +
		(g->resid ? b->out_runs : 0) + (g->acc_consts ? st : 0);
	v[TENSIL_OP_LOCAL_TO_ACC] = (g->pool_layer ? b->in_vectors : 0) +
		g->resid * b->pixels + g->acc_consts * st;
	n[TENSIL_OP_SIMD] = v[TENSIL_OP_SIMD] = simd;
	n[TENSIL_OP_NOOP] = v[TENSIL_OP_NOOP] = simd ? NOOPS_AFTER_SIMD * st :
		0;
	n[TENSIL_OP_ACC_TO_LOCAL] = g->saves * b->out_runs;
	v[TENSIL_OP_ACC_TO_LOCAL] = g->saves * b->outputs;
	n[TENSIL_OP_DRAM0_STORE] = g->saves * b->out_runs;
	v[TENSIL_OP_DRAM0_STORE] = g->saves * b->outputs;
}

/* Tensil's latency model over one block's instructions: each stage's
 * DRAM1 reads and DRAM0 reads start a run of reads (one setup each), a
 * tile's first MatMul follows its LoadWeights.
 */
static void block_cycles(const tensil_arch *a, const struct tensil__geom *g,
	const tensil_plan *p, const struct block_sums *b, const int64_t *v,
	double *c)
{
	const tensil_costs *k = tensil_latency_costs();
	double rd = tensil_arch_read_cycles(a);
	double wr = tensil_arch_write_cycles(a);
	int64_t st = b->stages;
	int op;

	for (op = 0; op < TENSIL_N_OPS; op++)
		c[op] = (double) v[op] * k->per_vector;
	if (!g->pool_layer) {
		c[TENSIL_OP_DRAM1_LOAD] = (double) st * k->dram_read_setup +
			(double) v[TENSIL_OP_DRAM1_LOAD] * rd;
		c[TENSIL_OP_MATMUL] += (double) st * p->tiles * g->a *
			k->matmul_after_load;
	}
	c[TENSIL_OP_DRAM0_LOAD] = (double) st * k->dram_read_setup +
		(double) v[TENSIL_OP_DRAM0_LOAD] * rd;
	c[TENSIL_OP_SIMD] = (double) v[TENSIL_OP_SIMD] * k->simd;
	c[TENSIL_OP_NOOP] = (double) v[TENSIL_OP_NOOP] * k->noop;
	c[TENSIL_OP_DRAM0_STORE] = (double) st * g->saves *
		k->dram_write_setup + (double) v[TENSIL_OP_DRAM0_STORE] * wr;
}

void tensil_plan_layer(const tensil_layer *l, const tensil_arch *a,
	tensil_plan *p)
{
	struct tensil__geom g;
	struct block_sums b;
	int64_t n[TENSIL_N_OPS] = { 0 }, v[TENSIL_N_OPS] = { 0 };
	double c[TENSIL_N_OPS];
	int op, vb;

	memset(p, 0, sizeof(*p));
	if (tensil_arch_check(a) || tensil_layer_check(l)) {
		p->status = TENSIL_FIT_ARCH;
		return;
	}
	tensil__geom(l, a, &g);
	p->blocks = g.fv;
	p->kv = g.kv;
	p->taps = g.taps;
	p->tiles = g.pool_layer ? 0 : g.taps * g.kv;
	p->weight_vectors = g.weights;
	p->status = choose_shape(l, &g, a, p);
	if (p->status != TENSIL_FIT_OK)
		return;
	memset(&b, 0, sizeof(b));
	if (p->stage_rows > 0)
		row_sums(l, &g, p, &b);
	else
		chunk_sums(l, &g, p, &b);
	block_counts(&g, p, &b, n, v);
	block_cycles(a, &g, p, &b, v, c);
	p->stages = p->stages_per_block * p->blocks;
	for (op = 0; op < TENSIL_N_OPS; op++) {
		p->count[op] = n[op] * p->blocks;
		p->vectors[op] = v[op] * p->blocks;
		p->cycles[op] = c[op] * p->blocks;
		p->total_cycles += p->cycles[op];
	}
	vb = tensil_arch_vector_bytes(a);
	p->dram_read_bytes = (p->vectors[TENSIL_OP_DRAM1_LOAD] +
		p->vectors[TENSIL_OP_DRAM0_LOAD]) * vb;
	p->dram_write_bytes = p->vectors[TENSIL_OP_DRAM0_STORE] * vb;
	p->mac_vectors = p->vectors[TENSIL_OP_MATMUL];
}

void tensil_plan_stage(const tensil_layer *l, const tensil_arch *a,
	const tensil_plan *p, int64_t s, tensil_stage *st)
{
	struct tensil__geom g;
	int64_t k, ir, ic;

	memset(st, 0, sizeof(*st));
	if (p->status != TENSIL_FIT_OK || s < 0 || s >= p->stages)
		return;
	tensil__geom(l, a, &g);
	st->block = (int) (s / p->stages_per_block);
	k = s % p->stages_per_block;
	if (p->stage_rows > 0) {
		st->row0 = (int) (k * p->stage_rows);
		st->row1 = (int) dse_min64(st->row0 + p->stage_rows, g.units);
		st->col0 = 0;
		st->col1 = g.unit_w;
	} else {
		int64_t nch = dse_cdiv(l->out_w, p->stage_cols);

		st->row0 = (int) (k / nch);
		st->row1 = st->row0 + 1;
		st->col0 = (int) (k % nch * p->stage_cols);
		st->col1 = (int) dse_min64(st->col0 + p->stage_cols, l->out_w);
	}
	map_rows(l, &g, st->row0, st->row1, &st->crow0, &st->crow1, 1);
	map_rows(l, &g, st->col0, st->col1, &st->ccol0, &st->ccol1, 0);
	ir = span(st->crow0, st->crow1, l->stride, l->fh, l->pad_top, l->in_h,
		&st->irow0, &st->irow1);
	ic = span(st->ccol0, st->ccol1, l->stride, l->fw, l->pad_left,
		l->in_w, &st->icol0, &st->icol1);
	st->pixels = (int64_t) (st->crow1 - st->crow0) *
		(st->ccol1 - st->ccol0);
	st->outputs = (int64_t) (st->row1 - st->row0) * (st->col1 - st->col0);
	st->in_vectors = ir * ic * (g.pool_layer ? 1 : g.kv);
	st->in_runs = input_runs(l, &g, ir, ic, p->stage_rows > 0);
	st->mm_runs = matmul_runs(l, &g, st->crow1 - st->crow0,
		st->ccol1 - st->ccol0);
	stage_use(&g, st->crow1 - st->crow0, st->ccol1 - st->ccol0, ir, ic,
		st->outputs, &st->local_used, &st->acc_used);
	st->dram_read_vectors = g.weights + st->in_vectors +
		g.resid * st->pixels;
	st->dram_write_vectors = g.saves * st->outputs;
}

/* Vector accesses of local memory and the accumulators, for energy: every
 * DataMove touches local memory once a vector, LoadWeights and MatMul read
 * it; a MatMul, a SIMD instruction and an accumulating DataMove read and
 * write an accumulator.
 */
static void accesses(const tensil_plan *p, int64_t *local, int64_t *acc)
{
	const int64_t *v = p->vectors;

	*local = v[TENSIL_OP_DRAM1_LOAD] + v[TENSIL_OP_DRAM0_LOAD] +
		v[TENSIL_OP_LOAD_WEIGHTS] + v[TENSIL_OP_MATMUL] +
		v[TENSIL_OP_LOCAL_TO_ACC] + v[TENSIL_OP_ACC_TO_LOCAL] +
		v[TENSIL_OP_DRAM0_STORE];
	*acc = 2 * (v[TENSIL_OP_MATMUL] + v[TENSIL_OP_SIMD] +
		v[TENSIL_OP_LOCAL_TO_ACC]) + v[TENSIL_OP_ACC_TO_LOCAL];
}

void tensil_plan_model(const tensil_model *m, const tensil_arch *a,
	tensil_totals *t)
{
	int i, op;

	memset(t, 0, sizeof(*t));
	t->bad_layer = -1;
	for (i = 0; i < tensil_model_n_layers(m); i++) {
		tensil_plan p;
		int64_t la, aa;

		tensil_plan_layer(tensil_model_layer(m, i), a, &p);
		if (p.status != TENSIL_FIT_OK) {
			t->status = p.status;
			t->bad_layer = i;
			return;
		}
		t->cycles += p.total_cycles;
		t->stages += p.stages;
		for (op = 0; op < TENSIL_N_OPS; op++) {
			t->instructions += p.count[op];
			t->op_cycles[op] += p.cycles[op];
		}
		t->dram_read_bytes += p.dram_read_bytes;
		t->dram_write_bytes += p.dram_write_bytes;
		t->mac_vectors += p.mac_vectors;
		accesses(&p, &la, &aa);
		t->local_accesses += la;
		t->acc_accesses += aa;
	}
}
