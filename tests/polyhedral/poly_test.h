/* Helpers shared by the tests of polyhedral/.
 *
 * The analysis is a large value; the tests compare it with expected tables
 * by printing each part (a dependence, a candidate, an I/O group) in one
 * compact line and comparing the lines, so that a failure shows the whole
 * computed item next to the expected one.
 */
#ifndef TESTS_POLYHEDRAL_POLY_TEST_H
#define TESTS_POLYHEDRAL_POLY_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "polyhedral/poly.h"
#include "tests/support/mm_kernel.h"

#define LINE_LEN 512
#define MAX_VALUES 6

/* Distinct positions per key, so that a test sees which string an error
 * was blamed on.
 */
enum which_src { SRC_NONE, SRC_DOMAIN, SRC_READS, SRC_WRITES, SRC_SCHEDULE,
	SRC_PARAMS, SRC_REDUCTION, SRC_SPACE_TIME, N_SRC };

extern const poly_source test_sources[N_SRC];

/* The description of example kernel "name" with the given parameter
 * values and every source position set.  Aborts on an unknown name.
 */
poly_kernel_desc test_desc(const char *name, const int64_t *values);

/* Analyses desc; fails the test, naming "what" and giving the message,
 * when the analysis fails.  The caller frees the analysis.
 */
poly_analysis *test_analyze(const poly_kernel_desc *desc, const char *what);

/* Analyses kept for the tests of one group, so that the many cases on
 * the same kernel do not analyse it again (which matters under
 * valgrind).  A group's setup makes the cache, its teardown frees it.
 */
typedef struct analysis_cache analysis_cache;

int cache_setup(void **state);
int cache_teardown(void **state);

/* The analysis of example "kernel" with parameter values "values"
 * (MAX_VALUES entries, zero past the kernel's parameters) and max_space;
 * analysed on first use.  Fails the test when the analysis fails.
 */
const poly_analysis *cache_get(analysis_cache *cache, const char *kernel,
	const int64_t *values, int max_space);

/* "i j" for the loops l with flag[l] set, "-" for none. */
void fmt_loop_set(const poly_analysis *a, const int *flag, char *buf,
	size_t size);

/* "i" for a loop index, "-" for -1. */
const char *loop_name(const poly_analysis *a, int l);

/* "A[i][k] R 16x16", "H[*][f] R may 4x8". */
void fmt_access(const poly_access *x, char *buf, size_t size);

/* "D1 read A[i][k] (0,1,0) uniform", "D3 flow out[*][f] (1..15,0)
 * unknown".
 */
void fmt_dep(const poly_analysis *a, const poly_dep *d, char *buf,
	size_t size);

/* "i,j|k": the space loops, then the time loops. */
void fmt_candidate(const poly_analysis *a, const poly_candidate *c,
	char *buf, size_t size);

/* "g1 A read D1 (0,1) ext emb L3 buf=L2 in", with "?" after the
 * direction when it is not known, "pruned" for a pruned group and "-"
 * for a group without dependences.
 */
void fmt_group(const poly_group *g, int n_space, char *buf, size_t size);

/* Fails the test with "what" when got != want. */
void expect_str(const char *what, const char *item, const char *got,
	const char *want);

/* Whether the isl set or map "got" (parameter-free text) equals "want",
 * whose parameters named in desc are fixed to desc's values first.
 */
int isl_text_equal(const poly_kernel_desc *desc, const char *got,
	const char *want, int is_map);

/* The test groups, one per file; each returns the number of failures. */
int run_analysis_tests(void);
int run_groups_tests(void);
int run_template_tests(void);
int run_formulas_tests(void);
int run_bad_tests(void);
int run_threads_tests(void);

#endif
