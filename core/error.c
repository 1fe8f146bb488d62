#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void dse_error_clear(dse_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
}

static void set_msg(dse_error *err, const char *fmt, va_list ap)
{
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

dse_stat dse_error_set(dse_error *err, enum dse_code code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return dse_stat_error;
	dse_error_clear(err);
	err->code = code;
	va_start(ap, fmt);
	set_msg(err, fmt, ap);
	va_end(ap);
	return dse_stat_error;
}

dse_stat dse_error_set_at(dse_error *err, const char *file, int line, int col,
	const char *key, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return dse_stat_error;
	dse_error_clear(err);
	err->code = DSE_E_INPUT;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->col = col;
	snprintf(err->key, sizeof(err->key), "%s", key ? key : "");
	va_start(ap, fmt);
	set_msg(err, fmt, ap);
	va_end(ap);
	return dse_stat_error;
}

void dse_error_format(const dse_error *err, char *buf, size_t size)
{
	int n = 0;

	if (!size)
		return;
	buf[0] = '\0';
	if (!err)
		return;
	if (err->file[0])
		n = snprintf(buf, size, "%s:%d:%d: ", err->file, err->line,
			err->col);
	if (n < 0 || (size_t) n >= size)
		return;
	if (err->key[0])
		snprintf(buf + n, size - n, "error: %s, key '%s'", err->msg,
			err->key);
	else
		snprintf(buf + n, size - n, "error: %s", err->msg);
}

int dse_error_exit_status(const dse_error *err)
{
	if (!err || err->code == DSE_E_NONE)
		return 0;
	return err->code == DSE_E_INPUT ? 2 : 1;
}

void dse_assert_fail(const char *cond, const char *file, int line,
	const char *func)
{
	fprintf(stderr, "dse: internal error: %s:%d: %s: '%s' does not hold\n",
		file, line, func, cond);
	fflush(stderr);
	abort();
}
