/* sim_scale: sets of addresses kept as sorted runs, for counting the
 * distinct words a stretch of the IFMAP's stream reads.
 *
 * A window of a convolution reads a few runs of consecutive addresses (one
 * per filter row), and the windows of neighbouring output pixels overlap,
 * so the words a stretch of the stream reads are far fewer runs than
 * words.  Counting them as runs costs in proportion to the runs, where a
 * replay word by word costs in proportion to the words read.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "scale_internal.h"

void sim_scale__ivs_free(struct sim_scale__ivs *s)
{
	free(s->v);
	free(s->tmp);
	memset(s, 0, sizeof(*s));
}

/* Room for "n" runs in both buffers.  Returns -1 when memory runs out. */
static int ivs_reserve(struct sim_scale__ivs *s, int64_t n)
{
	struct sim_scale__iv *v;
	int64_t cap;

	if (n <= s->cap)
		return 0;
	cap = dse_max64(n, 2 * s->cap);
	cap = dse_max64(cap, 64);
	v = realloc(s->v, (size_t) cap * sizeof(*v));
	if (!v)
		return -1;
	s->v = v;
	v = realloc(s->tmp, (size_t) cap * sizeof(*v));
	if (!v)
		return -1;
	s->tmp = v;
	s->cap = cap;
	return 0;
}

int sim_scale__ivs_push(struct sim_scale__ivs *s, int64_t lo, int64_t hi)
{
	if (s->n && lo >= s->v[s->n - 1].lo && lo <= s->v[s->n - 1].hi) {
		/* Runs met in order mostly continue the previous one. */
		s->v[s->n - 1].hi = dse_max64(s->v[s->n - 1].hi, hi);
		return 0;
	}
	if (ivs_reserve(s, s->n + 1))
		return -1;
	s->v[s->n].lo = lo;
	s->v[s->n++].hi = hi;
	return 0;
}

/* Appends the run [lo, hi) to the sorted runs out[0 .. *n), joining it to
 * the last when they meet, and counts its new words into *words.
 */
static void put_run(struct sim_scale__iv *out, int64_t *n, int64_t *words,
	int64_t lo, int64_t hi)
{
	if (*n && lo <= out[*n - 1].hi) {
		if (hi > out[*n - 1].hi) {
			*words += hi - out[*n - 1].hi;
			out[*n - 1].hi = hi;
		}
		return;
	}
	out[*n].lo = lo;
	out[(*n)++].hi = hi;
	*words += hi - lo;
}

/* Merges the runs a[0 .. na) and b[0 .. nb), each sorted by their start,
 * into "out", joining those that meet; returns how many runs it wrote and
 * sets *words.
 */
static int64_t merge_runs(const struct sim_scale__iv *a, int64_t na,
	const struct sim_scale__iv *b, int64_t nb, struct sim_scale__iv *out,
	int64_t *words)
{
	int64_t i = 0, j = 0, n = 0;

	*words = 0;
	while (i < na || j < nb) {
		const struct sim_scale__iv *x = j >= nb ||
			(i < na && a[i].lo <= b[j].lo) ? &a[i++] : &b[j++];

		put_run(out, &n, words, x->lo, x->hi);
	}
	return n;
}

static void ivs_swap(struct sim_scale__ivs *s)
{
	struct sim_scale__iv *t = s->v;

	s->v = s->tmp;
	s->tmp = t;
}

int sim_scale__ivs_normalize(struct sim_scale__ivs *s)
{
	int64_t words = 0;

	if (ivs_reserve(s, s->n))
		return -1;
	/* A natural merge sort: the runs come as a few rising sequences,
	 * merged two by two until one is left.
	 */
	for (;;) {
		int64_t i = 0, n = 0, seqs = 0;

		words = 0;
		while (i < s->n) {
			int64_t m = i + 1, e, w;

			while (m < s->n && s->v[m].lo >= s->v[m - 1].lo)
				m++;
			e = m < s->n ? m + 1 : m;
			while (e < s->n && s->v[e].lo >= s->v[e - 1].lo)
				e++;
			n += merge_runs(s->v + i, m - i, s->v + m, e - m,
				s->tmp + n, &w);
			words += w;
			i = e;
			seqs++;
		}
		ivs_swap(s);
		s->n = n;
		if (seqs <= 1)
			break;
	}
	s->words = words;
	return 0;
}

/* The index of the first run of "s" that ends after "a". */
static int64_t ivs_find(const struct sim_scale__ivs *s, int64_t a)
{
	int64_t lo = 0, hi = s->n;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].hi <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t sim_scale__ivs_union_words(const struct sim_scale__ivs *u,
	const struct sim_scale__ivs *r)
{
	int64_t both = 0, i, k;

	if (!u->n || !r->n || r->v[0].lo >= u->v[u->n - 1].hi ||
	    r->v[r->n - 1].hi <= u->v[0].lo)
		return u->words + r->words;
	k = ivs_find(u, r->v[0].lo);
	for (i = 0; i < r->n && k < u->n; i++) {
		int64_t lo = r->v[i].lo, hi = r->v[i].hi, j;

		while (k < u->n && u->v[k].hi <= lo)
			k++;
		for (j = k; j < u->n && u->v[j].lo < hi; j++)
			both += dse_min64(hi, u->v[j].hi) -
				dse_max64(lo, u->v[j].lo);
	}
	return u->words + r->words - both;
}

int sim_scale__ivs_merge(struct sim_scale__ivs *u,
	const struct sim_scale__ivs *r)
{
	if (!r->n)
		return 0;
	if (ivs_reserve(u, u->n + r->n))
		return -1;
	if (!u->n || r->v[0].lo > u->v[u->n - 1].hi) {
		/* The usual case: the stream moves on to higher addresses. */
		memcpy(u->v + u->n, r->v, (size_t) r->n * sizeof(*r->v));
		u->n += r->n;
		u->words += r->words;
		return 0;
	}
	u->n = merge_runs(u->v, u->n, r->v, r->n, u->tmp, &u->words);
	ivs_swap(u);
	return 0;
}

int sim_scale__ivs_add(struct sim_scale__ivs *s, int64_t a)
{
	int64_t k = ivs_find(s, a);

	if (k < s->n && s->v[k].lo <= a)
		return 0;
	s->words++;
	if (k > 0 && s->v[k - 1].hi == a) {
		s->v[k - 1].hi++;
		if (k < s->n && s->v[k].lo == a + 1) {
			s->v[k - 1].hi = s->v[k].hi;
			memmove(s->v + k, s->v + k + 1,
				(size_t) (s->n - k - 1) * sizeof(*s->v));
			s->n--;
		}
		return 1;
	}
	if (k < s->n && s->v[k].lo == a + 1) {
		s->v[k].lo = a;
		return 1;
	}
	if (ivs_reserve(s, s->n + 1))
		return -1;
	memmove(s->v + k + 1, s->v + k, (size_t) (s->n - k) * sizeof(*s->v));
	s->v[k].lo = a;
	s->v[k].hi = a + 1;
	s->n++;
	return 1;
}
