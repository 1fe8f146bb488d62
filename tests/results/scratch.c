#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "scratch.h"

int scratch_make(void **state)
{
	const char *base = getenv("TMPDIR");
	char *dir = malloc(PATH_MAX);

	if (!dir)
		return -1;
	snprintf(dir, PATH_MAX, "%s/test_results.XXXXXX", base ? base :
		"/tmp");
	if (!mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int remove_entry(const char *p, const struct stat *sb, int flag,
	struct FTW *ftw)
{
	(void) sb;
	(void) flag;
	(void) ftw;
	return remove(p);
}

int scratch_remove(void **state)
{
	char *dir = *state;
	int rc = nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);

	free(dir);
	return rc;
}

void scratch_join(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	assert_true(n > 0 && n < PATH_MAX);
}
