/* gnn: the graph itself (building, sorting, accessors), its degree
 * statistics and the fiber-shard partitioning of GraphAGILE section 6.5.
 *
 * Building sorts the edges by (dst, src) in time linear in |V| + |E|: a
 * counting sort by destination that scatters the sources (and weights,
 * when there are any) into their final arrays, then, within each
 * destination, a sort of the 64-bit keys (src, weight bits): an insertion
 * sort for short runs, an LSD radix sort skipping the bytes that do not
 * vary for long ones.  Ties are broken by the weight's bit pattern, so the
 * result only depends on the multiset of edges, not on their input order.
 *
 * The scatter writes are independent of one another, so the memory
 * system overlaps their cache misses (an in-place cycle-leader
 * permutation, which would need no second copy, chains them and is
 * several times slower on large graphs).  To keep the peak low anyway,
 * the destination array is rebuilt from in_ptr after the input arrays are
 * released, and unit weights are only written at the end: building from
 * owned arrays (gnn__graph_take_edges) peaks at 12 bytes per edge without
 * weights and 20 with them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"

struct gnn_graph {
	char *name;
	int64_t n_vertices;
	int64_t n_edges;
	uint32_t *src;
	uint32_t *dst;
	float *weight;
	int64_t *in_ptr;
	int borrowed;		/* the arrays and name live in memory the
				 * graph does not own (a node's shared copy,
				 * gnn/share.c) */
};

struct gnn_shards {
	const gnn_graph *g;
	int64_t n1;
	int64_t count;		/* shards per side */
	int64_t *offset;	/* count * count + 1 entries */
	uint32_t *edges;	/* n_edges edge numbers (n_edges < 2^32) */
	int borrowed;		/* offset and edges are not owned */
};

/* Runs at most this long are sorted by insertion: below it the 256-entry
 * histograms of the radix sort cost more than they save.
 */
#define INSERTION_MAX 48

/* The most shards per side gnn_shards_alloc accepts: 8192^2 = 2^26
 * subshards, whose offset table takes 512 MiB; beyond that the shard
 * height is surely a mistake (GraphAGILE's feature buffer holds 16384
 * vertices, section 7, which sets the scale of its n1).
 */
#define MAX_SIDE ((int64_t) 8192)

/* Allocates n items of "size" bytes, failing cleanly when n * size does
 * not fit in a size_t.
 */
static void *alloc_array(int64_t n, size_t size)
{
	if (n < 0 || (uint64_t) n > SIZE_MAX / size)
		return NULL;
	return malloc(n ? (size_t) n * size : 1);
}

gnn_graph *gnn_graph_free(gnn_graph *g)
{
	if (!g)
		return NULL;
	if (!g->borrowed) {
		free(g->name);
		free(g->src);
		free(g->dst);
		free(g->weight);
		free(g->in_ptr);
	}
	free(g);
	return NULL;
}

gnn_graph *gnn__graph_shell(int64_t n_vertices, int64_t n_edges)
{
	gnn_graph *g = calloc(1, sizeof(*g));

	if (g) {
		g->n_vertices = n_vertices;
		g->n_edges = n_edges;
		g->borrowed = 1;
	}
	return g;
}

/* Every array is listed with the size its counts give, not the size it
 * was allocated with, so that a shell (which has only the counts) lists
 * the same layout as the graph it stands for.
 */
int gnn__graph_arrays(gnn_graph *g, struct gnn__array *a)
{
	size_t ne = (size_t) g->n_edges;

	a[0] = (struct gnn__array) { (void **) &g->src, ne * 4 };
	a[1] = (struct gnn__array) { (void **) &g->dst, ne * 4 };
	a[2] = (struct gnn__array) { (void **) &g->weight, ne * 4 };
	a[3] = (struct gnn__array) { (void **) &g->in_ptr,
		((size_t) g->n_vertices + 1) * 8 };
	return 4;
}

void gnn__graph_borrow(gnn_graph *g, char *name)
{
	if (!g->borrowed)
		free(g->name);
	g->name = name;
	g->borrowed = 1;
}

dse_stat gnn__graph_set_name(gnn_graph *g, const char *name, dse_error *err)
{
	char *copy = strdup(name ? name : "");

	if (!copy)
		return dse_error_nomem(err, "the graph's name",
			(double) strlen(name ? name : "") + 1);
	free(g->name);
	g->name = copy;
	return dse_stat_ok;
}

/* Checks the endpoints and counts the in-degrees into in_ptr[v + 1]
 * (in_ptr has n_vertices + 1 zeroed entries), then turns the counts into
 * starts.
 */
static dse_stat count_in_degrees(int64_t nv, int64_t ne, const uint32_t *src,
	const uint32_t *dst, int64_t *in_ptr, dse_error *err)
{
	int64_t e, v;

	for (e = 0; e < ne; e++) {
		if (src[e] >= nv || dst[e] >= nv)
			return dse_error_set(err, DSE_E_INPUT,
				"edge %lld (%lu -> %lu): vertex %lu out of "
				"range, the graph has %lld vertices",
				(long long) e, (unsigned long) src[e],
				(unsigned long) dst[e],
				(unsigned long) (src[e] >= nv ? src[e] :
					dst[e]), (long long) nv);
		in_ptr[dst[e] + 1]++;
	}
	for (v = 0; v < nv; v++)
		in_ptr[v + 1] += in_ptr[v];
	return dse_stat_ok;
}

/* Scatters the sources (and weights when "w" is not NULL) into the
 * buckets of their destinations; "next" is scratch of n_vertices entries.
 * The scatter is stable, though the bucket sort makes that irrelevant.
 */
static void scatter_by_dst(int64_t nv, int64_t ne, const int64_t *in_ptr,
	int64_t *next, const uint32_t *src, const uint32_t *dst,
	const float *w, uint32_t *out_src, float *out_w)
{
	int64_t e;

	memcpy(next, in_ptr, (size_t) nv * sizeof(*next));
	if (w) {
		for (e = 0; e < ne; e++) {
			int64_t j = next[dst[e]]++;

			out_src[j] = src[e];
			out_w[j] = w[e];
		}
	} else {
		for (e = 0; e < ne; e++)
			out_src[next[dst[e]]++] = src[e];
	}
}

static uint32_t float_bits(float x)
{
	uint32_t u;

	memcpy(&u, &x, sizeof(u));
	return u;
}

static float bits_float(uint32_t u)
{
	float x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

static void insertion_sort(uint64_t *k, int64_t n)
{
	int64_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = k[i];

		for (j = i; j > 0 && k[j - 1] > x; j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

/* LSD radix sort of n keys by bytes, skipping the bytes every key shares.
 * "tmp" has room for n keys; returns whichever of "k" and "tmp" holds the
 * sorted keys (the passes alternate between the two).
 */
static uint64_t *radix_sort(uint64_t *k, uint64_t *tmp, int64_t n)
{
	uint64_t all_and = ~(uint64_t) 0, all_or = 0;
	int64_t i, count[256];
	int byte;

	for (i = 0; i < n; i++) {
		all_and &= k[i];
		all_or |= k[i];
	}
	for (byte = 0; byte < 8; byte++) {
		int shift = 8 * byte;
		int64_t sum = 0;
		uint64_t *t;
		int c;

		if ((((all_and ^ all_or) >> shift) & 0xff) == 0)
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(k[i] >> shift) & 0xff]++;
		for (c = 0; c < 256; c++) {
			int64_t x = count[c];

			count[c] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			tmp[count[(k[i] >> shift) & 0xff]++] = k[i];
		t = k;
		k = tmp;
		tmp = t;
	}
	return k;
}

/* Sorts the in-edges of every vertex by (src, weight bits).  "keys" and
 * "tmp" have room for the largest in-degree.
 */
static void sort_buckets(int64_t nv, const int64_t *in_ptr, uint32_t *src,
	float *w, uint64_t *keys, uint64_t *tmp)
{
	int64_t b, i;

	for (b = 0; b < nv; b++) {
		int64_t lo = in_ptr[b], n = in_ptr[b + 1] - lo;
		uint64_t *sorted = keys;

		int sorted_already = 1;

		if (n < 2)
			continue;
		for (i = 0; i < n; i++) {
			keys[i] = (uint64_t) src[lo + i] << 32 |
				float_bits(w[lo + i]);
			if (i && keys[i] < keys[i - 1])
				sorted_already = 0;
		}
		if (sorted_already)
			continue;
		if (n <= INSERTION_MAX)
			insertion_sort(keys, n);
		else
			sorted = radix_sort(keys, tmp, n);
		for (i = 0; i < n; i++) {
			src[lo + i] = (uint32_t) (sorted[i] >> 32);
			w[lo + i] = bits_float((uint32_t) sorted[i]);
		}
	}
}

static int64_t max_in_degree(int64_t nv, const int64_t *in_ptr)
{
	int64_t v, m = 0;

	for (v = 0; v < nv; v++)
		if (in_ptr[v + 1] - in_ptr[v] > m)
			m = in_ptr[v + 1] - in_ptr[v];
	return m;
}

static dse_stat check_sizes(int64_t n_vertices, int64_t n_edges,
	dse_error *err)
{
	if (n_vertices <= 0 || n_vertices > (int64_t) UINT32_MAX)
		return dse_error_set(err, DSE_E_INPUT,
			"a graph needs between 1 and %lu vertices, not %lld",
			(unsigned long) UINT32_MAX, (long long) n_vertices);
	if (n_edges < 0)
		return dse_error_set(err, DSE_E_INPUT,
			"negative edge count %lld", (long long) n_edges);
	return dse_stat_ok;
}

/* Sorts the in-edges of every vertex of "g", whose src, weight and in_ptr
 * are filled, by (src, weight bits).
 */
static dse_stat sort_all_buckets(gnn_graph *g, dse_error *err)
{
	int64_t maxdeg = max_in_degree(g->n_vertices, g->in_ptr);
	uint64_t *keys = alloc_array(maxdeg, sizeof(*keys));
	uint64_t *tmp = alloc_array(maxdeg, sizeof(*tmp));

	if (!keys || !tmp) {
		free(keys);
		free(tmp);
		return dse_error_nomem(err, "the buffers that sort the graph's "
			"in-edges", (double) maxdeg * 16);
	}
	sort_buckets(g->n_vertices, g->in_ptr, g->src, g->weight, keys, tmp);
	free(keys);
	free(tmp);
	return dse_stat_ok;
}

/* Fills g->dst from in_ptr and, for an unweighted input, the unit
 * weights, allocating them unless build() reused the input arrays.
 */
static dse_stat fill_dst(gnn_graph *g, int weighted, dse_error *err)
{
	int64_t v, e;

	if (!g->dst)
		g->dst = alloc_array(g->n_edges, sizeof(*g->dst));
	if (!g->weight)
		g->weight = alloc_array(g->n_edges, sizeof(*g->weight));
	if (!g->dst || !g->weight)
		return dse_error_nomem(err, "the graph's destination and "
			"weight arrays", (double) g->n_edges * 8);
	for (v = 0; v < g->n_vertices; v++)
		for (e = g->in_ptr[v]; e < g->in_ptr[v + 1]; e++)
			g->dst[e] = (uint32_t) v;
	if (!weighted)
		for (e = 0; e < g->n_edges; e++)
			g->weight[e] = 1.0f;
	return dse_stat_ok;
}

/* The common part of gnn_graph_from_edges and gnn__graph_take_edges:
 * when "owned", the input arrays are freed as soon as they are no longer
 * needed, and on failure too.
 */
static gnn_graph *build(int64_t nv, int64_t ne, uint32_t *src,
	uint32_t *dst, float *w, int owned, dse_error *err)
{
	gnn_graph *g = NULL;
	int64_t *next = NULL;
	int weighted = w != NULL;

	if (check_sizes(nv, ne, err) < 0)
		goto fail;
	if (ne > 0 && (!src || !dst)) {
		dse_error_set(err, DSE_E_INPUT, "missing edge arrays");
		goto fail;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		goto nomem;
	g->n_vertices = nv;
	g->n_edges = ne;
	g->name = strdup("graph");
	g->in_ptr = calloc((size_t) nv + 1, sizeof(*g->in_ptr));
	if (!g->name || !g->in_ptr)
		goto nomem;
	if (count_in_degrees(nv, ne, src, dst, g->in_ptr, err) < 0)
		goto fail;
	g->src = alloc_array(ne, sizeof(*g->src));
	if (w)
		g->weight = alloc_array(ne, sizeof(*g->weight));
	next = alloc_array(nv, sizeof(*next));
	if (!g->src || (w && !g->weight) || !next)
		goto nomem;
	scatter_by_dst(nv, ne, g->in_ptr, next, src, dst, w, g->src,
		g->weight);
	free(next);
	if (owned) {
		/* Reuse the input arrays, which have the right sizes, rather
		 * than free them and fault in fresh pages: dst for the
		 * destinations, src for the unit weights of an unweighted
		 * graph (allocated storage takes the type written to it).
		 */
		g->dst = dst;
		if (!w)
			g->weight = (float *) src;
		else
			free(src);
		free(w);
		src = NULL;
		dst = NULL;
		w = NULL;
	}
	if (fill_dst(g, weighted, err) < 0 || sort_all_buckets(g, err) < 0)
		return gnn_graph_free(g);
	return g;
nomem:
	dse_error_nomem(err, "the graph's vertex and edge arrays",
		(double) nv * 16 + (double) ne * 8);
fail:
	free(next);
	gnn_graph_free(g);
	if (owned) {
		free(src);
		free(dst);
		free(w);
	}
	return NULL;
}

gnn_graph *gnn__graph_take_edges(int64_t n_vertices, int64_t n_edges,
	uint32_t *src, uint32_t *dst, float *weight, dse_error *err)
{
	return build(n_vertices, n_edges, src, dst, weight, 1, err);
}

/* The arrays are only read: the casts let build() share the code with
 * gnn__graph_take_edges, which frees them.
 */
gnn_graph *gnn_graph_from_edges(int64_t n_vertices, int64_t n_edges,
	const uint32_t *src, const uint32_t *dst, const float *weight,
	dse_error *err)
{
	return build(n_vertices, n_edges, (uint32_t *) src, (uint32_t *) dst,
		(float *) weight, 0, err);
}

const char *gnn_graph_name(const gnn_graph *g)
{
	return g ? g->name : NULL;
}

int64_t gnn_graph_n_vertices(const gnn_graph *g)
{
	return g ? g->n_vertices : 0;
}

int64_t gnn_graph_n_edges(const gnn_graph *g)
{
	return g ? g->n_edges : 0;
}

const uint32_t *gnn_graph_src(const gnn_graph *g)
{
	return g ? g->src : NULL;
}

const uint32_t *gnn_graph_dst(const gnn_graph *g)
{
	return g ? g->dst : NULL;
}

const float *gnn_graph_weight(const gnn_graph *g)
{
	return g ? g->weight : NULL;
}

const int64_t *gnn_graph_in_ptr(const gnn_graph *g)
{
	return g ? g->in_ptr : NULL;
}

/* --- fiber-shard partitioning ------------------------------------------ */

gnn_shards *gnn_shards_free(gnn_shards *s)
{
	if (!s)
		return NULL;
	if (!s->borrowed) {
		free(s->offset);
		free(s->edges);
	}
	free(s);
	return NULL;
}

gnn_shards *gnn__shards_shell(const gnn_graph *g, int64_t n1, int64_t count)
{
	gnn_shards *s = calloc(1, sizeof(*s));

	if (s) {
		s->g = g;
		s->n1 = n1;
		s->count = count;
		s->borrowed = 1;
	}
	return s;
}

int gnn__shards_arrays(gnn_shards *s, struct gnn__array *a)
{
	a[0] = (struct gnn__array) { (void **) &s->offset,
		((size_t) (s->count * s->count) + 1) * 8 };
	a[1] = (struct gnn__array) { (void **) &s->edges,
		(size_t) s->g->n_edges * 4 };
	return 2;
}

void gnn__shards_borrow(gnn_shards *s)
{
	s->borrowed = 1;
}

/* Counting sort of the edge numbers by subshard (dst / n1, src / n1).
 * The edges are sorted by destination, so those of shard i are the
 * contiguous range [in_ptr[i n1], in_ptr[min((i + 1) n1, |V|)]), which is
 * also where its subshards go: each shard is sorted on its own by source
 * block, and the stable scatter keeps (dst, src) order inside a subshard.
 * "blk" (|V| entries) caches v / n1, saving two divisions per edge.
 */
static void fill_shards(gnn_shards *s, uint32_t *blk)
{
	const gnn_graph *g = s->g;
	int64_t k = s->count, n1 = s->n1, nv = g->n_vertices, i, v;

	for (v = 0; v < nv; v++)
		blk[v] = (uint32_t) (v / n1);
	for (i = 0; i < k; i++) {
		int64_t hi_v = (i + 1) * n1 < nv ? (i + 1) * n1 : nv;
		int64_t lo = g->in_ptr[i * n1], hi = g->in_ptr[hi_v];
		int64_t *off = s->offset + i * k, sum = lo, e, j;

		for (e = lo; e < hi; e++)
			off[blk[g->src[e]]]++;
		for (j = 0; j < k; j++) {
			int64_t x = off[j];

			off[j] = sum;
			sum += x;
		}
		for (e = lo; e < hi; e++)
			s->edges[off[blk[g->src[e]]]++] = (uint32_t) e;
		/* The scatter left every start at the next one's: shift
		 * back.
		 */
		for (j = k - 1; j > 0; j--)
			off[j] = off[j - 1];
		off[0] = lo;
	}
	s->offset[k * k] = g->n_edges;
}

gnn_shards *gnn_shards_alloc(const gnn_graph *g, int64_t n1, dse_error *err)
{
	gnn_shards *s;
	uint32_t *blk;
	int64_t k;

	if (!g) {
		dse_error_set(err, DSE_E_INPUT, "no graph to partition");
		return NULL;
	}
	if (n1 < 1) {
		dse_error_set(err, DSE_E_INPUT,
			"shard height n1 must be at least 1, not %lld",
			(long long) n1);
		return NULL;
	}
	/* Edge numbers are kept in 32 bits: a partition of a large graph
	 * costs 4 bytes an edge less, a third of it.
	 */
	if (g->n_edges > (int64_t) UINT32_MAX) {
		dse_error_set(err, DSE_E_INPUT, "the graph has %lld edges; "
			"partitioning takes at most %lu",
			(long long) g->n_edges, (unsigned long) UINT32_MAX);
		return NULL;
	}
	k = (g->n_vertices + n1 - 1) / n1;
	if (k > MAX_SIDE) {
		dse_error_set(err, DSE_E_INPUT,
			"shard height n1 = %lld cuts %lld vertices into "
			"%lld x %lld subshards, more than the limit of %lld; "
			"use a larger n1", (long long) n1,
			(long long) g->n_vertices, (long long) k,
			(long long) k, (long long) (MAX_SIDE * MAX_SIDE));
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		dse_error_nomem(err, "the graph's shards", sizeof(*s));
		return NULL;
	}
	s->g = g;
	s->n1 = n1;
	s->count = k;
	s->offset = calloc((size_t) (k * k + 1), sizeof(*s->offset));
	s->edges = alloc_array(g->n_edges, sizeof(*s->edges));
	blk = alloc_array(g->n_vertices, sizeof(*blk));
	if (!s->offset || !s->edges || !blk) {
		free(blk);
		dse_error_nomem(err, "the graph's shard tables",
			(double) (k * k + 1) * 8 + (double) g->n_edges * 4 +
			(double) g->n_vertices * sizeof(*blk));
		return gnn_shards_free(s);
	}
	fill_shards(s, blk);
	free(blk);
	return s;
}

int64_t gnn_shards_n1(const gnn_shards *s)
{
	return s ? s->n1 : 0;
}

int64_t gnn_shards_count(const gnn_shards *s)
{
	return s ? s->count : 0;
}

static int in_range(const gnn_shards *s, int64_t i, int64_t j)
{
	return s && i >= 0 && j >= 0 && i < s->count && j < s->count;
}

/* Out of range (i, j) have no edges. */
int64_t gnn_shards_edges_in(const gnn_shards *s, int64_t i, int64_t j)
{
	int64_t c;

	if (!in_range(s, i, j))
		return 0;
	c = i * s->count + j;
	return s->offset[c + 1] - s->offset[c];
}

/* Out of range (i, j) give -1. */
int64_t gnn_shards_offset(const gnn_shards *s, int64_t i, int64_t j)
{
	if (!in_range(s, i, j))
		return -1;
	return s->offset[i * s->count + j];
}

const uint32_t *gnn_shards_edges(const gnn_shards *s)
{
	return s ? s->edges : NULL;
}

/* --- degree statistics -------------------------------------------------- */

/* The Gini coefficient of the in-degrees, from their histogram: with the
 * n values sorted ascending x_1 <= ... <= x_n,
 *   G = sum_r (2 r - n - 1) x_r / (n sum_r x_r),
 * and the ranks of a run of c equal values starting after rank r0 sum to
 * c (2 r0 + c + 1) / 2.  0 when every vertex has the same in-degree.
 */
static double gini_from_hist(const int64_t *hist, int64_t max, int64_t n,
	int64_t total)
{
	double num = 0.0;
	int64_t x, r0 = 0;

	if (total == 0 || n == 0)
		return 0.0;
	for (x = 0; x <= max; x++) {
		double c = (double) hist[x];

		if (!hist[x])
			continue;
		num += (double) x * (c * (2.0 * (double) r0 + c + 1.0) -
			c * ((double) n + 1.0));
		r0 += hist[x];
	}
	return num / ((double) n * (double) total);
}

/* Min, max and population standard deviation of the n values deg[]. */
static void spread(const int64_t *deg, int64_t n, int64_t *min, int64_t *max,
	double *std)
{
	double mean = 0.0, var = 0.0;
	int64_t v;

	*min = n ? deg[0] : 0;
	*max = *min;
	for (v = 0; v < n; v++) {
		if (deg[v] < *min)
			*min = deg[v];
		if (deg[v] > *max)
			*max = deg[v];
		mean += (double) deg[v];
	}
	mean = n ? mean / (double) n : 0.0;
	for (v = 0; v < n; v++)
		var += ((double) deg[v] - mean) * ((double) deg[v] - mean);
	*std = n ? sqrt(var / (double) n) : 0.0;
}

/* Fills "out"; on out of memory, the fields that need scratch space (out
 * degrees, isolated vertices, Gini) are left at zero.
 */
void gnn_graph_degree_stats(const gnn_graph *g, gnn_degree_stats *out)
{
	int64_t nv, ne, v, e, *in, *outd, *hist;

	memset(out, 0, sizeof(*out));
	if (!g)
		return;
	nv = g->n_vertices;
	ne = g->n_edges;
	out->n_vertices = nv;
	out->n_edges = ne;
	out->mean = (double) ne / (double) nv;
	in = calloc((size_t) nv, sizeof(*in));
	outd = calloc((size_t) nv, sizeof(*outd));
	if (!in || !outd) {
		free(in);
		free(outd);
		return;
	}
	for (v = 0; v < nv; v++)
		in[v] = g->in_ptr[v + 1] - g->in_ptr[v];
	for (e = 0; e < ne; e++)
		outd[g->src[e]]++;
	spread(in, nv, &out->in_min, &out->in_max, &out->in_std);
	spread(outd, nv, &out->out_min, &out->out_max, &out->out_std);
	for (v = 0; v < nv; v++)
		out->isolated += in[v] == 0 && outd[v] == 0;
	hist = calloc((size_t) out->in_max + 1, sizeof(*hist));
	if (hist) {
		for (v = 0; v < nv; v++)
			hist[in[v]]++;
		out->in_gini = gini_from_hist(hist, out->in_max, nv, ne);
	}
	free(hist);
	free(in);
	free(outd);
}
