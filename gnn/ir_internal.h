/* gnn: the body of gnn_model, shared by ir.c (construction, built-ins) and
 * passes.c (the passes rewrite it in place).  Private to gnn/.
 */
#ifndef GNN_IR_INTERNAL_H
#define GNN_IR_INTERNAL_H

#include "gnn/ir.h"

/* A model is a fixed array of layers in topological order: every parent
 * has a smaller id than its children.  gnn_model_add guarantees it (the
 * parents must exist before the layer) and every pass keeps it.
 */
struct gnn_model {
	char name[GNN_NAME_LEN];
	int64_t n_vertices;
	int64_t n_edges;
	/* The input feature length: the f_in of every layer without a
	 * parent and the second operand of a one-parent Vector-Add; 0 until
	 * the first such layer is added.
	 */
	int64_t f_input;
	int n_layers;
	gnn_layer layer[GNN_MAX_LAYERS];
};

#endif
