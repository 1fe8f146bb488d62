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
 *   DSP = PEs * S * DSP per MAC * ceil(ops/2).  BRAM: per-PE buffers
 *   2 * PEs * bram(b, footprint(pe_tile)); line buffers 2 * lines *
 *   bram(b*S, footprint(line tile)/S) with lines = prod P over the space
 *   loops of direction 0, whose tile is L; with L2 one bram(b,
 *   footprint(T2)) per input.  bram = ceil(w/36)*ceil(d/512) (w > 18) or
 *   ceil(w/18)*ceil(d/1024), and 0 up to 1024 bits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/internal.h"
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

		snprintf(gr->name, sizeof(gr->name), "g%d", g + 1);
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
	sim_options opt = { l2 };
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
	/* --- mm space_time[3]: the numbers of the first, mm-only model. */
	/* T=16^3, L=4x4, S=2: R=C=4, II=1 (16 >= 4), 64 tiles, 16 outputs.
	 * comp = 16*8 = 128, load = 256/4 = 64,
	 * main = 64 + 63*128 + 128 = 8256, drain = 256/8 + 4 = 36,
	 * cycles = (10+4+4) + 8256 + 16*36 + 8 = 8858.
	 * dsp = 4*4*2*5 = 160.  BRAM: accumulators 32b x 16 = 512 bits -> 0;
	 * A: 64b x (4*16/2 = 32) -> 2*1, 2 per row x 4 rows = 16; B the
	 * same per column = 16; total 32.
	 */
	{ "compute bound", T_MM64, 0, &easy_board, &t32,
	  { 16, 16, 16, 4, 4, 2 }, 8858, 160, 32, 16, 4, 4, 1 },
	/* T=(8,8,64), L=1x2, S=1: R=8, C=4, II=ceil(4/2)=2, 64 tiles,
	 * 64 outputs.  comp = 2*64*2 = 256, load = 8*64/4 = 128,
	 * main = 128 + 63*256 + 256 = 16512, drain = 64/8 + 8 = 16,
	 * cycles = (10+8+4) + 16512 + 64*16 + 12 = 17570.
	 * dsp = 8*4*1*5 = 160.  BRAM: accumulators 64 bits -> 0;
	 * A: 32b x 64 = 2048 bits -> 1, x 2 x 8 rows = 16; B: 32b x 128 -> 1,
	 * x 2 x 4 columns = 8; total 24.
	 */
	{ "stalled accumulation", T_MM64, 0, &easy_board, &t32,
	  { 8, 8, 64, 1, 2, 1 }, 17570, 160, 24, 32, 8, 4, 2 },
	/* T=(4,4,8), L=1x1, S=2: R=C=4, II=4 (one accumulator per PE),
	 * tiles 16*16*8 = 2048, outputs 256.  comp = 1*4*4 = 16,
	 * load = 32/4 = 8, main = 8 + 2047*16 + 16 = 32776,
	 * drain = 16/8 + 4 = 6, cycles = 18 + 32776 + 256*6 + 8 = 34338.
	 * dsp = 16*2*5 = 160.  BRAM: A and B are 64b x 4 -> 0.
	 */
	{ "one accumulator", T_MM64, 0, &easy_board, &t32,
	  { 4, 4, 8, 1, 1, 2 }, 34338, 160, 0, 16, 4, 4, 4 },
	/* T=(64,64,16), L=16x32, S=8: R=4, C=2, II=1, 4 tiles, 1 output.
	 * comp = 512*2 = 1024, load = 64*16/4 = 256,
	 * main = 256 + 3*1024 + 1024 = 4352, drain = 4096/8 + 4 = 516,
	 * cycles = (10+4+2) + 4352 + 516 + 6 = 4890.
	 * dsp = 4*2*8*5 = 320.  BRAM: accumulators 32b x 512 -> 1, x 2 x 8
	 * PEs = 16; A: 256b x (16*16/8 = 32) -> 8, x 2 x 4 rows = 64;
	 * B: 256b x (32*16/8 = 64) -> 8, x 2 x 2 columns = 32; total 112.
	 */
	{ "big latency tiles", T_MM64, 0, &easy_board, &t32,
	  { 64, 64, 16, 16, 32, 8 }, 4890, 320, 112, 8, 4, 2, 1 },
	/* Template B, int8: T=(i 8, j 16, k 4), L(i)=4, L(k)=2, S=4.
	 * Rows along k: 4/2 = 2; columns along i: 8/4 = 2.  II=1.  Tiles
	 * (4,1,2) -> 8, outputs n[k]*n[i] = 2*4 = 8.  comp = 2*16*4/4 = 32,
	 * load = max(4*16/16, 16*8/16) = 8, main = 8 + 7*32 + 32 = 264,
	 * drain = ceil(32/32) + 2 = 3, cycles = (10+2+2) + 264 + 8*3 + 4
	 * = 306.  dsp = 2*2*4 = 16.  BRAM: every buffer is at most
	 * 32b x 16 = 512 bits -> 0.
	 */
	{ "permuted loops", T_B, 0, &easy_board, &t8,
	  { 8, 16, 4, 4, 2, 4 }, 306, 16, 0, 4, 2, 2, 1 },
	/* Template B, int8: one tile T=(32,16,8), L=1x1, S=16: R=8, C=32,
	 * II=1.  comp = 1*1*1 = 1, load = max(8*16/16, 32*16/16) = 32,
	 * main = 32 + 0 + 1 = 33, drain = 256/32 + 8 = 16,
	 * cycles = (10+8+32) + 33 + 16 + 40 = 139.  dsp = 8*32*16 = 4096.
	 */
	{ "single tile", T_B, 0, &easy_board, &t8,
	  { 32, 16, 8, 1, 1, 16 }, 139, 4096, 0, 256, 8, 32, 1 },
	/* Template B, 16-bit: T=(16,8,8), L(i)=2, L(k)=1, S=1: R=8, C=8,
	 * II=ceil(3/2)=2.  Tiles (2,2,1) -> 4, outputs 1*2 = 2.
	 * comp = 2*8*2 = 32, load = max(8*8/8, 16*8/8) = 16,
	 * main = 16 + 3*32 + 32 = 144, drain = 128/16 + 8 = 16,
	 * cycles = (10+8+8) + 144 + 2*16 + 16 = 218.  dsp = 64*1.5 = 96.
	 */
	{ "fp16 stall", T_B, 0, &easy_board, &t16,
	  { 16, 8, 8, 2, 1, 1 }, 218, 96, 0, 64, 8, 8, 2 },
	/* Template B, 16-bit: T=(8,16,1), L(i)=8, L(k)=1, S=1: R=C=1, II=1.
	 * Tiles (4,1,8) -> 32, outputs 8*4 = 32.  comp = 8*16 = 128,
	 * load = max(16/8, 128/8) = 16, main = 16 + 31*128 + 128 = 4112,
	 * drain = ceil(8/16) + 1 = 2, cycles = 12 + 4112 + 64 + 2 = 4190.
	 * dsp = ceil(1.5) = 2.  BRAM: Y is 16b x 128 = 2048 bits -> 1,
	 * x 2 x 1 column = 2.
	 */
	{ "rounded dsp", T_B, 0, &easy_board, &t16,
	  { 8, 16, 1, 8, 1, 1 }, 4190, 2, 2, 1, 1, 1, 1 },
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
	{ "u250 fp32 1024^3", T_MM1024, 0, NULL, NULL,
	  { 128, 128, 64, 8, 8, 4 }, 1115776, 5120, 768, 256, 16, 16, 1 },

	/* --- the other shapes. */
	/* mm space_time[0], a 1-D array along i.  T=(16,8,16), L(i)=4,
	 * L(j)=2, S=2: P = 4 PEs (4 x 1), pe_tile (4, 8, 16), II=1 (8 >= 4).
	 * comp = 4*8*16/2 = 256, tiles 4*8*4 = 128, load = max(16*16/4,
	 * 16*8/4) = 64, main = 64 + 127*256 + 256 = 32832; outputs 4*8 =
	 * 32 of ceil(128/8) + 4 = 20; cycles = (10+4) + 32832 + 640 + 4 =
	 * 33490.  dsp = 4*2*5 = 40.  BRAM: A is interior, per PE: 32b x
	 * (4*16) = 2048 bits -> 1, x 2 x 4 PEs = 8; C per PE 32b x 32 ->
	 * 0; B moves along i: one line (no space loop of direction 0) of
	 * the whole tile, 64b x 128/2 -> 2, x 2 = 4; total 12.
	 */
	{ "1-D array", T_MM1D, 0, &easy_board, &t32,
	  { 16, 8, 16, 4, 2, 2 }, 33490, 40, 12, 4, 4, 1, 1 },
	/* conv, r outside the band: T=(8,16,8), L(i)=4, L(j)=2, S=4:
	 * P = (2, 8), 16 PEs, pe_tile (4, 2, 8, r 4), II=1.
	 * comp = 4*2*8*4/4 = 64, tiles 4*2*2 = 16.  A[i][k+r] over
	 * (8,16,8,4): 8 x (1+7+3) = 88 -> 22; W[r][j][k]: 4*16*8 = 512 ->
	 * 128; load = 128, main = 128 + 15*128 + 64 = 2112; outputs 4*2 = 8
	 * of 128/8 + 2 = 18; cycles = (10+10) + 2112 + 144 + 10 = 2286.
	 * dsp = 16*4*5 = 320.  BRAM: C per PE 8 words -> 0; A: 2 lines
	 * (P_i) of tile (4,16,8,4) = 4*11 = 44 words, 128b x 11 -> 4, x 2
	 * x 2 = 16; W: 8 lines (P_j) of tile (8,2,8,4) = 64 words,
	 * 128b x 16 -> 4, x 2 x 8 = 64; total 80.
	 */
	{ "loop outside the band", T_OUTSIDE, 0, &easy_board, &t32,
	  { 8, 16, 8, 4, 2, 4 }, 2286, 320, 80, 16, 2, 8, 1 },
	/* mm with T2 = (32,64,16) over the "compute bound" point: per L2
	 * tile A is 32*16 = 512 words -> 128 cycles and B 16*64 = 1024 ->
	 * 256, each L2 tile serving 2*4*1 = 8 L1 tiles: load = max(16, 32)
	 * = 32.  main = 32 + 63*128 + 128 = 8224, cycles = 18 + 8224 + 576
	 * + 8 = 8826.  BRAM: 32 as before, plus the L3 buffers 32b x 512
	 * -> 1 and 32b x 1024 -> 2: 35.
	 */
	{ "second tiling level", T_MM64, 1, &easy_board, &t32,
	  { 16, 16, 16, 32, 64, 16, 4, 4, 2 }, 8826, 160, 35, 16, 4, 4, 1 },
	/* The whole kernel as one L2 tile: A (64*64 words) -> 1024 cycles
	 * and B the same, spread over 4*4*1 = 16 L1 tiles of T=(16,16,64):
	 * load = 64.  L=4x4, S=2: comp = 16*32 = 512, 16 tiles, main = 64 +
	 * 15*512 + 512 = 8256; outputs 16 of 36; cycles = 18 + 8256 + 576 +
	 * 8 = 8858.  BRAM: A and B lines 64b x (4*64/2 = 128) -> 2, x 2 x 4
	 * = 16 each; L3 buffers 32b x 4096 -> 8 each; total 48.
	 */
	{ "one L2 tile", T_MM64, 1, &easy_board, &t32,
	  { 16, 16, 64, 64, 64, 64, 4, 4, 2 }, 8858, 160, 48, 16, 4, 4, 1 },
	/* mm on a 3-D array, T=(64,64,4), L(i)=16, L(j)=32: P = (4,2,4),
	 * 32 PEs, pe_tile (16,32,1), II=1, comp = 512, 16 tiles.  Three
	 * inputs (A, B and the partial sums of C): wpc = 2.  A 256 -> 128,
	 * B 256 -> 128, C 4096 -> 2048: load = 2048, main = 2048 +
	 * 15*2048 + 512 = 33280.  C is stored after every tile: 16 x
	 * (4096/8 + 4) = 8256.  cycles = (10+10) + 33280 + 8256 + 10 =
	 * 41566.  dsp = 32*5 = 160.  BRAM: A 16 lines of 16 words -> 0,
	 * B 8 lines of 32 words -> 0, C 8 lines of (16*32) 32b words -> 1,
	 * x 2 x 8 = 16.
	 */
	{ "3-D array", T_MM3D, 0, &easy_board, &t32,
	  { 64, 64, 4, 16, 32 }, 41566, 160, 16, 32, 4, 2, 1 },
	/* Element-wise with a data-dependent row: T=(16,64), L=1x1: 16
	 * PEs, pe_tile (1,64), no carried dependence so II=1 with a single
	 * accumulator, comp = 64, 4 tiles.  A 16*64 = 1024 -> 256, B 50*64
	 * = 3200 -> 800: load = 800, main = 800 + 3*800 + 64 = 3264;
	 * outputs 4 of 1024/8 + 16 = 144; cycles = (10+16) + 3264 + 576 +
	 * 16 = 3882.  dsp = 16 * 5 * ceil(3/2) = 160.  BRAM: 16 lines
	 * (every PE fed directly) of A 64 words -> 1, B 3200 -> 7, D 64 ->
	 * 1: 2*16*(1+7+1) = 288.
	 */
	{ "element-wise, three operations", T_ELEM, 0, &easy_board, &t32,
	  { 16, 64, 1, 1 }, 3882, 160, 288, 16, 16, 1, 1 },
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
	for (i = 0; i < N_ELEMS(model_cases); i++)
		check_model_case(&model_cases[i]);
}

/* The footprints the model uses are poly_footprint's: a loop outside
 * the band counts whole, a sum of loops in one index spans the sum of
 * their ranges, clamped to the array's extent.  Checked through the load
 * term of a load-bound point: the conv kernel with T=(32,32,16) and L=1:
 * one tile, 1024 PEs, pe_tile (1,1,16,4), S=16, II=4 -> comp = 16.
 * A[i][k+r] = 32*19 = 608 words -> 152, W = 4*32*16 = 2048 -> 512;
 * main = 512 + 16 = 528.  Output: 1024/8 + 32 = 160.
 * cycles = (10+64) + 528 + 160 + 64 = 826.
 */
static void test_footprint_terms(void **state)
{
	sim_model *m = make_model(T_OUTSIDE, &easy_board, &t32, 0);
	const int32_t knobs[] = { 32, 32, 16, 1, 1, 16 };
	sim_metrics out;

	(void) state;
	sim_eval(m, knobs, &out);
	assert_int_equal(out.status, SIM_OK);
	assert_int_equal(out.cycles, 826);
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
	{ T_MM64, 0, { 16, 24, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 0, { 16, 16, 128, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 0, { 16, 16, 24, 4, 4, 3 }, SIM_BAD_TILE },
	{ T_MM64, 0, { 16, 16, 16, 3, 4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, 32, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 0, 4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, -4, 2 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, 3, 3 }, SIM_BAD_LATENCY },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 3 }, SIM_BAD_SIMD },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 32 }, SIM_BAD_SIMD },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 0 }, SIM_BAD_SIMD },
	/* array_part_L2 must be a multiple of array_part dividing the
	 * extent, and is checked before latency.
	 */
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 16, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 1, { 16, 16, 16, 16, 16, 16, 4, 4, 2 }, SIM_OK },
	{ T_MM64, 1, { 16, 16, 16, 24, 64, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 8, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 48, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 0, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 128, 16, 4, 4, 2 }, SIM_BAD_TILE },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 48, 3, 4, 2 }, SIM_BAD_TILE },
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
	{ T_OUTSIDE, 0, { 8, 16, 12, 4, 2, 4 }, SIM_BAD_TILE },
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
	for (i = 0; i < N_ELEMS(legality_cases); i++) {
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
	{ SIM_BAD_TILE, "array_part or array_part_L2 does not divide the loop "
	  "bound, or array_part_L2 is not a multiple of array_part" },
	{ SIM_BAD_LATENCY, "latency does not divide array_part" },
	{ SIM_BAD_SIMD, "simd does not divide what a PE runs of its loop" },
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
	for (i = 0; i < N_ELEMS(knob_cases); i++) {
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

static const struct sa_case {
	int tmpl;
	int l2;
	int32_t knobs[SIM_MAX_KNOBS];
	int size;
	const char *expect;
} sa_cases[] = {
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 2 }, 256,
	  "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];"
	  "kernel[]->latency[4,4];kernel[]->simd[2]}" },
	{ T_B, 0, { 8, 16, 4, 4, 2, 4 }, 256,
	  "{kernel[]->space_time[5];kernel[]->array_part[8,16,4];"
	  "kernel[]->latency[4,2];kernel[]->simd[4]}" },
	{ T_MM64, 1, { 16, 16, 16, 32, 64, 16, 4, 4, 2 }, 256,
	  "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];"
	  "kernel[]->array_part_L2[32,64,16];kernel[]->latency[4,4];"
	  "kernel[]->simd[2]}" },
	{ T_MM1D, 0, { 16, 8, 16, 4, 2, 2 }, 256,
	  "{kernel[]->space_time[0];kernel[]->array_part[16,8,16];"
	  "kernel[]->latency[4,2];kernel[]->simd[2]}" },
	{ T_MM3D, 0, { 64, 64, 4, 16, 32 }, 256,
	  "{kernel[]->space_time[6];kernel[]->array_part[64,64,4];"
	  "kernel[]->latency[16,32]}" },
	{ T_ELEM, 1, { 16, 64, 32, 64, 1, 1 }, 256,
	  "{kernel[]->space_time[0];kernel[]->array_part[16,64];"
	  "kernel[]->array_part_L2[32,64];kernel[]->latency[1,1]}" },
	/* Cut to the buffer, still terminated. */
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 2 }, 12, "{kernel[]->" },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 2 }, 40,
	  "{kernel[]->space_time[3];kernel[]->arra" },
	{ T_MM64, 0, { 16, 16, 16, 4, 4, 2 }, 1, "" },
};

static void test_sa_sizes(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < N_ELEMS(sa_cases); i++) {
		const struct sa_case *c = &sa_cases[i];
		sim_model *m = make_model(c->tmpl, &easy_board, &t32, c->l2);
		char buf[256];

		memset(buf, 'x', sizeof(buf));
		sim_sa_sizes(m, c->knobs, buf, c->size);
		assert_string_equal(buf, c->expect);
		sim_model_free(m);
	}
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
	sim_metrics v;
	const double values[SIM_N_METRICS] = { 5.5e-6, 1234, 160, 32, 3,
		77.25 };
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
	assert_int_equal(N_ELEMS(reject_cases), 15);
	for (i = 0; i < N_ELEMS(reject_cases); i++) {
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
