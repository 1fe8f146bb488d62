/* sim_scale: the column folds of a CALC IFMAP pass that repeat.
 *
 * In the output- and weight-stationary dataflows the IFMAP tile of a fold
 * depends on its row fold only, so every column fold streams the same
 * words in the same order.  What a CALC read buffer does in a column fold
 * then depends only on what its active half holds when the fold starts,
 * and after a fold in which the half was handed over, that is the
 * distinct words the fold read after its last hand-over: a function of
 * where in the fold that hand-over fell.  Two column folds whose last
 * hand-overs fall at the same place leave the same half, so the folds
 * after them repeat the folds between them, and the pass can stop there
 * and count the rest.  After a column fold without a hand-over the half
 * holds every word of the stream, and nothing later is new to it.
 */
#include <stdint.h>

#include "scale_internal.h"

int sim_scale__folds_repeat(const struct sim_scale__fold_end *ends,
	int64_t n, int64_t cf, int64_t *more,
	const struct sim_scale__fold_end **last)
{
	const struct sim_scale__fold_end *e = &ends[n - 1];
	int64_t g, x, p;

	*more = 0;
	*last = NULL;
	if (!e->handovers)
		return 1;
	for (g = n - 2; g >= 0; g--)
		if (ends[g].handovers && ends[g].row == e->row &&
		    ends[g].x == e->x)
			break;
	if (g < 0)
		return 0;
	/* Fold x after the last one passed repeats fold
	 * g + 1 + (x - g - 1) mod p.
	 */
	p = n - 1 - g;
	for (x = n; x < cf; x++)
		*more += ends[g + 1 + (x - g - 1) % p].handovers;
	*last = &ends[g + 1 + (cf - 1 - g - 1) % p];
	return 1;
}

/* A lower bound on the words a tile of width "wa" reads after pixel p's
 * read and a tile of width "wb" before pixel p + dp's (p and p + dp both
 * among the "e" pixels), as if every pixel read every tap, at the p that
 * makes it least.  A tile's row v holds pixels v - x of its columns x, so
 * every pixel from p + wa on is read after p is (wa words), and every
 * pixel up to p + dp - wb before p + dp is.  The bound is convex in p, so
 * its least value lies at an end or a kink.
 */
static int64_t words_between(int64_t e, int64_t wa, int64_t wb, int64_t dp)
{
	int64_t lo = dp < 0 ? -dp : 0, hi = dp > 0 ? e - dp - 1 : e - 1;
	int64_t at[4], best = INT64_MAX, i;

	at[0] = lo;
	at[1] = hi;
	at[2] = e - wa;
	at[3] = wb - 1 - dp;
	for (i = 0; i < 4; i++) {
		int64_t p = at[i] < lo ? lo : at[i] > hi ? hi : at[i];
		int64_t na = e - p - wa, nb = p + dp - wb + 1;
		int64_t w = wa * (na > 0 ? na : 0) + wb * (nb > 0 ? nb : 0);

		best = w < best ? w : best;
	}
	return best;
}

/* The fewest words that can lie, besides the tiles between them, between
 * two reads of a word by the tiles of window indices [a, a + wa) and [b,
 * b + wb) that read "la" and "lb" words (the second read in the later
 * tile); INT64_MAX when they read no word in common.  Each tile spans at
 * most two filter taps; two of their pieces within one tap read a word in
 * common when they meet in channels at taps a whole number of strides
 * apart, pixel p of the first and p + dp of the second.  The taps past
 * the IFMAP's edge that the tiles leave out (their wa e - la and wb e - lb
 * words) are taken off the bound.
 */
static int64_t tiles_near(const struct sim_scale__ws_stream *st, int64_t a,
	int64_t wa, int64_t la, int64_t b, int64_t wb, int64_t lb)
{
	int64_t pa, pb, c = st->c, best = INT64_MAX;

	for (pa = a; pa < a + wa; pa = (pa / c + 1) * c)
		for (pb = b; pb < b + wb; pb = (pb / c + 1) * c) {
			int64_t ta = pa / c, tb = pb / c;
			int64_t ea = ta * c + c < a + wa ? ta * c + c : a + wa;
			int64_t eb = tb * c + c < b + wb ? tb * c + c : b + wb;
			int64_t lo = pa % c > pb % c ? pa % c : pb % c;
			int64_t hi = ea - ta * c < eb - tb * c ?
				ea - ta * c : eb - tb * c;
			int64_t dr = ta / st->s - tb / st->s;
			int64_t ds = ta % st->s - tb % st->s, dp, w;

			if (lo >= hi || dr % st->stride_h || ds % st->stride_w)
				continue;
			dp = dr / st->stride_h * st->out_w + ds / st->stride_w;
			if (dp <= -st->e || dp >= st->e)
				continue;
			w = words_between(st->e, wa, wb, dp) -
				(wa * st->e - la) - (wb * st->e - lb);
			w = w > 0 ? w : 0;
			best = w < best ? w : best;
		}
	return best;
}

int sim_scale__ws_all_new(const struct sim_scale__ws_stream *st,
	const int64_t *len, int64_t cap)
{
	int64_t win = st->win, rows = st->rows;
	int64_t rf = (win + rows - 1) / rows, a, b;

	/* A tile of at most c window indices holds each channel once and
	 * spans at most two taps.
	 */
	if (rows > st->c && win > st->c)
		return 0;
	for (a = 0; a < rf; a++) {
		int64_t wa = win - a * rows < rows ? win - a * rows : rows;
		int64_t gap = 0, end = st->col_folds > 1 ? a + rf : rf - 1;

		/* Two reads lie at least gap + 1 + near words apart. */
		for (b = a + 1; b <= end && gap + 1 < cap; b++) {
			int64_t fb = b % rf, near;
			int64_t wb = win - fb * rows < rows ? win - fb * rows :
				rows;

			near = tiles_near(st, a * rows, wa, len[a], fb * rows,
				wb, len[fb]);
			if (near < INT64_MAX && gap + 1 + near < cap)
				return 0;
			gap += len[fb];
		}
	}
	return 1;
}
