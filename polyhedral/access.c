/* The accesses of the compute statement, summarised as affine index
 * functions of its loops.
 *
 * The models compute buffer sizes for every tiling of every design point,
 * millions of times per second, so they cannot ask isl.  What they need is
 * small: for each array dimension, how far the index moves when each loop
 * moves (the coefficients of the affine index function).  Dimensions that
 * are not an affine function of the loops (data-dependent indices, read
 * as may-accesses) cover their whole range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/aff.h>
#include <isl/ilp.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include "polyhedral/internal.h"

/* State of the walk over the compute statement's accesses. */
struct walk {
	const poly__kernel *k;
	const poly_kernel_desc *desc;
	poly_analysis *a;
	int write;
	int rejected;
	char msg[DSE_ERROR_MSG_LEN];
};

/* Reads an isl integer into *out; -1 when it is not a 64-bit integer. */
static int get_int(__isl_take isl_val *v, int64_t *out)
{
	int ok = v && isl_val_is_int(v) == isl_bool_true;
	long x = 0;

	if (ok) {
		x = isl_val_get_num_si(v);
		ok = isl_val_cmp_si(v, x) == 0;
	}
	isl_val_free(v);
	*out = x;
	return ok ? 0 : -1;
}

/* State of the walk over the pieces of one index function. */
struct piece {
	int n;
	isl_aff *aff;
};

static isl_stat take_piece(__isl_take isl_set *set,
	__isl_take isl_multi_aff *ma, void *user)
{
	struct piece *p = user;

	if (p->n++ == 0)
		p->aff = isl_multi_aff_get_at(ma, 0);
	isl_set_free(set);
	isl_multi_aff_free(ma);
	return isl_stat_ok;
}

/* Fills dimension d of acc from the one-dimensional access "m" (taken):
 * exact when it is a single affine piece without divisions.
 */
static isl_stat index_function(__isl_take isl_map *m, poly_access *acc, int d,
	int n_loops)
{
	isl_bool single = isl_map_is_single_valued(m);
	struct piece p = { 0, NULL };
	isl_pw_multi_aff *pma;
	isl_stat stat;
	isl_size n_div;
	int ok = 1;

	acc->exact[d] = 0;
	if (single != isl_bool_true) {
		isl_map_free(m);
		return single < 0 ? isl_stat_error : isl_stat_ok;
	}
	pma = isl_pw_multi_aff_from_map(m);
	stat = isl_pw_multi_aff_foreach_piece(pma, &take_piece, &p);
	isl_pw_multi_aff_free(pma);
	if (stat < 0 && !p.aff)
		return isl_stat_error;
	n_div = p.aff ? isl_aff_dim(p.aff, isl_dim_div) : -1;
	if (p.n != 1 || n_div != 0) {
		isl_aff_free(p.aff);
		return n_div < 0 && p.n == 1 ? isl_stat_error : isl_stat_ok;
	}
	for (int l = 0; l < n_loops && ok; l++)
		ok = get_int(isl_aff_get_coefficient_val(p.aff, isl_dim_in, l),
			&acc->coef[d][l]) == 0;
	ok = ok && get_int(isl_aff_get_constant_val(p.aff), &acc->cst[d]) == 0;
	acc->exact[d] = ok;
	isl_aff_free(p.aff);
	return isl_stat_ok;
}

/* The range of index d over the domain; -1 when it is not bounded by
 * constants.
 */
static int64_t index_extent(const poly__kernel *k, __isl_keep isl_map *map,
	int d)
{
	isl_set *range = isl_set_apply(isl_set_copy(k->domain),
		isl_map_copy(map));
	int64_t lo, hi;
	int ok = get_int(isl_set_dim_min_val(isl_set_copy(range), d), &lo);

	/* Both calls run so that range is always freed. */
	ok |= get_int(isl_set_dim_max_val(range, d), &hi);
	if (ok < 0)
		return -1;
	return hi - lo + 1;
}

/* "A[i][r + p]", or "H[*][f]" for a data-dependent index. */
static void access_text(const poly__kernel *k, poly_access *acc)
{
	size_t len = strlen(acc->array);

	/* The array name is shorter than the text field (POLY_NAME_LEN). */
	memcpy(acc->text, acc->array, len + 1);

	for (int d = 0; d < acc->n_dims && len + 2 < sizeof(acc->text); d++) {
		int terms = 0;

		len += (size_t) snprintf(acc->text + len, sizeof(acc->text) - len,
			"[");
		for (int l = 0; acc->exact[d] && l < k->n_loops; l++) {
			int64_t c = acc->coef[d][l];
			long long m = c < 0 ? -c : c;
			const char *sign = terms ? (c < 0 ? " - " : " + ") :
				(c < 0 ? "-" : "");

			if (c == 0 || len + 2 >= sizeof(acc->text))
				continue;
			if (m == 1)
				len += (size_t) snprintf(acc->text + len,
					sizeof(acc->text) - len, "%s%s", sign,
					k->loop[l]);
			else
				len += (size_t) snprintf(acc->text + len,
					sizeof(acc->text) - len, "%s%lld*%s",
					sign, m, k->loop[l]);
			terms++;
		}
		if (acc->exact[d] && acc->cst[d] != 0 && len + 2 < sizeof(acc->text))
			len += (size_t) snprintf(acc->text + len,
				sizeof(acc->text) - len, "%s%lld",
				terms ? (acc->cst[d] < 0 ? " - " : " + ") :
				(acc->cst[d] < 0 ? "-" : ""),
				(long long) (acc->cst[d] < 0 ? -acc->cst[d] :
				acc->cst[d]));
		else if (acc->exact[d] && !terms && len + 2 < sizeof(acc->text))
			len += (size_t) snprintf(acc->text + len,
				sizeof(acc->text) - len, "0");
		if (!acc->exact[d] && len + 2 < sizeof(acc->text))
			len += (size_t) snprintf(acc->text + len,
				sizeof(acc->text) - len, "*");
		if (len + 1 < sizeof(acc->text))
			len += (size_t) snprintf(acc->text + len,
				sizeof(acc->text) - len, "]");
	}
}

/* State of the split of one access relation into its references. */
struct split {
	isl_map *ref[POLY_MAX_ACCESSES];
	int n;
	isl_map *may;		/* the pieces that are no function */
	int full;
};

/* Adds one piece of an access relation to the reference whose function
 * it continues (their union stays single-valued), or starts a new one.
 */
static isl_stat split_piece(__isl_take isl_basic_map *bmap, void *user)
{
	struct split *s = user;
	isl_map *piece = isl_map_from_basic_map(bmap);
	isl_bool single = isl_map_is_single_valued(piece);

	if (single < 0) {
		isl_map_free(piece);
		return isl_stat_error;
	}
	if (!single) {
		s->may = s->may ? isl_map_union(s->may, piece) : piece;
		return s->may ? isl_stat_ok : isl_stat_error;
	}
	for (int r = 0; r < s->n; r++) {
		isl_map *u = isl_map_union(isl_map_copy(s->ref[r]),
			isl_map_copy(piece));
		isl_bool same = isl_map_is_single_valued(u);

		if (same < 0 || same) {
			isl_map_free(s->ref[r]);
			isl_map_free(piece);
			s->ref[r] = u;
			return same < 0 ? isl_stat_error : isl_stat_ok;
		}
		isl_map_free(u);
	}
	if (s->n == POLY_MAX_ACCESSES) {
		s->full = 1;
		isl_map_free(piece);
		return isl_stat_error;
	}
	s->ref[s->n++] = piece;
	return isl_stat_ok;
}

__isl_give isl_map_list *poly__references(__isl_take isl_map *map)
{
	struct split s = { .n = 0 };
	isl_ctx *ctx = isl_map_get_ctx(map);
	isl_map_list *list;
	isl_stat stat = isl_map_foreach_basic_map(map, &split_piece, &s);

	isl_map_free(map);
	list = stat < 0 ? NULL : isl_map_list_alloc(ctx, s.n + 1);
	for (int r = 0; r < s.n; r++)
		list = isl_map_list_add(list, s.ref[r]);
	if (s.may)
		list = isl_map_list_add(list, s.may);
	return list;
}

static isl_stat add_access(__isl_take isl_map *map, void *user)
{
	struct walk *w = user;
	poly_analysis *a = w->a;
	poly_access *acc = &a->access[a->n_accesses];
	const char *array = isl_map_get_tuple_name(map, isl_dim_out);
	isl_size n = isl_map_dim(map, isl_dim_out);
	isl_bool single = isl_map_is_single_valued(map);
	isl_stat stat = isl_stat_ok;

	if (n < 0 || single < 0 || !array) {
		isl_map_free(map);
		return isl_stat_error;
	}
	w->rejected = 1;
	if (a->n_accesses == POLY_MAX_ACCESSES)
		snprintf(w->msg, sizeof(w->msg), "the statement has more than "
			"%d accesses", POLY_MAX_ACCESSES);
	else if (n > POLY_MAX_ARRAY_DIMS)
		snprintf(w->msg, sizeof(w->msg), "array '%s' has %d dimensions; "
			"at most %d are supported", array, (int) n,
			POLY_MAX_ARRAY_DIMS);
	else if (poly__copy_name(acc->array, array) < 0)
		snprintf(w->msg, sizeof(w->msg), "array name '%s' is too long",
			array);
	else
		w->rejected = 0;
	if (w->rejected) {
		isl_map_free(map);
		return isl_stat_error;
	}
	memset(acc, 0, sizeof(*acc));
	strcpy(acc->array, array);
	acc->write = w->write;
	acc->may = !single;
	acc->n_dims = (int) n;
	for (int d = 0; d < n && stat == isl_stat_ok; d++) {
		isl_map *m = isl_map_project_out(isl_map_copy(map),
			isl_dim_out, d + 1, (unsigned) (n - d - 1));

		m = isl_map_project_out(m, isl_dim_out, 0, (unsigned) d);
		stat = index_function(m, acc, d, w->k->n_loops);
		acc->extent[d] = index_extent(w->k, map, d);
		if (stat == isl_stat_ok && acc->extent[d] < 1) {
			w->rejected = 1;
			snprintf(w->msg, sizeof(w->msg), "the indices of '%s' "
				"(dimension %d) are not bounded by constants; "
				"give values to the parameters of the access",
				array, d + 1);
			stat = isl_stat_error;
		}
	}
	access_text(w->k, acc);
	isl_map_free(map);
	if (stat == isl_stat_ok)
		a->n_accesses++;
	return stat;
}

/* Adds each reference of the access relation "map" (taken) as an
 * access of its own: syrk's two reads A[i][k] and A[j][k] reach isl as
 * one relation to A, but each is its own index function, with its own
 * reuse, as the C text writes them.
 */
static isl_stat add_references(__isl_take isl_map *map, void *user)
{
	isl_map_list *refs = poly__references(map);
	isl_size n = isl_map_list_size(refs);
	isl_stat stat = n < 0 ? isl_stat_error : isl_stat_ok;

	for (int r = 0; r < n && stat == isl_stat_ok; r++)
		stat = add_access(isl_map_list_get_at(refs, r), user);
	isl_map_list_free(refs);
	return stat;
}

/* Orders accesses by array, reads before writes, so that numbering and
 * printing do not depend on isl's hash order.
 */
static int cmp_access(const void *x, const void *y)
{
	const poly_access *p = x, *q = y;
	int c = strcmp(p->array, q->array);

	if (c)
		return c;
	if (p->write != q->write)
		return p->write - q->write;
	return strcmp(p->text, q->text);
}

dse_stat poly__accesses(const poly__kernel *k, const poly_kernel_desc *desc,
	poly_analysis *a, dse_error *err)
{
	isl_union_set *dom = isl_union_set_from_set(isl_set_copy(k->domain));
	isl_union_map *kind[2] = {
		isl_union_map_intersect_domain_union_set(
			isl_union_map_copy(k->reads), isl_union_set_copy(dom)),
		isl_union_map_intersect_domain_union_set(
			isl_union_map_copy(k->writes), dom),
	};
	struct walk w = { .k = k, .desc = desc, .a = a };
	isl_stat stat = isl_stat_ok;

	a->n_accesses = 0;
	for (int i = 0; i < 2; i++) {
		/* w.write stays on the kind that failed, for the message. */
		if (stat == isl_stat_ok) {
			w.write = i;
			stat = isl_union_map_foreach_map(kind[i],
				&add_references, &w);
		}
		isl_union_map_free(kind[i]);
	}
	if (stat < 0)
		return w.rejected ? poly__input_error(err, w.write ?
			&desc->writes_src : &desc->reads_src, "%s", w.msg) :
			poly__isl_error(k->ctx, err,
	"summarising the accesses");
	qsort(a->access, (size_t) a->n_accesses, sizeof(a->access[0]),
		&cmp_access);
	return dse_stat_ok;
}
