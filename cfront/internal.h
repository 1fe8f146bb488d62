/* cfront: declarations shared by the files of the C reader only.
 *
 * tu.c parses the file with libclang and finds the scop; walk.c walks its
 * statements, building each one's domain, schedule position and accesses;
 * expr.c turns C expressions into isl affine functions and sets; model.c
 * assembles the statements into the strings polyhedral/ takes.  libclang
 * and isl objects never leave this folder.
 */
#ifndef CFRONT_INTERNAL_H
#define CFRONT_INTERNAL_H

#include <stdint.h>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/union_map.h>

#include "cfront/cfront.h"
#include "cfront/clang.h"

#define CF_MAX_ARRAYS 32
/* Blocks and if statements inside one another, and the depth of one
 * expression: far beyond any kernel, low enough that the recursive walks
 * cannot exhaust the stack on hostile input.
 */
#define CF_MAX_NEST 64
#define CF_MAX_EXPR_DEPTH 200
#define CF_FILE_LEN 1024
#define CF_NOTE_LEN 256

/* The element types the reader knows (enum order matters to nobody). */
enum cf_type {
	CF_T_OTHER = 0, CF_T_FLOAT, CF_T_HALF, CF_T_SHORT, CF_T_CHAR,
	CF_T_INT, CF_T_DOUBLE
};

/* An array the scop accesses. */
struct cf_array {
	char name[POLY_NAME_LEN];
	CXCursor decl;
	int rank;
	int64_t size[POLY_MAX_ARRAY_DIMS];	/* -1: not declared */
	enum cf_type type;
	char type_name[48];			/* as declared, e.g. "data_t" */
	int local;				/* declared inside the scop */
	int read, written;
	int data;		/* read or written outside subscripts */
	int line, col;				/* of the declaration */
};

/* A named parameter: an object-like macro, a const integer, or an
 * integer variable whose value the caller gave.
 */
struct cf_param {
	char name[POLY_NAME_LEN];
	int64_t value;
	int macro;
};

/* An enclosing for loop. */
struct cf_loop {
	CXCursor var;
	char name[POLY_NAME_LEN];
	int step;				/* +1 or -1 */
};

/* One statement (assignment) of the scop. */
struct cf_stmt {
	char name[8];				/* "S0", "S1", ... */
	int depth;
	int step[POLY_MAX_LOOPS];
	int pos[POLY_MAX_LOOPS + 1];		/* place in each block */
	isl_set *domain;			/* named S<n>[loops] */
	isl_union_map *reads, *writes;
	int ops;
	int line, col;
	char text[POLY_TEXT_LEN];
};

/* A macro expansion in the main file: where its name stands. */
struct cf_expansion {
	unsigned begin, end;			/* file offsets */
	char name[POLY_NAME_LEN];
	int object_like;
};

/* Everything the walk over one scop needs. */
struct cf_walk {
	CXTranslationUnit tu;
	CXFile main_file;
	isl_ctx *ctx;
	const cfront_opts *opts;
	dse_error *err;
	int failed;			/* err holds a refusal already */

	struct cf_expansion *exp;	/* sorted by begin */
	int n_exp;

	struct cf_array array[CF_MAX_ARRAYS];
	int n_arrays;
	struct cf_param param[POLY_MAX_PARAMS];
	int n_params;

	struct cf_loop loop[POLY_MAX_LOOPS];
	int depth;
	int counter[POLY_MAX_LOOPS + 1];	/* next place in each block */
	int pos[POLY_MAX_LOOPS + 1];
	isl_set *dom;			/* the current domain, depth dims */
	int nest;			/* blocks and ifs entered */
	int in_subscript;		/* reading an index array */
	int expr_depth;

	struct cf_stmt stmt[POLY_MAX_STMTS];
	int n_stmts;
	struct cf_stmt *cur;		/* the statement being read */

	char function[POLY_NAME_LEN];
	int scop_line, scop_col;	/* of "#pragma scop" */
	const char *what;		/* the expression being read */
};

/* --- tu.c --------------------------------------------------------------- */

/* A refusal of the C text at cursor c's position (the expansion site of
 * a macro, where the user wrote it).  Sets w->failed; returns
 * dse_stat_error.
 */
dse_stat cf__refuse(struct cf_walk *w, CXCursor c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An isl failure while building "what" (an exceeded operation bound is
 * said as such).  Returns dse_stat_error.
 */
dse_stat cf__isl_error(struct cf_walk *w, const char *what);

/* The direct children of c, at most max; returns their number (which
 * may exceed max: only max are stored).
 */
int cf__children(CXCursor c, CXCursor *out, int max);

/* c with implicit casts and parentheses peeled off. */
CXCursor cf__peel(CXCursor c);

/* The source text of c as written, tokens joined ("A[i][k] * B[k][j]"),
 * shortened with "..." when it does not fit.
 */
void cf__text(struct cf_walk *w, CXCursor c, char *buf, size_t size);

/* The line and column where c starts, in the main file. */
void cf__position(CXCursor c, int *line, int *col);

/* File offsets of c's first and last character (macro expansion sites). */
void cf__offsets(CXCursor c, unsigned *begin, unsigned *end);

/* The object-like macro whose expansion c is exactly, or NULL. */
const struct cf_expansion *cf__macro_of(struct cf_walk *w, CXCursor c);

/* c's name (a cursor spelling) into buf. */
void cf__name(CXCursor c, char *buf, size_t size);

/* --- expr.c ------------------------------------------------------------- */

/* The integer expression c as an affine function of the enclosing loop
 * iterators and the parameters, over the space of w->dom.  "what" names
 * the expression's role in a refusal ("the upper bound of loop 'j'").
 * Returns NULL after a refusal (or an isl failure) recorded in w->err.
 */
__isl_give isl_pw_aff *cf__aff(struct cf_walk *w, CXCursor c, const char *what);

/* The condition c as a set over the space of w->dom, or NULL as above. */
__isl_give isl_set *cf__cond(struct cf_walk *w, CXCursor c, const char *what);

/* Whether pa is one integer constant, stored in *v. */
int cf__cst_value(__isl_keep isl_pw_aff *pa, int64_t *v);

/* Whether the expression c reads memory (an array element or a pointer
 * target) anywhere inside.
 */
int cf__reads_memory(CXCursor c);

/* The loop iterator that c names, as an index into w->loop, or -1. */
int cf__loop_of(struct cf_walk *w, CXCursor decl);

/* Records (or finds) parameter "name" with "value"; -1 when the same
 * name had another value or the table is full (w->err set at c).
 */
int cf__param(struct cf_walk *w, CXCursor c, const char *name,
	int64_t value, int macro);

/* --- walk.c ------------------------------------------------------------- */

/* Walks the statements of the scop (cursors first..first+n-1 of one
 * block), filling w->stmt and w->array.
 */
dse_stat cf__walk_scop(struct cf_walk *w, const CXCursor *stmts, int n);

/* The element type of an array or scalar type, and its rank. */
enum cf_type cf__element(CXType t, int *rank, int64_t *size, char *name,
	size_t name_size);

/* --- model.c ------------------------------------------------------------ */

/* Builds the kernel's strings from the walk.  Takes nothing. */
cfront_kernel *cf__assemble(struct cf_walk *w);
void cf__set_seconds(cfront_kernel *k, double s);

#endif
