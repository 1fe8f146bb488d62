/* gnn: graph generators (R-MAT, uniform) and the dataset presets.
 *
 * The random numbers come from xoshiro256** seeded through splitmix64, so
 * a seed gives the same graph on every machine.  The edges are drawn in
 * blocks of BLOCK edges, each block with its own stream derived from
 * (seed, block number): the result does not depend on how the blocks are
 * scheduled, which leaves room to generate them in parallel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph_internal.h"

/* Edges per independent random stream. */
#define BLOCK ((int64_t) 1 << 16)

/* R-MAT draws an edge again when it lands outside the vertex range; after
 * this many misses in a row the probabilities leave (almost) no room
 * inside and the generator gives up instead of looping.
 */
#define MAX_REDRAWS 1000

/* The quadrant probabilities are quantised to 16 bits, so that one 64-bit
 * draw serves four levels of the recursion.
 */
#define PROB_BITS 16
#define LEVELS_PER_DRAW (64 / PROB_BITS)

/* GraphAGILE Table IV (dataset statistics): vertices, edges, input
 * feature length and classes of the seven benchmark graphs, in the
 * table's order.
 */
static const gnn_preset presets[] = {
	{ "citeseer", "Citeseer", "CI", 3327, 4732, 3703, 6 },
	{ "cora", "Cora", "CO", 2708, 5429, 1433, 7 },
	{ "pubmed", "Pubmed", "PU", 19717, 44338, 500, 3 },
	{ "flickr", "Flickr", "FL", 89250, 899756, 500, 7 },
	{ "reddit", "Reddit", "RE", 232965, 116069919, 602, 41 },
	{ "yelp", "Yelp", "YE", 716847, 6977410, 300, 100 },
	{ "amazon-products", "Amazon-Products", "AP", 1569960, 264339468,
	  200, 107 },
};

#define N_PRESETS ((int) (sizeof(presets) / sizeof(presets[0])))

/* The usual power-law setting of R-MAT the presets use. */
static const double preset_rmat[4] = { 0.57, 0.19, 0.19, 0.05 };

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The stream of block "block" under "seed". */
static void rng_seed(struct rng *r, uint64_t seed, uint64_t block)
{
	uint64_t x = seed ^ (block * 0xd1b54a32d192ed03ull);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* A uniform integer in [0, n), n <= 2^32, without bias (Lemire's
 * multiply-and-reject).
 */
static uint32_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t m = (rng_next(r) >> 32) * n;

	if ((uint32_t) m < n) {
		uint32_t floor = (uint32_t) ((((uint64_t) 1 << 32) - n) % n);

		while ((uint32_t) m < floor)
			m = (rng_next(r) >> 32) * n;
	}
	return (uint32_t) (m >> 32);
}

static dse_stat check_counts(int64_t nv, int64_t ne, dse_error *err)
{
	if (nv < 1 || nv > (int64_t) UINT32_MAX)
		return dse_error_set(err, DSE_E_INPUT,
			"a generated graph needs between 1 and %lu vertices, "
			"not %lld", (unsigned long) UINT32_MAX,
			(long long) nv);
	if (ne < 0)
		return dse_error_set(err, DSE_E_INPUT,
			"negative edge count %lld", (long long) ne);
	return dse_stat_ok;
}

/* The R-MAT recursion as integer thresholds on PROB_BITS-bit draws. */
struct rmat {
	uint32_t ta, tab, tabc;
	int levels;
	uint32_t nv;
};

/* The even bits of x, packed: the inverse of interleaving two 32-bit
 * numbers.
 */
static uint64_t even_bits(uint64_t x)
{
	x &= 0x5555555555555555ull;
	x = (x | x >> 1) & 0x3333333333333333ull;
	x = (x | x >> 2) & 0x0f0f0f0f0f0f0f0full;
	x = (x | x >> 4) & 0x00ff00ff00ff00ffull;
	x = (x | x >> 8) & 0x0000ffff0000ffffull;
	return (x | x >> 16) & 0x00000000ffffffffull;
}

/* Draws one edge; 0 when it lands outside the vertex range.  One 64-bit
 * draw serves LEVELS_PER_DRAW levels.  The quadrant number q = 0, 1, 2, 3
 * for a, b, c, d is the row (src) bit and the column (dst) bit: a has
 * neither, b the column, c the row, d both.  It is a sum of comparisons
 * (no branch to mispredict), and the quadrants of all levels are
 * collected as 2-bit digits of z, split into src and dst at the end.
 */
static int rmat_edge(const struct rmat *m, struct rng *r, uint32_t *src,
	uint32_t *dst)
{
	uint64_t z = 0, s, d;
	int level, t;

	for (level = 0; level < m->levels; level += LEVELS_PER_DRAW) {
		uint64_t bits = rng_next(r);
		int n = m->levels - level < LEVELS_PER_DRAW ?
			m->levels - level : LEVELS_PER_DRAW;

		for (t = 0; t < n; t++) {
			uint32_t u = (uint32_t) (bits >> (PROB_BITS * t)) &
				((1u << PROB_BITS) - 1);

			z = z << 2 | ((uint64_t) (u >= m->ta) +
				(uint64_t) (u >= m->tab) +
				(uint64_t) (u >= m->tabc));
		}
	}
	s = even_bits(z >> 1);
	d = even_bits(z);
	*src = (uint32_t) s;
	*dst = (uint32_t) d;
	return s < m->nv && d < m->nv;
}

static dse_stat rmat_setup(struct rmat *m, int64_t nv, double a, double b,
	double c, double d, dse_error *err)
{
	double p[4] = { a, b, c, d }, one = (double) (1u << PROB_BITS);
	int i;

	for (i = 0; i < 4; i++)
		if (!isfinite(p[i]) || p[i] < 0.0)
			return dse_error_set(err, DSE_E_INPUT,
				"R-MAT probability %c = %g must be a number "
				">= 0", "abcd"[i], p[i]);
	if (fabs(a + b + c + d - 1.0) > 1e-6)
		return dse_error_set(err, DSE_E_INPUT,
			"R-MAT probabilities a + b + c + d = %g, not 1",
			a + b + c + d);
	m->ta = (uint32_t) lround(a * one);
	m->tab = (uint32_t) lround((a + b) * one);
	m->tabc = (uint32_t) lround((a + b + c) * one);
	m->nv = (uint32_t) nv;
	for (m->levels = 0; ((int64_t) 1 << m->levels) < nv; m->levels++)
		;
	return dse_stat_ok;
}

/* Fills the edges of block "block"; -1 when some edge kept missing. */
static int rmat_block(const struct rmat *m, uint64_t seed, int64_t block,
	int64_t ne, uint32_t *src, uint32_t *dst)
{
	int64_t e, end = (block + 1) * BLOCK < ne ? (block + 1) * BLOCK : ne;
	struct rng r;

	rng_seed(&r, seed, (uint64_t) block);
	for (e = block * BLOCK; e < end; e++) {
		int miss = 0;

		while (!rmat_edge(m, &r, &src[e], &dst[e]))
			if (++miss == MAX_REDRAWS)
				return -1;
	}
	return 0;
}

/* The blocks are independent, so they may run in parallel when the
 * library is built with OpenMP, and give the same graph either way.
 */
static dse_stat rmat_fill(const struct rmat *m, int64_t ne, uint64_t seed,
	uint32_t *src, uint32_t *dst, dse_error *err)
{
	int64_t n_blocks = (ne + BLOCK - 1) / BLOCK, block;
	int failed = 0;

#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) reduction(|:failed)
#endif
	for (block = 0; block < n_blocks; block++)
		failed |= rmat_block(m, seed, block, ne, src, dst) < 0;
	if (failed)
		return dse_error_set(err, DSE_E_INPUT, "R-MAT probabilities "
			"put almost no edge inside %lu vertices",
			(unsigned long) m->nv);
	return dse_stat_ok;
}

static void uniform_block(uint64_t nv, uint64_t seed, int64_t block,
	int64_t ne, uint32_t *src, uint32_t *dst)
{
	int64_t e, end = (block + 1) * BLOCK < ne ? (block + 1) * BLOCK : ne;
	struct rng r;

	rng_seed(&r, seed, (uint64_t) block);
	for (e = block * BLOCK; e < end; e++) {
		src[e] = rng_below(&r, nv);
		dst[e] = rng_below(&r, nv);
	}
}

/* Allocates the two endpoint arrays, or fails with DSE_E_NOMEM. */
static dse_stat alloc_endpoints(int64_t ne, uint32_t **src, uint32_t **dst,
	dse_error *err)
{
	size_t n = ne > 0 ? (size_t) ne : 1;

	*src = NULL;
	*dst = NULL;
	if ((uint64_t) ne > SIZE_MAX / sizeof(uint32_t))
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	*src = malloc(n * sizeof(uint32_t));
	*dst = malloc(n * sizeof(uint32_t));
	if (!*src || !*dst) {
		free(*src);
		free(*dst);
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	return dse_stat_ok;
}

/* Builds the graph from generated arrays (taking them) and names it. */
static gnn_graph *finish(int64_t nv, int64_t ne, uint32_t *src,
	uint32_t *dst, const char *name, dse_error *err)
{
	gnn_graph *g = gnn__graph_take_edges(nv, ne, src, dst, NULL, err);

	if (g && gnn__graph_set_name(g, name, err) < 0)
		return gnn_graph_free(g);
	return g;
}

/* Renames the vertices of the edges by a random permutation drawn from
 * its own stream of "seed" (Fisher-Yates), as Graph500 relabels its
 * R-MAT graphs: R-MAT puts the heavy vertices at small ids and skews
 * their low bits, which a real dataset's numbering does not do and which
 * every structure banked by vertex id (feature banks, pipelines indexed
 * by id mod p) would otherwise see as conflicts.
 */
static dse_stat relabel(int64_t nv, int64_t ne, uint64_t seed,
	uint32_t *src, uint32_t *dst, dse_error *err)
{
	uint32_t *perm = malloc((size_t) nv * sizeof(*perm));
	struct rng r;
	int64_t i;

	if (!perm)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory "
			"relabelling %lld vertices", (long long) nv);
	for (i = 0; i < nv; i++)
		perm[i] = (uint32_t) i;
	rng_seed(&r, seed, UINT64_MAX);
	for (i = nv - 1; i > 0; i--) {
		uint32_t j = rng_below(&r, (uint64_t) i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
	for (i = 0; i < ne; i++) {
		src[i] = perm[src[i]];
		dst[i] = perm[dst[i]];
	}
	free(perm);
	return dse_stat_ok;
}

/* --- R-MAT without repeated edges --------------------------------------
 *
 * Real datasets are simple graphs, but R-MAT draws the heavy cells of its
 * matrix again and again: 116 M draws over Reddit's 232,965 vertices give
 * a vertex 836,725 in-edges, most of them copies, where the dataset has
 * at most one edge per pair.  The simple variant keeps one copy of every
 * edge, drops self loops, and draws again until it has the count asked
 * for.  A key is dst << levels | src, so sorted keys are the (dst, src)
 * order.
 */

/* Digits of the radix sort, and the rounds of redrawing before the
 * generator gives up on a matrix too crowded to hold the edges.
 */
#define RADIX_BITS 11
#define MAX_ROUNDS 64

/* Sorts x[0 .. n) (keys below 2^bits) with a least-significant-digit
 * radix sort through tmp (n entries): O(n bits / RADIX_BITS).
 */
static void radix_sort(uint64_t *x, uint64_t *tmp, int64_t n, int bits)
{
	static const uint64_t mask = ((uint64_t) 1 << RADIX_BITS) - 1;
	uint64_t *from = x, *to = tmp;
	int shift;

	for (shift = 0; shift < bits; shift += RADIX_BITS) {
		int64_t count[(int64_t) 1 << RADIX_BITS] = { 0 }, sum = 0, i;
		uint64_t *t;

		for (i = 0; i < n; i++)
			count[(from[i] >> shift) & mask]++;
		for (i = 0; i <= (int64_t) mask; i++) {
			int64_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i] >> shift) & mask]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	if (from != x)
		memcpy(x, from, (size_t) n * sizeof(*x));
}

/* Removes the repeats of sorted x[0 .. n); returns how many are left. */
static int64_t unique_keys(uint64_t *x, int64_t n)
{
	int64_t i, m = 0;

	for (i = 0; i < n; i++)
		if (!m || x[i] != x[m - 1])
			x[m++] = x[i];
	return m;
}

/* Draws the keys of "n" edges that are not self loops into "key", in
 * blocks whose streams are (seed, round << 40 | block); -1 when some
 * edge kept missing.
 */
static int simple_draw(const struct rmat *m, uint64_t seed, int round,
	int64_t n, uint64_t *key)
{
	int64_t n_blocks = (n + BLOCK - 1) / BLOCK, block;
	int failed = 0;

#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) reduction(|:failed)
#endif
	for (block = 0; block < n_blocks; block++) {
		int64_t e, end = (block + 1) * BLOCK < n ? (block + 1) * BLOCK :
			n;
		struct rng r;

		rng_seed(&r, seed, (uint64_t) round << 40 | (uint64_t) block);
		for (e = block * BLOCK; e < end && !failed; e++) {
			uint32_t s, d;
			int miss = 0;

			while (!rmat_edge(m, &r, &s, &d) || s == d)
				if (++miss == MAX_REDRAWS) {
					failed = 1;
					break;
				}
			key[e] = (uint64_t) d << m->levels | s;
		}
	}
	return failed ? -1 : 0;
}

/* Keeps the keys of sorted, distinct c[0 .. n) that sorted a[0 .. m)
 * lacks; returns how many.
 */
static int64_t drop_known(const uint64_t *a, int64_t m, uint64_t *c,
	int64_t n)
{
	int64_t i = 0, j, k = 0;

	for (j = 0; j < n; j++) {
		while (i < m && a[i] < c[j])
			i++;
		if (i == m || a[i] != c[j])
			c[k++] = c[j];
	}
	return k;
}

/* The k-th smallest (from 0) of the n distinct values of h, which it
 * reorders: Hoare's selection, expected O(n) on hashes.
 */
static uint64_t select_kth(uint64_t *h, int64_t n, int64_t k)
{
	int64_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint64_t pivot = h[lo + (hi - lo) / 2], t;
		int64_t i = lo, j = hi;

		while (i <= j) {
			while (h[i] < pivot)
				i++;
			while (h[j] > pivot)
				j--;
			if (i <= j) {
				t = h[i];
				h[i++] = h[j];
				h[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return h[k];
}

/* Keeps "want" of the n distinct keys of c (n > want), those of smallest
 * hash: a choice that does not lean on any part of the matrix and does
 * not depend on the order they were drawn in.  The splitmix64 finaliser
 * is a bijection, so distinct keys have distinct hashes.  h has room for
 * n values.  c stays sorted.
 */
static int64_t keep_some(uint64_t *c, int64_t n, int64_t want,
	uint64_t salt, uint64_t *h)
{
	uint64_t limit, x;
	int64_t i, k = 0;

	for (i = 0; i < n; i++) {
		x = c[i] ^ salt;
		h[i] = splitmix64(&x);
	}
	limit = select_kth(h, n, want - 1);
	for (i = 0; i < n; i++) {
		x = c[i] ^ salt;
		if (splitmix64(&x) <= limit)
			c[k++] = c[i];
	}
	return k;
}

/* Merges sorted c[0 .. n) into sorted a[0 .. m), which has room. */
static void merge_into(uint64_t *a, int64_t m, const uint64_t *c, int64_t n)
{
	int64_t i = m - 1, j = n - 1, o = m + n - 1;

	while (j >= 0)
		a[o--] = i >= 0 && a[i] > c[j] ? a[i--] : c[j--];
}

/* The most draws of a round after the first: half of "ne" (so that a
 * round's draws and their sort's scratch fit in ne keys), but at least a
 * block, so that the last few cells of a crowded matrix are not sought a
 * handful of draws at a time.
 */
static int64_t round_cap(int64_t ne)
{
	return ne / 2 + 1 > BLOCK ? ne / 2 + 1 : BLOCK;
}

/* Draws "ne" distinct edges, no self loop, into key (sorted): the first
 * round "ne" draws into key itself, every later one into cand what the
 * last round's yield of new edges says the shortfall needs (at most
 * round_cap draws; a round that finds none quarters the yield it
 * expects).  key has ne entries, cand 2 round_cap(ne) (at least ne).
 */
static dse_stat simple_fill(const struct rmat *m, int64_t ne, uint64_t seed,
	uint64_t *key, uint64_t *cand, dse_error *err)
{
	int bits = 2 * m->levels, round;
	int64_t have = 0, cap = round_cap(ne);
	double yield = 1;

	for (round = 0; have < ne && round < MAX_ROUNDS; round++) {
		int64_t want = ne - have, n = ne, got;
		uint64_t *c = round ? cand : key;

		if (round) {
			n = (int64_t) fmin(ceil((double) want / yield),
				(double) cap);
			n = n < want ? want : n;
		}
		if (simple_draw(m, seed, round, n, c) < 0)
			return dse_error_set(err, DSE_E_INPUT, "R-MAT "
				"probabilities put almost no edge inside %lu "
				"vertices", (unsigned long) m->nv);
		radix_sort(c, round ? cand + cap : cand, n, bits);
		if (!round) {
			have = unique_keys(key, n);
			yield = (double) have / (double) n;
			continue;
		}
		got = drop_known(key, have, cand, unique_keys(cand, n));
		yield = got > 0 ? (double) got / (double) n : yield / 4;
		if (got > want)
			got = keep_some(cand, got, want, seed ^ (uint64_t) round,
				cand + cap);
		merge_into(key, have, cand, got);
		have += got;
	}
	if (have < ne)
		return dse_error_set(err, DSE_E_INPUT, "R-MAT cannot place "
			"%lld distinct edges among %lu vertices: %lld after %d "
			"rounds of up to %lld draws", (long long) ne,
			(unsigned long) m->nv, (long long) have, MAX_ROUNDS,
			(long long) cap);
	return dse_stat_ok;
}

/* The simple R-MAT graph's endpoints, from its sorted keys. */
static dse_stat simple_rmat(const struct rmat *m, int64_t ne, uint64_t seed,
	uint32_t **src, uint32_t **dst, dse_error *err)
{
	uint64_t *key, *cand, low = ((uint64_t) 1 << m->levels) - 1;
	int64_t e;
	dse_stat st;

	*src = *dst = NULL;
	if ((double) ne > (double) m->nv * ((double) m->nv - 1))
		return dse_error_set(err, DSE_E_INPUT, "%lld edges do not fit "
			"a simple graph of %lu vertices (at most %.0f)",
			(long long) ne, (unsigned long) m->nv,
			(double) m->nv * ((double) m->nv - 1));
	if ((uint64_t) ne > SIZE_MAX / (4 * sizeof(uint64_t)))
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	key = malloc((size_t) (ne ? ne : 1) * sizeof(*key));
	cand = malloc((size_t) (2 * round_cap(ne)) * sizeof(*cand));
	if (!key || !cand) {
		free(key);
		free(cand);
		return dse_error_set(err, DSE_E_NOMEM, "out of memory "
			"drawing %lld distinct edges", (long long) ne);
	}
	st = simple_fill(m, ne, seed, key, cand, err);
	free(cand);
	if (st < 0 || alloc_endpoints(ne, src, dst, err) < 0) {
		free(key);
		return dse_stat_error;
	}
	for (e = 0; e < ne; e++) {
		(*src)[e] = (uint32_t) (key[e] & low);
		(*dst)[e] = (uint32_t) (key[e] >> m->levels);
	}
	free(key);
	return dse_stat_ok;
}

/* R-MAT, without repeated edges or self loops when "simple" is set, with
 * the vertices relabelled at random when "shuffle" is set.
 */
static gnn_graph *rmat(int64_t n_vertices, int64_t n_edges, double a,
	double b, double c, double d, uint64_t seed, int simple, int shuffle,
	dse_error *err)
{
	struct rmat m = { 0 };
	uint32_t *src = NULL, *dst = NULL;
	char name[160];

	if (check_counts(n_vertices, n_edges, err) < 0 ||
	    rmat_setup(&m, n_vertices, a, b, c, d, err) < 0)
		return NULL;
	if ((simple ? simple_rmat(&m, n_edges, seed, &src, &dst, err) < 0 :
	    alloc_endpoints(n_edges, &src, &dst, err) < 0 ||
	    rmat_fill(&m, n_edges, seed, src, dst, err) < 0) ||
	    (shuffle && relabel(n_vertices, n_edges, seed, src, dst,
		err) < 0)) {
		free(src);
		free(dst);
		return NULL;
	}
	snprintf(name, sizeof(name),
		"rmat%s(n=%lld,e=%lld,a=%g,b=%g,c=%g,d=%g,seed=%llu)",
		simple ? "_simple" : "", (long long) n_vertices,
		(long long) n_edges, a, b, c, d, (unsigned long long) seed);
	return finish(n_vertices, n_edges, src, dst, name, err);
}

gnn_graph *gnn_graph_rmat(int64_t n_vertices, int64_t n_edges, double a,
	double b, double c, double d, uint64_t seed, dse_error *err)
{
	return rmat(n_vertices, n_edges, a, b, c, d, seed, 0, 0, err);
}

gnn_graph *gnn_graph_rmat_simple(int64_t n_vertices, int64_t n_edges,
	double a, double b, double c, double d, uint64_t seed, dse_error *err)
{
	return rmat(n_vertices, n_edges, a, b, c, d, seed, 1, 0, err);
}

gnn_graph *gnn_graph_uniform(int64_t n_vertices, int64_t n_edges,
	uint64_t seed, dse_error *err)
{
	uint32_t *src, *dst;
	int64_t block;
	char name[96];

	if (check_counts(n_vertices, n_edges, err) < 0 ||
	    alloc_endpoints(n_edges, &src, &dst, err) < 0)
		return NULL;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
	for (block = 0; block < (n_edges + BLOCK - 1) / BLOCK; block++)
		uniform_block((uint64_t) n_vertices, seed, block, n_edges, src,
			dst);
	snprintf(name, sizeof(name), "uniform(n=%lld,e=%lld,seed=%llu)",
		(long long) n_vertices, (long long) n_edges,
		(unsigned long long) seed);
	return finish(n_vertices, n_edges, src, dst, name, err);
}

/* --- presets ------------------------------------------------------------ */

int gnn_preset_count(void)
{
	return N_PRESETS;
}

const gnn_preset *gnn_preset_at(int i)
{
	return i >= 0 && i < N_PRESETS ? &presets[i] : NULL;
}

const gnn_preset *gnn_preset_find(const char *name)
{
	int i;

	for (i = 0; name && i < N_PRESETS; i++)
		if (!strcasecmp(name, presets[i].name))
			return &presets[i];
	return NULL;
}

void gnn_preset_names(char *buf, size_t size)
{
	size_t used = 0;
	int i;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	for (i = 0; i < N_PRESETS && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%s",
			i ? ", " : "", presets[i].name);

		if (n < 0)
			break;
		used += (size_t) n;
	}
}

gnn_graph *gnn_graph_preset(const gnn_preset *p, uint64_t seed,
	dse_error *err)
{
	gnn_graph *g;
	char name[96];

	if (!p) {
		dse_error_set(err, DSE_E_INPUT, "no preset given");
		return NULL;
	}
	g = rmat(p->n_vertices, p->n_edges, preset_rmat[0], preset_rmat[1],
		preset_rmat[2], preset_rmat[3], seed, 1, 1, err);
	if (!g)
		return NULL;
	snprintf(name, sizeof(name), "synthetic-%s", p->name);
	if (gnn__graph_set_name(g, name, err) < 0)
		return gnn_graph_free(g);
	return g;
}
