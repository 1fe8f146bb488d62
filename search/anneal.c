/* Simulated annealing on one island: a single chain of points minimising a
 * weighted sum of the logarithms of the objectives.
 *
 * Logarithms make the weights mean trade-offs of ratios (halving the
 * latency is worth doubling the DSPs at equal weights) whatever the units.
 * Every island has its own weights unless the user gives them, so the
 * islands together pull towards different parts of the front, and each
 * keeps an archive of every feasible point it met, which is what the
 * result's front is made of: the chain itself is only a way to walk.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heuristic.h"

/* The score of an illegal point: worse than any legal one, equal for all,
 * so a chain that starts among illegal points walks freely until it finds
 * a legal one and never goes back.
 */
#define ILLEGAL_SCORE 1e9
/* A point over a constraint costs this much (in log units, a factor of
 * e^20) plus as much per unit of normalised violation.
 */
#define OVER_PENALTY 20.0
/* The temperature falls geometrically to this fraction of T0. */
#define FINAL_TEMP 1e-3
#define MIN_VALUE 1e-12

/* The i-th element (i >= 1) of the van der Corput sequence in base b. */
static double radical_inverse(unsigned i, unsigned b)
{
	double f = 1.0, r = 0.0;

	while (i > 0) {
		f /= b;
		r += f * (i % b);
		i /= b;
	}
	return r;
}

void search__anneal_weights(const search__ctx *c, int island, double *w)
{
	static const unsigned base[SEARCH_MAX_OBJECTIVES] = {
		2, 3, 5, 7, 11, 13 };
	const search_options *opt = c->opt;
	int j, m = opt->n_obj, given = 0;
	double sum = 0;

	for (j = 0; j < m; j++)
		given |= opt->weights[j] != 0;
	if (given) {
		for (j = 0; j < m; j++)
			w[j] = opt->weights[j];
		return;
	}
	if (m == 1) {
		w[0] = 1;
		return;
	}
	if (m == 2) {
		/* Evenly spaced along the segment, ends excluded. */
		w[0] = (island + 0.5) / c->n_islands;
		w[1] = 1 - w[0];
		return;
	}
	/* Normalised exponentials of a Halton point are spread uniformly
	 * over the simplex, evenly for any number of islands.
	 */
	for (j = 0; j < m; j++) {
		double u = radical_inverse((unsigned) island + 1, base[j]);

		w[j] = -log(u > 0 ? u : 0.5);
		sum += w[j];
	}
	for (j = 0; j < m; j++)
		w[j] /= sum;
}

/* The annealing score of a classified individual under weights w. */
static double score(const search__ctx *c, const double *w,
	const search__indiv *ind)
{
	double s = 0;
	int j;

	if (ind->cls == 2)
		return ILLEGAL_SCORE;
	for (j = 0; j < c->opt->n_obj; j++) {
		double v = sim_metrics_get(&ind->p.metrics,
			c->opt->objectives[j]);

		v = v > MIN_VALUE ? v : MIN_VALUE;
		/* A maximised metric v counts as 1 / v. */
		s += w[j] * (sim_metric_minimise(c->opt->objectives[j]) ?
			log(v) : -log(v));
	}
	if (ind->cls == 1)
		s += OVER_PENALTY * (1 + ind->viol);
	return s;
}

static int better(const search__indiv *a, const search__indiv *b)
{
	if (a->score != b->score)
		return a->score < b->score;
	return a->p.index < b->p.index;
}

/* Keeps the best "migrants" points met, distinct, best first. */
static void elite_offer(const search__ctx *c, search__island *is,
	const search__indiv *ind)
{
	int i, cap = c->migrants, at;

	if (cap <= 0)
		return;
	for (i = 0; i < is->n_elite; i++)
		if (is->elite[i].p.index == ind->p.index)
			return;
	at = is->n_elite;
	while (at > 0 && better(ind, &is->elite[at - 1]))
		at--;
	if (at >= cap)
		return;
	if (is->n_elite < cap)
		is->n_elite++;
	memmove(&is->elite[at + 1], &is->elite[at],
		sizeof(*is->elite) * (is->n_elite - 1 - at));
	is->elite[at] = *ind;
}

static int eval_scored(const search__ctx *c, search__island *is,
	const int32_t *knobs, search__indiv *ind)
{
	memset(ind, 0, sizeof(*ind));
	memcpy(ind->p.knobs, knobs, sizeof(ind->p.knobs));
	if (search__island_eval(c, is, &ind->p) < 0)
		return -1;
	search__indiv_classify(c, ind);
	ind->score = score(c, is->weight, ind);
	elite_offer(c, is, ind);
	return 0;
}

/* T0 from the spread of the first points' scores: the standard deviation
 * of the feasible ones, so a typical difference among good points is
 * accepted with probability about 1/e at first.
 */
static double first_temperature(const search__indiv *ind, int n)
{
	double sum = 0, sum2 = 0, sd;
	int i, m = 0;

	for (i = 0; i < n; i++)
		if (ind[i].cls == 0) {
			sum += ind[i].score;
			sum2 += ind[i].score * ind[i].score;
			m++;
		}
	if (m < 2)
		return 1.0;
	sd = sqrt(fmax(0.0, (sum2 - sum * sum / m) / (m - 1)));
	return sd > 1e-9 ? sd : 1.0;
}

int search__anneal_first(const search__ctx *c, search__island *is)
{
	uint64_t left = is->budget - is->used, steps;
	int n = left < (uint64_t) c->population ? (int) left : c->population;
	int32_t knobs[SEARCH_MAX_KNOBS];
	search__indiv *first = calloc(n ? n : 1, sizeof(*first));
	int i;

	if (!first)
		return -1;
	search__anneal_weights(c, is->id, is->weight);
	for (i = 0; i < n; i++) {
		search__initial_point(c, is, i, knobs);
		if (eval_scored(c, is, knobs, &first[i]) < 0) {
			free(first);
			return -1;
		}
		if (i == 0 || better(&first[i], &is->cur))
			is->cur = first[i];
	}
	is->temp = first_temperature(first, n);
	steps = is->budget - is->used;
	is->alpha = steps ? pow(FINAL_TEMP, 1.0 / (double) steps) : 1.0;
	is->generation++;
	free(first);
	return 0;
}

/* A neighbour of the current point the island has not evaluated, when
 * SEARCH_DUP_TRIES moves find one.
 */
static void neighbour(const search__ctx *c, search__island *is,
	int32_t *knobs)
{
	int t;

	for (t = 0; t < SEARCH_DUP_TRIES; t++) {
		memcpy(knobs, is->cur.p.knobs, sizeof(is->cur.p.knobs));
		search__mutate(c->ops, &is->rng, knobs);
		/* Later tries take two steps, to get out of a corner whose
		 * neighbours were all seen.
		 */
		if (t >= SEARCH_DUP_TRIES / 2)
			search__mutate(c->ops, &is->rng, knobs);
		if (!search__seen_has(&is->seen,
				search_space_encode(c->space, knobs)))
			return;
	}
}

int search__anneal_step(const search__ctx *c, search__island *is)
{
	uint64_t left = is->budget - is->used, i;
	uint64_t n = left < (uint64_t) c->population ? left :
		(uint64_t) c->population;
	int32_t knobs[SEARCH_MAX_KNOBS];
	search__indiv next;

	if (is->generation == 0)
		return search__anneal_first(c, is);
	for (i = 0; i < n; i++) {
		double d;

		neighbour(c, is, knobs);
		if (eval_scored(c, is, knobs, &next) < 0)
			return -1;
		d = next.score - is->cur.score;
		/* The draw is made for every step, accepted or not, so the
		 * sequence of draws does not depend on rounding of d.
		 */
		if (search__rng_unit(&is->rng) < exp(-fmax(d, 0) / is->temp) ||
		    d <= 0)
			is->cur = next;
		is->temp *= is->alpha;
	}
	is->generation++;
	return 0;
}

int search__anneal_emigrants(const search__ctx *c, const search__island *is,
	search_point *out, int n)
{
	int i;

	(void) c;
	for (i = 0; i < n && i < is->n_elite; i++)
		out[i] = is->elite[i].p;
	return i;
}

int search__anneal_immigrate(const search__ctx *c, search__island *is,
	const search_point *in, int n)
{
	search__indiv best, ind;
	int i, have = 0;

	for (i = 0; i < n; i++) {
		memset(&ind, 0, sizeof(ind));
		ind.p = in[i];
		search__indiv_classify(c, &ind);
		ind.score = score(c, is->weight, &ind);
		if (search__seen_add(&is->seen, in[i].index) < 0)
			return -1;
		if (!have || better(&ind, &best))
			best = ind;
		have = 1;
	}
	/* The best immigrant under this island's weights takes over the
	 * chain when it beats the current point.
	 */
	if (have && is->generation > 0 && better(&best, &is->cur)) {
		is->cur = best;
		elite_offer(c, is, &best);
	}
	return 0;
}
