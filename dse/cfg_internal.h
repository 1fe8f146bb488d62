/* Private declarations shared by the files of the config parser (cfg.c
 * reads lines and sections, cfg_value.c converts values).  Not part of the
 * public interface: only dse/cfg*.c include it.
 */
#ifndef DSE_CFG_INTERNAL_H
#define DSE_CFG_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/cfg.h"

/* The types a value can have. */
enum vtype {
	V_STRING,	/* any text */
	V_ISL,		/* an isl set or map, kept as text */
	V_ENUM,		/* one of a fixed list of names */
	V_INT_NONNEG,	/* an integer >= 0 */
	V_INT_POS,	/* an integer >= 1 */
	V_FLOAT_POS,	/* a number > 0 */
	V_NAMES,	/* "a, b, c" */
	V_INTSET,	/* "1, 3, 8..64 pow2" */
	V_PARAMS,	/* "M=1024, N=512" */
	V_CONSTRAINTS,	/* "dsp <= 0.75, bram18k <= 2000" */
	V_CHOICES,	/* "daisy, multicast": names from a fixed list; the
			 * value of each is its index in that list */
	V_CANDIDATES	/* "all", or candidate numbers >= 0 and ranges
			 * "3, 5..7"; ival is the number when there is
			 * one, -1 for "all", -2 for a list */
};

enum {
	K_REQUIRED = 1,	/* the key must be present */
	K_PER_LOOP = 2	/* "key.<loop>" overrides are accepted too */
};

struct key_schema {
	const char *name;
	enum vtype type;
	int flags;
	const char *const *allowed;	/* NULL-terminated, for V_ENUM and
					 * V_CHOICES */
};

/* One item of an integer set: "lo", or "lo..hi" with an optional filter. */
enum filter { F_NONE, F_POW2, F_DIVISORS };

struct item {
	int64_t lo;
	int64_t hi;
	enum filter filter;
};

/* One "key = value" line, with its value already in typed form. */
struct entry {
	char *key;
	const struct key_schema *schema;
	int key_line;
	int key_col;
	int line;		/* position of the value's first character */
	int col;
	char *text;		/* the value without quotes, for every type */
	int64_t ival;
	double fval;
	int n;			/* number of names, params, constraints, items */
	char **names;		/* V_NAMES and V_PARAMS */
	int *cols;		/* V_NAMES and V_PARAMS: column of each name */
	int64_t *pvals;		/* V_PARAMS; V_CHOICES: each name's index
				 * in the schema's list */
	dse_cfg_constraint *cons;
	struct item *items;	/* V_INTSET */
};

/* Where a value's text sits in the source, so that errors found inside it
 * can name the exact column of the bad token.  "file" is NULL for the
 * built-in integer sets, which have no file; "start" is the text itself.
 */
struct where {
	dse_error *err;
	const char *file;
	const char *key;
	const char *start;
	int line;
	int col;		/* column of start[0] */
};

/* What a type is called in "expected ..." messages ("an integer"). */
const char *dse__cfg_type_desc(enum vtype t);

/* Reports an input error at "at", a pointer into w->start. */
dse_stat dse__cfg_fail_in(const struct where *w, const char *at,
	const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Converts e->text, found at w, to the typed form of e->schema; "quoted"
 * says whether the value was written in quotes.
 */
dse_stat dse__cfg_convert(const struct where *w, struct entry *e, int quoted);

/* Reads the items of the integer set at w->start into a new array. */
dse_stat dse__cfg_parse_set(const struct where *w, struct item **items,
	int *n);

/* Resolves parsed integer-set items against "bound" (see
 * dse_cfg_int_set()).
 */
dse_stat dse__cfg_resolve_set(const struct where *w,
	const struct item *items, int n_items, int64_t bound, int64_t **values,
	int *n);

/* Small helpers used by both files, static so each file keeps its own. */
static inline int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_ident(char c)
{
	return is_alpha(c) || is_digit(c);
}

static inline int is_key_char(char c)
{
	return is_ident(c) || c == '.';
}

/* '\r' counts as a blank so that files with CRLF line ends read the same. */
static inline int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline const char *skip_blanks(const char *p)
{
	while (is_blank(*p))
		p++;
	return p;
}

static inline const char *skip_ident(const char *p)
{
	while (is_ident(*p))
		p++;
	return p;
}

static inline dse_stat no_memory(dse_error *err)
{
	return dse_error_set(err, DSE_E_NOMEM, "out of memory");
}

/* Returns the array "arr" of "n" elements of "size" bytes grown by one
 * element, or NULL (with "arr" untouched) when memory runs out.
 */
static inline void *grow(void *arr, int n, size_t size)
{
	return realloc(arr, (size_t) (n + 1) * size);
}

static inline char *dup_range(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (!d)
		return NULL;
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* Appends "s" to the string in "buf", truncating at "size". */
static inline void append(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	if (len < size)
		snprintf(buf + len, size - len, "%s", s);
}

#endif
