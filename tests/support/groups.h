/* Runs the cmocka tests of a test program one group at a time, so that
 * ctest can list each group as a test of its own ("test_x GROUP") while a
 * run without a group name runs them all.
 */
#ifndef DSE_TESTS_SUPPORT_GROUPS_H
#define DSE_TESTS_SUPPORT_GROUPS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

typedef struct test_group {
	const char *name;
	struct CMUnitTest test;
} test_group;

/* Runs the group named "only" (NULL: every group); 1 when a test failed,
 * else 0.
 */
static inline int test_run_groups(const char *only, const test_group *g,
	size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!only || !strcmp(only, g[i].name)) {
			struct CMUnitTest t[1] = { g[i].test };

			if (_cmocka_run_group_tests(g[i].name, t, 1, NULL,
					NULL))
				return 1;
		}
	return 0;
}

#endif
