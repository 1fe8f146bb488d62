/* The C reader: what it builds from C text (domains, accesses, schedule,
 * parameters, operations, on-chip arrays, data type), what it refuses
 * and where, the role of each statement and the exact instance counts of
 * guarded loop nests, and the twins: each example kernel of configs/
 * written in C (configs/kernels/) analyses exactly as its isl form does.
 *
 * The expected models are written by hand from the C text as isl
 * strings and compared as sets and relations, not as text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "cfront/cfront.h"
#include "tests/cfront/cfront_test.h"
#include "tests/support/mm_kernel.h"

#ifndef DSE_SOURCE_DIR
#define DSE_SOURCE_DIR "."
#endif

/* Reads C text given inline, as the file "kernel.c". */
static cfront_kernel *read_text(const char *text, const char *const *defs,
	dse_error *err)
{
	cfront_opts o;

	memset(&o, 0, sizeof(o));
	o.file = "kernel.c";
	o.text = text;
	o.text_len = strlen(text);
	for (; defs && *defs; defs++)
		o.define[o.n_defines++] = *defs;
	dse_error_clear(err);
	return cfront_read(&o, err);
}

/* Whether isl texts got and want describe the same union set (or map). */
static int same(const char *got, const char *want, int is_map)
{
	isl_ctx *ctx = isl_ctx_alloc();
	isl_bool eq = isl_bool_error;

	if (is_map) {
		isl_union_map *g = isl_union_map_read_from_str(ctx, got);
		isl_union_map *w = isl_union_map_read_from_str(ctx, want);

		if (g && w)
			eq = isl_union_map_is_equal(g, w);
		isl_union_map_free(g);
		isl_union_map_free(w);
	} else {
		isl_union_set *g = isl_union_set_read_from_str(ctx, got);
		isl_union_set *w = isl_union_set_read_from_str(ctx, want);

		if (g && w)
			eq = isl_union_set_is_equal(g, w);
		isl_union_set_free(g);
		isl_union_set_free(w);
	}
	isl_ctx_free(ctx);
	return eq == isl_bool_true;
}

/* --- what the reader builds ---------------------------------------------- */

struct model_case {
	const char *what;
	const char *text;
	const char *defs[3];
	/* expected; the schedule NULL when the case does not check it */
	const char *domain, *reads, *writes, *schedule;
	const char *params;	/* "N=8 M=4" in the order met */
	const char *ops;	/* per statement, "2 1" */
	const char *local;	/* "T" or "" */
	const char *dtype;	/* NULL: the arrays disagree */
};

#define MM_TEXT \
	"#define N 8\n#define M 4\n" \
	"void f(float A[N][M], float B[M][N], float C[N][N]) {\n" \
	"#pragma scop\n" \
	"for (int i = 0; i < N; i++)\n" \
	"  for (int j = 0; j < N; j++)\n" \
	"    for (int k = 0; k < M; k++)\n" \
	"      C[i][j] += A[i][k] * B[k][j];\n" \
	"#pragma endscop\n}\n"

static const struct model_case model_cases[] = {
	{ "matrix multiply, macros as parameters", MM_TEXT, { NULL },
	  "[N, M] -> { S0[i, j, k] : 0 <= i < N and 0 <= j < N and "
	  "0 <= k < M }",
	  "[N, M] -> { S0[i, j, k] -> A[i, k]; S0[i, j, k] -> B[k, j]; "
	  "S0[i, j, k] -> C[i, j] }",
	  "[N, M] -> { S0[i, j, k] -> C[i, j] }",
	  "[N, M] -> { S0[i, j, k] -> [0, i, 0, j, 0, k, 0] }",
	  "N=8 M=4", "2", "", "fp32" },
	{ "a -D value replaces the file's #ifndef default",
	  "#ifndef N\n#define N 8\n#endif\n"
	  "void f(short y[N]) {\n#pragma scop\n"
	  "for (int i = 0; i < N; i++) y[i] = y[i] + 1;\n"
	  "#pragma endscop\n}\n", { "N=32", NULL },
	  "[N] -> { S0[i] : 0 <= i < N }", "[N] -> { S0[i] -> y[i] }",
	  "[N] -> { S0[i] -> y[i] }", NULL, "N=32", "1", "", "int16" },
	/* PolyBench's gemm: the loop order i, k, j, the scaling by beta
	 * before the accumulation, alpha and beta constants (no access).
	 */
	{ "gemm with alpha and beta, two statements in program order",
	  "#define NI 4\n#define NJ 5\n#define NK 6\n"
	  "void gemm(float alpha, float beta, float C[NI][NJ],\n"
	  "  float A[NI][NK], float B[NK][NJ]) {\n  int i, j, k;\n"
	  "#pragma scop\n"
	  "  for (i = 0; i < NI; i++) {\n"
	  "    for (j = 0; j < NJ; j++)\n      C[i][j] *= beta;\n"
	  "    for (k = 0; k < NK; k++)\n      for (j = 0; j < NJ; j++)\n"
	  "        C[i][j] += alpha * A[i][k] * B[k][j];\n  }\n"
	  "#pragma endscop\n}\n", { NULL },
	  "[NI, NJ, NK] -> { S0[i, j] : 0 <= i < NI and 0 <= j < NJ; "
	  "S1[i, k, j] : 0 <= i < NI and 0 <= k < NK and 0 <= j < NJ }",
	  "[NI, NJ, NK] -> { S0[i, j] -> C[i, j]; S1[i, k, j] -> C[i, j]; "
	  "S1[i, k, j] -> A[i, k]; S1[i, k, j] -> B[k, j] }",
	  "[NI, NJ, NK] -> { S0[i, j] -> C[i, j]; S1[i, k, j] -> C[i, j] }",
	  "[NI, NJ, NK] -> { S0[i, j] -> [0, i, 0, j, 0, 0, 0]; "
	  "S1[i, k, j] -> [0, i, 1, k, 0, j, 0] }",
	  "NI=4 NJ=5 NK=6", "1 3", "", "fp32" },
	/* syrk's lower triangle: the bound of j depends on i. */
	{ "triangular bounds, a typedef and an if",
	  "typedef float data_t;\n#define N 6\n"
	  "void f(data_t A[N][N], data_t C[N][N]) {\n#pragma scop\n"
	  "for (int i = 0; i < N; i++)\n  for (int j = 0; j <= i; j++)\n"
	  "    for (int k = 0; k < N; k++)\n"
	  "      if (k != j) C[i][j] += A[i][k] * A[j][k];\n"
	  "#pragma endscop\n}\n", { NULL },
	  "[N] -> { S0[i, j, k] : 0 <= j <= i < N and 0 <= k < N and "
	  "k != j }",
	  "[N] -> { S0[i, j, k] -> C[i, j]; S0[i, j, k] -> A[i, k]; "
	  "S0[i, j, k] -> A[j, k] }",
	  "[N] -> { S0[i, j, k] -> C[i, j] }", NULL, "N=6", "2", "",
	  "fp32" },
	/* A decreasing loop enters the schedule negated; min() bounds and
	 * an else branch.
	 */
	{ "a loop counting down, min() in a bound, an else branch",
	  "#define N 10\n#define min(a, b) ((a) < (b) ? (a) : (b))\n"
	  "void f(int A[N], int B[N]) {\n#pragma scop\n"
	  "for (int i = N - 1; i >= 0; i--)\n"
	  "  for (int j = 0; j < min(i + 2, N); j++)\n"
	  "    if (j < 3) A[j] -= B[i]; else A[j] = B[j];\n"
	  "#pragma endscop\n}\n", { NULL },
	  "[N] -> { S0[i, j] : 0 <= i < N and 0 <= j < i + 2 and j < 10 "
	  "and j < 3; S1[i, j] : 0 <= i < N and 3 <= j < i + 2 and "
	  "j < 10 }",
	  "[N] -> { S0[i, j] -> A[j]; S0[i, j] -> B[i]; S1[i, j] -> B[j] }",
	  "[N] -> { S0[i, j] -> A[j]; S1[i, j] -> A[j] }",
	  "[N] -> { S0[i, j] -> [0, -i, 0, j, 0]; "
	  "S1[i, j] -> [0, -i, 0, j, 1] }", "N=10", "1 0", "", "int32" },
	/* An edge list: the subscripts that read src and dst make may-
	 * accesses over the declared dimension, and src, dst are read.
	 */
	{ "data-dependent subscripts become may-accesses",
	  "#define E 16\n#define V 4\n#define F 8\n"
	  "void f(int src[E], int dst[E], float val[E], float H[V][F],\n"
	  "  float out[V][F]) {\n#pragma scop\n"
	  "for (int e = 0; e < E; e++)\n  for (int f = 0; f < F; f++)\n"
	  "    out[dst[e]][f] += val[e] * H[src[e]][f];\n"
	  "#pragma endscop\n}\n", { NULL },
	  "[E, F] -> { S0[e, f] : 0 <= e < E and 0 <= f < F }",
	  "[E, F] -> { S0[e, f] -> out[v, f] : 0 <= v < 4; "
	  "S0[e, f] -> dst[e]; S0[e, f] -> val[e]; "
	  "S0[e, f] -> H[v, f] : 0 <= v < 4; S0[e, f] -> src[e] }",
	  "[E, F] -> { S0[e, f] -> out[v, f] : 0 <= v < 4 }", NULL,
	  "E=16 F=8", "2", "", "fp32" },
	/* Temporaries declared inside the scop, a call (sqrt) and an
	 * integer parameter from a const.
	 */
	{ "an on-chip temporary, a call and a const parameter",
	  "#include <math.h>\nconst int N = 5;\n"
	  "void f(float A[5], float B[5]) {\n#pragma scop\n{\n"
	  "  float T[5];\n"
	  "  for (int i = 0; i < N; i++) T[i] = sqrt(A[i]) + 1;\n"
	  "  for (int i = 0; i < N; i++) B[i] = T[i] * T[i];\n}\n"
	  "#pragma endscop\n}\n", { NULL },
	  "[N] -> { S0[i] : 0 <= i < N; S1[i] : 0 <= i < N }",
	  "[N] -> { S0[i] -> A[i]; S1[i] -> T[i] }",
	  "[N] -> { S0[i] -> T[i]; S1[i] -> B[i] }",
	  "[N] -> { S0[i] -> [0, i, 0]; S1[i] -> [1, i, 0] }", "N=5",
	  "2 1", "T", "fp32" },
	{ "strided subscripts and a #ifdef inside the scop",
	  "#define N 4\n"
	  "void f(char in[2 * N + 1], char out[N]) {\n#pragma scop\n"
	  "for (int i = 0; i < N; i++)\n"
	  "#ifdef SHIFT\n  out[i] = in[2 * i + 1];\n"
	  "#else\n  out[i] = in[2 * i];\n#endif\n"
	  "#pragma endscop\n}\n", { "SHIFT", NULL },
	  "[N] -> { S0[i] : 0 <= i < N }", "[N] -> { S0[i] -> in[2i + 1] }",
	  "[N] -> { S0[i] -> out[i] }", NULL, "N=4", "0", "", "int8" },
};

static void check_model(const struct model_case *c, const cfront_kernel *k)
{
	poly_kernel_desc d;
	char buf[256] = "";
	size_t len = 0;

	memset(&d, 0, sizeof(d));
	cfront_fill_desc(k, &d);
	if (!same(d.domain, c->domain, 0))
		fail_msg("%s: domain\n   got %s\n  want %s", c->what, d.domain,
			c->domain);
	if (!same(d.reads, c->reads, 1))
		fail_msg("%s: reads\n   got %s\n  want %s", c->what, d.reads,
			c->reads);
	if (!same(d.writes, c->writes, 1))
		fail_msg("%s: writes\n   got %s\n  want %s", c->what, d.writes,
			c->writes);
	if (c->schedule && !same(d.schedule, c->schedule, 1))
		fail_msg("%s: schedule\n   got %s\n  want %s", c->what,
			d.schedule, c->schedule);
	for (int i = 0; i < d.n_params; i++)
		len += (size_t) snprintf(buf + len, sizeof(buf) - len,
			"%s%s=%lld", i ? " " : "", d.param_name[i],
			(long long) d.param_value[i]);
	if (strcmp(buf, c->params))
		fail_msg("%s: params '%s', want '%s'", c->what, buf, c->params);
	len = 0;
	buf[0] = '\0';
	for (int i = 0; i < d.n_stmt_info; i++)
		len += (size_t) snprintf(buf + len, sizeof(buf) - len, "%s%d",
			i ? " " : "", d.stmt_info[i].ops);
	if (strcmp(buf, c->ops))
		fail_msg("%s: ops '%s', want '%s'", c->what, buf, c->ops);
	len = 0;
	buf[0] = '\0';
	for (int i = 0; i < d.n_local; i++)
		len += (size_t) snprintf(buf + len, sizeof(buf) - len, "%s%s",
			i ? " " : "", d.local[i]);
	if (strcmp(buf, c->local))
		fail_msg("%s: local '%s', want '%s'", c->what, buf, c->local);
	if ((cfront_dtype(k) == NULL) != (c->dtype == NULL) ||
	    (c->dtype && strcmp(cfront_dtype(k), c->dtype)))
		fail_msg("%s: dtype %s, want %s (%s)", c->what,
			cfront_dtype(k) ? cfront_dtype(k) : "none",
			c->dtype ? c->dtype : "none", cfront_type_note(k));
}

static void test_models(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(model_cases) / sizeof(model_cases[0]);
	     i++) {
		const struct model_case *c = &model_cases[i];
		dse_error err;
		cfront_kernel *k = read_text(c->text, c->defs, &err);

		if (!k)
			fail_msg("%s: refused: %d:%d: %s", c->what, err.line,
				err.col, err.msg);
		check_model(c, k);
		cfront_free(k);
	}
}

/* --- what the reader refuses, and where ---------------------------------- */

/* Every refusal case is this file with its own body from line 5 on. */
#define HEAD "#define N 8\nvoid g(int); int h(int);\n" \
	"void f(float A[N][N], float B[N], int idx[N], float *P, int n) {\n" \
	"#pragma scop\n"
#define TAIL "#pragma endscop\n}\n"

struct refuse_case {
	const char *what;
	const char *text;	/* whole file, or a body between HEAD, TAIL */
	int whole;
	int line, col;
	const char *msg;	/* a part of the message */
};

static const struct refuse_case refuse_cases[] = {
	{ "a product of two loop iterators",
	  "for (int i = 0; i < N; i++)\n for (int j = 0; j < N; j++)\n"
	  "  B[i * j] = 0;\n", 0, 7, 5,
	  "subscript 1 of B is not affine: 'i * j' multiplies two values "
	  "that both vary" },
	{ "a flattened subscript: a parameter times an iterator",
	  "for (int i = 0; i < N; i++)\n  P[i * N + 1] = 0;\n", 0, 6, 5,
	  "'i * N' multiplies two values that both vary" },
	{ "a loop bound read from memory",
	  "for (int i = 0; i < N; i++)\n for (int j = 0; j < idx[i]; j++)\n"
	  "  A[i][j] = 0;\n", 0, 6, 22,
	  "the condition of loop 'j' is not affine: 'idx[i]' reads memory" },
	{ "a condition read from memory",
	  "for (int i = 0; i < N; i++)\n  if (B[i] > 0) B[i] = 0;\n", 0, 6, 7,
	  "the condition of this if is not affine: 'B[i]' reads memory" },
	{ "a while loop",
	  "while (n > 0) B[0] = 1;\n", 0, 5, 1,
	  "a while or do loop has no affine bounds" },
	{ "a scalar written in the scop",
	  "for (int i = 0; i < N; i++)\n  n = idx[i];\n", 0, 6, 3,
	  "the scalar 'n' is assigned inside the scop" },
	{ "a loop iterator written in its loop",
	  "for (int i = 0; i < N; i++)\n  i = 2;\n", 0, 6, 3,
	  "the loop iterator 'i' is assigned inside its loop" },
	{ "a step of 2",
	  "for (int i = 0; i < N; i += 2)\n  B[i] = 0;\n", 0, 5, 24,
	  "loop 'i' does not step by 1 or -1" },
	{ "a variable without a value",
	  "for (int i = 0; i < n; i++)\n  B[i] = 0;\n", 0, 5, 21,
	  "'n' is neither a loop iterator of the scop nor a constant" },
	{ "a function call as a statement",
	  "for (int i = 0; i < N; i++)\n  g(i);\n", 0, 6, 3,
	  "a function call as a statement" },
	{ "a pointer dereference",
	  "*P = 1;\n", 0, 5, 1,
	  "only the elements of a named array can be accessed" },
	{ "an index read from memory into an array of unknown size",
	  "for (int i = 0; i < N; i++)\n  B[i] = P[idx[i]];\n", 0, 6, 12,
	  "subscript 1 of P, 'idx[i]', reads memory" },
	{ "a scalar declared in the scop",
	  "{ float t;\n  for (int i = 0; i < N; i++) B[i] = 0; }\n", 0, 5, 3,
	  "the scalar 't' is declared inside the scop" },
	{ "a division by a variable",
	  "for (int i = 0; i < N; i++)\n for (int j = 1; j < N; j++)\n"
	  "  A[i / j][0] = 0;\n", 0, 7, 5,
	  "subscript 1 of A is not affine: 'i / j' divides by something "
	  "other than a positive constant" },
	{ "an assignment operator outside the subset",
	  "for (int i = 0; i < N; i++)\n  idx[i] %= 3;\n", 0, 6, 3,
	  "a statement is an assignment with =, +=, -=, *= or /=" },
	{ "a jump",
	  "for (int i = 0; i < N; i++) {\n  if (i == 2) break;\n"
	  "  B[i] = 0;\n}\n", 0, 6, 15, "a jump leaves static control flow" },
	{ "a call in a loop bound",
	  "for (int i = 0; i < h(n); i++)\n  B[i] = 0;\n", 0, 5, 21,
	  "'h(n)' calls a function" },
	{ "an assignment inside an expression",
	  "for (int i = 0; i < N; i++)\n  B[i] = A[i][i] = 0;\n", 0, 6, 10,
	  "an assignment or a comma inside an expression" },
	{ "a loop without an initialisation",
	  "for (; n < N; n++) B[0] = 0;\n", 0, 5, 1,
	  "a for loop needs an initialisation, a condition and an "
	  "increment" },
	{ "nested loops with one name",
	  "for (int i = 0; i < N; i++)\n  for (int i = 0; i < N; i++)\n"
	  "    B[i] = 0;\n", 0, 6, 3,
	  "two nested loops are both called 'i'" },
	{ "a compiler error",
	  "for (int i = 0; i < N; i++)\n  B[i] = x;\n", 0, 6, 10,
	  "use of undeclared identifier 'x'" },
	{ "a scop without its end",
	  "#define N 8\nvoid f(float B[N]) {\n#pragma scop\n"
	  "for (int i = 0; i < N; i++) B[i] = 0;\n}\n", 1, 3, 1,
	  "#pragma scop without a #pragma endscop" },
	{ "a scop outside any function",
	  "float B[8];\n#pragma scop\n#pragma endscop\n", 1, 2, 1,
	  "#pragma scop must stand inside a function body" },
	{ "a scop that cuts a loop",
	  "void f(float B[8]) {\n  for (int i = 0; i < 8; i++) {\n"
	  "#pragma scop\n    B[i] = 0;\n  }\n#pragma endscop\n}\n", 1, 2, 3,
	  "this statement is cut by #pragma scop" },
	{ "no scop at all",
	  "void f(float B[8]) { B[0] = 1; }\n", 1, 0, 0,
	  "kernel.c has no #pragma scop" },
	{ "two scops and no choice",
	  "void f(float B[8]) {\n#pragma scop\n B[0] = 1;\n#pragma endscop\n"
	  "}\nvoid g(float B[8]) {\n#pragma scop\n B[1] = 1;\n"
	  "#pragma endscop\n}\n", 1, 0, 0,
	  "kernel.c has 2 scops: say which with scop = <number or function> "
	  "(1 (line 2, in f), 2 (line 7, in g))" },
	{ "a scop with nothing to compute",
	  "void f(float B[8]) {\n#pragma scop\n  ;\n#pragma endscop\n}\n",
	  1, 3, 3, "the scop assigns no array element" },
};

static void test_refusals(void **state)
{
	int bad = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(refuse_cases) / sizeof(refuse_cases[0]);
	     i++) {
		const struct refuse_case *c = &refuse_cases[i];
		char text[2048];
		dse_error err;
		cfront_kernel *k;

		snprintf(text, sizeof(text), "%s%s%s", c->whole ? "" : HEAD,
			c->text, c->whole ? "" : TAIL);
		k = read_text(text, NULL, &err);
		if (k) {
			cfront_free(k);
			fail_msg("%s: accepted", c->what);
		}
		if (err.code != DSE_E_INPUT || strcmp(err.file, "kernel.c") ||
		    err.line != c->line || err.col != c->col ||
		    !strstr(err.msg, c->msg))
			print_error("%s:\n   got %d %s:%d:%d: %s\n  want "
				"kernel.c:%d:%d: ...%s...\n", c->what, err.code,
				err.file, err.line, err.col, err.msg, c->line,
				c->col, c->msg), bad++;
	}
	assert_int_equal(bad, 0);
}

/* --- statement roles and exact counts, from C ----------------------------- */

/* Each case is a whole C file analysed end to end: either its compute
 * statement's instances (closed forms worked out by hand from the loop
 * bounds), the points of its bounding box and every statement's role, or
 * the refusal at the statement that the array would leave out.
 */
struct role_case {
	const char *what;
	const char *text;
	uint64_t points, box;
	const char *roles;	/* "init compute", in program order */
	int line, col;		/* of the refusal; 0 when it is accepted */
	const char *msg;
};

#define ROLE_HEAD "#define N 12\n#define M 5\n" \
	"void f(float alpha, float beta, float A[N][N], float B[N][N],\n" \
	"  float C[N][N], float D[N][N], float T[N][N]) {\n#pragma scop\n"

static const struct role_case role_cases[] = {
	{ "syrk: a triangle j <= i, k free, C scaled first",
	  ROLE_HEAD "for (int i = 0; i < N; i++) {\n"
	  "  for (int j = 0; j <= i; j++)\n    C[i][j] *= beta;\n"
	  "  for (int k = 0; k < M; k++)\n    for (int j = 0; j <= i; j++)\n"
	  "      C[i][j] += alpha * A[i][k] * A[j][k];\n}\n" TAIL,
	  12 * 13 / 2 * 5, 12 * 5 * 12, "init compute", 0, 0, NULL },
	{ "a tetrahedron k <= j <= i, C zeroed first",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j <= i; j++) {\n    C[i][j] = 0;\n"
	  "    for (int k = 0; k <= j; k++)\n"
	  "      C[i][j] += A[i][k] * B[j][k];\n  }\n" TAIL,
	  12 * 13 * 14 / 6, 12 * 12 * 12, "init compute", 0, 0, NULL },
	{ "an upper triangle from an outer loop's bound (j from i)",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = i; j < N; j++)\n    for (int k = 0; k < M; k++)\n"
	  "      C[i][j] += A[i][k] * B[k][j];\n" TAIL,
	  12 * 13 / 2 * 5, 12 * 12 * 5, "compute", 0, 0, NULL },
	{ "a triangle cut by an if (i + j < N)",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++)\n    if (i + j < N)\n"
	  "      for (int k = 0; k < M; k++)\n"
	  "        C[i][j] += A[i][k] * B[k][j];\n" TAIL,
	  12 * 13 / 2 * 5, 12 * 12 * 5, "compute", 0, 0, NULL },
	{ "every other row (a modulo)",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++)\n    if (i % 2 == 0)\n"
	  "      for (int k = 0; k < M; k++)\n"
	  "        C[i][j] += A[i][k] * B[k][j];\n" TAIL,
	  6 * 12 * 5, 11 * 12 * 5, "compute", 0, 0, NULL },
	{ "2mm: the second multiply is a second computation",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++) {\n    T[i][j] = 0;\n"
	  "    for (int k = 0; k < N; k++)\n"
	  "      T[i][j] += alpha * A[i][k] * B[k][j];\n  }\n"
	  "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++) {\n    D[i][j] *= beta;\n"
	  "    for (int k = 0; k < N; k++)\n"
	  "      D[i][j] += T[i][k] * C[k][j];\n  }\n" TAIL,
	  0, 0, NULL, 16, 7, "statement S3 'D[i][j] += T[i][k] * C[k][j]' is "
	  "a second computation: it writes D where S1, the statement mapped "
	  "onto the array, does not" },
	{ "3mm's third multiply reads the first two",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++)\n    for (int k = 0; k < N; k++)\n"
	  "      T[i][j] += A[i][k] * B[k][j];\n"
	  "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++)\n    for (int k = 0; k < N; k++)\n"
	  "      C[i][j] += D[i][k] * T[k][j];\n" TAIL,
	  0, 0, NULL, 13, 7, "statement S1 'C[i][j] += D[i][k] * T[k][j]' is "
	  "a second computation: it writes C where S0" },
	{ "the output copied from another array first",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++) {\n    C[i][j] = D[i][j];\n"
	  "    for (int k = 0; k < N; k++)\n"
	  "      C[i][j] += A[i][k] * B[k][j];\n  }\n" TAIL,
	  0, 0, NULL, 8, 5, "statement S0 'C[i][j] = D[i][j]' reads D to "
	  "compute the output of S1" },
	{ "the output scaled after its accumulation",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++) {\n"
	  "    for (int k = 0; k < N; k++)\n"
	  "      C[i][j] += A[i][k] * B[k][j];\n    C[i][j] *= alpha;\n  }\n"
	  TAIL, 0, 0, NULL, 10, 5, "statement S1 'C[i][j] *= alpha' runs after "
	  "S0 has used the elements it writes" },
	/* trmm: the k loop is empty on the last row, so the scaling writes
	 * B[11][j] (N = 12, j < M = 5), which the accumulation never does,
	 * and scales every other row after the accumulation has used it.
	 */
	{ "trmm: a scaling after the accumulation, the last row unaccumulated",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < M; j++) {\n"
	  "    for (int k = i + 1; k < N; k++)\n"
	  "      B[i][j] += A[k][i] * B[k][j];\n"
	  "    B[i][j] = alpha * B[i][j];\n  }\n" TAIL,
	  0, 0, NULL, 10, 5, "statement S1 'B[i][j] = alpha * B[i][j]' is a "
	  "second computation: it writes B where S0, the statement mapped "
	  "onto the array, does not ({ B[11, i1] : 0 <= i1 <= 4 }), and it "
	  "writes elements that S0 reads or writes after it has used them" },
	{ "an initialisation of elements the computation never writes",
	  ROLE_HEAD "for (int i = 0; i < N; i++)\n"
	  "  for (int j = 0; j < N; j++) {\n    C[i][j] = 0;\n"
	  "    for (int k = 0; k < N; k++)\n      if (j < M)\n"
	  "        C[i][j] += A[i][k] * B[k][j];\n  }\n" TAIL,
	  0, 0, NULL, 8, 5, "statement S0 'C[i][j] = 0' is a second "
	  "computation: it writes C where S1" },
};

/* Checks one accepted case; returns the number of mismatches printed. */
static int check_roles(const struct role_case *c, const poly_analysis *a)
{
	char roles[128] = "";
	size_t len = 0;

	for (int s = 0; s < a->n_statements; s++)
		len += (size_t) snprintf(roles + len, sizeof(roles) - len,
			"%s%s", s ? " " : "", a->stmt_role[s] == POLY_ROLE_INIT ?
			"init" : "compute");
	if (a->points == c->points && a->box_points == c->box &&
	    !strcmp(roles, c->roles))
		return 0;
	print_error("%s: %llu instances in a box of %llu, roles '%s'; want "
		"%llu in %llu, '%s'\n", c->what, (unsigned long long) a->points,
		(unsigned long long) a->box_points, roles,
		(unsigned long long) c->points, (unsigned long long) c->box,
		c->roles);
	return 1;
}

static void test_roles(void **state)
{
	int bad = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(role_cases) / sizeof(role_cases[0]);
	     i++) {
		const struct role_case *c = &role_cases[i];
		dse_error err;
		cfront_kernel *k = read_text(c->text, NULL, &err);
		poly_kernel_desc d;
		poly_analysis *a;

		if (!k)
			fail_msg("%s: the reader refused it: %d:%d: %s",
				c->what, err.line, err.col, err.msg);
		memset(&d, 0, sizeof(d));
		cfront_fill_desc(k, &d);
		d.name = "roles";
		dse_error_clear(&err);
		a = poly_analyze(&d, &err);
		if (a && c->msg) {
			print_error("%s: accepted\n", c->what);
			bad++;
		} else if (a) {
			bad += check_roles(c, a);
		} else if (!c->msg || err.code != DSE_E_INPUT ||
		    strcmp(err.file, "kernel.c") || err.line != c->line ||
		    err.col != c->col || !strstr(err.msg, c->msg)) {
			print_error("%s:\n   got %d %s:%d:%d: %s\n  want "
				"kernel.c:%d:%d: ...%s...\n", c->what, err.code,
				err.file, err.line, err.col, err.msg, c->line,
				c->col, c->msg ? c->msg : "(accepted)");
			bad++;
		}
		poly_analysis_free(a);
		cfront_free(k);
	}
	assert_int_equal(bad, 0);
}

/* --- the C twins of the example kernels ---------------------------------- */

/* Appends printf-style text to a growing dump (declared in
 * cfront_test.h: the example tests use it too).
 */
void cf_put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t) n < size ? *len + (size_t) n : size - 1;
}

static void dump_group(const poly_group *g, char *buf, size_t size,
	size_t *len)
{
	cf_put(buf, size, len, "  %s %s kind %d acc %d deps", g->name, g->array,
		g->kind, g->access);
	for (int d = 0; d < g->n_deps; d++)
		cf_put(buf, size, len, " %d", g->dep[d]);
	cf_put(buf, size, len, " dir %d,%d,%d known %d type %d in %d out %d "
		"pruned %d emb %d levels %d buf %d\n   W_in %s\n   W_out %s\n",
		g->dir[0], g->dir[1], g->dir[2], g->dir_known, g->type,
		g->copy_in, g->copy_out, g->pruned, g->embedded, g->levels,
		g->buffer_level, g->copy_in_set, g->copy_out_set);
}

/* Everything the analysis found but its timing and the kernel's name, one
 * item a line.
 */
static void dump(const poly_analysis *a, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	cf_put(buf, size, &len, "statement %s of %d\n", a->statement,
		a->n_statements);
	for (int l = 0; l < a->n_loops; l++)
		cf_put(buf, size, &len, "loop %s %lld parallel %d space %d\n",
			a->loop[l], (long long) a->extent[l], a->parallel[l],
			a->space_ok[l]);
	cf_put(buf, size, &len, "band %d reduction %d simd %d %s\n", a->band,
		a->reduction, a->simd_loop, a->simd_layout);
	cf_put(buf, size, &len, "points %llu box %llu ops %d roles",
		(unsigned long long) a->points,
		(unsigned long long) a->box_points, a->ops_per_point);
	for (int s = 0; s < a->n_statements; s++)
		cf_put(buf, size, &len, " %s:%d", a->stmt_name[s],
			a->stmt_role[s]);
	cf_put(buf, size, &len, "\n");
	for (int i = 0; i < a->n_accesses; i++)
		cf_put(buf, size, &len, "access %s %s w %d may %d\n",
			a->access[i].array, a->access[i].text,
			a->access[i].write, a->access[i].may);
	for (int i = 0; i < a->n_deps; i++) {
		const poly_dep *d = &a->dep[i];

		cf_put(buf, size, &len, "dep %s %d %s %d %s", d->name, d->kind,
			d->array, d->access, d->relation);
		for (int l = 0; l < a->n_loops; l++)
			cf_put(buf, size, &len, " %lld..%lld",
				(long long) d->dist_min[l],
				(long long) d->dist_max[l]);
		cf_put(buf, size, &len, "\n");
	}
	cf_put(buf, size, &len, "default %d\n", a->default_candidate);
	for (int c = 0; c < a->n_candidates; c++) {
		const poly_candidate *k = &a->cand[c];

		cf_put(buf, size, &len, "candidate %d space", k->index);
		for (int s = 0; s < k->n_space; s++)
			cf_put(buf, size, &len, " %d", k->space[s]);
		cf_put(buf, size, &len, " time");
		for (int t = 0; t < k->n_time; t++)
			cf_put(buf, size, &len, " %d", k->time[t]);
		cf_put(buf, size, &len, "\n");
		for (int g = 0; g < k->n_groups; g++)
			dump_group(&k->group[g], buf, size, &len);
	}
}

/* Fails with the first line where got and want differ. */
static void same_dump(const char *what, const char *got, const char *want)
{
	int line = 1;

	while (*got && *got == *want) {
		line += *got == '\n';
		got++;
		want++;
	}
	if (*got || *want) {
		while (line > 1 && got[-1] != '\n') {
			got--;
			want--;
		}
		fail_msg("%s: line %d differs\n   C: %.200s\n isl: %.200s",
			what, line, got, want);
	}
}

struct twin_case {
	const char *example;	/* in tests/support/mm_kernel.c */
	const char *file;	/* under configs/kernels/ */
	int64_t values[6];
};

static const struct twin_case twins[] = {
	{ "mm", "mm.c", { 16, 16, 16 } },
	{ "mm", "mm.c", { 64, 32, 8 } },
	{ "mm-init", "mm-init.c", { 16, 8, 4 } },
	{ "conv", "conv.c", { 8, 4, 6, 6, 3, 3 } },
	{ "mttkrp", "mttkrp.c", { 8, 8, 4, 4 } },
	{ "ttmc", "ttmc.c", { 4, 4, 4, 4, 4 } },
	{ "fir", "fir.c", { 16, 4 } },
};

#define DUMP_LEN 200000

/* Fails unless the kernel k read from C analyses as its isl form "isl"
 * does; "text" (the C, or NULL) is shown when they differ.  "schedule",
 * when not NULL, replaces the C's program order, as a config's schedule
 * does.
 */
static void same_as_isl(const char *what, const cfront_kernel *k,
	const poly_kernel_desc *isl, const char *text, const char *schedule)
{
	char *want = malloc(DUMP_LEN), *got = malloc(DUMP_LEN);
	poly_kernel_desc c;
	poly_analysis *a, *b;
	dse_error err;

	assert_non_null(want);
	assert_non_null(got);
	memset(&c, 0, sizeof(c));
	cfront_fill_desc(k, &c);
	c.name = isl->name;
	c.reduction = isl->reduction;
	if (schedule)
		c.schedule = schedule;
	a = poly_analyze(&c, &err);
	if (!a)
		fail_msg("%s: the C does not analyse: %s\n%s", what, err.msg,
			text ? text : "");
	b = poly_analyze(isl, &err);
	assert_non_null(b);
	dump(a, got, DUMP_LEN);
	dump(b, want, DUMP_LEN);
	if (text && strcmp(got, want))
		print_message("%s", text);
	same_dump(what, got, want);
	poly_analysis_free(a);
	poly_analysis_free(b);
	free(want);
	free(got);
}

static void test_twins(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		const example_kernel *ex = example_kernel_find(twins[i].example);
		poly_kernel_desc isl = example_kernel_desc(ex, twins[i].values);
		char path[512], defs[6][32], what[64];
		cfront_opts o;
		cfront_kernel *k;
		dse_error err;

		memset(&o, 0, sizeof(o));
		snprintf(path, sizeof(path), "%s/configs/kernels/%s",
			DSE_SOURCE_DIR, twins[i].file);
		o.file = path;
		for (int p = 0; p < ex->n_params; p++) {
			snprintf(defs[p], sizeof(defs[p]), "%s=%lld",
				ex->param[p], (long long) twins[i].values[p]);
			o.define[o.n_defines++] = defs[p];
		}
		k = cfront_read(&o, &err);
		if (!k)
			fail_msg("%s: %s:%d:%d: %s", path, err.file, err.line,
				err.col, err.msg);
		snprintf(what, sizeof(what), "%s (%s)", twins[i].file,
			twins[i].example);
		same_as_isl(what, k, &isl, NULL, NULL);
		cfront_free(k);
	}
}

/* The stencil of configs/jacobi-1d-c.cfg: the single-assignment C of
 * configs/kernels/jacobi-1d-sa.c skewed by the schedule S0[t,i] -> [t, t +
 * i] analyses as the isl form of configs/jacobi-1d.cfg skewed the same way
 * (its statement named S0, as the C reader names the first statement):
 * the same transformed loops, band, dependences, candidates and groups.
 */
static void test_skewed_twin(void **state)
{
	static const poly_kernel_desc isl = {
		.name = "jacobi-1d",
		.domain = "[T,N] -> { S0[t,i] : 0 <= t < T and 1 <= i < N - 1 }",
		.reads = "[T,N] -> { S0[t,i] -> A[t, i - 1]; S0[t,i] -> A[t, i]; "
			"S0[t,i] -> A[t, i + 1] }",
		.writes = "[T,N] -> { S0[t,i] -> A[t + 1, i] }",
		.schedule = "[T,N] -> { S0[t,i] -> [t, t + i] }",
		.n_params = 2,
		.param_name = { "T", "N" },
		.param_value = { 6, 12 },
		.ops_per_point = 3,
	};
	const char *skew = "{ S0[t,i] -> [t, t + i] }";
	char path[512];
	cfront_opts o;
	cfront_kernel *k;
	dse_error err;

	(void) state;
	memset(&o, 0, sizeof(o));
	snprintf(path, sizeof(path), "%s/configs/kernels/jacobi-1d-sa.c",
		DSE_SOURCE_DIR);
	o.file = path;
	o.define[o.n_defines++] = "T=6";
	o.define[o.n_defines++] = "N=12";
	k = cfront_read(&o, &err);
	if (!k)
		fail_msg("%s: %s:%d:%d: %s", path, err.file, err.line, err.col,
			err.msg);
	same_as_isl("jacobi-1d-sa.c skewed", k, &isl, NULL, skew);
	cfront_free(k);
}

/* --- C written from the isl model, read back ------------------------------ */

/* Each example kernel given as isl strings, written as C by
 * poly_kernel_c and read back by the C reader, analyses as its isl form
 * does: the same loops in the same order (so the same candidates and
 * --sa-sizes), dependences, groups and operation count.
 */
static void test_emitted(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		const example_kernel *ex = example_kernel_find(twins[i].example);
		poly_kernel_desc isl = example_kernel_desc(ex, twins[i].values);
		dse_error err;
		poly_analysis *b = poly_analyze(&isl, &err);
		cfront_kernel *k;
		char *text;

		assert_non_null(b);
		text = poly_kernel_c(&isl, "float", b->ops_per_point, &err);
		poly_analysis_free(b);
		if (!text)
			fail_msg("%s: not written: %s", ex->name, err.msg);
		k = read_text(text, NULL, &err);
		if (!k)
			fail_msg("%s: the C written is refused at %d:%d: %s\n%s",
				ex->name, err.line, err.col, err.msg, text);
		same_as_isl(ex->name, k, &isl, text, NULL);
		cfront_free(k);
		free(text);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest models[] = {
		cmocka_unit_test(test_models),
	};
	const struct CMUnitTest refusals[] = {
		cmocka_unit_test(test_refusals),
	};
	const struct CMUnitTest role[] = {
		cmocka_unit_test(test_roles),
	};
	const struct CMUnitTest twin[] = {
		cmocka_unit_test(test_twins),
		cmocka_unit_test(test_skewed_twin),
	};
	const struct CMUnitTest emitted[] = {
		cmocka_unit_test(test_emitted),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = !strcmp(group, "all"), failed = 0;

	if (all || !strcmp(group, "model"))
		failed += cmocka_run_group_tests_name("cfront.model", models,
			NULL, NULL);
	if (all || !strcmp(group, "refuse"))
		failed += cmocka_run_group_tests_name("cfront.refuse", refusals,
			NULL, NULL);
	if (all || !strcmp(group, "roles"))
		failed += cmocka_run_group_tests_name("cfront.roles", role,
			NULL, NULL);
	if (all || !strcmp(group, "twins"))
		failed += cmocka_run_group_tests_name("cfront.twins", twin, NULL,
			NULL);
	if (all || !strcmp(group, "examples"))
		failed += run_example_tests();
	if (all || !strcmp(group, "emit"))
		failed += cmocka_run_group_tests_name("cfront.emit", emitted,
			NULL, NULL);
	return failed ? 1 : 0;
}
