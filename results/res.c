/* results: writing an HDF5 results file.
 *
 * Files are created with the HDF5 1.10 file format (libver bounds V110 to
 * V110), which every HDF5 reader since 1.10 (h5py, h5dump, pandas) opens.
 * In that format every object header, B-tree and heap of links and
 * attributes carries a checksum, the chunk indexes of chunked datasets
 * included (the 1.8 format still indexes
 * chunks with version 1 B-trees, which have none), so a damaged file is
 * refused by HDF5 instead of decoded (results/res_read.c relies on it).
 * Large attributes go to dense storage, so a config text longer than
 * 64 KiB still fits in a root attribute.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "results/res.h"
#include "results/res_h5.h"

/* Rows per chunk, and per write, of a table.  4096 rows of a few hundred
 * bytes keep chunks in the hundreds of KiB, where deflate works well and
 * reading one column does not pull in much more than it needs.
 */
#define CHUNK_ROWS 4096
#define DEFLATE_LEVEL 4

/* The in-memory image of a results file grows by this much at a time.
 * HDF5 clears each new piece of the image, and a checkpoint is a fresh
 * image: at 4 MiB, clearing (and faulting in) mostly unused memory made a
 * sweep that checkpoints every 0.2 s run at half speed; at 64 KiB a
 * checkpoint costs what writing through HDF5's file driver did (counted
 * with callgrind), and a large file grows by realloc, which the C library
 * does without copying.
 */
#define IMAGE_INCREMENT ((size_t) 64 << 10)

struct res_file {
	hid_t fid;
	char path[RES_PATH_LEN];	/* the file written: "-o" resolved */
	char tmp[RES_PATH_LEN + 32];	/* its name until the rename */
};

static res_file *file_free(res_file *f)
{
	free(f);
	return NULL;
}

/* The file lives in memory (HDF5's core driver, without a backing
 * store) until res_file_commit writes its image: HDF5 then never writes
 * to the disk itself, so a write that fails cannot leave HDF5 with a file
 * it can neither flush nor close, which on a full disk ended in a crash
 * inside HDF5's teardown at exit.
 */
static dse_stat open_image(res_file *f, dse_error *err)
{
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
	dse_stat st = dse_stat_ok;

	if (fapl < 0)
		return res__h5_fail(err, "cannot create results file '%s'",
			f->path);
	if (H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0 ||
	    H5Pset_fapl_core(fapl, IMAGE_INCREMENT, 0) < 0)
		st = res__h5_fail(err, "cannot create results file '%s'",
			f->path);
	if (st == dse_stat_ok) {
		f->fid = H5Fcreate(f->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
		if (f->fid < 0)
			st = res__h5_fail(err,
				"cannot create results file '%s'", f->path);
	}
	return res__close(fapl, st, "a file access property list", err);
}

res_file *res_file_create(const char *path, dse_error *err)
{
	struct res_quiet q;
	res_file *f = calloc(1, sizeof(*f));
	dse_stat st;

	if (!f) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory (a results "
			"file handle of %zu bytes)", sizeof(*f));
		return NULL;
	}
	f->fid = H5I_INVALID_HID;
	if (res_path_resolve(path, f->path, sizeof(f->path), err) < 0 ||
	    res_path_make_parent(f->path, err) < 0)
		return file_free(f);
	if (res_path_tmp(f->path, f->tmp, sizeof(f->tmp)) < 0) {
		dse_error_set(err, DSE_E_INPUT, "output file name '%.64s...' "
			"is too long", f->path);
		return file_free(f);
	}
	res__quiet_begin(&q);
	st = open_image(f, err);
	res__quiet_end(&q);
	if (st < 0)
		return file_free(f);
	return f;
}

/* Writes a scalar attribute of object "obj" (the file for a root
 * attribute), replacing one of the same name.
 */
static dse_stat write_attr_on(res_file *f, hid_t obj, const char *name,
	hid_t ftype, hid_t mtype, const void *buf, dse_error *err)
{
	hid_t space = H5I_INVALID_HID, attr = H5I_INVALID_HID;
	dse_stat st = dse_stat_error;
	htri_t ex = H5Aexists(obj, name);

	if (ex < 0) {
		res__h5_fail(err, "cannot look up attribute '%s' in '%s'",
			name, f->path);
		return dse_stat_error;
	}
	if (ex > 0 && H5Adelete(obj, name) < 0) {
		res__h5_fail(err, "cannot replace attribute '%s' in '%s'",
			name, f->path);
		return dse_stat_error;
	}
	space = H5Screate(H5S_SCALAR);
	if (space < 0)
		goto fail;
	attr = H5Acreate2(obj, name, ftype, space, H5P_DEFAULT,
		H5P_DEFAULT);
	if (attr < 0 || H5Awrite(attr, mtype, buf) < 0)
		goto fail;
	st = dse_stat_ok;
	goto out;
fail:
	res__h5_fail(err, "cannot write attribute '%s' in '%s'", name,
		f->path);
out:
	st = res__close(attr, st, "an attribute", err);
	return res__close(space, st, "a dataspace", err);
}

static dse_stat write_attr(res_file *f, const char *name, hid_t ftype,
	hid_t mtype, const void *buf, dse_error *err)
{
	return write_attr_on(f, f->fid, name, ftype, mtype, buf, err);
}

static dse_stat check_attr_args(res_file *f, const char *name,
	dse_error *err)
{
	if (!f || f->fid < 0)
		return dse_error_set(err, DSE_E_RUNTIME,
			"results file is not open");
	if (!name || !name[0])
		return dse_error_set(err, DSE_E_RUNTIME,
			"attribute name is empty in '%s'", f->path);
	return dse_stat_ok;
}

/* The string is stored in a type exactly as long as it is, padded with
 * NULs rather than terminated: that is what h5py and MATLAB read back as
 * the plain string.  An empty string needs one byte, since HDF5 has no
 * zero-sized string type.
 */
dse_stat res_attr_string(res_file *f, const char *name, const char *value,
	dse_error *err)
{
	struct res_quiet q;
	hid_t type;
	dse_stat st;
	const char *v = value ? value : "";
	size_t len = strlen(v);

	if (check_attr_args(f, name, err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	type = res__string_type(len, H5T_STR_NULLPAD);
	if (type < 0)
		st = res__h5_fail(err, "cannot make a string type for "
			"attribute '%s' in '%s'", name, f->path);
	else
		st = write_attr(f, name, type, type, v, err);
	st = res__close(type, st, "a string type", err);
	res__quiet_end(&q);
	return st;
}

dse_stat res_attr_i64(res_file *f, const char *name, int64_t value,
	dse_error *err)
{
	struct res_quiet q;
	dse_stat st;

	if (check_attr_args(f, name, err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	st = write_attr(f, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value,
		err);
	res__quiet_end(&q);
	return st;
}

dse_stat res_attr_f64(res_file *f, const char *name, double value,
	dse_error *err)
{
	struct res_quiet q;
	dse_stat st;

	if (check_attr_args(f, name, err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	st = write_attr(f, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value,
		err);
	res__quiet_end(&q);
	return st;
}

/* ---- tables ---- */

/* The in-memory and on-disk compound types of a table's rows, and where
 * each column sits in a packed row.
 */
struct row_layout {
	hid_t mtype;
	hid_t ftype;
	size_t *offset;
	size_t size;
};

static size_t column_size(enum res_type t)
{
	return t == RES_STR ? RES_STR_LEN : 8;
}

static dse_stat check_columns(const char *path, const res_column *cols,
	int ncols, size_t nrows, dse_error *err)
{
	if (!path || !path[0] || strcmp(path, "/") == 0)
		return dse_error_set(err, DSE_E_RUNTIME,
			"table path '%s' is not a dataset name",
			path ? path : "");
	if (ncols < 1 || !cols)
		return dse_error_set(err, DSE_E_RUNTIME,
			"table '%s' has no columns", path);
	for (int i = 0; i < ncols; i++) {
		const res_column *c = &cols[i];

		if (!c->name || !c->name[0])
			return dse_error_set(err, DSE_E_RUNTIME,
				"column %d of table '%s' has no name", i, path);
		if (c->type != RES_I64 && c->type != RES_F64 &&
		    c->type != RES_STR)
			return dse_error_set(err, DSE_E_RUNTIME,
				"column '%s' of table '%s' has an unknown type",
				c->name, path);
		if (nrows > 0 && !c->data)
			return dse_error_set(err, DSE_E_RUNTIME,
				"column '%s' of table '%s' has no data",
				c->name, path);
		for (int j = 0; j < i; j++)
			if (strcmp(cols[j].name, c->name) == 0)
				return dse_error_set(err, DSE_E_RUNTIME,
					"column '%s' appears twice in table "
					"'%s'", c->name, path);
	}
	return dse_stat_ok;
}

static void layout_free(struct row_layout *l)
{
	/* Only reached on paths that already failed or finished writing, so
	 * a failure to close a type has nothing left to spoil.
	 */
	if (l->mtype >= 0)
		H5Tclose(l->mtype);
	if (l->ftype >= 0)
		H5Tclose(l->ftype);
	free(l->offset);
}

static hid_t member_type(enum res_type t, int file, hid_t str)
{
	if (t == RES_I64)
		return file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
	if (t == RES_F64)
		return file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
	return str;
}

/* Builds both compound types with the same packed offsets: the file type
 * fixes little-endian storage, and HDF5 converts from the native memory
 * type when the two differ.
 */
static dse_stat layout_init(struct row_layout *l, const char *path,
	const res_column *cols, int ncols, dse_error *err)
{
	hid_t str;
	dse_stat st = dse_stat_ok;

	l->mtype = l->ftype = H5I_INVALID_HID;
	l->size = 0;
	l->offset = malloc(ncols * sizeof(*l->offset));
	if (!l->offset)
		return dse_error_nomem(err, "the column layout of a table",
			(double) ncols * sizeof(*l->offset));
	for (int i = 0; i < ncols; i++) {
		l->offset[i] = l->size;
		l->size += column_size(cols[i].type);
	}
	str = res__string_type(RES_STR_LEN, H5T_STR_NULLTERM);
	if (str < 0)
		return res__h5_fail(err, "cannot make the row type of '%s'",
			path);
	l->mtype = H5Tcreate(H5T_COMPOUND, l->size);
	l->ftype = H5Tcreate(H5T_COMPOUND, l->size);
	if (l->mtype < 0 || l->ftype < 0)
		st = res__h5_fail(err, "cannot make the row type of '%s'",
			path);
	for (int i = 0; i < ncols && st == dse_stat_ok; i++) {
		enum res_type t = cols[i].type;

		if (H5Tinsert(l->mtype, cols[i].name, l->offset[i],
			    member_type(t, 0, str)) < 0 ||
		    H5Tinsert(l->ftype, cols[i].name, l->offset[i],
			    member_type(t, 1, str)) < 0)
			st = res__h5_fail(err, "cannot add column '%s' to '%s'",
				cols[i].name, path);
	}
	return res__close(str, st, "a string type", err);
}

/* Copies at most RES_STR_LEN-1 bytes of "s" and NUL-fills the rest.  A cut
 * backs off to the start of a UTF-8 sequence so the stored text stays
 * valid UTF-8.
 */
static void pack_string(char *dst, const char *s)
{
	size_t n = s ? strnlen(s, RES_STR_LEN) : 0;

	if (n == RES_STR_LEN) {
		n = RES_STR_LEN - 1;
		while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80)
			n--;
	}
	if (n)
		memcpy(dst, s, n);
	memset(dst + n, 0, RES_STR_LEN - n);
}

static void pack_rows(const struct row_layout *l, const res_column *cols,
	int ncols, size_t first, size_t n, unsigned char *buf)
{
	for (size_t r = 0; r < n; r++) {
		unsigned char *row = buf + r * l->size;

		for (int i = 0; i < ncols; i++) {
			unsigned char *dst = row + l->offset[i];
			size_t k = first + r;

			if (cols[i].type == RES_I64)
				memcpy(dst, (const int64_t *) cols[i].data + k,
					8);
			else if (cols[i].type == RES_F64)
				memcpy(dst, (const double *) cols[i].data + k,
					8);
			else
				pack_string((char *) dst,
					((const char *const *) cols[i].data)[k]);
		}
	}
}

/* Writes attribute "name" on the dataset: a 1-D array of fixed-length
 * strings, one per column, taken from the column's name or unit.
 */
static dse_stat write_names(hid_t dset, const char *path, const char *name,
	const res_column *cols, int ncols, int units, dse_error *err)
{
	hid_t type = H5I_INVALID_HID, space = H5I_INVALID_HID;
	hid_t attr = H5I_INVALID_HID;
	hsize_t dim = ncols;
	size_t width = 1;
	char *buf;
	dse_stat st = dse_stat_error;

	for (int i = 0; i < ncols; i++) {
		const char *s = units ? cols[i].unit : cols[i].name;
		size_t n = s ? strlen(s) + 1 : 1;

		width = n > width ? n : width;
	}
	buf = calloc(ncols, width);
	if (!buf)
		return dse_error_nomem(err, "the column names of a table",
			(double) ncols * width);
	for (int i = 0; i < ncols; i++) {
		const char *s = units ? cols[i].unit : cols[i].name;

		if (s)
			memcpy(buf + i * width, s, strlen(s));
	}
	type = res__string_type(width, H5T_STR_NULLTERM);
	if (type >= 0)
		space = H5Screate_simple(1, &dim, NULL);
	if (space >= 0)
		attr = H5Acreate2(dset, name, type, space, H5P_DEFAULT,
			H5P_DEFAULT);
	if (attr < 0 || H5Awrite(attr, type, buf) < 0)
		res__h5_fail(err, "cannot write attribute '%s' of '%s'", name,
			path);
	else
		st = dse_stat_ok;
	free(buf);
	st = res__close(attr, st, "an attribute", err);
	st = res__close(space, st, "a dataspace", err);
	return res__close(type, st, "a string type", err);
}

/* Chunked so the table can grow and be compressed; deflate is left out
 * when this HDF5 build lacks it, since an uncompressed table is still a
 * correct one.
 */
static hid_t table_dcpl(size_t nrows)
{
	hsize_t chunk = nrows < CHUNK_ROWS ? nrows : CHUNK_ROWS;
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	htri_t deflate;

	if (dcpl < 0)
		return dcpl;
	if (chunk < 1)
		chunk = 1;
	deflate = H5Zfilter_avail(H5Z_FILTER_DEFLATE);
	if (deflate < 0 || H5Pset_chunk(dcpl, 1, &chunk) < 0 ||
	    (deflate > 0 && H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0)) {
		H5Pclose(dcpl);
		return -1;
	}
	return dcpl;
}

/* Makes room for a table at "path": an existing table there is removed
 * (its space in the file is not reclaimed); anything else there is left
 * alone and reported.
 */
static dse_stat clear_path(res_file *f, const char *path, dse_error *err)
{
	htri_t ex = res__path_exists(f->fid, path, f->path, err);
	hid_t obj;
	H5I_type_t t;

	if (ex <= 0)
		return ex < 0 ? dse_stat_error : dse_stat_ok;
	obj = H5Oopen(f->fid, path, H5P_DEFAULT);
	if (obj < 0)
		return res__h5_fail(err, "cannot open '%s' in '%s'", path,
			f->path);
	t = H5Iget_type(obj);
	if (res__close(obj, dse_stat_ok, "an object", err) < 0)
		return dse_stat_error;
	if (t != H5I_DATASET)
		return dse_error_set(err, DSE_E_HDF5, "cannot write table "
			"'%s' in '%s': a group or other object has that name",
			path, f->path);
	if (H5Ldelete(f->fid, path, H5P_DEFAULT) < 0)
		return res__h5_fail(err, "cannot replace table '%s' in '%s'",
			path, f->path);
	return dse_stat_ok;
}

/* Creates the dataset, making missing groups on the way. */
static dse_stat create_table(res_file *f, const char *path,
	const struct row_layout *l, hid_t space, hid_t dcpl, hid_t *dset,
	dse_error *err)
{
	hid_t lcpl;
	dse_stat st = dse_stat_error;

	*dset = H5I_INVALID_HID;
	if (clear_path(f, path, err) < 0)
		return dse_stat_error;
	lcpl = H5Pcreate(H5P_LINK_CREATE);
	if (lcpl >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0)
		*dset = H5Dcreate2(f->fid, path, l->ftype, space, lcpl, dcpl,
			H5P_DEFAULT);
	if (*dset < 0)
		res__h5_fail(err, "cannot create table '%s' in '%s'", path,
			f->path);
	else
		st = dse_stat_ok;
	return res__close(lcpl, st, "a link creation property list", err);
}

/* Writes the rows in blocks of CHUNK_ROWS so the packing buffer stays
 * small however long the table is.
 */
static dse_stat write_rows(hid_t dset, hid_t fspace, const char *path,
	const struct row_layout *l, const res_column *cols, int ncols,
	size_t nrows, dse_error *err)
{
	size_t block = nrows < CHUNK_ROWS ? nrows : CHUNK_ROWS;
	unsigned char *buf;
	dse_stat st = dse_stat_ok;

	if (nrows == 0)
		return dse_stat_ok;
	buf = malloc(block * l->size);
	if (!buf)
		return dse_error_nomem(err, "the rows of a table being written",
			(double) block * l->size);
	for (size_t first = 0; first < nrows && st == dse_stat_ok;
	     first += block) {
		hsize_t start = first;
		hsize_t count = nrows - first < block ? nrows - first : block;
		hid_t mspace = H5Screate_simple(1, &count, NULL);

		pack_rows(l, cols, ncols, first, count, buf);
		if (mspace < 0 ||
		    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL,
			    &count, NULL) < 0 ||
		    H5Dwrite(dset, l->mtype, mspace, fspace, H5P_DEFAULT,
			    buf) < 0)
			st = res__h5_fail(err, "cannot write rows %zu to %zu "
				"of table '%s'", first,
				first + (size_t) count - 1, path);
		st = res__close(mspace, st, "a dataspace", err);
	}
	free(buf);
	return st;
}

static dse_stat write_table(res_file *f, const char *path,
	const res_column *cols, int ncols, size_t nrows, dse_error *err)
{
	struct row_layout l;
	hsize_t dim = nrows, maxdim = H5S_UNLIMITED;
	hid_t space = H5I_INVALID_HID, dcpl = H5I_INVALID_HID;
	hid_t dset = H5I_INVALID_HID;
	dse_stat st = layout_init(&l, path, cols, ncols, err);

	if (st == dse_stat_ok) {
		space = H5Screate_simple(1, &dim, &maxdim);
		dcpl = space >= 0 ? table_dcpl(nrows) : -1;
		if (dcpl < 0)
			st = res__h5_fail(err, "cannot set up table '%s' in "
				"'%s'", path, f->path);
	}
	if (st == dse_stat_ok)
		st = create_table(f, path, &l, space, dcpl, &dset, err);
	if (st == dse_stat_ok)
		st = write_rows(dset, space, path, &l, cols, ncols, nrows, err);
	if (st == dse_stat_ok)
		st = write_names(dset, path, "units", cols, ncols, 1, err);
	if (st == dse_stat_ok)
		st = write_names(dset, path, "columns", cols, ncols, 0, err);
	st = res__close(dset, st, "a table", err);
	st = res__close(dcpl, st, "a dataset creation property list", err);
	st = res__close(space, st, "a dataspace", err);
	layout_free(&l);
	return st;
}

dse_stat res_write_table(res_file *f, const char *path,
	const res_column *cols, int ncols, size_t nrows, dse_error *err)
{
	struct res_quiet q;
	dse_stat st;

	if (!f || f->fid < 0)
		return dse_error_set(err, DSE_E_RUNTIME,
			"results file is not open");
	if (check_columns(path, cols, ncols, nrows, err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	st = write_table(f, path, cols, ncols, nrows, err);
	res__quiet_end(&q);
	return st;
}

/* ---- byte datasets ---- */

/* Bytes per chunk of a byte dataset: large enough for deflate to work
 * well, small enough that reading a chunk costs little memory.
 */
#define BYTES_CHUNK ((size_t) 1 << 20)
/* Byte datasets hold search states of megabytes, written again and
 * again while a search waits: the fastest deflate level saves most of
 * the space at a fraction of the time of the tables' level.
 */
#define BYTES_DEFLATE_LEVEL 1

/* A chunked, deflated (when available) and checksummed byte dataset
 * layout: the Fletcher-32 checksum makes a damaged chunk fail to read
 * rather than come back as other bytes.
 */
static hid_t bytes_dcpl(size_t n)
{
	hsize_t chunk = n < BYTES_CHUNK ? n : BYTES_CHUNK;
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	htri_t deflate, fletcher;

	if (dcpl < 0)
		return dcpl;
	if (chunk < 1)
		chunk = 1;
	deflate = H5Zfilter_avail(H5Z_FILTER_DEFLATE);
	fletcher = H5Zfilter_avail(H5Z_FILTER_FLETCHER32);
	if (deflate < 0 || fletcher < 0 || H5Pset_chunk(dcpl, 1, &chunk) < 0 ||
	    (deflate > 0 && H5Pset_deflate(dcpl, BYTES_DEFLATE_LEVEL) < 0) ||
	    (fletcher > 0 && H5Pset_fletcher32(dcpl) < 0)) {
		H5Pclose(dcpl);
		return -1;
	}
	return dcpl;
}

static dse_stat write_bytes(res_file *f, const char *path, const void *data,
	size_t n, dse_error *err)
{
	hsize_t dim = n, maxdim = H5S_UNLIMITED;
	hid_t space, dcpl = H5I_INVALID_HID, lcpl = H5I_INVALID_HID;
	hid_t dset = H5I_INVALID_HID;
	int64_t size = (int64_t) n;
	dse_stat st = dse_stat_ok;

	if (clear_path(f, path, err) < 0)
		return dse_stat_error;
	space = H5Screate_simple(1, &dim, &maxdim);
	if (space >= 0)
		dcpl = bytes_dcpl(n);
	if (dcpl >= 0)
		lcpl = H5Pcreate(H5P_LINK_CREATE);
	if (lcpl >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0)
		dset = H5Dcreate2(f->fid, path, H5T_STD_U8LE, space, lcpl,
			dcpl, H5P_DEFAULT);
	if (dset < 0)
		st = res__h5_fail(err, "cannot create dataset '%s' in '%s'",
			path, f->path);
	if (st == dse_stat_ok && n > 0 && H5Dwrite(dset, H5T_NATIVE_UINT8,
			H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
		st = res__h5_fail(err, "cannot write dataset '%s' in '%s'",
			path, f->path);
	if (st == dse_stat_ok)
		st = write_attr_on(f, dset, "size", H5T_STD_I64LE,
			H5T_NATIVE_INT64, &size, err);
	st = res__close(dset, st, "a dataset", err);
	st = res__close(lcpl, st, "a link creation property list", err);
	st = res__close(dcpl, st, "a dataset creation property list", err);
	return res__close(space, st, "a dataspace", err);
}

dse_stat res_write_bytes(res_file *f, const char *path, const void *data,
	size_t n, dse_error *err)
{
	struct res_quiet q;
	dse_stat st;

	if (!f || f->fid < 0)
		return dse_error_set(err, DSE_E_RUNTIME,
			"results file is not open");
	if (!path || path[0] != '/' || !path[1] || (n > 0 && !data))
		return dse_error_set(err, DSE_E_RUNTIME, "bad byte dataset "
			"'%s'", path ? path : "");
	res__quiet_begin(&q);
	st = write_bytes(f, path, data, n, err);
	res__quiet_end(&q);
	return st;
}

/* Writes a scalar attribute on the object at "path". */
static dse_stat attr_at(res_file *f, const char *path, const char *name,
	hid_t ftype, hid_t mtype, const void *buf, dse_error *err)
{
	struct res_quiet q;
	hid_t obj;
	dse_stat st;

	if (check_attr_args(f, name, err) < 0)
		return dse_stat_error;
	res__quiet_begin(&q);
	obj = H5Oopen(f->fid, path, H5P_DEFAULT);
	if (obj < 0)
		st = res__h5_fail(err, "cannot open '%s' in '%s'", path,
			f->path);
	else
		st = write_attr_on(f, obj, name, ftype, mtype, buf, err);
	if (obj >= 0 && H5Oclose(obj) < 0 && st == dse_stat_ok)
		st = res__h5_fail(err, "cannot close '%s' in '%s'", path,
			f->path);
	res__quiet_end(&q);
	return st;
}

dse_stat res_attr_string_at(res_file *f, const char *path, const char *name,
	const char *value, dse_error *err)
{
	const char *v = value ? value : "";
	hid_t type = res__string_type(strlen(v), H5T_STR_NULLPAD);
	dse_stat st;

	if (type < 0)
		return dse_error_set(err, DSE_E_HDF5, "cannot make a string "
			"type for attribute '%s' of '%s'", name, path);
	st = attr_at(f, path, name, type, type, v, err);
	if (H5Tclose(type) < 0 && st == dse_stat_ok)
		st = dse_error_set(err, DSE_E_HDF5, "cannot close a string "
			"type");
	return st;
}

dse_stat res_attr_i64_at(res_file *f, const char *path, const char *name,
	int64_t value, dse_error *err)
{
	return attr_at(f, path, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value,
		err);
}

/* ---- finishing ---- */

/* Writes "n" bytes to "fd", as many calls as it takes; 0 or -1 (errno). */
static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t) w;
	}
	return 0;
}

/* Makes the rename itself durable: a power loss after it must not bring
 * back the old file.  A folder that cannot be opened or synced (some
 * network file systems) only loses that guarantee.
 */
static void sync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[RES_PATH_LEN];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
			(int) (slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void) fsync(fd);
		close(fd);
	}
}

/* Writes "image" under the temporary name, durable before the rename
 * publishes it, so that neither a crash nor a power loss leaves an empty
 * or partial file under the final name.
 */
static dse_stat write_image(const res_file *f, const void *image, size_t n,
	dse_error *err)
{
	int fd = open(f->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	const char *what = "write";

	if (fd < 0)
		return dse_error_set(err, DSE_E_IO, "cannot write results file "
			"'%s': cannot create '%s': %s", f->path, f->tmp,
			strerror(errno));
	if (write_all(fd, image, n) < 0 || (what = "sync", fsync(fd) < 0)) {
		int e = errno;

		close(fd);
		return dse_error_set(err, DSE_E_IO, "cannot write results file "
			"'%s' (%s of %zu bytes to '%s' failed): %s", f->path,
			what, n, f->tmp, strerror(e));
	}
	if (close(fd) < 0)
		return dse_error_set(err, DSE_E_IO, "cannot write results file "
			"'%s' (closing '%s' failed): %s", f->path, f->tmp,
			strerror(errno));
	if (rename(f->tmp, f->path) < 0)
		return dse_error_set(err, DSE_E_IO, "cannot rename '%s' to "
			"'%s': %s", f->tmp, f->path, strerror(errno));
	sync_parent(f->path);
	return dse_stat_ok;
}

/* Bob Jenkins' lookup3 hash ("hashlittle", initial value 0), the
 * checksum of every piece of metadata in the HDF5 1.10 format.
 */
#define ROT32(x, k) (((x) << (k)) | ((x) >> (32 - (k))))

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 |
		(uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static uint32_t lookup3(const unsigned char *p, size_t n)
{
	uint32_t a, b, c;
	unsigned char tail[12];

	a = b = c = 0xdeadbeefu + (uint32_t) n;
	for (; n > 12; n -= 12, p += 12) {
		a += le32(p);
		b += le32(p + 4);
		c += le32(p + 8);
		a -= c; a ^= ROT32(c, 4); c += b;
		b -= a; b ^= ROT32(a, 6); a += c;
		c -= b; c ^= ROT32(b, 8); b += a;
		a -= c; a ^= ROT32(c, 16); c += b;
		b -= a; b ^= ROT32(a, 19); a += c;
		c -= b; c ^= ROT32(b, 4); b += a;
	}
	if (n == 0)
		return c;
	memset(tail, 0, sizeof(tail));
	memcpy(tail, p, n);
	a += le32(tail);
	b += le32(tail + 4);
	c += le32(tail + 8);
	c ^= b; c -= ROT32(b, 14);
	a ^= c; a -= ROT32(c, 11);
	b ^= a; b -= ROT32(a, 25);
	c ^= b; c -= ROT32(b, 16);
	a ^= c; a -= ROT32(c, 4);
	b ^= a; b -= ROT32(a, 14);
	c ^= b; c -= ROT32(b, 24);
	return c;
}

/* The superblock of a file image.  HDF5 1.10.8 clears the "open for
 * writing" flag of a version 3 superblock in the image it hands out but
 * leaves the checksum computed with the flag set, so every reader would
 * refuse the file: the checksum is computed again over the fields as they
 * are.  The layout (8-byte offsets: signature, version, sizes, flags, four
 * addresses, then the checksum) is the one this module creates.
 */
#define SUPER_LEN 44

static void fix_superblock(unsigned char *image, size_t n)
{
	static const unsigned char signature[8] = { 0x89, 'H', 'D', 'F',
		'\r', '\n', 0x1a, '\n' };
	uint32_t sum;

	if (n < SUPER_LEN + 4 || memcmp(image, signature, 8) ||
	    image[8] != 3 || image[9] != 8 || image[10] != 8)
		return;
	sum = lookup3(image, SUPER_LEN);
	for (int i = 0; i < 4; i++)
		image[SUPER_LEN + i] = (unsigned char) (sum >> (8 * i));
}

/* The finished file's bytes, from HDF5's in-memory image, into a new
 * buffer *image of *n bytes; the file is closed whatever happens.
 */
static dse_stat take_image(res_file *f, void **image, size_t *n,
	dse_error *err)
{
	ssize_t size = -1;
	dse_stat st = dse_stat_ok;

	/* The image is what the driver holds: the metadata cache (with the
	 * superblock's end of file) must be in it first.
	 */
	*image = NULL;
	if (H5Fflush(f->fid, H5F_SCOPE_GLOBAL) >= 0)
		size = H5Fget_file_image(f->fid, NULL, 0);
	if (size < 0)
		st = res__h5_fail(err, "cannot finish results file '%s'",
			f->path);
	if (st == dse_stat_ok) {
		*image = malloc(size ? (size_t) size : 1);
		if (!*image)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory "
				"copying results file '%s' (%zd bytes)",
				f->path, size);
	}
	if (st == dse_stat_ok &&
	    H5Fget_file_image(f->fid, *image, (size_t) size) != size)
		st = res__h5_fail(err, "cannot finish results file '%s'",
			f->path);
	*n = st == dse_stat_ok ? (size_t) size : 0;
	if (st == dse_stat_ok)
		fix_superblock(*image, *n);
	if (H5Fclose(f->fid) < 0 && st == dse_stat_ok)
		st = res__h5_fail(err, "cannot close results file '%s'",
			f->path);
	f->fid = H5I_INVALID_HID;
	if (st != dse_stat_ok) {
		free(*image);
		*image = NULL;
	}
	return st;
}

dse_stat res_file_commit(res_file *f, dse_error *err)
{
	struct res_quiet q;
	void *image = NULL;
	size_t n = 0;
	dse_stat st;

	if (!f || f->fid < 0) {
		file_free(f);
		return dse_error_set(err, DSE_E_RUNTIME,
			"results file is not open");
	}
	res__quiet_begin(&q);
	st = take_image(f, &image, &n, err);
	res__quiet_end(&q);
	if (st == dse_stat_ok)
		st = write_image(f, image, n, err);
	if (st != dse_stat_ok)
		unlink(f->tmp);
	free(image);
	file_free(f);
	return st;
}

res_file *res_file_abort(res_file *f)
{
	struct res_quiet q;

	if (!f)
		return NULL;
	/* Nothing is reported: the file is being thrown away, and a close
	 * that fails still releases the identifier.  Nothing of it is on
	 * the disk yet.
	 */
	res__quiet_begin(&q);
	if (f->fid >= 0)
		H5Fclose(f->fid);
	res__quiet_end(&q);
	return file_free(f);
}
