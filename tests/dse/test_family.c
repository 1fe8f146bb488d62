/* Tests of the workload family interface (core/family.h) as the
 * application uses it: a small family written here, "toy" (rows x cols
 * multiply-add units at a clock, doing a workload's "work" multiply-adds),
 * is registered beside the families dse knows by the run context's own
 * table -- the one line a new family needs -- and then goes through
 * everything a family goes through: the [workload] section names it, the
 * [space] section gives its knobs (and a bad key or value is refused at
 * its file:line:col), the search's evaluator is its own, a results file
 * carries its knob columns with their units and its design text, and
 * dse tune's emitter is its own.  The table of the families dse knows is
 * checked for what the application relies on.
 *
 * Run as "test_family <group>" with group one of toy, builtin.
 */
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

/* ---- the toy family ------------------------------------------------------ */

#define TOY_MAX_PE 64

struct toy {
	int64_t work;		/* multiply-adds of the workload */
};

static const family_knob toy_knobs[] = {
	{ "rows", "PE", "rows of multiply-add units" },
	{ "cols", "PE", "columns of multiply-add units" },
	{ "mhz", "MHz", "the clock" },
};

static int64_t toy_default(const void *self, int knob)
{
	static const int64_t def[] = { 4, 4, 200 };

	(void) self;
	return def[knob];
}

/* A clock above 1 GHz is refused as an input error, not an illegal
 * point: no FPGA runs one.
 */
static dse_stat toy_prepare(void *self, int knob, const int64_t *values,
	int n, dse_error *err)
{
	int i;

	(void) self;
	for (i = 0; knob == 2 && i < n; i++)
		if (values[i] > 1000)
			return dse_error_set(err, DSE_E_INPUT, "mhz = %lld is "
				"above the toy's 1000 MHz", (long long)
				values[i]);
	return dse_stat_ok;
}

/* One cycle a multiply-add per unit; more than TOY_MAX_PE units do not
 * fit.
 */
static void toy_eval(const void *self, const int32_t *knobs,
	sim_metrics *out)
{
	const struct toy *t = self;
	int64_t pe = (int64_t) knobs[0] * knobs[1];

	memset(out, 0, sizeof(*out));
	out->dsp = pe;
	if (pe > TOY_MAX_PE || pe <= 0 || knobs[2] <= 0) {
		out->status = SIM_BAD_KNOB;
		return;
	}
	out->cycles = (uint64_t) ((t->work + pe - 1) / pe);
	out->latency_s = (double) out->cycles / (knobs[2] * 1e6);
	out->gops = 2.0 * (double) t->work / out->latency_s / 1e9;
	out->status = SIM_OK;
}

static dse_stat toy_simulate(const void *self, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	(void) opt;
	(void) err;
	memset(out, 0, sizeof(*out));
	out->model = kind;
	toy_eval(self, knobs, &out->metrics);
	out->cycles_low = out->cycles_high = (double) out->metrics.cycles;
	return dse_stat_ok;
}

static int toy_why(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	int64_t pe = (int64_t) knobs[0] * knobs[1];

	(void) self;
	if (pe <= TOY_MAX_PE)
		return snprintf(buf, (size_t) size, "%s", "");
	return snprintf(buf, (size_t) size, "%lld units, more than the "
		"toy's %d", (long long) pe, TOY_MAX_PE);
}

static void toy_describe(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	(void) self;
	snprintf(buf, (size_t) size, "toy %dx%d at %d MHz", (int) knobs[0],
		(int) knobs[1], (int) knobs[2]);
}

static int toy_emit(const void *self, const int32_t *knobs, char *buf,
	int size)
{
	(void) self;
	return snprintf(buf, (size_t) size, "{\"rows\": %d, \"cols\": %d}\n",
		(int) knobs[0], (int) knobs[1]);
}

static void *toy_free(void *self)
{
	free(self);
	return NULL;
}

static const family_ops toy_family = {
	.name = "toy",
	.summary = "rows x cols multiply-add units",
	.n_knobs = 3,
	.knobs = toy_knobs,
	.knob_default = toy_default,
	.prepare = toy_prepare,
	.eval = toy_eval,
	.simulate = toy_simulate,
	.why = toy_why,
	.describe = toy_describe,
	.emit_name = "toy",
	.emit = toy_emit,
	.free = toy_free,
};

/* The toy's constructor: [workload] work = N multiply-adds. */
static dse_stat toy_setup(dse_ctx *ctx, const char *name, dse_error *err)
{
	struct toy *t = calloc(1, sizeof(*t));

	if (!t)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory");
	/* A key of the family's own is read as text (the config's schema
	 * does not list it).
	 */
	t->work = strtoll(dse_cfg_string(ctx->cfg, "workload", "work",
		"1000"), NULL, 10);
	ctx->fam_obj = t;
	snprintf(ctx->tmpl.kernel, sizeof(ctx->tmpl.kernel), "%s", name ?
		name : "toy");
	return dse_stat_ok;
}

static const char *const toy_keys[] = { "work", NULL };

/* The families dse knows, and the toy: its one registration line. */
static dse_family families[8];
static int n_families;

static void register_toy(void)
{
	int n;
	const dse_family *builtin = dse_families(NULL, &n);

	assert_true(n + 1 <= (int) (sizeof(families) / sizeof(families[0])));
	memcpy(families, builtin, (size_t) n * sizeof(*families));
	families[n].ops = &toy_family;
	families[n].setup = toy_setup;
	families[n].keys = toy_keys;
	n_families = n + 1;
}

static const char toy_cfg[] =
	"[workload]\n"			/* 1 */
	"family = toy\n"
	"work = 1000\n"
	"[platform]\n"
	"board = u250\n"		/* 5 */
	"[space]\n"
	"rows = 1, 2, 4, 8, 16\n"
	"cols = 4, 8\n"
	"mhz = 100, 250\n"
	"[search]\n"			/* 10 */
	"objectives = latency, dsp\n"
	"[output]\n"
	"file = unused.h5\n";

/* toy_cfg with the line starting "key" replaced by "line". */
static const char *config(const char *key, const char *line, char *buf,
	size_t size)
{
	return test_cfg_replace(toy_cfg, key, line, buf, size);
}

/* A context of "text" with the toy registered. */
static dse_stat setup(dse_ctx *ctx, const char *text, dse_error *err)
{
	return test_ctx_setup(ctx, text, families, n_families, err);
}

/* ---- toy: a family registered by one line goes through everything ---- */

struct setup_case {
	const char *key;	/* the line replaced, NULL: none */
	const char *line;
	int line_no;		/* 0: the setup succeeds */
	int col;
	const char *msg;	/* a substring of the message */
};

static const struct setup_case setup_cases[] = {
	{ NULL, NULL, 0, 0, NULL },
	/* A key that is no knob of the toy's: the toy's knobs listed. */
	{ "cols ", "depth = 4", 8, 9, "its knobs: rows, cols, mhz" },
	/* The toy's prepare refuses a value: the error at that value. */
	{ "mhz ", "mhz = 100, 2000", 9, 7, "above the toy's 1000 MHz" },
	/* A [workload] key no family reads: the toy's own keys listed. */
	{ "work ", "wrok = 1000", 3, 1, "known keys: family, name" },
	{ "work ", "wrok = 1000", 3, 1, "dtype, work" },
	/* An unknown family: the toy among the known ones. */
	{ "family ", "family = toyy", 2, 10, "gnn-overlay" },
	{ "family ", "family = toyy", 2, 10, "toy)" },
};

static void test_toy_setup(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(setup_cases) / sizeof(setup_cases[0]); i++) {
		const struct setup_case *c = &setup_cases[i];
		char text[1024];
		dse_ctx ctx;
		dse_error err;
		dse_stat st = setup(&ctx, config(c->key, c->line, text,
			sizeof(text)), &err);

		if (!c->line_no) {
			assert_int_equal(st, dse_stat_ok);
			assert_ptr_equal(ctx.fam, &toy_family);
			assert_string_equal(dse_workload_family(&ctx), "toy");
			assert_string_equal(ctx.tmpl.kernel, "toy");
			assert_int_equal(search_space_n_knobs(ctx.space), 3);
			assert_int_equal(search_space_size(ctx.space),
				5 * 2 * 2);
			assert_string_equal(dse_workload_knob_unit(&ctx, 2),
				"MHz");
		} else {
			assert_int_equal(st, dse_stat_error);
			assert_int_equal(err.code, DSE_E_INPUT);
			assert_int_equal(err.line, c->line_no);
			assert_int_equal(err.col, c->col);
			assert_non_null(strstr(err.msg, c->msg));
		}
		dse_ctx_clear(&ctx);
	}
}

/* Points of toy_cfg's space by knob values, with what the toy's model
 * gives them worked by hand: 1000 multiply-adds on rows x cols units.
 */
struct point_case {
	int32_t knobs[3];
	int status;
	uint64_t cycles;
	const char *text;	/* dse_design_text */
	const char *why;	/* a substring; "" for a legal point */
};

static const struct point_case point_cases[] = {
	{ { 1, 4, 100 }, SIM_OK, 250, "toy 1x4 at 100 MHz", "" },
	{ { 8, 8, 250 }, SIM_OK, 16, "toy 8x8 at 250 MHz", "" },
	{ { 4, 8, 100 }, SIM_OK, 32, "toy 4x8 at 100 MHz", "" },
	{ { 16, 8, 100 }, SIM_BAD_KNOB, 0, "toy 16x8 at 100 MHz",
	  "128 units, more than the toy's 64" },
};

static void test_toy_points(void **state)
{
	search_evaluator ev;
	char text[1024];
	dse_ctx ctx;
	dse_error err;
	size_t i;

	(void) state;
	assert_int_equal(setup(&ctx, config(NULL, NULL, text, sizeof(text)),
		&err), dse_stat_ok);
	ev = dse_evaluator(&ctx);
	assert_ptr_equal(ev.model, ctx.fam_obj);
	for (i = 0; i < sizeof(point_cases) / sizeof(point_cases[0]); i++) {
		const struct point_case *c = &point_cases[i];
		sim_cycle_report rep;
		sim_metrics m;
		char buf[256];

		ev.eval(ev.model, c->knobs, &m);
		assert_int_equal(m.status, c->status);
		if (c->status == SIM_OK) {
			assert_int_equal(m.cycles, c->cycles);
			assert_true(fabs(m.latency_s - (double) c->cycles /
				(c->knobs[2] * 1e6)) < 1e-15);
		}
		dse_design_text(&ctx, c->knobs, buf, sizeof(buf));
		assert_string_equal(buf, c->text);
		dse_workload_why(&ctx, c->knobs, buf, sizeof(buf));
		if (c->why[0])
			assert_non_null(strstr(buf, c->why));
		else
			assert_string_equal(buf, "");
		assert_int_equal(dse_workload_simulate(&ctx, c->knobs, 0,
			NULL, &rep, &err), dse_stat_ok);
		assert_int_equal(rep.metrics.cycles, m.cycles);
	}
	dse_ctx_clear(&ctx);
}

/* A results file of the toy's front: its knob columns, the family named,
 * and each row's design text as the toy describes it.
 */
static void test_toy_write(void **state)
{
	char text[1024], path[] = "/tmp/dse_test_family_XXXXXX", file[64];
	char (*design)[RES_STR_LEN];
	search_result res;
	res_reader *r;
	dse_ctx ctx;
	dse_error err;
	char *fam;
	size_t rows, i;
	int64_t *rows_col, *cols_col, *mhz_col;

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
	/* Latency against DSP: every legal unit count at 250 MHz is on the
	 * front, once (4, 8, 16, 32 and 64 units; of two shapes with one
	 * count, a full tie, the point of the smaller index stays).
	 */
	assert_int_equal(rows, 5);
	assert_int_equal(dse_write_results(&ctx, res_file_create(file, &err),
		&res, 0.5, &err), dse_stat_ok);
	r = res_reader_open(file, &err);
	assert_non_null(r);
	fam = res_read_attr_string(r, "family", &err);
	assert_non_null(fam);
	assert_string_equal(fam, "toy");
	free(fam);
	rows_col = calloc(rows, sizeof(*rows_col));
	cols_col = calloc(rows, sizeof(*cols_col));
	mhz_col = calloc(rows, sizeof(*mhz_col));
	design = calloc(rows, sizeof(*design));
	assert_true(rows_col && cols_col && mhz_col && design);
	assert_int_equal(res_read_column(r, "/toy/front", "rows", rows_col,
		&err), 0);
	assert_int_equal(res_read_column(r, "/toy/front", "cols", cols_col,
		&err), 0);
	assert_int_equal(res_read_column(r, "/toy/front", "mhz", mhz_col,
		&err), 0);
	assert_int_equal(res_read_column(r, "/toy/front", "design", design,
		&err), 0);
	for (i = 0; i < rows; i++) {
		char want[64];

		assert_int_equal(mhz_col[i], 250);
		assert_true(rows_col[i] * cols_col[i] == (4 << i) ||
			i > 0);
		snprintf(want, sizeof(want), "toy %dx%d at 250 MHz",
			(int) rows_col[i], (int) cols_col[i]);
		assert_string_equal(design[i], want);
	}
	free(rows_col);
	free(cols_col);
	free(mhz_col);
	free(design);
	res_reader_close(r);
	search_front_free(res.front);
	dse_ctx_clear(&ctx);
	unlink(file);
	rmdir(path);
}

/* ---- builtin: the families dse knows -------------------------------- */

/* What the application relies on in every registered family: a name that
 * is no other's, the operations it calls without checking, knob names
 * unique within the family, each with a unit and a help line, and an
 * emitter named when it has one.
 */
static void test_builtin(void **state)
{
	int i, j, k, n;
	const dse_family *t = dse_families(NULL, &n);

	(void) state;
	assert_true(n >= 3);
	for (i = 0; i < n; i++) {
		const family_ops *o = t[i].ops;

		assert_non_null(t[i].setup);
		assert_true(o->name && o->name[0] && o->summary);
		for (j = 0; j < i; j++)
			assert_string_not_equal(o->name, t[j].ops->name);
		assert_true(o->knob_default && o->eval && o->simulate &&
			o->why && o->describe && o->free);
		assert_true(!o->emit == !o->emit_name);
		assert_true(o->n_knobs > 0 && o->n_knobs <= SEARCH_MAX_KNOBS);
		for (k = 0; k < o->n_knobs; k++) {
			assert_true(o->knobs[k].name && o->knobs[k].unit &&
				o->knobs[k].help && o->knobs[k].help[0]);
			assert_int_equal(family_knob_find(o, o->knobs[k].name),
				k);
		}
		if (o->emit_name)
			assert_true(dse_emit_find(o->emit_name) >
				DSE_EMIT_FAMILY);
	}
	assert_int_equal(dse_emit_find("toy"), -1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest toy_tests[] = {
		cmocka_unit_test(test_toy_setup),
		cmocka_unit_test(test_toy_points),
		cmocka_unit_test(test_toy_write) };
	const struct CMUnitTest builtin_tests[] = {
		cmocka_unit_test(test_builtin) };
	const char *g = argc > 1 ? argv[1] : "";

	register_toy();
	if (!strcmp(g, "toy"))
		return cmocka_run_group_tests(toy_tests, NULL, NULL);
	if (!strcmp(g, "builtin"))
		return cmocka_run_group_tests(builtin_tests, NULL, NULL);
	fprintf(stderr, "usage: test_family toy|builtin\n");
	return 2;
}
