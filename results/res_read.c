/* results: reading back a finished results file.
 *
 * Every call looks its attribute or table up again by name; a reader
 * keeps only the open file, so nothing goes stale between calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/res.h"
#include "results/res_h5.h"

struct res_reader {
	hid_t fid;
	char *path;
};

/* dse writes the HDF5 1.10 file format (superblock version 3), in which
 * every object header, B-tree and chunk index carries a checksum, so HDF5
 * notices damage there before it decodes anything (the global heap of
 * variable-length strings has none in any format; dse writes none).  Older formats (superblock version 0 or 1,
 * which h5py and most tools write by default, and version 2, the 1.8
 * format, whose chunk indexes have no checksums) do not, and HDF5 1.10.8
 * reads damaged metadata of such files past its buffers or loops on it
 * (docs/developer/fuzzing.md), so those files are refused before HDF5 reads them.
 * A file that does not start with HDF5's signature is left to H5Fopen,
 * which says what it found.
 */
static dse_stat check_format(const char *path, dse_error *err)
{
	static const unsigned char signature[8] = { 0x89, 'H', 'D', 'F',
		'\r', '\n', 0x1a, '\n' };
	unsigned char head[9];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head), f) : 0;

	if (f)
		fclose(f);
	if (n < sizeof(head) || memcmp(head, signature, sizeof(signature)) ||
	    head[8] >= 3)
		return dse_stat_ok;
	return dse_error_set(err, DSE_E_INPUT, "'%s' is in an HDF5 file "
		"format before 1.10 (superblock version %d), whose metadata "
		"is not all checksummed; dse reads only the format it writes "
		"(h5repack --low=2 --high=2 IN OUT rewrites a file in it)",
		path, head[8]);
}

/* Whether the first MiB of "path" holds HDF5 metadata ("OHDR" object
 * headers, "TREE" or "BTHD" B-tree nodes, "HEAP" or "FRHP" heaps), which
 * a file whose signature is gone still has: then it was an HDF5 file and
 * is damaged, not something else.
 */
static int has_hdf5_metadata(const char *path)
{
	static const char *const tags[] = { "OHDR", "TREE", "BTHD", "HEAP",
		"FRHP" };
	FILE *f = fopen(path, "rb");
	char *buf = malloc((size_t) 1 << 20);
	size_t n = f && buf ? fread(buf, 1, (size_t) 1 << 20, f) : 0;
	int found = 0;

	for (size_t i = 0; i + 4 <= n && !found; i++)
		for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++)
			found |= !memcmp(buf + i, tags[t], 4);
	free(buf);
	if (f)
		fclose(f);
	return found;
}

/* The open failed: a file that HDF5 cannot open is bad input (status 2),
 * and the message says which of the two it is, an HDF5 file that is
 * damaged (truncated, a checksum that fails, its signature overwritten)
 * or a file that is no HDF5 file at all.
 */
static void open_failed(const char *path, dse_error *err)
{
	static const unsigned char signature[8] = { 0x89, 'H', 'D', 'F',
		'\r', '\n', 0x1a, '\n' };
	char msg[DSE_ERROR_MSG_LEN], head[8];
	FILE *f;
	size_t n = 0;

	if (!err || err->code == DSE_E_NOMEM)
		return;
	f = fopen(path, "rb");
	if (!f) {
		dse_error_set(err, DSE_E_INPUT, "cannot open results file "
			"'%s': %s", path, strerror(errno));
		return;
	}
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	snprintf(msg, sizeof(msg), "%s", err->msg);
	if (n == sizeof(head) && !memcmp(head, signature, sizeof(head)))
		dse_error_set(err, DSE_E_INPUT, "%s: the HDF5 file is damaged",
			msg);
	else if (has_hdf5_metadata(path))
		dse_error_set(err, DSE_E_INPUT, "%s: the file holds HDF5 "
			"metadata but its superblock is gone: it is damaged",
			msg);
	else
		dse_error_set(err, DSE_E_INPUT, "'%s' is not a dse results "
			"file: it is not an HDF5 file (%s)", path, msg);
}

res_reader *res_reader_open(const char *path, dse_error *err)
{
	struct res_quiet q;
	res_reader *r;
	size_t n;

	if (!path || !path[0]) {
		dse_error_set(err, DSE_E_RUNTIME,
			"results file name is empty");
		return NULL;
	}
	n = strlen(path) + 1;
	r = calloc(1, sizeof(*r));
	if (r)
		r->path = malloc(n);
	if (!r || !r->path) {
		free(r);
		dse_error_nomem(err, "a results file reader",
			(double) sizeof(*r) + n);
		return NULL;
	}
	memcpy(r->path, path, n);
	if (check_format(path, err)) {
		free(r->path);
		free(r);
		return NULL;
	}
	res__quiet_begin(&q);
	r->fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	if (r->fid < 0) {
		res__h5_fail(err, "cannot open results file '%s'", path);
		open_failed(path, err);
	}
	res__quiet_end(&q);
	if (r->fid < 0) {
		free(r->path);
		free(r);
		return NULL;
	}
	return r;
}

res_reader *res_reader_close(res_reader *r)
{
	struct res_quiet q;

	if (!r)
		return NULL;
	/* The file was only read, so a failing close loses nothing. */
	res__quiet_begin(&q);
	(void) H5Fclose(r->fid);
	res__quiet_end(&q);
	free(r->path);
	free(r);
	return NULL;
}

/* What a reader cannot find or read in a file that HDF5 opened says
 * something about the file, not about dse: a missing attribute or table,
 * one of another type, a checksum that fails.  Such an error becomes an
 * input error (status 2) that says so; running out of memory stays what
 * it is.
 */
static dse_stat damaged(const res_reader *r, dse_stat st, dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];

	if (st == dse_stat_ok || !err || err->code != DSE_E_HDF5)
		return st;
	snprintf(msg, sizeof(msg), "%s", err->msg);
	return dse_error_set(err, DSE_E_INPUT, "%s (the file '%s' is damaged "
		"or is not a dse results file)", msg, r->path);
}

static dse_stat check_reader(res_reader *r, const char *name,
	const char *what, dse_error *err)
{
	if (!r)
		return dse_error_set(err, DSE_E_RUNTIME,
			"results file is not open");
	if (!name || !name[0])
		return dse_error_set(err, DSE_E_RUNTIME, "%s name is empty in "
			"'%s'", what, r->path);
	return dse_stat_ok;
}

/* Opens root attribute "name" after checking that it exists, holds one
 * value, and is of class "want" ("kind" says which, for the message).
 * On success *type is the attribute's stored type, to close by the caller.
 */
static hid_t open_attr(res_reader *r, const char *name, H5T_class_t want,
	const char *kind, hid_t *type, dse_error *err)
{
	htri_t ex = H5Aexists(r->fid, name);
	hid_t attr, space = H5I_INVALID_HID;
	hssize_t npoints = -1;

	*type = H5I_INVALID_HID;
	if (ex <= 0) {
		if (ex < 0)
			res__h5_fail(err, "cannot look up attribute '%s' in "
				"'%s'", name, r->path);
		else
			dse_error_set(err, DSE_E_HDF5, "no attribute '%s' in "
				"'%s'", name, r->path);
		return -1;
	}
	attr = H5Aopen(r->fid, name, H5P_DEFAULT);
	if (attr >= 0)
		*type = H5Aget_type(attr);
	if (*type >= 0)
		space = H5Aget_space(attr);
	if (space >= 0)
		npoints = H5Sget_simple_extent_npoints(space);
	if (npoints < 0 || H5Tget_class(*type) < 0) {
		res__h5_fail(err, "cannot read attribute '%s' in '%s'", name,
			r->path);
	} else if (H5Tget_class(*type) != want || npoints != 1) {
		dse_error_set(err, DSE_E_HDF5, "attribute '%s' in '%s' is not "
			"%s", name, r->path, kind);
	} else if (H5Sclose(space) < 0) {
		res__h5_fail(err, "cannot read attribute '%s' in '%s'", name,
			r->path);
		space = H5I_INVALID_HID;
	} else {
		return attr;
	}
	if (space >= 0)
		H5Sclose(space);
	if (*type >= 0)
		H5Tclose(*type);
	if (attr >= 0)
		H5Aclose(attr);
	*type = H5I_INVALID_HID;
	return -1;
}

static dse_stat read_number(res_reader *r, const char *name,
	H5T_class_t want, const char *kind, hid_t mtype, void *out,
	dse_error *err)
{
	struct res_quiet q;
	hid_t attr, type;
	dse_stat st = dse_stat_ok;

	if (check_reader(r, name, "attribute", err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	attr = open_attr(r, name, want, kind, &type, err);
	if (attr < 0)
		st = dse_stat_error;
	else if (H5Aread(attr, mtype, out) < 0)
		st = res__h5_fail(err, "cannot read attribute '%s' in '%s'",
			name, r->path);
	st = res__close(type, st, "a datatype", err);
	st = res__close(attr, st, "an attribute", err);
	res__quiet_end(&q);
	st = damaged(r, st, err);
	return st;
}

dse_stat res_read_attr_i64(res_reader *r, const char *name, int64_t *out,
	dse_error *err)
{
	return read_number(r, name, H5T_INTEGER, "an integer",
		H5T_NATIVE_INT64, out, err);
}

dse_stat res_read_attr_f64(res_reader *r, const char *name, double *out,
	dse_error *err)
{
	return read_number(r, name, H5T_FLOAT, "a floating-point number",
		H5T_NATIVE_DOUBLE, out, err);
}

/* Reads a fixed-length string attribute into a new, NUL-terminated
 * buffer one byte longer than the stored string, so a string stored
 * without a terminator (padded with NULs, or exactly full) comes back
 * whole.
 */
static char *read_fixed_string(hid_t attr, hid_t type, const char *name,
	const char *path, dse_error *err)
{
	size_t size = H5Tget_size(type);
	char *s;

	if (size == 0) {
		res__h5_fail(err, "cannot read attribute '%s' in '%s'", name,
			path);
		return NULL;
	}
	s = calloc(size + 1, 1);
	if (!s) {
		dse_error_nomem(err, "a string attribute", (double) size + 1);
		return NULL;
	}
	if (H5Aread(attr, type, s) < 0) {
		res__h5_fail(err, "cannot read attribute '%s' in '%s'", name,
			path);
		free(s);
		return NULL;
	}
	return s;
}

char *res_read_attr_string(res_reader *r, const char *name, dse_error *err)
{
	struct res_quiet q;
	hid_t attr, type;
	htri_t vlen = -1;
	char *s = NULL;
	dse_stat st;

	if (check_reader(r, name, "attribute", err) < 0)
		return NULL;
	res__quiet_begin(&q);
	attr = open_attr(r, name, H5T_STRING, "a string", &type, err);
	if (attr >= 0) {
		vlen = H5Tis_variable_str(type);
		if (vlen < 0)
			res__h5_fail(err, "cannot read attribute '%s' in '%s'",
				name, r->path);
	}
	/* A variable-length string lives in the file's global heap, which
	 * has no checksum in any HDF5 format: HDF5 1.10.8 loops forever or
	 * reads past its buffers on a damaged one.  dse never writes such
	 * strings (h5py does, when it rewrites an attribute), so the file
	 * is refused before HDF5 reads the string.
	 */
	if (vlen > 0)
		dse_error_set(err, DSE_E_INPUT, "attribute '%s' of '%s' is a "
			"variable-length string, which dse never writes: "
			"another tool rewrote it (h5py does), and dse reads only "
			"the strings it wrote; write it back as a fixed-length "
			"string (in h5py: f.attrs['%s'] = numpy.bytes_(value))",
			name, r->path, name);
	else if (vlen == 0)
		s = read_fixed_string(attr, type, name, r->path, err);
	st = s ? dse_stat_ok : dse_stat_error;
	st = res__close(type, st, "a datatype", err);
	st = res__close(attr, st, "an attribute", err);
	if (st != dse_stat_ok) {
		free(s);
		s = NULL;
	}
	res__quiet_end(&q);
	st = damaged(r, st, err);
	return s;
}

/* ---- tables ---- */

/* Opens table "path" with its stored row type, reporting a missing or
 * non-table object by name.
 */
static hid_t open_table(res_reader *r, const char *path, hid_t *type,
	dse_error *err)
{
	htri_t ex = res__path_exists(r->fid, path, r->path, err);
	hid_t dset;

	*type = H5I_INVALID_HID;
	if (ex == 0)
		dse_error_set(err, DSE_E_HDF5, "no table '%s' in '%s'", path,
			r->path);
	if (ex <= 0)
		return -1;
	dset = H5Oopen(r->fid, path, H5P_DEFAULT);
	if (dset < 0) {
		res__h5_fail(err, "cannot open table '%s' in '%s'", path,
			r->path);
		return -1;
	}
	if (H5Iget_type(dset) != H5I_DATASET) {
		dse_error_set(err, DSE_E_HDF5, "'%s' in '%s' is not a table",
			path, r->path);
		H5Oclose(dset);
		return -1;
	}
	*type = H5Dget_type(dset);
	if (*type < 0) {
		res__h5_fail(err, "cannot read the row type of '%s' in '%s'",
			path, r->path);
	} else if (H5Tget_class(*type) != H5T_COMPOUND) {
		dse_error_set(err, DSE_E_HDF5, "'%s' in '%s' is not a table",
			path, r->path);
		H5Tclose(*type);
		*type = H5I_INVALID_HID;
	} else {
		return dset;
	}
	H5Dclose(dset);
	return -1;
}

static dse_stat table_rows(hid_t dset, const char *path, const char *file,
	size_t *nrows, dse_error *err)
{
	hid_t space = H5Dget_space(dset);
	hsize_t dim = 0;
	int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
	dse_stat st = dse_stat_ok;

	if (rank < 0)
		st = res__h5_fail(err, "cannot read the shape of '%s' in '%s'",
			path, file);
	else if (rank != 1)
		st = dse_error_set(err, DSE_E_HDF5, "table '%s' in '%s' is not "
			"one-dimensional", path, file);
	else if (H5Sget_simple_extent_dims(space, &dim, NULL) < 0)
		st = res__h5_fail(err, "cannot read the shape of '%s' in '%s'",
			path, file);
	*nrows = dim;
	return res__close(space, st, "a dataspace", err);
}

dse_stat res_read_table_shape(res_reader *r, const char *path, size_t *nrows,
	int *ncols, dse_error *err)
{
	struct res_quiet q;
	hid_t dset, type;
	size_t n = 0;
	int m = -1;
	dse_stat st;

	if (check_reader(r, path, "table", err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	dset = open_table(r, path, &type, err);
	st = dset < 0 ? dse_stat_error : dse_stat_ok;
	if (st == dse_stat_ok)
		st = table_rows(dset, path, r->path, &n, err);
	if (st == dse_stat_ok) {
		m = H5Tget_nmembers(type);
		if (m < 0)
			st = res__h5_fail(err, "cannot count the columns of "
				"'%s' in '%s'", path, r->path);
	}
	st = res__close(type, st, "a datatype", err);
	st = res__close(dset, st, "a table", err);
	res__quiet_end(&q);
	st = damaged(r, st, err);
	if (st == dse_stat_ok) {
		if (nrows)
			*nrows = n;
		if (ncols)
			*ncols = m;
	}
	return st;
}

/* Refuses a string column of variable length: its strings live in the
 * global heap, which no checksum covers (see res_read_attr_string).
 */
static dse_stat vlen_member(hid_t type, unsigned i, const char *path,
	const char *file, dse_error *err)
{
	hid_t m = H5Tget_member_type(type, i);
	htri_t v = m >= 0 ? H5Tis_variable_str(m) : -1;

	if (m >= 0)
		H5Tclose(m);
	if (v < 0)
		return res__h5_fail(err, "cannot read column %u of '%s' in "
			"'%s'", i, path, file);
	if (v > 0)
		return dse_error_set(err, DSE_E_INPUT, "column %u of '%s' in "
			"'%s' holds variable-length strings, which dse never "
			"writes: another tool rewrote the table, and dse reads "
			"only the strings it wrote", i, path, file);
	return dse_stat_ok;
}

/* Maps a stored column's class to ours; anything else is an error. */
static dse_stat column_type(hid_t type, unsigned i, const char *path,
	const char *file, enum res_type *out, dse_error *err)
{
	switch (H5Tget_member_class(type, i)) {
	case H5T_INTEGER:
		*out = RES_I64;
		return dse_stat_ok;
	case H5T_FLOAT:
		*out = RES_F64;
		return dse_stat_ok;
	case H5T_STRING:
		*out = RES_STR;
		return vlen_member(type, i, path, file, err);
	case H5T_NO_CLASS:
		return res__h5_fail(err, "cannot read column %u of '%s' in "
			"'%s'", i, path, file);
	default:
		return dse_error_set(err, DSE_E_HDF5, "column %u of '%s' in "
			"'%s' is not an integer, number or string", i, path,
			file);
	}
}

static char *member_name(hid_t type, int i, const char *path,
	const char *file, dse_error *err)
{
	char *h5 = H5Tget_member_name(type, i);
	char *s;
	size_t n;

	if (!h5) {
		res__h5_fail(err, "cannot read the name of column %d of '%s' "
			"in '%s'", i, path, file);
		return NULL;
	}
	n = strlen(h5) + 1;
	s = malloc(n);
	if (s)
		memcpy(s, h5, n);
	else
		dse_error_nomem(err, "a column name", (double) n);
	if (H5free_memory(h5) < 0 && s) {
		res__h5_fail(err, "cannot free the name of column %d of '%s'",
			i, path);
		free(s);
		s = NULL;
	}
	return s;
}

char *res_read_column_name(res_reader *r, const char *path, int i,
	enum res_type *type, dse_error *err)
{
	struct res_quiet q;
	hid_t dset, rtype;
	int m = -1;
	char *s = NULL;
	dse_stat st;

	if (check_reader(r, path, "table", err) < 0)
		return NULL;
	res__quiet_begin(&q);
	dset = open_table(r, path, &rtype, err);
	if (dset >= 0) {
		m = H5Tget_nmembers(rtype);
		if (m < 0)
			res__h5_fail(err, "cannot count the columns of '%s' in "
				"'%s'", path, r->path);
		else if (i < 0 || i >= m)
			dse_error_set(err, DSE_E_HDF5, "table '%s' in '%s' has "
				"no column %d (it has %d)", path, r->path, i,
				m);
	}
	st = m >= 0 && i >= 0 && i < m ? dse_stat_ok : dse_stat_error;
	if (st == dse_stat_ok && type)
		st = column_type(rtype, i, path, r->path, type, err);
	if (st == dse_stat_ok)
		s = member_name(rtype, i, path, r->path, err);
	st = s ? dse_stat_ok : dse_stat_error;
	st = res__close(rtype, st, "a datatype", err);
	st = res__close(dset, st, "a table", err);
	res__quiet_end(&q);
	st = damaged(r, st, err);
	if (st != dse_stat_ok) {
		free(s);
		return NULL;
	}
	return s;
}

/* A compound memory type with the single member "column", so H5Dread
 * fills "out" with that column alone, converted to our representation.
 */
static hid_t one_column_type(enum res_type t, const char *column)
{
	hid_t mtype, member, str = H5I_INVALID_HID;
	size_t size = t == RES_STR ? RES_STR_LEN : 8;

	if (t == RES_I64) {
		member = H5T_NATIVE_INT64;
	} else if (t == RES_F64) {
		member = H5T_NATIVE_DOUBLE;
	} else {
		str = res__string_type(RES_STR_LEN, H5T_STR_NULLTERM);
		if (str < 0)
			return -1;
		member = str;
	}
	mtype = H5Tcreate(H5T_COMPOUND, size);
	if (mtype >= 0 && H5Tinsert(mtype, column, 0, member) < 0) {
		H5Tclose(mtype);
		mtype = -1;
	}
	if (str >= 0 && H5Tclose(str) < 0 && mtype >= 0) {
		H5Tclose(mtype);
		mtype = -1;
	}
	return mtype;
}

/* HDF5 1.10.8 copies a compact or contiguous table's rows from the bytes
 * its layout message says are stored, without checking that they hold
 * that many rows; a damaged layout (or a file in which a header lost its
 * checksum) would have it read past its buffer.  dse's own tables are
 * chunked, but a rewritten file may hold either layout.
 */
static dse_stat check_storage(res_reader *r, hid_t dset, hid_t rtype,
	size_t nrows, const char *path, dse_error *err)
{
	hid_t dcpl = H5Dget_create_plist(dset);
	H5D_layout_t layout = dcpl < 0 ? H5D_LAYOUT_ERROR :
		H5Pget_layout(dcpl);
	size_t row = H5Tget_size(rtype);
	hsize_t stored = H5Dget_storage_size(dset);

	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (layout == H5D_LAYOUT_ERROR || row == 0)
		return res__h5_fail(err, "cannot read the layout of table '%s' "
			"in '%s'", path, r->path);
	if ((layout == H5D_COMPACT || (layout == H5D_CONTIGUOUS &&
			stored > 0)) && stored / row < nrows)
		return dse_error_set(err, DSE_E_HDF5, "table '%s' in '%s' is "
			"damaged: %llu rows of %zu bytes in %llu stored bytes",
			path, r->path, (unsigned long long) nrows, row,
			(unsigned long long) stored);
	return dse_stat_ok;
}

static dse_stat read_column(res_reader *r, hid_t dset, hid_t rtype,
	const char *path, const char *column, void *out, dse_error *err)
{
	int i = H5Tget_member_index(rtype, column);
	enum res_type t = RES_I64;	/* set by column_type */
	size_t nrows;
	hid_t mtype;
	dse_stat st;

	if (i < 0)
		return dse_error_set(err, DSE_E_HDF5, "no column '%s' in table "
			"'%s' in '%s'", column, path, r->path);
	if (column_type(rtype, i, path, r->path, &t, err) < 0 ||
	    table_rows(dset, path, r->path, &nrows, err) < 0)
		return dse_stat_error;
	if (nrows == 0)
		return dse_stat_ok;
	if (check_storage(r, dset, rtype, nrows, path, err) < 0)
		return dse_stat_error;
	mtype = one_column_type(t, column);
	if (mtype < 0)
		return res__h5_fail(err, "cannot make a type to read column "
			"'%s' of '%s'", column, path);
	st = dse_stat_ok;
	if (H5Dread(dset, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
		st = res__h5_fail(err, "cannot read column '%s' of table '%s' "
			"in '%s'", column, path, r->path);
	/* Conversion from a longer stored string already terminates each
	 * value, but a file written elsewhere may hold anything.
	 */
	if (st == dse_stat_ok && t == RES_STR)
		for (size_t k = 0; k < nrows; k++)
			((char *) out)[k * RES_STR_LEN + RES_STR_LEN - 1] = '\0';
	return res__close(mtype, st, "a datatype", err);
}

dse_stat res_read_column(res_reader *r, const char *path, const char *column,
	void *out, dse_error *err)
{
	struct res_quiet q;
	hid_t dset, rtype;
	dse_stat st;

	if (check_reader(r, path, "table", err) < 0 ||
	    check_reader(r, column, "column", err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	dset = open_table(r, path, &rtype, err);
	st = dset < 0 ? dse_stat_error : dse_stat_ok;
	if (st == dse_stat_ok)
		st = read_column(r, dset, rtype, path, column, out, err);
	st = res__close(rtype, st, "a datatype", err);
	st = res__close(dset, st, "a table", err);
	res__quiet_end(&q);
	st = damaged(r, st, err);
	return st;
}

/* ---- byte datasets ---- */

int res_reader_has(res_reader *r, const char *path)
{
	struct res_quiet q;
	dse_error err;
	htri_t ex;

	if (!r || !path || path[0] != '/')
		return 0;
	res__quiet_begin(&q);
	ex = res__path_exists(r->fid, path, r->path, &err);
	res__quiet_end(&q);
	return ex > 0;
}

int res_reader_has_attr(res_reader *r, const char *name)
{
	struct res_quiet q;
	htri_t ex;

	if (!r || !name || !name[0])
		return 0;
	res__quiet_begin(&q);
	ex = H5Aexists(r->fid, name);
	res__quiet_end(&q);
	return ex < 0 ? -1 : ex > 0;
}

/* Opens the byte dataset at "path" and returns its length in *n. */
static hid_t open_bytes(res_reader *r, const char *path, size_t *n,
	dse_error *err)
{
	htri_t ex = res__path_exists(r->fid, path, r->path, err);
	hid_t dset, type = H5I_INVALID_HID;
	dse_stat st = dse_stat_ok;

	if (ex == 0)
		dse_error_set(err, DSE_E_HDF5, "no dataset '%s' in '%s'", path,
			r->path);
	if (ex <= 0)
		return -1;
	dset = H5Oopen(r->fid, path, H5P_DEFAULT);
	if (dset < 0) {
		res__h5_fail(err, "cannot open '%s' in '%s'", path, r->path);
		return -1;
	}
	if (H5Iget_type(dset) != H5I_DATASET) {
		H5Oclose(dset);
		dse_error_set(err, DSE_E_HDF5, "'%s' in '%s' is not a dataset",
			path, r->path);
		return -1;
	}
	type = H5Dget_type(dset);
	if (type < 0)
		st = res__h5_fail(err, "cannot read the type of '%s' in '%s'",
			path, r->path);
	else if (H5Tget_class(type) != H5T_INTEGER || H5Tget_size(type) != 1)
		st = dse_error_set(err, DSE_E_HDF5, "'%s' in '%s' is not a "
			"byte dataset", path, r->path);
	st = res__close(type, st, "a datatype", err);
	if (st == dse_stat_ok)
		st = table_rows(dset, path, r->path, n, err);
	if (st != dse_stat_ok) {
		H5Dclose(dset);
		return -1;
	}
	return dset;
}

dse_stat res_read_bytes(res_reader *r, const char *path, void **data,
	size_t *n, dse_error *err)
{
	struct res_quiet q;
	hid_t dset;
	size_t len = 0;
	void *buf = NULL;
	dse_stat st = dse_stat_ok;

	*data = NULL;
	*n = 0;
	if (check_reader(r, path, "dataset", err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	dset = open_bytes(r, path, &len, err);
	if (dset < 0)
		st = dse_stat_error;
	if (st == dse_stat_ok) {
		buf = malloc(len ? len : 1);
		if (!buf)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory "
				"reading '%s' (%zu bytes)", path, len);
	}
	if (st == dse_stat_ok && len > 0 && H5Dread(dset, H5T_NATIVE_UINT8,
			H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
		st = res__h5_fail(err, "cannot read dataset '%s' in '%s'", path,
			r->path);
	st = res__close(dset, st, "a dataset", err);
	res__quiet_end(&q);
	st = damaged(r, st, err);
	if (st != dse_stat_ok) {
		free(buf);
		return st;
	}
	*data = buf;
	*n = len;
	return dse_stat_ok;
}
