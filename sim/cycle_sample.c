/* sim: the sampled cycle model.
 *
 * The tiles of a design fall into classes whose tiles cost the same in
 * the steady state: the first tile (its load is exposed), the last one
 * (its compute and drain are), and the others by the set of band loops
 * along which they are a boundary tile (padded, reading less data; the
 * set is empty for interior tiles) and by whether they start an output
 * tile: such a tile waits for the output buffer, which without double
 * buffering means for the drain of the output tile before it, so it may
 * cost much more than the tiles that accumulate into the same output
 * tile.  A sampled tile is simulated in context, that is after the tile
 * before it (whose load overlaps its compute and whose drain shares its
 * DRAM channel), or the two before it with double buffering (where a
 * tile's load starts when the tile two before it is done), and the model
 * records the cycles PE (0, 0) advanced on it.  Every tile of a window
 * that has that warm-up before it is such a measurement, so a window that
 * reaches one tile further gives a second sample for the price of one
 * tile, and windows that touch merge.
 *
 * With double buffering the steady state is a cycle of two tiles, not
 * one: the load of tile t+1 may start when tile t-1 is done, so a long
 * step may be followed by a short one (the crossbar's alternation between
 * unicast and multicast groups does the same).  Which tiles are the long
 * ones is set by where the run started: the full run starts cold at tile
 * 0, so the even tiles are in one phase and the odd ones in the other.
 * Hence on such designs a window, which also starts cold, starts at the
 * last even tile that leaves the warm-up before its sampled tile, so that
 * the sampled tile is in the phase it has in the full run, and the parity
 * of a tile is part of its class (pooled again when both parities cost
 * the same, see below).
 *
 * The simulator is deterministic, so a class whose tiles all cost the
 * same shows it at once: the sampling is sequential.  A first round
 * draws two tiles of each class group (the classes that differ only in
 * parity; one tile of each parity when there are two); a group whose
 * samples are equal is done, and its parities are pooled.  Otherwise
 * every class of the group gets two samples, and a class whose samples
 * still differ gets "samples" of them.  A class of no more than "samples"
 * tiles is simulated whole from the start, so that asking for as many
 * samples as the largest class has tiles simulates every tile.  When the
 * DRAM channel is busy for much of a tile's compute its backlog makes
 * tile times vary in patterns the classes do not capture, two equal
 * samples prove little, and every class gets its "samples" (see
 * dram_heavy).
 *
 * On DRAM-heavy designs with double buffering the loads keep the
 * channel busy, a drain waits for a whole output tile and lands on a
 * later one, so a window reaches back over the output tiles whose drains
 * are still owed, a draw measures the whole output tile that holds it
 * (every position in it alike), and the tiles whose window would start at
 * tile 0 form the first class (see window_start).
 *
 * The estimate is the sum over classes (or pooled groups) of the count
 * times the sample mean (the exact sum for a class sampled whole), plus
 * the tail after the last tile; its interval is Student's t on the
 * stratified variance with the finite-population correction and
 * Welch-Satterthwaite's degrees of freedom, so a class sampled whole adds
 * no uncertainty.  When every tile is drawn the windows merge into one
 * from tile 0, which is the full simulation, and the estimate equals it.
 *
 * Windows of tiles of the same classes often start alike (the same tile
 * sizes and output tiles); a window then goes on from the state the
 * window before it had after those tiles instead of running them again,
 * which gives the same cycles (see simulate_round).
 *
 * The draws use a local splitmix64 generator seeded from the options, and
 * what the later rounds draw depends only on the simulated cycles, so the
 * same seed gives the same tiles and the same estimate.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cycle_internal.h"

/* Tiles simulated before a sampled one, at least: the tile before it,
 * whose compute its load overlaps; with double buffering the load of a
 * tile may start when the tile two before it is done, so that one too.
 */
#define WARMUP 1
#define WARMUP_DB 2

/* The samples that decide whether a class group needs more. */
#define FIRST_SAMPLES 2

/* The share of a tile's compute for which a busy DRAM channel makes the
 * sequential sampling's early stop untrusted (see dram_heavy).
 */
#define DRAM_SHARE 0.5

/* Rounds of sequential sampling: the first draws, the top-up of every
 * class of a group whose samples differ to FIRST_SAMPLES, then to the
 * full "samples"; one more finds nothing left to draw.
 */
#define MAX_ROUNDS 4

/* The smallest relative spread assumed within a class that is sampled,
 * not sampled whole: arbitration phases make tile times differ by a few
 * cycles in patterns a handful of samples can miss.
 */
#define RESOLUTION 0.002

/* Measurements, windows and draws a sampling holds before it allocates. */
#define INLINE_N 32

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1. */
static uint64_t draw(uint64_t *s, uint64_t n)
{
	return splitmix64(s) % n;
}

/* Per band loop, the tile indices that are whole (interior) and those
 * that are padded (boundary), for drawing a tile of a class directly; how
 * many of each are odd (for the class sizes by parity) and, per index,
 * whether it is padded (for a tile's class).  One block holds them all.
 */
struct loop_sets {
	int64_t *whole[POLY_MAX_LOOPS], *pad[POLY_MAX_LOOPS];
	int64_t n_whole[POLY_MAX_LOOPS], n_pad[POLY_MAX_LOOPS];
	int64_t odd_whole[POLY_MAX_LOOPS], odd_pad[POLY_MAX_LOOPS];
	unsigned char *is_pad[POLY_MAX_LOOPS];
	/* The loops that have padded tiles, and per loop the tiles of one
	 * step along it (the product of the later loops' counts).
	 */
	unsigned padded;
	uint64_t stride[POLY_MAX_LOOPS];
	int64_t *block;
};

static int loop_sets_build(const struct cyc *c, struct loop_sets *ls)
{
	size_t n = 0;
	int64_t i, *at;
	unsigned char *flag;
	int l;

	memset(ls, 0, sizeof(*ls));
	for (l = 0; l < c->m->band; l++)
		n += (size_t) c->p.n[l];
	/* Two index lists and a flag per index: 17 bytes an index. */
	ls->block = malloc(sizeof(int64_t) * 2 * n + n + 1);
	if (!ls->block)
		return 0;
	at = ls->block;
	flag = (unsigned char *) (ls->block + 2 * n);
	for (l = c->m->band - 1; l >= 0; l--)
		ls->stride[l] = l == c->m->band - 1 ? 1 : ls->stride[l + 1] *
			(uint64_t) c->p.n[l + 1];
	for (l = 0; l < c->m->band; l++) {
		ls->whole[l] = at;
		ls->pad[l] = at + c->p.n[l];
		ls->is_pad[l] = flag;
		at += 2 * c->p.n[l];
		flag += c->p.n[l];
		for (i = 0; i < c->p.n[l]; i++) {
			ls->is_pad[l][i] = sim__cyc_clip1(c, l, i) <
				c->p.t1[l];
			if (ls->is_pad[l][i]) {
				ls->pad[l][ls->n_pad[l]++] = i;
				ls->odd_pad[l] += i % 2;
			} else {
				ls->whole[l][ls->n_whole[l]++] = i;
				ls->odd_whole[l] += i % 2;
			}
		}
		if (ls->n_pad[l] > 0)
			ls->padded |= 1u << l;
	}
	return 1;
}

static void loop_sets_free(struct loop_sets *ls)
{
	free(ls->block);
}

/* The boundary set (class mask) of a tile: its index along each loop
 * that has padded tiles (no division for the others).
 */
static unsigned tile_mask(const struct cyc *c, const struct loop_sets *ls,
	uint64_t t)
{
	unsigned mask = 0;
	int l;

	for (l = 0; l < c->m->band; l++)
		if (ls->padded >> l & 1u)
			mask |= (unsigned) ls->is_pad[l][t / ls->stride[l] %
				(uint64_t) c->p.n[l]] << l;
	return mask;
}

/* The number of tile "pos" (a position in the product of the chosen
 * index sets of "mask").
 */
static uint64_t tile_of(const struct cyc *c, const struct loop_sets *ls,
	unsigned mask, const uint64_t *pos)
{
	uint64_t t = 0;
	int l;

	for (l = 0; l < c->m->band; l++) {
		int64_t i = mask >> l & 1u ? ls->pad[l][pos[l]] :
			ls->whole[l][pos[l]];

		t = t * (uint64_t) c->p.n[l] + (uint64_t) i;
	}
	return t;
}

/* One simulated tile in context: the cycles PE (0, 0) advanced on it. */
struct measure {
	uint64_t tile;
	int64_t delta;
};

/* Tiles a..b simulated from a cold array. */
struct window {
	uint64_t a, b;
};

/* The state of a window after its first tiles, for the next window that
 * starts alike (see simulate_round), with the cycles of those tiles.
 */
struct carry {
	struct cyc_snap snap;
	int64_t *delta;
	size_t cap;
};

/* What the sampling collects. */
struct sampling {
	struct cyc *c;
	const struct loop_sets *ls;
	uint64_t last, want;
	uint64_t first;		/* samples that may end a class group */
	uint64_t warmup;	/* WARMUP or WARMUP_DB */
	/* Per output group, tiles per output tile when the DRAM channel's
	 * backlog starves the drains (see window_start), else 0.
	 */
	uint64_t out_run[POLY_MAX_GROUPS];
	/* With "out_run", a draw measures the whole run of "unit" tiles
	 * (the longest output tile) that holds it, else 1.
	 */
	uint64_t unit;
	/* The head of the run, tiles 0..head-1: those whose window starts
	 * at tile 0, the first class (1 without "out_run").
	 */
	uint64_t head;
	/* A tile starts an output tile when its index is 0 along every
	 * band loop from "inner" on (the loops no output depends on);
	 * "split" says whether that divides the classes at all.
	 */
	int inner, split;
	uint64_t inner_span;	/* tiles of the loops from "inner" on */
	int phases;		/* split by the parity of the tile */
	int n_class;
	/* Per class: tiles, whether simulated whole, the samples it should
	 * have after this round and those it will have as planned.
	 */
	uint64_t *count, *target, *planned;
	unsigned char *whole;
	/* The classes that hold tiles, and the first class of each group
	 * that does, in order: the loops over classes skip the others
	 * (there are 2 + 4 << band classes, most of them empty).
	 */
	int *active, *leader;
	int n_active, n_leader;
	/* Per class: samples, their sum, sum of squares, least and most. */
	uint64_t *k;
	double *sum, *sq;
	int64_t *lo, *hi;
	/* Every measured tile, sorted by tile up to "n_old" (the rounds
	 * before this one); this round's are appended.
	 */
	struct measure *meas;
	size_t n_meas, n_old, cap_meas;
	/* This round's windows and the tiles its draws will measure. */
	struct window *win;
	size_t n_win, cap_win;
	uint64_t *plan;
	size_t n_plan, cap_plan;
	uint64_t win_a;		/* the window being simulated starts here */
	/* Two carries, from the window before and for the next, once a
	 * round has windows alike; the hook records the cycles of the
	 * first "n_rec" tiles of a window into "rec".
	 */
	struct carry *carry;
	int64_t *rec;
	uint64_t n_rec;
	double tail;		/* after the last tile's compute */
	uint64_t simulated, pe_cycles;
	/* Where "meas", "win" and "plan" start: most runs need no more,
	 * and a run takes a few microseconds, allocations included.  Last:
	 * sim__cyc_sampled zeroes what comes before them only.
	 */
	struct measure meas_in[INLINE_N];
	struct window win_in[INLINE_N];
	uint64_t plan_in[INLINE_N];
};

/* Makes room for "n" elements of "size" bytes in *p, which starts as the
 * array "inl" of the sampling; 0 when out of memory.
 */
static int reserve(void **p, size_t *cap, size_t n, size_t size,
	const void *inl)
{
	size_t c = *cap;
	void *q;

	if (n <= *cap)
		return 1;
	while (c < n)
		c *= 2;
	if (*p == inl) {
		q = malloc(c * size);
		if (q)
			memcpy(q, *p, *cap * size);
	} else {
		q = realloc(*p, c * size);
	}
	if (!q)
		return 0;
	*p = q;
	*cap = c;
	return 1;
}

/* Whether tile "t" starts an output tile (for the class split). */
static int tile_starts(const struct sampling *s, uint64_t t)
{
	return s->split && t % s->inner_span == 0;
}

/* The class of a tile by its boundary set, output start and phase. */
static int class_of(const struct sampling *s, uint64_t t)
{
	int band = s->c->m->band;

	return 2 + (int) tile_mask(s->c, s->ls, t) +
		(tile_starts(s, t) << band) +
		((s->phases ? (int) (t % 2) : 0) << (band + 1));
}

/* Class of a tile: 0 the head, 1 the last, else class_of. */
static int tile_class(const struct sampling *s, uint64_t t)
{
	return t == s->last && t > 0 ? 1 : t < s->head ? 0 : class_of(s, t);
}

/* Sets "inner" and "split": the loops after the innermost one an output
 * group depends on.  Outputs drained after every tile, or tiles that all
 * start an output tile, leave nothing to split.
 */
static void set_split(struct sampling *s)
{
	const struct cyc *c = s->c;
	int g, l, h = -1;

	s->split = c->n_out > 0;
	for (g = 0; g < c->n_out; g++) {
		if (c->m->out[g].every_tile)
			s->split = 0;
		for (l = 0; l < c->m->band; l++)
			if (c->m->out[g].loop_mask >> l & 1u && l > h)
				h = l;
	}
	s->inner = h + 1;
	if (s->inner >= c->m->band)
		s->split = 0;
	s->inner_span = 1;
	for (l = s->inner; l < c->m->band; l++)
		s->inner_span *= (uint64_t) c->p.n[l];
	s->phases = c->p.db || c->p.net == SIM_NET_MULTICAST;
}

/* The index set of loop l for boundary set "mask". */
static const int64_t *loop_set(const struct loop_sets *ls, unsigned mask,
	int l, int64_t *n)
{
	*n = mask >> l & 1u ? ls->n_pad[l] : ls->n_whole[l];
	return mask >> l & 1u ? ls->pad[l] : ls->whole[l];
}

/* Tiles of boundary set "mask" that start an output tile ("start") or do
 * not, of parity "par" when the classes are split by phase, the first and
 * last tiles included.  The parity of a tile number is that of the sum of
 * its indices times the loops' strides, counted loop by loop.
 */
static uint64_t class_size(const struct sampling *s,
	const struct loop_sets *ls, unsigned mask, int start, int par)
{
	uint64_t all[2] = { 1, 0 }, st[2] = { 1, 0 }, stride = 1, odd;
	int64_t n;
	int l;

	for (l = s->c->m->band - 1; l >= 0; l--) {
		const int64_t *set = loop_set(ls, mask, l, &n);
		uint64_t a0 = all[0], s0 = st[0];

		odd = stride % 2 == 0 ? 0 : (uint64_t) (mask >> l & 1u ?
			ls->odd_pad[l] : ls->odd_whole[l]);
		all[0] = a0 * ((uint64_t) n - odd) + all[1] * odd;
		all[1] = a0 * odd + all[1] * ((uint64_t) n - odd);
		if (l >= s->inner) {
			/* Index 0 only, which adds nothing odd. */
			st[0] = n > 0 && set[0] == 0 ? s0 : 0;
			st[1] = n > 0 && set[0] == 0 ? st[1] : 0;
		} else {
			st[0] = s0 * ((uint64_t) n - odd) + st[1] * odd;
			st[1] = s0 * odd + st[1] * ((uint64_t) n - odd);
		}
		stride *= (uint64_t) s->c->p.n[l];
	}
	if (!s->phases) {
		if (par)
			return 0;
		all[0] += all[1];
		st[0] += st[1];
	}
	if (!s->split)
		return start ? 0 : all[par];
	return start ? st[par] : all[par] - st[par];
}

/* The class of "cl" with its parity bit cleared (the group's first) and,
 * when the classes are split by phase, with it set; returns how many.
 */
static int group_members(const struct sampling *s, int cl, int *m)
{
	unsigned par = 1u << (s->c->m->band + 1);

	if (cl < 2) {
		m[0] = cl;
		return 1;
	}
	m[0] = 2 + (int) ((unsigned) (cl - 2) & ~par);
	m[1] = 2 + (int) ((unsigned) (cl - 2) | par);
	return s->phases ? 2 : 1;
}

/* The boundary set and output start of class "cl" (at least 2). */
static void class_parts(const struct sampling *s, int cl, unsigned *mask,
	int *start)
{
	int band = s->c->m->band;

	*mask = (unsigned) (cl - 2) & ((1u << band) - 1);
	*start = (int) ((unsigned) (cl - 2) >> band & 1u);
}

static int cmp_measure(const void *a, const void *b)
{
	uint64_t x = ((const struct measure *) a)->tile;
	uint64_t y = ((const struct measure *) b)->tile;

	return x < y ? -1 : x > y;
}

static int cmp_window(const void *a, const void *b)
{
	uint64_t x = ((const struct window *) a)->a;
	uint64_t y = ((const struct window *) b)->a;

	return x < y ? -1 : x > y;
}

/* Sorts by tile, or by start: insertion for the few (and nearly sorted)
 * of most runs, qsort's calls through a comparison cost more than the
 * sort.  The tiles are distinct and windows of equal starts merge alike
 * in either order, so the result is the same.
 */
#define FEW 64

static void sort_measures(struct measure *m, size_t n)
{
	size_t i, j;

	if (n > FEW) {
		qsort(m, n, sizeof(*m), cmp_measure);
		return;
	}
	for (i = 1; i < n; i++) {
		struct measure x = m[i];

		for (j = i; j > 0 && m[j - 1].tile > x.tile; j--)
			m[j] = m[j - 1];
		m[j] = x;
	}
}

static void sort_windows(struct window *w, size_t n)
{
	size_t i, j;

	if (n > FEW) {
		qsort(w, n, sizeof(*w), cmp_window);
		return;
	}
	for (i = 1; i < n; i++) {
		struct window x = w[i];

		for (j = i; j > 0 && w[j - 1].a > x.a; j--)
			w[j] = w[j - 1];
		w[j] = x;
	}
}

/* Whether tile "t" was measured in an earlier round. */
static int is_measured(const struct sampling *s, uint64_t t)
{
	size_t lo = 0, hi = s->n_old;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->meas[mid].tile == t)
			return 1;
		if (s->meas[mid].tile < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Whether tile "t" is measured already or will be in this round. */
static int taken(const struct sampling *s, uint64_t t)
{
	size_t i;

	for (i = 0; i < s->n_plan; i++)
		if (s->plan[i] == t)
			return 1;
	return is_measured(s, t);
}

/* Where the window of sampled tile "t" starts: "warmup" tiles before
 * it, or one more to start at an even tile when the classes are split by
 * phase (see the comment at the top).
 *
 * When the loads keep the DRAM channel busy, the round-robin arbiter
 * finds an input burst ready whenever the channel frees, and a drain
 * waits until the next drain of its group or the output tile that needs
 * its buffer flushes it: a drain stays pending for a whole output tile
 * and lands, all at once, on the start of the output tile "slots" after
 * its own.  A window must then hold that history: the end of the output
 * tile "slots" before the sampled tile's (whose drain is flushed at the
 * end of the one after it), with the usual warm-up before it.  Such a
 * window measures every tile of the sampled tile's output tile up to it.
 */
static uint64_t window_start(const struct sampling *s, uint64_t t)
{
	uint64_t a = t > s->warmup ? t - s->warmup : 0;
	uint64_t slots = s->c->p.db ? 2 : 1;
	int g;

	for (g = 0; g < s->c->n_out; g++) {
		uint64_t run = s->out_run[g], back;

		if (!run)
			continue;
		back = t % run + (slots - 1) * run + 1 + s->warmup;
		if (t <= back)
			a = 0;
		else if (t - back < a)
			a = t - back;
	}
	return s->phases ? a - a % 2 : a;
}

static int push_window(struct sampling *s, uint64_t a, uint64_t b)
{
	if (!reserve((void **) &s->win, &s->cap_win, s->n_win + 1,
	    sizeof(*s->win), s->win_in))
		return 0;
	s->win[s->n_win].a = a;
	s->win[s->n_win++].b = b;
	return 1;
}

/* Whether tile "t" of a window from tile "a" is a measurement: the
 * window holds all of its warm-up, or is the start of the full run.
 */
static int in_context(const struct sampling *s, uint64_t a, uint64_t t)
{
	return a == 0 || (t > a && a <= window_start(s, t));
}

/* Notes that this round measures tile "t" (once) for its class. */
static int mark(struct sampling *s, uint64_t t)
{
	if (taken(s, t))
		return 1;
	if (!reserve((void **) &s->plan, &s->cap_plan, s->n_plan + 1,
	    sizeof(*s->plan), s->plan_in))
		return 0;
	s->plan[s->n_plan++] = t;
	s->planned[tile_class(s, t)]++;
	return 1;
}

/* The window of drawn tile "t": every tile of it in context is a
 * measurement; it reaches one tile further when that tile's class still
 * wants samples in this round, sharing the warm-up.
 */
static int add_draw(struct sampling *s, uint64_t t)
{
	uint64_t a = window_start(s, t), b = t, u;

	if (s->unit > 1) {
		uint64_t t0 = t - t % s->unit;

		a = window_start(s, t0);
		b = t0 + s->unit - 1 < s->last ? t0 + s->unit - 1 : s->last;
		for (u = a + 1; u <= b; u++)
			if (in_context(s, a, u) && !mark(s, u))
				return 0;
		return push_window(s, a, b);
	}
	for (u = a + 1; u <= t; u++)
		if (in_context(s, a, u) && !mark(s, u))
			return 0;
	if (t < s->last && !taken(s, t + 1)) {
		int cu = tile_class(s, t + 1);

		if (s->planned[cu] < s->target[cu]) {
			b = t + 1;
			if (!mark(s, b))
				return 0;
		}
	}
	return push_window(s, a, b);
}

/* A window for every tile of class "cl" not measured yet.  The tiles are
 * enumerated over the product of the class's index sets (the starting
 * ones have index 0 along the inner loops).
 */
static int enumerate_class(struct sampling *s, const struct loop_sets *ls,
	int cl)
{
	const struct cyc *c = s->c;
	uint64_t pos[POLY_MAX_LOOPS] = { 0 }, total = 1, i, t;
	unsigned mask;
	int64_t n;
	int l, start;

	if (cl < 2) {
		if (cl == 0)
			return is_measured(s, 0) || push_window(s, 0,
				s->head - 1);
		return is_measured(s, s->last) || push_window(s,
			window_start(s, s->last), s->last);
	}
	class_parts(s, cl, &mask, &start);
	for (l = 0; l < c->m->band; l++) {
		loop_set(ls, mask, l, &n);
		total *= start && l >= s->inner ? 1 : (uint64_t) n;
	}
	for (i = 0; i < total; i++) {
		uint64_t r = i;

		for (l = c->m->band - 1; l >= 0; l--) {
			loop_set(ls, mask, l, &n);
			n = start && l >= s->inner ? 1 : n;
			pos[l] = r % (uint64_t) n;
			r /= (uint64_t) n;
		}
		t = tile_of(c, ls, mask, pos);
		if (tile_class(s, t) == cl &&
		    !is_measured(s, t) &&
		    !push_window(s, window_start(s, t), t))
			return 0;
	}
	return 1;
}

/* A tile of class "cl" not taken yet.  The class has more tiles than it
 * wants samples, and holds a good share of the product drawn from (at
 * least a third: the index sets are runs of consecutive indices, about
 * half of them odd), so rejecting the others ends quickly.
 */
static uint64_t draw_tile(const struct sampling *s, const struct loop_sets *ls,
	int cl, uint64_t *seed)
{
	uint64_t pos[POLY_MAX_LOOPS] = { 0 }, t;
	unsigned mask;
	int64_t n;
	int l, start;

	class_parts(s, cl, &mask, &start);
	for (;;) {
		for (l = 0; l < s->c->m->band; l++) {
			loop_set(ls, mask, l, &n);
			pos[l] = start && l >= s->inner ? 0 :
				draw(seed, (uint64_t) n);
		}
		t = tile_of(s->c, ls, mask, pos);
		if (tile_class(s, t) == cl &&
		    !taken(s, t))
			return t;
	}
}

/* The windows of this round: every class short of its target draws
 * tiles (or, when simulated whole, all of them).
 */
static int plan_round(struct sampling *s, const struct loop_sets *ls,
	uint64_t *seed)
{
	int cl, i;

	s->n_win = s->n_plan = 0;
	for (i = 0; i < s->n_active; i++)
		s->planned[s->active[i]] = s->k[s->active[i]];
	for (i = 0; i < s->n_active; i++) {
		cl = s->active[i];
		if (s->planned[cl] >= s->target[cl])
			continue;
		if (s->whole[cl]) {
			if (!enumerate_class(s, ls, cl))
				return 0;
			s->planned[cl] = s->count[cl];
			continue;
		}
		while (s->planned[cl] < s->target[cl])
			if (!add_draw(s, draw_tile(s, ls, cl, seed)))
				return 0;
	}
	return 1;
}

static void hook(void *arg, uint64_t tile, int64_t delta)
{
	struct sampling *s = arg;

	if (tile - s->win_a < s->n_rec)
		s->rec[tile - s->win_a] = delta;
	if (!in_context(s, s->win_a, tile) || is_measured(s, tile))
		return;

	s->meas[s->n_meas].tile = tile;
	s->meas[s->n_meas++].delta = delta;
}

/* The per-class sums of every measurement. */
static void class_stats(struct sampling *s)
{
	size_t i;
	int cl, j;

	for (j = 0; j < s->n_active; j++) {
		cl = s->active[j];
		s->k[cl] = 0;
		s->sum[cl] = s->sq[cl] = 0;
	}
	for (i = 0; i < s->n_meas; i++) {
		int64_t d = s->meas[i].delta;

		cl = tile_class(s, s->meas[i].tile);
		s->lo[cl] = s->k[cl] && s->lo[cl] < d ? s->lo[cl] : d;
		s->hi[cl] = s->k[cl] && s->hi[cl] > d ? s->hi[cl] : d;
		s->k[cl]++;
		s->sum[cl] += (double) d;
		s->sq[cl] += (double) d * (double) d;
	}
}

/* Makes both carries hold the state of a window and the cycles of "n"
 * tiles, in one block; 0 when out of memory.  Carries live within a
 * round, whose first call asks for the longest of its windows.
 */
static int carry_room(struct sampling *s, uint64_t n)
{
	size_t st = s->c->n_state;
	struct carry *cr;
	int64_t *mem;

	if (s->carry && s->carry[0].cap >= n)
		return 1;
	free(s->carry);
	s->carry = malloc(2 * sizeof(*cr) + sizeof(int64_t) * 2 * (st +
		(size_t) n));
	if (!s->carry)
		return 0;
	cr = s->carry;
	mem = (int64_t *) (cr + 2);
	cr[0].snap.mem = mem;
	cr[1].snap.mem = mem + st;
	cr[0].delta = mem + 2 * st;
	cr[1].delta = mem + 2 * st + n;
	cr[0].cap = cr[1].cap = (size_t) n;
	return 1;
}

/* Simulates window i, which runs its first "from" tiles as the window
 * before did (its state in carry "j"), and saves its state after its
 * first "to" tiles (0: none) into the other carry.  The tiles it takes
 * from the window before are measured from the cycles recorded there.
 */
static int64_t run_window(struct sampling *s, size_t i, uint64_t from,
	uint64_t to, int j)
{
	uint64_t a = s->win[i].a, b = s->win[i].b, k;
	struct carry *cr = s->carry;

	s->win_a = a;
	s->n_rec = to;
	s->rec = to ? cr[1 - j].delta : NULL;
	for (k = 0; k < from; k++)
		hook(s, a + k, cr[j].delta[k]);
	return sim__cyc_window_at(s->c, a, b, from ? &cr[j].snap : NULL,
		to ? &cr[1 - j].snap : NULL, to, hook, s);
}

/* Simulates this round's windows, merged where they touch, and adds
 * their measurements.  A window whose first tiles run as the window
 * before's (sim__cyc_alike: the same tile sizes and output tiles; the
 * windows of tiles in the same class often are) goes on from that
 * window's state after them instead of running them again.  The cycles
 * are the same; the tiles count as simulated.
 */
static int simulate_round(struct sampling *s)
{
	size_t i, n = 0;
	uint64_t span = 0, from = 0, most = 0;
	int j = 0;

	sort_windows(s->win, s->n_win);
	for (i = 1; i < s->n_win; i++) {
		if (s->win[i].a <= s->win[n].b + 1) {
			if (s->win[i].b > s->win[n].b)
				s->win[n].b = s->win[i].b;
		} else {
			s->win[++n] = s->win[i];
		}
	}
	s->n_win = n + 1;
	for (i = 0; i < s->n_win; i++) {
		span += s->win[i].b - s->win[i].a + 1;
		if (s->win[i].b - s->win[i].a > most)
			most = s->win[i].b - s->win[i].a;
	}
	if (!reserve((void **) &s->meas, &s->cap_meas, s->n_meas + span,
	    sizeof(*s->meas), s->meas_in))
		return 0;
	for (i = 0; i < s->n_win; i++) {
		uint64_t a = s->win[i].a, b = s->win[i].b, to = 0;
		int64_t end;

		/* The state after "to" tiles is saved while this window
		 * runs them, so not before the tiles it takes over.
		 */
		if (i + 1 < s->n_win)
			to = sim__cyc_alike(s->c, a, b, s->win[i + 1].a,
				s->win[i + 1].b);
		if (to < from)
			to = 0;
		if (to && !carry_room(s, most))
			return 0;
		end = run_window(s, i, from, to, j);
		if (b == s->last)
			s->tail = (double) (end - s->c->run.cend_last);
		s->simulated += b - a + 1;
		s->pe_cycles += (uint64_t) s->c->p.n_pe * (uint64_t) end;
		from = to;
		j = 1 - j;
	}
	s->n_rec = 0;
	sort_measures(s->meas, s->n_meas);
	s->n_old = s->n_meas;
	class_stats(s);
	return 1;
}

/* Whether the group of class "cl" is done: every class of it has
 * samples, enough of them, and all are equal.
 */
static int group_done(const struct sampling *s, int cl)
{
	uint64_t k = 0, n = 0, first = s->first;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int m[2], n_m = group_members(s, cl, m), i;

	for (i = 0; i < n_m; i++) {
		if (s->count[m[i]] == 0)
			continue;
		if (s->k[m[i]] == 0)
			return 0;
		k += s->k[m[i]];
		n += s->count[m[i]];
		lo = s->lo[m[i]] < lo ? s->lo[m[i]] : lo;
		hi = s->hi[m[i]] > hi ? s->hi[m[i]] : hi;
	}
	return lo == hi && k >= (n < first ? n : first);
}

/* The samples each class should have after round "round" (see the
 * comment at the top).
 */
static void set_targets(struct sampling *s, int round)
{
	uint64_t first = s->first;
	int cl, m[2], i;

	/* The empty classes keep their target, 0. */
	for (i = 0; i < s->n_active; i++) {
		uint64_t *t;

		cl = s->active[i];
		t = &s->target[cl];
		if (s->count[cl] == 0 || s->whole[cl])
			*t = s->count[cl];
		else if (round == 0)
			*t = group_members(s, cl, m) == 2 &&
				s->count[m[0]] && s->count[m[1]] ?
				(first + 1) / 2 : first;
		else if (group_done(s, cl))
			*t = s->k[cl];
		else if (s->k[cl] < first)
			*t = first;
		else
			*t = s->lo[cl] != s->hi[cl] ? s->want : s->k[cl];
	}
}

/* Whether the DRAM channel is busy for a good part of a tile's compute
 * (DRAM_SHARE of it or more, counting each output tile's drain once per
 * its tiles): then its backlog carries over many tiles, tile times vary
 * in patterns the classes do not capture, and two equal samples prove
 * little.
 */
static int dram_heavy(const struct cyc *c)
{
	double bytes = 0;
	int g, l;

	for (g = 0; g < c->n_in; g++)
		bytes += c->in[g].bytes;
	for (g = 0; g < c->n_out; g++) {
		double per = 1;

		for (l = 0; !c->m->out[g].every_tile && l < c->m->band; l++)
			if (!(c->m->out[g].loop_mask >> l & 1u))
				per *= (double) c->p.n[l];
		bytes += c->out[g].bytes / per;
	}
	return bytes / c->bpc >= DRAM_SHARE * (double) c->step;
}

/* Sets "out_run": on DRAM-heavy designs with double buffering, per
 * output group, the tiles of one of its output tiles (consecutive tiles,
 * those that differ only along the band loops after the innermost one
 * the group depends on).  Without double buffering a load waits for the
 * compute of the tile before it, the channel idles meanwhile and the
 * drains take their turns: the short warm-up holds what matters.
 */
static void set_out_run(struct sampling *s, int heavy)
{
	const struct cyc *c = s->c;
	int g, l;

	for (g = 0; heavy && g < c->n_out; g++) {
		uint64_t run = 1;

		for (l = c->m->band - 1; !c->m->out[g].every_tile && l >= 0 &&
		    !(c->m->out[g].loop_mask >> l & 1u); l--)
			run *= (uint64_t) c->p.n[l];
		s->out_run[g] = run;
		s->unit = run > s->unit ? run : s->unit;
	}
}

/* Sets the class counts and which classes are simulated whole. */
static void set_counts(struct sampling *s, const struct loop_sets *ls)
{
	int band = s->c->m->band, start, par, cl, i, n;
	unsigned mask, padded = ls->padded;
	uint64_t t;

	/* Only the boundary sets of loops that have padded tiles hold
	 * tiles; the others stay empty (as sampling_alloc left them).
	 * These are the classes that may hold tiles, in order: the first,
	 * the last, then by parity, start and boundary set (its subsets of
	 * "padded" in increasing order).
	 */
	s->active[s->n_active++] = 0;
	s->active[s->n_active++] = 1;
	for (par = 0; par < 2; par++)
		for (start = 0; start < 2; start++)
			for (mask = 0;; mask = (mask - padded) & padded) {
				cl = 2 + (int) (mask + ((unsigned) start <<
					band) + ((unsigned) par << (band + 1)));
				s->count[cl] = class_size(s, ls, mask, start,
					par);
				s->active[s->n_active++] = cl;
				if (mask == padded)
					break;
			}
	/* The first and last tiles are classes of their own. */
	for (t = 0; t < s->head; t++)
		s->count[class_of(s, t)]--;
	s->count[0] = s->head;
	if (s->last > 0) {
		s->count[class_of(s, s->last)]--;
		s->count[1] = 1;
	}
	/* Of those, the ones that hold tiles, and the groups that do.
	 * "whole" is read for these only.
	 */
	for (i = 0, n = s->n_active, s->n_active = 0; i < n; i++) {
		int m[2];

		cl = s->active[i];
		s->whole[cl] = cl < 2 || s->count[cl] <= s->want;
		group_members(s, cl, m);
		if (m[0] == cl && (s->count[cl] > 0 ||
		    (cl >= 2 && s->phases && s->count[m[1]] > 0)))
			s->leader[s->n_leader++] = cl;
		if (s->count[cl] > 0)
			s->active[s->n_active++] = cl;
	}
}

/* The estimate and its variance as strata are added. */
struct tally {
	double est, var, dfd;
};

/* Adds a stratum of "n" tiles of which "k" were measured, with the sum
 * and sum of squares of their cycles.
 */
static void add_stratum(struct tally *y, double n, double k, double sum,
	double sq)
{
	double mean, s2, v;

	if (n == 0 || k == 0)
		return;
	if (k >= n) {
		y->est += sum;
		return;
	}
	mean = sum / k;
	y->est += n * mean;
	s2 = k > 1 ? (sq - k * mean * mean) / (k - 1) : 0;
	/* A sample of equal values does not prove a class has no spread:
	 * below the resolution RESOLUTION of its mean it is taken as that.
	 */
	if (s2 < RESOLUTION * RESOLUTION * mean * mean)
		s2 = RESOLUTION * RESOLUTION * mean * mean;
	v = n * n * s2 / k * (1 - k / n);
	y->var += v;
	if (k > 1)
		y->dfd += v * v / (k - 1);
}

/* Adds the group of class "cl": pooled when it is done (its parities
 * cost the same), else class by class.  A class left without samples
 * (only when memory ran short) takes the mean of its group.
 */
static void add_group(const struct sampling *s, int cl, struct tally *y)
{
	double n = 0, k = 0, sum = 0, sq = 0;
	int m[2], n_m = group_members(s, cl, m), i;

	for (i = 0; i < n_m; i++) {
		n += (double) s->count[m[i]];
		k += (double) s->k[m[i]];
		sum += s->sum[m[i]];
		sq += s->sq[m[i]];
	}
	if (group_done(s, cl)) {
		add_stratum(y, n, k, sum, sq);
		return;
	}
	for (i = 0; i < n_m; i++) {
		double ni = (double) s->count[m[i]];

		if (s->k[m[i]] > 0)
			add_stratum(y, ni, (double) s->k[m[i]], s->sum[m[i]],
				s->sq[m[i]]);
		else if (ni > 0 && k > 0)
			add_stratum(y, ni, 1, sum / k, sum / k * sum / k);
	}
}

/* The estimate and its interval from the class sums. */
static void estimate(const struct sampling *s, double conf,
	sim_cycle_report *out)
{
	struct tally y = { s->tail, 0, 0 };
	double half = 0;
	int i;

	/* The groups with tiles, in order (the others add nothing). */
	for (i = 0; i < s->n_leader; i++)
		add_group(s, s->leader[i], &y);
	if (y.var > 0) {
		double df = y.dfd > 0 ? y.var * y.var / y.dfd : 1;

		half = sim_t_quantile(0.5 + conf / 2, df < 1 ? 1 : df) *
			sqrt(y.var);
	}
	out->metrics.cycles = (uint64_t) llround(y.est);
	out->cycles_low = y.est - half;
	out->cycles_high = y.est + half;
}

/* Allocates the per-class arrays, in one block (eight arrays of 8-byte
 * members, then the flags); 0 when out of memory.
 */
static int sampling_alloc(struct sampling *s)
{
	size_t n = (size_t) s->n_class;
	uint64_t *block = calloc(9 * n + n / 8 + 1, sizeof(uint64_t));

	s->meas = s->meas_in;
	s->win = s->win_in;
	s->plan = s->plan_in;
	s->cap_meas = s->cap_win = s->cap_plan = INLINE_N;
	if (!block)
		return 0;
	s->count = block;
	s->target = block + n;
	s->planned = block + 2 * n;
	s->k = block + 3 * n;
	s->sum = (double *) (block + 4 * n);
	s->sq = (double *) (block + 5 * n);
	s->lo = (int64_t *) (block + 6 * n);
	s->hi = (int64_t *) (block + 7 * n);
	s->active = (int *) (block + 8 * n);
	s->leader = s->active + n;
	s->whole = (unsigned char *) (block + 9 * n);
	return 1;
}

static void sampling_free(struct sampling *s)
{
	free(s->count);
	if (s->meas != s->meas_in)
		free(s->meas);
	if (s->win != s->win_in)
		free(s->win);
	if (s->plan != s->plan_in)
		free(s->plan);
	free(s->carry);
}

/* The rounds of sequential sampling; 0 when out of memory. */
static int sample(struct sampling *s, const struct loop_sets *ls)
{
	uint64_t seed = s->c->o.seed;
	int round;

	set_counts(s, ls);
	for (round = 0; round < MAX_ROUNDS; round++) {
		set_targets(s, round);
		if (!plan_round(s, ls, &seed))
			return 0;
		if (s->n_win == 0)
			break;
		if (!simulate_round(s))
			return 0;
	}
	return 1;
}

int sim__cyc_sampled(struct cyc *c, sim_cycle_report *out)
{
	struct sampling s;
	struct loop_sets ls;
	double conf = c->o.confidence > 0 && c->o.confidence < 1 ?
		c->o.confidence : 0.95;
	int ok;

	/* Not the inline arrays at the end, which need no zeros. */
	memset(&s, 0, offsetof(struct sampling, meas_in));
	ls.block = NULL;
	s.c = c;
	c->fast = 1;
	s.last = c->n_tiles - 1;
	s.want = c->o.samples > 0 ? (uint64_t) c->o.samples : 4;
	s.warmup = c->p.db ? WARMUP_DB : WARMUP;
	s.first = dram_heavy(c) ? s.want : FIRST_SAMPLES;
	set_out_run(&s, c->p.db && dram_heavy(c));
	s.head = 1;
	while (s.unit && s.head < s.last && window_start(&s, s.head) == 0)
		s.head++;
	s.first = s.first < s.want ? s.first : s.want;
	s.n_class = 2 + (4 << c->m->band);
	set_split(&s);
	s.ls = &ls;
	ok = sampling_alloc(&s) && loop_sets_build(c, &ls) && sample(&s, &ls);
	if (ok) {
		estimate(&s, conf, out);
		out->metrics.latency_s = (double) out->metrics.cycles /
			(out->metrics.mhz * 1e6);
		out->metrics.gops = c->m->ops / out->metrics.latency_s / 1e9;
		out->metrics.edp = out->metrics.energy_j *
			out->metrics.latency_s;
		out->tiles_simulated = s.simulated;
		out->fraction = (double) s.simulated / (double) c->n_tiles;
		out->pe_cycles = s.pe_cycles;
		out->pe_utilisation = (double) c->p.comp *
			(double) c->n_tiles / (double) out->metrics.cycles;
		sim__cyc_modules(c, out);
	}
	loop_sets_free(&ls);
	sampling_free(&s);
	return ok;
}
