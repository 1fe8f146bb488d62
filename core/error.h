/* Error values shared by every module.
 *
 * A dse_error is a small caller-owned value: a code that decides the exit
 * status, a message, and where it happened (a config position and key when
 * the error is about user input).  Library functions fill it and return
 * dse_stat_error or NULL; they never print.  It stands on the ground floor
 * (core/) because every module needs to report errors the same way.
 */
#ifndef DSE_ERROR_H
#define DSE_ERROR_H

#include <stddef.h>

typedef enum dse_stat {
	dse_stat_ok = 0,
	dse_stat_error = -1
} dse_stat;

enum dse_code {
	DSE_E_NONE = 0,
	DSE_E_INPUT,	/* bad user input: exit status 2 */
	DSE_E_RUNTIME,	/* anything else that stops the run: exit status 1 */
	DSE_E_NOMEM,
	DSE_E_IO,
	DSE_E_MPI,
	DSE_E_HDF5,
	DSE_E_ISL
};

#define DSE_ERROR_MSG_LEN 512
#define DSE_ERROR_FILE_LEN 256
#define DSE_ERROR_KEY_LEN 64

typedef struct dse_error {
	enum dse_code code;
	char msg[DSE_ERROR_MSG_LEN];
	char file[DSE_ERROR_FILE_LEN];	/* empty when not about a file */
	int line;			/* 1-based; 0 when unknown */
	int col;			/* 1-based; 0 when unknown */
	char key[DSE_ERROR_KEY_LEN];	/* empty when not about a key */
} dse_error;

/* Resets "err" to "no error".  Accepts NULL. */
void dse_error_clear(dse_error *err);

/* Records an error without a source position.  Accepts err == NULL (the
 * error is then dropped).  Returns dse_stat_error so callers can write
 * "return dse_error_set(...)".
 */
dse_stat dse_error_set(dse_error *err, enum dse_code code,
	const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Records an input error at file:line:col about "key" (key may be NULL). */
dse_stat dse_error_set_at(dse_error *err, const char *file, int line, int col,
	const char *key, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Formats the error as one line without a trailing newline:
 * "file:line:col: error: msg, key 'key'" when it has a position and a key,
 * "file:line:col: error: msg" with a position only, "error: msg" otherwise.
 */
void dse_error_format(const dse_error *err, char *buf, size_t size);

/* Records an out-of-memory error (DSE_E_NOMEM) that names what was being
 * built and how big it is: "out of memory: the edges of the graph (1.5
 * GiB)".  Returns dse_stat_error.
 */
dse_stat dse_error_nomem(dse_error *err, const char *what, double bytes);

/* "bytes" as a short human-readable size ("512 B", "1.5 GiB") in buf. */
void dse_format_bytes(double bytes, char *buf, size_t size);

/* What a file of stat mode "mode" is, for messages: "a regular file",
 * "a directory", "a FIFO (named pipe)", "a character device", ...
 */
const char *dse_file_kind(unsigned int mode);

/* The process exit status for this error: 2 for input errors, 1 otherwise,
 * 0 for no error.
 */
int dse_error_exit_status(const dse_error *err);

/* DSE_ASSERT(cond) states an invariant of the code, never a check of input
 * (input errors are dse_error values, and a bad design point is a status).
 * Builds without NDEBUG (Debug, RelWithDebInfo, the sanitizer build) stop
 * at the first broken invariant with its place; Release builds compile it
 * away, so it costs the hot path nothing.
 */
#ifdef NDEBUG
#define DSE_ASSERT(cond) ((void) 0)
#else
#define DSE_ASSERT(cond) ((cond) ? (void) 0 : \
	dse_assert_fail(#cond, __FILE__, __LINE__, __func__))
#endif

/* Prints "dse: internal error: file:line: func: 'cond' does not hold" to
 * stderr and aborts: a broken invariant is a defect of dse, and going on
 * could write a wrong result.  Called by DSE_ASSERT only.
 */
void dse_assert_fail(const char *cond, const char *file, int line,
	const char *func) __attribute__((noreturn));

#endif
