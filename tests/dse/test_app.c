/* Tests of the application half of dse (dse_app), driven without MPI the
 * way the commands that do not search drive it: a run context built from
 * a config, designs named by AutoSA --sa-sizes strings and written back,
 * a results file written from a front and read back, and the JSON string
 * escaper.
 *
 * Run as "test_app <group>" with group one of setup, design, write, json,
 * notes, candidates;
 * each group is a ctest test of its own and a table of cases.
 */
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dse/ctx.h"
#include "tests/support/app_ctx.h"

/* A small matrix multiply, so that the whole space can be enumerated in
 * a test: 64 x 48 x 32 with a few tile sizes.  Cases that change one line
 * replace it by key (see config()).
 */
static const char small_mm[] =
	"[kernel]\n"					/* 1 */
	"name      = mm\n"
	"domain    = [M,N,K] -> { S0[i,j,k] : 0 <= i < M and 0 <= j < N "
		"and 0 <= k < K }\n"
	"reads     = [M,N,K] -> { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j]; "
		"S0[i,j,k] -> C[i,j] }\n"
	"writes    = [M,N,K] -> { S0[i,j,k] -> C[i,j] }\n"	/* 5 */
	"params    = M=64, N=48, K=32\n"
	"reduction = k\n"
	"dtype     = fp32\n"
	"[platform]\n"
	"board = u250\n"				/* 10 */
	"[space]\n"
	"space_time = 3\n"
	"array_part = 8, 16\n"
	"latency    = 1, 2, 4\n"
	"simd       = 1, 2\n"				/* 15 */
	"[search]\n"
	"objectives = latency, dsp\n"
	"[output]\n"
	"file = unused.h5\n";

/* small_mm with the line starting "key" replaced by "line". */
static const char *config(const char *key, const char *line, char *buf,
	size_t size)
{
	return test_cfg_replace(small_mm, key, line, buf, size);
}

/* A context of "text" as a command without MPI builds it. */
static dse_stat setup(dse_ctx *ctx, const char *text, dse_error *err)
{
	return test_ctx_setup(ctx, text, NULL, 0, err);
}

/* ---- setup: what a config builds, and where a bad one is wrong ---------- */

struct setup_case {
	const char *key;	/* the line replaced, NULL: none */
	const char *line;
	int line_no;		/* 0: the setup succeeds */
	int col;
	const char *msg;	/* a substring of the message */
};

static const struct setup_case setup_cases[] = {
	{ NULL, NULL, 0, 0, NULL },
	/* The value's column: "board = " is 8 characters. */
	{ "board ", "board = u205", 10, 9, "unknown board 'u205'" },
	{ "objectives ", "objectives = latency, speed", 17, 23, "speed" },
	{ "space_time ", "space_time = 17", 12, 14,
	  "6 space-time candidates" },
	/* A [space] key no schema lists is a workload family's knob to
	 * the parser; a kernel's setup refuses it at the key.
	 */
	{ "array_part ", "arry_part = 8, 16", 13, 1,
	  "unknown key in section [space]; known keys: space_time, "
	  "array_part," },
	{ "array_part ", "n_pe = 8, 16", 13, 8,
	  "'n_pe' is a knob of a workload family" },
};

static void test_setup(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(setup_cases) / sizeof(setup_cases[0]); i++) {
		const struct setup_case *c = &setup_cases[i];
		char text[2048];
		dse_ctx ctx;
		dse_error err;
		dse_stat st;

		st = setup(&ctx, config(c->key, c->line, text, sizeof(text)),
			&err);
		print_message("case %zu: %s -> %s\n", i, c->line ? c->line :
			"(as is)", st ? err.msg : "ok");
		if (!c->line_no) {
			assert_int_equal(st, dse_stat_ok);
			/* Nothing but the config decides the output path. */
			assert_string_equal(ctx.out_path, "unused.h5");
			assert_true(search_space_size(ctx.space) > 0);
		} else {
			assert_int_not_equal(st, dse_stat_ok);
			assert_int_equal(err.code, DSE_E_INPUT);
			assert_string_equal(err.file, "t.cfg");
			assert_int_equal(err.line, c->line_no);
			assert_int_equal(err.col, c->col);
			assert_non_null(strstr(err.msg, c->msg));
		}
		dse_ctx_clear(&ctx);
	}
}

/* ---- candidates: space_time = all, or a list ----------------------------- */

struct cands_case {
	const char *line;	/* the space_time line */
	int n;			/* candidates swept; 0: one, the old way */
	int first, last;	/* the first and last of them */
	int line_no, col;	/* an error there; 0: none */
};

static const struct cands_case cands_cases[] = {
	{ "space_time = 3", 0, 3, 3, 0, 0 },
	{ "space_time = 4..4", 0, 4, 4, 0, 0 },
	{ "space_time = all", 6, 0, 5, 0, 0 },
	{ "space_time = 5, 0, 3", 3, 0, 5, 0, 0 },
	{ "space_time = 3..4", 2, 3, 4, 0, 0 },
	/* The error points at the number the kernel lacks. */
	{ "space_time = 2, 17", 0, 0, 0, 12, 17 },
	{ "space_time = 1..6", 0, 0, 0, 12, 17 },
	/* 6 is not written: at the value's start. */
	{ "space_time = 0..7", 0, 0, 0, 12, 14 },
	{ "space_time = 1, 6..9", 0, 0, 0, 12, 17 },
};

/* The space of candidate "c" alone, as space_time = c builds it. */
static uint64_t single_size(int c, search_space **copy)
{
	char line[32], text[2048];
	dse_ctx one;
	dse_error err;
	uint64_t n;

	snprintf(line, sizeof(line), "space_time = %d", c);
	assert_int_equal(setup(&one, config("space_time ", line, text,
		sizeof(text)), &err), dse_stat_ok);
	n = search_space_size(one.space);
	*copy = one.space;
	one.space = NULL;
	dse_ctx_clear(&one);
	return n;
}

/* Every part of a sweep over several candidates is the space that
 * candidate alone has; the whole's points evaluate and print as the
 * candidate's own.
 */
static void check_parts(const dse_ctx *ctx)
{
	search_evaluator ev = dse_evaluator(ctx);
	uint64_t sum = 0;
	int p, k;

	assert_string_equal(search_space_knob_name(ctx->space, 0),
		"space_time");
	for (p = 0; p < ctx->n_cands; p++) {
		const search_space *part = search_space_part(ctx->space, p);
		search_space *alone;
		uint64_t n = single_size(ctx->cands[p].tmpl.space_time, &alone);
		uint64_t off = search_space_part_offset(ctx->space, p), i;

		assert_int_equal(search_space_size(part), n);
		assert_int_equal(search_space_n_knobs(part),
			search_space_n_knobs(alone));
		for (k = 0; k < search_space_n_knobs(part); k++) {
			assert_string_equal(search_space_knob_name(part, k),
				search_space_knob_name(alone, k));
			assert_int_equal(search_space_knob_size(part, k),
				search_space_knob_size(alone, k));
		}
		for (i = 0; i < n; i += 1 + n / 7) {
			int32_t w[SEARCH_MAX_KNOBS], l[SEARCH_MAX_KNOBS];
			sim_metrics a, b;
			char text[512], want[32];

			search_space_decode(ctx->space, off + i, w);
			search_space_decode(alone, i, l);
			assert_int_equal(w[0], ctx->cands[p].tmpl.space_time);
			ev.eval(ev.model, w, &a);
			sim_eval(ctx->cands[p].model, l, &b);
			assert_memory_equal(&a, &b, sizeof(a));
			dse_design_text(ctx, w, text, sizeof(text));
			snprintf(want, sizeof(want), "space_time[%d]",
				(int) w[0]);
			assert_non_null(strstr(text, want));
		}
		sum += n;
		search_space_free(alone);
	}
	assert_int_equal(search_space_size(ctx->space), sum);
}

static void test_candidates(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(cands_cases) / sizeof(cands_cases[0]); i++) {
		const struct cands_case *c = &cands_cases[i];
		char text[2048];
		dse_ctx ctx;
		dse_error err;
		dse_stat st;

		st = setup(&ctx, config("space_time ", c->line, text,
			sizeof(text)), &err);
		print_message("case %zu: %s -> %s\n", i, c->line,
			st ? err.msg : "ok");
		if (c->line_no) {
			assert_int_not_equal(st, dse_stat_ok);
			assert_int_equal(err.line, c->line_no);
			assert_int_equal(err.col, c->col);
			assert_non_null(strstr(err.msg,
				"6 space-time candidates"));
			dse_ctx_clear(&ctx);
			continue;
		}
		assert_int_equal(st, dse_stat_ok);
		assert_int_equal(ctx.n_cands, c->n);
		assert_int_equal(search_space_n_parts(ctx.space), c->n);
		if (c->n) {
			assert_int_equal(ctx.cands[0].tmpl.space_time, c->first);
			assert_int_equal(ctx.cands[c->n - 1].tmpl.space_time,
				c->last);
			check_parts(&ctx);
		} else {
			/* The single form is the space it always was. */
			assert_int_equal(ctx.tmpl.space_time, c->first);
			assert_true(search_space_knob_index(ctx.space,
				"space_time") < 0);
		}
		dse_ctx_clear(&ctx);
	}
}

/* ---- design: --sa-sizes in, the same design written back ---------------- */

struct design_case {
	const char *sa;		/* as a user writes it */
	int ok;
};

static const struct design_case design_cases[] = {
	{ "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];"
	  "kernel[]->latency[2,4];kernel[]->simd[2]}", 1 },
	/* Any order, blanks, and a tile that does not divide its loop. */
	{ " { kernel[]->simd[1] ; kernel[]->latency[1,1]; "
	  "kernel[]->array_part[24,16,8] } ", 1 },
	/* Another candidate than the config's. */
	{ "{kernel[]->space_time[0];kernel[]->array_part[8,8,8];"
	  "kernel[]->latency[2,2];kernel[]->simd[1]}", 1 },
	/* Three band loops take three array_part values. */
	{ "{kernel[]->array_part[16,16];kernel[]->latency[2,2];"
	  "kernel[]->simd[1]}", 0 },
	{ "kernel[]->array_part[16,16,16]", 0 },
};

/* Builds "sa" as dse eval does, writes the design back with
 * dse_design_text, builds that again: the same knobs, the same string and
 * the same metrics.
 */
static void test_design(void **state)
{
	char text[2048];
	dse_ctx ctx;
	dse_error err;
	size_t i;

	(void) state;
	assert_int_equal(setup(&ctx, config(NULL, NULL, text, sizeof(text)),
		&err), dse_stat_ok);
	for (i = 0; i < sizeof(design_cases) / sizeof(design_cases[0]); i++) {
		const struct design_case *c = &design_cases[i];
		dse_design a, b;
		sim_metrics ma, mb;
		dse_stat st;
		int k, n;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		dse_error_clear(&err);
		st = dse_design_build(&ctx, c->sa, -1, -1, &a, &err);
		print_message("case %zu: %s -> %s\n", i, c->sa, st ? err.msg :
			a.sa);
		if (!c->ok) {
			assert_int_not_equal(st, dse_stat_ok);
			assert_int_equal(err.code, DSE_E_INPUT);
			dse_design_clear(&a);
			continue;
		}
		assert_int_equal(st, dse_stat_ok);
		assert_int_equal(dse_design_build(&ctx, a.sa, -1, -1, &b,
			&err), dse_stat_ok);
		assert_string_equal(a.sa, b.sa);
		n = sim_model_n_knobs(a.model);
		assert_int_equal(n, sim_model_n_knobs(b.model));
		for (k = 0; k < n; k++)
			assert_int_equal(a.knobs[k], b.knobs[k]);
		sim_eval(a.model, a.knobs, &ma);
		sim_eval(b.model, b.knobs, &mb);
		assert_int_equal(ma.status, mb.status);
		assert_true(ma.latency_s == mb.latency_s);
		assert_int_equal(ma.dsp, mb.dsp);
		dse_design_clear(&a);
		dse_design_clear(&b);
	}
	dse_ctx_clear(&ctx);
}

/* ---- write: a front written, read back, each row re-evaluated ----------- */

/* Column "name" of the front, as doubles (integer columns converted). */
static double *read_col(res_reader *r, const char *path, const char *name,
	size_t rows)
{
	double *v = calloc(rows + 1, sizeof(*v));
	int64_t *iv = calloc(rows + 1, sizeof(*iv));
	enum res_type type = RES_F64;
	dse_error err;
	int i, ncols;
	size_t n, k;

	assert_non_null(v);
	assert_non_null(iv);
	assert_int_equal(res_read_table_shape(r, path, &n, &ncols, &err), 0);
	for (i = 0; i < ncols; i++) {
		char *c = res_read_column_name(r, path, i, &type, &err);
		int hit = c && !strcmp(c, name);

		free(c);
		if (hit)
			break;
	}
	assert_true(i < ncols);
	assert_int_equal(res_read_column(r, path, name, type == RES_I64 ?
		(void *) iv : (void *) v, &err), 0);
	if (type == RES_I64)
		for (k = 0; k < rows; k++)
			v[k] = (double) iv[k];
	free(iv);
	return v;
}

static void test_write(void **state)
{
	char text[2048], path[] = "/tmp/dse_test_app_XXXXXX", file[64];
	char (*sa)[RES_STR_LEN];
	search_result res;
	res_reader *r;
	dse_ctx ctx;
	dse_error err;
	double *lat, *dsp;
	int64_t complete;
	size_t rows, i;

	(void) state;
	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof(file), "%s/out.h5", path);
	assert_int_equal(setup(&ctx, config(NULL, NULL, text, sizeof(text)),
		&err), dse_stat_ok);
	memset(&res, 0, sizeof(res));
	res.front = test_front_all(&ctx);
	assert_non_null(res.front);
	res.evaluated = search_space_size(ctx.space);
	res.threads = 1;
	rows = search_front_size(res.front);
	assert_true(rows > 1);
	assert_int_equal(dse_write_results(&ctx, res_file_create(file, &err),
		&res, 0.5, &err), dse_stat_ok);

	r = res_reader_open(file, &err);
	assert_non_null(r);
	assert_int_equal(res_read_attr_i64(r, "complete", &complete, &err), 0);
	assert_int_equal(complete, 1);
	assert_int_equal(res_read_table_shape(r, "/mm/front", &i, NULL,
		&err), 0);
	assert_int_equal(i, rows);
	lat = read_col(r, "/mm/front", "latency", rows);
	dsp = read_col(r, "/mm/front", "dsp", rows);
	sa = calloc(rows, sizeof(*sa));
	assert_non_null(sa);
	assert_int_equal(res_read_column(r, "/mm/front", "sa_sizes", sa,
		&err), 0);
	/* Each row's design string, built as dse eval builds it, gives the
	 * metrics written beside it.
	 */
	for (i = 0; i < rows; i++) {
		dse_design d;
		sim_metrics m;

		memset(&d, 0, sizeof(d));
		assert_int_equal(dse_design_build(&ctx, sa[i], -1, -1, &d,
			&err), dse_stat_ok);
		sim_eval(d.model, d.knobs, &m);
		assert_int_equal(m.status, SIM_OK);
		assert_true(fabs(m.latency_s - lat[i]) <= 1e-12 * lat[i]);
		assert_true((double) m.dsp == dsp[i]);
		dse_design_clear(&d);
	}
	free(sa);
	free(lat);
	free(dsp);
	res_reader_close(r);
	search_front_free(res.front);
	dse_ctx_clear(&ctx);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(path), 0);
}

/* ---- json: the one string escaper (RFC 8259 section 7) ------------------ */

struct json_case {
	const char *in;
	const char *out;
};

static const struct json_case json_cases[] = {
	{ "mm", "\"mm\"" },
	{ "", "\"\"" },
	{ "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "l1\nl2\tx\r", "\"l1\\nl2\\tx\\r\"" },
	/* Other control characters as \u escapes, DEL too. */
	{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
	/* UTF-8 passes through; a byte that is not UTF-8, an overlong form
	 * and a surrogate become U+FFFD, so the output always parses.
	 */
	{ "\xc3\xa9\xe2\x82\xac", "\"\xc3\xa9\xe2\x82\xac\"" },
	{ "a\xff" "b", "\"a\\ufffdb\"" },
	{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },
	{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
};

static void test_json(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(json_cases) / sizeof(json_cases[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		dse_json_string(f, json_cases[i].in);
		assert_int_equal(fclose(f), 0);
		print_message("case %zu: %s\n", i, buf);
		assert_string_equal(buf, json_cases[i].out);
		free(buf);
	}
}

/* ---- notes: what the application says goes to the caller, never out --- */

/* The notes a context handed on, one a line after their kind's letter
 * ("P" progress, "W" warning).
 */
struct notes {
	char text[2048];
	int n;
};

static void collect(void *user, enum dse_note_kind kind, const char *msg)
{
	struct notes *n = user;
	size_t len = strlen(n->text);

	snprintf(n->text + len, sizeof(n->text) - len, "%c %s\n",
		kind == DSE_NOTE_WARNING ? 'W' : 'P', msg);
	n->n++;
}

static const char small_gnn[] =
	"[workload]\nfamily = gnn-overlay\nmodel = b1\n"
	"graph = cora\n[platform]\nboard = u250\n"
	"[space]\nn_pe = 1, 2\n[search]\nobjectives = latency, dsp\n"
	"[output]\nfile = unused.h5\n";

struct note_case {
	const char *text;
	int rank;
	int n;			/* notes expected */
	const char *first;	/* the start of the first one */
	const char *second;	/* a substring of the second one */
};

static const struct note_case note_cases[] = {
	/* A graph read and a family prepared: two progress notes. */
	{ small_gnn, 0, 2, "P graph synthetic-cora: 2708 vertices", "prepared for the sweep" },
	/* Every rank builds the same context; only rank 0 speaks. */
	{ small_gnn, 1, 0, NULL, NULL },
	/* An isl kernel takes no step long enough to report. */
	{ small_mm, 0, 0, NULL, NULL },
};

static void test_notes(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(note_cases) / sizeof(note_cases[0]); i++) {
		const struct note_case *c = &note_cases[i];
		struct notes got = { "", 0 };
		dse_ctx ctx;
		dse_error err;

		memset(&ctx, 0, sizeof(ctx));
		ctx.size = c->rank + 1;
		ctx.rank = c->rank;
		ctx.note = collect;
		ctx.note_user = &got;
		dse_error_clear(&err);
		ctx.cfg = dse_cfg_parse_string(c->text, "t.cfg", &err);
		assert_non_null(ctx.cfg);
		if (dse_ctx_setup(&ctx, NULL, &err))
			print_message("%s\n", err.msg);
		assert_int_equal(err.code, DSE_E_NONE);
		print_message("case %zu: %d notes\n%s", i, got.n, got.text);
		assert_int_equal(got.n, c->n);
		if (c->first)
			assert_memory_equal(got.text, c->first,
				strlen(c->first));
		if (c->second)
			assert_non_null(strstr(strchr(got.text, '\n'),
				c->second));
		dse_ctx_clear(&ctx);
	}
}

/* A checkpoint that cannot be written is a warning, and a run of them is
 * reported at its 1st, 2nd, 4th, 8th, ... failure, so a full disk does
 * not fill the log; the next one written says so.
 */
static void test_checkpoint_notes(void **state)
{
	/* After each attempt: notes so far; the attempt's file writable. */
	static const struct { int ok, notes; const char *last; } steps[] = {
		{ 0, 1, "W warning: 1 checkpoint in a row" },
		{ 0, 2, "W warning: 2 checkpoints in a row" },
		{ 0, 2, NULL }, { 0, 3, "W warning: 4 checkpoints" },
		{ 1, 4, "W a checkpoint was written again, after 4" },
		{ 0, 5, "W warning: 1 checkpoint in a row" },
	};
	struct notes got = { "", 0 };
	char dir[] = "/tmp/dse-notes-XXXXXX", good[64], bad[64];
	search_checkpoint cp;
	dse_checkpointer c;
	dse_ctx ctx;
	dse_error err;
	size_t i;

	(void) state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(setup(&ctx, small_mm, &err), dse_stat_ok);
	ctx.note = collect;
	ctx.note_user = &got;
	memset(&c, 0, sizeof(c));
	c.ctx = &ctx;
	memset(&cp, 0, sizeof(cp));
	cp.state = "state";
	cp.size = 5;
	cp.total = 10;
	snprintf(good, sizeof(good), "%s/cp.h5", dir);
	/* Under a regular file, which no folder can be made in (even by
	 * root, who may make any missing folder).
	 */
	snprintf(bad, sizeof(bad), "%s/file", dir);
	assert_int_equal(close(creat(bad, 0644)), 0);
	snprintf(bad, sizeof(bad), "%s/file/cp.h5", dir);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const char *last;

		snprintf(ctx.out_real, sizeof(ctx.out_real), "%s",
			steps[i].ok ? good : bad);
		dse_error_clear(&err);
		assert_int_equal(dse_checkpoint_write(&cp, &c, &err),
			dse_stat_ok);
		print_message("step %zu: %d notes\n%s", i, got.n, got.text);
		assert_int_equal(got.n, steps[i].notes);
		last = got.text + strlen(got.text) - 1;
		while (last > got.text && last[-1] != '\n')
			last--;
		if (steps[i].last)
			assert_memory_equal(last, steps[i].last,
				strlen(steps[i].last));
	}
	assert_int_equal(c.written, 1);
	assert_int_equal(c.failed, 5);
	assert_int_equal(unlink(good), 0);
	snprintf(bad, sizeof(bad), "%s/file", dir);
	assert_int_equal(unlink(bad), 0);
	assert_int_equal(rmdir(dir), 0);
	dse_ctx_clear(&ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest setup_tests[] = {
		cmocka_unit_test(test_setup) };
	const struct CMUnitTest design_tests[] = {
		cmocka_unit_test(test_design) };
	const struct CMUnitTest write_tests[] = {
		cmocka_unit_test(test_write) };
	const struct CMUnitTest json_tests[] = {
		cmocka_unit_test(test_json) };
	const struct CMUnitTest notes_tests[] = {
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_checkpoint_notes) };
	const struct CMUnitTest cand_tests[] = {
		cmocka_unit_test(test_candidates) };
	const char *g = argc > 1 ? argv[1] : "";

	if (!strcmp(g, "notes"))
		return cmocka_run_group_tests(notes_tests, NULL, NULL);
	if (!strcmp(g, "setup"))
		return cmocka_run_group_tests(setup_tests, NULL, NULL);
	if (!strcmp(g, "design"))
		return cmocka_run_group_tests(design_tests, NULL, NULL);
	if (!strcmp(g, "write"))
		return cmocka_run_group_tests(write_tests, NULL, NULL);
	if (!strcmp(g, "json"))
		return cmocka_run_group_tests(json_tests, NULL, NULL);
	if (!strcmp(g, "candidates"))
		return cmocka_run_group_tests(cand_tests, NULL, NULL);
	fprintf(stderr, "usage: test_app setup|design|write|json|notes|candidates\n");
	return 2;
}
