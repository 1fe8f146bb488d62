/* Tests of sim/: the analytic model of any systolic-array template.
 * Run as "test_sim <group>"; the groups are listed in main().
 *
 * The templates are built by hand from short specs (loops, space and
 * latency loops, I/O groups with their accesses), as the polyhedral front
 * end would fill them.  The expected numbers are worked out by hand in the
 * comments, on a made-up board whose figures keep the arithmetic easy:
 *
 *   100 MHz, 3.2 GB/s -> 32 bytes per cycle, 256-bit ports, 10-cycle DRAM.
 *   32-bit data, n input groups: wpc = min(256/32, 32/n/4), so 4 for two
 *   inputs and 2 for three; wpc_out = min(8, 32/4) = 8.
 *   16-bit data, two inputs: wpc = min(16, 32/2/2) = 8, wpc_out = 16.
 *    8-bit data, two inputs: wpc = min(32, 32/2/1) = 16, wpc_out = 32.
 *
 * Reminder of the model (see sim/model.c): P_s = T[s]/L[s] PEs per space
 * loop, rows = P of the first; a PE runs pe_tile = L on space loops, T on
 * other band loops, E outside the band, S at a time:
 *   comp = prod(pe_tile)/S * II, II = ceil(acc/prod L) when below acc and
 *   a dependence is carried (else 1), load = max over inputs of
 *   ceil(footprint(T)/wpc), main = load + (tiles-1)*max(load,comp) + comp,
 *   each output tile costs ceil(footprint(T)/wpc_out) + rows,
 *   prologue = DRAM latency + sum P, epilogue = sum P.
 *   DSP = PEs * S * (DSP of the multipliers and adders of a lane).
 *   BRAM, by AutoSA's rules (tests/sim/test_resource.c checks them
 *   against AutoSA's own generated code): each PE's accumulator
 *   footprint(C over pe_tile) of single words, in registers up to 8 words,
 *   else bram(b, words); each exterior input's L2 buffer per PE line
 *   (lines = prod P over the space loops of direction 0, whose tile is
 *   L), twice (ping and pong), of words packed p = the largest power-of-
 *   two multiple of its lane (S when the innermost dimension moves along
 *   the simd loop with stride one, else 1) dividing the tile's innermost
 *   run, at most 32 bytes (AutoSA's default bound at L2, 8 floats):
 *   bram(b*p, footprint/p); each PE's drain buffer of C once, packed up
 *   to 8 bytes (2 floats).  bram = ceil(w/36)*ceil(d/512) (w > 18) or
 *   ceil(w/18)*ceil(d/1024).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "core/util.h"
#include "sim/internal.h"
#include "sim/sim.h"
#include "tests/support/mm_kernel.h"


static const arch_board easy_board = {
	"easy", "none", 1000, 1000, 0, 100000, 200000, 3.2, 100.0, 256, 10
};

/* A hand-made data type: a 32-bit float with a 4-cycle adder. */
static const arch_dtype t32 = { "t32", 32, 5.0, 4, 1, 3, 2, 1 };

enum { R = POLY_DEP_READ, F = POLY_DEP_FLOW, O = POLY_DEP_OUTPUT };
enum { IN = POLY_IO_INTERIOR, EX = POLY_IO_EXTERIOR };

/* An I/O group: its access as text ("A[i][k+r]"; "*50" is a dimension
 * that is not affine, of extent 50), then kind, type, direction, copy-in,
 * copy-out, pruned and buffer level.
 */
struct group_spec {
	const char *access;
	int kind, type;
	int dir[POLY_MAX_SPACE];
	int copy_in, copy_out, pruned, level;
};

struct tmpl_spec {
	const char *kernel;
	const char *loops;		/* "i,j,k" */
	int64_t extent[POLY_MAX_LOOPS];
	int band;
	const char *space;		/* "i,j" */
	const char *latency;		/* "i,j", "" for none */
	const char *simd;		/* NULL for none */
	const char *reduction;		/* NULL for none */
	int space_time;
	int ops;
	int n_groups;
	struct group_spec group[6];
};

/* Matrix multiply C[i][j] += A[i][k] * B[k][j] as the analysis finds it
 * for space_time[3] (space i, j): A moves along j, B along i, the
 * accumulated C stays in the PE (its flow group pruned) and is copied out.
 */
#define MM_2D_GROUPS 4, { \
	{ "A[i][k]", R, EX, { 0, 1 }, 1, 0, 0, POLY_L2 }, \
	{ "B[k][j]", R, EX, { 1, 0 }, 1, 0, 0, POLY_L2 }, \
	{ "C[i][j]", F, IN, { 0, 0 }, 0, 0, 1, POLY_L1 }, \
	{ "C[i][j]", O, IN, { 0, 0 }, 0, 1, 0, POLY_L1 } }

enum {
	T_MM64, T_MM1024, T_HUGE, T_B, T_MM1D, T_OUTSIDE, T_MM3D, T_ELEM,
	T_HUGE3, N_TMPL
};

static const struct tmpl_spec specs[N_TMPL] = {
	[T_MM64] = { "mm", "i,j,k", { 64, 64, 64 }, 3, "i,j", "i,j", "k",
		"k", 3, 2, MM_2D_GROUPS },
	[T_MM1024] = { "mm", "i,j,k", { 1024, 1024, 1024 }, 3, "i,j", "i,j",
		"k", "k", 3, 2, MM_2D_GROUPS },
	/* 2^21 per loop, 2^63 instances, where cycles and DSP overflow. */
	[T_HUGE] = { "mm", "i,j,k", { 1 << 21, 1 << 21, 1 << 21 }, 3, "i,j",
		"i,j", "k", "k", 3, 2, MM_2D_GROUPS },
	/* Loops i, j, k of 32 x 16 x 8 whose space loops are k then i and
	 * whose reduction is j, so that the loop bookkeeping is exercised.
	 */
	[T_B] = { "b", "i,j,k", { 32, 16, 8 }, 3, "k,i", "i,k", "j", "j", 5,
		2, 4, {
		{ "X[k][j]", R, EX, { 0, 1 }, 1, 0, 0, POLY_L2 },
		{ "Y[j][i]", R, EX, { 1, 0 }, 1, 0, 0, POLY_L2 },
		{ "Z[k][i]", F, IN, { 0, 0 }, 0, 0, 1, POLY_L1 },
		{ "Z[k][i]", O, IN, { 0, 0 }, 0, 1, 0, POLY_L1 } } },
	/* space_time[0] of mm: a 1-D array along i.  A is reused along j in
	 * time, inside each PE (interior); B moves from PE to PE along i.
	 */
	[T_MM1D] = { "mm", "i,j,k", { 64, 64, 64 }, 3, "i", "i,j", "k", "k",
		0, 2, 4, {
		{ "A[i][k]", R, IN, { 0 }, 1, 0, 0, POLY_L1 },
		{ "B[k][j]", R, EX, { 1 }, 1, 0, 0, POLY_L2 },
		{ "C[i][j]", F, IN, { 0 }, 0, 0, 1, POLY_L1 },
		{ "C[i][j]", O, IN, { 0 }, 0, 1, 0, POLY_L1 } } },
	/* C[i][j] += A[i][k+r] * W[r][j][k] with the band i, j, k: the
	 * loop r runs whole inside every tile.
	 */
	[T_OUTSIDE] = { "conv", "i,j,k,r", { 32, 32, 16, 4 }, 3, "i,j",
		"i,j", "k", "k", 3, 2, 4, {
		{ "A[i][k+r]", R, EX, { 0, 1 }, 1, 0, 0, POLY_L2 },
		{ "W[r][j][k]", R, EX, { 1, 0 }, 1, 0, 0, POLY_L2 },
		{ "C[i][j]", F, IN, { 0, 0 }, 0, 0, 1, POLY_L1 },
		{ "C[i][j]", O, IN, { 0, 0 }, 0, 1, 0, POLY_L1 } } },
	/* A 3-D array of mm (space i, j, k), no simd: the partial sums of C
	 * move along k and leave the array after every tile (an unpruned
	 * flow group, loaded and stored every tile); the copy-out group of
	 * C adds nothing to that.
	 */
	[T_MM3D] = { "mm", "i,j,k", { 64, 64, 64 }, 3, "i,j,k", "i,j", NULL,
		"k", 6, 2, 4, {
		{ "A[i][k]", R, EX, { 0, 1, 0 }, 1, 0, 0, POLY_L2 },
		{ "B[k][j]", R, EX, { 1, 0, 0 }, 1, 0, 0, POLY_L2 },
		{ "C[i][j]", F, EX, { 0, 0, 1 }, 1, 1, 0, POLY_L2 },
		{ "C[i][j]", O, EX, { 0, 0, 1 }, 0, 1, 0, POLY_L2 } } },
	/* D[i][j] = A[i][j] * B[x][j] * c with x read from memory (a
	 * dimension of extent 50 that is not affine): no reuse, no carried
	 * dependence, three operations per point, a 1-D array along i.
	 */
	[T_ELEM] = { "elem", "i,j", { 64, 64 }, 2, "i", "i,j", NULL, NULL,
		0, 3, 3, {
		{ "A[i][j]", R, EX, { 0 }, 1, 0, 0, POLY_L2 },
		{ "B[*50][j]", R, EX, { 0 }, 1, 0, 0, POLY_L2 },
		{ "D[i][j]", O, EX, { 0 }, 0, 1, 0, POLY_L2 } } },
	/* 2^30 per loop on a 3-D array: 2^90 PEs overflow. */
	[T_HUGE3] = { "mm", "i,j,k", { 1 << 30, 1 << 30, 1 << 30 }, 3,
		"i,j,k", "i,j", NULL, "k", 6, 2, 4, {
		{ "A[i][k]", R, EX, { 0, 1, 0 }, 1, 0, 0, POLY_L2 },
		{ "B[k][j]", R, EX, { 1, 0, 0 }, 1, 0, 0, POLY_L2 },
		{ "C[i][j]", F, EX, { 0, 0, 1 }, 1, 1, 0, POLY_L2 },
		{ "C[i][j]", O, EX, { 0, 0, 1 }, 0, 1, 0, POLY_L2 } } },
};

static int loop_of(const poly_template *t, const char *name, size_t len)
{
	int l;

	for (l = 0; l < t->n_loops; l++)
		if (strlen(t->loop[l]) == len &&
		    !strncmp(t->loop[l], name, len))
			return l;
	fail_msg("no loop '%.*s'", (int) len, name);
	return -1;
}

/* Splits "a,b,c" into loop indices. */
static int loop_list(const poly_template *t, const char *list, int *out)
{
	int n = 0;

	while (list && *list) {
		size_t len = strcspn(list, ",");

		out[n++] = loop_of(t, list, len);
		list += len + (list[len] == ',');
	}
	return n;
}

/* Parses "A[i][k+2r]" into an access of t; each dimension's extent is the
 * range of its index over the loops.
 */
static int add_access(poly_template *t, const char *text)
{
	poly_access *a = &t->access[t->n_accesses];
	const char *p = strchr(text, '[');

	snprintf(a->array, sizeof(a->array), "%.*s", (int) (p - text), text);
	snprintf(a->text, sizeof(a->text), "%s", text);
	while (*p == '[') {
		int d = a->n_dims++;

		p++;
		a->exact[d] = *p != '*';
		if (!a->exact[d]) {
			a->extent[d] = strtoll(p + 1, (char **) &p, 10);
		} else {
			a->extent[d] = 1;
			while (*p != ']') {
				int64_t c = 1;
				size_t len;
				int l;

				if (*p >= '0' && *p <= '9')
					c = strtoll(p, (char **) &p, 10);
				len = strcspn(p, "+]");
				l = loop_of(t, p, len);
				a->coef[d][l] = c;
				a->extent[d] += c * (t->extent[l] - 1);
				p += len + (p[len] == '+');
			}
		}
		p++;
	}
	return t->n_accesses++;
}

static poly_template make_template(int which)
{
	const struct tmpl_spec *s = &specs[which];
	poly_template t;
	int l, g;

	memset(&t, 0, sizeof(t));
	snprintf(t.kernel, sizeof(t.kernel), "%s", s->kernel);
	snprintf(t.statement, sizeof(t.statement), "S0");
	for (const char *p = s->loops; *p; t.n_loops++) {
		size_t len = strcspn(p, ",");

		snprintf(t.loop[t.n_loops], POLY_NAME_LEN, "%.*s", (int) len,
			p);
		p += len + (p[len] == ',');
	}
	t.points = 1;
	for (l = 0; l < t.n_loops; l++) {
		t.extent[l] = s->extent[l];
		t.points *= (uint64_t) s->extent[l];
	}
	t.band = s->band;
	t.n_space = loop_list(&t, s->space, t.space_loop);
	t.n_latency = loop_list(&t, s->latency, t.latency_loop);
	t.simd_loop = s->simd ? loop_of(&t, s->simd, strlen(s->simd)) : -1;
	t.reduction = s->reduction ?
		loop_of(&t, s->reduction, strlen(s->reduction)) : -1;
	t.space_time = s->space_time;
	t.ops_per_point = s->ops;
	for (g = 0; g < s->n_groups; g++) {
		const struct group_spec *gs = &s->group[g];
		poly_group *gr = &t.group[t.n_groups++];

		/* g is below POLY_MAX_GROUPS: the modulo only tells the compiler
		 * that the name fits.
		 */
		snprintf(gr->name, sizeof(gr->name), "g%u",
			(unsigned) (g + 1) % 1000u);
		gr->access = add_access(&t, gs->access);
		memcpy(gr->array, t.access[gr->access].array,
			sizeof(gr->array));
		gr->kind = gs->kind;
		gr->type = gs->type;
		memcpy(gr->dir, gs->dir, sizeof(gr->dir));
		gr->dir_known = 1;
		gr->copy_in = gs->copy_in;
		gr->copy_out = gs->copy_out;
		gr->pruned = gs->pruned;
		gr->embedded = gs->type == EX;
		gr->levels = gs->pruned ? 0 : 3;
		gr->buffer_level = gs->level;
	}
	return t;
}

static sim_model *make_model(int which, const arch_board *board,
	const arch_dtype *dtype, int l2)
{
	poly_template t = make_template(which);
	sim_options opt = { l2, 0, 0, 0, 0, { 0, 0, 0 } };
	dse_error err;
	sim_model *m;

	dse_error_clear(&err);
	m = sim_model_alloc(&t, board, dtype, &opt, &err);
	if (!m)
		fail_msg("sim_model_alloc: %s", err.msg);
	return m;
}

/* One legal design point and its hand-computed metrics.  Knobs in the
 * model's order: array_part of the band loops, array_part_L2 when l2,
 * latency of the latency loops, simd.
 */
struct model_case {
	const char *what;
	int tmpl;
	int l2;
	const arch_board *board;	/* NULL: the built-in u250 */
	const arch_dtype *dtype;	/* NULL: the built-in fp32 */
	int32_t knobs[SIM_MAX_KNOBS];
	uint64_t cycles;
	int64_t dsp, bram18k, n_pe;
	int32_t rows, cols, ii;
};

static const struct model_case model_cases[] = {
	/* T=16^3, L=4x4, S=2 on easy_board, double-buffered daisy chain:
	 * R=C=4, II=1 (16 >= 4), 64 tiles, 16 output tiles.
	 * comp = 4*4*16/2 = 128.  A moves along j: 4 lines (P_i) of 4x16
	 * = 64 words, read line by line: 256 words, run 16 -> 8 per beat:
	 * 32 beats, 32 cycles through the chain; L1 feed 64/2 = 32.  B moves
	 * along i: 4 lines of 16x4 = 64 words, run 4 -> 4 per beat: 64
	 * beats.  Bandwidth 512*4/32 = 64.  An L3 module is busy 10 (DRAM
	 * latency) + 64 = 74 a tile.  The DRAM arbiter grants bursts of 16
	 * port beats (512 bytes, 16 cycles) round-robin, A's first, so B's
	 * data comes 16 cycles later: its last beat leaves its L3 module at
	 * 10 + 16 + 64 = 90 and a load takes 90 + 4 (the chain of 4 lines)
	 * = 94.  Tiles every max(128, 74, (94 + 128) / 2) = 128:
	 * the last is done at 94 + 128 + 63*128 = 8286, final 10 later (the
	 * wavefront 4 + 4 - 2, the adder 4).  Drain: C 256 words, run 16 -> 8
	 * per beat: 32 (bandwidth 32) + 4 rows = 36; the 16 drains (576) keep
	 * up with the output tiles, so the last ends 36 after it:
	 * cycles = 8286 + 10 + 36 = 8332.
	 * dsp = 4*4*2*5 = 160.  BRAM: accumulators C[4][4], 16 words of 32
	 * bits: 1 each, 16; A: 4 lines of A[4][16], lane 2 widened to 8
	 * (divides 16): 256 bits x 8, 8 blocks x 2 copies x 4 = 64; B[k][j]
	 * walks j innermost, not k: lane 1, widened to 4 (its run): 128
	 * bits x 16, 4 x 2 x 4 = 32; C's drain C[4][4] packed 2: 64 bits x
	 * 8, 2 x 16 = 32.  Total 144.
	 */
	{ "compute bound", T_MM64, 0, &easy_board, &t32,
	  { 16, 16, 16, 4, 4, 2 }, 8332, 160, 144, 16, 4, 4, 1 },
	/* The same with T_k = 12: ceil(64/12) = 6 padded tiles along k,
	 * 96 tiles.  comp = 4*4*12/2 = 96.  A: 4 lines of 4x12 = 48 words,
	 * 192, run 12 -> 4 per beat (the power of two dividing 12): 48
	 * beats; B: 4 lines of 12x4: 192, run 4 -> 48 beats; bandwidth
	 * 384*4/32 = 48.  L3 busy 58 a tile; B's first burst waits for A's
	 * (32 beats of 16 bytes, 16 cycles), a load 10 + 16 + 48 + 4 = 78;
	 * tiles every 96: done at 78 + 96 + 95*96 = 9294; cycles = 9294 +
	 * 10 + 36 = 9340.
	 * BRAM: accumulators 16; A[4][12], lane 2 widened to 4
	 * (8 does not divide 12): 128 bits x 12, 4 x 2 x 4 = 32; B[12][4]
	 * lane 4: 128 bits x 12, 32; drain 32.  Total 112.
	 */
	{ "padded tile, packing 4", T_MM64, 0, &easy_board, &t32,
	  { 16, 16, 12, 4, 4, 2 }, 9340, 160, 112, 16, 4, 4, 1 },
	/* 1024^3 fp32 on the u250: 300 MHz, 77 GB/s -> 256.67 bytes per
	 * cycle, 16 words per 512-bit beat, DRAM latency 64, fp32 adder 5
	 * cycles.  T=(128,128,64), L=8x8, S=4: R=C=16, II=1, tiles 8*8*16 =
	 * 1024, 64 output tiles.  comp = 8*8*64/4 = 1024.  A: 16 lines of
	 * 8x64 = 512 words, 8192 words, run 64 -> 16 per beat: 512.  B: 16
	 * lines of 64x8, 8192 words, run 8 -> 8 per beat: 1024.  Bandwidth
	 * 16384*4/256.67 -> 256.  B's L3 module is busy 64 + 1024 = 1088 a
	 * tile (its narrow run makes the design load bound); its first burst
	 * waits for A's (16 beats of 64 bytes, 4 cycles), so a load takes
	 * 64 + 4 + 1024 + 16 (the chain) = 1108, tiles every max(1024, 1088,
	 * 2132 / 2) = 1088: done at 1108 + 1024 + 1023*1088 = 1115156, final
	 * 16 + 16 - 2 + 5 = 35 later.  Drain: 16384 words, run 128 -> 16 per
	 * beat: 1024 (bandwidth 256) + 16 = 1040, x 64 = 66560, which keeps
	 * up: cycles = 1115156 + 35 + 1040 = 1116231.  dsp = 256*4*5 =
	 * 5120.  BRAM: accumulators C[8][8], 64 words: 1 x 256 = 256; A:
	 * 16 lines of A[8][64], lane 4 widened to 8: 256 bits x 64, 8 x 2
	 * x 16 = 256; B[64][8], lane 1 widened to 8: 256 bits x 64, 256; the
	 * drain C[8][8] packed 2: 64 bits x 32, 2 x 256 = 512.  Total 1280,
	 * no URAM (AutoSA binds no buffer to it without --uram).
	 */
	{ "u250 fp32 1024^3", T_MM1024, 0, NULL, NULL,
	  { 128, 128, 64, 8, 8, 4 }, 1116231, 5120, 1280, 256, 16, 16, 1 },
};

/* Relative comparison of doubles: the model may evaluate a formula in a
 * different but equivalent order.
 */
static void assert_close(const char *what, double got, double want)
{
	double diff = got > want ? got - want : want - got;

	if (diff > 1e-12 * (want > 0 ? want : -want))
		fail_msg("%s: got %.17g, expected %.17g", what, got, want);
}

static void check_model_case(const struct model_case *c)
{
	const arch_board *board = c->board ? c->board : arch_board_find("u250");
	const arch_dtype *dtype = c->dtype ? c->dtype : arch_dtype_find("fp32");
	poly_template t = make_template(c->tmpl);
	sim_model *m = make_model(c->tmpl, board, dtype, c->l2);
	double ops = (double) t.points * t.ops_per_point;
	double secs = (double) c->cycles / (board->mhz * 1e6);
	sim_metrics out;

	sim_eval(m, c->knobs, &out);
	if (out.status != SIM_OK || out.cycles != c->cycles)
		fail_msg("%s: status %d cycles %llu, expected %llu", c->what,
			out.status, (unsigned long long) out.cycles,
			(unsigned long long) c->cycles);
	if (out.dsp != c->dsp || out.bram18k != c->bram18k ||
	    out.n_pe != c->n_pe)
		fail_msg("%s: dsp %lld bram %lld pes %lld, expected %lld %lld "
			"%lld", c->what, (long long) out.dsp,
			(long long) out.bram18k, (long long) out.n_pe,
			(long long) c->dsp, (long long) c->bram18k,
			(long long) c->n_pe);
	assert_int_equal(out.uram, 0);
	assert_int_equal(out.pe_rows, c->rows);
	assert_int_equal(out.pe_cols, c->cols);
	assert_int_equal(out.ii, c->ii);
	assert_close(c->what, out.latency_s, secs);
	assert_close(c->what, out.gops, ops / secs / 1e9);
	sim_model_free(m);
}

static void test_model(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(model_cases); i++)
		check_model_case(&model_cases[i]);
}

/* The footprints the model uses are poly_footprint's: a loop outside
 * the band counts whole, a sum of loops in one index spans the sum of
 * their ranges, clamped to the array's extent.  Checked through the load
 * term of a load-bound point: the conv kernel with T=(32,32,16) and L=1:
 * one tile, 1024 PEs, pe_tile (1,1,16,4), S=16, II=4 -> comp = 16.
 * A[i][k+r] moves along j: 32 lines of 1 x 19 words, 608 words whose
 * innermost run 19 is odd, so packing is 1 word per beat: 608 beats and
 * 608 cycles through the chain.  W[r][j][k]: 32 lines of 4*1*16 = 64
 * words, run 16 -> 8 per beat: 256.  Bandwidth (608+2048)*4/32 = 332.
 * The load takes 10 + 608 + 32 (the chain of 32 lines) = 650, the tile
 * is done 16 later and final 32 + 32 - 2 + 4 = 66 after that; the output,
 * 1024 words, run 32 -> 8 per beat, drains in 128 + 32 rows = 160.
 * cycles = 650 + 16 + 66 + 160 = 892.
 */
static void test_footprint_terms(void **state)
{
	sim_model *m = make_model(T_OUTSIDE, &easy_board, &t32, 0);
	const int32_t knobs[] = { 32, 32, 16, 1, 1, 16 };
	sim_metrics out;

	(void) state;
	sim_eval(m, knobs, &out);
	assert_int_equal(out.status, SIM_OK);
	assert_int_equal(out.cycles, 892);
	assert_int_equal(out.ii, 4);
	assert_int_equal(out.n_pe, 1024);
	sim_model_free(m);
}

/* The model's compiled footprints agree with poly_footprint: on every
 * access of the templates above over pseudo-random tiles, and on accesses
 * with negative, large and overflowing coefficients.
 */
static void test_footprint_compiled(void **state)
{
	uint64_t seed = 12345;
	int which, a, r, l;

	(void) state;
	for (which = 0; which < N_TMPL; which++) {
		poly_template t = make_template(which);

		if (which == T_OUTSIDE) {
			/* Hand-made coefficients: negative, zero, large. */
			t.access[0].coef[1][0] = -3;
			t.access[1].coef[0][3] = INT64_C(1) << 61;
			t.access[1].extent[0] = INT64_C(1) << 62;
			t.access[2].coef[1][1] = INT64_MAX / 2;
			t.access[2].extent[1] = INT64_MAX;
			t.access[3].coef[1][2] = -1;
			t.access[3].coef[0][0] = 2;
		}
		for (a = 0; a < t.n_accesses; a++) {
			sim__footprint fp;

			sim__footprint_compile(&t, a, &fp);
			for (r = 0; r < 50; r++) {
				int64_t tile[POLY_MAX_LOOPS];

				for (l = 0; l < t.n_loops; l++) {
					seed = seed * 6364136223846793005ULL +
						1442695040888963407ULL;
					tile[l] = 1 + (int64_t) ((seed >> 33) %
						(uint64_t) t.extent[l]);
				}
				if (sim__footprint_words(&fp, tile) !=
				    poly_footprint(&t, a, tile))
					fail_msg("template %d access %s: %lld, "
						"poly_footprint %lld", which,
						t.access[a].text, (long long)
						sim__footprint_words(&fp, tile),
						(long long) poly_footprint(&t,
							a, tile));
			}
		}
	}
}

/* Illegal points: the status of the first rule broken, all else zero. */
static const struct legality_case {
	int tmpl;
	int l2;
	int32_t knobs[SIM_MAX_KNOBS];
	int status;
} legality_cases[] = {
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 0, { 0, 16, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 0, { -16, 16, 16, 4, 4, 2 }, SIM_BAD_TILE },
	/* A tile need not divide its loop (the last one is padded) but
	 * must lie in 1..extent.
	 */
	{ T_MM64, 0, { 16, 24, 16, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 0, { 16, 0, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 0, { 16, 16, 128, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 0, { 16, 16, 24, 4, 4, 3 }, SIM_OK },
	{ T_MM64, 0, { 16, 16, 16, 3, 4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, 32, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 0, 4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, -4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, 3, 3 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 3 }, SIM_BAD_SIMD },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 32 }, SIM_BAD_SIMD },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 0 }, SIM_BAD_SIMD },
	/* array_part_L2 must be a multiple of array_part within the
	 * extent, and is checked before latency.
	 */
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 16, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 1, { 16, 16, 16, 16, 16, 16, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 1, { 16, 16, 16, 24, 64, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 8, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 48, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 0, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 128, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 48, 3, 4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 16, 3, 4, 2 }, SIM_BAD_LATENCY },
	/* Template B: latency_i (knob 3) must divide T[i] = 8, latency_k
	 * (knob 4) must divide T[k] = 4, simd must divide T[j] = 16.
	 */
	{ T_B, 0, { 8, 16, 4, 8, 4, 16 }, SIM_OK },
	{ T_B, 0, { 8, 16, 4, 4, 8, 4 }, SIM_BAD_LATENCY },
	{ T_B, 0, { 8, 16, 4, 16, 4, 4 }, SIM_BAD_LATENCY },
	{ T_B, 0, { 8, 8, 4, 4, 2, 16 }, SIM_BAD_SIMD },
	{ T_B, 0, { 8, 32, 4, 4, 2, 4 }, SIM_BAD_TILE },
	/* 1-D: latency j (a time loop) must divide T[j]; simd divides T[k]. */
	{ T_MM1D, 0, { 16, 8, 16, 16, 8, 16 }, SIM_OK },
	{ T_MM1D, 0, { 16, 8, 16, 4, 16, 2 }, SIM_BAD_LATENCY },
	{ T_MM1D, 0, { 16, 8, 16, 4, 2, 32 }, SIM_BAD_SIMD },
	/* Only the band loops are tiled: r has no knob. */
	{ T_OUTSIDE, 0, { 32, 32, 16, 32, 32, 16 }, SIM_OK },
	{ T_OUTSIDE, 0, { 8, 16, 12, 4, 2, 4 }, SIM_OK },
	{ T_OUTSIDE, 0, { 8, 16, 17, 4, 2, 1 }, SIM_BAD_TILE },
	/* No simd knob on the 3-D array. */
	{ T_MM3D, 0, { 64, 64, 64, 64, 64 }, SIM_OK },
	{ T_MM3D, 0, { 64, 64, 64, 64, 128 }, SIM_BAD_LATENCY },
	/* 2^63 single-MAC tiles: the cycle count does not fit in 64 bits. */
	{ T_HUGE, 0, { 1, 1, 1, 1, 1, 1 }, SIM_TOO_LARGE },
	/* One tile, 2^42 PEs x 2^21 lanes x 5 DSP. */
	{ T_HUGE, 0, { 1 << 21, 1 << 21, 1 << 21, 1, 1, 1 << 21 },
	  SIM_TOO_LARGE },
	/* Big but representable: 2^21 x 2^21 x 2^10 in 2^20-point tiles. */
	{ T_HUGE, 0, { 1 << 10, 1 << 10, 1 << 10, 1, 1, 1 }, SIM_OK },
	/* L3 buffers of 2^40 words (2^45 bits) each: fine. */
	{ T_HUGE, 1, { 1 << 10, 1 << 10, 1 << 10, 1 << 20, 1 << 20, 1 << 20,
	  1, 1, 1 }, SIM_OK },
	/* One PE runs a whole 2^21-cube tile: 2^63 iterations. */
	{ T_HUGE, 0, { 1 << 21, 1 << 21, 1 << 21, 1 << 21, 1 << 21, 1 },
	  SIM_TOO_LARGE },
	/* 3-D, one tile, L = 2^30 x 2^30: 2^30 PEs along k of 2^60
	 * iterations each, which still fits (about 2^61 cycles), but the
	 * 2^30 lines of A hold 2^30 words each: 2^66 bits of buffers.
	 */
	{ T_HUGE3, 0, { 1 << 30, 1 << 30, 1 << 30, 1 << 30, 1 << 30 },
	  SIM_TOO_LARGE },
	/* 2^90 PEs on the 3-D array. */
	{ T_HUGE3, 0, { 1 << 30, 1 << 30, 1 << 30, 1, 1 }, SIM_TOO_LARGE },
};

static void test_legality(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(legality_cases); i++) {
		const struct legality_case *c = &legality_cases[i];
		sim_model *m = make_model(c->tmpl, &easy_board, &t32, c->l2);
		sim_metrics out;

		memset(&out, 0xab, sizeof(out));
		sim_eval(m, c->knobs, &out);
		sim_model_free(m);
		if (out.status != c->status)
			fail_msg("case %zu: status %d (%s), expected %d", i,
				out.status, sim_status_name(out.status),
				c->status);
		if (c->status == SIM_OK) {
			assert_true(out.cycles > 0);
			continue;
		}
		assert_int_equal(out.cycles, 0);
		assert_true(out.latency_s == 0.0 && out.gops == 0.0);
		assert_int_equal(out.dsp, 0);
		assert_int_equal(out.bram18k, 0);
		assert_int_equal(out.uram, 0);
		assert_int_equal(out.n_pe, 0);
		assert_int_equal(out.pe_rows, 0);
		assert_int_equal(out.pe_cols, 0);
		assert_int_equal(out.ii, 0);
	}
}

static const struct status_case {
	int status;
	const char *name;
} status_cases[] = {
	{ SIM_OK, "ok" },
	{ SIM_BAD_TILE, "array_part or array_part_L2 is not between 1 and the "
	  "loop bound, or array_part_L2 is not a multiple of array_part" },
	{ SIM_BAD_LATENCY, "latency does not divide array_part" },
	{ SIM_BAD_SIMD, "simd does not divide what a PE runs of its loop" },
	{ SIM_TOO_LARGE, "cycles or resources overflow 64 bits" },
	{ SIM_BAD_KNOB, "a knob out of its range, or knob values that make "
	  "no accelerator" },
	{ SIM_FAILED, "the cycle simulation failed" },
	{ SIM_NO_FIT, "a layer fits no tiling of the local memory and the "
	  "accumulators" },
	{ SIM_N_STATUS, "unknown status" },
	{ -1, "unknown status" },
};

static void test_status_names(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(status_cases); i++)
		assert_string_equal(sim_status_name(status_cases[i].status),
			status_cases[i].name);
}

/* The knobs: names from the loop names, the loop each tiles, the kind. */
static const struct knob_case {
	int tmpl;
	int l2;
	int n_knobs;
	int knob;
	const char *name;
	int loop;
	const char *kind;
} knob_cases[] = {
	{ T_MM64, 0, 6, 0, "array_part_i", 0, "array_part" },
	{ T_MM64, 0, 6, 1, "array_part_j", 1, "array_part" },
	{ T_MM64, 0, 6, 2, "array_part_k", 2, "array_part" },
	{ T_MM64, 0, 6, 3, "latency_i", 0, "latency" },
	{ T_MM64, 0, 6, 4, "latency_j", 1, "latency" },
	{ T_MM64, 0, 6, 5, "simd_k", 2, "simd" },
	{ T_MM64, 0, 6, 6, NULL, -1, NULL },
	{ T_MM64, 0, 6, -1, NULL, -1, NULL },
	{ T_MM64, 1, 9, 2, "array_part_k", 2, "array_part" },
	{ T_MM64, 1, 9, 3, "array_part_L2_i", 0, "array_part_L2" },
	{ T_MM64, 1, 9, 5, "array_part_L2_k", 2, "array_part_L2" },
	{ T_MM64, 1, 9, 6, "latency_i", 0, "latency" },
	{ T_MM64, 1, 9, 8, "simd_k", 2, "simd" },
	{ T_B, 0, 6, 0, "array_part_i", 0, "array_part" },
	{ T_B, 0, 6, 2, "array_part_k", 2, "array_part" },
	{ T_B, 0, 6, 3, "latency_i", 0, "latency" },
	{ T_B, 0, 6, 4, "latency_k", 2, "latency" },
	{ T_B, 0, 6, 5, "simd_j", 1, "simd" },
	{ T_OUTSIDE, 0, 6, 2, "array_part_k", 2, "array_part" },
	{ T_OUTSIDE, 0, 6, 3, "latency_i", 0, "latency" },
	{ T_OUTSIDE, 1, 9, 5, "array_part_L2_k", 2, "array_part_L2" },
	{ T_MM3D, 0, 5, 4, "latency_j", 1, "latency" },
	{ T_MM3D, 0, 5, 5, NULL, -1, NULL },
	{ T_ELEM, 0, 4, 1, "array_part_j", 1, "array_part" },
	{ T_ELEM, 1, 6, 3, "array_part_L2_j", 1, "array_part_L2" },
	{ T_ELEM, 1, 6, 5, "latency_j", 1, "latency" },
};

static void test_knobs(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(knob_cases); i++) {
		const struct knob_case *c = &knob_cases[i];
		sim_model *m = make_model(c->tmpl, &easy_board, &t32, c->l2);

		assert_int_equal(sim_model_n_knobs(m), c->n_knobs);
		assert_int_equal(sim_model_knob_loop(m, c->knob), c->loop);
		if (!c->name) {
			assert_null(sim_model_knob_name(m, c->knob));
			assert_null(sim_model_knob_kind(m, c->knob));
		} else {
			assert_string_equal(sim_model_knob_name(m, c->knob),
				c->name);
			assert_string_equal(sim_model_knob_kind(m, c->knob),
				c->kind);
		}
		sim_model_free(m);
	}
	assert_int_equal(sim_model_n_knobs(NULL), 0);
}

static const struct metric_case {
	int id;
	const char *name;
	const char *unit;
	int minimise;
	double capacity;	/* on easy_board */
} metric_cases[] = {
	{ SIM_M_LATENCY, "latency", "s", 1, 0 },
	{ SIM_M_CYCLES, "cycles", "cycles", 1, 0 },
	{ SIM_M_DSP, "dsp", "DSP", 1, 1000 },
	{ SIM_M_BRAM18K, "bram18k", "BRAM18K", 1, 1000 },
	{ SIM_M_URAM, "uram", "URAM", 1, 0 },
	{ SIM_M_GOPS, "gops", "GOP/s", 0, 0 },
	{ SIM_M_LUT, "lut", "LUT", 1, 100000 },
	{ SIM_M_FF, "ff", "FF", 1, 200000 },
	{ SIM_M_OFFCHIP, "offchip_bytes", "bytes", 1, 0 },
	{ SIM_M_ENERGY, "energy", "J", 1, 0 },
	{ SIM_M_EDP, "edp", "J*s", 1, 0 },
};

static void test_metrics(void **state)
{
	sim_metrics v;
	const double values[SIM_N_METRICS] = { 5.5e-6, 1234, 160, 32, 3,
		77.25, 4567, 8910, 65536, 0.125, 0.125 * 5.5e-6 };
	arch_board big = easy_board;
	size_t i;

	(void) state;
	memset(&v, 0, sizeof(v));
	v.cycles = 1234;
	v.latency_s = 5.5e-6;
	v.gops = 77.25;
	v.dsp = 160;
	v.bram18k = 32;
	v.uram = 3;
	v.lut = 4567;
	v.ff = 8910;
	v.offchip_bytes = 65536;
	v.energy_j = 0.125;
	v.edp = 0.125 * 5.5e-6;
	big.uram = 640;
	assert_int_equal(DSE_N_OF(metric_cases), SIM_N_METRICS);
	for (i = 0; i < DSE_N_OF(metric_cases); i++) {
		const struct metric_case *c = &metric_cases[i];

		assert_string_equal(sim_metric_name(c->id), c->name);
		assert_string_equal(sim_metric_unit(c->id), c->unit);
		assert_int_equal(sim_metric_minimise(c->id), c->minimise);
		assert_int_equal(sim_metric_find(c->name), c->id);
		assert_true(sim_metrics_get(&v, c->id) == values[c->id]);
		assert_true(sim_metric_capacity(&easy_board, c->id) ==
			c->capacity);
	}
	assert_true(sim_metric_capacity(&big, SIM_M_URAM) == 640);
	assert_int_equal(sim_metric_find("Latency"), -1);
	assert_int_equal(sim_metric_find("lat"), -1);
	assert_int_equal(sim_metric_find(""), -1);
	assert_int_equal(sim_metric_find(NULL), -1);
}

/* Templates the model cannot describe: alloc fails with an input error
 * whose message names the problem.
 */
static const struct reject_case {
	const char *what;
	int tmpl;
	const char *msg;
} reject_cases[] = {
	{ "no loops", T_MM64, "0 loops" },
	{ "9 loops", T_MM64, "9 loops" },
	{ "no band", T_MM64, "band has 0 loops" },
	{ "band beyond the loops", T_MM64, "band has 4 loops" },
	{ "empty loop", T_MM64, "loop 'j' has no iterations" },
	{ "no space loop", T_MM64, "0 space loops" },
	{ "4 space loops", T_MM64, "4 space loops" },
	{ "space loop outside the band", T_OUTSIDE, "space loop 1 is 3" },
	{ "space loop twice", T_MM64, "'i' is listed twice as a space" },
	{ "latency loop outside the band", T_OUTSIDE, "latency loop 0 is 3" },
	{ "simd loop out of range", T_MM64, "simd loop 3" },
	{ "group access out of range", T_MM64, "names access 7" },
	{ "access without extent", T_MM64, "dimension 1 of access B[k][j]" },
	{ "17 groups", T_MM64, "17 I/O groups" },
	{ "negative operations", T_MM64, "negative operations" },
};

static void break_template(poly_template *t, size_t which)
{
	switch (which) {
	case 0: t->n_loops = 0; break;
	case 1: t->n_loops = 9; break;
	case 2: t->band = 0; break;
	case 3: t->band = 4; break;
	case 4: t->extent[1] = 0; break;
	case 5: t->n_space = 0; break;
	case 6: t->n_space = 4; break;
	case 7: t->space_loop[1] = 3; break;
	case 8: t->space_loop[1] = 0; break;
	case 9: t->latency_loop[0] = 3; break;
	case 10: t->simd_loop = 3; break;
	case 11: t->group[0].access = 7; break;
	case 12: t->access[1].extent[1] = 0; break;
	case 13: t->n_groups = 17; break;
	case 14: t->ops_per_point = -1; break;
	}
}

static void test_alloc_rejects(void **state)
{
	dse_error err;
	size_t i;

	(void) state;
	assert_int_equal(DSE_N_OF(reject_cases), 15);
	for (i = 0; i < DSE_N_OF(reject_cases); i++) {
		const struct reject_case *c = &reject_cases[i];
		poly_template t = make_template(c->tmpl);

		break_template(&t, i);
		dse_error_clear(&err);
		if (sim_model_alloc(&t, &easy_board, &t32, NULL, &err))
			fail_msg("%s: accepted", c->what);
		assert_int_equal(err.code, DSE_E_INPUT);
		if (!strstr(err.msg, c->msg))
			fail_msg("%s: message '%s' lacks '%s'", c->what,
				err.msg, c->msg);
	}
	/* A pruned group is not read: its access may be anything. */
	{
		poly_template t = make_template(T_MM64);
		sim_model *m;

		t.group[2].access = 99;
		m = sim_model_alloc(&t, &easy_board, &t32, NULL, &err);
		assert_non_null(m);
		sim_model_free(m);
	}
	dse_error_clear(&err);
	assert_null(sim_model_alloc(NULL, &easy_board, &t32, NULL, &err));
	assert_int_equal(err.code, DSE_E_RUNTIME);
	assert_null(sim_model_free(NULL));
}

/* The io_network and double_buffer knobs on the "compute bound" point
 * (see test_model), and what each changes.
 *
 * Without double buffering every tile loads (94) then computes (128):
 * done at 64 x 222 = 14208.  A drain (10 + 36 after its tile) shares
 * the DRAM channel with the next tile's load (2048 + 1024 bytes, 96
 * cycles, 2 more than the load alone), which must end before the next
 * output tile starts: 2 more at each of the 15 output tiles but the last,
 * whose drain is exposed: cycles = 14208 + 30 + 10 + 36 = 14284.  With the multicast crossbar the A and B tiles are written
 * once (256 words each, run 16 -> 8 per beat: 32 beats, as before; the
 * board's bandwidth takes 64 cycles for both) and reach all 16 PEs in
 * 1 + log2(16) = 5 levels instead of the 4 hops of the chain: a load takes
 * 10 + 64 + 5 = 79, cycles = 79 + 128 + 63*128 + 10 + 36 = 8317.  4 ports
 * per row or
 * column: no clock loss (it starts beyond 8), 3% x log2(4) = 6% more
 * network fabric.
 *
 * LUT/FF (fp32 lane 350/500, PE control 200/300, I/O module 400/600, L3
 * module 1500/2500, a line's dummy module 30/40, a depth-2 FIFO of w bits
 * w+8 LUT and w+8 FF): PEs 16*(200 + 2*350) = 14400 LUT, 16*(300 + 2*500)
 * = 20800 FF; their operand registers A[2] and B[2], 16*128 = 2048 FF (the
 * accumulators are in BRAM).  A: 20 FIFOs of 64 bits into the PEs and
 * their dummies (1440/1440), 4 L2 modules (1600/2400), 5 chain FIFOs of
 * 256 bits (1320/1320), the L3 module, 4 dummies (120/160): 5980 LUT,
 * 7820 FF.  B: FIFOs of 32 bits (800/800), modules 1600/2400, chain of
 * 128 bits (680/680), 1500/2500, 120/160: 4700 LUT, 6540 FF.  C (drain):
 * 16 FIFOs of 32 bits (640/640), 16 L1 modules (6400/9600), 20 L1 chain
 * FIFOs of 64 bits (1440/1440), 4 L2 modules (1600/2400), 5 L2 chain
 * FIFOs (360/360), the L3 module: 11940 LUT, 16940 FF.  Network 22620
 * LUT, 31300 FF.  Daisy: 37020 LUT, 54148 FF; multicast adds 6% of the
 * network: 1357 (1357.2 rounded) and 1878: 38377 LUT, 56026 FF.
 *
 * Off-chip: 64 tiles x 512 words in + 16 x 256 words out = 36864 words =
 * 147456 bytes either way (A and B are not shared between PE lines).
 *
 * Energy in MAC units of 4.6 pJ (fp32): 64^3 MACs x (1 + 3 register
 * accesses) = 1048576; hops: per tile A 256*(4+1)/2 + 256*4 = 1664, B the
 * same, x 64 = 212992, outputs 16*256*(4+1)/2 = 10240: 223232 x 2 =
 * 446464; buffers: per tile 2*4*64 per input = 1024, x 64 = 65536, drain
 * reads 4096, accumulators 2*64*16*128 = 262144: 331776 x 6 = 1990656;
 * DRAM 36864 x 200 = 7372800.  Sum 10858496 -> 4.99490816e-5 J.  With
 * multicast the hops of A and B are 256 x 5 levels each per tile: 163840
 * + 10240 = 174080 x 2 = 348160, sum 10760192 -> 4.94968832e-5 J.
 */
static const struct net_case {
	const char *what;
	int32_t net, db;
	int status;
	uint64_t cycles;
	double mhz;
	int64_t lut, ff, offchip;
	double energy;
} net_cases[] = {
	{ "daisy, double-buffered", 0, 1, SIM_OK, 8332, 100, 37020, 54148,
	  147456, 4.99490816e-5 },
	{ "daisy, single-buffered", 0, 0, SIM_OK, 14284, 100, 37020, 54148,
	  147456, 4.99490816e-5 },
	{ "multicast", 1, 1, SIM_OK, 8317, 100, 38377, 56026, 147456,
	  4.94968832e-5 },
	{ "io_network 2", 2, 1, SIM_BAD_KNOB, 0, 0, 0, 0, 0, 0 },
	{ "double_buffer -1", 0, -1, SIM_BAD_KNOB, 0, 0, 0, 0, 0, 0 },
};

static void test_network_knobs(void **state)
{
	poly_template t = make_template(T_MM64);
	sim_options opt = { 0, 1, 1, 0, 0, { 0, 0, 0 } };
	dse_error err;
	sim_model *m = sim_model_alloc(&t, &easy_board, &t32, &opt, &err);
	size_t i;

	(void) state;
	assert_non_null(m);
	assert_int_equal(sim_model_n_knobs(m), 8);
	assert_string_equal(sim_model_knob_name(m, 6), "io_network");
	assert_string_equal(sim_model_knob_kind(m, 7), "double_buffer");
	assert_int_equal(sim_model_knob_loop(m, 7), -1);
	for (i = 0; i < DSE_N_OF(net_cases); i++) {
		const struct net_case *c = &net_cases[i];
		int32_t k[8] = { 16, 16, 16, 4, 4, 2, c->net, c->db };
		sim_metrics out;

		sim_eval(m, k, &out);
		if (out.status != c->status || out.cycles != c->cycles ||
		    out.lut != c->lut || out.ff != c->ff ||
		    out.offchip_bytes != c->offchip)
			fail_msg("%s: status %d cycles %llu lut %lld ff %lld "
				"offchip %lld", c->what, out.status,
				(unsigned long long) out.cycles,
				(long long) out.lut, (long long) out.ff,
				(long long) out.offchip_bytes);
		if (c->status != SIM_OK)
			continue;
		assert_close(c->what, out.mhz, c->mhz);
		assert_close(c->what, out.energy_j, c->energy);
		assert_close(c->what, out.edp, c->energy * out.latency_s);
		assert_close(c->what, out.latency_s, c->cycles / 1e8);
		assert_int_equal(out.dsp, 160);
	}
	sim_model_free(m);
}

/* The multicast crossbar reads a shared operand once: in the element-wise
 * kernel B[x][j] does not depend on i, yet the daisy chain feeds each of
 * the 16 PE lines along i its own copy.  T=(16,64), L=1: 16 PEs, 4 tiles.
 * Daisy: A 16 lines x 64 words = 1024, B 16 x 50*64 = 51200 per tile,
 * x 4 = 208896 words; D 4 output tiles of 1024 words: 212992 words =
 * 851968 bytes.  Multicast: A 1024 and B 3200 per tile: 16896 + 4096 =
 * 20992 words = 83968 bytes.  At 16 ports (1024^3 on the u250) the
 * clock is 6% lower: 282 MHz.
 */
static void test_multicast_costs(void **state)
{
	poly_template t = make_template(T_ELEM);
	sim_options opt = { 0, 1, 0, 0, 0, { 0, 0, 0 } };
	dse_error err;
	sim_model *m = sim_model_alloc(&t, &easy_board, &t32, &opt, &err);
	int32_t daisy[] = { 16, 64, 1, 1, 0 }, mc[] = { 16, 64, 1, 1, 1 };
	int32_t big_d[] = { 128, 128, 64, 8, 8, 4, 0 };
	int32_t big_m[] = { 128, 128, 64, 8, 8, 4, 1 };
	sim_metrics a, b;

	(void) state;
	sim_eval(m, daisy, &a);
	sim_eval(m, mc, &b);
	assert_int_equal(a.status, SIM_OK);
	assert_int_equal(b.status, SIM_OK);
	assert_int_equal(a.offchip_bytes, 851968);
	assert_int_equal(b.offchip_bytes, 83968);
	assert_true(b.cycles < a.cycles && b.energy_j < a.energy_j);
	assert_true(b.lut > a.lut && b.ff > a.ff);
	sim_model_free(m);

	t = make_template(T_MM1024);
	m = sim_model_alloc(&t, arch_board_find("u250"),
		arch_dtype_find("fp32"), &opt, &err);
	sim_eval(m, big_d, &a);
	sim_eval(m, big_m, &b);
	assert_close("daisy clock", a.mhz, 300.0);
	assert_close("multicast clock", b.mhz, 300.0 * 0.94);
	assert_true(b.lut > a.lut);
	assert_close("clock in latency", b.latency_s, b.cycles / 282e6);
	sim_model_free(m);
}

/* DSP: every fp32 design of mm with 2 operations per point (a multiplier
 * and an adder a lane) takes 3 + 2 DSP per lane, PEs x SIMD x 5; int16
 * and int8 one DSP a multiply and the adds in the DSP's post-adder,
 * PEs x SIMD; int8 with DSP packing two multiplies a DSP, rounded up per
 * PE.
 */
static void test_dsp_rule(void **state)
{
	poly_template t = make_template(T_MM64);
	dse_error err;
	sim_model *m = sim_model_alloc(&t, &easy_board,
		arch_dtype_find("fp32"), NULL, &err);
	sim_options pack = { 0, 0, 0, 1, 0, { 0, 0, 0 } };
	sim_model *m8 = sim_model_alloc(&t, &easy_board,
		arch_dtype_find("int8"), &pack, &err);
	sim_model *m16 = sim_model_alloc(&t, &easy_board,
		arch_dtype_find("int16"), NULL, &err);
	uint64_t seed = 7;
	int i, legal = 0;

	(void) state;
	for (i = 0; i < 4000; i++) {
		int32_t k[6];
		sim_metrics a, b, c;
		int j;

		for (j = 0; j < 6; j++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			k[j] = (int32_t) (1u << ((seed >> 33) % (j < 3 ? 7 : 4)));
		}
		sim_eval(m, k, &a);
		if (a.status != SIM_OK)
			continue;
		legal++;
		assert_int_equal(a.dsp, 5 * a.n_pe * k[5]);
		sim_eval(m8, k, &b);
		sim_eval(m16, k, &c);
		assert_int_equal(c.dsp, a.n_pe * k[5]);
		assert_int_equal(b.dsp, a.n_pe * ((k[5] + 1) / 2));
	}
	assert_true(legal > 100);
	sim_model_free(m);
	sim_model_free(m8);
	sim_model_free(m16);
}

/* Random legal points (fixed seed) of every example kernel of configs/,
 * built through the front end, with both networks and double buffering
 * on and off: latency positive and finite, resources non-negative,
 * energy positive.
 */
static void check_kernel_points(const sim_model *m, const poly_template *t,
	uint64_t *seed, int *legal)
{
	int n = sim_model_n_knobs(m), i, k;

	for (i = 0; i < 3000; i++) {
		int32_t v[SIM_MAX_KNOBS], t1[POLY_MAX_LOOPS] = { 0 };
		sim_metrics o;

		/* array_part in 1..extent, array_part_L2 a multiple of it,
		 * latency a divisor of it, simd and the network knobs small:
		 * most points are legal, the rest are skipped.
		 */
		for (k = 0; k < n; k++) {
			int loop = sim_model_knob_loop(m, k);
			const char *kind = sim_model_knob_kind(m, k);
			int64_t r;

			*seed = *seed * 6364136223846793005ULL +
				1442695040888963407ULL;
			r = (int64_t) (*seed >> 33);
			if (!strcmp(kind, "array_part")) {
				v[k] = t1[loop] = (int32_t) (1 + r %
					t->extent[loop]);
			} else if (!strcmp(kind, "array_part_L2")) {
				v[k] = t1[loop] * (int32_t) (1 + r %
					(t->extent[loop] / t1[loop]));
			} else if (!strcmp(kind, "latency")) {
				for (v[k] = (int32_t) (1 + r % 8);
				     t1[loop] % v[k]; v[k]--)
					;
			} else {
				v[k] = (int32_t) (r % (loop >= 0 ? 4 : 2)) +
					(loop >= 0);
			}
		}
		sim_eval(m, v, &o);
		if (o.status != SIM_OK)
			continue;
		(*legal)++;
		assert_true(o.cycles > 0 && o.latency_s > 0 &&
			isfinite(o.latency_s) && o.gops > 0);
		assert_true(o.dsp >= 0 && o.bram18k >= 0 && o.uram >= 0 &&
			o.lut > 0 && o.ff > 0 && o.offchip_bytes >= 0);
		assert_true(o.energy_j > 0 && isfinite(o.energy_j) &&
			o.edp > 0 && o.mhz > 0);
	}
}

static void test_property_kernels(void **state)
{
	static const int64_t params[POLY_MAX_PARAMS] = { 12, 10, 8, 9, 3,
		3, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8 };
	sim_options opt = { 1, 1, 1, 0, 0, { 0, 0, 0 } };
	uint64_t seed = 2024;
	int i;

	(void) state;
	for (i = 0; i < n_example_kernels(); i++) {
		const example_kernel *k = example_kernel_at(i);
		poly_kernel_desc desc = example_kernel_desc(k, params);
		poly_template t;
		dse_error err;
		sim_model *m;
		int legal = 0;

		dse_error_clear(&err);
		if (poly_template_build(&desc, -1, &t, &err))
			fail_msg("%s: %s", k->name, err.msg);
		m = sim_model_alloc(&t, arch_board_find("u250"),
			arch_dtype_find("fp32"), &opt, &err);
		if (!m)
			fail_msg("%s: %s", k->name, err.msg);
		check_kernel_points(m, &t, &seed, &legal);
		if (legal < 20)
			fail_msg("%s: only %d legal points", k->name, legal);
		sim_model_free(m);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest model[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_footprint_terms),
		cmocka_unit_test(test_footprint_compiled),
	};
	const struct CMUnitTest legality[] = {
		cmocka_unit_test(test_legality),
		cmocka_unit_test(test_status_names),
	};
	const struct CMUnitTest knobs[] = {
		cmocka_unit_test(test_knobs),
	};
	const struct CMUnitTest metrics[] = {
		cmocka_unit_test(test_metrics),
	};
	const struct CMUnitTest network[] = {
		cmocka_unit_test(test_network_knobs),
		cmocka_unit_test(test_multicast_costs),
		cmocka_unit_test(test_dsp_rule),
	};
	const struct CMUnitTest property[] = {
		cmocka_unit_test(test_property_kernels),
	};
	const struct CMUnitTest alloc[] = {
		cmocka_unit_test(test_alloc_rejects),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

#define RUN(g) \
	if (all || strcmp(group, #g) == 0) { \
		failed += cmocka_run_group_tests_name("sim." #g, g, NULL, \
			NULL); \
		ran = 1; \
	}
	RUN(model)
	RUN(legality)
	RUN(knobs)
	RUN(metrics)
	RUN(alloc)
	RUN(network)
	RUN(property)
#undef RUN
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
