/* Fuzz target: the results-file reader of results/res.h, as "dse tune
 * --from" uses it.
 *
 * The input is written to a scratch .h5 file; res_reader_open opens it,
 * the root attributes a results file carries are read (strings, integers,
 * numbers), the checkpoint state "dse --resume" reads, then the shape of
 * the table /x/front and every one of its columns.  Seeds are small results files of sweeps whose kernel or
 * workload is named "x".  Any input must be read or refused, never crash
 * or leak.  Tables of more than MAX_ROWS rows are not read: a corrupt
 * header can claim any number, and the buffer is the caller's.
 *
 * After every input as many HDF5 objects must be open as before it: a
 * file, dataset or attribute the reader forgot to close shows there (HDF5's own allocations are not checked for
 * leaks: the library loses some on corrupt files, see fuzz/lsan.supp).
 *
 * HDF5 itself is not built with the fuzzer's instrumentation, so mutations
 * are guided by what results/ does with the file only; a crash inside the
 * library is still caught (and reported with its stack).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "fuzz/fuzz_util.h"
#include "results/res.h"

#define MAX_ROWS 65536
#define TABLE "/x/front"
#define STATE "/checkpoint/state"

/* The string attributes read ("seed", an integer, is also read as a
 * string below, which must be refused).
 */
static const char *const strings[] = { "config", "config_file", "kernel",
	"family", "board" };
#define N_STRINGS ((int) (sizeof(strings) / sizeof(strings[0])))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every string attribute is read, variable-length ones too: the reader
 * refuses those before HDF5 reads them (reading a damaged one looped
 * forever inside HDF5 1.10.8, docs/developer/fuzzing.md).
 */
static void read_attributes(res_reader *r)
{
	dse_error err;
	int64_t i64;
	double f64;
	int i;

	for (i = 0; i < N_STRINGS; i++) {
		dse_error_clear(&err);
		free(res_read_attr_string(r, strings[i], &err));
	}
	dse_error_clear(&err);
	res_read_attr_i64(r, "seed", &i64, &err);
	dse_error_clear(&err);
	res_read_attr_f64(r, "wall_time", &f64, &err);
	/* The wrong type must be refused, not converted. */
	dse_error_clear(&err);
	res_read_attr_i64(r, "complete", &i64, &err);
	dse_error_clear(&err);
	free(res_read_attr_string(r, "seed", &err));
	dse_error_clear(&err);
	res_read_attr_i64(r, "config", &i64, &err);
}

static void read_columns(res_reader *r, size_t rows, int ncols)
{
	int i;

	for (i = 0; i < ncols; i++) {
		enum res_type type;
		dse_error err;
		char *name;
		void *buf;

		dse_error_clear(&err);
		name = res_read_column_name(r, TABLE, i, &type, &err);
		if (!name)
			continue;
		buf = calloc(rows ? rows : 1, type == RES_STR ? RES_STR_LEN :
			8);
		if (buf) {
			dse_error_clear(&err);
			if (res_read_column(r, TABLE, name, buf, &err) ==
			    dse_stat_ok && type == RES_STR && rows &&
			    ((char *) buf)[RES_STR_LEN - 1] != '\0')
				abort();
		}
		free(buf);
		free(name);
	}
}

/* The checkpoint state, as "dse --resume" reads it: present or not, and
 * its bytes read whole or refused with an error.
 */
static void read_state(res_reader *r)
{
	dse_error err;
	void *bytes = NULL;
	size_t n = 0;

	if (!res_reader_has(r, STATE))
		return;
	dse_error_clear(&err);
	if (res_read_bytes(r, STATE, &bytes, &n, &err) != dse_stat_ok &&
	    !err.msg[0])
		abort();
	free(bytes);
}

/* The HDF5 objects open in any file: files, groups, datasets, named
 * datatypes and attributes.  (Transient datatypes and dataspaces are not
 * counted: HDF5 refuses to count library types from outside.)
 */
static hsize_t open_ids(void)
{
	ssize_t n = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);

	return n < 0 ? 0 : (hsize_t) n;
}

/* Every object the reader opened is closed again. */
static void check_closed(hsize_t before)
{
	hsize_t after = open_ids();

	if (after != before) {
		fprintf(stderr, "fuzz_results: %llu HDF5 objects open before "
			"the input, %llu after\n", (unsigned long long) before,
			(unsigned long long) after);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[512];
	res_reader *r;
	dse_error err;
	size_t rows = 0;
	hsize_t before;
	int ncols = 0;

	if (fuzz_write_file(data, size, ".h5", path, sizeof(path)) < 0)
		return 0;
	before = open_ids();
	dse_error_clear(&err);
	/* The reader first, so that files it refuses before HDF5 reads them
	 * (the old format without checksums) reach HDF5 nowhere.
	 */
	r = res_reader_open(path, &err);
	/* HDF5 keeps the file open; the name is no longer needed. */
	unlink(path);
	if (!r) {
		if (err.code == DSE_E_NONE || !err.msg[0])
			abort();
		check_closed(before);
		return 0;
	}
	read_attributes(r);
	read_state(r);
	dse_error_clear(&err);
	if (res_read_table_shape(r, TABLE, &rows, &ncols, &err) ==
	    dse_stat_ok && rows <= MAX_ROWS)
		read_columns(r, rows, ncols);
	res_reader_close(r);
	check_closed(before);
	return 0;
}
