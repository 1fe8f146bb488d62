/* Writing a design as AutoSA reads it: the --sa-sizes string and the
 * --simd-info file.
 *
 * array_part, array_part_L2 and latency follow the template's loop order,
 * which is AutoSA's (the space loops permuted outermost, the band's other
 * loops after them in their order).  The simd list is harder: AutoSA reads
 * one factor per loop its SIMD pass finds a candidate, in the order that
 * pass visits them, and stops with "fewer sizes than required" when the
 * list is shorter.  The pass looks at the loops inside the array from the
 * innermost band outwards: first the loops outside the tiled band, the
 * innermost first, then the band's time loops in order; it skips the
 * latency-hiding point loops and keeps a loop when every access of the
 * statement moves along it by one element of one dimension or not at all
 * (AutoSA's stride-0/1 test on the loop sunk innermost).  A loop that
 * still runs after latency hiding strides by the latency factor, so it
 * qualifies only when no access moves along it; a loop left with one
 * iteration is not counted, which is what makes every string of AutoSA's
 * documentation read as its authors meant it.  The factor of the kernel's
 * SIMD loop goes at that loop's place and every other factor is 1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"

/* A design's tiling, per loop of the template, from its knobs. */
struct tiling {
	int64_t t1[POLY_MAX_LOOPS];	/* array_part */
	int64_t lat[POLY_MAX_LOOPS];	/* latency; 1 when none */
	int64_t simd;
};

static void read_tiling(const sim_model *m, const poly_template *t,
	const int32_t *knobs, struct tiling *g)
{
	int k, l;

	for (l = 0; l < POLY_MAX_LOOPS; l++) {
		g->t1[l] = l < t->n_loops ? t->extent[l] : 1;
		g->lat[l] = 1;
	}
	g->simd = 1;
	for (k = 0; k < sim_model_n_knobs(m); k++) {
		const char *kind = sim_model_knob_kind(m, k);

		l = sim_model_knob_loop(m, k);
		if (l < 0 || l >= POLY_MAX_LOOPS)
			continue;
		if (!strcmp(kind, "array_part"))
			g->t1[l] = knobs[k];
		else if (!strcmp(kind, "latency"))
			g->lat[l] = knobs[k];
		else if (!strcmp(kind, "simd"))
			g->simd = knobs[k];
	}
}

/* How access a moves along loop l: 0 not at all, 1 by one element of one
 * dimension (that dimension in *dim), -1 otherwise.
 */
static int access_step(const poly_access *a, int l, int *dim)
{
	int d, moved = -1;

	for (d = 0; d < a->n_dims; d++) {
		if (a->coef[d][l] == 0)
			continue;
		if (a->coef[d][l] != 1 || moved >= 0)
			return -1;
		moved = d;
	}
	*dim = moved;
	return moved >= 0;
}

/* Whether loop l, striding "stride" elements of its index per step, is
 * one AutoSA's SIMD pass keeps: every access still or moving by one
 * element of one dimension, the same dimension for every access of an
 * array.  *legal says whether every access that moves moves along its
 * innermost dimension (else AutoSA needs a layout change and skips the
 * loop).
 */
static int coalesced(const poly_template *t, int l, int64_t stride,
	int *legal)
{
	int i, j, di, dj;

	*legal = 1;
	for (i = 0; i < t->n_accesses; i++) {
		const poly_access *a = &t->access[i];
		int st;

		if (a->n_dims == 0)
			continue;
		st = access_step(a, l, &di);
		if (st < 0 || (st > 0 && stride > 1))
			return 0;
		if (st > 0 && di != a->n_dims - 1)
			*legal = 0;
		for (j = 0; st > 0 && j < i; j++)
			if (!strcmp(t->access[j].array, a->array) &&
			    access_step(&t->access[j], l, &dj) > 0 && dj != di)
				return 0;
	}
	return 1;
}

int dse_sa_simd_loops(const poly_template *t, const sim_model *m,
	const int32_t *knobs, int touch_space, int *loops, int *legal)
{
	struct tiling g;
	int l, n = 0, ok;

	read_tiling(m, t, knobs, &g);
	/* The loops outside the band, innermost first: whole in each tile. */
	for (l = t->n_loops - 1; l >= t->band; l--)
		if (t->extent[l] > 1 && coalesced(t, l, 1, &ok)) {
			legal[n] = ok;
			loops[n++] = l;
		}
	/* The band's loops in order, as they run inside a PE: the time
	 * loops, and the space loops too with --simd-touch-space.
	 */
	for (l = 0; l < t->band; l++) {
		int64_t trip = g.t1[l] / g.lat[l];

		if ((!touch_space && poly_template_is_space(t, l)) || trip <= 1)
			continue;
		if (coalesced(t, l, g.lat[l], &ok)) {
			legal[n] = ok;
			loops[n++] = l;
		}
	}
	return n;
}

void dse_appendf(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* ";kernel[]->kind[v,...]" of the knobs of one kind, in model order.
 * With "per_tile", each value is written in array_part tiles of its loop,
 * as AutoSA's array_part_L2 counts them.
 */
static void put_kind(const sim_model *m, const int32_t *knobs,
	const char *kind, const struct tiling *per_tile, char *buf,
	size_t size)
{
	int k, n = 0;

	for (k = 0; k < sim_model_n_knobs(m); k++) {
		int64_t v = knobs[k];
		int l = sim_model_knob_loop(m, k);

		if (strcmp(sim_model_knob_kind(m, k), kind))
			continue;
		if (per_tile && l >= 0 && per_tile->t1[l] > 0)
			v /= per_tile->t1[l];
		if (n++)
			dse_appendf(buf, size, ",%d", (int) v);
		else
			dse_appendf(buf, size, ";kernel[]->%s[%d", kind, (int) v);
	}
	if (n)
		dse_appendf(buf, size, "]");
}

void dse_sa_write(const poly_template *t, const sim_model *m,
	const int32_t *knobs, char *buf, size_t size)
{
	int loops[POLY_MAX_LOOPS], legal[POLY_MAX_LOOPS], i, n;
	struct tiling g;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	if (!t || !m || !knobs)
		return;
	read_tiling(m, t, knobs, &g);
	dse_appendf(buf, size, "{kernel[]->space_time[%d]", t->space_time);
	put_kind(m, knobs, "array_part", NULL, buf, size);
	put_kind(m, knobs, "array_part_L2", &g, buf, size);
	put_kind(m, knobs, "latency", NULL, buf, size);
	n = dse_sa_simd_loops(t, m, knobs, 0, loops, legal);
	for (i = 0; i < n; i++)
		dse_appendf(buf, size, "%s%d", i ? "," : ";kernel[]->simd[",
			loops[i] == t->simd_loop ? (int) g.simd : 1);
	if (n)
		dse_appendf(buf, size, "]");
	dse_appendf(buf, size, "}");
}

void dse_sa_simd_info(const poly_template *t, const sim_model *m,
	const int32_t *knobs, char *buf, size_t size)
{
	struct tiling g;
	int l, n = 0;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	read_tiling(m, t, knobs, &g);
	dse_appendf(buf, size, "{\n  \"kernel%d\": {\n    \"reduction\": [",
		t->space_time);
	/* The pass asks about every loop it looks at that is not parallel,
	 * before its stride test: the loops outside the band (which carry
	 * the reduction in the kernels dse takes) and the band's time loops
	 * that are not latency loops.  dse vectorises only a reduction, so
	 * every such loop is a reduction when the kernel has one.
	 */
	for (l = t->n_loops - 1; l >= t->band; l--)
		if (t->extent[l] > 1)
			dse_appendf(buf, size, "%s\"%s\"", n++ ? ", " : "",
				t->reduction >= 0 ? "y" : "n");
	for (l = 0; l < t->band; l++) {
		int i, latency = 0;

		for (i = 0; i < t->n_latency; i++)
			latency |= t->latency_loop[i] == l;
		if (poly_template_is_space(t, l) || latency ||
		    g.t1[l] <= 1)
			continue;
		dse_appendf(buf, size, "%s\"%s\"", n++ ? ", " : "",
			t->reduction >= 0 ? "y" : "n");
	}
	dse_appendf(buf, size, "]\n  }\n}\n");
}
