/* sim: bounds over boxes of knob values, for pruning whole sub-ranges of
 * a sweep (sim_bound_box), and the status a prefix of knobs decides
 * (sim_prefix_status).
 *
 * A box gives each knob a range [lo, hi] of values; a sweep's sub-range
 * (its first knobs fixed, the others free over their lists) lies in the
 * box of its fixed values and the free lists' extremes.  Every bound below
 * holds for every point of the box that sim_eval finds legal, and none
 * loosens as the box shrinks (each is built from the ranges' ends by
 * operations that never decrease as a lower end rises or an upper end
 * falls, and minimised over a set of cases that only shrinks); tests/sim/
 * test_bound.c checks both against sim_eval on every run.
 *
 * Notation: for a legal point, band loop l has tile T1 = T1[l] of extent
 * E, L2 tile T2 (T1 without array_part_L2), latency L (1 without a
 * latency knob), and n[l] L1 tiles: ceil(E/T1) without array_part_L2,
 * and ceil(E/T2) (T2/T1) with it, which is at least ceil(E/T1) because
 * ceil(E/T2) T2 >= E and the product is an integer.  N = prod_l n[l] is
 * the number of L1 tiles, at least prod_l ceil(E/T1_hi).  A PE runs
 * pe[l] of a tile: L on a space loop, T1 on the other band loops, E off
 * the band (where n[l] = 1); on the simd loop it runs pe/S steps of S
 * lanes.  Along space loop s a legal point has p_s = T1/L PEs, an integer
 * of at least ceil(T1_lo / L_hi) and 1.
 *
 * Compute.  model.c's compute_cycles gives comp = II prod_l pe'[l] (pe'
 * = pe/S on the simd loop) for one tile; the PE's step is max(comp,
 * feed) >= comp.  Per loop, n[l] pe[l] is at least E on a band loop off
 * the space loops (n[l] T1 >= ceil(E/T1) T1 >= E, and that exactly for a
 * fixed T1), and at least ceil(E/T1_hi) L_lo on a space loop
 * (ceil(E/T1) decreases with T1); off the band it is E.  On the simd loop
 * the product is divided by S, at most S_hi, and stays at least n[l]
 * (pe/S >= 1).  II = ceil(acc/prod L) when a dependence is carried and
 * prod L < acc, else 1; prod L is at most the product P of the latency
 * ranges' tops, so II >= ceil(acc/P) when P < acc and II >= 1 always.
 * So W = II_lo prod_l (least n[l] pe'[l]) <= N comp, and per tile
 * C = II_lo prod_l pe'_lo[l] <= comp, with pe'_lo = L_lo, T1_lo or E,
 * and max(1, ceil(pe_lo / S_hi)) on the simd loop.
 *
 * I/O of a tile.  load_tile gives, per L1 tile, in->load = max(beats,
 * bw) + lat (or more, on the crossbar), where beats is the most port
 * beats of an input group, bw = ceil(B hz / bandwidth) for the tile's
 * DRAM bytes B at clock hz, and lat the DRAM latency (0 without inputs);
 * in->net (the network's cycles) is max(uni, multi) in the daisy chain
 * and at least uni + multi on the crossbar (uni, multi: the most beats of
 * a unicast and of a multicast group); and in->xfer >= max(beats, net,
 * bw).  So with IO = max(lat + max(beats, bw), net) over lower bounds of
 * beats, B and net, both the period's terms in->load and in->net and the
 * load d = lat + xfer + reach (reach >= 0) are at least IO; so is d2.
 *
 * Port words and beats.  A group's beats are ceil(words / pk), with pk
 * the packing of a run, a power of two at most the port's words (pack),
 * so beats >= ceil(words_lo / cap), cap the largest power of two at most
 * the port's words; where the box fixes the tile whose run pk reads, pk
 * itself is computed.  On the crossbar a multicast group moves
 * fp(T1) words, at least fp(T1_lo), since every dimension's span
 * min(extent, 1 + sum |coef| (t - 1)) grows with each tile size.  In the
 * daisy chain (and for a unicast group on the crossbar) it moves
 * lines x fp(line tile) words: lines = prod_{s in C} T1[s]/L[s] over the
 * set C of space loops the group has a line per PE along (dir0), and the
 * line tile is T1 with the loops of C cut to L.  For each loop of C whose
 * T1 the box fixes, L is one of T1's divisors in [L_lo, L_hi] (a legal
 * latency divides its tile); for the others T1/L >= ceil(T1_lo / L_hi)
 * and L >= L_lo.  The bound is the least, over the combinations of those
 * divisors (the loose loops at their lower ends), of
 * prod ceil(T1_lo/L) x fp(line tile): the combination of the point's own
 * latencies is among them and is at most the point's words, term by term.
 * (No closed form holds in general: a strided or diagonal index makes the
 * chain's words less than the whole tile's footprint.)
 *
 * DRAM words.  Without array_part_L2 a tile's DRAM words are its port
 * words (the chain reads each line's strip, the crossbar the tile).
 * With it, they are an L2 tile's words (the same formulas over T2, whose
 * ranges the box gives) over per_l2 = prod T2/T1 <= prod T2_hi/T1_lo.
 * The off-chip bytes are N B_tile + sum_g n_out[g] fp_out[g](T1) bytes:
 * at least N_lo B_lo + sum_g n_out_lo[g] fp_out[g](T1_lo) bytes.
 *
 * Drains.  drain_all gives output group g n_out[g] output tiles (N, or
 * the product of the n[l] of its loops, at least the product of their
 * ceil(E/T1_hi)), each costing c[g] = max(ceil(words/pk), bw) + p_0 with
 * words = fp_out(T1): at least max(ceil(words_lo / cap), words_lo bytes hz
 * / bandwidth) + p_0 lo.
 *
 * Cycles.  run_cycles gives, double-buffered, done = d + step + (N - 1) t
 * with t >= max(step, IO) and d >= IO, so done >= N max(step, IO) +
 * min(step, IO) >= max(W, N_lo IO) + min(C, IO); each output group ends at
 * first + tail + n_out c >= IO + C + tail + n_out c (first >= d + step).
 * Without double buffering every tile costs d + step or d2 + step, so
 * done >= N (IO + step) >= N_lo IO + W, and each group ends at done +
 * (n_out - 1) stall + tail + c >= done + tail + c (stall >= 0).  The
 * total is at least done + tail, tail = sum_s p_s - n_space + acc >=
 * sum_s (p_s lo - 1) + acc.  The box's bound is the least of these over
 * the networks and double-buffering settings it holds.
 *
 * Clock.  The multicast crossbar lowers the clock to mhz
 * arch_multicast_clock(max_p) <= mhz, and the clock is at least that at
 * the largest max_p of the box (arch_multicast_clock never rises with
 * the ports).  Every bound above is built from terms a + b hz (a, b >= 0:
 * cycle counts, and the bandwidth terms without their ceiling, which only
 * lowers them) by sums, maxima, minima and non-negative multiples, so it
 * is F(hz) with F nondecreasing and F(hz)/hz nonincreasing.  Cycles are
 * then at least F(hz_lo), and the latency cycles/hz >= F(hz)/hz >=
 * F(hz_max)/hz_max; GFLOP/s = ops / latency is at most ops over that.
 *
 * Resources.  The PEs' DSP, LUT and FF (sim__res_bound's PE row: n_pe
 * times a per-PE figure that grows with S) are a lower bound of the
 * design's, since every other module only adds (resource.c); so they are
 * taken at the least n_pe and the least S.
 *
 * Energy.  point_energy counts N n_pe (comp/II) S MACs, which is
 * prod over the band of n[l] T1[l] times the extents off the band (q L =
 * T1 on a space loop, and the S lanes times pe/S is pe): at least the
 * iterations of the whole nest, exactly prod ceil(E/T1) T1 when T1 is
 * fixed.  Times the MAC's and its register accesses' energy, plus the
 * DRAM words' energy at the off-chip bound above; every other term of
 * point_energy is non-negative.  EDP is energy x latency, both bounded
 * below by non-negative figures.
 *
 * BRAM18K and URAM have no bound here (0).  Products are taken in double
 * and lowered by one part in 10^9, far more than their rounding error, so
 * that a bound never rises above the figure sim_eval computes for the
 * same design.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

#define BOUND_SLACK (1.0 - 1e-9)

/* The most latencies of one loop, and combinations of the loops a
 * group's lines are cut along, that the chain's words are minimised
 * over; beyond them the loops' ranges are taken whole (a looser bound).
 */
#define MAX_CAND 32
#define MAX_COMBOS 1024

/* One loop's range of tile and latency values in a box. */
struct range {
	int64_t t_lo, t_hi;	/* array_part (the extent off the band) */
	int64_t u_lo, u_hi;	/* array_part_L2 (array_part's without) */
	int64_t l_lo, l_hi;	/* latency (1 without a knob) */
};

/* The latencies a loop may have in a box: T1's divisors in [L_lo, L_hi]
 * when the box fixes T1 (n > 0), else none listed (n = 0: the range is
 * taken whole, as it also is beyond MAX_CAND divisors).
 */
struct cut {
	int loop;
	int n;
	int64_t v[MAX_CAND];
};

/* A box of knob values as the bounds read it. */
struct box {
	struct range r[POLY_MAX_LOOPS];
	struct cut cut[POLY_MAX_SPACE];	/* each space loop's latencies */
	int64_t s_lo, s_hi;	/* simd (1 without a knob) */
	int net[SIM_N_IO_NETWORKS];	/* the networks it holds */
	int db[2];		/* the double-buffering settings it holds */
	int fixed;		/* every array_part of the band fixed */
	double per_l2_hi;	/* the most L1 tiles of an L2 tile */
};

static int64_t up_div(int64_t a, int64_t b)
{
	return a / b + (a % b != 0);
}

/* fmax and fmin for numbers that are never NaN, inlined. */
static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

static inline double dmin(double a, double b)
{
	return a < b ? a : b;
}

static int is_space(const sim_model *m, int l)
{
	int i;

	for (i = 0; i < m->n_space; i++)
		if (m->space_loop[i] == l)
			return 1;
	return 0;
}

/* Lists the latencies loop "loop" of range r may have into c; returns
 * how many divisors of a fixed T1 lie in [L_lo, L_hi] (0: no legal
 * latency; -1 when T1 is not fixed).
 */
static int cut_values(const struct range *r, int loop, struct cut *c)
{
	int64_t t = r->t_lo, d;
	int found = 0;

	c->loop = loop;
	c->n = 0;
	if (r->t_lo != r->t_hi)
		return -1;
	for (d = r->l_lo; d <= r->l_hi; d++)
		if (t % d == 0) {
			if (found < MAX_CAND)
				c->v[found] = d;
			found++;
		}
	c->n = found <= MAX_CAND ? found : 0;
	return found;
}

/* Reads a 0/1 knob's range into "has"; 0 when neither value is in it. */
static int read_flag(int32_t lo, int32_t hi, int *has, int n)
{
	int v, any = 0;

	for (v = 0; v < n; v++) {
		has[v] = lo <= v && v <= hi;
		any |= has[v];
	}
	return any;
}

/* Reads the box's ranges, clipped to what a legal point can have (a tile
 * of 1 to E, an L2 tile of T1_lo to E, a latency of 1 to its tile, a simd
 * width of 1 up, a network and a double-buffering setting of 0 or 1); 0
 * when no point of the box can be legal.
 */
static int read_box(const sim_model *m, const int32_t *lo, const int32_t *hi,
	struct box *b)
{
	struct range *r = b->r;
	int k = 0, l, i;

	b->fixed = 1;
	b->per_l2_hi = 1;
	for (l = 0; l < m->n_loops; l++) {
		r[l].t_lo = r[l].t_hi = r[l].u_lo = r[l].u_hi = m->extent[l];
		r[l].l_lo = r[l].l_hi = 1;
	}
	for (l = 0; l < m->band; l++, k++) {
		r[l].t_lo = lo[k] < 1 ? 1 : lo[k];
		r[l].t_hi = hi[k] > m->extent[l] ? m->extent[l] : hi[k];
		if (r[l].t_lo > r[l].t_hi)
			return 0;
		b->fixed &= r[l].t_lo == r[l].t_hi;
		r[l].u_lo = r[l].t_lo;
		r[l].u_hi = r[l].t_hi;
	}
	for (l = 0; m->l2 && l < m->band; l++, k++) {
		/* An L2 tile is a multiple of its L1 tile. */
		r[l].u_lo = lo[k] < r[l].t_lo ? r[l].t_lo : lo[k];
		r[l].u_hi = hi[k] > m->extent[l] ? m->extent[l] : hi[k];
		if (r[l].u_lo > r[l].u_hi)
			return 0;
		b->per_l2_hi *= (double) (r[l].u_hi / r[l].t_lo);
	}
	for (i = 0; i < m->n_latency; i++, k++) {
		struct cut c;

		l = m->latency_loop[i];
		r[l].l_lo = lo[k] < 1 ? 1 : lo[k];
		/* A latency divides its tile, so it is at most the tile;
		 * a fixed tile must have a divisor in the range.
		 */
		r[l].l_hi = hi[k] > r[l].t_hi ? r[l].t_hi : hi[k];
		if (r[l].l_lo > r[l].l_hi || (!is_space(m, l) &&
		    cut_values(&r[l], l, &c) == 0))
			return 0;
	}
	for (i = 0; i < m->n_space; i++)
		if (cut_values(&r[m->space_loop[i]], m->space_loop[i],
				&b->cut[i]) == 0)
			return 0;
	b->s_lo = b->s_hi = 1;
	if (m->simd_loop >= 0) {
		b->s_lo = lo[k] < 1 ? 1 : lo[k];
		b->s_hi = hi[k];
		if (b->s_lo > b->s_hi)
			return 0;
		k++;
	}
	memset(b->net, 0, sizeof(b->net));
	b->net[SIM_NET_DAISY] = 1;
	if (m->net_knob && !read_flag(lo[k], hi[k], b->net, SIM_N_IO_NETWORKS))
		return 0;
	k += m->net_knob;
	b->db[0] = 0;
	b->db[1] = 1;
	if (m->db_knob && !read_flag(lo[k], hi[k], b->db, 2))
		return 0;
	return 1;
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
		w = dmax(n, w / (double) s_hi);
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

/* The least cycles one PE spends on one tile (C in the file comment). */
static double least_comp(const sim_model *m, const struct box *b)
{
	double c = 1, pe;
	int l;

	for (l = 0; l < m->n_loops; l++) {
		pe = (double) (is_space(m, l) ? b->r[l].l_lo : b->r[l].t_lo);
		if (l == m->simd_loop)
			pe = dmax(1, ceil(pe / (double) b->s_hi));
		c *= pe;
	}
	return c * least_ii(m, b->r);
}

/* The least PEs along space loop i. */
static int64_t least_p(const sim_model *m, const struct box *b, int i)
{
	const struct range *r = &b->r[m->space_loop[i]];

	return up_div(r->t_lo, r->l_hi);
}

/* The largest power of two at most the port's words: no packing is
 * wider (pack).
 */
static int64_t pack_cap(const sim_model *m)
{
	int64_t w = m->port_words < 1 ? 1 : m->port_words;

	return (int64_t) 1 << (63 - __builtin_clzll((unsigned long long) w));
}

/* What a group moves per L1 tile, at least: port beats and DRAM words. */
struct moved {
	double beats;
	double dram;
};

/* The least port beats and DRAM words of a group whose lines run along
 * the cut loops "c" (n_cut of them), at one combination of their
 * latencies ("pick": an index into each loop's values, or -1 for the
 * range taken whole): prod ceil(T_lo/L) x fp(T_lo cut to L), with L_hi
 * in the quotient and L_lo in the cut for a range taken whole.
 */
static struct moved chain_at(const sim_model *m, const struct box *b,
	const sim__footprint *fp, const struct cut *const *c, int n_cut,
	const int *pick)
{
	int64_t lt[POLY_MAX_LOOPS], dt[POLY_MAX_LOOPS], pk;
	double lines = 1, strips = 1, words;
	struct moved mv;
	int l, i, exact = b->fixed;

	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		lt[l] = l < m->n_loops ? b->r[l].t_lo : 1;
		dt[l] = l < m->n_loops ? b->r[l].u_lo : 1;
	}
	for (i = 0; i < n_cut; i++) {
		const struct range *r = &b->r[c[i]->loop];
		int64_t q = pick[i] < 0 ? r->l_hi : c[i]->v[pick[i]];
		int64_t cut = pick[i] < 0 ? r->l_lo : c[i]->v[pick[i]];

		exact &= pick[i] >= 0;
		lines *= (double) up_div(r->t_lo, q);
		strips *= (double) up_div(r->u_lo, q);
		lt[c[i]->loop] = dt[c[i]->loop] = cut;
	}
	/* The chain's packing reads the line tile's run: known only when
	 * the box fixes the line tile.
	 */
	pk = exact ? sim__pack(sim__footprint_run(fp, lt), m->port_words) :
		pack_cap(m);
	words = lines * (double) sim__footprint_words(fp, lt);
	mv.beats = ceil(words / (double) pk);
	mv.dram = m->l2 ? strips * (double) sim__footprint_words(fp, dt) /
		b->per_l2_hi : words;
	return mv;
}

/* The least port beats and DRAM words of input group g per L1 tile over
 * the box, in the daisy chain (or unicast on the crossbar): the least
 * over the combinations of its cut loops' latencies (the file comment).
 */
static struct moved chain_moved(const sim_model *m, const struct box *b,
	int g)
{
	const sim__input *in = &m->in[g];
	const struct cut *c[POLY_MAX_SPACE];
	struct moved best = { INFINITY, INFINITY }, mv;
	int pick[POLY_MAX_SPACE], n_cut = 0, s, i;
	long combos = 1;

	for (s = 0; s < m->n_space; s++)
		if (in->dir0_mask >> s & 1u) {
			c[n_cut] = &b->cut[s];
			combos *= c[n_cut]->n > 0 ? c[n_cut]->n : 1;
			n_cut++;
		}
	for (i = 0; i < n_cut; i++)
		pick[i] = combos <= MAX_COMBOS && c[i]->n > 0 ? 0 : -1;
	for (;;) {
		mv = chain_at(m, b, &in->fp, c, n_cut, pick);
		best.beats = dmin(best.beats, mv.beats);
		best.dram = dmin(best.dram, mv.dram);
		/* The next combination, an odometer over the listed loops. */
		for (i = 0; i < n_cut; i++) {
			if (pick[i] < 0)
				continue;
			if (++pick[i] < c[i]->n)
				break;
			pick[i] = 0;
		}
		if (i == n_cut)
			return best;
	}
}

/* The least port beats and DRAM words of multicast group g per L1 tile
 * over the box, on the crossbar: the tile's footprint.
 */
static struct moved cast_moved(const sim_model *m, const struct box *b,
	int g)
{
	const sim__footprint *fp = &m->in[g].fp;
	int64_t t[POLY_MAX_LOOPS], u[POLY_MAX_LOOPS], pk;
	struct moved mv;
	int l;

	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		t[l] = l < m->n_loops ? b->r[l].t_lo : 1;
		u[l] = l < m->n_loops ? b->r[l].u_lo : 1;
	}
	pk = b->fixed ? sim__pack(sim__footprint_run(fp, t), m->port_words) :
		pack_cap(m);
	mv.beats = ceil((double) sim__footprint_words(fp, t) / (double) pk);
	mv.dram = m->l2 ? (double) sim__footprint_words(fp, u) /
		b->per_l2_hi : (double) sim__footprint_words(fp, t);
	return mv;
}

/* One network's inputs per L1 tile, at least: the most beats of a
 * group, the DRAM words of all, and the network's cycles (uni + multi on
 * the crossbar, 0 in the chain, whose network is never above its beats).
 */
struct tile_in {
	double beats, dram, net;
};

static struct tile_in inputs_of(const sim_model *m, const struct box *b,
	int net)
{
	struct tile_in ti = { 0, 0, 0 };
	double uni = 0, multi = 0;
	int g;

	for (g = 0; g < m->n_in; g++) {
		int mc = net == SIM_NET_MULTICAST && m->in[g].multicast;
		struct moved mv = mc ? cast_moved(m, b, g) :
			chain_moved(m, b, g);

		ti.beats = dmax(ti.beats, mv.beats);
		ti.dram += mv.dram;
		if (mc)
			multi = dmax(multi, mv.beats);
		else
			uni = dmax(uni, mv.beats);
	}
	if (net == SIM_NET_MULTICAST)
		ti.net = uni + multi;
	return ti;
}

/* The outputs over the run, at least: per group its output tiles and
 * words and beats per output tile.
 */
struct drains {
	double n[POLY_MAX_GROUPS], words[POLY_MAX_GROUPS];
	double beats[POLY_MAX_GROUPS];
	double dram;		/* words of all output tiles */
};

static void drains_of(const sim_model *m, const struct box *b,
	struct drains *d)
{
	int64_t t[POLY_MAX_LOOPS];
	double n_tiles = 1;
	int g, l;

	for (l = 0; l < POLY_MAX_LOOPS; l++)
		t[l] = l < m->n_loops ? b->r[l].t_lo : 1;
	for (l = 0; l < m->band; l++)
		n_tiles *= (double) up_div(m->extent[l], b->r[l].t_hi);
	d->dram = 0;
	for (g = 0; g < m->n_out; g++) {
		const sim__output *o = &m->out[g];
		int64_t pk = b->fixed ? sim__pack(sim__footprint_run(&o->fp,
			t), m->port_words) : pack_cap(m);

		d->n[g] = o->every_tile ? n_tiles : 1;
		for (l = 0; l < m->band && !o->every_tile; l++)
			if (o->loop_mask >> l & 1u)
				d->n[g] *= (double) up_div(m->extent[l],
					b->r[l].t_hi);
		d->words[g] = (double) sim__footprint_words(&o->fp, t);
		d->beats[g] = ceil(d->words[g] / (double) pk);
		d->dram += d->n[g] * d->words[g];
	}
}

/* The figures of a box that do not depend on the clock. */
struct box_time {
	double w;		/* W: the least N comp */
	double c;		/* C: the least comp of a tile */
	double n;		/* N_lo: the fewest L1 tiles */
	double tail;		/* the least epilogue */
	double p0;		/* the fewest PEs along the first space loop */
	double lat;		/* the DRAM latency a tile waits for */
	double words_per_hz;	/* bytes / bandwidth: a word's cycles per Hz */
	struct tile_in in[SIM_N_IO_NETWORKS];
	struct drains out;
};

/* F(hz): the least cycles of a point of the box at clock hz on network
 * "net" with double buffering "db" (the file comment's "Cycles"); the
 * bandwidth terms are taken without their ceiling so that F(hz)/hz never
 * rises with hz.
 */
static double least_cycles(const sim_model *m, const struct box_time *bt,
	int net, int db, double hz)
{
	const struct tile_in *in = &bt->in[net];
	double io, drain = 0, cmax = 0, c, done;
	int g;

	io = dmax(bt->lat + dmax(in->beats, in->dram * bt->words_per_hz * hz),
		in->net);
	for (g = 0; g < m->n_out; g++) {
		c = dmax(bt->out.beats[g], bt->out.words[g] *
			bt->words_per_hz * hz) + bt->p0;
		drain = dmax(drain, bt->out.n[g] * c);
		cmax = dmax(cmax, c);
	}
	if (!db)
		return bt->n * io + bt->w + bt->tail + cmax;
	done = dmax(bt->w, bt->n * io) + dmin(bt->c, io);
	return dmax(done, io + bt->c + drain) + bt->tail;
}

/* Cycles (at the least clock) and latency (at the board's clock) of the
 * box, the least over the networks and double-buffering settings it
 * holds.
 */
static void least_time(const sim_model *m, const struct box *b,
	const struct box_time *bt, double *cycles, double *latency_s)
{
	double hz = m->mhz * 1e6, lo = hz, cyc = INFINITY, lat = INFINITY;
	int64_t max_p = 1;
	int net, db, i;

	for (i = 0; i < m->n_space; i++) {
		const struct range *r = &b->r[m->space_loop[i]];

		max_p = r->t_hi / r->l_lo > max_p ? r->t_hi / r->l_lo : max_p;
	}
	for (net = 0; net < SIM_N_IO_NETWORKS; net++) {
		if (!b->net[net])
			continue;
		if (net == SIM_NET_MULTICAST)
			lo = hz * arch_multicast_clock(max_p);
		for (db = 0; db < 2; db++) {
			if (!b->db[db])
				continue;
			cyc = dmin(cyc, least_cycles(m, bt, net, db, lo));
			lat = dmin(lat, least_cycles(m, bt, net, db, hz) / hz);
		}
		lo = hz;
	}
	*cycles = cyc;
	*latency_s = lat;
}

/* The clock-free figures of the box; returns the least DRAM words of the
 * whole run, loads and drains.
 */
static double box_time(const sim_model *m, const struct box *b,
	struct box_time *bt)
{
	double it, dram = INFINITY;
	int l, i, net;

	bt->w = 1;
	bt->n = 1;
	for (l = 0; l < m->n_loops; l++)
		bt->w *= loop_work(m, &b->r[l], l, b->s_hi, &it);
	bt->w *= least_ii(m, b->r);
	for (l = 0; l < m->band; l++)
		bt->n *= (double) up_div(m->extent[l], b->r[l].t_hi);
	bt->c = least_comp(m, b);
	bt->tail = (double) m->acc_latency;
	for (i = 0; i < m->n_space; i++)
		bt->tail += (double) (least_p(m, b, i) - 1);
	bt->p0 = m->n_space > 0 ? (double) least_p(m, b, 0) : 0;
	bt->lat = m->n_in > 0 ? (double) m->dram_latency : 0;
	bt->words_per_hz = m->bytes / m->bytes_per_s;
	drains_of(m, b, &bt->out);
	for (net = 0; net < SIM_N_IO_NETWORKS; net++)
		if (b->net[net]) {
			bt->in[net] = inputs_of(m, b, net);
			dram = dmin(dram, bt->n * bt->in[net].dram);
		}
	return dram + bt->out.dram;
}

/* DSP, LUT and FF of the fewest PEs of the box at its least simd width. */
static void least_pes(const sim_model *m, const struct box *b,
	sim_metrics *best)
{
	int64_t t1[POLY_MAX_LOOPS], lat[POLY_MAX_LOOPS], pe[POLY_MAX_LOOPS];
	int64_t p[POLY_MAX_SPACE], n_pe = 1, max_p = 1;
	const struct range *r = b->r;
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
		p[i] = least_p(m, b, i);
		pe[l] = lat[l];
		n_pe = n_pe > INT64_MAX / p[i] ? INT64_MAX : n_pe * p[i];
		max_p = p[i] > max_p ? p[i] : max_p;
	}
	sh.t1 = t1;
	sh.t2 = t1;
	sh.lat = lat;
	sh.pe = pe;
	sh.p = p;
	sh.s = b->s_lo;
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
	struct box b;
	struct box_time bt;
	double iters = 1, it, cycles, latency_s, dram, macs;
	int l;

	memset(best, 0, sizeof(*best));
	if (!read_box(m, lo, hi, &b)) {
		best->gops = INFINITY;
		best->status = SIM_BAD_TILE;
		return;
	}
	for (l = 0; l < m->n_loops; l++) {
		(void) loop_work(m, &b.r[l], l, b.s_hi, &it);
		iters *= it;
	}
	dram = box_time(m, &b, &bt) * BOUND_SLACK;
	least_time(m, &b, &bt, &cycles, &latency_s);
	cycles *= BOUND_SLACK;
	latency_s *= BOUND_SLACK;
	best->cycles = cycles >= 1.8e19 ? UINT64_MAX : (uint64_t) cycles;
	best->latency_s = latency_s;
	best->gops = m->ops / latency_s / 1e9;
	best->mhz = m->mhz;
	best->offchip_bytes = dram * m->bytes >= 9e18 ? INT64_MAX :
		(int64_t) (dram * m->bytes);
	least_pes(m, &b, best);
	macs = iters * m->macs_per_point * (1.0 + m->energy.rf *
		m->energy.rf_per_mac);
	best->energy_j = (macs + m->energy.dram * dram) *
		m->lane.pj_per_mac * 1e-12 * BOUND_SLACK;
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
