/* The analysis driver, the templates handed to the other modules, and the
 * integer formulas the models evaluate on them.
 *
 * poly_analyze reads the kernel (kernel.c), summarises its accesses
 * (access.c), analyses its dependences (deps.c), enumerates the
 * space-time candidates (spacetime.c) and builds their I/O groups (io.c),
 * all inside one isl_ctx that it frees before returning.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/options.h>

#include "polyhedral/internal.h"
#include "polyhedral/poly.h"

/* isl operations one analysis may take: the kernels in configs/ need a
 * few hundred thousand; a runaway analysis (a huge or pathological
 * kernel) stops here with a clear error instead of running for hours.
 */
#define MAX_ISL_OPERATIONS 200000000UL

dse_stat poly__isl_error(isl_ctx *ctx, dse_error *err, const char *what)
{
	const char *msg = ctx ? isl_ctx_last_error_msg(ctx) : NULL;

	if (ctx && isl_ctx_last_error(ctx) == isl_error_alloc)
		return dse_error_set(err, DSE_E_NOMEM, "out of memory while %s",
			what);
	return dse_error_set(err, DSE_E_ISL, "isl failed while %s: %s", what,
		msg ? msg : "unknown error");
}

dse_stat poly__input_error(dse_error *err, const poly_source *src,
	const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dse_error_set_at(err, src->file, src->line, src->col, src->key,
		"%s", msg);
}

void poly__append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t) n < size ? *len + (size_t) n : size - 1;
}

void poly__text(char *buf, size_t size, __isl_take char *str)
{
	size_t n = str ? strlen(str) : 0;

	if (!str) {
		buf[0] = '\0';
		return;
	}
	if (n < size) {
		strcpy(buf, str);
	} else {
		memcpy(buf, str, size - 4);
		strcpy(buf + size - 4, "...");
	}
	free(str);
}

int poly__find_access(const poly_analysis *a, const char *array, int write)
{
	for (int i = 0; i < a->n_accesses; i++)
		if (!strcmp(a->access[i].array, array) &&
		    a->access[i].write == write)
			return i;
	return -1;
}

const char *poly_dep_kind_name(int kind)
{
	static const char *const names[] = { "read", "flow", "output" };

	return kind >= 0 && kind < POLY_N_DEP_KINDS ? names[kind] : "?";
}

/* Operations per instance when the config does not say: an accumulation
 * of the product of n operands is n - 1 multiplications and one addition
 * (2 for matrix multiply, 3 for MTTKRP); without accumulation, n - 1.
 */
static int derive_ops(const poly_analysis *a)
{
	int n = 0;

	for (int i = 0; i < a->n_accesses; i++) {
		const poly_access *x = &a->access[i];
		int written = 0, dup = 0;

		if (x->write)
			continue;
		for (int j = 0; j < a->n_accesses; j++) {
			written |= a->access[j].write &&
				!strcmp(a->access[j].array, x->array);
			dup |= j < i && !a->access[j].write &&
				!strcmp(a->access[j].array, x->array);
		}
		n += !written && !dup;
	}
	if (a->reduction >= 0)
		return n > 1 ? n : 1;
	return n > 2 ? n - 1 : 1;
}

/* The operations a C kernel's compute statement performs as written
 * (alpha * A[i][k] * B[k][j] accumulated is three), or 0 when the front
 * end did not count them.
 */
static int written_ops(const poly_kernel_desc *desc, const char *stmt)
{
	for (int s = 0; s < desc->n_stmt_info; s++)
		if (desc->stmt_info[s].name &&
		    !strcmp(desc->stmt_info[s].name, stmt))
			return desc->stmt_info[s].ops;
	return 0;
}

static dse_stat fill_kernel(const poly__kernel *k,
	const poly_kernel_desc *desc, poly_analysis *a, dse_error *err)
{
	const char *name = desc->name ? desc->name : "";

	if (strlen(name) >= sizeof(a->kernel))
		return dse_error_set(err, DSE_E_INPUT, "kernel name '%s' is "
			"longer than %d characters", name,
			(int) sizeof(a->kernel) - 1);
	strcpy(a->kernel, name);
	strcpy(a->statement, k->statement);
	a->n_statements = k->n_stmts;
	for (int s = 0; s < k->n_stmts; s++) {
		strcpy(a->stmt_name[s], k->stmt[s]);
		a->stmt_role[s] = k->role[s];
	}
	a->n_loops = k->n_loops;
	a->points = k->points;
	a->box_points = k->box_points;
	for (int d = 0; d < k->n_loops; d++) {
		strcpy(a->loop[d], k->loop[d]);
		a->extent[d] = k->extent[d];
	}
	a->reduction = k->reduction;
	return dse_stat_ok;
}

/* Turns an exceeded operation or time bound into a clear error;
 * otherwise passes on the status.
 */
static dse_stat check_quota(isl_ctx *ctx, const poly_kernel_desc *desc,
	dse_stat stat, dse_error *err)
{
	if (stat != dse_stat_ok && isl_ctx_last_error(ctx) == isl_error_abort)
		return poly__input_error(err, &desc->domain_src, "the analysis "
			"of this kernel took more than %d s and was stopped; "
			"simplify the kernel (fewer disjuncts in the domain, "
			"fewer statements or loops, simpler accesses) or allow "
			"more time with [kernel] analysis_seconds",
			desc->max_seconds > 0 ? desc->max_seconds :
			POLY_MAX_SECONDS);
	if (stat == dse_stat_ok || isl_ctx_last_error(ctx) != isl_error_quota)
		return stat;
	return poly__input_error(err, &desc->domain_src, "the analysis of "
		"this kernel exceeded its bound of %lu isl operations; "
		"simplify the kernel (fewer statements or loops, simpler "
		"accesses)", MAX_ISL_OPERATIONS);
}

/* The time bound: a thread that waits for the analysis to end and, if
 * the time runs out first, stops isl with isl_ctx_abort, which isl offers
 * to stop a computation from outside it.  isl checks the flag at every
 * allocation, so the analysis ends within moments, with isl_error_abort.
 * (The bound of isl operations alone counts allocations, which some
 * kernels spread over hours.)
 */
struct watchdog {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	isl_ctx *ctx;
	struct timespec deadline;	/* CLOCK_MONOTONIC */
	int done;
	int running;
};

static void *watch(void *arg)
{
	struct watchdog *w = arg;
	int rc = 0;

	pthread_mutex_lock(&w->lock);
	while (!w->done && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&w->wake, &w->lock, &w->deadline);
	if (!w->done)
		isl_ctx_abort(w->ctx);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Starts the watchdog; without it (no thread to be had) the analysis
 * runs with the operation bound only.
 */
static void watchdog_start(struct watchdog *w, isl_ctx *ctx, int seconds)
{
	pthread_condattr_t attr;

	memset(w, 0, sizeof(*w));
	w->ctx = ctx;
	clock_gettime(CLOCK_MONOTONIC, &w->deadline);
	w->deadline.tv_sec += seconds > 0 ? seconds : POLY_MAX_SECONDS;
	if (pthread_condattr_init(&attr))
		return;
	if (pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
	    pthread_cond_init(&w->wake, &attr) == 0) {
		pthread_mutex_init(&w->lock, NULL);
		w->running = pthread_create(&w->thread, NULL, watch, w) == 0;
		if (!w->running) {
			pthread_cond_destroy(&w->wake);
			pthread_mutex_destroy(&w->lock);
		}
	}
	pthread_condattr_destroy(&attr);
}

static void watchdog_stop(struct watchdog *w)
{
	if (!w->running)
		return;
	pthread_mutex_lock(&w->lock);
	w->done = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
}

static dse_stat analyze(isl_ctx *ctx, const poly_kernel_desc *desc,
	poly_analysis *a, dse_error *err)
{
	isl_map *rel[POLY_MAX_DEPS] = { NULL };
	poly__kernel k;
	dse_stat stat;

	stat = poly__kernel_read(ctx, desc, &k, err);
	if (stat != dse_stat_ok)
		return check_quota(ctx, desc, stat, err);
	stat = fill_kernel(&k, desc, a, err);
	if (stat == dse_stat_ok)
		stat = poly__accesses(&k, desc, a, err);
	if (stat == dse_stat_ok)
		stat = poly__dependences(&k, a, rel, err);
	if (stat == dse_stat_ok)
		stat = poly__space_time(&k, desc, a, err);
	if (stat == dse_stat_ok)
		stat = poly__io(&k, a, rel, err);
	for (int i = 0; i < POLY_MAX_DEPS; i++)
		isl_map_free(rel[i]);
	a->ops_per_point = desc->ops_per_point > 0 ? desc->ops_per_point :
		written_ops(desc, a->statement);
	if (a->ops_per_point <= 0)
		a->ops_per_point = derive_ops(a);
	poly__kernel_clear(&k);
	return check_quota(ctx, desc, stat, err);
}

poly_analysis *poly_analyze(const poly_kernel_desc *desc, dse_error *err)
{
	struct timespec t0, t1;
	poly_analysis *a;
	isl_ctx *ctx;
	dse_stat stat;

	if (!desc) {
		dse_error_set(err, DSE_E_RUNTIME, "poly_analyze: no kernel");
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	a = calloc(1, sizeof(*a));
	ctx = a ? isl_ctx_alloc() : NULL;
	if (!ctx) {
		free(a);
		dse_error_nomem(err, "the kernel's analysis", sizeof(*a));
		return NULL;
	}
	/* Errors come back as return values and are reported through err;
	 * isl must neither print nor abort inside the library.
	 */
	if (isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE) < 0) {
		stat = poly__isl_error(ctx, err, "setting up isl");
	} else {
		struct watchdog w;

		isl_ctx_set_max_operations(ctx, MAX_ISL_OPERATIONS);
		watchdog_start(&w, ctx, desc->max_seconds);
		stat = analyze(ctx, desc, a, err);
		watchdog_stop(&w);
	}
	isl_ctx_free(ctx);
	if (stat != dse_stat_ok)
		return poly_analysis_free(a);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	a->seconds = (double) (t1.tv_sec - t0.tv_sec) +
		(double) (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return a;
}

poly_analysis *poly_analysis_free(poly_analysis *a)
{
	free(a);
	return NULL;
}

int poly_analysis_loop(const poly_analysis *a, const char *name)
{
	if (!a || !name)
		return -1;
	for (int d = 0; d < a->n_loops && d < POLY_MAX_LOOPS; d++)
		if (!strcmp(a->loop[d], name))
			return d;
	return -1;
}

int poly_candidate_order(const poly_analysis *a, const poly_candidate *c,
	int *order)
{
	int n = 0;

	for (int s = 0; s < c->n_space; s++)
		order[n++] = c->space[s];
	for (int i = 0; i < c->n_time && n < POLY_MAX_LOOPS; i++)
		order[n++] = c->time[i];
	return n == a->n_loops ? n : -1;
}

/* The latency-hiding loops: the parallel band loops (a->parallel, in
 * the analysis's numbering, read through "order"), except the SIMD loop,
 * which is strip-mined for SIMD instead; in the template's order.
 */
static void latency_loops(const poly_analysis *a, const int *order,
	poly_template *t)
{
	t->n_latency = 0;
	for (int l = 0; l < a->band; l++)
		if (a->parallel[order[l]] && l != t->simd_loop)
			t->latency_loop[t->n_latency++] = l;
}

/* The accesses with their loop coefficients in the template's order. */
static void permute_accesses(const poly_analysis *a, const int *order,
	poly_template *t)
{
	t->n_accesses = a->n_accesses;
	memcpy(t->access, a->access, sizeof(t->access));
	for (int i = 0; i < a->n_accesses; i++)
		for (int d = 0; d < a->access[i].n_dims; d++)
			for (int l = 0; l < a->n_loops; l++)
				t->access[i].coef[d][l] =
					a->access[i].coef[d][order[l]];
}

/* The position of loop "l" of the analysis in the template, or -1. */
static int position(const int *order, int n, int l)
{
	for (int i = 0; i < n; i++)
		if (order[i] == l)
			return i;
	return -1;
}

/* The template's loops are the candidate's tile-loop order (see
 * poly_candidate_order): loop l of the template is loop order[l] of the
 * analysis, so its space loops are loops 0 .. n_space - 1.
 */
dse_stat poly_template_from(const poly_analysis *a, int space_time,
	poly_template *out, dse_error *err)
{
	const poly_candidate *c;
	int order[POLY_MAX_LOOPS], n;

	if (!a || !out)
		return dse_error_set(err, DSE_E_RUNTIME,
			"poly_template_from: no analysis or no output");
	if (space_time < 0 || space_time >= a->n_candidates)
		return dse_error_set(err, DSE_E_INPUT, "kernel '%s' has no "
			"space_time[%d]: its %d candidates are numbered 0 to "
			"%d", a->kernel, space_time, a->n_candidates,
			a->n_candidates - 1);
	c = &a->cand[space_time];
	n = poly_candidate_order(a, c, order);
	if (n < 0)
		return dse_error_set(err, DSE_E_RUNTIME, "kernel '%s': "
			"space_time[%d] does not order every loop", a->kernel,
			space_time);
	memset(out, 0, sizeof(*out));
	strcpy(out->kernel, a->kernel);
	strcpy(out->statement, a->statement);
	out->n_loops = n;
	for (int l = 0; l < n; l++) {
		strcpy(out->loop[l], a->loop[order[l]]);
		out->extent[l] = a->extent[order[l]];
	}
	out->band = a->band;
	out->reduction = a->reduction < 0 ? -1 :
		position(order, n, a->reduction);
	out->space_time = space_time;
	out->n_space = c->n_space;
	for (int s = 0; s < c->n_space; s++)
		out->space_loop[s] = s;
	out->simd_loop = a->simd_loop < 0 ? -1 :
		position(order, n, a->simd_loop);
	if (out->simd_loop >= 0 && out->simd_loop < c->n_space)
		out->simd_loop = -1;
	latency_loops(a, order, out);
	out->points = a->points;
	out->ops_per_point = a->ops_per_point;
	permute_accesses(a, order, out);
	out->n_groups = c->n_groups;
	memcpy(out->group, c->group, sizeof(out->group));
	return dse_stat_ok;
}

dse_stat poly_template_build(const poly_kernel_desc *desc, int space_time,
	poly_template *out, dse_error *err)
{
	poly_analysis *a = poly_analyze(desc, err);
	dse_stat stat;

	if (!a)
		return dse_stat_error;
	if (space_time < 0)
		space_time = a->default_candidate;
	stat = poly_template_from(a, space_time, out, err);
	if (stat != dse_stat_ok && desc->space_time_src.line > 0)
		stat = poly__input_error(err, &desc->space_time_src, "%s",
			err ? err->msg : "no such candidate");
	poly_analysis_free(a);
	return stat;
}

int poly_template_loop(const poly_template *tmpl, const char *name)
{
	if (!tmpl || !name)
		return -1;
	for (int d = 0; d < tmpl->n_loops && d < POLY_MAX_LOOPS; d++)
		if (!strcmp(tmpl->loop[d], name))
			return d;
	return -1;
}

int poly_template_superseded(const poly_template *t, int g)
{
	const poly_group *gr;

	if (!t || g < 0 || g >= t->n_groups)
		return 0;
	gr = &t->group[g];
	if (gr->pruned || gr->kind == POLY_DEP_FLOW)
		return 0;
	for (int i = 0; i < t->n_groups; i++)
		if (!t->group[i].pruned && t->group[i].kind == POLY_DEP_FLOW &&
		    !strcmp(t->group[i].array, gr->array))
			return 1;
	return 0;
}

/* A flow group's partial values leave after every tile: every band loop
 * names its tile.  Any other group's tile is named by the loops its
 * access uses; the tiles run in the template's loop order, so a band loop
 * outside the access but outer to one of them starts the same output
 * tile again (its values must leave between), and the output tile is the
 * prefix of the band up to the innermost loop the access uses.
 */
unsigned poly_template_drain_loops(const poly_template *t, int g)
{
	const poly_access *a;
	int inner = -1;

	if (!t || g < 0 || g >= t->n_groups)
		return 0;
	if (t->group[g].kind == POLY_DEP_FLOW)
		return (1u << t->band) - 1u;
	a = &t->access[t->group[g].access];
	for (int d = 0; d < a->n_dims; d++)
		for (int l = 0; l < t->band; l++)
			if (a->exact[d] && a->coef[d][l] != 0 && l > inner)
				inner = l;
	return (1u << (inner + 1)) - 1u;
}

int poly_template_is_space(const poly_template *t, int l)
{
	for (int s = 0; t && s < t->n_space; s++)
		if (t->space_loop[s] == l)
			return 1;
	return 0;
}

/* The extent of dimension d of access "acc" over a box of tile[l]
 * iterations per loop, capped by the array's extent.
 */
static int64_t dim_span(const poly_template *t, const poly_access *acc,
	int d, const int64_t *tile)
{
	int64_t span = 1;

	if (!acc->exact[d])
		return acc->extent[d];
	for (int l = 0; l < t->n_loops; l++) {
		int64_t c = acc->coef[d][l] < 0 ? -acc->coef[d][l] :
			acc->coef[d][l];
		int64_t step;

		if (c == 0 || tile[l] <= 1)
			continue;
		if (__builtin_mul_overflow(c, tile[l] - 1, &step) ||
		    __builtin_add_overflow(span, step, &span))
			return acc->extent[d];
	}
	return span < acc->extent[d] ? span : acc->extent[d];
}

int64_t poly_footprint(const poly_template *t, int acc, const int64_t *tile)
{
	const poly_access *x;
	int64_t total = 1;

	if (!t || acc < 0 || acc >= t->n_accesses || !tile)
		return 0;
	x = &t->access[acc];
	for (int d = 0; d < x->n_dims; d++)
		if (__builtin_mul_overflow(total, dim_span(t, x, d, tile),
				&total))
			return INT64_MAX;
	return total;
}

int64_t poly_inner_run(const poly_template *t, int acc, const int64_t *tile)
{
	const poly_access *x;

	if (!t || acc < 0 || acc >= t->n_accesses || !tile)
		return 0;
	x = &t->access[acc];
	return x->n_dims > 0 ? dim_span(t, x, x->n_dims - 1, tile) : 1;
}
