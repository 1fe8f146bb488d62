/* "dse analyze" printed: the analysis the application returns
 * (dse_analyze) as tables for people or as one JSON object for scripts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json.h"

/* One cell of a text table: wide enough for an isl relation printed by
 * the analysis (POLY_TEXT_LEN) and a few characters of decoration.
 */
#define CELL_LEN (POLY_TEXT_LEN + 32)
#define MAX_TABLE_COLS 12

/* ---- Formatting values ---------------------------------------------------- */

/* The loops for which flag[l] is set, joined by ", ". */
static void flagged_loops(const poly_analysis *a, const int *flag,
	char *buf, size_t size)
{
	int idx[POLY_MAX_LOOPS], n = 0, l;

	for (l = 0; l < a->n_loops && l < POLY_MAX_LOOPS; l++)
		if (flag[l])
			idx[n++] = l;
	dse_loop_list(a, idx, n, ", ", buf, size);
}

/* One component of a distance vector: the value when it is fixed, the
 * range "[min,max]" when it varies, "?" when the analysis could not bound
 * it (a may-dependence).
 */
static void dist_component(const poly_dep *d, int l, char *buf, size_t size)
{
	if (d->dist_min[l] == d->dist_max[l])
		dse_appendf(buf, size, "%lld", (long long) d->dist_min[l]);
	else if (d->unknown)
		dse_appendf(buf, size, "?");
	else
		dse_appendf(buf, size, "[%lld,%lld]", (long long) d->dist_min[l],
			(long long) d->dist_max[l]);
}

static void dist_vector(const poly_analysis *a, const poly_dep *d,
	char *buf, size_t size)
{
	int l;

	buf[0] = '\0';
	dse_appendf(buf, size, "(");
	for (l = 0; l < a->n_loops; l++) {
		if (l)
			dse_appendf(buf, size, ",");
		dist_component(d, l, buf, size);
	}
	dse_appendf(buf, size, ")");
}

static void group_deps(const poly_analysis *a, const poly_group *g,
	char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < g->n_deps; i++)
		dse_appendf(buf, size, "%s%s", i ? "," : "",
			g->dep[i] >= 0 && g->dep[i] < a->n_deps ?
			a->dep[g->dep[i]].name : "?");
	if (g->n_deps == 0)
		dse_appendf(buf, size, "-");
}

static const char *access_text(const poly_analysis *a, int acc)
{
	return acc >= 0 && acc < a->n_accesses ? a->access[acc].text : "?";
}

static const char *yes_no(int v)
{
	return v ? "yes" : "no";
}

/* How the values of group g of "t" (a candidate's template) leave the
 * array, as the models drain them: a key for JSON ("none", "stays",
 * "with_flow", "every_tile", "per_tile", "once") and, in "loops", the band
 * loops whose tiles name one drained tile ("i,j"; "-" when none).
 */
static const char *drain_of(const poly_template *t, int g, char *loops,
	size_t size)
{
	const poly_group *gr = &t->group[g];
	unsigned mask;
	int l;

	loops[0] = '\0';
	dse_appendf(loops, size, "-");
	if (gr->pruned)
		return "stays";
	if (poly_template_superseded(t, g))
		return "with_flow";
	if (!gr->copy_out && gr->kind != POLY_DEP_FLOW)
		return "none";
	mask = poly_template_drain_loops(t, g);
	loops[0] = '\0';
	for (l = 0; l < t->band; l++)
		if (mask >> l & 1u)
			dse_appendf(loops, size, "%s%s", loops[0] ? "," : "",
				t->loop[l]);
	if (!loops[0])
		dse_appendf(loops, size, "-");
	return gr->kind == POLY_DEP_FLOW ? "every_tile" : mask ? "per_tile" :
		"once";
}

/* drain_of as a table cell: "every tile", "per i,j tile", ... */
static void drain_cell(const poly_template *t, int g, char *buf, size_t size)
{
	char loops[CELL_LEN];
	const char *how = drain_of(t, g, loops, sizeof(loops));

	buf[0] = '\0';
	if (!strcmp(how, "stays"))
		dse_appendf(buf, size, "stays in PEs");
	else if (!strcmp(how, "with_flow"))
		dse_appendf(buf, size, "with its flow");
	else if (!strcmp(how, "every_tile"))
		dse_appendf(buf, size, "every tile");
	else if (!strcmp(how, "per_tile"))
		dse_appendf(buf, size, "per %s tile", loops);
	else
		dse_appendf(buf, size, "%s", !strcmp(how, "once") ? "once" : "-");
}

/* ---- Text tables ---------------------------------------------------------- */

/* A table of text cells, printed with each column as wide as its widest
 * cell; the last column is not padded, so long isl relations do not push
 * trailing spaces.
 */
struct table {
	int ncols;
	int nrows;
	const char *head[MAX_TABLE_COLS];
	char (*cell)[CELL_LEN];		/* nrows * ncols */
};

static int table_init(struct table *t, int nrows, int ncols,
	const char *const *head)
{
	int c;

	t->ncols = ncols;
	t->nrows = 0;
	for (c = 0; c < ncols; c++)
		t->head[c] = head[c];
	t->cell = calloc((size_t) (nrows ? nrows : 1) * ncols, CELL_LEN);
	return t->cell ? 0 : -1;
}

/* The cells of a new row, cleared. */
static char (*table_row(struct table *t))[CELL_LEN]
{
	return t->cell + (size_t) t->nrows++ * t->ncols;
}

static void table_print(const struct table *t, FILE *out)
{
	int w[MAX_TABLE_COLS], r, c;

	for (c = 0; c < t->ncols; c++) {
		w[c] = (int) strlen(t->head[c]);
		for (r = 0; r < t->nrows; r++) {
			int len = (int) strlen(t->cell[r * t->ncols + c]);

			w[c] = len > w[c] ? len : w[c];
		}
	}
	for (r = -1; r < t->nrows; r++) {
		int pad = 0;

		/* Padding is written only before a non-empty cell, so that
		 * no line ends in spaces.
		 */
		fputs("  ", out);
		for (c = 0; c < t->ncols; c++) {
			const char *s = r < 0 ? t->head[c] :
				t->cell[r * t->ncols + c];

			if (s[0]) {
				fprintf(out, "%*s%s", pad, "", s);
				pad = 0;
			}
			pad += w[c] - (int) strlen(s) + 2;
		}
		fputc('\n', out);
	}
}

static void table_free(struct table *t)
{
	free(t->cell);
	t->cell = NULL;
}

/* ---- The text report ------------------------------------------------------ */

static void print_summary(const poly_analysis *a, double read_s, FILE *out)
{
	char buf[CELL_LEN * 2];
	int l, band[POLY_MAX_LOOPS];

	fprintf(out, "kernel %s: compute statement %s, %llu instances x %d "
		"ops", a->kernel, a->statement,
		(unsigned long long) a->points, a->ops_per_point);
	/* A guarded domain runs the tiles of its bounding box. */
	if (a->box_points != a->points)
		fprintf(out, " (the array runs its bounding box of %llu)",
			(unsigned long long) a->box_points);
	fprintf(out, "\n  statements     ");
	for (l = 0; l < a->n_statements; l++)
		fprintf(out, "%s%s%s", l ? ", " : "", a->stmt_name[l],
			a->stmt_role[l] == POLY_ROLE_INIT ?
			" (initialises the output)" : "");
	fprintf(out, "\n  loops          ");
	for (l = 0; l < a->n_loops; l++)
		fprintf(out, "%s%s [%lld]", l ? ", " : "", a->loop[l],
			(long long) a->extent[l]);
	for (l = 0; l < a->band && l < POLY_MAX_LOOPS; l++)
		band[l] = l;
	dse_loop_list(a, band, a->band, ", ", buf, sizeof(buf));
	fprintf(out, "\n  band           %s (outermost permutable)\n", buf);
	fprintf(out, "  reduction      %s\n", a->reduction >= 0 &&
		a->reduction < a->n_loops ? a->loop[a->reduction] : "-");
	flagged_loops(a, a->parallel, buf, sizeof(buf));
	fprintf(out, "  parallel       %s\n", buf);
	flagged_loops(a, a->space_ok, buf, sizeof(buf));
	fprintf(out, "  space loops    %s (candidates)\n", buf);
	if (a->simd_loop >= 0 && a->simd_loop < a->n_loops)
		fprintf(out, "  simd           %s%s%s%s\n",
			a->loop[a->simd_loop],
			a->simd_layout[0] ? " (layout change " : "",
			a->simd_layout, a->simd_layout[0] ? ")" : "");
	else
		fprintf(out, "  simd           -\n");
	if (read_s > 0)
		fprintf(out, "  C reader       %.3f s (libclang and isl)\n",
			read_s);
	fprintf(out, "  analysis       %.3f s\n", a->seconds);
}

static int print_deps(const poly_analysis *a, FILE *out)
{
	static const char *const head[] = { "name", "type", "array", "access",
		"distance", "relation" };
	struct table t;
	int i;

	fprintf(out, "\ndependences (%d)\n", a->n_deps);
	if (a->n_deps == 0)
		return 0;
	if (table_init(&t, a->n_deps, 6, head) < 0)
		return -1;
	for (i = 0; i < a->n_deps; i++) {
		const poly_dep *d = &a->dep[i];
		char (*row)[CELL_LEN] = table_row(&t);

		snprintf(row[0], CELL_LEN, "%s", d->name);
		snprintf(row[1], CELL_LEN, "%s%s", poly_dep_kind_name(d->kind),
			d->unknown ? " (may)" : "");
		snprintf(row[2], CELL_LEN, "%s", d->array);
		snprintf(row[3], CELL_LEN, "%s", access_text(a, d->access));
		dist_vector(a, d, row[4], CELL_LEN);
		snprintf(row[5], CELL_LEN, "%s", d->relation);
	}
	table_print(&t, out);
	table_free(&t);
	return 0;
}

static int print_candidates(const poly_analysis *a, int chosen, FILE *out)
{
	static const char *const head[] = { "index", "dims", "space", "time",
		"groups", "note" };
	struct table t;
	int i;

	fprintf(out, "\nspace-time candidates (%d; default %d)\n",
		a->n_candidates, a->default_candidate);
	if (a->n_candidates == 0)
		return 0;
	if (table_init(&t, a->n_candidates, 6, head) < 0)
		return -1;
	for (i = 0; i < a->n_candidates; i++) {
		const poly_candidate *c = &a->cand[i];
		char (*row)[CELL_LEN] = table_row(&t);

		snprintf(row[0], CELL_LEN, "%d", c->index);
		snprintf(row[1], CELL_LEN, "%d-D", c->n_space);
		dse_loop_list(a, c->space, c->n_space, ",", row[2], CELL_LEN);
		dse_loop_list(a, c->time, c->n_time, ",", row[3], CELL_LEN);
		snprintf(row[4], CELL_LEN, "%d", c->n_groups);
		snprintf(row[5], CELL_LEN, "%s%s%s",
			c->index == a->default_candidate ? "default" : "",
			c->index == a->default_candidate && c->index == chosen ?
			", " : "", c->index == chosen ? "config" : "");
	}
	table_print(&t, out);
	table_free(&t);
	return 0;
}

static void group_row(const poly_analysis *a, const poly_candidate *c,
	const poly_template *t, int i, char (*row)[CELL_LEN])
{
	const poly_group *g = &c->group[i];

	snprintf(row[0], CELL_LEN, "%s", g->name);
	snprintf(row[1], CELL_LEN, "%s", access_text(a, g->access));
	snprintf(row[2], CELL_LEN, "%s", poly_dep_kind_name(g->kind));
	group_deps(a, g, row[3], CELL_LEN);
	dse_group_direction(c, g, row[4], CELL_LEN);
	snprintf(row[5], CELL_LEN, "%s", dse_io_type_name(g->type));
	snprintf(row[6], CELL_LEN, "%s", g->copy_in && g->copy_out ? "in/out" :
		g->copy_in ? "in" : g->copy_out ? "out" : "-");
	snprintf(row[7], CELL_LEN, "%s", yes_no(g->pruned));
	snprintf(row[8], CELL_LEN, "%s", yes_no(g->embedded));
	snprintf(row[9], CELL_LEN, "%d", g->levels);
	snprintf(row[10], CELL_LEN, "%s", dse_io_level_name(g->buffer_level));
	drain_cell(t, i, row[11], CELL_LEN);
}

/* The groups of candidate c, with when each is drained: the tiles run
 * in the candidate's loop order (space loops outermost, then the others
 * as written), which the models read from its template.
 */
static int print_groups(const poly_analysis *a, const poly_candidate *c,
	FILE *out)
{
	static const char *const head[] = { "group", "access", "kind", "deps",
		"dir", "type", "copy", "pruned", "embedded", "levels",
		"buffer", "drained" };
	char space[CELL_LEN], time[CELL_LEN];
	poly_template *tmpl;
	struct table t;
	int i;

	dse_loop_list(a, c->space, c->n_space, ",", space, sizeof(space));
	dse_loop_list(a, c->time, c->n_time, ",", time, sizeof(time));
	fprintf(out, "\ncandidate %d: %d-D array, space %s, time %s; I/O "
		"groups (%d)\n", c->index, c->n_space, space, time,
		c->n_groups);
	if (c->n_groups == 0)
		return 0;
	tmpl = malloc(sizeof(*tmpl));
	if (!tmpl || poly_template_from(a, c->index, tmpl, NULL) ||
	    table_init(&t, c->n_groups, 12, head) < 0) {
		free(tmpl);
		return -1;
	}
	for (i = 0; i < c->n_groups; i++)
		group_row(a, c, tmpl, i, table_row(&t));
	free(tmpl);
	table_print(&t, out);
	table_free(&t);
	for (i = 0; i < c->n_groups; i++) {
		const poly_group *g = &c->group[i];

		if (g->copy_in_set[0])
			fprintf(out, "  %-5s W_in   %s\n", g->name,
				g->copy_in_set);
		if (g->copy_out_set[0])
			fprintf(out, "  %-5s W_out  %s\n", g->name,
				g->copy_out_set);
	}
	return 0;
}

static int print_text(const poly_analysis *a, int only, int chosen,
	double read_s, FILE *out)
{
	int i;

	print_summary(a, read_s, out);
	if (print_deps(a, out) < 0 || print_candidates(a, chosen, out) < 0)
		return -1;
	for (i = 0; i < a->n_candidates; i++)
		if ((only < 0 || a->cand[i].index == only) &&
		    print_groups(a, &a->cand[i], out) < 0)
			return -1;
	return 0;
}

/* ---- JSON ----------------------------------------------------------------- */

/* A loop name by index, or null when there is no such loop (-1). */
static void json_loop(struct cli_json *j, const poly_analysis *a,
	const char *key, int l)
{
	if (l >= 0 && l < a->n_loops)
		cli_json_str(j, key, a->loop[l]);
	else
		cli_json_null(j, key);
}

static void json_loops(struct cli_json *j, const poly_analysis *a,
	const char *key, const int *idx, int n)
{
	int i;

	cli_json_open(j, key, '[', 1);
	for (i = 0; i < n; i++)
		json_loop(j, a, NULL, idx[i]);
	cli_json_close(j, ']');
}

static void json_flagged(struct cli_json *j, const poly_analysis *a,
	const char *key, const int *flag)
{
	int idx[POLY_MAX_LOOPS], n = 0, l;

	for (l = 0; l < a->n_loops && l < POLY_MAX_LOOPS; l++)
		if (flag[l])
			idx[n++] = l;
	json_loops(j, a, key, idx, n);
}

static void json_kernel(struct cli_json *j, const poly_analysis *a)
{
	int l, band[POLY_MAX_LOOPS];

	cli_json_str(j, "kernel", a->kernel);
	cli_json_str(j, "statement", a->statement);
	cli_json_open(j, "statements", '[', 1);
	for (l = 0; l < a->n_statements; l++)
		cli_json_str(j, NULL, a->stmt_name[l]);
	cli_json_close(j, ']');
	cli_json_open(j, "statement_roles", '[', 1);
	for (l = 0; l < a->n_statements; l++)
		cli_json_str(j, NULL, a->stmt_role[l] == POLY_ROLE_INIT ?
			"init" : "compute");
	cli_json_close(j, ']');
	cli_json_int(j, "points", (long long) a->points);
	cli_json_int(j, "box_points", (long long) a->box_points);
	cli_json_int(j, "ops_per_point", a->ops_per_point);
	cli_json_open(j, "loops", '[', 0);
	for (l = 0; l < a->n_loops; l++) {
		cli_json_open(j, NULL, '{', 1);
		cli_json_str(j, "name", a->loop[l]);
		cli_json_int(j, "extent", (long long) a->extent[l]);
		cli_json_bool(j, "parallel", a->parallel[l]);
		cli_json_bool(j, "space_ok", a->space_ok[l]);
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
	for (l = 0; l < a->band && l < POLY_MAX_LOOPS; l++)
		band[l] = l;
	json_loops(j, a, "band", band, a->band);
	json_loop(j, a, "reduction", a->reduction);
	json_flagged(j, a, "parallel", a->parallel);
	json_flagged(j, a, "space_loops", a->space_ok);
	json_loop(j, a, "simd_loop", a->simd_loop);
	cli_json_str(j, "simd_layout", a->simd_layout);
}

static void json_accesses(struct cli_json *j, const poly_analysis *a)
{
	int i;

	cli_json_open(j, "accesses", '[', 0);
	for (i = 0; i < a->n_accesses; i++) {
		const poly_access *acc = &a->access[i];

		cli_json_open(j, NULL, '{', 1);
		cli_json_str(j, "array", acc->array);
		cli_json_str(j, "text", acc->text);
		cli_json_bool(j, "write", acc->write);
		cli_json_bool(j, "may", acc->may);
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
}

static void json_deps(struct cli_json *j, const poly_analysis *a)
{
	int i, l;

	cli_json_open(j, "dependences", '[', 0);
	for (i = 0; i < a->n_deps; i++) {
		const poly_dep *d = &a->dep[i];

		cli_json_open(j, NULL, '{', 0);
		cli_json_str(j, "name", d->name);
		cli_json_str(j, "type", poly_dep_kind_name(d->kind));
		cli_json_str(j, "array", d->array);
		cli_json_str(j, "access", access_text(a, d->access));
		cli_json_str(j, "relation", d->relation);
		cli_json_open(j, "distance_min", '[', 1);
		for (l = 0; l < a->n_loops; l++)
			cli_json_int(j, NULL, (long long) d->dist_min[l]);
		cli_json_close(j, ']');
		cli_json_open(j, "distance_max", '[', 1);
		for (l = 0; l < a->n_loops; l++)
			cli_json_int(j, NULL, (long long) d->dist_max[l]);
		cli_json_close(j, ']');
		cli_json_bool(j, "uniform", d->uniform);
		cli_json_bool(j, "unknown", d->unknown);
		cli_json_close(j, '}');
	}
	cli_json_close(j, ']');
}

static void json_group(struct cli_json *j, const poly_analysis *a,
	const poly_candidate *c, const poly_template *t, int index)
{
	const poly_group *g = &c->group[index];
	char loops[CELL_LEN], *p, *next;
	int i;

	cli_json_open(j, NULL, '{', 0);
	cli_json_str(j, "name", g->name);
	cli_json_str(j, "array", g->array);
	cli_json_str(j, "access", access_text(a, g->access));
	cli_json_str(j, "kind", poly_dep_kind_name(g->kind));
	cli_json_open(j, "deps", '[', 1);
	for (i = 0; i < g->n_deps; i++)
		if (g->dep[i] >= 0 && g->dep[i] < a->n_deps)
			cli_json_str(j, NULL, a->dep[g->dep[i]].name);
	cli_json_close(j, ']');
	if (g->dir_known) {
		cli_json_open(j, "direction", '[', 1);
		for (i = 0; i < c->n_space; i++)
			cli_json_int(j, NULL, g->dir[i]);
		cli_json_close(j, ']');
	} else {
		cli_json_null(j, "direction");
	}
	cli_json_str(j, "type", dse_io_type_name(g->type));
	cli_json_bool(j, "copy_in", g->copy_in);
	cli_json_bool(j, "copy_out", g->copy_out);
	cli_json_bool(j, "pruned", g->pruned);
	cli_json_bool(j, "embedded", g->embedded);
	cli_json_int(j, "levels", g->levels);
	cli_json_str(j, "buffer_level", dse_io_level_name(g->buffer_level));
	cli_json_str(j, "copy_in_set", g->copy_in_set);
	cli_json_str(j, "copy_out_set", g->copy_out_set);
	/* When its values leave the array, and per tile of which loops. */
	cli_json_str(j, "drain", drain_of(t, index, loops, sizeof(loops)));
	cli_json_open(j, "drain_loops", '[', 1);
	for (p = loops; strcmp(loops, "-") && p; p = next) {
		next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		cli_json_str(j, NULL, p);
	}
	cli_json_close(j, ']');
	cli_json_close(j, '}');
}

/* One candidate; -1 when out of memory for its template. */
static int json_candidate(struct cli_json *j, const poly_analysis *a,
	const poly_candidate *c)
{
	poly_template *tmpl = malloc(sizeof(*tmpl));
	int order[POLY_MAX_LOOPS], n = poly_candidate_order(a, c, order);
	char dims[16];
	int i;

	if (tmpl && poly_template_from(a, c->index, tmpl, NULL)) {
		free(tmpl);
		tmpl = NULL;
	}
	cli_json_open(j, NULL, '{', 0);
	cli_json_int(j, "index", c->index);
	snprintf(dims, sizeof(dims), "%d-D", c->n_space);
	cli_json_str(j, "dims", dims);
	json_loops(j, a, "space_loops", c->space, c->n_space);
	json_loops(j, a, "time_loops", c->time, c->n_time);
	/* The order the tiles run in, which is the order of the knobs. */
	json_loops(j, a, "loop_order", order, n > 0 ? n : 0);
	cli_json_open(j, "io_groups", '[', 0);
	for (i = 0; i < c->n_groups && tmpl; i++)
		json_group(j, a, c, tmpl, i);
	cli_json_close(j, ']');
	cli_json_close(j, '}');
	free(tmpl);
	return tmpl ? 0 : -1;
}

/* The whole analysis as one object.  "only" (>= 0) keeps that candidate
 * alone in "candidates"; n_candidates always counts them all.  "chosen"
 * is what a sweep of this config would take (-1: the config's choice is
 * not a candidate).  Returns -1 when out of memory.
 */
static int print_json(const dse_ctx *ctx, const poly_analysis *a, int only,
	int chosen, double read_s, FILE *out)
{
	struct cli_json j;
	int i, r = 0;

	cli_json_begin(&j, out, 0);
	cli_json_open(&j, NULL, '{', 0);
	cli_json_str(&j, "tool_version", DSE_VERSION);
	cli_json_str(&j, "config_file", dse_cfg_file(ctx->cfg));
	json_kernel(&j, a);
	json_accesses(&j, a);
	json_deps(&j, a);
	cli_json_int(&j, "n_candidates", a->n_candidates);
	cli_json_open(&j, "candidates", '[', 0);
	for (i = 0; i < a->n_candidates; i++)
		if (only < 0 || a->cand[i].index == only)
			r |= json_candidate(&j, a, &a->cand[i]);
	cli_json_close(&j, ']');
	cli_json_int(&j, "default_candidate", a->default_candidate);
	if (chosen >= 0)
		cli_json_int(&j, "space_time", chosen);
	else
		cli_json_null(&j, "space_time");
	cli_json_fixed(&j, "analysis_seconds", a->seconds, 6);
	if (read_s > 0)
		cli_json_fixed(&j, "read_seconds", read_s, 6);
	cli_json_close(&j, '}');
	fputc('\n', out);
	return r;
}


/* ---- The command ---------------------------------------------------------- */

dse_stat cli_analysis_print(const dse_ctx *ctx, const dse_analysis *res,
	const dse_analyze_opts *opts, FILE *out, dse_error *err)
{
	const poly_analysis *a = res->a;
	int r;

	/* A sweep of this config stops at a space_time the kernel does not
	 * have; the analysis is still shown, with the warning first.
	 */
	if (res->chosen < 0)
		fprintf(stderr, "dse: %s:%d:%d: warning: space_time = %lld is "
			"not a candidate of kernel '%s' (0..%d); a sweep stops "
			"there, key 'space_time'\n", dse_cfg_file(ctx->cfg),
			res->bad_line, res->bad_col, res->bad_choice,
			a->kernel, a->n_candidates - 1);
	if (opts->json)
		r = print_json(ctx, a, opts->space_time, res->chosen,
			res->read_seconds, out);
	else
		r = print_text(a, opts->space_time, res->chosen,
			res->read_seconds, out);
	if (r < 0)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory formatting the analysis");
	if (fflush(out) != 0 || ferror(out))
		return dse_error_set(err, DSE_E_IO,
			"cannot write the analysis to standard output");
	return dse_stat_ok;
}
