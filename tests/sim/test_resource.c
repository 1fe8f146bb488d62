/* Tests of the resource model (sim/resource.c): every module, buffer and
 * FIFO AutoSA's code generator emits for a design, the memory each buffer
 * is bound to, DSP per lane from the statement's operators, and the
 * breakdown that lists them.
 *
 * The expected values come from outside the model:
 * - AutoSA's own generated code for its published int8 matrix multiply
 *   (autosa_tests/large/mm_int8/kernel_kernel_opt.cpp in AutoSA's
 *   repository: space_time[3], array_part[264,256,64], latency[11,32],
 *   simd[64], --data-pack-sizes 32,32,64 bytes): the module calls, the
 *   buffer declarations with their HLS RESOURCE pragmas, and the
 *   hls::stream declarations, counted in that file;
 * - AutoSA's rules (extract_memory_type, compute_io_group_data_pack and
 *   the double-buffer default of generate_filter_buffer_io_module),
 *   worked by hand for small designs;
 * - the BRAM18K geometry of AutoSA's resource model (ceil(w/36) x
 *   ceil(depth/512) above 18 bits, ceil(w/18) x ceil(depth/1024) below)
 *   and the DSP slices of each operator (fp32 multiplier 3, adder 2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim.h"
#include "tests/support/mm_kernel.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* A matrix multiply as AutoSA's large examples write it, B[j][k]. */
static poly_template mm_template(int64_t m, int64_t n, int64_t k)
{
	poly_kernel_desc d;
	poly_template t;
	dse_error err;

	memset(&d, 0, sizeof(d));
	d.name = "mm";
	d.domain = "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and "
		"0 <= k < K }";
	d.reads = "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[j,k]; "
		"S0[i,j,k] -> C[i,j] }";
	d.writes = "[M,N,K] -> { S0[i,j,k] -> C[i,j] }";
	d.n_params = 3;
	d.param_name[0] = "M";
	d.param_name[1] = "N";
	d.param_name[2] = "K";
	d.param_value[0] = m;
	d.param_value[1] = n;
	d.param_value[2] = k;
	d.reduction = "k";
	dse_error_clear(&err);
	if (poly_template_build(&d, 3, &t, &err))
		fail_msg("mm: %s", err.msg);
	return t;
}

static sim_model *model_of(const poly_template *t, const char *dtype,
	const char *board, const sim_options *opt)
{
	dse_error err;
	sim_model *m;

	dse_error_clear(&err);
	m = sim_model_alloc(t, arch_board_find(board), arch_dtype_find(dtype),
		opt, &err);
	if (!m)
		fail_msg("%s", err.msg);
	return m;
}

/* The row of a breakdown with this module and part name, or NULL. */
static const sim_part *find(const sim_part *parts, int n, const char *module,
	const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(parts[i].module, module) &&
		    !strcmp(parts[i].name, name))
			return &parts[i];
	return NULL;
}

/* The rows must add up to sim_eval's totals. */
static void check_sums(const sim_part *parts, int n, const sim_metrics *m)
{
	int64_t dsp = 0, bram = 0, uram = 0, lut = 0, ff = 0;
	int i;

	for (i = 0; i < n; i++) {
		dsp += parts[i].dsp;
		bram += parts[i].bram18k;
		uram += parts[i].uram;
		lut += parts[i].lut;
		ff += parts[i].ff;
	}
	if (dsp != m->dsp || bram != m->bram18k || uram != m->uram ||
	    lut != m->lut || ff != m->ff)
		fail_msg("rows add up to %lld DSP %lld BRAM18K %lld URAM %lld "
			"LUT %lld FF, sim_eval gives %lld %lld %lld %lld %lld",
			(long long) dsp, (long long) bram, (long long) uram,
			(long long) lut, (long long) ff, (long long) m->dsp,
			(long long) m->bram18k, (long long) m->uram,
			(long long) m->lut, (long long) m->ff);
}

/* What a row must say; -1 where the row does not say (module rows). */
struct want {
	const char *module, *name;
	int64_t count;
	int width;
	int64_t depth, banks;
	int copies;
	int mem;
	int64_t bram18k;
};

static void check_rows(const sim_part *parts, int n,
	const struct want *w, size_t n_want)
{
	size_t i;

	for (i = 0; i < n_want; i++) {
		const sim_part *p = find(parts, n, w[i].module, w[i].name);

		if (!p)
			fail_msg("no row %s / %s", w[i].module, w[i].name);
		if (p->count != w[i].count ||
		    (w[i].width >= 0 && (p->width != w[i].width ||
			p->depth != w[i].depth || p->banks != w[i].banks ||
			p->copies != w[i].copies || p->mem != w[i].mem)) ||
		    p->bram18k != w[i].bram18k)
			fail_msg("%s / %s: count %lld width %d depth %lld "
				"banks %lld copies %d mem %s BRAM18K %lld",
				w[i].module, w[i].name, (long long) p->count,
				p->width, (long long) p->depth,
				(long long) p->banks, p->copies,
				p->mem >= 0 ? arch_mem_name(p->mem) : "-",
				(long long) p->bram18k);
	}
}

/* AutoSA's int8 design as its generated code has it.  Counts: 24 PE rows
 * (264/11) x 8 columns (256/32) = 192 PE_wrapper calls; 23 A_IO_L2_in
 * and 1 boundary; 7 B_IO_L2_in and 1 boundary; 184 C_drain_IO_L1_out and
 * 8 boundary; 7 C_drain_IO_L2_out and 1 boundary; one L3 module each; 24
 * A_PE_dummy_in, 8 B_PE_dummy_in.  Buffers: "C_t1 local_C[11][32]" with
 * core=RAM_2P_BRAM in the PE (8 bits x 352: 1 BRAM18K); "A_t1
 * local_A[1][64]" with ARRAY_PARTITION complete (registers); "A_t64
 * local_A_ping[11][1]" and its pong, RAM_1P_BRAM, in A_IO_L2_in (512 bits
 * x 11: 15 BRAM18K each); "B_t64 local_B_ping[32][1]" (15); "C_t32
 * local_C[11][1]", RAM_2P_BRAM, one copy, in C_drain_IO_L1_out (256 bits
 * x 11: 8).  Streams: 216 fifo_A_PE and 200 fifo_B_PE of 512 bits, 25
 * fifo_A_A_IO_L2_in and 9 fifo_B_B_IO_L2_in of 512, 192 fifo_C_drain_PE
 * of char, 200 fifo_C_drain_C_drain_IO_L1_out and 9 ..._L2_out of 256
 * (the file's one extra stream per array feeds the host-serialize module,
 * which the model leaves out).
 */
static const struct want int8_rows[] = {
	{ "PE", "PE", 192, -1, 0, 0, 0, 0, 0 },
	{ "PE", "local_C", 192, 8, 352, 1, 1, ARCH_MEM_BRAM, 192 },
	{ "PE", "local_A", 192, 8, 64, 64, 1, ARCH_MEM_FF, 0 },
	{ "PE", "local_B", 192, 8, 64, 64, 1, ARCH_MEM_FF, 0 },
	{ "A_IO_L2_in", "A_IO_L2_in", 24, -1, 0, 0, 0, 0, 0 },
	{ "A_IO_L2_in", "local_A", 24, 512, 11, 1, 2, ARCH_MEM_BRAM, 720 },
	{ "B_IO_L2_in", "local_B", 8, 512, 32, 1, 2, ARCH_MEM_BRAM, 240 },
	{ "A_IO_L3_in", "A_IO_L3_in", 1, -1, 0, 0, 0, 0, 0 },
	{ "B_IO_L3_in", "B_IO_L3_in", 1, -1, 0, 0, 0, 0, 0 },
	{ "A_PE_dummy_in", "A_PE_dummy_in", 24, -1, 0, 0, 0, 0, 0 },
	{ "B_PE_dummy_in", "B_PE_dummy_in", 8, -1, 0, 0, 0, 0, 0 },
	{ "C_drain_IO_L1_out", "local_C", 192, 256, 11, 1, 1,
		ARCH_MEM_BRAM, 1536 },
	{ "C_drain_IO_L2_out", "C_drain_IO_L2_out", 8, -1, 0, 0, 0, 0, 0 },
	{ "C_drain_IO_L3_out", "C_drain_IO_L3_out", 1, -1, 0, 0, 0, 0, 0 },
	{ "A_IO_L2_in", "fifo_A_PE", 216, 512, 2, 1, 1, ARCH_MEM_SRL, 0 },
	{ "B_IO_L2_in", "fifo_B_PE", 200, 512, 2, 1, 1, ARCH_MEM_SRL, 0 },
	{ "A_IO_L2_in", "fifo_A_A_IO_L2_in", 25, 512, 2, 1, 1, ARCH_MEM_SRL,
		0 },
	{ "B_IO_L2_in", "fifo_B_B_IO_L2_in", 9, 512, 2, 1, 1, ARCH_MEM_SRL,
		0 },
	{ "C_drain_IO_L1_out", "fifo_C_drain_PE", 192, 8, 2, 1, 1,
		ARCH_MEM_SRL, 0 },
	{ "C_drain_IO_L1_out", "fifo_C_drain_C_drain_IO_L1_out", 200, 256, 2,
		1, 1, ARCH_MEM_SRL, 0 },
	{ "C_drain_IO_L2_out", "fifo_C_drain_C_drain_IO_L2_out", 9, 256, 2,
		1, 1, ARCH_MEM_SRL, 0 },
};

static void test_autosa_int8(void **state)
{
	poly_template t = mm_template(1056, 1024, 1024);
	sim_options opt = { 0, 0, 0, 0, 0, { 32, 32, 64 } };
	const int32_t knobs[] = { 264, 256, 64, 11, 32, 64 };
	sim_part parts[SIM_MAX_PARTS];
	sim_metrics m;
	sim_model *model;
	int n, packing;

	(void) state;
	/* The published board figure is 6,144 DSP: AutoSA's example maps
	 * half its multipliers to LUTs by hand; two multiplies per DSP
	 * comes to the same count.  The generated code itself binds one
	 * DSP a multiply: 192 x 64.
	 */
	for (packing = 0; packing <= 1; packing++) {
		opt.dsp_packing = packing;
		model = model_of(&t, "int8", "u250", &opt);
		assert_int_equal(sim_breakdown(model, knobs, parts, &n, &m),
			SIM_OK);
		check_rows(parts, n, int8_rows, N_ELEMS(int8_rows));
		check_sums(parts, n, &m);
		assert_int_equal(m.dsp, packing ? 6144 : 12288);
		/* 192 + 720 + 240 + 1536 BRAM18K: 1,344 BRAM36 tiles, where
		 * the board run reports 1,364.
		 */
		assert_int_equal(m.bram18k, 2688);
		assert_int_equal(m.uram, 0);
		sim_model_free(model);
	}
}

/* AutoSA's rules on small fp32 designs of a 64^3 matrix multiply, worked
 * by hand.  Default packing bounds 8, 32, 64 bytes = 2, 8, 16 floats.
 * - knobs 8,8,8 / 2,2 / S 2: PEs 4 x 4; local_C 2 x 2 = 4 floats, single
 *   words <= 8: registers; A's L2 buffer per PE row: A[2][8] (L_i x T_k),
 *   lane 2 (S) widened to 8 (L2 bound 8 floats, divides 8): 256 bits x 2,
 *   ping and pong, BRAM: 8 x 1 each, x 2 x 4 rows = 64; B likewise 64;
 *   C's drain buffer per PE C[2][2], lane up to 2 (L1 bound 2 floats):
 *   64 bits x 2, one copy, BRAM 2 each x 16 = 32.  Total 160.
 * - knobs 16,16,8 / 4,4 / S 1, no double buffering: local_C 4 x 4 = 16
 *   floats: BRAM, 1 each x 16; A[4][8] lane 8: 256 bits x 4, one copy:
 *   8 x 4 = 32; B 32; drain C[4][4] lane 2: 64 bits x 8: 2 x 16 = 32.
 *   Total 112.
 */
static const struct small_case {
	int32_t knobs[7];	/* T1 i j k, L i j, S, double_buffer */
	const struct want rows[4];
	int64_t bram18k;
} small_cases[] = {
	{ { 8, 8, 8, 2, 2, 2, 1 }, {
		{ "PE", "local_C", 16, 32, 4, 1, 1, ARCH_MEM_FF, 0 },
		{ "A_IO_L2_in", "local_A", 4, 256, 2, 1, 2, ARCH_MEM_BRAM,
			64 },
		{ "B_IO_L2_in", "local_B", 4, 256, 2, 1, 2, ARCH_MEM_BRAM,
			64 },
		{ "C_drain_IO_L1_out", "local_C", 16, 64, 2, 1, 1,
			ARCH_MEM_BRAM, 32 } }, 160 },
	{ { 16, 16, 8, 4, 4, 1, 0 }, {
		{ "PE", "local_C", 16, 32, 16, 1, 1, ARCH_MEM_BRAM, 16 },
		{ "A_IO_L2_in", "local_A", 4, 256, 4, 1, 1, ARCH_MEM_BRAM,
			32 },
		{ "B_IO_L2_in", "local_B", 4, 256, 4, 1, 1, ARCH_MEM_BRAM,
			32 },
		{ "C_drain_IO_L1_out", "local_C", 16, 64, 8, 1, 1,
			ARCH_MEM_BRAM, 32 } }, 112 },
};

static void test_rules(void **state)
{
	poly_template t = mm_template(64, 64, 64);
	sim_options opt = { 0, 0, 1, 0, 0, { 0, 0, 0 } };
	sim_model *model = model_of(&t, "fp32", "u250", &opt);
	sim_part parts[SIM_MAX_PARTS];
	sim_metrics m;
	size_t i;
	int n;

	(void) state;
	assert_int_equal(sim_model_n_knobs(model), 7);
	for (i = 0; i < N_ELEMS(small_cases); i++) {
		const struct small_case *c = &small_cases[i];

		assert_int_equal(sim_breakdown(model, c->knobs, parts, &n,
			&m), SIM_OK);
		check_rows(parts, n, c->rows, N_ELEMS(c->rows));
		check_sums(parts, n, &m);
		assert_int_equal(m.bram18k, c->bram18k);
		/* 16 PEs x S lanes x (3 + 2) DSP. */
		assert_int_equal(m.dsp, 16 * c->knobs[5] * 5);
	}
	sim_model_free(model);
}

/* DSP per lane from the statement's operators: a multiply-add is one
 * multiplier and one adder, MTTKRP's and TTMc's A*B*C summed two
 * multipliers and one adder.  fp32 3 + 2 (and 2 x 3 + 2 = 8 for three
 * operands), fp16 1 + 1, int32 3 + 0, int16 and int8 1 + 0, int8 packed two
 * multiplies a DSP (rounded up per PE).  Each case's first point is the
 * all-ones design (one PE, one lane) and the second has S lanes.
 */
static const struct dsp_case {
	const char *kernel;
	int64_t params[POLY_MAX_PARAMS];
	const char *dtype;
	int packing;
	int ops;
	int64_t lane;		/* DSP of one lane */
} dsp_cases[] = {
	{ "mm", { 16, 16, 16 }, "fp32", 0, 2, 5 },
	{ "mm", { 16, 16, 16 }, "fp16", 0, 2, 2 },
	{ "mm", { 16, 16, 16 }, "int32", 0, 2, 3 },
	{ "mm", { 16, 16, 16 }, "int16", 0, 2, 1 },
	{ "mm", { 16, 16, 16 }, "int8", 0, 2, 1 },
	{ "mttkrp", { 8, 8, 8, 8 }, "fp32", 0, 3, 8 },
	{ "mttkrp", { 8, 8, 8, 8 }, "int16", 0, 3, 2 },
	{ "ttmc", { 4, 4, 4, 4, 8 }, "fp32", 0, 3, 8 },
};

static void test_dsp(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < N_ELEMS(dsp_cases); i++) {
		const struct dsp_case *c = &dsp_cases[i];
		const example_kernel *k = example_kernel_find(c->kernel);
		poly_kernel_desc d = example_kernel_desc(k, c->params);
		sim_options opt = { 0, 0, 0, c->packing, 0, { 0, 0, 0 } };
		int32_t knobs[SIM_MAX_KNOBS];
		poly_template t;
		dse_error err;
		sim_model *m;
		sim_metrics e;
		int j, n, simd = -1;

		d.ops_per_point = c->ops;
		dse_error_clear(&err);
		if (poly_template_build(&d, -1, &t, &err))
			fail_msg("%s: %s", c->kernel, err.msg);
		m = model_of(&t, c->dtype, "u250", &opt);
		n = sim_model_n_knobs(m);
		for (j = 0; j < n; j++) {
			knobs[j] = 1;
			if (!strcmp(sim_model_knob_kind(m, j), "simd"))
				simd = j;
		}
		sim_eval(m, knobs, &e);
		assert_int_equal(e.status, SIM_OK);
		assert_int_equal(e.dsp, c->lane);
		/* S lanes along the whole simd loop in one PE. */
		assert_true(simd >= 0);
		for (j = 0; j < n; j++)
			if (!strcmp(sim_model_knob_kind(m, j), "array_part") &&
			    sim_model_knob_loop(m, j) ==
			    t.simd_loop)
				knobs[j] = (int32_t) t.extent[t.simd_loop];
		knobs[simd] = 4;
		sim_eval(m, knobs, &e);
		assert_int_equal(e.status, SIM_OK);
		assert_int_equal(e.dsp, 4 * c->lane);
		sim_model_free(m);
	}
}

/* Packing halves the multipliers' DSP, rounded up per PE: 3 lanes of
 * int8 take 2 DSP, 4 lanes 2, 1 lane 1.
 */
static void test_packing(void **state)
{
	static const struct {
		int32_t s;
		int64_t packed, plain;
	} rows[] = { { 1, 1, 1 }, { 2, 1, 2 }, { 3, 2, 3 }, { 4, 2, 4 },
		{ 6, 3, 6 } };
	poly_template t = mm_template(12, 12, 12);
	sim_options on = { 0, 0, 0, 1, 0, { 0, 0, 0 } };
	sim_options off = { 0, 0, 0, 0, 0, { 0, 0, 0 } };
	sim_model *mp = model_of(&t, "int8", "u250", &on);
	sim_model *mu = model_of(&t, "int8", "u250", &off);
	sim_model *mf = model_of(&t, "fp32", "u250", &on);
	size_t r;

	(void) state;
	for (r = 0; r < N_ELEMS(rows); r++) {
		/* One PE: T1 1 on i and j, k whole, S lanes. */
		int32_t knobs[] = { 1, 1, 12, 1, 1, rows[r].s };
		sim_metrics a, b, c;

		sim_eval(mp, knobs, &a);
		sim_eval(mu, knobs, &b);
		sim_eval(mf, knobs, &c);
		assert_int_equal(a.status, SIM_OK);
		assert_int_equal(a.dsp, rows[r].packed);
		assert_int_equal(b.dsp, rows[r].plain);
		/* fp32 does not pack: the option leaves it at 5 a lane. */
		assert_int_equal(c.dsp, 5 * rows[r].s);
	}
	sim_model_free(mp);
	sim_model_free(mu);
	sim_model_free(mf);
}

/* Buffers of the modules at DRAM: with array_part_L2 each input's L3
 * module holds an L2 tile, double-buffered, in BRAM by default and in
 * URAM with AutoSA's --uram.  64^3 fp32, T1 8,8,8, T2 32,32,64, L 2,2,
 * S 2: A's L2 tile A[32][64], lane 16 (L3 bound 64 bytes): 512 bits x
 * 128 words: 15 BRAM18K or 8 (ceil(512/72)) URAM a copy, 2 copies.
 */
static void test_uram(void **state)
{
	poly_template t = mm_template(64, 64, 64);
	sim_options opt = { 1, 0, 0, 0, 0, { 0, 0, 0 } };
	const int32_t knobs[] = { 8, 8, 8, 32, 32, 64, 2, 2, 2 };
	sim_part parts[SIM_MAX_PARTS];
	sim_metrics m;
	int uram, n;

	(void) state;
	for (uram = 0; uram <= 1; uram++) {
		sim_model *model;
		const sim_part *p;

		opt.uram = uram;
		model = model_of(&t, "fp32", "u250", &opt);
		assert_int_equal(sim_model_n_knobs(model), 9);
		assert_int_equal(sim_breakdown(model, knobs, parts, &n, &m),
			SIM_OK);
		check_sums(parts, n, &m);
		p = find(parts, n, "A_IO_L3_in", "local_A");
		assert_non_null(p);
		assert_int_equal(p->width, 512);
		assert_int_equal(p->depth, 128);
		assert_int_equal(p->copies, 2);
		assert_int_equal(p->mem, uram ? ARCH_MEM_URAM : ARCH_MEM_BRAM);
		assert_int_equal(p->bram18k, uram ? 0 : 30);
		assert_int_equal(p->uram, uram ? 16 : 0);
		/* B's L3 buffer B[32][64] likewise. */
		assert_int_equal(m.uram, uram ? 32 : 0);
		sim_model_free(model);
	}
}

/* A random value of knob j: powers of two, array_part up to the loop (a
 * tile need not divide it), array_part_L2 a multiple of its array_part,
 * latency and simd up to 4, the loop-less knobs 0 or 1.
 */
static int32_t random_knob(const sim_model *m, const poly_template *t,
	const int32_t *knobs, int j, uint64_t *seed)
{
	const char *kind = sim_model_knob_kind(m, j);
	int loop = sim_model_knob_loop(m, j), k;
	int64_t top = loop < 0 ? 1 : t->extent[loop], v = 1;

	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	if (loop < 0)
		return (int32_t) (*seed >> 40) & 1;
	if (!strcmp(kind, "array_part_L2"))
		for (k = 0; k < j; k++)
			if (!strcmp(sim_model_knob_kind(m, k), "array_part") &&
			    sim_model_knob_loop(m, k) == loop)
				v = knobs[k];
	if (!strcmp(kind, "latency") || !strcmp(kind, "simd"))
		top = 4;
	for (k = (int) (*seed >> 35) % 6; k > 0 && v * 2 <= top; k--)
		v *= 2;
	return (int32_t) v;
}

/* On random legal points of every example kernel the breakdown adds up
 * to sim_eval, names every row, and lists each kind of row once.
 */
static void test_sums(void **state)
{
	static const char *const kernels[] = { "mm", "conv", "mttkrp", "ttmc",
		"fir", "mm-init" };
	static const int64_t params[][POLY_MAX_PARAMS] = {
		{ 32, 24, 16 }, { 8, 4, 6, 6, 3, 3 }, { 16, 8, 8, 4 },
		{ 8, 8, 4, 4, 4 }, { 64, 16 }, { 16, 16, 16 } };
	sim_options opt = { 1, 1, 1, 0, 1, { 16, 16, 32 } };
	uint64_t seed = 7;
	size_t c;

	(void) state;
	for (c = 0; c < N_ELEMS(kernels); c++) {
		const example_kernel *k = example_kernel_find(kernels[c]);
		poly_kernel_desc d = example_kernel_desc(k, params[c]);
		sim_part parts[SIM_MAX_PARTS];
		poly_template t;
		dse_error err;
		sim_model *m;
		int i, legal = 0;

		dse_error_clear(&err);
		if (poly_template_build(&d, -1, &t, &err))
			fail_msg("%s: %s", kernels[c], err.msg);
		m = model_of(&t, "fp32", "u250", &opt);
		for (i = 0; i < 3000 && legal < 50; i++) {
			int32_t knobs[SIM_MAX_KNOBS];
			sim_metrics e;
			int j, n, a, b;

			for (j = 0; j < sim_model_n_knobs(m); j++)
				knobs[j] = random_knob(m, &t, knobs, j, &seed);
			if (sim_breakdown(m, knobs, parts, &n, &e) != SIM_OK)
				continue;
			legal++;
			check_sums(parts, n, &e);
			for (a = 0; a < n; a++) {
				assert_true(parts[a].module[0] &&
					parts[a].name[0] && parts[a].count > 0);
				for (b = 0; b < a; b++)
					if (!strcmp(parts[a].module,
						parts[b].module) &&
					    !strcmp(parts[a].name,
						parts[b].name))
						fail_msg("%s: row %s / %s twice",
							kernels[c],
							parts[a].module,
							parts[a].name);
			}
		}
		if (legal < 10)
			fail_msg("%s: only %d legal points", kernels[c], legal);
		sim_model_free(m);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest autosa[] = {
		cmocka_unit_test(test_autosa_int8),
	};
	const struct CMUnitTest rules[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_uram),
	};
	const struct CMUnitTest dsp[] = {
		cmocka_unit_test(test_dsp),
		cmocka_unit_test(test_packing),
	};
	const struct CMUnitTest sums[] = {
		cmocka_unit_test(test_sums),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

	if (all || strcmp(group, "autosa") == 0)
		failed += cmocka_run_group_tests_name("sim.resource.autosa",
			autosa, NULL, NULL), ran = 1;
	if (all || strcmp(group, "rules") == 0)
		failed += cmocka_run_group_tests_name("sim.resource.rules",
			rules, NULL, NULL), ran = 1;
	if (all || strcmp(group, "dsp") == 0)
		failed += cmocka_run_group_tests_name("sim.resource.dsp", dsp,
			NULL, NULL), ran = 1;
	if (all || strcmp(group, "sums") == 0)
		failed += cmocka_run_group_tests_name("sim.resource.sums",
			sums, NULL, NULL), ran = 1;
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
