/* "dse show": a results file's front (or cloud) as an aligned table or as
 * CSV.
 *
 * The tables are read generically through the results reader, column by
 * column in file order, so the command shows whatever a sweep wrote (any
 * family, any knobs) without knowing the layout in advance.  Like
 * "scalesim", it runs before MPI starts: it only reads one file and
 * prints.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/json.h"

const char dse_show_usage[] =
"Usage: dse show [--table front|cloud|candidates|io_groups] [--sort COLUMN]\n"
"                [--desc] [--columns a,b,c] [--all] [--csv|--json] results.h5\n"
"\n"
"Prints a table of a results file: the Pareto front (the default), the\n"
"cloud (a sample, of fixed size, of the legal points the sweep evaluated,\n"
"with a 'feasible' column saying whether it met the constraints), or the\n"
"analysis tables of a kernel. A header names the file, the kernel or\n"
"workload, the board, the strategy, the objectives and the row count.\n"
"Integers are printed exactly, real numbers with 4 significant digits\n"
"(CSV: as many as it takes to read back the same number).\n"
"\n"
"By default a few columns that are rarely needed are left out: index,\n"
"ii, cycles, lut, ff, offchip_bytes, edp, mhz (unless it is a knob),\n"
"n_pe (when pe_rows and pe_cols give the array's shape), and model,\n"
"cycles_low, cycles_high and sampled_fraction when every row comes from\n"
"the analytic model. An objective or the --sort column is always shown.\n"
"\n"
"Options:\n"
"  -t, --table NAME      front (default), cloud, candidates or io_groups\n"
"  -s, --sort COLUMN     sort the rows by any column, numeric or text;\n"
"                        ties keep the order of the file\n"
"  -r, --desc            sort in descending order\n"
"  -c, --columns LIST    show these columns, in this order (comma-separated)\n"
"  -a, --all             show every column\n"
"      --csv             print RFC 4180 CSV (a header row, then the rows)\n"
"      --json            print one JSON object: file, table, partial and\n"
"                        rows, each row an object of every column (or\n"
"                        those of --columns); NaN prints as null\n"
"  -h, --help            show this help and exit\n"
"\n"
"Exit status: 0 success, 1 unreadable table (HDF5 error), 2 bad input\n"
"(command line, missing file, not a dse results file, unknown column or\n"
"table).\n";

static const char partial_note[] =
	"(partial: checkpoint of a running or interrupted sweep)";

/* The tables a results file holds under /<kernel>/. */
static const char *const table_names[] = { "front", "cloud", "candidates",
	"io_groups", NULL };

/* Columns the default view leaves out (see the usage text), and those
 * left out only while every row comes from the analytic model, where
 * they repeat the cycles or say nothing.
 */
static const char *const hidden_cols[] = { "index", "ii", "cycles", "lut",
	"ff", "offchip_bytes", "edp", "mhz", NULL };
static const char *const sampled_cols[] = { "model", "cycles_low",
	"cycles_high", "sampled_fraction", NULL };

struct show_cli {
	const char *file;
	const char *table;
	const char *sort;
	const char *columns;
	int desc, all, csv, json, help;
};

/* One column read into memory: int64_t, double, or char[RES_STR_LEN]
 * per row.
 */
struct col {
	char *name;
	enum res_type type;
	void *data;
	int shown;		/* 1 + its place in the view; 0: hidden */
};

struct tab {
	const char *name;	/* front, cloud, ... */
	char path[POLY_NAME_LEN + 32];
	size_t nrows;
	int ncols;
	struct col *col;
};

/* The text column "name" of row "r". */
static const char *str_at(const struct col *c, size_t r)
{
	return (const char *) c->data + r * RES_STR_LEN;
}

static int in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

/* A usage error on stderr; returns the exit status 2. */
static int bad_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("dse show: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (dse show --help)\n", stderr);
	return 2;
}

/* Parses argv (argv[0] is "show"); returns 0, or 2 after a message. */
static int parse(int argc, char **argv, struct show_cli *cli)
{
	static const struct option opts[] = {
		{ "table", required_argument, NULL, 't' },
		{ "sort", required_argument, NULL, 's' },
		{ "desc", no_argument, NULL, 'r' },
		{ "columns", required_argument, NULL, 'c' },
		{ "all", no_argument, NULL, 'a' },
		{ "csv", no_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->table = "front";
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":t:s:rc:ah", opts, NULL)) != -1) {
		switch (c) {
		case 't': cli->table = optarg; break;
		case 's': cli->sort = optarg; break;
		case 'r': cli->desc = 1; break;
		case 'c': cli->columns = optarg; break;
		case 'a': cli->all = 1; break;
		case 'C': cli->csv = 1; break;
		case 'J': cli->json = 1; break;
		case 'h': cli->help = 1; break;
		case ':':
			return bad_usage("option '%s' needs a value",
				argv[optind - 1]);
		default:
			return bad_usage("unknown option '%s'",
				argv[optind - 1]);
		}
	}
	if (cli->help)
		return 0;
	if (cli->csv && cli->json)
		return bad_usage("%s", "--csv and --json: choose one");
	if (optind >= argc)
		return bad_usage("%s", "no results file given");
	cli->file = argv[optind++];
	if (optind < argc)
		return bad_usage("unexpected argument '%s' (one results file)",
			argv[optind]);
	if (!in_list(table_names, cli->table))
		return bad_usage("unknown table '%s' for --table (front, "
			"cloud, candidates or io_groups)", cli->table);
	return 0;
}

static void free_tab(struct tab *t)
{
	int i;

	for (i = 0; t->col && i < t->ncols; i++) {
		free(t->col[i].name);
		free(t->col[i].data);
	}
	free(t->col);
	memset(t, 0, sizeof(*t));
}

/* Reads every column of table t->path. */
static dse_stat read_tab(res_reader *r, struct tab *t, dse_error *err)
{
	int i;

	if (res_read_table_shape(r, t->path, &t->nrows, &t->ncols, err))
		return dse_stat_error;
	t->col = calloc((size_t) (t->ncols > 0 ? t->ncols : 1),
		sizeof(*t->col));
	if (!t->col)
		return dse_error_nomem(err, "the columns of the table",
			(double) t->ncols * sizeof(*t->col));
	for (i = 0; i < t->ncols; i++) {
		struct col *c = &t->col[i];
		size_t sz = RES_STR_LEN;

		c->name = res_read_column_name(r, t->path, i, &c->type, err);
		if (!c->name)
			return dse_stat_error;
		if (c->type != RES_STR)
			sz = c->type == RES_I64 ? sizeof(int64_t) :
				sizeof(double);
		c->data = calloc(t->nrows ? t->nrows : 1, sz);
		if (!c->data)
			return dse_error_set(err, DSE_E_NOMEM, "out of memory "
				"reading column '%s' (%zu rows)", c->name,
				t->nrows);
		if (res_read_column(r, t->path, c->name, c->data, err))
			return dse_stat_error;
	}
	return dse_stat_ok;
}

static struct col *find_col(const struct tab *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->col[i].name, name))
			return &t->col[i];
	return NULL;
}

/* "unknown column" with the list of those the table has; returns 2. */
static int unknown_column(const struct tab *t, const char *file,
	const char *name, const char *option)
{
	int i;

	fprintf(stderr, "dse show: unknown column '%s' for %s; table %s of "
		"'%s' has:", name, option, t->path, file);
	for (i = 0; i < t->ncols; i++)
		fprintf(stderr, "%s %s", i ? "," : "", t->col[i].name);
	fputc('\n', stderr);
	return 2;
}

/* Whether any row of the table came from a model other than the
 * analytic one, which makes the sampled model's columns worth showing.
 */
static int any_sampled(const struct tab *t)
{
	const struct col *m = find_col(t, "model");
	size_t r;

	if (!m || m->type != RES_STR)
		return 0;
	for (r = 0; r < t->nrows; r++)
		if (strcmp(str_at(m, r), "analytic"))
			return 1;
	return 0;
}

/* Whether "name" is one of the comma-separated names of "list". */
static int in_csv_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (list && *p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t) (e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* The default view: every column but the rarely needed ones, keeping the
 * objectives and the sort column.
 */
static void default_view(struct tab *t, const char *objectives,
	const char *sort, int all)
{
	int sampled = any_sampled(t), shape = find_col(t, "pe_rows") != NULL;
	int i, k = 0;

	/* The analysis tables are narrow, and their index is the
	 * candidate's number: they are shown whole.
	 */
	if (strcmp(t->name, "front") && strcmp(t->name, "cloud"))
		all = 1;

	for (i = 0; i < t->ncols; i++) {
		const char *n = t->col[i].name;
		/* The clock of a GNN family is a knob, an integer column;
		 * only the systolic array's derived clock is hidden.
		 */
		int hide = (in_list(hidden_cols, n) && (strcmp(n, "mhz") ||
			t->col[i].type == RES_F64)) ||
			(!sampled && in_list(sampled_cols, n)) ||
			(shape && !strcmp(n, "n_pe"));

		if (all || !hide || in_csv_list(objectives, n) ||
		    (sort && !strcmp(sort, n)))
			t->col[i].shown = ++k;
	}
}

/* --columns: the named columns in the order given.  Returns 0, or 2
 * after a message.
 */
static int chosen_view(struct tab *t, const char *file, const char *list)
{
	const char *p = list;
	char name[128];
	int k = 0;

	while (*p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t) (e - p) : strlen(p);
		struct col *c;

		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, p, len);
		name[len] = '\0';
		c = len ? find_col(t, name) : NULL;
		if (len && !c)
			return unknown_column(t, file, name, "--columns");
		if (c && !c->shown)
			c->shown = ++k;
		if (!e)
			break;
		p = e + 1;
	}
	if (!k)
		return bad_usage("--columns '%s' names no column", list);
	return 0;
}

/* The columns shown, in view order, into "view"; returns their count. */
static int view_order(const struct tab *t, const struct col **view)
{
	int i, n = 0;

	for (i = 0; i < t->ncols; i++)
		if (t->col[i].shown) {
			view[t->col[i].shown - 1] = &t->col[i];
			n++;
		}
	return n;
}

/* Compares the values of rows a and b of "c": NaN after every number,
 * whichever the direction.
 */
static int cmp_cells(const struct col *c, size_t a, size_t b, int desc)
{
	int v;

	if (c->type == RES_I64) {
		int64_t x = ((const int64_t *) c->data)[a];
		int64_t y = ((const int64_t *) c->data)[b];

		v = (x > y) - (x < y);
	} else if (c->type == RES_F64) {
		double x = ((const double *) c->data)[a];
		double y = ((const double *) c->data)[b];

		if (isnan(x) || isnan(y))
			return isnan(x) - isnan(y);
		v = (x > y) - (x < y);
	} else {
		v = strcmp(str_at(c, a), str_at(c, b));
		v = (v > 0) - (v < 0);
	}
	return desc ? -v : v;
}

/* A stable merge sort of the row order by column "c": rows that compare
 * equal keep their order in the file, in either direction.
 */
static void sort_rows(const struct col *c, size_t *order, size_t *tmp,
	size_t n, int desc)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	sort_rows(c, order, tmp, mid, desc);
	sort_rows(c, order + mid, tmp, n - mid, desc);
	while (i < mid && j < n)
		tmp[k++] = cmp_cells(c, order[j], order[i], desc) < 0 ?
			order[j++] : order[i++];
	while (i < mid)
		tmp[k++] = order[i++];
	while (j < n)
		tmp[k++] = order[j++];
	memcpy(order, tmp, n * sizeof(*order));
}

/* A real number in as few significant digits as read back the same
 * value, for CSV.
 */
static void exact_real(double v, char *buf, size_t size)
{
	int p;

	for (p = 15; p < 17; p++) {
		snprintf(buf, size, "%.*g", p, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, size, "%.17g", v);
}

/* Cell r of column c as text: integers exact, reals with 4 significant
 * digits (exact with "csv"), strings as they are.
 */
static const char *cell(const struct col *c, size_t r, int csv, char *buf,
	size_t size)
{
	if (c->type == RES_STR)
		return str_at(c, r);
	if (c->type == RES_I64)
		snprintf(buf, size, "%lld",
			(long long) ((const int64_t *) c->data)[r]);
	else if (csv)
		exact_real(((const double *) c->data)[r], buf, size);
	else
		snprintf(buf, size, "%.4g", ((const double *) c->data)[r]);
	return buf;
}

/* One CSV field, quoted when it holds a comma, a quote or a line break
 * (RFC 4180), its quotes doubled.
 */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(FILE *out, const struct col **view, int n,
	const size_t *order, size_t nrows)
{
	char buf[64];
	size_t r;
	int k;

	for (k = 0; k < n; k++) {
		fputs(k ? "," : "", out);
		csv_field(out, view[k]->name);
	}
	fputs("\r\n", out);
	for (r = 0; r < nrows; r++) {
		for (k = 0; k < n; k++) {
			fputs(k ? "," : "", out);
			csv_field(out, cell(view[k], order[r], 1, buf,
				sizeof(buf)));
		}
		fputs("\r\n", out);
	}
}

/* The rows as one JSON object, every cell exact (JSON has no NaN or
 * infinity: they print as null).
 */
static void print_json(FILE *out, const char *file, const char *table,
	int partial, const struct col **view, int n, const size_t *order,
	size_t nrows)
{
	struct cli_json j;
	char buf[64];

	cli_json_begin(&j, out, 1);
	cli_json_open(&j, NULL, '{', 0);
	cli_json_str(&j, "file", file);
	cli_json_str(&j, "table", table);
	cli_json_bool(&j, "partial", partial);
	cli_json_open(&j, "rows", '[', 0);
	for (size_t r = 0; r < nrows; r++) {
		cli_json_open(&j, NULL, '{', 0);
		for (int k = 0; k < n; k++) {
			const struct col *c = view[k];

			if (c->type == RES_STR)
				cli_json_str(&j, c->name, str_at(c, order[r]));
			else if (c->type == RES_F64 && !isfinite(
			    ((const double *) c->data)[order[r]]))
				cli_json_null(&j, c->name);
			else
				cli_json_number(&j, c->name, cell(c, order[r],
					1, buf, sizeof(buf)));
		}
		cli_json_close(&j, '}');
	}
	cli_json_close(&j, ']');
	cli_json_close(&j, '}');
	fputc('\n', out);
}

/* Prints the aligned table: numbers right-aligned, text left-aligned,
 * two blanks between columns, no blanks after the last.
 */
static dse_stat print_table(FILE *out, const struct col **view, int n,
	const size_t *order, size_t nrows, dse_error *err)
{
	size_t *w = calloc((size_t) n, sizeof(*w)), r;
	char buf[64];
	int k;

	if (!w)
		return dse_error_nomem(err, "the widths of the columns shown",
			(double) n * sizeof(*w));
	for (k = 0; k < n; k++) {
		w[k] = strlen(view[k]->name);
		for (r = 0; r < nrows; r++) {
			size_t l = strlen(cell(view[k], r, 0, buf,
				sizeof(buf)));

			w[k] = l > w[k] ? l : w[k];
		}
	}
	for (r = 0; r <= nrows; r++) {
		for (k = 0; k < n; k++) {
			const char *s = r ? cell(view[k], order[r - 1], 0,
				buf, sizeof(buf)) : view[k]->name;
			int left = view[k]->type == RES_STR;

			fputs(k ? "  " : "", out);
			if (left && k == n - 1)
				fputs(s, out);
			else
				fprintf(out, left ? "%-*s" : "%*s",
					(int) w[k], s);
		}
		fputc('\n', out);
	}
	free(w);
	return dse_stat_ok;
}

/* An optional string attribute: NULL when absent (or unreadable, which
 * for a description line is the same).
 */
static char *opt_string(res_reader *r, const char *name)
{
	dse_error ignored;

	return res_read_attr_string(r, name, &ignored);
}

/* An optional integer attribute: 1 and *v when present, 0 otherwise. */
static int opt_i64(res_reader *r, const char *name, int64_t *v)
{
	dse_error ignored;

	return res_read_attr_i64(r, name, v, &ignored) == dse_stat_ok;
}

/* An optional real attribute: 1 and *v when present, 0 otherwise. */
static int opt_f64(res_reader *r, const char *name, double *v)
{
	dse_error ignored;

	return res_read_attr_f64(r, name, v, &ignored) == dse_stat_ok;
}

/* The description line: what was explored, where and how. */
static void print_header(FILE *out, res_reader *r, const char *file,
	const char *kernel, const char *objectives)
{
	char *family = opt_string(r, "family"), *board = opt_string(r, "board");
	char *list = NULL;
	char *strategy = opt_string(r, "strategy");
	char *graph = opt_string(r, "graph");
	int workload = family && strcmp(family, "systolic");
	int64_t st = 0;

	fprintf(out, "%s: %s %s", file, workload ? "workload" : "kernel",
		kernel);
	if (workload)
		fprintf(out, " (%s%s%s)", family, graph ? " on graph " : "",
			graph ? graph : "");
	else if (opt_i64(r, "space_time", &st) && st >= 0)
		fprintf(out, " (space-time %lld)", (long long) st);
	else if (st < 0 && (list = opt_string(r, "space_times")))
		fprintf(out, " (space-time candidates %s)", list);
	fprintf(out, ", board %s, strategy %s, objectives %s\n",
		board ? board : "?", strategy ? strategy : "?",
		objectives && objectives[0] ? objectives : "?");
	free(family);
	free(board);
	free(strategy);
	free(graph);
	free(list);
}

/* The second header line: the table, its row count, the order and what
 * the view leaves out.
 */
static void print_counts(FILE *out, res_reader *r, const struct tab *t,
	const struct show_cli *cli, int n_shown)
{
	int64_t evaluated, valid;
	double eps;
	int i, first = 1;

	fprintf(out, "%s: %zu row%s", t->path, t->nrows,
		t->nrows == 1 ? "" : "s");
	/* The cloud samples the legal points, a count the file does not
	 * hold (pruned points count as over a constraint), so the line
	 * gives the counts it has.
	 */
	if (!strcmp(cli->table, "cloud") &&
	    opt_i64(r, "points_evaluated", &evaluated) &&
	    opt_i64(r, "points_valid", &valid))
		fprintf(out, ", sampled from the legal points of the %lld "
			"evaluated (%lld valid)", (long long) evaluated,
			(long long) valid);
	/* A thinned or boxed front is not the exact one; say how coarse. */
	if (!strcmp(cli->table, "front") &&
	    opt_f64(r, "front_resolution_reached", &eps) && eps > 0)
		fprintf(out, ", one design per box of %.3g%% in every "
			"objective", 100.0 * eps);
	if (cli->sort)
		fprintf(out, ", sorted by %s (%s)", cli->sort,
			cli->desc ? "descending" : "ascending");
	if (n_shown < t->ncols && !cli->columns) {
		fputs("; not shown (--all):", out);
		for (i = 0; i < t->ncols; i++)
			if (!t->col[i].shown) {
				fprintf(out, "%s %s", first ? "" : ",",
					t->col[i].name);
				first = 0;
			}
	}
	fputc('\n', out);
}

/* Opens "file" as a dse results file and reads its kernel's name and
 * objectives.  Returns the reader, or NULL after a message (status 2 in
 * *status: the file is missing or not ours).
 */
static res_reader *open_results(const char *file, char **kernel,
	char **objectives, int *status)
{
	dse_error err;
	res_reader *r;
	char *tool;

	*status = 2;
	if (access(file, R_OK)) {
		fprintf(stderr, "dse show: cannot read results file '%s': %s\n",
			file, strerror(errno));
		return NULL;
	}
	dse_error_clear(&err);
	r = res_reader_open(file, &err);
	if (!r && err.code == DSE_E_INPUT) {
		fprintf(stderr, "dse show: %s\n", err.msg);
		return NULL;
	}
	if (!r) {
		fprintf(stderr, "dse show: '%s' is not a dse results file "
			"(not an HDF5 file)\n", file);
		return NULL;
	}
	tool = opt_string(r, "tool");
	*kernel = opt_string(r, "kernel");
	*objectives = opt_string(r, "objectives");
	if (!tool || strcmp(tool, "dse") || !*kernel || !(*kernel)[0]) {
		fprintf(stderr, "dse show: '%s' is not a dse results file (no "
			"'tool' = \"dse\" and 'kernel' attributes)\n", file);
		free(tool);
		free(*kernel);
		free(*objectives);
		*kernel = *objectives = NULL;
		return res_reader_close(r);
	}
	free(tool);
	return r;
}

/* Reads the table the command line asks for; 0, or an exit status after
 * a message.
 */
static int load_table(res_reader *r, const struct show_cli *cli,
	const char *kernel, struct tab *t)
{
	dse_error err;
	size_t n;

	t->name = cli->table;
	snprintf(t->path, sizeof(t->path), "/%s/%s", kernel, cli->table);
	dse_error_clear(&err);
	if (res_read_table_shape(r, t->path, &n, NULL, &err)) {
		fprintf(stderr, "dse show: '%s' has no table %s%s\n",
			cli->file, t->path, !strcmp(cli->table, "cloud") ?
			" (the sweep ran with [output] cloud = 0, or an older "
			"dse wrote it)" : "");
		return 2;
	}
	if (read_tab(r, t, &err)) {
		char line[DSE_ERROR_MSG_LEN + DSE_ERROR_FILE_LEN + 64];

		dse_error_format(&err, line, sizeof(line));
		fprintf(stderr, "dse show: %s\n", line);
		return dse_error_exit_status(&err) ?
			dse_error_exit_status(&err) : 1;
	}
	return 0;
}

/* Picks the view and the row order, and prints. */
static int show(res_reader *r, const struct show_cli *cli, struct tab *t,
	const char *kernel, const char *objectives)
{
	const struct col **view = calloc((size_t) t->ncols + 1, sizeof(*view));
	size_t *order = calloc(t->nrows + 1, sizeof(*order));
	size_t *tmp = calloc(t->nrows + 1, sizeof(*tmp)), i;
	struct col *sort = cli->sort ? find_col(t, cli->sort) : NULL;
	int64_t complete;
	int status = 0, n, partial;
	dse_error err;

	if (!view || !order || !tmp) {
		fprintf(stderr, "dse show: out of memory: the order of %zu "
			"rows\n", t->nrows);
		status = 1;
	} else if (cli->sort && !sort) {
		status = unknown_column(t, cli->file, cli->sort, "--sort");
	} else if (cli->columns) {
		status = chosen_view(t, cli->file, cli->columns);
	} else {
		default_view(t, objectives, cli->sort, cli->all || cli->json);
	}
	if (status)
		goto done;
	n = view_order(t, view);
	for (i = 0; i < t->nrows; i++)
		order[i] = i;
	if (sort)
		sort_rows(sort, order, tmp, t->nrows, cli->desc);
	/* A checkpoint is written while the sweep goes on and says so;
	 * CSV keeps the note out of the data.
	 */
	partial = opt_i64(r, "complete", &complete) && !complete;
	if (cli->json) {
		print_json(stdout, cli->file, t->name, partial, view, n, order,
			t->nrows);
	} else if (cli->csv) {
		if (partial)
			fprintf(stderr, "dse show: %s\n", partial_note);
		print_csv(stdout, view, n, order, t->nrows);
	} else {
		print_header(stdout, r, cli->file, kernel, objectives);
		if (partial)
			printf("%s\n", partial_note);
		print_counts(stdout, r, t, cli, n);
		dse_error_clear(&err);
		if (print_table(stdout, view, n, order, t->nrows, &err))
			status = 1;
	}
done:
	free(view);
	free(order);
	free(tmp);
	return status;
}

int dse_show_main(int argc, char **argv)
{
	struct show_cli cli;
	char *kernel = NULL, *objectives = NULL;
	struct tab t;
	res_reader *r;
	int status;

	status = parse(argc, argv, &cli);
	if (status || cli.help) {
		if (cli.help)
			fputs(dse_show_usage, stdout);
		return status;
	}
	r = open_results(cli.file, &kernel, &objectives, &status);
	if (!r)
		return status;
	memset(&t, 0, sizeof(t));
	status = load_table(r, &cli, kernel, &t);
	if (!status)
		status = show(r, &cli, &t, kernel, objectives);
	free_tab(&t);
	free(kernel);
	free(objectives);
	res_reader_close(r);
	if (fflush(stdout) && !status) {
		fprintf(stderr, "dse show: cannot write the output: %s\n",
			strerror(errno));
		status = 1;
	}
	return status;
}
