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
 * tile.  The model draws "samples" tiles of each class (all of a class
 * that has no more), simulates each in context, that is after the WARMUP
 * or so tiles before it (whose loads overlap its compute and whose drains
 * share its DRAM channel), merging windows that touch, and records the
 * cycles PE (0, 0) advanced on it.
 *
 * With double buffering the steady state is a cycle of two tiles, not
 * one: the load of tile t+1 may start when tile t-1 is done, so a long
 * step may be followed by a short one (the crossbar's alternation between
 * unicast and multicast groups does the same).  Which tiles are the long
 * ones is set by where the run started: the full run starts cold at tile
 * 0, so the even tiles are in one phase and the odd ones in the other.
 * Hence a window, which also starts cold, starts at an even tile, so that
 * its sampled tile is in the phase it has in the full run (a window that
 * always started WARMUP tiles before its sampled tile would always measure
 * the same phase, and a class mean would be the long or the short step
 * instead of their average); and on such designs the parity of a tile is
 * part of its class, so that a handful of samples need not balance the
 * two phases by luck.
 *
 * The
 * estimate is the sum over classes of the class count times the sample
 * mean (the exact sum for a class sampled whole), plus the tail after the
 * last tile; its interval is Student's t on the stratified variance with
 * the finite-population correction and Welch-Satterthwaite's degrees of
 * freedom, so a class sampled whole adds no uncertainty.  When every tile
 * is drawn the windows merge into one from tile 0, which is the full
 * simulation, and the estimate equals it.
 *
 * The draws use a local splitmix64 generator seeded from the options, so
 * the same seed gives the same tiles and the same estimate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cycle_internal.h"

/* Tiles simulated before a sampled one, at least (see window_start). */
#define WARMUP 2

/* The smallest relative spread assumed within a class that is sampled,
 * not sampled whole: arbitration phases make tile times differ by a few
 * cycles in patterns a handful of samples can miss.
 */
#define RESOLUTION 0.002

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
 * that are padded (boundary), for drawing a tile of a class directly.
 */
struct loop_sets {
	int64_t *whole[POLY_MAX_LOOPS], *pad[POLY_MAX_LOOPS];
	int64_t n_whole[POLY_MAX_LOOPS], n_pad[POLY_MAX_LOOPS];
};

static int loop_sets_build(const struct cyc *c, struct loop_sets *ls)
{
	int64_t idx[POLY_MAX_LOOPS] = { 0 }, clip[POLY_MAX_LOOPS], i;
	int l;

	memset(ls, 0, sizeof(*ls));
	for (l = 0; l < c->m->band; l++) {
		ls->whole[l] = malloc(sizeof(int64_t) * (size_t) c->p.n[l]);
		ls->pad[l] = malloc(sizeof(int64_t) * (size_t) c->p.n[l]);
		if (!ls->whole[l] || !ls->pad[l])
			return 0;
		for (i = 0; i < c->p.n[l]; i++) {
			idx[l] = i;
			sim__cyc_clip(c, idx, clip);
			if (clip[l] < c->p.t1[l])
				ls->pad[l][ls->n_pad[l]++] = i;
			else
				ls->whole[l][ls->n_whole[l]++] = i;
		}
		idx[l] = 0;
	}
	return 1;
}

static void loop_sets_free(struct loop_sets *ls)
{
	int l;

	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		free(ls->whole[l]);
		free(ls->pad[l]);
	}
}

/* The boundary set (class mask) of a tile. */
static unsigned tile_mask(const struct cyc *c, uint64_t t)
{
	int64_t idx[POLY_MAX_LOOPS] = { 0 }, clip[POLY_MAX_LOOPS];
	unsigned mask = 0;
	int l;

	for (l = c->m->band - 1; l >= 0; l--) {
		idx[l] = (int64_t) (t % (uint64_t) c->p.n[l]);
		t /= (uint64_t) c->p.n[l];
	}
	sim__cyc_clip(c, idx, clip);
	for (l = 0; l < c->m->band; l++)
		if (clip[l] < c->p.t1[l])
			mask |= 1u << l;
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

/* What the sampling collects. */
struct sampling {
	uint64_t *tiles;	/* drawn, sorted */
	size_t n, cap;
	/* Per class: count, sampled deltas' sum and sum of squares. */
	int n_class;
	uint64_t *count, *k;
	double *sum, *sq;
	const struct cyc *c;
	uint64_t last;
	/* A tile starts an output tile when its index is 0 along every
	 * band loop from "inner" on (the loops no output depends on);
	 * "split" says whether that divides the classes at all.
	 */
	int inner, split;
	int phases;		/* split by the parity of the tile */
	size_t next;		/* the next drawn tile the hook expects */
	int64_t tail_delta;
};

static int add_tile(struct sampling *s, uint64_t t)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		uint64_t *p = realloc(s->tiles, cap * sizeof(*p));

		if (!p)
			return 0;
		s->tiles = p;
		s->cap = cap;
	}
	s->tiles[s->n++] = t;
	return 1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* Whether tile "t" starts an output tile (for the class split). */
static int tile_starts(const struct sampling *s, uint64_t t)
{
	int l;

	if (!s->split)
		return 0;
	for (l = s->c->m->band - 1; l >= s->inner; l--) {
		if (t % (uint64_t) s->c->p.n[l])
			return 0;
		t /= (uint64_t) s->c->p.n[l];
	}
	return 1;
}

/* The class of a tile by its boundary set, output start and phase. */
static int class_of(const struct sampling *s, uint64_t t)
{
	int band = s->c->m->band;

	return 2 + (int) tile_mask(s->c, t) + (tile_starts(s, t) << band) +
		((s->phases ? (int) (t % 2) : 0) << (band + 1));
}

/* Class of a tile: 0 the first, 1 the last, else class_of. */
static int tile_class(const struct sampling *s, uint64_t t)
{
	return t == 0 ? 0 : t == s->last ? 1 : class_of(s, t);
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
	int64_t n, i;
	int l;

	for (l = s->c->m->band - 1; l >= 0; l--) {
		const int64_t *set = loop_set(ls, mask, l, &n);
		uint64_t a0 = all[0], s0 = st[0];

		for (odd = 0, i = 0; stride % 2 && i < n; i++)
			odd += (uint64_t) (set[i] % 2);
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

/* Draws the tiles of boundary set "mask" and output start "start": all
 * when there are at most "want" (and the first and last tiles), else
 * "want" distinct ones.  The first and last tiles are their own classes
 * and never drawn here.
 */
static int draw_class(struct sampling *s, const struct loop_sets *ls,
	unsigned mask, int start, int par, uint64_t want, uint64_t *seed)
{
	const struct cyc *c = s->c;
	uint64_t pos[POLY_MAX_LOOPS] = { 0 }, got = 0, i, t, total = 1;
	uint64_t size = class_size(s, ls, mask, start, par);
	int cl = 2 + (int) mask + (start << c->m->band) +
		(par << (c->m->band + 1));
	size_t from = s->n, j;
	int64_t n;
	int l;

	if (size == 0)
		return 1;
	/* A small class is enumerated: its tiles are at least a third of
	 * the product enumerated (the starting ones have index 0 along the
	 * inner loops, and the index sets are runs of consecutive indices,
	 * about half of them odd).
	 */
	for (l = 0; l < c->m->band; l++) {
		loop_set(ls, mask, l, &n);
		total *= start && l >= s->inner ? 1 : (uint64_t) n;
	}
	if (size <= want + 2) {
		for (i = 0; i < total; i++) {
			uint64_t r = i;

			for (l = c->m->band - 1; l >= 0; l--) {
				loop_set(ls, mask, l, &n);
				n = start && l >= s->inner ? 1 : n;
				pos[l] = r % (uint64_t) n;
				r /= (uint64_t) n;
			}
			t = tile_of(c, ls, mask, pos);
			if (t != 0 && t != s->last && class_of(s, t) == cl &&
			    !add_tile(s, t))
				return 0;
		}
		return 1;
	}
	/* More than want + 2 tiles: a class holds a good share of the
	 * product drawn from (see above), so rejecting the others ends
	 * quickly.
	 */
	while (got < want) {
		for (l = 0; l < c->m->band; l++) {
			loop_set(ls, mask, l, &n);
			pos[l] = start && l >= s->inner ? 0 :
				draw(seed, (uint64_t) n);
		}
		t = tile_of(c, ls, mask, pos);
		if (t == 0 || t == s->last || class_of(s, t) != cl)
			continue;
		for (j = from; j < s->n && s->tiles[j] != t; j++)
			;
		if (j < s->n)
			continue;
		if (!add_tile(s, t))
			return 0;
		got++;
	}
	return 1;
}

static void hook(void *arg, uint64_t tile, int64_t delta)
{
	struct sampling *s = arg;
	int cl;

	if (s->next >= s->n || s->tiles[s->next] != tile)
		return;
	s->next++;
	cl = tile_class(s, tile);
	s->k[cl]++;
	s->sum[cl] += (double) delta;
	s->sq[cl] += (double) delta * (double) delta;
}

/* The standard normal quantile (Acklam's rational approximation, relative
 * error below 1.2e-9).
 */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double cc[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((cc[0] * q + cc[1]) * q + cc[2]) * q + cc[3]) * q +
			cc[4]) * q + cc[5]) / ((((d[0] * q + d[1]) * q +
			d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -normal_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r +
		a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r +
		b[4]) * r + 1);
}

/* Student's t quantile: exact for 1 and 2 degrees of freedom, else the
 * Cornish-Fisher expansion around the normal quantile (within 1e-3 for 3
 * and more).
 */
static double t_quantile(double p, double df)
{
	double z, z2, a;

	if (df < 1.5) {
		return tan(3.14159265358979323846 * (p - 0.5));
	}
	if (df < 2.5) {
		a = 2 * p - 1;
		return a * sqrt(2.0 / (1 - a * a));
	}
	z = normal_quantile(p);
	z2 = z * z;
	return z + z * (z2 + 1) / (4 * df) +
		z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df) +
		z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * df * df * df) +
		z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) /
		(92160 * df * df * df * df);
}

/* The estimate and its interval from the class sums. */
static void estimate(const struct sampling *s, double conf, double tail,
	sim_cycle_report *out)
{
	double est = tail, var = 0, dfd = 0, half = 0;
	int cl;

	for (cl = 0; cl < s->n_class; cl++) {
		double n = (double) s->count[cl], k = (double) s->k[cl], mean,
			s2, v;

		if (s->count[cl] == 0 || s->k[cl] == 0)
			continue;
		if (s->k[cl] >= s->count[cl]) {
			est += s->sum[cl];
			continue;
		}
		mean = s->sum[cl] / k;
		est += n * mean;
		s2 = k > 1 ? (s->sq[cl] - k * mean * mean) / (k - 1) : 0;
		/* A sample of equal values does not prove a class has no
		 * spread: below the resolution RESOLUTION of its mean it is
		 * taken as that.
		 */
		if (s2 < RESOLUTION * RESOLUTION * mean * mean)
			s2 = RESOLUTION * RESOLUTION * mean * mean;
		v = n * n * s2 / k * (1 - k / n);
		var += v;
		if (k > 1)
			dfd += v * v / (k - 1);
	}
	if (var > 0) {
		double df = dfd > 0 ? var * var / dfd : 1;

		half = t_quantile(0.5 + conf / 2, df < 1 ? 1 : df) *
			sqrt(var);
	}
	out->metrics.cycles = (uint64_t) llround(est);
	out->cycles_low = est - half;
	out->cycles_high = est + half;
}

/* Draws the tiles of every class and sets the class counts. */
static int draw_all(struct sampling *s, const struct loop_sets *ls,
	uint64_t want, uint64_t seed)
{
	unsigned mask;
	int band = s->c->m->band, start, par;

	if (!add_tile(s, 0) || (s->last > 0 && !add_tile(s, s->last)))
		return 0;
	for (par = 0; par < 2; par++)
		for (start = 0; start < 2; start++)
			for (mask = 0; mask < (1u << band); mask++) {
				if (!draw_class(s, ls, mask, start, par, want,
				    &seed))
					return 0;
				s->count[2 + mask + ((unsigned) start << band) +
					((unsigned) par << (band + 1))] =
					class_size(s, ls, mask, start, par);
			}
	qsort(s->tiles, s->n, sizeof(*s->tiles), cmp_u64);
	/* The first and last tiles are classes of their own. */
	s->count[class_of(s, 0)]--;
	s->count[0] = 1;
	if (s->last > 0) {
		s->count[class_of(s, s->last)]--;
		s->count[1] = 1;
	}
	return 1;
}

/* Where the window of sampled tile "t" starts: WARMUP tiles before it or
 * one more, at an even tile (see the comment at the top).
 */
static uint64_t window_start(uint64_t t)
{
	uint64_t a = t > WARMUP ? t - WARMUP : 0;

	return a - a % 2;
}

int sim__cyc_sampled(struct cyc *c, sim_cycle_report *out)
{
	struct sampling s;
	struct loop_sets ls;
	uint64_t want = c->o.samples > 0 ? (uint64_t) c->o.samples : 4;
	double conf = c->o.confidence > 0 && c->o.confidence < 1 ?
		c->o.confidence : 0.95, tail = 0;
	uint64_t simulated = 0, pe_cycles = 0;
	size_t i = 0;
	int ok;

	memset(&s, 0, sizeof(s));
	memset(&ls, 0, sizeof(ls));
	s.c = c;
	s.last = c->n_tiles - 1;
	s.n_class = 2 + (4 << c->m->band);
	set_split(&s);
	s.count = calloc((size_t) s.n_class, sizeof(uint64_t));
	s.k = calloc((size_t) s.n_class, sizeof(uint64_t));
	s.sum = calloc((size_t) s.n_class, sizeof(double));
	s.sq = calloc((size_t) s.n_class, sizeof(double));
	ok = s.count && s.k && s.sum && s.sq && loop_sets_build(c, &ls) &&
		draw_all(&s, &ls, want, c->o.seed);
	/* Windows: each drawn tile after its warm-up, merged when they
	 * touch.
	 */
	while (ok && i < s.n) {
		uint64_t a = window_start(s.tiles[i]), b = s.tiles[i];
		int64_t end;

		while (i + 1 < s.n && window_start(s.tiles[i + 1]) <= b + 1)
			b = s.tiles[++i];
		i++;
		s.next = i;
		while (s.next > 0 && s.tiles[s.next - 1] >= a)
			s.next--;
		end = sim__cyc_window(c, a, b, hook, &s);
		if (b == s.last)
			tail = (double) (end - c->run.cend_last);
		simulated += b - a + 1;
		pe_cycles += (uint64_t) c->p.n_pe * (uint64_t) end;
	}
	if (ok) {
		estimate(&s, conf, tail, out);
		out->metrics.latency_s = (double) out->metrics.cycles /
			(out->metrics.mhz * 1e6);
		out->metrics.gops = c->m->ops / out->metrics.latency_s / 1e9;
		out->metrics.edp = out->metrics.energy_j *
			out->metrics.latency_s;
		out->tiles_simulated = simulated;
		out->fraction = (double) simulated / (double) c->n_tiles;
		out->pe_cycles = pe_cycles;
		out->pe_utilisation = (double) c->p.comp *
			(double) c->n_tiles / (double) out->metrics.cycles;
		sim__cyc_modules(c, out);
	}
	loop_sets_free(&ls);
	free(s.tiles);
	free(s.count);
	free(s.k);
	free(s.sum);
	free(s.sq);
	return ok;
}
