/* gnn: graphs for GNN workloads.
 *
 * A gnn_graph is a directed graph with |V| vertices and |E| edges
 * (src, dst, weight), kept as a coordinate list sorted by destination then
 * source, with an in-edge index (CSR by destination) over it: the order
 * the aggregation kernels read (an Aggregate layer reduces, for every
 * destination, over its incoming edges).  Vertex indices are 32-bit (the
 * largest graph of the benchmarks has 1.6 M vertices); edge counts are
 * 64-bit.  Duplicate edges are kept: a multigraph is what the readers and
 * generators give and what the hardware would stream.
 *
 * Graphs come from Matrix Market files, SNAP-style edge lists, the R-MAT
 * and uniform generators, or the built-in presets: synthetic stand-ins with
 * the vertex, edge and feature counts of the datasets GraphAGILE reports
 * (they are not the real datasets, and their names say so).
 *
 * A graph is read-only once built: any number of threads may read it.
 */
#ifndef GNN_GRAPH_H
#define GNN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

typedef struct gnn_graph gnn_graph;

/* Builds a graph of "n_vertices" vertices from "n_edges" edges given as
 * arrays (copied); "weight" may be NULL (every weight 1).  Fails with
 * DSE_E_INPUT when an endpoint is >= n_vertices or n_vertices is 0 or
 * above UINT32_MAX, DSE_E_NOMEM when out of memory.
 */
gnn_graph *gnn_graph_from_edges(int64_t n_vertices, int64_t n_edges,
	const uint32_t *src, const uint32_t *dst, const float *weight,
	dse_error *err);
gnn_graph *gnn_graph_free(gnn_graph *g);

/* The graph's name: the file's base name, the generator with its
 * parameters, or the preset's name ("synthetic-cora", ...).
 */
const char *gnn_graph_name(const gnn_graph *g);
int64_t gnn_graph_n_vertices(const gnn_graph *g);
int64_t gnn_graph_n_edges(const gnn_graph *g);

/* The edges sorted by (dst, src): arrays of gnn_graph_n_edges() entries.
 * in_ptr has n_vertices + 1 entries: the in-edges of vertex v are
 * [in_ptr[v], in_ptr[v + 1]) of src/dst/weight.
 */
const uint32_t *gnn_graph_src(const gnn_graph *g);
const uint32_t *gnn_graph_dst(const gnn_graph *g);
const float *gnn_graph_weight(const gnn_graph *g);
const int64_t *gnn_graph_in_ptr(const gnn_graph *g);

/* --- readers -------------------------------------------------------------
 *
 * Every malformed input (a bad line, a vertex out of range, a count that
 * disagrees with the header, a truncated file) fails with DSE_E_INPUT and
 * the file and line in err (dse_error_set_at, column 0 when unknown);
 * an unreadable file fails with DSE_E_IO.
 */

/* Matrix Market coordinate files: "%%MatrixMarket matrix coordinate
 * (real|integer|pattern) (general|symmetric)", '%' comments, a size line
 * "rows cols nnz" and nnz lines "row col [value]" (1-based).  Entry (r, c)
 * is the edge r-1 -> c-1; a symmetric file gives both directions (once
 * on the diagonal).  Vertices: max(rows, cols).
 */
gnn_graph *gnn_graph_read_mtx(const char *path, dse_error *err);

/* SNAP-style edge lists: lines "src dst [weight]" separated by blanks or
 * tabs, '#' comments and blank lines ignored, 0-based indices; vertices:
 * the largest index + 1.
 */
gnn_graph *gnn_graph_read_edges(const char *path, dse_error *err);

/* Chooses the reader by the file's extension: ".mtx" for Matrix Market,
 * anything else as an edge list.
 */
gnn_graph *gnn_graph_read(const char *path, dse_error *err);

/* --- generators (reproducible: the same arguments give the same graph on
 * every machine) --------------------------------------------------------- */

/* R-MAT: each edge picks a quadrant of the adjacency matrix recursively
 * with probabilities a, b, c, d (a + b + c + d = 1, each >= 0) over
 * ceil(log2(n_vertices)) levels; edges landing outside n_vertices are
 * redrawn.  a = b = c = d = 0.25 is uniform; (0.57, 0.19, 0.19, 0.05) is
 * the usual power-law setting.
 */
gnn_graph *gnn_graph_rmat(int64_t n_vertices, int64_t n_edges, double a,
	double b, double c, double d, uint64_t seed, dse_error *err);

/* R-MAT as a simple graph, as real datasets are: no edge twice and no
 * self loop.  A draw that repeats an edge or joins a vertex to itself is
 * drawn again (in rounds of fresh streams of the seed) until there are
 * "n_edges" distinct edges; when a round draws more new ones than are
 * missing, the ones of smallest hash are kept.  Fails with DSE_E_INPUT
 * when n_edges exceeds n_vertices (n_vertices - 1), or when the
 * probabilities crowd the edges into too few cells to ever place them.
 * Needs about 16 bytes an edge while drawing.
 */
gnn_graph *gnn_graph_rmat_simple(int64_t n_vertices, int64_t n_edges,
	double a, double b, double c, double d, uint64_t seed, dse_error *err);

/* Uniform: both endpoints of every edge drawn uniformly. */
gnn_graph *gnn_graph_uniform(int64_t n_vertices, int64_t n_edges,
	uint64_t seed, dse_error *err);

/* A built-in dataset stand-in. */
typedef struct gnn_preset {
	const char *name;	/* "cora", "citeseer", ... as typed in a
				 * config */
	const char *dataset;	/* the dataset it stands in for, for
				 * reports: "Cora" */
	const char *code;	/* GraphAGILE's column: "CO", "CI", ... */
	int64_t n_vertices;
	int64_t n_edges;
	int64_t n_features;	/* input feature length */
	int64_t n_classes;	/* output length of the last layer */
} gnn_preset;

/* The presets (Citeseer, Cora, Pubmed, Flickr, Reddit, Yelp,
 * Amazon-Products), in GraphAGILE's table order.
 */
int gnn_preset_count(void);
const gnn_preset *gnn_preset_at(int i);
/* By name, case-insensitive; NULL when unknown. */
const gnn_preset *gnn_preset_find(const char *name);
/* The comma-separated names, for error messages. */
void gnn_preset_names(char *buf, size_t size);

/* The graph of a preset: simple R-MAT (0.57, 0.19, 0.19, 0.05) with the
 * preset's vertex and edge counts (gnn_graph_rmat_simple: the datasets
 * have no repeated edge, and plain R-MAT on the dense ones, Reddit and
 * Amazon-Products, piles copies of edges on a few vertices, one of
 * Reddit's getting 836,725 in-edges among 232,965 vertices) and its
 * vertices relabelled by a random permutation of the seed (as Graph500
 * does: a real dataset's numbering does not put the heavy vertices at
 * small ids, and plain R-MAT skews the low bits every id-banked
 * structure uses), named "synthetic-<name>".  gnn_graph_rmat and
 * gnn_graph_rmat_simple themselves do not relabel.
 */
gnn_graph *gnn_graph_preset(const gnn_preset *p, uint64_t seed,
	dse_error *err);

/* --- statistics ----------------------------------------------------------*/

typedef struct gnn_degree_stats {
	int64_t n_vertices, n_edges;
	double mean;		/* |E| / |V| */
	int64_t in_min, in_max;
	double in_std;
	int64_t out_min, out_max;
	double out_std;
	int64_t isolated;	/* vertices with no edge at all */
	double in_gini;		/* 0: every in-degree equal; near 1: skewed */
} gnn_degree_stats;

void gnn_graph_degree_stats(const gnn_graph *g, gnn_degree_stats *out);

/* --- fiber-shard partitioning (GraphAGILE section 6.5) -------------------
 *
 * The adjacency matrix is cut into shards of n1 destination vertices and
 * every shard into subshards of n1 source vertices: subshard (i, j) holds
 * the edges with dst in [i n1, (i+1) n1) and src in [j n1, (j+1) n1).
 * The edges of a subshard are stored one after the other, the subshards
 * of a shard next to each other (row-major over (i, j)), as the hardware
 * lays them out in DRAM.
 */
typedef struct gnn_shards gnn_shards;

/* Partitions "g" with shard height "n1" (>= 1).  The result refers to
 * "g", which must outlive it.
 */
gnn_shards *gnn_shards_alloc(const gnn_graph *g, int64_t n1, dse_error *err);
gnn_shards *gnn_shards_free(gnn_shards *s);

int64_t gnn_shards_n1(const gnn_shards *s);
/* Shards per side: ceil(|V| / n1); there are that many squared subshards. */
int64_t gnn_shards_count(const gnn_shards *s);
/* Edges of subshard (i, j), and where they start in gnn_shards_edges(). */
int64_t gnn_shards_edges_in(const gnn_shards *s, int64_t i, int64_t j);
int64_t gnn_shards_offset(const gnn_shards *s, int64_t i, int64_t j);
/* Edge numbers (indices into the graph's src/dst/weight arrays) in
 * subshard order: every edge exactly once.  32 bits: gnn_shards_alloc
 * refuses a graph of 2^32 edges or more.
 */
const uint32_t *gnn_shards_edges(const gnn_shards *s);

#endif
