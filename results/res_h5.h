/* results: helpers shared by the writer (res.c) and the reader
 * (res_read.c).  Private to the results module.
 */
#ifndef RESULTS_RES_H5_H
#define RESULTS_RES_H5_H

#include <hdf5.h>

#include "core/error.h"

/* HDF5 prints its error stack to stderr by default, which library code
 * must never do.  Every public function of this module therefore turns
 * automatic printing off on entry and puts the caller's handler back on
 * exit, so a program that relies on HDF5's own reporting elsewhere keeps
 * it.  The error stack is still recorded and res__h5_fail() reads it.
 * The setting is HDF5's own (per process in the serial library), so, like
 * any use of a serial HDF5, these calls must not run from two threads at
 * once.
 */
struct res_quiet {
	H5E_auto2_t func;
	void *data;
	int saved;
};

void res__quiet_begin(struct res_quiet *q);
void res__quiet_end(const struct res_quiet *q);

/* Records a DSE_E_HDF5 error: the formatted message followed by the most
 * specific description on HDF5's error stack, when there is one.  Must be
 * called right after the failing HDF5 call, before any other HDF5 call
 * resets the stack.  Returns dse_stat_error.
 */
dse_stat res__h5_fail(dse_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Closes any kind of identifier this module creates; a negative id is
 * ignored.  When closing fails and "st" is still dse_stat_ok, records an
 * error about "what" and returns dse_stat_error; otherwise returns "st",
 * so an earlier error is never overwritten by a later one.
 */
dse_stat res__close(hid_t id, dse_stat st, const char *what, dse_error *err);

/* A new fixed-length C string type of "size" bytes (at least 1), padded
 * as "pad" says and marked UTF-8.  Returns a negative id on failure.
 */
hid_t res__string_type(size_t size, H5T_str_t pad);

/* Whether "path" names an existing link in "file" (whose name "fname" is
 * for messages), checking each of its prefixes in turn because HDF5 fails
 * rather than answering "no" when an intermediate group is missing.
 * Returns 1 or 0; on error, including a prefix that is not a group,
 * records it in err and returns a negative value.
 */
htri_t res__path_exists(hid_t file, const char *path, const char *fname,
	dse_error *err);

#endif
