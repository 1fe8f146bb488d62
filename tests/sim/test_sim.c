/* Tests of sim/: the analytic model of the output-stationary 2-D array.
 * Run as "test_sim <group>"; the groups are listed in main().
 *
 * The expected numbers are worked out by hand in the comments, on a made-up
 * board whose figures keep the arithmetic easy:
 *
 *   100 MHz, 3.2 GB/s -> 32 bytes per cycle, 256-bit ports, 10-cycle DRAM.
 *   32-bit data: wpc = min(256/32, 32/2/4) = 4, wpc_out = min(8, 32/4) = 8.
 *   16-bit data: wpc = min(16, 32/2/2) = 8,    wpc_out = min(16, 16) = 16.
 *    8-bit data: wpc = min(32, 32/2/1) = 16,   wpc_out = min(32, 32) = 32.
 *
 * Reminder of the model (see sim/sim.c):
 *   R = T[s0]/L0, C = T[s1]/L1, II = max(1, ceil(acc/(L0*L1)))
 *   comp = L0*L1*(T[r]/S)*II, load = max(ceil(T[s0]T[r]/wpc),
 *   ceil(T[s1]T[r]/wpc)), main = load + (tiles-1)*max(load,comp) + comp,
 *   drain = ceil(T[s0]T[s1]/wpc_out) + R, prologue = lat + R + C,
 *   epilogue = R + C, cycles = prologue + main + n_out*drain + epilogue.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const arch_board easy_board = {
	"easy", "none", 1000, 1000, 0, 100000, 200000, 3.2, 100.0, 256, 10
};

/* Hand-made data types: a 32-bit float with a 4-cycle adder, a 16-bit
 * float with a fractional DSP cost, and an 8-bit integer.
 */
static const arch_dtype t32 = { "t32", 32, 5.0, 4, 1 };
static const arch_dtype t16 = { "t16", 16, 1.5, 3, 1 };
static const arch_dtype t8 = { "t8", 8, 1.0, 1, 0 };

enum { TMPL_MM64, TMPL_B, TMPL_MM1024, TMPL_HUGE };

/* Fills the templates by hand.  MM64: C[i][j] += A[i][k]*B[k][j] with
 * 64^3 iterations, space loops i, j.  B: loops i, j, k of 32 x 16 x 8 whose
 * space loops are k then i and whose reduction is j, so that the model's
 * loop bookkeeping is exercised.  MM1024: the 1024^3 matrix multiply.
 * HUGE: 2^21 per loop, 2^63 instances, where cycles and DSP overflow.
 */
static poly_template make_template(int which)
{
	poly_template t;

	memset(&t, 0, sizeof(t));
	snprintf(t.statement, sizeof(t.statement), "S0");
	t.n_loops = 3;
	snprintf(t.loop[0], POLY_NAME_LEN, "i");
	snprintf(t.loop[1], POLY_NAME_LEN, "j");
	snprintf(t.loop[2], POLY_NAME_LEN, "k");
	t.n_space = 2;
	t.ops_per_point = 2;
	if (which == TMPL_B) {
		snprintf(t.kernel, sizeof(t.kernel), "b");
		t.extent[0] = 32;
		t.extent[1] = 16;
		t.extent[2] = 8;
		t.space_loop[0] = 2;
		t.space_loop[1] = 0;
		t.reduction = 1;
		t.space_time = 5;
	} else {
		int64_t e = which == TMPL_MM64 ? 64 :
			which == TMPL_HUGE ? INT64_C(1) << 21 : 1024;

		snprintf(t.kernel, sizeof(t.kernel), "mm");
		t.extent[0] = t.extent[1] = t.extent[2] = e;
		t.space_loop[0] = 0;
		t.space_loop[1] = 1;
		t.reduction = 2;
		t.space_time = 3;
	}
	t.points = (uint64_t) t.extent[0] * (uint64_t) t.extent[1] *
		(uint64_t) t.extent[2];
	return t;
}

static sim_model *make_model(int which, const arch_board *board,
	const arch_dtype *dtype)
{
	poly_template t = make_template(which);
	dse_error err;
	sim_model *m;

	dse_error_clear(&err);
	m = sim_model_alloc(&t, board, dtype, &err);
	if (!m)
		fail_msg("sim_model_alloc: %s", err.msg);
	return m;
}

/* One legal design point and its hand-computed metrics.  Knobs are
 * array_part of loops 0, 1, 2, then latency of s0, s1, then simd.
 */
struct model_case {
	const char *what;
	int tmpl;
	const arch_board *board;	/* NULL: the built-in u250 */
	const arch_dtype *dtype;	/* NULL: the built-in fp32 */
	int32_t knobs[6];
	uint64_t cycles;
	int64_t dsp, bram18k;
	int32_t rows, cols, ii;
};

static const struct model_case model_cases[] = {
	/* T=16^3, L=4x4, S=2: R=C=4, II=1 (16 >= 4), 64 tiles, 16 outputs.
	 * comp = 16*8 = 128, load = 256/4 = 64,
	 * main = 64 + 63*128 + 128 = 8256, drain = 256/8 + 4 = 36,
	 * cycles = (10+4+4) + 8256 + 16*36 + 8 = 8858.
	 * dsp = 4*4*2*5 = 160.  BRAM: accumulators 32b x 16 = 512 bits -> 0;
	 * A: 64b x (4*16/2 = 32) -> 2*1, 2 per row x 4 rows = 16; B the
	 * same per column = 16; total 32.
	 */
	{ "compute bound", TMPL_MM64, &easy_board, &t32,
	  { 16, 16, 16, 4, 4, 2 }, 8858, 160, 32, 4, 4, 1 },
	/* T=(8,8,64), L=1x2, S=1: R=8, C=4, II=ceil(4/2)=2, 64 tiles,
	 * 64 outputs.  comp = 2*64*2 = 256, load = 8*64/4 = 128,
	 * main = 128 + 63*256 + 256 = 16512, drain = 64/8 + 8 = 16,
	 * cycles = (10+8+4) + 16512 + 64*16 + 12 = 17570.
	 * dsp = 8*4*1*5 = 160.  BRAM: accumulators 64 bits -> 0;
	 * A: 32b x 64 = 2048 bits -> 1, x 2 x 8 rows = 16; B: 32b x 128 -> 1,
	 * x 2 x 4 columns = 8; total 24.
	 */
	{ "stalled accumulation", TMPL_MM64, &easy_board, &t32,
	  { 8, 8, 64, 1, 2, 1 }, 17570, 160, 24, 8, 4, 2 },
	/* T=(4,4,8), L=1x1, S=2: R=C=4, II=4 (one accumulator per PE),
	 * tiles 16*16*8 = 2048, outputs 256.  comp = 1*4*4 = 16,
	 * load = 32/4 = 8, main = 8 + 2047*16 + 16 = 32776,
	 * drain = 16/8 + 4 = 6, cycles = 18 + 32776 + 256*6 + 8 = 34338.
	 * dsp = 16*2*5 = 160.  BRAM: A and B are 64b x 4 -> 0.
	 */
	{ "one accumulator", TMPL_MM64, &easy_board, &t32,
	  { 4, 4, 8, 1, 1, 2 }, 34338, 160, 0, 4, 4, 4 },
	/* T=(64,64,16), L=16x32, S=8: R=4, C=2, II=1, 4 tiles, 1 output.
	 * comp = 512*2 = 1024, load = 64*16/4 = 256,
	 * main = 256 + 3*1024 + 1024 = 4352, drain = 4096/8 + 4 = 516,
	 * cycles = (10+4+2) + 4352 + 516 + 6 = 4890.
	 * dsp = 4*2*8*5 = 320.  BRAM: accumulators 32b x 512 -> 1, x 2 x 8
	 * PEs = 16; A: 256b x (16*16/8 = 32) -> 8, x 2 x 4 rows = 64;
	 * B: 256b x (32*16/8 = 64) -> 8, x 2 x 2 columns = 32; total 112.
	 */
	{ "big latency tiles", TMPL_MM64, &easy_board, &t32,
	  { 64, 64, 16, 16, 32, 8 }, 4890, 320, 112, 4, 2, 1 },
	/* Template B, int8: T=(i 8, j 16, k 4), L(k)=2, L(i)=4, S=4.
	 * s0=k: R=4/2=2; s1=i: C=8/4=2; r=j.  II=1.  Tiles (4,1,2) -> 8,
	 * outputs n[k]*n[i] = 2*4 = 8.  comp = 8*(16/4) = 32,
	 * load = max(4*16/16, 8*16/16) = 8, main = 8 + 7*32 + 32 = 264,
	 * drain = ceil(32/32) + 2 = 3, cycles = (10+2+2) + 264 + 8*3 + 4
	 * = 306.  dsp = 2*2*4 = 16.  BRAM: every buffer is at most
	 * 32b x 16 = 512 bits -> 0.
	 */
	{ "permuted loops", TMPL_B, &easy_board, &t8,
	  { 8, 16, 4, 2, 4, 4 }, 306, 16, 0, 2, 2, 1 },
	/* Template B, int8: one tile T=(32,16,8), L=1x1, S=16: R=8, C=32,
	 * II=1.  comp = 1*1*1 = 1, load = max(8*16/16, 32*16/16) = 32,
	 * main = 32 + 0 + 1 = 33, drain = 256/32 + 8 = 16,
	 * cycles = (10+8+32) + 33 + 16 + 40 = 139.  dsp = 8*32*16 = 4096.
	 */
	{ "single tile", TMPL_B, &easy_board, &t8,
	  { 32, 16, 8, 1, 1, 16 }, 139, 4096, 0, 8, 32, 1 },
	/* Template B, 16-bit: T=(16,8,8), L(k)=1, L(i)=2, S=1: R=8, C=8,
	 * II=ceil(3/2)=2.  Tiles (2,2,1) -> 4, outputs 1*2 = 2.
	 * comp = 2*8*2 = 32, load = max(8*8/8, 16*8/8) = 16,
	 * main = 16 + 3*32 + 32 = 144, drain = 128/16 + 8 = 16,
	 * cycles = (10+8+8) + 144 + 2*16 + 16 = 218.  dsp = 64*1.5 = 96.
	 */
	{ "fp16 stall", TMPL_B, &easy_board, &t16,
	  { 16, 8, 8, 1, 2, 1 }, 218, 96, 0, 8, 8, 2 },
	/* Template B, 16-bit: T=(8,16,1), L(k)=1, L(i)=8, S=1: R=C=1, II=1.
	 * Tiles (4,1,8) -> 32, outputs 8*4 = 32.  comp = 8*16 = 128,
	 * load = max(16/8, 128/8) = 16, main = 16 + 31*128 + 128 = 4112,
	 * drain = ceil(8/16) + 1 = 2, cycles = 12 + 4112 + 64 + 2 = 4190.
	 * dsp = ceil(1.5) = 2.  BRAM: B is 16b x 128 = 2048 bits -> 1,
	 * x 2 x 1 column = 2.
	 */
	{ "rounded dsp", TMPL_B, &easy_board, &t16,
	  { 8, 16, 1, 1, 8, 1 }, 4190, 2, 2, 1, 1, 1 },
	/* 1024^3 fp32 on the u250: 300 MHz, 77 GB/s -> 256.67 bytes per
	 * cycle, wpc = min(16, 32) = 16, wpc_out = min(16, 64) = 16, DRAM
	 * latency 64, fp32 adder 5 cycles.  T=(128,128,64), L=8x8, S=4:
	 * R=C=16, II=1, tiles 8*8*16 = 1024, outputs 64.  comp = 64*16 =
	 * 1024, load = 128*64/16 = 512, main = 512 + 1023*1024 + 1024 =
	 * 1049088, drain = 16384/16 + 16 = 1040, cycles = (64+32) + 1049088
	 * + 64*1040 + 32 = 1115776.  dsp = 256*4*5 = 5120.  BRAM:
	 * accumulators 32b x 64 -> 1, x 2 x 256 = 512; A: 128b x 128 -> 4,
	 * x 2 x 16 = 128; B the same, 128; total 768.
	 */
	{ "u250 fp32 1024^3", TMPL_MM1024, NULL, NULL,
	  { 128, 128, 64, 8, 8, 4 }, 1115776, 5120, 768, 16, 16, 1 },
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
	sim_model *m = make_model(c->tmpl, board, dtype);
	double ops = (double) t.points * t.ops_per_point;
	double secs = (double) c->cycles / (board->mhz * 1e6);
	sim_metrics out;

	sim_eval(m, c->knobs, &out);
	if (out.status != SIM_OK || out.cycles != c->cycles)
		fail_msg("%s: status %d cycles %llu, expected %llu", c->what,
			out.status, (unsigned long long) out.cycles,
			(unsigned long long) c->cycles);
	assert_int_equal(out.dsp, c->dsp);
	assert_int_equal(out.bram18k, c->bram18k);
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
	for (i = 0; i < N_ELEMS(model_cases); i++)
		check_model_case(&model_cases[i]);
}

/* Illegal points: the status of the first rule broken, all else zero. */
static const struct legality_case {
	int tmpl;
	int32_t knobs[6];
	int status;
} legality_cases[] = {
	{ TMPL_MM64, { 16, 16, 16, 4, 4, 2 }, SIM_OK },
	{ TMPL_MM64, { 0, 16, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ TMPL_MM64, { -16, 16, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ TMPL_MM64, { 16, 24, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ TMPL_MM64, { 16, 16, 128, 4, 4, 2 }, SIM_BAD_TILE },
	{ TMPL_MM64, { 16, 16, 24, 4, 4, 3 }, SIM_BAD_TILE },
	{ TMPL_MM64, { 16, 16, 16, 3, 4, 2 }, SIM_BAD_LATENCY },
	{ TMPL_MM64, { 16, 16, 16, 4, 32, 2 }, SIM_BAD_LATENCY },
	{ TMPL_MM64, { 16, 16, 16, 0, 4, 2 }, SIM_BAD_LATENCY },
	{ TMPL_MM64, { 16, 16, 16, 4, -4, 2 }, SIM_BAD_LATENCY },
	{ TMPL_MM64, { 16, 16, 16, 4, 3, 3 }, SIM_BAD_LATENCY },
	{ TMPL_MM64, { 16, 16, 16, 4, 4, 3 }, SIM_BAD_SIMD },
	{ TMPL_MM64, { 16, 16, 16, 4, 4, 32 }, SIM_BAD_SIMD },
	{ TMPL_MM64, { 16, 16, 16, 4, 4, 0 }, SIM_BAD_SIMD },
	/* Template B: latency_k (knob 3) must divide T[k] = 4, latency_i
	 * (knob 4) must divide T[i] = 8, simd must divide T[j] = 16.
	 */
	{ TMPL_B, { 8, 16, 4, 4, 8, 16 }, SIM_OK },
	{ TMPL_B, { 8, 16, 4, 8, 4, 4 }, SIM_BAD_LATENCY },
	{ TMPL_B, { 8, 16, 4, 4, 16, 4 }, SIM_BAD_LATENCY },
	{ TMPL_B, { 8, 8, 4, 2, 4, 16 }, SIM_BAD_SIMD },
	{ TMPL_B, { 8, 32, 4, 2, 4, 4 }, SIM_BAD_TILE },
	/* 2^63 single-MAC tiles: the cycle count does not fit in 64 bits. */
	{ TMPL_HUGE, { 1, 1, 1, 1, 1, 1 }, SIM_TOO_LARGE },
	/* One tile, 2^42 PEs x 2^21 lanes x 5 DSP. */
	{ TMPL_HUGE, { 1 << 21, 1 << 21, 1 << 21, 1, 1, 1 << 21 },
	  SIM_TOO_LARGE },
	/* Big but representable: 2^21 x 2^21 x 2^10 in 2^20-point tiles. */
	{ TMPL_HUGE, { 1 << 10, 1 << 10, 1 << 10, 1, 1, 1 }, SIM_OK },
};

static void test_legality(void **state)
{
	sim_model *m[TMPL_HUGE + 1] = { NULL };
	size_t i;

	(void) state;
	m[TMPL_MM64] = make_model(TMPL_MM64, &easy_board, &t32);
	m[TMPL_B] = make_model(TMPL_B, &easy_board, &t8);
	m[TMPL_HUGE] = make_model(TMPL_HUGE, &easy_board, &t32);
	for (i = 0; i < N_ELEMS(legality_cases); i++) {
		const struct legality_case *c = &legality_cases[i];
		sim_metrics out;

		memset(&out, 0xab, sizeof(out));
		sim_eval(m[c->tmpl], c->knobs, &out);
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
		assert_int_equal(out.pe_rows, 0);
		assert_int_equal(out.pe_cols, 0);
		assert_int_equal(out.ii, 0);
	}
	for (i = 0; i < N_ELEMS(m); i++)
		sim_model_free(m[i]);
}

static const struct status_case {
	int status;
	const char *name;
} status_cases[] = {
	{ SIM_OK, "ok" },
	{ SIM_BAD_TILE, "array_part does not divide the loop bound" },
	{ SIM_BAD_LATENCY, "latency does not divide array_part" },
	{ SIM_BAD_SIMD, "simd does not divide the reduction tile" },
	{ SIM_TOO_LARGE, "cycles or resources overflow 64 bits" },
	{ SIM_N_STATUS, "unknown status" },
	{ -1, "unknown status" },
};

static void test_status_names(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < N_ELEMS(status_cases); i++)
		assert_string_equal(sim_status_name(status_cases[i].status),
			status_cases[i].name);
}

/* The knobs: names from the loop names, the loop each tiles, the kind. */
static const struct knob_case {
	int tmpl;
	int knob;
	const char *name;
	int loop;
	const char *kind;
} knob_cases[] = {
	{ TMPL_MM64, 0, "array_part_i", 0, "array_part" },
	{ TMPL_MM64, 1, "array_part_j", 1, "array_part" },
	{ TMPL_MM64, 2, "array_part_k", 2, "array_part" },
	{ TMPL_MM64, 3, "latency_i", 0, "latency" },
	{ TMPL_MM64, 4, "latency_j", 1, "latency" },
	{ TMPL_MM64, 5, "simd_k", 2, "simd" },
	{ TMPL_B, 0, "array_part_i", 0, "array_part" },
	{ TMPL_B, 2, "array_part_k", 2, "array_part" },
	{ TMPL_B, 3, "latency_k", 2, "latency" },
	{ TMPL_B, 4, "latency_i", 0, "latency" },
	{ TMPL_B, 5, "simd_j", 1, "simd" },
	{ TMPL_MM64, 6, NULL, -1, NULL },
	{ TMPL_MM64, -1, NULL, -1, NULL },
};

static void test_knobs(void **state)
{
	sim_model *m[TMPL_HUGE + 1] = { NULL };
	size_t i;

	(void) state;
	m[TMPL_MM64] = make_model(TMPL_MM64, &easy_board, &t32);
	m[TMPL_B] = make_model(TMPL_B, &easy_board, &t8);
	m[TMPL_HUGE] = make_model(TMPL_HUGE, &easy_board, &t32);
	assert_int_equal(sim_model_n_knobs(m[0]), 6);
	assert_int_equal(sim_model_n_knobs(m[1]), 6);
	for (i = 0; i < N_ELEMS(knob_cases); i++) {
		const struct knob_case *c = &knob_cases[i];
		const sim_model *mm = m[c->tmpl];

		assert_int_equal(sim_model_knob_loop(mm, c->knob), c->loop);
		if (!c->name) {
			assert_null(sim_model_knob_name(mm, c->knob));
			assert_null(sim_model_knob_kind(mm, c->knob));
			continue;
		}
		assert_string_equal(sim_model_knob_name(mm, c->knob), c->name);
		assert_string_equal(sim_model_knob_kind(mm, c->knob), c->kind);
	}
	sim_model_free(m[0]);
	sim_model_free(m[1]);
}

static const struct sa_case {
	int tmpl;
	int32_t knobs[6];
	int size;
	const char *expect;
} sa_cases[] = {
	{ TMPL_MM64, { 16, 16, 16, 4, 4, 2 }, 256,
	  "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];"
	  "kernel[]->latency[4,4];kernel[]->simd[2]}" },
	{ TMPL_B, { 8, 16, 4, 2, 4, 4 }, 256,
	  "{kernel[]->space_time[5];kernel[]->array_part[8,16,4];"
	  "kernel[]->latency[2,4];kernel[]->simd[4]}" },
	{ TMPL_MM64, { 16, 16, 16, 4, 4, 2 }, 12, "{kernel[]->" },
};

static void test_sa_sizes(void **state)
{
	sim_model *m[TMPL_HUGE + 1] = { NULL };
	size_t i;

	(void) state;
	m[TMPL_MM64] = make_model(TMPL_MM64, &easy_board, &t32);
	m[TMPL_B] = make_model(TMPL_B, &easy_board, &t8);
	m[TMPL_HUGE] = make_model(TMPL_HUGE, &easy_board, &t32);
	for (i = 0; i < N_ELEMS(sa_cases); i++) {
		char buf[256];

		sim_sa_sizes(m[sa_cases[i].tmpl], sa_cases[i].knobs, buf,
			sa_cases[i].size);
		assert_string_equal(buf, sa_cases[i].expect);
	}
	sim_model_free(m[0]);
	sim_model_free(m[1]);
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
};

static void test_metrics(void **state)
{
	const sim_metrics v = { 1234, 5.5e-6, 77.25, 160, 32, 3, 4, 4, 1,
		SIM_OK };
	const double values[SIM_N_METRICS] = { 5.5e-6, 1234, 160, 32, 3,
		77.25 };
	arch_board big = easy_board;
	size_t i;

	(void) state;
	big.uram = 640;
	assert_int_equal(N_ELEMS(metric_cases), SIM_N_METRICS);
	for (i = 0; i < N_ELEMS(metric_cases); i++) {
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

/* Templates the model cannot describe: alloc fails with an input error. */
static void test_alloc_rejects(void **state)
{
	poly_template bad[4];
	dse_error err;
	size_t i;

	(void) state;
	for (i = 0; i < N_ELEMS(bad); i++)
		bad[i] = make_template(TMPL_MM64);
	bad[0].n_loops = 2;		/* a 2-loop nest */
	bad[1].n_space = 1;		/* a 1-D array */
	bad[2].reduction = 1;		/* reduction on a space loop */
	bad[3].space_loop[1] = 0;	/* the same space loop twice */
	for (i = 0; i < N_ELEMS(bad); i++) {
		dse_error_clear(&err);
		assert_null(sim_model_alloc(&bad[i], &easy_board, &t32, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_true(strlen(err.msg) > 0);
	}
	/* The message says what the model needs. */
	dse_error_clear(&err);
	assert_null(sim_model_alloc(&bad[0], &easy_board, &t32, &err));
	assert_non_null(strstr(err.msg, "3 loops"));
	assert_null(sim_model_free(NULL));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest model[] = {
		cmocka_unit_test(test_model),
	};
	const struct CMUnitTest legality[] = {
		cmocka_unit_test(test_legality),
		cmocka_unit_test(test_status_names),
	};
	const struct CMUnitTest knobs[] = {
		cmocka_unit_test(test_knobs),
	};
	const struct CMUnitTest sa_sizes[] = {
		cmocka_unit_test(test_sa_sizes),
	};
	const struct CMUnitTest metrics[] = {
		cmocka_unit_test(test_metrics),
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
	RUN(sa_sizes)
	RUN(metrics)
	RUN(alloc)
#undef RUN
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
