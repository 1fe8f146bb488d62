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

/* SCALE-Sim splits a buffer into this many sets. */
#define SIM_SCALE__SETS 100

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

/* Where a column fold of a CALC IFMAP pass left its read buffer
 * (sim/scale_folds.c): the place of its last hand-over (the row counted
 * from the column fold's first row, and the word in that row), the
 * hand-overs in it and the words the half held at its end.
 */
struct sim_scale__fold_end {
	int64_t row, x;
	int64_t handovers;
	int64_t fill;
};

/* Given how the first n of cf column folds ended (ends[0 .. n)), whether
 * the rest can be counted without a replay: returns 1 and sets *more to
 * the hand-overs of folds n .. cf - 1 and *last to the fold the last one
 * repeats (NULL when the last of the n had no hand-over: nothing changes
 * after it); returns 0 when the pass must go on.
 */
int sim_scale__folds_repeat(const struct sim_scale__fold_end *ends,
	int64_t n, int64_t cf, int64_t *more,
	const struct sim_scale__fold_end **last);

/* The im2col IFMAP: the word of output pixel p and window index j is
 * base[p] + off[j] when the tap lies inside the IFMAP, that is when
 * jr[j] < maxr[p] and jc[j] < maxc[p].
 */
struct tabs {
	int64_t *base, *maxr, *maxc;	/* per output pixel */
	int64_t *off, *jr, *jc;		/* per window index */
	int64_t win, k;
	/* The layer's channels, filter rows, words of a filter row (s c)
	 * and of an IFMAP row (w c).
	 */
	int64_t c, r, sc, wc;
};

/* A USER-mode read buffer (sim/scale_user.c). */
struct user_rd {
	/* The sets each word of the operand is in: sets[at[a] ..
	 * at[a + 1]) for address a, ascending.
	 */
	int64_t *at;
	int32_t *sets;
	int64_t set_words, n_sets, a_sets, p_sets, valid;
	int64_t start;		/* the window is sets start .. start + a_sets
				 * - 1, modulo n_sets */
	int64_t lines0, lines_p, bw;
	int64_t last;		/* cycle the last fetch ended */
	int64_t fetches;
};

/* Starts a USER read buffer of "words" words over operand "op" of
 * "range" addresses: cuts its prefetch order into sets, notes the sets of
 * every word and sizes the window (fetched before the first cycle).
 * Returns -1 when memory runs out.
 */
int sim_scale__user_init(struct user_rd *r, const struct sim_scale__geom *g,
	const struct tabs *tb, int op, int64_t words, int64_t range);

/* The words a[0 .. n) of a row at cycle "cycle"; returns SCALE-Sim's
 * offset (the hit latency 1 plus the stall).
 */
int64_t sim_scale__user_row(struct user_rd *r, const int64_t *a, int64_t n,
	int64_t cycle);

/* A weight-stationary IFMAP stream: it reads the tiles of window indices
 * [f rows, f rows + rows) (f the row fold, up to "win"), row fold after
 * row fold, the whole "col_folds" times.  Window index j reads channel
 * j mod c of filter tap t = j / c, in filter row t / s and column t mod s,
 * for each of the "e" pixels (output rows of "out_w" pixels).
 */
struct sim_scale__ws_stream {
	int64_t win, rows, c, s, stride_h, stride_w, col_folds;
	int64_t e, out_w;
};

/* Whether every word of the stream "st", tile f of whose row folds reads
 * "len[f]" words, is new to the active half when it is read, so that the
 * half fills every "cap" words (sim/scale_folds.c).  Two reads of a word
 * are two window indices of the same channel at taps a whole number of
 * strides apart, so it holds when no tile holds a channel twice and the
 * reads of a word by two tiles lie at least "cap" words apart in the
 * stream (a bound from the tiles between them and the pixels read).
 */
int sim_scale__ws_all_new(const struct sim_scale__ws_stream *st,
	const int64_t *len, int64_t cap);

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
