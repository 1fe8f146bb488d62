/* What the C reader's test files share: one executable, test_cfront,
 * runs every group.
 */
#ifndef DSE_TESTS_CFRONT_TEST_H
#define DSE_TESTS_CFRONT_TEST_H

#include <stddef.h>

/* Appends printf-style text at *len to buf of the given size, cut at its
 * end.
 */
void cf_put(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The example kernels of configs/kernels/ (test_examples.c). */
int run_example_tests(void);

#endif
