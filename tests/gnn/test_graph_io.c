/* Tests of gnn/graph_io.c: good Matrix Market files and edge lists read
 * edge by edge, a table of malformed files (tests/gnn/data/bad/) each
 * with the line, column and message it must give, unreadable files, and
 * very long lines.  The data files are found through DSE_SOURCE_DIR.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "gnn/graph.h"

/* Whether AddressSanitizer is on (GCC says so one way, clang another). */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

#define MAX_E 8

struct edge {
	uint32_t src, dst;
	float w;
};

static void data_path(char *buf, size_t size, const char *name)
{
	const char *dir = getenv("DSE_SOURCE_DIR");

	snprintf(buf, size, "%s/tests/gnn/data/%s", dir ? dir : ".", name);
}

/* The good files, with their edges after sorting by (dst, src), worked
 * out by hand from the files' text: Matrix Market entry (r, c) is the
 * edge r-1 -> c-1, mirrored in symmetric files off the diagonal.
 */
static const struct good_case {
	const char *file;
	int64_t nv;
	int ne;
	struct edge e[MAX_E];
	int64_t in_ptr[MAX_E];
} good_cases[] = {
	/* 1 2 .5, 3 1 2, 4 4 -1.5, 2 3 .1, 1 3 3 */
	{ "general.mtx", 4, 5,
	  { { 2, 0, 2.0f }, { 0, 1, 0.5f }, { 0, 2, 3.0f }, { 1, 2, 0.1f },
	    { 3, 3, -1.5f } },
	  { 0, 1, 2, 4, 5 } },
	/* 1 1 1, 2 1 2, 3 1 3, 3 2 4: the diagonal once, the rest twice */
	{ "symmetric.mtx", 3, 7,
	  { { 0, 0, 1.0f }, { 1, 0, 2.0f }, { 2, 0, 3.0f }, { 0, 1, 2.0f },
	    { 2, 1, 4.0f }, { 0, 2, 3.0f }, { 1, 2, 4.0f } },
	  { 0, 3, 5, 7 } },
	/* 2 x 5: five vertices; 1 5, 2 1, 1 1 */
	{ "pattern.mtx", 5, 3,
	  { { 0, 0, 1.0f }, { 1, 0, 1.0f }, { 0, 4, 1.0f } },
	  { 0, 2, 2, 2, 2, 3 } },
	/* upper-case header words and extension; 2 1 7, 3 3 -2 */
	{ "int_sym.MTX", 3, 3,
	  { { 1, 0, 7.0f }, { 0, 1, 7.0f }, { 2, 2, -2.0f } },
	  { 0, 1, 2, 3 } },
	/* 0 1 .5, 3 0 2, 1 1 1.25, 5 2 4: largest index 5 */
	{ "weighted.edges", 6, 4,
	  { { 3, 0, 2.0f }, { 0, 1, 0.5f }, { 1, 1, 1.25f },
	    { 5, 2, 4.0f } },
	  { 0, 1, 3, 4, 4, 4, 4 } },
	/* 0 2, 2 0, 1 2 with CRLF line ends, no weights */
	{ "crlf.txt", 3, 3,
	  { { 2, 0, 1.0f }, { 0, 2, 1.0f }, { 1, 2, 1.0f } },
	  { 0, 1, 1, 3 } },
};

static void test_good(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(good_cases) / sizeof(good_cases[0]); c++) {
		const struct good_case *k = &good_cases[c];
		dse_error err = { 0 };
		char path[1024];
		gnn_graph *g;
		int i;

		data_path(path, sizeof(path), k->file);
		g = gnn_graph_read(path, &err);
		if (!g)
			fail_msg("%s: %s (line %d)", k->file, err.msg,
				err.line);
		assert_string_equal(gnn_graph_name(g), k->file);
		assert_int_equal(gnn_graph_n_vertices(g), k->nv);
		assert_int_equal(gnn_graph_n_edges(g), k->ne);
		for (i = 0; i < k->ne; i++) {
			assert_int_equal(gnn_graph_src(g)[i], k->e[i].src);
			assert_int_equal(gnn_graph_dst(g)[i], k->e[i].dst);
			assert_true(gnn_graph_weight(g)[i] == k->e[i].w);
		}
		for (i = 0; i <= k->nv; i++)
			assert_int_equal(gnn_graph_in_ptr(g)[i],
				k->in_ptr[i]);
		gnn_graph_free(g);
	}
}

/* The explicit readers ignore the extension. */
static void test_explicit_readers(void **state)
{
	dse_error err = { 0 };
	char path[1024];
	gnn_graph *g;

	(void) state;
	data_path(path, sizeof(path), "general.mtx");
	g = gnn_graph_read_mtx(path, &err);
	assert_non_null(g);
	assert_int_equal(gnn_graph_n_edges(g), 5);
	gnn_graph_free(g);
	/* As an edge list, the banner line is not a pair of numbers. */
	assert_null(gnn_graph_read_edges(path, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_int_equal(err.line, 1);
	data_path(path, sizeof(path), "weighted.edges");
	assert_null(gnn_graph_read_mtx(path, &err));
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_non_null(strstr(err.msg, "bad header"));
}

/* Malformed files: where the error must point and what it must say. */
static const struct bad_case {
	const char *file;
	int line, col;
	const char *msg;
} bad_cases[] = {
	{ "banner.mtx", 1, 1, "unsupported banner '%%MatrixMarkt'" },
	{ "no_header.mtx", 1, 1, "bad header" },
	{ "array.mtx", 1, 23, "unsupported format 'array'" },
	{ "complex.mtx", 1, 34, "field 'complex'" },
	{ "skew.mtx", 1, 39, "symmetry 'skew-symmetric'" },
	{ "short_header.mtx", 1, 38, "missing the symmetry" },
	{ "size_nonnum.mtx", 3, 3, "column count 'x' is not an integer" },
	{ "size_missing.mtx", 2, 4, "missing the entry count" },
	{ "size_extra.mtx", 2, 7, "unexpected '9'" },
	{ "size_zero.mtx", 2, 1, "row count 0 must be between 1" },
	{ "no_size.mtx", 3, 0, "file ends before" },
	{ "row_range.mtx", 4, 1, "row index 4 out of range: the size line "
	  "gives 3 rows" },
	{ "col_range.mtx", 3, 3, "column index 5 out of range" },
	{ "negative.mtx", 3, 1, "negative row index -1" },
	{ "zero_index.mtx", 3, 1, "row index 0 out of range" },
	{ "truncated.mtx", 4, 0, "truncated: expected 3 entries, found 2" },
	{ "extra.mtx", 4, 0, "extra entries: the size line announces 1" },
	{ "missing_value.mtx", 3, 4, "missing value" },
	{ "bad_value.mtx", 3, 5, "value 'abc' is not a number" },
	{ "pattern_value.mtx", 3, 5, "unexpected '3.0'" },
	{ "missing_col.mtx", 3, 2, "missing column index" },
	{ "int_value.mtx", 3, 5, "value '1.5' is not an integer" },
	{ "inf_value.mtx", 3, 5, "not a finite" },
	{ "empty.txt", 1, 0, "no edges" },
	{ "comments_only.edges", 2, 0, "no edges" },
	{ "nonnum.edges", 2, 3, "destination 'two' is not an integer" },
	{ "missing_dst.edges", 2, 2, "missing destination" },
	{ "negative.edges", 1, 3, "negative destination vertex -4" },
	{ "extra.edges", 1, 9, "unexpected '7'" },
	{ "bad_weight.edges", 1, 5, "weight 'heavy' is not a number" },
	{ "big_vertex.edges", 1, 1, "source vertex 4294967295 out of range: "
	  "at most 4294967294" },
	{ "overflow.edges", 1, 1, "source '99999999999999999999' is out of "
	  "range" },
	{ "float_index.edges", 1, 1, "source '1.5' is not an integer" },
	{ "hex.edges", 1, 1, "source '0x10' is not an integer" },
	/* Sizes checked before anything is allocated for them: what the
	 * file can hold, and what building the graph would take (64 GiB
	 * of vertex arrays; the test limits itself to 8 GiB, test_bad).
	 */
	{ "entries_beyond.mtx", 2, 1, "3000000000 entries cannot be in a "
	  "file of 70 bytes" },
	{ "huge_vertices.mtx", 2, 1, "the size line gives a graph of "
	  "4294967295 vertices and 1 edges, which needs 64.0 GiB of memory "
	  "to build" },
	{ "far_vertex.edges", 3, 1, "the largest vertex number makes a graph "
	  "of 4294967295 vertices and 2 edges, which needs 64.0 GiB" },
};

/* The memory a graph may take in this test: 8 GiB, below what the size
 * cases ask for on any machine.  Not under AddressSanitizer, whose
 * shadow memory a data limit would starve.
 */
static void limit_memory(void)
{
#ifndef TEST_ASAN
	struct rlimit rl;

	if (getrlimit(RLIMIT_DATA, &rl) == 0 &&
	    (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (8ULL << 30))) {
		rl.rlim_cur = 8ULL << 30;
		setrlimit(RLIMIT_DATA, &rl);
	}
#endif
}

static void test_bad(void **state)
{
	size_t c;

	(void) state;
	limit_memory();
	for (c = 0; c < sizeof(bad_cases) / sizeof(bad_cases[0]); c++) {
		const struct bad_case *k = &bad_cases[c];
		dse_error err = { 0 };
		char path[1024], name[256];
		gnn_graph *g;

		snprintf(name, sizeof(name), "bad/%s", k->file);
		data_path(path, sizeof(path), name);
		g = gnn_graph_read(path, &err);
		if (g)
			fail_msg("%s: read without error", k->file);
		if (err.code != DSE_E_INPUT || err.line != k->line ||
		    err.col != k->col || !strstr(err.msg, k->msg) ||
		    strcmp(err.file, path))
			fail_msg("%s: got code %d at %d:%d \"%s\"; want %d:%d "
				"\"%s\"", k->file, (int) err.code, err.line,
				err.col, err.msg, k->line, k->col, k->msg);
	}
}

static void test_unreadable(void **state)
{
	dse_error err = { 0 };
	char path[1024];

	(void) state;
	data_path(path, sizeof(path), "no-such-file.mtx");
	assert_null(gnn_graph_read(path, &err));
	assert_int_equal(err.code, DSE_E_IO);
	assert_string_equal(err.file, path);
	data_path(path, sizeof(path), "no-such-file.txt");
	assert_null(gnn_graph_read(path, &err));
	assert_int_equal(err.code, DSE_E_IO);
	/* A directory opens but cannot be read. */
	data_path(path, sizeof(path), "bad");
	assert_null(gnn_graph_read(path, &err));
	assert_int_equal(err.code, DSE_E_IO);
	assert_null(gnn_graph_read(NULL, &err));
	assert_int_not_equal(err.code, DSE_E_NONE);
}

/* Writes "text" repeated around a long run of blanks to a temporary file
 * and returns its name in "path".
 */
static void write_temp(char *path, size_t size, const char *suffix,
	const char *head, size_t blanks, const char *tail)
{
	FILE *f;
	int fd;
	size_t i;

	snprintf(path, size, "/tmp/dse_graph_io_XXXXXX%s", suffix);
	fd = mkstemps(path, (int) strlen(suffix));
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(head, f);
	for (i = 0; i < blanks; i++)
		fputc(i % 2 ? ' ' : '\t', f);
	fputs(tail, f);
	fclose(f);
}

/* Lines far longer than any fixed buffer: a 3 MB comment and entries
 * whose tokens sit after a million blanks.
 */
static void test_long_lines(void **state)
{
	dse_error err = { 0 };
	char path[256];
	gnn_graph *g;
	char *comment = malloc(3u << 20);

	(void) state;
	assert_non_null(comment);
	memset(comment, 'x', (3u << 20) - 2);
	comment[0] = '#';
	comment[(3u << 20) - 2] = '\n';
	comment[(3u << 20) - 1] = '\0';
	write_temp(path, sizeof(path), ".edges", comment, 1000000,
		"7\t3\n2 7\n");
	g = gnn_graph_read(path, &err);
	if (!g)
		fail_msg("%s", err.msg);
	assert_int_equal(gnn_graph_n_vertices(g), 8);
	assert_int_equal(gnn_graph_n_edges(g), 2);
	assert_int_equal(gnn_graph_src(g)[0], 7);
	assert_int_equal(gnn_graph_dst(g)[0], 3);
	gnn_graph_free(g);
	unlink(path);
	/* The column of a bad token after the blanks: 1 + 2 + 1000000. */
	write_temp(path, sizeof(path), ".edges", "0 1\n0 ", 1000000,
		"oops\n");
	assert_null(gnn_graph_read(path, &err));
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 1000003);
	assert_non_null(strstr(err.msg, "'oops'"));
	unlink(path);
	free(comment);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_explicit_readers),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_long_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
