/* Tests of sim/scale.c (the SCALE-Sim-style os/ws/is mode) and of the
 * "dse scalesim" command.  Run as "test_scale <group>"; the groups are
 * listed in main().
 *
 * Every expected number is worked out by hand in the comments from the
 * rules documented at the top of sim/scale.c and sim/scale_mem.c:
 *
 *   im2col: e = ceil((h-r+sh)/sh) * ceil((w-s+sw)/sw), win = r*s*c; a
 *   GEMM M,N,K is e = M, win = K, k = N.
 *   os: sr = e, sc = k, t = win; fold = t + rows + cols - 2.
 *   ws: sr = win, sc = k, t = e; fold = t + 2 rows + cols - 2.
 *   is: sr = win, sc = e, t = k; fold = t + 2 rows + cols - 2.
 *   folds = ceil(sr/rows) * ceil(sc/cols); compute = folds * t.
 *   util = macs / (rows*cols*cycles); map eff = macs / (rows*cols*compute).
 *   SRAM reads: an operand swept per row fold (os/ws ifmap, is filter) is
 *   read col_folds times; one reused over the row folds (os filter) is
 *   read row_folds times; the stationary one (ws filter, is ifmap) once.
 *   OFMAP writes: e*k in os, row_folds * e*k in ws and is.
 *   DRAM, with SRAMs of 6 MiB: every word read fits an active half, so
 *   DRAM reads each word some tap reads once, and every OFMAP write goes
 *   to DRAM.
 * The replay under small SRAMs, where halves hand over and buffers
 * stall, is checked against SCALE-Sim's own report files in
 * test_scale_io.c and against a plain rebuild of its demand matrices in
 * test_scale_replay.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/support/groups.h"

#include "core/util.h"
#include "sim/scale.h"

int dse_scale_main(int argc, char **argv);

#define BIG { 6144, 6144, 2048 }

enum { OS = SIM_SCALE_OS, WS = SIM_SCALE_WS, IS = SIM_SCALE_IS };

/* One case: the array, the layer (a GEMM when gemm[0] > 0, else the conv
 * h,w,r,s,c,k,stride), the SRAM sizes and word size, then the expected
 * values.  util and map are given as fractions in the table.
 */
struct scale_case {
	const char *name;
	int64_t rows, cols;
	int df;
	int64_t gemm[3];		/* M, N, K */
	int64_t conv[8];		/* h, w, r, s, c, k, stride h, w */
	int64_t sram_kb[3];
	int64_t word_bytes;
	/* expected */
	int64_t e, win, sr, sc, t, row_folds, col_folds;
	int64_t cycles, compute, fill_drain, macs;
	double util, map;
	int64_t sram_reads[3];		/* ifmap, filter; ofmap 0 */
	int64_t ofmap_writes;
	int64_t dram_reads[3];		/* ifmap, filter, ofmap partials */
	int64_t dram_writes;		/* ofmap */
	int64_t dram_bytes;
};

static const struct scale_case cases[] = {
	/* 2x2, GEMM M=2,N=2,K=3: e = 2, win = 3, k = 2.
	 * os: sr 2, sc 2, t 3, one fold of 3 + 2 + 2 - 2 = 5 cycles,
	 * compute 3, fill/drain 2; macs 2*3*2 = 12, util 12/(4*5), map
	 * 12/(4*3) = 100%.  ifmap reads 1 * 6, filter 1 * 6, ofmap 4.
	 * Everything fits a half: DRAM reads each word once (A 2x3 = 6, B
	 * 3x2 = 6) and writes every OFMAP word (4): 16 one-byte words.
	 */
	{ "2x2 os gemm", 2, 2, OS, { 2, 2, 3 }, { 0 }, BIG, 1,
	  2, 3, 2, 2, 3, 1, 1, 5, 3, 2, 12, 12.0 / 20, 1.0,
	  { 6, 6, 0 }, 4, { 6, 6, 0 }, 4, 16 },
	/* ws: sr = win 3 -> 2 row folds, sc 2 -> 1, t = e = 2; each fold
	 * 2 + 4 + 2 - 2 = 6: cycles 12, compute 4, fill/drain 8; util
	 * 12/(4*12), map 12/(4*4).  ifmap 1 * 6, filter once 6, ofmap
	 * 2 * 4 = 8 partial-sum writes, each of which goes to DRAM: 20.
	 */
	{ "2x2 ws gemm", 2, 2, WS, { 2, 2, 3 }, { 0 }, BIG, 1,
	  2, 3, 3, 2, 2, 2, 1, 12, 4, 8, 12, 12.0 / 48, 12.0 / 16,
	  { 6, 6, 0 }, 8, { 6, 6, 0 }, 8, 20 },
	/* is: sr = win 3 -> 2 row folds, sc = e 2 -> 1, t = k = 2: the same
	 * cycles as ws.  ifmap once 6, filter 1 * 6, ofmap 2 * 4 = 8.
	 */
	{ "2x2 is gemm", 2, 2, IS, { 2, 2, 3 }, { 0 }, BIG, 1,
	  2, 3, 3, 2, 2, 2, 1, 12, 4, 8, 12, 12.0 / 48, 12.0 / 16,
	  { 6, 6, 0 }, 8, { 6, 6, 0 }, 8, 20 },
	/* 4x4, GEMM 4,4,4 fills the array exactly.  os: one fold of
	 * 4 + 4 + 4 - 2 = 10, macs 64, util 64/160, map 100%; reads 16,
	 * 16, writes 16; DRAM 48.
	 */
	{ "4x4 os exact", 4, 4, OS, { 4, 4, 4 }, { 0 }, BIG, 1,
	  4, 4, 4, 4, 4, 1, 1, 10, 4, 6, 64, 64.0 / 160, 1.0,
	  { 16, 16, 0 }, 16, { 16, 16, 0 }, 16, 48 },
	/* ws: one fold of 4 + 8 + 4 - 2 = 14, util 64/224, map 100%. */
	{ "4x4 ws exact", 4, 4, WS, { 4, 4, 4 }, { 0 }, BIG, 1,
	  4, 4, 4, 4, 4, 1, 1, 14, 4, 10, 64, 64.0 / 224, 1.0,
	  { 16, 16, 0 }, 16, { 16, 16, 0 }, 16, 48 },
	{ "4x4 is exact", 4, 4, IS, { 4, 4, 4 }, { 0 }, BIG, 1,
	  4, 4, 4, 4, 4, 1, 1, 14, 4, 10, 64, 64.0 / 224, 1.0,
	  { 16, 16, 0 }, 16, { 16, 16, 0 }, 16, 48 },
	/* Partial folds.  4x4 os, GEMM M=6,N=5,K=3: e 6, win 3, k 5; sr 6
	 * -> 2 row folds (4 + 2), sc 5 -> 2 col folds (4 + 1), t 3; 4
	 * folds of 3 + 6 = 9: cycles 36, compute 12, fill/drain 24; macs
	 * 90, util 90/(16*36), map 90/(16*12).  ifmap 2 col folds * 18 =
	 * 36, filter 2 row folds * 15 = 30, ofmap 30.  DRAM 18 + 15 + 30.
	 */
	{ "4x4 os partial", 4, 4, OS, { 6, 5, 3 }, { 0 }, BIG, 1,
	  6, 3, 6, 5, 3, 2, 2, 36, 12, 24, 90, 90.0 / 576, 90.0 / 192,
	  { 36, 30, 0 }, 30, { 18, 15, 0 }, 30, 63 },
	/* The same with 64-byte words: 63 words of 64 bytes. */
	{ "4x4 os wide words", 4, 4, OS, { 6, 5, 3 }, { 0 }, BIG, 64,
	  6, 3, 6, 5, 3, 2, 2, 36, 12, 24, 90, 90.0 / 576, 90.0 / 192,
	  { 36, 30, 0 }, 30, { 18, 15, 0 }, 30, 63 * 64 },
	/* 4x4 ws, GEMM M=3,N=6,K=5: e 3, win 5, k 6; sr 5 -> 2 row folds,
	 * sc 6 -> 2 col folds, t 3; 4 folds of 3 + 8 + 4 - 2 = 13: cycles
	 * 52, compute 12, fill/drain 40; macs 90.  ifmap 2 * 15 = 30,
	 * filter 30, ofmap 2 row folds * 18 = 36.  DRAM 15 + 30 + 36 = 81.
	 */
	{ "4x4 ws partial", 4, 4, WS, { 3, 6, 5 }, { 0 }, BIG, 1,
	  3, 5, 5, 6, 3, 2, 2, 52, 12, 40, 90, 90.0 / 832, 90.0 / 192,
	  { 30, 30, 0 }, 36, { 15, 30, 0 }, 36, 81 },
	/* 4x4 is, GEMM M=6,N=3,K=5: e 6, win 5, k 3; sr 5 -> 2, sc 6 -> 2,
	 * t 3: the same 52 cycles.  ifmap once 30, filter 2 col folds * 15
	 * = 30, ofmap 2 * 18 = 36.  DRAM 30 + 15 + 36 = 81.
	 */
	{ "4x4 is partial", 4, 4, IS, { 6, 3, 5 }, { 0 }, BIG, 1,
	  6, 5, 5, 6, 3, 2, 2, 52, 12, 40, 90, 90.0 / 832, 90.0 / 192,
	  { 30, 30, 0 }, 36, { 30, 15, 0 }, 36, 81 },
	/* A convolution: IFMAP 5x5, 2 channels, 4 filters of 3x3, stride 2.
	 * im2col: ceil((5-3+2)/2) = 2 by 2 -> e = 4, win = 3*3*2 = 18,
	 * k = 4.  os on 4x4: sr 4, sc 4, t 18, one fold of 18 + 6 = 24;
	 * macs 4*18*4 = 288, util 288/384 = 75%, map 100%.  ifmap 72,
	 * filter 72, ofmap 16.  The windows at rows and columns 0 and 2
	 * cover all 5 x 5 x 2 = 50 IFMAP words: DRAM 50 + 72 + 16 = 138.
	 */
	{ "4x4 os conv", 4, 4, OS, { 0 }, { 5, 5, 3, 3, 2, 4, 2, 2 }, BIG, 1,
	  4, 18, 4, 4, 18, 1, 1, 24, 18, 6, 288, 288.0 / 384, 1.0,
	  { 72, 72, 0 }, 16, { 50, 72, 0 }, 16, 138 },
	/* ws: sr = win 18 -> 5 row folds (4,4,4,4,2), sc 4 -> 1, t = e = 4;
	 * 5 folds of 4 + 8 + 4 - 2 = 14: cycles 70, compute 20; util
	 * 288/1120, map 288/320.  ifmap 72, filter 72, ofmap 5 * 16 = 80,
	 * all written out: DRAM 50 + 72 + 80 = 202.
	 */
	{ "4x4 ws conv", 4, 4, WS, { 0 }, { 5, 5, 3, 3, 2, 4, 2, 2 }, BIG, 1,
	  4, 18, 18, 4, 4, 5, 1, 70, 20, 50, 288, 288.0 / 1120,
	  288.0 / 320, { 72, 72, 0 }, 80, { 50, 72, 0 }, 80, 202 },
	/* is: sr 18 -> 5, sc = e 4 -> 1, t = k 4: the same 70 cycles. */
	{ "4x4 is conv", 4, 4, IS, { 0 }, { 5, 5, 3, 3, 2, 4, 2, 2 }, BIG, 1,
	  4, 18, 18, 4, 4, 5, 1, 70, 20, 50, 288, 288.0 / 1120,
	  288.0 / 320, { 72, 72, 0 }, 80, { 50, 72, 0 }, 80, 202 },
	/* A stride that does not divide: IFMAP 6x7, 1 channel, 2 filters of
	 * 3x2, stride 2.  SCALE-Sim's size: ceil((6-3+2)/2) = 3 rows,
	 * ceil((7-2+2)/2) = 4 columns (floor((H-R)/s)+1 would give 2 x 3):
	 * e = 12, win = 6, k = 2.  2x2 os: sr 12 -> 6 row folds, sc 2 -> 1,
	 * t 6; 6 folds of 6 + 2 = 8: cycles 48, compute 36; macs 144, util
	 * 144/192, map 100%.  The last window row (rows 4-6) has 2 rows
	 * inside, the last column (6-7) 1: taps (3+3+2) * (2+2+2+1) = 56
	 * read, of 72 in SCALE-Sim's count.  filter 6 * 12 = 72, ofmap 24.
	 * The windows cover all 6 x 7 words: DRAM 42 + 12 + 24 = 78.
	 */
	{ "2x2 os conv stride", 2, 2, OS, { 0 }, { 6, 7, 3, 2, 1, 2, 2, 2 },
	  BIG, 1, 12, 6, 12, 2, 6, 6, 1, 48, 36, 12, 144, 144.0 / 192, 1.0,
	  { 56, 72, 0 }, 24, { 42, 12, 0 }, 24, 78 },
	/* Separate strides (a 9-column row): stride 2 down, 3 across.
	 * Rows as above (3); columns ceil((7-2+3)/3) = 3: e = 9, win 6,
	 * k 2.  2x2 os: sr 9 -> 5 row folds, t 6, folds of 8: cycles 40,
	 * compute 30; macs 108, util 108/160, map 108/120.  Column windows
	 * at 0, 3, 6: taps 2 + 2 + 1 = 5, so 8 * 5 = 40 read; filter 5 * 12
	 * = 60; ofmap 18.  Columns covered 0-1, 3-4, 6: 6 x 5 = 30 words.
	 */
	{ "2x2 os conv strides", 2, 2, OS, { 0 }, { 6, 7, 3, 2, 1, 2, 2, 3 },
	  BIG, 1, 9, 6, 9, 2, 6, 5, 1, 40, 30, 10, 108, 108.0 / 160,
	  108.0 / 120, { 40, 60, 0 }, 18, { 30, 12, 0 }, 18, 60 },
	/* 100% utilisation: a 1x1 os array has no skew.  GEMM 2,3,4: e 2,
	 * win 4, k 3; 2 x 3 = 6 folds of 4 cycles: 24 = macs 2*4*3.  ifmap
	 * read per col fold 3 * 8 = 24, filter per row fold 2 * 12 = 24.
	 */
	{ "1x1 os full", 1, 1, OS, { 2, 3, 4 }, { 0 }, BIG, 1,
	  2, 4, 2, 3, 4, 2, 3, 24, 24, 0, 24, 1.0, 1.0,
	  { 24, 24, 0 }, 6, { 8, 12, 0 }, 6, 26 },
	/* A 1x1 ws array still preloads its weight: sr = win 4 row folds,
	 * sc = k 3, t = e 2; 12 folds of 2 + 2 + 1 - 2 = 3: cycles 36,
	 * compute 24; util 24/36, map 100%.  ifmap 3 * 8 = 24, filter 12,
	 * ofmap 4 * 6 = 24, every partial sum written out: 8 + 12 + 24.
	 */
	{ "1x1 ws preload", 1, 1, WS, { 2, 3, 4 }, { 0 }, BIG, 1,
	  2, 4, 4, 3, 2, 4, 3, 36, 24, 12, 24, 24.0 / 36, 1.0,
	  { 24, 12, 0 }, 24, { 8, 12, 0 }, 24, 44 },
};

static void layer_of(const struct scale_case *c, sim_scale_layer *l)
{
	if (c->gemm[0] > 0)
		sim_scale_gemm(l, c->gemm[0], c->gemm[1], c->gemm[2]);
	else
		*l = (sim_scale_layer) { c->conv[0], c->conv[1], c->conv[2],
			c->conv[3], c->conv[4], c->conv[5], c->conv[6],
			c->conv[7] };
}

static void arch_of(const struct scale_case *c, sim_scale_arch *a)
{
	sim_scale_arch_default(a, c->rows, c->cols,
		(enum sim_scale_dataflow) c->df);
	memcpy(a->sram_kb, c->sram_kb, sizeof(a->sram_kb));
	a->word_bytes = c->word_bytes;
}

static void check_case(const struct scale_case *c)
{
	sim_scale_arch a;
	sim_scale_layer l;
	sim_scale_result r;
	dse_error err;
	int i;

	print_message("case %s\n", c->name);
	arch_of(c, &a);
	layer_of(c, &l);
	dse_error_clear(&err);
	assert_int_equal(sim_scale_run(&a, &l, &r, &err), dse_stat_ok);
	assert_int_equal(r.e, c->e);
	assert_int_equal(r.win, c->win);
	assert_int_equal(r.sr, c->sr);
	assert_int_equal(r.sc, c->sc);
	assert_int_equal(r.t, c->t);
	assert_int_equal(r.row_folds, c->row_folds);
	assert_int_equal(r.col_folds, c->col_folds);
	assert_int_equal(r.folds, c->row_folds * c->col_folds);
	assert_int_equal(r.cycles, c->cycles);
	assert_int_equal(r.compute_cycles, c->compute);
	assert_int_equal(r.fill_drain_cycles, c->fill_drain);
	assert_int_equal(r.stall_cycles, 0);
	assert_int_equal(r.macs, c->macs);
	assert_float_equal(r.utilization, c->util, 1e-12);
	assert_float_equal(r.mapping_efficiency, c->map, 1e-12);
	for (i = 0; i < 3; i++) {
		assert_int_equal(r.sram_reads[i], c->sram_reads[i]);
		assert_int_equal(r.dram_reads[i], c->dram_reads[i]);
	}
	assert_int_equal(r.sram_writes[SIM_SCALE_IFMAP], 0);
	assert_int_equal(r.sram_writes[SIM_SCALE_FILTER], 0);
	assert_int_equal(r.sram_writes[SIM_SCALE_OFMAP], c->ofmap_writes);
	assert_int_equal(r.dram_writes[SIM_SCALE_IFMAP], 0);
	assert_int_equal(r.dram_writes[SIM_SCALE_FILTER], 0);
	assert_int_equal(r.dram_writes[SIM_SCALE_OFMAP], c->dram_writes);
	assert_int_equal(r.dram_bytes, c->dram_bytes);
	/* SCALE-Sim's conventions: the last cycle's index, every tap of a
	 * window read, rows + cols more OFMAP writes per os fold.
	 */
	assert_int_equal(r.report.total_cycles, c->cycles - 1);
	assert_int_equal(r.report.stall_cycles, 0);
	assert_int_equal(r.report.sram_accesses[SIM_SCALE_IFMAP],
		r.e * r.win * (c->df == IS ? 1 : r.col_folds));
	assert_int_equal(r.report.sram_accesses[SIM_SCALE_FILTER],
		c->sram_reads[SIM_SCALE_FILTER]);
	assert_int_equal(r.report.sram_accesses[SIM_SCALE_OFMAP],
		c->ofmap_writes + (c->df == OS ? r.folds * (c->rows + c->cols) :
		0));
	assert_float_equal(r.report.mapping_eff, 100 * c->map, 1e-9);
}

static void test_cases(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(cases); i++)
		check_case(&cases[i]);
}

/* Bad layers and arrays: each is an input error (exit status 2) and
 * leaves the result zeroed.
 */
struct bad_case {
	const char *name;
	int64_t rows, cols;
	int df;
	int64_t layer[8];	/* h, w, r, s, c, k, stride h, w */
	int64_t sram0, word_bytes;
};

static const struct bad_case bad_cases[] = {
	{ "no rows", 0, 4, OS, { 4, 4, 1, 1, 1, 1, 1, 1 }, 64, 1 },
	{ "negative cols", 4, -1, OS, { 4, 4, 1, 1, 1, 1, 1, 1 }, 64, 1 },
	{ "dataflow 3", 4, 4, 3, { 4, 4, 1, 1, 1, 1, 1, 1 }, 64, 1 },
	{ "no filters", 4, 4, WS, { 4, 4, 1, 1, 1, 0, 1, 1 }, 64, 1 },
	{ "stride 0", 4, 4, IS, { 4, 4, 1, 1, 1, 1, 0, 1 }, 64, 1 },
	{ "stride w 0", 4, 4, IS, { 4, 4, 1, 1, 1, 1, 1, 0 }, 64, 1 },
	{ "no channels", 4, 4, OS, { 4, 4, 1, 1, 0, 1, 1, 1 }, 64, 1 },
	{ "filter taller", 4, 4, OS, { 2, 4, 3, 1, 1, 1, 1, 1 }, 64, 1 },
	{ "filter wider", 4, 4, OS, { 4, 2, 1, 3, 1, 1, 1, 1 }, 64, 1 },
	{ "no sram", 4, 4, OS, { 4, 4, 1, 1, 1, 1, 1, 1 }, 0, 1 },
	/* 1 KiB of 16-byte words is 64 words: SCALE-Sim's sets of
	 * floor(64 / 100) words would hold nothing.
	 */
	{ "sram of 64 words", 4, 4, OS, { 4, 4, 1, 1, 1, 1, 1, 1 }, 1, 16 },
	{ "zero-byte word", 4, 4, OS, { 4, 4, 1, 1, 1, 1, 1, 1 }, 64, 0 },
	/* e = 2^24 x 2^24 pixels passes the 2^32 words an operand may
	 * have.
	 */
	{ "too large", 4, 4, OS, { 1LL << 24, 1LL << 24, 1, 1, 1, 2, 1, 1 },
	  64, 1 },
};

static void test_bad(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(bad_cases); i++) {
		const struct bad_case *b = &bad_cases[i];
		sim_scale_arch a;
		sim_scale_layer l = { b->layer[0], b->layer[1], b->layer[2],
			b->layer[3], b->layer[4], b->layer[5], b->layer[6],
			b->layer[7] };
		sim_scale_result r;
		dse_error err;

		print_message("bad case %s\n", b->name);
		sim_scale_arch_default(&a, b->rows, b->cols,
			(enum sim_scale_dataflow) b->df);
		a.sram_kb[0] = b->sram0;
		a.word_bytes = b->word_bytes;
		dse_error_clear(&err);
		assert_int_equal(sim_scale_run(&a, &l, &r, &err),
			dse_stat_error);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_int_equal(dse_error_exit_status(&err), 2);
		assert_true(err.msg[0] != '\0');
		assert_int_equal(r.cycles, 0);
		assert_int_equal(r.macs, 0);
	}
}

static void test_names(void **state)
{
	enum sim_scale_dataflow df = SIM_SCALE_OS;

	(void) state;
	assert_string_equal(sim_scale_dataflow_name(SIM_SCALE_WS), "ws");
	assert_null(sim_scale_dataflow_name((enum sim_scale_dataflow) 7));
	assert_int_equal(sim_scale_dataflow_parse("is", &df), dse_stat_ok);
	assert_int_equal(df, SIM_SCALE_IS);
	assert_int_equal(sim_scale_dataflow_parse("OS", &df),
		dse_stat_error);
	assert_int_equal(sim_scale_dataflow_parse(NULL, &df),
		dse_stat_error);
	assert_string_equal(sim_scale_operand_name(SIM_SCALE_OFMAP), "ofmap");
	assert_null(sim_scale_operand_name(SIM_SCALE_N_OPERANDS));
}

/* Runs "dse scalesim" with the arguments of "line" (split at blanks) with
 * standard output and error sent to /dev/null, or to "out" when given.
 * Returns its exit status.
 */
static int run_cli(const char *line, const char *out)
{
	char buf[512], *argv[32], *tok, *save = NULL;
	int argc = 0, status, saved_out, saved_err, fd;

	snprintf(buf, sizeof(buf), "scalesim %s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	fd = fileno(fopen(out ? out : "/dev/null", "w"));
	dup2(fd, 1);
	dup2(fd, 2);
	status = dse_scale_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	close(fd);
	return status;
}

/* Command lines and their exit status. */
static const struct {
	const char *line;
	int status;
} cli_cases[] = {
	{ "--array 4x4 --dataflow os --gemm 4,4,4", 0 },
	{ "-a 2x2 -d ws -C 5,5,3,3,2,4,2 -s 1,1,1 -w 8", 0 },
	{ "-a 2x2 -d ws -C 5,5,3,3,2,4,2,1 -b 4", 0 },	/* USER mode */
	{ "--array 4x4 --dataflow is --conv 5,5,3,3,2,4,2 --json", 0 },
	{ "--help", 0 },
	{ "--dataflow os --gemm 4,4,4", 2 },		/* no array */
	{ "--array 4x4 --gemm 4,4,4", 2 },		/* no dataflow */
	{ "--array 4x4 --dataflow os", 2 },		/* no layer */
	{ "--array 4x --dataflow os --gemm 4,4,4", 2 },
	{ "--array 0x4 --dataflow os --gemm 4,4,4", 2 },
	{ "--array 4x4x4 --dataflow os --gemm 4,4,4", 2 },
	{ "--array 4x4 --dataflow xs --gemm 4,4,4", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4,4", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,-4,4", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4 --conv 5,5,3,3,2,4,2", 2 },
	{ "--array 4x4 --dataflow os --conv 3,3,5,5,1,1,1", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4 --sram-kb 1,2", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4 --word-bytes 0", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4 --bandwidth 0", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4 --sram-kb 0,1,1", 2 },
	{ "--array 4x4 --dataflow os --conv 5,5,3,3,2,4,2,2,2", 2 },
	{ "-c scale.cfg --array 4x4", 2 },	/* a config and flags */
	{ "-t topology.csv", 2 },		/* a topology, no config */
	{ "-c /nonexistent/scale.cfg", 2 },
	{ "scale.cfg", 2 },		/* taken as -c scale.cfg: no such file */
	{ "--array 4x4 --dataflow os --gemm 4,4,4 --bogus", 2 },
	{ "--array 4x4 --dataflow os --gemm 4,4,4 extra", 2 },
	{ "--array 4x4 --dataflow os --gemm", 2 },
};

static void test_cli(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(cli_cases); i++) {
		print_message("cli: %s\n", cli_cases[i].line);
		assert_int_equal(run_cli(cli_cases[i].line, NULL),
			cli_cases[i].status);
	}
}

/* The JSON output carries the numbers of the "4x4 ws conv" case (SRAMs of
 * 6144, 6144, 2048 KiB, as the case's BIG).
 */
static void test_json(void **state)
{
	char path[] = "/tmp/test_scale_XXXXXX", text[4096];
	size_t n;
	FILE *f;
	int fd;

	(void) state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(run_cli("--array 4x4 --dataflow ws --conv "
		"5,5,3,3,2,4,2 --sram-kb 6144,6144,2048 --json", path), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	unlink(path);
	assert_non_null(strstr(text, "\"dataflow\": \"ws\""));
	assert_non_null(strstr(text, "\"row_folds\": 5, \"col_folds\": 1"));
	assert_non_null(strstr(text, "\"cycles\": 70, \"stall_cycles\": 0, "
		"\"compute_cycles\": 20"));
	assert_non_null(strstr(text, "\"scalesim_total_cycles\": 69"));
	assert_non_null(strstr(text, "\"sram_writes\": {\"ifmap\": 0, "
		"\"filter\": 0, \"ofmap\": 80}"));
	assert_non_null(strstr(text, "\"dram_bytes\": 202"));
}

int main(int argc, char **argv)
{
	const test_group groups[] = {
		{ "cases", cmocka_unit_test(test_cases) },
		{ "bad", cmocka_unit_test(test_bad) },
		{ "names", cmocka_unit_test(test_names) },
		{ "cli", cmocka_unit_test(test_cli) },
		{ "json", cmocka_unit_test(test_json) },
	};

	return test_run_groups(argc < 2 ? NULL : argv[1], groups,
		DSE_N_OF(groups));
}
