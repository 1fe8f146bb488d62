/* gnn: the layer IR of GraphAGILE (section 6.1, Table II), model
 * construction with its checks, and the built-in models of Table V.
 *
 * Conventions this file adds to gnn/ir.h:
 *  - An Aggregate has one parent (the features it reduces) or two: then
 *    parent[0] gives the features and parent[1] the edge weights (a
 *    Vector-Inner, possibly through an Activation), as GAT needs.
 *  - A Vector-Add has two parents, or one: then its second operand is the
 *    model's input features (GIN's first layer adds a vertex's own input
 *    features to its aggregate).
 *  - A Vector-Inner's output is one weight per edge; its f_out equals its
 *    f_in only so that the lengths along the graph stay checkable.
 *  - Every layer without a parent reads the model's input, so all of them
 *    must agree on its length.
 *  - A layer's n_vertices and n_edges are always the model's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ir_internal.h"

#define N_ROWS(t) ((int) (sizeof(t) / sizeof((t)[0])))

static const char *const kind_names[GNN_N_LAYER_KINDS] = {
	"aggregate", "linear", "vector-inner", "vector-add", "activation",
	"batchnorm"
};
static const char *const aggop_names[GNN_N_AGGOPS] = {
	"sum", "mean", "max", "min"
};
static const char *const act_names[GNN_N_ACTS] = {
	"none", "relu", "prelu", "swish", "exp"
};

/* The most parents each kind of layer reads (section 6.1): a Linear,
 * Vector-Inner, Activation or BatchNorm transforms one matrix; an
 * Aggregate reads features and optionally edge weights; a Vector-Add sums
 * two matrices.
 */
static const int max_parents[GNN_N_LAYER_KINDS] = { 2, 1, 1, 2, 1, 1 };

static int find_name(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; name && i < n; i++)
		if (!strcasecmp(name, names[i]))
			return i;
	return -1;
}

const char *gnn_layer_kind_name(int kind)
{
	return kind >= 0 && kind < GNN_N_LAYER_KINDS ? kind_names[kind] : NULL;
}

int gnn_layer_kind_find(const char *name)
{
	return find_name(kind_names, GNN_N_LAYER_KINDS, name);
}

const char *gnn_aggop_name(int op)
{
	return op >= 0 && op < GNN_N_AGGOPS ? aggop_names[op] : NULL;
}

int gnn_aggop_find(const char *name)
{
	return find_name(aggop_names, GNN_N_AGGOPS, name);
}

const char *gnn_act_name(int act)
{
	return act >= 0 && act < GNN_N_ACTS ? act_names[act] : NULL;
}

int gnn_act_find(const char *name)
{
	return find_name(act_names, GNN_N_ACTS, name);
}

/* --- the model ----------------------------------------------------------- */

gnn_model *gnn_model_alloc(const char *name, int64_t n_vertices,
	int64_t n_edges)
{
	gnn_model *m;

	if (n_vertices < 0 || n_edges < 0)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	snprintf(m->name, sizeof(m->name), "%s", name ? name : "");
	m->n_vertices = n_vertices;
	m->n_edges = n_edges;
	return m;
}

gnn_model *gnn_model_copy(const gnn_model *m)
{
	gnn_model *c;

	if (!m)
		return NULL;
	c = malloc(sizeof(*c));
	if (c)
		memcpy(c, m, sizeof(*c));
	return c;
}

gnn_model *gnn_model_free(gnn_model *m)
{
	free(m);
	return NULL;
}

const char *gnn_model_name(const gnn_model *m)
{
	return m ? m->name : NULL;
}

int gnn_model_n_layers(const gnn_model *m)
{
	return m ? m->n_layers : 0;
}

const gnn_layer *gnn_model_layer(const gnn_model *m, int i)
{
	return m && i >= 0 && i < m->n_layers ? &m->layer[i] : NULL;
}

/* Operations of one layer, 2 per multiply-accumulate and 1 per add
 * (section 6.3, equations 10 and 11 for Aggregate and Linear; a
 * Vector-Inner is a dot product of f per edge).  Activations and batch
 * norms are neither and count 0, so that fusion leaves the total alone.
 */
static double layer_ops(const gnn_layer *l)
{
	double f = (double) l->f_in, v = (double) l->n_vertices;
	double e = (double) l->n_edges;

	switch (l->kind) {
	case GNN_AGGREGATE:
	case GNN_VECTOR_INNER:
		return 2.0 * f * e;
	case GNN_LINEAR:
		return 2.0 * f * (double) l->f_out * v;
	case GNN_VECTOR_ADD:
		return f * v;
	default:
		return 0.0;
	}
}

double gnn_model_ops(const gnn_model *m)
{
	double ops = 0.0;
	int i;

	for (i = 0; m && i < m->n_layers; i++)
		ops += layer_ops(&m->layer[i]);
	return ops;
}

/* Checks the kind, operator and activation fields of "l", to become layer
 * "id".
 */
static dse_stat check_fields(const gnn_layer *l, int id, dse_error *err)
{
	const char *kn = kind_names[l->kind];

	if (l->kind == GNN_AGGREGATE && (l->aggop < 0 ||
			l->aggop >= GNN_N_AGGOPS))
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): unknown aggregation operator %d", id,
			kn, l->aggop);
	if (l->act < 0 || l->act >= GNN_N_ACTS)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): unknown activation %d", id, kn, l->act);
	if (l->kind == GNN_ACTIVATION && l->act == GNN_ACT_NONE)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): an activation layer needs a function",
			id, kn);
	if (l->act_fused && l->act == GNN_ACT_NONE)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): a fused activation needs a function",
			id, kn);
	return dse_stat_ok;
}

/* Checks the parents of "l", to become layer "id" of "m". */
static dse_stat check_parents(const gnn_model *m, const gnn_layer *l, int id,
	dse_error *err)
{
	const char *kn = kind_names[l->kind];
	int i, j, least = l->kind == GNN_VECTOR_ADD ? 1 : 0;

	if (l->n_parent < least || l->n_parent > max_parents[l->kind])
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): %d parents, it takes %d to %d", id, kn,
			l->n_parent, least, max_parents[l->kind]);
	for (i = 0; i < l->n_parent; i++) {
		int p = l->parent[i];

		if (p < 0 || p >= id)
			return dse_error_set(err, DSE_E_INPUT,
				"layer %d (%s): parent %d does not exist (the "
				"model has layers 0 to %d)", id, kn, p, id - 1);
		for (j = 0; j < i; j++)
			if (l->parent[j] == p)
				return dse_error_set(err, DSE_E_INPUT,
					"layer %d (%s): parent %d is given "
					"twice", id, kn, p);
		if (m->layer[p].n_child >= GNN_MAX_LINKS)
			return dse_error_set(err, DSE_E_INPUT,
				"layer %d (%s): parent %d already has %d "
				"children, the most a layer can have", id, kn,
				p, GNN_MAX_LINKS);
	}
	return dse_stat_ok;
}

/* Works out the input length of "l" (layer "id" of "m") from its parents
 * or the model's input and checks it against l->f_in (0: take it).
 */
static dse_stat check_f_in(const gnn_model *m, const gnn_layer *l, int id,
	int64_t *f_in, dse_error *err)
{
	const char *kn = kind_names[l->kind];
	int64_t want = l->n_parent ? m->layer[l->parent[0]].f_out :
		m->f_input;
	int i;

	*f_in = l->f_in ? l->f_in : want;
	if (*f_in < 1)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): input length %lld must be positive",
			id, kn, (long long) *f_in);
	if (!l->n_parent && want && *f_in != want)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): f_in %lld differs from the model's "
			"input length %lld", id, kn, (long long) *f_in,
			(long long) want);
	for (i = 0; i < l->n_parent; i++) {
		int p = l->parent[i];

		if (m->layer[p].f_out != *f_in)
			return dse_error_set(err, DSE_E_INPUT,
				"layer %d (%s): f_in %lld does not match the "
				"f_out %lld of parent %d", id, kn,
				(long long) *f_in,
				(long long) m->layer[p].f_out, p);
	}
	if (l->kind == GNN_VECTOR_ADD && l->n_parent == 1 &&
			m->f_input != *f_in)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): adds the model's input of length %lld "
			"to features of length %lld", id, kn,
			(long long) m->f_input, (long long) *f_in);
	return dse_stat_ok;
}

/* The output length of "l" (layer "id") given its input length. */
static dse_stat check_f_out(const gnn_layer *l, int id, int64_t f_in,
	int64_t *f_out, dse_error *err)
{
	const char *kn = kind_names[l->kind];

	if (l->kind == GNN_LINEAR) {
		*f_out = l->f_out;
		if (*f_out < 1)
			return dse_error_set(err, DSE_E_INPUT,
				"layer %d (%s): output length %lld must be "
				"positive", id, kn, (long long) *f_out);
		return dse_stat_ok;
	}
	*f_out = l->f_out ? l->f_out : f_in;
	if (*f_out != f_in)
		return dse_error_set(err, DSE_E_INPUT,
			"layer %d (%s): f_out %lld must equal f_in %lld", id,
			kn, (long long) *f_out, (long long) f_in);
	return dse_stat_ok;
}

int gnn_model_add(gnn_model *m, const gnn_layer *l, dse_error *err)
{
	int64_t f_in, f_out;
	gnn_layer *n;
	int id, i;

	if (!m || !l) {
		dse_error_set(err, DSE_E_INPUT, "no model or no layer to add");
		return -1;
	}
	id = m->n_layers;
	if (l->kind < 0 || l->kind >= GNN_N_LAYER_KINDS) {
		dse_error_set(err, DSE_E_INPUT, "layer %d: unknown kind %d",
			id, l->kind);
		return -1;
	}
	if (id >= GNN_MAX_LAYERS) {
		dse_error_set(err, DSE_E_INPUT, "layer %d (%s): the model "
			"already has %d layers, the most it can hold", id,
			kind_names[l->kind], GNN_MAX_LAYERS);
		return -1;
	}
	if (check_fields(l, id, err) || check_parents(m, l, id, err) ||
			check_f_in(m, l, id, &f_in, err) ||
			check_f_out(l, id, f_in, &f_out, err))
		return -1;
	n = &m->layer[id];
	*n = *l;
	n->id = id;
	n->n_child = 0;
	memset(n->child, 0, sizeof(n->child));
	n->f_in = f_in;
	n->f_out = f_out;
	n->n_vertices = m->n_vertices;
	n->n_edges = m->n_edges;
	n->act_fused = !!l->act_fused;
	n->bn_fused = !!l->bn_fused;
	if (n->kind != GNN_AGGREGATE)
		n->aggop = GNN_AGG_SUM;
	for (i = 0; i < n->n_parent; i++) {
		gnn_layer *p = &m->layer[n->parent[i]];

		p->child[p->n_child++] = id;
	}
	if (!n->n_parent && !m->f_input)
		m->f_input = f_in;
	m->n_layers++;
	return id;
}

/* --- built-in models ----------------------------------------------------- */

/* Adds layers one after the other; after the first failure every call
 * returns -1 and the first error stays in err.
 */
struct builder {
	gnn_model *m;
	dse_error *err;
	int failed;
};

/* Adds a layer of "kind" reading "p0" and "p1" (-1: none; p0 = -1 means
 * the model's input).
 */
static int add(struct builder *b, int kind, int p0, int p1, int64_t f_out,
	int aggop, int act)
{
	gnn_layer l;
	int id;

	if (b->failed)
		return -1;
	memset(&l, 0, sizeof(l));
	l.kind = kind;
	if (p0 >= 0)
		l.parent[l.n_parent++] = p0;
	if (p1 >= 0)
		l.parent[l.n_parent++] = p1;
	l.f_in = p0 >= 0 ? 0 : b->m->f_input;
	l.f_out = f_out;
	l.aggop = aggop;
	l.act = act;
	id = gnn_model_add(b->m, &l, b->err);
	if (id < 0)
		b->failed = 1;
	return id;
}

static int agg(struct builder *b, int p, int op)
{
	return add(b, GNN_AGGREGATE, p, -1, 0, op, GNN_ACT_NONE);
}

static int lin(struct builder *b, int p, int64_t f_out)
{
	return add(b, GNN_LINEAR, p, -1, f_out, 0, GNN_ACT_NONE);
}

static int relu(struct builder *b, int p)
{
	return add(b, GNN_ACTIVATION, p, -1, 0, 0, GNN_ACT_RELU);
}

/* The parameters of a built-in: hidden length and number of GNN layers. */
struct spec {
	int64_t f_in, n_classes, hidden;
	int n_layers;
};

/* GCN (Kipf and Welling; Listing 1 and Figure 7 of GraphAGILE): each
 * layer is Aggregate(sum) over the normalised adjacency (the
 * normalisation rides on the edge weights), then the Linear of the layer,
 * then ReLU except after the last layer.  This is the order the paper's
 * compiler receives (Listing 3); the order pass moves the Linear first
 * when it shrinks the features.
 */
static void build_gcn(struct builder *b, const struct spec *s)
{
	int i, x = -1;

	for (i = 0; i < s->n_layers; i++) {
		int last = i == s->n_layers - 1;
		int l = lin(b, agg(b, x, GNN_AGG_SUM),
			last ? s->n_classes : s->hidden);

		x = last ? l : relu(b, l);
	}
}

/* GraphSAGE-mean: h' = W_n mean(h_j) + W_s h_i, so each layer is an
 * Aggregate(mean), a Linear on the aggregate, a second Linear on the
 * layer's own input, a Vector-Add of the two, then ReLU except at the
 * end.  The aggregate's Linear is its only child, so the order pass may
 * swap them.
 */
static void build_sage(struct builder *b, const struct spec *s)
{
	int i, x = -1;

	for (i = 0; i < s->n_layers; i++) {
		int last = i == s->n_layers - 1;
		int64_t f = last ? s->n_classes : s->hidden;
		int nb = lin(b, agg(b, x, GNN_AGG_MEAN), f);
		int self = lin(b, x, f);
		int v = add(b, GNN_VECTOR_ADD, nb, self, 0, 0, GNN_ACT_NONE);

		x = last ? v : relu(b, v);
	}
}

/* GIN (Xu et al., epsilon = 0): h' = MLP(h_i + sum_j h_j).  Each layer is
 * Aggregate(sum), a Vector-Add of the layer's input (in the first layer
 * the model's input, the one-parent form), then the two-layer MLP as in
 * the reference implementation: Linear, BatchNorm, ReLU, Linear, and a
 * ReLU between GIN layers.  The last MLP ends in the classes.  The
 * aggregate feeds a Vector-Add, not a Linear, so the order pass leaves it.
 */
static void build_gin(struct builder *b, const struct spec *s)
{
	int i, x = -1;

	for (i = 0; i < s->n_layers; i++) {
		int last = i == s->n_layers - 1;
		int a = agg(b, x, GNN_AGG_SUM);
		int v = add(b, GNN_VECTOR_ADD, a, x, 0, 0, GNN_ACT_NONE);
		int bn = add(b, GNN_BATCHNORM, lin(b, v, s->hidden), -1, 0, 0,
			GNN_ACT_NONE);
		int l2 = lin(b, relu(b, bn), last ? s->n_classes : s->hidden);

		x = last ? l2 : relu(b, l2);
	}
}

/* GAT (Velickovic et al.), one attention head: the Linear W h first (the
 * attention needs the transformed features), a Vector-Inner (SDDMM) for
 * the attention score of every edge, Activation(exp) for the unnormalised
 * softmax weights, and Aggregate(sum) of W h_j weighted by them (parents:
 * the features, then the weights), then ReLU except at the end.  The
 * softmax division is left to the Activation Unit and not modelled.
 */
static void build_gat(struct builder *b, const struct spec *s)
{
	int i, x = -1;

	for (i = 0; i < s->n_layers; i++) {
		int last = i == s->n_layers - 1;
		int l = lin(b, x, last ? s->n_classes : s->hidden);
		int vi = add(b, GNN_VECTOR_INNER, l, -1, 0, 0, GNN_ACT_NONE);
		int e = add(b, GNN_ACTIVATION, vi, -1, 0, 0, GNN_ACT_EXP);
		int a = add(b, GNN_AGGREGATE, l, e, 0, GNN_AGG_SUM,
			GNN_ACT_NONE);

		x = last ? a : relu(b, a);
	}
}

/* SGC (Wu et al.): S^k X W with k = n_layers propagation steps, k
 * Aggregate(sum) then one Linear to the classes and no activation.  The
 * order pass moves the Linear to the front, through both aggregates.
 */
static void build_sgc(struct builder *b, const struct spec *s)
{
	int i, x = -1;

	for (i = 0; i < s->n_layers; i++)
		x = agg(b, x, GNN_AGG_SUM);
	lin(b, x, s->n_classes);
}

/* GraphGym (You et al.): a Linear pre-processing layer with ReLU to the
 * hidden length, n_layers GCN-style message passing layers (Aggregate,
 * Linear, ReLU) of equal width, and a Linear post-processing layer to the
 * classes.  Every Aggregate-Linear pair keeps its length, so the order
 * pass has nothing to gain (GraphAGILE section 8.2 reports no effect on
 * b8).
 */
static void build_graphgym(struct builder *b, const struct spec *s)
{
	int i, x = relu(b, lin(b, -1, s->hidden));

	for (i = 0; i < s->n_layers; i++)
		x = relu(b, lin(b, agg(b, x, GNN_AGG_SUM), s->hidden));
	lin(b, x, s->n_classes);
}

/* GraphAGILE Table V: the models b1 to b8 with their hidden lengths and
 * layer counts (b7: k = 2 propagation steps; b8: 3 GNN layers between its
 * pre- and post-processing layers).
 */
static const struct builtin {
	const char *name;
	const char *alias;
	const char *about;
	void (*build)(struct builder *b, const struct spec *s);
	int64_t hidden;
	int n_layers;
} builtins[] = {
	{ "b1", "gcn16", "GCN, 2 layers, 16", build_gcn, 16, 2 },
	{ "b2", "gcn128", "GCN, 2 layers, 128", build_gcn, 128, 2 },
	{ "b3", "sage128", "GraphSAGE, 2 layers, 128", build_sage, 128, 2 },
	{ "b4", "sage256", "GraphSAGE, 2 layers, 256", build_sage, 256, 2 },
	{ "b5", "gin", "GIN, 5 layers, 128", build_gin, 128, 5 },
	{ "b6", "gat", "GAT, 2 layers, 64", build_gat, 64, 2 },
	{ "b7", "sgc", "SGC, k = 2", build_sgc, 0, 2 },
	{ "b8", "graphgym", "GraphGym, 1 + 3 + 1 layers, 256", build_graphgym,
	  256, 3 },
};

int gnn_model_builtin_count(void)
{
	return N_ROWS(builtins);
}

const char *gnn_model_builtin_name(int i)
{
	return i >= 0 && i < N_ROWS(builtins) ? builtins[i].name : NULL;
}

const char *gnn_model_builtin_about(int i)
{
	return i >= 0 && i < N_ROWS(builtins) ? builtins[i].about : NULL;
}

void gnn_model_builtin_names(char *buf, size_t size)
{
	size_t len = 0;
	int i, pass;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < N_ROWS(builtins); i++) {
			const char *n = pass ? builtins[i].alias :
				builtins[i].name;
			int w = snprintf(buf + len, size - len, "%s%s",
				len ? ", " : "", n);

			if (w < 0 || (size_t) w >= size - len)
				return;
			len += (size_t) w;
		}
}

gnn_model *gnn_model_builtin(const char *name, int64_t n_vertices,
	int64_t n_edges, int64_t f_in, int64_t n_classes, dse_error *err)
{
	const struct builtin *t = NULL;
	struct builder b;
	struct spec s;
	char names[256];
	int i;

	for (i = 0; name && i < N_ROWS(builtins); i++)
		if (!strcasecmp(name, builtins[i].name) ||
				!strcasecmp(name, builtins[i].alias))
			t = &builtins[i];
	if (!t) {
		gnn_model_builtin_names(names, sizeof(names));
		dse_error_set(err, DSE_E_INPUT, "unknown model '%s' (known: "
			"%s)", name ? name : "", names);
		return NULL;
	}
	if (n_vertices < 1 || n_edges < 0 || f_in < 1 || n_classes < 1) {
		dse_error_set(err, DSE_E_INPUT, "model %s: needs at least one "
			"vertex, input feature and class (got %lld vertices, "
			"%lld edges, %lld features, %lld classes)", t->name,
			(long long) n_vertices, (long long) n_edges,
			(long long) f_in, (long long) n_classes);
		return NULL;
	}
	b.m = gnn_model_alloc(t->name, n_vertices, n_edges);
	b.err = err;
	b.failed = 0;
	if (!b.m) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	b.m->f_input = f_in;
	s.f_in = f_in;
	s.n_classes = n_classes;
	s.hidden = t->hidden;
	s.n_layers = t->n_layers;
	t->build(&b, &s);
	if (b.failed)
		return gnn_model_free(b.m);
	return b.m;
}
