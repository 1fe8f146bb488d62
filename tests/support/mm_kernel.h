/* The matrix-multiply kernel C[i][j] += A[i][k] * B[k][j], shared by tests
 * and benchmarks that need a real template without a config file.
 */
#ifndef TESTS_SUPPORT_MM_KERNEL_H
#define TESTS_SUPPORT_MM_KERNEL_H

#include <stdint.h>

#include "polyhedral/poly.h"

/* Builds the space_time[3] template of an M x N x K matrix multiply through
 * the polyhedral front end, as a config would.  Aborts on failure: callers
 * are tests and benchmarks, for which a broken front end is fatal.
 */
poly_template mm_kernel_template(int64_t m, int64_t n, int64_t k);

#endif
