/* Pruning whole sub-ranges of an exhaustive sweep by bounds.
 *
 * The mixed-radix index range is a tree: a node of depth d is a prefix of
 * d knob values, and its points, the indices that share it, are a
 * contiguous run.  For a node the evaluator gives (1) the status its
 * prefix alone decides (prefix_status: an illegal value, or values that do
 * not divide one another), which every point of the node then has, and
 * (2) the best metrics any legal point of the node can have (bound_box,
 * over the box of the prefix's values and the free knobs' extremes).  A
 * node is settled whole when its prefix is illegal; it is skipped when its
 * bound breaks a constraint, or when a point of the reference beats its
 * bound.
 *
 * Why skipping keeps the front.  Let b be a node's bound and q a point of
 * the reference: a feasible point of the space, evaluated.  Every legal
 * point p of the node has every objective no better than b's.  If q is no
 * worse than b in every objective and better in one, it is better than p
 * in that one, so q beats p; if q ties b everywhere and q's index is below
 * the node's first, q ties or betters p and has the smaller index, so q
 * beats p again (the front's tie rule).  So no point of the node is
 * unbeaten by a feasible point, and none is on the front; since the
 * relation is a strict partial order, dropping points that a feasible
 * point beats leaves the set of unbeaten points as it was, whatever else
 * is dropped.  A band (two-stage search) widens q by (1 + band) before
 * comparing, exactly as the band's own relation does.  A bounded front
 * (front_max) that outgrew its bound keeps points by boxes, breaking ties
 * by a key (the sum of the objectives' logarithms) before the index: q
 * skips a node only when it also beats every point of it under that rule
 * at any level (ref_beats), so the same argument holds there.  A node whose bound
 * breaks a constraint holds no feasible point at all.  The same argument
 * holds for every point of a node whose bound is checked, so checking
 * deeper nodes, or leaves, only skips more.
 *
 * The reference is fixed for the whole sweep (the front of a sample of the
 * space, evaluated before it), so which points are skipped depends only
 * on the space, the model and the options: the counters, like the front,
 * are the same for any number of ranks and threads and any checkpoint.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

/* Nodes smaller than this are not checked (but leaves may be): a bound
 * costs about an evaluation, so a node of 2 or 3 points saves too little.
 */
#define MIN_NODE 4

/* The most points the reference keeps.  Every node's check may compare
 * its bound with each of them, and with many objectives the sample's
 * front holds thousands of points, which would cost far more than the
 * evaluations pruning saves; any subset of feasible points is as sound a
 * reference.
 */
#define MAX_REF 64

struct ref {
	double obj[SEARCH_MAX_OBJECTIVES];	/* minimised, widened */
	double key;		/* the box rule's tie key, unwidened */
	uint64_t index;
};

struct search__pruner {
	const search_space *space;
	search_evaluator ev;
	const search_options *opt;
	int n;
	int32_t lo[SEARCH_MAX_KNOBS];	/* each knob's least value */
	int32_t hi[SEARCH_MAX_KNOBS];	/* and greatest */
	uint64_t size[SEARCH_MAX_KNOBS + 1];	/* points of a node */
	int check[SEARCH_MAX_KNOBS + 1];	/* depths whose nodes are
						 * checked (1..n-1; n: leaves) */
	double widen;
	double sign[SEARCH_MAX_OBJECTIVES];	/* -1: a maximised metric */
	struct ref *ref;	/* sorted by the first objective */
	double *best1;		/* 2 objectives: the least second
				 * objective of ref[0..i] */
	size_t n_ref;
};

/* Objective j of metrics m, minimised (a maximised metric negated). */
static double objective(const search_options *opt, const sim_metrics *m,
	int j)
{
	double v = sim_metrics_get(m, opt->objectives[j]);

	return sim_metric_minimise(opt->objectives[j]) ? v : -v;
}

search__pruner *search__pruner_alloc(const search_space *space,
	const search_evaluator *ev, const search_options *opt)
{
	search__pruner *pr;
	int k, i, n = search_space_n_knobs(space);

	if (!opt->prune || !ev->prefix_status || !ev->bound_box ||
	    search_space_size(space) == UINT64_MAX)
		return NULL;
	pr = calloc(1, sizeof(*pr));
	if (!pr)
		return NULL;
	pr->space = space;
	pr->ev = *ev;
	pr->opt = opt;
	pr->n = n;
	pr->widen = opt->model == SIM_MODEL_SAMPLED ? 1.0 + opt->band : 1.0;
	pr->size[n] = 1;
	for (k = n - 1; k >= 0; k--) {
		pr->size[k] = pr->size[k + 1] *
			(uint64_t) search_space_knob_size(space, k);
		pr->lo[k] = pr->hi[k] = search__space_value(space, k, 0);
		for (i = 1; i < search_space_knob_size(space, k); i++) {
			int32_t v = search__space_value(space, k, i);

			pr->lo[k] = v < pr->lo[k] ? v : pr->lo[k];
			pr->hi[k] = v > pr->hi[k] ? v : pr->hi[k];
		}
	}
	for (k = 1; k < n; k++)
		pr->check[k] = pr->size[k] >= MIN_NODE;
	for (k = 0; k < opt->n_obj; k++)
		pr->sign[k] = sim_metric_minimise(opt->objectives[k]) ? 1 : -1;
	return pr;
}

search__pruner *search__pruner_free(search__pruner *pr)
{
	if (pr) {
		free(pr->ref);
		free(pr->best1);
		free(pr);
	}
	return NULL;
}

int search__pruner_checks(const search__pruner *pr, int depth)
{
	return pr->check[depth];
}

void search__pruner_set_leaves(search__pruner *pr, int on)
{
	pr->check[pr->n] = on;
}

uint64_t search__pruner_node_size(const search__pruner *pr, int depth)
{
	return pr->size[depth];
}

static int cmp_ref(const void *va, const void *vb)
{
	const struct ref *a = va, *b = vb;

	if (a->obj[0] != b->obj[0])
		return a->obj[0] < b->obj[0] ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* Worsens a minimised objective by the band's factor, as front.c does. */
static double worsen(double v, double widen)
{
	return v >= 0 ? v * widen : v / widen;
}

int search__pruner_set_reference(search__pruner *pr,
	const search_front *front)
{
	size_t i, n = search_front_size(front);
	int j, n_obj = pr->opt->n_obj;

	free(pr->ref);
	free(pr->best1);
	pr->ref = malloc(sizeof(*pr->ref) * (n ? n : 1));
	pr->best1 = malloc(sizeof(*pr->best1) * (n ? n : 1));
	pr->n_ref = 0;
	if (!pr->ref || !pr->best1)
		return -1;
	for (i = 0; i < n; i++) {
		const search_point *p = search_front_at(front, i);
		double raw[SEARCH_MAX_OBJECTIVES];

		for (j = 0; j < n_obj; j++) {
			raw[j] = objective(pr->opt, &p->metrics, j);
			pr->ref[i].obj[j] = pr->widen == 1.0 ? raw[j] :
				worsen(raw[j], pr->widen);
		}
		pr->ref[i].key = search__box_key(n_obj, pr->sign, raw);
		pr->ref[i].index = p->index;
	}
	qsort(pr->ref, n, sizeof(*pr->ref), cmp_ref);
	/* An even share of the sorted front, the same on every rank. */
	if (n > MAX_REF) {
		for (i = 0; i < MAX_REF; i++)
			pr->ref[i] = pr->ref[i * n / MAX_REF];
		n = MAX_REF;
	}
	pr->n_ref = n;
	for (i = 0; n_obj == 2 && i < n; i++)
		pr->best1[i] = i == 0 || pr->ref[i].obj[1] < pr->best1[i - 1] ?
			pr->ref[i].obj[1] : pr->best1[i - 1];
	return 0;
}

/* Whether reference point q beats every legal point p of a node whose
 * bound is b (*key: b's tie key, NaN until needed) and whose first index
 * is "first", under the exact rule and under the box rule of a bounded
 * front at any level (front.c).  Every p is no better than b in any
 * objective, and its key is at least b's (the key never decreases as an
 * objective worsens).  q (widened by the band, if any) no worse than b
 * everywhere is no worse than p everywhere, and its boxes are no worse
 * than p's.  If q's index is below "first" it wins every tie with p.
 * Otherwise q must be better than b in one objective (so better than p
 * there: the exact rule), and have a smaller key than b (so smaller than
 * p's: where the boxes all tie, the box rule goes by the key).
 */
static int ref_beats(const search__pruner *pr, const struct ref *q,
	const double *b, double *key, uint64_t first)
{
	int j, better = 0, n_obj = pr->opt->n_obj;

	for (j = 0; j < n_obj; j++) {
		if (q->obj[j] > b[j])
			return 0;
		better |= q->obj[j] < b[j];
	}
	if (q->index < first)
		return 1;
	if (!better)
		return 0;
	/* b's key (logarithms) only where a tie must be broken. */
	if (isnan(*key))
		*key = search__box_key(n_obj, pr->sign, b);
	return q->key < *key;
}

/* Whether some reference point beats bound b.  With two objectives the
 * points no worse than b in the first are a prefix of the sorted
 * reference, and none of them beats b if the least second objective
 * among them is above b's; else, and with more objectives, every
 * candidate is looked at.
 */
static int beaten(const search__pruner *pr, const double *b, uint64_t first)
{
	size_t lo = 0, hi = pr->n_ref, i;
	int n_obj = pr->opt->n_obj;
	double key = NAN;

	if (n_obj == 2) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (pr->ref[mid].obj[0] <= b[0])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0 || pr->best1[lo - 1] > b[1])
			return 0;
	}
	for (i = 0; i < hi; i++)
		if (ref_beats(pr, &pr->ref[i], b, &key, first))
			return 1;
	return 0;
}

int search__pruner_node(const search__pruner *pr, const int32_t *knobs,
	int depth, uint64_t first, int *status)
{
	int32_t lo[SEARCH_MAX_KNOBS], hi[SEARCH_MAX_KNOBS];
	double b[SEARCH_MAX_OBJECTIVES];
	sim_metrics best;
	const search_options *opt = pr->opt;
	int k, j;

	*status = pr->ev.prefix_status(pr->ev.model, knobs, depth);
	if (*status != SIM_OK)
		return SEARCH__SETTLED;
	for (k = 0; k < pr->n; k++) {
		lo[k] = k < depth ? knobs[k] : pr->lo[k];
		hi[k] = k < depth ? knobs[k] : pr->hi[k];
	}
	pr->ev.bound_box(pr->ev.model, lo, hi, &best);
	/* No legal point, but the statuses may differ point by point: the
	 * points are looked at one by one, so their counts stay exact.
	 */
	if (best.status != SIM_OK)
		return SEARCH__KEEP;
	/* A minimised metric's bound is a lower one: it can break a
	 * ceiling; a maximised one's (GFLOP/s) is an upper one: it can
	 * break a floor.
	 */
	for (k = 0; k < opt->n_constraints; k++) {
		int metric = opt->constraints[k].metric;
		double v = sim_metrics_get(&best, metric);

		if (sim_metric_minimise(metric) ?
		    v > opt->constraints[k].max : v < opt->constraints[k].min)
			return SEARCH__OVER;
	}
	for (j = 0; j < opt->n_obj; j++)
		b[j] = objective(opt, &best, j);
	return pr->n_ref && beaten(pr, b, first) ? SEARCH__BEATEN :
		SEARCH__KEEP;
}
