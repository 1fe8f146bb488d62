/* sim_scale: the SRAM buffers between the array and DRAM, replayed over
 * the layer's address streams.
 *
 * The streams.  Every fold presents the array with three demand matrices,
 * one row per cycle (fold after fold, column folds outermost): the words
 * of the IFMAP and of the FILTER each cycle reads and the OFMAP words it
 * writes.  A matrix is a tile of an operand (im2col IFMAP e x win, FILTER
 * win x k, OFMAP e x k) padded to the array's width, with rows of nothing
 * before it (a preload or the pipeline's fill) and after it (the drain),
 * and, where the operand enters the array skewed, column x delayed by x
 * cycles.  The words of a row are taken left to right; a tap that falls
 * past the IFMAP's edge reads nothing.  That is SCALE-Sim's layout of its
 * demand matrices (its compute/systolic_compute_*.py), which this file
 * walks without building them: "struct body" describes one tile and
 * row_addrs lists the words of one row.
 *
 * Read buffers, CALC mode.  A buffer of n words keeps its words in sets of
 * floor(n / 100); its active half is 50 sets.  A word the active half
 * already holds costs nothing; a new word joins the set being filled, and
 * when 50 sets are full the whole half is handed over and a fresh one
 * starts (so a word read again after that is fetched again).  DRAM reads
 * are the words the halves took.  The first half is fetched before the
 * first cycle at 10 words a cycle; each later one over the cycles since
 * the previous hand-over, which is where the report's start and stop
 * cycles and its DRAM bandwidth come from.  Nothing stalls.
 *
 * Read buffers, USER mode.  The buffer fetches its operand in a fixed
 * order (the prefetch order: the operand's tiles stacked fold after fold
 * and read along the anti-diagonals where the operand enters skewed), in
 * sets of ceil(n / 100) words; the active window holds ceil(n/2 / set)
 * sets.  A word outside the window moves the window on by the prefetch
 * half and costs a fetch of that half at the user's bandwidth, issued
 * right after the previous fetch; when that fetch ends after the cycle
 * the word is needed, the array stalls for the difference.  A fetch moves
 * whole lines of "bandwidth" words, so DRAM reads count whole lines.
 *
 * The write buffer.  Every OFMAP word written goes to DRAM.  Words are
 * packed into lines of "bandwidth" words (the array's width in CALC mode);
 * once more than half the buffer is used, the written lines (the line
 * being filled closed early) drain at a line a cycle; a word that finds the
 * buffer full while a drain is under way stalls the array until the drain
 * ends.  The free-space count credits a closed line as full unless it is
 * the last of its drain, and the DRAM writes in SCALE-Sim's report count
 * it the same way; res->dram_writes counts the words.
 *
 * Stalls of a cycle (USER mode: the largest of the three buffers') delay
 * every later cycle.  CALC mode never stalls a read, so there the write
 * buffer is replayed first and the reads see its stalls.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "scale_internal.h"

enum { IF = SIM_SCALE_IFMAP, FI = SIM_SCALE_FILTER, OF = SIM_SCALE_OFMAP };

/* SCALE-Sim's constants: a buffer is split into 100 sets and half of it is
 * active; CALC mode fetches the first active half at 10 words a cycle and
 * drains the OFMAP at the array's width; a fetch answers one cycle after
 * its request.
 */
#define SETS SIM_SCALE__SETS
#define ACTIVE_SETS 50
#define CALC_FIRST_BW 10

/* One tile of a fold's demand: rows u in [u_lo, u_n) of a tile x_hi wide
 * (the rest of the array's width reads nothing), after "prefix" empty
 * rows, skewed or not.  Entry (u, x) is the operand's element (i, j) =
 * (i0 + iu u + ix x, j0 + ju u + jx x): IFMAP (pixel, window index),
 * FILTER (window index, filter), OFMAP (pixel, filter).
 */
struct body {
	int op, skew;
	int64_t prefix, u_lo, u_n, x_hi;
	int64_t i0, iu, ix, j0, ju, jx;
};

static void set_ij(struct body *b, int64_t i0, int64_t iu, int64_t ix,
	int64_t j0, int64_t ju, int64_t jx)
{
	b->i0 = i0;
	b->iu = iu;
	b->ix = ix;
	b->j0 = j0;
	b->ju = ju;
	b->jx = jx;
}

/* The tile of operand "op" in fold (fc, fr), per dataflow (SCALE-Sim's
 * compute/systolic_compute_{os,ws,is}.py, create_*_demand_mat).
 */
static void make_body(const struct sim_scale__geom *g, int op, int64_t fc,
	int64_t fr, struct body *b)
{
	int64_t ar = g->arch->rows, ac = g->arch->cols, t = g->t;
	int64_t ur = dse_min64(ar, g->sr - fr * ar);
	int64_t uc = dse_min64(ac, g->sc - fc * ac);
	int df = g->arch->dataflow;

	memset(b, 0, sizeof(*b));
	b->op = op;
	b->skew = 1;
	b->u_n = t;
	b->x_hi = op == IF && df != SIM_SCALE_IS ? ur : uc;
	if (df == SIM_SCALE_OS) {
		if (op == IF)
			set_ij(b, fr * ar, 0, 1, 0, 1, 0);
		else if (op == FI)
			set_ij(b, 0, 1, 0, fc * ac, 0, 1);
		else {
			/* The finished outputs leave bottom row first. */
			b->prefix = t - 1;
			b->u_n = ar;
			b->u_lo = ar - ur;
			set_ij(b, fr * ar + ar - 1, -1, 0, fc * ac, 0, 1);
		}
		return;
	}
	if (op == OF) {
		b->prefix = 2 * ar - 1;
		if (df == SIM_SCALE_WS)
			set_ij(b, 0, 1, 0, fc * ac, 0, 1);
		else
			set_ij(b, fc * ac, 0, 1, 0, 1, 0);
		return;
	}
	if ((op == FI) == (df == SIM_SCALE_WS)) {
		/* The stationary tile, preloaded bottom row first. */
		b->skew = 0;
		b->u_n = ar;
		b->u_lo = ar - ur;
		if (op == FI)
			set_ij(b, fr * ar + ar - 1, -1, 0, fc * ac, 0, 1);
		else
			set_ij(b, fc * ac, 0, 1, fr * ar + ar - 1, -1, 0);
		return;
	}
	/* The streamed operand, after the preload's rows. */
	b->prefix = ar;
	b->x_hi = ur;
	if (op == IF)
		set_ij(b, 0, 1, 0, fr * ar, 0, 1);
	else
		set_ij(b, fr * ar, 0, 1, 0, 1, 0);
}

/* The rows [*d0, *d1) of a fold in which the tile may have words. */
static void body_rows(const struct body *b, int64_t *d0, int64_t *d1)
{
	*d0 = b->prefix + b->u_lo;
	*d1 = b->prefix + b->u_n + (b->skew ? b->x_hi - 1 : 0);
}

/* Row d of tile "b": how many words it has (0 when none), the indices
 * (*i, *j) of its first word and how they move from one word to the next.
 * A skewed tile's row runs along a diagonal of the demand matrix.
 */
static inline int64_t row_span(const struct body *b, int64_t d, int64_t *i,
	int64_t *j, int64_t *di, int64_t *dj)
{
	int64_t v = d - b->prefix, x0 = 0, x1 = b->x_hi, u;

	*di = b->ix;
	*dj = b->jx;
	if (b->skew) {
		x0 = dse_max64(0, v - (b->u_n - 1));
		x1 = dse_min64(b->x_hi, v - b->u_lo + 1);
		*di -= b->iu;
		*dj -= b->ju;
	} else if (v < b->u_lo || v >= b->u_n)
		return 0;
	if (x0 >= x1)
		return 0;
	u = b->skew ? v - x0 : v;
	*i = b->i0 + b->iu * u + b->ix * x0;
	*j = b->j0 + b->ju * u + b->jx * x0;
	return x1 - x0;
}

/* Writes the words of row d of the tile to "out", left to right, and
 * returns how many there are.
 */
static int64_t row_addrs(const struct tabs *tb, const struct body *b,
	int64_t d, int64_t *out)
{
	int64_t len, n = 0, x, i, j, di, dj;

	len = row_span(b, d, &i, &j, &di, &dj);
	if (b->op == IF) {
		for (x = 0; x < len; x++, i += di, j += dj)
			if (tb->jr[j] < tb->maxr[i] && tb->jc[j] < tb->maxc[i])
				out[n++] = tb->base[i] + tb->off[j];
	} else if (b->op == FI) {
		for (x = 0; x < len; x++, i += di, j += dj)
			out[n++] = j * tb->win + i;
	} else {
		for (x = 0; x < len; x++, i += di, j += dj)
			out[n++] = i * tb->k + j;
	}
	return n;
}

/* Builds the IFMAP's tables.  Returns -1 when memory runs out. */
static int tabs_init(struct tabs *tb, const struct sim_scale__geom *g)
{
	const sim_scale_layer *l = g->layer;
	int64_t p, j;

	memset(tb, 0, sizeof(*tb));
	tb->win = g->win;
	tb->k = g->k;
	tb->c = l->c;
	tb->r = l->r;
	tb->sc = l->s * l->c;
	tb->wc = l->w * l->c;
	tb->base = malloc(3 * (size_t) g->e * sizeof(int64_t));
	tb->off = malloc(3 * (size_t) g->win * sizeof(int64_t));
	if (!tb->base || !tb->off)
		return -1;
	tb->maxr = tb->base + g->e;
	tb->maxc = tb->maxr + g->e;
	tb->jr = tb->off + g->win;
	tb->jc = tb->jr + g->win;
	for (p = 0; p < g->e; p++) {
		int64_t y = p / g->out_w * l->stride_h;
		int64_t x = p % g->out_w * l->stride_w;

		tb->base[p] = (y * l->w + x) * l->c;
		tb->maxr[p] = l->h - y;
		tb->maxc[p] = l->w - x;
	}
	for (j = 0; j < g->win; j++) {
		int64_t r = j / (l->s * l->c), rest = j % (l->s * l->c);

		tb->jr[j] = r;
		tb->jc[j] = rest / l->c;
		tb->off[j] = (r * l->w + tb->jc[j]) * l->c + rest % l->c;
	}
	return 0;
}

static void tabs_free(struct tabs *tb)
{
	free(tb->base);
	free(tb->off);
}

/* ------------------------------------------------------------------ */
/* Read buffers, CALC mode. */

struct calc_rd {
	uint32_t half;		/* the half being filled, from 1 */
	int64_t fill, cap;	/* words taken into it, 50 sets */
	int64_t set_words;
	int64_t handovers;
	int64_t last_row;	/* the row of the last hand-over */
	int64_t last_x;		/* its word in that row (IFMAP) */
	/* The FILTER's tiles: the positions [lo, hi) of tile id the half
	 * "gen" holds.
	 */
	uint32_t *gen;
	int64_t *lo, *hi;
	int64_t *len;		/* a tile's words + 1, once known */
	int64_t last_fold, last_pos;	/* a hand-over inside a tile */
};

/* The DRAM figures of a CALC read buffer that took "taken" words in
 * "handovers" hand-overs (read_buffer_estimate_bw.py: the first half is
 * fetched before the first request at 10 words a cycle; the last fetch
 * ends a cycle after the last hand-over).
 */
static void calc_report(int64_t set_words, int64_t taken, int64_t handovers,
	int64_t first_req, int64_t last_handover, int64_t *start,
	int64_t *stop)
{
	if (!handovers) {
		int64_t sets = dse_cdiv(taken, set_words);

		*start = -dse_cdiv(sets * set_words, CALC_FIRST_BW);
		*stop = -1;
		return;
	}
	*start = first_req - dse_cdiv(ACTIVE_SETS * set_words, CALC_FIRST_BW);
	*stop = last_handover + 1;
}

/* ------------------------------------------------------------------ */
/* The passes. */

struct mem {
	const struct sim_scale__geom *g;
	struct tabs tb;
	int64_t *row;		/* the words of one row */
	int64_t words[SIM_SCALE_N_OPERANDS];	/* buffer sizes */
	int64_t range[SIM_SCALE_N_OPERANDS];	/* address ranges */
	/* First and last rows with words, and their cycles as SCALE-Sim
	 * stamps them (the cycle the buffer answered).
	 */
	int64_t first[SIM_SCALE_N_OPERANDS], last[SIM_SCALE_N_OPERANDS];
	int seen[SIM_SCALE_N_OPERANDS];
};

static void seen_row(struct mem *m, int op, int64_t stamp)
{
	if (!m->seen[op])
		m->first[op] = stamp;
	m->seen[op] = 1;
	m->last[op] = stamp;
}

/* The fold index of (fc, fr) and its first row. */
static int64_t fold_row0(const struct sim_scale__geom *g, int64_t fc,
	int64_t fr)
{
	return (fc * g->row_folds + fr) * g->fold_len;
}

/* The words of row d of a tile whose words all exist (FILTER, OFMAP). */
static int64_t row_count(const struct body *b, int64_t d)
{
	int64_t v = d - b->prefix;

	if (!b->skew)
		return v >= b->u_lo && v < b->u_n ? b->x_hi : 0;
	return dse_max64(0, dse_min64(b->x_hi, v - b->u_lo + 1) -
		dse_max64(0, v - (b->u_n - 1)));
}

/* The rows [*f0, *f1) of a tile over which its count of words a row stays
 * the same: all of it unskewed; skewed, between the end of the ramp up and
 * the start of the ramp down.
 */
static void flat_rows(const struct body *b, int64_t *f0, int64_t *f1)
{
	int64_t up = b->u_lo + b->x_hi - 1, down = b->u_n - 1;

	if (!b->skew) {
		body_rows(b, f0, f1);
		return;
	}
	*f0 = b->prefix + dse_min64(up, down);
	*f1 = b->prefix + dse_max64(up, down) + 1;
}

/* Up to n rows of c words each from row "row" (stalled by "stall" so
 * far): as many at once as neither start a drain nor find the buffer full.
 * Returns how many.
 */
static int64_t wb_rows(struct wbuf *w, int64_t c, int64_t row, int64_t n,
	int64_t stall)
{
	int64_t cur = row + stall, k;

	k = cur < w->drain_end ? dse_min64(w->drain_end - cur, (w->free - 1) / c) :
		(w->free - w->active) / c;
	k = dse_min64(k, n);
	if (k <= 0)
		return 0;
	w->words += k * c;
	w->free -= k * c;
	w->lines += (w->line_idx + k * c) / w->bw;
	w->line_idx = (w->line_idx + k * c) % w->bw;
	return k;
}

/* The OFMAP's writes through the write buffer, CALC mode: records the
 * stalls and drains what is left after the last cycle.
 */
static int write_pass(struct mem *m, struct wbuf *w, struct stalls *st)
{
	const struct sim_scale__geom *g = m->g;
	int64_t fold, d, d0, d1, f0, f1;
	struct body b;

	for (fold = 0; fold < g->folds; fold++) {
		int64_t row0 = fold * g->fold_len;

		make_body(g, OF, fold / g->row_folds, fold % g->row_folds, &b);
		body_rows(&b, &d0, &d1);
		flat_rows(&b, &f0, &f1);
		for (d = d0; d < d1;) {
			int64_t n = row_count(&b, d), row = row0 + d, k = 0;
			int64_t cur = row + st->total, off = 0;

			if (n && d >= f0 && d < f1)
				k = wb_rows(w, n, row, f1 - d, st->total);
			if (k) {
				seen_row(m, OF, cur);
				seen_row(m, OF, cur + k - 1);
				d += k;
				continue;
			}
			d++;
			if (!n)
				continue;
			sim_scale__wb_store_n(w, n, &cur, &off);
			seen_row(m, OF, row + st->total + off);
			if (off && sim_scale__stalls_add(st, row, off))
				return -1;
		}
	}
	sim_scale__wb_finish(w, g->rows_total - 1 + st->total);
	return w->nomem ? -1 : 0;
}

/* The global index of the first (forward) or last row in which operand
 * "op" has a word; -1 when there is none.
 */
static int64_t find_row(struct mem *m, int op, int forward)
{
	const struct sim_scale__geom *g = m->g;
	int64_t f, d, d0, d1;
	struct body b;

	for (f = 0; f < g->folds; f++) {
		int64_t fold = forward ? f : g->folds - 1 - f;
		int64_t fc = fold / g->row_folds, fr = fold % g->row_folds;

		make_body(g, op, fc, fr, &b);
		body_rows(&b, &d0, &d1);
		for (d = 0; d < d1 - d0; d++) {
			int64_t dd = forward ? d0 + d : d1 - 1 - d;

			if (row_addrs(&m->tb, &b, dd, m->row))
				return fold * g->fold_len + dd;
		}
	}
	return -1;
}

/* The run of IFMAP words pixel p reads in filter row r at window indices
 * [ja, jb), cut where the taps leave the IFMAP.
 */
static int pixel_run(const struct tabs *tb, int64_t p, int64_t r, int64_t ja,
	int64_t jb, struct sim_scale__ivs *out)
{
	int64_t row0 = r * tb->sc, at = tb->base[p] + r * tb->wc;
	int64_t lo = dse_max64(ja, row0) - row0;
	int64_t hi = dse_min64(dse_min64(jb, row0 + tb->sc) - row0,
		tb->maxc[p] * tb->c);

	if (lo >= hi || r >= tb->maxr[p])
		return 0;
	return sim_scale__ivs_push(out, at + lo, at + hi);
}

/* The IFMAP words of rows [da, db) of tile "b", as runs in "out"
 * (normalized).  In every dataflow the pixel of an entry follows one of
 * its two coordinates (the column x, or the row u of the tile) and the
 * window index moves by one along the other, so each pixel reads a
 * stretch of consecutive window indices in these rows: a run of words per
 * filter row.  Taken a filter row at a time, pixel after pixel, the runs
 * rise and mostly continue one another.  *raw (when not NULL) is set to
 * the runs pushed before they were merged.
 */
static int tile_runs(const struct tabs *tb, const struct body *b,
	int64_t da, int64_t db, struct sim_scale__ivs *out, int64_t *raw)
{
	int64_t va = da - b->prefix, vb = db - b->prefix, o, o0, o1, r;
	int by_x = b->iu == 0;

	out->n = 0;
	o0 = by_x ? 0 : dse_max64(b->u_lo, b->skew ? va - b->x_hi + 1 : va);
	o1 = by_x ? b->x_hi : dse_min64(b->u_n, vb);
	for (r = 0; r < tb->r; r++)
		for (o = o0; o < o1; o++) {
			int64_t p, j0, slope, ja, lo, hi;

			lo = by_x ? b->u_lo : 0;
			hi = by_x ? b->u_n : b->x_hi;
			if (b->skew || by_x) {
				lo = dse_max64(lo, b->skew ? va - o : va);
				hi = dse_min64(hi, b->skew ? vb - o : vb);
			}
			if (lo >= hi)
				continue;
			p = b->i0 + (by_x ? b->ix : b->iu) * o;
			slope = by_x ? b->ju : b->jx;
			j0 = b->j0 + (by_x ? b->jx : b->ju) * o + slope * lo;
			ja = slope < 0 ? j0 + slope * (hi - 1 - lo) : j0;
			if (pixel_run(tb, p, r, ja, slope ? ja + hi - lo :
				ja + 1, out))
				return -1;
		}
	if (raw)
		*raw = out->n;
	return sim_scale__ivs_normalize(out);
}

/* The state of the IFMAP's CALC pass by runs: the words of the active
 * half as runs, room for the runs of a stretch of rows, and the words the
 * last stretch tried would have brought the half to.
 */
struct calc_if {
	struct calc_rd *r;
	struct sim_scale__ivs half, rows;
	int64_t row0;		/* the fold's first row */
	int64_t probe;		/* words of the half with the last stretch */
	double rate;		/* new words a row, lately; 0 before any */
};

/* Whether rows [da, db) of tile "b" leave the half short of full; when
 * they do, their words join it.  Returns -1 when memory runs out.
 */
static int calc_if_fits(struct calc_if *c, const struct tabs *tb,
	const struct body *b, int64_t da, int64_t db)
{
	if (tile_runs(tb, b, da, db, &c->rows, NULL))
		return -1;
	c->probe = sim_scale__ivs_union_words(&c->half, &c->rows);
	c->rate = (double) (c->probe - c->half.words) / (double) (db - da);
	if (c->probe >= c->r->cap)
		return 0;
	return sim_scale__ivs_merge(&c->half, &c->rows) ? -1 : 1;
}

/* Row d of tile "b", in which the half fills: its words one by one. */
static int calc_if_walk(struct calc_if *c, struct mem *m,
	const struct body *b, int64_t d)
{
	int64_t n = row_addrs(&m->tb, b, d, m->row), x;

	for (x = 0; x < n; x++) {
		int add = sim_scale__ivs_add(&c->half, m->row[x]);

		if (add < 0)
			return -1;
		if (add && c->half.words == c->r->cap) {
			c->r->handovers++;
			c->r->last_row = c->row0 + d;
			c->r->last_x = x;
			c->half.n = 0;
			c->half.words = 0;
		}
	}
	return 0;
}

/* The rows the half may take from row d before it fills, at the rate of
 * late (all the rows to d1 when the rate is not known): a little more, so
 * that the stretch tried usually just overfills it.
 */
static int64_t calc_if_guess(const struct calc_if *c, int64_t d, int64_t d1)
{
	double need = (double) (c->r->cap - c->half.words);

	if (c->rate <= 0 || need / c->rate * 1.125 + 1 >= (double) (d1 - d))
		return d1;
	return d + (int64_t) (need / c->rate * 1.125) + 1;
}

/* The rows [d0, d1) of tile "b" through the half: stretches of rows at a
 * time while they leave it short of full, and the row in which it fills
 * word by word.  A stretch that overfills the half is cut where its new
 * words would just fill it, as if they were spread evenly over its rows,
 * until one row is left.  With "stop", returns after the row of the first
 * hand-over and sets *at to it; *at is -1 when the rows run out first.
 */
static int calc_if_rows(struct calc_if *c, struct mem *m,
	const struct body *b, int64_t d0, int64_t d1, int stop, int64_t *at)
{
	int64_t d = d0;

	*at = -1;
	while (d < d1) {
		int64_t hi = calc_if_guess(c, d, d1), over;
		int fit = calc_if_fits(c, &m->tb, b, d, hi);

		if (fit < 0)
			return -1;
		if (fit) {
			d = hi;
			continue;
		}
		over = c->probe;
		while (hi - d > 1) {
			int64_t need = c->r->cap - c->half.words, mid;

			mid = d + (hi - d) * (need - 1) / (over - c->half.words);
			mid = dse_min64(dse_max64(mid, d + 1), hi - 1);
			fit = calc_if_fits(c, &m->tb, b, d, mid);
			if (fit < 0)
				return -1;
			if (fit)
				d = mid;
			else {
				hi = mid;
				over = c->probe;
			}
		}
		if (calc_if_walk(c, m, b, d))
			return -1;
		if (stop) {
			*at = d;
			return 0;
		}
		d++;
	}
	return 0;
}

/* Whether tile "b" reads no IFMAP word twice, as the streamed IFMAP of the
 * weight-stationary dataflow does when its window indices are channels
 * of one filter tap: every pixel then reads the same taps, and those of
 * two pixels lie apart.
 */
static int tile_distinct(const struct tabs *tb, const struct body *b)
{
	return b->skew && b->i0 == 0 && b->iu == 1 && b->ix == 0 &&
		b->ju == 0 && b->jx == 1 && b->x_hi > 0 &&
		b->j0 / tb->c == (b->j0 + b->x_hi - 1) / tb->c;
}

/* The pixels below n that read the tap (r, s) of a window. */
static int64_t pixels_below(const struct sim_scale__geom *g, int64_t r,
	int64_t s, int64_t n)
{
	const sim_scale_layer *l = g->layer;
	int64_t ylim = dse_min64(g->out_h, dse_cdiv(l->h - r, l->stride_h));
	int64_t xlim = dse_min64(g->out_w, dse_cdiv(l->w - s, l->stride_w));
	int64_t y = n / g->out_w;

	if (y >= ylim)
		return ylim * xlim;
	return y * xlim + dse_min64(n % g->out_w, xlim);
}

/* The words of rows [da, db) of a weight-stationary IFMAP tile: column
 * x holds pixels u with u + x in the rows, reading the tap of window
 * index j0 + x.
 */
static int64_t rows_words(const struct sim_scale__geom *g,
	const struct tabs *tb, const struct body *b, int64_t da, int64_t db)
{
	int64_t va = da - b->prefix, vb = db - b->prefix, x, n = 0;

	for (x = 0; x < b->x_hi; x++) {
		int64_t r = tb->jr[b->j0 + x], s = tb->jc[b->j0 + x];
		int64_t lo = dse_max64(b->u_lo, va - x);
		int64_t hi = dse_min64(b->u_n, vb - x);

		if (lo < hi)
			n += pixels_below(g, r, s, hi) - pixels_below(g, r, s, lo);
	}
	return n;
}

/* Rows [d, d1) of a tile for which tile_distinct holds, the half holding
 * words of its earlier rows only: every word is new to the half, so the
 * half fills every "cap" words, and only its last filling is looked for
 * (the row where the words so far reach it) and what follows it kept.
 */
static int calc_if_distinct(struct calc_if *c, struct mem *m,
	const struct body *b, int64_t d, int64_t d1)
{
	const struct sim_scale__geom *g = m->g;
	int64_t cap = c->r->cap, have = c->half.words, n, want, lo, hi, keep, x;

	n = (have + rows_words(g, &m->tb, b, d, d1)) / cap;
	if (!n)
		return calc_if_fits(c, &m->tb, b, d, d1) == 1 ? 0 : -1;
	want = n * cap - have;
	lo = d;
	hi = d1 - 1;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (rows_words(g, &m->tb, b, d, mid + 1) >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	c->r->handovers += n;
	c->r->last_row = c->row0 + lo;
	keep = rows_words(g, &m->tb, b, d, lo + 1) - want;
	c->half.n = 0;
	c->half.words = 0;
	if (tile_runs(&m->tb, b, lo + 1, d1, &c->rows, NULL) ||
	    sim_scale__ivs_merge(&c->half, &c->rows))
		return -1;
	n = row_addrs(&m->tb, b, lo, m->row);
	c->r->last_x = n - keep - 1;
	for (x = n - keep; x < n; x++)
		if (sim_scale__ivs_add(&c->half, m->row[x]) < 0)
			return -1;
	return 0;
}

/* The rows [d0, d1) of tile "b" through the half. */
static int calc_if_tile(struct calc_if *c, struct mem *m,
	const struct body *b, int64_t d0, int64_t d1)
{
	int64_t at;

	if (!tile_distinct(&m->tb, b))
		return calc_if_rows(c, m, b, d0, d1, 0, &at);
	if (calc_if_rows(c, m, b, d0, d1, 1, &at))
		return -1;
	return at < 0 || at + 1 >= d1 ? 0 :
		calc_if_distinct(c, m, b, at + 1, d1);
}

/* After column fold fc of an IFMAP pass, which began with "h0"
 * hand-overs and ended with *fill words in the half: notes how it ended
 * in "ends" (NULL where column folds stream different words) and, where
 * the folds after it repeat earlier ones (sim/scale_folds.c), counts them
 * into "r" and *fill.  Returns 1 when the pass can stop there.
 */
static int calc_if_fold_end(const struct sim_scale__geom *g,
	struct calc_rd *r, struct sim_scale__fold_end *ends, int64_t fc,
	int64_t h0, int64_t *fill)
{
	int64_t span = g->row_folds * g->fold_len, more;
	const struct sim_scale__fold_end *last;

	if (!ends || fc + 1 >= g->col_folds)
		return 0;
	ends[fc].row = r->last_row - fc * span;
	ends[fc].x = r->last_x;
	ends[fc].handovers = r->handovers - h0;
	ends[fc].fill = *fill;
	if (!sim_scale__folds_repeat(ends, fc + 1, g->col_folds, &more,
		&last))
		return 0;
	r->handovers += more;
	if (last) {
		r->last_row = last->row + (g->col_folds - 1) * span;
		r->last_x = last->x;
		*fill = last->fill;
	}
	return 1;
}

/* Room to note how each column fold of an IFMAP pass ended, where they
 * all stream the same words (every dataflow but input-stationary); NULL
 * otherwise, or when memory runs out (*bad is then set).
 */
static struct sim_scale__fold_end *fold_ends(const struct sim_scale__geom *g,
	int *bad)
{
	struct sim_scale__fold_end *ends;

	*bad = 0;
	if (g->arch->dataflow == SIM_SCALE_IS)
		return NULL;
	ends = calloc((size_t) g->col_folds, sizeof(*ends));
	*bad = !ends;
	return ends;
}

/* The IFMAP's stream through a CALC buffer, as runs of words: the half
 * holds the distinct words read since its hand-over.
 */
static int calc_ifmap_runs(struct mem *m, struct calc_rd *r)
{
	const struct sim_scale__geom *g = m->g;
	struct calc_if c;
	int64_t fc, fr, d0, d1, h0, fill;
	struct body b;
	int bad;
	struct sim_scale__fold_end *ends = fold_ends(g, &bad);

	memset(&c, 0, sizeof(c));
	c.r = r;
	for (fc = 0; fc < g->col_folds && !bad; fc++) {
		h0 = r->handovers;
		for (fr = 0; fr < g->row_folds && !bad; fr++) {
			c.row0 = fold_row0(g, fc, fr);
			make_body(g, IF, fc, fr, &b);
			body_rows(&b, &d0, &d1);
			bad = calc_if_tile(&c, m, &b, d0, d1);
		}
		fill = c.half.words;
		if (!bad && calc_if_fold_end(g, r, ends, fc, h0, &fill)) {
			c.half.words = fill;
			break;
		}
	}
	r->fill = c.half.words;
	free(ends);
	sim_scale__ivs_free(&c.half);
	sim_scale__ivs_free(&c.rows);
	return bad ? -1 : 0;
}

/* "n" IFMAP words (i, j), (i + di, j + dj), ... through a CALC buffer
 * that stamps each word with the half that took it last, in locals so
 * that the stores to the stamps cannot be taken to change them.  The taps
 * all lie inside the IFMAP when "inside", which spares the test.
 */
static void calc_if_run(struct calc_rd *r, uint32_t *stamp,
	const struct tabs *tb, int64_t n, int64_t i, int64_t j, int64_t di,
	int64_t dj, int64_t row, int inside)
{
	const int64_t *base = tb->base, *off = tb->off;
	uint32_t half = r->half;
	int64_t fill = r->fill, cap = r->cap, x;

	for (x = 0; x < n; x++, i += di, j += dj) {
		int64_t a;

		if (!inside && (tb->jr[j] >= tb->maxr[i] ||
			tb->jc[j] >= tb->maxc[i]))
			continue;
		/* Branch-free: whether a word is new to the half follows no
		 * pattern a predictor could learn.
		 */
		a = base[i] + off[j];
		fill += stamp[a] != half;
		stamp[a] = half;
		if (fill == cap) {
			fill = 0;
			half++;
			r->handovers++;
			r->last_row = row;
			r->last_x = x;
		}
	}
	r->fill = fill;
	r->half = half;
}

/* The IFMAP's stream through a CALC buffer word by word. */
static int calc_ifmap_words(struct mem *m, struct calc_rd *r)
{
	const struct sim_scale__geom *g = m->g;
	const sim_scale_layer *l = g->layer;
	int inside = (g->out_h - 1) * l->stride_h + l->r <= l->h &&
		(g->out_w - 1) * l->stride_w + l->s <= l->w;
	uint32_t *stamp = calloc((size_t) m->range[IF], sizeof(*stamp));
	int64_t fc, fr, d, d0, d1, len, i, j, di, dj, h0;
	struct body b;
	int bad;
	struct sim_scale__fold_end *ends = fold_ends(g, &bad);

	if (!stamp || bad) {
		free(stamp);
		return -1;
	}
	for (fc = 0; fc < g->col_folds; fc++) {
		h0 = r->handovers;
		for (fr = 0; fr < g->row_folds; fr++) {
			int64_t row0 = fold_row0(g, fc, fr);

			make_body(g, IF, fc, fr, &b);
			body_rows(&b, &d0, &d1);
			for (d = d0; d < d1; d++) {
				len = row_span(&b, d, &i, &j, &di, &dj);
				if (len <= 0)
					continue;
				if (inside)
					calc_if_run(r, stamp, &m->tb, len, i,
						j, di, dj, row0 + d, 1);
				else
					calc_if_run(r, stamp, &m->tb, len, i,
						j, di, dj, row0 + d, 0);
			}
		}
		if (calc_if_fold_end(g, r, ends, fc, h0, &r->fill))
			break;
	}
	free(ends);
	free(stamp);
	return 0;
}

static int64_t tile_len(struct mem *m, int op, int64_t fc, int64_t fr);

/* The IFMAP's stream through a CALC buffer when every word is new to the
 * half (tile f of the row folds "len[f]" words): it fills every "cap"
 * words, so the hand-overs are counted, and only the row of the last one
 * is looked for (a binary search over the rows of its tile, whose words
 * are counted in closed form).
 */
static void calc_ifmap_new(struct mem *m, struct calc_rd *r,
	const int64_t *len)
{
	const struct sim_scale__geom *g = m->g;
	int64_t n = 0, fr, fc, pos, lo, hi;
	struct body b;

	for (fr = 0; fr < g->row_folds; fr++)
		n += len[fr];
	r->handovers = n * g->col_folds / r->cap;
	r->fill = n * g->col_folds % r->cap;
	if (!r->handovers)
		return;
	pos = r->handovers * r->cap - 1;
	fc = pos / n;
	pos %= n;
	for (fr = 0; pos >= len[fr]; fr++)
		pos -= len[fr];
	make_body(g, IF, fc, fr, &b);
	body_rows(&b, &lo, &hi);
	hi--;
	/* The first row whose words take the count past "pos". */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (rows_words(g, &m->tb, &b, b.prefix, mid + 1) > pos)
			hi = mid;
		else
			lo = mid + 1;
	}
	r->last_row = fold_row0(g, fc, fr) + lo;
}

/* The IFMAP through a CALC buffer by counting, where every word of a
 * weight-stationary stream is new to the half when read
 * (sim_scale__ws_all_new).  Returns 1 when it was, 0 when not, -1 when
 * memory runs out.
 */
static int calc_if_all_new(struct mem *m, struct calc_rd *r)
{
	const struct sim_scale__geom *g = m->g;
	const sim_scale_layer *l = g->layer;
	struct sim_scale__ws_stream st;
	int64_t *len, fr;
	int yes;

	if (g->arch->dataflow != SIM_SCALE_WS)
		return 0;
	len = malloc((size_t) g->row_folds * sizeof(*len));
	if (!len)
		return -1;
	for (fr = 0; fr < g->row_folds; fr++)
		len[fr] = tile_len(m, IF, 0, fr);
	st.win = g->win;
	st.rows = g->arch->rows;
	st.c = l->c;
	st.s = l->s;
	st.stride_h = l->stride_h;
	st.stride_w = l->stride_w;
	st.col_folds = g->col_folds;
	st.e = g->e;
	st.out_w = g->out_w;
	yes = sim_scale__ws_all_new(&st, len, r->cap);
	if (yes)
		calc_ifmap_new(m, r, len);
	free(len);
	return yes;
}

/* A run costs about as much as this many words replayed one by one (the
 * runs of a stretch are built, merged and counted again as the stretch
 * is cut).
 */
#define RUN_COST 16

/* The halves a tile that reads no word twice must hold to be taken by
 * runs: its first and last filling of the half still go by runs, at
 * about RUN_COST words a run of a dozen words or so.
 */
#define DISTINCT_HALVES 4

/* Whether every tile of the IFMAP reads no word twice (see tile_distinct)
 * and holds many halves' worth of words, so that counting its fillings of
 * the half spares the replay of most of it: one tile for each row fold,
 * the same in every column fold.
 */
static int all_distinct(struct mem *m, int64_t cap)
{
	const struct sim_scale__geom *g = m->g;
	struct body b;
	int64_t fr;

	for (fr = 0; fr < g->row_folds; fr++) {
		make_body(g, IF, 0, fr, &b);
		if (!tile_distinct(&m->tb, &b))
			return 0;
	}
	return tile_len(m, IF, 0, 0) >= DISTINCT_HALVES * cap;
}

/* Replays the IFMAP's stream through a CALC buffer: by runs where every
 * tile reads no word twice (its fillings of the half are then
 * counted, not replayed) or many words a run (windows that overlap much,
 * or long rows of channels), else word by word.
 */
static int calc_ifmap(struct mem *m, struct calc_rd *r)
{
	const struct sim_scale__geom *g = m->g;
	struct sim_scale__ivs runs;
	int64_t d0, d1, raw = 0, words;
	struct body b;
	int new;

	if (g->if_path != SIM_SCALE__IF_AUTO)
		return g->if_path == SIM_SCALE__IF_RUNS ?
			calc_ifmap_runs(m, r) : calc_ifmap_words(m, r);
	new = calc_if_all_new(m, r);
	if (new)
		return new < 0 ? -1 : 0;
	memset(&runs, 0, sizeof(runs));
	make_body(g, IF, 0, 0, &b);
	body_rows(&b, &d0, &d1);
	if (tile_runs(&m->tb, &b, d0, d1, &runs, &raw)) {
		sim_scale__ivs_free(&runs);
		return -1;
	}
	sim_scale__ivs_free(&runs);
	/* A weight-stationary tile is built pixel by pixel, once per filter
	 * row, however many of those runs continue the last one (measured:
	 * the first layers of AlexNet and ResNet-18 on eyeriss.cfg, 3
	 * channels, 2x to 4x faster word by word).
	 */
	if (g->arch->dataflow == SIM_SCALE_WS)
		raw = dse_max64(raw, g->layer->r * g->e);
	words = tile_len(m, IF, 0, 0);
	return all_distinct(m, r->cap) || words >= RUN_COST * raw ? calc_ifmap_runs(m, r) :
		calc_ifmap_words(m, r);
}

/* Whether no two taps of the layer read the same IFMAP word: windows that
 * do not overlap (a stride at least the filter's size, or one window
 * along that axis, as in every GEMM).
 * The IFMAP's tiles then behave as the FILTER's.
 */
static int ifmap_disjoint(const struct sim_scale__geom *g)
{
	const sim_scale_layer *l = g->layer;

	return (g->out_h == 1 || l->stride_h >= l->r) &&
		(g->out_w == 1 || l->stride_w >= l->s);
}

/* The taps of pixels [p0, p1) at window indices [j0, j1) that lie
 * inside the IFMAP.
 */
static int64_t taps_inside(const struct tabs *tb, int64_t p0, int64_t p1,
	int64_t j0, int64_t j1)
{
	int64_t p, j, n = 0;

	for (p = p0; p < p1; p++)
		for (j = j0; j < j1; j++)
			n += tb->jr[j] < tb->maxr[p] && tb->jc[j] < tb->maxc[p];
	return n;
}

/* The pixels whose tap j lies inside the IFMAP. */
static int64_t pixels_inside(const struct sim_scale__geom *g,
	const struct tabs *tb, int64_t j)
{
	const sim_scale_layer *l = g->layer;

	return dse_min64(g->out_h, dse_cdiv(l->h - tb->jr[j], l->stride_h)) *
		dse_min64(g->out_w, dse_cdiv(l->w - tb->jc[j], l->stride_w));
}

/* The tile of operand "op" in fold (fc, fr): its id (tile_id) and its
 * number of words (tile_len).  Every word of a tile is a different word
 * of the operand, and two tiles are either the same or share no word.
 * The FILTER: os reads tile fc in every row fold, ws a new tile per fold,
 * is tile fr in every column fold.  A disjoint IFMAP: os and ws read tile fr in every column
 * fold (os its pixels fr, ws its window indices fr), is a new tile per
 * fold.
 */
static void tile_id(struct mem *m, int op, int64_t fc, int64_t fr,
	int64_t *id)
{
	const struct sim_scale__geom *g = m->g;
	int df = g->arch->dataflow;

	if (op == FI)
		*id = df == SIM_SCALE_OS ? fc : df == SIM_SCALE_WS ?
			fc * g->row_folds + fr : fr;
	else
		*id = df == SIM_SCALE_IS ? fc * g->row_folds + fr : fr;
}

/* The words of the tile of operand "op" in fold (fc, fr). */
static int64_t tile_len(struct mem *m, int op, int64_t fc, int64_t fr)
{
	const struct sim_scale__geom *g = m->g;
	int64_t ar = g->arch->rows, ac = g->arch->cols, j, len = 0;
	int64_t ur = dse_min64(ar, g->sr - fr * ar);
	int64_t uc = dse_min64(ac, g->sc - fc * ac);
	int df = g->arch->dataflow;

	if (op == FI)
		return df == SIM_SCALE_WS ? ur * uc :
			g->t * (df == SIM_SCALE_OS ? uc : ur);
	if (df == SIM_SCALE_OS)
		return taps_inside(&m->tb, fr * ar, fr * ar + ur, 0, g->win);
	if (df == SIM_SCALE_IS)
		return taps_inside(&m->tb, fc * ac, fc * ac + uc, fr * ar,
			fr * ar + ur);
	for (j = fr * ar; j < fr * ar + ur; j++)
		len += pixels_inside(g, &m->tb, j);
	return len;
}

/* One FILTER tile through a CALC buffer, a run of words at a time: the
 * half holds positions [lo, hi) of the tile (nothing, a prefix, a suffix
 * or all of it); the words outside are taken in order until the half is
 * full, and after a hand-over every word is new to the half.
 */
static void calc_tile(struct calc_rd *r, int64_t id, int64_t len,
	int64_t fold)
{
	int64_t a = 0, b = 0, pos = 0;

	if (r->gen[id] == r->half) {
		a = r->lo[id];
		b = r->hi[id];
	}
	while (pos < len) {
		int64_t end = pos < a ? a : len, need = r->cap - r->fill;

		if (pos >= a && pos < b) {
			pos = b;
			continue;
		}
		if (end - pos < need) {
			r->fill += end - pos;
			if (a == b)
				a = pos;
			a = dse_min64(a, pos);
			b = dse_max64(b, end);
			pos = end;
			continue;
		}
		r->handovers++;
		r->last_fold = fold;
		r->last_pos = pos + need - 1;
		r->half++;
		r->fill = 0;
		pos += need;
		a = b = pos;
	}
	r->gen[id] = r->half;
	r->lo[id] = a;
	r->hi[id] = b;
}

/* The row of the word at position "pos" (counting words) of operand "op"
 * in fold "fold".
 */
static int64_t row_of_pos(struct mem *m, int op, int64_t fold, int64_t pos)
{
	const struct sim_scale__geom *g = m->g;
	int64_t d, d0, d1;
	struct body b;

	make_body(g, op, fold / g->row_folds, fold % g->row_folds, &b);
	body_rows(&b, &d0, &d1);
	for (d = d0; d < d1; d++) {
		pos -= row_addrs(&m->tb, &b, d, m->row);
		if (pos < 0)
			break;
	}
	return fold * g->fold_len + d;
}

/* Operand "op" through a CALC buffer, tile by tile. */
static int calc_tiles(struct mem *m, int op, struct calc_rd *r)
{
	const struct sim_scale__geom *g = m->g;
	int64_t ids = g->folds;	/* a tile id is below the fold count */
	int64_t fc, fr, id;

	r->gen = calloc((size_t) ids, sizeof(*r->gen));
	r->lo = calloc((size_t) ids, sizeof(*r->lo));
	r->hi = calloc((size_t) ids, sizeof(*r->hi));
	r->len = calloc((size_t) ids, sizeof(*r->len));
	if (!r->gen || !r->lo || !r->hi || !r->len) {
		free(r->gen);
		free(r->lo);
		free(r->hi);
		free(r->len);
		return -1;
	}
	for (fc = 0; fc < g->col_folds; fc++)
		for (fr = 0; fr < g->row_folds; fr++) {
			tile_id(m, op, fc, fr, &id);
			if (!r->len[id])
				r->len[id] = tile_len(m, op, fc, fr) + 1;
			calc_tile(r, id, r->len[id] - 1, fc * g->row_folds + fr);
		}
	if (r->handovers)
		r->last_row = row_of_pos(m, op, r->last_fold, r->last_pos);
	free(r->gen);
	free(r->lo);
	free(r->hi);
	free(r->len);
	return 0;
}

/* A CALC read buffer over operand "op": its DRAM reads and the cycles of
 * its SRAM and DRAM activity.  When every word the layer reads fits one
 * active half, nothing is ever fetched twice; else the FILTER and an IFMAP
 * whose windows do not overlap go through tile by tile, and any other
 * IFMAP word by word.
 */
static int read_pass(struct mem *m, int op, const struct stalls *st,
	sim_scale_result *res)
{
	const struct sim_scale__geom *g = m->g;
	int64_t first = find_row(m, op, 1), last = find_row(m, op, 0), taken;
	struct calc_rd r;

	memset(&r, 0, sizeof(r));
	r.set_words = m->words[op] / SETS;
	r.cap = ACTIVE_SETS * r.set_words;
	r.half = 1;
	first += sim_scale__stalls_before(st, first);
	seen_row(m, op, first + 1);
	seen_row(m, op, last + sim_scale__stalls_before(st, last) + 1);
	if (g->distinct[op] < r.cap)
		r.fill = g->distinct[op];
	else if (op == IF && !ifmap_disjoint(g) ? calc_ifmap(m, &r) :
		 calc_tiles(m, op, &r))
		return -1;
	taken = r.handovers * r.cap + r.fill;
	res->dram_reads[op] = taken;
	res->report.dram_accesses[op] = taken;
	calc_report(r.set_words, taken, r.handovers, first,
		r.last_row + sim_scale__stalls_before(st, r.last_row),
		&res->report.dram_start[op], &res->report.dram_stop[op]);
	return 0;
}

/* One row of the USER replay: the three buffers at "cycle"; returns the
 * row's stall and sets *of_off to the write buffer's part of it.
 */
static int64_t user_step(struct mem *m, struct user_rd *rd, struct wbuf *w,
	const struct body *b, int64_t d, int64_t cycle, int64_t *of_off)
{
	int64_t stall = 0, op, n, cur = cycle, off = 0;

	for (op = IF; op <= FI; op++) {
		n = row_addrs(&m->tb, &b[op], d, m->row);
		if (n) {
			int64_t o = sim_scale__user_row(&rd[op], m->row, n, cycle);

			seen_row(m, (int) op, cycle + o);
			stall = dse_max64(stall, o - 1);
		}
	}
	n = row_addrs(&m->tb, &b[OF], d, m->row);
	sim_scale__wb_store_n(w, n, &cur, &off);
	if (n)
		seen_row(m, OF, cycle + off);
	*of_off = off;
	return dse_max64(stall, off);
}

/* The lockstep replay of USER mode.  Returns the index of the last cycle
 * as SCALE-Sim counts it (the cycle the OFMAP's last row was answered).
 */
static int64_t user_pass(struct mem *m, struct user_rd *rd, struct wbuf *w,
	int64_t *stalls)
{
	const struct sim_scale__geom *g = m->g;
	int64_t fc, fr, d, op, last = -1;
	struct body b[SIM_SCALE_N_OPERANDS];

	*stalls = 0;
	for (fc = 0; fc < g->col_folds; fc++)
		for (fr = 0; fr < g->row_folds; fr++) {
			int64_t lo = g->fold_len, hi = 0, d0, d1;

			for (op = 0; op < SIM_SCALE_N_OPERANDS; op++) {
				make_body(g, (int) op, fc, fr, &b[op]);
				body_rows(&b[op], &d0, &d1);
				lo = dse_min64(lo, d0);
				hi = dse_max64(hi, d1);
			}
			for (d = lo; d < hi; d++) {
				int64_t row = fold_row0(g, fc, fr) + d, of;
				int64_t cycle = row + *stalls;

				*stalls += user_step(m, rd, w, b, d, cycle, &of);
				if (row == g->rows_total - 1)
					last = cycle + of;
			}
		}
	return last >= 0 ? last : g->rows_total - 1 + *stalls;
}

/* USER mode: the three buffers in lockstep. */
static int user_mode(struct mem *m, sim_scale_result *res)
{
	const struct sim_scale__geom *g = m->g;
	struct user_rd rd[2];
	struct wbuf w;
	int64_t op, last, stalls;
	int bad = 0;

	memset(rd, 0, sizeof(rd));
	for (op = IF; op <= FI; op++)
		if (sim_scale__user_init(&rd[op], g, &m->tb, (int) op, m->words[op],
			m->range[op]))
			bad = 1;
	if (!bad) {
		sim_scale__wb_init(&w, m->words[OF], g->arch->bandwidth);
		last = user_pass(m, rd, &w, &stalls);
		sim_scale__wb_finish(&w, last);
		bad = w.nomem;
		free(w.part);
		res->stall_cycles = stalls;
		res->report.total_cycles = last;
		res->dram_writes[OF] = w.words;
		res->report.dram_accesses[OF] = w.accesses;
		res->report.dram_start[OF] = w.first_cycle;
		res->report.dram_stop[OF] = w.last_cycle;
	}
	for (op = IF; op <= FI; op++) {
		int64_t n = rd[op].lines0 + rd[op].fetches * rd[op].lines_p;

		free(rd[op].at);
		free(rd[op].sets);
		res->dram_reads[op] = n * rd[op].bw;
		res->report.dram_accesses[op] = n * rd[op].bw;
		res->report.dram_start[op] = -rd[op].lines0;
		res->report.dram_stop[op] = rd[op].last;
	}
	return bad ? -1 : 0;
}

/* CALC mode: the write buffer first (its stalls set every later cycle),
 * then each read buffer on its own.
 */
static int calc_mode(struct mem *m, sim_scale_result *res)
{
	const struct sim_scale__geom *g = m->g;
	struct stalls st;
	struct wbuf w;
	int bad;

	memset(&st, 0, sizeof(st));
	sim_scale__wb_init(&w, m->words[OF], g->arch->cols);
	bad = write_pass(m, &w, &st) || read_pass(m, IF, &st, res) ||
		read_pass(m, FI, &st, res);
	res->stall_cycles = st.total;
	res->report.total_cycles = g->rows_total - 1 + st.total;
	res->dram_writes[OF] = w.words;
	res->report.dram_accesses[OF] = w.accesses;
	res->report.dram_start[OF] = w.first_cycle;
	res->report.dram_stop[OF] = w.last_cycle;
	free(w.part);
	free(st.rows);
	free(st.cum);
	return bad ? -1 : 0;
}

dse_stat sim_scale__memory(const struct sim_scale__geom *g,
	sim_scale_result *res, dse_error *err)
{
	const sim_scale_layer *l = g->layer;
	struct mem m;
	int op, bad;

	memset(&m, 0, sizeof(m));
	m.g = g;
	for (op = 0; op < SIM_SCALE_N_OPERANDS; op++)
		m.words[op] = g->arch->sram_kb[op] * 1024 /
			g->arch->word_bytes;
	m.range[IF] = l->h * l->w * l->c;
	m.range[FI] = g->win * g->k;
	m.range[OF] = g->e * g->k;
	m.row = malloc((size_t) dse_max64(g->arch->rows, g->arch->cols) *
		sizeof(*m.row));
	bad = !m.row || tabs_init(&m.tb, g);
	if (!bad)
		bad = g->arch->bw_mode == SIM_SCALE_USER ?
			user_mode(&m, res) : calc_mode(&m, res);
	for (op = 0; op < SIM_SCALE_N_OPERANDS && !bad; op++) {
		res->report.sram_start[op] = m.first[op];
		res->report.sram_stop[op] = m.last[op];
	}
	tabs_free(&m.tb);
	free(m.row);
	if (bad)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory "
			"replaying the layer's %lld x %lld x %lld IFMAP and "
			"%lld-word FILTER through its buffers",
			(long long) l->h, (long long) l->w, (long long) l->c,
			(long long) m.range[FI]);
	return dse_stat_ok;
}
