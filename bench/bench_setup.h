/* The set-up the search benchmarks share: a config read and prepared as a
 * sweep would be, but with nothing written (no progress line, no
 * checkpoint, no cloud) and the analytic model, so that what is timed is
 * the search alone.
 */
#ifndef DSE_BENCH_SETUP_H
#define DSE_BENCH_SETUP_H

#include "dse/ctx.h"

/* Takes "cfg" (a parsed config, or NULL when parsing failed with err
 * set) into ctx and prepares it; 0 or -1.
 */
static inline int bench_setup_cfg(dse_ctx *ctx, dse_cfg *cfg,
	dse_error *err)
{
	ctx->cfg = cfg;
	if (!ctx->cfg || dse_ctx_setup(ctx, "/dev/null", err))
		return -1;
	ctx->sopt.progress = NULL;
	ctx->sopt.checkpoint = NULL;
	ctx->sopt.checkpoint_interval = 0;
	ctx->sopt.cloud_max = 0;
	ctx->sopt.model = SIM_MODEL_ANALYTIC;
	return 0;
}

/* The same for the config file "path". */
static inline int bench_setup(dse_ctx *ctx, const char *path,
	dse_error *err)
{
	return bench_setup_cfg(ctx, dse_cfg_parse_file(path, err), err);
}

#endif
