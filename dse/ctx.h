/* The run context: everything a sweep needs, built from the config.
 * Private to dse/.
 */
#ifndef DSE_CTX_H
#define DSE_CTX_H

#include <mpi.h>

#include "arch/arch.h"
#include "cfg.h"
#include "polyhedral/poly.h"
#include "results/res.h"
#include "search/search.h"
#include "sim/sim.h"

#define DSE_PATH_LEN 4096

typedef struct dse_ctx {
	dse_cfg *cfg;		/* owned */
	arch_board board;	/* the named board with the config's overrides */
	const arch_dtype *dtype;
	poly_template tmpl;
	sim_model *model;	/* owned */
	search_space *space;	/* owned */
	search_options sopt;
	int64_t seed;
	char out_path[DSE_PATH_LEN];
	MPI_Comm comm;
	int rank;
	int size;
	int quiet;
} dse_ctx;

/* Builds ctx's board, template, model, space and search options from
 * ctx->cfg.  Every input error carries the config position and key.
 * "out_override" (the -o option) wins over [output] file when not NULL.
 * Not collective: every rank builds the same context from the same text.
 */
dse_stat dse_ctx_setup(dse_ctx *ctx, const char *out_override,
	dse_error *err);

/* Frees what ctx owns (not ctx itself). */
void dse_ctx_clear(dse_ctx *ctx);

/* Writes root's search result into "f" (made by res_file_create before
 * the search, so an unwritable path fails before hours of work) and
 * commits it under its final name.  Takes "f" in all cases.  Rank 0 only.
 */
dse_stat dse_write_results(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err);

/* The built-in sweep run when no config is given. */
const char *dse_default_config(void);

#endif
