/* Tests of tensil/model.c, csv.c and builtin.c: the CSV readers on good
 * files (layers and multiply counts worked out by hand) and on a table of
 * malformed rows, each with the line, column and message it must give;
 * reading from a file; the layer checks; the built-in models' layer counts
 * and multiply-accumulates against published figures.
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

#include "tensil/model.h"

#define MAX_L 4

/* The header of SCALE-Sim's topology files. */
#define HDR "Layer name, IFMAP Height, IFMAP Width, Filter Height, " \
	"Filter Width, Channels, Num Filter, Strides\n"

struct want_layer {
	const char *name;
	int out_h, out_w, pad_top, act;
	int64_t macs;
};

static const struct good_case {
	const char *text;
	int n;
	struct want_layer l[MAX_L];
} good_cases[] = {
	/* SCALE-Sim's form with trailing commas, VALID: (224 - 7) / 2 + 1
	 * = 109, 109^2 x 7 x 7 x 3 x 64 = 11881 x 9408 = 111,776,448;
	 * (56 - 3) + 1 = 54, 54^2 x 576 x 64 = 2916 x 36864 = 107,495,424.
	 */
	{ "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter "
	  "Width, Channels, Num Filter, Strides,\n"
	  "Conv1, 224, 224, 7, 7, 3, 64, 2,\n"
	  "Conv2, 56, 56, 3, 3, 64, 64, 1,\n", 2,
	  { { "Conv1", 109, 109, 0, TENSIL_ACT_NONE, 111776448 },
	    { "Conv2", 54, 54, 0, TENSIL_ACT_NONE, 107495424 } } },
	/* The padding and activation columns, a comment and a blank line.
	 * SAME at stride 1: 32 x 32, one row of padding above; 1024 x 144 x
	 * 32 = 4,718,592.  SAME at stride 2: 16 x 16, total padding 15 x 2 +
	 * 3 - 32 = 1 row, after the input (none above); 256 x 288 x 32 =
	 * 2,359,296.
	 */
	{ "# two layers\n"
	  "Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,"
	  "Channels,Num Filter,Strides,Padding,Activation\n"
	  "\n"
	  "c1,32,32,3,3,16,32,1,same,relu\n"
	  "c2,32,32,3,3,32,32,2,SAME,\n", 2,
	  { { "c1", 32, 32, 1, TENSIL_ACT_RELU, 4718592 },
	    { "c2", 16, 16, 0, TENSIL_ACT_NONE, 2359296 } } },
	/* A GEMM list with CRLF line ends: 1 x 1000 x 2048 = 2,048,000;
	 * 196 x 768 x 768 = 115,605,504.
	 */
	{ "name, M, N, K\r\nfc1, 1, 1000, 2048\r\nproj, 196, 768, 768\r\n",
	  2,
	  { { "fc1", 1, 1, 0, TENSIL_ACT_NONE, 2048000 },
	    { "proj", 196, 1, 0, TENSIL_ACT_NONE, 115605504 } } },
	/* A leaky activation and a row without the optional columns. */
	{ HDR "a,8,8,1,1,8,8,1,valid,leaky\nb,8,8,2,2,8,4,2\n", 2,
	  { { "a", 8, 8, 0, TENSIL_ACT_LEAKY, 4096 },
	    { "b", 4, 4, 0, TENSIL_ACT_NONE, 16 * 32 * 4 } } },
};

static void test_good(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(good_cases) / sizeof(good_cases[0]); c++) {
		const struct good_case *k = &good_cases[c];
		dse_error err = { 0 };
		tensil_model *m = tensil_model_parse_csv(k->text, "good.csv",
			&err);
		int i;

		if (!m)
			fail_msg("case %zu: %s (line %d col %d)", c, err.msg,
				err.line, err.col);
		assert_int_equal(tensil_model_n_layers(m), k->n);
		assert_string_equal(tensil_model_name(m), "good");
		for (i = 0; i < k->n; i++) {
			const tensil_layer *l = tensil_model_layer(m, i);

			assert_string_equal(l->name, k->l[i].name);
			assert_int_equal(l->out_h, k->l[i].out_h);
			assert_int_equal(l->out_w, k->l[i].out_w);
			assert_int_equal(l->pad_top, k->l[i].pad_top);
			assert_int_equal(l->act, k->l[i].act);
			assert_int_equal(tensil_layer_macs(l), k->l[i].macs);
		}
		tensil_model_free(m);
	}
}

static const struct bad_case {
	const char *text;
	int line, col;
	const char *msg;
} bad_cases[] = {
	{ HDR "L1, 32, abc, 3, 3, 3, 8, 1\n", 2, 9,
	  "IFMAP Width: 'abc' is not an integer" },
	{ HDR "L1, 0, 8, 1, 1, 1, 1, 1\n", 2, 5,
	  "IFMAP Height: must be at least 1" },
	{ HDR "L1, 8, 8, -3, 1, 1, 1, 1\n", 2, 11,
	  "Filter Height: must be at least 1, not -3" },
	{ HDR "L1, 8, 8, 3\n", 2, 12, "expected 8 fields, found 4" },
	{ HDR "L1,8,8,1,1,1,1,1,same,relu,none,none,extra\n", 2, 38,
	  "too many fields" },
	{ HDR "L1,8,8,1,1,1,1,1,same,relu,extra\n", 2, 28,
	  "Residual: 'extra' is not one of none, add" },
	{ HDR "L1,8,8,1,1,1,1,1,same,relu,add,max3\n", 2, 32,
	  "Pooling: 'max3' is not none, global or max<k>/<s>" },
	{ HDR "L1,8,8,1,1,1,1,1,same,relu,add,max2/3\n", 2, 32,
	  "Pooling: 'max2/3' is not" },
	{ HDR "L1, 2, 2, 3, 3, 1, 1, 1\n", 2, 11,
	  "the filter is larger than the IFMAP" },
	{ HDR "L1,8,8,3,3,1,1,1,full\n", 2, 18,
	  "Padding: 'full' is not one of same, valid" },
	{ HDR "L1,8,8,3,3,1,1,1,same,tanh\n", 2, 23,
	  "Activation: 'tanh' is not one of" },
	{ HDR "L1, 100000, 8, 1, 1, 1, 1, 1\n", 2, 5,
	  "IFMAP Height: 100000 is out of range (at most 65536)" },
	{ HDR ", 8, 8, 1, 1, 1, 1, 1\n", 2, 1, "empty layer name" },
	{ HDR "L1, 8, 8, 1, 1, 1, 1, 0\n", 2, 23,
	  "Strides: must be at least 1" },
	{ HDR "\n\nL1, 8, 8, 1, 1, 1, 1, 1\nL2, 8, 8, 1, 1, 1, x, 1\n", 5,
	  20, "Num Filter: 'x' is not an integer" },
	{ HDR "L1, 99999999999999999999999, 8, 1, 1, 1, 1, 1\n", 2, 5,
	  "out of range" },
	{ HDR "a_layer_name_that_goes_on_and_on_for_far_too_long_x, 8, 8, 1,"
	  " 1, 1, 1, 1\n", 2, 1, "is longer than 47 characters" },
	{ "name, M, N, K\nfc, 1, 10\n", 2, 10, "expected 4 fields, found 3" },
	{ "name, M, N, K\nfc, 1, 10, 0\n", 2, 12, "K: must be at least 1" },
	{ "name, M, N, K\nfc, 1, 10, 5, 6\n", 2, 15, "too many fields" },
	{ "conv, 1, 2, 3, 4, 5, 6, 7\n", 1, 7,
	  "the first line must be a header" },
	{ "a, b, c\n", 1, 1, "the header must have" },
	{ HDR, 1, 1, "no layers after the header" },
	{ "", 1, 1, "empty layer list" },
	{ "# only a comment\n\n", 2, 1, "empty layer list" },
};

static void test_bad(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++) {
		const struct bad_case *k = &bad_cases[c];
		dse_error err = { 0 };
		tensil_model *m = tensil_model_parse_csv(k->text, "bad.csv",
			&err);

		if (m)
			fail_msg("case %zu was accepted", c);
		if (err.line != k->line || err.col != k->col ||
		    !strstr(err.msg, k->msg))
			fail_msg("case %zu: got %d:%d '%s', want %d:%d '%s'",
				c, err.line, err.col, err.msg, k->line, k->col,
				k->msg);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_string_equal(err.file, "bad.csv");
		assert_int_equal(dse_error_exit_status(&err), 2);
	}
}

/* The reader on a real file, and on one that is not there. */
static void test_file(void **state)
{
	char path[] = "/tmp/tensil_test_XXXXXX";
	const char *text = HDR "c, 16, 16, 3, 3, 4, 8, 1, same, relu\n";
	dse_error err = { 0 };
	tensil_model *m;
	FILE *f;
	int fd;

	(void) state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	m = tensil_model_read_csv(path, &err);
	unlink(path);
	assert_non_null(m);
	assert_int_equal(tensil_model_n_layers(m), 1);
	/* 256 outputs x 36 x 8 */
	assert_int_equal(tensil_model_macs(m), 256 * 36 * 8);
	tensil_model_free(m);
	m = tensil_model_read_csv("/nonexistent/dir/layers.csv", &err);
	assert_null(m);
	assert_int_equal(err.code, DSE_E_IO);
	assert_int_equal(dse_error_exit_status(&err), 1);
}

/* Layers the checks must refuse, each by a part of its message. */
static void test_layer_check(void **state)
{
	static const struct {
		const char *what;
		const char *msg;
	} cases[] = {
		{ "pad", "does not fit" }, { "out", "does not fit" },
		{ "saves", "once or twice" }, { "pool", "pooling stride" },
		{ "both", "either a pooling window" },
		{ "gemm", "M x 1 map" }, { "name", "needs a name" },
		{ "chan", "between 1 and 2^20" },
	};
	size_t c;

	(void) state;
	assert_non_null(tensil_layer_check(NULL));
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		tensil_layer l;
		const char *why;

		tensil_layer_conv(&l, "x", 8, 8, 4, 3, 3, 4, 1, 1);
		assert_null(tensil_layer_check(&l));
		if (!strcmp(cases[c].what, "pad"))
			l.pad_top = 3;		/* a 3-row filter pads <= 2 */
		else if (!strcmp(cases[c].what, "out"))
			l.out_h = 12;		/* windows past the input */
		else if (!strcmp(cases[c].what, "saves"))
			l.saves = 3;
		else if (!strcmp(cases[c].what, "pool")) {
			l.pool_k = 2;
			l.pool_stride = 3;
		} else if (!strcmp(cases[c].what, "both")) {
			l.pool_k = l.pool_stride = 2;
			l.global_pool = 1;
		} else if (!strcmp(cases[c].what, "gemm"))
			l.kind = TENSIL_GEMM;
		else if (!strcmp(cases[c].what, "name"))
			l.name[0] = '\0';
		else
			l.channels = 0;
		why = tensil_layer_check(&l);
		if (!why || !strstr(why, cases[c].msg))
			fail_msg("case %s: got '%s'", cases[c].what,
				why ? why : "(accepted)");
	}
}

/* ResNet-50 v2's multiply-accumulates counted from the Keras shapes
 * independently of the table: conv1, then per stack "blocks" bottlenecks
 * of f filters on an s x s map whose last block strides its 3 x 3 by 2.
 */
static int64_t resnet50v2_macs(void)
{
	static const int f[4] = { 64, 128, 256, 512 };
	static const int blocks[4] = { 3, 4, 6, 3 };
	int64_t total = (int64_t) 112 * 112 * 7 * 7 * 3 * 64;
	int64_t s = 56, cin = 64;
	int st, b;

	for (st = 0; st < 4; st++) {
		for (b = 0; b < blocks[st]; b++) {
			int64_t so = (b == blocks[st] - 1 && st < 3) ?
				s / 2 : s;

			if (b == 0)	/* projection shortcut */
				total += s * s * cin * 4 * f[st];
			total += s * s * cin * f[st];		/* 1 x 1 */
			total += so * so * 9 * f[st] * f[st];	/* 3 x 3 */
			total += so * so * f[st] * 4 * f[st];	/* 1 x 1 */
			cin = 4 * f[st];
			s = so;
		}
	}
	return total + 2048 * 1000;
}

static void test_builtins(void **state)
{
	static const struct {
		const char *name;
		int layers, matmul;
		double want, tol;	/* expected MACs and tolerance */
		int true_macs;		/* compare the true MACs */
	} cases[] = {
		/* Tensil's compiler summary for resnet20v2_cifar: 23
		 * layers, "True MACs (M): 61.476".
		 */
		{ "resnet20v2", 23, 23, 61.476e6, 0.0005e6, 1 },
		/* im2col: 442,368 (conv0) + 9,175,040 + 28,311,552 +
		 * 28,311,552 (the stages) + 2,560 (dense).
		 */
		{ "resnet20v2", 23, 23, 66243072, 0, 0 },
		/* Tensil's summary for yolov4_tiny_192: "True MACs (M):
		 * 670.349"; 21 convolutions and 3 max pools.
		 */
		{ "yolov4-tiny-192", 24, 21, 670.349e6, 0.0005e6, 1 },
		/* darknet's yolov4-tiny.cfg at 416: 6.9 BFLOPs, i.e. 3.45 G
		 * multiply-accumulates.
		 */
		{ "yolov4-tiny", 24, 21, 3.45e9, 0.01 * 3.45e9, 0 },
		/* He et al. (2016), Table 1: 3.8 x 10^9 multiply-adds for the
		 * 50-layer network; v2 strides at the end of a stack, which
		 * takes some 8% off (3.48 G): within 10%.  53 convolutions,
		 * the dense layer and three shortcut pools.
		 */
		{ "resnet50v2", 57, 54, 3.8e9, 0.1 * 3.8e9, 0 },
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		dse_error err = { 0 };
		tensil_model *m = tensil_model_builtin(cases[c].name, &err);
		double got;

		assert_non_null(m);
		assert_int_equal(tensil_model_n_layers(m), cases[c].layers);
		assert_int_equal(tensil_model_n_matmul_layers(m),
			cases[c].matmul);
		got = (double) (cases[c].true_macs ?
			tensil_model_true_macs(m) : tensil_model_macs(m));
		if (got < cases[c].want - cases[c].tol ||
		    got > cases[c].want + cases[c].tol)
			fail_msg("%s: %.0f MACs, want %.0f +- %.0f",
				cases[c].name, got, cases[c].want,
				cases[c].tol);
		if (!strcmp(cases[c].name, "resnet50v2"))
			assert_int_equal(tensil_model_macs(m),
				resnet50v2_macs());
		tensil_model_free(m);
	}
}

static void test_builtin_unknown(void **state)
{
	dse_error err = { 0 };
	char names[128];

	(void) state;
	assert_null(tensil_model_builtin("resnet18", &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "yolov4-tiny-192"));
	tensil_model_builtin_names(names, sizeof(names));
	assert_string_equal(names, "resnet20v2, resnet50v2, yolov4-tiny, "
		"yolov4-tiny-192");
}

/* A copy is independent of its original. */
static void test_copy(void **state)
{
	dse_error err = { 0 };
	tensil_model *m = tensil_model_builtin("resnet20v2", &err), *c;
	tensil_layer l;

	(void) state;
	c = tensil_model_copy(m, &err);
	tensil_layer_gemm(&l, "extra", 4, 4, 4);
	assert_int_equal(tensil_model_add_layer(c, &l, &err), dse_stat_ok);
	assert_int_equal(tensil_model_n_layers(m), 23);
	assert_int_equal(tensil_model_n_layers(c), 24);
	assert_int_equal(tensil_model_macs(c), tensil_model_macs(m) + 64);
	tensil_model_free(c);
	tensil_model_free(m);
	assert_null(tensil_model_free(NULL));
}

/* The Residual and Pooling columns set the layer's accumulator work: a
 * residual addition and a 3 x 3 / 2 max pool; a global average.
 */
static void test_post_columns(void **state)
{
	static const char text[] = HDR
		"c,8,8,3,3,4,4,1,same,relu,add,max3/2\n"
		"d,4,4,1,1,4,4,1,same,none,none,global\n"
		"e,4,4,1,1,4,4,1,same,,ADD,none\n";
	dse_error err = { 0 };
	tensil_model *m = tensil_model_parse_csv(text, "post.csv", &err);
	const tensil_layer *c, *d, *e;

	(void) state;
	assert_non_null(m);
	c = tensil_model_layer(m, 0);
	d = tensil_model_layer(m, 1);
	e = tensil_model_layer(m, 2);
	assert_int_equal(c->residual, 1);
	assert_int_equal(c->act, TENSIL_ACT_RELU);
	assert_int_equal(c->pool_k, 3);
	assert_int_equal(c->pool_stride, 2);
	assert_int_equal(c->global_pool, 0);
	assert_int_equal(d->residual, 0);
	assert_int_equal(d->pool_k, 0);
	assert_int_equal(d->global_pool, 1);
	assert_int_equal(e->residual, 1);
	assert_int_equal(e->act, TENSIL_ACT_NONE);
	tensil_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_post_columns),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_layer_check),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_builtin_unknown),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
