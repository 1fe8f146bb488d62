/* Results files dse must refuse before HDF5 decodes them, or read with a
 * clear error: an older HDF5 format without checksums, a table whose
 * layout claims fewer stored bytes than its rows need, variable-length
 * strings; and a file dse wrote, which reads.  The files live in the source tree, whose path is
 * the first argument.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "results/res.h"

struct format_case {
	const char *file;	/* below the source tree */
	const char *table;
	const char *column;	/* an f64 column */
	int opens;
	enum dse_code code;		/* of the open, or of the read when it opens */
	const char *msg;	/* part of the message; NULL when it reads */
};

static const struct format_case cases[] = {
	{ "tests/bad/data/old-format.h5", "/mm/front", "latency", 0,
	  DSE_E_INPUT, "format before 1.10 (superblock version 0)" },
	{ "fuzz/regressions/results/compact-layout-size-0.h5", "/x/front",
	  "latency", 1, DSE_E_INPUT,
	  "is damaged: 3 rows of 40 bytes in 0 stored bytes" },
	{ "fuzz/corpus/results/kernel.h5", "/x/front", "latency", 1,
	  DSE_E_NONE, NULL },
};

static void test_formats(void **state)
{
	const char *src = *state;
	size_t t;

	for (t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
		const struct format_case *c = &cases[t];
		char path[4096];
		dse_error err;
		res_reader *r;
		size_t rows = 0;
		int cols = 0;
		double *out;

		snprintf(path, sizeof(path), "%s/%s", src, c->file);
		print_message("case: %s\n", c->file);
		dse_error_clear(&err);
		r = res_reader_open(path, &err);
		assert_int_equal(r != NULL, c->opens);
		if (!r) {
			assert_int_equal(err.code, c->code);
			assert_non_null(strstr(err.msg, c->msg));
			continue;
		}
		assert_int_equal(res_read_table_shape(r, c->table, &rows,
			&cols, &err), dse_stat_ok);
		assert_true(rows > 0 && rows < 100000);
		out = calloc(rows, sizeof(*out));
		assert_non_null(out);
		if (c->msg) {
			assert_int_equal(res_read_column(r, c->table,
				c->column, out, &err), dse_stat_error);
			assert_int_equal(err.code, c->code);
			assert_non_null(strstr(err.msg, c->msg));
		} else {
			assert_int_equal(res_read_column(r, c->table,
				c->column, out, &err), dse_stat_ok);
			assert_true(out[0] > 0);
		}
		free(out);
		res_reader_close(r);
	}
}

/* Variable-length string attributes (h5py writes them when it rewrites an
 * attribute; their global heap has no checksum, and a damaged one made
 * HDF5 loop forever) are refused before HDF5 reads them, as bad input;
 * the other attributes of the same file still read.
 */
struct vlen_case {
	const char *file;
	const char *attr;
	/* The refusal's message; NULL: an integer attribute that reads. */
	const char *msg;
};

#define VLEN_MSG "is a variable-length string, which dse never writes"


static const struct vlen_case vlen_cases[] = {
	{ "fuzz/corpus/results/h5py.h5", "config", VLEN_MSG },
	{ "fuzz/corpus/results/h5py.h5", "config_file", VLEN_MSG },
	{ "fuzz/corpus/results/h5py.h5", "seed", NULL },
	/* Here the attribute's own header fails its checksum before its
	 * type can be seen: the refusal says the file is damaged.
	 */
	{ "fuzz/regressions/results/vlen-attribute-hang-reopen.h5",
	  "config_file", "incorrect metadata checksum" },
};

static void test_vlen(void **state)
{
	const char *src = *state;

	for (size_t t = 0; t < sizeof(vlen_cases) / sizeof(vlen_cases[0]);
	     t++) {
		const struct vlen_case *c = &vlen_cases[t];
		char path[4096], *v;
		dse_error err;
		res_reader *r;

		snprintf(path, sizeof(path), "%s/%s", src, c->file);
		print_message("case: %s %s\n", c->file, c->attr);
		dse_error_clear(&err);
		r = res_reader_open(path, &err);
		assert_non_null(r);
		if (c->msg) {
			v = res_read_attr_string(r, c->attr, &err);
			assert_null(v);
			assert_int_equal(err.code, DSE_E_INPUT);
			if (!strstr(err.msg, c->msg))
				fail_msg("'%s' not in '%s'", c->msg, err.msg);
		} else {
			int64_t x = -1;

			/* An integer attribute beside them still reads. */
			v = NULL;
			assert_int_equal(res_read_attr_i64(r, c->attr, &x,
				&err), dse_stat_ok);
			assert_true(x >= 0);
		}
		free(v);
		res_reader_close(r);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(test_formats,
			argc > 1 ? argv[1] : "."),
		cmocka_unit_test_prestate(test_vlen,
			argc > 1 ? argv[1] : "."),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
