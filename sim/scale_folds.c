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

/* Whether the circular ranges of channels [a, a + wa) and [b, b + wb)
 * (modulo c) meet: one starts inside the other.
 */
static int channels_meet(int64_t a, int64_t wa, int64_t b, int64_t wb,
	int64_t c)
{
	if (wa >= c || wb >= c)
		return 1;
	return ((b - a) % c + c) % c < wa || ((a - b) % c + c) % c < wb;
}

int sim_scale__ws_all_new(const int64_t *len, int64_t win, int64_t rows,
	int64_t c, int64_t col_folds, int64_t cap)
{
	int64_t rf = (win + rows - 1) / rows, a, b;

	/* A tile of at most c window indices holds each channel once. */
	if (rows > c && win > c)
		return 0;
	for (a = 0; a < rf; a++) {
		int64_t wa = win - a * rows < rows ? win - a * rows : rows;
		int64_t gap = 0, end = col_folds > 1 ? a + rf : rf - 1;

		for (b = a + 1; b <= end && gap < cap; b++) {
			int64_t fb = b % rf;
			int64_t wb = win - fb * rows < rows ? win - fb * rows :
				rows;

			if (channels_meet(a * rows, wa, fb * rows, wb, c))
				return 0;
			gap += len[fb];
		}
	}
	return 1;
}
