/* Reading AutoSA's --sa-sizes strings (see sa_sizes.h).
 *
 * A small recursive-descent reader over the text with a cursor; every
 * error names the 1-based column of the offending character, because the
 * string is typed on a command line where there is no file to point into.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sa_sizes.h"

static const char *const entry_names[DSE_SA_N_ENTRIES] = {
	[DSE_SA_SPACE_TIME] = "space_time",
	[DSE_SA_ARRAY_PART] = "array_part",
	[DSE_SA_ARRAY_PART_L2] = "array_part_L2",
	[DSE_SA_LATENCY] = "latency",
	[DSE_SA_SIMD] = "simd",
};

/* The reading state: the whole text (for columns) and the cursor. */
struct reader {
	const char *text;
	const char *p;
	dse_error *err;
	const char *hbm;	/* the HBM entry being read, NULL for others */
};

const char *dse_sa_entry_name(enum dse_sa_entry e)
{
	return e >= 0 && e < DSE_SA_N_ENTRIES ? entry_names[e] : "?";
}

static dse_stat __attribute__((format(printf, 3, 4))) fail(
	const struct reader *r, const char *at, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN - 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set(r->err, DSE_E_INPUT, "--sa-sizes, column %d: %s",
		(int) (at - r->text) + 1, msg);
}

static void skip_space(struct reader *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' ||
	       *r->p == '\r')
		r->p++;
}

static int is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_';
}

/* What the cursor is on, for messages: "end of text" or "'x'". */
static const char *found(const struct reader *r, char *buf, size_t size)
{
	if (*r->p == '\0')
		snprintf(buf, size, "the end of the text");
	else
		snprintf(buf, size, "'%c'", *r->p);
	return buf;
}

/* Consumes the character "c" (after blanks), or fails saying what the
 * string needed there.
 */
static dse_stat expect(struct reader *r, char c, const char *what)
{
	char buf[32];

	skip_space(r);
	if (*r->p != c)
		return fail(r, r->p, "expected '%c' %s, found %s", c, what,
			found(r, buf, sizeof(buf)));
	r->p++;
	return dse_stat_ok;
}

/* Reads an identifier at the cursor into buf; returns its length (0 when
 * there is none).
 */
static size_t read_ident(struct reader *r, char *buf, size_t size)
{
	size_t n = 0;

	skip_space(r);
	while (is_ident_char(*r->p)) {
		if (n + 1 < size)
			buf[n] = *r->p;
		n++;
		r->p++;
	}
	buf[n < size ? n : size - 1] = '\0';
	return n;
}

/* The entry number of an HBM entry ("hbm_A": AutoSA's --hbm banks of an
 * array), which has no slot of its own.
 */
#define HBM_ENTRY DSE_SA_N_ENTRIES

/* Skips an optional "kernel[]->" (with blanks anywhere between its
 * tokens) and reads the entry's name; returns the entry, HBM_ENTRY (the
 * name in *hbm) or -1.
 */
static int read_entry_name(struct reader *r, char *hbm, size_t size)
{
	const char *start, *name_at;
	char name[64], known[128] = "";
	int e;

	skip_space(r);
	start = r->p;
	read_ident(r, name, sizeof(name));
	skip_space(r);
	if (*r->p == '[' && r->p[1 + strspn(r->p + 1, " \t")] == ']') {
		/* "kernel[]" (any statement name): the arrow must follow;
		 * "latency[]" is an empty latency list.
		 */
		const char *bracket = r->p;

		r->p += 1 + strspn(r->p + 1, " \t") + 1;
		skip_space(r);
		if (strncmp(r->p, "->", 2)) {
			for (e = 0; e < DSE_SA_N_ENTRIES; e++)
				if (!strcmp(name, entry_names[e]))
					break;
			if (e == DSE_SA_LATENCY) {
				r->p = bracket;
				return e;
			}
			if (e < DSE_SA_N_ENTRIES)
				fail(r, start, "the %s list is empty", name);
			else
				fail(r, r->p, "expected '->' after '%s[]'",
					name);
			return -1;
		}
		r->p += 2;
		skip_space(r);
		start = r->p;
		read_ident(r, name, sizeof(name));
	}
	name_at = start;
	for (e = 0; e < DSE_SA_N_ENTRIES; e++) {
		if (!strcmp(name, entry_names[e]))
			return e;
		strcat(known, e ? ", " : "");
		strcat(known, entry_names[e]);
	}
	strcat(known, ", hbm_<array>");
	if (!strncmp(name, "hbm_", 4) && name[4]) {
		snprintf(hbm, size, "%s", name);
		return HBM_ENTRY;
	}
	if (!name[0])
		fail(r, name_at, "expected an entry such as "
			"'kernel[]->array_part[16,16,16]' (entries: %s)",
			known);
	else
		fail(r, name_at, "unknown entry '%s' (entries: %s)", name,
			known);
	return -1;
}

/* The name of the list being read, for messages. */
static const char *list_name(const struct reader *r, int e)
{
	return r->hbm ? r->hbm : entry_names[e];
}

/* Reads one integer of a list; "min" is 0 for space_time, else 1. */
static dse_stat read_value(struct reader *r, int e, int64_t min,
	int32_t *v)
{
	const char *at;
	int64_t acc = 0;
	char buf[32];

	skip_space(r);
	at = r->p;
	/* AutoSA's "not tiled" in the tiling lists. */
	if ((e == DSE_SA_ARRAY_PART || e == DSE_SA_ARRAY_PART_L2) &&
	    r->p[0] == '-' && r->p[1] == '1' &&
	    (r->p[2] < '0' || r->p[2] > '9')) {
		r->p += 2;
		*v = -1;
		return dse_stat_ok;
	}
	if (*r->p == '-')
		return fail(r, at, "%s values must be %s", list_name(r, e),
			min ? (e == DSE_SA_ARRAY_PART ||
				e == DSE_SA_ARRAY_PART_L2 ?
				"positive, or -1 (not tiled)" : "positive") :
			">= 0");
	if (*r->p < '0' || *r->p > '9')
		return fail(r, at, "expected an integer in the %s list, "
			"found %s", list_name(r, e), found(r, buf, sizeof(buf)));
	while (*r->p >= '0' && *r->p <= '9') {
		acc = acc * 10 + (*r->p - '0');
		if (acc > INT32_MAX)
			return fail(r, at, "%s value too large (at most "
				"2147483647)", list_name(r, e));
		r->p++;
	}
	if (acc < min)
		return fail(r, at, "%s values must be positive",
			list_name(r, e));
	*v = (int32_t) acc;
	return dse_stat_ok;
}

/* Reads "[v, v, ...]" of entry e into out. */
static dse_stat read_list(struct reader *r, int e, dse_sa_sizes *out)
{
	char buf[32];

	if (expect(r, '[', "after the entry name") < 0)
		return dse_stat_error;
	skip_space(r);
	/* "latency[]": AutoSA's way to say there is no latency loop. */
	if (e == DSE_SA_LATENCY && *r->p == ']') {
		r->p++;
		return dse_stat_ok;
	}
	for (;;) {
		if (out->n[e] == DSE_SA_MAX_VALUES)
			return fail(r, r->p, "the %s list has more than %d "
				"values", list_name(r, e), DSE_SA_MAX_VALUES);
		if (read_value(r, e, e == DSE_SA_SPACE_TIME ? 0 : 1,
				&out->v[e][out->n[e]]) < 0)
			return dse_stat_error;
		out->n[e]++;
		skip_space(r);
		if (*r->p == ']')
			break;
		if (*r->p != ',')
			return fail(r, r->p, "expected ',' or ']' in the %s "
				"list, found %s", list_name(r, e),
				found(r, buf, sizeof(buf)));
		r->p++;
	}
	r->p++;
	if (e == DSE_SA_SPACE_TIME && out->n[e] != 1)
		return fail(r, r->p - 1, "space_time takes one value (the "
			"candidate number), got %d", out->n[e]);
	return dse_stat_ok;
}

/* Reads an HBM entry's list (one bank count) and keeps the entry as
 * written.
 */
static dse_stat read_hbm(struct reader *r, const char *at, const char *name,
	dse_sa_sizes *out)
{
	dse_sa_sizes one;
	int i;

	if (strlen(name) > 32)
		return fail(r, at, "the entry name '%s' is longer than 32 "
			"characters", name);
	for (i = 0; i < out->n_hbm; i++)
		if (!strncmp(out->hbm[i], name, strlen(name)) &&
		    out->hbm[i][strlen(name)] == '[')
			return fail(r, at, "%s is given twice", name);
	if (out->n_hbm == DSE_SA_MAX_HBM)
		return fail(r, at, "more than %d hbm_ entries", DSE_SA_MAX_HBM);
	memset(&one, 0, sizeof(one));
	r->hbm = name;
	if (read_list(r, DSE_SA_SIMD, &one) < 0)
		return dse_stat_error;
	r->hbm = NULL;
	if (one.n[DSE_SA_SIMD] != 1)
		return fail(r, at, "%s takes one value (the HBM banks of the "
			"array), got %d", name, one.n[DSE_SA_SIMD]);
	snprintf(out->hbm[out->n_hbm++], sizeof(out->hbm[0]), "%.32s[%d]",
		name, (int) one.v[DSE_SA_SIMD][0]);
	return dse_stat_ok;
}

/* Reads one entry; the cursor is on its first character. */
static dse_stat read_entry(struct reader *r, dse_sa_sizes *out)
{
	const char *at;
	char hbm[64];
	int e;

	skip_space(r);
	at = r->p;
	e = read_entry_name(r, hbm, sizeof(hbm));
	if (e < 0)
		return dse_stat_error;
	if (e == HBM_ENTRY)
		return read_hbm(r, at, hbm, out);
	if (out->given[e])
		return fail(r, at, "%s is given twice", entry_names[e]);
	out->given[e] = 1;
	return read_list(r, e, out);
}

dse_stat dse_sa_sizes_parse(const char *text, dse_sa_sizes *out,
	dse_error *err)
{
	struct reader r = { text, text, err, NULL };
	char buf[32];

	memset(out, 0, sizeof(*out));
	if (!text)
		return dse_error_set(err, DSE_E_INPUT, "--sa-sizes: no text");
	if (expect(&r, '{', "at the start") < 0)
		return dse_stat_error;
	skip_space(&r);
	if (*r.p == '}')
		return fail(&r, r.p, "no entries between '{' and '}'");
	for (;;) {
		if (read_entry(&r, out) < 0)
			return dse_stat_error;
		skip_space(&r);
		if (*r.p == ';') {
			r.p++;
			skip_space(&r);
			/* A ';' before the '}' is tolerated. */
			if (*r.p != '}')
				continue;
		}
		if (*r.p != '}')
			return fail(&r, r.p, "expected ';' or '}' after an "
				"entry, found %s", found(&r, buf, sizeof(buf)));
		r.p++;
		break;
	}
	skip_space(&r);
	if (*r.p)
		return fail(&r, r.p, "unexpected text after the closing '}'");
	return dse_stat_ok;
}
