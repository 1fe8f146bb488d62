/* Reading a C file with libclang: the translation unit, the compiler's
 * errors, the "#pragma scop" regions and the statements inside them, and
 * the small cursor helpers the other files share.
 *
 * The pragmas are found in the file's tokens (so a pragma in a comment or
 * in an #if 0 block does not count), the region's statements in the
 * syntax tree: the children of the one block that holds both pragmas.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <isl/ctx.h>
#include <isl/options.h>

#include "cfront/internal.h"

/* isl operations the model of one scop may take: a kernel needs a few
 * thousand; a hostile one stops here instead of running for hours.
 */
#define MAX_ISL_OPERATIONS 20000000UL
#define MAX_SCOPS 16
#define MAX_ARGS (4 + CFRONT_MAX_DEFINES + CFRONT_MAX_INCLUDES)
/* Statements directly inside one scop. */
#define MAX_TOP 256

/* One "#pragma scop" ... "#pragma endscop" region of the main file. */
struct scop {
	unsigned begin, end;		/* offsets of the two pragmas */
	int line, col;			/* of "#pragma scop" */
	char function[POLY_NAME_LEN];
};

dse_stat cf__refuse(struct cf_walk *w, CXCursor c, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	int line = 0, col = 0;
	va_list ap;

	if (w->failed)
		return dse_stat_error;
	cf__position(c, &line, &col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w->failed = 1;
	return dse_error_set_at(w->err, w->opts->file, line, col, NULL, "%s",
		msg);
}

dse_stat cf__isl_error(struct cf_walk *w, const char *what)
{
	const char *msg = isl_ctx_last_error_msg(w->ctx);

	if (w->failed)
		return dse_stat_error;
	w->failed = 1;
	if (isl_ctx_last_error(w->ctx) == isl_error_quota)
		return dse_error_set_at(w->err, w->opts->file, 0, 0, NULL,
			"building the model of this scop exceeded its bound "
			"of %lu isl operations (while %s); simplify the loop "
			"bounds and conditions", MAX_ISL_OPERATIONS, what);
	if (isl_ctx_last_error(w->ctx) == isl_error_alloc)
		return dse_error_set(w->err, DSE_E_NOMEM,
			"out of memory while %s", what);
	return dse_error_set(w->err, DSE_E_ISL, "isl failed while %s: %s",
		what, msg ? msg : "unknown error");
}

struct children {
	CXCursor *out;
	int max, n;
};

static enum CXChildVisitResult add_child(CXCursor c, CXCursor parent,
	CXClientData data)
{
	struct children *ch = data;

	(void) parent;
	if (ch->n < ch->max)
		ch->out[ch->n] = c;
	ch->n++;
	return CXChildVisit_Continue;
}

int cf__children(CXCursor c, CXCursor *out, int max)
{
	struct children ch = { out, max, 0 };

	clang_visitChildren(c, add_child, &ch);
	return ch.n;
}

CXCursor cf__peel(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		CXCursor child;

		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
			return c;
		if (cf__children(c, &child, 1) != 1)
			return c;
		c = child;
	}
}

void cf__position(CXCursor c, int *line, int *col)
{
	CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
	unsigned l = 0, k = 0;

	clang_getExpansionLocation(loc, NULL, &l, &k, NULL);
	*line = (int) l;
	*col = (int) k;
}

void cf__offsets(CXCursor c, unsigned *begin, unsigned *end)
{
	CXSourceRange r = clang_getCursorExtent(c);

	clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL,
		begin);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL,
		end);
}

void cf__name(CXCursor c, char *buf, size_t size)
{
	CXString s = clang_getCursorSpelling(c);
	const char *t = clang_getCString(s);

	snprintf(buf, size, "%s", t ? t : "");
	clang_disposeString(s);
}

/* Whether a space belongs between tokens a and b in quoted C text. */
static int spaced(const char *a, const char *b)
{
	if (!strcmp(b, "[") || !strcmp(b, "]") || !strcmp(b, ")") ||
	    !strcmp(b, ",") || !strcmp(b, ";") || !strcmp(a, "[") ||
	    !strcmp(a, "(") || !strcmp(a, "!") || !strcmp(b, "++") ||
	    !strcmp(b, "--"))
		return 0;
	if (!strcmp(b, "(") && (a[0] == '_' || (a[0] >= 'a' && a[0] <= 'z') ||
	    (a[0] >= 'A' && a[0] <= 'Z')))
		return 0;
	return 1;
}

void cf__text(struct cf_walk *w, CXCursor c, char *buf, size_t size)
{
	unsigned begin = 0, end = 0, n = 0;
	CXToken *tok = NULL;
	CXSourceRange r;
	size_t len = 0;
	char prev[64] = "";

	buf[0] = '\0';
	cf__offsets(c, &begin, &end);
	if (end <= begin)
		return;
	r = clang_getRange(clang_getLocationForOffset(w->tu, w->main_file,
		begin), clang_getLocationForOffset(w->tu, w->main_file, end));
	clang_tokenize(w->tu, r, &tok, &n);
	for (unsigned i = 0; i < n && len + 1 < size; i++) {
		CXString s = clang_getTokenSpelling(w->tu, tok[i]);
		const char *t = clang_getCString(s);
		int k;

		t = t ? t : "";
		k = snprintf(buf + len, size - len, "%s%s",
			i && spaced(prev, t) ? " " : "", t);
		len = k > 0 && len + (size_t) k < size ? len + (size_t) k :
			size - 1;
		snprintf(prev, sizeof(prev), "%s", t);
		clang_disposeString(s);
	}
	if (len + 1 >= size && size > 4)
		strcpy(buf + size - 4, "...");
	clang_disposeTokens(w->tu, tok, n);
}

const struct cf_expansion *cf__macro_of(struct cf_walk *w, CXCursor c)
{
	unsigned begin, end;
	int lo = 0, hi = w->n_exp;

	cf__offsets(c, &begin, &end);
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (w->exp[mid].begin < begin)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < w->n_exp && w->exp[lo].begin == begin &&
	    w->exp[lo].object_like && (end == w->exp[lo].end || end == begin))
		return &w->exp[lo];
	return NULL;
}

/* --- the translation unit ------------------------------------------------ */

/* The arguments clang gets: C (GNU dialect, as HLS tools accept), no
 * warnings (only errors stop a kernel), then the caller's -D and -I.
 */
static int make_args(const cfront_opts *o, char **args, dse_error *err)
{
	int n = 0;

	args[n++] = strdup("-xc");
	args[n++] = strdup("-std=gnu11");
	args[n++] = strdup("-w");
	args[n++] = strdup("-ferror-limit=4");
	for (int i = 0; i < o->n_defines && i < CFRONT_MAX_DEFINES; i++) {
		size_t len = strlen(o->define[i]) + 3;

		if ((args[n] = malloc(len)))
			snprintf(args[n], len, "-D%s", o->define[i]);
		n++;
	}
	for (int i = 0; i < o->n_includes && i < CFRONT_MAX_INCLUDES; i++) {
		size_t len = strlen(o->include[i]) + 3;

		if ((args[n] = malloc(len)))
			snprintf(args[n], len, "-I%s", o->include[i]);
		n++;
	}
	for (int i = 0; i < n; i++)
		if (!args[i]) {
			dse_error_set(err, DSE_E_NOMEM, "out of memory");
			return -1;
		}
	return n;
}

/* The first error clang reports, as ours.  Returns dse_stat_ok when
 * there is none.
 */
static dse_stat first_error(CXTranslationUnit tu, const cfront_opts *o,
	dse_error *err)
{
	unsigned n = clang_getNumDiagnostics(tu);

	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		CXString msg, name;
		CXFile file = NULL;
		unsigned line = 0, col = 0;
		const char *fname;
		dse_stat st;

		if (sev < CXDiagnostic_Error) {
			clang_disposeDiagnostic(d);
			continue;
		}
		clang_getExpansionLocation(clang_getDiagnosticLocation(d),
			&file, &line, &col, NULL);
		msg = clang_getDiagnosticSpelling(d);
		name = clang_getFileName(file);
		fname = clang_getCString(name);
		st = dse_error_set_at(err, fname && fname[0] ? fname : o->file,
			(int) line, (int) col, NULL, "%s",
			clang_getCString(msg));
		clang_disposeString(msg);
		clang_disposeString(name);
		clang_disposeDiagnostic(d);
		return st;
	}
	return dse_stat_ok;
}

/* Collects the macro expansions of the main file. */
static enum CXChildVisitResult add_expansion(CXCursor c, CXCursor parent,
	CXClientData data)
{
	struct cf_walk *w = data;
	struct cf_expansion *e;
	CXCursor def;
	CXFile f = NULL;

	(void) parent;
	if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
		return CXChildVisit_Continue;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(
		c)), &f, NULL, NULL, NULL);
	if (!f || !clang_File_isEqual(f, w->main_file))
		return CXChildVisit_Continue;
	if (w->n_exp % 64 == 0) {
		struct cf_expansion *grown = realloc(w->exp,
			(size_t) (w->n_exp + 64) * sizeof(*grown));

		if (!grown)
			return CXChildVisit_Break;
		w->exp = grown;
	}
	e = &w->exp[w->n_exp++];
	cf__offsets(c, &e->begin, &e->end);
	cf__name(c, e->name, sizeof(e->name));
	def = clang_getCursorReferenced(c);
	/* A macro from the command line has no definition cursor; its
	 * expansion is then its name alone exactly when it is object-like.
	 */
	if (clang_getCursorKind(def) == CXCursor_MacroDefinition)
		e->object_like = !clang_Cursor_isMacroFunctionLike(def);
	else
		e->object_like = e->end - e->begin == strlen(e->name);
	return CXChildVisit_Continue;
}

static int by_begin(const void *a, const void *b)
{
	const struct cf_expansion *x = a, *y = b;

	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Whether offset "at" lies in a block the preprocessor skipped. */
static int skipped(CXSourceRangeList *list, unsigned at)
{
	for (unsigned i = 0; list && i < list->count; i++) {
		unsigned b, e;

		clang_getExpansionLocation(clang_getRangeStart(
			list->ranges[i]), NULL, NULL, NULL, &b);
		clang_getExpansionLocation(clang_getRangeEnd(list->ranges[i]),
			NULL, NULL, NULL, &e);
		if (at >= b && at <= e)
			return 1;
	}
	return 0;
}

/* Whether tokens i, i+1, i+2 are "# pragma <word>" at the start of a line;
 * the kind found is returned (1 scop, 2 endscop, 0 neither).
 */
static int pragma_at(CXTranslationUnit tu, CXToken *tok, unsigned n,
	unsigned i)
{
	unsigned line[3], prev = 0;
	const char *want[2] = { "#", "pragma" };
	int kind = 0;

	if (i + 2 >= n)
		return 0;
	for (int k = 0; k < 3; k++)
		clang_getExpansionLocation(clang_getTokenLocation(tu,
			tok[i + k]), NULL, &line[k], NULL, NULL);
	if (i > 0)
		clang_getExpansionLocation(clang_getTokenLocation(tu,
			tok[i - 1]), NULL, &prev, NULL, NULL);
	if ((i > 0 && prev == line[0]) || line[1] != line[0] ||
	    line[2] != line[0])
		return 0;
	for (int k = 0; k < 3; k++) {
		CXString s = clang_getTokenSpelling(tu, tok[i + k]);
		const char *t = clang_getCString(s);

		if (k < 2 && (!t || strcmp(t, want[k])))
			kind = -1;
		else if (k == 2 && kind == 0)
			kind = t && !strcmp(t, "scop") ? 1 :
				t && !strcmp(t, "endscop") ? 2 : -1;
		clang_disposeString(s);
	}
	return kind > 0 ? kind : 0;
}

/* The error for a pragma at token t. */
static dse_stat pragma_error(CXTranslationUnit tu, CXToken t,
	const cfront_opts *o, dse_error *err, const char *msg)
{
	unsigned line = 0, col = 0;

	clang_getExpansionLocation(clang_getTokenLocation(tu, t), NULL,
		&line, &col, NULL);
	return dse_error_set_at(err, o->file, (int) line, (int) col, NULL,
		"%s", msg);
}

/* Finds the scop regions of the main file, in order. */
static int find_scops(CXTranslationUnit tu, CXFile file,
	const cfront_opts *o, struct scop *s, dse_error *err)
{
	size_t size = 0;
	CXSourceRange all;
	CXSourceRangeList *skip;
	CXToken *tok = NULL;
	unsigned n = 0;
	int n_scops = 0, open = 0;
	dse_stat st = dse_stat_ok;

	clang_getFileContents(tu, file, &size);
	all = clang_getRange(clang_getLocationForOffset(tu, file, 0),
		clang_getLocationForOffset(tu, file, (unsigned) size));
	clang_tokenize(tu, all, &tok, &n);
	skip = clang_getSkippedRanges(tu, file);
	for (unsigned i = 0; i < n && st == dse_stat_ok; i++) {
		int kind = pragma_at(tu, tok, n, i);
		unsigned at, line, col;

		if (!kind)
			continue;
		clang_getExpansionLocation(clang_getTokenLocation(tu, tok[i]),
			NULL, &line, &col, &at);
		if (skipped(skip, at))
			continue;
		if (kind == 1 && open)
			st = pragma_error(tu, tok[i], o, err, "#pragma scop "
				"inside a scop: the previous one has no "
				"#pragma endscop");
		else if (kind == 1 && n_scops == MAX_SCOPS)
			st = pragma_error(tu, tok[i], o, err, "more than 16 "
				"scops in one file");
		else if (kind == 2 && !open)
			st = pragma_error(tu, tok[i], o, err, "#pragma "
				"endscop without a #pragma scop before it");
		else if (kind == 1) {
			s[n_scops].begin = at;
			s[n_scops].line = (int) line;
			s[n_scops].col = (int) col;
			s[n_scops].function[0] = '\0';
			open = 1;
		} else {
			s[n_scops++].end = at;
			open = 0;
		}
	}
	if (st == dse_stat_ok && open)
		st = dse_error_set_at(err, o->file, s[n_scops].line,
			s[n_scops].col, NULL, "#pragma scop without a "
			"#pragma endscop after it");
	clang_disposeSourceRangeList(skip);
	clang_disposeTokens(tu, tok, n);
	return st == dse_stat_ok ? n_scops : -1;
}

/* Names the function that holds each scop. */
static enum CXChildVisitResult name_functions(CXCursor c, CXCursor parent,
	CXClientData data)
{
	struct scop *s = data;
	unsigned b, e;

	(void) parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl ||
	    !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	cf__offsets(c, &b, &e);
	for (; s->end; s++)
		if (s->begin > b && s->end < e)
			cf__name(c, s->function, sizeof(s->function));
	return CXChildVisit_Continue;
}

/* Picks the scop the caller asked for. */
static int pick_scop(const struct scop *s, int n, const cfront_opts *o,
	dse_error *err)
{
	const poly_source *src = o->scop[0] ? &o->scop_src : &o->src;
	char list[256] = "";
	size_t len = 0;
	char *end;
	long k;

	if (n == 0)
		return dse_error_set_at(err, src->file ? src->file : o->file,
			src->line, src->col, src->key, "%s has no #pragma scop: "
			"put the loop nest to analyse between #pragma scop and "
			"#pragma endscop", o->file), -1;
	for (int i = 0; i < n && len < sizeof(list); i++)
		len += (size_t) snprintf(list + len, sizeof(list) - len,
			"%s%d (line %d%s%s)", i ? ", " : "", i + 1, s[i].line,
			s[i].function[0] ? ", in " : "", s[i].function);
	if (!o->scop[0] && n == 1)
		return 0;
	if (!o->scop[0])
		return dse_error_set_at(err, src->file ? src->file : o->file,
			src->line, src->col, src->key, "%s has %d scops: say "
			"which with scop = <number or function> (%s)", o->file,
			n, list), -1;
	k = strtol(o->scop, &end, 10);
	if (!*end && k >= 1 && k <= n)
		return (int) k - 1;
	for (int i = 0; *end && i < n; i++)
		if (!strcmp(s[i].function, o->scop))
			return i;
	return dse_error_set_at(err, src->file ? src->file : o->file,
		src->line, src->col, src->key, "%s has no scop '%s'; its scops "
		"are: %s", o->file, o->scop, list), -1;
}

/* Finds the statements of the region [begin, end] under c: the children
 * of the block that holds both pragmas.
 */
static int locate(struct cf_walk *w, CXCursor c, unsigned begin,
	unsigned end, CXCursor *out, int depth)
{
	CXCursor ch[MAX_TOP];
	int n = cf__children(c, ch, MAX_TOP), k = 0;

	if (depth > CF_MAX_NEST)
		return cf__refuse(w, c, "the scop is nested too deeply"), -1;
	for (int i = 0; i < n && i < MAX_TOP; i++) {
		unsigned b, e;

		cf__offsets(ch[i], &b, &e);
		if (b < begin && e > end)
			return locate(w, ch[i], begin, end, out, depth + 1);
	}
	if (clang_getCursorKind(c) != CXCursor_CompoundStmt)
		return cf__refuse(w, c, "#pragma scop and #pragma endscop must "
			"stand in the same block, between statements"), -1;
	if (n > MAX_TOP)
		return cf__refuse(w, c, "more than %d statements in one "
			"block", MAX_TOP), -1;
	for (int i = 0; i < n; i++) {
		unsigned b, e;

		cf__offsets(ch[i], &b, &e);
		if (e <= begin || b >= end)
			continue;
		if (b < begin || e > end)
			return cf__refuse(w, ch[i], "this statement is cut by "
				"#pragma %s: a scop holds whole statements",
				b < begin ? "scop" : "endscop"), -1;
		out[k++] = ch[i];
	}
	return k;
}

/* The function definition whose body holds offset "at". */
struct holder {
	unsigned at;
	CXCursor fn;
	int found;
};

static enum CXChildVisitResult find_holder(CXCursor c, CXCursor parent,
	CXClientData data)
{
	struct holder *h = data;
	unsigned b, e;

	(void) parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl ||
	    !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	cf__offsets(c, &b, &e);
	if (h->at > b && h->at < e) {
		h->fn = c;
		h->found = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* Finds the function holding scop s and the statements of s. */
static int scop_statements(struct cf_walk *w, const struct scop *s,
	CXCursor *out)
{
	struct holder h = { s->begin, clang_getNullCursor(), 0 };
	int n;

	clang_visitChildren(clang_getTranslationUnitCursor(w->tu),
		find_holder, &h);
	if (!h.found) {
		w->failed = 1;
		return dse_error_set_at(w->err, w->opts->file, s->line, s->col,
			NULL, "#pragma scop must stand inside a function "
			"body"), -1;
	}
	snprintf(w->function, sizeof(w->function), "%s", s->function);
	n = locate(w, h.fn, s->begin, s->end, out, 0);
	if (n == 0) {
		w->failed = 1;
		return dse_error_set_at(w->err, w->opts->file, s->line, s->col,
			NULL, "the scop holds no statement"), -1;
	}
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Checks that the file can be read before libclang says less clearly. */
static dse_stat check_file(const cfront_opts *o, dse_error *err)
{
	const poly_source *s = &o->src;
	FILE *f;

	if (o->text)
		return dse_stat_ok;
	f = fopen(o->file, "r");
	if (!f)
		return dse_error_set_at(err, s->file ? s->file : o->file,
			s->line, s->col, s->key, "cannot read the C kernel "
			"'%s': %s", o->file, strerror(errno));
	fclose(f);
	return dse_stat_ok;
}

/* Parses the file; returns the translation unit or NULL with err set. */
static CXTranslationUnit parse(CXIndex idx, const cfront_opts *o,
	dse_error *err)
{
	char *args[MAX_ARGS] = { NULL };
	struct CXUnsavedFile unsaved;
	CXTranslationUnit tu = NULL;
	enum CXErrorCode code;
	int n = make_args(o, args, err);

	unsaved.Filename = o->file;
	unsaved.Contents = o->text;
	unsaved.Length = (unsigned long) o->text_len;
	if (n >= 0) {
		code = clang_parseTranslationUnit2(idx, o->file,
			(const char *const *) args, n, o->text ? &unsaved :
			NULL, o->text ? 1 : 0,
			CXTranslationUnit_DetailedPreprocessingRecord, &tu);
		if (code != CXError_Success || !tu) {
			dse_error_set_at(err, o->file, 0, 0, NULL, "libclang "
				"could not parse the file (error %d)",
				(int) code);
			tu = NULL;
		} else if (first_error(tu, o, err) != dse_stat_ok) {
			clang_disposeTranslationUnit(tu);
			tu = NULL;
		}
	}
	for (int i = 0; i < MAX_ARGS; i++)
		free(args[i]);
	return tu;
}

/* Walks the chosen scop of the parsed file and assembles the kernel. */
static cfront_kernel *read_tu(struct cf_walk *w)
{
	struct scop s[MAX_SCOPS + 1];
	CXCursor stmts[MAX_TOP];
	int n, pick;

	memset(s, 0, sizeof(s));
	w->main_file = clang_getFile(w->tu, w->opts->file);
	if (!w->main_file) {
		dse_error_set_at(w->err, w->opts->file, 0, 0, NULL,
			"libclang lost the file");
		return NULL;
	}
	clang_visitChildren(clang_getTranslationUnitCursor(w->tu),
		add_expansion, w);
	if (w->n_exp > 1)
		qsort(w->exp, (size_t) w->n_exp, sizeof(*w->exp), by_begin);
	n = find_scops(w->tu, w->main_file, w->opts, s, w->err);
	if (n < 0)
		return NULL;
	clang_visitChildren(clang_getTranslationUnitCursor(w->tu),
		name_functions, s);
	pick = pick_scop(s, n, w->opts, w->err);
	if (pick < 0)
		return NULL;
	w->scop_line = s[pick].line;
	w->scop_col = s[pick].col;
	n = scop_statements(w, &s[pick], stmts);
	if (n < 0 || cf__walk_scop(w, stmts, n) != dse_stat_ok)
		return NULL;
	return cf__assemble(w);
}

cfront_kernel *cfront_read(const cfront_opts *opts, dse_error *err)
{
	cfront_opts o;
	struct cf_walk *w;
	cfront_kernel *k = NULL;
	CXIndex idx;
	double t0 = now();

	if (!opts || !opts->file) {
		dse_error_set(err, DSE_E_RUNTIME, "no C file given");
		return NULL;
	}
	o = *opts;
	o.scop = o.scop ? o.scop : "";
	if (check_file(&o, err) != dse_stat_ok || !cfront__clang_load(err))
		return NULL;
	w = calloc(1, sizeof(*w));
	idx = clang_createIndex(0, 0);
	if (!w || !idx) {
		free(w);
		if (idx)
			clang_disposeIndex(idx);
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	w->opts = &o;
	w->err = err;
	w->tu = parse(idx, &o, err);
	w->ctx = w->tu ? isl_ctx_alloc() : NULL;
	if (w->ctx) {
		isl_options_set_on_error(w->ctx, ISL_ON_ERROR_CONTINUE);
		isl_ctx_set_max_operations(w->ctx, MAX_ISL_OPERATIONS);
		k = read_tu(w);
	} else if (w->tu) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	for (int i = 0; i < POLY_MAX_STMTS; i++) {
		isl_set_free(w->stmt[i].domain);
		isl_union_map_free(w->stmt[i].reads);
		isl_union_map_free(w->stmt[i].writes);
	}
	isl_set_free(w->dom);
	if (w->ctx)
		isl_ctx_free(w->ctx);
	if (w->tu)
		clang_disposeTranslationUnit(w->tu);
	clang_disposeIndex(idx);
	free(w->exp);
	free(w);
	if (k)
		cf__set_seconds(k, now() - t0);
	return k;
}
