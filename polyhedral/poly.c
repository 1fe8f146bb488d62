/* The design template: the loop nest of the kernel, as read by
 * kernel.c, mapped onto one of AutoSA's space-time candidates.
 *
 * Each supported space_time number has a builder in the table below; a
 * builder checks that the kernel fits the candidate and fills the parts of
 * the template that depend on it.  The parts that only depend on the
 * kernel are filled once, before the builder runs.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/options.h>

#include "polyhedral/internal.h"
#include "polyhedral/poly.h"

/* Room for the loop list "i, j, k" in a message. */
#define LOOP_LIST_LEN 192

/* Fills the candidate-specific part of a template from the kernel. */
typedef dse_stat (*template_builder)(const poly__kernel *k,
	const poly_kernel_desc *desc, poly_template *tmpl, dse_error *err);

struct space_time_entry {
	int space_time;
	template_builder build;
};

static dse_stat build_output_stationary(const poly__kernel *k,
	const poly_kernel_desc *desc, poly_template *tmpl, dse_error *err);

/* The space-time candidates this version can build. */
static const struct space_time_entry space_times[] = {
	{ 3, &build_output_stationary },
};

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

/* "i, j, k": the loops of the kernel, for messages. */
static void loop_list(const poly__kernel *k, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int d = 0; d < k->n_loops && len + 1 < size; d++) {
		snprintf(buf + len, size - len, "%s%s", d ? ", " : "",
			k->loop[d]);
		len = strlen(buf);
	}
}

/* The output-stationary 2-D array (AutoSA's space_time[3] for matrix
 * multiply): the two outer loops are the space loops and the innermost
 * loop, the reduction, runs in time inside each PE, so every PE keeps its
 * output element until the reduction is complete.
 */
static dse_stat build_output_stationary(const poly__kernel *k,
	const poly_kernel_desc *desc, poly_template *tmpl, dse_error *err)
{
	char loops[LOOP_LIST_LEN];

	loop_list(k, loops, sizeof(loops));
	if (k->n_loops != 3)
		return poly__input_error(err, &desc->domain_src, "space_time[3] "
			"needs a kernel with 3 loops; '%s' has %d (%s)",
			k->statement, k->n_loops, loops);
	if (k->reduction != 2)
		return poly__input_error(err, desc->reduction ?
			&desc->reduction_src : &desc->domain_src,
			"space_time[3] needs the reduction loop innermost, but "
			"'%s' is loop %d of %s[%s]", k->loop[k->reduction],
			k->reduction + 1, k->statement, loops);
	tmpl->n_space = 2;
	tmpl->space_loop[0] = 0;
	tmpl->space_loop[1] = 1;
	return dse_stat_ok;
}

/* Fills the parts of the template that only depend on the kernel. */
static dse_stat fill_kernel(const poly__kernel *k,
	const poly_kernel_desc *desc, poly_template *tmpl, dse_error *err)
{
	const char *name = desc->name ? desc->name : "";

	if (strlen(name) >= sizeof(tmpl->kernel))
		return dse_error_set(err, DSE_E_INPUT, "kernel name '%s' is "
			"longer than %d characters", name,
			(int) sizeof(tmpl->kernel) - 1);
	strcpy(tmpl->kernel, name);
	strcpy(tmpl->statement, k->statement);
	tmpl->n_loops = k->n_loops;
	tmpl->points = 1;
	for (int d = 0; d < k->n_loops; d++) {
		uint64_t ext = (uint64_t) k->extent[d];

		strcpy(tmpl->loop[d], k->loop[d]);
		tmpl->extent[d] = k->extent[d];
		if (tmpl->points > UINT64_MAX / ext)
			return poly__input_error(err, &desc->domain_src,
				"the kernel has more than 2^64 statement "
				"instances");
		tmpl->points *= ext;
	}
	tmpl->reduction = k->reduction;
	/* Only the access relations are known, not the statement body, so
	 * the statement is taken to be a multiply-accumulate.
	 */
	tmpl->ops_per_point = 2;
	return dse_stat_ok;
}

/* The builder for space_time, or NULL when it is not supported. */
static template_builder find_builder(int space_time)
{
	size_t n = sizeof(space_times) / sizeof(space_times[0]);

	for (size_t i = 0; i < n; i++)
		if (space_times[i].space_time == space_time)
			return space_times[i].build;
	return NULL;
}

/* Builds the template once ctx is set up; the kernel's isl objects are
 * freed before returning.
 */
static dse_stat build(isl_ctx *ctx, const poly_kernel_desc *desc,
	int space_time, poly_template *tmpl, dse_error *err)
{
	template_builder builder = find_builder(space_time);
	poly__kernel k;
	dse_stat stat;

	if (poly__kernel_read(ctx, desc, &k, err) != dse_stat_ok)
		return dse_stat_error;
	if (!builder)
		stat = poly__input_error(err, &desc->space_time_src,
			"space_time[%d] is not supported yet; this version "
			"builds space_time[3], the output-stationary 2-D array",
			space_time);
	else
		stat = fill_kernel(&k, desc, tmpl, err);
	tmpl->space_time = space_time;
	if (stat == dse_stat_ok)
		stat = builder(&k, desc, tmpl, err);
	poly__kernel_clear(&k);
	return stat;
}

dse_stat poly_template_build(const poly_kernel_desc *desc, int space_time,
	poly_template *out, dse_error *err)
{
	poly_template tmpl;
	isl_ctx *ctx;
	dse_stat stat;

	if (!desc || !out)
		return dse_error_set(err, DSE_E_RUNTIME,
			"poly_template_build: no kernel or no output");
	ctx = isl_ctx_alloc();
	if (!ctx)
		return dse_error_set(err, DSE_E_NOMEM,
			"cannot allocate an isl context");
	/* Errors come back as return values and are reported through err;
	 * isl must neither print nor abort inside the library.
	 */
	if (isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE) < 0) {
		stat = poly__isl_error(ctx, err, "setting up isl");
	} else {
		memset(&tmpl, 0, sizeof(tmpl));
		stat = build(ctx, desc, space_time, &tmpl, err);
	}
	isl_ctx_free(ctx);
	if (stat == dse_stat_ok)
		*out = tmpl;
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
