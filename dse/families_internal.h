/* dse: what the registration of the workload families (families.c) and
 * their constructors from the config (workload.c) share.
 */
#ifndef DSE_FAMILIES_INTERNAL_H
#define DSE_FAMILIES_INTERNAL_H

#include "ctx.h"
#include "gnn/family.h"
#include "tensil/family.h"

/* The constructors from the [workload] section: each sets ctx->fam_obj
 * (ctx->fam and ctx->dtype already set) and ctx->tmpl.kernel ("name",
 * the config's, or the workload's own), and records every input file.
 * Errors carry the config position and key.
 */
dse_stat dse__gnn_setup(dse_ctx *ctx, const char *name, dse_error *err);
dse_stat dse__tensil_setup(dse_ctx *ctx, const char *name, dse_error *err);

/* The search space over the family's knobs (ctx->fam, ctx->fam_obj set):
 * the config's values, or the family's default alone.  The family is told
 * each knob's values so that it can build what depends on them, or refuse
 * one (an input error at the value).  A constructor may call it itself
 * (dse_workload_setup then leaves the space as it is).
 */
dse_stat dse__family_space(dse_ctx *ctx, dse_error *err);

/* The progress note of a family that prepares something for the sweep's
 * knob values (family_ops' "prepares"), timed from "t0"
 * (omp_get_wtime); nothing for a family that only checks them.
 */
void dse__note_prepared(const dse_ctx *ctx, double t0);

/* Moves an input error that names no file -- a check of a family's on a
 * value the config gave -- to the value of "key" in "section", so that it
 * still says file:line:col.  Errors of a graph or topology file keep
 * their own position; other errors are left alone.
 */
void dse__at_key(const dse_ctx *ctx, const char *section, const char *key,
	dse_error *err);

#endif
