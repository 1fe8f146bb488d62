/* Tests of polyhedral/: isl strings in, template values or errors out. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "polyhedral/poly.h"

#define MM_DOMAIN "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N " \
	"and 0 <= k < K }"
#define MM_READS "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; " \
	"S0[i,j,k] -> C[i,j] }"
#define MM_WRITES "[M,N,K] -> { S0[i,j,k] -> C[i,j] }"

#define MAX_TEST_PARAMS 5

/* Parameter names and values as a config would give them. */
struct params {
	int n;
	const char *name[MAX_TEST_PARAMS];
	int64_t value[MAX_TEST_PARAMS];
};

#define MNK(m, n, k) { 3, { "M", "N", "K" }, { m, n, k } }

/* Distinct positions per key, so that a test sees which string an error
 * was blamed on.
 */
enum which_src { SRC_NONE, SRC_DOMAIN, SRC_READS, SRC_WRITES, SRC_PARAMS,
	SRC_REDUCTION, SRC_SPACE_TIME };

static const poly_source sources[] = {
	[SRC_NONE] = { NULL, 0, 0, NULL },
	[SRC_DOMAIN] = { "kernel.cfg", 3, 10, "domain" },
	[SRC_READS] = { "kernel.cfg", 4, 9, "reads" },
	[SRC_WRITES] = { "kernel.cfg", 5, 10, "writes" },
	[SRC_PARAMS] = { "kernel.cfg", 7, 1, "params" },
	[SRC_REDUCTION] = { "kernel.cfg", 6, 13, "reduction" },
	[SRC_SPACE_TIME] = { "kernel.cfg", 10, 14, "space_time" },
};

static poly_kernel_desc make_desc(const char *domain, const char *reads,
	const char *writes, const struct params *p, const char *reduction)
{
	poly_kernel_desc desc;

	memset(&desc, 0, sizeof(desc));
	desc.name = "mm";
	desc.domain = domain;
	desc.reads = reads;
	desc.writes = writes;
	desc.n_params = p->n;
	for (int i = 0; i < p->n; i++) {
		desc.param_name[i] = p->name[i];
		desc.param_value[i] = p->value[i];
	}
	desc.reduction = reduction;
	desc.domain_src = sources[SRC_DOMAIN];
	desc.reads_src = sources[SRC_READS];
	desc.writes_src = sources[SRC_WRITES];
	desc.params_src = sources[SRC_PARAMS];
	desc.reduction_src = sources[SRC_REDUCTION];
	desc.space_time_src = sources[SRC_SPACE_TIME];
	return desc;
}

/* ------------------------------------------------------------------ */
/* Kernels that must build.                                           */

struct good_case {
	const char *what;
	const char *domain, *reads, *writes;
	struct params params;
	const char *reduction;
	/* expected */
	const char *statement;
	const char *loop[3];
	int64_t extent[3];
	int reduction_index;
	uint64_t points;
};

static const struct good_case good_cases[] = {
	{ "mm 1024 derived reduction", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(1024, 1024, 1024), NULL,
	  "S0", { "i", "j", "k" }, { 1024, 1024, 1024 }, 2,
	  UINT64_C(1073741824) },
	{ "mm 1024 given reduction", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(1024, 1024, 1024), "k",
	  "S0", { "i", "j", "k" }, { 1024, 1024, 1024 }, 2,
	  UINT64_C(1073741824) },
	{ "mm 64x32x16", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(64, 32, 16), NULL,
	  "S0", { "i", "j", "k" }, { 64, 32, 16 }, 2, UINT64_C(32768) },
	{ "parameters given in another order", MM_DOMAIN, MM_READS, MM_WRITES,
	  { 3, { "K", "N", "M" }, { 7, 5, 3 } }, NULL,
	  "S0", { "i", "j", "k" }, { 3, 5, 7 }, 2, UINT64_C(105) },
	{ "loops named a,b,c",
	  "[M,N,K] -> { S[a,b,c] : 0 <= a < M and 0 <= b < N and "
	  "0 <= c < K }",
	  "[M,N,K] -> { S[a,b,c] -> A[a,c]; S[a,b,c] -> B[c,b] }",
	  "[M,N,K] -> { S[a,b,c] -> C[a,b] }",
	  MNK(8, 4, 2), NULL,
	  "S", { "a", "b", "c" }, { 8, 4, 2 }, 2, UINT64_C(64) },
	{ "offset bounds 1 <= i <= M",
	  "[M,N,K] -> { S0[i,j,k] : 1 <= i <= M and 2 <= j <= N + 1 and "
	  "-3 <= k < K - 3 }",
	  MM_READS, MM_WRITES, MNK(10, 20, 30), NULL,
	  "S0", { "i", "j", "k" }, { 10, 20, 30 }, 2, UINT64_C(6000) },
	{ "constant bounds, no parameters",
	  "{ S0[i,j,k] : 0 <= i < 12 and 0 <= j < 6 and 0 <= k < 3 }",
	  "{ S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j] }",
	  "{ S0[i,j,k] -> C[i,j] }", { 0, { NULL }, { 0 } }, NULL,
	  "S0", { "i", "j", "k" }, { 12, 6, 3 }, 2, UINT64_C(216) },
	{ "parameter used only by an access stays symbolic",
	  MM_DOMAIN, MM_READS, "[M,N,K,O] -> { S0[i,j,k] -> C[i + O,j] }",
	  MNK(16, 16, 16), NULL,
	  "S0", { "i", "j", "k" }, { 16, 16, 16 }, 2, UINT64_C(4096) },
	{ "access-only parameter may be given a value",
	  MM_DOMAIN, MM_READS, "[M,N,K,O] -> { S0[i,j,k] -> C[i + O,j] }",
	  { 4, { "M", "N", "K", "O" }, { 2, 3, 4, 9 } }, NULL,
	  "S0", { "i", "j", "k" }, { 2, 3, 4 }, 2, UINT64_C(24) },
	{ "given reduction settles an ambiguous one",
	  MM_DOMAIN, MM_READS, "[M,N,K] -> { S0[i,j,k] -> C[i] }",
	  MNK(4, 4, 4), "k",
	  "S0", { "i", "j", "k" }, { 4, 4, 4 }, 2, UINT64_C(64) },
	{ "mm with a 1-trip reduction loop named",
	  MM_DOMAIN, MM_READS, MM_WRITES, MNK(5, 6, 1), "k",
	  "S0", { "i", "j", "k" }, { 5, 6, 1 }, 2, UINT64_C(30) },
};

static void test_good_kernels(void **state)
{
	(void) state;
	for (size_t c = 0; c < sizeof(good_cases) / sizeof(good_cases[0]);
	     c++) {
		const struct good_case *gc = &good_cases[c];
		poly_kernel_desc desc = make_desc(gc->domain, gc->reads,
			gc->writes, &gc->params, gc->reduction);
		poly_template t;
		dse_error err;

		dse_error_clear(&err);
		memset(&t, 0xa5, sizeof(t));
		if (poly_template_build(&desc, 3, &t, &err) != dse_stat_ok)
			fail_msg("%s: %s", gc->what, err.msg);
		assert_int_equal(err.code, DSE_E_NONE);
		assert_string_equal(t.kernel, "mm");
		assert_string_equal(t.statement, gc->statement);
		assert_int_equal(t.n_loops, 3);
		for (int d = 0; d < 3; d++) {
			assert_string_equal(t.loop[d], gc->loop[d]);
			assert_int_equal(t.extent[d], gc->extent[d]);
		}
		assert_int_equal(t.reduction, gc->reduction_index);
		assert_int_equal(t.space_time, 3);
		assert_int_equal(t.n_space, 2);
		assert_int_equal(t.space_loop[0], 0);
		assert_int_equal(t.space_loop[1], 1);
		assert_true(t.points == gc->points);
		assert_int_equal(t.ops_per_point, 2);
	}
}

/* ------------------------------------------------------------------ */
/* Kernels that must be rejected.                                     */

struct bad_case {
	const char *what;
	const char *domain, *reads, *writes;
	struct params params;
	const char *reduction;
	int space_time;
	/* expected */
	enum which_src src;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{ "domain syntax error", "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and ",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "invalid isl set" },
	{ "reads syntax error", MM_DOMAIN,
	  "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> }",
	  MM_WRITES, MNK(8, 8, 8), NULL, 3, SRC_READS, "invalid isl map" },
	{ "writes syntax error", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i,j }", MNK(8, 8, 8), NULL, 3,
	  SRC_WRITES, "invalid isl map" },
	{ "domain given as a relation", MM_WRITES, MM_READS, MM_WRITES,
	  MNK(8, 8, 8), NULL, 3, SRC_DOMAIN, "relation" },
	{ "reads given as a set", MM_DOMAIN, MM_DOMAIN, MM_WRITES,
	  MNK(8, 8, 8), NULL, 3, SRC_READS, "this is a set" },
	{ "missing domain string", NULL, MM_READS, MM_WRITES,
	  MNK(8, 8, 8), NULL, 3, SRC_DOMAIN, "missing" },
	{ "missing parameter value", MM_DOMAIN, MM_READS, MM_WRITES,
	  { 2, { "M", "N" }, { 8, 8 } }, NULL, 3,
	  SRC_PARAMS, "parameter 'K' has no value" },
	{ "unknown parameter", MM_DOMAIN, MM_READS, MM_WRITES,
	  { 4, { "M", "N", "K", "Q" }, { 8, 8, 8, 2 } }, NULL, 3,
	  SRC_PARAMS, "unknown parameter 'Q'" },
	{ "zero parameter value", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(8, 0, 8), NULL, 3, SRC_PARAMS, "'N' must be at least 1" },
	{ "negative parameter value", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(-4, 8, 8), NULL, 3, SRC_PARAMS, "'M' must be at least 1" },
	{ "parameter given twice", MM_DOMAIN, MM_READS, MM_WRITES,
	  { 4, { "M", "N", "K", "M" }, { 8, 8, 8, 8 } }, NULL, 3,
	  SRC_PARAMS, "'M' is given twice" },
	{ "two statements",
	  "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and "
	  "0 <= k < K; S1[i,j] : 0 <= i < M and 0 <= j < N }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "the kernel has 2 statements" },
	{ "triangular domain",
	  "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j <= i and "
	  "0 <= k < K }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "not a rectangular box" },
	{ "strided domain",
	  "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and "
	  "0 <= k < K and i mod 2 = 0 }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "not a rectangular box" },
	{ "unbounded domain",
	  "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "loop 'k' has no upper bound" },
	{ "domain without lower bound",
	  "[M,N,K] -> { S0[i,j,k] : i < M and 0 <= j < N and 0 <= k < K }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "loop 'i' has no lower bound" },
	{ "domain empty for the given values",
	  "[M,N,K] -> { S0[i,j,k] : 8 <= i < M and 0 <= j < N and "
	  "0 <= k < K }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "empty for the given parameter values" },
	{ "domain empty as written", "{ S0[i,j,k] : 1 = 0 }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "the iteration domain is empty" },
	{ "unnamed loop",
	  "[M,N] -> { S0[i,j,0] : 0 <= i < M and 0 <= j < N }",
	  MM_READS, MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "loop 3 of 'S0' has no name" },
	{ "unnamed statement",
	  "[M,N,K] -> { [i,j,k] : 0 <= i < M and 0 <= j < N and "
	  "0 <= k < K }",
	  "[M,N,K] -> { [i,j,k] -> A[i,k] }", "[M,N,K] -> { [i,j,k] -> C[i,j] }",
	  MNK(8, 8, 8), NULL, 3, SRC_DOMAIN, "the statement has no name" },
	{ "2-loop kernel",
	  "[M,K] -> { S0[i,k] : 0 <= i < M and 0 <= k < K }",
	  "[M,K] -> { S0[i,k] -> A[i,k]; S0[i,k] -> x[k] }",
	  "[M,K] -> { S0[i,k] -> y[i] }",
	  { 2, { "M", "K" }, { 8, 8 } }, NULL, 3,
	  SRC_DOMAIN, "needs a kernel with 3 loops" },
	{ "read from another statement", MM_DOMAIN,
	  "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S1[i,j,k] -> B[k,j] }",
	  MM_WRITES, MNK(8, 8, 8), NULL, 3,
	  SRC_READS, "starts from 'S1'" },
	{ "write with the wrong number of indices", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j] -> C[i,j] }", MNK(8, 8, 8), NULL, 3,
	  SRC_WRITES, "with 2 indices" },
	{ "no writes", MM_DOMAIN, MM_READS, "[M,N,K] -> { }",
	  MNK(8, 8, 8), NULL, 3, SRC_WRITES, "writes nothing" },
	{ "writes outside the domain", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i,j] : i > M }",
	  MNK(8, 8, 8), NULL, 3, SRC_WRITES, "writes nothing" },
	{ "reduction name is not a loop", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(8, 8, 8), "q", 3, SRC_REDUCTION, "'q' is not a loop" },
	{ "reduction is not innermost", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(8, 8, 8), "i", 3, SRC_REDUCTION, "innermost" },
	{ "derived reduction is not innermost", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[j,k] }", MNK(8, 8, 8), NULL, 3,
	  SRC_DOMAIN, "'i' is loop 1" },
	{ "no reduction loop", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i,j,k] }", MNK(8, 8, 8), NULL, 3,
	  SRC_WRITES, "cannot find the reduction loop" },
	{ "only reduction loop has one trip", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(8, 8, 1), NULL, 3,
	  SRC_WRITES, "cannot find the reduction loop" },
	{ "ambiguous reduction loop", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i] }", MNK(8, 8, 8), NULL, 3,
	  SRC_WRITES, "ambiguous (j, k" },
	{ "space_time 0", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(8, 8, 8), NULL, 0, SRC_SPACE_TIME,
	  "space_time[0] is not supported" },
	{ "space_time 4", MM_DOMAIN, MM_READS, MM_WRITES,
	  MNK(8, 8, 8), NULL, 4, SRC_SPACE_TIME,
	  "space_time[4] is not supported" },
};

static void test_bad_kernels(void **state)
{
	(void) state;
	for (size_t c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]);
	     c++) {
		const struct bad_case *bc = &bad_cases[c];
		const poly_source *src = &sources[bc->src];
		poly_kernel_desc desc = make_desc(bc->domain, bc->reads,
			bc->writes, &bc->params, bc->reduction);
		poly_template t, untouched;
		dse_error err;

		memset(&t, 0x5a, sizeof(t));
		untouched = t;
		dse_error_clear(&err);
		if (poly_template_build(&desc, bc->space_time, &t, &err) !=
		    dse_stat_error)
			fail_msg("%s: accepted", bc->what);
		if (!strstr(err.msg, bc->msg))
			fail_msg("%s: message '%s' lacks '%s'", bc->what,
				err.msg, bc->msg);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_string_equal(err.file, src->file ? src->file : "");
		assert_int_equal(err.line, src->line);
		assert_int_equal(err.col, src->col);
		assert_string_equal(err.key, src->key ? src->key : "");
		assert_memory_equal(&t, &untouched, sizeof(t));
	}
}

/* ------------------------------------------------------------------ */
/* isl must stay silent on bad input: a library may not print.         */

static void test_isl_silent(void **state)
{
	static const struct {
		const char *domain, *reads, *writes;
	} cases[] = {
		{ "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and ", MM_READS,
		  MM_WRITES },
		{ "{ S0[i,j,k] : i <= }", MM_READS, MM_WRITES },
		{ "garbage", MM_READS, MM_WRITES },
		{ "{ S0[i,j,k] -> A[i] }", MM_READS, MM_WRITES },
		{ MM_DOMAIN, "{ S0[i,j,k] -> A[i,k] : k < Q }", MM_WRITES },
		{ MM_DOMAIN, MM_READS, "{ S0[i,j,k] -> C[i,j] ; ; }" },
		{ MM_DOMAIN, MM_READS, MM_DOMAIN },
	};
	struct params p = MNK(8, 8, 8);
	FILE *capture = tmpfile();
	int saved;
	long size;

	(void) state;
	assert_non_null(capture);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(capture), STDERR_FILENO) >= 0);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		poly_kernel_desc desc = make_desc(cases[c].domain,
			cases[c].reads, cases[c].writes, &p, NULL);
		poly_template t;
		dse_error err;

		assert_int_equal(poly_template_build(&desc, 3, &t, &err),
			dse_stat_error);
	}
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	assert_int_equal(fseek(capture, 0, SEEK_END), 0);
	size = ftell(capture);
	fclose(capture);
	assert_int_equal(size, 0);
}

/* ------------------------------------------------------------------ */
/* Bad arguments that do not come from a kernel string.                */

static void no_desc(poly_kernel_desc **desc, poly_template **out)
{
	(void) out;
	*desc = NULL;
}

static void no_out(poly_kernel_desc **desc, poly_template **out)
{
	(void) desc;
	*out = NULL;
}

static void long_name(poly_kernel_desc **desc, poly_template **out)
{
	(void) out;
	(*desc)->name = "a_kernel_name_of_more_than_31_chars";
}

static void too_many_params(poly_kernel_desc **desc, poly_template **out)
{
	(void) out;
	(*desc)->n_params = POLY_MAX_PARAMS + 1;
}

static void unnamed_param(poly_kernel_desc **desc, poly_template **out)
{
	(void) out;
	(*desc)->param_name[1] = NULL;
}

static void long_statement(poly_kernel_desc **desc, poly_template **out)
{
	(void) out;
	(*desc)->domain = "{ S_a_statement_name_of_over_32_chars[i,j,k] : "
		"0 <= i < 2 and 0 <= j < 2 and 0 <= k < 2 }";
}

static void test_bad_arguments(void **state)
{
	static const struct {
		const char *what;
		void (*mutate)(poly_kernel_desc **, poly_template **);
		enum dse_code code;
		enum which_src src;
		const char *msg;
	} cases[] = {
		{ "no kernel", no_desc, DSE_E_RUNTIME, SRC_NONE, "no kernel" },
		{ "no output", no_out, DSE_E_RUNTIME, SRC_NONE, "no output" },
		{ "kernel name too long", long_name, DSE_E_INPUT, SRC_NONE,
		  "longer than 31" },
		{ "too many parameters", too_many_params, DSE_E_INPUT,
		  SRC_PARAMS, "at most 16" },
		{ "parameter without a name", unnamed_param, DSE_E_INPUT,
		  SRC_PARAMS, "parameter 2 has no name" },
		{ "statement name too long", long_statement, DSE_E_INPUT,
		  SRC_DOMAIN, "longer than 31" },
	};
	struct params p = MNK(8, 8, 8);

	(void) state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		poly_kernel_desc desc = make_desc(MM_DOMAIN, MM_READS,
			MM_WRITES, &p, NULL);
		poly_kernel_desc *dp = &desc;
		poly_template t, *tp = &t;
		const poly_source *src = &sources[cases[c].src];
		dse_error err;

		cases[c].mutate(&dp, &tp);
		dse_error_clear(&err);
		assert_int_equal(poly_template_build(dp, 3, tp, &err),
			dse_stat_error);
		if (!strstr(err.msg, cases[c].msg))
			fail_msg("%s: message '%s' lacks '%s'", cases[c].what,
				err.msg, cases[c].msg);
		assert_int_equal(err.code, cases[c].code);
		assert_int_equal(err.line, src->line);
		assert_string_equal(err.key, src->key ? src->key : "");
	}
}

/* ------------------------------------------------------------------ */
/* Concurrent builds: each call has its own isl context.               */

#define N_THREADS 4
#define BUILDS_PER_THREAD 8

struct thread_job {
	int64_t m;
	int failures;
};

static void *build_repeatedly(void *arg)
{
	struct thread_job *job = arg;
	struct params p = MNK(job->m, 2 * job->m, 3);

	for (int r = 0; r < BUILDS_PER_THREAD; r++) {
		poly_kernel_desc desc = make_desc(MM_DOMAIN, MM_READS,
			MM_WRITES, &p, NULL);
		poly_template t;
		dse_error err;

		if (poly_template_build(&desc, 3, &t, &err) != dse_stat_ok ||
		    t.extent[0] != job->m || t.extent[1] != 2 * job->m ||
		    t.reduction != 2 ||
		    t.points != (uint64_t) (job->m * 2 * job->m * 3))
			job->failures++;
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t thread[N_THREADS];
	struct thread_job job[N_THREADS];

	(void) state;
	for (int i = 0; i < N_THREADS; i++) {
		job[i].m = 10 + i;
		job[i].failures = 0;
		assert_int_equal(pthread_create(&thread[i], NULL,
			build_repeatedly, &job[i]), 0);
	}
	for (int i = 0; i < N_THREADS; i++) {
		assert_int_equal(pthread_join(thread[i], NULL), 0);
		assert_int_equal(job[i].failures, 0);
	}
}

/* ------------------------------------------------------------------ */
/* Loop lookup by name.                                                */

static void test_loop_lookup(void **state)
{
	static const struct {
		const char *name;
		int index;
	} cases[] = {
		{ "a", 0 }, { "b", 1 }, { "c", 2 }, { "d", -1 }, { "", -1 },
		{ "ab", -1 }, { "S", -1 }, { NULL, -1 },
	};
	struct params p = MNK(4, 4, 4);
	poly_kernel_desc desc = make_desc(
		"[M,N,K] -> { S[a,b,c] : 0 <= a < M and 0 <= b < N and "
		"0 <= c < K }",
		"[M,N,K] -> { S[a,b,c] -> A[a,c] }",
		"[M,N,K] -> { S[a,b,c] -> C[a,b] }", &p, NULL);
	poly_template t;
	dse_error err;

	(void) state;
	if (poly_template_build(&desc, 3, &t, &err) != dse_stat_ok)
		fail_msg("%s", err.msg);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		assert_int_equal(poly_template_loop(&t, cases[c].name),
			cases[c].index);
	assert_int_equal(poly_template_loop(NULL, "a"), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest good[] = {
		cmocka_unit_test(test_good_kernels),
	};
	const struct CMUnitTest bad[] = {
		cmocka_unit_test(test_bad_kernels),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_isl_silent),
	};
	const struct CMUnitTest threads[] = {
		cmocka_unit_test(test_threads),
	};
	const struct CMUnitTest lookup[] = {
		cmocka_unit_test(test_loop_lookup),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

	if (all || strcmp(group, "good") == 0)
		failed += cmocka_run_group_tests_name("polyhedral.good", good,
			NULL, NULL), ran = 1;
	if (all || strcmp(group, "bad") == 0)
		failed += cmocka_run_group_tests_name("polyhedral.bad", bad,
			NULL, NULL), ran = 1;
	if (all || strcmp(group, "threads") == 0)
		failed += cmocka_run_group_tests_name("polyhedral.threads",
			threads, NULL, NULL), ran = 1;
	if (all || strcmp(group, "lookup") == 0)
		failed += cmocka_run_group_tests_name("polyhedral.lookup",
			lookup, NULL, NULL), ran = 1;
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
