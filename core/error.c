#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"

void dse_error_clear(dse_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
}

/* The length of an invisible character in UTF-8 at "p", 0 for any other:
 * spaces that do not look like one or take no room (no-break space, soft
 * hyphen, zero-width space and joiners, direction marks, word joiner,
 * line and paragraph separators, the byte-order mark).  A value quoted
 * with one of these reads like the right value; escaped, it shows what
 * is wrong with it.
 */
static int invisible(const unsigned char *p, unsigned *code)
{
	if (p[0] == 0xc2 && (p[1] == 0xa0 || p[1] == 0xad)) {
		*code = p[1];
		return 2;
	}
	if (p[0] == 0xe2 && p[1] == 0x80 && p[2] &&
	    ((p[2] >= 0x8b && p[2] <= 0x8f) || p[2] == 0xa8 || p[2] == 0xa9 ||
	     p[2] == 0xaf)) {
		*code = 0x2000 + (p[2] - 0x80);
		return 3;
	}
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0xa0) {
		*code = 0x2060;
		return 3;
	}
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
		*code = 0xfeff;
		return 3;
	}
	return 0;
}

/* Copies "src" into "dst" (of "size" bytes) with control characters and
 * invisible ones escaped (\t, \r, \n, \x01, \u00a0, ...), so that a
 * message stays one line and a quoted value with a stray carriage return
 * or no-break space does not look like the correct one.  Whole escapes
 * only: a message cut short never ends in half of one.
 */
static void escape_msg(char *dst, size_t size, const char *src)
{
	const unsigned char *p = (const unsigned char *) src;
	size_t n = 0;

	while (*p) {
		char esc[16];
		unsigned code;
		int skip = invisible(p, &code), len;

		if (skip)
			len = snprintf(esc, sizeof(esc), "\\u%04x", code);
		else if (*p == '\t' || *p == '\r' || *p == '\n')
			len = snprintf(esc, sizeof(esc), "\\%c", *p == '\t' ?
				't' : *p == '\r' ? 'r' : 'n');
		else if (*p < 0x20 || *p == 0x7f)
			len = snprintf(esc, sizeof(esc), "\\x%02x", *p);
		else
			len = 0;
		if (len == 0) {
			if (n + 1 >= size)
				break;
			dst[n++] = (char) *p++;
			continue;
		}
		if (n + (size_t) len >= size)
			break;
		memcpy(dst + n, esc, (size_t) len);
		n += (size_t) len;
		p += skip ? skip : 1;
	}
	dst[n] = '\0';
}

static void set_msg(dse_error *err, const char *fmt, va_list ap)
{
	char raw[DSE_ERROR_MSG_LEN];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	escape_msg(err->msg, sizeof(err->msg), raw);
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

const char *dse_file_kind(unsigned int mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISFIFO(mode))
		return "a FIFO (named pipe)";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return "not a regular file";
}

void dse_format_bytes(double bytes, char *buf, size_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
		"PiB", "EiB" };
	int u = 0;

	while (bytes >= 1024 && u < 6) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

dse_stat dse_error_nomem(dse_error *err, const char *what, double bytes)
{
	char size[32];

	dse_format_bytes(bytes, size, sizeof(size));
	return dse_error_set(err, DSE_E_NOMEM, "out of memory: %s (%s)", what,
		size);
}
