/* The I/O groups of the space-time candidates: direction, exterior or
 * interior, pruning, embedding, levels, buffer level and the copy-in and
 * copy-out sets, against tables worked out by hand (matrix multiply's
 * space_time[3] as in AutoSA's walkthrough: g1 A and g2 B exterior, g3
 * the accumulated C pruned, g4 the final C drained from L1 buffers).
 *
 * Group lines read "g1 A read D1 (0,1) ext emb L3 buf=L2 in": name,
 * array, kind, dependences, direction on the space loops ("?" after it
 * when a distance is a range), type, pruned, embedded, levels, buffer
 * level, copy-in and copy-out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/polyhedral/poly_test.h"

#define MM16 { 16, 16, 16 }

struct groups_case {
	const char *kernel;
	int64_t values[MAX_VALUES];
	int max_space;
	int cand;
	const char *group[POLY_MAX_GROUPS];
};

static const struct groups_case cases[] = {
	/* Matrix multiply, every candidate. */
	{ "mm", MM16, 0, 0, {
	  "g1 A read D1 (0) int L2 buf=L1 in",
	  "g2 B read D2 (1) ext emb L2 buf=L2 in",
	  "g3 C flow D3 (0) int pruned L0 buf=L1 in out",
	  "g4 C output D4 (0) int L2 buf=L1 out" } },
	{ "mm", MM16, 0, 1, {
	  "g1 A read D1 (1) ext emb L2 buf=L2 in",
	  "g2 B read D2 (0) int L2 buf=L1 in",
	  "g3 C flow D3 (0) int pruned L0 buf=L1 in out",
	  "g4 C output D4 (0) int L2 buf=L1 out" } },
	{ "mm", MM16, 0, 2, {
	  "g1 A read D1 (0) int L2 buf=L1 in",
	  "g2 B read D2 (0) int L2 buf=L1 in",
	  "g3 C flow D3 (1) ext emb L2 buf=L2 in out",
	  "g4 C output D4 (1) ext emb L2 buf=L2 out" } },
	{ "mm", MM16, 0, 3, {
	  "g1 A read D1 (0,1) ext emb L3 buf=L2 in",
	  "g2 B read D2 (1,0) ext emb L3 buf=L2 in",
	  "g3 C flow D3 (0,0) int pruned L0 buf=L1 in out",
	  "g4 C output D4 (0,0) int L3 buf=L1 out" } },
	{ "mm", MM16, 0, 4, {
	  "g1 A read D1 (0,0) int L3 buf=L1 in",
	  "g2 B read D2 (1,0) ext emb L3 buf=L2 in",
	  "g3 C flow D3 (0,1) ext emb L3 buf=L2 in out",
	  "g4 C output D4 (0,1) ext emb L3 buf=L2 out" } },
	{ "mm", MM16, 0, 5, {
	  "g1 A read D1 (1,0) ext emb L3 buf=L2 in",
	  "g2 B read D2 (0,0) int L3 buf=L1 in",
	  "g3 C flow D3 (0,1) ext emb L3 buf=L2 in out",
	  "g4 C output D4 (0,1) ext emb L3 buf=L2 out" } },
	/* The 3-D array: levels stop at L3. */
	{ "mm", MM16, 3, 6, {
	  "g1 A read D1 (0,1,0) ext emb L3 buf=L2 in",
	  "g2 B read D2 (1,0,0) ext emb L3 buf=L2 in",
	  "g3 C flow D3 (0,0,1) ext emb L3 buf=L2 in out",
	  "g4 C output D4 (0,0,1) ext emb L3 buf=L2 out" } },
	{ "mm-init", MM16, 0, 3, {
	  "g1 A read D1 (0,1) ext emb L3 buf=L2 in",
	  "g2 B read D2 (1,0) ext emb L3 buf=L2 in",
	  "g3 C flow D3 (0,0) int pruned L0 buf=L1 in out",
	  "g4 C output D4 (0,0) int L3 buf=L1 out" } },
	/* Convolution: W is reused along r and c (one group, two
	 * dependences); the accumulation of out is carried by i, p and q,
	 * of which only i is in the band, innermost, so it is pruned.
	 */
	{ "conv", { 8, 4, 6, 6, 3, 3 }, 0, 4, {
	  "g1 In read D1 (1,0) ext emb L3 buf=L2 in",
	  "g2 W read D2,D3 (0,1) ext emb L3 buf=L2 in",
	  "g3 out flow D4 (0,0) int pruned L0 buf=L1 in out",
	  "g4 out output D5 (0,0) int L3 buf=L1 out" } },
	/* On the 1-D array along i the partial sums move between PEs by
	 * 0 or 1 PE: the direction is not a single vector.
	 */
	{ "conv", { 8, 4, 6, 6, 3, 3 }, 0, 3, {
	  "g1 In read D1 (0) int L2 buf=L1 in",
	  "g2 W read D2,D3 (0) int L2 buf=L1 in",
	  "g3 out flow D4 (1)? ext emb L2 buf=L2 in out",
	  "g4 out output D5 (1)? ext emb L2 buf=L2 out" } },
	{ "conv", { 8, 4, 6, 6, 3, 3 }, 0, 9, {
	  "g1 In read D1 (0,0) int L3 buf=L1 in",
	  "g2 W read D2,D3 (1,0) ext emb L3 buf=L2 in",
	  "g3 out flow D4 (0,1)? ext emb L3 buf=L2 in out",
	  "g4 out output D5 (0,1)? ext emb L3 buf=L2 out" } },
	{ "mttkrp", { 8, 8, 4, 4 }, 0, 3, {
	  "g1 A read D1 (0,1) ext emb L3 buf=L2 in",
	  "g2 B read D2,D3 (1,0) ext emb L3 buf=L2 in",
	  "g3 C read D4,D5 (1,0) ext emb L3 buf=L2 in",
	  "g4 D flow D6 (0,0) int pruned L0 buf=L1 in out",
	  "g5 D output D7 (0,0) int L3 buf=L1 out" } },
	/* C[m][k] is reused along i and j: the first dependence carried by
	 * a space loop gives the direction, the other is reuse in time.
	 */
	{ "ttmc", { 4, 4, 4, 4, 4 }, 0, 4, {
	  "g1 A read D1,D2 (0,1) ext emb L3 buf=L2 in",
	  "g2 B read D3,D4,D5 (1,0) ext emb L3 buf=L2 in",
	  "g3 C read D6,D7,D8 (1,0) ext emb L3 buf=L2 in",
	  "g4 D flow D9 (0,0) int pruned L0 buf=L1 in out",
	  "g5 D output D10 (0,0) int L3 buf=L1 out" } },
	/* x[i + j] has no dependence: every PE is fed directly. */
	{ "fir", { 16, 4 }, 0, 2, {
	  "g1 h read D1 (1,0) ext emb L3 buf=L2 in",
	  "g2 x read - (0,0) ext emb L3 buf=L2 in",
	  "g3 y flow D2 (0,1) ext emb L3 buf=L2 in out",
	  "g4 y output D3 (0,1) ext emb L3 buf=L2 out" } },
	{ "fir", { 16, 4 }, 0, 0, {
	  "g1 h read D1 (1) ext emb L2 buf=L2 in",
	  "g2 x read - (0) ext emb L2 buf=L2 in",
	  "g3 y flow D2 (0) int pruned L0 buf=L1 in out",
	  "g4 y output D3 (0) int L2 buf=L1 out" } },
	{ "gnn-agg", { 16, 8, 4 }, 0, 0, {
	  "g1 H read D1 (0) int L2 buf=L1 in",
	  "g2 out flow D3 (0) int pruned L0 buf=L1 in out",
	  "g3 out output D4 (0) int L2 buf=L1 out",
	  "g4 val read D2 (1) ext emb L2 buf=L2 in" } },
};

static void test_groups(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct groups_case *c = &cases[i];
		const poly_analysis *a = cache_get(*state, c->kernel,
			c->values, c->max_space);
		const poly_candidate *k;
		char what[64], buf[LINE_LEN];
		int n = 0;

		snprintf(what, sizeof(what), "%s space_time[%d]", c->kernel,
			c->cand);
		if (c->cand >= a->n_candidates)
			fail_msg("%s: only %d candidates", what,
				a->n_candidates);
		k = &a->cand[c->cand];
		while (n < POLY_MAX_GROUPS && c->group[n])
			n++;
		if (k->n_groups != n)
			fail_msg("%s: %d groups, want %d", what, k->n_groups, n);
		for (int g = 0; g < n; g++) {
			fmt_group(&k->group[g], k->n_space, buf, sizeof(buf));
			expect_str(what, "group", buf, c->group[g]);
			/* The representative access is of the group's array. */
			assert_string_equal(
				a->access[k->group[g].access].array,
				k->group[g].array);
		}
	}
}

/* Copy-in and copy-out sets, compared as sets with isl (parameters are
 * fixed to the case's values), so isl's choice of text does not matter.
 * NULL means the set is not computed (the text is empty).
 */
struct sets_case {
	const char *kernel;
	int64_t values[MAX_VALUES];
	int cand, group;
	const char *in, *out;
};

#define MM_BOX "0 <= i < M and 0 <= j < N"
#define CONV_BOX "0 <= o < O and 0 <= r < R and 0 <= c < C and " \
	"0 <= i < I and 0 <= p < P and 0 <= q < Q"

static const struct sets_case set_cases[] = {
	/* AutoSA's table of matrix multiply's groups. */
	{ "mm", MM16, 3, 0,
	  "[M,N,K] -> { S0[i,j,k] : " MM_BOX " and 0 <= k < K }", NULL },
	{ "mm", MM16, 3, 1,
	  "[M,N,K] -> { S0[i,j,k] : " MM_BOX " and 0 <= k < K }", NULL },
	{ "mm", MM16, 3, 2,
	  "[M,N,K] -> { S0[i,j,k] : " MM_BOX " and 0 < k < K }",
	  "[M,N,K] -> { S0[i,j,k] : " MM_BOX " and 0 <= k < K - 1 }" },
	{ "mm", MM16, 3, 3, NULL,
	  "[M,N,K] -> { S0[i,j,k] : " MM_BOX " and k = K - 1 }" },
	/* Sizes that differ per loop catch a mixed-up loop. */
	{ "mm", { 8, 4, 2 }, 3, 3, NULL,
	  "[M,N,K] -> { S0[i,j,k] : " MM_BOX " and k = K - 1 }" },
	/* The initialisation's value enters at k = 0 from S0, which is not
	 * a dependence between instances of the compute statement.
	 */
	{ "mm-init", MM16, 3, 2,
	  "[M,N,K] -> { S1[i,j,k] : " MM_BOX " and 0 < k < K }",
	  "[M,N,K] -> { S1[i,j,k] : " MM_BOX " and 0 <= k < K - 1 }" },
	{ "mm-init", MM16, 3, 3, NULL,
	  "[M,N,K] -> { S1[i,j,k] : " MM_BOX " and k = K - 1 }" },
	{ "conv", { 8, 4, 6, 6, 3, 3 }, 4, 2,
	  "[O,I,R,C,P,Q] -> { S0[o,r,c,i,p,q] : " CONV_BOX
	  " and (i > 0 or p > 0 or q > 0) }",
	  "[O,I,R,C,P,Q] -> { S0[o,r,c,i,p,q] : " CONV_BOX
	  " and (i < I - 1 or p < P - 1 or q < Q - 1) }" },
	{ "conv", { 8, 4, 6, 6, 3, 3 }, 4, 3, NULL,
	  "[O,I,R,C,P,Q] -> { S0[o,r,c,i,p,q] : " CONV_BOX
	  " and i = I - 1 and p = P - 1 and q = Q - 1 }" },
	{ "fir", { 16, 4 }, 2, 1,
	  "[N,T] -> { S0[i,j] : 0 <= i < N and 0 <= j < T }", NULL },
	{ "fir", { 16, 4 }, 2, 2,
	  "[N,T] -> { S0[i,j] : 0 <= i < N and 0 < j < T }",
	  "[N,T] -> { S0[i,j] : 0 <= i < N and 0 <= j < T - 1 }" },
	/* A may-write never kills an earlier one: every write may be the
	 * last, so all are copied out.
	 */
	{ "gnn-agg", { 16, 8, 4 }, 0, 1,
	  "[E,F] -> { S[e,f] : 0 < e < E and 0 <= f < F }",
	  "[E,F] -> { S[e,f] : 0 <= e < E - 1 and 0 <= f < F }" },
	{ "gnn-agg", { 16, 8, 4 }, 0, 2, NULL,
	  "[E,F] -> { S[e,f] : 0 <= e < E and 0 <= f < F }" },
};

static void check_set(const poly_kernel_desc *d, const char *what,
	const char *name, const char *got, const char *want)
{
	if (!want) {
		expect_str(what, name, got, "");
		return;
	}
	if (!isl_text_equal(d, got, want, 0))
		fail_msg("%s: %s\n   got '%s'\n  want '%s'", what, name, got,
			want);
}

static void test_copy_sets(void **state)
{
	for (size_t i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		const struct sets_case *c = &set_cases[i];
		poly_kernel_desc d = test_desc(c->kernel, c->values);
		const poly_analysis *a = cache_get(*state, c->kernel, c->values,
			0);
		const poly_group *g;
		char what[64];

		snprintf(what, sizeof(what), "%s space_time[%d] g%d",
			c->kernel, c->cand, c->group + 1);
		assert_true(c->cand < a->n_candidates);
		assert_true(c->group < a->cand[c->cand].n_groups);
		g = &a->cand[c->cand].group[c->group];
		check_set(&d, what, "copy-in set", g->copy_in_set, c->in);
		check_set(&d, what, "copy-out set", g->copy_out_set, c->out);
		assert_int_equal(g->copy_in, c->in != NULL);
		assert_int_equal(g->copy_out, c->out != NULL);
	}
}

/* The groups are a property of the kernel: every candidate has the same
 * groups with the same dependences and sets, only the network differs.
 */
static void test_groups_per_candidate(void **state)
{
	static const char *const kernels[] = { "mm", "conv", "fir" };
	static const int64_t values[][MAX_VALUES] = {
		MM16, { 8, 4, 6, 6, 3, 3 }, { 16, 4 },
	};

	for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		const poly_analysis *a = cache_get(*state, kernels[i],
			values[i], 0);
		const poly_candidate *first = &a->cand[0];

		for (int c = 1; c < a->n_candidates; c++) {
			const poly_candidate *k = &a->cand[c];

			assert_int_equal(k->n_groups, first->n_groups);
			for (int g = 0; g < k->n_groups; g++) {
				const poly_group *x = &k->group[g];
				const poly_group *y = &first->group[g];

				assert_string_equal(x->name, y->name);
				assert_string_equal(x->array, y->array);
				assert_int_equal(x->kind, y->kind);
				assert_int_equal(x->n_deps, y->n_deps);
				assert_memory_equal(x->dep, y->dep,
					sizeof(x->dep));
				assert_string_equal(x->copy_in_set,
					y->copy_in_set);
				assert_string_equal(x->copy_out_set,
					y->copy_out_set);
			}
		}
	}
}

int run_groups_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_copy_sets),
		cmocka_unit_test(test_groups_per_candidate),
	};

	return cmocka_run_group_tests_name("polyhedral.groups", tests,
		cache_setup, cache_teardown);
}
