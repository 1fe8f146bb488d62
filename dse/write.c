/* Turning the search result into the results file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

/* Metric columns of the front, in file order: seconds and throughput are
 * real numbers, counts are exact integers.
 */
static const struct metric_col {
	int metric;
	enum res_type type;
} metric_cols[] = {
	{ SIM_M_CYCLES, RES_I64 }, { SIM_M_LATENCY, RES_F64 },
	{ SIM_M_GOPS, RES_F64 }, { SIM_M_DSP, RES_I64 },
	{ SIM_M_BRAM18K, RES_I64 }, { SIM_M_URAM, RES_I64 },
};
#define N_METRIC_COLS ((int) (sizeof(metric_cols) / sizeof(metric_cols[0])))
/* Integer columns derived from the metrics. */
#define N_SHAPE_COLS 3
#define MAX_COLS (2 + SEARCH_MAX_KNOBS + N_SHAPE_COLS + N_METRIC_COLS + 1)

/* An integer metric read from the struct itself, not through a double,
 * which would round cycle counts beyond 2^53.
 */
static int64_t metric_i64(const sim_metrics *m, int metric)
{
	switch (metric) {
	case SIM_M_CYCLES: return (int64_t) m->cycles;
	case SIM_M_DSP: return m->dsp;
	case SIM_M_BRAM18K: return m->bram18k;
	case SIM_M_URAM: return m->uram;
	default: return (int64_t) sim_metrics_get(m, metric);
	}
}

struct table {
	res_column col[MAX_COLS];
	int n;
	void *owned[MAX_COLS];
	char **strings;
	size_t rows;
};

static void *add_col(struct table *t, const char *name, const char *unit,
	enum res_type type)
{
	size_t sz = type == RES_F64 ? sizeof(double) : sizeof(int64_t);
	void *data = calloc(t->rows ? t->rows : 1, type == RES_STR ?
		sizeof(char *) : sz);

	t->col[t->n].name = name;
	t->col[t->n].unit = unit;
	t->col[t->n].type = type;
	t->col[t->n].data = data;
	t->owned[t->n++] = data;
	return data;
}

static void free_table(struct table *t)
{
	size_t r;
	int i;

	if (t->strings)
		for (r = 0; r < t->rows; r++)
			free(t->strings[r]);
	free(t->strings);
	for (i = 0; i < t->n; i++)
		free(t->owned[i]);
}

/* Fills the front table: index, knobs, array shape, metrics, model and the
 * AutoSA --sa-sizes string of every row.
 */
static int build_front(const dse_ctx *ctx, const search_front *front,
	struct table *t)
{
	int nk = search_space_n_knobs(ctx->space), k, m, ok = 1;
	int64_t *idx, *knob[SEARCH_MAX_KNOBS], *shape[N_SHAPE_COLS];
	void *mcol[N_METRIC_COLS];
	const char **model, **sa;
	size_t r;

	t->rows = search_front_size(front);
	idx = add_col(t, "index", "", RES_I64);
	for (k = 0; k < nk; k++)
		knob[k] = add_col(t, search_space_knob_name(ctx->space, k), "",
			RES_I64);
	shape[0] = add_col(t, "pe_rows", "PE", RES_I64);
	shape[1] = add_col(t, "pe_cols", "PE", RES_I64);
	shape[2] = add_col(t, "ii", "cycles", RES_I64);
	for (m = 0; m < N_METRIC_COLS; m++)
		mcol[m] = add_col(t, sim_metric_name(metric_cols[m].metric),
			sim_metric_unit(metric_cols[m].metric),
			metric_cols[m].type);
	model = add_col(t, "model", "", RES_STR);
	sa = add_col(t, "sa_sizes", "", RES_STR);
	t->strings = calloc(t->rows ? t->rows : 1, sizeof(char *));
	for (k = 0; k < t->n; k++)
		ok &= t->owned[k] != NULL;
	if (!ok || !t->strings)
		return -1;
	for (r = 0; r < t->rows; r++) {
		const search_point *p = search_front_at(front, r);

		idx[r] = (int64_t) p->index;
		for (k = 0; k < nk; k++)
			knob[k][r] = p->knobs[k];
		shape[0][r] = p->metrics.pe_rows;
		shape[1][r] = p->metrics.pe_cols;
		shape[2][r] = p->metrics.ii;
		for (m = 0; m < N_METRIC_COLS; m++)
			if (metric_cols[m].type == RES_F64)
				((double *) mcol[m])[r] = sim_metrics_get(
					&p->metrics, metric_cols[m].metric);
			else
				((int64_t *) mcol[m])[r] = metric_i64(
					&p->metrics, metric_cols[m].metric);
		model[r] = "analytic";
		t->strings[r] = malloc(RES_STR_LEN);
		if (!t->strings[r])
			return -1;
		sim_sa_sizes(ctx->model, p->knobs, t->strings[r], RES_STR_LEN);
		sa[r] = t->strings[r];
	}
	return 0;
}

static dse_stat write_attrs(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err)
{
	char objectives[256] = "";
	int i;

	for (i = 0; i < ctx->sopt.n_obj; i++) {
		strcat(objectives, i ? "," : "");
		strcat(objectives, sim_metric_name(ctx->sopt.objectives[i]));
	}
	if (res_attr_string(f, "tool", "dse", err) ||
	    res_attr_string(f, "tool_version", DSE_VERSION, err) ||
	    res_attr_string(f, "config", dse_cfg_text(ctx->cfg), err) ||
	    res_attr_string(f, "config_file", dse_cfg_file(ctx->cfg), err) ||
	    res_attr_string(f, "board", ctx->board.name, err) ||
	    res_attr_string(f, "kernel", ctx->tmpl.kernel, err) ||
	    res_attr_string(f, "strategy", "exhaustive", err) ||
	    res_attr_string(f, "objectives", objectives, err) ||
	    res_attr_i64(f, "seed", ctx->seed, err) ||
	    res_attr_i64(f, "ranks", ctx->size, err) ||
	    res_attr_i64(f, "threads", res->threads, err) ||
	    res_attr_f64(f, "wall_time", wall_s, err) ||
	    res_attr_f64(f, "search_time", res->seconds, err) ||
	    res_attr_i64(f, "points_total",
		(int64_t) search_space_size(ctx->space), err) ||
	    res_attr_i64(f, "points_evaluated", (int64_t) res->evaluated,
		err) ||
	    res_attr_i64(f, "points_valid", (int64_t) res->valid, err) ||
	    res_attr_i64(f, "points_over_constraint",
		(int64_t) res->over_constraint, err))
		return dse_stat_error;
	return dse_stat_ok;
}

dse_stat dse_write_results(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err)
{
	struct table t;
	char path[POLY_NAME_LEN + 16];
	dse_stat st;

	memset(&t, 0, sizeof(t));
	if (build_front(ctx, res->front, &t) < 0) {
		free_table(&t);
		res_file_abort(f);
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory building the front table");
	}
	snprintf(path, sizeof(path), "/%s/front", ctx->tmpl.kernel);
	st = write_attrs(ctx, f, res, wall_s, err);
	if (st == dse_stat_ok)
		st = res_write_table(f, path, t.col, t.n, t.rows, err);
	free_table(&t);
	if (st != dse_stat_ok) {
		res_file_abort(f);
		return st;
	}
	return res_file_commit(f, err);
}
