/* Tests of sim_bound, the lower bounds of the resources that let a sweep
 * skip points without evaluating them.  Run as "test_bound <group>"; the
 * groups are listed in main().
 *
 * The property the sweep relies on: for every point, legal or not, no
 * bound is above what sim_eval reports; for legal points the DSP bound is
 * exact and the LUT and FF bounds positive, and for illegal knobs the
 * status is sim_eval's.  It is checked over every point of spaces of a
 * few 10^4 points of the example kernels of configs/ (mm, conv, mttkrp,
 * fir, ttmc), built through the polyhedral front end as a config builds
 * them, with the knobs' options on and off, and on random knob values far
 * outside any space (zero, negative, huge) that must not crash.
 *
 * The bounds over boxes of knob values (sim_bound_box) that let a sweep
 * skip whole sub-ranges, and the status a prefix of knobs decides
 * (sim_prefix_status), are checked on random nodes of the same spaces.
 *
 * "test_bound speed" (not run by ctest) prints the time of sim_bound and
 * sim_eval on the configs' own spaces and the share of points a DSP
 * constraint of a quarter of the board prunes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/util.h"
#include "sim/sim.h"
#include "tests/support/mm_kernel.h"


/* The most values a knob list holds here. */
#define MAX_VALUES 64

/* One model: a kernel of mm_kernel.h with its parameters, data type,
 * board and knob options, and the most points of its test space.
 */
struct bound_case {
	const char *kernel;
	int64_t params[POLY_MAX_PARAMS];
	const char *dtype;
	const char *board;
	sim_options opt;
	uint64_t max_points;
};

/* A space: per knob a list of values, enumerated as a mixed-radix
 * counter.
 */
struct space {
	int n;
	int nv[SIM_MAX_KNOBS];
	int32_t v[SIM_MAX_KNOBS][MAX_VALUES];
};

static sim_model *build_model(const struct bound_case *c, poly_template *t)
{
	const example_kernel *k = example_kernel_find(c->kernel);
	poly_kernel_desc desc;
	dse_error err;
	sim_model *m;

	assert_non_null(k);
	desc = example_kernel_desc(k, c->params);
	dse_error_clear(&err);
	if (poly_template_build(&desc, -1, t, &err))
		fail_msg("%s: %s", c->kernel, err.msg);
	m = sim_model_alloc(t, arch_board_find(c->board),
		arch_dtype_find(c->dtype), &c->opt, &err);
	if (!m)
		fail_msg("%s: %s", c->kernel, err.msg);
	return m;
}

static void push(struct space *s, int k, int64_t value)
{
	if (s->nv[k] < MAX_VALUES)
		s->v[k][s->nv[k]++] = (int32_t) value;
}

static uint64_t space_size(const struct space *s)
{
	uint64_t size = 1;
	int k;

	for (k = 0; k < s->n; k++)
		size *= (uint64_t) s->nv[k];
	return size;
}

/* The test space of a model: every divisor of the loop for array_part and
 * array_part_L2, with one tile that does not divide it (legal, padded);
 * latency and simd 1, 2, 3, 4 and 8, so that some values do not divide
 * their tile; both values of io_network and double_buffer.  Then, while
 * the space is above "max_points", the longest list loses its middle
 * value (the smallest and largest stay).
 */
static void test_space(const sim_model *m, const poly_template *t,
	uint64_t max_points, struct space *s)
{
	static const int32_t small[] = { 1, 2, 3, 4, 8 };
	int k;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = sim_model_n_knobs(m);
	for (k = 0; k < s->n; k++) {
		const char *kind = sim_model_knob_kind(m, k);
		int loop = sim_model_knob_loop(m, k);
		int64_t e = loop >= 0 ? t->extent[loop] : 0, d;

		if (!strncmp(kind, "array_part", 10)) {
			for (d = 1; d <= e; d++)
				if (e % d == 0)
					push(s, k, d);
			if (e > 2 && e % (e - 1) != 0 && kind[10] == '\0')
				push(s, k, e - 1);
		} else if (loop >= 0) {
			for (i = 0; i < DSE_N_OF(small); i++)
				push(s, k, small[i]);
		} else {
			push(s, k, 0);
			push(s, k, 1);
		}
	}
	while (space_size(s) > max_points) {
		int longest = 0;

		for (k = 1; k < s->n; k++)
			if (s->nv[k] > s->nv[longest])
				longest = k;
		if (s->nv[longest] <= 2)
			break;
		memmove(&s->v[longest][s->nv[longest] / 2],
			&s->v[longest][s->nv[longest] / 2 + 1],
			(size_t) (s->nv[longest] - s->nv[longest] / 2 - 1) *
			sizeof(int32_t));
		s->nv[longest]--;
	}
}

static void decode(const struct space *s, uint64_t idx, int32_t *knobs)
{
	int k;

	for (k = s->n - 1; k >= 0; k--) {
		knobs[k] = s->v[k][idx % (uint64_t) s->nv[k]];
		idx /= (uint64_t) s->nv[k];
	}
}

/* What one point must satisfy; returns whether it is legal. */
static int check_point(const sim_model *m, const int32_t *knobs,
	const char *what)
{
	sim_metrics e, b;

	sim_eval(m, knobs, &e);
	sim_bound(m, knobs, &b);
	/* Only the resources and the status may be set. */
	if (b.cycles || b.latency_s != 0 || b.gops != 0 || b.n_pe ||
	    b.offchip_bytes || b.energy_j != 0 || b.edp != 0 || b.mhz != 0 ||
	    b.pe_rows || b.pe_cols || b.ii)
		fail_msg("%s: a bound of a metric that is not a resource",
			what);
	if (b.status != SIM_OK) {
		/* The knobs are illegal: the same status, no bound. */
		if (e.status != b.status || b.dsp || b.lut || b.ff ||
		    b.bram18k || b.uram)
			fail_msg("%s: bound status %d, eval status %d", what,
				b.status, e.status);
		return 0;
	}
	if (e.status != SIM_OK) {
		/* Only sizes beyond 64 bits pass the knob checks. */
		if (e.status != SIM_TOO_LARGE)
			fail_msg("%s: bound legal, eval status %d", what,
				e.status);
		return 0;
	}
	if (b.dsp != e.dsp || b.lut <= 0 || b.lut > e.lut || b.ff <= 0 ||
	    b.ff > e.ff)
		fail_msg("%s: dsp/lut/ff bound %lld/%lld/%lld, eval "
			"%lld/%lld/%lld", what, (long long) b.dsp,
			(long long) b.lut, (long long) b.ff,
			(long long) e.dsp, (long long) e.lut,
			(long long) e.ff);
	if (b.bram18k < 0 || b.bram18k > e.bram18k || b.uram < 0 ||
	    b.uram > e.uram)
		fail_msg("%s: bram18k/uram bound %lld/%lld, eval %lld/%lld",
			what, (long long) b.bram18k, (long long) b.uram,
			(long long) e.bram18k, (long long) e.uram);
	return 1;
}

/* Small kernels, so that every knob list is complete or nearly; the
 * options, data types and boards vary from row to row (ultra96-v2 has no
 * URAM; packed int8 puts two multiplies in a DSP, so a PE's DSP count is
 * rounded up), and so do the code-generation options: DSP packing,
 * buffers at DRAM in URAM, AutoSA's data packing bounds.
 */
static const struct bound_case cases[] = {
	{ "mm", { 32, 24, 16 }, "fp32", "u250",
		{ 0, 0, 0, 0, 0, { 0, 0, 0 } }, 40000 },
	{ "mm", { 24, 20, 12 }, "int8", "u250",
		{ 1, 1, 1, 1, 1, { 32, 32, 64 } }, 40000 },
	{ "mm", { 256, 256, 256 }, "fp16", "ultra96-v2",
		{ 0, 1, 0, 0, 0, { 0, 0, 0 } }, 40000 },
	{ "mm", { 1024, 1024, 1024 }, "fp32", "u250",
		{ 1, 0, 1, 0, 1, { 16, 64, 64 } }, 40000 },
	{ "mm", { 64, 48, 32 }, "int32", "u250",
		{ 1, 1, 1, 0, 0, { 4, 8, 16 } }, 40000 },
	{ "conv", { 64, 32, 28, 28, 3, 3 }, "fp32", "u250",
		{ 0, 0, 0, 0, 0, { 0, 0, 0 } }, 40000 },
	{ "conv", { 8, 4, 6, 6, 3, 3 }, "fp32", "u250",
		{ 0, 1, 1, 0, 0, { 0, 0, 0 } }, 40000 },
	{ "mttkrp", { 16, 8, 8, 4 }, "fp32", "u250",
		{ 1, 0, 1, 0, 1, { 0, 0, 0 } }, 40000 },
	{ "fir", { 720, 16 }, "int16", "u250",
		{ 0, 1, 1, 0, 0, { 32, 32, 64 } }, 40000 },
	{ "ttmc", { 8, 8, 4, 4, 4 }, "fp32", "u250",
		{ 0, 0, 1, 0, 0, { 0, 0, 0 } }, 40000 },
	{ "ttmc", { 8, 6, 4, 4, 2 }, "int8", "ultra96-v2",
		{ 0, 1, 0, 1, 0, { 0, 0, 0 } }, 40000 },
};

/* Every point of each case's space. */
static void test_property(void **state)
{
	uint64_t with_bram = 0, with_uram = 0;
	size_t c;

	(void) state;
	for (c = 0; c < DSE_N_OF(cases); c++) {
		poly_template t;
		sim_model *m = build_model(&cases[c], &t);
		struct space s;
		uint64_t idx, size, legal = 0;
		int32_t knobs[SIM_MAX_KNOBS];
		char what[64];

		test_space(m, &t, cases[c].max_points, &s);
		size = space_size(&s);
		assert_true(size >= 1000);
		for (idx = 0; idx < size; idx++) {
			decode(&s, idx, knobs);
			snprintf(what, sizeof(what), "%s case %zu point %llu",
				cases[c].kernel, c, (unsigned long long) idx);
			if (check_point(m, knobs, what)) {
				sim_metrics e;

				sim_eval(m, knobs, &e);
				legal++;
				with_bram += e.bram18k > 0;
				with_uram += e.uram > 0;
			}
		}
		/* The property must have been exercised on legal points and
		 * on illegal ones.
		 */
		if (legal < 200 || legal == size)
			fail_msg("%s case %zu: %llu legal of %llu points",
				cases[c].kernel, c, (unsigned long long) legal,
				(unsigned long long) size);
		sim_model_free(m);
	}
	/* The BRAM18K and URAM bounds were compared with non-zero counts. */
	assert_true(with_bram > 1000 && with_uram > 50);
}

/* Random knob values, mostly outside any space: zero, negative, the
 * largest int32, the loop's extent and one beyond, small odd values.
 */
static void test_garbage(void **state)
{
	size_t c;
	uint64_t seed = 7;

	(void) state;
	for (c = 0; c < DSE_N_OF(cases); c++) {
		poly_template t;
		sim_model *m = build_model(&cases[c], &t);
		int n = sim_model_n_knobs(m), i, k;
		int32_t knobs[SIM_MAX_KNOBS];
		char what[64];

		for (i = 0; i < 5000; i++) {
			for (k = 0; k < n; k++) {
				int loop = sim_model_knob_loop(m, k);
				int64_t e = loop >= 0 ? t.extent[loop] : 1;
				int64_t pick[8] = { -1, 0, 1, 2, 3, e, e + 1,
					INT32_MAX };

				seed = seed * 6364136223846793005ULL +
					1442695040888963407ULL;
				knobs[k] = (int32_t) pick[(seed >> 33) % 8];
			}
			snprintf(what, sizeof(what), "%s case %zu garbage %d",
				cases[c].kernel, c, i);
			check_point(m, knobs, what);
		}
		sim_model_free(m);
	}
}

/* Hand-worked points of a 64^3 matrix multiply (space loops i and j, both
 * latency loops; simd on k; ops 2 = one multiplier and one adder a lane):
 * PEs = T1/L per space loop; DSP = PEs x ceil(S x DSP of the multiplier /
 * multiplies per DSP) + PEs x S x DSP of the adder (fp32 3 + 2, int8 1 + 0,
 * two multiplies a DSP when packed); the LUT bound PEs x (200 + S x lane
 * LUT) and the FF bound PEs x (300 + S x lane FF) (the PEs alone, below
 * sim_eval's count, which adds the I/O network): fp32 lanes 350 LUT and
 * 500 FF, int8 lanes 20 LUT and 40 FF; the BRAM18K bound the PEs'
 * accumulators local_C[L_i][L_j] of 32-bit (fp32) or 8-bit (int8) words,
 * in registers up to 8 words (AutoSA's rule), else one BRAM18K each.
 */
static void test_hand(void **state)
{
	static const struct {
		const char *dtype;
		int packing;
		int32_t knobs[6];	/* T1 i j k, L i j, S */
		int64_t dsp, lut, ff, bram;
	} rows[] = {
		/* 4 x 4 PEs, 4 lanes: 16 x 4 x 5; 16 x 1600; 16 x 2300;
		 * 2 x 2 accumulators in registers.
		 */
		{ "fp32", 0, { 8, 8, 8, 2, 2, 4 }, 320, 25600, 36800, 0 },
		/* 3 x 3 PEs, 1 lane of int8: 9 x 1; 9 x 220; 9 x 340. */
		{ "int8", 0, { 3, 3, 8, 1, 1, 1 }, 9, 1980, 3060, 0 },
		/* Packed, one lane still takes a whole DSP: 9 x ceil(1/2). */
		{ "int8", 1, { 3, 3, 8, 1, 1, 1 }, 9, 1980, 3060, 0 },
		/* 4 x 4 PEs, 4 lanes packed two to a DSP: 16 x 2 (64 without
		 * packing); accumulators of 16 words in one BRAM18K each.
		 */
		{ "int8", 1, { 16, 16, 8, 4, 4, 4 }, 32, 4480, 7360, 16 },
		{ "int8", 0, { 16, 16, 8, 4, 4, 4 }, 64, 4480, 7360, 16 },
		/* 64 x 1 PEs (T1 64 and L 1 on i; 4 / 4 on j), 8 lanes:
		 * 64 x 8 x 5; 64 x 3000; 64 x 4300; 4 words in registers.
		 */
		{ "fp32", 0, { 64, 4, 16, 1, 4, 8 }, 2560, 192000, 275200, 0 },
		/* 4 x 4 PEs, 2 lanes, 4 x 4 accumulators: 16 x 2 x 5;
		 * 16 x 900; 16 x 1300; 16 BRAM18K.
		 */
		{ "fp32", 0, { 16, 16, 8, 4, 4, 2 }, 160, 14400, 20800, 16 },
	};
	size_t r;

	(void) state;
	for (r = 0; r < DSE_N_OF(rows); r++) {
		struct bound_case c = { "mm", { 64, 64, 64 }, rows[r].dtype,
			"u250", { 0, 0, 0, rows[r].packing, 0, { 0, 0, 0 } },
			0 };
		poly_template t;
		sim_model *m = build_model(&c, &t);
		sim_metrics b, e;

		/* The knob order the rows assume. */
		assert_int_equal(sim_model_n_knobs(m), 6);
		assert_string_equal(sim_model_knob_kind(m, 3), "latency");
		assert_string_equal(sim_model_knob_kind(m, 5), "simd");
		sim_bound(m, rows[r].knobs, &b);
		sim_eval(m, rows[r].knobs, &e);
		assert_int_equal(e.status, SIM_OK);
		assert_int_equal(b.status, SIM_OK);
		assert_int_equal(b.dsp, rows[r].dsp);
		assert_int_equal(e.dsp, rows[r].dsp);
		assert_int_equal(b.lut, rows[r].lut);
		assert_int_equal(b.ff, rows[r].ff);
		assert_int_equal(b.bram18k, rows[r].bram);
		assert_true(b.lut < e.lut && b.ff < e.ff);
		assert_true(b.bram18k < e.bram18k && b.uram == 0);
		sim_model_free(m);
	}
}

/* --- bounds over boxes (sim_bound_box, sim_prefix_status) -------------- */

static uint64_t lcg(uint64_t *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return *seed >> 33;
}

/* Every legal point of a box is no better than the box's bound in any
 * metric (GFLOP/s no higher, the rest no lower).
 */
static void check_within(const sim_metrics *b, const sim_metrics *e,
	const char *what)
{
	if (e->cycles < b->cycles || e->latency_s < b->latency_s ||
	    e->gops > b->gops || e->dsp < b->dsp || e->lut < b->lut ||
	    e->ff < b->ff || e->bram18k < b->bram18k || e->uram < b->uram ||
	    e->offchip_bytes < b->offchip_bytes || e->energy_j < b->energy_j ||
	    e->edp < b->edp)
		fail_msg("%s: a point beats its box's bound: cycles %llu/%llu "
			"latency %g/%g gops %g/%g dsp %lld/%lld lut %lld/%lld "
			"ff %lld/%lld offchip %lld/%lld energy %g/%g edp %g/%g",
			what, (unsigned long long) e->cycles,
			(unsigned long long) b->cycles, e->latency_s,
			b->latency_s, e->gops, b->gops, (long long) e->dsp,
			(long long) b->dsp, (long long) e->lut,
			(long long) b->lut, (long long) e->ff, (long long) b->ff,
			(long long) e->offchip_bytes,
			(long long) b->offchip_bytes, e->energy_j, b->energy_j,
			e->edp, b->edp);
}

/* A bound only tightens as its box shrinks. */
static void check_tighter(const sim_metrics *child, const sim_metrics *b,
	const char *what)
{
	if (child->status != SIM_OK)
		return;
	if (child->cycles < b->cycles || child->latency_s < b->latency_s ||
	    child->gops > b->gops || child->dsp < b->dsp ||
	    child->lut < b->lut || child->ff < b->ff ||
	    child->offchip_bytes < b->offchip_bytes ||
	    child->energy_j < b->energy_j || child->edp < b->edp)
		fail_msg("%s: a smaller box has a looser bound", what);
}

/* The box of the node of "depth" over "knobs": its prefix fixed, the
 * other knobs over their lists' extremes.
 */
static void node_box(const struct space *s, const int32_t *knobs, int depth,
	int32_t *lo, int32_t *hi)
{
	int k, i;

	for (k = 0; k < s->n; k++) {
		lo[k] = hi[k] = knobs[k];
		for (i = 0; k >= depth && i < s->nv[k]; i++) {
			lo[k] = s->v[k][i] < lo[k] ? s->v[k][i] : lo[k];
			hi[k] = s->v[k][i] > hi[k] ? s->v[k][i] : hi[k];
		}
	}
}

/* Random nodes of each case's space (a prefix of knob values taken from
 * a random point, the rest free): every point of the node, or 400 of a
 * larger one, is within the node's bound and has the prefix's status when
 * the prefix decides one; the bound of a child node (one knob more
 * fixed) is no looser; and a single legal point's bound is the model's
 * DSP exactly, with every other time and energy bound positive, so the
 * bounds are not trivially 0.
 */
static void test_box(void **state)
{
	uint64_t seed = 11, checked = 0, legal_leaves = 0, decided = 0;
	size_t c;

	(void) state;
	for (c = 0; c < DSE_N_OF(cases); c++) {
		poly_template t;
		sim_model *m = build_model(&cases[c], &t);
		struct space s;
		int32_t knobs[SIM_MAX_KNOBS], pt[SIM_MAX_KNOBS];
		int32_t lo[SIM_MAX_KNOBS], hi[SIM_MAX_KNOBS];
		uint64_t size, node, i, j;
		int r, depth, st, k;
		char what[96];

		test_space(m, &t, cases[c].max_points, &s);
		size = space_size(&s);
		for (r = 0; r < 300; r++) {
			sim_metrics b, child, e;

			decode(&s, lcg(&seed) % size, knobs);
			depth = (int) (lcg(&seed) % (uint64_t) (s.n + 1));
			node_box(&s, knobs, depth, lo, hi);
			sim_bound_box(m, lo, hi, &b);
			st = sim_prefix_status(m, knobs, depth);
			decided += st != SIM_OK;
			for (node = 1, k = depth; k < s.n; k++)
				node *= (uint64_t) s.nv[k];
			for (i = 0; i < (node < 400 ? node : 400); i++) {
				j = node < 400 ? i : lcg(&seed) % node;
				memcpy(pt, knobs, sizeof(pt));
				for (k = s.n - 1; k >= depth; k--) {
					pt[k] = s.v[k][j % (uint64_t) s.nv[k]];
					j /= (uint64_t) s.nv[k];
				}
				sim_eval(m, pt, &e);
				snprintf(what, sizeof(what), "%s case %zu node "
					"%d depth %d", cases[c].kernel, c, r,
					depth);
				if (st != SIM_OK && e.status != st)
					fail_msg("%s: prefix status %d, point "
						"status %d", what, st, e.status);
				if (e.status != SIM_OK)
					continue;
				if (b.status != SIM_OK)
					fail_msg("%s: a legal point in a box "
						"said to have none", what);
				check_within(&b, &e, what);
				checked++;
			}
			if (depth == s.n && b.status == SIM_OK) {
				sim_eval(m, knobs, &e);
				if (e.status == SIM_OK) {
					legal_leaves++;
					assert_int_equal(b.dsp, e.dsp);
					assert_true(b.cycles > 0 &&
						b.latency_s > 0 &&
						b.energy_j > 0 && b.edp > 0);
				}
			}
			if (depth < s.n && b.status == SIM_OK) {
				lo[depth] = hi[depth] = knobs[depth];
				sim_bound_box(m, lo, hi, &child);
				check_tighter(&child, &b, what);
			}
		}
		sim_model_free(m);
	}
	print_message("%llu points checked against their box, %llu legal "
		"single points, %llu prefixes that decide a status\n",
		(unsigned long long) checked,
		(unsigned long long) legal_leaves, (unsigned long long) decided);
	assert_true(checked > 20000 && legal_leaves > 20 && decided > 100);
}

/* Every node of every depth of each case's space (cut to 12,000 points,
 * so that the run stays short), with every point of the node checked
 * against the node's bound: the I/O terms of the cycle bound are tight
 * enough (they are what lets a sweep skip small-tile designs) that random
 * samples could miss a corner.  Also the bound's strength at the leaves:
 * a single legal point's cycle bound counts its tiles' DRAM latency and
 * transfers and its drains (only the load's reach, the L1 feed and the
 * crossbar's turns are left out), so across the cases the median ratio of
 * the bound to sim_eval's cycles must be above one half, where the
 * compute alone gives 0.04 on these small-tile spaces.
 */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

static void test_nodes(void **state)
{
	uint64_t checked = 0, n_ratio = 0;
	double *ratio = malloc(sizeof(*ratio) * 12000 * DSE_N_OF(cases));
	size_t c;

	(void) state;
	assert_non_null(ratio);
	for (c = 0; c < DSE_N_OF(cases); c++) {
		poly_template t;
		sim_model *m = build_model(&cases[c], &t);
		struct space s;
		int32_t knobs[SIM_MAX_KNOBS], lo[SIM_MAX_KNOBS];
		int32_t hi[SIM_MAX_KNOBS];
		uint64_t size, node, first, i;
		int depth, k;
		char what[96];

		test_space(m, &t, 12000, &s);
		size = space_size(&s);
		assert_true(size <= 12000);
		for (depth = 1; depth <= s.n; depth++) {
			for (node = 1, k = depth; k < s.n; k++)
				node *= (uint64_t) s.nv[k];
			for (first = 0; first < size; first += node) {
				sim_metrics b, e;

				decode(&s, first, knobs);
				node_box(&s, knobs, depth, lo, hi);
				sim_bound_box(m, lo, hi, &b);
				for (i = first; i < first + node && i < size;
						i++) {
					decode(&s, i, knobs);
					sim_eval(m, knobs, &e);
					if (e.status != SIM_OK)
						continue;
					snprintf(what, sizeof(what), "%s case "
						"%zu point %llu depth %d",
						cases[c].kernel, c,
						(unsigned long long) i, depth);
					if (b.status != SIM_OK)
						fail_msg("%s: a legal point in "
							"a box said to have "
							"none", what);
					check_within(&b, &e, what);
					checked++;
					if (depth == s.n)
						ratio[n_ratio++] =
							(double) b.cycles /
							(double) e.cycles;
				}
			}
		}
		sim_model_free(m);
	}
	qsort(ratio, n_ratio, sizeof(*ratio), cmp_double);
	print_message("%llu points checked against every node that holds "
		"them; cycle bound over cycles at %llu legal points: median "
		"%.3f, tenth percentile %.3f\n", (unsigned long long) checked,
		(unsigned long long) n_ratio, ratio[n_ratio / 2],
		ratio[n_ratio / 10]);
	assert_true(n_ratio > 1000 && ratio[n_ratio / 2] > 0.5);
	free(ratio);
}

/* --- speed: not a test, figures for the record ------------------------- */

/* The configs' kernels and spaces: array_part the divisors of the loop up
 * to "ap_max", latency the powers of two up to "lat_max", simd up to
 * "simd_max".
 */
static const struct speed_case {
	const char *kernel;
	int64_t params[POLY_MAX_PARAMS];
	const char *dtype;
	int ap_max, lat_max, simd_max;
} speed_cases[] = {
	{ "mm", { 1024, 1024, 1024 }, "fp32", 1024, 64, 8 },
	{ "conv", { 64, 32, 28, 28, 3, 3 }, "fp32", 32, 4, 8 },
	{ "mttkrp", { 128, 64, 32, 32 }, "fp32", 64, 8, 8 },
	{ "fir", { 4096, 64 }, "int16", 512, 16, 8 },
	{ "ttmc", { 64, 32, 32, 16, 16 }, "fp32", 32, 4, 4 },
};

static void speed_space(const sim_model *m, const poly_template *t,
	const struct speed_case *sc, struct space *s)
{
	int k;
	int64_t d;

	memset(s, 0, sizeof(*s));
	s->n = sim_model_n_knobs(m);
	for (k = 0; k < s->n; k++) {
		const char *kind = sim_model_knob_kind(m, k);
		int loop = sim_model_knob_loop(m, k);
		int64_t e = loop >= 0 ? t->extent[loop] : 0;

		if (!strcmp(kind, "array_part")) {
			for (d = 1; d <= e && d <= sc->ap_max; d++)
				if (e % d == 0)
					push(s, k, d);
		} else {
			for (d = 1; d <= (strcmp(kind, "simd") ?
					sc->lat_max : sc->simd_max); d *= 2)
				push(s, k, d);
		}
	}
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Times sim_eval (which = 0) or sim_bound (1) over the "n" decoded points
 * "knobs" (rows of "stride"), repeated to a million calls at least, best
 * of three; returns ns per call.
 */
static double time_calls(const sim_model *m, const int32_t *knobs,
	size_t n, int stride, int which, int64_t *sink)
{
	size_t reps = (1000000 + n - 1) / n, r, i;
	double best = 1e30, t0;
	sim_metrics o;
	int rep;

	for (rep = 0; rep < 3; rep++) {
		t0 = seconds();
		for (r = 0; r < reps; r++)
			for (i = 0; i < n; i++) {
				if (which)
					sim_bound(m, knobs + i * stride, &o);
				else
					sim_eval(m, knobs + i * stride, &o);
				*sink += o.dsp;
			}
		t0 = seconds() - t0;
		best = t0 < best ? t0 : best;
	}
	return best / (double) (reps * n) * 1e9;
}

static void test_speed(void **state)
{
	size_t c;
	int64_t sink = 0;

	(void) state;
	for (c = 0; c < DSE_N_OF(speed_cases); c++) {
		const struct speed_case *sc = &speed_cases[c];
		struct bound_case bc = { sc->kernel, { 0 }, sc->dtype, "u250",
			{ 0, 0, 0, 0, 0, { 0, 0, 0 } }, 0 };
		poly_template t;
		sim_model *m;
		struct space s;
		uint64_t size, n, i, legal = 0, pruned = 0;
		int32_t *knobs;
		double dsp_max = 0.25 * (double) arch_board_find("u250")->dsp;
		double ns_eval, ns_bound;

		memcpy(bc.params, sc->params, sizeof(bc.params));
		m = build_model(&bc, &t);
		speed_space(m, &t, sc, &s);
		size = space_size(&s);
		n = size < 400000 ? size : 400000;
		knobs = malloc(n * (size_t) s.n * sizeof(*knobs));
		assert_non_null(knobs);
		for (i = 0; i < n; i++) {
			sim_metrics b;
			int32_t *k = knobs + i * (size_t) s.n;

			decode(&s, i * (size / n), k);
			legal += (uint64_t) check_point(m, k, sc->kernel);
			sim_bound(m, k, &b);
			pruned += b.status == SIM_OK &&
				(double) b.dsp > dsp_max;
		}
		ns_eval = time_calls(m, knobs, n, s.n, 0, &sink);
		ns_bound = time_calls(m, knobs, n, s.n, 1, &sink);
		print_message("%-7s %llu points (%llu timed, %llu legal): "
			"sim_eval %.1f ns, sim_bound %.1f ns (%.0f%%) per "
			"point; dsp <= 25%% prunes %.1f%% of the points\n",
			sc->kernel, (unsigned long long) size,
			(unsigned long long) n, (unsigned long long) legal,
			ns_eval, ns_bound, 100.0 * ns_bound / ns_eval,
			100.0 * (double) pruned / (double) n);
		free(knobs);
		sim_model_free(m);
	}
	assert_true(sink != 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest property[] = {
		cmocka_unit_test(test_property),
	};
	const struct CMUnitTest garbage[] = {
		cmocka_unit_test(test_garbage),
	};
	const struct CMUnitTest hand[] = {
		cmocka_unit_test(test_hand),
	};
	const struct CMUnitTest box[] = {
		cmocka_unit_test(test_box),
	};
	const struct CMUnitTest nodes[] = {
		cmocka_unit_test(test_nodes),
	};
	const struct CMUnitTest speed[] = {
		cmocka_unit_test(test_speed),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

#define RUN(g) \
	if (all || strcmp(group, #g) == 0) { \
		failed += cmocka_run_group_tests_name("sim.bound." #g, g, \
			NULL, NULL); \
		ran = 1; \
	}
	RUN(property)
	RUN(garbage)
	RUN(hand)
	RUN(box)
	RUN(nodes)
#undef RUN
	if (strcmp(group, "speed") == 0) {
		failed += cmocka_run_group_tests_name("sim.bound.speed", speed,
			NULL, NULL);
		ran = 1;
	}
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
