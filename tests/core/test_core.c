/* Tests of the ground floor: error values, the arithmetic helpers, the
 * debug-build assertion, the model-kind table and the t quantile.
 *
 * Expected values come from definitions, not from the code: ceilings from
 * long double division, t quantiles from published tables (two-sided 95%
 * and 99% intervals).
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/error.h"
#include "core/metrics.h"
#include "core/report.h"
#include "core/util.h"

static void test_error_format(void **state)
{
	static const struct {
		const char *file;
		int line, col;
		const char *key;
		enum dse_code code;
		const char *want;
		int status;
	} cases[] = {
		{ "a.cfg", 3, 7, "board", DSE_E_INPUT,
		  "a.cfg:3:7: error: bad thing, key 'board'", 2 },
		{ "a.cfg", 3, 7, NULL, DSE_E_INPUT,
		  "a.cfg:3:7: error: bad thing", 2 },
		{ NULL, 0, 0, NULL, DSE_E_RUNTIME, "error: bad thing", 1 },
		{ NULL, 0, 0, NULL, DSE_E_MPI, "error: bad thing", 1 },
		{ NULL, 0, 0, NULL, DSE_E_NOMEM, "error: bad thing", 1 },
	};
	char buf[256];
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(cases); i++) {
		dse_error err;

		dse_error_clear(&err);
		assert_int_equal(dse_error_exit_status(&err), 0);
		if (cases[i].file)
			assert_int_equal(dse_error_set_at(&err, cases[i].file,
				cases[i].line, cases[i].col, cases[i].key,
				"bad %s", "thing"), dse_stat_error);
		else
			assert_int_equal(dse_error_set(&err, cases[i].code,
				"bad %s", "thing"), dse_stat_error);
		dse_error_format(&err, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
		assert_int_equal(dse_error_exit_status(&err), cases[i].status);
	}
	/* A NULL error drops the message but keeps the return convention. */
	assert_int_equal(dse_error_set(NULL, DSE_E_RUNTIME, "x"),
		dse_stat_error);
}

static void test_cdiv(void **state)
{
	static const int64_t a[] = { 0, 1, 2, 7, 8, 9, 1023, 1024, 1025,
		-1, -7, -8, -9, INT64_MAX, INT64_MAX - 1, INT64_MIN + 1 };
	static const int64_t b[] = { 1, 2, 3, 8, 1024, INT64_MAX };
	size_t i, j;

	(void) state;
	for (i = 0; i < DSE_N_OF(a); i++)
		for (j = 0; j < DSE_N_OF(b); j++) {
			/* The ceiling by exact rational comparison: the
			 * least q with q * b >= a.
			 */
			__int128 q = (__int128) a[i] / b[j];

			if ((__int128) q * b[j] < a[i])
				q++;
			assert_true(dse_cdiv(a[i], b[j]) == (int64_t) q);
		}
	assert_int_equal(dse_min64(-3, 5), -3);
	assert_int_equal(dse_max64(-3, 5), 5);
	assert_int_equal(dse_max64(INT64_MIN, INT64_MIN), INT64_MIN);
}

static void broken_invariant(int x)
{
	DSE_ASSERT(x > 0);
}

/* Runs broken_invariant(x) in a child with stderr on a pipe; returns the
 * child's wait status and what it printed.
 */
static int run_child(int x, char *out, size_t size)
{
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		broken_invariant(x);
		_exit(0);
	}
	close(fd[1]);
	n = read(fd[0], out, size - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void test_assert(void **state)
{
	char out[512];
	int status;

	(void) state;
	status = run_child(1, out, sizeof(out));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_equal(out, "");
	status = run_child(0, out, sizeof(out));
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	assert_non_null(strstr(out, "dse: internal error: "));
	assert_non_null(strstr(out, "test_core.c:"));
	assert_non_null(strstr(out, "broken_invariant: 'x > 0' does not hold"));
}

static void test_model_kinds(void **state)
{
	static const char *const names[] = { "analytic", "sampled", "full" };
	int k;

	(void) state;
	assert_int_equal(SIM_N_MODEL_KINDS, 3);
	for (k = 0; k < SIM_N_MODEL_KINDS; k++) {
		assert_string_equal(sim_model_kind_name(k), names[k]);
		assert_int_equal(sim_model_kind_find(names[k]), k);
	}
	assert_null(sim_model_kind_name(-1));
	assert_null(sim_model_kind_name(SIM_N_MODEL_KINDS));
	assert_int_equal(sim_model_kind_find("Full"), -1);
	assert_int_equal(sim_model_kind_find(NULL), -1);
	/* Every status has a sentence; out of range says so. */
	for (k = 0; k < SIM_N_STATUS; k++)
		assert_true(strlen(sim_status_name(k)) > 1);
	assert_string_equal(sim_status_name(SIM_N_STATUS), "unknown status");
}

static void test_t_quantile(void **state)
{
	/* Two-sided 95% and 99% critical values of Student's t (tables to
	 * 5 decimals), each with the error core/report.h promises there.
	 */
	static const struct {
		double p, df, t, tol;
	} cases[] = {
		{ 0.975, 1, 12.70620, 1e-4 }, { 0.975, 2, 4.30265, 1e-4 },
		{ 0.975, 3, 3.18245, 4e-3 }, { 0.975, 4, 2.77645, 1e-3 },
		{ 0.975, 5, 2.57058, 1e-3 }, { 0.975, 10, 2.22814, 1e-3 },
		{ 0.975, 30, 2.04227, 1e-3 }, { 0.975, 1e9, 1.95996, 1e-4 },
		{ 0.995, 3, 5.84091, 5e-2 }, { 0.995, 4, 4.60409, 1.2e-2 },
		{ 0.995, 10, 3.16927, 1e-3 }, { 0.995, 20, 2.84534, 1e-3 },
		{ 0.5, 7, 0.0, 1e-9 },
	};
	size_t i;

	(void) state;
	for (i = 0; i < DSE_N_OF(cases); i++) {
		double t = sim_t_quantile(cases[i].p, cases[i].df);

		assert_true(fabs(t - cases[i].t) <= cases[i].tol);
		/* Symmetric about 0.5. */
		assert_true(fabs(sim_t_quantile(1 - cases[i].p, cases[i].df) +
			t) <= 1e-9);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_cdiv),
		cmocka_unit_test(test_assert),
		cmocka_unit_test(test_model_kinds),
		cmocka_unit_test(test_t_quantile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
