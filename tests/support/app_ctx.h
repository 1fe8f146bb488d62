/* What the tests of the application half share: a config text with one
 * line replaced, and a run context built from a config text the way a
 * command without MPI builds it.
 */
#ifndef DSE_TESTS_SUPPORT_APP_CTX_H
#define DSE_TESTS_SUPPORT_APP_CTX_H

#include <stdio.h>
#include <string.h>

#include "dse/ctx.h"

/* "base" with the line starting "key" (e.g. "board ") replaced by
 * "line", into buf; the line keeps its number.  "key" NULL or not found:
 * base unchanged.
 */
static inline const char *test_cfg_replace(const char *base, const char *key,
	const char *line, char *buf, size_t size)
{
	const char *p = key ? strstr(base, key) : NULL;
	const char *e;

	if (!p) {
		snprintf(buf, size, "%s", base);
		return buf;
	}
	e = strchr(p, '\n');
	snprintf(buf, size, "%.*s%s%s", (int) (p - base), base, line, e);
	return buf;
}

/* A context of "text" (named "t.cfg") with the families "families" (n of
 * them; NULL: those dse knows), quiet, one process; 0 or the setup's
 * status.  The caller clears ctx.
 */
static inline dse_stat test_ctx_setup(dse_ctx *ctx, const char *text,
	const dse_family *families, int n, dse_error *err)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->size = 1;
	ctx->quiet = 1;
	ctx->families = families;
	ctx->n_families = n;
	dse_error_clear(err);
	ctx->cfg = dse_cfg_parse_string(text, "t.cfg", err);
	if (!ctx->cfg)
		return dse_stat_error;
	return dse_ctx_setup(ctx, NULL, err);
}

/* The front of ctx's whole space, every point evaluated with the sweep's
 * evaluator (legal points only, as the search keeps them); NULL when the
 * front cannot be made.  The caller frees it.
 */
static inline search_front *test_front_all(const dse_ctx *ctx)
{
	search_evaluator ev = dse_evaluator(ctx);
	search_front *f = search_front_alloc(ctx->sopt.n_obj,
		ctx->sopt.objectives);
	uint64_t idx, n = search_space_size(ctx->space);

	for (idx = 0; f && idx < n; idx++) {
		search_point p;

		memset(&p, 0, sizeof(p));
		p.index = idx;
		search_space_decode(ctx->space, idx, p.knobs);
		ev.eval(ev.model, p.knobs, &p.metrics);
		p.cycles_low = p.cycles_high = (double) p.metrics.cycles;
		if (p.metrics.status == SIM_OK &&
		    search_front_add(f, &p) < 0)
			f = search_front_free(f);
	}
	return f;
}

#endif
