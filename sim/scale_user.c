/* sim_scale: SCALE-Sim's read buffers in USER mode, which fetch their
 * operand in a fixed order at the user's bandwidth and stall the array
 * when a word comes late (the model is described in sim/scale_mem.c).
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "scale_internal.h"

enum { IF = SIM_SCALE_IFMAP, FI = SIM_SCALE_FILTER };

/* A walk over the prefetch order of an operand: "nb" tiles of "b_rows"
 * rows and "x_n" columns stacked, entry (m, x) of tile m / b_rows being the
 * operand element whose one index is m % b_rows and whose other is
 * (m / b_rows) x_n + x (nothing when that reaches "lim"); read along the
 * anti-diagonals (row falling, column rising) or row by row.
 */
struct order {
	const struct tabs *tb;
	int op, diag, v_is_i;
	int64_t nb, b_rows, x_n, lim;
	int64_t m_n;		/* nb * b_rows */
	int64_t d, m, x;	/* position */
};

static void order_reset(struct order *o)
{
	o->d = 0;
	o->m = 0;
	o->x = 0;
}

/* The next element in the order, or -2 at the end; -1 for nothing. */
static int64_t order_next(struct order *o)
{
	int64_t m = o->m, x = o->x, b, i, j, other;

	if (o->diag) {
		if (o->d >= o->m_n + o->x_n - 1)
			return -2;
		x = o->d - m;
		if (--o->m < dse_max64(0, o->d - o->x_n + 1)) {
			o->d++;
			o->m = dse_min64(o->d, o->m_n - 1);
		}
	} else {
		if (m >= o->m_n)
			return -2;
		if (++o->x == o->x_n) {
			o->x = 0;
			o->m++;
		}
	}
	b = m / o->b_rows;
	other = b * o->x_n + x;
	if (other >= o->lim)
		return -1;
	i = o->v_is_i ? m % o->b_rows : other;
	j = o->v_is_i ? other : m % o->b_rows;
	if (o->op == IF) {
		const struct tabs *tb = o->tb;

		if (tb->jr[j] >= tb->maxr[i] || tb->jc[j] >= tb->maxc[i])
			return -1;
		return tb->base[i] + tb->off[j];
	}
	return o->op == FI ? j * o->tb->win + i : i * o->tb->k + j;
}


/* How many moves of the window by p_sets bring address "a" into it: 0
 * when it is in already.  After m moves set s is in the window when
 * (s - start - m p) mod n < a_sets; that offset falls by p a move, and a
 * window at least as wide as a move cannot be jumped over.  The moves
 * grow with the offset, so the set nearest ahead of the start decides:
 * the first at or after the start, else (the offset wraps) the first of
 * all.  The sets of a word are ascending, so a binary search finds it
 * (a word of a weight-stationary FILTER is in hundreds of sets).
 */
static int64_t user_moves(const struct user_rd *r, int64_t a)
{
	int64_t lo = r->at[a], hi = r->at[a + 1], first = lo, off;

	if (lo == hi)
		return -1;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (r->sets[mid] < r->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Both the set and the start lie in [0, n_sets), so one addition
	 * takes the offset modulo n_sets.
	 */
	off = lo < r->at[a + 1] ? (int64_t) r->sets[lo] - r->start :
		(int64_t) r->sets[first] - r->start + r->n_sets;
	if (off < r->a_sets)
		return 0;
	return dse_cdiv(off - r->a_sets + 1, r->p_sets);
}

/* The words of a row at cycle "cycle"; returns SCALE-Sim's offset (the
 * hit latency 1 plus the stall).  Every move of the window fetches the
 * prefetch half, issued right after the previous fetch.
 */
int64_t sim_scale__user_row(struct user_rd *r, const int64_t *a, int64_t n,
	int64_t cycle)
{
	int64_t off = 1, i;

	for (i = 0; i < n; i++) {
		int64_t m = r->p_sets ? user_moves(r, a[i]) : 0;

		if (!m)
			continue;
		r->start = (r->start + m * r->p_sets) % r->n_sets;
		r->fetches += m;
		r->last += m * (r->lines_p + 1);
		if (r->last - (cycle + off) > 0)
			off = r->last - cycle;
	}
	return off;
}

/* The prefetch order of operand "op" (systolic_compute_*.py,
 * create_*_prefetch_mat): the tiles of the fold the operand depends on,
 * stacked; a tile of the row folds is "rows" wide, one of the column folds
 * "cols" wide.
 */
static void user_order(const struct sim_scale__geom *g, const struct tabs *tb,
	int op, struct order *o)
{
	/* Per dataflow and operand: tiles along the row folds, tile rows
	 * the window (else t), the tile row is the first index, anti-
	 * diagonal order.
	 */
	static const struct {
		int by_row, rows_sr, v_is_i, diag;
	} kinds[3][2] = {
		[SIM_SCALE_OS] = { { 1, 0, 0, 1 }, { 0, 0, 1, 1 } },
		[SIM_SCALE_WS] = { { 1, 0, 1, 1 }, { 0, 1, 1, 0 } },
		[SIM_SCALE_IS] = { { 0, 1, 0, 0 }, { 1, 0, 0, 1 } }
	};
	int df = g->arch->dataflow, by_row = kinds[df][op].by_row;

	memset(o, 0, sizeof(*o));
	o->tb = tb;
	o->op = op;
	o->diag = kinds[df][op].diag;
	o->v_is_i = kinds[df][op].v_is_i;
	o->b_rows = kinds[df][op].rows_sr ? g->sr : g->t;
	o->nb = by_row ? g->row_folds : g->col_folds;
	o->x_n = by_row ? g->arch->rows : g->arch->cols;
	o->lim = by_row ? g->sr : g->sc;
	o->m_n = o->nb * o->b_rows;
}

/* Starts a USER read buffer of "words" words over operand "op" of
 * "range" addresses: cuts its prefetch order into sets, notes the sets of
 * every word and sizes the window (fetched before the first cycle).
 * Returns -1 when memory runs out.
 */
int sim_scale__user_init(struct user_rd *r, const struct sim_scale__geom *g,
	const struct tabs *tb, int op, int64_t words, int64_t range)
{
	int64_t active = (words + 1) / 2, k = 0, a, i;
	struct order o;

	memset(r, 0, sizeof(*r));
	user_order(g, tb, op, &o);
	r->at = calloc((size_t) range + 2, sizeof(*r->at));
	if (!r->at)
		return -1;
	while ((a = order_next(&o)) != -2)
		if (a >= 0)
			r->at[a + 2]++;
	for (i = 0; i < range; i++)
		r->at[i + 2] += r->at[i + 1];
	r->valid = r->at[range + 1];
	r->sets = malloc((size_t) r->valid * sizeof(*r->sets) + 1);
	if (!r->sets)
		return -1;
	r->set_words = dse_cdiv(words, SIM_SCALE__SETS);
	order_reset(&o);
	while ((a = order_next(&o)) != -2)
		if (a >= 0)
			r->sets[r->at[a + 1]++] = (int32_t) (k++ / r->set_words);
	r->bw = g->arch->bandwidth;
	r->n_sets = r->valid / r->set_words + 1;
	r->a_sets = dse_min64(dse_cdiv(active, r->set_words), r->n_sets);
	r->p_sets = dse_min64(dse_cdiv(words - active, r->set_words),
		r->n_sets - r->a_sets);
	r->lines0 = dse_min64(dse_cdiv(active, r->bw),
		dse_cdiv(o.m_n * o.x_n, r->bw));
	r->lines_p = dse_cdiv(words - active, r->bw);
	r->last = -1;
	return 0;
}
