/* Conversion of config values to their typed form: numbers, name lists,
 * parameter and constraint lists, and integer sets with their resolution.
 * Every error names the column of the bad token inside the value, found
 * from the value's own position (struct where).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dse/cfg_internal.h"

/* An integer set may not resolve to more values than this, so that a typo
 * such as "1..100000000" cannot make the search space explode silently.
 */
#define MAX_SET_VALUES 1000000
/* Integer-set values are tile sizes and factors: they must fit in int32. */
#define MAX_SET_VALUE INT32_MAX

/* What each type is called in "expected ..." messages. */
static const char *const vtype_desc[] = {
	[V_STRING] = "a string",
	[V_ISL] = "an isl string",
	[V_ENUM] = "a name",
	[V_INT_NONNEG] = "an integer",
	[V_INT_POS] = "a positive integer",
	[V_FLOAT_POS] = "a positive number",
	[V_NAMES] = "a list of names such as 'latency, dsp'",
	[V_INTSET] = "an integer set such as '1..64 pow2'",
	[V_PARAMS] = "parameters such as 'M=1024, N=512'",
	[V_CONSTRAINTS] = "constraints such as 'dsp <= 0.75'",
	[V_CHOICES] = "a list of values such as 'daisy, multicast'",
	[V_CANDIDATES] = "candidate numbers such as '4', '3, 5..7' or 'all'"
};

const char *dse__cfg_type_desc(enum vtype t)
{
	return vtype_desc[t];
}

/* Reports an error at "at", a pointer into w->start.  A built-in integer
 * set has no file to point into, so its text and the column go into the
 * message instead.
 */
dse_stat dse__cfg_fail_in(const struct where *w, const char *at,
	const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	int col = w->col + (int) (at - w->start);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!w->file)
		return dse_error_set(w->err, DSE_E_INPUT,
			"built-in integer set '%s', column %d: %s",
			w->start, col, msg);
	return dse_error_set_at(w->err, w->file, w->line, col, w->key,
		"%s", msg);
}

/* ---- Numbers ---------------------------------------------------------- */

/* Reads an optionally signed decimal integer at *pp.  Returns 1 and
 * advances *pp past it, 0 when there is no integer there, -1 when it does
 * not fit in int64 (*pp is then advanced past the digits too).
 */
static int read_int(const char **pp, int64_t *v)
{
	const char *p = *pp;
	uint64_t acc = 0;
	int neg = 0;
	int over = 0;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!is_digit(*p))
		return 0;
	for (; is_digit(*p); p++) {
		int d = *p - '0';

		if (acc > (uint64_t) (INT64_MAX - d) / 10)
			over = 1;
		else
			acc = acc * 10 + d;
	}
	*pp = p;
	if (over)
		return -1;
	*v = neg ? -(int64_t) acc : (int64_t) acc;
	return 1;
}

/* Reads a whole value that must be one integer, at least "min". */
static dse_stat parse_scalar_int(const struct where *w, int64_t min,
	int64_t *v)
{
	const char *p = w->start;
	int r = read_int(&p, v);

	if (r == 0 || *p != '\0')
		return dse__cfg_fail_in(w, w->start, "expected an integer, got '%s'",
			w->start);
	if (r < 0)
		return dse__cfg_fail_in(w, w->start, "integer out of range: '%s' does "
			"not fit in 64 bits", w->start);
	if (*v < min)
		return dse__cfg_fail_in(w, w->start, "integer out of range: %s must be "
			">= %lld", w->start, (long long) min);
	return dse_stat_ok;
}

/* Whether "s" is a plain decimal number: an optional sign, digits with at
 * most one '.', and an optional exponent.  strtod() alone would also take
 * "inf", "nan" and hexadecimal floats, which are not meant for configs.
 */
static int is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; is_digit(*s); s++)
		digits++;
	if (*s == '.')
		for (s++; is_digit(*s); s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return 0;
		while (is_digit(*s))
			s++;
	}
	return *s == '\0';
}

static dse_stat parse_pos_float(const struct where *w, double *v)
{
	if (!is_decimal(w->start))
		return dse__cfg_fail_in(w, w->start, "bad number '%s': expected a "
			"decimal number such as 300 or 2.5", w->start);
	errno = 0;
	*v = strtod(w->start, NULL);
	if (errno == ERANGE && (*v > 1 || *v < -1))
		return dse__cfg_fail_in(w, w->start, "number out of range: '%s' is too "
			"large", w->start);
	if (!(*v > 0))
		return dse__cfg_fail_in(w, w->start, "number out of range: %s must be "
			"> 0", w->start);
	return dse_stat_ok;
}

/* ---- Lists ------------------------------------------------------------- */

/* The common frame of every comma-separated list: after an item, only
 * blanks and then ',' or the end may follow.  Returns the start of the
 * next item in *pp, or NULL there at the end of the list.
 */
static dse_stat next_item(const struct where *w, const char **pp,
	const char *what)
{
	const char *p = skip_blanks(*pp);

	if (*p == '\0') {
		*pp = NULL;
		return dse_stat_ok;
	}
	if (*p != ',')
		return dse__cfg_fail_in(w, p, "unexpected '%c': expected ',' between "
			"%s", *p, what);
	*pp = p + 1;
	return dse_stat_ok;
}

/* Checks that a list item is not empty ("a,,b" or a trailing comma). */
static dse_stat check_item(const struct where *w, const char *p)
{
	if (*p == ',' || *p == '\0')
		return dse__cfg_fail_in(w, p, "empty item in the list");
	return dse_stat_ok;
}

/* Adds a name (and, for params, its value) to the entry. */
static dse_stat add_name(struct entry *e, const char *name, size_t len,
	int col, dse_error *err)
{
	char *copy = dup_range(name, len);
	char **names;
	int *cols;

	if (!copy)
		return no_memory(err);
	names = grow(e->names, e->n, sizeof(*names));
	if (names)
		e->names = names;
	cols = grow(e->cols, e->n, sizeof(*cols));
	if (cols)
		e->cols = cols;
	if (!names || !cols) {
		free(copy);
		return no_memory(err);
	}
	e->names[e->n] = copy;
	e->cols[e->n] = col;
	e->n++;
	return dse_stat_ok;
}

/* The index of "name" (len bytes) among the entry's names, or -1. */
static int find_name(const struct entry *e, const char *name, size_t len)
{
	int i;

	for (i = 0; i < e->n; i++)
		if (strlen(e->names[i]) == len &&
		    !strncmp(e->names[i], name, len))
			return i;
	return -1;
}

static dse_stat parse_names(const struct where *w, struct entry *e)
{
	const char *p = w->start;

	while (p) {
		const char *name, *end;

		p = skip_blanks(p);
		if (check_item(w, p) < 0)
			return dse_stat_error;
		name = p;
		end = is_alpha(*p) ? skip_ident(p) : p;
		if (end == name)
			return dse__cfg_fail_in(w, p, "expected a name (letters, digits "
				"and '_', not starting with a digit)");
		if (find_name(e, name, end - name) >= 0)
			return dse__cfg_fail_in(w, name, "duplicate name '%.*s' in the "
				"list", (int) (end - name), name);
		if (add_name(e, name, end - name,
			w->col + (int) (name - w->start), w->err) < 0)
			return dse_stat_error;
		p = end;
		if (next_item(w, &p, "names") < 0)
			return dse_stat_error;
	}
	return dse_stat_ok;
}

/* The schema's allowed values joined by ", ", for messages. */
static void allowed_list(const struct key_schema *ks, char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; ks->allowed[i]; i++) {
		if (i)
			append(buf, size, ", ");
		append(buf, size, ks->allowed[i]);
	}
}

/* Reads a list of values from the schema's fixed list ("daisy, multicast",
 * "0, 1"); each value is kept with its index in that list, which is the
 * number the model takes for it.
 */
static dse_stat parse_choices(const struct where *w, struct entry *e)
{
	const struct key_schema *ks = e->schema;
	const char *p = w->start;
	char known[256];

	allowed_list(ks, known, sizeof(known));
	while (p) {
		const char *name, *end;
		int64_t *pvals;
		int i;

		p = skip_blanks(p);
		if (check_item(w, p) < 0)
			return dse_stat_error;
		name = p;
		end = skip_ident(p);
		if (end == name)
			return dse__cfg_fail_in(w, p, "expected one of: %s",
				known);
		for (i = 0; ks->allowed[i]; i++)
			if (strlen(ks->allowed[i]) == (size_t) (end - name) &&
			    !strncmp(ks->allowed[i], name, end - name))
				break;
		if (!ks->allowed[i])
			return dse__cfg_fail_in(w, name, "unknown value "
				"'%.*s' for %s (known: %s)",
				(int) (end - name), name, ks->name, known);
		if (find_name(e, name, end - name) >= 0)
			return dse__cfg_fail_in(w, name, "duplicate value "
				"'%.*s' in the list", (int) (end - name), name);
		pvals = grow(e->pvals, e->n, sizeof(*pvals));
		if (!pvals)
			return no_memory(w->err);
		e->pvals = pvals;
		e->pvals[e->n] = i;
		if (add_name(e, name, end - name,
			w->col + (int) (name - w->start), w->err) < 0)
			return dse_stat_error;
		p = end;
		if (next_item(w, &p, "values") < 0)
			return dse_stat_error;
	}
	return dse_stat_ok;
}

/* Reads one "NAME = VALUE" item of a parameter list at *pp. */
static dse_stat parse_param(const struct where *w, struct entry *e,
	const char **pp)
{
	static const char *const hint = "expected NAME=VALUE such as M=1024";
	const char *name = *pp, *end, *p;
	int64_t v, *pvals;
	int r, first;

	end = is_alpha(*name) ? skip_ident(name) : name;
	if (end == name)
		return dse__cfg_fail_in(w, name, "bad parameter: %s", hint);
	p = skip_blanks(end);
	if (*p != '=')
		return dse__cfg_fail_in(w, p, "bad parameter '%.*s': %s",
			(int) (end - name), name, hint);
	p = skip_blanks(p + 1);
	r = read_int(&p, &v);
	if (r == 0)
		return dse__cfg_fail_in(w, p, "bad parameter '%.*s': expected an "
			"integer value after '='", (int) (end - name), name);
	if (r < 0)
		return dse__cfg_fail_in(w, p, "integer out of range: the value of "
			"parameter '%.*s' does not fit in 64 bits",
			(int) (end - name), name);
	first = find_name(e, name, end - name);
	if (first >= 0)
		return dse__cfg_fail_in(w, name, "duplicate parameter '%.*s' (first "
			"set at column %d)", (int) (end - name), name,
			e->cols[first]);
	pvals = grow(e->pvals, e->n, sizeof(*pvals));
	if (!pvals)
		return no_memory(w->err);
	e->pvals = pvals;
	e->pvals[e->n] = v;
	if (add_name(e, name, end - name, w->col + (int) (name - w->start),
		w->err) < 0)
		return dse_stat_error;
	*pp = p;
	return dse_stat_ok;
}

static dse_stat parse_params(const struct where *w, struct entry *e)
{
	const char *p = w->start;

	while (p) {
		p = skip_blanks(p);
		if (check_item(w, p) < 0 || parse_param(w, e, &p) < 0 ||
		    next_item(w, &p, "parameters") < 0)
			return dse_stat_error;
	}
	return dse_stat_ok;
}

/* Reads the number of a bound at *pp: digits with an optional fraction
 * and exponent ("2000", "0.75", "1.5e3"); *dot says whether it had a
 * decimal point and no exponent (a share of the board when no unit
 * follows).  Returns the number of characters read, 0 when there is no
 * number.
 */
static size_t read_bound_number(const char *p, double *v, int *dot)
{
	const char *q = p;
	char num[64];
	int digits = 0, exp = 0;

	for (; is_digit(*q); q++)
		digits++;
	*dot = *q == '.';
	if (*q == '.')
		for (q++; is_digit(*q); q++)
			digits++;
	if (digits && (*q == 'e' || *q == 'E') &&
	    (is_digit(q[1]) || ((q[1] == '-' || q[1] == '+') &&
				is_digit(q[2])))) {
		exp = 1;
		for (q += 2; is_digit(*q); q++)
			;
	}
	if (!digits || (size_t) (q - p) >= sizeof(num))
		return 0;
	memcpy(num, p, q - p);
	num[q - p] = '\0';
	*v = strtod(num, NULL);
	*dot = *dot && !exp;
	return (size_t) (q - p);
}

/* Whether c may be part of a unit: "ms", "GOP/s", "J*s", "MiB". */
static int is_unit_char(char c)
{
	return is_alpha(c) || c == '/' || c == '*';
}

/* Reads the bound of a constraint at *pp: a number, then optionally a
 * unit ("1ms", "1 ms") or '%'.  "2000" is an absolute amount, "0.75" and
 * "75%" are fractions of the board; which units a metric takes is the
 * caller's to check.
 */
static dse_stat parse_bound(const struct where *w, const char **pp,
	dse_cfg_constraint *c)
{
	const char *p = *pp, *u;
	size_t n;
	int dot;

	n = read_bound_number(p, &c->bound, &dot);
	if (!n)
		return dse__cfg_fail_in(w, p, "bad constraint: expected a bound "
			"after '%s' such as 0.75, 75%%, 2000 or 1ms",
			c->lower ? ">=" : "<=");
	if (!isfinite(c->bound))
		return dse__cfg_fail_in(w, p, "bad constraint: the bound is "
			"too large");
	p += n;
	c->fraction = dot;
	if (*p == '%') {
		c->bound /= 100;
		c->fraction = 1;
		c->percent = 1;
		*pp = p + 1;
		return dse_stat_ok;
	}
	u = skip_blanks(p);
	if (!is_unit_char(*u)) {
		*pp = p;
		return dse_stat_ok;
	}
	for (p = u; is_unit_char(*p) || is_digit(*p); p++)
		;
	if ((size_t) (p - u) >= sizeof(c->unit))
		return dse__cfg_fail_in(w, u, "bad constraint: unit '%.*s' is "
			"too long", (int) (p - u), u);
	/* "dsp <= 0.75 lut <= 0.5": the word is the next constraint's
	 * metric, not a unit.
	 */
	if (strchr("<>=", *skip_blanks(p)) && *skip_blanks(p))
		return dse__cfg_fail_in(w, u, "bad constraint: expected ',' "
			"between constraints");
	memcpy(c->unit, u, p - u);
	c->unit[p - u] = '\0';
	c->unit_col = w->col + (int) (u - w->start);
	c->fraction = 0;
	*pp = p;
	return dse_stat_ok;
}

/* Reads one "metric <= bound" or "metric >= bound" item of a constraint
 * list at *pp.
 */
static dse_stat parse_constraint(const struct where *w, const char **pp,
	dse_cfg_constraint *c)
{
	const char *name = *pp, *end, *p;
	int oplen;

	end = is_alpha(*name) ? skip_ident(name) : name;
	if (end == name)
		return dse__cfg_fail_in(w, name, "bad constraint: expected a metric name "
			"as in 'dsp <= 0.75'");
	if (end - name >= (int) sizeof(c->metric))
		return dse__cfg_fail_in(w, name, "bad constraint: metric name '%.*s' is "
			"longer than %d characters", (int) (end - name), name,
			(int) sizeof(c->metric) - 1);
	memcpy(c->metric, name, end - name);
	c->metric[end - name] = '\0';
	c->line = w->line;
	c->col = w->col + (int) (name - w->start);
	p = skip_blanks(end);
	if ((p[0] != '<' && p[0] != '>') || p[1] != '=') {
		if (!strchr("<>=!", *p) || *p == '\0')
			return dse__cfg_fail_in(w, p, "bad constraint: expected '<=' "
				"or '>=' after '%s'", c->metric);
		oplen = strchr("<>=!", p[1]) && p[1] ? 2 : 1;
		return dse__cfg_fail_in(w, p, "bad constraint: only '<=' and "
			"'>=' are accepted, found '%.*s'", oplen, p);
	}
	c->lower = p[0] == '>';
	p = skip_blanks(p + 2);
	if (parse_bound(w, &p, c) < 0)
		return dse_stat_error;
	*pp = p;
	return dse_stat_ok;
}

static dse_stat parse_constraints(const struct where *w, struct entry *e)
{
	const char *p = w->start;

	while (p) {
		dse_cfg_constraint c, *cons;

		memset(&c, 0, sizeof(c));
		p = skip_blanks(p);
		if (check_item(w, p) < 0 || parse_constraint(w, &p, &c) < 0)
			return dse_stat_error;
		cons = grow(e->cons, e->n, sizeof(c));
		if (!cons)
			return no_memory(w->err);
		e->cons = cons;
		e->cons[e->n++] = c;
		if (next_item(w, &p, "constraints") < 0)
			return dse_stat_error;
	}
	return dse_stat_ok;
}

/* ---- Integer sets ------------------------------------------------------ */

/* Reads one integer-set value at *pp and checks that it is in 1..int32. */
static dse_stat read_set_value(const struct where *w, const char **pp,
	int64_t *v, const char *what)
{
	const char *at = *pp;
	int r = read_int(pp, v);

	if (r == 0)
		return dse__cfg_fail_in(w, at, "expected %s", what);
	if (r < 0 || *v > MAX_SET_VALUE)
		return dse__cfg_fail_in(w, at, "integer out of range: integer set values "
			"must be at most %d", MAX_SET_VALUE);
	if (*v < 1)
		return dse__cfg_fail_in(w, at, "integer out of range: integer set values "
			"must be >= 1");
	return dse_stat_ok;
}

/* Reads the optional filter word after an item at *pp. */
static dse_stat read_filter(const struct where *w, const char **pp,
	int is_range, enum filter *f)
{
	const char *word = *pp, *end = skip_ident(word);
	size_t len = end - word;

	*f = F_NONE;
	if (!is_alpha(*word))
		return dse_stat_ok;
	if (len == 4 && !strncmp(word, "pow2", 4))
		*f = F_POW2;
	else if (len == 8 && !strncmp(word, "divisors", 8))
		*f = F_DIVISORS;
	else
		return dse__cfg_fail_in(w, word, "unknown filter '%.*s': expected pow2 or "
			"divisors", (int) len, word);
	if (!is_range)
		return dse__cfg_fail_in(w, word, "a filter applies to a range, as in "
			"'1..64 %.*s'", (int) len, word);
	*pp = end;
	return dse_stat_ok;
}

/* Reads one item "lo", "lo..hi" or "lo..hi filter" at *pp. */
static dse_stat parse_set_item(const struct where *w, const char **pp,
	struct item *it)
{
	const char *lo_at = *pp, *p = *pp, *dots;
	int is_range = 0;

	if (read_set_value(w, &p, &it->lo,
		"an integer or a range such as 1..64") < 0)
		return dse_stat_error;
	it->hi = it->lo;
	dots = skip_blanks(p);
	if (dots[0] == '.' && dots[1] == '.') {
		p = skip_blanks(dots + 2);
		if (read_set_value(w, &p, &it->hi,
			"an integer after '..'") < 0)
			return dse_stat_error;
		if (it->lo > it->hi)
			return dse__cfg_fail_in(w, lo_at, "empty range %lld..%lld: the "
				"lower bound is above the upper bound",
				(long long) it->lo, (long long) it->hi);
		is_range = 1;
	}
	p = skip_blanks(p);
	if (read_filter(w, &p, is_range, &it->filter) < 0)
		return dse_stat_error;
	*pp = p;
	return dse_stat_ok;
}

dse_stat dse__cfg_parse_set(const struct where *w, struct item **items,
	int *n)
{
	const char *p = w->start;

	while (p) {
		struct item it, *grown;

		p = skip_blanks(p);
		if (check_item(w, p) < 0 || parse_set_item(w, &p, &it) < 0)
			return dse_stat_error;
		grown = grow(*items, *n, sizeof(it));
		if (!grown)
			return no_memory(w->err);
		*items = grown;
		(*items)[(*n)++] = it;
		if (next_item(w, &p, "items") < 0)
			return dse_stat_error;
	}
	return dse_stat_ok;
}

static int cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* Sorts the n values in v and removes duplicates; returns the new count. */
static int sort_unique(int64_t *v, int n)
{
	int i, m = 0;

	qsort(v, n, sizeof(*v), cmp_int64);
	for (i = 0; i < n; i++)
		if (m == 0 || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* Walks the values of "it", storing them in v when v is not NULL, and
 * returns their number.  Called once with v == NULL to size the array, so
 * that a huge plain range is refused before anything is allocated.
 */
static int64_t expand_item(const struct item *it, int64_t bound, int64_t *v)
{
	int64_t x, n = 0;

	if (it->filter == F_NONE) {
		if (v)
			for (x = it->lo; x <= it->hi; x++)
				v[n++] = x;
		return it->hi - it->lo + 1;
	}
	if (it->filter == F_POW2) {
		for (x = 1; x <= it->hi; x *= 2)
			if (x >= it->lo) {
				if (v)
					v[n] = x;
				n++;
			}
		return n;
	}
	/* Divisors come in pairs (d, bound / d), so only d up to the square
	 * root of the bound needs to be tried.
	 */
	for (x = 1; x <= bound / x; x++) {
		int64_t pair[2] = { x, bound / x };
		int k;

		if (bound % x)
			continue;
		for (k = 0; k < (pair[0] == pair[1] ? 1 : 2); k++)
			if (pair[k] >= it->lo && pair[k] <= it->hi) {
				if (v)
					v[n] = pair[k];
				n++;
			}
	}
	return n;
}

/* Resolves parsed items against "bound".  The values are gathered item by
 * item and deduplicated after each one, so the working array never holds
 * much more than the limit even when items overlap.
 */
dse_stat dse__cfg_resolve_set(const struct where *w,
	const struct item *items, int n_items, int64_t bound, int64_t **values,
	int *n)
{
	int64_t *v = NULL;
	int i, m = 0;

	for (i = 0; i < n_items; i++) {
		int64_t size, *nv;

		if (items[i].filter == F_DIVISORS && bound < 1) {
			free(v);
			return dse__cfg_fail_in(w, w->start, "the 'divisors' filter "
				"needs a positive loop bound, got %lld",
				(long long) bound);
		}
		size = expand_item(&items[i], bound, NULL);
		if (size > MAX_SET_VALUES) {
			free(v);
			goto too_many;
		}
		nv = realloc(v, (size_t) (m + size + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			return no_memory(w->err);
		}
		v = nv;
		m = sort_unique(v, m + (int) expand_item(&items[i], bound,
			v + m));
		if (m > MAX_SET_VALUES) {
			free(v);
			goto too_many;
		}
	}
	if (m == 0) {
		free(v);
		return dse__cfg_fail_in(w, w->start, "integer set '%s' is empty: no "
			"value passes its filter (loop bound %lld)", w->start,
			(long long) bound);
	}
	*values = v;
	*n = m;
	return dse_stat_ok;
too_many:
	return dse__cfg_fail_in(w, w->start, "integer set '%s' has more than %d "
		"values", w->start, MAX_SET_VALUES);
}

/* The largest candidate number a config may write: far above any
 * kernel's candidate count, low enough to expand a range at once.
 */
#define MAX_CANDIDATE 9999

/* One candidate number of a list, at least 0 and at most MAX_CANDIDATE. */
static dse_stat read_candidate(const struct where *w, const char **pp,
	int64_t *v)
{
	const char *at = *pp;
	int r = read_int(pp, v);

	if (r == 0)
		return dse__cfg_fail_in(w, at, "expected a candidate number "
			"(as 'dse analyze' lists them), a range such as 3..5, "
			"or 'all'");
	if (r < 0 || *v < 0 || *v > MAX_CANDIDATE)
		return dse__cfg_fail_in(w, at, "candidate number out of range: "
			"must be between 0 and %d", MAX_CANDIDATE);
	return dse_stat_ok;
}

/* space_time: "all", or numbers and ranges of candidates. */
static dse_stat parse_candidates(const struct where *w, struct entry *e)
{
	const char *p = skip_blanks(w->start);

	e->ival = -1;
	if (!strcmp(p, "all"))
		return dse_stat_ok;
	while (p) {
		struct item it = { 0, 0, F_NONE }, *grown;

		p = skip_blanks(p);
		if (check_item(w, p) < 0 || read_candidate(w, &p, &it.lo) < 0)
			return dse_stat_error;
		it.hi = it.lo;
		p = skip_blanks(p);
		if (p[0] == '.' && p[1] == '.') {
			const char *at;

			p = at = skip_blanks(p + 2);
			if (read_candidate(w, &p, &it.hi) < 0)
				return dse_stat_error;
			if (it.hi < it.lo)
				return dse__cfg_fail_in(w, at, "empty range: "
					"%lld..%lld", (long long) it.lo,
					(long long) it.hi);
		}
		grown = grow(e->items, e->n, sizeof(it));
		if (!grown)
			return no_memory(w->err);
		e->items = grown;
		e->items[e->n++] = it;
		if (next_item(w, &p, "candidates") < 0)
			return dse_stat_error;
	}
	e->ival = e->n == 1 && e->items[0].lo == e->items[0].hi ?
		e->items[0].lo : -2;
	return dse_stat_ok;
}

/* ---- Conversion -------------------------------------------------------- */

static dse_stat check_enum(const struct where *w, const struct key_schema *ks)
{
	char allowed[DSE_ERROR_MSG_LEN] = "";
	int i;

	for (i = 0; ks->allowed[i]; i++) {
		if (!strcmp(ks->allowed[i], w->start))
			return dse_stat_ok;
		if (i)
			append(allowed, sizeof(allowed), ", ");
		append(allowed, sizeof(allowed), ks->allowed[i]);
	}
	return dse__cfg_fail_in(w, w->start, "value '%s' is not allowed; expected one "
		"of: %s", w->start, allowed);
}

/* Converts e->text to the typed form its schema asks for. */
dse_stat dse__cfg_convert(const struct where *w, struct entry *e, int quoted)
{
	enum vtype t = e->schema->type;

	if (quoted && t != V_STRING && t != V_ISL && t != V_ENUM)
		return dse__cfg_fail_in(w, w->start, "expected %s, not a quoted string",
			dse__cfg_type_desc(t));
	switch (t) {
	case V_STRING:
	case V_ISL:
		return dse_stat_ok;
	case V_ENUM:
		return check_enum(w, e->schema);
	case V_INT_NONNEG:
		return parse_scalar_int(w, 0, &e->ival);
	case V_INT_POS:
		return parse_scalar_int(w, 1, &e->ival);
	case V_FLOAT_POS:
		return parse_pos_float(w, &e->fval);
	case V_NAMES:
		return parse_names(w, e);
	case V_INTSET:
		return dse__cfg_parse_set(w, &e->items, &e->n);
	case V_PARAMS:
		return parse_params(w, e);
	case V_CONSTRAINTS:
		return parse_constraints(w, e);
	case V_CHOICES:
		return parse_choices(w, e);
	case V_CANDIDATES:
		return parse_candidates(w, e);
	}
	return dse_stat_ok;
}
