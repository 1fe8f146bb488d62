/* "dse analyze": the polyhedral analysis of a config's kernel, returned
 * to the command line, which prints it (cli/analyze.c).
 *
 * The analysis is the front half of a sweep (dependences, space-time
 * candidates, I/O groups) without the search, so that a user can see what
 * the tool found before choosing `space_time` and the knob ranges.  Only
 * rank 0 analyses; the other ranks learn the outcome through one
 * broadcast, so `mpirun -np N dse analyze` behaves like one process.
 * Also here: the names of loops, directions and I/O levels that the
 * report and the results file share.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx.h"

void dse_loop_list(const poly_analysis *a, const int *idx, int n,
	const char *sep, char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		dse_appendf(buf, size, "%s%s", i ? sep : "",
			idx[i] >= 0 && idx[i] < a->n_loops ?
			a->loop[idx[i]] : "?");
	if (n == 0)
		dse_appendf(buf, size, "-");
}

void dse_loop_names(const poly_analysis *a, const int *idx, int n,
	char *buf, size_t size)
{
	dse_loop_list(a, idx, n, ",", buf, size);
	if (n == 0)
		buf[0] = '\0';
}

/* The I/O direction of a group, "(1,0)", or "?" when a dependence of the
 * group has an unknown distance.
 */
void dse_group_direction(const poly_candidate *c, const poly_group *g,
	char *buf, size_t size)
{
	int s;

	buf[0] = '\0';
	if (!g->dir_known) {
		dse_appendf(buf, size, "?");
		return;
	}
	dse_appendf(buf, size, "(");
	for (s = 0; s < c->n_space; s++)
		dse_appendf(buf, size, "%s%d", s ? "," : "", g->dir[s]);
	dse_appendf(buf, size, ")");
}

const char *dse_io_type_name(int type)
{
	return type == POLY_IO_EXTERIOR ? "exterior" : "interior";
}

const char *dse_io_level_name(int level)
{
	static const char *const names[] = { "L1", "L2", "L3" };

	return level >= 0 && level < POLY_MAX_LEVELS ? names[level] : "?";
}

/* The candidate a sweep of this config would take: [space] space_time
 * when given, else the analysis's default.  A config naming a candidate
 * the kernel does not have (which a sweep reports as an error) leaves
 * chosen at -1 and says where, for the warning the command line prints.
 */
static void config_choice(const dse_ctx *ctx, dse_analysis *res)
{
	const poly_analysis *a = res->a;
	int64_t v;

	int list[POLY_MAX_CANDIDATES], n, i;

	res->chosen = a->default_candidate;
	if (!dse_cfg_has(ctx->cfg, "space", "space_time"))
		return;
	/* Of several (space_time = all, or a list), the first; a listed
	 * one the kernel does not have is the one to warn about.
	 */
	n = dse_cfg_candidates(ctx->cfg, "space", "space_time", list,
		POLY_MAX_CANDIDATES);
	v = n < 0 ? 0 : list[0];
	for (i = 1; i < n && i < POLY_MAX_CANDIDATES; i++)
		if (list[i] >= a->n_candidates)
			v = list[i];
	if (v >= 0 && v < a->n_candidates) {
		res->chosen = (int) v;
		return;
	}
	res->chosen = -1;
	res->bad_choice = (long long) v;
	dse_cfg_pos(ctx->cfg, "space", "space_time", &res->bad_line,
		&res->bad_col);
}

/* Rank 0's part: the kernel description and the analysis. */
static dse_stat analyze_root(const dse_ctx *ctx, const dse_analyze_opts *opts,
	dse_analysis *res, dse_error *err)
{
	poly_kernel_desc desc;
	cfront_kernel *c;
	poly_analysis *a;

	if (dse_ctx_kernel_desc(ctx, &desc, &c, err))
		return dse_stat_error;
	a = poly_analyze(&desc, err);
	res->read_seconds = c ? cfront_seconds(c) : 0;
	cfront_free(c);
	if (!a)
		return dse_stat_error;
	if (opts->space_time >= a->n_candidates) {
		dse_error_set(err, DSE_E_INPUT, "--space-time %d: kernel '%s' "
			"has %d space-time candidates (0..%d)",
			opts->space_time, a->kernel, a->n_candidates,
			a->n_candidates - 1);
		poly_analysis_free(a);
		return dse_stat_error;
	}
	res->a = a;
	config_choice(ctx, res);
	return dse_stat_ok;
}

dse_stat dse_analyze(const dse_ctx *ctx, const dse_analyze_opts *opts,
	dse_analysis *res, dse_error *err)
{
	int code = DSE_E_NONE;

	memset(res, 0, sizeof(*res));
	res->chosen = -1;
	if (!ctx->mpi)
		return analyze_root(ctx, opts, res, err);
	if (ctx->rank == 0 && analyze_root(ctx, opts, res, err))
		code = err->code ? (int) err->code : DSE_E_RUNTIME;
	/* The other ranks only need the verdict, to exit with the same
	 * status; rank 0 alone reports the error.
	 */
	if (MPI_Bcast(&code, 1, MPI_INT, 0, ctx->comm) != MPI_SUCCESS) {
		dse_analysis_clear(res);
		return dse_error_set(err, DSE_E_MPI,
			"MPI_Bcast of the analysis outcome failed");
	}
	if (code == DSE_E_NONE)
		return dse_stat_ok;
	if (ctx->rank != 0)
		dse_error_set(err, (enum dse_code) code,
			"the analysis failed on rank 0");
	return dse_stat_error;
}

void dse_analysis_clear(dse_analysis *res)
{
	poly_analysis_free(res->a);
	res->a = NULL;
}
