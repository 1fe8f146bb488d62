/* Reading AutoSA's --sa-sizes strings.
 *
 * AutoSA takes a design's tiling as
 *   "{kernel[]->space_time[3];kernel[]->array_part[260,256,512];
 *     kernel[]->latency[20,16];kernel[]->simd[8]}"
 * and "dse eval" takes the same text, so that a row of a results file (or
 * a design from any AutoSA flow) can be evaluated as written.  This file
 * only reads the syntax; which lists a design needs, and how long they
 * are, depends on the space-time candidate and is checked by the caller.
 */
#ifndef DSE_SA_SIZES_H
#define DSE_SA_SIZES_H

#include <stdint.h>

#include "core/error.h"

/* The longest list one entry may have. */
#define DSE_SA_MAX_VALUES 16

/* The entries AutoSA's tiling string can hold. */
enum dse_sa_entry {
	DSE_SA_SPACE_TIME = 0,
	DSE_SA_ARRAY_PART,
	DSE_SA_ARRAY_PART_L2,
	DSE_SA_LATENCY,
	DSE_SA_SIMD,
	DSE_SA_N_ENTRIES
};

/* The most HBM entries ("kernel[]->hbm_A[2]") a string may carry. */
#define DSE_SA_MAX_HBM 8

/* A parsed --sa-sizes string: for each entry whether it was given and its
 * values in the order written (-1 in array_part and array_part_L2: the
 * loop is not tiled, as AutoSA reads it), and the HBM entries AutoSA's
 * --hbm flow takes ("hbm_A[2]": array A over 2 HBM banks) as written,
 * which the models do not use.  A small value.
 */
typedef struct dse_sa_sizes {
	int given[DSE_SA_N_ENTRIES];
	int n[DSE_SA_N_ENTRIES];
	int32_t v[DSE_SA_N_ENTRIES][DSE_SA_MAX_VALUES];
	int n_hbm;
	char hbm[DSE_SA_MAX_HBM][48];
} dse_sa_sizes;

/* The name of an entry as AutoSA writes it ("array_part_L2"). */
const char *dse_sa_entry_name(enum dse_sa_entry e);

/* Parses "text": '{', entries separated by ';', '}'.  An entry is an
 * optional "kernel[]->" prefix, a name and a bracketed list of integers;
 * entries may come in any order and blanks may separate any two tokens.
 * space_time takes one value >= 0; array_part and array_part_L2 values
 * >= 1 or -1; latency values >= 1, or no value at all ("latency[]", a
 * design without latency hiding); simd values >= 1; hbm_<array> one value
 * >= 1.  Every value fits in 32 bits; no entry may appear twice.  Returns
 * dse_stat_error with an input error (DSE_E_INPUT, key "sa-sizes") whose
 * message names the column and what was expected.  Not collective.
 */
dse_stat dse_sa_sizes_parse(const char *text, dse_sa_sizes *out,
	dse_error *err);

#endif
