/* Counting the instances of an iteration domain exactly.
 *
 * isl counts the points of a set only by visiting every one of them,
 * which for a triangular 1024^3 domain is hundreds of millions of calls.
 * Here the domain is split into disjoint convex pieces, each piece's
 * loops into groups that no constraint ties together (the free loops of
 * syrk's k; a group's count multiplies the others'), and each group is
 * counted as its loop nest runs: the outer loops are walked with the
 * bounds isl's projection gives them and the innermost loop is counted as
 * the length of its interval.  The walk visits the points of the outer
 * loops only, a few thousand for the kernels of configs/.
 *
 * A piece with existential variables (a stride or a modulo condition) is
 * counted by isl point by point, which is bounded by COUNT_VISIT_MAX.
 */
#include <stdint.h>
#include <string.h>

#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/val.h>

#include "polyhedral/internal.h"

/* At most this many points are visited, by the walk or by isl: about a
 * second of work.
 */
#define COUNT_VISIT_MAX (INT64_C(1) << 26)
#define COUNT_MAX_CONS 64

/* Affine constraints over the loops as plain integers: per row,
 * coef . x + cst >= 0 (or == 0 when eq).
 */
struct cons {
	int n;
	int64_t coef[COUNT_MAX_CONS][POLY_MAX_LOOPS];
	int64_t cst[COUNT_MAX_CONS];
	int eq[COUNT_MAX_CONS];
	int too_many;	/* more rows than fit, or a coefficient too large */
};

/* Reads v (taken) into *out; 0 when it is not an integer of 32 bits. */
static int val_si(__isl_take isl_val *v, int64_t *out)
{
	int ok = v && isl_val_is_int(v) == isl_bool_true &&
		isl_val_cmp_si(v, INT32_MAX) <= 0 &&
		isl_val_cmp_si(v, -INT32_MAX) >= 0;

	if (ok)
		*out = isl_val_get_num_si(v);
	isl_val_free(v);
	return ok;
}

/* Appends c (taken) to the rows of user, a struct cons. */
static isl_stat add_con(__isl_take isl_constraint *c, void *user)
{
	struct cons *t = user;
	isl_size n = isl_constraint_dim(c, isl_dim_set);
	int r = t->n;

	if (n < 0 || n > POLY_MAX_LOOPS || r == COUNT_MAX_CONS) {
		t->too_many = 1;
		isl_constraint_free(c);
		return isl_stat_ok;
	}
	memset(t->coef[r], 0, sizeof(t->coef[r]));
	for (int d = 0; d < n; d++)
		if (!val_si(isl_constraint_get_coefficient_val(c, isl_dim_set,
		    d), &t->coef[r][d]))
			t->too_many = 1;
	if (!val_si(isl_constraint_get_constant_val(c), &t->cst[r]))
		t->too_many = 1;
	t->eq[r] = isl_constraint_is_equality(c) == isl_bool_true;
	t->n++;
	isl_constraint_free(c);
	return isl_stat_ok;
}

/* Reads the constraints of bset (taken) into t; -1 on an isl failure. */
static int read_cons(__isl_take isl_basic_set *bset, struct cons *t)
{
	isl_stat stat;

	memset(t, 0, sizeof(*t));
	stat = isl_basic_set_foreach_constraint(bset, &add_con, t);
	isl_basic_set_free(bset);
	return stat < 0 ? -1 : 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	return -floor_div(-a, b);
}

/* The interval of loop d that the rows of t allow once the loops before
 * it have the values x[]; the loops after d must not appear in t.
 * Returns 0 when it is empty.
 */
static int interval(const struct cons *t, int d, const int64_t *x,
	int64_t *lo, int64_t *hi)
{
	*lo = INT64_MIN;
	*hi = INT64_MAX;
	for (int r = 0; r < t->n; r++) {
		int64_t a = t->coef[r][d], rest = t->cst[r];

		for (int e = 0; e < d; e++)
			rest += t->coef[r][e] * x[e];
		if (a == 0) {
			if (t->eq[r] ? rest != 0 : rest < 0)
				return 0;
			continue;
		}
		/* a x + rest >= 0: x >= -rest / a when a > 0, else
		 * x <= rest / -a; an equality gives both.
		 */
		if (a > 0 || t->eq[r]) {
			int64_t b = a > 0 ? ceil_div(-rest, a) :
				ceil_div(rest, -a);

			*lo = b > *lo ? b : *lo;
		}
		if (a < 0 || t->eq[r]) {
			int64_t b = a < 0 ? floor_div(rest, -a) :
				floor_div(-rest, a);

			*hi = b < *hi ? b : *hi;
		}
	}
	return *lo <= *hi && *lo != INT64_MIN && *hi != INT64_MAX;
}

/* The walk over one group of loops: proj[j] bounds loop dims[j] given the
 * loops before it.
 */
struct walk {
	int n;				/* loops in the group */
	int dims[POLY_MAX_LOOPS];
	struct cons proj[POLY_MAX_LOOPS];
	int64_t x[POLY_MAX_LOOPS];	/* values, indexed by loop */
	int64_t visits;
	uint64_t count;
	int overflow;
};

/* Counts the points of the group from its j-th loop on. */
static void walk(struct walk *w, int j)
{
	int d = w->dims[j];
	int64_t lo, hi;

	if (w->overflow || !interval(&w->proj[j], d, w->x, &lo, &hi))
		return;
	if (j == w->n - 1) {
		uint64_t len = (uint64_t) (hi - lo) + 1;

		w->overflow |= w->count > UINT64_MAX - len;
		w->count += len;
		return;
	}
	for (w->x[d] = lo; w->x[d] <= hi && !w->overflow; w->x[d]++) {
		w->overflow |= ++w->visits > COUNT_VISIT_MAX;
		walk(w, j + 1);
	}
}

/* The loops that constraints of t tie to loop d, by union-find. */
static void group_loops(const struct cons *t, int n, int *root)
{
	for (int d = 0; d < n; d++)
		root[d] = d;
	for (int r = 0; r < t->n; r++) {
		int first = -1;

		for (int d = 0; d < n; d++) {
			int a = d, b;

			if (!t->coef[r][d])
				continue;
			if (first < 0) {
				first = d;
				continue;
			}
			while (root[a] != a)
				a = root[a];
			b = first;
			while (root[b] != b)
				b = root[b];
			root[a > b ? a : b] = a > b ? b : a;
		}
	}
	for (int d = 0; d < n; d++)
		while (root[d] != root[root[d]])
			root[d] = root[root[d]];
}

/* Drops the rows of t that involve a loop outside the group (root g):
 * they bound other groups, which the walk of this one never sets.
 */
static void keep_group(struct cons *t, int n, const int *root, int g)
{
	int kept = 0;

	for (int r = 0; r < t->n; r++) {
		int mine = 1;

		for (int d = 0; d < n; d++)
			mine &= !t->coef[r][d] || root[d] == g;
		if (!mine)
			continue;
		memmove(t->coef[kept], t->coef[r], sizeof(t->coef[r]));
		t->cst[kept] = t->cst[r];
		t->eq[kept] = t->eq[r];
		kept++;
	}
	t->n = kept;
}

/* Counts the group of loops whose root is g in bset (kept); -1 on an
 * isl failure, 1 when the count is too large or too long to take.
 */
static int count_group(__isl_keep isl_basic_set *bset, int n,
	const int *root, int g, uint64_t *out)
{
	struct walk w;

	memset(&w, 0, sizeof(w));
	for (int d = 0; d < n; d++)
		if (root[d] == g)
			w.dims[w.n++] = d;
	for (int j = 0; j < w.n; j++) {
		int d = w.dims[j];
		isl_basic_set *p = isl_basic_set_copy(bset);

		/* The innermost loop of the group is bounded by the piece
		 * itself, so its interval, and the count, are exact.  The
		 * outer loops walk the projection of the piece; dropping the
		 * projection's existential variables only widens that walk
		 * (a prefix without an inner point adds an empty interval).
		 */
		if (j < w.n - 1) {
			p = isl_basic_set_project_out(p, isl_dim_set,
				(unsigned) d + 1, (unsigned) (n - d - 1));
			p = isl_basic_set_remove_divs(p);
			p = isl_basic_set_add_dims(p, isl_dim_set,
				(unsigned) (n - d - 1));
		}
		if (read_cons(p, &w.proj[j]) < 0)
			return -1;
		if (w.proj[j].too_many)
			return 1;
		keep_group(&w.proj[j], n, root, g);
	}
	walk(&w, 0);
	*out = w.count;
	return w.overflow ? 1 : 0;
}

struct piece_walk {
	int n;
	uint64_t count;
	int status;		/* 0, 1 (too large or long) or -1 (isl) */
};

/* Counts one convex piece (taken) into the total: the product of its
 * groups.
 */
static isl_stat count_piece(__isl_take isl_basic_set *bset, void *user)
{
	struct piece_walk *pw = user;
	isl_size divs = isl_basic_set_dim(bset, isl_dim_div);
	uint64_t total = 1;
	struct cons t;
	int root[POLY_MAX_LOOPS];

	if (divs != 0) {
		isl_basic_set_free(bset);
		pw->status = divs < 0 ? -1 : 1;
		return isl_stat_error;
	}
	if (read_cons(isl_basic_set_copy(bset), &t) < 0 || t.too_many) {
		isl_basic_set_free(bset);
		pw->status = t.too_many ? 1 : -1;
		return isl_stat_error;
	}
	group_loops(&t, pw->n, root);
	for (int g = 0; g < pw->n && pw->status == 0; g++) {
		uint64_t c = 0;

		if (root[g] != g)
			continue;
		pw->status = count_group(bset, pw->n, root, g, &c);
		if (pw->status == 0 && c && total > UINT64_MAX / c)
			pw->status = 1;
		total *= c;
	}
	isl_basic_set_free(bset);
	if (pw->status == 0 && pw->count > UINT64_MAX - total)
		pw->status = 1;
	pw->count += total;
	return pw->status ? isl_stat_error : isl_stat_ok;
}

/* isl's own count, point by point, for the pieces with existential
 * variables; only when the bounding box is small enough to visit.
 */
static int count_by_isl(__isl_keep isl_set *domain, uint64_t box,
	uint64_t *out)
{
	isl_val *v;
	int ok;

	if (box > (uint64_t) COUNT_VISIT_MAX)
		return 1;
	v = isl_set_count_val(domain);
	ok = v && isl_val_is_int(v) && isl_val_is_nonneg(v);
	if (ok)
		*out = (uint64_t) isl_val_get_num_si(v);
	isl_val_free(v);
	return ok ? 0 : -1;
}

int poly__count_points(__isl_keep isl_set *domain, uint64_t box,
	uint64_t *out)
{
	isl_size n = isl_set_dim(domain, isl_dim_set);
	isl_set *pieces;
	struct piece_walk pw = { .n = (int) n };

	if (n < 0 || n > POLY_MAX_LOOPS)
		return -1;
	pieces = isl_set_make_disjoint(isl_set_copy(domain));
	if (isl_set_foreach_basic_set(pieces, &count_piece, &pw) < 0 &&
	    pw.status == 0)
		pw.status = -1;
	isl_set_free(pieces);
	if (pw.status == 1)
		return count_by_isl(domain, box, out);
	*out = pw.count;
	return pw.status;
}
