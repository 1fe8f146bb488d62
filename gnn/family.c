/* gnn: the family interface, dispatching to each family's evaluator, and
 * the knob tables of both families.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "family_internal.h"

struct knob_row {
	const char *name;
	int64_t def;
};

/* GraphAGILE on the Alveo U250 (section 7): 8 PEs of p_sys = 16, a
 * 16384 x 16 weight buffer, a 65536-edge edge buffer, a 16384 x 16
 * feature buffer, 300 MHz and the board's 77 GB/s.
 */
static const struct knob_row overlay_knobs[] = {
	{ "n_pe", 8 }, { "p_sys", 16 }, { "weight_rows", 16384 },
	{ "edge_rows", 65536 }, { "feat_rows", 16384 }, { "feat_cols", 16 },
	{ "mhz", 300 }, { "dram_gbps", 77 },
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
static const struct knob_row dataflow_knobs[] = {
	{ "slots", 64 }, { "fetch_tags", 16 }, { "mesh_rows", 8 },
	{ "mesh_cols", 8 }, { "fte", 4 }, { "feat_kb", 128 }, { "mhz", 200 },
	{ "dram_gbps", 77 },
};

#define N_ROWS(t) ((int) (sizeof(t) / sizeof((t)[0])))

_Static_assert(N_ROWS(overlay_knobs) <= GNN_MAX_KNOBS, "overlay knobs");
_Static_assert(N_ROWS(dataflow_knobs) <= GNN_MAX_KNOBS, "dataflow knobs");

static const char *const family_names[GNN_N_FAMILIES] = {
	"gnn-overlay", "gnn-dataflow"
};

struct gnn_family {
	int kind;
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

static const struct knob_row *table(int kind, int *n)
{
	if (kind == GNN_OVERLAY) {
		*n = N_ROWS(overlay_knobs);
		return overlay_knobs;
	}
	if (kind == GNN_DATAFLOW) {
		*n = N_ROWS(dataflow_knobs);
		return dataflow_knobs;
	}
	*n = 0;
	return NULL;
}

int gnn_family_n_knobs(int kind)
{
	int n;

	table(kind, &n);
	return n;
}

const char *gnn_family_knob_name(int kind, int knob)
{
	int n;
	const struct knob_row *t = table(kind, &n);

	return knob >= 0 && knob < n ? t[knob].name : NULL;
}

int64_t gnn_family_knob_default(int kind, int knob)
{
	int n;
	const struct knob_row *t = table(kind, &n);

	return knob >= 0 && knob < n ? t[knob].def : 0;
}

int gnn_family_knob_find(int kind, const char *name)
{
	int n, k;
	const struct knob_row *t = table(kind, &n);

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
	const struct knob_row *t = table(f->kind, &n);

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
