/* NSGA-II (Deb, Pratap, Agarwal and Meyarivan, 2002) on one island, and the
 * neighbourhood operators it shares with simulated annealing.
 *
 * The operators work on tiling chains.  A legal chain top >= v0 >= v1 ...
 * (each a multiple of the next) is a factorisation of its values into
 * ratios v[j-1] / v[j]; moving a prime p from one ratio to another
 * multiplies (or divides) by p every level between them.  Such a move
 * keeps a divisor chain a divisor chain, so once a population has found
 * legal chains, its children stay legal, while uniform changes of single
 * knobs would almost always break them.
 */
#include <stdlib.h>
#include <string.h>

#include "heuristic.h"

#define MAX_MOVES 512
#define P_CROSSOVER 0.9
#define P_SECOND_MOVE 0.3

/* A chain (its knobs ordered by level, n > 1 possible) or a lone knob. */
struct group {
	int n;
	int knob[SEARCH_MAX_KNOBS];
	int64_t top;		/* 0 for a knob without a chain */
};

struct valpos {
	int32_t value;
	int digit;
};

struct search__ops {
	const search_space *space;
	int n_knobs;
	int n_groups;
	struct group g[SEARCH_MAX_KNOBS];
	struct valpos *sorted[SEARCH_MAX_KNOBS];	/* by value */
	int size[SEARCH_MAX_KNOBS];
};

static int cmp_valpos(const void *va, const void *vb)
{
	const struct valpos *a = va, *b = vb;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->digit - b->digit;
}

/* Groups the knobs: chains in the order of their first knob, each
 * chain's knobs by level, then every knob without a chain alone.
 */
static void build_groups(search__ops *ops)
{
	int chain_of[SEARCH_MAX_KNOBS], level[SEARCH_MAX_KNOBS];
	int64_t top[SEARCH_MAX_KNOBS];
	int k, j, done[SEARCH_MAX_KNOBS] = { 0 };

	for (k = 0; k < ops->n_knobs; k++)
		chain_of[k] = search_space_knob_chain(ops->space, k, &level[k],
			&top[k]);
	for (k = 0; k < ops->n_knobs; k++) {
		struct group *g;

		if (done[k])
			continue;
		g = &ops->g[ops->n_groups++];
		g->n = 0;
		g->top = 0;
		if (chain_of[k] < 0) {
			g->knob[g->n++] = k;
			continue;
		}
		for (j = k; j < ops->n_knobs; j++)
			if (!done[j] && chain_of[j] == chain_of[k]) {
				int i = g->n++;

				/* Insertion by level keeps the order stable. */
				while (i > 0 && level[g->knob[i - 1]] > level[j]) {
					g->knob[i] = g->knob[i - 1];
					i--;
				}
				g->knob[i] = j;
				done[j] = 1;
			}
		g->top = top[g->knob[0]];
	}
}

search__ops *search__ops_alloc(const search_space *space, dse_error *err)
{
	search__ops *ops = calloc(1, sizeof(*ops));
	int k, d;

	if (!ops) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	ops->space = space;
	ops->n_knobs = search_space_n_knobs(space);
	for (k = 0; k < ops->n_knobs; k++) {
		ops->size[k] = search_space_knob_size(space, k);
		ops->sorted[k] = malloc(sizeof(struct valpos) * ops->size[k]);
		if (!ops->sorted[k]) {
			dse_error_set(err, DSE_E_NOMEM, "out of memory");
			return search__ops_free(ops);
		}
		for (d = 0; d < ops->size[k]; d++) {
			ops->sorted[k][d].value = search__space_value(space, k, d);
			ops->sorted[k][d].digit = d;
		}
		qsort(ops->sorted[k], ops->size[k], sizeof(struct valpos),
			cmp_valpos);
	}
	build_groups(ops);
	return ops;
}

search__ops *search__ops_free(search__ops *ops)
{
	int k;

	if (!ops)
		return NULL;
	for (k = 0; k < ops->n_knobs; k++)
		free(ops->sorted[k]);
	free(ops);
	return NULL;
}

/* The list position of value v of knob k (its first one); -1 when the
 * value is not listed.
 */
static int digit_of(const search__ops *ops, int k, int64_t v)
{
	int lo = 0, hi = ops->size[k];

	if (v < INT32_MIN || v > INT32_MAX)
		return -1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (ops->sorted[k][mid].value < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ops->size[k] && ops->sorted[k][lo].value == v)
		return ops->sorted[k][lo].digit;
	return -1;
}

void search__random_point(const search__ops *ops, uint64_t *rng,
	int32_t *knobs)
{
	int k;

	for (k = 0; k < ops->n_knobs; k++)
		knobs[k] = search__space_value(ops->space, k,
			(int) search__rng_below(rng, ops->size[k]));
}

/* A random listed value of knob k that divides "outer" (every value when
 * outer is 0) and is at most "max" (no bound when max is 0).
 */
static int32_t pick_dividing(const search__ops *ops, uint64_t *rng, int k,
	int64_t outer, int64_t max)
{
	int d, n = 0, pick;

	for (d = 0; d < ops->size[k]; d++) {
		int64_t v = ops->sorted[k][d].value;

		if (v >= 1 && (!max || v <= max) && (!outer || outer % v == 0))
			n++;
	}
	if (n == 0)
		return search__space_value(ops->space, k,
			(int) search__rng_below(rng, ops->size[k]));
	pick = (int) search__rng_below(rng, n);
	for (d = 0; d < ops->size[k]; d++) {
		int64_t v = ops->sorted[k][d].value;

		if (v >= 1 && (!max || v <= max) && (!outer || outer % v == 0) &&
		    pick-- == 0)
			return (int32_t) v;
	}
	return ops->sorted[k][0].value;
}

void search__chain_point(const search__ops *ops, uint64_t *rng,
	int32_t *knobs)
{
	int gi, j;

	for (gi = 0; gi < ops->n_groups; gi++) {
		const struct group *g = &ops->g[gi];

		if (g->top == 0 && g->n == 1) {
			knobs[g->knob[0]] = search__space_value(ops->space,
				g->knob[0],
				(int) search__rng_below(rng, ops->size[g->knob[0]]));
			continue;
		}
		for (j = 0; j < g->n; j++)
			knobs[g->knob[j]] = pick_dividing(ops, rng, g->knob[j],
				j ? knobs[g->knob[j - 1]] : 0, j ? 0 : g->top);
	}
}

int search__chains_legal(const search__ops *ops, const int32_t *knobs)
{
	int gi, j;

	for (gi = 0; gi < ops->n_groups; gi++) {
		const struct group *g = &ops->g[gi];

		if (g->top == 0)
			continue;
		if (knobs[g->knob[0]] < 1 || knobs[g->knob[0]] > g->top)
			return 0;
		for (j = 1; j < g->n; j++)
			if (knobs[g->knob[j]] < 1 ||
			    knobs[g->knob[j - 1]] % knobs[g->knob[j]] != 0)
				return 0;
	}
	return 1;
}

/* The distinct primes of r (r >= 1) into p; returns how many (at most 16:
 * no 64-bit number has more).
 */
static int primes_of(int64_t r, int64_t *p)
{
	int n = 0;
	int64_t q;

	for (q = 2; q * q <= r && n < 16; q++)
		if (r % q == 0) {
			p[n++] = q;
			while (r % q == 0)
				r /= q;
		}
	if (r > 1 && n < 16)
		p[n++] = r;
	return n;
}

struct move {
	int lo, hi;
	int64_t p;
	int mul;
};

/* Whether levels lo..hi of the chain can all be multiplied (mul) or
 * divided by p while staying listed values.
 */
static int move_fits(const search__ops *ops, const struct group *g,
	const int32_t *knobs, int lo, int hi, int64_t p, int mul)
{
	int j;

	for (j = lo; j <= hi; j++) {
		int64_t v = knobs[g->knob[j]];

		if (!mul && v % p != 0)
			return 0;
		if (digit_of(ops, g->knob[j], mul ? v * p : v / p) < 0)
			return 0;
	}
	return 1;
}

/* The primes that may enter the chain at level lo from above: those of
 * the ratio to the level above, or, at level 0, those of top / v0 (when
 * the top is not a multiple of v0, as with padded tiles, the small primes
 * that keep v0 * p within the top).
 */
static int primes_above(const struct group *g, const int32_t *knobs, int lo,
	int64_t *p)
{
	static const int64_t small[] = { 2, 3, 5, 7 };
	int64_t v = knobs[g->knob[lo]], up;
	int n = 0, i;

	if (v < 1)
		return 0;
	up = lo ? knobs[g->knob[lo - 1]] : g->top;
	if (up % v == 0)
		return primes_of(up / v, p);
	if (lo)
		return 0;
	for (i = 0; i < 4; i++)
		if (v * small[i] <= up)
			p[n++] = small[i];
	return n;
}

/* Lists the prime moves of chain g (see the file comment). */
static int chain_moves(const search__ops *ops, const struct group *g,
	const int32_t *knobs, struct move *mv)
{
	int64_t p[16];
	int n = 0, lo, hi, np, i;

	for (lo = 0; lo < g->n; lo++)
		for (hi = lo; hi < g->n; hi++) {
			int64_t v = knobs[g->knob[hi]];
			int64_t below = hi + 1 < g->n ? knobs[g->knob[hi + 1]] : 1;

			np = primes_above(g, knobs, lo, p);
			for (i = 0; i < np && n < MAX_MOVES; i++)
				if (move_fits(ops, g, knobs, lo, hi, p[i], 1))
					mv[n++] = (struct move) { lo, hi, p[i], 1 };
			np = below >= 1 && v >= 1 && v % below == 0 ?
				primes_of(v / below, p) : 0;
			for (i = 0; i < np && n < MAX_MOVES; i++)
				if (move_fits(ops, g, knobs, lo, hi, p[i], 0))
					mv[n++] = (struct move) { lo, hi, p[i], 0 };
		}
	return n;
}

/* Moves knob k to a neighbouring list position or a random one; returns
 * 0 when the knob has a single value.
 */
static int plain_move(const search__ops *ops, uint64_t *rng, int k,
	int32_t *knobs)
{
	int s = ops->size[k], d = digit_of(ops, k, knobs[k]), nd;
	int32_t old = knobs[k];

	if (s < 2)
		return 0;
	if (d < 0 || search__rng_below(rng, 2)) {
		nd = (int) search__rng_below(rng, (uint64_t) s - 1);
		if (d >= 0 && nd >= d)
			nd++;
	} else if (d == 0) {
		nd = 1;
	} else if (d == s - 1) {
		nd = s - 2;
	} else {
		nd = search__rng_below(rng, 2) ? d + 1 : d - 1;
	}
	knobs[k] = search__space_value(ops->space, k, nd);
	return knobs[k] != old;
}

/* One move on group g; returns 0 when nothing could change. */
static int mutate_group(const search__ops *ops, uint64_t *rng,
	const struct group *g, int32_t *knobs)
{
	struct move mv[MAX_MOVES];
	int n, j, i;

	if (g->top != 0) {
		n = chain_moves(ops, g, knobs, mv);
		if (n > 0) {
			const struct move *m = &mv[search__rng_below(rng, n)];

			for (j = m->lo; j <= m->hi; j++) {
				int64_t v = knobs[g->knob[j]];

				knobs[g->knob[j]] = (int32_t) (m->mul ? v * m->p :
					v / m->p);
			}
			return 1;
		}
		/* A chain no prime move fits (an illegal one, usually):
		 * change one of its knobs directly.
		 */
		j = (int) search__rng_below(rng, g->n);
		for (i = 0; i < g->n; i++)
			if (plain_move(ops, rng, g->knob[(j + i) % g->n], knobs))
				return 1;
		return 0;
	}
	return plain_move(ops, rng, g->knob[0], knobs);
}

void search__mutate(const search__ops *ops, uint64_t *rng, int32_t *knobs)
{
	int start = (int) search__rng_below(rng, ops->n_groups), i;

	for (i = 0; i < ops->n_groups; i++)
		if (mutate_group(ops, rng, &ops->g[(start + i) % ops->n_groups],
				knobs))
			return;
}

void search__crossover(const search__ops *ops, uint64_t *rng,
	const int32_t *a, const int32_t *b, int32_t *child)
{
	int gi, j;

	for (gi = 0; gi < ops->n_groups; gi++) {
		const int32_t *from = search__rng_below(rng, 2) ? b : a;
		const struct group *g = &ops->g[gi];

		for (j = 0; j < g->n; j++)
			child[g->knob[j]] = from[g->knob[j]];
	}
}

/* --- the generations ----------------------------------------------------- */

static uint64_t left(const search__island *is)
{
	return is->budget - is->used;
}

/* Evaluates the knobs into ind (classified).  -1 on memory exhaustion. */
static int eval_indiv(const search__ctx *c, search__island *is,
	const int32_t *knobs, search__indiv *ind)
{
	memset(ind, 0, sizeof(*ind));
	memcpy(ind->p.knobs, knobs, sizeof(ind->p.knobs));
	if (search__island_eval(c, is, &ind->p) < 0)
		return -1;
	search__indiv_classify(c, ind);
	return 0;
}

int search__genetic_first(const search__ctx *c, search__island *is)
{
	uint64_t n = left(is) < (uint64_t) c->population ? left(is) :
		(uint64_t) c->population;
	int32_t knobs[SEARCH_MAX_KNOBS];
	uint64_t i;

	for (i = 0; i < n; i++) {
		search__initial_point(c, is, (int) i, knobs);
		if (eval_indiv(c, is, knobs, &is->pop[i]) < 0)
			return -1;
	}
	is->n_pop = (int) n;
	is->generation++;
	return search__nsga_sort(c, is->pop, is->n_pop);
}

/* A child of two tournament winners, re-mutated while it is a point the
 * island has evaluated (SEARCH_DUP_TRIES times, then random points as
 * many times; after that it is evaluated again).
 */
static void breed(const search__ctx *c, search__island *is, int32_t *child)
{
	const search__indiv *a, *b;
	int i, t;
	uint64_t x, y;

	x = search__rng_below(&is->rng, is->n_pop);
	y = search__rng_below(&is->rng, is->n_pop);
	/* The population is sorted best first: the smaller position wins. */
	a = &is->pop[x < y ? x : y];
	x = search__rng_below(&is->rng, is->n_pop);
	y = search__rng_below(&is->rng, is->n_pop);
	b = &is->pop[x < y ? x : y];
	if (search__rng_unit(&is->rng) < P_CROSSOVER)
		search__crossover(c->ops, &is->rng, a->p.knobs, b->p.knobs,
			child);
	else
		memcpy(child, a->p.knobs, sizeof(int32_t) * SEARCH_MAX_KNOBS);
	search__mutate(c->ops, &is->rng, child);
	if (search__rng_unit(&is->rng) < P_SECOND_MOVE)
		search__mutate(c->ops, &is->rng, child);
	for (t = 0; t < SEARCH_DUP_TRIES; t++) {
		if (!search__seen_has(&is->seen,
				search_space_encode(c->space, child)))
			return;
		search__mutate(c->ops, &is->rng, child);
	}
	for (i = 0; i < SEARCH_DUP_TRIES; i++) {
		if (!search__seen_has(&is->seen,
				search_space_encode(c->space, child)))
			return;
		search__random_point(c->ops, &is->rng, child);
	}
}

int search__genetic_step(const search__ctx *c, search__island *is)
{
	uint64_t n = left(is) < (uint64_t) c->population ? left(is) :
		(uint64_t) c->population, i;
	int32_t child[SEARCH_MAX_KNOBS];
	int total;

	if (is->n_pop == 0)
		return search__genetic_first(c, is);
	memset(child, 0, sizeof(child));
	for (i = 0; i < n; i++) {
		breed(c, is, child);
		if (eval_indiv(c, is, child, &is->pop[is->n_pop + i]) < 0)
			return -1;
	}
	total = is->n_pop + (int) n;
	/* (mu + lambda) survival: parents and children ranked together,
	 * the best "population" kept.
	 */
	if (search__nsga_sort(c, is->pop, total) < 0)
		return -1;
	is->n_pop = total < c->population ? total : c->population;
	is->generation++;
	return 0;
}

int search__genetic_emigrants(const search__ctx *c, const search__island *is,
	search_point *out, int n)
{
	int i;

	(void) c;
	for (i = 0; i < n && i < is->n_pop; i++)
		out[i] = is->pop[i].p;
	return i;
}

int search__genetic_immigrate(const search__ctx *c, search__island *is,
	const search_point *in, int n)
{
	int i, j, slot = is->n_pop - 1;

	for (i = 0; i < n; i++) {
		search__indiv ind;

		for (j = 0; j < is->n_pop; j++)
			if (is->pop[j].p.index == in[i].index)
				break;
		if (j < is->n_pop)
			continue;
		memset(&ind, 0, sizeof(ind));
		ind.p = in[i];
		search__indiv_classify(c, &ind);
		if (search__seen_add(&is->seen, in[i].index) < 0)
			return -1;
		/* The worst members make way; a small population grows. */
		if (is->n_pop < c->population)
			is->pop[is->n_pop++] = ind;
		else if (slot >= 0)
			is->pop[slot--] = ind;
	}
	return search__nsga_sort(c, is->pop, is->n_pop);
}
