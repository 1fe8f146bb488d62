/* The analysis of the example kernels: statements, loops, band, parallel
 * and space loops, reduction, SIMD loop and layout, accesses, dependences
 * and space-time candidates, against tables worked out by hand from the
 * kernels (matrix multiply as in AutoSA's walkthrough of its array
 * construction).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "polyhedral/internal.h"
#include "tests/polyhedral/poly_test.h"

/* Small sizes keep the suite fast (also under valgrind); the analysis
 * does not depend on them except through extents and distance ranges.
 */
#define MM16 { 16, 16, 16 }
#define CONV_SMALL { 8, 4, 6, 6, 3, 3 }	/* O, I, R, C, P, Q */
#define MTTKRP_SMALL { 8, 8, 4, 4 }
#define TTMC_SMALL { 4, 4, 4, 4, 4 }
#define FIR_SMALL { 16, 4 }
#define GNN_SMALL { 16, 8, 4 }		/* E, F, V */

/* A kernel without parameters, given inline instead of by example name. */
struct inline_kernel {
	const char *domain, *reads, *writes;
};

/* Marks "derive the reduction loop" in place of the example's one. */
#define DERIVE ""

struct analysis_case {
	const char *what;
	const char *kernel;		/* example name, or NULL */
	int64_t values[MAX_VALUES];
	struct inline_kernel inl;	/* when kernel is NULL */
	const char *reduction;		/* NULL: the example's */
	int max_space;
	/* expected */
	const char *statements;		/* compute statement first */
	const char *loops;		/* "i:16 j:16 k:16" */
	int band;
	const char *parallel, *space_ok;
	const char *reduction_loop, *simd, *layout;
	int ops;
	uint64_t points;
	const char *access[POLY_MAX_ACCESSES];
	const char *dep[POLY_MAX_DEPS];
	const char *cand[POLY_MAX_CANDIDATES];
	int default_candidate;
};

#define MM_DEPS \
	"D1 read A[i][k] (0,1,0) uniform", "D2 read B[k][j] (1,0,0) uniform", \
	"D3 flow C[i][j] (0,0,1) uniform", "D4 output C[i][j] (0,0,1) uniform"
#define MM_ACCESSES(m, n, k) \
	"A[i][k] R " #m "x" #k, "B[k][j] R " #k "x" #n, \
	"C[i][j] R " #m "x" #n, "C[i][j] W " #m "x" #n
#define MM_CANDS "i|j,k", "j|i,k", "k|i,j", "i,j|k", "i,k|j", "j,k|i"
#define CONV_ACCESSES \
	"In[i][r + p][c + q] R 4x8x8", "W[o][i][p][q] R 8x4x3x3", \
	"out[o][r][c] R 8x6x6", "out[o][r][c] W 8x6x6"
#define CONV_DEPS \
	"D1 read In[i][r + p][c + q] (1,0,0,0,0,0) uniform", \
	"D2 read W[o][i][p][q] (0,1,0,0,0,0) uniform", \
	"D3 read W[o][i][p][q] (0,0,1,0,0,0) uniform", \
	"D4 flow out[o][r][c] (0,0,0,0..1,-2..1,-2..1)", \
	"D5 output out[o][r][c] (0,0,0,0..1,-2..1,-2..1)"
#define CONV_CANDS \
	"o|r,c,i,p,q", "r|o,c,i,p,q", "c|o,r,i,p,q", "i|o,r,c,p,q", \
	"o,r|c,i,p,q", "o,c|r,i,p,q", "o,i|r,c,p,q", "r,c|o,i,p,q", \
	"r,i|o,c,p,q", "c,i|o,r,p,q"

static const struct analysis_case cases[] = {
	{ "mm 16^3, derived reduction", "mm", MM16, { 0 }, NULL, 0,
	  "S0", "i:16 j:16 k:16", 3, "i j", "i j k", "k", "k",
	  "B[k][j] -> B[j][k]", 2, 4096,
	  { MM_ACCESSES(16, 16, 16) }, { MM_DEPS }, { MM_CANDS }, 3 },
	{ "mm 64x32x8, reduction named", "mm", { 64, 32, 8 }, { 0 }, "k", 0,
	  "S0", "i:64 j:32 k:8", 3, "i j", "i j k", "k", "k",
	  "B[k][j] -> B[j][k]", 2, 16384,
	  { MM_ACCESSES(64, 32, 8) }, { MM_DEPS }, { MM_CANDS }, 3 },
	{ "mm, 3-D arrays allowed", "mm", MM16, { 0 }, NULL, 3,
	  "S0", "i:16 j:16 k:16", 3, "i j", "i j k", "k", "k",
	  "B[k][j] -> B[j][k]", 2, 4096,
	  { MM_ACCESSES(16, 16, 16) }, { MM_DEPS },
	  { MM_CANDS, "i,j,k|" }, 3 },
	{ "mm with an initialisation statement", "mm-init", MM16, { 0 }, NULL,
	  0, "S1 S0", "i:16 j:16 k:16", 3, "i j", "i j k", "k", "k",
	  "B[k][j] -> B[j][k]", 2, 4096,
	  { MM_ACCESSES(16, 16, 16) }, { MM_DEPS }, { MM_CANDS }, 3 },
	{ "2-D convolution, reduction i", "conv", CONV_SMALL, { 0 }, NULL, 0,
	  "S0", "o:8 r:6 c:6 i:4 p:3 q:3", 4, "o r c", "o r c i", "i", "i",
	  "In[i][r + p][c + q] -> In[r + p][c + q][i]; "
	  "W[o][i][p][q] -> W[o][p][q][i]", 2, 10368,
	  { CONV_ACCESSES }, { CONV_DEPS }, { CONV_CANDS }, 4 },
	/* Without a name, the innermost accumulating loop is the
	 * reduction; In and W are already contiguous along q.
	 */
	{ "2-D convolution, derived reduction", "conv", CONV_SMALL, { 0 },
	  DERIVE, 0,
	  "S0", "o:8 r:6 c:6 i:4 p:3 q:3", 4, "o r c", "o r c i", "q", "q",
	  "", 2, 10368,
	  { CONV_ACCESSES }, { CONV_DEPS }, { CONV_CANDS }, 4 },
	{ "MTTKRP", "mttkrp", MTTKRP_SMALL, { 0 }, NULL, 0,
	  "S0", "i:8 j:8 k:4 l:4", 3, "i j", "i j k", "l", "l",
	  "C[l][j] -> C[j][l]", 3, 1024,
	  { "A[i][k][l] R 8x4x4", "B[k][j] R 4x8", "C[l][j] R 4x8",
	    "D[i][j] R 8x8", "D[i][j] W 8x8" },
	  { "D1 read A[i][k][l] (0,1,0,0) uniform",
	    "D2 read B[k][j] (1,0,0,0) uniform",
	    "D3 read B[k][j] (0,0,0,1) uniform",
	    "D4 read C[l][j] (1,0,0,0) uniform",
	    "D5 read C[l][j] (0,0,1,0) uniform",
	    "D6 flow D[i][j] (0,0,0..1,-3..1)",
	    "D7 output D[i][j] (0,0,0..1,-3..1)" },
	  { "i|j,k,l", "j|i,k,l", "k|i,j,l", "i,j|k,l", "i,k|j,l",
	    "j,k|i,l" }, 3 },
	{ "TTMc", "ttmc", TTMC_SMALL, { 0 }, NULL, 0,
	  "S0", "i:4 j:4 k:4 l:4 m:4", 4, "i j k", "i j k l", "m", "m",
	  "C[m][k] -> C[k][m]", 3, 1024,
	  { "A[i][l][m] R 4x4x4", "B[l][j] R 4x4", "C[m][k] R 4x4",
	    "D[i][j][k] R 4x4x4", "D[i][j][k] W 4x4x4" },
	  { "D1 read A[i][l][m] (0,1,0,0,0) uniform",
	    "D2 read A[i][l][m] (0,0,1,0,0) uniform",
	    "D3 read B[l][j] (1,0,0,0,0) uniform",
	    "D4 read B[l][j] (0,0,1,0,0) uniform",
	    "D5 read B[l][j] (0,0,0,0,1) uniform",
	    "D6 read C[m][k] (1,0,0,0,0) uniform",
	    "D7 read C[m][k] (0,1,0,0,0) uniform",
	    "D8 read C[m][k] (0,0,0,1,0) uniform",
	    "D9 flow D[i][j][k] (0,0,0,0..1,-3..1)",
	    "D10 output D[i][j][k] (0,0,0,0..1,-3..1)" },
	  { "i|j,k,l,m", "j|i,k,l,m", "k|i,j,l,m", "l|i,j,k,m",
	    "i,j|k,l,m", "i,k|j,l,m", "i,l|j,k,m", "j,k|i,l,m",
	    "j,l|i,k,m", "k,l|i,j,m" }, 4 },
	/* x[i + j] is reused only along the diagonal, which no unit step
	 * follows: it has no dependence (see the groups tests).
	 */
	{ "FIR filter", "fir", FIR_SMALL, { 0 }, NULL, 0,
	  "S0", "i:16 j:4", 2, "i", "i j", "j", "j", "", 2, 64,
	  { "h[j] R 4", "x[i + j] R 19", "y[i] R 16", "y[i] W 16" },
	  { "D1 read h[j] (1,0) uniform", "D2 flow y[i] (0,1) uniform",
	    "D3 output y[i] (0,1) uniform" },
	  { "i|j", "j|i", "i,j|" }, 2 },
	/* The vertex index comes from the edge list: a may-access over
	 * all V rows, so the edge loop's distances are only bounded by the
	 * domain, and it cannot be a space loop.  No loop vectorises: the
	 * row of H may change with f as far as the relation says.
	 */
	{ "GNN SpDMM aggregation", "gnn-agg", GNN_SMALL, { 0 }, NULL, 0,
	  "S", "e:16 f:8", 2, "f", "f", "e", "-", "", 2, 128,
	  { "H[*][f] R may 4x8", "out[*][f] R may 4x8",
	    "out[*][f] W may 4x8", "val[e] R 16" },
	  { "D1 read H[*][f] (1..15,0) unknown",
	    "D2 read val[e] (0,1) uniform",
	    "D3 flow out[*][f] (1..15,0) unknown",
	    "D4 output out[*][f] (1..15,0) unknown" },
	  { "f|e" }, 0 },
	/* No reduction: the SIMD loop is the innermost parallel loop, and
	 * B needs a layout change to be contiguous along it.
	 */
	{ "transpose, no dependences", NULL, { 0 },
	  { "{ S[i,j] : 0 <= i < 8 and 0 <= j < 4 }",
	    "{ S[i,j] -> A[i,j] }", "{ S[i,j] -> B[j,i] }" }, NULL, 0,
	  "S", "i:8 j:4", 2, "i j", "i j", "-", "j", "B[j][i] -> B[i][j]",
	  1, 32, { "A[i][j] R 8x4", "B[j][i] W 4x8" }, { NULL },
	  { "i|j", "j|i", "i,j|" }, 2 },
};

static poly_kernel_desc case_desc(const struct analysis_case *c)
{
	poly_kernel_desc d;

	if (c->kernel) {
		d = test_desc(c->kernel, c->values);
	} else {
		d = test_desc("mm", c->values);
		d.name = "inline";
		d.domain = c->inl.domain;
		d.reads = c->inl.reads;
		d.writes = c->inl.writes;
		d.n_params = 0;
		d.reduction = NULL;
	}
	if (c->reduction)
		d.reduction = c->reduction[0] ? c->reduction : NULL;
	d.max_space = c->max_space;
	return d;
}

static void check_kernel_facts(const struct analysis_case *c,
	const poly_analysis *a)
{
	char buf[LINE_LEN];
	size_t len = 0;

	expect_str(c->what, "kernel name", a->kernel,
		c->kernel ? c->kernel : "inline");
	buf[0] = '\0';
	len += (size_t) snprintf(buf, sizeof(buf), "%s", a->statement);
	for (int s = 0; s < a->n_statements; s++)
		if (strcmp(a->stmt_name[s], a->statement))
			len += (size_t) snprintf(buf + len, sizeof(buf) - len,
				" %s", a->stmt_name[s]);
	expect_str(c->what, "statements", buf, c->statements);
	len = 0;
	buf[0] = '\0';
	for (int l = 0; l < a->n_loops; l++)
		len += (size_t) snprintf(buf + len, sizeof(buf) - len,
			"%s%s:%lld", l ? " " : "", a->loop[l],
			(long long) a->extent[l]);
	expect_str(c->what, "loops", buf, c->loops);
	if (a->band != c->band)
		fail_msg("%s: band %d, want %d", c->what, a->band, c->band);
	fmt_loop_set(a, a->parallel, buf, sizeof(buf));
	expect_str(c->what, "parallel loops", buf, c->parallel);
	fmt_loop_set(a, a->space_ok, buf, sizeof(buf));
	expect_str(c->what, "space loop pool", buf, c->space_ok);
	expect_str(c->what, "reduction", loop_name(a, a->reduction),
		c->reduction_loop);
	expect_str(c->what, "simd loop", loop_name(a, a->simd_loop), c->simd);
	expect_str(c->what, "simd layout", a->simd_layout, c->layout);
	if (a->ops_per_point != c->ops)
		fail_msg("%s: %d ops per point, want %d", c->what,
			a->ops_per_point, c->ops);
	if (a->points != c->points)
		fail_msg("%s: %llu points, want %llu", c->what,
			(unsigned long long) a->points,
			(unsigned long long) c->points);
	assert_true(a->seconds > 0 && a->seconds < 60);
}

static int count(const char *const *list, int max)
{
	int n = 0;

	while (n < max && list[n])
		n++;
	return n;
}

static void check_accesses_and_deps(const struct analysis_case *c,
	const poly_analysis *a)
{
	int n_acc = count(c->access, POLY_MAX_ACCESSES);
	int n_dep = count(c->dep, POLY_MAX_DEPS);
	char buf[LINE_LEN];

	if (a->n_accesses != n_acc)
		fail_msg("%s: %d accesses, want %d", c->what, a->n_accesses,
			n_acc);
	for (int i = 0; i < n_acc; i++) {
		fmt_access(&a->access[i], buf, sizeof(buf));
		expect_str(c->what, "access", buf, c->access[i]);
	}
	if (a->n_deps != n_dep)
		fail_msg("%s: %d dependences, want %d", c->what, a->n_deps,
			n_dep);
	for (int i = 0; i < n_dep; i++) {
		const poly_dep *d = &a->dep[i];

		fmt_dep(a, d, buf, sizeof(buf));
		expect_str(c->what, "dependence", buf, c->dep[i]);
		/* The sink access is of the dependence's array, and the
		 * write for an output dependence.
		 */
		assert_string_equal(a->access[d->access].array, d->array);
		assert_int_equal(a->access[d->access].write,
			d->kind == POLY_DEP_OUTPUT);
		assert_true(d->relation[0] != '\0');
	}
}

static void check_candidates(const struct analysis_case *c,
	const poly_analysis *a)
{
	int n = count(c->cand, POLY_MAX_CANDIDATES);
	char buf[LINE_LEN];

	if (a->n_candidates != n)
		fail_msg("%s: %d candidates, want %d", c->what,
			a->n_candidates, n);
	for (int i = 0; i < n; i++) {
		const poly_candidate *k = &a->cand[i];

		assert_int_equal(k->index, i);
		assert_int_equal(k->n_space + k->n_time, a->n_loops);
		fmt_candidate(a, k, buf, sizeof(buf));
		expect_str(c->what, "candidate", buf, c->cand[i]);
	}
	if (a->default_candidate != c->default_candidate)
		fail_msg("%s: default candidate %d, want %d", c->what,
			a->default_candidate, c->default_candidate);
}

static void test_kernels(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct analysis_case *c = &cases[i];
		poly_kernel_desc d = case_desc(c);
		poly_analysis *a = test_analyze(&d, c->what);

		check_kernel_facts(c, a);
		check_accesses_and_deps(c, a);
		check_candidates(c, a);
		poly_analysis_free(a);
	}
}

/* The relations of matrix multiply's dependences, as AutoSA's
 * walkthrough writes them.
 */
static void test_mm_relations(void **state)
{
	static const char *const want[] = {
		"{ S0[i,j,k] -> S0[i,j+1,k] }", "{ S0[i,j,k] -> S0[i+1,j,k] }",
		"{ S0[i,j,k] -> S0[i,j,k+1] }", "{ S0[i,j,k] -> S0[i,j,k+1] }",
	};
	const int64_t v[] = MM16;
	poly_kernel_desc d = test_desc("mm", v);
	poly_analysis *a = test_analyze(&d, "mm");

	(void) state;
	assert_int_equal(a->n_deps, 4);
	for (int i = 0; i < 4; i++)
		if (!isl_text_equal(&d, a->dep[i].relation, want[i], 1))
			fail_msg("D%d: relation '%s', want '%s'", i + 1,
				a->dep[i].relation, want[i]);
	poly_analysis_free(a);
}

/* The operations per instance: derived from the operands, or given. */
static void test_ops(void **state)
{
	static const struct {
		const char *kernel;
		int64_t values[MAX_VALUES];
		int given, want;
	} cases_ops[] = {
		{ "mm", MM16, 0, 2 }, { "mm", MM16, 7, 7 },
		{ "mttkrp", MTTKRP_SMALL, 0, 3 }, { "gnn-agg", GNN_SMALL, 0, 2 },
		{ "gnn-agg", GNN_SMALL, 5, 5 },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases_ops) / sizeof(cases_ops[0]); i++) {
		poly_kernel_desc d = test_desc(cases_ops[i].kernel,
			cases_ops[i].values);
		poly_analysis *a;

		d.ops_per_point = cases_ops[i].given;
		a = test_analyze(&d, cases_ops[i].kernel);
		if (a->ops_per_point != cases_ops[i].want)
			fail_msg("%s given %d: %d ops, want %d",
				cases_ops[i].kernel, cases_ops[i].given,
				a->ops_per_point, cases_ops[i].want);
		poly_analysis_free(a);
	}
}

/* Everything but the time taken, which differs between runs. */
static void assert_same_analysis(poly_analysis *x, poly_analysis *y,
	const char *what)
{
	x->seconds = 0;
	y->seconds = 0;
	if (memcmp(x, y, sizeof(*x)))
		fail_msg("%s: the analyses differ", what);
}

/* A schedule given explicitly gives the same analysis as the default
 * order it spells out.
 */
static void test_schedules(void **state)
{
	static const struct {
		const char *what, *domain, *schedule;
	} same[] = {
		{ "explicit default order", NULL,
		  "[M,N,K] -> { S0[i,j] -> [i,j,0,0]; S1[i,j,k] -> [i,j,k,1] }" },
		{ "explicit order without parameters", NULL,
		  "{ S0[i,j] -> [i,j,0,0]; S1[i,j,k] -> [i,j,k,1] }" },
		{ "empty schedule string", NULL, "" },
	};
	const int64_t v[] = MM16;
	poly_kernel_desc d = test_desc("mm-init", v);
	poly_analysis *ref = test_analyze(&d, "mm-init");

	(void) state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		poly_kernel_desc e = d;
		poly_analysis *a;

		e.schedule = same[i].schedule;
		a = test_analyze(&e, same[i].what);
		assert_same_analysis(ref, a, same[i].what);
		poly_analysis_free(a);
	}
	poly_analysis_free(ref);
}

/* Non-rectangular domains: the instances counted exactly (closed forms
 * worked out by hand), the bounding box kept for the array's tiles.
 */
#define MM3_READS "{ S[i,j,k] -> A[i,k]; S[i,j,k] -> B[k,j]; S[i,j,k] -> C[i,j] }"
#define MM3_WRITES "{ S[i,j,k] -> C[i,j] }"
#define EW_READS "{ S[i,j] -> A[i,j] }"
#define EW_WRITES "{ S[i,j] -> C[i,j] }"

static void test_counts(void **state)
{
	static const struct {
		const char *what, *domain, *reads, *writes;
		int64_t n;
		uint64_t points, box;
	} cases_count[] = {
		{ "triangle j <= i (syrk)", "[N] -> { S[i,j,k] : 0 <= i < N and "
		  "0 <= j <= i and 0 <= k < 7 }", MM3_READS, MM3_WRITES, 100,
		  100 * 101 / 2 * 7, 100 * 100 * 7 },
		{ "tetrahedron k <= j <= i", "[N] -> { S[i,j,k] : "
		  "0 <= k <= j <= i < N }", MM3_READS, MM3_WRITES, 200,
		  200 * 201 * 202 / 6, 200 * 200 * 200 },
		/* lu's update: sum over k of (N - 1 - k)^2. */
		{ "k < i, k < j (lu)", "[N] -> { S[i,j,k] : 0 <= k < N and "
		  "k < i < N and k < j < N }", MM3_READS, MM3_WRITES, 64,
		  63 * 64 * 127 / 6, 63 * 63 * 63 },
		{ "band |i - j| <= 2", "[N] -> { S[i,j] : 0 <= i < N and "
		  "0 <= j < N and -2 <= i - j <= 2 }", EW_READS, EW_WRITES, 50,
		  5 * 50 - 6, 50 * 50 },
		{ "L shape (a union)", "[N] -> { S[i,j] : 0 <= i < N and "
		  "0 <= j < N and (i < 3 or j < 3) }", EW_READS, EW_WRITES, 10,
		  100 - 49, 100 },
		{ "checkerboard (a modulo)", "[N] -> { S[i,j] : 0 <= i < N and "
		  "0 <= j < N and (i + j) mod 2 = 0 }", EW_READS, EW_WRITES, 10,
		  50, 100 },
		{ "triangle of 4096 with k free", "[N] -> { S[i,j,k] : "
		  "0 <= i < N and 0 <= j <= i and 0 <= k < N }", MM3_READS,
		  MM3_WRITES, 4096, UINT64_C(4096) * 4097 / 2 * 4096,
		  UINT64_C(4096) * 4096 * 4096 },
		{ "rectangle", "[N] -> { S[i,j] : 0 <= i < N and 0 <= j < N }",
		  EW_READS, EW_WRITES, 30, 900, 900 },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(cases_count) / sizeof(cases_count[0]);
	    i++) {
		const int64_t unused[3] = { 1, 1, 1 };
		poly_kernel_desc d = test_desc("mm", unused);
		poly_analysis *a;

		d.name = "count";
		d.domain = cases_count[i].domain;
		d.reads = cases_count[i].reads;
		d.writes = cases_count[i].writes;
		d.n_params = 1;
		d.param_name[0] = "N";
		d.param_value[0] = cases_count[i].n;
		d.reduction = NULL;
		a = test_analyze(&d, cases_count[i].what);
		if (a->points != cases_count[i].points ||
		    a->box_points != cases_count[i].box)
			fail_msg("%s: %llu instances in a box of %llu, want "
				"%llu in %llu", cases_count[i].what,
				(unsigned long long) a->points,
				(unsigned long long) a->box_points,
				(unsigned long long) cases_count[i].points,
				(unsigned long long) cases_count[i].box);
		poly_analysis_free(a);
	}
}

/* A schedule that sends the loops of a single statement one to one onto
 * as many time dimensions is a loop transformation, and the analysis is
 * that of the transformed nest.  The expected values, by hand, for a
 * 1-D Jacobi stencil in single-assignment form, A[t+1][i] from A[t][i-1],
 * A[t][i] and A[t][i+1], T = 4 steps over 1 <= i < 9 (N = 10):
 * - as written, the flows have distances (1,-1), (1,0) and (1,1): only t
 *   is permutable, so the band is t alone and t the one space loop;
 * - skewed to (t, t + i), the distances are (1,0), (1,1), (1,2): the band
 *   is both loops, but i + t carries its dependences up to two steps, so
 *   the space loop is still t alone (AutoSA's rule); the parallelogram
 *   keeps its 4 * 8 instances in a box of 4 * (8 + 3);
 * - an interchange (j, i) of a matrix multiply renames the loops and
 *   moves the accumulation to the first loop.
 */
static void test_transforms(void **state)
{
	static const struct {
		const char *what, *domain, *reads, *writes, *schedule;
		const char *loops;	/* "name:extent ..." */
		int band;
		const char *space;	/* the candidates' space loops */
		const char *flow;	/* distance range of the flow */
		uint64_t points, box;
	} cases_t[] = {
		{ "jacobi-1d as written",
		  "{ S[t,i] : 0 <= t < 4 and 1 <= i < 9 }",
		  "{ S[t,i] -> A[t, i - 1]; S[t,i] -> A[t, i]; "
		  "S[t,i] -> A[t, i + 1] }", "{ S[t,i] -> A[t + 1, i] }",
		  NULL, "t:4 i:8", 1, "t", "1..1,-1..1", 32, 32 },
		{ "jacobi-1d skewed (t, t + i)",
		  "{ S[t,i] : 0 <= t < 4 and 1 <= i < 9 }",
		  "{ S[t,i] -> A[t, i - 1]; S[t,i] -> A[t, i]; "
		  "S[t,i] -> A[t, i + 1] }", "{ S[t,i] -> A[t + 1, i] }",
		  "{ S[t,i] -> [t, t + i] }", "t:4 i:11", 2, "t",
		  "1..1,0..2", 32, 44 },
		{ "matrix multiply with j and i interchanged",
		  "{ S[i,j,k] : 0 <= i < 2 and 0 <= j < 3 and 0 <= k < 4 }",
		  MM3_READS, MM3_WRITES, "{ S[i,j,k] -> [j,i,k] }",
		  "j:3 i:2 k:4", 3, "j|i|k|j,i|j,k|i,k", "0..0,0..0,1..1",
		  24, 24 },
	};

	(void) state;
	for (size_t c = 0; c < sizeof(cases_t) / sizeof(cases_t[0]); c++) {
		const int64_t unused[3] = { 1, 1, 1 };
		poly_kernel_desc d = test_desc("mm", unused);
		char loops[128] = "", space[128] = "", flow[128] = "";
		size_t ll = 0, ls = 0, lf = 0;
		poly_analysis *a;

		d.name = "transform";
		d.domain = cases_t[c].domain;
		d.reads = cases_t[c].reads;
		d.writes = cases_t[c].writes;
		d.schedule = cases_t[c].schedule;
		d.n_params = 0;
		d.reduction = NULL;
		a = test_analyze(&d, cases_t[c].what);
		for (int l = 0; l < a->n_loops; l++)
			ll += (size_t) snprintf(loops + ll, sizeof(loops) - ll,
				"%s%s:%lld", l ? " " : "", a->loop[l],
				(long long) a->extent[l]);
		for (int k = 0; k < a->n_candidates; k++)
			for (int s = 0; s < a->cand[k].n_space; s++)
				ls += (size_t) snprintf(space + ls,
					sizeof(space) - ls, "%s%s", s ? "," :
					k ? "|" : "", a->loop[a->cand[k].space[s]]);
		for (int i = 0; i < a->n_deps; i++)
			for (int l = 0; a->dep[i].kind == POLY_DEP_FLOW &&
			     l < a->n_loops; l++)
				lf += (size_t) snprintf(flow + lf,
					sizeof(flow) - lf, "%s%lld..%lld",
					l ? "," : "",
					(long long) a->dep[i].dist_min[l],
					(long long) a->dep[i].dist_max[l]);
		if (strcmp(loops, cases_t[c].loops) ||
		    a->band != cases_t[c].band ||
		    strcmp(space, cases_t[c].space) ||
		    strcmp(flow, cases_t[c].flow) ||
		    a->points != cases_t[c].points ||
		    a->box_points != cases_t[c].box)
			fail_msg("%s: loops %s band %d space %s flow %s, %llu "
				"in %llu; want %s, %d, %s, %s, %llu in %llu",
				cases_t[c].what, loops, a->band, space, flow,
				(unsigned long long) a->points,
				(unsigned long long) a->box_points,
				cases_t[c].loops, cases_t[c].band,
				cases_t[c].space, cases_t[c].flow,
				(unsigned long long) cases_t[c].points,
				(unsigned long long) cases_t[c].box);
		poly_analysis_free(a);
	}
}

/* Arrays read through several references.  Each reference is an access
 * of its own with its own reuse, as AutoSA tags references apart; the
 * expected values, by hand:
 * - syrk, C[i][j] += A[i][k] * A[j][k] over j <= i in the loops i, k,
 *   j: A[i][k] does not use j, so it is reused along j; A[j][k] does not
 *   use i, so along i; C accumulates along k.  Every loop moves data at
 *   most one step, all three are space loops, and the candidates are
 *   AutoSA's six.  On [i,j] both references of A move between PEs, in
 *   the direction of their own loop, and C stays in its PE (pruned: k
 *   is the innermost tile loop);
 * - one reference written as two pieces of the domain (j < 3, j >= 3)
 *   is one index function, hence one access reused along j;
 * - a stencil reading A[t][i - 1], A[t][i] and A[t][i + 1]: three exact
 *   accesses (sorted by their text), whose flows from A[t + 1][i] have
 *   the known distances (1,-1), (1,0) and (1,1).
 */
static void test_references(void **state)
{
	static const struct {
		const char *what, *domain, *reads, *writes;
		const char *accesses, *deps, *cands;
		int cand;		/* whose groups follow */
		const char *groups;
	} cases_r[] = {
		{ "syrk",
		  "{ S[i,k,j] : 0 <= i < 6 and 0 <= k < 4 and 0 <= j <= i }",
		  "{ S[i,k,j] -> A[i,k]; S[i,k,j] -> A[j,k]; "
		  "S[i,k,j] -> C[i,j] }", "{ S[i,k,j] -> C[i,j] }",
		  "A[i][k] R 6x4; A[j][k] R 6x4; C[i][j] R 6x6; C[i][j] W 6x6",
		  "D1 read A[i][k] (0,0,1) uniform; "
		  "D2 read A[j][k] (1,0,0) uniform; "
		  "D3 flow C[i][j] (0,1,0) uniform; "
		  "D4 output C[i][j] (0,1,0) uniform",
		  "i|k,j; k|i,j; j|i,k; i,k|j; i,j|k; k,j|i", 4,
		  "g1 A read D1 (0,1) ext emb L3 buf=L2 in; "
		  "g2 A read D2 (1,0) ext emb L3 buf=L2 in; "
		  "g3 C flow D3 (0,0) int pruned L0 buf=L1 in out; "
		  "g4 C output D4 (0,0) int L3 buf=L1 out" },
		{ "one reference in two pieces",
		  "{ S[i,j] : 0 <= i < 4 and 0 <= j < 6 }",
		  "{ S[i,j] -> A[i] : j < 3; S[i,j] -> A[i] : j >= 3 }",
		  "{ S[i,j] -> C[i,j] }", "A[i] R 4; C[i][j] W 4x6",
		  "D1 read A[i] (0,1) uniform", "i|j; j|i; i,j|", 2,
		  "g1 A read D1 (0,1) ext emb L3 buf=L2 in; "
		  "g2 C output - (0,0) int L3 buf=L1 out" },
		{ "stencil of three references",
		  "{ S[t,i] : 0 <= t < 4 and 1 <= i < 9 }",
		  "{ S[t,i] -> A[t, i - 1]; S[t,i] -> A[t, i]; "
		  "S[t,i] -> A[t, i + 1] }", "{ S[t,i] -> A[t + 1, i] }",
		  "A[t][i + 1] R 4x8; A[t][i - 1] R 4x8; A[t][i] R 4x8; "
		  "A[t + 1][i] W 4x8", "D1 flow A[t][i + 1] (1,-1..1)", "t|i",
		  0, "g1 A flow D1 (1) ext emb L2 buf=L2 in out; "
		  "g2 A output - (0) int L2 buf=L1 out" },
	};

	(void) state;
	for (size_t c = 0; c < sizeof(cases_r) / sizeof(cases_r[0]); c++) {
		const int64_t unused[3] = { 1, 1, 1 };
		poly_kernel_desc d = test_desc("mm", unused);
		char got[4][LINE_LEN * 4], one[LINE_LEN];
		size_t len[4] = { 0 };
		const poly_candidate *k;
		poly_analysis *a;

		d.name = "references";
		d.domain = cases_r[c].domain;
		d.reads = cases_r[c].reads;
		d.writes = cases_r[c].writes;
		d.n_params = 0;
		d.reduction = NULL;
		a = test_analyze(&d, cases_r[c].what);
		for (int i = 0; i < 4; i++)
			got[i][0] = '\0';
		for (int i = 0; i < a->n_accesses; i++) {
			fmt_access(&a->access[i], one, sizeof(one));
			poly__append(got[0], sizeof(got[0]), &len[0], "%s%s",
				i ? "; " : "", one);
		}
		for (int i = 0; i < a->n_deps; i++) {
			fmt_dep(a, &a->dep[i], one, sizeof(one));
			poly__append(got[1], sizeof(got[1]), &len[1], "%s%s",
				i ? "; " : "", one);
		}
		for (int i = 0; i < a->n_candidates; i++) {
			fmt_candidate(a, &a->cand[i], one, sizeof(one));
			poly__append(got[2], sizeof(got[2]), &len[2], "%s%s",
				i ? "; " : "", one);
		}
		assert_true(cases_r[c].cand < a->n_candidates);
		k = &a->cand[cases_r[c].cand];
		for (int g = 0; g < k->n_groups; g++) {
			fmt_group(&k->group[g], k->n_space, one, sizeof(one));
			poly__append(got[3], sizeof(got[3]), &len[3], "%s%s",
				g ? "; " : "", one);
		}
		expect_str(cases_r[c].what, "accesses", got[0],
			cases_r[c].accesses);
		expect_str(cases_r[c].what, "dependences", got[1],
			cases_r[c].deps);
		expect_str(cases_r[c].what, "candidates", got[2],
			cases_r[c].cands);
		expect_str(cases_r[c].what, "groups", got[3],
			cases_r[c].groups);
		poly_analysis_free(a);
	}
}

int run_analysis_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernels),
		cmocka_unit_test(test_mm_relations),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_schedules),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_transforms),
		cmocka_unit_test(test_references),
	};

	return cmocka_run_group_tests_name("polyhedral.analysis", tests, NULL,
		NULL);
}
