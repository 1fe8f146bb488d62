/* Kernels and arguments that must be rejected: each with DSE_E_INPUT at
 * the position of the string to blame and a message naming the problem,
 * without a word from isl on stderr.
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

#include "tests/polyhedral/poly_test.h"

#define MM_DOMAIN "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N " \
	"and 0 <= k < K }"
#define MM_READS "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; " \
	"S0[i,j,k] -> C[i,j] }"
#define MM_WRITES "[M,N,K] -> { S0[i,j,k] -> C[i,j] }"

/* Matrix multiply with an initialisation I[i,j] of C before the
 * accumulation, and the variants of it that leave something out.
 */
#define INIT_DOMAIN "[M,N,K] -> { I[i,j] : 0 <= i < M and 0 <= j < N; " \
	"S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }"
#define INIT_WRITES "[M,N,K] -> { I[i,j] -> C[i,j]; S0[i,j,k] -> C[i,j] }"
#define INIT_SCHEDULE "{ I[i,j] -> [i,j,0,0]; S0[i,j,k] -> [i,j,1,k] }"
#define AFTER_SCHEDULE "{ I[i,j] -> [i,j,1,0]; S0[i,j,k] -> [i,j,0,k] }"
/* 2mm: D = tmp * E after tmp = A * B, each nest as deep. */
#define TWO_MM_DOMAIN "[N] -> { S0[i,j,k] : 0 <= i,j,k < N; " \
	"S1[i,j,k] : 0 <= i,j,k < N }"
#define TWO_MM_READS "[N] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; " \
	"S0[i,j,k] -> T[i,j]; S1[i,j,k] -> T[i,k]; S1[i,j,k] -> E[k,j]; " \
	"S1[i,j,k] -> D[i,j] }"
#define TWO_MM_WRITES "[N] -> { S0[i,j,k] -> T[i,j]; S1[i,j,k] -> D[i,j] }"
#define TWO_MM_SCHEDULE "{ S0[i,j,k] -> [0,i,j,k]; S1[i,j,k] -> [1,i,j,k] }"

#define MAX_TEST_PARAMS 5

/* Parameter names and values as a config would give them. */
struct params {
	int n;
	const char *name[MAX_TEST_PARAMS];
	int64_t value[MAX_TEST_PARAMS];
};

#define MNK(m, n, k) { 3, { "M", "N", "K" }, { m, n, k } }
#define MNK8 MNK(8, 8, 8)
#define NO_PARAMS { 0, { NULL }, { 0 } }
#define NN8 { 1, { "N" }, { 8 } }

/* space_time of a case that only runs the analysis. */
#define ANALYSIS_ONLY (-2)

struct bad_case {
	const char *what;
	const char *domain, *reads, *writes, *schedule;
	struct params params;
	const char *reduction;
	int max_space;
	int space_time;		/* ANALYSIS_ONLY or the template to build */
	/* expected */
	enum which_src src;
	const char *msg;
};

/* A[i][j] = A[i - 1][j] run with i going down: every element is read
 * before the iteration that writes it, an anti dependence of distance
 * -1 along the outer loop, so no loop can be tiled.  The schedule has a
 * time dimension more than the loops, so it orders the instances without
 * becoming the loops (S[i,j] -> [-i, j] would be a reversal, analysed as
 * the reversed nest).
 */
#define REVERSED_DOMAIN "[N] -> { S[i,j] : 1 <= i < N and 0 <= j < N }"
#define REVERSED_READS "[N] -> { S[i,j] -> A[i - 1, j] }"
#define REVERSED_WRITES "[N] -> { S[i,j] -> A[i, j] }"
#define REVERSED_SCHEDULE "[N] -> { S[i,j] -> [0, -i, j] }"

static const struct bad_case cases[] = {
	/* Strings isl cannot read. */
	{ "domain: malformed", "[M,N,K] -> { S0[i,j,k] : 0 <= i < M and ",
	  MM_READS, MM_WRITES, NULL, MNK8, NULL, 0, ANALYSIS_ONLY,
	  SRC_DOMAIN, "invalid isl set" },
	{ "reads: malformed", MM_DOMAIN,
	  "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> }", MM_WRITES,
	  NULL, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_READS, "invalid isl map" },
	{ "writes: malformed", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i,j }", NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_WRITES, "invalid isl map" },
	{ "schedule: malformed", MM_DOMAIN, MM_READS, MM_WRITES,
	  "{ S0[i,j,k] -> [i,j,k }", MNK8, NULL, 0, ANALYSIS_ONLY,
	  SRC_SCHEDULE, "invalid isl map" },
	{ "domain given as a relation", MM_WRITES, MM_READS, MM_WRITES, NULL,
	  MNK8, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN, "this is a relation" },
	{ "reads given as a set", MM_DOMAIN, MM_DOMAIN, MM_WRITES, NULL,
	  MNK8, NULL, 0, ANALYSIS_ONLY, SRC_READS, "this is a set" },
	{ "no domain", NULL, MM_READS, MM_WRITES, NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_DOMAIN, "the iteration domain is missing" },
	{ "no reads", MM_DOMAIN, NULL, MM_WRITES, NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_READS, "the read accesses are missing" },
	{ "no writes string", MM_DOMAIN, MM_READS, NULL, NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_WRITES, "the write accesses are missing" },
	/* Accesses. */
	{ "non-affine read i*j", MM_DOMAIN,
	  "[M,N,K] -> { S0[i,j,k] -> A[i*j,k] }", MM_WRITES, NULL, MNK8,
	  NULL, 0, ANALYSIS_ONLY, SRC_READS, "i*j is not affine" },
	{ "non-affine write k*k", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i,k*k] }", NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_WRITES, "is not affine" },
	{ "read from an unknown statement", MM_DOMAIN,
	  "[M,N,K] -> { S0[i,j,k] -> A[i,k]; S1[i,j,k] -> B[k,j] }",
	  MM_WRITES, NULL, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_READS,
	  "starts from 'S1' with 3 indices, which is not a statement" },
	{ "write with the wrong number of indices", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j] -> C[i,j] }", NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_WRITES, "wrong number of indices" },
	{ "access without an array name", MM_DOMAIN,
	  "[M,N,K] -> { S0[i,j,k] -> [i,k] }", MM_WRITES, NULL, MNK8, NULL,
	  0, ANALYSIS_ONLY, SRC_READS, "has no array name" },
	{ "writes nothing", MM_DOMAIN, MM_READS, "[M,N,K] -> { }", NULL,
	  MNK8, NULL, 0, ANALYSIS_ONLY, SRC_WRITES, "writes nothing" },
	{ "writes outside the domain", MM_DOMAIN, MM_READS,
	  "[M,N,K] -> { S0[i,j,k] -> C[i,j] : i > M }", NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_WRITES, "writes nothing" },
	{ "read index without bounds", MM_DOMAIN,
	  "[M,N,K,O] -> { S0[i,j,k] -> A[i + O,k] }", MM_WRITES, NULL, MNK8,
	  NULL, 0, ANALYSIS_ONLY, SRC_READS, "not bounded by constants" },
	{ "write index without bounds", MM_DOMAIN, MM_READS,
	  "[M,N,K,O] -> { S0[i,j,k] -> C[i + O,j] }", NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_WRITES, "not bounded by constants" },
	/* Parameters. */
	{ "missing parameter value", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  { 2, { "M", "N" }, { 8, 8 } }, NULL, 0, ANALYSIS_ONLY,
	  SRC_PARAMS, "parameter 'K' has no value" },
	{ "unknown parameter", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  { 4, { "M", "N", "K", "Q" }, { 8, 8, 8, 2 } }, NULL, 0,
	  ANALYSIS_ONLY, SRC_PARAMS,
	  "unknown parameter 'Q'; the kernel's parameters are: M, N, K" },
	{ "zero parameter value", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  MNK(8, 0, 8), NULL, 0, ANALYSIS_ONLY, SRC_PARAMS,
	  "'N' must be at least 1" },
	{ "negative parameter value", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  MNK(-4, 8, 8), NULL, 0, ANALYSIS_ONLY, SRC_PARAMS,
	  "'M' must be at least 1" },
	{ "parameter given twice", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  { 4, { "M", "N", "K", "M" }, { 8, 8, 8, 8 } }, NULL, 0,
	  ANALYSIS_ONLY, SRC_PARAMS, "'M' is given twice" },
	/* Domains. */
	{ "unbounded domain", "[M,N] -> { S0[i,j,k] : 0 <= i < M and "
	  "0 <= j < N and 0 <= k }", MM_READS, MM_WRITES, NULL,
	  { 2, { "M", "N" }, { 8, 8 } }, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "unbounded: loop 'k' has no upper bound" },
	{ "domain without a lower bound", "[M,N,K] -> { S0[i,j,k] : i < M "
	  "and 0 <= j < N and 0 <= k < K }", MM_READS, MM_WRITES, NULL, MNK8,
	  NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "unbounded: loop 'i' has no lower bound" },
	{ "a modulo over too large a box", "[M,N,K] -> { S0[i,j,k] : "
	  "0 <= i < M and 0 <= j < N and 0 <= k < K and (i + j + k) mod 2 = 0 }",
	  MM_READS, MM_WRITES, NULL, MNK(1024, 1024, 1024), NULL, 0,
	  ANALYSIS_ONLY, SRC_DOMAIN, "the instances of 'S0' cannot be counted "
	  "in reasonable time" },
	{ "domain empty for the values", "[M,N,K] -> { S0[i,j,k] : "
	  "8 <= i < M and 0 <= j < N and 0 <= k < K }", MM_READS, MM_WRITES,
	  NULL, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "empty for the given parameter values" },
	{ "unnamed loop", "[M,N] -> { S0[i,j,0] : 0 <= i < M and "
	  "0 <= j < N }", MM_READS, MM_WRITES, NULL,
	  { 2, { "M", "N" }, { 8, 8 } }, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "loop 3 of 'S0' has no name" },
	{ "unnamed statement", "[M,N,K] -> { [i,j,k] : 0 <= i < M and "
	  "0 <= j < N and 0 <= k < K }", "[M,N,K] -> { [i,j,k] -> A[i,k] }",
	  "[M,N,K] -> { [i,j,k] -> C[i,j] }", NULL, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_DOMAIN, "a statement has no name" },
	{ "more than 2^64 instances", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  MNK(INT64_C(1) << 22, INT64_C(1) << 22, INT64_C(1) << 22), NULL, 0,
	  ANALYSIS_ONLY, SRC_DOMAIN, "more than 2^64 statement instances" },
	/* Schedules. */
	{ "schedule misses instances", MM_DOMAIN, MM_READS, MM_WRITES,
	  "[K] -> { S0[i,j,k] -> [i,j,k] : k < K - 1 }", MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_SCHEDULE,
	  "does not order every statement instance" },
	/* Statements beside the compute statement. */
	{ "2mm: a second computation", TWO_MM_DOMAIN, TWO_MM_READS,
	  TWO_MM_WRITES, TWO_MM_SCHEDULE, NN8, NULL, 0, ANALYSIS_ONLY,
	  SRC_DOMAIN, "statement S1 is a second computation: it writes D "
	  "where S0, the statement mapped onto the array, does not" },
	{ "initialisation from another array", INIT_DOMAIN,
	  "[M,N,K] -> { I[i,j] -> Z[i,j]; S0[i,j,k] -> A[i,k]; "
	  "S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }", INIT_WRITES,
	  INIT_SCHEDULE, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "statement I reads Z to compute the output of S0" },
	{ "initialisation of elements never computed",
	  "[M,N,K] -> { I[i,j] : 0 <= i < M and 0 <= j < N + 1; "
	  "S0[i,j,k] : 0 <= i < M and 0 <= j < N and 0 <= k < K }",
	  MM_READS, INIT_WRITES, INIT_SCHEDULE, MNK8, NULL, 0,
	  ANALYSIS_ONLY, SRC_DOMAIN, "statement I is a second computation: "
	  "it writes C where S0" },
	{ "scaling after the accumulation", INIT_DOMAIN,
	  "[M,N,K] -> { I[i,j] -> C[i,j]; S0[i,j,k] -> A[i,k]; "
	  "S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }", INIT_WRITES,
	  AFTER_SCHEDULE, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "statement I runs after S0 has used the elements it writes" },
	{ "a statement that writes nothing", INIT_DOMAIN,
	  "[M,N,K] -> { I[i,j] -> C[i,j]; S0[i,j,k] -> A[i,k]; "
	  "S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }", MM_WRITES,
	  INIT_SCHEDULE, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
	  "statement I writes nothing" },
	/* The analysis. */
	{ "reduction names no loop", MM_DOMAIN, MM_READS, MM_WRITES, NULL,
	  MNK8, "q", 0, ANALYSIS_ONLY, SRC_REDUCTION,
	  "the reduction annotation names no loop: 'q' is not a loop of "
	  "'S0'; the loops are: i, j, k" },
	{ "no permutable band", REVERSED_DOMAIN, REVERSED_READS,
	  REVERSED_WRITES, REVERSED_SCHEDULE, NN8, NULL, 0, ANALYSIS_ONLY,
	  SRC_DOMAIN, "no permutable loop band" },
	/* A schedule with as many dimensions as the loops transforms them,
	 * so it must be one to one and leave every loop a name of its own.
	 */
	{ "a transformation that is not one to one", REVERSED_DOMAIN,
	  REVERSED_READS, REVERSED_WRITES, "[N] -> { S[i,j] -> [i, i] }", NN8,
	  NULL, 0, ANALYSIS_ONLY, SRC_SCHEDULE,
	  "the schedule sends two instances of 'S' to the same time" },
	{ "a transformation that names two loops alike", REVERSED_DOMAIN,
	  REVERSED_READS, REVERSED_WRITES,
	  "[N] -> { S[i,j] -> [j, i + j] }", NN8, NULL, 0, ANALYSIS_ONLY,
	  SRC_SCHEDULE, "two loops of the transformed nest would be called "
	  "'j'; name the schedule's dimensions" },
	/* The same kernel in the forward order is fine (see below). */
	{ "no space loop: dependences two iterations long",
	  "[N] -> { S[i,j] : 2 <= i < N and 2 <= j < N }",
	  "[N] -> { S[i,j] -> A[i - 2, j - 2] }",
	  "[N] -> { S[i,j] -> A[i, j] }", NULL, NN8, NULL, 0, ANALYSIS_ONLY,
	  SRC_DOMAIN, "no loop of the permutable band (i, j) can be a space "
	  "loop" },
	/* Candidates. */
	{ "space_time past the candidates", MM_DOMAIN, MM_READS, MM_WRITES,
	  NULL, MNK8, NULL, 0, 6, SRC_SPACE_TIME,
	  "kernel 'mm' has no space_time[6]: its 6 candidates are numbered "
	  "0 to 5" },
	{ "space_time 6 needs 3-D arrays", MM_DOMAIN, MM_READS, MM_WRITES,
	  NULL, MNK8, NULL, 2, 6, SRC_SPACE_TIME, "has no space_time[6]" },
	{ "space_time far out", MM_DOMAIN, MM_READS, MM_WRITES,
	  NULL, MNK8, NULL, 3, 1000, SRC_SPACE_TIME,
	  "its 7 candidates are numbered 0 to 6" },
};

static poly_kernel_desc case_desc(const struct bad_case *c)
{
	const int64_t unused[3] = { 1, 1, 1 };
	poly_kernel_desc d = test_desc("mm", unused);

	d.domain = c->domain;
	d.reads = c->reads;
	d.writes = c->writes;
	d.schedule = c->schedule;
	d.n_params = c->params.n;
	for (int i = 0; i < c->params.n; i++) {
		d.param_name[i] = c->params.name[i];
		d.param_value[i] = c->params.value[i];
	}
	d.reduction = c->reduction;
	d.max_space = c->max_space;
	return d;
}

/* Whether err is the expected error; prints what differs otherwise.
 * With POLY_TEST_VERBOSE set, prints every message, for reading them.
 */
static int error_matches(const char *what, const dse_error *err,
	enum dse_code code, enum which_src which, const char *msg)
{
	const poly_source *src = &test_sources[which];
	int ok = 1;

	if (getenv("POLY_TEST_VERBOSE"))
		printf("%-44s %s:%d:%d [%s] %s\n", what, err->file, err->line,
			err->col, err->key, err->msg);
	if (!strstr(err->msg, msg)) {
		print_error("%s: message '%s' lacks '%s'\n", what, err->msg,
			msg);
		ok = 0;
	}
	if (err->code != code) {
		print_error("%s: code %d, want %d (%s)\n", what, err->code,
			code, err->msg);
		ok = 0;
	}
	if (strcmp(err->key, src->key ? src->key : "") ||
	    err->line != src->line || err->col != src->col ||
	    strcmp(err->file, src->file ? src->file : "")) {
		print_error("%s: blamed on %s:%d:%d key '%s', want %s:%d:%d "
			"key '%s' (%s)\n", what, err->file, err->line,
			err->col, err->key, src->file ? src->file : "",
			src->line, src->col, src->key ? src->key : "",
			err->msg);
		ok = 0;
	}
	return ok;
}

static void check_error(const char *what, const dse_error *err,
	enum dse_code code, enum which_src which, const char *msg)
{
	if (!error_matches(what, err, code, which, msg))
		fail_msg("%s: wrong error", what);
}

/* Every case runs, so that one failure does not hide the others. */
static void test_bad_kernels(void **state)
{
	int failed = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *c = &cases[i];
		poly_kernel_desc d = case_desc(c);
		poly_template t, untouched;
		dse_error err;

		dse_error_clear(&err);
		if (c->space_time == ANALYSIS_ONLY) {
			poly_analysis *a = poly_analyze(&d, &err);

			if (a) {
				print_error("%s: accepted\n", c->what);
				poly_analysis_free(a);
				failed++;
				continue;
			}
		} else {
			memset(&t, 0x5a, sizeof(t));
			untouched = t;
			if (poly_template_build(&d, c->space_time, &t, &err) !=
			    dse_stat_error) {
				print_error("%s: accepted\n", c->what);
				failed++;
				continue;
			}
			assert_memory_equal(&t, &untouched, sizeof(t));
		}
		failed += !error_matches(c->what, &err, DSE_E_INPUT, c->src,
			c->msg);
	}
	if (failed)
		fail_msg("%d of %zu bad kernels not rejected as expected",
			failed, sizeof(cases) / sizeof(cases[0]));
}

/* A domain whose condition "0 <= i < M" sits inside "depth" pairs of
 * parentheses, or, with "pad", an expression padded to "pad" characters
 * with "0 + " terms; a new string the caller frees.
 */
static char *deep_domain(int depth, size_t pad)
{
	size_t n = 2 * (size_t) depth + pad + 256;
	char *s = malloc(n), *p = s;

	assert_non_null(s);
	p += sprintf(p, "[M,N,K] -> { S0[i,j,k] : ");
	for (int i = 0; i < depth; i++)
		*p++ = '(';
	p += sprintf(p, "0 <= i < M");
	for (int i = 0; i < depth; i++)
		*p++ = ')';
	p += sprintf(p, " and 0 <= j < N and 0 <= k < K");
	while ((size_t) (p - s) + 8 < pad)
		p += sprintf(p, " + 0");
	sprintf(p, " }");
	return s;
}

struct text_case {
	const char *what;
	int depth;
	size_t pad;
	int max_seconds;
	int disjuncts;		/* a domain of this many boxes instead */
	const char *msg;	/* NULL: accepted */
};

static const struct text_case text_cases[] = {
	/* 50,000 levels (a 100 KB string) overflowed the stack inside
	 * isl's parser.
	 */
	{ "50,000 nested parentheses", 50000, 0, 0, 0,
	  "characters long; at most 65536 are read" },
	{ "30,000 nested parentheses", 30000, 0, 0, 0,
	  "nests brackets more than 256 deep" },
	/* With the braces of the set, n parentheses nest n + 1 deep. */
	{ "256 nested parentheses", 256, 0, 0, 0,
	  "nests brackets more than 256 deep" },
	{ "255 nested parentheses (the bound)", 255, 0, 0, 0, NULL },
	{ "a string of 70,000 characters", 1, 70000, 0, 0,
	  "characters long; at most 65536 are read" },
	/* A hundred boxes took minutes; the time bound stops them. */
	{ "a hundred disjuncts in one second", 0, 0, 1, 100,
	  "took more than 1 s and was stopped" },
};

/* A domain of "n" boxes that isl cannot merge into fewer. */
static char *boxes_domain(int n)
{
	char *s = malloc((size_t) n * 96 + 64), *p = s;

	assert_non_null(s);
	p += sprintf(p, "[M,N,K] -> { S0[i,j,k] : ");
	for (int d = 0; d < n; d++)
		p += sprintf(p, "%s(0 <= i < M and %d <= j < N - %d and "
			"0 <= k < K - %d)", d ? " or " : "", d, d, d % 7);
	sprintf(p, " }");
	return s;
}

/* Strings isl's parser cannot take (too deep, too long) are refused
 * before it sees them, at the key, and an analysis that runs past its
 * time is stopped with an error at the domain, not left running.
 */
static void test_bounded_texts(void **state)
{
	(void) state;
	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]);
	     i++) {
		const struct text_case *c = &text_cases[i];
		char *dom = c->disjuncts ? boxes_domain(c->disjuncts) :
			deep_domain(c->depth, c->pad);
		struct bad_case bc = { c->what, dom, MM_READS, MM_WRITES, NULL,
			MNK(512, 512, 512), NULL, 0, ANALYSIS_ONLY, SRC_DOMAIN,
			c->msg ? c->msg : "" };
		poly_kernel_desc d = case_desc(&bc);
		poly_analysis *a;
		dse_error err;

		d.max_seconds = c->max_seconds;
		dse_error_clear(&err);
		a = poly_analyze(&d, &err);
		if (c->msg) {
			if (a)
				fail_msg("%s: accepted", c->what);
			check_error(c->what, &err, DSE_E_INPUT, SRC_DOMAIN,
				c->msg);
		} else if (!a) {
			fail_msg("%s: refused: %s", c->what, err.msg);
		}
		poly_analysis_free(a);
		free(dom);
	}
}

/* The kernels of the bad cases that are one change away from good ones,
 * so that those cases fail for the reason they name.
 */
static void test_near_misses(void **state)
{
	static const struct bad_case good[] = {
		{ "forward order", REVERSED_DOMAIN, REVERSED_READS,
		  REVERSED_WRITES, "[N] -> { S[i,j] -> [i, j] }", NN8, NULL, 0,
		  ANALYSIS_ONLY, SRC_NONE, "" },
		{ "reversed outer loop, no dependence", REVERSED_DOMAIN,
		  "[N] -> { S[i,j] -> B[i - 1, j] }", REVERSED_WRITES,
		  REVERSED_SCHEDULE, NN8, NULL, 0, ANALYSIS_ONLY, SRC_NONE, "" },
		{ "dependences one iteration long",
		  "[N] -> { S[i,j] : 1 <= i < N and 1 <= j < N }",
		  "[N] -> { S[i,j] -> A[i - 1, j - 1] }",
		  "[N] -> { S[i,j] -> A[i, j] }", NULL, NN8, NULL, 0,
		  ANALYSIS_ONLY, SRC_NONE, "" },
		{ "initialisation of C in place, scaled", INIT_DOMAIN,
		  "[M,N,K] -> { I[i,j] -> C[i,j]; S0[i,j,k] -> A[i,k]; "
		  "S0[i,j,k] -> B[k,j]; S0[i,j,k] -> C[i,j] }", INIT_WRITES,
		  INIT_SCHEDULE, MNK8, NULL, 0, ANALYSIS_ONLY, SRC_NONE, "" },
		{ "initialisation of C to a constant", INIT_DOMAIN, MM_READS,
		  INIT_WRITES, INIT_SCHEDULE, MNK8, NULL, 0, ANALYSIS_ONLY,
		  SRC_NONE, "" },
		{ "mm, space_time 6 with 3-D arrays", MM_DOMAIN, MM_READS,
		  MM_WRITES, NULL, MNK8, NULL, 3, 6, SRC_NONE, "" },
	};

	(void) state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		poly_kernel_desc d = case_desc(&good[i]);
		poly_analysis *a = test_analyze(&d, good[i].what);

		assert_true(a->band > 0);
		assert_true(a->n_candidates > 0);
		/* The initialisation I is one, S0 is the computation. */
		for (int s = 0; s < a->n_statements; s++)
			assert_int_equal(a->stmt_role[s],
				strcmp(a->stmt_name[s], "I") ?
				POLY_ROLE_COMPUTE : POLY_ROLE_INIT);
		if (good[i].space_time >= 0)
			assert_true(good[i].space_time < a->n_candidates);
		poly_analysis_free(a);
	}
}

/* ------------------------------------------------------------------ */
/* isl must stay silent on bad input: a library may not print.         */

static void test_isl_silent(void **state)
{
	FILE *capture = tmpfile();
	int saved;
	long size;

	(void) state;
	assert_non_null(capture);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(capture), STDERR_FILENO) >= 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		poly_kernel_desc d = case_desc(&cases[i]);
		poly_template t;
		dse_error err;

		if (cases[i].space_time == ANALYSIS_ONLY)
			poly_analysis_free(poly_analyze(&d, &err));
		else
			poly_template_build(&d, cases[i].space_time, &t, &err);
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

static void test_bad_arguments(void **state)
{
	static const struct {
		const char *what;
		const char *name;	/* kernel name */
		int n_params;
		int unnamed;		/* parameter left without a name */
		const char *domain, *accesses;	/* NULL: matrix multiply's */
		enum dse_code code;
		enum which_src src;
		const char *msg;
	} args[] = {
		{ "kernel name too long",
		  "a_kernel_name_of_more_than_31_chars", 3, -1, NULL, NULL,
		  DSE_E_INPUT, SRC_NONE, "longer than 31" },
		{ "too many parameters", "mm", POLY_MAX_PARAMS + 1, -1,
		  NULL, NULL, DSE_E_INPUT, SRC_PARAMS, "at most 16" },
		{ "parameter without a name", "mm", 3, 1, NULL, NULL,
		  DSE_E_INPUT, SRC_PARAMS, "parameter 2 has no name" },
		{ "statement name too long", "mm", 0, -1,
		  "{ S_a_statement_name_of_over_32_chars[i,j,k] : "
		  "0 <= i < 2 and 0 <= j < 2 and 0 <= k < 2 }",
		  "{ S_a_statement_name_of_over_32_chars[i,j,k] -> A[i,k] }",
		  DSE_E_INPUT, SRC_DOMAIN, "longer than 31" },
	};
	const int64_t v[] = { 8, 8, 8 };
	int failed = 0;

	(void) state;
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		poly_kernel_desc d = test_desc("mm", v);
		dse_error err;

		d.name = args[i].name;
		d.n_params = args[i].n_params;
		if (args[i].unnamed >= 0)
			d.param_name[args[i].unnamed] = NULL;
		if (args[i].domain) {
			d.domain = args[i].domain;
			d.reads = args[i].accesses;
			d.writes = args[i].accesses;
		}
		dse_error_clear(&err);
		assert_null(poly_analyze(&d, &err));
		failed += !error_matches(args[i].what, &err, args[i].code,
			args[i].src, args[i].msg);
	}
	if (failed)
		fail_msg("%d bad arguments not rejected as expected", failed);
}

/* NULL arguments and a candidate that does not exist, without a
 * description to position the error.
 */
static void test_null_arguments(void **state)
{
	const int64_t v[] = { 8, 8, 8 };
	poly_kernel_desc d = test_desc("mm", v);
	poly_analysis *a;
	poly_template t;
	dse_error err;

	(void) state;
	dse_error_clear(&err);
	assert_null(poly_analyze(NULL, &err));
	check_error("no kernel", &err, DSE_E_RUNTIME, SRC_NONE, "no kernel");
	assert_null(poly_analyze(NULL, NULL));
	assert_int_equal(poly_template_build(&d, 3, NULL, &err),
		dse_stat_error);
	assert_null(poly_analysis_free(NULL));
	a = test_analyze(&d, "mm");
	assert_int_equal(poly_template_from(NULL, 0, &t, &err),
		dse_stat_error);
	check_error("no analysis", &err, DSE_E_RUNTIME, SRC_NONE,
		"no analysis");
	assert_int_equal(poly_template_from(a, 0, NULL, &err),
		dse_stat_error);
	assert_int_equal(poly_template_from(a, 6, &t, &err), dse_stat_error);
	check_error("space_time[6]", &err, DSE_E_INPUT, SRC_NONE,
		"has no space_time[6]");
	assert_int_equal(poly_template_from(a, -1, &t, &err), dse_stat_error);
	check_error("space_time[-1]", &err, DSE_E_INPUT, SRC_NONE,
		"has no space_time[-1]");
	poly_analysis_free(a);
}

int run_bad_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_kernels),
		cmocka_unit_test(test_bounded_texts),
		cmocka_unit_test(test_near_misses),
		cmocka_unit_test(test_isl_silent),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_null_arguments),
	};

	return cmocka_run_group_tests_name("polyhedral.bad", tests, NULL,
		NULL);
}
