/* Tests of tensil/family.c and cycle.c: the knobs and their defaults, the
 * analytic evaluation against the scheduler's totals and the resource
 * model, illegal points, the cycle models against the analytic one (the
 * units' busy cycles are the latency model's costs, so they must match it
 * exactly; only the overlap differs), the sampled model against the full
 * one, the description and the .tarch JSON.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tensil/family.h"
#include "tensil/sched.h"

/* Whether a and b agree within a relative tolerance (cmocka's float
 * assertion works in single precision).
 */
static int near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

static tensil_family *make(const char *model, const char *board)
{
	dse_error err = { 0 };
	tensil_model *m = tensil_model_builtin(model, &err);
	tensil_family *f;

	assert_non_null(m);
	f = tensil_family_alloc(m, arch_board_find(board), &err);
	tensil_model_free(m);	/* the family keeps its own copy */
	assert_non_null(f);
	return f;
}

static void test_knobs(void **state)
{
	static const int64_t doc[TENSIL_N_KNOBS] = { 8, 16384, 4096, 0, 0, 0 };
	/* ultra96v2.tarch at the benchmark's 300 MHz and the board's
	 * 8.5 GB/s.
	 */
	static const int64_t u96[TENSIL_N_KNOBS] = {
		16, 20480, 4096, 0, 300, 8500
	};
	tensil_family *f = make("resnet20v2", "ultra96-v2");
	int32_t k[TENSIL_N_KNOBS];
	int i;

	(void) state;
	assert_int_equal(tensil_family_n_knobs(), TENSIL_N_KNOBS);
	tensil_family_defaults(f, k);
	for (i = 0; i < TENSIL_N_KNOBS; i++) {
		const char *name = tensil_family_knob_name(i);

		assert_non_null(name);
		assert_int_equal(tensil_family_knob_find(name), i);
		assert_int_equal(tensil_family_knob_default(NULL, i), doc[i]);
		assert_int_equal(k[i], u96[i]);
	}
	assert_int_equal(tensil_family_knob_find("p_sys"), -1);
	assert_null(tensil_family_knob_name(TENSIL_N_KNOBS));
	assert_string_equal(tensil_model_name(tensil_family_model(f)),
		"resnet20v2");
	assert_string_equal(tensil_family_board(f)->name, "ultra96-v2");
	tensil_family_free(f);
}

/* The analytic evaluation is the scheduler's totals with the resource
 * model around them.
 */
static void test_eval(void **state)
{
	tensil_family *f = make("resnet20v2", "ultra96-v2");
	const tensil_model *m = tensil_family_model(f);
	int32_t k[TENSIL_N_KNOBS];
	sim_metrics out;
	tensil_arch a;
	tensil_totals t;

	(void) state;
	tensil_family_defaults(f, k);
	tensil_family_eval(f, k, &out);
	assert_int_equal(out.status, SIM_OK);
	assert_true(tensil_family_arch(f, k, &a));
	tensil_plan_model(m, &a, &t);
	assert_int_equal(out.cycles, (uint64_t) llround(t.cycles));
	assert_true(near(out.latency_s, (double) out.cycles / 300e6, 1e-12));
	assert_true(near(out.gops, 2.0 * (double) tensil_model_true_macs(m) /
		out.latency_s / 1e9, 1e-12));
	assert_int_equal(out.offchip_bytes, t.dram_read_bytes +
		t.dram_write_bytes);
	/* 256 PEs and 16 lanes; 384 BRAM18K (test_tarch). */
	assert_int_equal(out.dsp, 272);
	assert_int_equal(out.bram18k, 384);
	assert_int_equal(out.n_pe, 256);
	assert_int_equal(out.pe_rows, 16);
	assert_true(out.energy_j > 0);
	assert_true(near(out.edp, out.energy_j * out.latency_s, 1e-12));
	/* 32-bit words: the same program moves twice the bytes. */
	k[TENSIL_K_DTYPE] = TENSIL_FP32B16;
	{
		sim_metrics o32;

		tensil_family_eval(f, k, &o32);
		assert_int_equal(o32.status, SIM_OK);
		assert_int_equal(o32.offchip_bytes, 2 * out.offchip_bytes);
		assert_int_equal(o32.dsp, 4 * 272);
	}
	tensil_family_free(f);
}

/* The figure after "needs " in a why-sentence. */
static long long needed(const char *why)
{
	const char *p = strstr(why, "needs ");

	return p ? atoll(p + 6) : -1;
}

static void test_illegal(void **state)
{
	static const struct {
		int knob;
		int32_t value;
		int status;
		const char *why;	/* a part of tensil_family_why's text */
		const char *why2;	/* and another */
	} cases[] = {
		{ TENSIL_K_ARRAY, 1, SIM_BAD_KNOB,
		  "array_size is 1, outside 2..256", "" },
		{ TENSIL_K_ARRAY, 257, SIM_BAD_KNOB, "array_size is 257", "" },
		{ TENSIL_K_LOCAL, 65537, SIM_BAD_KNOB,
		  "local_depth is 65537, outside 2..65536", "" },
		{ TENSIL_K_ACC, 1, SIM_BAD_KNOB, "accumulator_depth is 1", "" },
		{ TENSIL_K_DTYPE, 2, SIM_BAD_KNOB, "data_type is 2", "" },
		{ TENSIL_K_MHZ, 0, SIM_BAD_KNOB, "mhz is 0", "" },
		{ TENSIL_K_DRAM_MBPS, -5, SIM_BAD_KNOB,
		  "dram_mbps is -5, outside 1..1000000", "" },
		/* conv5's 3 x 3 x 512 weights on 16 x 16: 9 x 32 x 16 + 1 =
		 * 4609 vectors, more than 4096.
		 */
		{ TENSIL_K_LOCAL, 4096, SIM_NO_FIT,
		  "layer 'conv5_block1_2' (49 of 57): local memory too small",
		  "local_depth is 4096" },
		/* conv1's 3 x 3 max pool needs three whole rows of its
		 * 112-wide output in the accumulators: 16 are too few.
		 */
		{ TENSIL_K_ACC, 16, SIM_NO_FIT,
		  "layer 'conv1' (1 of 57): its pooling takes whole rows",
		  "accumulator_depth 16)" },
	};
	tensil_family *f = make("resnet50v2", "ultra96-v2");
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int32_t k[TENSIL_N_KNOBS];
		sim_metrics out;
		sim_cycle_report rep;
		dse_error err = { 0 };
		char why[256];

		tensil_family_defaults(f, k);
		k[cases[c].knob] = cases[c].value;
		tensil_family_eval(f, k, &out);
		if (out.status != cases[c].status)
			fail_msg("case %zu: status %d, want %d", c, out.status,
				cases[c].status);
		assert_int_equal(out.cycles, 0);
		/* An illegal point is a result, not an error. */
		assert_int_equal(tensil_family_simulate(f, k, SIM_MODEL_FULL,
			NULL, &rep, &err), dse_stat_ok);
		assert_int_equal(rep.metrics.status, cases[c].status);
		assert_true(tensil_family_why(f, k, why, sizeof(why)) <
			(int) sizeof(why));
		if (!strstr(why, cases[c].why) || !strstr(why, cases[c].why2))
			fail_msg("case %zu: why is \"%s\", want \"%s\" and "
				"\"%s\"", c, why, cases[c].why,
				cases[c].why2);
	}
	tensil_family_free(f);
}

/* The local memory a why-sentence says a layer needs is what it needs:
 * one vector less and the layer still does not fit, that many and it
 * does (the sentence then names a later layer, or none).
 */
static void test_why_needs(void **state)
{
	static const struct {
		const char *model, *board;
		int32_t array, local;
	} cases[] = {
		{ "resnet50v2", "ultra96-v2", 16, 4096 },
		{ "resnet50v2", "arty-a7-35", 8, 4096 },
		{ "yolov4-tiny", "pynq-z1", 12, 1024 },
		{ "resnet20v2", "pynq-z1", 12, 64 },
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		tensil_family *f = make(cases[c].model, cases[c].board);
		int32_t k[TENSIL_N_KNOBS];
		char why[256], again[256];
		long long need;

		tensil_family_defaults(f, k);
		k[TENSIL_K_ARRAY] = cases[c].array;
		k[TENSIL_K_LOCAL] = cases[c].local;
		tensil_family_why(f, k, why, sizeof(why));
		need = needed(why);
		if (!strstr(why, "local memory too small") ||
		    need <= cases[c].local || need > 65536)
			fail_msg("case %zu: why is \"%s\"", c, why);
		k[TENSIL_K_LOCAL] = (int32_t) need - 1;
		tensil_family_why(f, k, again, sizeof(again));
		if (strncmp(again, why, (size_t) (strstr(why, "local_depth") -
		    why)))
			fail_msg("case %zu: %lld vectors less one: \"%s\"", c,
				need, again);
		k[TENSIL_K_LOCAL] = (int32_t) need;
		tensil_family_why(f, k, again, sizeof(again));
		if (!strncmp(again, why, (size_t) (strstr(why, ")") - why)))
			fail_msg("case %zu: %lld vectors: \"%s\"", c, need,
				again);
		tensil_family_free(f);
	}
}

static void test_alloc(void **state)
{
	dse_error err = { 0 };
	tensil_model *m = tensil_model_alloc("empty", &err);

	(void) state;
	assert_null(tensil_family_alloc(m, arch_board_find("pynq-z1"), &err));
	assert_int_equal(err.code, DSE_E_RUNTIME);
	assert_null(tensil_family_alloc(NULL, arch_board_find("pynq-z1"),
		&err));
	tensil_model_free(m);
	assert_null(tensil_family_free(NULL));
}

static const sim_module_stat *module(const sim_cycle_report *r,
	const char *name)
{
	int i;

	for (i = 0; i < r->n_modules; i++)
		if (!strcmp(r->module[i].name, name))
			return &r->module[i];
	fail_msg("no module %s", name);
	return NULL;
}

/* One model on one board through the three models. */
static void check_cycle_case(const char *model, const char *board)
{
	tensil_family *f = make(model, board);
	int32_t k[TENSIL_N_KNOBS];
	sim_cycle_report an, full, samp;
	dse_error err = { 0 };
	tensil_arch a;
	tensil_totals t;
	double array, acc, d;

	tensil_family_defaults(f, k);
	assert_int_equal(tensil_family_simulate(f, k, SIM_MODEL_ANALYTIC,
		NULL, &an, &err), dse_stat_ok);
	assert_int_equal(tensil_family_simulate(f, k, SIM_MODEL_FULL, NULL,
		&full, &err), dse_stat_ok);
	assert_int_equal(tensil_family_simulate(f, k, SIM_MODEL_SAMPLED,
		NULL, &samp, &err), dse_stat_ok);
	tensil_family_arch(f, k, &a);
	tensil_plan_model(tensil_family_model(f), &a, &t);
	assert_int_equal(an.metrics.cycles, (uint64_t) llround(t.cycles));
	assert_int_equal(an.tiles, t.stages);
	assert_int_equal(an.tiles_simulated, 0);
	/* The full model runs every stage, and its units do exactly the
	 * latency model's work.
	 */
	assert_int_equal(full.tiles_simulated, t.stages);
	assert_true(full.fraction == 1.0);
	array = t.op_cycles[TENSIL_OP_LOAD_WEIGHTS] +
		t.op_cycles[TENSIL_OP_MATMUL];
	acc = t.op_cycles[TENSIL_OP_SIMD] +
		t.op_cycles[TENSIL_OP_LOCAL_TO_ACC] +
		t.op_cycles[TENSIL_OP_ACC_TO_LOCAL];
	assert_int_equal(module(&full, "array")->busy,
		(uint64_t) llround(array));
	assert_int_equal(module(&full, "acc")->busy, (uint64_t) llround(acc));
	assert_int_equal(module(&full, "decoder")->busy, t.instructions);
	/* No faster than its busiest unit; overlap only removes time from
	 * the latency model's sum, except that a DRAM read waits its latency
	 * (64 cycles) where the latency model charges 32: at most 32 more a
	 * stage.
	 */
	assert_true((double) full.metrics.cycles >= array);
	assert_true((double) full.metrics.cycles <= t.cycles +
		32.0 * (double) t.stages);
	assert_true(full.pe_utilisation > 0 && full.pe_utilisation <= 1);
	/* The sampled model simulates less and lands within 0.5% of the
	 * full one, its interval around its estimate.
	 */
	d = fabs((double) samp.metrics.cycles - (double) full.metrics.cycles);
	assert_true(d <= 0.005 * (double) full.metrics.cycles);
	assert_true(samp.tiles_simulated < full.tiles_simulated);
	assert_true(samp.cycles_low <= (double) samp.metrics.cycles + 0.5 &&
		samp.cycles_high >= (double) samp.metrics.cycles - 0.5);
	/* Resources are the analytic model's. */
	assert_int_equal(full.metrics.dsp, an.metrics.dsp);
	assert_int_equal(samp.metrics.bram18k, an.metrics.bram18k);
	tensil_family_free(f);
}

/* The cycle models against the analytic one on the smaller benchmark
 * models, on boards whose published row they fill.
 */
static void test_cycle_models(void **state)
{
	(void) state;
	check_cycle_case("resnet20v2", "ultra96-v2");
	check_cycle_case("resnet20v2", "arty-a7-35");
	check_cycle_case("yolov4-tiny-192", "pynq-z1");
}

static void test_describe_json(void **state)
{
	tensil_family *f = make("resnet50v2", "arty-a7-35");
	const tensil_model *m = tensil_family_model(f);
	int32_t k[TENSIL_N_KNOBS];
	char buf[512];
	int64_t consts = 0, depth;
	const char *p;
	int i;

	(void) state;
	tensil_family_defaults(f, k);
	tensil_family_describe(f, k, buf, sizeof(buf));
	assert_string_equal(buf, "array_size=8 local_depth=8192 "
		"accumulator_depth=2048 data_type=FP16BP8 mhz=150 "
		"dram_mbps=1300");
	assert_true(tensil_tarch_json(f, k, buf, sizeof(buf)) <
		(int) sizeof(buf));
	assert_non_null(strstr(buf, "\"array_size\": 8,"));
	assert_non_null(strstr(buf, "\"local_depth\": 8192,"));
	/* ResNet-50's weights in 8-wide vectors (each block: its taps x
	 * input vectors x 8 rows, the bias, the normalisation's two
	 * constants) outgrow the shipped 2^20 vectors of DRAM1: the depth
	 * becomes the next power of two.
	 */
	for (i = 0; i < tensil_model_n_layers(m); i++) {
		const tensil_layer *l = tensil_model_layer(m, i);
		int64_t kv = (l->channels + 7) / 8, fv = (l->filters + 7) / 8;

		if (l->kind != TENSIL_POOL)
			consts += fv * ((int64_t) l->fh * l->fw * kv * 8 + 1 +
				2 * l->norm + l->global_pool);
	}
	p = strstr(buf, "\"dram1_depth\": ");
	assert_non_null(p);
	depth = strtoll(p + strlen("\"dram1_depth\": "), NULL, 10);
	assert_true(consts > 1048576);
	assert_true(depth >= consts && depth / 2 < consts);
	assert_true((depth & (depth - 1)) == 0);
	tensil_family_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_illegal),
		cmocka_unit_test(test_why_needs),
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_cycle_models),
		cmocka_unit_test(test_describe_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
