/* gnn: reading graphs from Matrix Market coordinate files and SNAP-style
 * edge lists.
 *
 * Lines are read a character at a time up to MAX_LINE bytes, so that a
 * file that is no graph (a binary, /dev/zero) is refused at its first long
 * line instead of filling the memory, and a NUL byte is named as such;
 * numbers go through strtoll/strtod with the whole token checked, so "12abc",
 * "1e99999" or "0x" are errors rather than silently truncated.  Every
 * error names the file, the line and, when a token is at fault, its
 * 1-based column.  The edges are collected in growable arrays (a size
 * line is not trusted for the allocation: a corrupt one would otherwise
 * ask for terabytes) and handed to gnn__graph_take_edges.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "graph_internal.h"

/* At most this many characters of a bad token are quoted in a message. */
#define QUOTE_MAX 40

/* The first allocation for the edges when a size line announces more. */
#define FIRST_CAP ((int64_t) 1 << 20)

/* The longest line a graph file may have: an entry or an edge is a few
 * dozen characters; comments may be long, but not this long.
 */
#define MAX_LINE ((size_t) 64 << 20)

struct reader {
	const char *path;
	FILE *f;
	char *line;
	size_t cap;
	size_t len;
	int lineno;
	dse_error *err;
};

struct tok {
	const char *s;
	size_t len;
	int col;		/* 1-based */
};

struct edges {
	uint32_t *src, *dst;
	float *w;
	int64_t n, cap;
	int any_weight;		/* some entry gave a weight */
};

/* What building a graph takes (graph.c, build): per vertex the in-edge
 * offsets and the scatter cursors (8 bytes each); per edge the source,
 * destination and weight arrays read here and their sorted copies, at
 * most 20 bytes at the peak.
 */
#define BUILD_BYTES_PER_VERTEX 16
#define BUILD_BYTES_PER_EDGE 20

/* The memory this process may have: the machine's, or less under a limit
 * on its address space or data (ulimit -v, a batch system's limit).
 */
static double memory_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double lim = pages > 0 && page > 0 ? (double) pages * page : 1e300;
	struct rlimit rl;

	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (double) rl.rlim_cur < lim)
		lim = (double) rl.rlim_cur;
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (double) rl.rlim_cur < lim)
		lim = (double) rl.rlim_cur;
	return lim;
}

/* Records an input error at column "col" of the current line. */
static dse_stat bad(struct reader *r, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static dse_stat bad(struct reader *r, int col, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set_at(r->err, r->path, r->lineno > 0 ? r->lineno : 1,
		col, NULL, "%s", msg);
}

static dse_stat io_error(dse_error *err, const char *path, int line,
	const char *what, int errnum)
{
	dse_error_set_at(err, path, line, 0, NULL, "%s: %s", what,
		strerror(errnum));
	if (err)
		err->code = DSE_E_IO;
	return dse_stat_error;
}

/* Makes room for at least one more character in the line buffer. */
static int grow_line(struct reader *r)
{
	size_t cap = r->cap ? 2 * r->cap : 256;
	char *p;

	if (r->cap >= MAX_LINE) {
		r->lineno++;
		bad(r, 0, "line longer than %zu bytes: this is not a graph "
			"file", MAX_LINE);
		return -1;
	}
	p = realloc(r->line, cap);
	if (!p) {
		dse_error_nomem(r->err, "a line of the graph file", (double) cap);
		return -1;
	}
	r->line = p;
	r->cap = cap;
	return 0;
}

/* Reads the next line without its end-of-line characters.  Returns 1 for
 * a line, 0 at the end of the file, -1 on an error (a read error, a line
 * too long, a NUL byte, no memory).
 */
static int next_line(struct reader *r)
{
	size_t n = 0;
	int c;

	if (r->lineno == INT_MAX) {
		bad(r, 0, "more than %d lines", INT_MAX);
		return -1;
	}
	errno = 0;
	while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
		if (n + 1 >= r->cap && grow_line(r) < 0)
			return -1;
		if (c == '\0') {
			r->lineno++;
			bad(r, n < INT_MAX ? (int) n + 1 : 0, "a NUL byte: "
				"this is not a text file");
			return -1;
		}
		r->line[n++] = (char) c;
	}
	if (c == EOF && ferror(r->f)) {
		io_error(r->err, r->path, r->lineno, "cannot read",
			errno ? errno : EIO);
		return -1;
	}
	if (c == EOF && n == 0)
		return 0;
	if (r->cap == 0 && grow_line(r) < 0)
		return -1;
	r->lineno++;
	while (n > 0 && r->line[n - 1] == '\r')
		n--;
	r->line[n] = '\0';
	r->len = n;
	return 1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next blank-separated token of the current line from *pos; 0 when
 * the line has no more.
 */
static int next_tok(const struct reader *r, size_t *pos, struct tok *t)
{
	size_t i = *pos;

	while (i < r->len && is_blank(r->line[i]))
		i++;
	if (i >= r->len)
		return 0;
	t->s = r->line + i;
	t->col = i < INT_MAX ? (int) i + 1 : 0;
	while (i < r->len && !is_blank(r->line[i]))
		i++;
	t->len = (size_t) (r->line + i - t->s);
	*pos = i;
	return 1;
}

/* The column just past the end of the line, where a missing token is. */
static int end_col(const struct reader *r)
{
	return r->len < INT_MAX ? (int) r->len + 1 : 0;
}

static int quote_len(const struct tok *t)
{
	return t->len > QUOTE_MAX ? QUOTE_MAX : (int) t->len;
}

/* A whole token as a decimal integer ("what" names it in messages). */
static dse_stat parse_int(struct reader *r, const struct tok *t,
	const char *what, int64_t *out)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(t->s, &end, 10);
	if (end != t->s + t->len || end == t->s)
		return bad(r, t->col, "%s '%.*s' is not an integer", what,
			quote_len(t), t->s);
	if (errno == ERANGE)
		return bad(r, t->col, "%s '%.*s' is out of range", what,
			quote_len(t), t->s);
	*out = x;
	return dse_stat_ok;
}

/* A whole token as a finite number. */
static dse_stat parse_real(struct reader *r, const struct tok *t,
	const char *what, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(t->s, &end);
	if (end != t->s + t->len || end == t->s)
		return bad(r, t->col, "%s '%.*s' is not a number", what,
			quote_len(t), t->s);
	if (errno == ERANGE || !isfinite(x) || fabs(x) > 3.4e38)
		return bad(r, t->col, "%s '%.*s' is not a finite 32-bit "
			"float", what, quote_len(t), t->s);
	*out = x;
	return dse_stat_ok;
}

static void edges_release(struct edges *e)
{
	free(e->src);
	free(e->dst);
	free(e->w);
	memset(e, 0, sizeof(*e));
}

/* Sets the capacity of "e" to "cap" edges (at least its count). */
static dse_stat edges_grow(struct edges *e, int64_t cap, dse_error *err)
{
	void *p;

	double bytes = (double) cap * 12;

	if ((uint64_t) cap > SIZE_MAX / sizeof(uint32_t))
		return dse_error_nomem(err, "the edges read from the graph file",
			bytes);
	p = realloc(e->src, (size_t) cap * sizeof(*e->src));
	if (!p)
		return dse_error_nomem(err, "the edges read from the graph file",
			bytes);
	e->src = p;
	p = realloc(e->dst, (size_t) cap * sizeof(*e->dst));
	if (!p)
		return dse_error_nomem(err, "the edges read from the graph file",
			bytes);
	e->dst = p;
	p = realloc(e->w, (size_t) cap * sizeof(*e->w));
	if (!p)
		return dse_error_nomem(err, "the edges read from the graph file",
			bytes);
	e->w = p;
	e->cap = cap;
	return dse_stat_ok;
}

/* Makes room for one more edge, growing by half. */
static dse_stat edges_reserve(struct edges *e, dse_error *err)
{
	if (e->n < e->cap)
		return dse_stat_ok;
	return edges_grow(e, e->cap < 1024 ? 1024 : e->cap + e->cap / 2,
		err);
}

static dse_stat edges_push(struct edges *e, uint32_t s, uint32_t d, float w,
	dse_error *err)
{
	if (edges_reserve(e, err) < 0)
		return dse_stat_error;
	e->src[e->n] = s;
	e->dst[e->n] = d;
	e->w[e->n] = w;
	e->n++;
	return dse_stat_ok;
}

/* Builds the graph from the collected edges (taking them), named after
 * the file.
 */
static gnn_graph *finish(struct edges *e, int64_t nv, const char *path,
	dse_error *err)
{
	gnn_graph *g;

	if (!e->any_weight) {
		free(e->w);
		e->w = NULL;
	}
	g = gnn__graph_take_edges(nv, e->n, e->src, e->dst, e->w, err);
	memset(e, 0, sizeof(*e));
	if (g && gnn__graph_set_name(g, dse_base_name(path), err) < 0)
		return gnn_graph_free(g);
	return g;
}

static dse_stat open_reader(struct reader *r, const char *path,
	dse_error *err)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->err = err;
	if (!path) {
		dse_error_set(err, DSE_E_INPUT, "no graph file given");
		return dse_stat_error;
	}
	r->f = fopen(path, "r");
	if (!r->f)
		return io_error(err, path, 0, "cannot open", errno);
	return dse_stat_ok;
}

static void close_reader(struct reader *r)
{
	if (r->f)
		fclose(r->f);
	free(r->line);
}

/* Refuses, at column "col" of the current line, a graph of "nv" vertices
 * and "ne" edges that this process cannot build: the sizes come from the
 * file, and a 70-byte file may claim 2^31 vertices.
 */
static dse_stat check_memory(struct reader *r, int col, int64_t nv,
	int64_t ne, const char *what)
{
	double need = (double) nv * BUILD_BYTES_PER_VERTEX +
		(double) ne * BUILD_BYTES_PER_EDGE, have = memory_limit();
	char a[32], b[32];

	if (need <= have)
		return dse_stat_ok;
	dse_format_bytes(need, a, sizeof(a));
	dse_format_bytes(have, b, sizeof(b));
	return bad(r, col, "%s a graph of %lld vertices and %lld edges, which "
		"needs %s of memory to build; this process may use %s",
		what, (long long) nv, (long long) ne, a, b);
}

/* --- Matrix Market ----------------------------------------------------- */

enum mtx_field { MTX_REAL, MTX_INTEGER, MTX_PATTERN };

struct mtx {
	enum mtx_field field;
	int symmetric;
	int64_t rows, cols, nnz;
};

/* Checks that token "t" is one of the words in "choices" (NULL-ended);
 * returns its index or -1 after recording an error.
 */
static int expect_word(struct reader *r, size_t *pos, const char *what,
	const char *const *choices, const char *list)
{
	struct tok t;
	int i;

	if (!next_tok(r, pos, &t))
		return bad(r, end_col(r), "incomplete header: missing the %s "
			"(%s)", what, list), -1;
	for (i = 0; choices[i]; i++)
		if (strlen(choices[i]) == t.len &&
		    !strncasecmp(t.s, choices[i], t.len))
			return i;
	return bad(r, t.col, "unsupported %s '%.*s' in the header "
		"(supported: %s)", what, quote_len(&t), t.s, list), -1;
}

/* "%%MatrixMarket matrix coordinate <field> <symmetry>". */
static dse_stat mtx_header(struct reader *r, struct mtx *m)
{
	static const char *const banner[] = { "%%MatrixMarket", NULL };
	static const char *const object[] = { "matrix", NULL };
	static const char *const format[] = { "coordinate", NULL };
	static const char *const field[] = { "real", "integer", "pattern",
		NULL };
	static const char *const sym[] = { "general", "symmetric", NULL };
	size_t pos = 0;
	struct tok t;
	int k;

	k = next_line(r);
	if (k < 0)
		return dse_stat_error;
	if (k == 0 || strncmp(r->line, "%%", 2))
		return bad(r, k ? 1 : 0, "bad header: a Matrix Market file "
			"starts with '%%%%MatrixMarket matrix coordinate'");
	if (expect_word(r, &pos, "banner", banner, "%%MatrixMarket") < 0 ||
	    expect_word(r, &pos, "object", object, "matrix") < 0 ||
	    expect_word(r, &pos, "format", format, "coordinate") < 0)
		return dse_stat_error;
	k = expect_word(r, &pos, "field", field, "real, integer, pattern");
	if (k < 0)
		return dse_stat_error;
	m->field = (enum mtx_field) k;
	k = expect_word(r, &pos, "symmetry", sym, "general, symmetric");
	if (k < 0)
		return dse_stat_error;
	m->symmetric = k == 1;
	if (next_tok(r, &pos, &t))
		return bad(r, t.col, "unexpected '%.*s' at the end of the "
			"header", quote_len(&t), t.s);
	return dse_stat_ok;
}

/* Skips '%' comments and blank lines; returns as next_line does. */
static int next_data_line(struct reader *r, char comment)
{
	int k;

	while ((k = next_line(r)) > 0) {
		size_t i = 0;

		while (i < r->len && is_blank(r->line[i]))
			i++;
		if (i < r->len && r->line[i] != comment)
			return 1;
	}
	return k;
}

/* The size line's figures against what the file can hold (an entry is
 * at least "i j" and a line end, 4 bytes) and what the graph would take
 * to build, before anything is allocated for it.
 */
static dse_stat check_size(struct reader *r, const struct mtx *m)
{
	struct stat sb;
	int64_t nv = m->rows > m->cols ? m->rows : m->cols;

	if (fstat(fileno(r->f), &sb) == 0 && S_ISREG(sb.st_mode) &&
	    m->nnz > ((int64_t) sb.st_size + 1) / 4)
		return bad(r, 1, "bad size line: %lld entries cannot be in a "
			"file of %lld bytes (an entry takes at least 4)",
			(long long) m->nnz, (long long) sb.st_size);
	return check_memory(r, 1, nv, m->nnz * (m->symmetric ? 2 : 1),
		"the size line gives");
}

/* The size line "rows cols nnz". */
static dse_stat mtx_size(struct reader *r, struct mtx *m)
{
	static const char *const what[] = { "row count", "column count",
		"entry count" };
	int64_t v[3];
	size_t pos = 0;
	struct tok t;
	int k, i;

	k = next_data_line(r, '%');
	if (k < 0)
		return dse_stat_error;
	if (k == 0)
		return bad(r, 0, "bad size line: the file ends before the "
			"'rows columns entries' line");
	for (i = 0; i < 3; i++) {
		if (!next_tok(r, &pos, &t))
			return bad(r, end_col(r), "bad size line: missing the "
				"%s (expected 'rows columns entries')",
				what[i]);
		if (parse_int(r, &t, what[i], &v[i]) < 0)
			return dse_stat_error;
		if (v[i] < (i < 2 ? 1 : 0) ||
		    (i < 2 && v[i] > (int64_t) UINT32_MAX))
			return bad(r, t.col, "bad size line: %s %lld must be "
				"between %d and %lu", what[i],
				(long long) v[i], i < 2 ? 1 : 0,
				(unsigned long) (i < 2 ? UINT32_MAX :
					LONG_MAX));
	}
	if (next_tok(r, &pos, &t))
		return bad(r, t.col, "bad size line: unexpected '%.*s' after "
			"'rows columns entries'", quote_len(&t), t.s);
	m->rows = v[0];
	m->cols = v[1];
	m->nnz = v[2];
	return check_size(r, m);
}

/* One 1-based index token of an entry, checked against [1, bound]. */
static dse_stat mtx_index(struct reader *r, size_t *pos, const char *what,
	int64_t bound, uint32_t *out)
{
	struct tok t;
	int64_t x;

	if (!next_tok(r, pos, &t))
		return bad(r, end_col(r), "missing %s index", what);
	if (parse_int(r, &t, what, &x) < 0)
		return dse_stat_error;
	if (x < 0)
		return bad(r, t.col, "negative %s index %lld", what,
			(long long) x);
	if (x < 1 || x > bound)
		return bad(r, t.col, "%s index %lld out of range: the size "
			"line gives %lld %ss (1-based)", what, (long long) x,
			(long long) bound, what);
	*out = (uint32_t) (x - 1);
	return dse_stat_ok;
}

/* One entry line "row col [value]" into one or two edges. */
static dse_stat mtx_entry(struct reader *r, const struct mtx *m,
	struct edges *e)
{
	size_t pos = 0;
	uint32_t row, col;
	double value = 1.0;
	struct tok t;

	if (mtx_index(r, &pos, "row", m->rows, &row) < 0 ||
	    mtx_index(r, &pos, "column", m->cols, &col) < 0)
		return dse_stat_error;
	if (m->field != MTX_PATTERN) {
		int64_t iv;

		if (!next_tok(r, &pos, &t))
			return bad(r, end_col(r), "missing value (the header "
				"says %s)", m->field == MTX_REAL ? "real" :
				"integer");
		if (m->field == MTX_INTEGER) {
			if (parse_int(r, &t, "value", &iv) < 0)
				return dse_stat_error;
			value = (double) iv;
		} else if (parse_real(r, &t, "value", &value) < 0) {
			return dse_stat_error;
		}
		e->any_weight = 1;
	}
	if (next_tok(r, &pos, &t))
		return bad(r, t.col, "unexpected '%.*s' after the entry",
			quote_len(&t), t.s);
	if (edges_push(e, row, col, (float) value, r->err) < 0)
		return dse_stat_error;
	if (m->symmetric && row != col &&
	    edges_push(e, col, row, (float) value, r->err) < 0)
		return dse_stat_error;
	return dse_stat_ok;
}

static dse_stat mtx_entries(struct reader *r, const struct mtx *m,
	struct edges *e)
{
	int64_t found = 0;
	int k;

	while ((k = next_data_line(r, '%')) > 0) {
		if (found == m->nnz)
			return bad(r, 0, "extra entries: the size line "
				"announces %lld", (long long) m->nnz);
		if (mtx_entry(r, m, e) < 0)
			return dse_stat_error;
		found++;
	}
	if (k < 0)
		return dse_stat_error;
	if (found < m->nnz)
		return bad(r, 0, "truncated: expected %lld entries, found %lld",
			(long long) m->nnz, (long long) found);
	return dse_stat_ok;
}

gnn_graph *gnn_graph_read_mtx(const char *path, dse_error *err)
{
	struct reader r;
	struct mtx m = { 0 };
	struct edges e = { 0 };
	int64_t want;

	if (open_reader(&r, path, err) < 0)
		return NULL;
	if (mtx_header(&r, &m) < 0 || mtx_size(&r, &m) < 0)
		goto fail;
	/* Reserve what the size line announces, up to a bound. */
	want = m.nnz * (m.symmetric ? 2 : 1);
	if (want > 0 && edges_grow(&e, want < FIRST_CAP ? want : FIRST_CAP,
			err) < 0)
		goto fail;
	if (mtx_entries(&r, &m, &e) < 0)
		goto fail;
	close_reader(&r);
	return finish(&e, m.rows > m.cols ? m.rows : m.cols, path, err);
fail:
	close_reader(&r);
	edges_release(&e);
	return NULL;
}

/* --- edge lists -------------------------------------------------------- */

/* One 0-based vertex token. */
static dse_stat list_vertex(struct reader *r, const struct tok *t,
	const char *what, uint32_t *out)
{
	int64_t x;

	if (parse_int(r, t, what, &x) < 0)
		return dse_stat_error;
	if (x < 0)
		return bad(r, t->col, "negative %s vertex %lld", what,
			(long long) x);
	if (x >= (int64_t) UINT32_MAX)
		return bad(r, t->col, "%s vertex %lld out of range: at most "
			"%lu", what, (long long) x,
			(unsigned long) UINT32_MAX - 1);
	*out = (uint32_t) x;
	return dse_stat_ok;
}

/* One line "src dst [weight]"; *nv_line gets the line of the largest
 * vertex so far, where a graph too large to build is reported.
 */
static dse_stat list_entry(struct reader *r, struct edges *e, int64_t *nv,
	int *nv_line)
{
	size_t pos = 0;
	uint32_t s = 0, d = 0;
	double w = 1.0;
	struct tok t;

	next_tok(r, &pos, &t);
	if (list_vertex(r, &t, "source", &s) < 0)
		return dse_stat_error;
	if (!next_tok(r, &pos, &t))
		return bad(r, end_col(r), "missing destination vertex "
			"(expected 'src dst [weight]')");
	if (list_vertex(r, &t, "destination", &d) < 0)
		return dse_stat_error;
	if (next_tok(r, &pos, &t)) {
		if (parse_real(r, &t, "weight", &w) < 0)
			return dse_stat_error;
		e->any_weight = 1;
		if (next_tok(r, &pos, &t))
			return bad(r, t.col, "unexpected '%.*s' after the "
				"weight (expected 'src dst [weight]')",
				quote_len(&t), t.s);
	}
	if ((int64_t) s + 1 > *nv || (int64_t) d + 1 > *nv) {
		*nv = (int64_t) (s > d ? s : d) + 1;
		*nv_line = r->lineno;
	}
	return edges_push(e, s, d, (float) w, r->err);
}

gnn_graph *gnn_graph_read_edges(const char *path, dse_error *err)
{
	struct reader r;
	struct edges e = { 0 };
	int64_t nv = 0;
	int k, nv_line = 0;

	if (open_reader(&r, path, err) < 0)
		return NULL;
	while ((k = next_data_line(&r, '#')) > 0)
		if (list_entry(&r, &e, &nv, &nv_line) < 0)
			goto fail;
	if (k < 0)
		goto fail;
	if (e.n == 0) {
		bad(&r, 0, "no edges: the file has no 'src dst' line");
		goto fail;
	}
	r.lineno = nv_line;
	if (check_memory(&r, 1, nv, e.n, "the largest vertex number makes") <
			0)
		goto fail;
	close_reader(&r);
	return finish(&e, nv, path, err);
fail:
	close_reader(&r);
	edges_release(&e);
	return NULL;
}

gnn_graph *gnn_graph_read(const char *path, dse_error *err)
{
	size_t n = path ? strlen(path) : 0;

	if (n >= 4 && !strcasecmp(path + n - 4, ".mtx"))
		return gnn_graph_read_mtx(path, err);
	return gnn_graph_read_edges(path, err);
}
