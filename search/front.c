/* Pareto fronts with a deterministic tie rule.
 *
 * Point a beats point b when a is no worse in every objective and either
 * better in one or, on a full tie, has the smaller index.  This relation is
 * a strict partial order, so the set of unbeaten points of any union of
 * partial fronts is the same however the union was split and merged: that
 * is what makes fronts identical for any number of ranks and threads.
 *
 * A band widens the rule: a beats b when a, with every objective worsened
 * by the factor (1 + band), still beats b as above.  Worsening is monotone
 * and never improves a value (metrics are never negative), so if a beats
 * b and b beats c, a's worsened values are no better than b's, which are
 * no better than b's worsened ones, which beat c: the relation stays a
 * strict partial order, and everything said above about splits and merges
 * holds for bands too.
 *
 * A bounded front (search_front_limit) that outgrows its bound moves to a
 * coarser level of boxes in log space, each level twice as wide as the
 * one before and aligned at 1, so the boxes of every front of a search
 * form one grid per level.  The box rule is a strict partial order too.
 * A dropped point is beaten by one whose boxes are no worse, so it lies
 * within one box width of it; levels only grow along the way a point
 * travels (a thread's front, its gains, root's front), and box dominance
 * at one level is transitive, so a chain of drops costs at most the sum
 * of the widths of the levels it crossed, which is below twice the last.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

struct entry {
	double obj[SEARCH_MAX_OBJECTIVES];
	/* At thinning levels above 0: the point's box in each objective and
	 * the sum of its log objectives, which orders the points of a box.
	 */
	int64_t box[SEARCH_MAX_OBJECTIVES];
	double key;
	search_point p;
};

/* Beyond this box width (in natural-log units) every finite objective
 * (|log| < 745) falls in box -1 or 0, so wider boxes thin nothing more.
 * There each objective has at most four boxes (with the ones of a zero
 * cost and a zero throughput), and a front of 6 objectives holds at most
 * the largest antichain of that grid, 580 points: below
 * SEARCH_MIN_FRONT_MAX, so the bound always holds.
 */
#define WIDTH_CEILING 2048.0

struct search_front {
	int n_obj;
	int objectives[SEARCH_MAX_OBJECTIVES];
	double sign[SEARCH_MAX_OBJECTIVES];	/* -1 for maximised metrics */
	double widen;		/* 1 + band */
	size_t max;		/* 0: no bound */
	double base;		/* log(1 + eps) of level 1 */
	int level;		/* 0: exact */
	double width;		/* log box width at this level; 0 while exact */
	struct entry *e;
	size_t n;
	size_t cap;
};

search_front *search_front_alloc(int n_obj, const int *objectives)
{
	return search_front_alloc_band(n_obj, objectives, 0.0);
}

search_front *search_front_alloc_band(int n_obj, const int *objectives,
	double band)
{
	search_front *front;
	int i;

	if (n_obj < 1 || n_obj > SEARCH_MAX_OBJECTIVES || !isfinite(band) ||
	    band < 0)
		return NULL;
	front = calloc(1, sizeof(*front));
	if (!front)
		return NULL;
	front->n_obj = n_obj;
	front->widen = 1.0 + band;
	front->base = log1p(SEARCH_DEFAULT_FRONT_RESOLUTION);
	for (i = 0; i < n_obj; i++) {
		front->objectives[i] = objectives[i];
		front->sign[i] = sim_metric_minimise(objectives[i]) ? 1 : -1;
	}
	return front;
}

search_front *search_front_free(search_front *front)
{
	if (!front)
		return NULL;
	free(front->e);
	free(front);
	return NULL;
}

/* A sign-adjusted objective made worse by the factor "widen": minimised
 * values (>= 0) grow, maximised ones (stored negated, <= 0) shrink towards
 * zero, i.e. the metric is divided.
 */
static double worsen(double v, double widen)
{
	return v >= 0 ? v * widen : v / widen;
}

/* Whether entry a beats entry b under the rule in the file comment, or at
 * thinning levels above 0 under the box rule of search_front_limit.
 */
static int beats(const search_front *f, const struct entry *a,
	const struct entry *b)
{
	int i, better = 0;

	if (f->level > 0) {
		for (i = 0; i < f->n_obj; i++) {
			if (a->box[i] > b->box[i])
				return 0;
			if (a->box[i] < b->box[i])
				better = 1;
		}
		if (better || a->key != b->key)
			return better || a->key < b->key;
		return a->p.index < b->p.index;
	}
	for (i = 0; i < f->n_obj; i++) {
		double av = f->widen == 1.0 ? a->obj[i] :
			worsen(a->obj[i], f->widen);

		if (av > b->obj[i])
			return 0;
		if (av < b->obj[i])
			better = 1;
	}
	return better || a->p.index < b->p.index;
}

/* An objective's box at the front's level: its logarithm, oriented so
 * that smaller is better (a maximised metric's is negated), divided by the
 * width and rounded down.  A zero cost is the best box there is and a zero
 * maximised metric the worst.
 */
static int64_t box_of(const search_front *f, int i, double obj)
{
	double v = f->sign[i] > 0 ? log(obj) : -log(-obj);
	double q;

	if (v == -INFINITY)
		return INT64_MIN;
	if (!(v < INFINITY))	/* +inf or NaN */
		return INT64_MAX;
	q = floor(v / f->width);
	return q < -9e18 ? INT64_MIN : q > 9e18 ? INT64_MAX : (int64_t) q;
}

/* One objective's share of the tie key: its logarithm as box_of takes it,
 * clamped to [-1e4, 1e4].
 */
static double key_term(double sign, double obj)
{
	double v = sign > 0 ? log(obj) : -log(-obj);

	return v < -1e4 ? -1e4 : v > 1e4 || v != v ? 1e4 : v;
}

double search__box_key(int n_obj, const double *sign, const double *obj)
{
	double key = 0;
	int i;

	for (i = 0; i < n_obj; i++)
		key += key_term(sign[i], obj[i]);
	return key;
}

static void set_box(const search_front *f, struct entry *e)
{
	int i;

	e->key = 0;
	if (f->level == 0)
		return;
	for (i = 0; i < f->n_obj; i++)
		e->box[i] = box_of(f, i, e->obj[i]);
	e->key = search__box_key(f->n_obj, f->sign, e->obj);
}

/* Adds an entry (its box already set) under the current rule. */
static int insert(search_front *front, const struct entry *in)
{
	size_t i, j;

	for (i = 0; i < front->n; i++)
		if (beats(front, &front->e[i], in))
			return 0;
	for (i = j = 0; i < front->n; i++) {
		if (beats(front, in, &front->e[i]))
			continue;
		if (i != j)
			front->e[j] = front->e[i];
		j++;
	}
	front->n = j;
	if (front->n == front->cap) {
		size_t cap = front->cap ? 2 * front->cap : 64;
		struct entry *e = realloc(front->e, cap * sizeof(*e));

		if (!e)
			return -1;
		front->e = e;
		front->cap = cap;
	}
	front->e[front->n++] = *in;
	return 1;
}

/* Rebuilds the front under the rule of level "level": what stays is the
 * set of entries no other entry beats there, whatever the order.
 */
static int rethin(search_front *front, int level)
{
	struct entry *old = front->e, e;
	size_t i, n = front->n, cap = front->cap;
	int old_level = front->level;
	double old_width = front->width;

	front->level = level;
	front->width = ldexp(front->base, level - 1);
	front->e = NULL;
	front->n = front->cap = 0;
	for (i = 0; i < n; i++) {
		e = old[i];
		set_box(front, &e);
		if (insert(front, &e) < 0) {
			/* Keep what was there rather than lose points. */
			free(front->e);
			front->e = old;
			front->n = n;
			front->cap = cap;
			front->level = old_level;
			front->width = old_width;
			return -1;
		}
	}
	free(old);
	return 0;
}

int search__front_raise(search_front *front, int level)
{
	return level > front->level ? rethin(front, level) : 0;
}

/* Coarser and coarser boxes until the front fits its bound again (or the
 * boxes cannot get any coarser): the finest boxes that fit.  Levels only
 * grow, so a front is rebuilt at most once per level, about 30 times in
 * all, however often it touches the bound.
 */
static int enforce(search_front *front)
{
	/* An exact front's width is 0. */
	while (front->max && front->n > front->max &&
	       front->width < WIDTH_CEILING)
		if (rethin(front, front->level + 1) < 0)
			return -1;
	/* WIDTH_CEILING's argument: the coarsest boxes fit any bound. */
	DSE_ASSERT(!front->max || front->n <= front->max);
	return 0;
}

static int add_entry(search_front *front, const double *obj,
	const search_point *p)
{
	struct entry in;
	int kept;

	/* Unused objective slots stay zero so sorting can compare all. */
	memset(&in, 0, offsetof(struct entry, p));
	memcpy(in.obj, obj, sizeof(double) * front->n_obj);
	in.p = *p;
	set_box(front, &in);
	kept = insert(front, &in);
	if (kept > 0 && enforce(front) < 0)
		return -1;
	return kept;
}

int search_front_limit(search_front *front, size_t max, double resolution)
{
	if ((max != 0 && max < SEARCH_MIN_FRONT_MAX) ||
	    !(resolution == 0 || (resolution >= 1e-6 && resolution <= 1)))
		return -1;
	front->max = max;
	front->base = log1p(resolution > 0 ? resolution :
		SEARCH_DEFAULT_FRONT_RESOLUTION);
	if (resolution > 0 && front->level == 0 && rethin(front, 1) < 0)
		return -1;
	return enforce(front);
}

double search_front_resolution(const search_front *front)
{
	return front->level > 0 ? expm1(front->width) : 0.0;
}

int search__front_level(const search_front *front)
{
	return front->level;
}

search_front *search__alloc_front(const search_options *opt)
{
	search_front *f = search_front_alloc_band(opt->n_obj, opt->objectives,
		opt->model == SIM_MODEL_SAMPLED ? opt->band : 0.0);

	if (f && search_front_limit(f, opt->front_max,
			opt->front_resolution) < 0)
		f = search_front_free(f);
	return f;
}

int search_front_add(search_front *front, const search_point *p)
{
	double obj[SEARCH_MAX_OBJECTIVES];
	int i;

	for (i = 0; i < front->n_obj; i++)
		obj[i] = front->sign[i] *
			sim_metrics_get(&p->metrics, front->objectives[i]);
	return add_entry(front, obj, p);
}

int search__front_add_many(search_front *front, const search_point *p,
	size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (search_front_add(front, &p[i]) < 0)
			return -1;
	return 0;
}

/* Offering a front's points one by one to an empty front tests each
 * against all kept before it: n^2 / 2 comparisons, about 9 s for the
 * band of a large two-stage sweep, spent before a resumed search could
 * write its first checkpoint.  But the points of a saved front beat none
 * of each other under the rule they were kept by (every insert keeps the
 * front so), and a checkpoint's state is checksummed, so the set is taken
 * as it is: O(n) after one pass of the box computation.  Points offered
 * to a front that already holds some go through insert().
 */
int search__front_restore(search_front *front, const search_point *p,
	size_t n)
{
	size_t i;

	if (front->n > 0 || n == 0)
		return search__front_add_many(front, p, n);
	if (n > front->cap) {
		struct entry *e = realloc(front->e, n * sizeof(*e));

		if (!e)
			return -1;
		front->e = e;
		front->cap = n;
	}
	for (i = 0; i < n; i++) {
		struct entry *in = &front->e[i];
		int j;

		memset(in, 0, offsetof(struct entry, p));
		for (j = 0; j < front->n_obj; j++)
			in->obj[j] = front->sign[j] *
				sim_metrics_get(&p[i].metrics,
					front->objectives[j]);
		in->p = p[i];
		set_box(front, in);
	}
	front->n = n;
	return enforce(front);
}

dse_stat search_front_merge(search_front *front, const search_front *other,
	dse_error *err)
{
	size_t i;

	if (search__front_raise(front, other->level) < 0)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory merging fronts");
	for (i = 0; i < other->n; i++)
		if (add_entry(front, other->e[i].obj, &other->e[i].p) < 0)
			return dse_error_set(err, DSE_E_NOMEM,
				"out of memory merging fronts");
	return dse_stat_ok;
}

static int cmp_entry(const void *va, const void *vb)
{
	const struct entry *a = va, *b = vb;
	int i;

	for (i = 0; i < SEARCH_MAX_OBJECTIVES; i++) {
		if (a->obj[i] < b->obj[i])
			return -1;
		if (a->obj[i] > b->obj[i])
			return 1;
	}
	return (a->p.index > b->p.index) - (a->p.index < b->p.index);
}

void search_front_sort(search_front *front)
{
	if (front->n > 1)
		qsort(front->e, front->n, sizeof(front->e[0]), cmp_entry);
}

size_t search_front_size(const search_front *front)
{
	return front ? front->n : 0;
}

const search_point *search_front_at(const search_front *front, size_t i)
{
	return &front->e[i].p;
}

/* How far entry e lies from the plain front "plain": the smallest factor f
 * such that some front point, worsened by f, is no better than e in any
 * objective.  Front points are at 1 (or below, on ties).
 */
static double distance(const search_front *band, const struct entry *e,
	const search_front *plain)
{
	double best = INFINITY;
	size_t j;
	int i;

	for (j = 0; j < plain->n; j++) {
		double f = 1.0;

		for (i = 0; i < band->n_obj; i++) {
			double q = fabs(plain->e[j].obj[i]);
			double p = fabs(e->obj[i]);
			double r;

			if (band->sign[i] > 0)
				r = q > 0 ? p / q : (p > 0 ? INFINITY : 1.0);
			else
				r = p > 0 ? q / p : (q > 0 ? INFINITY : 1.0);
			f = r > f ? r : f;
		}
		best = f < best ? f : best;
	}
	return best;
}

struct ranked {
	double d;
	struct entry e;
};

static int cmp_ranked(const void *va, const void *vb)
{
	const struct ranked *a = va, *b = vb;

	if (a->d != b->d)
		return a->d < b->d ? -1 : 1;
	return (a->e.p.index > b->e.p.index) - (a->e.p.index < b->e.p.index);
}

int search__front_cut(search_front *band, size_t max, size_t *cut)
{
	search_front *plain;
	struct ranked *r;
	size_t i;

	*cut = 0;
	if (band->n <= max)
		return 0;
	plain = search_front_alloc(band->n_obj, band->objectives);
	r = malloc(band->n * sizeof(*r));
	if (!plain || !r) {
		search_front_free(plain);
		free(r);
		return -1;
	}
	for (i = 0; i < band->n; i++)
		if (add_entry(plain, band->e[i].obj, &band->e[i].p) < 0) {
			search_front_free(plain);
			free(r);
			return -1;
		}
	for (i = 0; i < band->n; i++) {
		r[i].e = band->e[i];
		r[i].d = distance(band, &band->e[i], plain);
	}
	/* The closest points first, ties by index: a set that depends only
	 * on the band, never on how it was computed.
	 */
	qsort(r, band->n, sizeof(*r), cmp_ranked);
	for (i = 0; i < max; i++)
		band->e[i] = r[i].e;
	*cut = band->n - max;
	band->n = max;
	search_front_free(plain);
	free(r);
	search_front_sort(band);
	return 0;
}

void search__front_clear(search_front *front)
{
	front->n = 0;
}

double search_objective_value(const search_front *front,
	const search_point *p, int j)
{
	double v = sim_metrics_get(&p->metrics, front->objectives[j]);

	return front->sign[j] > 0 ? v : 1.0 / v;
}

int search__front_n_obj(const search_front *front)
{
	return front->n_obj;
}
