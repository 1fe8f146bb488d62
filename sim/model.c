/* sim: the analytic model of one design point of any systolic-array
 * template, as AutoSA builds the array.
 *
 * Every band loop l is tiled by array_part T1[l] (and, optionally, the
 * tiles are grouped by array_part_L2 T2[l]); a tile need not divide its
 * loop: the last one is padded, as AutoSA pads, so there are ceil(E/T1)
 * tiles.  Loops outside the band run whole inside each tile.  A latency
 * loop's tile is strip-mined again by L[l] and the point loop becomes a
 * PE's inner loop, so that space loop s spreads P_s = T1[s]/L[s] PEs; the
 * loop vectorised by simd runs S iterations at once.  Per PE and tile,
 * the PE runs the box pe_tile of iterations: L[s] on the space loops, T1
 * on the other band loops, the extent outside the band.
 *
 * Modules, per tile (per L1 tile; see load_tile):
 * - PE: compute = prod(pe_tile)/S x II, and the L1 feed of its line's
 *   data S words (the packing at L1) at a time;
 * - per input group: the L3 module's port beats (words per beat = the
 *   L3 packing), the L2 level's chain or crossbar (L2 packing), and DRAM:
 *   the bytes of all input groups through the board's bandwidth, plus the
 *   DRAM latency once per tile;
 * - per output group: the drain of every output tile.
 * With double buffering the load of the next tile overlaps the compute of
 * this one (outer x max(load, compute) + tail) and the drain of an output
 * tile overlaps the following tiles; without it every step is serial.
 * Latency = prologue (DRAM latency and the fan-out of the inputs to every
 * PE) + the slowest module + epilogue (the drain wavefront).
 *
 * All point-independent quantities are in the model (sim.c), so that this
 * is a few hundred integer operations with no allocation.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "internal.h"

/* The tiling of one design point, with the derived counts. */
struct point {
	int64_t t1[POLY_MAX_LOOPS];	/* array_part; the extent outside
					 * the band */
	int64_t t2[POLY_MAX_LOOPS];	/* array_part_L2, likewise */
	int64_t lat[POLY_MAX_LOOPS];	/* latency; 1 for other loops */
	int64_t q[POLY_MAX_LOOPS];	/* T1/L */
	int64_t pe[POLY_MAX_LOOPS];	/* what one PE runs of a tile */
	int64_t n[POLY_MAX_LOOPS];	/* L1 tiles per loop */
	int64_t p[POLY_MAX_SPACE];	/* PEs along each space loop */
	int64_t s;			/* simd */
	int64_t simd_steps;		/* pe[simd loop]/S */
	int64_t n_pe, sum_p, max_p;
	int64_t per_l2;			/* L1 tiles per L2 tile */
	int net;			/* enum sim_io_network */
	int db;				/* double-buffered */
};

/* What the input groups cost per L1 tile, and their fabric. */
struct inputs {
	int64_t load;		/* cycles an L3 module spends on a tile: the
				 * DRAM latency, then its beats */
	int64_t xfer;		/* cycles from the first beat to the last
				 * at the lines: the slowest of the ports,
				 * the network and the DRAM channel */
	int64_t net;		/* cycles of the network (chains, or the
				 * crossbar's turns) per tile */
	int64_t lat;		/* the DRAM latency a tile waits for */
	int64_t feed;		/* cycles of the slowest L1 feed */
	int64_t reach;		/* cycles from a tile's last beat at its L3
				 * module to the last line buffer */
	double dram_words;	/* words read from DRAM per L1 tile */
	double hops, buf;	/* network hops and buffer accesses */
	int64_t io;		/* cycles of the busiest group's I/O network
				 * (port beats, chain or feed) per tile */
	int io_group;		/* its group in the template */
	int64_t xfer2;		/* xfer of a tile whose crossbar turns go
				 * multicast first (see order_xfer) */
	double chan;		/* cycles of the DRAM channel per tile */
	/* Per input group: port beats, DRAM bytes and the bytes of its
	 * first burst.
	 */
	int64_t g_beats[POLY_MAX_GROUPS];
	double g_bytes[POLY_MAX_GROUPS], g_first[POLY_MAX_GROUPS];
	int g_mc[POLY_MAX_GROUPS];
};

/* What the output groups cost over the whole kernel. */
struct outputs {
	int64_t n[POLY_MAX_GROUPS];	/* output tiles of each group */
	int64_t cost[POLY_MAX_GROUPS];	/* cycles of one's drain */
	double chan[POLY_MAX_GROUPS];	/* its cycles on the DRAM channel */
	double dram_words, hops, buf;
	int64_t worst;		/* drain cycles of the busiest group */
	int worst_group;	/* its group in the template */
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

static inline int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* Products and sums of the cycle count can exceed 64 bits only for
 * absurdly large kernels; then the point is recorded as too large instead
 * of wrapping into a negative, seemingly excellent design.  The sticky
 * flag lets a formula be written straight and checked once.
 */
static inline int64_t cmul(int64_t a, int64_t b, int *ovf)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r)) {
		*ovf = 1;
		return INT64_MAX;
	}
	return r;
}

static inline int64_t cadd(int64_t a, int64_t b, int *ovf)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r)) {
		*ovf = 1;
		return INT64_MAX;
	}
	return r;
}

/* The span of one array dimension over a tile. */
static inline int64_t dim_span(const struct sim__fp_dim *dim,
	const int64_t *tile)
{
	int64_t span = 1, step;
	int i;

	if (dim->unit_loop >= 0) {
		/* The common index, one loop with coefficient 1. */
		span = tile[dim->unit_loop];
	} else if (dim->whole) {
		span = dim->extent;
	} else {
		for (i = 0; i < dim->n_terms; i++)
			if (__builtin_mul_overflow(dim->coef[i],
					tile[dim->loop[i]] - 1, &step) ||
			    __builtin_add_overflow(span, step, &span)) {
				span = dim->extent;
				break;
			}
	}
	return span > dim->extent ? dim->extent : span;
}

/* sim__footprint_words, kept in this file so that the hot path inlines
 * it.
 */
static inline int64_t fp_words(const sim__footprint *fp, const int64_t *tile)
{
	int64_t words = 1;
	int d;

	for (d = 0; d < fp->n_dims; d++)
		if (__builtin_mul_overflow(words, dim_span(&fp->dim[d], tile),
				&words))
			return INT64_MAX;
	return words;
}

int64_t sim__footprint_words(const sim__footprint *fp, const int64_t *tile)
{
	return fp_words(fp, tile);
}

/* poly_inner_run on the compiled formula: the contiguous run of the
 * innermost array dimension over a tile.
 */
static inline int64_t fp_run(const sim__footprint *fp, const int64_t *tile)
{
	return fp->n_dims ? dim_span(&fp->dim[fp->n_dims - 1], tile) : 1;
}

/* The packing factor of a level: the largest power of two that divides
 * the run and is at most "cap" (AutoSA's packing factors must divide the
 * innermost dimension they pack).
 */
static inline int64_t pack(int64_t run, int64_t cap)
{
	int64_t p = run & -run;
	int64_t c = (int64_t) 1 << (63 - __builtin_clzll(
		(unsigned long long) (cap < 1 ? 1 : cap)));

	return p < c ? p : c;
}

/* Reads the tiling knobs of the band: array_part, then array_part_L2. */
static int read_tiles(const sim_model *m, const int32_t *knobs, int *k,
	struct point *p)
{
	int l, exact;

	/* Whole fixed-size rows, which the compiler turns into a few vector
	 * moves (copies of constant size; a loop storing into four rows
	 * from a fifth is not vectorised, as the rows might overlap); the
	 * model's extents are 0 beyond its loops.
	 */
	memcpy(p->t1, m->extent, sizeof(p->t1));
	memcpy(p->t2, m->extent, sizeof(p->t2));
	memcpy(p->pe, m->extent, sizeof(p->pe));
	memcpy(p->q, m->extent, sizeof(p->q));
	for (l = 0; l < POLY_MAX_LOOPS; l++)
		p->lat[l] = p->n[l] = 1;
	for (l = 0; l < m->band; l++) {
		int64_t t = knobs[(*k)++];

		if (t <= 0 || t > m->extent[l])
			return SIM_BAD_TILE;
		p->n[l] = ceil_div(m->extent[l], t);
		p->t1[l] = p->pe[l] = p->q[l] = t;
	}
	p->per_l2 = 1;
	for (l = 0; m->l2 && l < m->band; l++) {
		int64_t t = knobs[(*k)++], r;

		if (t <= 0 || t > m->extent[l])
			return SIM_BAD_TILE;
		r = quot(t, p->t1[l], &exact);
		if (!exact)
			return SIM_BAD_TILE;
		/* The L2 tiles are padded too: each holds r L1 tiles. */
		p->t2[l] = t;
		p->n[l] = ceil_div(m->extent[l], t) * r;
		p->per_l2 *= r;
	}
	return SIM_OK;
}

/* The latency knobs, and the PEs they leave along each space loop. */
static int read_latency(const sim_model *m, const int32_t *knobs, int *k,
	struct point *p)
{
	int i, exact;

	for (i = 0; i < m->n_latency; i++) {
		int l = m->latency_loop[i];
		int64_t v = knobs[(*k)++];

		if (v <= 0)
			return SIM_BAD_LATENCY;
		p->q[l] = quot(p->t1[l], v, &exact);
		if (!exact)
			return SIM_BAD_LATENCY;
		p->lat[l] = v;
	}
	p->n_pe = 1;
	p->sum_p = p->max_p = 0;
	for (i = 0; i < m->n_space; i++) {
		int l = m->space_loop[i];

		p->p[i] = p->q[l];
		p->pe[l] = p->lat[l];
		p->sum_p += p->p[i];
		p->max_p = max64(p->max_p, p->p[i]);
		if (__builtin_mul_overflow(p->n_pe, p->p[i], &p->n_pe))
			return SIM_TOO_LARGE;
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
	int k = 0, exact, st = read_tiles(m, knobs, &k, p);

	if (st == SIM_OK)
		st = read_latency(m, knobs, &k, p);
	if (st != SIM_OK)
		return st;
	p->s = 1;
	if (m->simd_loop >= 0) {
		p->s = knobs[k++];
		if (p->s <= 0)
			return SIM_BAD_SIMD;
		p->simd_steps = quot(p->pe[m->simd_loop], p->s, &exact);
		if (!exact)
			return SIM_BAD_SIMD;
	}
	p->net = SIM_NET_DAISY;
	p->db = 1;
	if (m->net_knob) {
		p->net = knobs[k++];
		if (p->net != SIM_NET_DAISY && p->net != SIM_NET_MULTICAST)
			return SIM_BAD_KNOB;
	}
	if (m->db_knob) {
		p->db = knobs[k++];
		if (p->db != 0 && p->db != 1)
			return SIM_BAD_KNOB;
	}
	return SIM_OK;
}

/* Cycles one PE spends on a tile: its iterations, S at a time, each
 * started II cycles after the previous.  -1 on overflow.
 */
static int64_t compute_cycles(const sim_model *m, const struct point *p,
	int64_t *ii_out)
{
	int64_t work = 1, lat = 1, ii = 1;
	int l, ovf = 0;

	/* The latency loops give that many independent accumulators; a
	 * carried dependence comes back round only every prod(L) cycles,
	 * and if that is shorter than the adder's latency the PE loop must
	 * stall.  The product saturates: it only matters while small.
	 */
	for (l = 0; l < m->n_latency; l++)
		lat = cmul(lat, p->lat[m->latency_loop[l]], &ovf);
	if (m->carried && lat < m->acc_latency)
		ii = ceil_div(m->acc_latency, lat);
	ovf = 0;
	for (l = 0; l < m->n_loops; l++)
		work = cmul(work, l == m->simd_loop ? p->simd_steps : p->pe[l],
			&ovf);
	*ii_out = ii;
	work = cmul(work, ii, &ovf);
	return ovf ? -1 : work;
}

/* The PE lines of a group (one per PE of the space loops it does not move
 * along), and in "line" the tile of one line: those loops cut to L.
 */
static int64_t line_tile(const sim_model *m, const int64_t *lat,
	unsigned dir0, const int64_t *tile, int64_t *line)
{
	int64_t lines = 1;
	int s;

	for (s = 0; s < POLY_MAX_LOOPS; s++)
		line[s] = tile[s];
	for (s = 0; s < m->n_space; s++)
		if (dir0 >> s & 1u) {
			int l = m->space_loop[s];

			lines *= tile[l] / lat[l];
			line[l] = lat[l];
		}
	return lines;
}

/* One input group for one L1 tile: DRAM words, port beats (which are
 * also its network's cycles: the chain or the crossbar takes a beat a
 * cycle), L1 feed, the hops to its last line, network hops and buffer
 * accesses.
 *
 * The daisy chain moves each PE line's data separately: the L3 module
 * reads it line by line (a strip per line, as AutoSA's I/O loops run over
 * the lines), so data that several lines share is read once per line.  The
 * multicast crossbar reads the tile once and one write reaches every PE
 * line that needs it.  Returns the port beats; -1 on overflow.
 */
static int64_t load_group(const sim_model *m, const struct point *p,
	int g, int mc, struct inputs *acc)
{
	const sim__input *in = &m->in[g];
	int64_t lt[POLY_MAX_LOOPS], dt[POLY_MAX_LOOPS], w_line, words, beats;
	int64_t pk, burst;
	int64_t lines = line_tile(m, p->lat, in->dir0_mask, p->t1, lt);
	int64_t targets = p->n_pe / lines, feed;
	const int64_t *tile = m->l2 ? p->t2 : p->t1;
	int ovf = 0;

	w_line = fp_words(&in->fp, lt);
	if (mc) {
		words = fp_words(&in->fp, tile);
	} else {
		/* Filled first: dt is read by the footprint below. */
		int64_t strips = line_tile(m, p->lat, in->dir0_mask, tile, dt);

		words = cmul(strips, fp_words(&in->fp, dt), &ovf);
	}
	/* With a second tiling level the L3 buffer holds an L2 tile: DRAM
	 * reads it once, a share of it per L1 tile, and the L3 module still
	 * sends each L1 tile's beats (cycle.c).
	 */
	acc->dram_words += (double) words / (double) p->per_l2;
	acc->g_bytes[g] = (double) words / (double) p->per_l2 * m->bytes;
	/* The port's beats: the crossbar takes the tile once, the chain
	 * every line's data through its head, each beat the packing of the
	 * contiguous run.
	 */
	words = mc ? fp_words(&in->fp, p->t1) : cmul(lines, w_line, &ovf);
	pk = pack(fp_run(&in->fp, mc ? p->t1 : lt), m->port_words);
	beats = ceil_div(words, pk);
	/* The DRAM arbiter grants bursts of 16 full port beats (cycle.c's
	 * default burst), so that a group's first burst is the smaller of
	 * that and its tile.
	 */
	burst = max64(1, 16 * m->port_words / pk);
	acc->g_beats[g] = beats;
	acc->g_mc[g] = mc;
	acc->g_first[g] = beats > 0 ? acc->g_bytes[g] *
		(double) (beats < burst ? beats : burst) / (double) beats : 0;
	/* L1: each line's first PE takes its data S words at a time when
	 * the data moves along the simd loop, else as the PE's own run
	 * allows, at most S.
	 */
	feed = ceil_div(w_line, in->packed ? p->s :
		pack(fp_run(&in->fp, p->pe), p->s));
	acc->feed = max64(acc->feed, feed);
	if (max64(beats, feed) > acc->io) {
		acc->io = max64(beats, feed);
		acc->io_group = in->group;
	}
	/* A beat reaches its line after a hop per L2 module of the chain
	 * before it, or the crossbar's levels (cycle.c).
	 */
	acc->reach = max64(acc->reach, p->net == SIM_NET_MULTICAST ?
		arch_multicast_levels(p->n_pe) : lines);
	acc->hops += mc ? (double) words * arch_multicast_levels(p->n_pe) :
		(double) words * (double) (lines + 1) / 2.0 +
		(double) words * (double) targets;
	acc->buf += 2.0 * (double) lines * (double) w_line;
	return ovf ? -1 : beats;
}

/* The first whole cycle at or after t (cycle.c's cycle_at). */
static inline int64_t at_cycle(double t)
{
	return (int64_t) ceil(t - 1e-6);
}

/* Cycles from a tile's DRAM requests, less the DRAM latency, to the last
 * beat of each group at its port, into "xw".  All L3 modules of a tile ask
 * at once and the arbiter grants their bursts round-robin from the first
 * group on (cycle.c's arbitrate), so group g's first burst waits for the
 * first bursts of the groups before it; its beats then arrive "share"
 * cycles apart and its port takes at most one a cycle.
 */
static void group_xfer(const struct inputs *acc, int n_in, double bpc,
	int64_t *xw)
{
	double wait = 0;
	int g;

	for (g = 0; g < n_in; g++) {
		int64_t b = acc->g_beats[g];
		double share = b > 0 ? acc->g_bytes[g] / (double) b / bpc : 0;

		xw[g] = b > 0 ? max64(at_cycle(wait + share) - 1 + b,
			at_cycle(wait + acc->g_bytes[g] / bpc)) : 0;
		wait += acc->g_first[g] / bpc;
	}
}

/* The transfer of a tile on the crossbar whose first turn goes to the
 * groups of mode "first" (1: multicast): the other mode's groups start
 * when the last beat of the first turn has reached its targets and the
 * crossbar has switched (cycle.c's xbar_tile), or when their own data is
 * there.  The crossbar keeps its mode across a tile boundary, so without
 * double buffering the tiles alternate between the two orders, the first
 * tile going unicast first.
 */
static int64_t order_xfer(const struct inputs *acc, int n_in,
	const int64_t *xw, int first, int64_t turn)
{
	int64_t end1 = 0, beats2 = 0, end2 = 0;
	int g;

	for (g = 0; g < n_in; g++)
		if (acc->g_mc[g] == first) {
			end1 = max64(end1, xw[g]);
		} else {
			beats2 = max64(beats2, acc->g_beats[g]);
			end2 = max64(end2, xw[g]);
		}
	if (beats2 == 0 || end1 == 0)
		return max64(end1, end2);
	return max64(end1 + turn + beats2, end2);
}

/* One turn of the crossbar for the groups of mode "mode", from "free"
 * on: each group's port takes its beats from when both the crossbar and
 * its data are there; its L3 module is done when it has pushed its last
 * beat, which waits for the beat a FIFO earlier to leave (cycle.c's
 * l3_beat).  Updates each group's "done" from its data's arrival "at";
 * returns the end of the turn.
 */
static int64_t xbar_turn(const struct inputs *acc, int n_in, int mode,
	int64_t free, const int64_t *at, int64_t fifo, int64_t *done)
{
	int64_t end = free;
	int g;

	for (g = 0; g < n_in; g++) {
		int64_t b = acc->g_beats[g], go;

		if (acc->g_mc[g] != mode || b == 0)
			continue;
		go = max64(free, at[g]);
		end = max64(end, go + b);
		done[g] = b > fifo ? max64(at[g] + b, go + b - fifo) :
			at[g] + b;
	}
	return end;
}

/* Cycles between the loads of consecutive double-buffered tiles on the
 * crossbar when both modes take turns.  The crossbar keeps its mode
 * across a tile boundary, so the groups that went second in one tile go
 * first in the next, and an L3 module asks for its next tile only when it
 * has pushed its last beat: a group's two turns in a row are apart by the
 * DRAM latency, while the other mode's turn may fill that gap.  The
 * recurrence below runs the turns of a few tiles from a cold start (every
 * L3 module asking at once, as cycle.c does), with the PEs never holding
 * a load back (the PE's step is a bound of its own in run_cycles), and
 * returns the mean cycles a tile over the last two, the period of the
 * alternation.
 */
#define XBAR_TILES 8
static int64_t xbar_period(const struct inputs *acc, int n_in, int64_t lat,
	int64_t turn, int64_t fifo)
{
	int64_t at[POLY_MAX_GROUPS], done[POLY_MAX_GROUPS] = { 0 };
	int64_t free = 0, end[XBAR_TILES];
	int k, g, mode = 0;

	for (k = 0; k < XBAR_TILES; k++) {
		for (g = 0; g < n_in; g++)
			at[g] = done[g] + lat;
		free = xbar_turn(acc, n_in, mode, free, at, fifo, done) + turn;
		end[k] = free = xbar_turn(acc, n_in, !mode, free, at, fifo,
			done);
		mode = !mode;
	}
	return ceil_div(end[XBAR_TILES - 1] - end[XBAR_TILES - 3], 2);
}

/* The inputs of one L1 tile.  Each group has its own port and, in the
 * daisy chain, its own chain; on the multicast crossbar unicast and
 * multicast transfers are never in flight together, so the unicast groups'
 * transfers and the multicast ones take turns, with a drain of the
 * crossbar between.  A tile's L3 modules wait the DRAM latency, then send
 * their beats as fast as the port, the network and the board's bandwidth
 * allow.  Returns 0 on overflow.
 */
static int load_tile(const sim_model *m, const struct point *p, double hz,
	struct inputs *acc)
{
	int64_t beats = 0, uni = 0, multi = 0, net, bw, turn = 0;
	int64_t xw[POLY_MAX_GROUPS];
	double bpc = m->bytes_per_s / hz;
	int g;

	memset(acc, 0, sizeof(*acc));
	for (g = 0; g < m->n_in; g++) {
		int mc = p->net == SIM_NET_MULTICAST && m->in[g].multicast;
		int64_t b = load_group(m, p, g, mc, acc);

		if (b < 0)
			return 0;
		beats = max64(beats, b);
		if (mc)
			multi = max64(multi, b);
		else
			uni = max64(uni, b);
	}
	net = p->net == SIM_NET_MULTICAST ? uni + multi : max64(uni, multi);
	/* A change of mode waits for the last transfer to reach its
	 * targets, then for the switch (cycle.c).
	 */
	if (uni > 0 && multi > 0 && p->net == SIM_NET_MULTICAST) {
		turn = arch_multicast_switch(p->n_pe) +
			arch_multicast_levels(p->n_pe) - 1;
		net += turn;
	}
	/* The ports share the board's bandwidth. */
	acc->chan = acc->dram_words * m->bytes / bpc;
	bw = (int64_t) ceil(acc->dram_words * m->bytes * hz / m->bytes_per_s);
	acc->lat = m->n_in > 0 ? m->dram_latency : 0;
	acc->load = max64(beats, bw) + acc->lat;
	/* On the crossbar a group waits for the other mode's turn, and its
	 * L3 module runs at most a FIFO ahead of its port (xbar_period).
	 */
	if (turn > 0)
		acc->load = max64(acc->load, xbar_period(acc, m->n_in,
			acc->lat, turn, m->logic.fifo_depth));
	acc->xfer = max64(max64(beats, net), bw);
	acc->net = net;
	/* Each group's data waits for the bursts granted before it; on the
	 * crossbar the two modes' turns follow each other in either order.
	 */
	group_xfer(acc, m->n_in, bpc, xw);
	acc->xfer2 = acc->xfer;
	if (p->net == SIM_NET_MULTICAST) {
		acc->xfer = max64(acc->xfer, order_xfer(acc, m->n_in, xw, 0,
			turn));
		acc->xfer2 = max64(acc->xfer2, order_xfer(acc, m->n_in, xw, 1,
			turn));
	} else {
		for (g = 0; g < m->n_in; g++)
			acc->xfer = max64(acc->xfer, xw[g]);
		acc->xfer2 = acc->xfer;
	}
	return 1;
}

/* The drain of the outputs: each output tile leaves through its port (the
 * packing of its run) and the bandwidth of the board, after crossing the
 * chain of PE rows.  Returns 0 on overflow.
 */
static int drain_all(const sim_model *m, const struct point *p,
	int64_t n_tiles, double hz, struct outputs *acc)
{
	int g, l, ovf = 0;

	memset(acc, 0, sizeof(*acc));
	for (g = 0; g < m->n_out; g++) {
		const sim__output *o = &m->out[g];
		int64_t n_out = o->every_tile ? n_tiles : 1, words, cost, bw, all;

		/* A product of some of the tile counts: at most n_tiles. */
		for (l = 0; l < m->band && !o->every_tile; l++)
			if (o->loop_mask >> l & 1u)
				n_out *= p->n[l];
		words = fp_words(&o->fp, p->t1);
		bw = (int64_t) ceil((double) words * m->bytes * hz /
			m->bytes_per_s);
		cost = max64(ceil_div(words, pack(fp_run(&o->fp, p->t1),
			m->port_words)), bw) + p->p[0];
		all = cmul(n_out, cost, &ovf);
		acc->n[g] = n_out;
		acc->cost[g] = cost;
		acc->chan[g] = (double) words * m->bytes * hz / m->bytes_per_s;
		if (all > acc->worst) {
			acc->worst = all;
			acc->worst_group = o->group;
		}
		acc->dram_words += (double) n_out * (double) words;
		acc->hops += (double) n_out * (double) words *
			(double) (p->p[0] + 1) / 2.0;
		acc->buf += (double) n_out * (double) words;
	}
	return !ovf;
}

/* Cycles of a point, on the timeline the cycle simulation follows
 * (cycle.c), in closed form for tiles of full size.  A tile's inputs take
 * "occ" cycles of their L3 modules (the DRAM latency, then the beats) and
 * reach the last line buffer "reach" cycles later: the load takes
 * d = occ + reach.  The PE takes "step" cycles a tile.  Double-buffered,
 * the load of tile t+1 may start when tile t-1 is done and its L3 module
 * has sent tile t, so tiles follow each other every
 * max(step, occ, (d + step) / 2) cycles; without double buffering every
 * tile loads after the one before is done: d + step.  The results of a
 * tile are final "tail" cycles after PE (0, 0) is done (the wavefront
 * across the array and the accumulation), and each output tile then
 * crosses the rows to its port (its drain's cost).  Double-buffered,
 * a group's drains run one after the other from its first output tile
 * on; without, the first tile of an output tile waits for the drain of
 * the one before beyond its own load.  -1 on overflow.
 */
static int64_t run_cycles(const sim_model *m, const struct point *p,
	int64_t n_tiles, const struct inputs *in, int64_t step,
	const struct outputs *o)
{
	int64_t d = in->lat + in->xfer + in->reach, t, done, end, first;
	int64_t d2 = in->lat + in->xfer2 + in->reach, stall;
	int64_t tail = p->sum_p - m->n_space + m->acc_latency;
	int g, ovf = 0;

	if (p->db) {
		t = max64(max64(step, in->load), max64(in->net,
			ceil_div(d + step, 2)));
		done = cadd(d + step, cmul(n_tiles - 1, t, &ovf), &ovf);
	} else {
		/* The tiles alternate between the crossbar's two orders
		 * (order_xfer), the first unicast first.
		 */
		t = d + step;
		done = cadd(cmul(n_tiles - n_tiles / 2, t, &ovf),
			cmul(n_tiles / 2, d2 + step, &ovf), &ovf);
	}
	end = cadd(done, tail, &ovf);
	for (g = 0; g < m->n_out; g++) {
		int64_t n = o->n[g], c = o->cost[g], at;

		if (p->db) {
			first = cadd(d + step, cmul(n_tiles / n - 1, t, &ovf),
				&ovf);
			at = max64(done + tail + c, cadd(first + tail,
				cmul(n, c, &ovf), &ovf));
		} else {
			/* The next tile's loads start when this one is
			 * done and share the DRAM channel with the drain,
			 * which must end before the next output tile's
			 * first tile starts (cycle.c's out_slot).
			 */
			int64_t ch = at_cycle(in->chan + o->chan[g]);

			stall = max64(0, max64(tail + c, ch) - (d + d2) / 2);
			at = cadd(cadd(done, cmul(n - 1, stall, &ovf), &ovf),
				tail + c, &ovf);
		}
		end = max64(end, at);
	}
	return ovf ? -1 : end;
}

/* The view of a point's tiling the resource model (resource.c) reads. */
static void shape_of(const struct point *p, sim__shape *sh)
{
	sh->t1 = p->t1;
	sh->t2 = p->t2;
	sh->lat = p->lat;
	sh->pe = p->pe;
	sh->p = p->p;
	sh->s = p->s;
	sh->n_pe = p->n_pe;
	sh->max_p = p->max_p;
	sh->net = p->net;
	sh->db = p->db;
}

/* DSP, BRAM18K, URAM, LUT and FF of a legal point.  Returns SIM_OK or
 * SIM_TOO_LARGE.
 */
static int point_resources(const sim_model *m, const struct point *p,
	sim_metrics *out)
{
	sim__shape sh;

	shape_of(p, &sh);
	return sim__resources(m, &sh, out, NULL, NULL);
}

/* Energy of the whole run: MACs (the padded tiles compute too), their
 * register accesses, local-buffer accesses (line buffers written and read
 * once per word, per-PE buffers read and written once per S-lane step),
 * network hops and DRAM words, each times its cost relative to a MAC.
 */
static double point_energy(const sim_model *m, const struct point *p,
	double n_tiles, double comp_steps, const struct inputs *in,
	const struct outputs *o)
{
	const arch_energy *e = &m->energy;
	double macs = n_tiles * (double) p->n_pe * comp_steps *
		(double) p->s * m->macs_per_point;
	double buf = n_tiles * in->buf + o->buf;
	double units;
	int g;

	for (g = 0; g < m->n_buf; g++)
		if (m->buf[g].per_pe)
			buf += 2.0 * n_tiles * (double) p->n_pe * comp_steps;
	units = macs * (1.0 + e->rf * e->rf_per_mac) +
		e->hop * (n_tiles * in->hops + o->hops) + e->buffer * buf +
		e->dram * (n_tiles * in->dram_words + o->dram_words);
	return units * m->lane.pj_per_mac * 1e-12;
}

/* What bounds a legal point: the resource busiest over the run, from the
 * figures point_time already has (bound_by in sim.h).  The PEs are busy
 * "comp" cycles a tile, a group's I/O network its port beats, chain or
 * feed a tile, a drain module its drains, and the DRAM channel the bytes
 * of the loads and the drains at the board's bandwidth.  Ties go to the
 * first of compute, io, drain, dram.
 */
static void point_bound(int64_t n_tiles, int64_t comp,
	const struct inputs *in, const struct outputs *o, double dram,
	sim_metrics *out)
{
	double busy = (double) n_tiles * (double) comp;

	out->bound_by = SIM_BOUND_COMPUTE;
	out->bound_group = -1;
	if ((double) n_tiles * (double) in->io > busy) {
		busy = (double) n_tiles * (double) in->io;
		out->bound_by = SIM_BOUND_IO;
		out->bound_group = in->io_group;
	}
	if ((double) o->worst > busy) {
		busy = (double) o->worst;
		out->bound_by = SIM_BOUND_DRAIN;
		out->bound_group = o->worst_group;
	}
	if (dram > busy) {
		busy = dram;
		out->bound_by = SIM_BOUND_DRAM;
		out->bound_group = -1;
	}
	busy /= (double) out->cycles;
	out->bound_share = busy < 1.0 ? busy : 1.0;
}

/* Cycles, clock, traffic and energy of a legal point.  Returns SIM_OK or
 * SIM_TOO_LARGE.
 */
static int point_time(const sim_model *m, const struct point *p,
	sim_metrics *out)
{
	struct inputs in;
	struct outputs o;
	int64_t n_tiles = 1, comp, ii = 1, total;
	double mhz = m->mhz, hz;
	int l, ovf = 0;

	if (p->net == SIM_NET_MULTICAST)
		mhz *= arch_multicast_clock(p->max_p);
	hz = mhz * 1e6;
	for (l = 0; l < m->band; l++)
		n_tiles = cmul(n_tiles, p->n[l], &ovf);
	comp = compute_cycles(m, p, &ii);
	if (ovf || comp < 0 || !load_tile(m, p, hz, &in) ||
	    !drain_all(m, p, n_tiles, hz, &o))
		return SIM_TOO_LARGE;
	total = run_cycles(m, p, n_tiles, &in, max64(comp, in.feed), &o);
	if (total < 0)
		return SIM_TOO_LARGE;
	out->cycles = (uint64_t) total;
	out->mhz = mhz;
	out->latency_s = (double) total / hz;
	out->gops = m->ops / out->latency_s / 1e9;
	out->ii = (int32_t) ii;
	if (!sim__count((double) n_tiles * in.dram_words * m->bytes +
			o.dram_words * m->bytes, &out->offchip_bytes))
		return SIM_TOO_LARGE;
	out->energy_j = point_energy(m, p, (double) n_tiles,
		(double) (comp / ii), &in, &o);
	out->edp = out->energy_j * out->latency_s;
	point_bound(n_tiles, comp, &in, &o, (double) out->offchip_bytes * hz /
		m->bytes_per_s, out);
	return SIM_OK;
}

void sim_eval(const sim_model *model, const int32_t *knobs, sim_metrics *out)
{
	struct point p;

	memset(out, 0, sizeof(*out));
	out->status = read_point(model, knobs, &p);
	if (out->status == SIM_OK)
		out->status = point_time(model, &p, out);
	if (out->status == SIM_OK)
		out->status = point_resources(model, &p, out);
	if (out->status != SIM_OK) {
		int st = out->status;

		memset(out, 0, sizeof(*out));
		out->status = st;
		return;
	}
	out->n_pe = p.n_pe;
	out->pe_rows = (int32_t) p.p[0];
	out->pe_cols = (int32_t) (model->n_space > 1 ? p.p[1] : 1);
}

int sim__read_point(const sim_model *m, const int32_t *knobs, sim__point *out)
{
	struct point p;
	int st = read_point(m, knobs, &p), l;

	memset(out, 0, sizeof(*out));
	if (st != SIM_OK)
		return st;
	out->comp = compute_cycles(m, &p, &out->ii);
	if (out->comp < 0)
		return SIM_TOO_LARGE;
	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		out->t1[l] = p.t1[l];
		out->t2[l] = p.t2[l];
		out->lat[l] = p.lat[l];
		out->pe[l] = p.pe[l];
		out->n[l] = p.n[l];
	}
	for (l = 0; l < POLY_MAX_SPACE; l++)
		out->p[l] = l < m->n_space ? p.p[l] : 1;
	out->s = p.s;
	out->n_pe = p.n_pe;
	out->sum_p = p.sum_p;
	out->max_p = p.max_p;
	out->per_l2 = p.per_l2;
	out->net = p.net;
	out->db = p.db;
	return SIM_OK;
}

int64_t sim__line_tile(const sim_model *m, const sim__point *p,
	unsigned dir0, const int64_t *tile, int64_t *line)
{
	return line_tile(m, p->lat, dir0, tile, line);
}

int64_t sim__lines(const sim_model *m, const int64_t *lat, unsigned dir0,
	const int64_t *tile, int64_t *line)
{
	return line_tile(m, lat, dir0, tile, line);
}

int64_t sim__footprint_run(const sim__footprint *fp, const int64_t *tile)
{
	return fp_run(fp, tile);
}

int64_t sim__pack(int64_t run, int64_t cap)
{
	return pack(run, cap);
}

/* Lower bounds of the resources, for pruning: the PEs' share of
 * sim__resources' sums (resource.c), which every other term only adds to.
 * An illegal point's bounds are 0 and its status is the one sim_eval
 * gives.
 */
void sim_bound(const sim_model *model, const int32_t *knobs,
	sim_metrics *lower)
{
	struct point p;
	sim__shape sh;

	memset(lower, 0, sizeof(*lower));
	lower->status = read_point(model, knobs, &p);
	if (lower->status != SIM_OK)
		return;
	shape_of(&p, &sh);
	sim__res_bound(model, &sh, lower);
}
