/* gnn: what the two halves of the gnn-overlay family share.  Private to
 * overlay.c, which evaluates design points, and overlay_prep.c, which
 * builds the partitions and plans those points read: the family object,
 * the tables both read, small helpers, and the functions that cross from
 * one file to the other.
 */
#ifndef GNN_OVERLAY_INTERNAL_H
#define GNN_OVERLAY_INTERNAL_H

#include <stdint.h>

#include "core/util.h"
#include "ack.h"
#include "family_internal.h"

/* Knob ranges beyond which a point is SIM_BAD_KNOB. */
static const struct knob_limits {
	int max_pe;
	int min_psys, max_psys;
	double max_mhz;
} limits = { 4096, 2, GNN__ACK_MAX_PSYS, 2000.0 };

/* The knobs, in the order of gnn/family.c's overlay table (looked up by
 * name at alloc).
 */
enum { K_PE = 0, K_PSYS, K_WROWS, K_EROWS, K_N1, K_N2, K_MHZ, K_GBPS,
	N_KNOBS };
static const char *const knob_names[N_KNOBS] = {
	"n_pe", "p_sys", "weight_rows", "edge_rows", "feat_rows",
	"feat_cols", "mhz", "dram_gbps"
};

/* The largest p_sys has log2 = 6. */
#define N_PSYS 7

/* --- the family object --------------------------------------------------- */

/* The values a knob was prepared with. */
struct values {
	int64_t *v;
	int n;
};

/* One partition (shard height n1) and its per-shard sums.  The nonempty
 * subshards are listed row by row: those of shard row i are entries
 * row_first[i] .. row_first[i + 1] - 1 of sub_col, sub_off, sub_edges.
 */
struct ovl_part {
	int64_t n1;
	gnn_shards *shards;
	int64_t count;		/* shards per side */
	int64_t *rows;		/* vertices of each shard */
	int64_t *row_edges;	/* edges of each shard row */
	int64_t *row_src_rows;	/* source rows its nonempty subshards
				 * load, summed (loaded_rows) */
	int64_t *row_first;	/* count + 1 entries */
	int64_t *sub_col, *sub_off, *sub_edges;
	int32_t *sub_src, *sub_dst;	/* distinct sources and destinations
					 * of each nonempty subshard: at most
					 * n1, which prepare keeps in 32 bits */
	int64_t n_sub;
	struct gnn__ack_order ord;	/* the compiler's order and its
					 * counts */
	double *row_load;	/* per shard row and log2 p_sys: the SpDMM
				 * loads of its subshards, summed */
	struct gnn__ack_part view;	/* for the cycle models */
	int shared;		/* the arrays live in the node's shared
				 * copy (gnn/share.c): not freed here */
};

struct ovl_plan {
	int part;
	int64_t n2;
	gnn_plan *plan;
	int64_t max_blocks;	/* of one layer */
};

struct overlay {
	gnn_model *model;	/* after the passes */
	const gnn_graph *graph;
	arch_board board;
	arch_dtype dtype;
	int knob[N_KNOBS];	/* index of each knob in a point */
	double ops;
	double rate[2][N_PSYS];	/* gnn__ack_random_rate per mode, p_sys */
	int fill[2][N_PSYS];	/* pipeline depth per mode, p_sys */
	int reduce;		/* the Reduce Unit's RAW window */
	int64_t widest;		/* the longest feature vector of any layer */
	int n_parts, n_plans;
	struct ovl_part *parts;
	struct ovl_plan *plans;
	struct values prepared[N_KNOBS];	/* n_pe, feat_rows, feat_cols */
};

static inline int log2_of(int64_t x)
{
	int k = 0;

	while (k < 62 && ((int64_t) 1 << k) < x)
		k++;
	return ((int64_t) 1 << k) == x ? k : -1;
}

/* The rows of a sub-fiber of "rows" rows that the Feature Buffer's data
 * loader fetches for a subshard whose edges touch "distinct" of them.
 *
 * A modelling choice: each buffer of a PE has a data loader that talks to
 * DDR (section 4.2), driven by the addresses of memory read instructions
 * (section 5.3.1); the model takes it for a DMA engine, and a gather of
 * whole rows (n2 features each) of a sparse subshard's distinct vertices
 * is what such an instruction can express, so such a subshard loads only
 * those rows rather than its whole sub-fiber; when they are all of its
 * rows, the sub-fiber goes in one stream.  Both move the same bytes a
 * row: the model's channel has no burst granularity (a row is charged its
 * n2 x dtype bytes either way), so the choice only fixes how many rows
 * are loaded.
 */
static inline int64_t loaded_rows(int64_t distinct, int64_t rows)
{
	return distinct < rows ? distinct : rows;
}

/* The most shard heights one ladder has (overlay_prep.c). */
#define MAX_HEIGHTS 16

/* Whether "x" is among the values "v" was prepared with. */
int gnn__ovl_has_value(const struct values *v, int64_t x);

/* The ladder of shard heights for n_pe and feat_rows, distinct, largest
 * first, in h (MAX_HEIGHTS entries); returns how many.
 */
int gnn__ovl_shard_heights(const struct overlay *o, int64_t n_pe,
	int64_t feat_rows, int64_t *h);

/* The most fiber widths one shard height has (overlay_prep.c). */
#define MAX_WIDTHS 24

/* The fiber widths n2 the compiler may give shards of height n1 in a
 * feat_rows x feat_cols feature buffer, narrowest first, in w
 * (MAX_WIDTHS entries); returns how many.
 */
int gnn__ovl_fiber_widths(const struct overlay *o, int64_t n1,
	int64_t feat_rows, int64_t feat_cols, int64_t *w);

/* The plan of shard height n1 and fiber n2, NULL when not built. */
const struct ovl_plan *gnn__ovl_find_plan(const struct overlay *o,
	int64_t n1, int64_t n2);

/* Points the view of "p" (struct gnn__ack_part) at the arrays of "g", of
 * p's shards and of p itself, as they are now.
 */
void gnn__ovl_view(struct ovl_part *p, const gnn_graph *g);

/* The array p of "used" items of "size" bytes grown by n zeroed ones
 * (and one spare, so that n = 0 allocates too); NULL, with p untouched,
 * when out of memory.
 */
void *gnn__ovl_grow_zeroed(void *p, int used, int n, size_t size);

/* The family's prepare (struct gnn__family_ops). */
dse_stat gnn__ovl_prepare(void *self, int knob, const int64_t *values,
	int n, dse_error *err);

#endif
