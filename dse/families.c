/* dse: the workload families a run knows, and everything the application
 * does with a workload family through the family interface
 * (core/family.h): the family named in [workload], its knobs as the
 * [space] section gives them, the search's evaluator, and the design
 * questions the commands ask.  A family is added by one line of the table
 * below; nothing else here names one.
 */
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "families_internal.h"

static const dse_family builtin[] = {
	{ &gnn_overlay_family, dse__gnn_setup, NULL },
	{ &gnn_dataflow_family, dse__gnn_setup, NULL },
	{ &tensil_overlay_family, dse__tensil_setup, NULL },
};

const dse_family *dse_families(const dse_ctx *ctx, int *n)
{
	if (ctx && ctx->families) {
		*n = ctx->n_families;
		return ctx->families;
	}
	*n = (int) DSE_N_OF(builtin);
	return builtin;
}

/* The family called "name" (as the config spells it, in any case), or
 * NULL.
 */
static const dse_family *family_find(const dse_ctx *ctx, const char *name)
{
	int i, n;
	const dse_family *t = dse_families(ctx, &n);

	for (i = 0; name && i < n; i++)
		if (!strcasecmp(name, t[i].ops->name))
			return &t[i];
	return NULL;
}

int dse_family_knob_known(const dse_ctx *ctx, const char *name)
{
	int i, n;
	const dse_family *t = dse_families(ctx, &n);

	for (i = 0; i < n; i++)
		if (family_knob_find(t[i].ops, name) >= 0)
			return 1;
	return 0;
}

/* Rejects the [workload] keys that neither the schema lists nor the
 * family's constructor reads.
 */
static dse_stat check_workload_keys(const dse_ctx *ctx, const dse_family *f,
	dse_error *err)
{
	int i, j, n = dse_cfg_n_keys(ctx->cfg, "workload");
	char more[256] = "";

	for (j = 0; f->keys && f->keys[j]; j++)
		dse_list_add(more, sizeof(more), f->keys[j]);
	for (i = 0; i < n; i++) {
		const char *key = dse_cfg_key_at(ctx->cfg, "workload", i);
		int known = dse_cfg_key_listed(ctx->cfg, "workload", key);

		for (j = 0; !known && f->keys && f->keys[j]; j++)
			known = !strcmp(key, f->keys[j]);
		if (!known)
			return dse_cfg_unknown_key(ctx->cfg, "workload", key,
				more, err);
	}
	return dse_stat_ok;
}

/* Rejects [space] keys the family has no knob for. */
static dse_stat check_knob_keys(const dse_ctx *ctx, dse_error *err)
{
	int i, k, n = dse_cfg_n_keys(ctx->cfg, "space");
	char known[512] = "";

	for (k = 0; k < ctx->fam->n_knobs; k++)
		dse_list_add(known, sizeof(known), ctx->fam->knobs[k].name);
	for (i = 0; i < n; i++) {
		const char *key = dse_cfg_key_at(ctx->cfg, "space", i);

		if (family_knob_find(ctx->fam, key) < 0)
			return dse_ctx_error(ctx, "space", key, -1, err,
				"the %s family has no such knob (its knobs: "
				"%s)", ctx->fam->name, known);
	}
	return dse_stat_ok;
}

dse_stat dse__family_space(dse_ctx *ctx, dse_error *err)
{
	int k, n = ctx->fam->n_knobs;

	ctx->space = search_space_alloc(n);
	if (!ctx->space)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory: the "
			"design space of %d knobs", n);
	for (k = 0; k < n; k++) {
		const char *key = ctx->fam->knobs[k].name;
		int64_t *values = NULL;
		int64_t one = ctx->fam->knob_default(ctx->fam_obj, k);
		int nv = 1, given = dse_cfg_has(ctx->cfg, "space", key);
		dse_stat r = dse_stat_ok;

		if (given)
			r = dse_cfg_int_set(ctx->cfg, "space", key, INT32_MAX,
				&values, &nv, err);
		if (r == dse_stat_ok)
			r = search_space_set_knob(ctx->space, k, key, values ?
				values : &one, nv, err);
		if (r == dse_stat_ok && ctx->fam->prepare) {
			r = ctx->fam->prepare(ctx->fam_obj, k, values ?
				values : &one, nv, err);
			if (r != dse_stat_ok)
				dse__at_key(ctx, "space", given ? key :
					"family", err);
		}
		free(values);
		if (r != dse_stat_ok)
			return r;
		if (search_space_size(ctx->space) == UINT64_MAX)
			return dse_ctx_error(ctx, "space", key, -1, err, "the "
				"space has more than 2^64 points; narrow the "
				"knob ranges");
	}
	return dse_stat_ok;
}

void dse__note_prepared(const dse_ctx *ctx, double t0)
{
	/* A family that builds something for the sweep's knob values can
	 * take seconds on a large workload: say so.
	 */
	if (ctx->fam->prepares)
		dse_note(ctx, DSE_NOTE_PROGRESS, "%s prepared for the sweep's "
			"knob values (%s) in %.1f s", ctx->fam->name,
			ctx->fam->prepares, omp_get_wtime() - t0);
}

dse_stat dse_workload_setup(dse_ctx *ctx, dse_error *err)
{
	const char *fam = dse_cfg_string(ctx->cfg, "workload", "family", "");
	const char *dt = dse_cfg_string(ctx->cfg, "workload", "dtype", "fp32");
	const char *name = dse_cfg_string(ctx->cfg, "workload", "name", NULL);
	const dse_family *f = family_find(ctx, fam);
	double t0;

	if (!f) {
		char known[256] = "";
		int i, n;
		const dse_family *t = dse_families(ctx, &n);

		for (i = 0; i < n; i++)
			dse_list_add(known, sizeof(known), t[i].ops->name);
		return dse_ctx_error(ctx, "workload", "family", -1, err,
			"unknown family '%s' (known: %s)", fam, known);
	}
	ctx->fam = f->ops;
	ctx->dtype = arch_dtype_find(dt);
	if (check_workload_keys(ctx, f, err) || check_knob_keys(ctx, err) ||
	    f->setup(ctx, name, err))
		return dse_stat_error;
	/* A constructor that builds the space itself (a GNN family's, which
	 * shares what it prepares among the node's ranks) has said how long
	 * it took.
	 */
	if (ctx->space)
		return dse_stat_ok;
	t0 = omp_get_wtime();
	if (dse__family_space(ctx, err))
		return dse_stat_error;
	dse__note_prepared(ctx, t0);
	return dse_stat_ok;
}

int dse_is_workload(const dse_ctx *ctx)
{
	return ctx->fam != NULL;
}

const char *dse_workload_family(const dse_ctx *ctx)
{
	return ctx->fam ? ctx->fam->name : "systolic";
}

int dse_workload_n_knobs(const dse_ctx *ctx)
{
	return ctx->fam ? ctx->fam->n_knobs : 0;
}

const char *dse_workload_knob_name(const dse_ctx *ctx, int knob)
{
	return ctx->fam && knob >= 0 && knob < ctx->fam->n_knobs ?
		ctx->fam->knobs[knob].name : NULL;
}

const char *dse_workload_knob_unit(const dse_ctx *ctx, int knob)
{
	return ctx->fam && knob >= 0 && knob < ctx->fam->n_knobs ?
		ctx->fam->knobs[knob].unit : "";
}

int64_t dse_workload_knob_default(const dse_ctx *ctx, int knob)
{
	return ctx->fam->knob_default(ctx->fam_obj, knob);
}

int dse_workload_knob_find(const dse_ctx *ctx, const char *name)
{
	return ctx->fam ? family_knob_find(ctx->fam, name) : -1;
}

int dse_workload_facts(const dse_ctx *ctx, family_fact *out, int max)
{
	return ctx->fam && ctx->fam->facts ? ctx->fam->facts(ctx->fam_obj,
		out, max) : 0;
}

dse_stat dse_workload_simulate(const dse_ctx *ctx, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	return ctx->fam->simulate(ctx->fam_obj, knobs, kind, opt, out, err);
}

void dse_workload_why(const dse_ctx *ctx, const int32_t *knobs, char *buf,
	size_t size)
{
	if (size == 0)
		return;
	buf[0] = '\0';
	if (ctx->fam)
		ctx->fam->why(ctx->fam_obj, knobs, buf, size > INT_MAX ?
			INT_MAX : (int) size);
}

dse_stat dse_workload_prepare_design(const dse_ctx *ctx,
	const int32_t *knobs, dse_error *err)
{
	int k;

	for (k = 0; ctx->fam && ctx->fam->prepare && k < ctx->fam->n_knobs;
	     k++) {
		int64_t v = knobs[k];
		/* The const context's family object changes here, as the
		 * declaration says: one rank, before any evaluation.
		 */
		dse_stat st = ctx->fam->prepare(ctx->fam_obj, k, &v, 1, err);

		if (st != dse_stat_ok)
			return st;
	}
	return dse_stat_ok;
}

search_evaluator dse_evaluator(const dse_ctx *ctx)
{
	if (ctx->n_cands)
		return dse_cands_evaluator(ctx);
	if (ctx->fam) {
		search_evaluator e = { ctx->fam_obj, ctx->fam->eval,
			ctx->fam->simulate, ctx->fam->bound, NULL, NULL,
			NULL };

		return e;
	}
	return search_evaluator_sim(ctx->model);
}

void dse_design_text(const dse_ctx *ctx, const int32_t *knobs, char *buf,
	int size)
{
	const poly_template *t;
	const sim_model *m;
	int32_t local[SEARCH_MAX_KNOBS];

	if (ctx->fam)
		ctx->fam->describe(ctx->fam_obj, knobs, buf, size);
	else if (dse_point_design(ctx, knobs, &t, &m, local) < 0)
		snprintf(buf, (size_t) size, "space_time[%d]: not a candidate "
			"of this sweep", (int) knobs[0]);
	else
		dse_sa_write(t, m, local, buf, (size_t) size);
}
