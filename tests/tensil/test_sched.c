/* Tests of tensil/sched.c: hand-computed cycles of tiny layers on a 2 x 2
 * array (the arithmetic is in the comments), layers that no tiling fits,
 * and the property that the stages' tiles cover every multiply-accumulate
 * of a layer exactly once, on random layers and architectures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensil/sched.h"

/* A 2 x 2 FP16BP8 array.  A vector is 2 x 16 = 32 bits, one 128-bit
 * transfer: a DRAM read costs 2 cycles a vector, a write 1.  The board
 * (2.67 GB/s at 150 MHz, 17.8 bytes a cycle) is faster than that, so the
 * latency model's figures apply unchanged.
 */
static void tiny_arch(tensil_arch *a, int64_t local, int64_t acc)
{
	memset(a, 0, sizeof(*a));
	a->data_type = TENSIL_FP16BP8;
	a->array_size = 2;
	a->dram0_depth = a->dram1_depth = 1 << 20;
	a->local_depth = local;
	a->accumulator_depth = acc;
	a->simd_registers_depth = 1;
	a->stride0_depth = a->stride1_depth = 8;
	a->mhz = 150;
	a->dram_gbps = 2.67;
	a->dram_latency = 64;
	a->port_bits = 128;
}

static const struct hand_case {
	const char *what;
	int64_t local;
	int64_t stages;
	int stage_rows, stage_cols;
	double cycles[TENSIL_N_OPS];
	double total;
} hand_cases[] = {
	/* GEMM M = 3, K = 4, N = 2: K in 2 vectors, N in 1 block; weights
	 * 2 tiles x 2 rows + the bias = 5 vectors; one stage of 3 rows
	 * (5 + 3 x 2 inputs + 3 outputs = 14 local vectors).
	 * DRAM1: 32 setup + 5 x 2 = 42.  DRAM0: 32 + 6 x 2 = 44.
	 * LoadWeights: 2 tiles x (2 + 1) = 6.  MatMul: 2 x (3 + 2) = 10.
	 * Out of the accumulators 3, to DRAM 3 x 1 = 3.  Total 108.
	 */
	{ "gemm", 1024, 1, 3, 1,
	  { 42, 44, 6, 10, 0, 0, 0, 3, 3 }, 108 },
	/* The same with ReLU: 3 Max + 1 zeroing of the register = 4 SIMD,
	 * then 2 NoOps before the results leave: 108 + 4 + 2 = 114.
	 */
	{ "gemm_relu", 1024, 1, 3, 1,
	  { 42, 44, 6, 10, 0, 4, 2, 3, 3 }, 114 },
	/* 3 x 3 SAME convolution of a 4 x 4 x 2 map into 2 filters: 1
	 * input vector a pixel, 1 block, 9 tiles, weights 9 x 2 + 1 = 19.
	 * One stage of all 4 rows (19 + 16 + 16 = 51 vectors).
	 * DRAM1: 32 + 19 x 2 = 70.  DRAM0: 32 + 16 x 2 = 64.
	 * LoadWeights: 9 x 3 = 27.  MatMul: 9 x (16 + 2) = 162.
	 * 16 out of the accumulators, 16 to DRAM.  Total 355.
	 */
	{ "conv", 1024, 1, 4, 4,
	  { 70, 64, 27, 162, 0, 0, 0, 16, 16 }, 355 },
	/* The same in 44 local vectors: 2 rows need 19 + 4 x 4 (bound) +
	 * 8 = 43, 3 rows 47, so 2 stages of 2 rows, each reading 3 input
	 * rows (rows -1..2 and 1..4 clipped): 12 vectors.
	 * A stage: 70 + (32 + 12 x 2 = 56) + 27 + 9 x (8 + 2) = 90 + 8 + 8
	 * = 259; two stages 518.
	 */
	{ "conv_rows", 44, 2, 2, 4,
	  { 140, 112, 54, 180, 0, 0, 0, 16, 16 }, 518 },
	/* In 30 local vectors not even one row fits (19 + 3 x 4 + 4 = 35):
	 * chunks of one output (19 + 3 x 3 + 1 = 29; two need 33): 16
	 * stages.  Input rows of output rows 0..3: 2, 3, 3, 2 (10); the
	 * same for columns: 10 x 10 = 100 input vectors in all.
	 * DRAM1: 16 x (32 + 38) = 1120.  DRAM0: 16 x 32 + 100 x 2 = 712.
	 * LoadWeights: 16 x 27 = 432.  MatMul: 16 x 9 x (1 + 2) = 432.
	 * 16 + 16 out.  Total 2728.
	 */
	{ "conv_chunks", 30, 16, 0, 1,
	  { 1120, 712, 432, 432, 0, 0, 0, 16, 16 }, 2728 },
};

static void hand_layer(const char *what, tensil_layer *l)
{
	if (!strncmp(what, "gemm", 4)) {
		tensil_layer_gemm(l, what, 3, 2, 4);
		if (!strcmp(what, "gemm_relu"))
			l->act = TENSIL_ACT_RELU;
	} else {
		tensil_layer_conv(l, what, 4, 4, 2, 3, 3, 2, 1, 1);
	}
}

static void test_hand(void **state)
{
	size_t c;
	int op;

	(void) state;
	for (c = 0; c < sizeof(hand_cases) / sizeof(hand_cases[0]); c++) {
		const struct hand_case *k = &hand_cases[c];
		tensil_layer l;
		tensil_arch a;
		tensil_plan p;

		hand_layer(k->what, &l);
		tiny_arch(&a, k->local, 1024);
		tensil_plan_layer(&l, &a, &p);
		assert_int_equal(p.status, TENSIL_FIT_OK);
		assert_int_equal(p.stages, k->stages);
		assert_int_equal(p.stage_rows, k->stage_rows);
		assert_int_equal(p.stage_cols, k->stage_cols);
		for (op = 0; op < TENSIL_N_OPS; op++)
			if (p.cycles[op] != k->cycles[op])
				fail_msg("%s: %s %.1f cycles, want %.1f",
					k->what, tensil_op_name(op),
					p.cycles[op], k->cycles[op]);
		assert_true(p.total_cycles == k->total);
	}
}

/* Layers no tiling fits, and the reason given. */
static void test_no_fit(void **state)
{
	tensil_layer l;
	tensil_arch a;
	tensil_plan p;

	(void) state;
	/* 3 x 3 x 64 -> 8 on a 2 x 2 array: 9 x 32 x 2 + 1 = 577 weight
	 * vectors, more than 512 local vectors.
	 */
	tensil_layer_conv(&l, "big", 8, 8, 64, 3, 3, 8, 1, 1);
	tiny_arch(&a, 512, 1024);
	tensil_plan_layer(&l, &a, &p);
	assert_int_equal(p.status, TENSIL_FIT_LOCAL);
	assert_int_equal(p.stages, 0);
	assert_true(p.total_cycles == 0);
	/* A normalisation's 2 constants and one output need 3 accumulators;
	 * there are 2.
	 */
	tensil_layer_conv(&l, "acc", 8, 8, 2, 1, 1, 2, 1, 1);
	l.norm = 1;
	tiny_arch(&a, 1024, 2);
	tensil_plan_layer(&l, &a, &p);
	assert_int_equal(p.status, TENSIL_FIT_ACC);
	/* A global average needs all 64 outputs and its constant at once. */
	tensil_layer_conv(&l, "gap", 8, 8, 2, 1, 1, 2, 1, 1);
	l.global_pool = 1;
	tiny_arch(&a, 1024, 64);
	tensil_plan_layer(&l, &a, &p);
	assert_int_equal(p.status, TENSIL_FIT_WHOLE);
	tiny_arch(&a, 1024, 66);
	tensil_plan_layer(&l, &a, &p);
	assert_int_equal(p.status, TENSIL_FIT_OK);
	/* An architecture out of range. */
	tiny_arch(&a, 1024, 1024);
	a.array_size = 1;
	tensil_plan_layer(&l, &a, &p);
	assert_int_equal(p.status, TENSIL_FIT_ARCH);
	assert_non_null(tensil_fit_name(TENSIL_FIT_LOCAL));
}

/* A model stops at its first layer that does not fit. */
static void test_model_no_fit(void **state)
{
	dse_error err = { 0 };
	tensil_model *m = tensil_model_alloc("three", &err);
	tensil_layer l;
	tensil_arch a;
	tensil_totals t;

	(void) state;
	tensil_layer_conv(&l, "ok", 8, 8, 4, 3, 3, 4, 1, 1);
	tensil_model_add_layer(m, &l, &err);
	tensil_layer_conv(&l, "big", 8, 8, 64, 3, 3, 8, 1, 1);
	tensil_model_add_layer(m, &l, &err);
	tensil_model_add_layer(m, &l, &err);
	tiny_arch(&a, 512, 1024);
	tensil_plan_model(m, &a, &t);
	assert_int_equal(t.status, TENSIL_FIT_LOCAL);
	assert_int_equal(t.bad_layer, 1);
	tiny_arch(&a, 4096, 1024);
	tensil_plan_model(m, &a, &t);
	assert_int_equal(t.status, TENSIL_FIT_OK);
	assert_int_equal(t.bad_layer, -1);
	assert_true(t.cycles > 0);
	tensil_model_free(m);
}

static unsigned next(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 8) & 0xffffff;
}

static int pick(unsigned *s, int lo, int hi)
{
	return lo + (int) (next(s) % (unsigned) (hi - lo + 1));
}

/* A random convolution or GEMM with random accumulator work (no pooling:
 * a pooled stage recomputes the window rows it shares with its neighbour,
 * as Tensil's stages do).
 */
static void random_layer(unsigned *s, tensil_layer *l)
{
	if (pick(s, 0, 4) == 0) {
		tensil_layer_gemm(l, "g", pick(s, 1, 12), pick(s, 1, 12),
			pick(s, 1, 14));
	} else {
		int ih = pick(s, 1, 10), iw = pick(s, 1, 10);
		int fh = pick(s, 1, 3), fw = pick(s, 1, 3);
		int same = ih < fh || iw < fw ? 1 : pick(s, 0, 1);

		tensil_layer_conv(l, "c", ih, iw, pick(s, 1, 12), fh, fw,
			pick(s, 1, 12), pick(s, 1, 3), same);
	}
	l->residual = pick(s, 0, 1);
	l->norm = pick(s, 0, 1);
	l->act = pick(s, 0, TENSIL_N_ACTS - 1);
	l->saves = pick(s, 1, 2);
}

/* The single-output stage's needs, worked out apart from the scheduler:
 * its weights, bias and constants, the inputs under one window, the
 * residual operand and the saved outputs; one accumulator and the
 * constants.
 */
static int one_output_fits(const tensil_layer *l, const tensil_arch *a)
{
	int A = a->array_size, kv = (l->channels + A - 1) / A;
	int consts = 2 * l->norm + (l->act == TENSIL_ACT_LEAKY);
	int64_t local = (int64_t) l->fh * l->fw * kv * A + 1 + consts +
		(int64_t) (l->fh < l->in_h ? l->fh : l->in_h) *
		(l->fw < l->in_w ? l->fw : l->in_w) * kv + l->residual +
		l->saves;

	return local <= a->local_depth && 1 + consts <= a->accumulator_depth;
}

/* Marks the MACs of every tile of every stage; each must be hit once. */
static void check_cover(const tensil_layer *l, const tensil_arch *a,
	const tensil_plan *p, int c)
{
	int64_t M = (int64_t) l->out_h * l->out_w, F = l->filters;
	int64_t T = (int64_t) l->fh * l->fw, C = l->channels, i, s;
	int64_t mac_vectors = 0, in_vectors = 0, pixels = 0, rd = 0, wr = 0;
	unsigned char *hit = calloc((size_t) (M * F * T * C), 1);
	int A = a->array_size;

	assert_non_null(hit);
	for (s = 0; s < p->stages; s++) {
		tensil_stage st;
		int y, x, t, j, f, ch;

		tensil_plan_stage(l, a, p, s, &st);
		if (st.local_used > a->local_depth ||
		    st.acc_used > a->accumulator_depth)
			fail_msg("case %d stage %lld: %lld local, %lld acc",
				c, (long long) s, (long long) st.local_used,
				(long long) st.acc_used);
		mac_vectors += st.pixels * p->tiles;
		in_vectors += st.in_vectors;
		rd += st.dram_read_vectors;
		wr += st.dram_write_vectors;
		pixels += st.pixels;
		for (y = st.crow0; y < st.crow1; y++)
			for (x = st.ccol0; x < st.ccol1; x++)
				for (t = 0; t < p->taps; t++)
					for (j = 0; j < p->kv; j++)
						for (f = st.block * A; f < F &&
						    f < (st.block + 1) * A; f++)
							for (ch = j * A; ch < C
							    && ch < (j + 1) * A;
							    ch++)
								hit[(((int64_t)
								y * l->out_w +
								x) * F + f) *
								T * C + t * C +
								ch]++;
	}
	for (i = 0; i < M * F * T * C; i++)
		if (hit[i] != 1)
			fail_msg("case %d: MAC %lld covered %d times", c,
				(long long) i, hit[i]);
	assert_int_equal(mac_vectors, p->mac_vectors);
	assert_int_equal(in_vectors + l->residual * pixels,
		p->vectors[TENSIL_OP_DRAM0_LOAD]);
	/* The stages' traffic adds up to the layer's. */
	assert_int_equal(rd * tensil_arch_vector_bytes(a), p->dram_read_bytes);
	assert_int_equal(wr * tensil_arch_vector_bytes(a),
		p->dram_write_bytes);
	free(hit);
}

static void test_cover(void **state)
{
	unsigned seed = 12345;
	int c, tiled = 0, chunked = 0, refused = 0;

	(void) state;
	for (c = 0; c < 3000; c++) {
		tensil_layer l;
		tensil_arch a;
		tensil_plan p;
		int64_t w;
		double sum = 0;
		int op;

		random_layer(&seed, &l);
		tiny_arch(&a, 2, 2);
		a.array_size = pick(&seed, 2, 6);
		w = (int64_t) l.fh * l.fw * ((l.channels + a.array_size - 1) /
			a.array_size) * a.array_size;
		a.local_depth = w + pick(&seed, -4, 160);
		a.accumulator_depth = pick(&seed, 2, 40);
		if (a.local_depth < 2)
			a.local_depth = 2;
		tensil_plan_layer(&l, &a, &p);
		if ((p.status == TENSIL_FIT_OK) != one_output_fits(&l, &a))
			fail_msg("case %d: status %d, one output %s", c,
				p.status, one_output_fits(&l, &a) ? "fits" :
				"does not fit");
		if (p.status != TENSIL_FIT_OK) {
			refused++;
			continue;
		}
		tiled++;
		chunked += p.stage_rows == 0;
		for (op = 0; op < TENSIL_N_OPS; op++)
			sum += p.cycles[op];
		assert_true(sum == p.total_cycles);
		check_cover(&l, &a, &p, c);
	}
	print_message("%d tiled (%d in chunks), %d refused\n", tiled, chunked,
		refused);
	/* The draw must exercise every shape of plan. */
	assert_true(tiled > 1000 && chunked > 100 && refused > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_no_fit),
		cmocka_unit_test(test_model_no_fit),
		cmocka_unit_test(test_cover),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
