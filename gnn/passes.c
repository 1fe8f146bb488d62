/* gnn: GraphAGILE's compiler passes on the layer IR (sections 6.3 to 6.6):
 * computation-order optimisation, layer fusion, kernel mapping of every
 * layer to Tiling Blocks over the fiber-shard partition, and the dynamic
 * task scheduling of one layer's blocks on the PEs.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ir_internal.h"

static const char *const kernel_names[GNN_N_KERNELS] = {
	"gemm", "spdmm", "sddmm", "vadd", "elemwise"
};

const char *gnn_kernel_name(int k)
{
	return k >= 0 && k < GNN_N_KERNELS ? kernel_names[k] : NULL;
}

/* --- rewiring ------------------------------------------------------------ */

/* Replaces every "from" in links[0..n) by "to". */
static void replace_link(int *links, int n, int from, int to)
{
	int i;

	for (i = 0; i < n; i++)
		if (links[i] == from)
			links[i] = to;
}

/* Rebuilds the layer array of "m" as order[0..n): new layer i is old
 * layer order[i].  Links are renumbered; the layers left out must no
 * longer be linked to.  "order" must be topological.
 */
static void apply_order(gnn_model *m, const int *order, int n)
{
	gnn_layer old[GNN_MAX_LAYERS];
	int map[GNN_MAX_LAYERS];
	int i, j;

	memcpy(old, m->layer, sizeof(old));
	for (i = 0; i < m->n_layers; i++)
		map[i] = -1;
	for (i = 0; i < n; i++)
		map[order[i]] = i;
	for (i = 0; i < n; i++) {
		gnn_layer *l = &m->layer[i];

		*l = old[order[i]];
		l->id = i;
		for (j = 0; j < l->n_parent; j++)
			l->parent[j] = map[l->parent[j]];
		for (j = 0; j < l->n_child; j++)
			l->child[j] = map[l->child[j]];
	}
	for (i = n; i < m->n_layers; i++)
		memset(&m->layer[i], 0, sizeof(m->layer[i]));
	m->n_layers = n;
}

/* --- computation-order optimisation (section 6.3, Algorithm 5) ---------- */

/* Whether layer "a" is an Aggregate that may trade places with its only
 * child, a Linear whose only parent it is: the operator must be linear
 * (Definition 1: sum and mean are, max and min are not), and nothing may
 * already run at the aggregate's output.  Aggregates with edge weights
 * from a second parent are left alone.
 */
static int swappable(const gnn_model *m, const gnn_layer *a)
{
	const gnn_layer *l;

	if (a->kind != GNN_AGGREGATE || a->n_parent > 1 || a->n_child != 1)
		return 0;
	if (a->aggop != GNN_AGG_SUM && a->aggop != GNN_AGG_MEAN)
		return 0;
	if (a->act_fused || a->bn_fused)
		return 0;
	l = &m->layer[a->child[0]];
	return l->kind == GNN_LINEAR && l->n_parent == 1 &&
		l->parent[0] == a->id;
}

/* Whether Linear-then-Aggregate costs less than Aggregate-then-Linear
 * (equations 12 and 13): 2 f1 |E| + 2 f1 f2 |V| before, 2 f1 f2 |V| +
 * 2 f2 |E| after.  The products stay far below 2^53, so doubles compare
 * them exactly.
 */
static int swap_pays(const gnn_layer *a, const gnn_layer *l)
{
	double f1 = (double) l->f_in, f2 = (double) l->f_out;
	double e = (double) a->n_edges, v = (double) l->n_vertices;
	double before = 2.0 * f1 * e + 2.0 * f1 * f2 * v;
	double after = 2.0 * f1 * f2 * v + 2.0 * f2 * e;

	return after < before;
}

/* Exchanges Aggregate "ai" and its Linear child "li": the Linear takes
 * over the aggregate's parent and the aggregate the Linear's children,
 * now at the Linear's (shorter) length.  Whatever was fused at the
 * Linear's output stays at the pair's output, now the aggregate's.  The
 * two trade places in the layer array too, which keeps it topological:
 * no layer between them depends on either.
 */
static void swap_pair(gnn_model *m, int ai, int li)
{
	gnn_layer *a = &m->layer[ai], *l = &m->layer[li];
	int order[GNN_MAX_LAYERS];
	int i;

	for (i = 0; i < a->n_parent; i++) {
		gnn_layer *p = &m->layer[a->parent[i]];

		replace_link(p->child, p->n_child, ai, li);
	}
	for (i = 0; i < l->n_child; i++) {
		gnn_layer *c = &m->layer[l->child[i]];

		replace_link(c->parent, c->n_parent, li, ai);
	}
	l->n_parent = a->n_parent;
	memcpy(l->parent, a->parent, sizeof(l->parent));
	a->n_child = l->n_child;
	memcpy(a->child, l->child, sizeof(a->child));
	l->n_child = 1;
	l->child[0] = ai;
	a->n_parent = 1;
	a->parent[0] = li;
	a->f_in = a->f_out = l->f_out;
	a->act_fused = l->act_fused;
	a->act = l->act;
	a->bn_fused = l->bn_fused;
	l->act_fused = l->bn_fused = 0;
	l->act = GNN_ACT_NONE;
	for (i = 0; i < m->n_layers; i++)
		order[i] = i;
	order[ai] = li;
	order[li] = ai;
	apply_order(m, order, m->n_layers);
}

int gnn_pass_order(gnn_model *m)
{
	int swaps = 0, again = 1, i;

	/* Algorithm 5 runs until nothing changes; every swap lowers the
	 * total cost, so this ends.
	 */
	while (m && again) {
		again = 0;
		for (i = 0; i < m->n_layers && !again; i++) {
			gnn_layer *a = &m->layer[i];

			if (!swappable(m, a) ||
					!swap_pays(a, &m->layer[a->child[0]]))
				continue;
			swap_pair(m, i, a->child[0]);
			swaps++;
			again = 1;
		}
	}
	return swaps;
}

/* --- layer fusion (section 6.4) ------------------------------------------ */

/* Whether layer "x" can become a flag of its parent.  Section 6.4 fuses an
 * Activation into an adjacent Aggregate, Linear, Vector-Inner or
 * Vector-Add (Algorithms 6 and 7 apply it before storing a tile) and a
 * BatchNorm into a Linear; a BatchNorm is a per-feature affine map, so it
 * folds just as well into the output of the other three.  The parent must
 * have no other child (they would need the unactivated values) and
 * nothing fused that would then run in the wrong order: one activation at
 * most, and a batch norm only before it.
 */
static int fusable(const gnn_model *m, const gnn_layer *x)
{
	const gnn_layer *p;

	if (x->kind != GNN_ACTIVATION && x->kind != GNN_BATCHNORM)
		return 0;
	if (x->n_parent != 1)
		return 0;
	p = &m->layer[x->parent[0]];
	if (p->kind != GNN_AGGREGATE && p->kind != GNN_LINEAR &&
			p->kind != GNN_VECTOR_INNER &&
			p->kind != GNN_VECTOR_ADD)
		return 0;
	if (p->n_child != 1 || p->act_fused)
		return 0;
	return x->kind == GNN_ACTIVATION || !p->bn_fused;
}

/* Folds layer "xi" into its parent and drops it from the model. */
static void fuse_into_parent(gnn_model *m, int xi)
{
	gnn_layer *x = &m->layer[xi];
	gnn_layer *p = &m->layer[x->parent[0]];
	int order[GNN_MAX_LAYERS];
	int i, n = 0;

	if (x->kind == GNN_ACTIVATION) {
		p->act_fused = 1;
		p->act = x->act;
	} else {
		p->bn_fused = 1;
	}
	p->n_child = x->n_child;
	memcpy(p->child, x->child, sizeof(p->child));
	for (i = 0; i < x->n_child; i++) {
		gnn_layer *c = &m->layer[x->child[i]];

		replace_link(c->parent, c->n_parent, xi, p->id);
	}
	for (i = 0; i < m->n_layers; i++)
		if (i != xi)
			order[n++] = i;
	apply_order(m, order, n);
}

int gnn_pass_fuse(gnn_model *m)
{
	int fused = 0, again = 1, i;

	while (m && again) {
		again = 0;
		for (i = 0; i < m->n_layers && !again; i++) {
			if (!fusable(m, &m->layer[i]))
				continue;
			fuse_into_parent(m, i);
			fused++;
			again = 1;
		}
	}
	return fused;
}

/* --- kernel mapping (section 6.6, Algorithms 6 to 8) -------------------- */

struct gnn_plan {
	gnn_model *model;		/* a copy: the plan owns it */
	const gnn_shards *shards;	/* the caller's */
	int64_t n2;
	int64_t n1, n_shards;
	gnn_block *block;
	int64_t n_blocks, cap;
	int64_t first[GNN_MAX_LAYERS], count[GNN_MAX_LAYERS];
	int64_t *shard_edges;		/* edges whose dst is in each shard */
};

/* Vertices of shard i: n1, except a shorter last shard. */
static int64_t shard_rows(const gnn_plan *p, int64_t i)
{
	int64_t rest = p->model->n_vertices - i * p->n1;

	return rest < p->n1 ? rest : p->n1;
}

/* Columns of fiber i of a feature matrix of length f. */
static int64_t fiber_cols(const gnn_plan *p, int64_t f, int64_t i)
{
	int64_t rest = f - i * p->n2;

	return rest < p->n2 ? rest : p->n2;
}

static dse_stat push(gnn_plan *p, const gnn_block *b, dse_error *err)
{
	if (p->n_blocks == p->cap) {
		int64_t cap = p->cap ? 2 * p->cap : 1024;
		gnn_block *nb = realloc(p->block, (size_t) cap * sizeof(*nb));

		if (!nb)
			return dse_error_set(err, DSE_E_NOMEM, "out of memory "
				"for %lld tiling blocks", (long long) cap);
		p->block = nb;
		p->cap = cap;
	}
	p->block[p->n_blocks++] = *b;
	return dse_stat_ok;
}

/* The blocks of a layer that runs over fibers x shards of its f_out
 * columns (Algorithms 6 and 8: fibers outer, shards inner): SpDMM for an
 * Aggregate (k = |V| sources, its shard's edges), GEMM for a Linear (k =
 * f_in), VADD or ELEMWISE for the element-wise kinds.
 */
static dse_stat map_tiled(gnn_plan *p, const gnn_layer *l, int kernel,
	dse_error *err)
{
	int64_t fibers = dse_cdiv(l->f_out, p->n2), i, j;
	gnn_block b;

	memset(&b, 0, sizeof(b));
	b.layer = l->id;
	b.kernel = kernel;
	b.col_shard = -1;
	b.k = kernel == GNN_K_GEMM ? l->f_in : kernel == GNN_K_SPDMM ?
		l->n_vertices : 0;
	for (i = 0; i < fibers; i++)
		for (j = 0; j < p->n_shards; j++) {
			b.shard = j;
			b.fiber = i;
			b.rows = shard_rows(p, j);
			b.cols = fiber_cols(p, l->f_out, i);
			b.edges = kernel == GNN_K_SPDMM ? p->shard_edges[j] : 0;
			if (push(p, &b, err))
				return dse_stat_error;
		}
	return dse_stat_ok;
}

/* The blocks of a Vector-Inner (Algorithm 7): one per subshard (i, j) that
 * holds edges, each over all f_in features; cols is the widest fiber it
 * streams at a time.
 */
static dse_stat map_sddmm(gnn_plan *p, const gnn_layer *l, dse_error *err)
{
	int64_t i, j;
	gnn_block b;

	memset(&b, 0, sizeof(b));
	b.layer = l->id;
	b.kernel = GNN_K_SDDMM;
	b.fiber = -1;
	b.k = l->f_in;
	b.cols = l->f_in < p->n2 ? l->f_in : p->n2;
	for (i = 0; i < p->n_shards; i++)
		for (j = 0; j < p->n_shards; j++) {
			b.edges = gnn_shards_edges_in(p->shards, i, j);
			if (!b.edges)
				continue;
			b.shard = i;
			b.col_shard = j;
			b.rows = shard_rows(p, i);
			if (push(p, &b, err))
				return dse_stat_error;
		}
	return dse_stat_ok;
}

static dse_stat map_layer(gnn_plan *p, const gnn_layer *l, dse_error *err)
{
	switch (l->kind) {
	case GNN_AGGREGATE:
		return map_tiled(p, l, GNN_K_SPDMM, err);
	case GNN_LINEAR:
		return map_tiled(p, l, GNN_K_GEMM, err);
	case GNN_VECTOR_INNER:
		return map_sddmm(p, l, err);
	case GNN_VECTOR_ADD:
		return map_tiled(p, l, GNN_K_VADD, err);
	default:
		return map_tiled(p, l, GNN_K_ELEMWISE, err);
	}
}

/* The edges of every shard (destination row), from the subshard layout:
 * the subshards of shard i are contiguous, so its edges run from the
 * offset of (i, 0) to that of (i + 1, 0).  Checks that the partition is
 * of a graph of the model's size.
 */
static dse_stat count_shard_edges(gnn_plan *p, dse_error *err)
{
	int64_t s = p->n_shards, i, total;

	if (p->n1 < 1 || s != dse_cdiv(p->model->n_vertices, p->n1))
		return dse_error_set(err, DSE_E_INPUT, "model %s has %lld "
			"vertices, the partition %lld shards of %lld",
			p->model->name, (long long) p->model->n_vertices,
			(long long) s, (long long) p->n1);
	p->shard_edges = calloc((size_t) (s ? s : 1), sizeof(int64_t));
	if (!p->shard_edges)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	if (!s)
		return dse_stat_ok;
	total = gnn_shards_offset(p->shards, s - 1, s - 1) +
		gnn_shards_edges_in(p->shards, s - 1, s - 1);
	for (i = 0; i < s; i++) {
		int64_t end = i + 1 < s ?
			gnn_shards_offset(p->shards, i + 1, 0) : total;

		p->shard_edges[i] = end - gnn_shards_offset(p->shards, i, 0);
	}
	if (total != p->model->n_edges)
		return dse_error_set(err, DSE_E_INPUT, "model %s has %lld "
			"edges, the partitioned graph %lld", p->model->name,
			(long long) p->model->n_edges, (long long) total);
	return dse_stat_ok;
}

gnn_plan *gnn_plan_alloc(const gnn_model *m, const gnn_shards *s,
	int64_t n2, dse_error *err)
{
	gnn_plan *p;
	int i;

	if (!m || !s || n2 < 1) {
		dse_error_set(err, DSE_E_INPUT, "a plan needs a model, a "
			"partition and a fiber width >= 1 (got %lld)",
			(long long) n2);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->model = gnn_model_copy(m))) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return gnn_plan_free(p);
	}
	p->shards = s;
	p->n2 = n2;
	p->n1 = gnn_shards_n1(s);
	p->n_shards = gnn_shards_count(s);
	if (count_shard_edges(p, err))
		return gnn_plan_free(p);
	for (i = 0; i < m->n_layers; i++) {
		p->first[i] = p->n_blocks;
		if (map_layer(p, &m->layer[i], err))
			return gnn_plan_free(p);
		p->count[i] = p->n_blocks - p->first[i];
	}
	return p;
}

gnn_plan *gnn_plan_free(gnn_plan *p)
{
	if (!p)
		return NULL;
	gnn_model_free(p->model);
	free(p->block);
	free(p->shard_edges);
	free(p);
	return NULL;
}

int64_t gnn_plan_n2(const gnn_plan *p)
{
	return p ? p->n2 : 0;
}

const gnn_shards *gnn_plan_shards(const gnn_plan *p)
{
	return p ? p->shards : NULL;
}

const gnn_model *gnn_plan_model(const gnn_plan *p)
{
	return p ? p->model : NULL;
}

int64_t gnn_plan_n_blocks(const gnn_plan *p)
{
	return p ? p->n_blocks : 0;
}

const gnn_block *gnn_plan_block(const gnn_plan *p, int64_t i)
{
	return p && i >= 0 && i < p->n_blocks ? &p->block[i] : NULL;
}

void gnn_plan_layer_blocks(const gnn_plan *p, int layer, int64_t *first,
	int64_t *count)
{
	int ok = p && layer >= 0 && layer < p->model->n_layers;

	if (first)
		*first = ok ? p->first[layer] : 0;
	if (count)
		*count = ok ? p->count[layer] : 0;
}

/* --- task scheduling (section 6.6, Algorithm 9) ------------------------- */

/* PEs on the stack; more than this go to the heap. */
#define STACK_PES 1024

/* Whether PE a becomes idle before PE b (the lower number on a tie). */
static int earlier(const uint64_t *busy, int a, int b)
{
	return busy[a] < busy[b] || (busy[a] == busy[b] && a < b);
}

/* Restores the min-heap "heap" of n PEs after its root got later. */
static void sift_down(int *heap, int n, const uint64_t *busy)
{
	int i = 0;

	for (;;) {
		int c = 2 * i + 1, top = heap[i];

		if (c >= n)
			return;
		if (c + 1 < n && earlier(busy, heap[c + 1], heap[c]))
			c++;
		if (!earlier(busy, heap[c], top))
			return;
		heap[i] = heap[c];
		heap[c] = top;
		i = c;
	}
}

/* Every block is ready at time 0 and a PE takes the next block the moment
 * it is idle, so a PE never waits: its idle time is its busy time.  The
 * heap orders the PEs by that time and number; with all at 0 the PEs in
 * numeric order already form a heap.  Gives 0 for n_pe < 1 and UINT64_MAX
 * when more than STACK_PES PEs do not fit in memory.
 */
uint64_t gnn_schedule(const uint64_t *block_cycles, int64_t n_blocks,
	int n_pe, uint64_t *pe_busy)
{
	int stack_heap[STACK_PES];
	uint64_t stack_busy[STACK_PES];
	int *heap = stack_heap;
	uint64_t *busy = pe_busy ? pe_busy : stack_busy, span = 0;
	int64_t b;
	int i;

	if (n_pe < 1 || (!block_cycles && n_blocks > 0))
		return 0;
	if (n_pe > STACK_PES) {
		heap = malloc((size_t) n_pe * sizeof(*heap));
		if (!pe_busy)
			busy = malloc((size_t) n_pe * sizeof(*busy));
		if (!heap || !busy) {
			/* Out of memory: no makespan can be given, and
			 * UINT64_MAX makes any design using it lose.
			 */
			if (heap != stack_heap)
				free(heap);
			if (busy != pe_busy && busy != stack_busy)
				free(busy);
			return UINT64_MAX;
		}
	}
	for (i = 0; i < n_pe; i++) {
		heap[i] = i;
		busy[i] = 0;
	}
	for (b = 0; b < n_blocks; b++) {
		busy[heap[0]] += block_cycles[b];
		if (busy[heap[0]] > span)
			span = busy[heap[0]];
		sift_down(heap, n_pe, busy);
	}
	if (heap != stack_heap)
		free(heap);
	if (busy != pe_busy && busy != stack_busy)
		free(busy);
	return span;
}
