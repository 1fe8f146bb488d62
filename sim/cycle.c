/* sim: the cycle-level simulator of a generated systolic array.
 *
 * The simulated array is the one the analytic model (model.c) describes
 * for a design point: the same tiles, PEs, PE lines, packing and network.
 * What is simulated, and at which grain:
 *
 * - DRAM is one channel of the board's bandwidth (bytes per cycle, a
 *   fraction) shared by every port.  Each load or drain transfer is cut
 *   into bursts of "burst_bytes"; the bursts of the input groups of a tile
 *   are granted round-robin, first come first served with the drains.  A
 *   beat of a burst arrives "dram_latency" cycles after its burst was
 *   granted plus its share of the burst's transfer time, and a port takes
 *   at most one beat a cycle.  Padded tiles read only their real data.
 * - Every input group has an L3 module (its port) and, on the daisy chain,
 *   one L2 module per PE line, in a chain: the L3 module sends the tile
 *   line by line, every L2 module keeps its own line's beats (one cycle
 *   each, into its ping-pong buffer) and forwards the others (one cycle
 *   each) through a FIFO of "fifo_depth" beats.  Every beat is simulated
 *   through every hop with the departure-time recurrence of a tandem of
 *   queues with blocking: a module finishes a beat one cycle after both
 *   the beat arrived and it finished the previous one, and may not push
 *   the beat while the FIFO ahead holds "fifo_depth" beats the next module
 *   has not started on.  This is exactly what a cycle-by-cycle run of the
 *   same modules gives, without ticking idle cycles.
 * - On the multicast crossbar every group's L3 module feeds one shared
 *   crossbar that takes a beat a cycle and delivers it after
 *   arch_multicast_levels() cycles to all its targets; unicast transfers
 *   (interior groups) and multicast ones are never in flight together: a
 *   change of mode waits for the crossbar to drain and costs
 *   arch_multicast_switch() cycles.
 * - The PEs of the array are identical and receive the same amount of
 *   data per tile, so they run in lock step: PE (r, c) is PE (0, 0)
 *   delayed by r + c cycles (the wavefront).  PE (0, 0) is simulated tile
 *   by tile: it starts a tile when the tile's inputs are in every line
 *   buffer, it has finished the previous tile, and the output buffer the
 *   tile accumulates into has been drained; it then takes max(compute,
 *   feed) cycles, compute being the tile's iterations S at a time at the
 *   initiation interval, feed the words its line's I/O module sends it.
 *   The results of a tile are final the accumulation latency after the
 *   last PE issued its last operation.
 * - Double buffering gives two buffers per line and per PE accumulator:
 *   the load of tile t+1 may start when tile t-1 has been computed, and
 *   an output tile may start once the drain of the output tile two before
 *   it has finished.  Without it there is one of each and every step
 *   waits for the one before.
 * - Each output group has a drain module: when the last tile of an output
 *   tile has been computed, its words leave through the chain of PE rows
 *   (a beat a cycle after crossing the rows) and go to DRAM in bursts.
 *
 * The simulation runs over a window of consecutive tiles from a cold
 * array (every module idle at cycle 0); the full simulation is the window
 * of all tiles, and the sampled model (cycle_sample.c) runs short windows.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "cycle_internal.h"

static inline double maxd(double a, double b)
{
	return a > b ? a : b;
}

/* The first whole cycle at or after a time: a value an epsilon above an
 * integer is that integer, so that sums of exact fractions stay exact.
 */
static inline int64_t cycle_at(double t)
{
	return (int64_t) ceil(t - 1e-6);
}

/* cycle_at without the call into libm (the truncation, plus one when it
 * fell below: exact for every time an int64_t holds), for the sampled
 * model's burst loops, whose values would not stay in registers across
 * the call.
 */
static inline int64_t cycle_at_inline(double t)
{
	double x = t - 1e-6;
	int64_t i = (int64_t) x;

	return i + ((double) i < x);
}

/* Beats of one burst: the burst's bytes over the bytes of a beat. */
static int64_t burst_beats(const sim_cycle_opts *o, const sim_model *m,
	int64_t pk)
{
	double beat = (double) pk * m->bytes;
	int64_t b = o->burst_bytes > 0 ? (int64_t) (o->burst_bytes / beat) :
		(int64_t) (16.0 * (double) m->port_words * m->bytes / beat);

	return b < 1 ? 1 : b;
}

/* The bursts of an input group's tile of "bytes" (see load_bursts_set). */
static void bursts_of(const struct cyc *c, const struct cyc_in *ci,
	double bytes, struct cyc_bursts *lb)
{
	int64_t n = ci->beats - (ci->nb - 1) * ci->bb;

	lb->nb = ci->nb;
	lb->full_bytes = bytes * (double) ci->bb / (double) ci->beats;
	lb->full_time = lb->full_bytes / c->bpc;
	lb->last_bytes = bytes * (double) n / (double) ci->beats;
	lb->last_time = lb->last_bytes / c->bpc;
}

/* An input group on this point: the chain beats per line and tile, the
 * DRAM bytes of a full tile, the beats of a burst, and the costs of a full
 * tile's transfer (from the expressions every tile's uses).
 */
static void setup_input(struct cyc *c, int g)
{
	const sim_model *m = c->m;
	const sim__point *p = &c->p;
	const sim__input *in = &m->in[g];
	struct cyc_in *ci = &c->in[g];
	int64_t lt[POLY_MAX_LOOPS], dt[POLY_MAX_LOOPS], w_line, words, pk;
	const int64_t *tile = m->l2 ? p->t2 : p->t1;

	ci->xbar = p->net == SIM_NET_MULTICAST;
	ci->mc = ci->xbar && in->multicast;
	ci->lines = sim__line_tile(m, p, in->dir0_mask, p->t1, lt);
	w_line = sim__footprint_words(&in->fp, lt);
	if (ci->mc) {
		words = sim__footprint_words(&in->fp, tile);
		pk = sim__pack(sim__footprint_run(&in->fp, p->t1),
			m->port_words);
		ci->bl = dse_cdiv(sim__footprint_words(&in->fp, p->t1), pk);
		ci->chain = 1;
	} else {
		int64_t strips = sim__line_tile(m, p, in->dir0_mask, tile,
			dt);

		words = strips * sim__footprint_words(&in->fp, dt);
		pk = sim__pack(sim__footprint_run(&in->fp, lt), m->port_words);
		ci->bl = dse_cdiv(w_line, pk);
		ci->chain = ci->xbar ? 1 : ci->lines;
	}
	ci->beats = ci->mc ? ci->bl : ci->lines * ci->bl;
	ci->bytes = (double) words * m->bytes / (double) p->per_l2;
	ci->fp_full = (double) sim__footprint_words(&in->fp, p->t1);
	ci->bb = burst_beats(&c->o, m, pk);
	ci->nb = dse_cdiv(ci->beats, ci->bb);
	ci->share = ci->bytes / (double) ci->beats / c->bpc;
	bursts_of(c, ci, ci->bytes, &ci->whole);
	ci->feed = dse_cdiv(w_line, in->packed ? p->s :
		sim__pack(sim__footprint_run(&in->fp, p->pe), p->s));
}

static void setup_output(struct cyc *c, int g)
{
	const sim_model *m = c->m;
	const sim__output *o = &m->out[g];
	struct cyc_out *co = &c->out[g];
	int64_t words = sim__footprint_words(&o->fp, c->p.t1);
	int64_t pk = sim__pack(sim__footprint_run(&o->fp, c->p.t1),
		m->port_words);

	co->beats = dse_cdiv(words, pk);
	co->bytes = (double) words * m->bytes;
	co->fp_full = (double) words;
	co->bb = burst_beats(&c->o, m, pk);
}

/* The per-beat state in one block (a sampled run takes microseconds, and
 * one allocation instead of four is a part of it): the rings, the last
 * departures, the statistics and the grants, all of 8-byte members.
 */
static int cyc_alloc(struct cyc *c)
{
	size_t units = (size_t) c->n_in * c->n_stage;
	size_t n_ring = units * c->stride + 1, n_last = units + 1;
	size_t n_stat = (units + 1) * (sizeof(struct cyc_stat) /
		sizeof(int64_t));
	size_t n_grant = (size_t) (c->n_in + 1) * c->max_bursts;
	int64_t *block = malloc(sizeof(int64_t) * (n_ring + n_last + n_stat +
		n_grant));

	if (!block)
		return 0;
	c->ring = block;
	c->last = c->ring + n_ring;
	c->stat = (struct cyc_stat *) (c->last + n_last);
	memset(c->stat, 0, sizeof(int64_t) * n_stat);
	c->grant = (double *) (c->last + n_last + n_stat);
	c->n_state = n_ring + n_last + n_stat;
	return 1;
}

/* Fills the point-dependent constants and allocates the per-beat state.
 * Returns 0 when out of memory.
 */
int sim__cyc_init(struct cyc *c, const sim_model *m, const sim__point *p,
	const sim_cycle_opts *opt, double hz)
{
	int64_t max_chain = 1, max_bursts = 1, feed = 0;
	int g, l;

	memset(c, 0, sizeof(*c));
	c->m = m;
	c->p = *p;
	if (opt)
		c->o = *opt;
	c->depth = c->o.fifo_depth > 0 ? c->o.fifo_depth : 2;
	c->bpc = m->bytes_per_s / hz;
	c->lat = m->dram_latency;
	c->levels = arch_multicast_levels(p->n_pe);
	c->sw = arch_multicast_switch(p->n_pe);
	c->skew = p->sum_p - m->n_space;
	c->pipe = m->acc_latency;
	c->rows = p->p[0];
	c->n_in = m->n_in;
	c->n_out = m->n_out;
	for (g = 0; g < m->n_in; g++) {
		setup_input(c, g);
		max_chain = dse_max64(max_chain, c->in[g].chain);
		max_bursts = dse_max64(max_bursts, c->in[g].nb);
		feed = dse_max64(feed, c->in[g].feed);
	}
	for (g = 0; g < m->n_out; g++)
		setup_output(c, g);
	c->step = dse_max64(p->comp, feed);
	c->n_tiles = 1;
	for (l = 0; l < m->band; l++)
		c->n_tiles *= p->n[l];
	c->stride = (size_t) (c->depth + 1);
	c->n_stage = (size_t) max_chain + 1;
	c->max_bursts = (size_t) max_bursts;
	return cyc_alloc(c);
}

void sim__cyc_fini(struct cyc *c)
{
	free(c->ring);
	c->ring = c->last = NULL;
	c->stat = NULL;
	c->grant = NULL;
}

/* Resets the dynamic state: a cold array at cycle 0. */
static void cyc_reset(struct cyc *c)
{
	size_t n = (size_t) c->n_in * c->n_stage;

	memset(c->last, 0, sizeof(int64_t) * n);
	memset(c->stat, 0, sizeof(struct cyc_stat) * n);
	memset(&c->run, 0, sizeof(c->run));
}

/* The tile's multi-index (loop 0 outermost) from its number. */
static void tile_index(const struct cyc *c, uint64_t t, int64_t *idx)
{
	int l;

	for (l = c->m->band - 1; l >= 0; l--) {
		idx[l] = (int64_t) (t % (uint64_t) c->p.n[l]);
		t /= (uint64_t) c->p.n[l];
	}
}

/* The real (unpadded) size of a tile along each band loop; 0 for a tile
 * wholly in the padding.  With a second tiling level the L1 tiles of an
 * L2 tile are consecutive along each loop.
 */
static inline int64_t clip_one(const struct cyc *c, int l, int64_t i)
{
	const sim_model *m = c->m;
	int64_t org = i * c->p.t1[l], clip;

	/* The divisions only with a second level: this runs twice a
	 * simulated tile.
	 */
	if (m->l2) {
		int64_t r = c->p.t2[l] / c->p.t1[l];

		org = i / r * c->p.t2[l] + i % r * c->p.t1[l];
	}
	clip = m->extent[l] - org;
	return clip < 0 ? 0 : clip > c->p.t1[l] ? c->p.t1[l] : clip;
}

int64_t sim__cyc_clip1(const struct cyc *c, int l, int64_t i)
{
	return clip_one(c, l, i);
}

void sim__cyc_clip(const struct cyc *c, const int64_t *idx, int64_t *clip)
{
	int l;

	for (l = 0; l < POLY_MAX_LOOPS; l++)
		clip[l] = c->p.t1[l];
	for (l = 0; l < c->m->band; l++)
		clip[l] = clip_one(c, l, idx[l]);
}

/* The share of a full tile's footprint that a clipped tile really reads. */
static double clip_ratio(const struct cyc *c, const sim__footprint *fp,
	const int64_t *clip, double full)
{
	int l, whole = 1;

	for (l = 0; l < c->m->band; l++) {
		if (clip[l] == 0)
			return 0.0;
		whole &= clip[l] == c->p.t1[l];
	}
	/* A whole tile reads the full footprint ("full" is the footprint
	 * of t1, and x / x is exactly 1), with no footprint to work out.
	 */
	if (whole && full > 0)
		return 1.0;
	return (double) sim__footprint_words(fp, clip) / full;
}

/* Grants one burst of "b" bytes on the DRAM channel at "t". */
static double grant(struct cyc *c, double t, double b)
{
	c->run.ch_free = t + b / c->bpc;
	c->run.ch_busy += b / c->bpc;
	c->run.bytes += b;
	return t;
}

/* When the next burst of pending drain g is ready: a burst leaves once
 * its last beat has crossed the PE rows.
 */
static int64_t drain_ready(const struct cyc *c, int g)
{
	const struct cyc_drain *d = &c->run.drain[g];
	int64_t n = c->out[g].beats - d->k;

	n = n < c->out[g].bb ? n : c->out[g].bb;
	return d->ds + c->rows + d->k + n;
}

/* Grants the next burst of pending drain g at "t"; completes the drain
 * after its last burst.
 */
static void drain_burst(struct cyc *c, int g, double t)
{
	struct cyc_drain *d = &c->run.drain[g];
	const struct cyc_out *co = &c->out[g];
	int64_t n = co->beats - d->k < co->bb ? co->beats - d->k : co->bb;

	grant(c, t, d->bytes * (double) n / (double) co->beats);
	d->k += n;
	if (d->k < co->beats)
		return;
	d->pending = 0;
	d->end = dse_max64(d->ds + c->rows + co->beats, cycle_at(c->run.ch_free));
	c->out_stat[g].stall_out += (uint64_t) (d->end - d->ds - c->rows -
		co->beats);
	c->run.d_free[g] = d->end;
	c->run.d_end[g][d->oc % 2] = d->end;
	c->run.end = dse_max64(c->run.end, d->end);
}

/* Grants every burst of the pending drains, in turn, with nothing else
 * asking for the channel.
 */
static void flush_drains(struct cyc *c)
{
	int g;

	for (g = 0; g < c->n_out; g++)
		while (c->run.drain[g].pending)
			drain_burst(c, g, maxd(c->run.ch_free,
				(double) drain_ready(c, g)));
}

/* The bursts of input group g on a tile of "bytes": every burst but the
 * last is full, so their costs are worked out once per tile (once per
 * design for the full tiles), with the very expressions a burst-by-burst
 * evaluation would use: the channel's sums stay the same to the last bit.
 */
static void load_bursts_set(const struct cyc *c, int g, double bytes,
	struct cyc_bursts *lb)
{
	if (bytes == c->in[g].bytes)
		*lb = c->in[g].whole;
	else
		bursts_of(c, &c->in[g], bytes, lb);
}

/* Grants burst "b" of input group g when the channel is free (as grant
 * does, from the costs in "lb").
 */
static inline void grant_load(struct cyc *c, int g, int64_t b,
	const struct cyc_bursts *lb)
{
	double t = c->run.ch_free;
	int last = b + 1 == lb->nb;
	double time = last ? lb->last_time : lb->full_time;

	c->grant[(size_t) g * c->max_bursts + (size_t) b] = t;
	c->run.ch_free = t + time;
	c->run.ch_busy += time;
	c->run.bytes += last ? lb->last_bytes : lb->full_bytes;
}

/* Grants load bursts back to back while the channel frees before
 * "limit", the ports taking turns from *rr on (a round-robin position
 * over the ports, drains after loads, as in arbitrate); returns the
 * bursts still owed.  It is arbitrate's loop where that loop's choice is
 * known: every port with bursts left has asked and no drain is ready
 * before "limit", so the turn goes to the next load port.  The sums are
 * grant_load's, kept in registers (the stores into the grant table could
 * otherwise alias them).
 */
static int64_t grant_rest(struct cyc *c, int *rr, int64_t *next,
	const struct cyc_bursts *lb, int64_t left, double limit)
{
	double t = c->run.ch_free, busy = c->run.ch_busy;
	double bytes = c->run.bytes;
	int g = *rr < c->n_in ? *rr : 0, ports = c->n_in + c->n_out;

	for (; left > 0 && t < limit; g = g + 1 < c->n_in ? g + 1 : 0) {
		int64_t b = next[g];
		int last;
		double time;

		if (b >= lb[g].nb)
			continue;
		last = b + 1 == lb[g].nb;
		time = last ? lb[g].last_time : lb[g].full_time;
		c->grant[(size_t) g * c->max_bursts + (size_t) b] = t;
		t = t + time;
		busy += time;
		bytes += last ? lb[g].last_bytes : lb[g].full_bytes;
		next[g] = b + 1;
		left--;
		*rr = g + 1 < ports ? g + 1 : 0;
	}
	c->run.ch_free = t;
	c->run.ch_busy = busy;
	c->run.bytes = bytes;
	return left;
}

/* The earliest a pending drain has a burst ready (as arbitrate compares
 * it), or infinity when none is pending.
 */
static double drain_limit(const struct cyc *c)
{
	double limit = INFINITY;
	int g;

	for (g = 0; g < c->n_out; g++)
		if (c->run.drain[g].pending && (double) drain_ready(c, g) <
		    limit)
			limit = (double) drain_ready(c, g);
	return limit;
}

/* The DRAM arbiter for the loads of one tile: the ports that have a burst
 * ready when the channel is free take turns (round-robin), the L3 modules
 * (which ask for all their bursts at start[g]) and the pending drains;
 * when none is ready the channel idles until the first is.  Returns when
 * every load burst is granted; drains may stay pending.
 */
static void arbitrate(struct cyc *c, const int64_t *start,
	const double *bytes)
{
	int64_t next[POLY_MAX_GROUPS], nb[POLY_MAX_GROUPS], left = 0;
	struct cyc_bursts lb[POLY_MAX_GROUPS];
	int ports = c->n_in + c->n_out, rr = 0, g, ready;

	for (g = 0; g < c->n_in; g++) {
		next[g] = 0;
		load_bursts_set(c, g, bytes[g], &lb[g]);
		nb[g] = lb[g].nb;
		left += nb[g];
	}
	while (left > 0) {
		double now = c->run.ch_free, soon = 1e300;
		int i, pick = -1;

		/* Once every port with bursts left has asked, nothing but
		 * a drain changes the order: the ports take their turns back
		 * to back until the first drain is ready.
		 */
		for (g = 0, ready = 1; g < c->n_in && ready; g++)
			ready = next[g] >= nb[g] || (double) start[g] <= now;
		if (ready) {
			left = grant_rest(c, &rr, next, lb, left,
				drain_limit(c));
			if (left == 0)
				break;
			now = c->run.ch_free;
		}
		for (i = 0; i < ports && pick < 0; i++) {
			int q = rr + i < ports ? rr + i : rr + i - ports;
			double r;

			if (q < c->n_in) {
				if (next[q] >= nb[q])
					continue;
				r = (double) start[q];
			} else {
				if (!c->run.drain[q - c->n_in].pending)
					continue;
				r = (double) drain_ready(c, q - c->n_in);
			}
			if (r <= now)
				pick = q;
			soon = r < soon ? r : soon;
		}
		if (pick < 0) {
			c->run.ch_free = soon;
			continue;
		}
		rr = pick + 1 < ports ? pick + 1 : 0;
		if (pick >= c->n_in) {
			drain_burst(c, pick - c->n_in, now);
			continue;
		}
		grant_load(c, pick, next[pick]++, &lb[pick]);
		left--;
	}
}

/* Beat k of a group's tile at its L3 module: the DRAM port hands out a
 * beat a cycle once its data has arrived, and the module pushes it when
 * the FIFO ahead ("ahead", the ring of the next stage) has room, that is
 * when the beat a FIFO depth earlier has left it.  Updates the port time
 * *a, the module's last push *last and its statistics; returns the push.
 */
static int64_t l3_beat(const struct cyc *c, const struct cyc_in *ci,
	const double *grant, double share, int64_t k, int64_t start,
	int64_t *a, int64_t *last, const int64_t *ahead,
	struct cyc_stat *stat)
{
	int64_t d = c->depth, sst = (int64_t) c->stride, prev, t;
	double arrive = grant[k / ci->bb] + (double) c->lat +
		(double) (k % ci->bb + 1) * share;

	*a = dse_max64(k ? *a + 1 : start + 1, cycle_at(arrive));
	prev = dse_max64(*a, *last + 1);
	t = prev;
	if (k >= d)
		t = dse_max64(t, ahead[(k - d) % sst] - 1);
	if (k && *a > *last + 1)
		stat->stall_in += *a - *last - 1;
	stat->stall_out += t - prev;
	stat->busy++;
	*last = t;
	return t;
}

/* The beats of one group's tile through its L3 module and daisy chain.
 * Returns when the last line buffer holds its last beat.
 */
static int64_t chain_tile(struct cyc *c, int g, int64_t start, double bytes)
{
	struct cyc_in *ci = &c->in[g];
	size_t st = c->stride, base = (size_t) g * c->n_stage;
	int64_t *ring = c->ring + base * st, *last = c->last + base;
	struct cyc_stat *stat = c->stat + base;
	const double *grant = c->grant + (size_t) g * c->max_bursts;
	double share = bytes / (double) ci->beats / c->bpc;
	int64_t a = start, end = 0, k, d = c->depth, sst = (int64_t) st;

	for (k = 0; k < ci->beats; k++) {
		int64_t line = k / ci->bl, j, prev, t, slot = k % sst;

		t = l3_beat(c, ci, grant, share, k, start, &a, last,
			ring + st, stat);
		ring[slot] = t;
		/* The L2 modules up to the beat's own line: a cycle each. */
		for (j = 1; j <= line + 1; j++) {
			int64_t up = ring[(size_t) (j - 1) * st + (size_t) slot];

			prev = dse_max64(up, last[j]) + 1;
			t = prev;
			if (j <= line && k - d >= j * ci->bl)
				t = dse_max64(t, ring[(size_t) (j + 1) * st +
					(size_t) ((k - d) % sst)] - 1);
			if (k > (j - 1) * ci->bl && up > last[j])
				stat[j].stall_in += up - last[j];
			stat[j].stall_out += t - prev;
			stat[j].busy++;
			last[j] = t;
			ring[(size_t) j * st + (size_t) slot] = t;
		}
		end = dse_max64(end, t);
	}
	return end;
}

/* Line module statistics as chain_tile_fast finds its first beat, beat
 * k of "beats", leaving the L3 module at "t": its busy cycles and, stored
 * negated until the last beat's time is known, its input stalls.
 */
static inline void line_start(struct cyc_stat *st, int64_t beats, int64_t k,
	int64_t t)
{
	st->busy += (uint64_t) (beats - k);
	st->stall_in -= (uint64_t) t;
	st->stall_in -= (uint64_t) (beats - 1 - k);
}

/* The beats of one group's tile through its L3 module and daisy chain,
 * burst by burst instead of beat by beat; the sampled model's evaluation
 * of a chain, equal to chain_tile's in every figure a report shows (the
 * L2 modules' statistics are kept summed over the chain).
 *
 * Every module of the chain takes a beat a cycle and the L3 module sends
 * at most a beat a cycle, so a beat never waits in the chain: by
 * induction over the beats, beat k leaves L2 module j at t_k + j, t_k its
 * push at the L3 module, and no FIFO ever holds "fifo_depth" beats the
 * next module has not started on (the bound t_{k-d} + j is always below
 * t_k + j).  Nor does the L3 module wait for room, so t_k = a_k, its port
 * time.  Within a burst the arrivals are c_i = cycle_at(grant + latency +
 * (i + 1) share): when share <= 1 they come at least as fast as the port
 * takes them and t_k = max(t_{k0-1} + 1, c_{k0}) + (k - k0) from the
 * burst's first beat k0; when share > 1 each c_i is a cycle or more after
 * the one before and t_k = max(t_{k0-1} + (k - k0 + 1), c_k).  The chain
 * ends when the last beat reaches the last line, t_last + lines; module
 * j's busy cycles are the beats that cross it, and its input stalls the
 * gaps between them, t_last - t_{(j-1) bl} - (beats - 1 - (j-1) bl).
 * That needs t only at the line starts and the burst ends: O(bursts +
 * lines) per tile instead of O(beats x lines).
 */
static int64_t chain_tile_fast(struct cyc *c, int g, int64_t start,
	double bytes)
{
	struct cyc_in *ci = &c->in[g];
	size_t base = (size_t) g * c->n_stage;
	int64_t *last = c->last + base;
	struct cyc_stat *stat = c->stat + base;
	const double *grant = c->grant + (size_t) g * c->max_bursts;
	double share = bytes == ci->bytes ? ci->share : bytes /
		(double) ci->beats / c->bpc;
	double lat = (double) c->lat;
	int64_t beats = ci->beats, bb = ci->bb, bl = ci->bl, lines = ci->lines;
	int64_t t_prev = start, t0 = 0, k0, k1, j = 0, kl = 0, b = 0;
	/* The L2 modules' statistics are only ever read summed over the
	 * chain (sim__cyc_modules), so they are summed here, into the
	 * first module's entry.
	 */
	struct cyc_stat l2 = { 0, 0, 0 };

	if (beats <= 0)
		return 0;
	/* Burst b holds beats k0 = b bb .. k1, so a beat k of it is beat
	 * k - k0 of the burst; line j starts at beat kl = j bl.  The two
	 * cases of "share" have loops of their own.
	 */
	if (share <= 1.0) {
		for (k0 = 0; k0 < beats; k0 = k1 + 1, b++) {
			int64_t s = dse_max64(t_prev + 1, cycle_at_inline(grant[b] + lat +
				share));

			k1 = k0 + bb < beats ? k0 + bb - 1 : beats - 1;
			for (; j < lines && kl <= k1; j++, kl += bl)
				line_start(&l2, beats, kl, s + (kl - k0));
			t0 = k0 == 0 ? s : t0;
			t_prev = s + (k1 - k0);
		}
	} else {
		for (k0 = 0; k0 < beats; k0 = k1 + 1, b++) {
			double g0 = grant[b] + lat;

			k1 = k0 + bb < beats ? k0 + bb - 1 : beats - 1;
			for (; j < lines && kl <= k1; j++, kl += bl)
				line_start(&l2, beats, kl,
					dse_max64(t_prev + (kl - k0 + 1),
					cycle_at_inline(g0 + (double) (kl - k0 + 1) *
					share)));
			if (k0 == 0)
				t0 = dse_max64(start + 1, cycle_at_inline(g0 + share));
			t_prev = dse_max64(t_prev + (k1 - k0 + 1), cycle_at_inline(g0 +
				(double) (k1 - k0 + 1) * share));
		}
	}
	/* Only chain_tile reads the L2 modules' last departures. */
	stat[1].busy += l2.busy;
	stat[1].stall_in += l2.stall_in + (uint64_t) lines * (uint64_t) t_prev;
	stat[0].busy += (uint64_t) beats;
	stat[0].stall_in += (uint64_t) (t_prev - t0 - (beats - 1));
	last[0] = t_prev;
	return t_prev + lines;
}

/* The beats of one group's tile through its L3 module and the shared
 * crossbar.  Returns when the last beat has reached its targets.
 */
static int64_t xbar_tile(struct cyc *c, int g, int64_t start, double bytes)
{
	struct cyc_in *ci = &c->in[g];
	size_t st = c->stride, base = (size_t) g * c->n_stage;
	int64_t *ring = c->ring + base * st, *last = c->last + base;
	struct cyc_stat *stat = c->stat + base;
	const double *grant = c->grant + (size_t) g * c->max_bursts;
	double share = bytes / (double) ci->beats / c->bpc;
	int64_t a = start, end = 0, k, sst = (int64_t) st;

	/* A change between unicast and multicast drains the crossbar. */
	if (c->run.x_used && c->run.x_mode != ci->mc) {
		int64_t free_at = c->run.x_last + c->sw;

		for (k = 0; k < c->n_in; k++)
			c->run.x_free[k] = dse_max64(c->run.x_free[k], free_at);
	}
	c->run.x_mode = ci->mc;
	c->run.x_used = 1;
	for (k = 0; k < ci->beats; k++) {
		int64_t t, x;

		t = l3_beat(c, ci, grant, share, k, start, &a, last,
			ring + st, stat);
		/* Each input port of the crossbar takes a beat a cycle. */
		x = dse_max64(t, c->run.x_free[g]) + 1;
		c->run.x_busy++;
		c->run.x_free[g] = x;
		ring[st + (size_t) (k % sst)] = x;
		end = x + c->levels - 1;
	}
	c->run.x_last = dse_max64(c->run.x_last, end);
	return end;
}

/* Loads the inputs of the tile of real sizes "clip", whose buffers are
 * free from "ready":
 * every L3 module asks for its bursts once it has sent its previous tile.
 * Returns when every line buffer of every group holds the tile.
 */
static int64_t load_tile(struct cyc *c, const int64_t *clip, int64_t ready)
{
	int64_t start[POLY_MAX_GROUPS], end = ready;
	double bytes[POLY_MAX_GROUPS];
	int g, pass, mode;

	for (g = 0; g < c->n_in; g++) {
		start[g] = dse_max64(ready, c->last[(size_t) g * c->n_stage]);
		bytes[g] = c->in[g].bytes * clip_ratio(c, &c->m->in[g].fp, clip,
			c->in[g].fp_full);
	}
	arbitrate(c, start, bytes);
	/* On the crossbar the groups of its current mode go first. */
	mode = c->run.x_mode;
	for (pass = 0; pass < 2; pass++)
		for (g = 0; g < c->n_in; g++) {
			if (!c->in[g].xbar)
				end = pass ? end : dse_max64(end, c->fast ?
					chain_tile_fast(c, g, start[g],
					bytes[g]) : chain_tile(c, g, start[g],
					bytes[g]));
			else if ((c->in[g].mc == mode) == !pass)
				end = dse_max64(end, xbar_tile(c, g, start[g],
					bytes[g]));
		}
	return end;
}

/* Asks for the drain of output group g's tile whose last tile was
 * computed at "done" (its results final): it starts when the drain module
 * is free, its beats cross the PE rows a beat a cycle and leave in bursts
 * through the arbiter.  The drain before it is completed first.
 */
static void drain_tile(struct cyc *c, int g, const int64_t *clip,
	int64_t done, uint64_t oc)
{
	struct cyc_drain *d = &c->run.drain[g];

	if (d->pending)
		flush_drains(c);
	d->pending = 1;
	d->ds = dse_max64(done, c->run.d_free[g]);
	d->k = 0;
	d->oc = oc;
	d->bytes = c->out[g].bytes * clip_ratio(c, &c->m->out[g].fp, clip,
		c->out[g].fp_full);
	c->out_stat[g].busy += (uint64_t) c->out[g].beats;
	if (c->n_in == 0)
		flush_drains(c);
}

/* Whether output group g's tile changes between tiles "a" and "b". */
static int out_changes(const struct cyc *c, int g, const int64_t *a,
	const int64_t *b)
{
	const sim__output *o = &c->m->out[g];
	int l;

	if (o->every_tile)
		return 1;
	for (l = 0; l < c->m->band; l++)
		if ((o->loop_mask >> l & 1u) && a[l] != b[l])
			return 1;
	return 0;
}

/* Advances a multi-index to the next tile. */
static void next_index(const struct cyc *c, int64_t *idx)
{
	int l;

	for (l = c->m->band - 1; l >= 0; l--) {
		if (++idx[l] < c->p.n[l])
			return;
		idx[l] = 0;
	}
}

/* PE (0, 0) on tile "t": starts when its inputs are loaded, it is free
 * and its output buffers are drained; returns when it is done.
 */
static int64_t compute_tile(struct cyc *c, int64_t loaded, int64_t slot)
{
	int64_t free_pe = c->run.cend[0];
	int64_t start = dse_max64(dse_max64(free_pe, loaded), slot);

	c->pe.busy += (uint64_t) c->p.comp;
	c->pe.stall_in += (uint64_t) (dse_max64(free_pe, loaded) - free_pe +
		c->step - c->p.comp);
	c->pe.stall_out += (uint64_t) (start - dse_max64(free_pe, loaded));
	c->run.cend[1] = c->run.cend[0];
	c->run.cend[0] = start + c->step;
	return c->run.cend[0];
}

/* The output-buffer slot tile "first" of output tile number "oc" of group
 * g needs: free when the drain of output tile oc - slots has finished.
 */
static int64_t out_slot(struct cyc *c, int g, uint64_t oc)
{
	uint64_t slots = c->p.db ? 2 : 1;

	if (oc < slots)
		return 0;
	if (c->run.drain[g].pending && c->run.drain[g].oc == oc - slots)
		flush_drains(c);
	return c->run.d_end[g][(oc - slots) % 2];
}

static void cyc_save(const struct cyc *c, const struct cyc_cursor *u,
	struct cyc_snap *snap)
{
	snap->run = c->run;
	snap->cur = *u;
	snap->pe = c->pe;
	memcpy(snap->out_stat, c->out_stat, sizeof(c->out_stat));
	memcpy(snap->mem, c->ring, sizeof(int64_t) * c->n_state);
}

static void cyc_restore(struct cyc *c, struct cyc_cursor *u,
	const struct cyc_snap *snap)
{
	c->run = snap->run;
	*u = snap->cur;
	c->pe = snap->pe;
	memcpy(c->out_stat, snap->out_stat, sizeof(c->out_stat));
	memcpy(c->ring, snap->mem, sizeof(int64_t) * c->n_state);
}

/* One tile of a window ending at b: PE (0, 0) computes tile t once its
 * output buffers are free, the next tile's inputs load, and the output
 * tiles that end with it drain.
 */
static void window_tile(struct cyc *c, struct cyc_cursor *u, uint64_t t,
	uint64_t b, sim__cyc_hook hook, void *arg)
{
	int64_t nidx[POLY_MAX_LOOPS], nclip[POLY_MAX_LOOPS];
	int64_t slot = 0, done, ready;
	int g;

	for (g = 0; g < c->n_out; g++)
		if (u->first_of[g])
			slot = dse_max64(slot, out_slot(c, g, u->oc[g]));
	done = compute_tile(c, u->loaded, slot);
	memcpy(nidx, u->idx, sizeof(nidx));
	memcpy(nclip, u->clip, sizeof(nclip));
	if (t < b) {
		next_index(c, nidx);
		sim__cyc_clip(c, nidx, nclip);
		/* The buffer of tile t+1 held tile t+1-slots. */
		ready = c->p.db ? c->run.cend[1] : done;
		u->loaded = load_tile(c, nclip, ready);
	}
	for (g = 0; g < c->n_out; g++) {
		u->first_of[g] = t + 1 == c->n_tiles ||
			out_changes(c, g, u->idx, nidx);
		if (!u->first_of[g])
			continue;
		drain_tile(c, g, u->clip, done + c->skew + c->pipe,
			u->oc[g]++);
	}
	if (hook)
		hook(arg, t, done - u->prev_end);
	u->prev_end = done;
	memcpy(u->idx, nidx, sizeof(nidx));
	memcpy(u->clip, nclip, sizeof(nclip));
	u->done++;
}

int64_t sim__cyc_window_at(struct cyc *c, uint64_t a, uint64_t b,
	const struct cyc_snap *from, struct cyc_snap *save, uint64_t save_at,
	sim__cyc_hook hook, void *arg)
{
	struct cyc_cursor u;
	uint64_t t;
	int g;

	if (from) {
		cyc_restore(c, &u, from);
		tile_index(c, a + u.done, u.idx);
		sim__cyc_clip(c, u.idx, u.clip);
	} else {
		cyc_reset(c);
		memset(c->out_stat, 0, sizeof(c->out_stat));
		memset(&c->pe, 0, sizeof(c->pe));
		memset(&u, 0, sizeof(u));
		tile_index(c, a, u.idx);
		sim__cyc_clip(c, u.idx, u.clip);
		u.loaded = load_tile(c, u.clip, 0);
		for (g = 0; g < c->n_out; g++)
			u.first_of[g] = 1;
	}
	for (t = a + u.done; t <= b; t++) {
		if (save && u.done == save_at)
			cyc_save(c, &u, save);
		window_tile(c, &u, t, b, hook, arg);
	}
	flush_drains(c);
	c->run.cend_last = u.prev_end;
	c->run.wend = dse_max64(c->run.end, u.prev_end + c->skew + c->pipe);
	return c->run.wend;
}

int64_t sim__cyc_window(struct cyc *c, uint64_t a, uint64_t b,
	sim__cyc_hook hook, void *arg)
{
	return sim__cyc_window_at(c, a, b, NULL, NULL, 0, hook, arg);
}

uint64_t sim__cyc_alike(const struct cyc *c, uint64_t a1, uint64_t b1,
	uint64_t a2, uint64_t b2)
{
	int64_t i1[POLY_MAX_LOOPS] = { 0 }, i2[POLY_MAX_LOOPS] = { 0 };
	int64_t n1[POLY_MAX_LOOPS], n2[POLY_MAX_LOOPS];
	int64_t c1[POLY_MAX_LOOPS], c2[POLY_MAX_LOOPS];
	uint64_t p, most = b1 - a1 < b2 - a2 ? b1 - a1 : b2 - a2;
	size_t size = sizeof(int64_t) * (size_t) c->m->band;
	int g;

	tile_index(c, a1, i1);
	tile_index(c, a2, i2);
	sim__cyc_clip(c, i1, c1);
	sim__cyc_clip(c, i2, c2);
	if (memcmp(c1, c2, size))
		return 0;
	for (p = 0; p < most; p++) {
		memcpy(n1, i1, sizeof(n1));
		memcpy(n2, i2, sizeof(n2));
		next_index(c, n1);
		next_index(c, n2);
		sim__cyc_clip(c, n1, c1);
		sim__cyc_clip(c, n2, c2);
		if (memcmp(c1, c2, size))
			return p;
		for (g = 0; g < c->n_out; g++)
			if (out_changes(c, g, i1, n1) !=
			    out_changes(c, g, i2, n2))
				return p;
		memcpy(i1, n1, sizeof(i1));
		memcpy(i2, n2, sizeof(i2));
	}
	return p;
}

/* Writes "array_what" (or "what" for an empty array) into buf, cut to
 * fit and terminated.
 */
static void name_join(char *buf, size_t size, const char *array,
	const char *what)
{
	size_t n = 0;

	for (; *array && n + 1 < size; array++)
		buf[n++] = *array;
	if (n && n + 1 < size)
		buf[n++] = '_';
	for (; *what && n + 1 < size; what++)
		buf[n++] = *what;
	buf[n] = '\0';
}

/* Appends a module class; names are cut to fit. */
static void add_module(sim_cycle_report *out, const char *array,
	const char *what, int64_t count, int64_t summed,
	const struct cyc_stat *s)
{
	sim_module_stat *ms;
	uint64_t n = summed > 0 ? (uint64_t) summed : 1;

	if (out->n_modules >= SIM_MAX_MODULES)
		return;
	ms = &out->module[out->n_modules++];
	/* Not snprintf: the table is built on every sampled run, which
	 * takes microseconds, and formatting would be a tenth of it.
	 */
	name_join(ms->name, sizeof(ms->name), array, what);
	ms->count = (int) (count > INT32_MAX ? INT32_MAX : count);
	ms->busy = s->busy / n;
	ms->stall_in = s->stall_in / n;
	ms->stall_out = s->stall_out / n;
}

void sim__cyc_modules(const struct cyc *c, sim_cycle_report *out)
{
	const poly_template *t = &c->m->tmpl;
	struct cyc_stat s;
	int g;
	int64_t j;

	out->n_modules = 0;
	add_module(out, "", "PE", c->p.n_pe, 1, &c->pe);
	for (g = 0; g < c->n_in; g++) {
		const char *a = t->group[c->m->in[g].group].array;
		const struct cyc_stat *st = c->stat + (size_t) g * c->n_stage;

		add_module(out, a, "IO_L3", 1, 1, &st[0]);
		if (c->in[g].xbar)
			continue;
		memset(&s, 0, sizeof(s));
		for (j = 1; j <= c->in[g].chain; j++) {
			s.busy += st[j].busy;
			s.stall_in += st[j].stall_in;
			s.stall_out += st[j].stall_out;
		}
		add_module(out, a, "IO_L2", c->in[g].chain, c->in[g].chain,
			&s);
	}
	if (c->p.net == SIM_NET_MULTICAST && c->n_in > 0) {
		memset(&s, 0, sizeof(s));
		s.busy = (uint64_t) c->run.x_busy;
		add_module(out, "", "crossbar", 1, 1, &s);
	}
	for (g = 0; g < c->n_out; g++)
		add_module(out, t->group[c->m->out[g].group].array, "drain", 1,
			1, &c->out_stat[g]);
	/* The DRAM channel is busy while it transfers a burst and waits
	 * for input while no port asks for one; it never waits for room.
	 */
	memset(&s, 0, sizeof(s));
	s.busy = (uint64_t) cycle_at(c->run.ch_busy);
	if (c->run.wend > (int64_t) s.busy)
		s.stall_in = (uint64_t) c->run.wend - s.busy;
	add_module(out, "", "dram", 1, 1, &s);
}

/* Cycles, latency, throughput and energy-delay from simulated cycles. */
static void set_cycles(const sim_model *m, sim_cycle_report *out,
	uint64_t cycles)
{
	double hz = out->metrics.mhz * 1e6;

	out->metrics.cycles = cycles;
	out->metrics.latency_s = (double) cycles / hz;
	out->metrics.gops = m->ops / out->metrics.latency_s / 1e9;
	out->metrics.edp = out->metrics.energy_j * out->metrics.latency_s;
	out->cycles_low = out->cycles_high = (double) cycles;
}

/* Keeps "busy" cycles of resource "kind" (group g) as the bound when
 * they are more than the bound so far.
 */
static void keep_busiest(sim_metrics *m, double *most, double busy,
	int kind, int g)
{
	if (busy <= *most)
		return;
	*most = busy;
	m->bound_by = kind;
	m->bound_group = g;
}

/* What bounds the simulated design, as the simulation saw it: the
 * resource busiest over the run (the PEs, a group's I/O modules, the
 * crossbar, a drain, the DRAM channel), with the share of the cycles it
 * was busy.  The analytic model says the same from its formulas
 * (point_bound in model.c); bench_agree counts where they differ.  The
 * crossbar is charged to the input group whose modules were busiest.
 */
static void full_bound(const struct cyc *c, sim_cycle_report *out,
	int64_t end)
{
	sim_metrics *m = &out->metrics;
	double most = 0, io = 0;
	int g, io_group = -1;

	m->bound_by = SIM_BOUND_COMPUTE;
	m->bound_group = -1;
	keep_busiest(m, &most, (double) c->pe.busy, SIM_BOUND_COMPUTE, -1);
	for (g = 0; g < c->n_in; g++) {
		const struct cyc_stat *st = c->stat + (size_t) g * c->n_stage;
		double busy = (double) st[0].busy;

		for (int64_t j = 1; !c->in[g].xbar && j <= c->in[g].chain; j++)
			if ((double) st[j].busy > busy)
				busy = (double) st[j].busy;
		if (busy > io || io_group < 0) {
			io = busy;
			io_group = c->m->in[g].group;
		}
		keep_busiest(m, &most, busy, SIM_BOUND_IO,
			c->m->in[g].group);
	}
	if (c->p.net == SIM_NET_MULTICAST && io_group >= 0)
		keep_busiest(m, &most, (double) c->run.x_busy, SIM_BOUND_IO,
			io_group);
	for (g = 0; g < c->n_out; g++)
		keep_busiest(m, &most, (double) c->out_stat[g].busy,
			SIM_BOUND_DRAIN, c->m->out[g].group);
	keep_busiest(m, &most, (double) cycle_at(c->run.ch_busy),
		SIM_BOUND_DRAM, -1);
	m->bound_share = end > 0 ? most / (double) end : 0;
	if (m->bound_share > 1)
		m->bound_share = 1;
}

/* The full simulation: the window of every tile. */
static void run_full(struct cyc *c, sim_cycle_report *out)
{
	int64_t end = sim__cyc_window(c, 0, c->n_tiles - 1, NULL, NULL);
	double secs;

	set_cycles(c->m, out, (uint64_t) end);
	secs = out->metrics.latency_s;
	out->tiles_simulated = c->n_tiles;
	out->fraction = 1.0;
	out->pe_cycles = (uint64_t) c->p.n_pe * (uint64_t) end;
	out->dram_gbps = c->run.bytes / secs / 1e9;
	out->pe_utilisation = (double) c->pe.busy / (double) end;
	sim__cyc_modules(c, out);
	full_bound(c, out, end);
}

dse_stat sim_simulate(const sim_model *model, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	sim__point p;
	struct cyc c;
	int ok = 1;

	memset(out, 0, sizeof(*out));
	if (!model || !knobs || kind < 0 || kind >= SIM_N_MODEL_KINDS)
		return dse_error_set(err, DSE_E_RUNTIME,
			"sim_simulate: no model, no knobs or unknown model %d",
			kind);
	out->model = kind;
	sim_eval(model, knobs, &out->metrics);
	if (out->metrics.status != SIM_OK)
		return dse_stat_ok;
	if (sim__read_point(model, knobs, &p) != SIM_OK)
		return dse_stat_ok;
	out->tiles = 1;
	for (int l = 0; l < model->band; l++)
		out->tiles *= (uint64_t) p.n[l];
	out->cycles_low = out->cycles_high = (double) out->metrics.cycles;
	if (out->metrics.latency_s > 0)
		out->dram_gbps = (double) out->metrics.offchip_bytes /
			out->metrics.latency_s / 1e9;
	if (kind == SIM_MODEL_ANALYTIC)
		return dse_stat_ok;
	if (!sim__cyc_init(&c, model, &p, opt, out->metrics.mhz * 1e6))
		ok = 0;
	else if (kind == SIM_MODEL_FULL)
		run_full(&c, out);
	else
		ok = sim__cyc_sampled(&c, out);
	sim__cyc_fini(&c);
	if (!ok)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory in the cycle simulator");
	return dse_stat_ok;
}
