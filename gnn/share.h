/* gnn: one copy of a GNN workload's graph and partitions per node.
 *
 * A sweep's ranks all need the same graph and the same fiber-shard
 * partitions (gigabytes for the Reddit-sized preset), and each rank used
 * to build and hold its own.  With a share, the first rank of each node
 * builds them as before and then moves them into memory the ranks of its
 * node share (MPI_Win_allocate_shared); the other ranks of the node build
 * nothing and read that copy.  The copy is laid out without pointers:
 * a header of counts, then every array at an offset the counts give, so
 * that each rank finds the arrays at its own address of the segment.
 * The plans (a few thousand tiling blocks each) are still built by every
 * rank, from the shared partitions.
 *
 * Everything here is collective over the node's ranks, in the order the
 * calls are listed.  On a node of one rank nothing is shared and every
 * call leaves the rank's own copy as it is.
 */
#ifndef GNN_SHARE_H
#define GNN_SHARE_H

#include <stddef.h>

#include <mpi.h>

#include "core/error.h"
#include "gnn/family.h"
#include "gnn/graph.h"

typedef struct gnn_share gnn_share;

/* Splits "comm" by node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED); the
 * rank of lowest rank in "comm" on each node builds.  Collective over
 * "comm".
 */
gnn_share *gnn_share_alloc(MPI_Comm comm, dse_error *err);
/* Frees the windows and the node's communicator.  Collective over the
 * node; call it after the graph and the family that read the copy are
 * freed.
 */
gnn_share *gnn_share_free(gnn_share *s);

/* Whether this rank builds the node's copy (1 also for a NULL share). */
int gnn_share_builds(const gnn_share *s);
/* The ranks of this rank's node. */
int gnn_share_node_ranks(const gnn_share *s);

/* The builder's outcome "st" on every rank of the node: when the builder
 * failed, every rank of the node returns dse_stat_error with the
 * builder's error in "err".
 */
dse_stat gnn_share_agree(gnn_share *s, dse_stat st, dse_error *err);

/* The graph.  The builder passes its graph in *g and keeps it, its arrays
 * moved into the node's segment; every other rank gets in *g a graph that
 * reads the segment (gnn_graph_free frees only its own object).
 */
dse_stat gnn_share_graph(gnn_share *s, gnn_graph **g, dse_error *err);

/* The partitions of a gnn-overlay family (nothing for gnn-dataflow,
 * whose per-rank tables are small).  The builder passes its family after
 * gnn_family_prepare has built them and keeps them, moved into the
 * segment; every other rank passes its family, allocated on the shared
 * graph and not prepared yet, and gets the partitions, so that its
 * gnn_family_prepare only builds the plans.
 */
dse_stat gnn_share_family(gnn_share *s, gnn_family *f, dse_error *err);

/* The bytes of the node's copy (graph and partitions; 0 when nothing is
 * shared), and whether "p" points into it: a check that a rank reads the
 * shared copy rather than one of its own.
 */
size_t gnn_share_bytes(const gnn_share *s);
int gnn_share_holds(const gnn_share *s, const void *p);
/* The partitions in the node's copy (0 when none is shared). */
int gnn_share_n_parts(const gnn_share *s);

#endif
