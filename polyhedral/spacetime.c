/* The space-time transformation and SIMD detection.
 *
 * The candidate space loops are the band loops along which every flow
 * and read dependence has distance at most one (deps.c).  Every
 * combination of one, two (and, on request, three) of them is an array:
 * its space loops are permuted outermost and the other loops run in time.
 * Candidates are numbered as AutoSA numbers them: 1-D arrays first in
 * loop order, then 2-D pairs in lexicographic order, then 3-D triples, so
 * space_time[n] names the same array in both tools (for matrix multiply
 * [i], [j], [k], [i,j], [i,k], [j,k]).
 */
#include <stdio.h>
#include <string.h>

#include "polyhedral/internal.h"

/* Fills candidate "c" with space loops s[0..n). */
static void make_candidate(poly_analysis *a, poly_candidate *c, const int *s,
	int n)
{
	memset(c, 0, sizeof(*c));
	c->index = a->n_candidates;
	c->n_space = n;
	for (int i = 0; i < n; i++)
		c->space[i] = s[i];
	for (int l = 0; l < a->n_loops; l++) {
		int space = 0;

		for (int i = 0; i < n; i++)
			space |= s[i] == l;
		if (!space)
			c->time[c->n_time++] = l;
	}
}

/* Adds every combination of "n" loops of the pool, in lexicographic
 * order, starting with the loops chosen so far in s[0..depth).
 */
static void combinations(poly_analysis *a, const int *pool, int n_pool,
	int n, int *s, int depth, int from)
{
	if (depth == n) {
		if (a->n_candidates < POLY_MAX_CANDIDATES) {
			make_candidate(a, &a->cand[a->n_candidates], s, n);
			a->n_candidates++;
		}
		return;
	}
	for (int i = from; i < n_pool; i++) {
		s[depth] = pool[i];
		combinations(a, pool, n_pool, n, s, depth + 1, i + 1);
	}
}

/* The array a sweep explores unless told otherwise: the first 2-D array
 * whose space loops are both parallel (outputs stay in the PEs, AutoSA's
 * usual choice), else the first 2-D array, else the first one.
 */
static int default_candidate(const poly_analysis *a)
{
	int first_2d = -1;

	for (int i = 0; i < a->n_candidates; i++) {
		const poly_candidate *c = &a->cand[i];

		if (c->n_space != 2)
			continue;
		if (first_2d < 0)
			first_2d = i;
		if (a->parallel[c->space[0]] && a->parallel[c->space[1]])
			return i;
	}
	return first_2d >= 0 ? first_2d : 0;
}

/* How access "acc" steps along loop l: 0 stride-zero, 1 stride-one, 2
 * stride-one once dimension *dim is made innermost, -1 neither.
 */
static int stride(const poly_access *acc, int l, int *dim)
{
	int found = -1;

	for (int d = 0; d < acc->n_dims; d++) {
		if (!acc->exact[d])
			return -1;
		if (acc->coef[d][l] == 0)
			continue;
		if (found >= 0 || (acc->coef[d][l] != 1 &&
		    acc->coef[d][l] != -1))
			return -1;
		found = d;
	}
	if (found < 0)
		return 0;
	*dim = found;
	return found == acc->n_dims - 1 ? 1 : 2;
}

/* The text of dimension d of "A[i][r + p]" ("r + p" for d = 1). */
static void dim_text(const char *text, int d, char *buf, size_t size)
{
	const char *p = strchr(text, '[');
	const char *end;

	for (int i = 0; p && i < d; i++)
		p = strchr(p + 1, '[');
	end = p ? strchr(p, ']') : NULL;
	if (!p || !end) {
		snprintf(buf, size, "?");
		return;
	}
	snprintf(buf, size, "%.*s", (int) (end - p - 1), p + 1);
}

/* Notes the layout change that makes "acc" stride-one: dimension d moves
 * innermost, e.g. "B[k][j] -> B[j][k]".
 */
static void note_layout(const poly_access *acc, int d, char *buf,
	size_t size)
{
	size_t len = strlen(buf);
	char one[POLY_TEXT_LEN];

	poly__append(buf, size, &len, "%s%s -> %s", len ? "; " : "",
		acc->text, acc->array);
	for (int i = 0; i < acc->n_dims; i++) {
		if (i == d)
			continue;
		dim_text(acc->text, i, one, sizeof(one));
		poly__append(buf, size, &len, "[%s]", one);
	}
	dim_text(acc->text, d, one, sizeof(one));
	poly__append(buf, size, &len, "[%s]", one);
}

/* Whether every access is stride-zero or stride-one along l, possibly
 * after layout changes, which are written into "layout".
 */
static int vectorises(const poly_analysis *a, int l, char *layout,
	size_t size)
{
	layout[0] = '\0';
	for (int i = 0; i < a->n_accesses; i++) {
		int dim = -1, s = stride(&a->access[i], l, &dim);
		int dup = 0;

		if (s < 0)
			return 0;
		for (int j = 0; j < i && s == 2; j++)
			dup |= !strcmp(a->access[j].text, a->access[i].text);
		if (s == 2 && !dup)
			note_layout(&a->access[i], dim, layout, size);
	}
	return 1;
}

/* The SIMD loop: the reduction loop (AutoSA asks the user to name it,
 * and so may we) or else the innermost parallel band loop, provided every
 * reference is stride-zero or stride-one along it.
 */
static void find_simd(poly_analysis *a)
{
	char layout[POLY_TEXT_LEN];

	a->simd_loop = -1;
	a->simd_layout[0] = '\0';
	if (a->reduction >= 0 &&
	    vectorises(a, a->reduction, layout, sizeof(layout))) {
		a->simd_loop = a->reduction;
		strcpy(a->simd_layout, layout);
		return;
	}
	for (int l = a->band - 1; l >= 0; l--)
		if (a->parallel[l] && vectorises(a, l, layout, sizeof(layout))) {
			a->simd_loop = l;
			strcpy(a->simd_layout, layout);
			return;
		}
}

/* "i, j" of the loops in "set" (1 for each member) for messages. */
static void loop_names(const poly_analysis *a, int upto, char *buf,
	size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int l = 0; l < upto; l++)
		poly__append(buf, size, &len, "%s%s", l ? ", " : "", a->loop[l]);
}

dse_stat poly__space_time(const poly__kernel *k, const poly_kernel_desc *desc,
	poly_analysis *a, dse_error *err)
{
	int pool[POLY_MAX_LOOPS], n_pool = 0, s[POLY_MAX_SPACE];
	int max = desc->max_space > 0 ? desc->max_space : 2;
	char names[POLY_TEXT_LEN];

	(void) k;
	if (a->band == 0)
		return poly__input_error(err, &desc->domain_src, "the kernel "
			"has no permutable loop band: a dependence of '%s' runs "
			"backwards along its outermost loop '%s', so no array "
			"can be built", a->statement, a->loop[0]);
	for (int l = 0; l < a->band; l++)
		if (a->space_ok[l])
			pool[n_pool++] = l;
	if (n_pool == 0) {
		loop_names(a, a->band, names, sizeof(names));
		return poly__input_error(err, &desc->domain_src, "no loop of "
			"the permutable band (%s) can be a space loop: each "
			"carries a flow or read dependence longer than one "
			"iteration, or of unknown length", names);
	}
	if (max > POLY_MAX_SPACE)
		max = POLY_MAX_SPACE;
	a->n_candidates = 0;
	for (int n = 1; n <= max && n <= n_pool; n++)
		combinations(a, pool, n_pool, n, s, 0, 0);
	a->default_candidate = default_candidate(a);
	find_simd(a);
	return dse_stat_ok;
}
