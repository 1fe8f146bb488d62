/* Reading the kernel: the isl strings are parsed, the parameters fixed,
 * and the iteration domain, the accesses and the reduction loop checked
 * and summarised in a poly__kernel.
 *
 * Every check that can be blamed on the user's input reports DSE_E_INPUT
 * at the source of the string concerned; an isl call that fails for any
 * other reason is reported through poly__isl_error.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/ilp.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include "core/util.h"
#include "polyhedral/internal.h"

/* Room for a comma-separated list of names inside an error message. */
#define NAME_LIST_LEN 192

/* Copies an isl name into a fixed-size field; fails when it does not fit
 * so that names are never silently shortened.
 */
int poly__copy_name(char dst[POLY_NAME_LEN], const char *src)
{
	if (strlen(src) >= POLY_NAME_LEN)
		return -1;
	strcpy(dst, src);
	return 0;
}

/* The isl value of v.  It is built from a 64-bit chunk because the width
 * of "long", which isl_val_int_from_si takes, is platform-dependent.
 */
static __isl_give isl_val *val_from_int64(isl_ctx *ctx, int64_t v)
{
	uint64_t mag = v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v;
	isl_val *val = isl_val_int_from_chunks(ctx, 1, sizeof(mag), &mag);

	return v < 0 ? isl_val_neg(val) : val;
}

/* Stores the integer value of v in *out.  Returns -1 when v is not an
 * integer (an infinite bound, NaN for an empty set) or does not fit.
 */
static int val_to_int64(__isl_keep isl_val *v, int64_t *out)
{
	uint64_t mag = 0;
	isl_size n;

	if (isl_val_is_int(v) != isl_bool_true)
		return -1;
	n = isl_val_n_abs_num_chunks(v, sizeof(mag));
	if (n < 0 || n > 1)
		return -1;
	if (n == 1 && isl_val_get_abs_num_chunks(v, sizeof(mag), &mag) < 0)
		return -1;
	if (mag > (uint64_t) INT64_MAX)
		return -1;
	*out = isl_val_is_neg(v) == isl_bool_true ? -(int64_t) mag :
		(int64_t) mag;
	return 0;
}

/* Whether isl stopped because the analysis ran past its time or its
 * operation bound rather than because the text is wrong.  Such a failure
 * keeps isl's error, which the caller turns into a message about the
 * bound: under a slow machine (valgrind, a loaded node) the bound can
 * fall inside the parser, and "invalid isl set" would blame the text.
 */
static int stopped(isl_ctx *ctx)
{
	enum isl_error e = isl_ctx_last_error(ctx);

	return e == isl_error_abort || e == isl_error_quota;
}

/* Copies isl's last error message, which the next isl call may replace. */
static void last_message(isl_ctx *ctx, char *buf, size_t size)
{
	const char *msg = isl_ctx_last_error_msg(ctx);

	snprintf(buf, size, "%s", msg ? msg : "unknown error");
	isl_ctx_reset_error(ctx);
}

/* Parses the iteration domain.  When the string is a valid relation
 * instead, the user most likely swapped two keys, so say that rather than
 * passing on isl's internal assertion text.
 */
static __isl_give isl_union_set *read_domain(isl_ctx *ctx, const char *str,
	const poly_source *src, dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];
	isl_union_set *uset;
	isl_union_map *umap;

	if (!str) {
		poly__input_error(err, src, "the iteration domain is missing");
		return NULL;
	}
	uset = isl_union_set_read_from_str(ctx, str);
	if (uset)
		return uset;
	if (stopped(ctx)) {
		poly__input_error(err, src, "reading the iteration domain "
			"was stopped");
		return NULL;
	}
	last_message(ctx, msg, sizeof(msg));
	umap = isl_union_map_read_from_str(ctx, str);
	isl_ctx_reset_error(ctx);
	if (umap) {
		isl_union_map_free(umap);
		poly__input_error(err, src, "invalid isl set: this is a "
			"relation, not a set of statement instances such as "
			"{ S0[i,j,k] : 0 <= i < M and ... }");
	} else {
		poly__input_error(err, src, "invalid isl set: %s", msg);
	}
	return NULL;
}

/* Whether "str" multiplies two names (i*j), which isl rejects as a
 * syntax error although the user's mistake is a non-affine index.
 */
static int has_product(const char *str)
{
	for (const char *p = strchr(str, '*'); p; p = strchr(p + 1, '*')) {
		const char *l = p, *r = p + 1;

		while (l > str && isspace((unsigned char) l[-1]))
			l--;
		while (isspace((unsigned char) *r))
			r++;
		if (l > str && (isalpha((unsigned char) l[-1]) || l[-1] == '_'
		    || l[-1] == ')') && (isalpha((unsigned char) *r) ||
		    *r == '_' || *r == '('))
			return 1;
	}
	return 0;
}

/* Parses an access relation ("kind" is "read" or "write"), with the same
 * courtesy as read_domain for a set given where a relation is expected.
 */
static __isl_give isl_union_map *read_accesses(isl_ctx *ctx, const char *str,
	const char *kind, const poly_source *src, dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];
	isl_union_map *umap;
	isl_union_set *uset;

	if (!str) {
		poly__input_error(err, src, "the %s accesses are missing",
			kind);
		return NULL;
	}
	umap = isl_union_map_read_from_str(ctx, str);
	if (umap)
		return umap;
	if (stopped(ctx)) {
		poly__input_error(err, src, "reading the %s accesses was "
			"stopped", kind);
		return NULL;
	}
	last_message(ctx, msg, sizeof(msg));
	uset = isl_union_set_read_from_str(ctx, str);
	isl_ctx_reset_error(ctx);
	if (uset) {
		isl_union_set_free(uset);
		poly__input_error(err, src, "invalid isl map: this is a set, "
			"not a relation; write each %s access as "
			"S0[i,j,k] -> A[i,k]", kind);
	} else if (strstr(msg, "syntax error") && has_product(str)) {
		poly__input_error(err, src, "invalid isl map: %s (each index "
			"must be affine: a sum of loops and parameters times "
			"constants, such as i + 2*k - 1; a product of loops "
			"such as i*j is not affine)", msg);
	} else {
		poly__input_error(err, src, "invalid isl map: %s", msg);
	}
	return NULL;
}

/* Checks one given parameter (index i of desc) against the parameters the
 * kernel declares ("all", the union of those of the domain and of the
 * accesses).
 */
static dse_stat check_given_param(const poly_kernel_desc *desc, int i,
	__isl_keep isl_space *all, dse_error *err)
{
	const poly_source *src = &desc->params_src;
	const char *name = desc->param_name[i];
	char known[NAME_LIST_LEN] = "";
	isl_size n = isl_space_dim(all, isl_dim_param);

	if (!name || !name[0])
		return poly__input_error(err, src,
			"parameter %d has no name", i + 1);
	for (int j = 0; j < i; j++)
		if (desc->param_name[j] && !strcmp(desc->param_name[j], name))
			return poly__input_error(err, src,
				"parameter '%s' is given twice", name);
	if (isl_space_find_dim_by_name(all, isl_dim_param, name) < 0) {
		for (int p = 0; p < n; p++)
			dse_list_add(known, sizeof(known), isl_space_get_dim_name(
				all, isl_dim_param, p));
		return poly__input_error(err, src, "unknown parameter '%s'; "
			"the kernel's parameters are: %s", name,
			known[0] ? known : "(none)");
	}
	if (desc->param_value[i] < 1)
		return poly__input_error(err, src, "parameter '%s' must be at "
			"least 1, not %lld", name,
			(long long) desc->param_value[i]);
	return dse_stat_ok;
}

/* Checks that each parameter of the domain has a value. */
static dse_stat check_domain_params(const poly_kernel_desc *desc,
	__isl_keep isl_space *domain, dse_error *err)
{
	isl_size n = isl_space_dim(domain, isl_dim_param);

	for (int p = 0; p < n; p++) {
		const char *name = isl_space_get_dim_name(domain,
			isl_dim_param, p);
		int found = 0;

		for (int i = 0; i < desc->n_params && !found; i++)
			found = name && !strcmp(desc->param_name[i], name);
		if (!found)
			return poly__input_error(err, &desc->params_src,
				"parameter '%s' has no value",
				name ? name : "?");
	}
	return dse_stat_ok;
}

/* Checks the given parameter values against the kernel's parameters.
 * Parameters that only the accesses use may stay symbolic: the access
 * analysis holds for all their values.
 */
static dse_stat check_params(isl_ctx *ctx, const poly_kernel_desc *desc,
	__isl_keep isl_union_set *domain, __isl_keep isl_union_map *reads,
	__isl_keep isl_union_map *writes,
	dse_error *err)
{
	isl_space *dspace = isl_union_set_get_space(domain);
	isl_space *all;
	dse_stat stat = dse_stat_ok;

	if (desc->n_params < 0 || desc->n_params > POLY_MAX_PARAMS) {
		isl_space_free(dspace);
		return poly__input_error(err, &desc->params_src,
			"%d parameters given; at most %d are supported",
			desc->n_params, POLY_MAX_PARAMS);
	}
	all = isl_space_align_params(isl_space_copy(dspace),
		isl_union_map_get_space(reads));
	all = isl_space_align_params(all, isl_union_map_get_space(writes));
	if (!dspace || !all)
		stat = poly__isl_error(ctx, err, "collecting the parameters");
	for (int i = 0; stat == dse_stat_ok && i < desc->n_params; i++)
		stat = check_given_param(desc, i, all, err);
	if (stat == dse_stat_ok)
		stat = check_domain_params(desc, dspace, err);
	isl_space_free(dspace);
	isl_space_free(all);
	return stat;
}

/* The parameter values as an isl parameter set, so that fixing them is a
 * plain intersection with the domain and with the accesses.
 */
static __isl_give isl_set *params_set(isl_ctx *ctx,
	const poly_kernel_desc *desc)
{
	isl_space *space = isl_space_params_alloc(ctx, desc->n_params);
	isl_set *set;

	for (int i = 0; i < desc->n_params; i++)
		space = isl_space_set_dim_name(space, isl_dim_param, i,
			desc->param_name[i]);
	set = isl_set_universe(space);
	for (int i = 0; i < desc->n_params; i++)
		set = isl_set_fix_val(set, isl_dim_param, i,
			val_from_int64(ctx, desc->param_value[i]));
	return set;
}

/* State of the walk over the statements of the domain. */
struct stmt_walk {
	poly__kernel *k;
	const char *text;		/* the domain as written */
	long pos[POLY_MAX_STMTS];	/* where each name first appears */
	int rejected;
	char msg[DSE_ERROR_MSG_LEN];
};

/* Where "name[" first appears in the domain text, so that statements can
 * be put in the order the user wrote them (isl's own order is a hash
 * order).
 */
static long first_position(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		const char *q = p + n;

		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (*q == '[' && (p == text || !(isalnum((unsigned char) p[-1])
		    || p[-1] == '_')))
			return (long) (p - text);
	}
	return (long) strlen(text);
}

/* The index of the statement called "name" among those recorded, or -1. */
static int stmt_index(const poly__kernel *k, const char *name)
{
	for (int i = 0; i < k->n_stmts; i++)
		if (!strcmp(k->stmt[i], name))
			return i;
	return -1;
}

static isl_stat add_stmt(__isl_take isl_set *set, void *user)
{
	struct stmt_walk *w = user;
	poly__kernel *k = w->k;
	const char *name = isl_set_get_tuple_name(set);
	isl_size n = isl_set_dim(set, isl_dim_set);
	isl_stat stat = isl_stat_error;

	if (n < 0) {
		/* An isl failure: leave "rejected" unset. */
	} else if (!name) {
		w->rejected = 1;
		snprintf(w->msg, sizeof(w->msg), "a statement has no name; "
			"write the domain as { S0[i,j,k] : ... }");
	} else if (k->n_stmts == POLY_MAX_STMTS) {
		w->rejected = 1;
		snprintf(w->msg, sizeof(w->msg), "the kernel has more than %d "
			"statements", POLY_MAX_STMTS);
	} else if (stmt_index(k, name) >= 0) {
		/* isl keeps S[i] and S[i,j] apart, but every other part of
		 * the analysis, and every report, names a statement alone.
		 */
		w->rejected = 1;
		snprintf(w->msg, sizeof(w->msg), "two statements are named "
			"'%s' (with %d and %d loops); give each its own name",
			name, k->stmt_loops[stmt_index(k, name)], (int) n);
	} else if (poly__copy_name(k->stmt[k->n_stmts], name) < 0) {
		w->rejected = 1;
		snprintf(w->msg, sizeof(w->msg), "statement name '%s' is "
			"longer than %d characters", name, POLY_NAME_LEN - 1);
	} else {
		k->stmt_loops[k->n_stmts] = (int) n;
		w->pos[k->n_stmts] = first_position(w->text, name);
		k->n_stmts++;
		stat = isl_stat_ok;
	}
	isl_set_free(set);
	return stat;
}

/* Sorts the statements by where they first appear in the domain text. */
static void order_stmts(poly__kernel *k, long *pos)
{
	for (int i = 1; i < k->n_stmts; i++)
		for (int j = i; j > 0 && pos[j] < pos[j - 1]; j--) {
			char name[POLY_NAME_LEN];
			long p = pos[j];
			int n = k->stmt_loops[j];

			memcpy(name, k->stmt[j], POLY_NAME_LEN);
			memcpy(k->stmt[j], k->stmt[j - 1], POLY_NAME_LEN);
			memcpy(k->stmt[j - 1], name, POLY_NAME_LEN);
			pos[j] = pos[j - 1];
			pos[j - 1] = p;
			k->stmt_loops[j] = k->stmt_loops[j - 1];
			k->stmt_loops[j - 1] = n;
		}
}

/* Records the statements of the domain, in the order they are written,
 * and keeps a copy of the domain.
 */
static dse_stat take_statements(poly__kernel *k, const poly_kernel_desc *desc,
	__isl_keep isl_union_set *uset, dse_error *err)
{
	struct stmt_walk w = { .k = k, .text = desc->domain };
	isl_size n = isl_union_set_n_set(uset);

	if (n < 0)
		return poly__isl_error(k->ctx, err, "counting the statements");
	if (n == 0)
		return poly__input_error(err, &desc->domain_src,
			"the iteration domain is empty");
	if (isl_union_set_foreach_set(uset, &add_stmt, &w) < 0)
		return w.rejected ?
			poly__input_error(err, &desc->domain_src, "%s", w.msg) :
			poly__isl_error(k->ctx, err, "reading the statements");
	order_stmts(k, w.pos);
	k->domains = isl_union_set_copy(uset);
	return dse_stat_ok;
}

/* Whether statement "name" writes an element that it also reads: the
 * update of an accumulation.
 */
static isl_bool updates(const poly__kernel *k, const char *name)
{
	isl_union_map *same = isl_union_map_intersect(
		isl_union_map_copy(k->reads), isl_union_map_copy(k->writes));
	isl_union_set *dom = isl_union_map_domain(same);
	isl_bool found = isl_bool_false;
	isl_set_list *list = isl_union_set_get_set_list(dom);
	isl_size n = isl_set_list_size(list);

	for (int i = 0; i < n && found == isl_bool_false; i++) {
		isl_set *set = isl_set_list_get_at(list, i);
		const char *s = isl_set_get_tuple_name(set);

		found = s && !strcmp(s, name) ? isl_bool_true : isl_bool_false;
		isl_set_free(set);
	}
	isl_set_list_free(list);
	isl_union_set_free(dom);
	return n < 0 ? isl_bool_error : found;
}

/* Picks the compute statement: the one with the most loops; on a tie the
 * one that accumulates, then the first written.
 */
static dse_stat pick_compute(poly__kernel *k, const poly_source *src,
	dse_error *err)
{
	int best = 0;
	isl_bool best_upd = updates(k, k->stmt[0]);
	isl_bool empty;
	isl_space *space;

	for (int i = 1; i < k->n_stmts && best_upd >= 0; i++) {
		isl_bool upd = updates(k, k->stmt[i]);

		if (upd < 0)
			best_upd = upd;
		else if (k->stmt_loops[i] > k->stmt_loops[best] ||
		    (k->stmt_loops[i] == k->stmt_loops[best] && upd &&
		     !best_upd)) {
			best = i;
			best_upd = upd;
		}
	}
	if (best_upd < 0)
		return poly__isl_error(k->ctx, err, "finding the statements");
	strcpy(k->statement, k->stmt[best]);
	space = isl_union_set_get_space(k->domains);
	space = isl_space_add_named_tuple_id_ui(space,
		isl_id_alloc(k->ctx, k->statement, NULL),
		(unsigned) k->stmt_loops[best]);
	k->domain = isl_union_set_extract_set(k->domains, space);
	empty = isl_set_is_empty(k->domain);
	if (empty < 0)
		return poly__isl_error(k->ctx, err, "reading the statement");
	/* Checked before the loops are named: isl drops the names of an
	 * empty set.
	 */
	if (empty)
		return poly__input_error(err, src, "the iteration domain of "
			"'%s' is empty for the given parameter values",
			k->statement);
	return dse_stat_ok;
}

/* Records the loop names, which are the names of the domain's set
 * dimensions: the rest of the tool refers to loops by these names.
 */
static dse_stat name_loops(poly__kernel *k, const poly_source *src,
	dse_error *err)
{
	isl_size n = isl_set_dim(k->domain, isl_dim_set);

	if (n < 0)
		return poly__isl_error(k->ctx, err, "counting the loops");
	if (n == 0)
		return poly__input_error(err, src,
			"the statement '%s' has no loops", k->statement);
	if (n > POLY_MAX_LOOPS)
		return poly__input_error(err, src, "the statement '%s' has %d "
			"loops; at most %d are supported", k->statement,
			(int) n, POLY_MAX_LOOPS);
	k->n_loops = n;
	for (int d = 0; d < n; d++) {
		const char *name = isl_set_get_dim_name(k->domain,
			isl_dim_set, d);

		if (!name)
			return poly__input_error(err, src, "loop %d of '%s' "
				"has no name; name every loop, e.g. "
				"%s[i,j,k]", d + 1, k->statement,
				k->statement);
		if (poly__copy_name(k->loop[d], name) < 0)
			return poly__input_error(err, src, "loop name '%s' is "
				"longer than %d characters", name,
				POLY_NAME_LEN - 1);
	}
	return dse_stat_ok;
}

/* Fixes the parameters of the domains and projects them out: every
 * domain parameter has a value, so the projection is exact and the rest
 * of the analysis works on plain integer sets.
 */
static dse_stat fix_domain(poly__kernel *k, __isl_keep isl_set *params,
	dse_error *err)
{
	isl_size n;

	k->domains = isl_union_set_intersect_params(k->domains,
		isl_set_copy(params));
	n = isl_union_set_dim(k->domains, isl_dim_param);
	if (n < 0)
		return poly__isl_error(k->ctx, err, "fixing the parameters");
	k->domains = isl_union_set_project_out(k->domains, isl_dim_param, 0,
		n);
	if (!k->domains)
		return poly__isl_error(k->ctx, err, "fixing the parameters");
	return dse_stat_ok;
}

/* Computes the inclusive bounds and the trip count of loop d.  An
 * infinite bound shows up as a non-integer value and is reported as a
 * missing bound.
 */
static dse_stat loop_bounds(poly__kernel *k, int d, const poly_source *src,
	dse_error *err)
{
	isl_val *lo = isl_set_dim_min_val(isl_set_copy(k->domain), d);
	isl_val *hi = isl_set_dim_max_val(isl_set_copy(k->domain), d);
	isl_val *ext = isl_val_add_ui(isl_val_sub(isl_val_copy(hi),
		isl_val_copy(lo)), 1);
	dse_stat stat = dse_stat_ok;

	if (!lo || !hi || !ext)
		stat = poly__isl_error(k->ctx, err, "computing loop bounds");
	else if (isl_val_is_infty(hi) == isl_bool_true ||
	    isl_val_is_neginfty(lo) == isl_bool_true)
		stat = poly__input_error(err, src, "the iteration domain is "
			"unbounded: loop '%s' has no %s bound", k->loop[d],
			isl_val_is_neginfty(lo) == isl_bool_true ?
			"lower" : "upper");
	else if (val_to_int64(lo, &k->lower[d]) < 0 ||
	    val_to_int64(hi, &k->upper[d]) < 0 ||
	    val_to_int64(ext, &k->extent[d]) < 0)
		stat = poly__input_error(err, src, "the bounds of loop '%s' "
			"do not fit in 64 bits", k->loop[d]);
	isl_val_free(lo);
	isl_val_free(hi);
	isl_val_free(ext);
	return stat;
}

/* The box spanned by the loop bounds, to compare with the domain. */
static __isl_give isl_set *bounding_box(const poly__kernel *k)
{
	isl_set *box = isl_set_universe(isl_set_get_space(k->domain));

	for (int d = 0; d < k->n_loops; d++) {
		box = isl_set_lower_bound_val(box, isl_dim_set, d,
			val_from_int64(k->ctx, k->lower[d]));
		box = isl_set_upper_bound_val(box, isl_dim_set, d,
			val_from_int64(k->ctx, k->upper[d]));
	}
	return box;
}

/* Records the bounds of the fixed domain, the points of its bounding box
 * and its exact number of instances.  The array runs the tiles of the
 * bounding box, as AutoSA's hardware runs a triangular or otherwise
 * guarded domain: an iteration outside the domain still takes its slot
 * in the PE's pipeline, so the models take their tiles and cycles from
 * the box and their operation counts from the instances.
 */
static dse_stat check_box(poly__kernel *k, const poly_source *src,
	dse_error *err)
{
	isl_bool empty = isl_set_is_empty(k->domain);
	isl_bool equal;
	isl_set *box;
	int counted;

	if (empty < 0)
		return poly__isl_error(k->ctx, err, "testing the domain");
	if (empty)
		return poly__input_error(err, src, "the iteration domain of "
			"'%s' is empty for the given parameter values",
			k->statement);
	k->box_points = 1;
	for (int d = 0; d < k->n_loops; d++) {
		if (loop_bounds(k, d, src, err) != dse_stat_ok)
			return dse_stat_error;
		if (k->box_points > UINT64_MAX / (uint64_t) k->extent[d])
			return poly__input_error(err, src, "the kernel has "
				"more than 2^64 statement instances");
		k->box_points *= (uint64_t) k->extent[d];
	}
	box = bounding_box(k);
	equal = isl_set_is_equal(k->domain, box);
	isl_set_free(box);
	if (equal < 0)
		return poly__isl_error(k->ctx, err, "testing the domain");
	k->points = k->box_points;
	if (equal)
		return dse_stat_ok;
	counted = poly__count_points(k->domain, k->box_points, &k->points);
	if (counted < 0)
		return poly__isl_error(k->ctx, err, "counting the instances");
	if (counted > 0)
		return poly__input_error(err, src, "the instances of '%s' "
			"cannot be counted in reasonable time: its domain is "
			"not a box, its bounding box has %llu points, and its "
			"conditions (a stride or a modulo, or loops tied "
			"together over more than 2^26 points) need them "
			"visited one by one", k->statement,
			(unsigned long long) k->box_points);
	return dse_stat_ok;
}

/* State of the walk over the access relations of one kind. */
struct access_walk {
	const poly__kernel *k;
	const char *kind;	/* "read" or "write" */
	int rejected;		/* set when msg explains a bad access */
	char msg[DSE_ERROR_MSG_LEN];
};

/* Checks that an access starts from a statement of the domain, with as
 * many indices as it has loops, and names an array.
 */
static isl_stat check_access(__isl_take isl_map *map, void *user)
{
	struct access_walk *w = user;
	const poly__kernel *k = w->k;
	const char *from = isl_map_get_tuple_name(map, isl_dim_in);
	const char *array = isl_map_get_tuple_name(map, isl_dim_out);
	isl_size n_in = isl_map_dim(map, isl_dim_in);
	isl_stat stat = isl_stat_error;
	int s = -1;

	for (int i = 0; from && i < k->n_stmts && s < 0; i++)
		if (!strcmp(k->stmt[i], from))
			s = i;
	if (n_in < 0) {
		/* An isl failure: leave "rejected" unset. */
	} else if (s < 0 || k->stmt_loops[s] != n_in) {
		w->rejected = 1;
		snprintf(w->msg, sizeof(w->msg), "a %s access starts from "
			"'%s' with %d indices, which is not a statement of the "
			"domain%s", w->kind, from ? from : "(unnamed)",
			(int) n_in, s >= 0 ? " (wrong number of indices)" : "");
	} else if (!array) {
		w->rejected = 1;
		snprintf(w->msg, sizeof(w->msg), "a %s access of '%s' has no "
			"array name; write it as %s[...] -> A[...]", w->kind,
			from, from);
	} else {
		stat = isl_stat_ok;
	}
	isl_map_free(map);
	return stat;
}

/* Fixes the given parameters of umap and projects them out, like those
 * of the domain.  Tests such as "is every step along a loop contained in
 * this relation" then hold for the given values instead of having to
 * hold for all values.  Parameters without a value stay symbolic.
 */
static __isl_give isl_union_map *fix_params(__isl_take isl_union_map *umap,
	__isl_keep isl_set *params,
	const poly_kernel_desc *desc)
{
	umap = isl_union_map_intersect_params(umap, isl_set_copy(params));
	for (int i = 0; umap && i < desc->n_params; i++) {
		isl_space *space = isl_union_map_get_space(umap);
		int pos = isl_space_find_dim_by_name(space, isl_dim_param,
			desc->param_name[i]);

		isl_space_free(space);
		if (pos >= 0)
			umap = isl_union_map_project_out(umap, isl_dim_param,
				pos, 1);
	}
	return umap;
}

/* Checks the accesses of one kind, then stores in *dst a copy of them
 * with the given parameters fixed and restricted to the domain.
 */
static dse_stat take_accesses(poly__kernel *k, __isl_keep isl_union_map *umap,
	const char *kind, __isl_keep isl_set *params,
	const poly_kernel_desc *desc,
	const poly_source *src, isl_union_map **dst, dse_error *err)
{
	struct access_walk w = { .k = k, .kind = kind };
	isl_stat stat;

	stat = isl_union_map_foreach_map(umap, &check_access, &w);
	if (stat < 0 && w.rejected)
		return poly__input_error(err, src, "%s", w.msg);
	if (stat < 0)
		return poly__isl_error(k->ctx, err, "checking the accesses");
	umap = fix_params(isl_union_map_copy(umap), params, desc);
	umap = isl_union_map_intersect_domain_union_set(umap,
		isl_union_set_copy(k->domains));
	*dst = umap;
	if (!umap)
		return poly__isl_error(k->ctx, err, "restricting the accesses");
	return dse_stat_ok;
}

__isl_give isl_map *poly__unit_step(__isl_keep isl_set *domain, int d)
{
	isl_space *space = isl_space_map_from_set(isl_set_get_space(domain));
	isl_multi_aff *ma = isl_multi_aff_identity(space);
	isl_aff *aff = isl_multi_aff_get_aff(ma, d);
	isl_map *step;

	aff = isl_aff_add_constant_si(aff, 1);
	ma = isl_multi_aff_set_aff(ma, d, aff);
	step = isl_map_from_multi_aff(ma);
	step = isl_map_intersect_domain(step, isl_set_copy(domain));
	return isl_map_intersect_range(step, isl_set_copy(domain));
}

/* Whether each step along loop d stays on the same written element,
 * given the "same element" relation.  A loop with a single iteration has
 * no steps and does not qualify: nothing is accumulated along it.
 */
static isl_bool accumulates_along(__isl_keep isl_union_map *same,
	__isl_keep isl_set *domain,
	int d)
{
	isl_map *step = poly__unit_step(domain, d);
	isl_bool empty = isl_map_is_empty(step);
	isl_union_map *ustep;
	isl_bool subset;

	if (empty != isl_bool_false) {
		isl_map_free(step);
		return empty < 0 ? isl_bool_error : isl_bool_false;
	}
	ustep = isl_union_map_from_map(step);
	subset = isl_union_map_is_subset(ustep, same);
	isl_union_map_free(ustep);
	return subset;
}

/* Derives the reduction loop from the writes of the compute statement:
 * a loop along which consecutive instances write the same array element.
 * When several loops accumulate (MTTKRP's k and l), the innermost is
 * taken, as it is the one an HLS tool pipelines; a kernel with no
 * accumulation has no reduction loop.
 */
static dse_stat derive_reduction(poly__kernel *k, dse_error *err)
{
	isl_union_map *w = isl_union_map_intersect_domain_union_set(
		isl_union_map_copy(k->writes),
		isl_union_set_from_set(isl_set_copy(k->domain)));
	isl_union_map *rev = isl_union_map_reverse(isl_union_map_copy(w));
	isl_union_map *same = isl_union_map_apply_range(w, rev);
	isl_bool acc = isl_bool_false;

	k->reduction = -1;
	for (int d = 0; same && acc >= 0 && d < k->n_loops; d++) {
		acc = accumulates_along(same, k->domain, d);
		if (acc == isl_bool_true)
			k->reduction = d;
	}
	isl_union_map_free(same);
	if (!same || acc < 0)
		return poly__isl_error(k->ctx, err, "finding the reduction");
	return dse_stat_ok;
}

/* Sets the reduction loop: the named one when given, else derived. */
static dse_stat find_reduction(poly__kernel *k, const poly_kernel_desc *desc,
	dse_error *err)
{
	char loops[NAME_LIST_LEN] = "";

	if (!desc->reduction)
		return derive_reduction(k, err);
	for (int d = 0; d < k->n_loops; d++) {
		if (!strcmp(k->loop[d], desc->reduction)) {
			k->reduction = d;
			return dse_stat_ok;
		}
		dse_list_add(loops, sizeof(loops), k->loop[d]);
	}
	return poly__input_error(err, &desc->reduction_src, "the reduction "
		"annotation names no loop: '%s' is not a loop of '%s'; the "
		"loops are: %s",
		desc->reduction, k->statement, loops);
}

/* The default program order: each instance goes to its loop indices,
 * padded with zeros to the deepest statement, then to its statement's
 * rank, so an initialisation S0[i,j] runs before the update S1[i,j,k] of
 * the same (i,j).
 */
static __isl_give isl_union_map *default_schedule(poly__kernel *k)
{
	int depth = 0;
	isl_union_map *sched = NULL;

	for (int s = 0; s < k->n_stmts; s++)
		depth = k->stmt_loops[s] > depth ? k->stmt_loops[s] : depth;
	for (int s = 0; s < k->n_stmts; s++) {
		char text[1024];
		size_t len;
		int n = k->stmt_loops[s];
		isl_union_map *one;

		len = (size_t) snprintf(text, sizeof(text), "{ %s[", k->stmt[s]);
		for (int d = 0; d < n; d++)
			len += (size_t) snprintf(text + len, sizeof(text) - len,
				"%sc%d", d ? "," : "", d);
		len += (size_t) snprintf(text + len, sizeof(text) - len,
			"] -> [");
		for (int d = 0; d < depth; d++)
			len += (size_t) snprintf(text + len, sizeof(text) - len,
				d < n ? "c%d," : "0,", d);
		snprintf(text + len, sizeof(text) - len, "%d] }", s);
		one = isl_union_map_read_from_str(k->ctx, text);
		sched = sched ? isl_union_map_union(sched, one) : one;
	}
	return isl_union_map_intersect_domain_union_set(sched,
		isl_union_set_copy(k->domains));
}

/* A given schedule must be a function into one time space: an instance
 * sent to several times (a variable left free, "S[i] -> [i, j]"), or
 * statements sent to time vectors of different lengths, leave the
 * dependence analysis without an order to work with.
 */
static dse_stat check_schedule_shape(poly__kernel *k,
	const poly_kernel_desc *desc, dse_error *err)
{
	isl_union_set *range;
	isl_bool single;
	isl_size spaces;

	single = isl_union_map_is_single_valued(k->schedule);
	if (single < 0)
		return poly__isl_error(k->ctx, err, "checking the schedule");
	if (!single)
		return poly__input_error(err, &desc->schedule_src, "the "
			"schedule sends a statement instance to several times; "
			"it must be a function (is a variable on the right of "
			"'->' left free?)");
	range = isl_union_map_range(isl_union_map_copy(k->schedule));
	spaces = isl_union_set_n_set(range);
	isl_union_set_free(range);
	if (spaces < 0)
		return poly__isl_error(k->ctx, err, "checking the schedule");
	if (spaces > 1)
		return poly__input_error(err, &desc->schedule_src, "the "
			"schedule sends statements to different time spaces; "
			"give every statement an unnamed time vector of the "
			"same length, e.g. [i, j, 0]");
	return dse_stat_ok;
}

/* Reads the schedule the user gave, or builds the default one.  A given
 * schedule must order every statement instance.
 */
static dse_stat take_schedule(poly__kernel *k, const poly_kernel_desc *desc,
	__isl_keep isl_set *params, dse_error *err)
{
	char msg[DSE_ERROR_MSG_LEN];
	isl_union_set *dom;
	isl_bool covers;

	if (!desc->schedule || !desc->schedule[0]) {
		k->schedule = default_schedule(k);
		return k->schedule ? dse_stat_ok :
			poly__isl_error(k->ctx, err, "building the schedule");
	}
	k->schedule = isl_union_map_read_from_str(k->ctx, desc->schedule);
	if (!k->schedule && stopped(k->ctx))
		return poly__input_error(err, &desc->schedule_src,
			"reading the schedule was stopped");
	if (!k->schedule) {
		last_message(k->ctx, msg, sizeof(msg));
		return poly__input_error(err, &desc->schedule_src,
			"invalid isl map: %s", msg);
	}
	k->schedule = fix_params(k->schedule, params, desc);
	k->schedule = isl_union_map_intersect_domain_union_set(k->schedule,
		isl_union_set_copy(k->domains));
	dom = isl_union_map_domain(isl_union_map_copy(k->schedule));
	covers = isl_union_set_is_subset(k->domains, dom);
	isl_union_set_free(dom);
	if (covers < 0)
		return poly__isl_error(k->ctx, err, "checking the schedule");
	if (!covers)
		return poly__input_error(err, &desc->schedule_src, "the "
			"schedule does not order every statement instance of "
			"the domain");
	return check_schedule_shape(k, desc, err);
}

/* Whether the schedule t of the one statement (kept) leaves its loops as
 * they are: each time dimension d is loop d.
 */
static isl_bool keeps_loops(poly__kernel *k, __isl_keep isl_map *t)
{
	isl_map *id = isl_map_identity(isl_space_map_from_set(
		isl_set_get_space(k->domain)));
	isl_map *same = isl_map_copy(t);
	isl_bool eq;

	id = isl_map_intersect_domain(id, isl_set_copy(k->domain));
	same = isl_map_set_tuple_name(same, isl_dim_out, k->statement);
	eq = isl_map_is_equal(same, id);
	isl_map_free(same);
	isl_map_free(id);
	return eq;
}

/* Names each unnamed time dimension d of t (taken, given back): after the
 * loop it equals, when it is one (an interchange), else after loop d (a
 * skewed loop keeps its name).
 */
static __isl_give isl_map *name_dims(poly__kernel *k, __isl_take isl_map *t)
{
	for (int d = 0; t && d < k->n_loops; d++) {
		int from = d;

		if (isl_map_has_dim_name(t, isl_dim_out, d) == isl_bool_true)
			continue;
		for (int l = 0; l < k->n_loops; l++) {
			isl_map *eq = isl_map_equate(isl_map_copy(t),
				isl_dim_in, l, isl_dim_out, d);
			isl_bool same = isl_map_is_equal(eq, t);

			isl_map_free(eq);
			if (same < 0)
				return isl_map_free(t);
			if (same) {
				from = l;
				break;
			}
		}
		t = isl_map_set_dim_name(t, isl_dim_out, d, k->loop[from]);
	}
	return t;
}

/* Rewrites the statement, its domain and its accesses in the loops of the
 * transformation t (taken), whose time dimension d is named as the
 * schedule names it or else after loop d; then the loops, their bounds
 * and the program order are those of the transformed nest.
 */
static dse_stat apply_transform(poly__kernel *k, __isl_take isl_map *t,
	const poly_kernel_desc *desc, dse_error *err)
{
	isl_union_map *ut;

	t = name_dims(k, t);
	if (!t)
		return poly__isl_error(k->ctx, err, "naming the loops");
	for (int d = 0; d < k->n_loops; d++)
		for (int e = 0; e < d; e++)
			if (!strcmp(isl_map_get_dim_name(t, isl_dim_out, d),
			    isl_map_get_dim_name(t, isl_dim_out, e))) {
				isl_map_free(t);
				return poly__input_error(err,
					&desc->schedule_src, "two loops of the "
					"transformed nest would be called '%s'; "
					"name the schedule's dimensions, e.g. "
					"S[t,i] -> [t2, i2] : t2 = t and "
					"i2 = t + i",
					k->loop[d]);
			}
	t = isl_map_set_tuple_name(t, isl_dim_out, k->statement);
	ut = isl_union_map_from_map(t);
	k->domains = isl_union_set_apply(k->domains,
		isl_union_map_copy(ut));
	k->reads = isl_union_map_apply_domain(k->reads,
		isl_union_map_copy(ut));
	k->writes = isl_union_map_apply_domain(k->writes, ut);
	isl_set_free(k->domain);
	k->domain = NULL;
	isl_union_map_free(k->schedule);
	k->schedule = NULL;
	if (!k->domains || !k->reads || !k->writes)
		return poly__isl_error(k->ctx, err, "transforming the loops");
	if (pick_compute(k, &desc->schedule_src, err) != dse_stat_ok ||
	    name_loops(k, &desc->schedule_src, err) != dse_stat_ok ||
	    check_box(k, &desc->schedule_src, err) != dse_stat_ok)
		return dse_stat_error;
	k->schedule = default_schedule(k);
	return k->schedule ? dse_stat_ok :
		poly__isl_error(k->ctx, err, "building the schedule");
}

/* A schedule given for a kernel of one statement that sends its n loops
 * one to one onto n time dimensions (a skew S[t,i] -> [t, t + i], an
 * interchange, a reversal) is a loop transformation, and the analysis
 * works on the transformed nest, as AutoSA works on the schedule it is
 * given: a skewed stencil's dependences, band and candidates are those of
 * the skewed loops.  Any other schedule only orders the statements.
 */
static dse_stat transform_loops(poly__kernel *k, const poly_kernel_desc *desc,
	dse_error *err)
{
	isl_map *t;
	isl_size n_out;
	isl_bool keeps, injective;

	if (k->n_stmts != 1 || !desc->schedule || !desc->schedule[0])
		return dse_stat_ok;
	t = isl_map_from_union_map(isl_union_map_copy(k->schedule));
	n_out = isl_map_dim(t, isl_dim_out);
	if (n_out < 0) {
		isl_map_free(t);
		return poly__isl_error(k->ctx, err, "reading the schedule");
	}
	if (n_out != k->n_loops) {
		isl_map_free(t);
		return dse_stat_ok;
	}
	keeps = keeps_loops(k, t);
	injective = keeps ? isl_bool_false : isl_map_is_injective(t);
	if (keeps < 0 || injective < 0) {
		isl_map_free(t);
		return poly__isl_error(k->ctx, err, "reading the schedule");
	}
	if (keeps) {
		isl_map_free(t);
		return dse_stat_ok;
	}
	if (!injective) {
		isl_map_free(t);
		return poly__input_error(err, &desc->schedule_src, "the "
			"schedule sends two instances of '%s' to the same time; "
			"a loop transformation such as a skew, S[t,i] -> "
			"[t, t + i], is one to one", k->statement);
	}
	return apply_transform(k, t, desc, err);
}

/* The checks that need the parameter values, in the order a user would
 * fix them.  Keeps dom, reads, writes and params.
 */
static dse_stat check_fixed(poly__kernel *k, const poly_kernel_desc *desc,
	__isl_keep isl_union_set *dom, __isl_keep isl_union_map *reads,
	__isl_keep isl_union_map *writes,
	__isl_keep isl_set *params, dse_error *err)
{
	isl_bool empty;

	if (take_statements(k, desc, dom, err) != dse_stat_ok ||
	    fix_domain(k, params, err) != dse_stat_ok ||
	    take_accesses(k, reads, "read", params, desc, &desc->reads_src,
		&k->reads, err) != dse_stat_ok ||
	    take_accesses(k, writes, "write", params, desc,
		&desc->writes_src, &k->writes, err) != dse_stat_ok ||
	    pick_compute(k, &desc->domain_src, err) != dse_stat_ok ||
	    name_loops(k, &desc->domain_src, err) != dse_stat_ok ||
	    check_box(k, &desc->domain_src, err) != dse_stat_ok)
		return dse_stat_error;
	empty = isl_union_map_is_empty(k->writes);
	if (empty < 0)
		return poly__isl_error(k->ctx, err, "testing the writes");
	if (empty)
		return poly__input_error(err, &desc->writes_src, "the kernel "
			"writes nothing in its iteration domain; give at least "
			"one write access such as %s[...] -> C[...]",
			k->statement);
	if (take_schedule(k, desc, params, err) != dse_stat_ok ||
	    transform_loops(k, desc, err) != dse_stat_ok ||
	    poly__check_roles(k, desc, err) != dse_stat_ok)
		return dse_stat_error;
	return find_reduction(k, desc, err);
}

/* Checks the parsed kernel and fills k.  Keeps dom, reads and writes. */
static dse_stat check_kernel(poly__kernel *k, const poly_kernel_desc *desc,
	__isl_keep isl_union_set *dom, __isl_keep isl_union_map *reads,
	__isl_keep isl_union_map *writes,
	dse_error *err)
{
	isl_set *params;
	dse_stat stat;

	if (check_params(k->ctx, desc, dom, reads, writes, err) != dse_stat_ok)
		return dse_stat_error;
	params = params_set(k->ctx, desc);
	if (!params)
		return poly__isl_error(k->ctx, err, "fixing the parameters");
	stat = check_fixed(k, desc, dom, reads, writes, params, err);
	isl_set_free(params);
	return stat;
}

/* An isl string the parser can take: not longer than POLY_MAX_TEXT and
 * not nested deeper than POLY_MAX_NESTING, whatever the brackets (isl
 * reports mismatched ones itself).
 */
static dse_stat check_text(const char *str, const poly_source *src,
	dse_error *err)
{
	size_t len = str ? strlen(str) : 0;
	int depth = 0;

	if (len > POLY_MAX_TEXT)
		return poly__input_error(err, src, "the isl string is %zu "
			"characters long; at most %d are read", len,
			POLY_MAX_TEXT);
	for (size_t i = 0; i < len; i++) {
		if (strchr("([{", str[i]) && ++depth > POLY_MAX_NESTING)
			return poly__input_error(err, src, "the isl string "
				"nests brackets more than %d deep (at "
				"character %zu); write the condition without "
				"the extra levels", POLY_MAX_NESTING, i + 1);
		if (strchr(")]}", str[i]) && depth > 0)
			depth--;
	}
	return dse_stat_ok;
}

dse_stat poly__kernel_read(isl_ctx *ctx, const poly_kernel_desc *desc,
	poly__kernel *kernel, dse_error *err)
{
	isl_union_set *dom;
	isl_union_map *reads = NULL, *writes = NULL;
	dse_stat stat;

	memset(kernel, 0, sizeof(*kernel));
	kernel->ctx = ctx;
	if (check_text(desc->domain, &desc->domain_src, err) ||
	    check_text(desc->reads, &desc->reads_src, err) ||
	    check_text(desc->writes, &desc->writes_src, err) ||
	    check_text(desc->schedule, &desc->schedule_src, err))
		return dse_stat_error;
	dom = read_domain(ctx, desc->domain, &desc->domain_src, err);
	if (dom)
		reads = read_accesses(ctx, desc->reads, "read",
			&desc->reads_src, err);
	if (reads)
		writes = read_accesses(ctx, desc->writes, "write",
			&desc->writes_src, err);
	stat = writes ? check_kernel(kernel, desc, dom, reads, writes, err) :
		dse_stat_error;
	isl_union_set_free(dom);
	isl_union_map_free(reads);
	isl_union_map_free(writes);
	if (stat != dse_stat_ok)
		poly__kernel_clear(kernel);
	return stat;
}

void poly__kernel_clear(poly__kernel *kernel)
{
	if (!kernel)
		return;
	isl_set_free(kernel->domain);
	isl_union_set_free(kernel->domains);
	isl_union_map_free(kernel->schedule);
	isl_union_map_free(kernel->reads);
	isl_union_map_free(kernel->writes);
	memset(kernel, 0, sizeof(*kernel));
}
