/* Analyses running in parallel threads (each call has its own isl
 * context) give exactly the analyses of a serial run.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/polyhedral/poly_test.h"

#define N_THREADS 3
#define N_KERNELS 7

static const int64_t values[N_KERNELS][MAX_VALUES] = {
	{ 16, 16, 16 }, { 16, 16, 16 }, { 8, 4, 6, 6, 3, 3 }, { 8, 8, 4, 4 },
	{ 4, 4, 4, 4, 4 }, { 16, 4 }, { 16, 8, 4 },
};

struct job {
	int first;			/* kernel to start with */
	const poly_analysis *ref[N_KERNELS];
	int failures;
	char msg[DSE_ERROR_MSG_LEN];
};

/* Analyses every kernel, starting at a different one in each thread so
 * that different kernels overlap in time.
 */
static void *analyse_all(void *arg)
{
	struct job *job = arg;

	for (int n = 0; n < N_KERNELS; n++) {
		int i = (job->first + n) % N_KERNELS;
		poly_kernel_desc d = example_kernel_desc(example_kernel_at(i),
			values[i]);
		dse_error err;
		poly_analysis *a = poly_analyze(&d, &err);

		if (!a) {
			job->failures++;
			snprintf(job->msg, sizeof(job->msg), "%s", err.msg);
			continue;
		}
		a->seconds = job->ref[i]->seconds;
		if (memcmp(a, job->ref[i], sizeof(*a))) {
			job->failures++;
			snprintf(job->msg, sizeof(job->msg), "%s differs",
				a->kernel);
		}
		poly_analysis_free(a);
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t thread[N_THREADS];
	struct job job[N_THREADS];
	poly_analysis *ref[N_KERNELS];

	(void) state;
	assert_int_equal(n_example_kernels(), N_KERNELS);
	for (int i = 0; i < N_KERNELS; i++) {
		poly_kernel_desc d = example_kernel_desc(example_kernel_at(i),
			values[i]);

		ref[i] = test_analyze(&d, example_kernel_at(i)->name);
	}
	for (int t = 0; t < N_THREADS; t++) {
		memset(&job[t], 0, sizeof(job[t]));
		job[t].first = t * 2;
		for (int i = 0; i < N_KERNELS; i++)
			job[t].ref[i] = ref[i];
		assert_int_equal(pthread_create(&thread[t], NULL, analyse_all,
			&job[t]), 0);
	}
	for (int t = 0; t < N_THREADS; t++)
		assert_int_equal(pthread_join(thread[t], NULL), 0);
	for (int t = 0; t < N_THREADS; t++)
		if (job[t].failures)
			fail_msg("thread %d: %d failures, last: %s", t,
				job[t].failures, job[t].msg);
	for (int i = 0; i < N_KERNELS; i++)
		poly_analysis_free(ref[i]);
}

int run_threads_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests_name("polyhedral.threads", tests, NULL,
		NULL);
}
