/* Tests of the GNN layer IR (gnn/ir.c): the name tables, model
 * construction and its errors, the operation count and the built-in
 * models b1 to b8 of GraphAGILE Table V on Cora's sizes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gnn/ir.h"

/* Cora (GraphAGILE Table IV). */
#define CORA_V 2708
#define CORA_E 5429
#define CORA_F 1433
#define CORA_C 7

static void test_names(void **state)
{
	static const char *const kinds[] = { "aggregate", "linear",
		"vector-inner", "vector-add", "activation", "batchnorm" };
	static const char *const ops[] = { "sum", "mean", "max", "min" };
	static const char *const acts[] = { "none", "relu", "prelu", "swish",
		"exp" };
	int i;

	(void) state;
	for (i = 0; i < 6; i++) {
		assert_string_equal(gnn_layer_kind_name(i), kinds[i]);
		assert_int_equal(gnn_layer_kind_find(kinds[i]), i);
	}
	for (i = 0; i < 4; i++) {
		assert_string_equal(gnn_aggop_name(i), ops[i]);
		assert_int_equal(gnn_aggop_find(ops[i]), i);
	}
	for (i = 0; i < 5; i++) {
		assert_string_equal(gnn_act_name(i), acts[i]);
		assert_int_equal(gnn_act_find(acts[i]), i);
	}
	assert_int_equal(gnn_layer_kind_find("Linear"), GNN_LINEAR);
	assert_int_equal(gnn_act_find("ReLU"), GNN_ACT_RELU);
	assert_int_equal(gnn_layer_kind_find("conv"), -1);
	assert_int_equal(gnn_aggop_find("prod"), -1);
	assert_int_equal(gnn_act_find("tanh"), -1);
	assert_int_equal(gnn_act_find(NULL), -1);
	assert_null(gnn_layer_kind_name(6));
	assert_null(gnn_aggop_name(-1));
	assert_null(gnn_act_name(5));
}

/* A layer reading p0 and p1; -1 stands for "no parent", any other value
 * (even negative) is passed on as a parent id.
 */
static gnn_layer layer_of(int kind, int p0, int p1, int64_t f_in,
	int64_t f_out)
{
	gnn_layer l;

	memset(&l, 0, sizeof(l));
	l.kind = kind;
	if (p0 != -1)
		l.parent[l.n_parent++] = p0;
	if (p1 != -1)
		l.parent[l.n_parent++] = p1;
	l.f_in = f_in;
	l.f_out = f_out;
	if (kind == GNN_ACTIVATION)
		l.act = GNN_ACT_RELU;
	return l;
}

/* gnn_model_add fills in the id, the children, f_out of the kinds that
 * keep their length, f_in from the parent and the graph sizes.
 */
static void test_add_fills_in(void **state)
{
	dse_error err;
	gnn_model *m = gnn_model_alloc("toy", 10, 30);
	gnn_layer l;
	const gnn_layer *a, *b, *c;

	(void) state;
	l = layer_of(GNN_AGGREGATE, -1, -1, 8, 0);
	assert_int_equal(gnn_model_add(m, &l, &err), 0);
	l = layer_of(GNN_LINEAR, 0, -1, 0, 4);
	l.id = 17;	/* ignored */
	assert_int_equal(gnn_model_add(m, &l, &err), 1);
	l = layer_of(GNN_ACTIVATION, 1, -1, 0, 0);
	assert_int_equal(gnn_model_add(m, &l, &err), 2);
	assert_int_equal(gnn_model_n_layers(m), 3);
	assert_string_equal(gnn_model_name(m), "toy");
	a = gnn_model_layer(m, 0);
	b = gnn_model_layer(m, 1);
	c = gnn_model_layer(m, 2);
	assert_null(gnn_model_layer(m, 3));
	assert_int_equal(a->f_out, 8);
	assert_int_equal(a->n_child, 1);
	assert_int_equal(a->child[0], 1);
	assert_int_equal(b->id, 1);
	assert_int_equal(b->f_in, 8);
	assert_int_equal(b->f_out, 4);
	assert_int_equal(b->child[0], 2);
	assert_int_equal(c->f_in, 4);
	assert_int_equal(c->f_out, 4);
	assert_int_equal(c->n_child, 0);
	assert_int_equal(c->n_vertices, 10);
	assert_int_equal(c->n_edges, 30);
	gnn_model_free(m);
}

/* Bad layers: each is added to the base model (0: Linear 32 -> 16 on the
 * input, 1: Aggregate of the 32 input features), must fail with DSE_E_INPUT naming "layer 2" and its
 * kind, and must leave the model as it was.
 */
static const struct bad_case {
	const char *what;
	int kind, p0, p1;
	int64_t f_in, f_out;
	int aggop, act;
	const char *needle;	/* a piece of the message */
} bad_cases[] = {
	{ "parent beyond the model", GNN_LINEAR, 5, -1, 16, 8, 0, 0,
	  "parent 5 does not exist" },
	{ "negative parent", GNN_LINEAR, -7, -1, 16, 8, 0, 0,
	  "parent -7 does not exist" },
	{ "f_in against the parent", GNN_LINEAR, 1, -1, 100, 8, 0, 0,
	  "f_in 100 does not match the f_out 32 of parent 1" },
	{ "f_out changed by an activation", GNN_ACTIVATION, 1, -1, 0, 8, 0,
	  GNN_ACT_RELU, "f_out 8 must equal f_in 32" },
	{ "vector-add of unequal lengths", GNN_VECTOR_ADD, 0, 1, 0, 0, 0, 0,
	  "f_in 16 does not match the f_out 32 of parent 1" },
	{ "vector-add without parents", GNN_VECTOR_ADD, -1, -1, 32, 0, 0, 0,
	  "0 parents" },
	{ "vector-add of 16 with the 32-long input", GNN_VECTOR_ADD, 0, -1, 0,
	  0, 0, 0, "model's input" },
	{ "linear with two parents", GNN_LINEAR, 0, 1, 0, 8, 0, 0,
	  "2 parents" },
	{ "second input length", GNN_AGGREGATE, -1, -1, 64, 0, 0, 0,
	  "input length 32" },
	{ "linear without output", GNN_LINEAR, 1, -1, 0, 0, 0, 0,
	  "output length" },
	{ "parent given twice", GNN_AGGREGATE, 1, 1, 0, 0, 0, 0, "twice" },
	{ "unknown operator", GNN_AGGREGATE, 1, -1, 0, 0, 9, 0,
	  "aggregation operator 9" },
	{ "activation without function", GNN_ACTIVATION, 1, -1, 0, 0, 0, 0,
	  "needs a function" },
	{ "unknown activation", GNN_ACTIVATION, 1, -1, 0, 0, 0, 11,
	  "activation 11" },
};

static void test_add_errors(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		gnn_model *m = gnn_model_alloc("base", 100, 400);
		gnn_layer l = layer_of(GNN_LINEAR, -1, -1, 32, 16);
		dse_error err;

		assert_int_equal(gnn_model_add(m, &l, &err), 0);
		l = layer_of(GNN_AGGREGATE, -1, -1, 32, 0);
		assert_int_equal(gnn_model_add(m, &l, &err), 1);
		l = layer_of(c->kind, c->p0, c->p1, c->f_in, c->f_out);
		l.aggop = c->aggop;
		l.act = c->act;
		dse_error_clear(&err);
		if (gnn_model_add(m, &l, &err) != -1)
			fail_msg("case '%s' was accepted", c->what);
		assert_int_equal(err.code, DSE_E_INPUT);
		if (!strstr(err.msg, "layer 2 (") ||
				!strstr(err.msg, gnn_layer_kind_name(c->kind)) ||
				!strstr(err.msg, c->needle))
			fail_msg("case '%s': message '%s'", c->what, err.msg);
		assert_int_equal(gnn_model_n_layers(m), 2);
		assert_int_equal(gnn_model_layer(m, 1)->n_child, 0);
		gnn_model_free(m);
	}
}

/* An unknown kind, a parent with all its child slots taken, and a full
 * model.
 */
static void test_add_limits(void **state)
{
	gnn_model *m = gnn_model_alloc("limits", 5, 5);
	gnn_layer l = layer_of(GNN_LINEAR, -1, -1, 4, 4);
	dse_error err;
	int i;

	(void) state;
	assert_int_equal(gnn_model_add(m, &l, &err), 0);
	for (i = 1; i <= GNN_MAX_LINKS; i++) {
		l = layer_of(GNN_AGGREGATE, 0, -1, 0, 0);
		assert_int_equal(gnn_model_add(m, &l, &err), i);
	}
	l = layer_of(GNN_AGGREGATE, 0, -1, 0, 0);
	assert_int_equal(gnn_model_add(m, &l, &err), -1);
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "layer 5 (aggregate)"));
	assert_non_null(strstr(err.msg, "parent 0 already has 4 children"));

	l.kind = 17;
	assert_int_equal(gnn_model_add(m, &l, &err), -1);
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "layer 5: unknown kind 17"));

	/* A chain of activations up to the limit, then one too many. */
	for (i = 5; i < GNN_MAX_LAYERS; i++) {
		l = layer_of(GNN_ACTIVATION, i - 1, -1, 0, 0);
		assert_int_equal(gnn_model_add(m, &l, &err), i);
	}
	l = layer_of(GNN_ACTIVATION, GNN_MAX_LAYERS - 1, -1, 0, 0);
	assert_int_equal(gnn_model_add(m, &l, &err), -1);
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "layer 64 (activation)"));
	assert_non_null(strstr(err.msg, "64 layers"));
	assert_int_equal(gnn_model_n_layers(m), GNN_MAX_LAYERS);
	gnn_model_free(m);
	assert_null(gnn_model_free(NULL));
}

/* The expected layers of a model: "K f_in f_out p,p;" per layer with K
 * one of A(ggregate) L(inear) I(nner) V(ector-add) R (activation)
 * B(atchnorm), "-" for no parent.  Written out by hand from the
 * decompositions the built-ins document.
 */
static void check_layers(const gnn_model *m, const char *want)
{
	static const char kinds[] = "ALIVRB";
	const char *s = want;
	int i = 0;

	while (*s) {
		char k, par[32];
		long long fi, fo;
		int n, np = 0, pp[4];
		const gnn_layer *l = gnn_model_layer(m, i);
		char *tok, *end;

		if (sscanf(s, " %c %lld %lld %31[-0-9,];%n", &k, &fi, &fo, par,
				&n) != 4)
			fail_msg("bad expectation at '%s'", s);
		if (!l)
			fail_msg("%s: layer %d is missing", gnn_model_name(m), i);
		for (tok = par; *tok && *tok != '-'; tok = end + (*end == ','))
			pp[np++] = (int) strtol(tok, &end, 10);
		if (kinds[l->kind] != k || l->f_in != fi || l->f_out != fo ||
				l->n_parent != np)
			fail_msg("%s layer %d: %c %lld %lld with %d parents, "
				"want %c %lld %lld with %d", gnn_model_name(m),
				i, kinds[l->kind], (long long) l->f_in,
				(long long) l->f_out, l->n_parent, k, fi, fo,
				np);
		for (n = 0; n < np; n++)
			assert_int_equal(l->parent[n], pp[n]);
		s = strchr(s, ';') + 1;
		i++;
	}
	assert_int_equal(gnn_model_n_layers(m), i);
}

static const struct builtin_case {
	const char *name, *alias;
	const char *layers;
} builtin_cases[] = {
	{ "b1", "gcn16", "A 1433 1433 -; L 1433 16 0; R 16 16 1; A 16 16 2;"
	  "L 16 7 3;" },
	{ "b2", "gcn128", "A 1433 1433 -; L 1433 128 0; R 128 128 1;"
	  "A 128 128 2; L 128 7 3;" },
	{ "b3", "sage128", "A 1433 1433 -; L 1433 128 0; L 1433 128 -;"
	  "V 128 128 1,2; R 128 128 3; A 128 128 4; L 128 7 5; L 128 7 4;"
	  "V 7 7 6,7;" },
	{ "b4", "sage256", "A 1433 1433 -; L 1433 256 0; L 1433 256 -;"
	  "V 256 256 1,2; R 256 256 3; A 256 256 4; L 256 7 5; L 256 7 4;"
	  "V 7 7 6,7;" },
	{ "b5", "gin",
	  "A 1433 1433 -; V 1433 1433 0; L 1433 128 1; B 128 128 2;"
	  "R 128 128 3; L 128 128 4; R 128 128 5;"
	  "A 128 128 6; V 128 128 7,6; L 128 128 8; B 128 128 9;"
	  "R 128 128 10; L 128 128 11; R 128 128 12;"
	  "A 128 128 13; V 128 128 14,13; L 128 128 15; B 128 128 16;"
	  "R 128 128 17; L 128 128 18; R 128 128 19;"
	  "A 128 128 20; V 128 128 21,20; L 128 128 22; B 128 128 23;"
	  "R 128 128 24; L 128 128 25; R 128 128 26;"
	  "A 128 128 27; V 128 128 28,27; L 128 128 29; B 128 128 30;"
	  "R 128 128 31; L 128 7 32;" },
	{ "b6", "gat", "L 1433 64 -; I 64 64 0; R 64 64 1; A 64 64 0,2;"
	  "R 64 64 3; L 64 7 4; I 7 7 5; R 7 7 6; A 7 7 5,7;" },
	{ "b7", "sgc", "A 1433 1433 -; A 1433 1433 0; L 1433 7 1;" },
	{ "b8", "graphgym", "L 1433 256 -; R 256 256 0; A 256 256 1;"
	  "L 256 256 2; R 256 256 3; A 256 256 4; L 256 256 5; R 256 256 6;"
	  "A 256 256 7; L 256 256 8; R 256 256 9; L 256 7 10;" },
};

static void test_builtins(void **state)
{
	size_t i;

	(void) state;
	assert_int_equal(gnn_model_builtin_count(), 8);
	for (i = 0; i < sizeof(builtin_cases) / sizeof(builtin_cases[0]);
			i++) {
		const struct builtin_case *c = &builtin_cases[i];
		dse_error err;
		gnn_model *m = gnn_model_builtin(c->name, CORA_V, CORA_E,
			CORA_F, CORA_C, &err);
		gnn_model *a = gnn_model_builtin(c->alias, CORA_V, CORA_E,
			CORA_F, CORA_C, &err);
		int j;

		assert_non_null(m);
		assert_non_null(a);
		assert_string_equal(gnn_model_builtin_name((int) i), c->name);
		assert_non_null(gnn_model_builtin_about((int) i));
		check_layers(m, c->layers);
		check_layers(a, c->layers);
		for (j = 0; j < gnn_model_n_layers(m); j++) {
			const gnn_layer *l = gnn_model_layer(m, j);

			assert_int_equal(l->id, j);
			assert_int_equal(l->n_vertices, CORA_V);
			assert_int_equal(l->n_edges, CORA_E);
			assert_false(l->act_fused);
			assert_false(l->bn_fused);
		}
		gnn_model_free(m);
		gnn_model_free(a);
	}
}

/* The operators and activations the decompositions choose. */
static void test_builtin_details(void **state)
{
	dse_error err;
	gnn_model *sage = gnn_model_builtin("B3", 10, 20, 8, 2, &err);
	gnn_model *gat = gnn_model_builtin("b6", 10, 20, 8, 2, &err);
	gnn_model *gcn = gnn_model_builtin("b1", 10, 20, 8, 2, &err);

	(void) state;
	assert_non_null(sage);
	assert_int_equal(gnn_model_layer(sage, 0)->aggop, GNN_AGG_MEAN);
	assert_int_equal(gnn_model_layer(sage, 4)->act, GNN_ACT_RELU);
	assert_int_equal(gnn_model_layer(gat, 2)->act, GNN_ACT_EXP);
	assert_int_equal(gnn_model_layer(gat, 3)->aggop, GNN_AGG_SUM);
	assert_int_equal(gnn_model_layer(gcn, 0)->aggop, GNN_AGG_SUM);
	assert_int_equal(gnn_model_layer(gcn, 2)->act, GNN_ACT_RELU);
	assert_string_equal(gnn_model_name(gcn), "b1");
	gnn_model_free(sage);
	gnn_model_free(gat);
	gnn_model_free(gcn);
}

static void test_builtin_errors(void **state)
{
	static const struct {
		const char *name;
		int64_t v, e, f, c;
		const char *needle;
	} cases[] = {
		{ "b9", 10, 10, 4, 2, "unknown model 'b9'" },
		{ "gcn", 10, 10, 4, 2, "gcn16" },
		{ "b1", 0, 10, 4, 2, "0 vertices" },
		{ "b2", 10, -1, 4, 2, "-1 edges" },
		{ "gin", 10, 10, 0, 2, "0 features" },
		{ "sgc", 10, 10, 4, 0, "0 classes" },
	};
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		dse_error err;

		dse_error_clear(&err);
		assert_null(gnn_model_builtin(cases[i].name, cases[i].v,
			cases[i].e, cases[i].f, cases[i].c, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		if (!strstr(err.msg, cases[i].needle))
			fail_msg("%s: '%s'", cases[i].name, err.msg);
	}
	assert_null(gnn_model_builtin(NULL, 1, 1, 1, 1, NULL));
}

static void test_builtin_names(void **state)
{
	char buf[256], small[8];

	(void) state;
	gnn_model_builtin_names(buf, sizeof(buf));
	assert_string_equal(buf, "b1, b2, b3, b4, b5, b6, b7, b8, gcn16, "
		"gcn128, sage128, sage256, gin, gat, sgc, graphgym");
	gnn_model_builtin_names(small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
	assert_null(gnn_model_builtin_name(8));
}

/* Operations of b1 on Cora by hand (equations 10 and 11; the ReLU counts
 * nothing): 2 * 1433 * 5429 + 2 * 1433 * 16 * 2708 + 2 * 16 * 5429 +
 * 2 * 16 * 7 * 2708.  GraphSAGE's Vector-Adds count one op per
 * element.
 */
static void test_ops(void **state)
{
	dse_error err;
	gnn_model *m = gnn_model_builtin("b1", CORA_V, CORA_E, CORA_F, CORA_C,
		&err);
	gnn_model *s = gnn_model_builtin("b3", 100, 300, 10, 3, &err);
	gnn_model *c;
	double want = 15559514.0 + 124178048.0 + 173728.0 + 606592.0;

	(void) state;
	assert_true(gnn_model_ops(m) == want);
	c = gnn_model_copy(m);
	assert_true(gnn_model_ops(c) == want);
	assert_int_equal(gnn_model_n_layers(c), 5);
	gnn_model_free(c);
	/* b3, |V| = 100, |E| = 300, 10 -> 128 -> 3:
	 * layer 1: agg 2*10*300 + two linears 2*(2*10*128*100) + add
	 * 128*100; layer 2: agg 2*128*300 + 2*(2*128*3*100) + add 3*100.
	 */
	assert_true(gnn_model_ops(s) == 6000.0 + 512000.0 + 12800.0 +
		76800.0 + 153600.0 + 300.0);
	assert_true(gnn_model_ops(NULL) == 0.0);
	gnn_model_free(m);
	gnn_model_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_add_fills_in),
		cmocka_unit_test(test_add_errors),
		cmocka_unit_test(test_add_limits),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_builtin_details),
		cmocka_unit_test(test_builtin_errors),
		cmocka_unit_test(test_builtin_names),
		cmocka_unit_test(test_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
