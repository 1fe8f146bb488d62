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
#include <stdarg.h>
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

/* An input error at constraint "c" of the config (at its unit when
 * "at_unit" and it has one).
 */
#define con_error_at(ctx, c, at_unit, err, ...) \
	dse_error_set_at(err, dse_cfg_file((ctx)->cfg), (c)->line, \
		(at_unit) && (c)->unit[0] ? (c)->unit_col : (c)->col, \
		"constraints", __VA_ARGS__)
#define con_error(ctx, c, err, ...) con_error_at(ctx, c, 0, err, __VA_ARGS__)

/* The units a metric's bound may carry, and what one of each is in the
 * metric's own unit (seconds, GOP/s, bytes, joules).  Resources take a
 * count or a share of the board, never a unit.
 */
struct unit {
	const char *name;
	double scale;
};
static const struct unit time_units[] = { { "s", 1 }, { "ms", 1e-3 },
	{ "us", 1e-6 }, { "ns", 1e-9 }, { NULL, 0 } };
static const struct unit rate_units[] = { { "GOP/s", 1 },
	{ "GFLOP/s", 1 }, { "GOPS", 1 }, { "GFLOPS", 1 }, { "TOP/s", 1e3 },
	{ "TFLOP/s", 1e3 }, { "TOPS", 1e3 }, { "TFLOPS", 1e3 },
	{ "MOP/s", 1e-3 }, { "MFLOP/s", 1e-3 }, { NULL, 0 } };
static const struct unit byte_units[] = { { "B", 1 }, { "kB", 1e3 },
	{ "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "KiB", 1024.0 },
	{ "MiB", 1048576.0 }, { "GiB", 1073741824.0 }, { NULL, 0 } };
static const struct unit energy_units[] = { { "J", 1 }, { "mJ", 1e-3 },
	{ "uJ", 1e-6 }, { "nJ", 1e-9 }, { NULL, 0 } };
static const struct unit edp_units[] = { { "J*s", 1 }, { "mJ*s", 1e-3 },
	{ NULL, 0 } };
static const struct unit cycle_units[] = { { "cycles", 1 }, { NULL, 0 } };

static const struct unit *metric_units(int m)
{
	switch (m) {
	case SIM_M_LATENCY: return time_units;
	case SIM_M_GOPS: return rate_units;
	case SIM_M_OFFCHIP: return byte_units;
	case SIM_M_ENERGY: return energy_units;
	case SIM_M_EDP: return edp_units;
	case SIM_M_CYCLES: return cycle_units;
	default: return NULL;
	}
}

dse_stat dse_setup_board_rates(dse_ctx *ctx, const arch_board *b,
	dse_error *err)
{
	double fmax = arch_board_max_mhz(b);

	/* The config language has checked that both are numbers above 0. */
	ctx->board.mhz = dse_cfg_float(ctx->cfg, "platform", "mhz", b->mhz);
	ctx->board.dram_gbps = dse_cfg_float(ctx->cfg, "platform",
		"dram_gbps", b->dram_gbps);
	if (fmax > 0 && ctx->board.mhz > fmax)
		return dse_ctx_error(ctx, "platform", "mhz", -1, err, "mhz = %g "
			"is more than %s can run: the DSP slices of its part %s "
			"run at most %g MHz", ctx->board.mhz, b->name, b->part,
			fmax);
	/* A board whose part is unknown still gets a bound no FPGA
	 * reaches, which keeps the models' arithmetic sane.
	 */
	if (ctx->board.mhz > 5000)
		return dse_ctx_error(ctx, "platform", "mhz", -1, err, "mhz = %g "
			"is more than any FPGA runs (at most 5000)",
			ctx->board.mhz);
	if (ctx->board.dram_gbps > b->dram_gbps)
		return dse_ctx_error(ctx, "platform", "dram_gbps", -1, err,
			"dram_gbps = %g is more than %s's memory gives (%g GB/s "
			"at its peak); a smaller figure models a share of it, "
			"another board more", ctx->board.dram_gbps, b->name,
			b->dram_gbps);
	return dse_stat_ok;
}

/* The constraint as the user wrote it, for messages: "dsp <= 0.75",
 * "latency <= 1ms".
 */
static void con_text(const dse_cfg_constraint *c, char *buf, size_t size)
{
	const char *op = c->lower ? ">=" : "<=";

	if (c->percent)
		snprintf(buf, size, "%s %s %.6g%%", c->metric, op,
			100 * c->bound);
	else
		snprintf(buf, size, "%s %s %.6g%s", c->metric, op, c->bound,
			c->unit);
}

/* The bound of "c" in its metric's own unit (a fraction stays one). */
static dse_stat unit_value(const dse_ctx *ctx, const dse_cfg_constraint *c,
	int m, double *v, dse_error *err)
{
	const struct unit *u = metric_units(m);
	char known[160] = "";
	int i;

	*v = c->bound;
	if (!c->unit[0])
		return dse_stat_ok;
	if (!u)
		return con_error_at(ctx, c, 1, err, "%s takes a count or a "
			"share of the board (%s <= 2000, %s <= 75%%), not a unit "
			"('%s')", c->metric, c->metric, c->metric, c->unit);
	for (i = 0; u[i].name; i++) {
		if (!strcmp(u[i].name, c->unit)) {
			*v = c->bound * u[i].scale;
			return dse_stat_ok;
		}
		strcat(known, i ? ", " : "");
		strcat(known, u[i].name);
	}
	return con_error_at(ctx, c, 1, err, "unknown unit '%s' for %s "
		"(units: %s)", c->unit, c->metric, known);
}

/* The absolute bound of a resource constraint "c" (value "v", a fraction
 * or a count) on a board with "cap" of it, or an error when it allows
 * more than the board has without saying so with a percentage, or asks
 * for more than the board has.
 */
static dse_stat resource_bound(const dse_ctx *ctx,
	const dse_cfg_constraint *c, double v, double cap, double *abs,
	dse_error *err)
{
	const char *unit = sim_metric_unit(sim_metric_find(c->metric));
	char text[80];

	*abs = c->fraction ? v * cap : v;
	con_text(c, text, sizeof(text));
	if (c->lower && *abs > cap)
		return con_error(ctx, c, err, "%s asks for more %s than %s has "
			"(%.0f): no design can meet it", text, unit,
			ctx->board.name, cap);
	if (c->lower || *abs <= cap || c->percent)
		return dse_stat_ok;
	if (c->fraction)
		return con_error(ctx, c, err, "%s allows %.3g times the %s the "
			"board has; a fraction is at most 1 (the whole board); "
			"to let designs past the board on purpose write a "
			"percentage, e.g. '%s <= %.0f%%'", text, v, unit,
			c->metric, 100 * v);
	return con_error(ctx, c, err, "%s allows more %s than %s has (%.0f); "
		"to let designs past the board on purpose write a percentage, "
		"e.g. '%s <= %.0f%%', or change the board with [platform] %s",
		text, unit, ctx->board.name, cap, c->metric,
		100 * ceil(v / cap), c->metric);
}

/* Appends a warning at constraint "c" to ctx->warnings. */
static void __attribute__((format(printf, 3, 4))) con_warn(dse_ctx *ctx,
	const dse_cfg_constraint *c, const char *fmt, ...)
{
	size_t len = strlen(ctx->warnings);
	va_list ap;
	int n;

	if (len + 1 >= sizeof(ctx->warnings))
		return;
	n = snprintf(ctx->warnings + len, sizeof(ctx->warnings) - len,
		"%s:%d:%d: warning: ", dse_cfg_file(ctx->cfg), c->line,
		c->col);
	if (n < 0 || (size_t) n >= sizeof(ctx->warnings) - len)
		return;
	len += (size_t) n;
	va_start(ap, fmt);
	vsnprintf(ctx->warnings + len, sizeof(ctx->warnings) - len, fmt, ap);
	va_end(ap);
	len = strlen(ctx->warnings);
	if (len + 1 < sizeof(ctx->warnings))
		strcat(ctx->warnings, "\n");
}

/* An upper bound on a resource written as a count that admits almost
 * nothing of the board ("dsp <= 1", meant as the whole board) is most
 * likely a slip: below 1% of the board, or a single unit.
 */
static void warn_tiny(dse_ctx *ctx, const dse_cfg_constraint *c, double abs,
	double cap)
{
	char text[80];

	if (c->lower || c->fraction || cap <= 0 ||
	    (abs > 1 && abs >= 0.01 * cap))
		return;
	con_text(c, text, sizeof(text));
	con_warn(ctx, c, "%s allows %.0f %s, %.2g%% of %s's %.0f; a share of "
		"the whole board is written %s <= 1.0 or %s <= 100%%", text,
		abs, sim_metric_unit(sim_metric_find(c->metric)),
		100 * abs / cap, ctx->board.name, cap, c->metric, c->metric);
}

/* Adds the config's constraint "c" as bound i. */
static dse_stat add_config_bound(dse_ctx *ctx, int i,
	const dse_cfg_constraint *c, dse_error *err)
{
	search_constraint *s = &ctx->sopt.constraints[i];
	dse_bound *b = &ctx->bound[i];
	int m = sim_metric_find(c->metric);
	double cap, v;
	char known[256] = "";
	int k;

	if (m < 0) {
		for (k = 0; k < SIM_N_METRICS; k++) {
			strcat(known, k ? ", " : "");
			strcat(known, sim_metric_name(k));
		}
		return con_error(ctx, c, err, "unknown metric '%s' in a "
			"constraint (metrics: %s)", c->metric, known);
	}
	cap = sim_metric_capacity(&ctx->board, m);
	if (unit_value(ctx, c, m, &v, err))
		return dse_stat_error;
	if (c->percent && !is_board_res(m))
		return con_error(ctx, c, err, "a percentage is a share of the "
			"board, and %s is not a resource of the board; write "
			"an amount in %s", c->metric, sim_metric_unit(m));
	/* A fraction only means something for a resource the board has;
	 * other metrics (latency in seconds) take the bound as written.
	 */
	if (is_board_res(m)) {
		if (resource_bound(ctx, c, v, cap, &v, err))
			return dse_stat_error;
		warn_tiny(ctx, c, v, cap);
	}
	s->metric = m;
	s->max = c->lower ? INFINITY : v;
	s->min = c->lower ? v : 0;
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
	s->min = 0;
	memset(b, 0, sizeof(*b));
	b->metric = m;
	b->board = 1;
	snprintf(b->text, sizeof(b->text), "%s <= 100%% of the board (%.0f)",
		sim_metric_name(m), s->max);
}

/* Whether one of the first n bounds is an upper bound on metric m. */
static int bounded(const dse_ctx *ctx, int n, int m)
{
	int i;

	for (i = 0; i < n; i++)
		if (ctx->sopt.constraints[i].metric == m &&
		    isfinite(ctx->sopt.constraints[i].max))
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
		    isfinite(ctx->sopt.constraints[i].max) &&
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

/* The most points dse_bound_blame looks at. */
#define BLAME_POINTS 100000

void dse_bound_blame(const dse_ctx *ctx, double seconds, uint64_t *legal,
	uint64_t *broken)
{
	search_evaluator ev = dse_evaluator(ctx);
	uint64_t size = search_space_size(ctx->space), step, idx, seen = 0;
	double t0 = MPI_Wtime();
	int c;

	*legal = 0;
	memset(broken, 0, sizeof(uint64_t) * SEARCH_MAX_CONSTRAINTS);
	step = size > BLAME_POINTS ? size / BLAME_POINTS : 1;
	for (idx = 0; idx < size && seen < BLAME_POINTS; idx += step, seen++) {
		int32_t knobs[SEARCH_MAX_KNOBS];
		sim_metrics m;

		if ((seen & 63) == 63 && MPI_Wtime() - t0 > seconds)
			break;
		search_space_decode(ctx->space, idx, knobs);
		ev.eval(ev.model, knobs, &m);
		if (m.status != SIM_OK)
			continue;
		(*legal)++;
		for (c = 0; c < ctx->sopt.n_constraints; c++) {
			const search_constraint *s = &ctx->sopt.constraints[c];
			double v = sim_metrics_get(&m, s->metric);

			broken[c] += v > s->max || v < s->min;
		}
	}
}
