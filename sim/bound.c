/* sim: bounds over boxes of knob values, for pruning whole sub-ranges of
 * a sweep (sim_bound_box), and the status a prefix of knobs decides
 * (sim_prefix_status).
 *
 * A box gives each knob a range [lo, hi] of values; a sweep's sub-range
 * (its first knobs fixed, the others free over their lists) lies in the
 * box of its fixed values and the free lists' extremes.  Every bound below
 * holds for every point of the box that sim_eval finds legal.  They are
 * built from the model's few facts that do not depend on how the I/O is
 * timed, so that a change of the time path keeps them sound unless it
 * makes a design faster than its own compute (tests/sim/test_bound.c
 * checks them against sim_eval on every run).
 *
 * Notation: for a legal point, band loop l has tile T1 = T1[l] of extent
 * E, latency L (1 without a latency knob), and n[l] L1 tiles: ceil(E/T1)
 * without array_part_L2, and ceil(E/T2) (T2/T1) with it, which is at
 * least ceil(E/T1) because ceil(E/T2) T2 >= E and the product is an
 * integer.  A PE runs pe[l] of a tile: L on a space loop, T1 on the other
 * band loops, E off the band (where n[l] = 1); on the simd loop it runs
 * pe/S steps of S lanes.
 *
 * Cycles.  model.c's compute_cycles gives comp = II prod_l pe'[l] (pe'
 * = pe/S on the simd loop) for one tile, and run_cycles' total is at least
 * n_tiles comp, n_tiles = prod_l n[l]: double-buffered, the tiles finish
 * at d + step + (n_tiles - 1) t with a period t >= step >= comp and d >= 0;
 * without double buffering at n_tiles (d + step); the epilogue added on
 * top (the wavefront sum_p - n_space and the accumulation) is never
 * negative, since each space loop has at least one PE.  Per loop,
 * n[l] pe[l] is at least E on a band loop off the space loops (n[l] T1 >=
 * ceil(E/T1) T1 >= E, and that exactly for a fixed T1), and at least
 * ceil(E/T1_hi) L_lo on a space loop (ceil(E/T1) decreases with T1); off
 * the band it is E.  On the simd loop the product is divided by S, at most
 * S_hi, and stays at least n[l] (pe/S >= 1).  II = ceil(acc/prod L) when a
 * dependence is carried and prod L < acc, else 1; prod L is at most the
 * product P of the latency ranges' tops, so II >= ceil(acc/P) when P < acc
 * and II >= 1 always.
 *
 * Clock.  The multicast crossbar only lowers the clock
 * (arch_multicast_clock <= 1), so latency >= cycles / the board's clock,
 * and GFLOP/s = ops / latency is at most ops over that.
 *
 * Resources.  Along a space loop a legal point has q = T1/L PEs, an
 * integer of at least ceil(T1_lo / L_hi) and 1.  The PEs' DSP, LUT and FF
 * (sim__res_bound's PE row: n_pe times a per-PE figure that grows with S)
 * are a lower bound of the design's, since every other module only adds
 * (resource.c); so they are taken at the least n_pe and the least S.
 *
 * Energy.  point_energy counts n_tiles n_pe (comp/II) S MACs, which is
 * prod over the band of n[l] T1[l] times the extents off the band (q L =
 * T1 on a space loop, and the S lanes times pe/S is pe): at least the
 * iterations of the whole nest, exactly prod ceil(E/T1) T1 when T1 is
 * fixed.  Times the MAC's and its register accesses' energy; every other
 * term of point_energy is non-negative.  EDP is energy x latency, both
 * bounded below by non-negative figures.
 *
 * BRAM18K, URAM and off-chip bytes have no bound here (0).  Products are
 * taken in double and lowered by one part in 10^9, far more than their
 * rounding error, so that a bound never rises above the figure sim_eval
 * computes for the same design.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

#define BOUND_SLACK (1.0 - 1e-9)

/* One loop's range of tile and latency values in a box. */
struct range {
	int64_t t_lo, t_hi;	/* array_part (the extent off the band) */
	int64_t l_lo, l_hi;	/* latency (1 without a knob) */
};

static int64_t up_div(int64_t a, int64_t b)
{
	return a / b + (a % b != 0);
}

/* Reads the box's ranges, clipped to what a legal point can have (a tile
 * of 1 to E, a latency of 1 to its tile, a simd width of 1 up); 0 when no
 * point of the box can be legal.
 */
static int read_box(const sim_model *m, const int32_t *lo, const int32_t *hi,
	struct range *r, int64_t *s_lo, int64_t *s_hi)
{
	int k = 0, l, i;

	for (l = 0; l < m->n_loops; l++) {
		r[l].t_lo = r[l].t_hi = m->extent[l];
		r[l].l_lo = r[l].l_hi = 1;
	}
	for (l = 0; l < m->band; l++, k++) {
		r[l].t_lo = lo[k] < 1 ? 1 : lo[k];
		r[l].t_hi = hi[k] > m->extent[l] ? m->extent[l] : hi[k];
		if (r[l].t_lo > r[l].t_hi)
			return 0;
	}
	if (m->l2)
		k += m->band;
	for (i = 0; i < m->n_latency; i++, k++) {
		l = m->latency_loop[i];
		r[l].l_lo = lo[k] < 1 ? 1 : lo[k];
		/* A latency divides its tile, so it is at most the tile. */
		r[l].l_hi = hi[k] > r[l].t_hi ? r[l].t_hi : hi[k];
		if (r[l].l_lo > r[l].l_hi)
			return 0;
	}
	*s_lo = *s_hi = 1;
	if (m->simd_loop >= 0) {
		*s_lo = lo[k] < 1 ? 1 : lo[k];
		*s_hi = hi[k];
		if (*s_lo > *s_hi)
			return 0;
	}
	return 1;
}

static int is_space(const sim_model *m, int l)
{
	int i;

	for (i = 0; i < m->n_space; i++)
		if (m->space_loop[i] == l)
			return 1;
	return 0;
}

/* The least n[l] pe'[l] of loop l over the box (the file comment), and in
 * *iters the least n[l] T1[l], the loop's padded iterations.
 */
static double loop_work(const sim_model *m, const struct range *r, int l,
	int64_t s_hi, double *iters)
{
	double e = (double) m->extent[l], n = 1, w;

	*iters = e;
	if (l >= m->band) {
		w = e;
	} else {
		n = (double) up_div(m->extent[l], r->t_hi);
		if (r->t_lo == r->t_hi)
			*iters = n * (double) r->t_lo;
		w = is_space(m, l) ? n * (double) r->l_lo : *iters;
	}
	if (l == m->simd_loop)
		w = fmax(n, w / (double) s_hi);
	return w;
}

/* The least initiation interval over the box. */
static double least_ii(const sim_model *m, const struct range *r)
{
	double lat = 1;
	int i;

	for (i = 0; i < m->n_latency; i++)
		lat *= (double) r[m->latency_loop[i]].l_hi;
	if (m->carried && lat < (double) m->acc_latency)
		return ceil((double) m->acc_latency / lat);
	return 1;
}

/* DSP, LUT and FF of the fewest PEs of the box at its least simd width. */
static void least_pes(const sim_model *m, const struct range *r,
	int64_t s_lo, sim_metrics *best)
{
	int64_t t1[POLY_MAX_LOOPS], lat[POLY_MAX_LOOPS], pe[POLY_MAX_LOOPS];
	int64_t p[POLY_MAX_SPACE], n_pe = 1, max_p = 1;
	sim_metrics pes;
	sim__shape sh;
	int l, i;

	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		t1[l] = l < m->n_loops ? r[l].t_lo : 1;
		lat[l] = l < m->n_loops ? r[l].l_lo : 1;
		pe[l] = t1[l];
	}
	for (i = 0; i < POLY_MAX_SPACE; i++)
		p[i] = 1;
	for (i = 0; i < m->n_space; i++) {
		l = m->space_loop[i];
		p[i] = up_div(r[l].t_lo, r[l].l_hi);
		pe[l] = lat[l];
		n_pe = n_pe > INT64_MAX / p[i] ? INT64_MAX : n_pe * p[i];
		max_p = p[i] > max_p ? p[i] : max_p;
	}
	sh.t1 = t1;
	sh.t2 = t1;
	sh.lat = lat;
	sh.pe = pe;
	sh.p = p;
	sh.s = s_lo;
	sh.n_pe = n_pe;
	sh.max_p = max_p;
	sh.net = SIM_NET_DAISY;
	sh.db = 1;
	memset(&pes, 0, sizeof(pes));
	sim__res_bound(m, &sh, &pes);
	best->dsp = pes.dsp;
	best->lut = pes.lut;
	best->ff = pes.ff;
}

void sim_bound_box(const sim_model *m, const int32_t *lo, const int32_t *hi,
	sim_metrics *best)
{
	struct range r[POLY_MAX_LOOPS];
	int64_t s_lo, s_hi;
	double work = 1, iters = 1, it, cycles;
	int l;

	memset(best, 0, sizeof(*best));
	if (!read_box(m, lo, hi, r, &s_lo, &s_hi)) {
		best->gops = INFINITY;
		best->status = SIM_BAD_TILE;
		return;
	}
	for (l = 0; l < m->n_loops; l++) {
		work *= loop_work(m, &r[l], l, s_hi, &it);
		iters *= it;
	}
	cycles = work * least_ii(m, r) * BOUND_SLACK;
	best->cycles = cycles >= 1.8e19 ? UINT64_MAX : (uint64_t) cycles;
	best->latency_s = cycles / (m->mhz * 1e6);
	best->gops = m->ops / best->latency_s / 1e9;
	best->mhz = m->mhz;
	least_pes(m, r, s_lo, best);
	best->energy_j = iters * m->macs_per_point * (1.0 + m->energy.rf *
		m->energy.rf_per_mac) * m->lane.pj_per_mac * 1e-12 *
		BOUND_SLACK;
	best->edp = best->energy_j * best->latency_s;
	best->status = SIM_OK;
}

/* A value of knob k that passes read_point's check of it whatever the
 * knobs before it: the tile of its loop for array_part_L2 (a multiple of
 * itself), the daisy chain for io_network, 1 for the others.
 */
static int32_t neutral(const sim_model *m, int k, const int32_t *full)
{
	switch (m->knob_kind[k]) {
	case SIM__ARRAY_PART_L2:
		return full[k - m->band];
	case SIM__IO_NETWORK:
		return SIM_NET_DAISY;
	default:
		return 1;
	}
}

int sim_prefix_status(const sim_model *m, const int32_t *knobs, int n)
{
	int32_t full[SIM_MAX_KNOBS];
	sim__point p;
	int k, st;

	for (k = 0; k < m->n_knobs; k++)
		full[k] = k < n ? knobs[k] : neutral(m, k, full);
	st = sim__read_point(m, full, &p);
	/* read_point checks the knobs in their order, each against itself
	 * and those before it, and the neutral values pass every check: a
	 * failure is then the prefix's, and every point that shares the
	 * prefix fails the same check first.  "Too large" (the PE count or
	 * a tile's cycles overflowing) depends on the knobs after the
	 * prefix too, so it decides nothing.
	 */
	return st == SIM_TOO_LARGE ? SIM_OK : st;
}
