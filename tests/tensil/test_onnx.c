/* Tests of tensil/onnx.c: ONNX models lowered to the overlay family's
 * layer list.  The models are written by onnx_models.py (Debian's
 * python3-onnx) into the folder given as the first argument (the test
 * fixture tensil.onnx_models runs it); the second argument picks a group.
 *
 * "csv": a ResNet-style network and a perceptron, each read from ONNX and
 * from the topology CSV of the same network, must give the same layers
 * (every field but the kind of a dense layer, which the CSV writes as a
 * 1 x 1 convolution) and the same latency, resources and traffic on every
 * design of a small sweep.  The other groups check lowerings worked out by
 * hand in onnx_models.py's comments, and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/groups.h"

#include "arch/arch.h"
#include "tensil/family.h"
#include "tensil/model.h"

static const char *dir;

static tensil_model *read_onnx(const char *name, dse_error *err)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s.onnx", dir, name);
	dse_error_clear(err);
	return tensil_model_read_onnx(path, err);
}

static tensil_model *read_pair(const char *name, tensil_model **csv)
{
	char path[1024];
	dse_error err;
	tensil_model *m = read_onnx(name, &err);

	if (!m)
		fail_msg("%s.onnx: %s (line %d)", name, err.msg, err.line);
	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	*csv = tensil_model_read_csv(path, &err);
	if (!*csv)
		fail_msg("%s.csv: %s (line %d)", name, err.msg, err.line);
	return m;
}

/* Every field of two layers but the kind (a dense layer is a GEMM in
 * ONNX and a 1 x 1 convolution of an M x 1 map in the CSV).
 */
static void same_layer(const tensil_layer *a, const tensil_layer *b)
{
	print_message("  %s\n", a->name);
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->in_h, b->in_h);
	assert_int_equal(a->in_w, b->in_w);
	assert_int_equal(a->channels, b->channels);
	assert_int_equal(a->fh, b->fh);
	assert_int_equal(a->fw, b->fw);
	assert_int_equal(a->filters, b->filters);
	assert_int_equal(a->stride, b->stride);
	assert_int_equal(a->pad_top, b->pad_top);
	assert_int_equal(a->pad_left, b->pad_left);
	assert_int_equal(a->out_h, b->out_h);
	assert_int_equal(a->out_w, b->out_w);
	assert_int_equal(a->residual, b->residual);
	assert_int_equal(a->norm, b->norm);
	assert_int_equal(a->act, b->act);
	assert_int_equal(a->pool_k, b->pool_k);
	assert_int_equal(a->pool_stride, b->pool_stride);
	assert_int_equal(a->global_pool, b->global_pool);
	assert_int_equal(a->saves, b->saves);
}

/* Both models on a board over array sizes and local depths: the same
 * cycles, latency, resources and DRAM traffic at every design.
 */
static void same_latency(const tensil_model *a, const tensil_model *b)
{
	static const int32_t arrays[] = { 4, 8, 12, 16, 32 };
	static const int32_t locals[] = { 1024, 8192, 65536 };
	const arch_board *board = arch_board_find("ultra96-v2");
	dse_error err;
	tensil_family *fa, *fb;
	int32_t k[TENSIL_N_KNOBS];
	size_t i, j;
	int n = 0;

	assert_non_null(board);
	dse_error_clear(&err);
	fa = tensil_family_alloc(a, board, &err);
	fb = tensil_family_alloc(b, board, &err);
	assert_non_null(fa);
	assert_non_null(fb);
	tensil_family_defaults(fa, k);
	for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
		for (j = 0; j < sizeof(locals) / sizeof(locals[0]); j++) {
			sim_metrics ma, mb;

			k[TENSIL_K_ARRAY] = arrays[i];
			k[TENSIL_K_LOCAL] = locals[j];
			tensil_family_eval(fa, k, &ma);
			tensil_family_eval(fb, k, &mb);
			assert_int_equal(ma.status, mb.status);
			assert_int_equal(ma.cycles, mb.cycles);
			assert_true(ma.latency_s == mb.latency_s);
			assert_int_equal(ma.dsp, mb.dsp);
			assert_int_equal(ma.bram18k, mb.bram18k);
			assert_int_equal(ma.offchip_bytes, mb.offchip_bytes);
			n += ma.status == SIM_OK;
		}
	/* Most of the designs fit: the comparison is not all refusals. */
	assert_true(n >= 8);
	tensil_family_free(fa);
	tensil_family_free(fb);
}

static void test_csv(void **state)
{
	static const char *const nets[] = { "resnet", "mlp" };
	size_t i;
	int j;

	(void) state;
	for (i = 0; i < 2; i++) {
		tensil_model *csv, *m = read_pair(nets[i], &csv);

		print_message("%s\n", nets[i]);
		assert_int_equal(tensil_model_n_layers(m),
			tensil_model_n_layers(csv));
		for (j = 0; j < tensil_model_n_layers(m); j++)
			same_layer(tensil_model_layer(m, j),
				tensil_model_layer(csv, j));
		assert_int_equal(tensil_model_macs(m), tensil_model_macs(csv));
		same_latency(m, csv);
		tensil_model_free(m);
		tensil_model_free(csv);
	}
}

/* The pre-activation block: c0 (ReLU); c1 with the residual addition of
 * c0's output, then the normalisation and ReLU of the sum, which the
 * second Add reads too (two saves); c2 with the residual addition of the
 * sum.
 */
static void test_preact(void **state)
{
	dse_error err;
	tensil_model *m = read_onnx("preact", &err);
	const tensil_layer *c0, *c1, *c2;

	(void) state;
	assert_non_null(m);
	assert_int_equal(tensil_model_n_layers(m), 3);
	c0 = tensil_model_layer(m, 0);
	c1 = tensil_model_layer(m, 1);
	c2 = tensil_model_layer(m, 2);
	assert_int_equal(c0->act, TENSIL_ACT_RELU);
	assert_int_equal(c0->residual, 0);
	assert_int_equal(c1->residual, 1);
	assert_int_equal(c1->norm, 1);
	assert_int_equal(c1->act, TENSIL_ACT_RELU);
	assert_int_equal(c1->saves, 2);
	assert_int_equal(c2->residual, 1);
	assert_int_equal(c2->norm, 0);
	assert_int_equal(c2->act, TENSIL_ACT_NONE);
	assert_int_equal(c2->saves, 1);
	/* pads 1 on a 16 x 16 map: 16 x 16 out, one row above. */
	assert_int_equal(c1->out_h, 16);
	assert_int_equal(c1->pad_top, 1);
	tensil_model_free(m);
}

/* Shapes between two dense layers: the 1 x 6 x 8 x 8 convolution output
 * transposed to 1 x 8 x 8 x 6 and reshaped to 64 x 6 (through Unsqueeze,
 * Squeeze, Identity and Dropout): d1 is 64 x 6 by 6 x 5; concatenated with
 * a 64 x 3 constant it is 64 x 8, and d2 64 x 8 by 8 x 2.
 */
static void test_shapes(void **state)
{
	dse_error err;
	tensil_model *m = read_onnx("shapes", &err);
	const tensil_layer *l;

	(void) state;
	assert_non_null(m);
	assert_int_equal(tensil_model_n_layers(m), 3);
	l = tensil_model_layer(m, 0);
	assert_int_equal(l->kind, TENSIL_CONV);
	assert_int_equal(tensil_layer_macs(l), 64 * 6 * 36);
	l = tensil_model_layer(m, 1);
	assert_int_equal(l->kind, TENSIL_GEMM);
	assert_int_equal(l->in_h, 64);
	assert_int_equal(l->channels, 6);
	assert_int_equal(l->filters, 5);
	l = tensil_model_layer(m, 2);
	assert_int_equal(l->in_h, 64);
	assert_int_equal(l->channels, 8);
	assert_int_equal(l->filters, 2);
	tensil_model_free(m);
}

static const struct {
	const char *file;
	int line;
	const char *msg;
} bad[] = {
	{ "bad-sigmoid", 2, "node 2 'act' (Sigmoid): the overlay family has "
	  "no such operator" },
	{ "bad-group", 1, "node 1 'dw' (Conv): a grouped convolution "
	  "(group 4)" },
	{ "bad-dilation", 1, "dilations 2x2" },
	{ "bad-strides", 1, "strides 2x1" },
	{ "bad-unknown-input", 1, "reads 'nowhere', which no earlier node" },
	{ "bad-no-layer", 1, "Relu on 'input', which no single layer "
	  "computes" },
	{ "bad-symbolic", 1, "dimension 3 has no size ('H')" },
	{ "bad-not-onnx", 1, "not an ONNX model" },
	{ "bad-truncated", 1, "not an ONNX model" },
};

static void test_bad(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dse_error err;
		tensil_model *m = read_onnx(bad[i].file, &err);

		print_message("%s: %s\n", bad[i].file, err.msg);
		assert_null(m);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_int_equal(err.line, bad[i].line);
		assert_non_null(strstr(err.msg, bad[i].msg));
		assert_non_null(strstr(err.file, bad[i].file));
	}
}

/* A file that is not there, and one that is a folder. */
static void test_files(void **state)
{
	dse_error err;

	(void) state;
	dse_error_clear(&err);
	assert_null(tensil_model_read_onnx("/nonexistent/x.onnx", &err));
	assert_int_equal(err.code, DSE_E_IO);
	dse_error_clear(&err);
	assert_null(tensil_model_read_onnx(dir, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "not a regular file"));
}

int main(int argc, char **argv)
{
	const test_group groups[] = {
		{ "csv", cmocka_unit_test(test_csv) },
		{ "preact", cmocka_unit_test(test_preact) },
		{ "shapes", cmocka_unit_test(test_shapes) },
		{ "bad", cmocka_unit_test(test_bad) },
		{ "files", cmocka_unit_test(test_files) },
	};

	if (argc < 2) {
		fprintf(stderr, "usage: test_tensil_onnx DIR [GROUP]\n");
		return 2;
	}
	dir = argv[1];
	return test_run_groups(argc < 3 ? NULL : argv[2], groups,
		sizeof(groups) / sizeof(groups[0]));
}
