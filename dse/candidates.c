/* Sweeps over several space-time candidates ([space] space_time = all, or
 * a list).
 *
 * Every candidate has knobs of its own: the same band loops are tiled, but
 * which loops hide latency and which one takes SIMD depend on which loops
 * are space loops, and so do the knobs' ranges.  A single mixed-radix
 * digit for the candidate would need knobs that mean nothing for some
 * candidates (points that stand for nothing, or for the same design many
 * times), so the sweep's space is made of one part per candidate
 * (search_space_alloc_parts), each the space a sweep of that candidate
 * alone would have, and each searched with that candidate's own model.
 * A point of the whole carries the candidate's number in knob 0
 * ("space_time") and every knob of the union by name; a knob its
 * candidate does not have is 0 there.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "ctx.h"

/* Where a knob goes among the whole's columns: by kind (the model's
 * order), then by loop in the kernel's order.
 */
static int knob_rank(const dse_ctx *ctx, const dse_cand *c, int k)
{
	static const char *const kinds[] = { "array_part", "array_part_L2",
		"latency", "simd", "io_network", "double_buffer" };
	const char *kind = sim_model_knob_kind(c->model, k);
	int loop = sim_model_knob_loop(c->model, k), r = 0, pos = 0, i;

	for (i = 0; i < (int) DSE_N_OF(kinds); i++)
		if (!strcmp(kind, kinds[i]))
			r = i;
	for (i = 0; loop >= 0 && i < ctx->analysis->n_loops; i++)
		if (!strcmp(ctx->analysis->loop[i], c->tmpl.loop[loop]))
			pos = i;
	return r * (POLY_MAX_LOOPS + 1) + pos;
}

search_space *dse_cands_space(const dse_ctx *ctx, search_space **parts,
	dse_error *err)
{
	search_space *whole;
	int *place;
	const char *names[SEARCH_MAX_KNOBS];
	int rank[SEARCH_MAX_KNOBS], labels_ok = 1, n = 1, c, k, i, j;
	int32_t labels[POLY_MAX_CANDIDATES];

	names[0] = "space_time";
	rank[0] = -1;
	/* The union of the candidates' knob names, kept in column order. */
	for (c = 0; c < ctx->n_cands && labels_ok; c++) {
		labels[c] = ctx->cands[c].tmpl.space_time;
		for (k = 0; k < search_space_n_knobs(parts[c]); k++) {
			const char *name = search_space_knob_name(parts[c], k);
			int r = knob_rank(ctx, &ctx->cands[c], k);

			for (i = 1; i < n && strcmp(names[i], name); i++)
				;
			if (i < n)
				continue;
			if (n == SEARCH_MAX_KNOBS) {
				labels_ok = 0;
				break;
			}
			for (i = n; i > 1 && rank[i - 1] > r; i--) {
				names[i] = names[i - 1];
				rank[i] = rank[i - 1];
			}
			names[i] = name;
			rank[i] = r;
			n++;
		}
	}
	if (!labels_ok) {
		for (c = 0; c < ctx->n_cands; c++)
			parts[c] = search_space_free(parts[c]);
		dse_error_set(err, DSE_E_INPUT, "the candidates have more than "
			"%d knobs together; sweep fewer candidates at once",
			SEARCH_MAX_KNOBS - 1);
		return NULL;
	}
	place = calloc((size_t) ctx->n_cands * SEARCH_MAX_KNOBS,
		sizeof(*place));
	if (!place) {
		for (c = 0; c < ctx->n_cands; c++)
			parts[c] = search_space_free(parts[c]);
		dse_error_nomem(err, "the space of the candidates",
			(double) ctx->n_cands * SEARCH_MAX_KNOBS);
		return NULL;
	}
	for (c = 0; c < ctx->n_cands; c++)
		for (k = 0; k < search_space_n_knobs(parts[c]); k++)
			for (j = 1; j < n; j++)
				if (!strcmp(names[j], search_space_knob_name(
						parts[c], k)))
					place[c * SEARCH_MAX_KNOBS + k] = j;
	whole = search_space_alloc_parts(ctx->n_cands, parts, labels, n,
		names, place, err);
	free(place);
	return whole;
}

int dse_point_design(const dse_ctx *ctx, const int32_t *knobs,
	const poly_template **tmpl, const sim_model **model, int32_t *local)
{
	int p;

	if (!ctx->model)
		return -1;
	if (!ctx->n_cands) {
		memcpy(local, knobs, sizeof(*local) *
			(size_t) sim_model_n_knobs(ctx->model));
		*tmpl = &ctx->tmpl;
		*model = ctx->model;
		return 0;
	}
	p = search_space_pick(ctx->space, knobs, local);
	if (p < 0)
		return -1;
	*tmpl = &ctx->cands[p].tmpl;
	*model = ctx->cands[p].model;
	return 0;
}

const dse_cand *dse_cand_find(const dse_ctx *ctx, int space_time)
{
	int c;

	for (c = 0; c < ctx->n_cands; c++)
		if (ctx->cands[c].tmpl.space_time == space_time)
			return &ctx->cands[c];
	return NULL;
}

static void eval_cands(const void *m, const int32_t *knobs, sim_metrics *out)
{
	const poly_template *t;
	const sim_model *model;
	int32_t local[SEARCH_MAX_KNOBS];

	if (dse_point_design(m, knobs, &t, &model, local) < 0) {
		memset(out, 0, sizeof(*out));
		out->status = SIM_BAD_TILE;
		return;
	}
	sim_eval(model, local, out);
}

static dse_stat simulate_cands(const void *m, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	const poly_template *t;
	const sim_model *model;
	int32_t local[SEARCH_MAX_KNOBS];

	if (dse_point_design(m, knobs, &t, &model, local) < 0)
		return dse_error_set(err, DSE_E_RUNTIME, "space_time[%d] is "
			"not a candidate of this sweep", (int) knobs[0]);
	return sim_simulate(model, local, kind, opt, out, err);
}

static int part_cands(const void *m, int p, search_evaluator *out)
{
	const dse_ctx *ctx = m;

	if (p < 0 || p >= ctx->n_cands)
		return -1;
	*out = search_evaluator_sim(ctx->cands[p].model);
	return 0;
}

search_evaluator dse_cands_evaluator(const dse_ctx *ctx)
{
	search_evaluator ev;

	memset(&ev, 0, sizeof(ev));
	ev.model = ctx;
	ev.eval = eval_cands;
	ev.simulate = simulate_cands;
	ev.part = part_cands;
	return ev;
}
