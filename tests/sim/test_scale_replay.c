/* The replay of sim/scale_mem.c against a plain rebuild of SCALE-Sim's
 * demand matrices.
 *
 * sim/scale_mem.c walks the demand matrices without building them, takes
 * the FILTER a tile at a time, skips what fits a half and counts runs of
 * OFMAP rows at once.  This test builds every matrix in full, step by step
 * as SCALE-Sim v2's compute/systolic_compute_{os,ws,is}.py builds them
 * (slice the operand, pad to the array with empty requests, flip, add the
 * empty rows before and after, skew), and runs them a word at a time
 * through the buffers as the files of its memory folder describe them: a CALC read buffer
 * that takes each word new to its active half of 50 sets and hands the half
 * over when full, a write buffer that packs lines and drains half its size
 * when more than half is used, and, in USER mode, read buffers that fetch
 * their prefetch order set by set.  Random small layers on random arrays
 * with SRAMs of a few dozen words make every path run.  Both must agree on
 * every DRAM count, every stall and every start and stop cycle.
 *
 * Run as "test_scale_replay <group>" (calc, user).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/scale.h"
#include "sim/scale_internal.h"

/* ------------------------------------------------------------------ */
/* Matrices of addresses, -1 for an empty request. */

struct mat {
	int64_t r, c;
	int64_t *v;
};

static struct mat mat_new(int64_t r, int64_t c)
{
	struct mat m = { r, c, malloc((size_t) (r * c + 1) * sizeof(int64_t)) };
	int64_t i;

	assert_non_null(m.v);
	for (i = 0; i < r * c; i++)
		m.v[i] = -1;
	return m;
}

#define AT(m, i, j) ((m).v[(i) * (m).c + (j)])

/* m[r0:r1, c0:c1] */
static struct mat slice(struct mat m, int64_t r0, int64_t r1, int64_t c0,
	int64_t c1)
{
	struct mat s = mat_new(r1 - r0, c1 - c0);
	int64_t i, j;

	for (i = r0; i < r1; i++)
		for (j = c0; j < c1; j++)
			AT(s, i - r0, j - c0) = AT(m, i, j);
	return s;
}

static struct mat transpose(struct mat m)
{
	struct mat t = mat_new(m.c, m.r);
	int64_t i, j;

	for (i = 0; i < m.r; i++)
		for (j = 0; j < m.c; j++)
			AT(t, j, i) = AT(m, i, j);
	free(m.v);
	return t;
}

/* Pads m with empty requests to "rows" x "cols", then puts "before" empty
 * rows above and "after" below; "flip" reverses the rows first.
 */
static struct mat frame(struct mat m, int64_t rows, int64_t cols, int flip,
	int64_t before, int64_t after)
{
	struct mat f = mat_new(before + rows + after, cols);
	int64_t i, j;

	for (i = 0; i < m.r; i++)
		for (j = 0; j < m.c; j++)
			AT(f, before + (flip ? rows - 1 - i : i), j) = AT(m, i, j);
	free(m.v);
	return f;
}

/* SCALE-Sim's skew_matrix: column j moves down by j rows. */
static struct mat skew(struct mat m)
{
	struct mat s = mat_new(m.r + m.c - 1, m.c);
	int64_t i, j;

	for (j = 0; j < m.c; j++)
		for (i = 0; i < m.r; i++)
			AT(s, i + j, j) = AT(m, i, j);
	free(m.v);
	return s;
}

/* Appends the rows of b to *a. */
static void append(struct mat *a, struct mat b)
{
	if (!a->v) {
		*a = b;
		return;
	}
	a->v = realloc(a->v, (size_t) ((a->r + b.r) * a->c + 1) *
		sizeof(int64_t));
	assert_non_null(a->v);
	memcpy(a->v + a->r * a->c, b.v, (size_t) (b.r * b.c) *
		sizeof(int64_t));
	a->r += b.r;
	free(b.v);
}

/* ------------------------------------------------------------------ */
/* The operand matrices (compute/operand_matrix.py). */

struct layer {
	sim_scale_layer l;
	int64_t oh, ow, e, win;
	struct mat ifm, fil, ofm;
};

static int64_t cdiv(int64_t a, int64_t b)
{
	return (a + b - 1) / b;
}

static void operands(struct layer *y)
{
	const sim_scale_layer *l = &y->l;
	int64_t p, j, k;

	y->oh = cdiv(l->h - l->r + l->stride_h, l->stride_h);
	y->ow = cdiv(l->w - l->s + l->stride_w, l->stride_w);
	y->e = y->oh * y->ow;
	y->win = l->r * l->s * l->c;
	y->ifm = mat_new(y->e, y->win);
	y->fil = mat_new(y->win, l->k);
	y->ofm = mat_new(y->e, l->k);
	for (p = 0; p < y->e; p++)
		for (j = 0; j < y->win; j++) {
			int64_t ir = p / y->ow * l->stride_h;
			int64_t ic = p % y->ow * l->stride_w;
			int64_t cr = j / (l->s * l->c);
			int64_t cc = j % (l->s * l->c) / l->c, ch = j % l->c;

			if (cr + ir < l->h && cc + ic < l->w)
				AT(y->ifm, p, j) = (ir * l->w + ic) * l->c +
					(cr * l->w + cc) * l->c + ch;
		}
	for (j = 0; j < y->win; j++)
		for (k = 0; k < l->k; k++)
			AT(y->fil, j, k) = k * y->win + j;
	for (p = 0; p < y->e; p++)
		for (k = 0; k < l->k; k++)
			AT(y->ofm, p, k) = p * l->k + k;
}

/* ------------------------------------------------------------------ */
/* The demand and prefetch matrices. */

struct demand {
	struct mat m[3];	/* ifmap, filter, ofmap */
	struct mat pre[2];	/* prefetch orders, one row each */
};

/* A tile of m padded to the array and framed: the streamed operands. */
static struct mat streamed(struct mat tile, int64_t t, int64_t width,
	int64_t before, int64_t after)
{
	return skew(frame(tile, t, width, 0, before, after));
}

/* The demand of fold (fc, fr) for each dataflow, as the three
 * create_*_demand_mat of SCALE-Sim build it.
 */
static void fold_demand(const struct layer *y, int df, int64_t ar, int64_t ac,
	int64_t fc, int64_t fr, struct demand *d)
{
	int64_t sr = df == 0 ? y->e : y->win, sc = df == 2 ? y->e : y->l.k;
	int64_t t = df == 0 ? y->win : df == 1 ? y->e : y->l.k;
	int64_t r0 = fr * ar, r1 = r0 + ar < sr ? r0 + ar : sr;
	int64_t c0 = fc * ac, c1 = c0 + ac < sc ? c0 + ac : sc;
	struct mat ti = y->ifm, tf = y->fil, to = y->ofm;

	if (df == 0) {
		append(&d->m[0], streamed(transpose(slice(ti, r0, r1, 0, t)), t,
			ar, 0, ac - 1));
		append(&d->m[1], streamed(slice(tf, 0, t, c0, c1), t, ac, 0,
			ar - 1));
		append(&d->m[2], skew(frame(slice(to, r0, r1, c0, c1), ar, ac,
			1, t - 1, 0)));
	} else if (df == 1) {
		append(&d->m[0], streamed(slice(ti, 0, t, r0, r1), t, ar, ar,
			ac - 1));
		append(&d->m[1], frame(slice(tf, r0, r1, c0, c1), ar, ac, 1, 0,
			ar + ac + t - 2));
		append(&d->m[2], streamed(slice(to, 0, t, c0, c1), t, ac,
			2 * ar - 1, 0));
	} else {
		append(&d->m[0], frame(transpose(slice(ti, c0, c1, r0, r1)),
			ar, ac, 1, 0, ar + ac + t - 2));
		append(&d->m[1], streamed(transpose(slice(tf, r0, r1, 0, t)), t,
			ar, ar, ac - 1));
		append(&d->m[2], streamed(transpose(slice(to, c0, c1, 0, t)), t,
			ac, 2 * ar - 1, 0));
	}
}

/* The anti-diagonal unrolling of create_*_prefetch_mat (row falling,
 * column rising), into one row.
 */
static struct mat diagonals(struct mat m)
{
	struct mat o = mat_new(1, m.r * m.c);
	int64_t d, i, n = 0;

	for (d = 0; d < m.r + m.c - 1; d++)
		for (i = d < m.r - 1 ? d : m.r - 1; i >= 0 && d - i < m.c; i--)
			o.v[n++] = AT(m, i, d - i);
	free(m.v);
	return o;
}

/* The prefetch order of the IFMAP and FILTER: the tiles of the folds
 * they depend on, stacked, read along the anti-diagonals where they enter
 * skewed.
 */
static void prefetch(const struct layer *y, int df, int64_t ar, int64_t ac,
	struct demand *d)
{
	int64_t sr = df == 0 ? y->e : y->win, sc = df == 2 ? y->e : y->l.k;
	int64_t t = df == 0 ? y->win : df == 1 ? y->e : y->l.k, f;
	struct mat pi = { 0 }, pf = { 0 };

	for (f = 0; f * (df == 2 ? ac : ar) < (df == 2 ? sc : sr); f++) {
		int64_t w = df == 2 ? ac : ar, a = f * w;
		int64_t b = a + w < (df == 2 ? sc : sr) ? a + w :
			(df == 2 ? sc : sr);

		if (df == 0)
			append(&pi, frame(transpose(slice(y->ifm, a, b, 0, t)),
				t, w, 0, 0, 0));
		else if (df == 1)
			append(&pi, frame(slice(y->ifm, 0, t, a, b), t, w, 0, 0,
				0));
		else
			append(&pi, frame(transpose(slice(y->ifm, a, b, 0,
				sr)), sr, w, 0, 0, 0));
	}
	for (f = 0; f * (df == 2 ? ar : ac) < (df == 2 ? sr : sc); f++) {
		int64_t w = df == 2 ? ar : ac, a = f * w;
		int64_t b = a + w < (df == 2 ? sr : sc) ? a + w :
			(df == 2 ? sr : sc);

		if (df == 0)
			append(&pf, frame(slice(y->fil, 0, t, a, b), t, w, 0, 0,
				0));
		else if (df == 1)
			append(&pf, frame(slice(y->fil, 0, sr, a, b), sr, w, 0,
				0, 0));
		else
			append(&pf, frame(transpose(slice(y->fil, a, b, 0, t)),
				t, w, 0, 0, 0));
	}
	d->pre[0] = df == 2 ? pi : diagonals(pi);
	d->pre[1] = df == 1 ? pf : diagonals(pf);
	if (df == 2)
		d->pre[0] = (struct mat) { 1, pi.r * pi.c, pi.v };
	if (df == 1)
		d->pre[1] = (struct mat) { 1, pf.r * pf.c, pf.v };
}

/* ------------------------------------------------------------------ */
/* The buffers, a word at a time. */

/* CALC mode's read buffer (memory/read_buffer_estimate_bw.py), with the
 * newest set each word went into standing for the sets that hold it.
 */
struct est {
	int64_t items, cur_set, in_set, read_start, read_end;
	int64_t pre_start, pre_end, last_start, last_end, first_req;
	int64_t *set_of;	/* newest set of each address, or -1 */
	int64_t *set_size;	/* words of each set */
	int64_t accesses, trace_first, trace_last;
	int seen, active_done, traced;
};

/* "range" addresses, at most "max" words requested. */
static void est_init(struct est *b, int64_t words, int64_t range,
	int64_t max)
{
	int64_t i;

	memset(b, 0, sizeof(*b));
	b->items = words / 100;
	b->read_end = 49;
	b->last_start = -2;
	b->last_end = -1;
	b->set_of = malloc((size_t) (range + 1) * sizeof(int64_t));
	b->set_size = calloc((size_t) (max / b->items + 64), sizeof(int64_t));
	for (i = 0; i < range; i++)
		b->set_of[i] = -1;
}

/* prefetch(): the sets [s0, s1] fetched over the cycles last_start ..
 * last_end, answered a cycle later.
 */
static void est_fetch(struct est *b, int64_t s0, int64_t s1)
{
	int64_t s;

	for (s = s0; s <= s1; s++)
		b->accesses += b->set_size[s];
	if (!b->traced)
		b->trace_first = b->last_start + 1;
	b->traced = 1;
	b->trace_last = b->last_end + 1;
}

static void est_word(struct est *b, int64_t a, int64_t cycle)
{
	int64_t s = b->set_of[a];

	if (s >= b->read_start && s < (b->cur_set < b->read_end + 1 ?
		b->cur_set : b->read_end + 1))
		return;
	if (s == b->cur_set)
		return;
	b->set_of[a] = b->cur_set;
	b->set_size[b->cur_set]++;
	if (++b->in_set < b->items)
		return;
	b->in_set = 0;
	if (++b->cur_set != b->read_end + 1)
		return;
	if (!b->active_done) {
		b->last_end = b->first_req - 2;
		b->last_start = b->last_end - cdiv(50 * b->items, 10) + 1;
		est_fetch(b, 0, 49);
		b->pre_start = b->read_end + 1;
		b->pre_end = b->pre_start + 49;
		b->active_done = 1;
	} else {
		est_fetch(b, b->pre_start, b->pre_end);
		b->pre_start += 50;
		b->pre_end += 50;
	}
	b->read_start += 50;
	b->read_end += 50;
	b->last_start = b->last_end + 1;
	b->last_end = cycle;
}

static void est_row(struct est *b, const int64_t *row, int64_t n,
	int64_t cycle)
{
	int64_t i, any = 0;

	for (i = 0; i < n; i++)
		any |= row[i] >= 0;
	if (any && !b->seen) {
		b->first_req = cycle;
		b->seen = 1;
	}
	for (i = 0; i < n; i++)
		if (row[i] >= 0)
			est_word(b, row[i], cycle);
}

/* complete_all_prefetches(). */
static void est_finish(struct est *b)
{
	if (!b->in_set)
		b->cur_set--;
	if (!b->active_done) {
		b->last_end = -2;
		b->last_start = b->last_end -
			cdiv((b->cur_set + 1) * b->items, 10) + 1;
		est_fetch(b, 0, b->cur_set);
	} else
		est_fetch(b, b->pre_start, b->cur_set);
	free(b->set_of);
	free(b->set_size);
}

/* The write buffer (memory/write_buffer.py): lines of "bw" words, the
 * words of each line kept.
 */
struct wb {
	int64_t total, active, drain_size, bw, free_space;
	int64_t *line_words, n_lines, line_idx, drain_start, drain_end;
	int64_t accesses, first, last, words;
	int drained;
};

static void wb_init(struct wb *w, int64_t words, int64_t bw, int64_t max)
{
	memset(w, 0, sizeof(*w));
	w->total = words;
	w->active = (words + 1) / 2;
	w->drain_size = words - w->active;
	w->bw = bw;
	w->free_space = words;
	w->line_words = calloc((size_t) (max / bw + max + 8), sizeof(int64_t));
}

/* append_to_trace_mat(force=True): the line being filled closes. */
static void wb_close(struct wb *w)
{
	if (w->line_idx) {
		w->line_words[w->n_lines++] = w->line_idx;
		w->line_idx = 0;
	}
}

static int64_t wb_drain(struct wb *w, int64_t start)
{
	int64_t end = w->drain_start + cdiv(w->drain_size, w->bw), n, data;

	if (end > w->n_lines)
		end = w->n_lines;
	n = end - w->drain_start;
	data = n * w->bw - (w->bw - w->line_words[end - 1]);
	w->accesses += data;
	w->free_space += data;
	if (!w->drained)
		w->first = start;
	w->drained = 1;
	w->last = start + n - 1;
	w->drain_start = end;
	return start + n - 1;
}

/* service_writes of one row; returns the cycle it was answered. */
static int64_t wb_row(struct wb *w, const int64_t *row, int64_t n,
	int64_t cycle)
{
	int64_t i;

	for (i = 0; i < n; i++) {
		if (row[i] < 0)
			continue;
		w->words++;
		w->free_space--;
		if (++w->line_idx == w->bw) {
			w->line_words[w->n_lines++] = w->bw;
			w->line_idx = 0;
		}
		if (cycle < w->drain_end) {
			if (w->free_space <= 0)
				cycle = w->drain_end;
		} else if (w->free_space < w->active) {
			wb_close(w);
			w->drain_end = wb_drain(w, cycle);
		}
	}
	return cycle;
}

static void wb_finish(struct wb *w, int64_t cycle)
{
	wb_close(w);
	while (w->drain_start < w->n_lines) {
		w->drain_end = wb_drain(w, cycle);
		cycle = w->drain_end + 1;
	}
	free(w->line_words);
}

/* USER mode's read buffer (memory/read_buffer.py): the prefetch order cut
 * into sets of ceil(words / 100) valid words, a window of sets, each miss
 * moving it on by the prefetch half and fetching that many lines.
 */
struct usr {
	int64_t eps, n_sets, a_sets, p_sets, start;
	int64_t lines_p, bw, last, fetches, lines0, range;
	unsigned char *in;	/* n_sets x range: set s holds address a */
};

static void usr_init(struct usr *u, const struct mat *pre, int64_t words,
	int64_t bw, int64_t range)
{
	int64_t active = (words + 1) / 2, i, valid = 0, s = 0, in = 0;

	memset(u, 0, sizeof(*u));
	u->eps = cdiv(words, 100);
	for (i = 0; i < pre->c; i++)
		valid += pre->v[i] >= 0;
	u->n_sets = valid / u->eps + 1;
	u->range = range;
	u->in = calloc((size_t) (u->n_sets * range), 1);
	for (i = 0; i < pre->c; i++)
		if (pre->v[i] >= 0) {
			u->in[s * range + pre->v[i]] = 1;
			if (++in == u->eps) {
				s++;
				in = 0;
			}
		}
	u->a_sets = cdiv(active, u->eps) < u->n_sets ?
		cdiv(active, u->eps) : u->n_sets;
	u->p_sets = cdiv(words - active, u->eps);
	if (u->p_sets > u->n_sets - u->a_sets)
		u->p_sets = u->n_sets - u->a_sets;
	u->bw = bw;
	u->lines_p = cdiv(words - active, bw);
	u->lines0 = cdiv(active, bw) < cdiv(pre->c, bw) ? cdiv(active, bw) :
		cdiv(pre->c, bw);
	u->last = -1;
}

static int usr_hit(const struct usr *u, int64_t a)
{
	int64_t k;

	for (k = 0; k < u->a_sets; k++)
		if (u->in[((u->start + k) % u->n_sets) * u->range + a])
			return 1;
	return 0;
}

/* service_reads of one row; returns the cycle it was answered. */
static int64_t usr_row(struct usr *u, const int64_t *row, int64_t n,
	int64_t cycle)
{
	int64_t off = 1, i;

	for (i = 0; i < n; i++)
		while (row[i] >= 0 && !usr_hit(u, row[i])) {
			u->start = (u->start + u->p_sets) % u->n_sets;
			u->last += u->lines_p + 1;
			u->fetches++;
			if (u->last - (cycle + off) > 0)
				off = u->last - cycle;
		}
	return cycle + off;
}

/* ------------------------------------------------------------------ */
/* The run (memory/double_buffered_scratchpad_mem.py). */

struct outcome {
	int64_t total, stalls, dram[3], dram_start[3], dram_stop[3];
	int64_t sram_start[3], sram_stop[3], words;
};

/* The answered cycle of a row goes into the SRAM start and stop cycles of
 * the operand when the row has a word.
 */
static void mark(struct outcome *o, int op, const int64_t *row, int64_t n,
	int64_t at, int *seen)
{
	int64_t i;

	for (i = 0; i < n; i++)
		if (row[i] >= 0) {
			if (!seen[op])
				o->sram_start[op] = at;
			seen[op] = 1;
			o->sram_stop[op] = at;
			return;
		}
}

static void naive_run(const struct demand *d, const sim_scale_arch *a,
	const int64_t *range, struct outcome *o)
{
	int64_t words[3], i, stalls = 0, of_at = 0;
	int user = a->bw_mode == SIM_SCALE_USER, seen[3] = { 0 }, op;
	struct est e[2];
	struct usr u[2];
	struct wb w;

	memset(o, 0, sizeof(*o));
	for (op = 0; op < 3; op++)
		words[op] = a->sram_kb[op] * 1024 / a->word_bytes;
	for (op = 0; op < 2; op++)
		if (user)
			usr_init(&u[op], &d->pre[op], words[op], a->bandwidth,
				range[op]);
		else
			est_init(&e[op], words[op], range[op],
				d->m[op].r * d->m[op].c);
	wb_init(&w, words[2], user ? a->bandwidth : a->cols,
		d->m[2].r * d->m[2].c);
	for (i = 0; i < d->m[2].r; i++) {
		int64_t cycle = i + stalls, stall = 0, at;

		for (op = 0; op < 2; op++) {
			const int64_t *row = &AT(d->m[op], i, 0);

			if (user)
				at = usr_row(&u[op], row, d->m[op].c, cycle);
			else {
				est_row(&e[op], row, d->m[op].c, cycle);
				at = cycle + 1;
			}
			mark(o, op, row, d->m[op].c, at, seen);
			if (at - cycle - 1 > stall)
				stall = at - cycle - 1;
		}
		of_at = wb_row(&w, &AT(d->m[2], i, 0), d->m[2].c, cycle);
		mark(o, 2, &AT(d->m[2], i, 0), d->m[2].c, of_at, seen);
		if (of_at - cycle > stall)
			stall = of_at - cycle;
		stalls += stall;
	}
	for (op = 0; op < 2; op++)
		if (user) {
			o->dram[op] = (u[op].lines0 + u[op].fetches *
				u[op].lines_p) * u[op].bw;
			o->dram_start[op] = -u[op].lines0;
			o->dram_stop[op] = u[op].last;
			free(u[op].in);
		} else {
			est_finish(&e[op]);
			o->dram[op] = e[op].accesses;
			o->dram_start[op] = e[op].trace_first;
			o->dram_stop[op] = e[op].trace_last;
		}
	wb_finish(&w, of_at);
	o->total = of_at;
	o->stalls = stalls;
	o->dram[2] = w.accesses;
	o->dram_start[2] = w.first;
	o->dram_stop[2] = w.last;
	o->words = w.words;
}

/* ------------------------------------------------------------------ */
/* The tests. */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static int64_t pick(int64_t lo, int64_t hi)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return lo + (int64_t) (rng_state % (uint64_t) (hi - lo + 1));
}

/* Every figure of "r" against the rebuild's. */
static void check_outcome(const sim_scale_result *r, const struct outcome *o)
{
	int op;

	assert_int_equal(r->report.total_cycles, o->total);
	assert_int_equal(r->stall_cycles, o->stalls);
	assert_int_equal(r->dram_writes[2], o->words);
	for (op = 0; op < 3; op++) {
		assert_int_equal(r->report.dram_accesses[op], o->dram[op]);
		assert_int_equal(r->report.dram_start[op], o->dram_start[op]);
		assert_int_equal(r->report.dram_stop[op], o->dram_stop[op]);
		assert_int_equal(r->report.sram_start[op], o->sram_start[op]);
		assert_int_equal(r->report.sram_stop[op], o->sram_stop[op]);
	}
}

/* Checks one layer: drawn at random, or "fix" with the array "fix_a". */
static void check_one(int user, int n, const sim_scale_layer *fix,
	const sim_scale_arch *fix_a)
{
	struct layer y;
	struct demand d;
	sim_scale_arch a;
	sim_scale_result r;
	struct outcome o;
	dse_error err;
	int64_t range[2], fc, fr, sr, sc, op;
	int df = (int) pick(0, 2), path;

	memset(&y, 0, sizeof(y));
	memset(&d, 0, sizeof(d));
	y.l.h = pick(1, 12);
	y.l.w = pick(1, 12);
	y.l.r = pick(1, y.l.h);
	y.l.s = pick(1, y.l.w);
	y.l.c = pick(1, 6);
	y.l.k = pick(1, 12);
	y.l.stride_h = pick(1, 3);
	y.l.stride_w = pick(0, 1) ? y.l.stride_h : pick(1, 4);
	if (!pick(0, 4))
		sim_scale_gemm(&y.l, pick(1, 20), pick(1, 12), pick(1, 20));
	sim_scale_arch_default(&a, pick(1, 5), pick(1, 5), df);
	a.word_bytes = (int64_t) 1 << pick(0, 3);
	for (op = 0; op < 3; op++)
		a.sram_kb[op] = pick(1, 2);
	if (user) {
		a.bw_mode = SIM_SCALE_USER;
		a.bandwidth = pick(1, 6);
	}
	if (fix) {
		y.l = *fix;
		a = *fix_a;
		df = (int) a.dataflow;
	}
	operands(&y);
	sr = df == 0 ? y.e : y.win;
	sc = df == 2 ? y.e : y.l.k;
	for (fc = 0; fc * a.cols < sc; fc++)
		for (fr = 0; fr * a.rows < sr; fr++)
			fold_demand(&y, df, a.rows, a.cols, fc, fr, &d);
	prefetch(&y, df, a.rows, a.cols, &d);
	range[0] = y.l.h * y.l.w * y.l.c;
	range[1] = y.win * y.l.k;
	naive_run(&d, &a, range, &o);
	dse_error_clear(&err);
	print_message("%d: %s %lldx%lld, %lld,%lld,%lld,%lld,%lld,%lld,%lld,"
		"%lld, %lld-byte words, bw %lld\n", n,
		sim_scale_dataflow_name(a.dataflow), (long long) a.rows,
		(long long) a.cols, (long long) y.l.h, (long long) y.l.w,
		(long long) y.l.r, (long long) y.l.s, (long long) y.l.c,
		(long long) y.l.k, (long long) y.l.stride_h,
		(long long) y.l.stride_w, (long long) a.word_bytes,
		(long long) a.bandwidth);
	/* The IFMAP's CALC replay has two paths, by runs of words and word
	 * by word; each must give the plain rebuild's counts.
	 */
	for (path = SIM_SCALE__IF_AUTO; path <= SIM_SCALE__IF_WORDS; path++) {
		assert_int_equal(sim_scale__run(&a, &y.l, path, &r, &err),
			dse_stat_ok);
		check_outcome(&r, &o);
	}
	for (op = 0; op < 3; op++)
		free(d.m[op].v);
	free(d.pre[0].v);
	free(d.pre[1].v);
	free(y.ifm.v);
	free(y.fil.v);
	free(y.ofm.v);
}

/* Weight-stationary layers whose streamed IFMAP tiles read a word at most
 * once (a row fold's window indices are channels of one filter tap), with
 * tiles several times the active half of a 1 KiB buffer (50 words), so
 * that the half fills many times inside a tile.  The rows of the array
 * divide the channels or not, and strides and edges leave taps out.
 */
static const struct {
	sim_scale_layer l;
	int64_t rows;
} distinct[] = {
	{ { 12, 12, 3, 3, 4, 2, 1, 1 }, 4 },
	{ { 12, 11, 3, 2, 6, 3, 1, 1 }, 3 },
	{ { 13, 12, 3, 3, 4, 2, 2, 2 }, 2 },
	{ { 12, 12, 2, 2, 5, 2, 3, 2 }, 5 },
	{ { 10, 14, 4, 3, 8, 4, 2, 3 }, 4 },
	{ { 12, 12, 3, 3, 6, 2, 1, 1 }, 4 },
	/* Every word new to the half when read: tiles that share a
	 * channel lie a tile (576 and 588 words) apart, more than the
	 * half's 500 (the last with a stride that leaves taps out);
	 * then three and four column folds (with a stride that leaves taps
	 * out), whose CALC pass stops where a column fold repeats.
	 */
	{ { 14, 14, 3, 3, 8, 9, 1, 1 }, 4 },
	{ { 16, 16, 3, 3, 8, 5, 1, 1 }, 3 },
	{ { 20, 20, 3, 3, 12, 4, 2, 2 }, 4 },
	{ { 13, 13, 3, 3, 4, 12, 1, 1 }, 4 },
	{ { 13, 13, 3, 3, 5, 10, 2, 2 }, 3 },
};

static void test_calc(void **state)
{
	int i;

	(void) state;
	for (i = 0; i < 400; i++)
		check_one(0, i, NULL, NULL);
	for (i = 0; i < (int) (sizeof(distinct) / sizeof(*distinct)); i++) {
		sim_scale_arch a;

		sim_scale_arch_default(&a, distinct[i].rows, 3, SIM_SCALE_WS);
		a.sram_kb[0] = a.sram_kb[1] = a.sram_kb[2] = 1;
		check_one(0, 400 + i, &distinct[i].l, &a);
	}
}

static void test_user(void **state)
{
	int i;

	(void) state;
	for (i = 0; i < 300; i++)
		check_one(1, i, NULL, NULL);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest calc[] = { cmocka_unit_test(test_calc) };
	const struct CMUnitTest user[] = { cmocka_unit_test(test_user) };
	int bad = 0;

	if (argc < 2 || !strcmp(argv[1], "calc"))
		bad |= cmocka_run_group_tests_name("calc", calc, NULL, NULL);
	if (argc < 2 || !strcmp(argv[1], "user"))
		bad |= cmocka_run_group_tests_name("user", user, NULL, NULL);
	return bad;
}
