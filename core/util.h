/* core: the few arithmetic and path helpers every floor uses, so that none
 * keeps a copy of its own.
 */
#ifndef CORE_UTIL_H
#define CORE_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The number of elements of an array (not of a pointer). */
#define DSE_N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ceil(a / b) for b > 0 and any a, without the overflow of a + b - 1 near
 * INT64_MAX.  C's division truncates toward zero, which is the ceiling for
 * a negative quotient, so only a positive remainder rounds up.  The
 * compiler takes the quotient and the remainder from one division.
 */
static inline int64_t dse_cdiv(int64_t a, int64_t b)
{
	return a / b + (a % b > 0);
}

static inline int64_t dse_min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static inline int64_t dse_max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* A path's file name: what follows its last '/' (the whole path when it
 * has none).
 */
static inline const char *dse_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Appends "item" to the comma-separated list in "buf" ("a, b, c"),
 * truncating quietly: such lists only decorate messages.  Once the buffer
 * is full, further items are dropped.
 */
static inline void dse_list_add(char *buf, size_t size, const char *item)
{
	size_t len = strlen(buf);

	if (len + 1 >= size)
		return;
	snprintf(buf + len, size - len, "%s%s", len ? ", " : "", item);
}

#endif
