/* What each statement of a kernel is to the array dse builds.
 *
 * The array runs one computation: the compute statement, whose loops are
 * tiled and mapped onto the PEs.  Every other statement must be something
 * that array does as well, or the kernel is refused: a statement left out
 * would be missing from the latency, the operation count and the traffic
 * without a word.  The one other role the array plays is an
 * initialisation of the compute statement's output in place ("C[i][j] =
 * 0" or "C[i][j] *= beta" before the accumulation), which AutoSA's PEs
 * perform when an output tile is first loaded.  Anything else (the second
 * multiply of 2mm, the updates of lu, a scaling after the accumulation)
 * is refused naming the statement and what it does that the array does
 * not.
 */
#include <stdio.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "polyhedral/internal.h"

/* The part of umap whose domain is statement s's instances. */
static __isl_give isl_union_map *of_stmt(const poly__kernel *k,
	__isl_keep isl_union_map *umap, int s)
{
	isl_space *space = isl_union_set_get_space(k->domains);
	isl_union_set *dom;

	space = isl_space_add_named_tuple_id_ui(space,
		isl_id_alloc(k->ctx, k->stmt[s], NULL),
		(unsigned) k->stmt_loops[s]);
	dom = isl_union_set_from_set(isl_union_set_extract_set(k->domains,
		space));
	return isl_union_map_intersect_domain_union_set(
		isl_union_map_copy(umap), dom);
}

/* Where a statement is written and how it reads, for the messages: the
 * C front end's position and text when there is one, else the domain
 * string and the statement's name.
 */
struct stmt_at {
	poly_source src;
	char label[POLY_TEXT_LEN];
};

static void stmt_at(const poly__kernel *k, const poly_kernel_desc *desc,
	int s, struct stmt_at *at)
{
	at->src = desc->domain_src;
	snprintf(at->label, sizeof(at->label), "statement %s", k->stmt[s]);
	for (int i = 0; i < desc->n_stmt_info; i++) {
		const poly_stmt_info *info = &desc->stmt_info[i];

		if (!info->name || strcmp(info->name, k->stmt[s]))
			continue;
		if (info->src.line > 0)
			at->src = info->src;
		if (info->text)
			snprintf(at->label, sizeof(at->label), "statement "
				"%s '%s'", k->stmt[s], info->text);
	}
}

/* The name of the first array in "elems" (a union set of array elements)
 * into buf, or "" when it is empty.
 */
static void first_array(__isl_keep isl_union_set *elems, char *buf,
	size_t size)
{
	isl_set_list *list = isl_union_set_get_set_list(elems);
	isl_size n = isl_set_list_size(list);

	buf[0] = '\0';
	if (n > 0) {
		isl_set *set = isl_set_list_get_at(list, 0);
		const char *name = isl_set_get_tuple_name(set);

		snprintf(buf, size, "%s", name ? name : "?");
		isl_set_free(set);
	}
	isl_set_list_free(list);
}

/* The checks of one statement, with the relations they need.  Every
 * isl_bool result is negative on an isl failure.
 */
struct role_check {
	const poly__kernel *k;
	int s;				/* the statement checked */
	int c;				/* the compute statement */
	isl_union_map *writes;		/* its writes, owned */
	isl_union_map *c_writes;	/* the compute statement's, owned */
	char array[POLY_NAME_LEN];	/* what the message is about */
	char extra[POLY_TEXT_LEN];	/* elements only s writes, isl text */
};

/* Whether s writes only elements that the compute statement writes;
 * otherwise the first array it writes beyond them goes to r->array.
 */
static isl_bool writes_output(struct role_check *r)
{
	isl_union_set *mine = isl_union_map_range(
		isl_union_map_copy(r->writes));
	isl_union_set *theirs = isl_union_map_range(
		isl_union_map_copy(r->c_writes));
	isl_union_set *extra = isl_union_set_subtract(mine, theirs);
	isl_bool empty = isl_union_set_is_empty(extra);

	if (empty == isl_bool_false) {
		first_array(extra, r->array, sizeof(r->array));
		extra = isl_union_set_coalesce(extra);
		poly__text(r->extra, sizeof(r->extra),
			isl_union_set_to_str(extra));
	}
	isl_union_set_free(extra);
	return empty;
}

/* Adds "m" to *user unless it reads a scalar (a zero-dimensional array
 * such as beta[]), which is a constant of the kernel, not data.
 */
static isl_stat keep_array_read(__isl_take isl_map *m, void *user)
{
	isl_union_map **keep = user;
	isl_size out = isl_map_dim(m, isl_dim_out);

	if (out < 0) {
		isl_map_free(m);
		return isl_stat_error;
	}
	if (out == 0) {
		isl_map_free(m);
		return isl_stat_ok;
	}
	*keep = isl_union_map_add_map(*keep, m);
	return *keep ? isl_stat_ok : isl_stat_error;
}

/* The reads of "reads" (taken) that are not of scalars. */
static __isl_give isl_union_map *array_reads(__isl_take isl_union_map *reads)
{
	isl_union_map *keep = isl_union_map_empty(
		isl_union_map_get_space(reads));

	if (isl_union_map_foreach_map(reads, keep_array_read, &keep) < 0)
		keep = isl_union_map_free(keep);
	isl_union_map_free(reads);
	return keep;
}

/* Whether every instance of s reads only the element it writes itself
 * ("C[i][j] *= beta", with beta a scalar); otherwise the first array it
 * reads beyond that goes to r->array.
 */
static isl_bool reads_in_place(struct role_check *r)
{
	isl_union_map *reads = array_reads(of_stmt(r->k, r->k->reads, r->s));
	isl_union_map *extra = isl_union_map_subtract(reads,
		isl_union_map_copy(r->writes));
	isl_bool empty = isl_union_map_is_empty(extra);

	if (empty == isl_bool_false) {
		isl_union_set *elems = isl_union_map_range(
			isl_union_map_copy(extra));

		first_array(elems, r->array, sizeof(r->array));
		isl_union_set_free(elems);
	}
	isl_union_map_free(extra);
	return empty;
}

/* Whether every instance of s runs, in the program order, before every
 * instance of the compute statement that reads or writes the element it
 * writes: an initialisation, not a step after the accumulation.
 */
static isl_bool runs_before(struct role_check *r)
{
	const poly__kernel *k = r->k;
	isl_union_map *c_access = isl_union_map_union(
		of_stmt(k, k->reads, r->c), isl_union_map_copy(r->c_writes));
	isl_union_map *pairs = isl_union_map_apply_range(
		isl_union_map_copy(r->writes),
		isl_union_map_reverse(c_access));
	isl_union_map *before = isl_union_map_lex_lt_union_map(
		of_stmt(k, k->schedule, r->s), of_stmt(k, k->schedule, r->c));
	isl_bool ok = isl_union_map_is_subset(pairs, before);

	isl_union_map_free(pairs);
	isl_union_map_free(before);
	return ok;
}

/* The refusal of statement s, which writes elements the compute
 * statement does not (r->extra): a second computation.  When s also
 * rewrites, after the accumulation, elements the compute statement has
 * used (trmm's scaling B[i][j] = alpha * B[i][j], whose last row the
 * empty k loop never accumulates), the message says so too, since that
 * alone would refuse it.
 */
static dse_stat second_computation(struct role_check *r,
	const struct stmt_at *at, dse_error *err)
{
	const poly__kernel *k = r->k;
	isl_bool before = runs_before(r);

	if (before < 0)
		return poly__isl_error(k->ctx, err, "ordering the statements");
	return poly__input_error(err, &at->src, "%s is a second computation: "
		"it writes %s where %s, the statement mapped onto the array, "
		"does not (%s)%s%s%s; dse maps one computation (one loop nest) "
		"per kernel and would leave this one out, so write it as a "
		"kernel of its own", at->label, r->array, k->statement,
		r->extra, before ? "" : ", and it writes elements that ",
		before ? "" : k->statement, before ? "" : " reads or writes "
		"after it has used them (a step after that computation, not "
		"an initialisation of its output)");
}

/* Checks statement s against the compute statement c; err says which
 * check failed and why.
 */
static dse_stat check_stmt(poly__kernel *k, const poly_kernel_desc *desc,
	int s, int c, dse_error *err)
{
	struct role_check r = { .k = k, .s = s, .c = c };
	struct stmt_at at;
	isl_bool ok, empty;
	dse_stat stat = dse_stat_ok;

	r.writes = of_stmt(k, k->writes, s);
	r.c_writes = of_stmt(k, k->writes, c);
	stmt_at(k, desc, s, &at);
	empty = isl_union_map_is_empty(r.writes);
	if (empty < 0) {
		stat = poly__isl_error(k->ctx, err, "finding what statements do");
	} else if (empty) {
		stat = poly__input_error(err, &at.src, "%s writes nothing: "
			"give its write access or leave it out", at.label);
	} else if ((ok = writes_output(&r)) != isl_bool_true) {
		stat = ok < 0 ? poly__isl_error(k->ctx, err, "comparing "
			"the statements' writes") :
			second_computation(&r, &at, err);
	} else if ((ok = reads_in_place(&r)) != isl_bool_true) {
		stat = ok < 0 ? poly__isl_error(k->ctx, err, "comparing "
			"the statements' reads") :
			poly__input_error(err, &at.src, "%s reads %s to compute "
			"the output of %s, the statement mapped onto the array; "
			"beside it, a statement may only initialise that "
			"output in place (C[i][j] = 0, C[i][j] *= beta), so "
			"fold this one into %s or write it as a kernel of its "
			"own", at.label, r.array, k->statement, k->statement);
	} else if ((ok = runs_before(&r)) != isl_bool_true) {
		stat = ok < 0 ? poly__isl_error(k->ctx, err, "ordering the "
			"statements") :
			poly__input_error(err, &at.src, "%s runs after %s has "
			"used the elements it writes: dse maps %s alone and "
			"its results leave the array as they are; fold this "
			"step into %s (for example C[i][j] += alpha * ...)",
			at.label, k->statement, k->statement, k->statement);
	}
	isl_union_map_free(r.writes);
	isl_union_map_free(r.c_writes);
	return stat;
}

dse_stat poly__check_roles(poly__kernel *k, const poly_kernel_desc *desc,
	dse_error *err)
{
	int c = -1;

	for (int s = 0; s < k->n_stmts; s++) {
		if (!strcmp(k->stmt[s], k->statement))
			c = s;
		k->role[s] = POLY_ROLE_INIT;
	}
	/* The compute statement is picked among k's statements, so this
	 * only guards against a kernel filled in some other way.
	 */
	if (c < 0)
		return poly__input_error(err, &desc->domain_src, "the compute "
			"statement '%s' is not among the kernel's statements",
			k->statement);
	k->role[c] = POLY_ROLE_COMPUTE;
	/* The deepest statements first, so that the refusal of 2mm names
	 * the second multiply rather than the scaling before it.
	 */
	for (int depth = k->stmt_loops[c]; depth >= 0; depth--)
		for (int s = 0; s < k->n_stmts; s++)
			if (s != c && k->stmt_loops[s] == depth &&
			    check_stmt(k, desc, s, c, err) != dse_stat_ok)
				return dse_stat_error;
	return dse_stat_ok;
}
