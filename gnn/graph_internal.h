/* gnn: what the graph readers and generators need of graph.c.  Private to
 * gnn/.
 */
#ifndef GNN_GRAPH_INTERNAL_H
#define GNN_GRAPH_INTERNAL_H

#include "gnn/graph.h"

/* Replaces the name of "g" (which has just been built and is not shared
 * yet) by a copy of "name".  Fails with DSE_E_NOMEM.
 */
dse_stat gnn__graph_set_name(gnn_graph *g, const char *name, dse_error *err);

/* Like gnn_graph_from_edges, but takes ownership of the three arrays
 * (malloc'ed, n_edges entries each; "weight" may be NULL) and frees them,
 * whether it succeeds or not.  The readers and generators use it so that
 * the input arrays are released before the sorted copies reach their
 * peak, which matters for graphs of hundreds of millions of edges.
 */
gnn_graph *gnn__graph_take_edges(int64_t n_vertices, int64_t n_edges,
	uint32_t *src, uint32_t *dst, float *weight, dse_error *err);

#endif
