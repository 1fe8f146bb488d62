/* sim: the analytic model of one design point of any systolic-array
 * template, as AutoSA builds the array.
 *
 * Every band loop l is tiled by array_part T1[l] (and, optionally, the
 * tiles are grouped by array_part_L2 T2[l]); loops outside the band run
 * whole inside each tile.  A latency loop's tile is strip-mined again by
 * L[l] and the point loop becomes a PE's inner loop, so that space loop s
 * spreads P_s = T1[s]/L[s] PEs; the loop vectorised by simd runs S
 * iterations at once.  Per PE and tile, the PE runs the box pe_tile of
 * iterations: L[s] on the space loops, T1 on the other band loops, the
 * extent outside the band.
 *
 * The latency terms follow AutoSA's tuner: a fixed prologue, a
 * double-buffered main loop whose step is max(load, compute), the drain of
 * the outputs and an epilogue.  All point-independent quantities are in
 * the model (sim.c), so that this is a few hundred integer operations with
 * no allocation.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"

/* Above this, a resource count is not a design anyone can build, and the
 * 64-bit sums below could wrap: such points are recorded as too large.
 */
#define RESOURCE_LIMIT 1e18

/* The tiling of one design point, with the derived counts. */
struct point {
	int64_t t1[POLY_MAX_LOOPS];	/* array_part; the extent outside
					 * the band */
	int64_t t2[POLY_MAX_LOOPS];	/* array_part_L2, likewise */
	int64_t lat[POLY_MAX_LOOPS];	/* latency; 1 for other loops */
	int64_t q[POLY_MAX_LOOPS];	/* T1/L */
	int64_t pe[POLY_MAX_LOOPS];	/* what one PE runs of a tile */
	int64_t n[POLY_MAX_LOOPS];	/* tiles per loop, E/T1 */
	int64_t p[POLY_MAX_SPACE];	/* PEs along each space loop */
	int64_t s;			/* simd */
	int64_t simd_steps;		/* pe[simd loop]/S */
	int64_t n_pe, sum_p;
};

/* a / b for a >= 0 and b > 0, and in *exact whether b divides a.  Knob
 * values and port widths are mostly powers of two, for which a shift
 * replaces the 64-bit division that would otherwise dominate sim_eval.
 */
static inline int64_t quot(int64_t a, int64_t b, int *exact)
{
	if ((b & (b - 1)) == 0) {
		*exact = (a & (b - 1)) == 0;
		return a >> __builtin_ctzll((unsigned long long) b);
	}
	*exact = a % b == 0;
	return a / b;
}

static inline int64_t ceil_div(int64_t a, int64_t b)
{
	int exact;
	int64_t q = quot(a, b, &exact);

	return q + !exact;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Products and sums of the cycle count can exceed 64 bits only for
 * absurdly large kernels; then the point is recorded as too large instead
 * of wrapping into a negative, seemingly excellent design.
 */
static int mul_ok(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

static int add_ok(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

/* sim__footprint_words, kept in this file so that the hot path inlines
 * it.
 */
static inline int64_t fp_words(const sim__footprint *fp, const int64_t *tile)
{
	int64_t words = 1;
	int d, i;

	for (d = 0; d < fp->n_dims; d++) {
		const struct sim__fp_dim *dim = &fp->dim[d];
		int64_t span = 1, step;

		if (dim->unit_loop >= 0) {
			/* The common index, one loop with coefficient 1. */
			span = tile[dim->unit_loop];
		} else if (dim->whole) {
			span = dim->extent;
		} else {
			for (i = 0; i < dim->n_terms; i++)
				if (!mul_ok(dim->coef[i],
						tile[dim->loop[i]] - 1, &step) ||
				    !add_ok(span, step, &span)) {
					span = dim->extent;
					break;
				}
		}
		if (span > dim->extent)
			span = dim->extent;
		if (!mul_ok(words, span, &words))
			return INT64_MAX;
	}
	return words;
}

int64_t sim__footprint_words(const sim__footprint *fp, const int64_t *tile)
{
	return fp_words(fp, tile);
}

/* Reads the tiling knobs of the band: array_part, then array_part_L2. */
static int read_tiles(const sim_model *m, const int32_t *knobs, int *k,
	struct point *p)
{
	int l;

	/* Whole fixed-size rows, which the compiler turns into a few vector
	 * moves; the model's extents are 0 beyond its loops.
	 */
	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		p->t1[l] = p->t2[l] = p->pe[l] = p->q[l] = m->extent[l];
		p->lat[l] = p->n[l] = 1;
	}
	for (l = 0; l < m->band; l++) {
		int64_t t = knobs[(*k)++];
		int exact;

		if (t <= 0)
			return SIM_BAD_TILE;
		p->n[l] = quot(m->extent[l], t, &exact);
		if (!exact)
			return SIM_BAD_TILE;
		p->t1[l] = p->pe[l] = p->q[l] = t;
	}
	for (l = 0; m->l2 && l < m->band; l++) {
		int64_t t = knobs[(*k)++];
		int multiple, divides;

		if (t <= 0)
			return SIM_BAD_TILE;
		quot(t, p->t1[l], &multiple);
		quot(m->extent[l], t, &divides);
		if (!multiple || !divides)
			return SIM_BAD_TILE;
		p->t2[l] = t;
	}
	return SIM_OK;
}

/* Reads and checks the knobs; returns the status of the point.  Each test
 * rejects non-positive values first so that no division by zero is
 * possible.
 */
static int read_point(const sim_model *m, const int32_t *knobs,
	struct point *p)
{
	int k = 0, i, exact, st = read_tiles(m, knobs, &k, p);

	if (st != SIM_OK)
		return st;
	for (i = 0; i < m->n_latency; i++) {
		int l = m->latency_loop[i];
		int64_t v = knobs[k++];

		if (v <= 0)
			return SIM_BAD_LATENCY;
		p->q[l] = quot(p->t1[l], v, &exact);
		if (!exact)
			return SIM_BAD_LATENCY;
		p->lat[l] = v;
	}
	p->n_pe = 1;
	p->sum_p = 0;
	for (i = 0; i < m->n_space; i++) {
		int l = m->space_loop[i];

		p->p[i] = p->q[l];
		p->pe[l] = p->lat[l];
		p->sum_p += p->p[i];
		if (!mul_ok(p->n_pe, p->p[i], &p->n_pe))
			return SIM_TOO_LARGE;
	}
	p->s = 1;
	if (m->simd_loop >= 0) {
		p->s = knobs[k];
		if (p->s <= 0)
			return SIM_BAD_SIMD;
		p->simd_steps = quot(p->pe[m->simd_loop], p->s, &exact);
		if (!exact)
			return SIM_BAD_SIMD;
	}
	return SIM_OK;
}

/* Cycles one PE spends on a tile: its iterations, S at a time, each
 * started II cycles after the previous.
 */
static int64_t compute_cycles(const sim_model *m, const struct point *p,
	int64_t *ii_out)
{
	int64_t work = 1, lat = 1, ii = 1, comp;
	int l;

	/* The latency loops give that many independent accumulators; a
	 * carried dependence comes back round only every prod(L) cycles,
	 * and if that is shorter than the adder's latency the PE loop must
	 * stall.  The product saturates: it only matters while small.
	 */
	for (l = 0; l < m->n_latency; l++)
		if (!mul_ok(lat, p->lat[m->latency_loop[l]], &lat))
			lat = INT64_MAX;
	if (m->carried && lat < m->acc_latency)
		ii = ceil_div(m->acc_latency, lat);
	for (l = 0; l < m->n_loops; l++)
		if (!mul_ok(work, l == m->simd_loop ? p->simd_steps : p->pe[l],
				&work))
			return -1;
	*ii_out = ii;
	return mul_ok(work, ii, &comp) ? comp : -1;
}

/* Cycles to bring the inputs of one L1 tile on chip: the input groups
 * share the DRAM bandwidth and load at the same time.  With a second
 * tiling level the L3 buffer is loaded once per L2 tile and its load is
 * spread over the L1 tiles it serves.
 */
static int64_t load_cycles(const sim_model *m, const struct point *p,
	int64_t per_l2)
{
	int64_t load = 0;
	int g;

	for (g = 0; g < m->n_in; g++) {
		int64_t words = fp_words(&m->in[g].fp,
			m->l2 ? p->t2 : p->t1);

		load = max64(load, m->l2 ?
			ceil_div(ceil_div(words, m->wpc_in), per_l2) :
			ceil_div(words, m->wpc_in));
	}
	return load;
}

/* Cycles of writing the outputs: each output tile drains through a chain
 * as deep as the PE rows.  Returns -1 on overflow.
 */
static int64_t drain_cycles(const sim_model *m, const struct point *p,
	int64_t n_tiles)
{
	int64_t total = 0, n_out, cost, c;
	int g, l;

	for (g = 0; g < m->n_out; g++) {
		const sim__output *o = &m->out[g];

		/* A product of some of the tile counts: at most n_tiles. */
		n_out = o->every_tile ? n_tiles : 1;
		for (l = 0; l < m->band && !o->every_tile; l++)
			if (o->loop_mask >> l & 1u)
				n_out *= p->n[l];
		cost = ceil_div(fp_words(&o->fp, p->t1), m->wpc_out) +
			p->p[0];
		if (!mul_ok(n_out, cost, &c) || !add_ok(total, c, &total))
			return -1;
	}
	return total;
}

/* Cycles of the whole kernel for a legal point; also gives the II.
 * Returns -1 when the count does not fit in 64 bits.
 */
static int64_t point_cycles(const sim_model *m, const struct point *p,
	int64_t *ii_out)
{
	int64_t n_tiles = 1, per_l2 = 1, comp, load, step, main, drain, total;
	int l;

	/* Every count below is at most the instance count, which fits in
	 * 64 unsigned bits but not always in 63.
	 */
	for (l = 0; l < m->band; l++)
		if (!mul_ok(n_tiles, p->n[l], &n_tiles))
			return -1;
	for (l = 0; m->l2 && l < m->band; l++)
		per_l2 *= p->t2[l] / p->t1[l];
	comp = compute_cycles(m, p, ii_out);
	if (comp < 0)
		return -1;
	load = load_cycles(m, p, per_l2);
	/* Double-buffered L2 buffers: the first load is exposed, then every
	 * step costs the slower of loading the next tile and computing this
	 * one, and the last compute is exposed.
	 */
	if (!mul_ok(n_tiles - 1, max64(load, comp), &step) ||
	    !add_ok(step, load, &main) || !add_ok(main, comp, &main))
		return -1;
	drain = drain_cycles(m, p, n_tiles);
	/* The first beat comes after the DRAM latency and the wavefront
	 * has to cross the array before every PE is busy; it crosses again
	 * at the end as the array empties.
	 */
	if (drain < 0 || !add_ok(main, drain, &total) ||
	    !add_ok(total, m->dram_latency + 2 * p->sum_p, &total))
		return -1;
	return total;
}

/* BRAM18K blocks of one buffer.  Widths beyond the range of an int cannot
 * be built anyway; they saturate rather than wrap.
 */
static int64_t wide_bram(int64_t width, int64_t depth)
{
	return arch_bram18k(width > INT_MAX ? INT_MAX : (int) width, depth);
}

/* Adds "count" buffers of "depth" words of "width" bits to *bram.
 * Returns 0 when they are too large: bounding their bits (at least one
 * bit in 18K per block) first keeps every 64-bit product below in range.
 */
static int add_buffers(int64_t count, int64_t width, int64_t depth,
	int64_t *bram)
{
	int64_t blocks;

	if ((double) count * (double) width * (double) depth > RESOURCE_LIMIT)
		return 0;
	blocks = wide_bram(width, depth);
	return mul_ok(count, blocks, &blocks) && add_ok(*bram, blocks, bram);
}

/* The double-buffered buffer of one group along every PE line: one line
 * per PE of the space loops the data does not move along, holding the
 * tile of the whole line.
 */
static int add_line_buffers(const sim_model *m, const struct point *p,
	const sim__buffer *b, int64_t *bram)
{
	int64_t tile[POLY_MAX_LOOPS], fp, width = m->bits, lines = 1;
	int s;

	for (s = 0; s < POLY_MAX_LOOPS; s++)
		tile[s] = p->t1[s];
	for (s = 0; s < m->n_space; s++)
		if (b->dir0_mask >> s & 1u) {
			lines *= p->p[s];	/* at most n_pe */
			tile[m->space_loop[s]] = p->lat[m->space_loop[s]];
		}
	fp = fp_words(&b->fp, tile);
	if (b->packed) {
		width *= p->s;
		fp = ceil_div(fp, p->s);
	}
	return add_buffers(2 * lines, width, fp, bram);
}

/* BRAM18K of a point: double-buffered local buffers in every PE (the
 * PE's copy and the L1 drain module's) or along every PE line, and with a
 * second tiling level one L3 buffer of an L2 tile per input group.
 */
static int point_bram(const sim_model *m, const struct point *p,
	int64_t *bram)
{
	int g, ok = 1;

	*bram = 0;
	for (g = 0; g < m->n_buf && ok; g++)
		ok = m->buf[g].per_pe ?
			add_buffers(2 * p->n_pe, m->bits,
				fp_words(&m->buf[g].fp, p->pe), bram) :
			add_line_buffers(m, p, &m->buf[g], bram);
	for (g = 0; m->l2 && g < m->n_in && ok; g++)
		ok = add_buffers(1, m->bits, fp_words(&m->in[g].fp, p->t2),
			bram);
	return ok;
}

/* DSP and BRAM18K of a legal point.  This model keeps every buffer in
 * BRAM and uses no URAM.  Returns SIM_OK or SIM_TOO_LARGE.
 */
static int point_resources(const sim_model *m, const struct point *p,
	sim_metrics *out)
{
	double dsp = (double) p->n_pe * (double) p->s * m->dsp_per_lane;
	int64_t dsp_int;

	/* Every PE has S lanes of MAC units. */
	if (dsp > RESOURCE_LIMIT || !point_bram(m, p, &out->bram18k))
		return SIM_TOO_LARGE;
	dsp_int = (int64_t) dsp;
	out->dsp = (double) dsp_int < dsp ? dsp_int + 1 : dsp_int;
	out->uram = 0;
	return SIM_OK;
}

void sim_eval(const sim_model *model, const int32_t *knobs, sim_metrics *out)
{
	struct point p;
	int64_t cycles, ii = 1;

	memset(out, 0, sizeof(*out));
	out->status = read_point(model, knobs, &p);
	if (out->status != SIM_OK)
		return;
	cycles = point_cycles(model, &p, &ii);
	if (cycles < 0) {
		out->status = SIM_TOO_LARGE;
		return;
	}
	out->cycles = (uint64_t) cycles;
	out->latency_s = (double) cycles * model->inv_hz;
	out->gops = model->gops_cycles / (double) cycles;
	out->n_pe = p.n_pe;
	out->pe_rows = (int32_t) p.p[0];
	out->pe_cols = (int32_t) (model->n_space > 1 ? p.p[1] : 1);
	out->ii = (int32_t) ii;
	if (point_resources(model, &p, out) != SIM_OK) {
		memset(out, 0, sizeof(*out));
		out->status = SIM_TOO_LARGE;
	}
}
