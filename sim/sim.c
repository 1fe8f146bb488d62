/* sim: the analytic model of the output-stationary 2-D systolic array for a
 * three-loop kernel with one reduction loop (AutoSA's space_time[3] for
 * matrix multiply).
 *
 * The array is built as AutoSA builds it.  The two space loops s0, s1 are
 * tiled by array_part (T), each tile is strip-mined again by latency (L0,
 * L1) so that the point loops become the PE's inner loops, and the
 * reduction tile is vectorised by simd (S).  What is left of each space
 * tile after latency hiding is the PE grid: R = T[s0]/L0 rows and
 * C = T[s1]/L1 columns.  Operand A enters along the rows (one L2 buffer per
 * row), operand B along the columns, and the outputs stay in the PEs until
 * the reduction of a tile is complete, then drain out through a chain.
 *
 * The latency terms follow AutoSA's tuner: a fixed prologue, a
 * double-buffered main loop whose step is max(load, compute), the drain of
 * the outputs and an epilogue.  All point-independent quantities are
 * computed once in sim_model_alloc so that sim_eval is a handful of integer
 * operations.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum { N_KNOBS = 6 };
enum { KNOB_NAME_LEN = POLY_NAME_LEN + 16 };
enum knob_kind { KIND_ARRAY_PART, KIND_LATENCY, KIND_SIMD };

/* Knob positions in a design point. */
enum { K_PART0 = 0, K_LAT0 = 3, K_LAT1 = 4, K_SIMD = 5 };

static const char *const kind_names[] = {
	[KIND_ARRAY_PART] = "array_part",
	[KIND_LATENCY] = "latency",
	[KIND_SIMD] = "simd",
};

struct sim_model {
	poly_template tmpl;
	arch_board board;
	arch_dtype dtype;

	char knob_name[N_KNOBS][KNOB_NAME_LEN];
	int knob_loop[N_KNOBS];
	int knob_kind[N_KNOBS];

	/* Point-independent numbers of the model. */
	int s0, s1, r;		/* space loops and reduction loop */
	int64_t extent[3];
	int bits;		/* data width b */
	int64_t wpc;		/* words per cycle of one input port */
	int64_t wpc_out;	/* words per cycle of the output drain */
	int64_t dram_latency;
	int64_t acc_latency;
	double dsp_per_mac;
	double inv_hz;		/* seconds per cycle */
	double gops_cycles;	/* GOP/s x cycles: gops = gops_cycles/cycles */
};

static int64_t ceil_div(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Checks that the template is the three-loop, two-space-loop nest this
 * model describes, and finds its reduction loop.
 */
static dse_stat check_template(const poly_template *t, dse_error *err)
{
	int l, s0, s1;

	if (t->n_loops != 3 || t->n_space != 2)
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': the analytic model needs 3 loops with 2 "
			"space loops, the template has %d loops and %d space "
			"loops", t->kernel, t->n_loops, t->n_space);
	s0 = t->space_loop[0];
	s1 = t->space_loop[1];
	if (s0 < 0 || s0 > 2 || s1 < 0 || s1 > 2 || s0 == s1)
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': invalid space loops %d and %d",
			t->kernel, s0, s1);
	if (t->reduction != 3 - s0 - s1)
		return dse_error_set(err, DSE_E_INPUT,
			"kernel '%s': the analytic model needs the reduction "
			"loop to be the loop that is not a space loop (loop "
			"%d), the template has %d", t->kernel, 3 - s0 - s1,
			t->reduction);
	for (l = 0; l < 3; l++)
		if (t->extent[l] <= 0)
			return dse_error_set(err, DSE_E_INPUT,
				"kernel '%s': loop '%s' has no iterations",
				t->kernel, t->loop[l]);
	return dse_stat_ok;
}

static dse_stat check_arch(const arch_board *b, const arch_dtype *d,
	dse_error *err)
{
	if (!(b->mhz > 0) || !(b->dram_gbps > 0) || b->dram_port_bits <= 0 ||
	    b->dram_latency < 0)
		return dse_error_set(err, DSE_E_INPUT,
			"board '%s': clock, DRAM bandwidth and port width must "
			"be positive", b->name);
	if (d->bits <= 0 || !(d->dsp_per_mac >= 0) || d->acc_latency < 1)
		return dse_error_set(err, DSE_E_INPUT,
			"data type '%s': width and accumulation latency must be "
			"positive", d->name);
	return dse_stat_ok;
}

/* Words of b bits one port moves per cycle: limited by the port width and
 * by "share" of the DRAM bandwidth.  At least one, so that a slow board
 * still makes progress.
 */
static int64_t words_per_cycle(const arch_board *board, int bits,
	double share)
{
	double bytes_per_cycle = board->dram_gbps * 1e9 / (board->mhz * 1e6);
	double by_bw = bytes_per_cycle * share / (bits / 8.0);
	int64_t by_port = board->dram_port_bits / bits;
	int64_t w = by_bw < (double) by_port ? (int64_t) by_bw : by_port;

	return w < 1 ? 1 : w;
}

static void name_knobs(sim_model *m)
{
	const poly_template *t = &m->tmpl;
	int l;

	for (l = 0; l < 3; l++) {
		snprintf(m->knob_name[K_PART0 + l], KNOB_NAME_LEN,
			"array_part_%s", t->loop[l]);
		m->knob_loop[K_PART0 + l] = l;
		m->knob_kind[K_PART0 + l] = KIND_ARRAY_PART;
	}
	snprintf(m->knob_name[K_LAT0], KNOB_NAME_LEN, "latency_%s",
		t->loop[m->s0]);
	m->knob_loop[K_LAT0] = m->s0;
	snprintf(m->knob_name[K_LAT1], KNOB_NAME_LEN, "latency_%s",
		t->loop[m->s1]);
	m->knob_loop[K_LAT1] = m->s1;
	m->knob_kind[K_LAT0] = m->knob_kind[K_LAT1] = KIND_LATENCY;
	snprintf(m->knob_name[K_SIMD], KNOB_NAME_LEN, "simd_%s",
		t->loop[m->r]);
	m->knob_loop[K_SIMD] = m->r;
	m->knob_kind[K_SIMD] = KIND_SIMD;
}

sim_model *sim_model_alloc(const poly_template *tmpl, const arch_board *board,
	const arch_dtype *dtype, dse_error *err)
{
	sim_model *m;
	double hz;
	int l;

	if (!tmpl || !board || !dtype) {
		dse_error_set(err, DSE_E_RUNTIME,
			"sim_model_alloc: missing template, board or data type");
		return NULL;
	}
	if (check_template(tmpl, err) < 0 || check_arch(board, dtype, err) < 0)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	m->tmpl = *tmpl;
	m->board = *board;
	m->dtype = *dtype;
	m->s0 = tmpl->space_loop[0];
	m->s1 = tmpl->space_loop[1];
	m->r = tmpl->reduction;
	for (l = 0; l < 3; l++)
		m->extent[l] = tmpl->extent[l];
	m->bits = dtype->bits;
	/* The two input operands stream at the same time and split the
	 * bandwidth; the output drain runs alone and gets all of it.
	 */
	m->wpc = words_per_cycle(board, m->bits, 0.5);
	m->wpc_out = words_per_cycle(board, m->bits, 1.0);
	m->dram_latency = board->dram_latency;
	m->acc_latency = dtype->acc_latency;
	m->dsp_per_mac = dtype->dsp_per_mac;
	hz = board->mhz * 1e6;
	m->inv_hz = 1.0 / hz;
	m->gops_cycles = (double) tmpl->points * tmpl->ops_per_point * hz /
		1e9;
	name_knobs(m);
	return m;
}

sim_model *sim_model_free(sim_model *model)
{
	free(model);
	return NULL;
}

int sim_model_n_knobs(const sim_model *model)
{
	return model ? N_KNOBS : 0;
}

static int knob_valid(const sim_model *model, int knob)
{
	return model && knob >= 0 && knob < N_KNOBS;
}

const char *sim_model_knob_name(const sim_model *model, int knob)
{
	return knob_valid(model, knob) ? model->knob_name[knob] : NULL;
}

int sim_model_knob_loop(const sim_model *model, int knob)
{
	return knob_valid(model, knob) ? model->knob_loop[knob] : -1;
}

const char *sim_model_knob_kind(const sim_model *model, int knob)
{
	return knob_valid(model, knob) ?
		kind_names[model->knob_kind[knob]] : NULL;
}

/* The tiling of one design point, with the derived counts. */
struct point {
	int64_t t[3];		/* array_part per loop */
	int64_t n[3];		/* tiles per loop, E/T */
	int64_t l0, l1, s;	/* latency of s0, s1; simd */
	int64_t rows, cols;	/* PE grid R x C */
};

/* Reads and checks the knobs; returns the status of the point.  Each test
 * rejects non-positive values first so that no division by zero is
 * possible.
 */
static int read_point(const sim_model *m, const int32_t *knobs,
	struct point *p)
{
	int l;

	for (l = 0; l < 3; l++) {
		p->t[l] = knobs[K_PART0 + l];
		if (p->t[l] <= 0)
			return SIM_BAD_TILE;
		p->n[l] = m->extent[l] / p->t[l];
		if (p->n[l] * p->t[l] != m->extent[l])
			return SIM_BAD_TILE;
	}
	p->l0 = knobs[K_LAT0];
	p->l1 = knobs[K_LAT1];
	if (p->l0 <= 0 || p->l1 <= 0)
		return SIM_BAD_LATENCY;
	p->rows = p->t[m->s0] / p->l0;
	p->cols = p->t[m->s1] / p->l1;
	if (p->rows * p->l0 != p->t[m->s0] || p->cols * p->l1 != p->t[m->s1])
		return SIM_BAD_LATENCY;
	p->s = knobs[K_SIMD];
	if (p->s <= 0 || p->t[m->r] % p->s != 0)
		return SIM_BAD_SIMD;
	return SIM_OK;
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

/* Cycles of the whole kernel for a legal point; also gives the II.
 * Returns -1 when the count does not fit in 64 bits.
 */
static int64_t point_cycles(const sim_model *m, const struct point *p,
	int64_t *ii_out)
{
	int64_t tr = p->t[m->r];
	int64_t lat = p->l0 * p->l1;
	int64_t ii, n_tiles, n_out, comp, load, step, main, drain, pro, epi;
	int64_t total;

	/* Each PE interleaves L0*L1 independent accumulators, so the add of
	 * one output comes back round only every L0*L1 cycles; if that is
	 * shorter than the adder's latency the PE loop must stall.
	 */
	ii = lat >= m->acc_latency ? 1 : ceil_div(m->acc_latency, lat);
	/* The tile count is at most the instance count, which fits in 64
	 * unsigned bits but not always in 63.
	 */
	if (!mul_ok(p->n[m->s0], p->n[m->s1], &n_out) ||
	    !mul_ok(n_out, p->n[m->r], &n_tiles))
		return -1;
	/* A PE computes its L0 x L1 outputs over T[r]/S reduction steps,
	 * S MACs per step.
	 */
	if (!mul_ok(lat * (tr / p->s), ii, &comp))
		return -1;
	/* A tile needs T[s0] x T[r] words of A and T[s1] x T[r] words of B,
	 * read on separate ports at the same time.
	 */
	load = max64(ceil_div(p->t[m->s0] * tr, m->wpc),
		ceil_div(p->t[m->s1] * tr, m->wpc));
	/* Double-buffered L2 buffers: the first load is exposed, then every
	 * step costs the slower of loading the next tile and computing this
	 * one, and the last compute is exposed.
	 */
	if (!mul_ok(n_tiles - 1, max64(load, comp), &step) ||
	    !add_ok(step, load + comp, &main))
		return -1;
	/* Each finished output tile is written out through the drain chain,
	 * whose depth is the number of PE rows.
	 */
	drain = ceil_div(p->t[m->s0] * p->t[m->s1], m->wpc_out) + p->rows;
	/* The first beat comes after the DRAM latency and the wavefront
	 * has to cross the array before every PE is busy; it crosses again
	 * at the end as the array empties.
	 */
	pro = m->dram_latency + p->rows + p->cols;
	epi = p->rows + p->cols;
	*ii_out = ii;
	if (!mul_ok(n_out, drain, &total) || !add_ok(total, main, &total) ||
	    !add_ok(total, pro + epi, &total))
		return -1;
	return total;
}

/* BRAM18K blocks of one buffer whose width is b*S bits.  Widths beyond the
 * range of an int cannot be built anyway; they saturate rather than wrap.
 */
static int64_t wide_bram(int64_t width, int64_t depth)
{
	return arch_bram18k(width > INT_MAX ? INT_MAX : (int) width, depth);
}

/* Above this, a resource count is not a design anyone can build, and the
 * 64-bit sums below could wrap: such points are recorded as too large.
 */
#define RESOURCE_LIMIT 1e18

/* DSP and BRAM18K of a legal point.  This first model keeps every buffer in
 * BRAM and uses no URAM.  Returns SIM_OK or SIM_TOO_LARGE.
 */
static int point_resources(const sim_model *m, const struct point *p,
	sim_metrics *out)
{
	int64_t pes = p->rows * p->cols;
	int64_t tr = p->t[m->r];
	int64_t width = (int64_t) m->bits * p->s;
	double dsp = (double) pes * (double) p->s * m->dsp_per_mac;
	double a_words = (double) p->l0 * (double) tr * (double) m->bits;
	double b_words = (double) p->l1 * (double) tr * (double) m->bits;
	int64_t dsp_int, acc;

	/* The L2 buffers hold the most bits; bound their blocks (at least
	 * one bit in 18K per block) before any 64-bit product is formed.
	 */
	if (dsp > RESOURCE_LIMIT ||
	    (double) p->rows * a_words + (double) p->cols * b_words >
	    RESOURCE_LIMIT)
		return SIM_TOO_LARGE;
	dsp_int = (int64_t) dsp;
	/* Every PE has S MAC units. */
	out->dsp = (double) dsp_int < dsp ? dsp_int + 1 : dsp_int;
	/* Each PE holds its L0 x L1 accumulators, and each drain module the
	 * same number of outputs (the C drain L1 buffers).
	 */
	acc = arch_bram18k(m->bits, p->l0 * p->l1);
	out->bram18k = 2 * pes * acc;
	/* Double-buffered L2 buffers of S-wide words: one for A per PE row
	 * (L0 rows x T[r] of the tile), one for B per PE column.
	 */
	out->bram18k += 2 * p->rows * wide_bram(width, p->l0 * tr / p->s);
	out->bram18k += 2 * p->cols * wide_bram(width, p->l1 * tr / p->s);
	out->uram = 0;
	return SIM_OK;
}

void sim_eval(const sim_model *model, const int32_t *knobs, sim_metrics *out)
{
	struct point p;
	int64_t cycles, ii;

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
	out->pe_rows = (int32_t) p.rows;
	out->pe_cols = (int32_t) p.cols;
	out->ii = (int32_t) ii;
	if (point_resources(model, &p, out) != SIM_OK) {
		memset(out, 0, sizeof(*out));
		out->status = SIM_TOO_LARGE;
	}
}

void sim_sa_sizes(const sim_model *model, const int32_t *knobs, char *buf,
	int size)
{
	if (!buf || size <= 0)
		return;
	if (!model || !knobs) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, (size_t) size,
		"{kernel[]->space_time[%d];kernel[]->array_part[%d,%d,%d];"
		"kernel[]->latency[%d,%d];kernel[]->simd[%d]}",
		model->tmpl.space_time, (int) knobs[K_PART0],
		(int) knobs[K_PART0 + 1], (int) knobs[K_PART0 + 2],
		(int) knobs[K_LAT0], (int) knobs[K_LAT1], (int) knobs[K_SIMD]);
}
