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

/* --- a node's shared copy (gnn/share.c) ----------------------------------
 *
 * One array of an object: where the object keeps its pointer, and the
 * bytes the array holds.  The share copies each array into memory the
 * ranks of a node share and points the object at the copy, or points a
 * shell (an object with its counts and no arrays) at the copy another
 * rank made.
 */
struct gnn__array {
	void **p;
	size_t bytes;
};

/* The most arrays the listing functions below give. */
#define GNN__MAX_ARRAYS 32

/* A graph of these counts without arrays or name, marked borrowed:
 * gnn_graph_free frees only the object.  NULL when out of memory.
 */
gnn_graph *gnn__graph_shell(int64_t n_vertices, int64_t n_edges);
/* The graph's arrays, in a fixed order, into "a"; returns how many. */
int gnn__graph_arrays(gnn_graph *g, struct gnn__array *a);
/* Marks "g" borrowed (its arrays now point into shared memory) and makes
 * "name" (not owned) its name; frees the owned name it had.
 */
void gnn__graph_borrow(gnn_graph *g, char *name);

/* The same for a partition of "g" (which holds the counts its arrays
 * need).
 */
gnn_shards *gnn__shards_shell(const gnn_graph *g, int64_t n1, int64_t count);
int gnn__shards_arrays(gnn_shards *s, struct gnn__array *a);
void gnn__shards_borrow(gnn_shards *s);

#endif
