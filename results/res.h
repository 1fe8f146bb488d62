/* results: the HDF5 results file.
 *
 * Only one process writes a results file (rank 0), holding the lock of
 * res_lock_take(); nothing here is collective.  A file is built in memory,
 * written under a temporary name next to its final one and renamed by
 * res_file_commit() only once it is complete, so a crash never leaves a
 * half-written file under the real name.
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

/* Called once by a program before any other res_ call: the HDF5 library
 * then skips its clean-up at exit, which after reading a damaged file
 * could not finish and printed "infinite loop closing library" and a page
 * of interface names.  Every file this module opens it closes itself, and
 * a results file is written and synced by res_file_commit, so the clean-up
 * had nothing left to do but free memory.
 */
void res_init(void);

/* Starts a results file for "path".  The file is built in memory and
 * only res_file_commit() writes it, to "<target>.tmp.<pid>" beside the
 * final name with checked write() and fsync() calls, then renames it over
 * that name: so a full disk or an I/O error reaches the caller as an
 * error, never inside HDF5.  "path" is resolved as res_path_resolve()
 * says (an input error when it names anything but a regular file).
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

/* Writes the file under its temporary name, makes it durable and renames
 * it to its final name.  Frees f whatever the outcome; on failure
 * (DSE_E_IO, naming the file and the system's reason) the temporary file
 * is removed and the final name keeps what it held.
 */
dse_stat res_file_commit(res_file *f, dse_error *err);

/* Closes and removes the temporary file.  Accepts NULL; returns NULL. */
res_file *res_file_abort(res_file *f);

/* ---- output paths and the one writer (res_path.c) ---- */

#define RES_PATH_LEN 4096

/* The file an output name writes, into "real" (of "size" bytes): "path"
 * itself, or, for a symbolic link, the file its chain of links names (the
 * link stays and its target is written).  Input errors (DSE_E_INPUT): an
 * empty name, one ending in '/', a target that exists and is not a
 * regular file (a directory, a device, a FIFO, a socket), more than 40
 * links.  Not collective.
 */
dse_stat res_path_resolve(const char *path, char *real, size_t size,
	dse_error *err);

/* Makes the folders above "path" that do not exist yet. */
dse_stat res_path_make_parent(const char *path, dse_error *err);

/* "<real>.tmp.<pid>", the name a file is written under before it is
 * renamed; -1 when it does not fit "size".
 */
int res_path_tmp(const char *real, char *tmp, size_t size);

/* Checks that a file can be created beside "real" (making its folders),
 * by creating and removing its temporary name, so that a sweep finds an
 * unwritable output before it starts rather than after.
 */
dse_stat res_path_probe(const char *real, dse_error *err);

/* An advisory lock, "<real>.lock", that one writer of "real" holds for
 * its whole run (flock, so it goes with the process however it ends).
 * A second writer is refused with an input error naming the holder's
 * process number and host.  res_lock_release removes the lock file.
 */
typedef struct res_lock res_lock;
res_lock *res_lock_take(const char *real, dse_error *err);
res_lock *res_lock_release(res_lock *l);

/* With "lock" held: removes the temporary files ("<real>.tmp.<pid>")
 * that writers killed before their rename left beside "real".  Returns
 * how many it removed.
 */
int res_path_sweep_stale(const res_lock *lock, const char *real);

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

/* Whether the file has root attribute "name": 1 or 0, or -1 when the
 * root's attributes cannot be searched (a damaged file).
 */
int res_reader_has_attr(res_reader *r, const char *name);

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
