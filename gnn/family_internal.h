/* gnn: what family.c needs of each family's implementation.  Private to
 * gnn/.
 */
#ifndef GNN_FAMILY_INTERNAL_H
#define GNN_FAMILY_INTERNAL_H

#include "gnn/family.h"

/* One family's evaluator behind gnn_family.  "self" is the object alloc
 * returned; the knob arrays are in the order of the family's knob table.
 */
struct gnn__family_ops {
	void *(*alloc)(const gnn_model *model, const gnn_graph *graph,
		const arch_board *board, const arch_dtype *dtype,
		dse_error *err);
	void (*free)(void *self);
	dse_stat (*prepare)(void *self, int knob, const int64_t *values,
		int n, dse_error *err);
	void (*eval)(const void *self, const int32_t *knobs,
		sim_metrics *out);
	dse_stat (*simulate)(const void *self, const int32_t *knobs,
		int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
		dse_error *err);
	/* Why a point is illegal (gnn_family_why). */
	int (*why)(const void *self, const int32_t *knobs, char *buf,
		size_t size);
};

/* The object the family's alloc returned (gnn/share.c reaches the
 * overlay's partitions through it).
 */
void *gnn__family_self(const gnn_family *f);

/* gnn-overlay (overlay.c) and gnn-dataflow (dataflow.c). */
extern const struct gnn__family_ops gnn__overlay_ops;
extern const struct gnn__family_ops gnn__dataflow_ops;

#endif
