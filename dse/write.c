/* Turning the search result into the results file. */
#include <math.h>
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
	{ SIM_M_LUT, RES_I64 }, { SIM_M_FF, RES_I64 },
	{ SIM_M_OFFCHIP, RES_I64 }, { SIM_M_ENERGY, RES_F64 },
	{ SIM_M_EDP, RES_F64 },
};
#define N_METRIC_COLS ((int) (sizeof(metric_cols) / sizeof(metric_cols[0])))
/* Integer columns derived from the metrics. */
#define N_SHAPE_COLS 4
/* Plus the clock, a real number that is not an objective, and the three
 * columns of the sampled model's estimate.
 */
#define MAX_COLS (3 + SEARCH_MAX_KNOBS + N_SHAPE_COLS + N_METRIC_COLS + 1 + 3 \
	+ N_SHARE_COLS + N_BOUND_COLS)
/* Plus the share of the board of the resources the summary shows only as
 * a share (LUT and FF: their counts run to millions).
 */
#define N_SHARE_COLS 2
/* Plus what bounds the design: bound_by, bound_array, bound_share. */
#define N_BOUND_COLS 3

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
	case SIM_M_LUT: return m->lut;
	case SIM_M_FF: return m->ff;
	case SIM_M_OFFCHIP: return m->offchip_bytes;
	default: return (int64_t) sim_metrics_get(m, metric);
	}
}

/* A table being built: its columns (owned), and a block of formatted
 * strings, text_per_row of RES_STR_LEN bytes per row, that string columns
 * point into.
 */
struct table {
	res_column col[MAX_COLS];
	int n;
	void *owned[MAX_COLS];
	char *text;
	int text_per_row;
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

/* Allocates the string block; returns -1 when out of memory. */
static int alloc_text(struct table *t, int per_row)
{
	t->text_per_row = per_row;
	t->text = calloc((t->rows ? t->rows : 1) * (size_t) per_row,
		RES_STR_LEN);
	return t->text ? 0 : -1;
}

/* String k of row r. */
static char *text_at(const struct table *t, size_t r, int k)
{
	return t->text + (r * (size_t) t->text_per_row + (size_t) k) *
		RES_STR_LEN;
}

/* Whether every column (and the string block, when asked for) exists. */
static int table_ok(const struct table *t)
{
	int k;

	for (k = 0; k < t->n; k++)
		if (!t->owned[k])
			return 0;
	return !t->text_per_row || t->text;
}

static void free_table(struct table *t)
{
	int i;

	free(t->text);
	for (i = 0; i < t->n; i++)
		free(t->owned[i]);
	memset(t, 0, sizeof(*t));
}

/* The unit of a knob column: a workload family's from its knob table;
 * of a systolic array, tiling factors are plain numbers and the two knobs
 * without a loop are codes, spelled out so a reader of the file needs no
 * other document.
 */
static const char *knob_unit(const dse_ctx *ctx, int k)
{
	const char *name = search_space_knob_name(ctx->space, k);

	if (ctx->fam)
		return dse_workload_knob_unit(ctx, k);
	if (!ctx->model)
		return "";
	if (!strcmp(name, "io_network"))
		return "0=daisy,1=multicast";
	if (!strcmp(name, "double_buffer"))
		return "0=off,1=on";
	/* A sweep over several candidates: the candidate, and 0 where a
	 * row's candidate has no such knob.
	 */
	if (ctx->n_cands && k == 0)
		return "candidate (dse analyze)";
	if (ctx->n_cands)
		return "0=not a knob of the row's candidate";
	return "";
}

/* The columns the front and the cloud share: the index, one per knob,
 * one per metric of metric_cols.
 */
struct common_cols {
	int nk;
	int64_t *idx, *knob[SEARCH_MAX_KNOBS];
	void *mcol[N_METRIC_COLS];
};

/* Adds the index and knob columns (the first of both tables). */
static void add_index_knobs(const dse_ctx *ctx, struct table *t,
	struct common_cols *c)
{
	int k;

	c->nk = search_space_n_knobs(ctx->space);
	c->idx = add_col(t, "index", "", RES_I64);
	for (k = 0; k < c->nk; k++)
		c->knob[k] = add_col(t, search_space_knob_name(ctx->space, k),
			knob_unit(ctx, k), RES_I64);
}

static void add_metrics(struct table *t, struct common_cols *c)
{
	int m;

	for (m = 0; m < N_METRIC_COLS; m++)
		c->mcol[m] = add_col(t, sim_metric_name(metric_cols[m].metric),
			sim_metric_unit(metric_cols[m].metric),
			metric_cols[m].type);
}

/* Row r of the shared columns from point p. */
static void fill_common(const struct common_cols *c, size_t r,
	const search_point *p)
{
	int k, m;

	c->idx[r] = (int64_t) p->index;
	for (k = 0; k < c->nk; k++)
		c->knob[k][r] = p->knobs[k];
	for (m = 0; m < N_METRIC_COLS; m++)
		if (metric_cols[m].type == RES_F64)
			((double *) c->mcol[m])[r] = sim_metrics_get(
				&p->metrics, metric_cols[m].metric);
		else
			((int64_t *) c->mcol[m])[r] = metric_i64(&p->metrics,
				metric_cols[m].metric);
}

/* The share of the board resource "id" of "m" takes, in percent (NaN
 * on a board without that resource).
 */
static double board_pct(const dse_ctx *ctx, const sim_metrics *m,
	enum sim_metric id)
{
	double cap = sim_metric_capacity(&ctx->board, id);

	return cap > 0 ? 100.0 * sim_metrics_get(m, id) / cap : NAN;
}

/* The template of a front row's design; NULL for a workload's. */
static const poly_template *row_tmpl(const dse_ctx *ctx,
	const search_point *p)
{
	const poly_template *t;
	const sim_model *m;
	int32_t local[SEARCH_MAX_KNOBS];

	return dse_point_design(ctx, p->knobs, &t, &m, local) < 0 ? NULL : t;
}

/* Fills the front table: index, knobs, array shape, metrics, clock, model
 * (with the interval of the cycles and the fraction of tiles simulated)
 * and the AutoSA --sa-sizes string of every row.
 */
static int build_front(const dse_ctx *ctx, const search_front *front,
	struct table *t)
{
	struct common_cols c;
	int64_t *shape[N_SHAPE_COLS];
	const char **model, **sa, **bound, **bound_array, **cand = NULL;
	double *mhz, *low, *high, *frac, *lut_pct, *ff_pct, *share;
	size_t r;

	t->rows = search_front_size(front);
	add_index_knobs(ctx, t, &c);
	/* A sweep over several candidates names each row's, as dse analyze
	 * does ("[o,r]").
	 */
	if (ctx->n_cands)
		cand = add_col(t, "space_time_name", "space loops", RES_STR);
	/* A systolic array has a shape; a GNN accelerator's PEs are a knob
	 * of the overlay family, and only their count means something.
	 */
	memset(shape, 0, sizeof(shape));
	if (ctx->model) {
		shape[0] = add_col(t, "pe_rows", "PE", RES_I64);
		shape[1] = add_col(t, "pe_cols", "PE", RES_I64);
		shape[2] = add_col(t, "ii", "cycles", RES_I64);
	}
	if (search_space_knob_index(ctx->space, "n_pe") < 0)
		shape[3] = add_col(t, "n_pe", "PE", RES_I64);
	add_metrics(t, &c);
	lut_pct = add_col(t, "lut_pct", "% of the board", RES_F64);
	ff_pct = add_col(t, "ff_pct", "% of the board", RES_F64);
	/* What bounds each design: the kind (compute, dram, io, drain;
	 * empty where the family does not say), the array of an io or
	 * drain bound, and the share of the cycles the bounding resource
	 * is busy.
	 */
	bound = add_col(t, "bound_by", "compute,dram,io,drain", RES_STR);
	bound_array = add_col(t, "bound_array", "", RES_STR);
	share = add_col(t, "bound_share", "of the cycles", RES_F64);
	/* The clock is a knob of the GNN families: its column is that. */
	mhz = search_space_knob_index(ctx->space, "mhz") < 0 ?
		add_col(t, "mhz", "MHz", RES_F64) : NULL;
	model = add_col(t, "model", "", RES_STR);
	low = add_col(t, "cycles_low", "cycles", RES_F64);
	high = add_col(t, "cycles_high", "cycles", RES_F64);
	frac = add_col(t, "sampled_fraction", "", RES_F64);
	/* A workload's design has no AutoSA string; its column spells out
	 * the family's knobs instead.
	 */
	sa = add_col(t, dse_is_workload(ctx) ? "design" : "sa_sizes", "",
		RES_STR);
	if (alloc_text(t, 1) < 0 || !table_ok(t))
		return -1;
	for (r = 0; r < t->rows; r++) {
		const search_point *p = search_front_at(front, r);

		fill_common(&c, r, p);
		bound[r] = sim_bound_name(p->metrics.bound_by);
		bound_array[r] = dse_bound_array(row_tmpl(ctx, p),
			&p->metrics);
		if (cand)
			cand[r] = dse_cand_find(ctx, p->knobs[0]) ?
				dse_cand_find(ctx, p->knobs[0])->name : "";
		share[r] = p->metrics.bound_by ? p->metrics.bound_share : NAN;
		if (shape[0]) {
			shape[0][r] = p->metrics.pe_rows;
			shape[1][r] = p->metrics.pe_cols;
			shape[2][r] = p->metrics.ii;
		}
		if (shape[3])
			shape[3][r] = p->metrics.n_pe;
		lut_pct[r] = board_pct(ctx, &p->metrics, SIM_M_LUT);
		ff_pct[r] = board_pct(ctx, &p->metrics, SIM_M_FF);
		if (mhz)
			mhz[r] = p->metrics.mhz;
		model[r] = sim_model_kind_name(p->model);
		low[r] = p->cycles_low;
		high[r] = p->cycles_high;
		frac[r] = p->sampled_fraction;
		dse_design_text(ctx, p->knobs, text_at(t, r, 0), RES_STR_LEN);
		sa[r] = text_at(t, r, 0);
	}
	return 0;
}

/* Fills the cloud table: index, knobs, the front's metric columns and
 * whether the point met the constraints.  No string columns: at 320
 * bytes a row each they would dwarf the numbers of a large cloud, and a
 * point's design string follows from its knobs.
 */
static int build_cloud(const dse_ctx *ctx, const search_cloud *cloud,
	struct table *t)
{
	struct common_cols c;
	int64_t *feasible;
	size_t r;

	t->rows = search_cloud_size(cloud);
	add_index_knobs(ctx, t, &c);
	add_metrics(t, &c);
	feasible = add_col(t, "feasible", "0=no,1=yes", RES_I64);
	if (!table_ok(t))
		return -1;
	for (r = 0; r < t->rows; r++) {
		const search_point *p = search_cloud_at(cloud, r);

		fill_common(&c, r, p);
		feasible[r] = search_feasible(&ctx->sopt, &p->metrics) != 0;
	}
	return 0;
}

/* Writes a built table as /<kernel>/<name> and frees it; "built" is what
 * its builder returned (-1: out of memory, nothing written).
 */
static dse_stat put_table(const dse_ctx *ctx, res_file *f, const char *name,
	struct table *t, int built, dse_error *err)
{
	char path[POLY_NAME_LEN + 32];
	dse_stat st;

	if (built < 0) {
		free_table(t);
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory building the %s table", name);
	}
	snprintf(path, sizeof(path), "/%s/%s", ctx->tmpl.kernel, name);
	st = res_write_table(f, path, t->col, t->n, t->rows, err);
	free_table(t);
	return st;
}

/* Writes /<kernel>/cloud when the search kept one. */
static dse_stat write_cloud(const dse_ctx *ctx, res_file *f,
	const search_result *res, dse_error *err)
{
	struct table t;

	if (!res->cloud)
		return dse_stat_ok;
	/* Rows in index order, so the file does not depend on how the
	 * sample was gathered.
	 */
	search_cloud_sort(res->cloud);
	memset(&t, 0, sizeof(t));
	return put_table(ctx, f, "cloud", &t,
		build_cloud(ctx, res->cloud, &t), err);
}

/* /<kernel>/candidates: one row per space-time candidate of the analysis. */
static int build_candidates(const poly_analysis *a, struct table *t)
{
	int64_t *idx, *n_space, *n_groups;
	const char **space, **time;
	size_t r;

	t->rows = (size_t) a->n_candidates;
	idx = add_col(t, "index", "", RES_I64);
	n_space = add_col(t, "n_space", "", RES_I64);
	space = add_col(t, "space_loops", "", RES_STR);
	time = add_col(t, "time_loops", "", RES_STR);
	n_groups = add_col(t, "n_groups", "", RES_I64);
	if (alloc_text(t, 2) < 0 || !table_ok(t))
		return -1;
	for (r = 0; r < t->rows; r++) {
		const poly_candidate *c = &a->cand[r];

		idx[r] = c->index;
		n_space[r] = c->n_space;
		dse_loop_names(a, c->space, c->n_space, text_at(t, r, 0),
			RES_STR_LEN);
		dse_loop_names(a, c->time, c->n_time, text_at(t, r, 1),
			RES_STR_LEN);
		space[r] = text_at(t, r, 0);
		time[r] = text_at(t, r, 1);
		n_groups[r] = c->n_groups;
	}
	return 0;
}

/* The columns of /<kernel>/io_groups, in file order. */
enum {
	G_CAND, G_PRUNED, G_EMBEDDED, G_LEVELS, G_COPY_IN, G_COPY_OUT,
	G_N_INT
};
static const char *const group_int_cols[G_N_INT] = {
	"candidate", "pruned", "embedded", "levels", "copy_in", "copy_out"
};

/* One row of the group table: integers into ic[], strings into sc[]. */
static void group_row(const poly_analysis *a, const poly_candidate *c,
	const poly_group *g, struct table *t, size_t r, int64_t **ic,
	const char ***sc)
{
	int64_t v[G_N_INT];
	int k;

	v[G_CAND] = c->index;
	v[G_PRUNED] = g->pruned;
	v[G_EMBEDDED] = g->embedded;
	v[G_LEVELS] = g->levels;
	v[G_COPY_IN] = g->copy_in;
	v[G_COPY_OUT] = g->copy_out;
	for (k = 0; k < G_N_INT; k++)
		ic[k][r] = v[k];
	sc[0][r] = g->name;
	sc[1][r] = g->array;
	sc[2][r] = g->access >= 0 && g->access < a->n_accesses ?
		a->access[g->access].text : "";
	sc[3][r] = poly_dep_kind_name(g->kind);
	dse_group_direction(c, g, text_at(t, r, 0), RES_STR_LEN);
	sc[4][r] = text_at(t, r, 0);
	sc[5][r] = dse_io_type_name(g->type);
	sc[6][r] = dse_io_level_name(g->buffer_level);
}

/* /<kernel>/io_groups: the I/O groups of every candidate, one row each,
 * linked to /<kernel>/candidates by the "candidate" column.
 */
static int build_groups(const poly_analysis *a, struct table *t)
{
	static const char *const str_cols[] = { "name", "array", "access",
		"kind", "direction", "type", "buffer_level" };
	int64_t *ic[G_N_INT];
	const char **sc[7];
	size_t r = 0;
	int i, k;

	for (i = 0; i < a->n_candidates; i++)
		t->rows += (size_t) a->cand[i].n_groups;
	ic[G_CAND] = add_col(t, group_int_cols[G_CAND], "", RES_I64);
	for (k = 0; k < 7; k++)
		sc[k] = add_col(t, str_cols[k], "", RES_STR);
	for (k = G_CAND + 1; k < G_N_INT; k++)
		ic[k] = add_col(t, group_int_cols[k], "", RES_I64);
	if (alloc_text(t, 1) < 0 || !table_ok(t))
		return -1;
	for (i = 0; i < a->n_candidates; i++)
		for (k = 0; k < a->cand[i].n_groups; k++)
			group_row(a, &a->cand[i], &a->cand[i].group[k], t,
				r++, ic, sc);
	return 0;
}

/* Writes the candidates and I/O group tables of the analysis. */
static dse_stat write_analysis(const dse_ctx *ctx, res_file *f,
	dse_error *err)
{
	struct table t;

	if (!ctx->analysis)
		return dse_stat_ok;
	memset(&t, 0, sizeof(t));
	if (put_table(ctx, f, "candidates", &t,
			build_candidates(ctx->analysis, &t), err))
		return dse_stat_error;
	return put_table(ctx, f, "io_groups", &t,
		build_groups(ctx->analysis, &t), err);
}

/* The attributes of the two-stage search; points_resimulated is 0 for a
 * one-stage one, so a reader never has to test for its presence.
 */
static dse_stat write_two_stage(const dse_ctx *ctx, res_file *f,
	const search_result *res, dse_error *err)
{
	int sampled = ctx->sopt.model == SIM_MODEL_SAMPLED;

	if (res_attr_string(f, "search_model",
		sim_model_kind_name(ctx->sopt.model), err) ||
	    res_attr_i64(f, "points_resimulated", (int64_t) res->resimulated,
		err))
		return dse_stat_error;
	if (!sampled)
		return dse_stat_ok;
	if (res_attr_f64(f, "band", ctx->sopt.band, err) ||
	    res_attr_i64(f, "band_max", (int64_t) ctx->sopt.band_max, err) ||
	    res_attr_i64(f, "band_points", (int64_t) res->band_points, err) ||
	    res_attr_i64(f, "band_cut", (int64_t) res->band_cut, err) ||
	    res_attr_i64(f, "points_resimulated_dropped",
		(int64_t) res->resim_dropped, err) ||
	    res_attr_i64(f, "points_resimulated_failed",
		(int64_t) res->resim_failed, err) ||
	    res_attr_f64(f, "resimulate_time", res->resim_seconds, err))
		return dse_stat_error;
	return dse_stat_ok;
}

/* The budget a heuristic search runs to: the configured one, else the
 * default search.h documents (a share of the space, clamped); 0 for
 * exhaustive search, which has none.
 */
static uint64_t effective_budget(const dse_ctx *ctx)
{
	uint64_t size = search_space_size(ctx->space), lo, b;

	if (ctx->sopt.strategy == SEARCH_EXHAUSTIVE)
		return 0;
	if (ctx->sopt.budget)
		return ctx->sopt.budget;
	lo = size < SEARCH_MIN_BUDGET ? size : SEARCH_MIN_BUDGET;
	b = (uint64_t) ((double) size * SEARCH_DEFAULT_BUDGET_FRACTION);
	if (b < lo)
		b = lo;
	return b > SEARCH_MAX_DEFAULT_BUDGET ? SEARCH_MAX_DEFAULT_BUDGET : b;
}

/* A sweep over several candidates: "space_time" is -1 and
 * "space_times" lists them ("4,5,7"), each row's in its space_time
 * column.
 */
static dse_stat write_candidates(const dse_ctx *ctx, res_file *f,
	dse_error *err)
{
	char list[POLY_MAX_CANDIDATES * 4] = "";
	int c;

	if (!ctx->n_cands)
		return dse_stat_ok;
	for (c = 0; c < ctx->n_cands; c++)
		dse_appendf(list, sizeof(list), "%s%d", c ? "," : "",
			ctx->cands[c].tmpl.space_time);
	return res_attr_string(f, "space_times", list, err);
}

/* The workload's facts (a GNN's graph: name, vertices, edges) as root
 * attributes.
 */
static dse_stat write_facts(const dse_ctx *ctx, res_file *f, dse_error *err)
{
	family_fact fact[DSE_MAX_FACTS];
	int i, n = dse_workload_facts(ctx, fact, DSE_MAX_FACTS);

	for (i = 0; i < n; i++)
		if (fact[i].text ? res_attr_string(f, fact[i].name,
				fact[i].text, err) :
		    res_attr_i64(f, fact[i].name, fact[i].value, err))
			return dse_stat_error;
	return dse_stat_ok;
}

/* The strategy and what it did: budget, islands, generations, pruned
 * points, whether it was stopped or resumed, the checkpoint interval, and
 * the bound on the front with the box size the front ended at (0: exact).
 */
static dse_stat write_strategy(const dse_ctx *ctx, res_file *f,
	const search_result *res, dse_error *err)
{
	if (res_attr_string(f, "strategy",
		search_strategy_name(ctx->sopt.strategy), err) ||
	    res_attr_i64(f, "budget", (int64_t) effective_budget(ctx), err) ||
	    res_attr_f64(f, "budget_seconds", ctx->sopt.budget_seconds, err) ||
	    res_attr_i64(f, "islands", res->islands, err) ||
	    res_attr_i64(f, "generations", (int64_t) res->generations, err) ||
	    res_attr_i64(f, "points_pruned", (int64_t) res->pruned, err) ||
	    res_attr_i64(f, "points_pruned_beaten",
		(int64_t) res->pruned_beaten, err) ||
	    res_attr_i64(f, "points_modelled", (int64_t) res->modelled,
		err) ||
	    res_attr_i64(f, "interrupted", res->interrupted, err) ||
	    res_attr_i64(f, "resumed", res->resumed, err) ||
	    res_attr_f64(f, "checkpoint_interval",
		ctx->sopt.checkpoint_interval, err) ||
	    res_attr_i64(f, "front_max", (int64_t) ctx->sopt.front_max, err) ||
	    res_attr_f64(f, "front_resolution", ctx->sopt.front_resolution,
		err) ||
	    res_attr_f64(f, "front_resolution_reached", res->front ?
		search_front_resolution(res->front) : 0.0, err))
		return dse_stat_error;
	return dse_stat_ok;
}

/* What a plot draws the designs against: the board's clock, DRAM
 * bandwidth and peak (its DSP slices over the DSP slices of one MAC of
 * the data type, 2 operations a MAC a cycle), and each constraint as
 * "metric <= value" (or ">=") in the metric's own unit, one a line,
 * "board" after those of board fit.
 */
static dse_stat write_roof(const dse_ctx *ctx, res_file *f, dse_error *err)
{
	char text[SEARCH_MAX_CONSTRAINTS * 64] = "";
	double per_mac = ctx->dtype && ctx->dtype->dsp_per_mac > 0 ?
		ctx->dtype->dsp_per_mac : 1.0;
	double peak = floor(sim_metric_capacity(&ctx->board, SIM_M_DSP) /
		per_mac) * 2.0 * ctx->board.mhz / 1e3;
	int c;

	for (c = 0; c < ctx->sopt.n_constraints; c++) {
		const search_constraint *s = &ctx->sopt.constraints[c];
		int lower = isinf(s->max);

		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			"%s%s %s %.17g%s", c ? "\n" : "",
			sim_metric_name(s->metric), lower ? ">=" : "<=",
			lower ? s->min : s->max, ctx->bound[c].board ?
			" board" : "");
	}
	if (res_attr_f64(f, "board_mhz", ctx->board.mhz, err) ||
	    res_attr_f64(f, "board_dram_gbps", ctx->board.dram_gbps, err) ||
	    res_attr_f64(f, "board_peak_gops", peak, err))
		return dse_stat_error;
	return res_attr_string(f, "constraint_bounds", text, err);
}

/* The board's resources (with the config's overrides) as board_dsp,
 * board_bram18k, ..., so a reader can set any row beside the board, and
 * the constraints the sweep applied, board fit included, one a line.
 */
static dse_stat write_board(const dse_ctx *ctx, res_file *f, dse_error *err)
{
	static const enum sim_metric res[] = { SIM_M_DSP, SIM_M_BRAM18K,
		SIM_M_URAM, SIM_M_LUT, SIM_M_FF };
	char name[48], text[SEARCH_MAX_CONSTRAINTS * 84] = "";
	size_t i;
	int c;

	for (i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
		snprintf(name, sizeof(name), "board_%s",
			sim_metric_name(res[i]));
		if (res_attr_i64(f, name, (int64_t) sim_metric_capacity(
				&ctx->board, res[i]), err))
			return dse_stat_error;
	}
	for (c = 0; c < ctx->sopt.n_constraints; c++) {
		strcat(text, c ? "\n" : "");
		strcat(text, ctx->bound[c].text);
	}
	return res_attr_string(f, "constraints", text, err) ||
		write_roof(ctx, f, err) ? dse_stat_error : dse_stat_ok;
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
	    write_board(ctx, f, err) ||
	    res_attr_string(f, "kernel", ctx->tmpl.kernel, err) ||
	    res_attr_string(f, "family", dse_workload_family(ctx), err) ||
	    write_facts(ctx, f, err) ||
	    write_strategy(ctx, f, res, err) ||
	    res_attr_string(f, "objectives", objectives, err) ||
	    write_candidates(ctx, f, err) ||
	    (ctx->model && (res_attr_i64(f, "space_time",
		ctx->n_cands ? -1 : ctx->tmpl.space_time, err) ||
	     res_attr_i64(f, "default_space_time", ctx->analysis ?
		ctx->analysis->default_candidate : ctx->tmpl.space_time,
		err))) ||
	    res_attr_i64(f, "seed", ctx->seed, err) ||
	    res_attr_i64(f, "ranks", ctx->size, err) ||
	    res_attr_i64(f, "threads", res->threads, err) ||
	    res_attr_f64(f, "wall_time", wall_s, err) ||
	    res_attr_f64(f, "search_time", res->seconds, err) ||
	    res_attr_f64(f, "search_cpu_time", res->cpu_seconds, err) ||
	    res_attr_i64(f, "points_total",
		(int64_t) search_space_size(ctx->space), err) ||
	    res_attr_i64(f, "points_evaluated", (int64_t) res->evaluated,
		err) ||
	    res_attr_i64(f, "points_valid", (int64_t) res->valid, err) ||
	    res_attr_i64(f, "points_over_constraint",
		(int64_t) res->over_constraint, err) ||
	    write_two_stage(ctx, f, res, err))
		return dse_stat_error;
	return dse_stat_ok;
}

/* The input files the config names, with their sizes and hashes: what
 * --resume checks the files against, and for a reader where the figures
 * came from.
 */
static dse_stat write_inputs(const dse_ctx *ctx, res_file *f, dse_error *err)
{
	char *text = dse_inputs_text(ctx);
	dse_stat st;

	if (!text)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory (the list "
			"of %d input files)", ctx->n_inputs);
	st = res_attr_string(f, "input_files", text, err);
	free(text);
	return st;
}

dse_stat dse_write_contents(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err)
{
	struct table t;
	dse_stat st;

	st = write_attrs(ctx, f, res, wall_s, err);
	if (st == dse_stat_ok)
		st = write_inputs(ctx, f, err);
	memset(&t, 0, sizeof(t));
	if (st == dse_stat_ok)
		st = put_table(ctx, f, "front", &t,
			build_front(ctx, res->front, &t), err);
	if (st == dse_stat_ok)
		st = write_cloud(ctx, f, res, err);
	if (st == dse_stat_ok)
		st = write_analysis(ctx, f, err);
	return st;
}

dse_stat dse_write_results(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err)
{
	/* "complete" tells --resume (and any reader) that this is the
	 * finished sweep, not a checkpoint.
	 */
	if (dse_write_contents(ctx, f, res, wall_s, err) ||
	    res_attr_i64(f, "complete", 1, err)) {
		res_file_abort(f);
		return dse_stat_error;
	}
	return res_file_commit(f, err);
}
