/* NSGA-II's ranking: the fronts of constrained domination, the crowding
 * distance within each, and the population sorted best first.
 *
 * The fronts are found by efficient non-dominated sorting with binary
 * search (Zhang, Tian, Cheng and Jin, IEEE TEVC 2015): the individuals
 * are taken in an order in which every one comes after all that dominate
 * it, and each joins the first front none of whose members dominates it.
 * A front that holds a dominator of a point has one in every front before
 * it (domination is transitive), so that first front is found by binary
 * search.  The fronts are Deb's, point for point; the work is about
 * n log n front checks instead of Deb's n^2 domination tests, which made
 * the ranking the largest cost of a genetic search over an analytic model.
 * Deb's sort remains for a population with a NaN objective, which no
 * order can put after its dominators.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heuristic.h"

/* What the classes settle between a and b, as domination and the building
 * order below both see it: a lower class comes first, a smaller violation
 * first among infeasible points, nothing among illegal ones.  Returns 1
 * with the answer in *first, or 0 for two feasible points.
 */
static int by_class(const search__indiv *a, const search__indiv *b,
	int *first)
{
	if (a->cls != b->cls)
		*first = a->cls < b->cls;
	else if (a->cls == 1)
		*first = a->viol < b->viol;
	else if (a->cls == 2)
		*first = 0;
	else
		return 0;
	return 1;
}

/* Constrained domination: feasible beats infeasible, a smaller violation
 * beats a larger one, illegal points are all equally worst, and feasible
 * points compare by Pareto domination.
 */
static int dominates(int n_obj, const search__indiv *a,
	const search__indiv *b)
{
	int i, better = 0;

	if (by_class(a, b, &better))
		return better;
	for (i = 0; i < n_obj; i++) {
		if (a->obj[i] > b->obj[i])
			return 0;
		if (a->obj[i] < b->obj[i])
			better = 1;
	}
	return better;
}

static int cmp_rank(const void *va, const void *vb)
{
	const search__indiv *a = va, *b = vb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->crowd != b->crowd)
		return a->crowd > b->crowd ? -1 : 1;
	return (a->p.index > b->p.index) - (a->p.index < b->p.index);
}

struct keyed {
	double v;
	int i;
};

static int cmp_keyed(const void *va, const void *vb)
{
	const struct keyed *a = va, *b = vb;

	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->i - b->i;
}

/* Crowding distances of the members "idx" (n of them) of one front.  The
 * order of idx does not matter: ties are broken by position in "ind".
 */
static void crowding(int n_obj, search__indiv *ind, const int *idx, int n,
	struct keyed *tmp)
{
	int j, o;

	for (j = 0; j < n; j++)
		ind[idx[j]].crowd = 0;
	if (ind[idx[0]].cls == 2)
		return;
	for (o = 0; o < n_obj; o++) {
		double span;

		for (j = 0; j < n; j++)
			tmp[j] = (struct keyed) { ind[idx[j]].obj[o], idx[j] };
		qsort(tmp, n, sizeof(*tmp), cmp_keyed);
		span = tmp[n - 1].v - tmp[0].v;
		ind[tmp[0].i].crowd = ind[tmp[n - 1].i].crowd = 1e300;
		for (j = 1; j + 1 < n && span > 0; j++)
			ind[tmp[j].i].crowd += (tmp[j + 1].v - tmp[j - 1].v) /
				span;
	}
}

/* The order the fronts are built in: class, then violation (class 1) or
 * the objectives one after the other (class 0).  Whoever dominates a
 * point comes before it.
 */
static int before(int n_obj, const search__indiv *a, const search__indiv *b)
{
	int i, first;

	if (by_class(a, b, &first))
		return first;
	for (i = 0; i < n_obj; i++)
		if (a->obj[i] != b->obj[i])
			return a->obj[i] < b->obj[i];
	return 0;
}

/* Sorts the positions "ord" (n of them) by before(), stably, with "tmp"
 * (n entries) as the merge buffer.
 */
static void order(int n_obj, const search__indiv *ind, int *ord, int *tmp,
	int n)
{
	int width, lo;

	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			int mid = lo + width < n ? lo + width : n;
			int hi = lo + 2 * width < n ? lo + 2 * width : n;
			int i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				tmp[k++] = before(n_obj, &ind[ord[j]],
					&ind[ord[i]]) ? ord[j++] : ord[i++];
			while (i < mid)
				tmp[k++] = ord[i++];
			while (j < hi)
				tmp[k++] = ord[j++];
		}
		memcpy(ord, tmp, sizeof(int) * n);
	}
}

/* Whether a member of the front whose newest member is "head" (older ones
 * linked by "older") dominates "p".  The newest are tried first: in the
 * building order they are the nearest to p.
 */
static int front_dominates(int n_obj, const search__indiv *ind, int head,
	const int *older, int p)
{
	int q;

	for (q = head; q >= 0; q = older[q])
		if (dominates(n_obj, &ind[q], &ind[p]))
			return 1;
	return 0;
}

/* Sets every rank by efficient non-dominated sorting.  "w" holds 4n ints. */
static void rank_ens(int n_obj, search__indiv *ind, int n, int *w)
{
	int *ord = w, *tmp = w + n, *head = w + 2 * n, *older = w + 3 * n;
	int i, fronts = 0;

	for (i = 0; i < n; i++)
		ord[i] = i;
	order(n_obj, ind, ord, tmp, n);
	for (i = 0; i < n; i++) {
		int p = ord[i], lo = 0, hi = fronts;

		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;

			if (front_dominates(n_obj, ind, head[mid], older, p))
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == fronts)
			head[fronts++] = -1;
		older[p] = head[lo];
		head[lo] = p;
		ind[p].rank = lo;
	}
}

/* Sets every rank by Deb's fast non-dominated sort: domination counts,
 * then fronts peeled off one by one.  -1 on memory exhaustion.
 */
static int rank_deb(int n_obj, search__indiv *ind, int n, int *w)
{
	unsigned char *dom = malloc((size_t) n * n);
	int *count = w, *cur = w + n, *next = w + 2 * n;
	int i, j, r, n_cur = 0, n_next;

	if (!dom)
		return -1;
	memset(count, 0, sizeof(int) * n);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			dom[(size_t) i * n + j] = i != j &&
				dominates(n_obj, &ind[i], &ind[j]);
			count[j] += dom[(size_t) i * n + j];
		}
	for (i = 0; i < n; i++)
		if (count[i] == 0)
			cur[n_cur++] = i;
	for (r = 0; n_cur > 0; r++) {
		n_next = 0;
		for (i = 0; i < n_cur; i++) {
			ind[cur[i]].rank = r;
			for (j = 0; j < n; j++)
				if (dom[(size_t) cur[i] * n + j] && --count[j] == 0)
					next[n_next++] = j;
		}
		memcpy(cur, next, sizeof(int) * n_next);
		n_cur = n_next;
	}
	free(dom);
	return 0;
}

static int has_nan(int n_obj, const search__indiv *ind, int n)
{
	int i, o;

	for (i = 0; i < n; i++) {
		if (ind[i].cls == 1 && isnan(ind[i].viol))
			return 1;
		for (o = 0; ind[i].cls == 0 && o < n_obj; o++)
			if (isnan(ind[i].obj[o]))
				return 1;
	}
	return 0;
}

int search__nsga_sort(const search__ctx *c, search__indiv *ind, int n)
{
	int n_obj = c->opt->n_obj, i, r, n_ranks = 0, st = 0;
	int *w = malloc(sizeof(int) * 4 * (size_t) (n > 0 ? n : 1));
	struct keyed *tmp = malloc(sizeof(*tmp) * (size_t) (n > 0 ? n : 1));

	if (!w || !tmp) {
		free(w), free(tmp);
		return -1;
	}
	if (has_nan(n_obj, ind, n))
		st = rank_deb(n_obj, ind, n, w);
	else
		rank_ens(n_obj, ind, n, w);
	if (st == 0) {
		/* The members of each front, front after front, for the
		 * crowding distances: a counting sort by rank.
		 */
		int *start = w, *members = w + n + 1, *fill = w + 2 * n + 1;

		for (i = 0; i < n; i++)
			n_ranks = ind[i].rank + 1 > n_ranks ? ind[i].rank + 1 :
				n_ranks;
		memset(start, 0, sizeof(int) * (size_t) (n_ranks + 1));
		for (i = 0; i < n; i++)
			start[ind[i].rank + 1]++;
		for (r = 0; r < n_ranks; r++)
			start[r + 1] += start[r];
		memcpy(fill, start, sizeof(int) * (size_t) n_ranks);
		for (i = 0; i < n; i++)
			members[fill[ind[i].rank]++] = i;
		for (r = 0; r < n_ranks; r++)
			crowding(n_obj, ind, members + start[r],
				start[r + 1] - start[r], tmp);
		qsort(ind, (size_t) n, sizeof(*ind), cmp_rank);
	}
	free(w), free(tmp);
	return st;
}
