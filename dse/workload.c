/* The [workload] section: a GNN model on a graph, explored over one of
 * the GNN accelerator families (gnn/family.h), or a network of layers
 * over the overlay systolic family (tensil/family.h), instead of a
 * systolic array derived from a kernel.
 *
 *   [workload]
 *   family   = gnn-overlay            # gnn-dataflow, overlay-systolic
 *   model    = b1                     # a built-in (b1..b8 and aliases;
 *                                     # resnet20v2, ... for overlays)
 *   layers   = aggregate(sum), linear(16), activation(relu), ...
 *   graph    = cora                   # a preset, a file, rmat(V, E),
 *                                     # rmat_simple(V, E) or uniform(V, E)
 *   features = 1433                   # preset graphs bring their own
 *   classes  = 7
 *   topology = layers.csv             # overlay-systolic: a network file
 *
 * A layer list is a chain: every layer reads the one before it (the first
 * reads the model's input), and "vector-add(N)" adds the output of layer N
 * (0-based; "input" for the model's input), "aggregate(op, N)" takes its
 * edge weights from layer N (a vector-inner).  Relative graph and
 * topology paths are read from the config file's folder.
 */
#include <ctype.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "families_internal.h"
#include "tensil/tarch.h"

#define MAX_ARGS 6

/* The longest feature vector a GNN layer may have (input features,
 * classes, a linear layer's outputs): 2^20, far past any dataset
 * (Citeseer's 3,703 input features are the most of the presets), small
 * enough that the families' buffers and per-feature counts stay in range.
 */
#define MAX_FEATURES (INT64_C(1) << 20)

/* An input error "offset" characters into the value of "key". */
#define wl_error dse_ctx_error
#define ARG_LEN 32

/* One "name(arg, arg)" item of a list: its name, arguments and where it
 * starts in the value.
 */
struct item {
	char name[ARG_LEN];
	char arg[MAX_ARGS][ARG_LEN];
	int n_arg;
	int at;
};

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Copies a word (letters, digits, '-', '_', '.') of at most ARG_LEN - 1
 * characters; returns the character after it, or NULL when it is empty
 * or too long.
 */
static const char *word(const char *s, char *out)
{
	int n = 0;

	while (isalnum((unsigned char) s[n]) || s[n] == '-' || s[n] == '_' ||
	       s[n] == '.') {
		if (n + 1 >= ARG_LEN)
			return NULL;
		out[n] = s[n];
		n++;
	}
	out[n] = '\0';
	return n ? s + n : NULL;
}

/* Reads one item at "s" (the value starts at "base"); returns the text
 * after it (at a ',' or the end), or NULL with the error's offset.
 */
static const char *read_item(const char *base, const char *s,
	struct item *it, int *bad)
{
	memset(it, 0, sizeof(*it));
	s = skip_blanks(s);
	it->at = (int) (s - base);
	*bad = it->at;
	if (!(s = word(s, it->name)))
		return NULL;
	s = skip_blanks(s);
	if (*s == '(') {
		do {
			s = skip_blanks(s + 1);
			*bad = (int) (s - base);
			if (it->n_arg >= MAX_ARGS ||
			    !(s = word(s, it->arg[it->n_arg++])))
				return NULL;
			s = skip_blanks(s);
		} while (*s == ',');
		*bad = (int) (s - base);
		if (*s != ')')
			return NULL;
		s = skip_blanks(s + 1);
	}
	*bad = (int) (s - base);
	return *s == ',' || !*s ? s : NULL;
}

static int parse_int(const char *s, int64_t *v)
{
	char *end;
	long long x = strtoll(s, &end, 10);

	if (end == s || *end || x < 0)
		return -1;
	*v = x;
	return 0;
}

/* A layer of the list from its item; "prev" is the id of the layer
 * before it (-1: the model's input).
 */
static dse_stat item_layer(const dse_ctx *ctx, const struct item *it,
	int prev, gnn_layer *l, dse_error *err)
{
	int kind = gnn_layer_kind_find(it->name);
	int64_t v = 0;

	memset(l, 0, sizeof(*l));
	if (kind < 0)
		return wl_error(ctx, "workload", "layers", it->at, err,
			"unknown layer '%s' (known: aggregate, linear, "
			"vector-inner, vector-add, activation, batchnorm)",
			it->name);
	l->kind = kind;
	if (prev >= 0)
		l->parent[l->n_parent++] = prev;
	switch (kind) {
	case GNN_AGGREGATE:
		l->aggop = it->n_arg ? gnn_aggop_find(it->arg[0]) : GNN_AGG_SUM;
		if (l->aggop < 0 || it->n_arg > 2)
			return wl_error(ctx, "workload", "layers", it->at, err,
				"aggregate takes an operator (sum, mean, max, "
				"min) and optionally the layer of its edge "
				"weights");
		if (it->n_arg == 2) {
			if (parse_int(it->arg[1], &v) || v >= prev + 1)
				return wl_error(ctx, "workload", "layers",
					it->at, err, "aggregate's edge weights "
					"must come from an earlier layer");
			l->parent[l->n_parent++] = (int) v;
		}
		break;
	case GNN_LINEAR:
		if (it->n_arg != 1 || parse_int(it->arg[0], &v) || v < 1)
			return wl_error(ctx, "workload", "layers", it->at, err,
				"linear takes its output length, e.g. "
				"linear(16)");
		if (v > MAX_FEATURES)
			return wl_error(ctx, "workload", "layers", it->at, err,
				"linear(%lld): a layer has at most %lld "
				"features", (long long) v,
				(long long) MAX_FEATURES);
		l->f_out = v;
		break;
	case GNN_VECTOR_ADD:
		if (it->n_arg != 1 || (strcmp(it->arg[0], "input") &&
		    (parse_int(it->arg[0], &v) || v >= prev + 1)))
			return wl_error(ctx, "workload", "layers", it->at, err,
				"vector-add takes the earlier layer it adds "
				"(its 0-based position, or 'input')");
		if (strcmp(it->arg[0], "input"))
			l->parent[l->n_parent++] = (int) v;
		break;
	case GNN_ACTIVATION:
		l->act = it->n_arg == 1 ? gnn_act_find(it->arg[0]) : -1;
		if (l->act <= GNN_ACT_NONE)
			return wl_error(ctx, "workload", "layers", it->at, err,
				"activation takes its function: relu, prelu, "
				"swish or exp");
		break;
	default:
		if (it->n_arg)
			return wl_error(ctx, "workload", "layers", it->at, err,
				"%s takes no arguments", it->name);
	}
	return dse_stat_ok;
}

/* The model of a "layers" list. */
static gnn_model *layer_list(const dse_ctx *ctx, const char *name,
	int64_t nv, int64_t ne, int64_t f_in, dse_error *err)
{
	const char *text = dse_cfg_string(ctx->cfg, "workload", "layers", "");
	const char *s = text;
	gnn_model *m = gnn_model_alloc(name, nv, ne);
	int prev = -1, bad;

	if (!m) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory: the GNN "
			"model '%s'", name);
		return NULL;
	}
	while (*s) {
		struct item it;
		gnn_layer l;
		dse_error sub;

		s = read_item(text, s, &it, &bad);
		if (!s) {
			wl_error(ctx, "workload", "layers", bad, err,
				"expected a layer such as linear(16) or "
				"aggregate(sum)");
			return gnn_model_free(m);
		}
		if (item_layer(ctx, &it, prev, &l, err))
			return gnn_model_free(m);
		if (prev < 0)
			l.f_in = f_in;
		dse_error_clear(&sub);
		prev = gnn_model_add(m, &l, &sub);
		if (prev < 0) {
			wl_error(ctx, "workload", "layers", it.at, err, "%s",
				sub.msg);
			return gnn_model_free(m);
		}
		if (*s == ',')
			s++;
	}
	if (prev < 0) {
		wl_error(ctx, "workload", "layers", 0, err, "the layer list "
			"is empty");
		return gnn_model_free(m);
	}
	return m;
}

void dse__at_key(const dse_ctx *ctx, const char *section, const char *key,
	dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];

	if (!err || err->code != DSE_E_INPUT || err->file[0])
		return;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	wl_error(ctx, section, key, -1, err, "%s", msg);
}

/* Whether "name" is a generator of load_graph. */
static int is_generator(const char *name)
{
	return !strcmp(name, "rmat") || !strcmp(name, "rmat_simple") ||
		!strcmp(name, "uniform");
}

/* A generator spec "rmat(V, E[, a, b, c, d])", the same as
 * "rmat_simple" (no edge twice, no self loop: gnn_graph_rmat_simple) or
 * "uniform(V, E)".
 */
static gnn_graph *generated(const dse_ctx *ctx, const struct item *it,
	uint64_t seed, dse_error *err)
{
	double p[4] = { 0.57, 0.19, 0.19, 0.05 };
	int64_t nv, ne;
	int simple = !strcmp(it->name, "rmat_simple");
	int i, rmat = simple || !strcmp(it->name, "rmat");

	if (!(it->n_arg == 2 || (rmat && it->n_arg == 6)) ||
	    parse_int(it->arg[0], &nv) || parse_int(it->arg[1], &ne) ||
	    nv < 1 || ne < 1)
		goto bad;
	for (i = 2; i < it->n_arg; i++) {
		char *end;

		p[i - 2] = strtod(it->arg[i], &end);
		if (end == it->arg[i] || *end)
			goto bad;
	}
	{
		gnn_graph *g = simple ? gnn_graph_rmat_simple(nv, ne, p[0],
			p[1], p[2], p[3], seed, err) : rmat ? gnn_graph_rmat(nv,
			ne, p[0], p[1], p[2], p[3], seed, err) :
			gnn_graph_uniform(nv, ne, seed, err);

		if (!g)
			dse__at_key(ctx, "workload", "graph", err);
		return g;
	}
bad:
	wl_error(ctx, "workload", "graph", -1, err, "expected %s(vertices, "
		"edges%s), e.g. %s(10000, 200000)", it->name, rmat ?
		"[, a, b, c, d]" : "", it->name);
	return NULL;
}

/* The path of a file the config names: as given when absolute, else
 * relative to the config file's folder.
 */
void dse_config_path(const dse_ctx *ctx, const char *name, char *path,
	size_t size)
{
	const char *cfg = dse_cfg_file(ctx->cfg);
	const char *slash = strrchr(cfg, '/');

	if (name[0] == '/' || !slash)
		snprintf(path, size, "%s", name);
	else
		snprintf(path, size, "%.*s/%s", (int) (slash - cfg), cfg, name);
}

/* A file the config names and that cannot be opened is the config's
 * mistake: the error moves to the key.  Errors inside the file keep the
 * file's own line.
 */
static void unreadable_at(const dse_ctx *ctx, const char *key,
	const char *what, dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];

	if (!err || err->code != DSE_E_IO || err->line)
		return;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	wl_error(ctx, "workload", key, -1, err, "cannot read the %s: %s",
		what, msg);
}

/* Records the graph file "name" among the sweep's inputs (its path in
 * "path", DSE_PATH_LEN bytes).
 */
static dse_stat graph_input(dse_ctx *ctx, const char *name, char *path,
	dse_error *err)
{
	dse_config_path(ctx, name, path, DSE_PATH_LEN);
	return dse_input_add(ctx, "workload", "graph", path, err);
}

/* Whether [workload] graph "spec" names a file rather than a preset or
 * a generator (load_graph's order).
 */
static int is_graph_file(const char *spec)
{
	struct item it;
	int bad;

	if (gnn_preset_find(spec))
		return 0;
	if (strchr(spec, '(') && read_item(spec, spec, &it, &bad) &&
	    is_generator(it.name))
		return 0;
	return strchr(spec, '/') || strchr(spec, '.');
}

/* Reads a graph file named relative to the config's folder. */
static gnn_graph *graph_file(dse_ctx *ctx, const char *name,
	dse_error *err)
{
	char path[DSE_PATH_LEN];
	gnn_graph *g;

	if (graph_input(ctx, name, path, err))
		return NULL;
	g = gnn_graph_read(path, err);
	if (!g)
		unreadable_at(ctx, "graph", "graph", err);
	return g;
}

/* The graph of [workload] graph, and the preset it is when it is one. */
static gnn_graph *load_graph(dse_ctx *ctx, const gnn_preset **preset,
	dse_error *err)
{
	const char *spec = dse_cfg_string(ctx->cfg, "workload", "graph", "");
	uint64_t seed = (uint64_t) dse_cfg_int(ctx->cfg, "workload",
		"graph_seed", 1);
	struct item it;
	int bad;

	*preset = gnn_preset_find(spec);
	if (*preset) {
		gnn_graph *g = gnn_graph_preset(*preset, seed, err);

		if (!g)
			dse__at_key(ctx, "workload", "graph", err);
		return g;
	}
	if (strchr(spec, '(') && read_item(spec, spec, &it, &bad) &&
	    is_generator(it.name))
		return generated(ctx, &it, seed, err);
	if (is_graph_file(spec))
		return graph_file(ctx, spec, err);
	{
		char known[256];

		gnn_preset_names(known, sizeof(known));
		wl_error(ctx, "workload", "graph", -1, err, "unknown graph "
			"'%s': a preset (%s), a file (.mtx or an edge list), "
			"rmat(V, E), rmat_simple(V, E) or uniform(V, E)", spec,
			known);
	}
	return NULL;
}

/* The model of [workload] model or layers on "g". */
static gnn_model *load_model(dse_ctx *ctx, const gnn_graph *g,
	const gnn_preset *preset, dse_error *err)
{
	const char *name = dse_cfg_string(ctx->cfg, "workload", "model", NULL);
	int has_layers = dse_cfg_has(ctx->cfg, "workload", "layers");
	int64_t f_in = dse_cfg_int(ctx->cfg, "workload", "features",
		preset ? preset->n_features : 0);
	int64_t classes = dse_cfg_int(ctx->cfg, "workload", "classes",
		preset ? preset->n_classes : 0);
	gnn_model *m;

	if (!name == !has_layers) {
		wl_error(ctx, "workload", name ? "layers" : "family", -1, err,
			"give the model as 'model = b1' (a built-in) or as "
			"'layers = ...', exactly one of them");
		return NULL;
	}
	if (f_in <= 0 || (name && classes <= 0)) {
		wl_error(ctx, "workload", "graph", -1, err, "the graph is not "
			"a preset: set 'features' (input feature length)%s",
			name ? " and 'classes'" : "");
		return NULL;
	}
	if (f_in > MAX_FEATURES || classes > MAX_FEATURES) {
		wl_error(ctx, "workload", f_in > MAX_FEATURES ? "features" :
			"classes", -1, err, "at most %lld features (and "
			"classes)", (long long) MAX_FEATURES);
		return NULL;
	}
	if (has_layers)
		return layer_list(ctx, "layers", gnn_graph_n_vertices(g),
			gnn_graph_n_edges(g), f_in, err);
	m = gnn_model_builtin(name, gnn_graph_n_vertices(g),
		gnn_graph_n_edges(g), f_in, classes, err);
	if (!m) {
		char known[256];

		gnn_model_builtin_names(known, sizeof(known));
		wl_error(ctx, "workload", "model", -1, err, "unknown model "
			"'%s' (built-in: %s)", name, known);
	}
	return m;
}

/* Whether the model named in the config is an ONNX file. */
static int is_onnx(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 5 && !strcasecmp(name + n - 5, ".onnx");
}

/* The network of an overlay-systolic workload: a built-in, an ONNX model
 * or a topology CSV (convolutions in SCALE-Sim's form, or GEMMs "name, M,
 * N, K").
 */
static tensil_model *load_network(dse_ctx *ctx, char *onnx, size_t size,
	dse_error *err)
{
	const char *name = dse_cfg_string(ctx->cfg, "workload", "model", NULL);
	const char *topo = dse_cfg_string(ctx->cfg, "workload", "topology",
		NULL);
	tensil_model *m;

	if (!name == !topo || dse_cfg_has(ctx->cfg, "workload", "graph") ||
	    dse_cfg_has(ctx->cfg, "workload", "layers")) {
		wl_error(ctx, "workload", "family", -1, err, "an "
			"overlay-systolic workload is 'model = <built-in>', "
			"'model = <file.onnx>' or 'topology = <file.csv>', "
			"exactly one, and no graph or layers");
		return NULL;
	}
	if (topo) {
		char path[DSE_PATH_LEN];

		dse_config_path(ctx, topo, path, sizeof(path));
		if (dse_input_add(ctx, "workload", "topology",
				path, err))
			return NULL;
		m = tensil_model_read_csv(path, err);
		if (!m)
			unreadable_at(ctx, "topology", "topology", err);
		return m;
	}
	if (is_onnx(name)) {
		dse_config_path(ctx, name, onnx, size);
		if (dse_input_add(ctx, "workload", "model", onnx, err))
			return NULL;
		m = tensil_model_read_onnx(onnx, err);
		if (!m)
			unreadable_at(ctx, "model", "model", err);
		return m;
	}
	m = tensil_model_builtin(name, err);
	if (!m) {
		char known[256];

		tensil_model_builtin_names(known, sizeof(known));
		wl_error(ctx, "workload", "model", -1, err, "unknown network "
			"'%s' (built-in: %s; or an ONNX file, name.onnx)", name,
			known);
	}
	return m;
}

/* Rejects the [workload] keys of the other kind of family: a key the
 * family does not read would otherwise be ignored without a word.
 */
static dse_stat foreign_keys(const dse_ctx *ctx, int tensil,
	const char *fam, dse_error *err)
{
	static const char *const gnn_only[] = { "graph", "layers", "features",
		"classes", "graph_seed" };
	size_t i;

	if (!tensil) {
		if (!dse_cfg_has(ctx->cfg, "workload", "topology"))
			return dse_stat_ok;
		return wl_error(ctx, "workload", "topology", -1, err, "a %s "
			"workload takes a graph and a model or layers; "
			"'topology' is for overlay-systolic workloads", fam);
	}
	for (i = 0; i < sizeof(gnn_only) / sizeof(gnn_only[0]); i++)
		if (dse_cfg_has(ctx->cfg, "workload", gnn_only[i]))
			return wl_error(ctx, "workload", gnn_only[i], -1, err,
				"'%s' is for GNN workloads; an overlay-systolic "
				"workload takes a model or a topology",
				gnn_only[i]);
	return dse_stat_ok;
}

/* An overlay-systolic workload: its network and family. */
dse_stat dse__tensil_setup(dse_ctx *ctx, const char *name, dse_error *err)
{
	char onnx[DSE_PATH_LEN] = "";
	tensil_model *m = load_network(ctx, onnx, sizeof(onnx), err);
	tensil_family *f;

	if (!m)
		return dse_stat_error;
	if (foreign_keys(ctx, 1, "overlay-systolic", err)) {
		tensil_model_free(m);
		return dse_stat_error;
	}
	snprintf(ctx->tmpl.kernel, sizeof(ctx->tmpl.kernel), "%s", name ?
		name : tensil_model_name(m));
	f = tensil_family_alloc(m, &ctx->board, err);
	tensil_model_free(m);
	if (!f) {
		dse__at_key(ctx, "workload", "family", err);
		return dse_stat_error;
	}
	ctx->fam_obj = f;
	return onnx[0] ? tensil_family_set_onnx(f, onnx, err) : dse_stat_ok;
}

/* The graph, one copy per node when MPI runs (gnn/share.h): the node's
 * first rank loads it and moves it into memory the node's ranks share,
 * the others only read that copy (and take from the config the preset,
 * which the model needs, and the file, which the inputs record).
 */
static gnn_graph *node_graph(dse_ctx *ctx, const gnn_preset **preset,
	dse_error *err)
{
	const char *spec = dse_cfg_string(ctx->cfg, "workload", "graph", "");
	char path[DSE_PATH_LEN];
	gnn_graph *g = NULL;
	dse_stat st = dse_stat_ok;

	if (ctx->mpi && !ctx->share) {
		ctx->share = gnn_share_alloc(ctx->comm, err);
		if (!ctx->share)
			return NULL;
	}
	if (gnn_share_builds(ctx->share)) {
		g = load_graph(ctx, preset, err);
		st = g ? dse_stat_ok : dse_stat_error;
	}
	if (gnn_share_agree(ctx->share, st, err) ||
	    gnn_share_graph(ctx->share, &g, err))
		return gnn_graph_free(g);
	if (!gnn_share_builds(ctx->share)) {
		*preset = gnn_preset_find(spec);
		if (is_graph_file(spec) && graph_input(ctx, spec, path, err))
			return gnn_graph_free(g);
	}
	return g;
}

/* The family's space; the partitions once per node: the node's first
 * rank builds them and shares them before the others prepare theirs,
 * which then build only the plans.
 */
static dse_stat node_family_space(dse_ctx *ctx, dse_error *err)
{
	dse_stat st = dse_stat_ok;

	if (gnn_share_builds(ctx->share))
		st = dse__family_space(ctx, err);
	if (gnn_share_agree(ctx->share, st, err) ||
	    gnn_share_family(ctx->share, ctx->fam_obj, err))
		return dse_stat_error;
	return gnn_share_builds(ctx->share) ? dse_stat_ok :
		dse__family_space(ctx, err);
}

/* A GNN workload: its graph (one copy a node), model, family and space. */
dse_stat dse__gnn_setup(dse_ctx *ctx, const char *name, dse_error *err)
{
	const char *fam = ctx->fam->name;
	const gnn_preset *preset = NULL;
	gnn_model *model;
	double t0;

	if (foreign_keys(ctx, 0, fam, err))
		return dse_stat_error;
	if (!dse_cfg_has(ctx->cfg, "workload", "graph"))
		return wl_error(ctx, "workload", "family", -1, err, "a %s "
			"workload needs a graph: a preset, a file, rmat(V, E) "
			"or uniform(V, E)", fam);
	t0 = omp_get_wtime();
	ctx->graph = node_graph(ctx, &preset, err);
	if (!ctx->graph)
		return dse_stat_error;
	/* Large graphs take seconds to read or generate and partition:
	 * say what is happening before the search's own progress starts.
	 */
	dse_note(ctx, DSE_NOTE_PROGRESS, "graph %s: %lld vertices, %lld "
			"edges (%.1f s)", gnn_graph_name(ctx->graph),
			(long long) gnn_graph_n_vertices(ctx->graph),
			(long long) gnn_graph_n_edges(ctx->graph),
			omp_get_wtime() - t0);
	model = load_model(ctx, ctx->graph, preset, err);
	if (!model)
		return dse_stat_error;
	snprintf(ctx->tmpl.kernel, sizeof(ctx->tmpl.kernel), "%s", name ?
		name : gnn_model_name(model));
	ctx->fam_obj = gnn_family_alloc(gnn_family_find(fam), model,
		ctx->graph, &ctx->board, ctx->dtype, err);
	gnn_model_free(model);
	if (!ctx->fam_obj) {
		dse__at_key(ctx, "workload", dse_cfg_has(ctx->cfg, "workload",
			"layers") ? "layers" : "model", err);
		return dse_stat_error;
	}
	t0 = omp_get_wtime();
	if (node_family_space(ctx, err))
		return dse_stat_error;
	dse__note_prepared(ctx, t0);
	if (gnn_share_bytes(ctx->share))
		dse_note(ctx, DSE_NOTE_PROGRESS, "graph and what is built "
			"from it: one copy of %.1f MB shared by the %d ranks of "
			"the node",
			(double) gnn_share_bytes(ctx->share) / 1e6,
			gnn_share_node_ranks(ctx->share));
	return dse_stat_ok;
}
