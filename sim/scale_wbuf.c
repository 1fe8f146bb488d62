/* The array's stalls and the OFMAP write buffer of SCALE-Sim's memory
 * model: the buffer fills a word a cycle as the array writes its outputs
 * and drains half of itself at a time, a line of "bw" words a cycle; the
 * array stalls when it finds the buffer full, and the stalls shift the
 * cycles of the rows after them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "scale_internal.h"

int sim_scale__stalls_add(struct stalls *s, int64_t row, int64_t stall)
{
	if (s->n == s->cap) {
		int64_t cap = s->cap ? 2 * s->cap : 64;
		int64_t *r = realloc(s->rows, (size_t) cap * sizeof(*r));

		if (!r)
			return -1;
		s->rows = r;
		r = realloc(s->cum, (size_t) cap * sizeof(*r));
		if (!r)
			return -1;
		s->cum = r;
		s->cap = cap;
	}
	s->total += stall;
	s->rows[s->n] = row;
	s->cum[s->n++] = s->total;
	return 0;
}

/* The stalls of the rows before "row". */
int64_t sim_scale__stalls_before(const struct stalls *s, int64_t row)
{
	int64_t lo = 0, hi = s->n;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (s->rows[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? s->cum[lo - 1] : 0;
}

void sim_scale__wb_init(struct wbuf *w, int64_t words, int64_t bw)
{
	memset(w, 0, sizeof(*w));
	w->total = words;
	w->active = dse_cdiv(words, 2);
	w->drain_size = words - w->active;
	w->bw = bw;
	w->free = words;
}

/* Closes the line being filled, short, before a drain. */
static void wb_close(struct wbuf *w)
{
	if (!w->line_idx)
		return;
	if (w->n_part == w->cap_part) {
		int64_t cap = w->cap_part ? 2 * w->cap_part : 64;
		struct partial *p = realloc(w->part, (size_t) cap * sizeof(*p));

		if (!p) {
			w->nomem = 1;
			return;
		}
		w->part = p;
		w->cap_part = cap;
	}
	w->part[w->n_part].line = w->lines;
	w->part[w->n_part++].words = w->line_idx;
	w->lines++;
	w->line_idx = 0;
}

/* Drains up to half the buffer's worth of lines from cycle "start", a
 * line a cycle; returns the cycle of the last line.
 */
static int64_t wb_drain(struct wbuf *w, int64_t start)
{
	int64_t end = dse_min64(w->drain_line + dse_cdiv(w->drain_size, w->bw),
		w->lines);
	int64_t n = end - w->drain_line, data = n * w->bw;

	while (w->next_part < w->n_part &&
	       w->part[w->next_part].line < end - 1)
		w->next_part++;
	if (w->next_part < w->n_part && w->part[w->next_part].line == end - 1)
		data -= w->bw - w->part[w->next_part++].words;
	w->accesses += data;
	w->free += data;
	if (!w->drained)
		w->first_cycle = start;
	w->drained = 1;
	w->last_cycle = start + n - 1;
	w->drain_line = end;
	return start + n - 1;
}

/* One OFMAP word written at cycle *cur; a stall moves *cur on and adds
 * to *offset.
 */
static void wb_store(struct wbuf *w, int64_t *cur, int64_t *offset)
{
	w->words++;
	w->free--;
	if (++w->line_idx == w->bw) {
		w->lines++;
		w->line_idx = 0;
	}
	if (*cur < w->drain_end) {
		if (w->free <= 0) {
			*offset += w->drain_end - *cur;
			*cur = w->drain_end;
		}
	} else if (w->free < w->active) {
		wb_close(w);
		w->drain_end = wb_drain(w, *cur);
	}
}

/* "n" OFMAP words written at cycle *cur.  Runs of words that neither
 * start a drain nor find the buffer full only fill lines, and are counted
 * at once.
 */
void sim_scale__wb_store_n(struct wbuf *w, int64_t n, int64_t *cur,
	int64_t *offset)
{
	while (n > 0) {
		int64_t safe = *cur < w->drain_end ? w->free - 1 :
			w->free - w->active, k;

		if (safe <= 0) {
			wb_store(w, cur, offset);
			n--;
			continue;
		}
		k = dse_min64(n, safe);
		w->words += k;
		w->free -= k;
		w->lines += (w->line_idx + k) / w->bw;
		w->line_idx = (w->line_idx + k) % w->bw;
		n -= k;
	}
}

/* Drains everything left, from cycle "cycle" on. */
void sim_scale__wb_finish(struct wbuf *w, int64_t cycle)
{
	wb_close(w);
	while (w->drain_line < w->lines) {
		w->drain_end = wb_drain(w, cycle);
		cycle = w->drain_end + 1;
	}
}
