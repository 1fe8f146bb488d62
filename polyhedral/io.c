/* I/O analysis, construction and optimisation, per candidate.
 *
 * Analysis: every dependence of an array, with its accesses, is an I/O
 * group (A, D); its direction is the dependence distance on the
 * candidate's space loops, and it is exterior when a space loop carries
 * the dependence (data moves from PE to PE), interior otherwise.  Groups of
 * the same array and kind are then merged, so each access gets one
 * network: when one of the merged dependences moves data between PEs the
 * group takes its direction, and the others are reuse inside the PE's
 * local buffer.  A read-only array without any dependence still gets a
 * group (every PE is fed directly), and so does a written array (its
 * final values leave through an output group).
 *
 * Copy-in and copy-out sets are computed with isl: the instances that read
 * a read-only array, the sinks and sources of the flow dependences, and
 * the writes that no later write overwrites.
 *
 * Construction and optimisation: L1 modules serve one line of PEs each,
 * L2 modules cluster the L1 modules of the array, and an L3 module talks
 * to DRAM (a 1-D array needs one level less); exterior groups have their
 * L1 modules embedded in the PEs; the local buffer sits at L1 for
 * interior groups and at L2 for exterior ones.  An interior flow group is
 * pruned when the tile loops that carry its dependences are the innermost
 * tile loops: consecutive tiles then run on the same PE, and the data the
 * previous tile leaves (copy-out) is exactly what the next one needs
 * (copy-in), as the accumulated C of matrix multiply.  The PE half of that
 * comparison holds for every interior group (its distance on the space
 * loops is zero, so source and sink share their PE); the tile half is the
 * suffix rule, which, unlike "the sink's tile is the next one", also
 * accepts the chains of a may-dependence that pass through several tiles
 * of the same PE (the aggregation of a GNN).
 */
#include <stdio.h>
#include <string.h>

#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include "polyhedral/internal.h"

/* The kernel-level facts of one group, shared by every candidate. */
struct proto {
	char array[POLY_NAME_LEN];
	int kind;
	int access;
	int n_deps;
	int dep[POLY_MAX_GROUP_DEPS];
	int copy_in, copy_out;
	char in_set[POLY_TEXT_LEN];
	char out_set[POLY_TEXT_LEN];
};

/* The instances of the compute statement that access "array". */
static __isl_give isl_set *accessing(const poly__kernel *k,
	__isl_keep isl_union_map *acc,
	const char *array)
{
	isl_set *out = isl_set_empty(isl_set_get_space(k->domain));
	isl_map_list *list = NULL;
	isl_union_map *u = isl_union_map_copy(acc);
	isl_size n;

	u = isl_union_map_intersect_domain_union_set(u,
		isl_union_set_from_set(isl_set_copy(k->domain)));
	list = isl_union_map_get_map_list(u);
	n = isl_map_list_size(list);
	for (int i = 0; i < n; i++) {
		isl_map *m = isl_map_list_get_at(list, i);
		const char *name = isl_map_get_tuple_name(m, isl_dim_out);

		if (name && !strcmp(name, array))
			out = isl_set_union(out, isl_map_domain(m));
		else
			isl_map_free(m);
	}
	isl_map_list_free(list);
	isl_union_map_free(u);
	return n < 0 ? isl_set_free(out) : out;
}

/* Adds the group of "array" of one kind to protos: the dependences of
 * that kind on the array, or, when "own" is set, only those whose sink
 * is "access" (one group per reference).
 */
static void add_proto(const poly_analysis *a, struct proto *p, int *n,
	const char *array, int kind, int access, int own)
{
	struct proto *g;

	if (*n == POLY_MAX_GROUPS || access < 0)
		return;
	g = &p[(*n)++];
	memset(g, 0, sizeof(*g));
	strcpy(g->array, array);
	g->kind = kind;
	g->access = access;
	for (int i = 0; i < a->n_deps; i++)
		if (a->dep[i].kind == kind && !strcmp(a->dep[i].array, array) &&
		    (!own || a->dep[i].access == access) &&
		    g->n_deps < POLY_MAX_GROUP_DEPS)
			g->dep[g->n_deps++] = i;
	g->copy_in = kind != POLY_DEP_OUTPUT;
	g->copy_out = kind != POLY_DEP_READ;
}

/* Copy-in and copy-out sets of a group, as isl text. */
static dse_stat copy_sets(const poly__kernel *k, const poly_analysis *a,
	struct proto *g, isl_map **rel, dse_error *err)
{
	isl_set *in = NULL, *out = NULL;

	if (g->kind == POLY_DEP_READ) {
		in = accessing(k, k->reads, g->array);
	} else if (g->kind == POLY_DEP_FLOW) {
		in = isl_set_empty(isl_set_get_space(k->domain));
		out = isl_set_copy(in);
		for (int i = 0; i < g->n_deps; i++) {
			in = isl_set_union(in, isl_map_range(
				isl_map_copy(rel[g->dep[i]])));
			out = isl_set_union(out, isl_map_domain(
				isl_map_copy(rel[g->dep[i]])));
		}
	} else {
		/* A may-write never kills an earlier write, so any of them
		 * may be the last one and all are copied out.
		 */
		out = accessing(k, k->writes, g->array);
		for (int i = 0; i < g->n_deps; i++)
			if (!a->dep[g->dep[i]].unknown)
				out = isl_set_subtract(out, isl_map_domain(
					isl_map_copy(rel[g->dep[i]])));
	}
	if ((g->copy_in && !in) || (g->copy_out && !out)) {
		isl_set_free(in);
		isl_set_free(out);
		return poly__isl_error(k->ctx, err, "computing copy sets");
	}
	/* Intersecting with the domain gives the sets the loop names. */
	in = in ? isl_set_coalesce(isl_set_intersect(
		isl_set_copy(k->domain), in)) : NULL;
	out = out ? isl_set_coalesce(isl_set_intersect(
		isl_set_copy(k->domain), out)) : NULL;
	if (in)
		poly__text(g->in_set, sizeof(g->in_set), isl_set_to_str(in));
	if (out)
		poly__text(g->out_set, sizeof(g->out_set),
			isl_set_to_str(out));
	isl_set_free(in);
	isl_set_free(out);
	return dse_stat_ok;
}

/* Whether the read dependences of read-only "array" each belong to one
 * reference (deps.c gives every exact reference its own reuse), so that
 * each reference is a group of its own.
 */
static int own_reuse(const poly_analysis *a, const char *array)
{
	for (int d = 0; d < a->n_deps; d++)
		if (a->dep[d].kind == POLY_DEP_READ && a->dep[d].unknown &&
		    !strcmp(a->dep[d].array, array))
			return 0;
	return 1;
}

/* The kernel-level groups, in array order, reads then flow then output
 * for each array.
 */
static dse_stat protos(const poly__kernel *k, const poly_analysis *a,
	isl_map **rel, struct proto *p, int *n, dse_error *err)
{
	*n = 0;
	for (int i = 0; i < a->n_accesses; i++) {
		const char *array = a->access[i].array;
		int r = poly__find_access(a, array, 0), w = poly__find_access(a, array, 1);
		int has_flow = 0;

		if (i > 0 && !strcmp(a->access[i - 1].array, array))
			continue;
		for (int d = 0; d < a->n_deps; d++)
			has_flow |= a->dep[d].kind == POLY_DEP_FLOW &&
				!strcmp(a->dep[d].array, array);
		/* A written array that is also read without a flow
		 * dependence reads its initial values from DRAM.
		 */
		if (r >= 0 && w < 0 && own_reuse(a, array))
			for (int x = r; x < a->n_accesses &&
			     !strcmp(a->access[x].array, array); x++)
				add_proto(a, p, n, array, POLY_DEP_READ, x, 1);
		else if (r >= 0 && (w < 0 || !has_flow))
			add_proto(a, p, n, array, POLY_DEP_READ, r, 0);
		if (has_flow)
			add_proto(a, p, n, array, POLY_DEP_FLOW, r, 0);
		if (w >= 0)
			add_proto(a, p, n, array, POLY_DEP_OUTPUT, w, 0);
	}
	for (int i = 0; i < *n; i++)
		if (copy_sets(k, a, &p[i], rel, err) != dse_stat_ok)
			return dse_stat_error;
	return dse_stat_ok;
}

/* Position of loop l in the candidate's tile-loop order (space loops
 * first, then the other band loops in order: poly_candidate_order), or -1
 * outside the band.
 */
static int tile_position(const poly_analysis *a, const poly_candidate *c,
	int l)
{
	int order[POLY_MAX_LOOPS], n = poly_candidate_order(a, c, order);

	for (int pos = 0; pos < n && pos < a->band; pos++)
		if (order[pos] == l)
			return pos;
	return -1;
}

/* Whether the band loops that carry the group's dependences are the
 * innermost tile loops (see the top of the file).
 */
static int prunable(const poly_analysis *a, const poly_candidate *c,
	const poly_group *g)
{
	int carried[POLY_MAX_LOOPS] = { 0 }, first = a->band;

	for (int i = 0; i < g->n_deps; i++)
		for (int l = 0; l < a->band; l++) {
			const poly_dep *d = &a->dep[g->dep[i]];
			int pos = tile_position(a, c, l);

			if (pos >= 0 && (d->dist_min[l] != 0 ||
			    d->dist_max[l] != 0)) {
				carried[pos] = 1;
				first = pos < first ? pos : first;
			}
		}
	for (int pos = first; pos < a->band; pos++)
		if (!carried[pos])
			return 0;
	return 1;
}

/* Direction and type of a group on candidate c. */
static void direct(const poly_analysis *a, const poly_candidate *c,
	poly_group *g)
{
	g->dir_known = 1;
	for (int i = 0; i < g->n_deps; i++) {
		const poly_dep *d = &a->dep[g->dep[i]];
		int moves = 0;

		for (int s = 0; s < c->n_space; s++) {
			int l = c->space[s];

			moves |= d->dist_min[l] != 0 || d->dist_max[l] != 0;
			if (d->dist_min[l] != d->dist_max[l])
				g->dir_known = 0;
		}
		if (moves && g->type == POLY_IO_INTERIOR) {
			g->type = POLY_IO_EXTERIOR;
			for (int s = 0; s < c->n_space; s++)
				g->dir[s] = (int) d->dist_max[c->space[s]];
		}
	}
	/* No dependence at all: no reuse between PEs or in time, every PE
	 * is fed directly from its own I/O module.
	 */
	if (g->n_deps == 0 && g->kind == POLY_DEP_READ)
		g->type = POLY_IO_EXTERIOR;
}

static void build_group(const poly_analysis *a, const poly_candidate *c,
	const struct proto *p, int index, poly_group *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "g%d", (index + 1) % 1000);
	strcpy(g->array, p->array);
	g->kind = p->kind;
	g->access = p->access;
	g->n_deps = p->n_deps;
	memcpy(g->dep, p->dep, sizeof(g->dep));
	g->copy_in = p->copy_in;
	g->copy_out = p->copy_out;
	strcpy(g->copy_in_set, p->in_set);
	strcpy(g->copy_out_set, p->out_set);
	direct(a, c, g);
	g->pruned = g->kind == POLY_DEP_FLOW &&
		g->type == POLY_IO_INTERIOR && prunable(a, c, g);
	g->embedded = g->type == POLY_IO_EXTERIOR && !g->pruned;
	g->levels = g->pruned ? 0 : (c->n_space + 1 < POLY_MAX_LEVELS ?
		c->n_space + 1 : POLY_MAX_LEVELS);
	g->buffer_level = g->type == POLY_IO_EXTERIOR ? POLY_L2 : POLY_L1;
}

dse_stat poly__io(const poly__kernel *k, poly_analysis *a, isl_map **rel,
	dse_error *err)
{
	struct proto p[POLY_MAX_GROUPS];
	int n;

	if (protos(k, a, rel, p, &n, err) != dse_stat_ok)
		return dse_stat_error;
	for (int c = 0; c < a->n_candidates; c++) {
		poly_candidate *cand = &a->cand[c];

		cand->n_groups = n;
		for (int i = 0; i < n; i++)
			build_group(a, cand, &p[i], i, &cand->group[i]);
	}
	return dse_stat_ok;
}
