/* Tests of the HDF5 results file: tables and attributes written with
 * res_* and read back both through the reader and through the raw HDF5
 * API, the temporary-name life cycle, and the errors.
 */
/* POSIX and X/Open interfaces (mkdtemp, symlink). */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "results/res.h"
#include "scratch.h"

#define MAX_COLS 12

/* ---- fixtures ---- */

static int exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

static void tmp_name(char *buf, const char *path)
{
	int n = snprintf(buf, PATH_MAX, "%s.tmp.%ld", path, (long) getpid());

	assert_true(n > 0 && n < PATH_MAX);
}

/* Every test must leave no HDF5 identifier open, in our code or its own. */
static void assert_no_open_ids(void)
{
	assert_int_equal(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
}

/* A test that fails part-way leaves its identifiers open; closing them
 * after each test keeps one failure from failing every later test's
 * assert_no_open_ids().
 */
static int close_leftovers(void **state)
{
	static const unsigned kinds[] = {
		H5F_OBJ_ATTR, H5F_OBJ_DATASET | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE,
		H5F_OBJ_FILE
	};
	hid_t ids[64];

	(void) state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		ssize_t n = H5Fget_obj_ids(H5F_OBJ_ALL, kinds[k], 64, ids);

		for (ssize_t i = 0; i < n; i++) {
			if (kinds[k] == H5F_OBJ_ATTR)
				H5Aclose(ids[i]);
			else if (kinds[k] == H5F_OBJ_FILE)
				H5Fclose(ids[i]);
			else
				H5Oclose(ids[i]);
		}
	}
	return 0;
}

/* ---- generated column values ---- */

static int64_t gen_i64(size_t r, int c)
{
	switch (r % 13) {
	case 0:
		return INT64_MIN + c;
	case 1:
		return INT64_MAX - c;
	default:
		return ((int64_t) r * 2654435761LL + c) * (c % 2 ? -1 : 1);
	}
}

static double gen_f64(size_t r, int c)
{
	switch (r % 11) {
	case 0:
		return -0.0;
	case 1:
		return c % 2 ? -INFINITY : INFINITY;
	case 2:
		return NAN;
	case 3:
		return 5e-324;
	default:
		return ((double) r * 1.25 - 3.5) * (c + 1) / 7.0;
	}
}

/* Lengths around the cut at RES_STR_LEN-1 for the long-string cases. */
/* Lengths around the fixed string length, where cutting starts. */
static const size_t long_lengths[] = { 0, 1, RES_STR_LEN - 2, RES_STR_LEN - 1,
	RES_STR_LEN, RES_STR_LEN + 1, 2 * RES_STR_LEN };

static size_t gen_len(int long_strings, size_t r, int c)
{
	size_t nl = sizeof(long_lengths) / sizeof(long_lengths[0]);

	if (long_strings)
		return long_lengths[(r + c) % nl];
	return (r * 7 + c) % 40;
}

/* A string of "len" printable characters that depends on r and c. */
static char *gen_str(size_t len, size_t r, int c)
{
	char *s = malloc(len + 1);

	assert_non_null(s);
	for (size_t k = 0; k < len; k++)
		s[k] = (char) ('!' + (r * 31 + c * 17 + k * 3) % 94);
	s[len] = '\0';
	return s;
}

/* ---- table cases ---- */

struct col_spec {
	const char *name;
	const char *unit;
	enum res_type type;
};

struct table_case {
	const char *path;
	size_t nrows;
	int long_strings;
	int ncols;
	struct col_spec cols[MAX_COLS];
};

static const struct table_case table_cases[] = {
	{ "/empty", 0, 0, 3, {
		{ "id", "", RES_I64 }, { "lat", "cycles", RES_F64 },
		{ "sizes", "", RES_STR } } },
	{ "/mm/one", 1, 0, 3, {
		{ "sizes", "", RES_STR }, { "dsp", "DSP", RES_I64 },
		{ "freq", "MHz", RES_F64 } } },
	{ "/mm/front", 5000, 0, 4, {
		{ "id", "", RES_I64 }, { "latency", "cycles", RES_F64 },
		{ "sa_sizes", "", RES_STR }, { "bram", "BRAM18K", RES_I64 } } },
	{ "/deep/a/b/c/long", 23, 1, 3, {
		{ "s1", "text", RES_STR }, { "n", "", RES_I64 },
		{ "s2", "", RES_STR } } },
	{ "flat", 9, 0, 1, { { "only", "u", RES_F64 } } },
	{ "/wide", 40, 0, 12, {
		{ "c0", "a", RES_I64 }, { "c1", "b", RES_F64 },
		{ "c2", "", RES_STR }, { "c3", "d", RES_I64 },
		{ "c4", "e", RES_F64 }, { "c5", "f", RES_STR },
		{ "c6", "a much longer unit string", RES_I64 },
		{ "c7", "", RES_F64 }, { "c8", "", RES_STR },
		{ "c9", "j", RES_I64 }, { "c10", "k", RES_F64 },
		{ "c11 with spaces", "l", RES_STR } } },
};

/* The input columns of a case, built from the generators. */
struct table_data {
	res_column cols[MAX_COLS];
	void *mem[MAX_COLS];
	size_t nrows;
	int ncols;
};

static void table_data_init(struct table_data *d, const struct table_case *tc)
{
	size_t n = tc->nrows ? tc->nrows : 1;

	d->nrows = tc->nrows;
	d->ncols = tc->ncols;
	for (int c = 0; c < tc->ncols; c++) {
		const struct col_spec *s = &tc->cols[c];

		d->cols[c] = (res_column) { s->name, s->unit, s->type, NULL };
		if (s->type == RES_I64) {
			int64_t *v = malloc(n * sizeof(*v));

			assert_non_null(v);
			for (size_t r = 0; r < tc->nrows; r++)
				v[r] = gen_i64(r, c);
			d->mem[c] = v;
		} else if (s->type == RES_F64) {
			double *v = malloc(n * sizeof(*v));

			assert_non_null(v);
			for (size_t r = 0; r < tc->nrows; r++)
				v[r] = gen_f64(r, c);
			d->mem[c] = v;
		} else {
			char **v = malloc(n * sizeof(*v));

			assert_non_null(v);
			for (size_t r = 0; r < tc->nrows; r++)
				v[r] = gen_str(gen_len(tc->long_strings, r, c),
					r, c);
			d->mem[c] = v;
		}
		d->cols[c].data = d->mem[c];
	}
}

static void table_data_free(struct table_data *d)
{
	for (int c = 0; c < d->ncols; c++) {
		if (d->cols[c].type == RES_STR)
			for (size_t r = 0; r < d->nrows; r++)
				free(((char **) d->mem[c])[r]);
		free(d->mem[c]);
	}
}

/* The value a string should read back as: cut to RES_STR_LEN-1 bytes. */
static void assert_cut_equal(const char *got, const char *in)
{
	size_t want = strlen(in);

	if (want > RES_STR_LEN - 1)
		want = RES_STR_LEN - 1;
	assert_int_equal(strlen(got), want);
	assert_memory_equal(got, in, want);
}

/* Compares row r of column c with a stored value at "p". */
static void assert_value(const struct table_data *d, int c, size_t r,
	const void *p)
{
	if (d->cols[c].type == RES_I64) {
		int64_t v;

		memcpy(&v, p, sizeof(v));
		assert_true(v == ((const int64_t *) d->mem[c])[r]);
	} else if (d->cols[c].type == RES_F64) {
		/* Bitwise, so NaN, -0.0 and infinities count too. */
		assert_memory_equal(p, (const double *) d->mem[c] + r,
			sizeof(double));
	} else {
		assert_cut_equal(p, ((char **) d->mem[c])[r]);
	}
}

static void check_with_reader(const char *file, const struct table_case *tc,
	const struct table_data *d)
{
	dse_error err;
	res_reader *r = res_reader_open(file, &err);
	size_t nrows = 99;
	int ncols = -1;

	assert_non_null(r);
	assert_int_equal(res_read_table_shape(r, tc->path, &nrows, &ncols,
		&err), dse_stat_ok);
	assert_int_equal(nrows, tc->nrows);
	assert_int_equal(ncols, tc->ncols);
	for (int c = 0; c < tc->ncols; c++) {
		enum res_type t = (enum res_type) -1;
		char *name = res_read_column_name(r, tc->path, c, &t, &err);
		size_t esize = t == RES_STR ? RES_STR_LEN : 8;
		char *buf = calloc(nrows + 1, esize);

		assert_non_null(name);
		assert_string_equal(name, tc->cols[c].name);
		assert_int_equal(t, tc->cols[c].type);
		free(name);
		assert_non_null(buf);
		assert_int_equal(res_read_column(r, tc->path, tc->cols[c].name,
			buf, &err), dse_stat_ok);
		for (size_t k = 0; k < nrows; k++)
			assert_value(d, c, k, buf + k * esize);
		free(buf);
	}
	assert_null(res_reader_close(r));
}

/* Reads a 1-D string-array attribute of "dset" and compares it with the
 * column names or units of the case.
 */
static void check_names_attr(hid_t dset, const char *name,
	const struct table_case *tc, int units)
{
	hid_t attr = H5Aopen(dset, name, H5P_DEFAULT);
	hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
	hsize_t dim = 0;
	size_t size = H5Tget_size(type);
	char *buf;

	assert_true(attr >= 0 && type >= 0 && space >= 0);
	assert_int_equal(H5Tget_class(type), H5T_STRING);
	assert_int_equal(H5Sget_simple_extent_ndims(space), 1);
	assert_true(H5Sget_simple_extent_dims(space, &dim, NULL) >= 0);
	assert_int_equal(dim, tc->ncols);
	buf = calloc(tc->ncols, size + 1);
	assert_non_null(buf);
	assert_true(H5Aread(attr, type, buf) >= 0);
	for (int c = 0; c < tc->ncols; c++) {
		char got[256] = "";

		memcpy(got, buf + c * size, size < 255 ? size : 255);
		assert_string_equal(got, units ? tc->cols[c].unit :
			tc->cols[c].name);
	}
	free(buf);
	assert_true(H5Sclose(space) >= 0 && H5Tclose(type) >= 0 &&
		H5Aclose(attr) >= 0);
}

static void check_member_type(hid_t ftype, int c, enum res_type t)
{
	hid_t m = H5Tget_member_type(ftype, c);

	assert_true(m >= 0);
	if (t == RES_I64) {
		assert_true(H5Tequal(m, H5T_STD_I64LE) > 0);
	} else if (t == RES_F64) {
		assert_true(H5Tequal(m, H5T_IEEE_F64LE) > 0);
	} else {
		assert_int_equal(H5Tget_class(m), H5T_STRING);
		assert_int_equal(H5Tget_size(m), RES_STR_LEN);
		assert_int_equal(H5Tget_strpad(m), H5T_STR_NULLTERM);
		assert_int_equal(H5Tis_variable_str(m), 0);
	}
	assert_true(H5Tclose(m) >= 0);
}

static void check_layout(hid_t dset, size_t nrows)
{
	hid_t space = H5Dget_space(dset), dcpl = H5Dget_create_plist(dset);
	hsize_t dim = 0, maxdim = 0, chunk = 0;
	size_t want = nrows < 4096 ? nrows : 4096;
	unsigned flags, cd[4];
	size_t ncd = 4;

	assert_true(space >= 0 && dcpl >= 0);
	assert_int_equal(H5Sget_simple_extent_ndims(space), 1);
	assert_true(H5Sget_simple_extent_dims(space, &dim, &maxdim) >= 0);
	assert_int_equal(dim, nrows);
	assert_true(maxdim == H5S_UNLIMITED);
	assert_int_equal(H5Pget_layout(dcpl), H5D_CHUNKED);
	assert_int_equal(H5Pget_chunk(dcpl, 1, &chunk), 1);
	assert_int_equal(chunk, want ? want : 1);
	assert_int_equal(H5Pget_nfilters(dcpl), 1);
	assert_int_equal(H5Pget_filter2(dcpl, 0, &flags, &ncd, cd, 0, NULL,
		NULL), H5Z_FILTER_DEFLATE);
	assert_int_equal(cd[0], 4);
	assert_true(H5Pclose(dcpl) >= 0 && H5Sclose(space) >= 0);
}

/* Reads the whole table with the raw API, locating each column by the
 * member offsets HDF5 reports for the native row type.
 */
static void check_with_hdf5(const char *file, const struct table_case *tc,
	const struct table_data *d)
{
	hid_t fid = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
	hid_t dset = H5Dopen2(fid, tc->path, H5P_DEFAULT);
	hid_t ftype = H5Dget_type(dset);
	hid_t ntype = H5Tget_native_type(ftype, H5T_DIR_ASCEND);
	size_t rowsize = H5Tget_size(ntype);
	unsigned char *rows = calloc(tc->nrows + 1, rowsize);

	assert_true(fid >= 0 && dset >= 0 && ftype >= 0 && ntype >= 0);
	assert_non_null(rows);
	assert_int_equal(H5Tget_class(ftype), H5T_COMPOUND);
	assert_int_equal(H5Tget_nmembers(ftype), tc->ncols);
	check_layout(dset, tc->nrows);
	if (tc->nrows)
		assert_true(H5Dread(dset, ntype, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			rows) >= 0);
	for (int c = 0; c < tc->ncols; c++) {
		char *name = H5Tget_member_name(ftype, c);
		size_t off = H5Tget_member_offset(ntype, c);

		assert_non_null(name);
		assert_string_equal(name, tc->cols[c].name);
		assert_true(H5free_memory(name) >= 0);
		check_member_type(ftype, c, tc->cols[c].type);
		for (size_t r = 0; r < tc->nrows; r++)
			assert_value(d, c, r, rows + r * rowsize + off);
	}
	free(rows);
	check_names_attr(dset, "units", tc, 1);
	check_names_attr(dset, "columns", tc, 0);
	assert_true(H5Tclose(ntype) >= 0 && H5Tclose(ftype) >= 0 &&
		H5Dclose(dset) >= 0 && H5Fclose(fid) >= 0);
}

static void test_tables(void **state)
{
	const char *dir = *state;
	size_t n = sizeof(table_cases) / sizeof(table_cases[0]);
	char file[PATH_MAX];
	struct table_data data[sizeof(table_cases) / sizeof(table_cases[0])];
	dse_error err;
	res_file *f;

	/* All cases go into one file, so tables also must not disturb each
	 * other.
	 */
	scratch_join(file, dir, "tables.h5");
	f = res_file_create(file, &err);
	assert_non_null(f);
	for (size_t i = 0; i < n; i++) {
		table_data_init(&data[i], &table_cases[i]);
		assert_int_equal(res_write_table(f, table_cases[i].path,
			data[i].cols, data[i].ncols, data[i].nrows, &err),
			dse_stat_ok);
	}
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
	for (size_t i = 0; i < n; i++) {
		check_with_reader(file, &table_cases[i], &data[i]);
		check_with_hdf5(file, &table_cases[i], &data[i]);
		table_data_free(&data[i]);
	}
	assert_no_open_ids();
}

/* ---- strings cut inside a UTF-8 sequence ---- */

struct utf8_case {
	size_t ascii;		/* leading ASCII bytes */
	const char *tail;	/* then this */
	size_t want;		/* bytes that should be kept */
};

/* KEEP is the most bytes a string column holds. */
#define KEEP (RES_STR_LEN - 1)

static const struct utf8_case utf8_cases[] = {
	{ KEEP - 2, "\xc3\xa9", KEEP },		/* fits exactly */
	{ KEEP - 1, "\xc3\xa9", KEEP - 1 },	/* would split e-acute */
	{ KEEP - 2, "\xe2\x82\xac", KEEP - 2 },	/* would split the euro sign */
	{ KEEP - 3, "\xe2\x82\xac", KEEP },	/* fits exactly */
	{ KEEP - 3, "\xf0\x9f\x98\x80", KEEP - 3 },	/* four-byte sequence */
	{ KEEP + 41, "\xc3\xa9", KEEP },	/* cut in plain ASCII */
};

static void test_utf8_cut(void **state)
{
	size_t n = sizeof(utf8_cases) / sizeof(utf8_cases[0]);
	char *in[sizeof(utf8_cases) / sizeof(utf8_cases[0])];
	char (*out)[RES_STR_LEN] = calloc(n, RES_STR_LEN);
	res_column col = { "s", "", RES_STR, in };
	char file[PATH_MAX];
	dse_error err;
	res_file *f;
	res_reader *r;

	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		size_t len = utf8_cases[i].ascii + strlen(utf8_cases[i].tail);

		in[i] = malloc(len + 1);
		assert_non_null(in[i]);
		memset(in[i], 'a', utf8_cases[i].ascii);
		strcpy(in[i] + utf8_cases[i].ascii, utf8_cases[i].tail);
	}
	scratch_join(file, *state, "utf8.h5");
	f = res_file_create(file, &err);
	assert_non_null(f);
	assert_int_equal(res_write_table(f, "/t", &col, 1, n, &err),
		dse_stat_ok);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	assert_int_equal(res_read_column(r, "/t", "s", out, &err),
		dse_stat_ok);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(strlen(out[i]), utf8_cases[i].want);
		assert_memory_equal(out[i], in[i], utf8_cases[i].want);
		free(in[i]);
	}
	free(out);
	res_reader_close(r);
	assert_no_open_ids();
}

/* ---- root attributes ---- */

enum kind { K_I64, K_F64, K_STR };

struct attr_write {
	const char *name;
	enum kind kind;
	int64_t i;
	double d;
	const char *s;		/* NULL: a generated string of "len" bytes */
	size_t len;
};

/* Written in this order; later writes of a name replace earlier ones,
 * even with another type.
 */
static const struct attr_write attr_writes[] = {
	{ "version", K_STR, 0, 0, "0.1.0", 0 },
	{ "seed", K_I64, 7, 0, NULL, 0 },
	{ "seed", K_I64, 42, 0, NULL, 0 },
	{ "min", K_I64, INT64_MIN, 0, NULL, 0 },
	{ "max", K_I64, INT64_MAX, 0, NULL, 0 },
	{ "wall_s", K_F64, 0, 12.375, NULL, 0 },
	{ "tiny", K_F64, 0, -5e-324, NULL, 0 },
	{ "empty", K_STR, 0, 0, "", 0 },
	{ "config", K_STR, 0, 0, NULL, 6000 },
	{ "huge", K_STR, 0, 0, NULL, 150000 },
	{ "mode", K_STR, 0, 0, "full", 0 },
	{ "mode", K_F64, 0, 2.5, NULL, 0 },
	{ "ranks", K_F64, 0, 1.0, NULL, 0 },
	{ "ranks", K_I64, 4, 0, NULL, 0 },
	{ "utf8", K_STR, 0, 0, "tile \xc3\x97 4", 0 },
};

/* What the file must hold afterwards, by name: the last write wins. */
static const struct attr_write *final_write(size_t i)
{
	size_t n = sizeof(attr_writes) / sizeof(attr_writes[0]);

	for (size_t j = i + 1; j < n; j++)
		if (strcmp(attr_writes[j].name, attr_writes[i].name) == 0)
			return NULL;
	return &attr_writes[i];
}

static char *attr_text(const struct attr_write *w)
{
	char *s;

	if (w->s) {
		s = strdup(w->s);
		assert_non_null(s);
		return s;
	}
	s = gen_str(w->len, w->len, 3);
	/* Make the text look like a config: several lines. */
	for (size_t k = 80; k < w->len; k += 81)
		s[k] = '\n';
	return s;
}

static void write_attr(res_file *f, const struct attr_write *w)
{
	dse_error err;
	dse_stat st;
	char *s;

	switch (w->kind) {
	case K_I64:
		st = res_attr_i64(f, w->name, w->i, &err);
		break;
	case K_F64:
		st = res_attr_f64(f, w->name, w->d, &err);
		break;
	default:
		s = attr_text(w);
		st = res_attr_string(f, w->name, s, &err);
		free(s);
	}
	assert_int_equal(st, dse_stat_ok);
}

/* Reading with each of the other two types must fail, naming the
 * attribute.
 */
static void check_wrong_kinds(res_reader *r, const struct attr_write *w)
{
	dse_error err;
	int64_t i;
	double d;

	if (w->kind != K_I64) {
		assert_int_equal(res_read_attr_i64(r, w->name, &i, &err),
			dse_stat_error);
		/* What a file holds is the file's fault: bad input. */
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_non_null(strstr(err.msg, w->name));
	}
	if (w->kind != K_F64) {
		assert_int_equal(res_read_attr_f64(r, w->name, &d, &err),
			dse_stat_error);
		assert_non_null(strstr(err.msg, w->name));
	}
	if (w->kind != K_STR) {
		assert_null(res_read_attr_string(r, w->name, &err));
		assert_non_null(strstr(err.msg, w->name));
	}
}

static void check_attr(res_reader *r, const struct attr_write *w)
{
	dse_error err;
	int64_t i = 0;
	double d = 0;
	char *s, *want;

	switch (w->kind) {
	case K_I64:
		assert_int_equal(res_read_attr_i64(r, w->name, &i, &err),
			dse_stat_ok);
		assert_true(i == w->i);
		break;
	case K_F64:
		assert_int_equal(res_read_attr_f64(r, w->name, &d, &err),
			dse_stat_ok);
		assert_memory_equal(&d, &w->d, sizeof(d));
		break;
	default:
		s = res_read_attr_string(r, w->name, &err);
		want = attr_text(w);
		assert_non_null(s);
		assert_string_equal(s, want);
		free(s);
		free(want);
	}
	check_wrong_kinds(r, w);
}

/* The raw file must hold each string at exactly its own length. */
static void check_string_sizes(const char *file)
{
	size_t n = sizeof(attr_writes) / sizeof(attr_writes[0]);
	hid_t fid = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);

	assert_true(fid >= 0);
	for (size_t i = 0; i < n; i++) {
		const struct attr_write *w = final_write(i);
		hid_t a, t;
		size_t len;

		if (!w || w->kind != K_STR)
			continue;
		len = w->s ? strlen(w->s) : w->len;
		a = H5Aopen(fid, w->name, H5P_DEFAULT);
		t = H5Aget_type(a);
		assert_true(a >= 0 && t >= 0);
		assert_int_equal(H5Tget_size(t), len ? len : 1);
		assert_true(H5Tclose(t) >= 0 && H5Aclose(a) >= 0);
	}
	assert_true(H5Fclose(fid) >= 0);
}

static void test_root_attrs(void **state)
{
	size_t n = sizeof(attr_writes) / sizeof(attr_writes[0]);
	char file[PATH_MAX];
	dse_error err;
	res_file *f;
	res_reader *r;

	scratch_join(file, *state, "attrs.h5");
	f = res_file_create(file, &err);
	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		write_attr(f, &attr_writes[i]);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	for (size_t i = 0; i < n; i++)
		if (final_write(i))
			check_attr(r, final_write(i));
	res_reader_close(r);
	check_string_sizes(file);
	assert_no_open_ids();
}

/* ---- life cycle: temporary name, commit, abort ---- */

struct life_case {
	const char *name;	/* under the test directory */
	int commit;		/* else abort */
	int old_final;		/* a file already has the final name */
};

static const struct life_case life_cases[] = {
	{ "life/plain.h5", 1, 0 },
	{ "life/x/y/z/nested.h5", 1, 0 },
	{ "life2/abort.h5", 0, 0 },
	{ "life/replace.h5", 1, 1 },
	{ "life/keep.h5", 0, 1 },
};

static void write_old(const char *path)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fputs("old", fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

static int is_old(const char *path)
{
	char buf[8] = "";
	FILE *fp = fopen(path, "r");

	if (!fp)
		return 0;
	if (!fgets(buf, sizeof(buf), fp))
		buf[0] = '\0';
	fclose(fp);
	return strcmp(buf, "old") == 0;
}

static void check_committed(const char *file, int64_t marker)
{
	dse_error err;
	res_reader *r = res_reader_open(file, &err);
	int64_t got = -1;

	assert_non_null(r);
	assert_int_equal(res_read_attr_i64(r, "marker", &got, &err),
		dse_stat_ok);
	assert_true(got == marker);
	res_reader_close(r);
}

static void test_life_cycle(void **state)
{
	size_t n = sizeof(life_cases) / sizeof(life_cases[0]);

	for (size_t i = 0; i < n; i++) {
		const struct life_case *lc = &life_cases[i];
		char file[PATH_MAX], tmp[PATH_MAX];
		dse_error err;
		res_file *f;

		scratch_join(file, *state, lc->name);
		tmp_name(tmp, file);
		if (lc->old_final) {
			*strrchr(file, '/') = '\0';
			assert_int_equal(mkdir(file, 0777) == 0 ||
				exists(file), 1);
			scratch_join(file, *state, lc->name);
			write_old(file);
		}
		f = res_file_create(file, &err);
		assert_non_null(f);
		/* The file is built in memory: nothing is on the disk
		 * before the commit, under either name.
		 */
		assert_false(exists(tmp));
		assert_int_equal(exists(file), lc->old_final);
		assert_int_equal(res_attr_i64(f, "marker", (int64_t) i + 100,
			&err), dse_stat_ok);
		if (lc->commit) {
			assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
			assert_true(exists(file));
			check_committed(file, (int64_t) i + 100);
		} else {
			assert_null(res_file_abort(f));
			assert_int_equal(exists(file), lc->old_final);
			assert_int_equal(is_old(file), lc->old_final);
		}
		assert_false(exists(tmp));
	}
	assert_null(res_file_abort(NULL));
	assert_no_open_ids();
}

/* A final name that is a directory is refused at creation, before any
 * work (bad input); one that becomes a directory while the file is being
 * written makes the rename fail, and a directory in the way of the
 * temporary name makes its creation fail: the error names the file and
 * the temporary file goes away.
 */
static void test_commit_failure(void **state)
{
	char file[PATH_MAX], tmp[PATH_MAX], inner[PATH_MAX];
	dse_error err;
	res_file *f;

	scratch_join(file, *state, "is_a_dir.h5");
	scratch_join(inner, file, "keep");
	tmp_name(tmp, file);
	assert_int_equal(mkdir(file, 0777), 0);
	assert_null(res_file_create(file, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "is a directory"));
	assert_false(exists(tmp));
	assert_int_equal(rmdir(file), 0);
	f = res_file_create(file, &err);
	assert_non_null(f);
	assert_int_equal(mkdir(file, 0777), 0);
	write_old(inner);
	assert_int_equal(res_file_commit(f, &err), dse_stat_error);
	assert_int_equal(err.code, DSE_E_IO);
	assert_non_null(strstr(err.msg, file));
	assert_false(exists(tmp));
	assert_true(is_old(inner));
	scratch_join(file, *state, "blocked.h5");
	tmp_name(tmp, file);
	assert_int_equal(mkdir(tmp, 0777), 0);
	f = res_file_create(file, &err);
	assert_non_null(f);
	assert_int_equal(res_file_commit(f, &err), dse_stat_error);
	assert_int_equal(err.code, DSE_E_IO);
	assert_non_null(strstr(err.msg, "blocked.h5.tmp."));
	assert_int_equal(rmdir(tmp), 0);
	assert_false(exists(file));
	assert_no_open_ids();
}

/* ---- errors ---- */

/* Runs failing calls with stderr captured: library code must print
 * nothing, and must leave HDF5's own error printing as it found it.
 */
struct quiet_check {
	int saved_fd;
	char path[PATH_MAX];
	H5E_auto2_t func;
	void *data;
};

static void quiet_check_begin(struct quiet_check *qc, const char *dir)
{
	int fd;

	assert_true(H5Eget_auto2(H5E_DEFAULT, &qc->func, &qc->data) >= 0);
	assert_non_null(qc->func);
	scratch_join(qc->path, dir, "stderr.txt");
	fflush(stderr);
	qc->saved_fd = dup(2);
	fd = open(qc->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	assert_true(qc->saved_fd >= 0 && fd >= 0);
	assert_true(dup2(fd, 2) >= 0);
	close(fd);
}

static void quiet_check_end(struct quiet_check *qc)
{
	struct stat sb;
	H5E_auto2_t func;
	void *data;

	fflush(stderr);
	assert_true(dup2(qc->saved_fd, 2) >= 0);
	close(qc->saved_fd);
	assert_int_equal(stat(qc->path, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	assert_true(H5Eget_auto2(H5E_DEFAULT, &func, &data) >= 0);
	assert_true(func == qc->func && data == qc->data);
}

struct create_case {
	const char *path;
	int in_dir;		/* path is relative to the test directory */
	enum dse_code code;
	const char *needle;	/* must be in the message */
};

static const struct create_case create_cases[] = {
	{ "/etc/passwd/x.h5", 0, DSE_E_INPUT, "/etc/passwd" },
	{ "/etc/passwd/a/b/x.h5", 0, DSE_E_INPUT, "/etc/passwd" },
	{ "", 0, DSE_E_INPUT, "empty" },
	{ "dir/", 1, DSE_E_INPUT, "ends in '/'" },
};

static void test_create_errors(void **state)
{
	size_t n = sizeof(create_cases) / sizeof(create_cases[0]);
	struct quiet_check qc;

	for (size_t i = 0; i < n; i++) {
		const struct create_case *cc = &create_cases[i];
		char file[PATH_MAX], tmp[PATH_MAX];
		dse_error err;

		if (cc->in_dir)
			scratch_join(file, *state, cc->path);
		else
			snprintf(file, sizeof(file), "%s", cc->path);
		tmp_name(tmp, file);
		quiet_check_begin(&qc, *state);
		assert_null(res_file_create(file, &err));
		quiet_check_end(&qc);
		assert_int_equal(err.code, cc->code);
		assert_non_null(strstr(err.msg, cc->needle));
		assert_false(exists(tmp));
		assert_false(exists(file));
	}
	assert_no_open_ids();
}

enum op {
	OP_OPEN, OP_ATTR_I64, OP_ATTR_F64, OP_ATTR_STR, OP_SHAPE, OP_COLNAME,
	OP_COLUMN
};

struct lookup_case {
	enum op op;
	const char *path;	/* file for OP_OPEN, table otherwise */
	const char *name;	/* attribute or column */
	int index;
	const char *needle;
};

static const struct lookup_case lookup_cases[] = {
	{ OP_OPEN, "no_such_file.h5", NULL, 0, "no_such_file.h5" },
	{ OP_ATTR_I64, NULL, "missing_attr", 0, "missing_attr" },
	{ OP_ATTR_STR, NULL, "count", 0, "'count'" },
	{ OP_ATTR_F64, NULL, "count", 0, "'count'" },
	{ OP_ATTR_I64, NULL, "label", 0, "'label'" },
	{ OP_SHAPE, "/nope", NULL, 0, "/nope" },
	{ OP_SHAPE, "/x/y/z", NULL, 0, "/x/y/z" },
	{ OP_SHAPE, "/g", NULL, 0, "not a table" },
	{ OP_SHAPE, "/g/t/x", NULL, 0, "'/g/t' is not a group" },
	{ OP_COLNAME, "/g/t", NULL, 2, "/g/t" },
	{ OP_COLNAME, "/g/t", NULL, -1, "no column -1" },
	{ OP_COLNAME, "/g/missing", NULL, 0, "/g/missing" },
	{ OP_COLUMN, "/g/t", "zzz", 0, "'zzz'" },
	{ OP_COLUMN, "/nope/t", "a", 0, "/nope/t" },
};

static void write_lookup_file(const char *file)
{
	static const int64_t a[] = { 1, 2 };
	static const char *const s[] = { "x", "y" };
	const res_column cols[] = {
		{ "a", "", RES_I64, a }, { "s", "", RES_STR, s }
	};
	dse_error err;
	res_file *f = res_file_create(file, &err);

	assert_non_null(f);
	assert_int_equal(res_write_table(f, "/g/t", cols, 2, 2, &err),
		dse_stat_ok);
	assert_int_equal(res_attr_i64(f, "count", 3, &err), dse_stat_ok);
	assert_int_equal(res_attr_string(f, "label", "lbl", &err),
		dse_stat_ok);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
}

static int run_lookup(res_reader *r, const char *dir,
	const struct lookup_case *lc, dse_error *err)
{
	char path[PATH_MAX], buf[8 * RES_STR_LEN];
	int64_t i;
	double d;
	size_t nrows;
	int ncols;

	switch (lc->op) {
	case OP_OPEN:
		scratch_join(path, dir, lc->path);
		return res_reader_open(path, err) ? 0 : -1;
	case OP_ATTR_I64:
		return res_read_attr_i64(r, lc->name, &i, err);
	case OP_ATTR_F64:
		return res_read_attr_f64(r, lc->name, &d, err);
	case OP_ATTR_STR:
		return res_read_attr_string(r, lc->name, err) ? 0 : -1;
	case OP_SHAPE:
		return res_read_table_shape(r, lc->path, &nrows, &ncols, err);
	case OP_COLNAME:
		return res_read_column_name(r, lc->path, lc->index, NULL,
			err) ? 0 : -1;
	default:
		return res_read_column(r, lc->path, lc->name, buf, err);
	}
}

static void test_lookup_errors(void **state)
{
	size_t n = sizeof(lookup_cases) / sizeof(lookup_cases[0]);
	char file[PATH_MAX];
	struct quiet_check qc;
	dse_error err;
	res_reader *r;

	scratch_join(file, *state, "lookup.h5");
	write_lookup_file(file);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	for (size_t i = 0; i < n; i++) {
		const struct lookup_case *lc = &lookup_cases[i];

		quiet_check_begin(&qc, *state);
		assert_int_equal(run_lookup(r, *state, lc, &err), -1);
		quiet_check_end(&qc);
		/* A missing or mistyped object in a file is the file's fault
		 * (status 2), and the message says the file may be damaged;
		 * a file that does not exist is the command line's.
		 */
		assert_int_equal(err.code, DSE_E_INPUT);
		if (lc->op != OP_OPEN && !strstr(err.msg, "is damaged or is "
				"not a dse results file"))
			fail_msg("case %zu: no word of damage in '%s'", i,
				err.msg);
		if (!strstr(err.msg, lc->needle))
			fail_msg("case %zu: '%s' not in '%s'", i, lc->needle,
				err.msg);
	}
	res_reader_close(r);
	assert_no_open_ids();
}

enum variant { V_OK, V_DUP, V_NONAME, V_BADTYPE, V_NODATA };

struct write_case {
	const char *path;
	int ncols;
	enum variant variant;
	enum dse_code code;
	const char *needle;
};

static const struct write_case write_cases[] = {
	{ "/w/t", 0, V_OK, DSE_E_RUNTIME, "no columns" },
	{ "/w/t", 2, V_DUP, DSE_E_RUNTIME, "'a' appears twice" },
	{ "/w/t", 2, V_NONAME, DSE_E_RUNTIME, "column 1" },
	{ "/w/t", 2, V_BADTYPE, DSE_E_RUNTIME, "unknown type" },
	{ "/w/t", 2, V_NODATA, DSE_E_RUNTIME, "no data" },
	{ "/", 2, V_OK, DSE_E_RUNTIME, "not a dataset name" },
	{ "", 2, V_OK, DSE_E_RUNTIME, "not a dataset name" },
	{ "/g", 2, V_OK, DSE_E_HDF5, "'/g'" },
	{ "/g/t/x", 2, V_OK, DSE_E_HDF5, "/g/t/x" },
};

static void make_write_columns(res_column *cols, enum variant v,
	const int64_t *a, const double *b)
{
	cols[0] = (res_column) { "a", "", RES_I64, a };
	cols[1] = (res_column) { "b", "", RES_F64, b };
	if (v == V_DUP)
		cols[1].name = "a";
	else if (v == V_NONAME)
		cols[1].name = NULL;
	else if (v == V_BADTYPE)
		cols[1].type = (enum res_type) 7;
	else if (v == V_NODATA)
		cols[1].data = NULL;
}

/* Bad tables are refused without harming the file, and writing an
 * existing table's path again replaces it.
 */
static void test_write_errors(void **state)
{
	static const int64_t a[] = { 10, 20, 30 };
	static const double b[] = { 0.5, 1.5, 2.5 };
	size_t n = sizeof(write_cases) / sizeof(write_cases[0]);
	char file[PATH_MAX];
	res_column cols[2];
	struct quiet_check qc;
	size_t nrows = 0;
	int ncols = 0;
	int64_t got[3];
	dse_error err;
	res_file *f;
	res_reader *r;

	scratch_join(file, *state, "writes.h5");
	f = res_file_create(file, &err);
	assert_non_null(f);
	make_write_columns(cols, V_OK, a, b);
	assert_int_equal(res_write_table(f, "/g/t", cols, 2, 1, &err),
		dse_stat_ok);
	for (size_t i = 0; i < n; i++) {
		const struct write_case *wc = &write_cases[i];

		make_write_columns(cols, wc->variant, a, b);
		quiet_check_begin(&qc, *state);
		assert_int_equal(res_write_table(f, wc->path, cols, wc->ncols,
			3, &err), dse_stat_error);
		quiet_check_end(&qc);
		assert_int_equal(err.code, wc->code);
		if (!strstr(err.msg, wc->needle))
			fail_msg("case %zu: '%s' not in '%s'", i, wc->needle,
				err.msg);
	}
	make_write_columns(cols, V_OK, a, b);
	assert_int_equal(res_write_table(f, "/g/t", cols, 1, 3, &err),
		dse_stat_ok);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	assert_int_equal(res_read_table_shape(r, "/g/t", &nrows, &ncols, &err),
		dse_stat_ok);
	assert_int_equal(nrows, 3);
	assert_int_equal(ncols, 1);
	assert_int_equal(res_read_column(r, "/g/t", "a", got, &err),
		dse_stat_ok);
	assert_memory_equal(got, a, sizeof(a));
	assert_int_equal(res_read_table_shape(r, "/w/t", &nrows, &ncols, &err),
		dse_stat_error);
	res_reader_close(r);
	assert_no_open_ids();
}

/* ---- byte datasets ---- */

/* Byte i of a test buffer: a pattern with no run, so a shifted or
 * truncated read cannot match by chance.
 */
static unsigned char pattern(size_t i)
{
	return (unsigned char) ((i * 31 + 7 + (i >> 8)) & 0xff);
}

struct bytes_case {
	const char *path;
	size_t n;	/* bytes; past 1 MiB the dataset has two chunks */
};

static const struct bytes_case bytes_cases[] = {
	{ "/checkpoint/state", 1000 },
	{ "/empty", 0 },
	{ "/one", 1 },
	{ "/a/b/c/two_chunks", ((size_t) 1 << 20) + 3 },
};

/* The "size" attribute res_write_bytes puts on the dataset, read with
 * the raw HDF5 API.
 */
static int64_t raw_size_attr(const char *file, const char *path)
{
	hid_t fid = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
	hid_t dset = H5Dopen2(fid, path, H5P_DEFAULT);
	hid_t attr = H5Aopen(dset, "size", H5P_DEFAULT);
	int64_t v = -1;

	assert_true(attr >= 0);
	assert_true(H5Aread(attr, H5T_NATIVE_INT64, &v) >= 0);
	H5Aclose(attr);
	H5Dclose(dset);
	H5Fclose(fid);
	return v;
}

static void write_byte_cases(const char *file, unsigned char *buf)
{
	size_t n = sizeof(bytes_cases) / sizeof(bytes_cases[0]);
	dse_error err;
	res_file *f = res_file_create(file, &err);

	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(res_write_bytes(f, bytes_cases[i].path, buf,
			bytes_cases[i].n, &err), dse_stat_ok);
	assert_int_equal(res_attr_string_at(f, "/checkpoint/state", "note",
		"a note", &err), dse_stat_ok);
	assert_int_equal(res_attr_i64_at(f, "/checkpoint", "marker", 5, &err),
		dse_stat_ok);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
}

static void test_bytes(void **state)
{
	size_t n = sizeof(bytes_cases) / sizeof(bytes_cases[0]);
	size_t max = ((size_t) 1 << 20) + 3, got_n;
	unsigned char *buf = malloc(max);
	char file[PATH_MAX];
	dse_error err;
	res_reader *r;
	void *got;

	assert_non_null(buf);
	for (size_t i = 0; i < max; i++)
		buf[i] = pattern(i);
	scratch_join(file, *state, "bytes.h5");
	write_byte_cases(file, buf);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(res_read_bytes(r, bytes_cases[i].path, &got,
			&got_n, &err), dse_stat_ok);
		assert_true(got_n == bytes_cases[i].n);
		if (got_n)
			assert_memory_equal(got, buf, got_n);
		free(got);
		assert_true(raw_size_attr(file, bytes_cases[i].path) ==
			(int64_t) bytes_cases[i].n);
	}
	assert_int_equal(res_reader_has(r, "/checkpoint"), 1);
	assert_int_equal(res_reader_has(r, "/checkpoint/state"), 1);
	assert_int_equal(res_reader_has(r, "/checkpoint/nope"), 0);
	assert_int_equal(res_reader_has(r, "/nope/state"), 0);
	/* A dataset's path does not continue below it. */
	assert_int_equal(res_reader_has(r, "/one/x"), 0);
	assert_int_equal(res_read_bytes(r, "/checkpoint/missing", &got,
		&got_n, &err), dse_stat_error);
	assert_null(got);
	assert_non_null(strstr(err.msg, "no dataset '/checkpoint/missing'"));
	res_reader_close(r);
	free(buf);
	assert_no_open_ids();
}

/* A table is no byte dataset, and a damaged chunk fails its checksum
 * rather than reading back as other bytes.
 */
static void test_bytes_errors(void **state)
{
	static const int64_t ints[] = { 1, 2 };
	res_column col = { "n", "", RES_I64, ints };
	unsigned char buf[4096];
	char file[PATH_MAX];
	haddr_t offset = 0;
	hsize_t csize = 0;
	unsigned mask;
	hid_t fid, dset, space;
	dse_error err;
	res_file *f;
	res_reader *r;
	size_t got_n;
	void *got;
	FILE *fp;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = pattern(i);
	scratch_join(file, *state, "damaged.h5");
	f = res_file_create(file, &err);
	assert_non_null(f);
	assert_int_equal(res_write_table(f, "/t", &col, 1, 2, &err),
		dse_stat_ok);
	assert_int_equal(res_write_bytes(f, "/s", buf, sizeof(buf), &err),
		dse_stat_ok);
	assert_int_equal(res_file_commit(f, &err), dse_stat_ok);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	assert_int_equal(res_read_bytes(r, "/t", &got, &got_n, &err),
		dse_stat_error);
	assert_non_null(strstr(err.msg, "is not a byte dataset"));
	res_reader_close(r);
	/* Flip one byte in the middle of the dataset's only chunk. */
	fid = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
	dset = H5Dopen2(fid, "/s", H5P_DEFAULT);
	space = H5Dget_space(dset);
	assert_true(H5Dget_chunk_info(dset, space, 0, NULL, &mask, &offset,
		&csize) >= 0);
	H5Sclose(space);
	H5Dclose(dset);
	H5Fclose(fid);
	assert_true(csize > 2);
	fp = fopen(file, "r+b");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, (long) (offset + csize / 2), SEEK_SET), 0);
	{
		int c = fgetc(fp);

		assert_true(c != EOF);
		assert_int_equal(fseek(fp, -1, SEEK_CUR), 0);
		assert_true(fputc(c ^ 0x40, fp) != EOF);
	}
	assert_int_equal(fclose(fp), 0);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	assert_int_equal(res_read_bytes(r, "/s", &got, &got_n, &err),
		dse_stat_error);
	assert_null(got);
	assert_non_null(strstr(err.msg, "cannot read dataset '/s'"));
	res_reader_close(r);
	assert_no_open_ids();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_tables, close_leftovers),
		cmocka_unit_test_teardown(test_utf8_cut, close_leftovers),
		cmocka_unit_test_teardown(test_root_attrs, close_leftovers),
		cmocka_unit_test_teardown(test_life_cycle, close_leftovers),
		cmocka_unit_test_teardown(test_commit_failure, close_leftovers),
		cmocka_unit_test_teardown(test_create_errors, close_leftovers),
		cmocka_unit_test_teardown(test_lookup_errors, close_leftovers),
		cmocka_unit_test_teardown(test_write_errors, close_leftovers),
		cmocka_unit_test_teardown(test_bytes, close_leftovers),
		cmocka_unit_test_teardown(test_bytes_errors, close_leftovers),
	};

	return cmocka_run_group_tests(tests, scratch_make, scratch_remove);
}
