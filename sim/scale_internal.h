/* sim_scale: what scale.c and scale_mem.c share.  Private to sim/. */
#ifndef SIM_SCALE_INTERNAL_H
#define SIM_SCALE_INTERNAL_H

#include <stdint.h>

#include "sim/scale.h"

/* How a CALC read buffer takes an IFMAP whose windows overlap: as runs of
 * consecutive words or word by word (the same counts, at different costs),
 * or whichever the layer's shape makes cheaper.
 */
enum sim_scale__if_path {
	SIM_SCALE__IF_AUTO = 0,
	SIM_SCALE__IF_RUNS = 1,
	SIM_SCALE__IF_WORDS = 2
};

/* The shape of a layer on an array, worked out once by scale.c. */
struct sim_scale__geom {
	const sim_scale_arch *arch;
	const sim_scale_layer *layer;
	int64_t out_h, out_w, e, win, k;
	int64_t sr, sc, t;
	int64_t row_folds, col_folds, folds;
	int64_t fold_len;	/* rows of the demand (cycles) of one fold */
	int64_t rows_total;	/* folds * fold_len */
	/* Distinct words of the IFMAP and FILTER that some tap reads. */
	int64_t distinct[2];
	enum sim_scale__if_path if_path;
};

/* sim_scale_run taking the IFMAP by the path given (the tests run both). */
dse_stat sim_scale__run(const sim_scale_arch *arch,
	const sim_scale_layer *layer, enum sim_scale__if_path if_path,
	sim_scale_result *res, dse_error *err);

/* A set of addresses as sorted runs [lo, hi) (sim/scale_ivs.c).  Between
 * calls to sim_scale__ivs_push a set is a list of runs in any order; after
 * sim_scale__ivs_normalize, and as the other functions take and leave it,
 * its runs are sorted, disjoint and apart, and "words" counts them.
 */
struct sim_scale__iv {
	int64_t lo, hi;
};

struct sim_scale__ivs {
	struct sim_scale__iv *v, *tmp;	/* the runs, and room to merge */
	int64_t n, cap;
	int64_t words;
};

void sim_scale__ivs_free(struct sim_scale__ivs *s);

/* Appends the run [lo, hi), joined to the last run when it continues it.
 * Returns -1 when memory runs out.
 */
int sim_scale__ivs_push(struct sim_scale__ivs *s, int64_t lo, int64_t hi);

/* Sorts the runs, joins those that meet and counts the words.  Returns -1
 * when memory runs out.
 */
int sim_scale__ivs_normalize(struct sim_scale__ivs *s);

/* The words of the union of "u" and "r", both normalized. */
int64_t sim_scale__ivs_union_words(const struct sim_scale__ivs *u,
	const struct sim_scale__ivs *r);

/* Adds the words of "r" to "u", both normalized.  Returns -1 when memory
 * runs out.
 */
int sim_scale__ivs_merge(struct sim_scale__ivs *u,
	const struct sim_scale__ivs *r);

/* Adds the word "a": returns 1 when it was new, 0 when "s" had it, -1
 * when memory runs out.
 */
int sim_scale__ivs_add(struct sim_scale__ivs *s, int64_t a);

/* The array's stalls and the OFMAP write buffer, which both modes of the
 * memory model drive (sim/scale_wbuf.c).
 */
/* Where the array's stalls fall: after row rows[i] the delay so far is
 * cum[i] (rows ascending).  The cycle of a row is its index plus the
 * stalls of the rows before it.
 */
struct stalls {
	int64_t *rows, *cum;
	int64_t n, cap;
	int64_t total;
};

struct partial {
	int64_t line, words;
};

struct wbuf {
	int64_t total, active, drain_size, bw;
	int64_t free, line_idx, lines, drain_line, drain_end;
	struct partial *part;
	int64_t n_part, cap_part, next_part;
	int64_t accesses, words;
	int64_t first_cycle, last_cycle;
	int drained, nomem;
};

/* Records a stall of "stall" cycles after row "row" (rows ascending);
 * -1 when out of memory.
 */
int sim_scale__stalls_add(struct stalls *s, int64_t row, int64_t stall);
/* The stalls of the rows before "row". */
int64_t sim_scale__stalls_before(const struct stalls *s, int64_t row);
/* An empty write buffer of "words" words drained "bw" words a cycle. */
void sim_scale__wb_init(struct wbuf *w, int64_t words, int64_t bw);
/* "n" OFMAP words written at cycle *cur; a stall moves *cur on and adds
 * to *offset.
 */
void sim_scale__wb_store_n(struct wbuf *w, int64_t n, int64_t *cur,
	int64_t *offset);
/* Drains everything left, from cycle "cycle" on. */
void sim_scale__wb_finish(struct wbuf *w, int64_t cycle);

/* Replays the layer's address streams through the SRAM buffers and fills
 * the stall cycles, the DRAM counts (res->dram_*) and the memory part of
 * res->report (accesses, start and stop cycles, total and stall cycles).
 * Returns dse_stat_error with DSE_E_NOMEM when scratch memory runs out.
 */
dse_stat sim_scale__memory(const struct sim_scale__geom *g,
	sim_scale_result *res, dse_error *err);

#endif
