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
