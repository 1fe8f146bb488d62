/* cfront: kernels written in C, read the way AutoSA's users write them.
 *
 * The region between "#pragma scop" and "#pragma endscop" of a C file is
 * parsed with libclang, so the preprocessor, #include, #ifdef, typedefs
 * and the compiler's diagnostics are those of a real C compiler.  The
 * polyhedral model of that region is then built directly as isl objects,
 * the way pet does: one statement per assignment, its iteration domain
 * from the enclosing for loops and if conditions, its accesses from the
 * array subscripts, and the program order as a schedule.  What is handed
 * on is the form polyhedral/ already takes (poly_kernel_desc: isl strings
 * and parameter values), so a C kernel and its isl twin are analysed by
 * the same code.
 *
 * The subset: for loops with affine bounds (which may depend on outer
 * loops) and a unit step, affine if conditions, assignments "=", "+=",
 * "-=", "*=", "/=" to array elements, affine subscripts (a subscript that
 * reads memory, as an edge list's index does, becomes a may-access over
 * the dimension's declared size), object-like macros and const integers
 * as named parameters, integer variables whose values the caller gives
 * as parameters, scalars as constants (never I/O arrays), and arrays
 * declared inside the scop as on-chip temporaries.  Anything else is
 * refused at its file:line:col with what is not affine and why.
 *
 * Each call makes and frees its own libclang index and isl_ctx, so the
 * functions are safe to call from several threads.  Nothing here prints.
 */
#ifndef CFRONT_CFRONT_H
#define CFRONT_CFRONT_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "polyhedral/poly.h"

#define CFRONT_MAX_DEFINES 32
#define CFRONT_MAX_INCLUDES 16

/* What to read and how.  Only "file" is required. */
typedef struct cfront_opts {
	const char *file;	/* the C file, as messages name it */
	/* The file's contents when the caller already has them (tests and
	 * the fuzzer); NULL: read "file" from disk.
	 */
	const char *text;
	size_t text_len;
	/* Preprocessor definitions "N=1024" or "LAYOUT2", as -D takes. */
	int n_defines;
	const char *define[CFRONT_MAX_DEFINES];
	/* Folders searched by #include, as -I takes. */
	int n_includes;
	const char *include[CFRONT_MAX_INCLUDES];
	/* Which scop of a file that has several: NULL or "" for the only
	 * one, "2" for the second, or the name of the function holding it.
	 */
	const char *scop;
	/* Values of integer variables (function arguments such as "int n")
	 * that bound loops; macros and const integers carry their own.
	 */
	int n_params;
	const char *param_name[POLY_MAX_PARAMS];
	int64_t param_value[POLY_MAX_PARAMS];
	/* Where the caller's settings came from (the config keys), for the
	 * errors that are about them rather than about the C text: an
	 * unreadable file or a scop that does not exist (src), an unknown
	 * variable value (params_src).  Any field may be empty.
	 */
	poly_source src, scop_src, params_src;
} cfront_opts;

typedef struct cfront_kernel cfront_kernel;

/* Reads the scop of opts->file.  Returns the kernel, which the caller
 * frees with cfront_free, or NULL with err set: DSE_E_INPUT at the C
 * file's line and column for what the C text does wrong (a compiler
 * error, a construct outside the subset), at opts->src for a file that
 * cannot be read or holds no such scop.
 */
cfront_kernel *cfront_read(const cfront_opts *opts, dse_error *err);
cfront_kernel *cfront_free(cfront_kernel *k);

/* Fills the kernel part of "desc" (the isl strings, the parameters, the
 * statements' operations and positions, the on-chip arrays) from k,
 * leaving the fields a config sets (name, reduction, ops, max_space)
 * untouched.  The strings stay owned by k, which must outlive desc.
 */
void cfront_fill_desc(const cfront_kernel *k, poly_kernel_desc *desc);

/* The data type dse models for the kernel's I/O arrays ("fp32", "fp16",
 * "int32", "int16", "int8"), or NULL when the arrays disagree or have a
 * type dse does not model; cfront_type_note then says which arrays and
 * where, for the caller's message.
 */
const char *cfront_dtype(const cfront_kernel *k);
const char *cfront_type_note(const cfront_kernel *k);
/* The declaration of the array the note names (0, 0 when none). */
void cfront_type_where(const cfront_kernel *k, int *line, int *col);

/* The C file, as opts->file named it. */
const char *cfront_file(const cfront_kernel *k);

/* The function that holds the scop ("" at file scope). */
const char *cfront_function(const cfront_kernel *k);

/* Statements in program order: their names ("S0", ...), their text as
 * written ("C[i][j] += A[i][k] * B[k][j]") and position.
 */
int cfront_n_statements(const cfront_kernel *k);
const char *cfront_statement_text(const cfront_kernel *k, int i);

/* Seconds the reading took, libclang's parse included. */
double cfront_seconds(const cfront_kernel *k);

#endif
