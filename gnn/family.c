/* gnn: the family interface, dispatching to each family's evaluator, and
 * the knob tables of both families.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "family_internal.h"

/* GraphAGILE on the Alveo U250 (section 7): 8 PEs of p_sys = 16, a
 * 16384 x 16 weight buffer, a 65536-edge edge buffer, a 16384 x 16
 * feature buffer, 300 MHz and the board's 77 GB/s.
 */
static const family_knob overlay_knobs[] = {
	{ "n_pe", "PE", "processing elements (Adaptive Computation Kernels)" },
	{ "p_sys", "ALUs a side", "each PE's p_sys x p_sys ALU array" },
	{ "weight_rows", "rows of p_sys words", "the weight buffer" },
	{ "edge_rows", "edges", "the edge buffer" },
	{ "feat_rows", "rows", "the feature buffer's height (the shard "
		"height is at most this)" },
	{ "feat_cols", "words", "the feature buffer's width (the fiber "
		"width is at least this)" },
	{ "mhz", "MHz", "the clock" },
	{ "dram_gbps", "GB/s", "the off-chip bandwidth" },
};
static const int64_t overlay_defaults[] = {
	8, 16, 16384, 65536, 16384, 16, 300, 77
};

/* AGILE (seed 000, "Microarchitecture Specification"): 64 nodeslots;
 * 16 fetch tags (the "Fetch Tag" sizing: 262 kB of message queue per
 * tag, 4 MB in all); an 8 x 8 mesh of aggregation cores (64 allocation
 * slots, enough for its 1024-feature maximum); a 128 KiB aggregation
 * buffer (32 slots of 1024 fp32 features, whose half is the wait count
 * of 16 of the common use case); 200 MHz; the 77 GB/s of the U250, whose
 * 1280 URAM blocks it cites.  The seed allows up to 64 systolic modules
 * but gives no implemented count: 4 is chosen, the most that fits the
 * U250's DSP slices in fp32 next to the mesh's accumulators.
 */
static const family_knob dataflow_knobs[] = {
	{ "slots", "nodes", "the node scoreboard's slots" },
	{ "fetch_tags", "tags", "the prefetcher's fetch tags" },
	{ "mesh_rows", "cores", "the aggregation mesh's rows" },
	{ "mesh_cols", "cores", "the aggregation mesh's columns" },
	{ "fte", "modules", "16x16 systolic transformation modules" },
	{ "feat_kb", "KiB", "the aggregation buffer between the mesh and the "
		"transformation engine" },
	{ "mhz", "MHz", "the clock" },
	{ "dram_gbps", "GB/s", "the off-chip bandwidth" },
};
static const int64_t dataflow_defaults[] = { 64, 16, 8, 8, 4, 128, 200, 77 };

#define N_ROWS(t) ((int) (sizeof(t) / sizeof((t)[0])))

_Static_assert(N_ROWS(overlay_knobs) <= GNN_MAX_KNOBS, "overlay knobs");
_Static_assert(N_ROWS(dataflow_knobs) <= GNN_MAX_KNOBS, "dataflow knobs");
_Static_assert(N_ROWS(overlay_defaults) == N_ROWS(overlay_knobs),
	"overlay defaults");
_Static_assert(N_ROWS(dataflow_defaults) == N_ROWS(dataflow_knobs),
	"dataflow defaults");

static const char *const family_names[GNN_N_FAMILIES] = {
	"gnn-overlay", "gnn-dataflow"
};

struct gnn_family {
	int kind;
	const gnn_graph *graph;	/* kept: the graph it was built for */
	const struct gnn__family_ops *ops;
	void *self;
};

const char *gnn_family_kind_name(int kind)
{
	return kind >= 0 && kind < GNN_N_FAMILIES ? family_names[kind] : NULL;
}

int gnn_family_find(const char *name)
{
	int k;

	for (k = 0; name && k < GNN_N_FAMILIES; k++)
		if (!strcasecmp(name, family_names[k]))
			return k;
	return -1;
}

/* A family's knobs and their defaults; NULL and 0 knobs for an unknown
 * kind.
 */
static const family_knob *table(int kind, int *n, const int64_t **def)
{
	if (kind == GNN_OVERLAY) {
		*n = N_ROWS(overlay_knobs);
		*def = overlay_defaults;
		return overlay_knobs;
	}
	if (kind == GNN_DATAFLOW) {
		*n = N_ROWS(dataflow_knobs);
		*def = dataflow_defaults;
		return dataflow_knobs;
	}
	*n = 0;
	*def = NULL;
	return NULL;
}

int gnn_family_n_knobs(int kind)
{
	int n;
	const int64_t *def;

	table(kind, &n, &def);
	return n;
}

const char *gnn_family_knob_name(int kind, int knob)
{
	int n;
	const int64_t *def;
	const family_knob *t = table(kind, &n, &def);

	return knob >= 0 && knob < n ? t[knob].name : NULL;
}

int64_t gnn_family_knob_default(int kind, int knob)
{
	int n;
	const int64_t *def;

	table(kind, &n, &def);
	return knob >= 0 && knob < n ? def[knob] : 0;
}

int gnn_family_knob_find(int kind, const char *name)
{
	int n, k;
	const int64_t *def;
	const family_knob *t = table(kind, &n, &def);

	for (k = 0; name && k < n; k++)
		if (!strcmp(name, t[k].name))
			return k;
	return -1;
}

gnn_family *gnn_family_alloc(int kind, const gnn_model *model,
	const gnn_graph *graph, const arch_board *board,
	const arch_dtype *dtype, dse_error *err)
{
	gnn_family *f;

	if (kind < 0 || kind >= GNN_N_FAMILIES || !model || !graph ||
	    !board || !dtype) {
		dse_error_set(err, DSE_E_RUNTIME,
			"gnn_family_alloc: no model, graph, board or data type,"
			" or unknown family %d", kind);
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	f->kind = kind;
	f->graph = graph;
	f->ops = kind == GNN_OVERLAY ? &gnn__overlay_ops : &gnn__dataflow_ops;
	f->self = f->ops->alloc(model, graph, board, dtype, err);
	if (!f->self) {
		free(f);
		return NULL;
	}
	return f;
}

gnn_family *gnn_family_free(gnn_family *f)
{
	if (!f)
		return NULL;
	f->ops->free(f->self);
	free(f);
	return NULL;
}

int gnn_family_kind(const gnn_family *f)
{
	return f->kind;
}

dse_stat gnn_family_prepare(gnn_family *f, int knob, const int64_t *values,
	int n, dse_error *err)
{
	if (knob < 0 || knob >= gnn_family_n_knobs(f->kind))
		return dse_error_set(err, DSE_E_RUNTIME,
			"gnn_family_prepare: no knob %d", knob);
	return f->ops->prepare(f->self, knob, values, n, err);
}

void gnn_family_eval(const gnn_family *f, const int32_t *knobs,
	sim_metrics *out)
{
	f->ops->eval(f->self, knobs, out);
}

dse_stat gnn_family_simulate(const gnn_family *f, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	return f->ops->simulate(f->self, knobs, kind, opt, out, err);
}

int gnn_family_why(const gnn_family *f, const int32_t *knobs, char *buf,
	int size)
{
	return f->ops->why(f->self, knobs, buf, size > 0 ? (size_t) size : 0);
}

void gnn_family_describe(const gnn_family *f, const int32_t *knobs,
	char *buf, int size)
{
	int n, k, used = 0;
	const int64_t *def;
	const family_knob *t = table(f->kind, &n, &def);

	if (size <= 0)
		return;
	buf[0] = '\0';
	for (k = 0; k < n && used < size; k++) {
		int w = snprintf(buf + used, (size_t) (size - used), "%s%s=%d",
			k ? " " : "", t[k].name, (int) knobs[k]);

		if (w < 0)
			break;
		used += w;
	}
}

void *gnn__family_self(const gnn_family *f)
{
	return f ? f->self : NULL;
}

/* The family interface (core/family.h) over a gnn_family. */

static int64_t ops_default(const void *self, int knob)
{
	return gnn_family_knob_default(gnn_family_kind(self), knob);
}

static dse_stat ops_prepare(void *self, int knob, const int64_t *values,
	int n, dse_error *err)
{
	return gnn_family_prepare(self, knob, values, n, err);
}

static void ops_eval(const void *self, const int32_t *knobs,
	sim_metrics *out)
{
	gnn_family_eval(self, knobs, out);
}

static dse_stat ops_simulate(const void *self, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	return gnn_family_simulate(self, knobs, kind, opt, out, err);
}

static int ops_why(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	return gnn_family_why(self, knobs, buf, size);
}

static void ops_describe(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	gnn_family_describe(self, knobs, buf, size);
}

/* The graph: its name, vertices and edges. */
static int ops_facts(const void *self, family_fact *out, int max)
{
	const gnn_graph *g = ((const gnn_family *) self)->graph;
	const family_fact facts[] = {
		{ "graph", NULL, gnn_graph_name(g), 0 },
		{ "graph_vertices", "vertices", NULL, gnn_graph_n_vertices(g) },
		{ "graph_edges", "edges", NULL, gnn_graph_n_edges(g) },
	};
	int i, n = N_ROWS(facts) < max ? N_ROWS(facts) : max;

	for (i = 0; i < n; i++)
		out[i] = facts[i];
	return n;
}

static void *ops_free(void *self)
{
	return gnn_family_free(self);
}

const family_ops gnn_overlay_family = {
	.name = "gnn-overlay",
	.summary = "GraphAGILE's overlay: PEs of p_sys x p_sys ALUs running "
		"the compiled GNN",
	.n_knobs = N_ROWS(overlay_knobs),
	.knobs = overlay_knobs,
	.knob_default = ops_default,
	.prepare = ops_prepare,
	.prepares = "partitions, plans",
	.eval = ops_eval,
	.simulate = ops_simulate,
	.why = ops_why,
	.describe = ops_describe,
	.facts = ops_facts,
	.free = ops_free,
};

const family_ops gnn_dataflow_family = {
	.name = "gnn-dataflow",
	.summary = "AGILE's dataflow engine: a scoreboard, a prefetcher, an "
		"aggregation mesh and systolic transformation modules",
	.n_knobs = N_ROWS(dataflow_knobs),
	.knobs = dataflow_knobs,
	.knob_default = ops_default,
	.prepare = ops_prepare,
	.prepares = "partitions, plans",
	.eval = ops_eval,
	.simulate = ops_simulate,
	.why = ops_why,
	.describe = ops_describe,
	.facts = ops_facts,
	.free = ops_free,
};
