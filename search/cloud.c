/* The cloud: a bottom-k sketch of the evaluated points.
 *
 * A point's rank is a hash of its index (the splitmix64 finaliser, a
 * bijection of 64-bit values, so no two indices tie), and the cloud keeps
 * the "max" points of smallest hash.  That set depends only on the set of
 * indices offered, never on the order or on how offers were split over
 * threads and ranks and merged, which is what makes the cloud as
 * reproducible as the front.
 *
 * A max-heap on the hash makes an add O(log k); when the cloud is full, an
 * offer whose hash is not below the heap's top (almost every offer of a
 * long sweep) costs one compare.  A small open-addressing set of the hashes
 * kept catches a point offered twice.  A ceiling, when the caller knows
 * one (the k-th smallest hash of a merged cloud that this one will be
 * merged into), turns away hopeless offers just as cheaply before the
 * cloud is full.
 */
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

struct slot {
	uint64_t h;
	size_t at;		/* the point's position in "p" */
};

struct search_cloud {
	size_t max;
	size_t n;
	search_point *p;	/* n points, any order */
	size_t cap;
	struct slot *heap;	/* n slots, a max-heap on h */
	int heap_ok;		/* 0 after a sort reordered "p" */
	uint64_t *set;		/* the hashes kept; 0 marks a free cell */
	size_t set_cap;		/* a power of two, at least 2n */
	int has_zero;		/* hash 0 is kept (it cannot go in "set") */
	uint64_t ceiling;	/* hashes from here up are never kept */
	/* The largest hash an offer may have to be worth a look: below the
	 * ceiling and, once full, below the heap's top.  When either is 0
	 * this wraps to UINT64_MAX, and the full check below decides.
	 */
	uint64_t keep_max;
};

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

search_cloud *search_cloud_alloc(size_t max)
{
	search_cloud *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->max = max;
	c->heap_ok = 1;
	c->ceiling = UINT64_MAX;
	c->keep_max = UINT64_MAX;
	return c;
}

search_cloud *search_cloud_free(search_cloud *cloud)
{
	if (!cloud)
		return NULL;
	free(cloud->p);
	free(cloud->heap);
	free(cloud->set);
	free(cloud);
	return NULL;
}

/* --- the set of hashes (linear probing, backward-shift deletion) -------- */

static int set_has(const search_cloud *c, uint64_t h)
{
	size_t m, i;

	if (h == 0)
		return c->has_zero;
	if (!c->set_cap)
		return 0;
	m = c->set_cap - 1;
	for (i = h & m; c->set[i]; i = (i + 1) & m)
		if (c->set[i] == h)
			return 1;
	return 0;
}

static void set_put(search_cloud *c, uint64_t h)
{
	size_t m = c->set_cap - 1, i;

	if (h == 0) {
		c->has_zero = 1;
		return;
	}
	for (i = h & m; c->set[i]; i = (i + 1) & m)
		;
	c->set[i] = h;
}

static void set_del(search_cloud *c, uint64_t h)
{
	size_t m = c->set_cap - 1, i, j, home;

	if (h == 0) {
		c->has_zero = 0;
		return;
	}
	for (i = h & m; c->set[i] != h; i = (i + 1) & m)
		;
	/* Shift later members of the run back over the hole, unless their
	 * home cell lies cyclically in (i, j], where they must stay.
	 */
	for (j = (i + 1) & m; c->set[j]; j = (j + 1) & m) {
		home = c->set[j] & m;
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		c->set[i] = c->set[j];
		i = j;
	}
	c->set[i] = 0;
}

/* Room for one more point and its hash. */
static int reserve(search_cloud *c)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		search_point *p;
		struct slot *heap;

		if (cap > c->max)
			cap = c->max;
		p = realloc(c->p, cap * sizeof(*p));
		if (!p)
			return -1;
		c->p = p;
		heap = realloc(c->heap, cap * sizeof(*heap));
		if (!heap)
			return -1;
		c->heap = heap;
		c->cap = cap;
	}
	if (2 * (c->n + 1) > c->set_cap) {
		size_t cap = c->set_cap ? 2 * c->set_cap : 128, i;
		uint64_t *old = c->set;
		size_t old_cap = c->set_cap;

		c->set = calloc(cap, sizeof(*c->set));
		if (!c->set) {
			c->set = old;
			return -1;
		}
		c->set_cap = cap;
		for (i = 0; i < old_cap; i++)
			if (old[i])
				set_put(c, old[i]);
		free(old);
	}
	return 0;
}

/* --- the heap ----------------------------------------------------------- */

static void sift_up(struct slot *heap, size_t i)
{
	struct slot s = heap[i];

	while (i > 0 && heap[(i - 1) / 2].h < s.h) {
		heap[i] = heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = s;
}

static void sift_down(struct slot *heap, size_t n, size_t i)
{
	struct slot s = heap[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && heap[c + 1].h > heap[c].h)
			c++;
		if (heap[c].h <= s.h)
			break;
		heap[i] = heap[c];
		i = c;
	}
	heap[i] = s;
}

static void rebuild_heap(search_cloud *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		c->heap[i].h = mix(c->p[i].index);
		c->heap[i].at = i;
	}
	for (i = c->n / 2; i-- > 0;)
		sift_down(c->heap, c->n, i);
	c->heap_ok = 1;
}

/* Recomputes keep_max after the ceiling or the heap's top moved. */
static void update_keep_max(search_cloud *c)
{
	uint64_t m = c->ceiling - 1;

	if (c->n == c->max && c->max > 0 && c->heap[0].h - 1 < m)
		m = c->heap[0].h - 1;
	c->keep_max = m;
}

void search__cloud_set_ceiling(search_cloud *cloud, uint64_t ceiling)
{
	if (ceiling < cloud->ceiling) {
		cloud->ceiling = ceiling;
		update_keep_max(cloud);
	}
}

uint64_t search__cloud_ceiling(const search_cloud *cloud)
{
	return cloud && cloud->max > 0 && cloud->n == cloud->max ?
		cloud->heap[0].h : UINT64_MAX;
}

int search_cloud_add(search_cloud *cloud, const search_point *p)
{
	uint64_t h = mix(p->index);
	search_cloud *c = cloud;

	/* The fast path of a long sweep: one compare. */
	if (h > c->keep_max)
		return 0;
	if (h >= c->ceiling ||
	    (c->n == c->max && (c->max == 0 || h >= c->heap[0].h)))
		return 0;
	if (!c->heap_ok)
		rebuild_heap(c);
	if (set_has(c, h))
		return 0;
	if (c->n == c->max) {
		/* Replace the point of largest hash in place. */
		struct slot *top = &c->heap[0];

		set_del(c, top->h);
		set_put(c, h);
		c->p[top->at] = *p;
		top->h = h;
		sift_down(c->heap, c->n, 0);
		update_keep_max(c);
		return 1;
	}
	if (reserve(c) < 0)
		return -1;
	set_put(c, h);
	c->p[c->n] = *p;
	c->heap[c->n].h = h;
	c->heap[c->n].at = c->n;
	sift_up(c->heap, c->n);
	c->n++;
	if (c->n == c->max)
		update_keep_max(c);
	return 1;
}

dse_stat search_cloud_merge(search_cloud *cloud, const search_cloud *other,
	dse_error *err)
{
	size_t i;

	for (i = 0; i < other->n; i++)
		if (search_cloud_add(cloud, &other->p[i]) < 0)
			return dse_error_set(err, DSE_E_NOMEM,
				"out of memory merging clouds");
	return dse_stat_ok;
}

static int cmp_index(const void *va, const void *vb)
{
	const search_point *a = va, *b = vb;

	return (a->index > b->index) - (a->index < b->index);
}

void search_cloud_sort(search_cloud *cloud)
{
	if (cloud->n > 1)
		qsort(cloud->p, cloud->n, sizeof(*cloud->p), cmp_index);
	/* The heap's positions are stale now; the next add rebuilds it. */
	cloud->heap_ok = cloud->n <= 1;
}

size_t search_cloud_size(const search_cloud *cloud)
{
	return cloud ? cloud->n : 0;
}

const search_point *search_cloud_at(const search_cloud *cloud, size_t i)
{
	return &cloud->p[i];
}
