/* Dependence analysis of the compute statement, the outermost permutable
 * band, and the loops that can be space loops.
 *
 * Flow, output and anti dependences come from isl's dataflow analysis
 * (isl_union_access_info / isl_union_flow) over every statement in program
 * order: the source of each access is the last earlier access to the same
 * element.  Data-dependent accesses enter as may-accesses, which never
 * kill an earlier access, so their dependences cover every possibility and
 * their distances are ranges ("unknown" in the tables).
 *
 * Read dependences describe reuse of a read-only element by consecutive
 * iterations: for exact accesses, one dependence per reference and per
 * loop along which the next iteration reads the same element through
 * that reference (matrix multiply's A[i][k] is reused along j), computed
 * as the unit step along the loop intersected with the reference's
 * same-element relation.  An array read through two references (syrk's
 * A[i][k] and A[j][k]) thus gets the reuse of each, as AutoSA builds one
 * reuse relation per reference.  The last-reader relation of a dataflow
 * analysis would report only one reuse per element -- for a convolution's
 * input In[i][r+p][c+q] a diagonal step that no array can exploit -- and
 * miss the reuse along each loop that a systolic array forwards between
 * neighbouring PEs.  For may-accesses the dataflow analysis with may
 * sources gives every earlier read that may touch the element.
 */
#include <stdio.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/flow.h>
#include <isl/local_space.h>
#include <isl/ilp.h>
#include <isl/space.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include "polyhedral/internal.h"

/* Which maps of an access relation to keep. */
enum pick { PICK_ALL, PICK_MUST, PICK_MAY };

struct filter {
	const char *array;
	enum pick pick;
	isl_union_map *out;
	int n_may;		/* may-accesses seen (PICK_ALL) */
};

/* Clears *user when the piece is no function of the instance. */
static isl_stat check_function(__isl_take isl_basic_map *bmap, void *user)
{
	isl_bool *all = user;
	isl_bool single = isl_basic_map_is_single_valued(bmap);

	isl_basic_map_free(bmap);
	if (single < 0)
		return isl_stat_error;
	if (!single)
		*all = isl_bool_false;
	return isl_stat_ok;
}

/* Whether every piece of "map" is a function of the instance: a union of
 * exact references (jacobi's A[t][i - 1], A[t][i] and A[t][i + 1]) is an
 * exact access of several elements, not a data-dependent one.
 */
static isl_bool exact_references(__isl_keep isl_map *map)
{
	isl_bool all = isl_bool_true;

	if (isl_map_foreach_basic_map(map, &check_function, &all) < 0)
		return isl_bool_error;
	return all;
}

static isl_stat keep_map(__isl_take isl_map *map, void *user)
{
	struct filter *f = user;
	const char *name = isl_map_get_tuple_name(map, isl_dim_out);
	isl_bool single = exact_references(map);

	if (single < 0) {
		isl_map_free(map);
		return isl_stat_error;
	}
	if (!name || strcmp(name, f->array) ||
	    (f->pick == PICK_MUST && !single) ||
	    (f->pick == PICK_MAY && single)) {
		isl_map_free(map);
		return isl_stat_ok;
	}
	f->n_may += !single;
	f->out = isl_union_map_add_map(f->out, map);
	return isl_stat_ok;
}

/* The accesses of umap to "array" of the chosen kind; *n_may (when not
 * NULL) receives how many of them are may-accesses.  Keeps umap.
 */
static __isl_give isl_union_map *of_array(__isl_keep isl_union_map *umap,
	const char *array,
	enum pick pick, int *n_may)
{
	struct filter f = { array, pick, NULL, 0 };

	f.out = isl_union_map_empty(isl_union_map_get_space(umap));
	if (isl_union_map_foreach_map(umap, &keep_map, &f) < 0)
		f.out = isl_union_map_free(f.out);
	if (n_may)
		*n_may = f.n_may;
	return f.out;
}

__isl_give isl_map *poly__self(const poly__kernel *k,
	__isl_take isl_union_map *umap)
{
	isl_space *space = isl_space_map_from_set(isl_set_get_space(k->domain));
	isl_map *map = isl_union_map_extract_map(umap, space);

	isl_union_map_free(umap);
	return map;
}

/* Dataflow analysis in program order: for each sink access, the last
 * earlier must source and all earlier may sources to the same element.
 * Takes sink, must and may.
 */
static __isl_give isl_union_map *dataflow(const poly__kernel *k,
	__isl_take isl_union_map *sink,
	__isl_take isl_union_map *must, __isl_take isl_union_map *may)
{
	isl_union_access_info *ai = isl_union_access_info_from_sink(sink);
	isl_union_flow *flow;
	isl_union_map *dep;

	ai = isl_union_access_info_set_must_source(ai, must);
	ai = isl_union_access_info_set_may_source(ai, may);
	ai = isl_union_access_info_set_schedule_map(ai,
		isl_union_map_copy(k->schedule));
	flow = isl_union_access_info_compute_flow(ai);
	dep = isl_union_flow_get_may_dependence(flow);
	isl_union_flow_free(flow);
	return dep;
}

/* State of the analysis while dependences are added. */
struct deps {
	const poly__kernel *k;
	poly_analysis *a;
	isl_set *validity;	/* distances that constrain the order */
	isl_map **rel;		/* relation of each recorded dependence */
	int rejected;
	dse_error *err;
};

/* "{ S0[i, j, k] -> S0[i, j + 1, k] }" for a uniform dependence. */
static void uniform_text(const poly__kernel *k, const poly_dep *d, char *buf,
	size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	poly__append(buf, size, &len, "{ %s[", k->statement);
	for (int l = 0; l < k->n_loops; l++)
		poly__append(buf, size, &len, "%s%s", l ? ", " : "",
			k->loop[l]);
	poly__append(buf, size, &len, "] -> %s[", k->statement);
	for (int l = 0; l < k->n_loops; l++) {
		int64_t x = d->dist_min[l];

		poly__append(buf, size, &len, "%s%s", l ? ", " : "",
			k->loop[l]);
		if (x)
			poly__append(buf, size, &len, " %c %lld",
				x < 0 ? '-' : '+', (long long) (x < 0 ? -x : x));
	}
	poly__append(buf, size, &len, "] }");
}

/* Per-loop bounds of the distance set; -1 when a bound is not a
 * constant.  Takes delta.
 */
static int distance_range(__isl_take isl_set *delta, poly_dep *d, int n)
{
	int ok = 0;

	for (int l = 0; l < n && ok == 0; l++) {
		isl_val *lo = isl_set_dim_min_val(isl_set_copy(delta), l);
		isl_val *hi = isl_set_dim_max_val(isl_set_copy(delta), l);

		if (isl_val_is_int(lo) != isl_bool_true ||
		    isl_val_is_int(hi) != isl_bool_true)
			ok = -1;
		else {
			d->dist_min[l] = isl_val_get_num_si(lo);
			d->dist_max[l] = isl_val_get_num_si(hi);
		}
		isl_val_free(lo);
		isl_val_free(hi);
	}
	isl_set_free(delta);
	return ok;
}

/* "rel" (taken) with the loop names on its input and primed loop names
 * on its output, so that its text reads like the kernel.
 */
static __isl_give isl_map *rel_named(const poly__kernel *k,
	__isl_take isl_map *rel)
{
	char primed[POLY_NAME_LEN + 1];

	for (int l = 0; l < k->n_loops; l++) {
		snprintf(primed, sizeof(primed), "%s'", k->loop[l]);
		rel = isl_map_set_dim_name(rel, isl_dim_in, l, k->loop[l]);
		rel = isl_map_set_dim_name(rel, isl_dim_out, l, primed);
	}
	return rel;
}

/* Records the self-dependence "rel" (taken) of one kind on "array".
 * Anti dependences only constrain the order and are not recorded.
 */
static isl_stat add_dep(struct deps *s, int kind, int access,
	__isl_take isl_map *rel, int unknown)
{
	poly_analysis *a = s->a;
	isl_bool empty = isl_map_is_empty(rel);
	poly_dep *d;
	isl_set *delta;

	if (empty != isl_bool_false) {
		isl_map_free(rel);
		return empty < 0 ? isl_stat_error : isl_stat_ok;
	}
	delta = isl_map_deltas(isl_map_copy(rel));
	if (kind != POLY_DEP_READ)
		s->validity = isl_set_union(s->validity, isl_set_copy(delta));
	if (kind == POLY_N_DEP_KINDS) {
		isl_set_free(delta);
		isl_map_free(rel);
		return s->validity ? isl_stat_ok : isl_stat_error;
	}
	if (a->n_deps == POLY_MAX_DEPS) {
		s->rejected = 1;
		dse_error_set(s->err, DSE_E_INPUT, "the kernel has more than %d "
			"dependences", POLY_MAX_DEPS);
		isl_set_free(delta);
		isl_map_free(rel);
		return isl_stat_error;
	}
	d = &a->dep[a->n_deps];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "D%d", (a->n_deps + 1) % 1000);
	d->kind = kind;
	strcpy(d->array, a->access[access].array);
	d->access = access;
	d->unknown = unknown;
	if (distance_range(delta, d, s->k->n_loops) < 0) {
		isl_map_free(rel);
		return isl_stat_error;
	}
	d->uniform = !unknown;
	for (int l = 0; l < s->k->n_loops; l++)
		d->uniform &= d->dist_min[l] == d->dist_max[l];
	if (d->uniform)
		uniform_text(s->k, d, d->relation, sizeof(d->relation));
	else {
		isl_map *named = rel_named(s->k, isl_map_copy(rel));

		poly__text(d->relation, sizeof(d->relation),
			isl_map_to_str(named));
		isl_map_free(named);
	}
	s->rel[a->n_deps++] = rel;
	return isl_stat_ok;
}

/* The exact access "acc" as the isl relation from the compute
 * statement's instances to the elements it reads, or NULL when some index
 * is no affine function of the loops.
 */
static __isl_give isl_map *access_map(const poly__kernel *k,
	const poly_access *acc)
{
	isl_local_space *ls = isl_local_space_from_space(
		isl_set_get_space(k->domain));
	isl_space *space = isl_space_map_from_domain_and_range(
		isl_set_get_space(k->domain), isl_space_set_alloc(k->ctx, 0,
		(unsigned) acc->n_dims));
	isl_aff_list *list = isl_aff_list_alloc(k->ctx, acc->n_dims);
	isl_map *map;

	for (int d = 0; d < acc->n_dims; d++) {
		isl_aff *aff = isl_aff_zero_on_domain(
			isl_local_space_copy(ls));

		if (!acc->exact[d])
			aff = isl_aff_free(aff);
		for (int l = 0; aff && l < k->n_loops; l++)
			aff = isl_aff_set_coefficient_si(aff, isl_dim_in, l,
				(int) acc->coef[d][l]);
		aff = isl_aff_set_constant_si(aff, (int) acc->cst[d]);
		list = isl_aff_list_add(list, aff);
	}
	isl_local_space_free(ls);
	map = isl_map_from_multi_aff(isl_multi_aff_from_aff_list(space,
		list));
	return isl_map_intersect_domain(map, isl_set_copy(k->domain));
}

/* Whether every index of every read of "array" is an affine function,
 * so that each reference carries its own reuse.
 */
static int exact_reads(const poly_analysis *a, const char *array)
{
	for (int i = 0; i < a->n_accesses; i++) {
		const poly_access *x = &a->access[i];

		for (int d = 0; !x->write && !strcmp(x->array, array) &&
		     d < x->n_dims; d++)
			if (!x->exact[d])
				return 0;
	}
	return 1;
}

/* Read dependences of reference "acc" of a read-only array: one per loop
 * along which the next iteration reads the same element through the
 * same reference.  Two references of one array (syrk's A[i][k] and
 * A[j][k]) each keep their own reuse, as AutoSA builds one reuse
 * relation per reference; the element A[j][k] reads at one instance and
 * A[i][k] at another is not a reuse any PE-to-PE link forwards.
 */
static isl_stat reference_deps(struct deps *s, int acc)
{
	const poly__kernel *k = s->k;
	isl_map *self = access_map(k, &s->a->access[acc]);
	isl_map *same = isl_map_apply_range(isl_map_copy(self),
		isl_map_reverse(isl_map_copy(self)));
	isl_stat stat = same ? isl_stat_ok : isl_stat_error;

	isl_map_free(self);
	for (int l = 0; l < k->n_loops && stat == isl_stat_ok; l++)
		stat = add_dep(s, POLY_DEP_READ, acc, isl_map_intersect(
			poly__unit_step(k->domain, l), isl_map_copy(same)), 0);
	isl_map_free(same);
	return stat;
}

/* Read dependences of a read-only array (see the top of the file). */
static isl_stat read_deps(struct deps *s, const char *array)
{
	const poly__kernel *k = s->k;
	isl_union_map *all;
	isl_stat stat = isl_stat_ok;

	if (exact_reads(s->a, array)) {
		for (int i = 0; i < s->a->n_accesses && stat == isl_stat_ok;
		     i++)
			if (!s->a->access[i].write &&
			    !strcmp(s->a->access[i].array, array))
				stat = reference_deps(s, i);
		return stat;
	}
	all = of_array(k->reads, array, PICK_ALL, NULL);
	return add_dep(s, POLY_DEP_READ, poly__find_access(s->a, array, 0),
		poly__self(k, dataflow(k, all, isl_union_map_empty(
		isl_union_map_get_space(k->reads)), isl_union_map_copy(all))),
		1);
}

/* Flow, output or anti dependences (kind POLY_N_DEP_KINDS) on a written
 * array.
 */
static isl_stat order_deps(struct deps *s, int kind, const char *array)
{
	const poly__kernel *k = s->k;
	int may_r, may_w;
	isl_union_map *r = of_array(k->reads, array, PICK_ALL, &may_r);
	isl_union_map *w = of_array(k->writes, array, PICK_ALL, &may_w);
	isl_union_map *src = kind == POLY_N_DEP_KINDS ? k->reads : k->writes;
	isl_union_map *dep;

	dep = dataflow(k, kind == POLY_DEP_FLOW ? isl_union_map_copy(r) :
		isl_union_map_copy(w), of_array(src, array, PICK_MUST, NULL),
		of_array(src, array, PICK_MAY, NULL));
	isl_union_map_free(r);
	isl_union_map_free(w);
	return add_dep(s, kind, poly__find_access(s->a, array,
		kind == POLY_DEP_OUTPUT), poly__self(k, dep), may_r || may_w);
}

static int is_written(const poly_analysis *a, const poly__kernel *k,
	const char *array)
{
	int n_may;
	isl_union_map *w = of_array(k->writes, array, PICK_ALL, &n_may);
	isl_bool empty = isl_union_map_is_empty(w);

	isl_union_map_free(w);
	(void) a;
	return empty < 0 ? -1 : !empty;
}

/* The band: the longest outermost run of loops on which no dependence
 * that constrains the order has a negative distance, so that the loops
 * can be permuted and tiled freely.  Also marks the parallel loops.
 */
static isl_stat band_and_parallel(struct deps *s)
{
	poly_analysis *a = s->a;
	int stop = 0;

	a->band = 0;
	for (int l = 0; l < s->k->n_loops; l++) {
		isl_set *neg = isl_set_upper_bound_si(isl_set_copy(s->validity),
			isl_dim_set, l, -1);
		isl_set *pos = isl_set_lower_bound_si(isl_set_copy(s->validity),
			isl_dim_set, l, 1);
		isl_bool no_neg = isl_set_is_empty(neg);
		isl_bool no_pos = isl_set_is_empty(pos);

		isl_set_free(neg);
		isl_set_free(pos);
		if (no_neg < 0 || no_pos < 0)
			return isl_stat_error;
		if (!no_neg)
			stop = 1;
		if (!stop)
			a->band = l + 1;
		a->parallel[l] = no_neg && no_pos;
	}
	return isl_stat_ok;
}

/* A band loop can be a space loop when every flow and read dependence
 * moves data by at most one iteration along it, so that data only ever
 * travels between neighbouring PEs.
 */
static void space_loops(poly_analysis *a)
{
	for (int l = 0; l < a->n_loops; l++) {
		a->space_ok[l] = l < a->band;
		for (int i = 0; i < a->n_deps && a->space_ok[l]; i++) {
			const poly_dep *d = &a->dep[i];

			if (d->kind == POLY_DEP_OUTPUT)
				continue;
			a->space_ok[l] = d->dist_min[l] >= -1 &&
				d->dist_max[l] <= 1;
		}
	}
}

/* The arrays the compute statement accesses, in name order. */
static int arrays(const poly_analysis *a, const char **names)
{
	int n = 0;

	for (int i = 0; i < a->n_accesses; i++)
		if (n == 0 || strcmp(names[n - 1], a->access[i].array))
			names[n++] = a->access[i].array;
	return n;
}

dse_stat poly__dependences(const poly__kernel *k, poly_analysis *a,
	isl_map **rel, dse_error *err)
{
	struct deps s = { k, a, NULL, rel, 0, err };
	const char *names[POLY_MAX_ACCESSES];
	int n = arrays(a, names);
	isl_stat stat = isl_stat_ok;

	s.validity = isl_set_empty(isl_set_get_space(k->domain));
	a->n_deps = 0;
	for (int kind = 0; kind <= POLY_N_DEP_KINDS; kind++)
		for (int i = 0; i < n && stat == isl_stat_ok; i++) {
			int written = is_written(a, k, names[i]);
			int read = poly__find_access(a, names[i], 0) >= 0;

			if (written < 0)
				stat = isl_stat_error;
			else if (kind == POLY_DEP_READ && !written)
				stat = read_deps(&s, names[i]);
			else if (kind == POLY_DEP_FLOW && written && read)
				stat = order_deps(&s, kind, names[i]);
			else if (kind != POLY_DEP_READ && kind != POLY_DEP_FLOW &&
			    written)
				stat = order_deps(&s, kind, names[i]);
		}
	if (stat == isl_stat_ok)
		stat = band_and_parallel(&s);
	isl_set_free(s.validity);
	if (stat < 0)
		return s.rejected ? dse_stat_error :
			poly__isl_error(k->ctx, err, "analysing dependences");
	space_loops(a);
	return dse_stat_ok;
}
