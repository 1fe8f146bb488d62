/* Example kernels shared by tests and benchmarks that need real kernels
 * without a config file: the matrix multiply C[i][j] += A[i][k] * B[k][j]
 * and the other kernels of configs/, written as the same isl strings.
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

/* One example kernel: its isl strings, the names of its parameters (the
 * values are the caller's choice, small in tests, realistic in
 * benchmarks) and the reduction loop its config names (NULL: derived).
 */
typedef struct example_kernel {
	const char *name;
	const char *domain;
	const char *reads;
	const char *writes;
	const char *schedule;		/* NULL: the default order */
	int n_params;
	const char *param[POLY_MAX_PARAMS];
	const char *reduction;
} example_kernel;

/* The examples, in the order mm, mm-init, conv, mttkrp, ttmc, fir,
 * gnn-agg; n_example_kernels() says how many.
 */
int n_example_kernels(void);
const example_kernel *example_kernel_at(int i);

/* The example named "name", or NULL. */
const example_kernel *example_kernel_find(const char *name);

/* A kernel description of k with values[p] for parameter p (k->n_params
 * of them).  The strings stay owned by the example table.
 */
poly_kernel_desc example_kernel_desc(const example_kernel *k,
	const int64_t *values);

#endif
