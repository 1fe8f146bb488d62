/* Helpers shared by the fuzz targets: the input as a C string, and the
 * input written to a scratch file for the readers that take a path.
 *
 * Each process writes its own file (the name carries the process id), so
 * several fuzzers, or libFuzzer's -jobs workers, never share one.  Nothing
 * here keeps state between calls.
 */
#ifndef FUZZ_FUZZ_UTIL_H
#define FUZZ_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The input as a new NUL-terminated string (an embedded NUL ends it, as
 * it would end a C string read from a file); NULL when out of memory.
 */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Writes the input to "<TMPDIR>/dse-fuzz-<pid><suffix>" and puts that
 * path in "path" (the caller removes the file once read).  Returns 0 on success, -1 when the file cannot be
 * written (the input is then skipped: that is the machine's problem, not
 * the reader's).
 */
static inline int fuzz_write_file(const uint8_t *data, size_t size,
	const char *suffix, char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;
	int ok;

	snprintf(path, len, "%s/dse-fuzz-%ld%s", dir && dir[0] ? dir : "/tmp",
		(long) getpid(), suffix);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	ok = fwrite(data, 1, size, f) == size;
	if (fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

#endif
