/* gnn: the prepare step of the gnn-overlay family (gnn/overlay.c): the
 * fiber-shard partitions of every shard height the prepared n_pe and
 * feat_rows give, with the per-shard sums and the compiler's edge order
 * the models read, and the plans of every such height with every
 * prepared feat_cols.  gnn/overlay.c's opening comment describes what is
 * built and why.
 */
#include <stdlib.h>
#include <string.h>

#include "overlay_internal.h"

/* --- prepare ------------------------------------------------------------- */

/* The per-shard sums and the list of nonempty subshards of a partition. */
static dse_stat part_sums(struct ovl_part *p, int64_t n_vertices,
	dse_error *err)
{
	int64_t c = p->count, i, j, n = 0;

	p->rows = calloc((size_t) c, sizeof(int64_t));
	p->row_edges = calloc((size_t) c, sizeof(int64_t));
	p->row_src_rows = calloc((size_t) c, sizeof(int64_t));
	p->row_first = calloc((size_t) c + 1, sizeof(int64_t));
	if (!p->rows || !p->row_edges || !p->row_src_rows || !p->row_first)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	for (i = 0; i < c; i++) {
		p->rows[i] = i + 1 < c ? p->n1 : n_vertices - i * p->n1;
		for (j = 0; j < c; j++)
			n += gnn_shards_edges_in(p->shards, i, j) > 0;
	}
	p->n_sub = n;
	p->sub_col = malloc((size_t) (n ? n : 1) * sizeof(int64_t));
	p->sub_off = malloc((size_t) (n ? n : 1) * sizeof(int64_t));
	p->sub_edges = malloc((size_t) (n ? n : 1) * sizeof(int64_t));
	if (!p->sub_col || !p->sub_off || !p->sub_edges)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	for (i = 0, n = 0; i < c; i++) {
		p->row_first[i] = n;
		for (j = 0; j < c; j++) {
			int64_t e = gnn_shards_edges_in(p->shards, i, j);

			if (!e)
				continue;
			p->sub_col[n] = j;
			p->sub_off[n] = gnn_shards_offset(p->shards, i, j);
			p->sub_edges[n++] = e;
			p->row_edges[i] += e;
		}
	}
	p->row_first[c] = n;
	return dse_stat_ok;
}


/* The distinct sources and destinations of every nonempty subshard, one
 * pass over the edges with a stamp per row of a source and of a
 * destination shard, and the source rows each shard row loads.
 */
static dse_stat sub_distinct(struct ovl_part *p, const gnn_graph *g,
	dse_error *err)
{
	const uint32_t *src = gnn_graph_src(g), *dst = gnn_graph_dst(g);
	const uint32_t *order = gnn_shards_edges(p->shards);
	int64_t n = p->n_sub ? p->n_sub : 1, i, s, e;
	int64_t *seen = malloc((size_t) (2 * p->n1) * sizeof(int64_t));

	p->sub_src = malloc((size_t) n * sizeof(int32_t));
	p->sub_dst = malloc((size_t) n * sizeof(int32_t));
	if (!seen || !p->sub_src || !p->sub_dst) {
		free(seen);
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	for (e = 0; e < 2 * p->n1; e++)
		seen[e] = -1;
	for (i = 0; i < p->count; i++)
		for (s = p->row_first[i]; s < p->row_first[i + 1]; s++) {
			int64_t j = p->sub_col[s], ns = 0, nd = 0;

			for (e = p->sub_off[s]; e < p->sub_off[s] +
			     p->sub_edges[s]; e++) {
				int64_t a = (int64_t) src[order[e]] - j * p->n1;
				int64_t b = p->n1 + (int64_t) dst[order[e]] -
					i * p->n1;

				ns += seen[a] != s;
				nd += seen[b] != s;
				seen[a] = seen[b] = s;
			}
			p->sub_src[s] = (int32_t) ns;
			p->sub_dst[s] = (int32_t) nd;
			p->row_src_rows[i] += loaded_rows(ns, p->rows[j]);
		}
	free(seen);
	return dse_stat_ok;
}

/* The SpDMM loads of every shard row: those of its subshards summed. */
static void row_loads(struct ovl_part *p)
{
	int64_t i, s;
	int lp;

	for (i = 0; i < p->count; i++)
		for (lp = 0; lp < GNN__ACK_N_PSYS; lp++) {
			double x = 0;

			for (s = p->row_first[i]; s < p->row_first[i + 1]; s++)
				x += p->ord.sub_load[gnn__ack_load_at(s,
					GNN__ACK_SPDMM, lp)];
			p->row_load[i * GNN__ACK_N_PSYS + lp] = x;
		}
}

/* The partition as the cycle models see it: the compiler's order of every
 * subshard (gnn/ack.h: destinations interleaved by rank), its rounds and
 * its loads.
 */
void gnn__ovl_view(struct ovl_part *p, const gnn_graph *g)
{
	struct gnn__ack_part *v = &p->view;

	v->src = gnn_graph_src(g);
	v->dst = gnn_graph_dst(g);
	v->order = gnn_shards_edges(p->shards);
	v->rows = p->count;
	v->n_sub = p->n_sub;
	v->n_edges = gnn_graph_n_edges(g);
	v->n1 = p->n1;
	v->row_first = p->row_first;
	v->sub_off = p->sub_off;
	v->sub_edges = p->sub_edges;
	v->perm = p->ord.perm;
	v->run_first = p->ord.run_first;
	v->run_pos = p->ord.run_pos;
	v->run_d = p->ord.run_d;
	v->run_n = p->ord.run_n;
	v->sub_block = p->ord.sub_block;
	v->hist = p->ord.hist;
	v->sub_load = p->ord.sub_load;
}

/* Builds the compiler's order and the loads of "p", and its view. */
static dse_stat part_view(struct ovl_part *p, const gnn_graph *g,
	const arch_dtype *dtype, dse_error *err)
{
	struct gnn__ack_part *v = &p->view;

	gnn__ovl_view(p, g);
	p->row_load = malloc((size_t) (p->count ? p->count : 1) *
		GNN__ACK_N_PSYS * sizeof(double));
	if (!p->row_load || !gnn__ack_order_build(v, dtype, &p->ord))
		return dse_error_set(err, DSE_E_NOMEM, "gnn-overlay: out of "
			"memory ordering the %lld edges of the partition of "
			"shard height %lld (or a subshard of 2^32 edges or "
			"more)", (long long) v->n_edges, (long long) p->n1);
	row_loads(p);
	return dse_stat_ok;
}

static int find_part(const struct overlay *o, int64_t n1)
{
	int i;

	for (i = 0; i < o->n_parts; i++)
		if (o->parts[i].n1 == n1)
			return i;
	return -1;
}

/* Builds the partition of shard height n1 into the zeroed slot "p".
 * Touches nothing but p, so partitions build side by side.
 */
static dse_stat make_part(const struct overlay *o, struct ovl_part *p,
	int64_t n1, dse_error *err)
{
	p->n1 = n1;
	p->shards = gnn_shards_alloc(o->graph, n1, err);
	if (!p->shards)
		return dse_stat_error;
	p->count = gnn_shards_count(p->shards);
	if (part_sums(p, gnn_graph_n_vertices(o->graph), err) ||
	    sub_distinct(p, o->graph, err) ||
	    part_view(p, o->graph, &o->dtype, err))
		return dse_stat_error;
	return dse_stat_ok;
}

/* The shard heights n1 the compiler chooses from (section 6.5 leaves n1
 * to the compiler; the feature buffer's rows, feat_rows, bound it):
 *
 *   h_j = min(feat_rows, align x ceil(ceil(|V| / 2^j) / align)),
 *         j = 0, 1, ... while 2^j <= shards_per_pe x n_pe,
 *
 * each at least the height that keeps the shards per side at max_side;
 * the compiler takes the one its cost model (the analytic model) finds
 * fastest, the largest on a tie.
 *
 * Why a ladder and not one height.  The shard rows are the unit of the
 * Aggregate and Linear blocks and the PEs take a layer's blocks one at a
 * time: a graph that fits one buffer load leaves all but one PE idle, so
 * the compiler must be able to cut it into about shards_per_pe shards a
 * PE (two let the dynamic scheduler even out rows of unequal work).  But
 * cutting finer is not free: every extra shard side reloads the source
 * features once more and adds a pipeline fill per subshard, and the one
 * height ceil(|V| / (2 n_pe)) is slower with more PEs at times (b1 on a
 * 5,000-vertex R-MAT graph with 256-row buffers: 13 PEs get n1 = 256, 14
 * PEs n1 = 192 and 21% more cycles).  Choosing the best of a ladder that
 * only grows with n_pe keeps every height fewer PEs could use, so more
 * PEs are never slower for the compiler's choice.  The heights halve
 * from one to the next, so they are few (log2(2 n_pe) + 1, and those
 * above feat_rows are one), and they are multiples of 64, the widest ACK:
 * a multiple of every legal p_sys (a vertex's Feature Buffer bank is then
 * its index mod p_sys inside every shard) and independent of p_sys, so a
 * sweep over p_sys reuses the partitions.  max_side bounds the (count x
 * count) subshard table of gnn_shards (its own limit is 8192 a side,
 * gnn/graph.c).
 *
 * Memory: a partition holds gnn_shards' 4-byte edge numbers, the 4-byte
 * compiler's order, about 0.1 byte an edge of counts and 8 bytes a
 * nonempty subshard of distinct vertices (sub_distinct): 0.93 GB for the
 * 116 M edges of the Reddit preset, per distinct height.  The paper's
 * point (8 PEs, 16384 rows) needs two on Reddit (16384 and 14592), one on
 * Yelp and Amazon-Products (every rung is above 16384).  MAX_HEIGHTS
 * (gnn/overlay_internal.h) bounds the rungs of one ladder.
 */
static const struct shard_rule {
	int shards_per_pe;
	int align;
	int64_t max_side;
} rule = { 2, 64, 4096 };

_Static_assert(4096 * 2 < (1 << (MAX_HEIGHTS - 1)), "limits.max_pe rungs");

/* The ladder of heights for n_pe and feat_rows, distinct, largest first;
 * returns how many.
 */
int gnn__ovl_shard_heights(const struct overlay *o, int64_t n_pe,
	int64_t feat_rows, int64_t *h)
{
	int64_t nv = gnn_graph_n_vertices(o->graph);
	int64_t least = dse_cdiv(dse_cdiv(nv, rule.max_side), rule.align) * rule.align;
	int n = 0, j;

	for (j = 0; j < MAX_HEIGHTS && ((int64_t) 1 << j) <=
	     rule.shards_per_pe * n_pe; j++) {
		int64_t x = dse_cdiv(dse_cdiv(nv, (int64_t) 1 << j), rule.align) *
			rule.align;

		x = x < least ? least : x;
		x = x < feat_rows ? x : feat_rows;
		if (!n || h[n - 1] != x)
			h[n++] = x;
	}
	return n;
}

/* The fiber widths of shards of height n1 (section 6.5 leaves N2 to the
 * compiler too):
 *
 *   w_j = feat_cols x 2^j,  j = 0, 1, ... while n1 x w_j <= feat_rows x
 *   feat_cols,
 *
 * up to the first that holds the longest feature vector of the model.
 * The Feature Buffer holds feat_rows x feat_cols words (16384 x 16 in
 * the paper), and a sub-fiber of n1 rows of w features is n1 x w of
 * them, each row w / p_sys slices of its banks: a shard height below
 * feat_rows leaves room for wider fibers.  Wider fibers cut the passes
 * over the edges (an Aggregate reads every subshard once per fiber) and
 * the re-reads of a Linear's input (once per output fiber, as its blocks
 * are the output's sub-fibers), so the compiler weighs them with the
 * shard height: on Citeseer's 3,327 vertices, GCN-128's first Linear
 * reads the 3,703-feature input eight times in fibers of 16 and once in
 * shards of 448 rows and fibers of 512.
 */
int gnn__ovl_fiber_widths(const struct overlay *o, int64_t n1,
	int64_t feat_rows, int64_t feat_cols, int64_t *w)
{
	int n = 0;
	int64_t x = feat_cols;

	while (n < MAX_WIDTHS && (double) n1 * (double) x <=
	       (double) feat_rows * (double) feat_cols) {
		w[n++] = x;
		if (x >= o->widest || x > INT32_MAX / 2)
			break;
		x *= 2;
	}
	return n;
}

int gnn__ovl_has_value(const struct values *v, int64_t x)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return 1;
	return 0;
}

static dse_stat add_value(struct values *v, int64_t x, dse_error *err)
{
	int64_t *grown;

	if (gnn__ovl_has_value(v, x))
		return dse_stat_ok;
	grown = realloc(v->v, (size_t) (v->n + 1) * sizeof(*grown));
	if (!grown)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	v->v = grown;
	v->v[v->n++] = x;
	return dse_stat_ok;
}

const struct ovl_plan *gnn__ovl_find_plan(const struct overlay *o,
	int64_t n1, int64_t n2)
{
	int i;

	for (i = 0; i < o->n_plans; i++)
		if (o->plans[i].n2 == n2 && o->parts[o->plans[i].part].n1 == n1)
			return &o->plans[i];
	return NULL;
}

/* Builds the plan of partition "part" with fiber width n2 into the
 * zeroed slot "pl".  Touches nothing but pl.
 */
static dse_stat make_plan(const struct overlay *o, struct ovl_plan *pl,
	int part, int64_t n2, dse_error *err)
{
	int l;

	pl->part = part;
	pl->n2 = n2;
	pl->plan = gnn_plan_alloc(o->model, o->parts[part].shards, n2, err);
	if (!pl->plan)
		return dse_stat_error;
	for (l = 0; l < gnn_model_n_layers(o->model); l++) {
		int64_t first, count;

		gnn_plan_layer_blocks(pl->plan, l, &first, &count);
		if (count > pl->max_blocks)
			pl->max_blocks = count;
	}
	return dse_stat_ok;
}

/* What build() has still to make: shard heights without a partition,
 * and (partition, fiber width) pairs without a plan, each once.
 */
struct todo {
	struct values n1;
	int *part;
	int64_t *n2;
	int n_pairs;
};

static dse_stat todo_pair(struct todo *t, int part, int64_t n2,
	dse_error *err)
{
	int *gp;
	int64_t *gw;
	int i;

	for (i = 0; i < t->n_pairs; i++)
		if (t->part[i] == part && t->n2[i] == n2)
			return dse_stat_ok;
	gp = realloc(t->part, (size_t) (t->n_pairs + 1) * sizeof(*gp));
	if (gp)
		t->part = gp;
	gw = gp ? realloc(t->n2, (size_t) (t->n_pairs + 1) * sizeof(*gw)) :
		NULL;
	if (!gw)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	t->n2 = gw;
	t->part[t->n_pairs] = part;
	t->n2[t->n_pairs++] = n2;
	return dse_stat_ok;
}

static void todo_clear(struct todo *t)
{
	free(t->n1.v);
	free(t->part);
	free(t->n2);
}

/* The heights (pairs == 0) or the (partition, width) pairs (pairs == 1)
 * the prepared values need and the family lacks.
 */
static dse_stat list_todo(const struct overlay *o, int pairs,
	struct todo *t, dse_error *err)
{
	const struct values *pe = &o->prepared[K_PE];
	const struct values *rows = &o->prepared[K_N1];
	const struct values *cols = &o->prepared[K_N2];
	int a, b, j, c, i;

	for (a = 0; a < pe->n; a++)
		for (b = 0; b < rows->n; b++) {
			int64_t h[MAX_HEIGHTS];
			int n = gnn__ovl_shard_heights(o, pe->v[a],
				rows->v[b], h);

			for (j = 0; j < n; j++) {
				int part = find_part(o, h[j]);

				if (pairs && part < 0)
					continue;
				if (!pairs) {
					if (part < 0 && add_value(&t->n1, h[j],
					    err))
						return dse_stat_error;
					continue;
				}
				for (c = 0; c < cols->n; c++) {
					int64_t w[MAX_WIDTHS];
					int nw = gnn__ovl_fiber_widths(o, h[j],
						rows->v[b], cols->v[c], w);

					for (i = 0; i < nw; i++)
						if (!gnn__ovl_find_plan(o, h[j],
						    w[i]) &&
						    todo_pair(t, part, w[i], err))
							return dse_stat_error;
				}
			}
		}
	return dse_stat_ok;
}

/* Reports the first failure of a parallel build (the lowest index, so
 * that the message does not depend on the threads).
 */
static dse_stat first_failure(const dse_stat *st, const dse_error *errs,
	int n, dse_error *err)
{
	int i;

	for (i = 0; i < n; i++)
		if (st[i] != dse_stat_ok) {
			if (err)
				*err = errs[i];
			return st[i];
		}
	return dse_stat_ok;
}

/* Declared in overlay_internal.h. */
void *gnn__ovl_grow_zeroed(void *p, int used, int n, size_t size)
{
	unsigned char *g = realloc(p, (size_t) (used + n + 1) * size);

	if (g)
		memset(g + (size_t) used * size, 0, (size_t) n * size);
	return g;
}

/* Makes every partition in t (phase 0) or every plan (phase 1), side
 * by side on the threads: a partition of a large graph takes seconds.
 * The new slots are zeroed and counted before they are built, so the
 * family frees what a failure leaves.
 */
static dse_stat make_all(struct overlay *o, int phase, const struct todo *t,
	dse_error *err)
{
	int n = phase ? t->n_pairs : t->n1.n, base, i;
	dse_stat *st = calloc((size_t) (n ? n : 1), sizeof(*st));
	dse_error *errs = calloc((size_t) (n ? n : 1), sizeof(*errs));
	void *g = NULL;
	dse_stat r;

	if (st && errs)
		g = phase ? gnn__ovl_grow_zeroed(o->plans, o->n_plans, n,
			sizeof(*o->plans)) : gnn__ovl_grow_zeroed(o->parts,
			o->n_parts, n, sizeof(*o->parts));
	if (!g) {
		free(st), free(errs);
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	if (phase)
		o->plans = g;
	else
		o->parts = g;
	base = phase ? o->n_plans : o->n_parts;
	if (phase)
		o->n_plans += n;
	else
		o->n_parts += n;
#pragma omp parallel for schedule(dynamic)
	for (i = 0; i < n; i++)
		st[i] = phase ? make_plan(o, &o->plans[base + i], t->part[i],
			t->n2[i], &errs[i]) : make_part(o, &o->parts[base + i],
			t->n1.v[i], &errs[i]);
	r = first_failure(st, errs, n, err);
	free(st), free(errs);
	return r;
}

/* Builds the partition of every shard height the prepared values of
 * n_pe and feat_rows give (gnn__ovl_shard_heights), and the plan of every
 * such height with every fiber width it may have with every prepared
 * feat_cols (gnn__ovl_fiber_widths), those not built yet.  Nothing until
 * each of the three knobs has a value.
 */
static dse_stat build(struct overlay *o, dse_error *err)
{
	struct todo t;
	dse_stat r = dse_stat_ok;
	int phase;

	for (phase = 0; phase < 2 && r == dse_stat_ok; phase++) {
		memset(&t, 0, sizeof(t));
		r = list_todo(o, phase, &t, err);
		if (r == dse_stat_ok)
			r = make_all(o, phase, &t, err);
		todo_clear(&t);
	}
	return r;
}

/* Records the values of n_pe, feat_rows and feat_cols, the knobs the
 * shard height and the plans depend on, and builds what they need.  The
 * sweep prepares its knobs one after the other, so the partitions are
 * built once the last of the three has values, and again only for the
 * new combinations when one of them gets more.  n_pe values outside
 * 1..limits.max_pe are not recorded (such a point is SIM_BAD_KNOB
 * anyway).
 */
dse_stat gnn__ovl_prepare(void *self, int knob, const int64_t *values,
	int n, dse_error *err)
{
	struct overlay *o = self;
	int i, k;

	for (k = 0; k < N_KNOBS && knob != o->knob[k]; k++)
		;
	if (k != K_PE && k != K_N1 && k != K_N2)
		return dse_stat_ok;
	for (i = 0; i < n; i++) {
		if (k == K_PE) {
			if (values[i] < 1 || values[i] > limits.max_pe)
				continue;
		} else if (values[i] < 1 || values[i] > INT32_MAX) {
			return dse_error_set(err, DSE_E_INPUT, "gnn-overlay: "
				"%s = %lld is not a positive 32-bit size",
				knob_names[k], (long long) values[i]);
		}
		if (add_value(&o->prepared[k], values[i], err))
			return dse_stat_error;
	}
	return build(o, err);
}
