/* The bounds a sweep's designs must meet: the config's constraints and
 * board fit.
 *
 * A design that needs more of a resource than the board has cannot be
 * built, whatever its latency, so every resource the board has is bounded
 * at 100% of it unless the config bounds that resource itself.  The one way
 * to let designs past the board is a percentage above 100% ("lut <= 120%"),
 * written on purpose, for instance when the LUT estimate is thought
 * pessimistic; any other bound above the board is refused as a likely
 * slip.  The bounds go to the search as plain (metric, max) pairs, through
 * the same path as the config's constraints, so every family and every
 * strategy honours them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"

/* The resources a board has, in the order messages list them. */
static const enum sim_metric board_res[] = { SIM_M_DSP, SIM_M_BRAM18K,
	SIM_M_URAM, SIM_M_LUT, SIM_M_FF };
#define N_BOARD_RES ((int) (sizeof(board_res) / sizeof(board_res[0])))

static int is_board_res(int m)
{
	int i;

	for (i = 0; i < N_BOARD_RES; i++)
		if ((int) board_res[i] == m)
			return 1;
	return 0;
}

/* An input error at constraint "c" of the config. */
#define con_error(ctx, c, err, ...) \
	dse_error_set_at(err, dse_cfg_file((ctx)->cfg), (c)->line, (c)->col, \
		"constraints", __VA_ARGS__)

/* The constraint as the user wrote it, for messages: "dsp <= 0.75". */
static void con_text(const dse_cfg_constraint *c, char *buf, size_t size)
{
	if (c->percent)
		snprintf(buf, size, "%s <= %.6g%%", c->metric, 100 * c->bound);
	else
		snprintf(buf, size, "%s <= %.6g", c->metric, c->bound);
}

/* The absolute bound of a resource constraint "c" on a board with "cap" of
 * it, or an error when it allows more than the board has without saying
 * so with a percentage.
 */
static dse_stat resource_bound(const dse_ctx *ctx,
	const dse_cfg_constraint *c, double cap, double *max, dse_error *err)
{
	char text[80];

	*max = c->fraction ? c->bound * cap : c->bound;
	if (*max <= cap || c->percent)
		return dse_stat_ok;
	con_text(c, text, sizeof(text));
	if (c->fraction)
		return con_error(ctx, c, err, "%s allows %.3g times the %s the "
			"board has; a fraction is at most 1 (the whole board); "
			"to let designs past the board on purpose write a "
			"percentage, e.g. '%s <= %.0f%%'", text, c->bound,
			sim_metric_unit(sim_metric_find(c->metric)), c->metric,
			100 * c->bound);
	return con_error(ctx, c, err, "%s allows more %s than %s has (%.0f); "
		"to let designs past the board on purpose write a percentage, "
		"e.g. '%s <= %.0f%%', or change the board with [platform] %s",
		text, sim_metric_unit(sim_metric_find(c->metric)),
		ctx->board.name, cap, c->metric, 100 * ceil(c->bound / cap),
		c->metric);
}

/* Adds the config's constraint "c" as bound i. */
static dse_stat add_config_bound(dse_ctx *ctx, int i,
	const dse_cfg_constraint *c, dse_error *err)
{
	search_constraint *s = &ctx->sopt.constraints[i];
	dse_bound *b = &ctx->bound[i];
	int m = sim_metric_find(c->metric);
	double cap;

	if (m < 0)
		return con_error(ctx, c, err, "unknown metric '%s' in a "
			"constraint", c->metric);
	cap = sim_metric_capacity(&ctx->board, m);
	s->metric = m;
	/* A fraction only means something for a resource the board has;
	 * other metrics (latency in seconds) take the bound as written.
	 */
	if (is_board_res(m) && cap > 0) {
		if (resource_bound(ctx, c, cap, &s->max, err))
			return dse_stat_error;
	} else {
		s->max = c->bound;
	}
	memset(b, 0, sizeof(*b));
	b->metric = m;
	b->line = c->line;
	b->col = c->col;
	con_text(c, b->text, sizeof(b->text));
	return dse_stat_ok;
}

/* Board fit: bound i is "m <= 100% of the board". */
static void add_board_bound(dse_ctx *ctx, int i, enum sim_metric m)
{
	search_constraint *s = &ctx->sopt.constraints[i];
	dse_bound *b = &ctx->bound[i];

	s->metric = m;
	s->max = sim_metric_capacity(&ctx->board, m);
	memset(b, 0, sizeof(*b));
	b->metric = m;
	b->board = 1;
	snprintf(b->text, sizeof(b->text), "%s <= 100%% of the board (%.0f)",
		sim_metric_name(m), s->max);
}

/* Whether one of the first n bounds is on metric m. */
static int bounded(const dse_ctx *ctx, int n, int m)
{
	int i;

	for (i = 0; i < n; i++)
		if (ctx->sopt.constraints[i].metric == m)
			return 1;
	return 0;
}

dse_stat dse_setup_constraints(dse_ctx *ctx, dse_error *err)
{
	search_options *o = &ctx->sopt;
	int i, r, n = dse_cfg_n_constraints(ctx->cfg, "search", "constraints");

	/* Board fit takes at most one slot a resource. */
	if (n > SEARCH_MAX_CONSTRAINTS - N_BOARD_RES)
		return dse_ctx_error(ctx, "search", "constraints", -1, err,
			"at most %d constraints",
			SEARCH_MAX_CONSTRAINTS - N_BOARD_RES);
	for (i = 0; i < n; i++)
		if (add_config_bound(ctx, i, dse_cfg_constraint_at(ctx->cfg,
				"search", "constraints", i), err))
			return dse_stat_error;
	for (r = 0; r < N_BOARD_RES; r++)
		if (!bounded(ctx, n, board_res[r]))
			add_board_bound(ctx, i++, board_res[r]);
	o->n_constraints = i;
	return dse_stat_ok;
}

double dse_fit_limit(const dse_ctx *ctx, enum sim_metric m)
{
	double limit = sim_metric_capacity(&ctx->board, m);
	int i;

	/* A bound above the board is a relaxation the config asked for. */
	for (i = 0; i < ctx->sopt.n_constraints; i++)
		if (ctx->sopt.constraints[i].metric == (int) m &&
		    ctx->sopt.constraints[i].max > limit)
			limit = ctx->sopt.constraints[i].max;
	return limit;
}

int dse_over_board(const dse_ctx *ctx, const sim_metrics *m, char *buf,
	size_t size)
{
	size_t len = 0;
	int r, n = 0;

	if (size)
		buf[0] = '\0';
	for (r = 0; r < N_BOARD_RES; r++) {
		double v = sim_metrics_get(m, board_res[r]);
		double cap = sim_metric_capacity(&ctx->board, board_res[r]);

		if (v <= dse_fit_limit(ctx, board_res[r]))
			continue;
		if (len < size) {
			if (cap > 0)
				snprintf(buf + len, size - len, "%s%s %.0f "
					"(%.1f%% of %.0f)", n ? ", " : "",
					sim_metric_unit(board_res[r]), v,
					100 * v / cap, cap);
			else
				snprintf(buf + len, size - len, "%s%s %.0f "
					"(the board has none)", n ? ", " : "",
					sim_metric_unit(board_res[r]), v);
			len = strlen(buf);
		}
		n++;
	}
	return n;
}
