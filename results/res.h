/* results: the HDF5 results file.
 *
 * Only one process writes a results file (rank 0); nothing here is
 * collective.  A file is created under a temporary name next to its final
 * one and renamed by res_file_commit() only once it is complete, so a crash
 * never leaves a half-written file under the real name.
 *
 * Tables are written as compound datasets with flat, named scalar columns
 * (64-bit integers, doubles, fixed-length strings), chunked and
 * deflate-compressed, each with a "units" attribute: an array of strings,
 * one per column, in column order.
 */
#ifndef RESULTS_RES_H
#define RESULTS_RES_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

#define RES_STR_LEN 320		/* fixed length of string columns, with NUL */

enum res_type {
	RES_I64,
	RES_F64,
	RES_STR
};

typedef struct res_column {
	const char *name;
	const char *unit;	/* "" when the column has no unit */
	enum res_type type;
	/* Column-major data, nrows entries: int64_t *, double *, or
	 * const char ** (strings longer than RES_STR_LEN-1 are cut).
	 */
	const void *data;
} res_column;

typedef struct res_file res_file;

/* Creates "path.tmp.<pid>" for writing, making the parent directory of
 * "path" if it does not exist.
 */
res_file *res_file_create(const char *path, dse_error *err);

/* Root attributes. */
dse_stat res_attr_string(res_file *f, const char *name, const char *value,
	dse_error *err);
dse_stat res_attr_i64(res_file *f, const char *name, int64_t value,
	dse_error *err);
dse_stat res_attr_f64(res_file *f, const char *name, double value,
	dse_error *err);

/* Writes a table at "path" (e.g. "/mm/front"), making its groups. */
dse_stat res_write_table(res_file *f, const char *path,
	const res_column *cols, int ncols, size_t nrows, dse_error *err);

/* Writes "n" bytes of "data" as a one-dimensional dataset of unsigned
 * 8-bit integers at "path" (e.g. "/checkpoint/state"), making its groups;
 * chunked, deflate-compressed and checksummed, with an attribute "size"
 * (the byte count).  An existing dataset there is replaced.
 */
dse_stat res_write_bytes(res_file *f, const char *path, const void *data,
	size_t n, dse_error *err);

/* A scalar attribute on the dataset or group at "path" (which must
 * exist), replacing one of the same name.
 */
dse_stat res_attr_string_at(res_file *f, const char *path, const char *name,
	const char *value, dse_error *err);
dse_stat res_attr_i64_at(res_file *f, const char *path, const char *name,
	int64_t value, dse_error *err);

/* Closes the file and renames it to its final name.  Frees f whatever the
 * outcome; on failure the temporary file is removed.
 */
dse_stat res_file_commit(res_file *f, dse_error *err);

/* Closes and removes the temporary file.  Accepts NULL; returns NULL. */
res_file *res_file_abort(res_file *f);

/* Reading back a finished file. */
typedef struct res_reader res_reader;
res_reader *res_reader_open(const char *path, dse_error *err);
res_reader *res_reader_close(res_reader *r);

/* Root attributes; each fails with an error naming the attribute when it
 * is missing or of another type.  res_read_attr_string returns a new string
 * the caller frees with free().
 */
dse_stat res_read_attr_i64(res_reader *r, const char *name, int64_t *out,
	dse_error *err);
dse_stat res_read_attr_f64(res_reader *r, const char *name, double *out,
	dse_error *err);
char *res_read_attr_string(res_reader *r, const char *name, dse_error *err);

/* Whether "path" names a dataset or group in the file: 1 or 0 (0 also
 * when the file cannot be searched).
 */
int res_reader_has(res_reader *r, const char *path);

/* Reads the byte dataset at "path" (as res_write_bytes writes it) into a
 * new buffer *data of *n bytes, which the caller frees with free().  A
 * missing dataset, one of another type or shape, or one that fails its
 * checksum is an error naming the path.
 */
dse_stat res_read_bytes(res_reader *r, const char *path, void **data,
	size_t *n, dse_error *err);

/* A table's shape and column names. */
dse_stat res_read_table_shape(res_reader *r, const char *path, size_t *nrows,
	int *ncols, dse_error *err);
/* Name of column i (a new string, caller frees) and its type. */
char *res_read_column_name(res_reader *r, const char *path, int i,
	enum res_type *type, dse_error *err);
/* One column into caller memory of nrows entries: int64_t, double, or
 * char[RES_STR_LEN] for strings.
 */
dse_stat res_read_column(res_reader *r, const char *path, const char *column,
	void *out, dse_error *err);

#endif
