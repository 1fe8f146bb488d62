/* Permuted example kernels and random designs (see designs.h). */
#include <stdio.h>
#include <string.h>

#include "designs.h"

/* The statement's tuple in a domain string: its name and loop list
 * ("S0" and "i,j,k" of "[M] -> { S0[i,j,k] : ... }").  Returns the
 * number of loops, or -1 when the domain has several statements or no
 * tuple.
 */
static int statement_tuple(const char *domain, char *name, size_t nsize,
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN])
{
	const char *p = strchr(domain, '{'), *open, *close;
	int n = 0;

	if (!p || strchr(p, ';'))
		return -1;
	p++;
	while (*p == ' ')
		p++;
	open = strchr(p, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || (size_t) (open - p) >= nsize)
		return -1;
	snprintf(name, nsize, "%.*s", (int) (open - p), p);
	for (p = open + 1; p < close && n < POLY_MAX_LOOPS; n++) {
		size_t len = strcspn(p, ",]");

		if (len >= POLY_NAME_LEN)
			return -1;
		snprintf(loop[n], POLY_NAME_LEN, "%.*s", (int) len, p);
		p += len + 1;
	}
	return n;
}

int example_kernel_loops(const example_kernel *k,
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN])
{
	char name[POLY_NAME_LEN];

	return statement_tuple(k->domain, name, sizeof(name), loop);
}

/* Copies "src" into dst (of DESIGN_TEXT_LEN bytes) with every "from"
 * replaced by "to".  Returns 0, or -1 when the result does not fit.
 */
static int replace_all(char *dst, const char *src, const char *from,
	const char *to)
{
	size_t n = 0, lf = strlen(from), lt = strlen(to);
	const char *hit;

	while ((hit = strstr(src, from)) != NULL) {
		size_t pre = (size_t) (hit - src);

		if (n + pre + lt >= DESIGN_TEXT_LEN)
			return -1;
		memcpy(dst + n, src, pre);
		memcpy(dst + n + pre, to, lt);
		n += pre + lt;
		src = hit + lf;
	}
	if (n + strlen(src) >= DESIGN_TEXT_LEN)
		return -1;
	strcpy(dst + n, src);
	return 0;
}

int example_kernel_permute(const example_kernel *k, const int64_t *values,
	const int *perm, permuted_kernel *out)
{
	char name[POLY_NAME_LEN], from[DESIGN_TEXT_LEN], to[DESIGN_TEXT_LEN];
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	size_t lf, lt;
	int n = statement_tuple(k->domain, name, sizeof(name), loop), seen = 0;

	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return -1;
	lf = (size_t) snprintf(from, sizeof(from), "%s[", name);
	lt = lf;
	memcpy(to, from, lf + 1);
	for (int i = 0; i < n; i++) {
		if (perm[i] < 0 || perm[i] >= n || (seen >> perm[i] & 1))
			return -1;
		seen |= 1 << perm[i];
		lf += (size_t) snprintf(from + lf, sizeof(from) - lf, "%s%s",
			loop[i], i + 1 < n ? "," : "]");
		lt += (size_t) snprintf(to + lt, sizeof(to) - lt, "%s%s",
			loop[perm[i]], i + 1 < n ? "," : "]");
		snprintf(out->loop[i], POLY_NAME_LEN, "%s", loop[perm[i]]);
	}
	out->n_loops = n;
	if (replace_all(out->domain, k->domain, from, to) ||
	    replace_all(out->reads, k->reads, from, to) ||
	    replace_all(out->writes, k->writes, from, to))
		return -1;
	out->desc = example_kernel_desc(k, values);
	out->desc.domain = out->domain;
	out->desc.reads = out->reads;
	out->desc.writes = out->writes;
	return 0;
}

uint64_t design_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random divisor of n (n >= 1), each divisor alike. */
static int64_t random_divisor(int64_t n, uint64_t *state)
{
	int64_t div[256];
	int nd = 0;

	for (int64_t d = 1; d <= n && nd < 256; d++)
		if (n % d == 0)
			div[nd++] = d;
	return div[design_random(state) % (uint64_t) nd];
}

/* A tile of a loop of "extent": mostly a divisor, one time in five any
 * size (the last tile then padded).
 */
static int64_t random_tile(int64_t extent, uint64_t *state)
{
	if (design_random(state) % 5 == 0)
		return 1 + (int64_t) (design_random(state) %
			(uint64_t) extent);
	return random_divisor(extent, state);
}

/* One draw: the knobs in the model's order, each range following from
 * the knobs before it.  Returns the number of tiles and sets *n_pe.
 */
static int64_t draw_once(const sim_model *m, const poly_template *t,
	uint64_t *state, int32_t *knobs, int64_t *n_pe)
{
	int64_t t1[POLY_MAX_LOOPS], lat[POLY_MAX_LOOPS], tiles = 1, pe;
	int n = sim_model_n_knobs(m);

	for (int l = 0; l < POLY_MAX_LOOPS; l++) {
		t1[l] = l < t->n_loops ? t->extent[l] : 1;
		lat[l] = 1;
	}
	for (int k = 0; k < n; k++) {
		const char *kind = sim_model_knob_kind(m, k);
		int l = sim_model_knob_loop(m, k);
		int64_t v = 1;

		if (!strcmp(kind, "array_part")) {
			v = t1[l] = random_tile(t->extent[l], state);
			tiles *= (t->extent[l] + v - 1) / v;
		} else if (!strcmp(kind, "array_part_L2")) {
			int64_t r = t->extent[l] / t1[l];

			v = t1[l] * (r > 1 ? 1 + (int64_t) (design_random(
				state) % (uint64_t) r) : 1);
		} else if (!strcmp(kind, "latency")) {
			v = lat[l] = random_divisor(t1[l], state);
		} else if (!strcmp(kind, "simd")) {
			pe = poly_template_is_space(t, l) ? lat[l] : t1[l];
			v = random_divisor(pe, state);
			while (v > 16)
				v = random_divisor(v, state);
		} else {
			v = (int64_t) (design_random(state) % 2);
		}
		knobs[k] = (int32_t) v;
	}
	*n_pe = 1;
	for (int s = 0; s < t->n_space; s++)
		*n_pe *= t1[t->space_loop[s]] / lat[t->space_loop[s]];
	return tiles;
}

int design_draw(const sim_model *m, const poly_template *t,
	const design_caps *caps, uint64_t *state, int32_t *knobs)
{
	for (int tries = 0; tries < 500; tries++) {
		sim_metrics out;
		int64_t n_pe, tiles = draw_once(m, t, state, knobs, &n_pe);

		if (tiles > caps->max_tiles || n_pe > caps->max_pe)
			continue;
		sim_eval(m, knobs, &out);
		if (out.status == SIM_OK)
			return 0;
	}
	return -1;
}

int design_by_name(const sim_model *from, const int32_t *kf,
	const sim_model *to, int32_t *kt)
{
	int nf = sim_model_n_knobs(from), nt = sim_model_n_knobs(to);

	for (int k = 0; k < nt; k++) {
		int f;

		for (f = 0; f < nf; f++)
			if (!strcmp(sim_model_knob_name(from, f),
				    sim_model_knob_name(to, k)))
				break;
		if (f == nf)
			return -1;
		kt[k] = kf[f];
	}
	return 0;
}

/* Small sizes of each example's parameters: every value of a row is a
 * choice for its parameter (0 ends a row).  Small enough that a full
 * cycle simulation of any design takes milliseconds, varied enough that
 * tiles divide, pad and reach the whole loop.
 */
static const struct {
	const char *kernel;
	int64_t choice[POLY_MAX_PARAMS][5];
} sizes[] = {
	{ "mm", { { 16, 24, 32, 48, 64 }, { 16, 24, 32, 48, 64 },
		  { 16, 24, 32, 48, 64 } } },
	{ "mm-init", { { 16, 32, 48 }, { 16, 32, 48 }, { 16, 32, 48 } } },
	{ "conv", { { 4, 8, 16 }, { 2, 4, 8 }, { 4, 6, 8 }, { 4, 6, 8 },
		    { 1, 3 }, { 1, 3 } } },
	{ "mttkrp", { { 8, 16, 32 }, { 8, 16, 32 }, { 4, 8, 16 },
		      { 4, 8, 16 } } },
	{ "ttmc", { { 4, 8 }, { 4, 8 }, { 4, 8 }, { 4, 8 }, { 4, 8 } } },
	{ "fir", { { 32, 64, 128 }, { 4, 8, 16 } } },
	{ "gnn-agg", { { 32, 64 }, { 8, 16, 32 }, { 8, 16 } } },
};

/* A random choice among the nonzero values of a row. */
static int64_t pick(const int64_t *row, uint64_t *state)
{
	int n = 0;

	while (n < 5 && row[n])
		n++;
	return n ? row[design_random(state) % (uint64_t) n] : 1;
}

/* A random permutation of n loops (Fisher-Yates). */
static void shuffle(int *perm, int n, uint64_t *state)
{
	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int) (design_random(state) % (uint64_t) (i + 1));
		int x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
}

/* The kernel of a case: a random example with random sizes, its loops
 * in a random order (an example of several statements keeps its own).
 */
static int draw_kernel(uint64_t *state, agree_case *c)
{
	int which = (int) (design_random(state) % (sizeof(sizes) /
		sizeof(sizes[0])));
	const example_kernel *k = example_kernel_find(sizes[which].kernel);
	int64_t values[POLY_MAX_PARAMS];
	int perm[POLY_MAX_LOOPS];
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	size_t len;
	int n;

	for (int p = 0; p < k->n_params; p++)
		values[p] = pick(sizes[which].choice[p], state);
	n = example_kernel_loops(k, loop);
	shuffle(perm, n > 0 ? n : 0, state);
	if (n <= 0 || example_kernel_permute(k, values, perm, &c->pk)) {
		memset(&c->pk, 0, sizeof(c->pk));
		c->pk.desc = example_kernel_desc(k, values);
	}
	len = (size_t) snprintf(c->label, sizeof(c->label), "%s", k->name);
	for (int p = 0; p < k->n_params && len < sizeof(c->label); p++)
		len += (size_t) snprintf(c->label + len, sizeof(c->label) - len,
			"%s%s=%lld", p ? "," : " ", k->param[p],
			(long long) values[p]);
	for (int i = 0; i < c->pk.n_loops && len < sizeof(c->label); i++)
		len += (size_t) snprintf(c->label + len, sizeof(c->label) - len,
			"%s%s", i ? "," : " [", c->pk.loop[i]);
	if (c->pk.n_loops && len < sizeof(c->label))
		snprintf(c->label + len, sizeof(c->label) - len, "]");
	return 0;
}

int agree_case_draw(uint64_t *state, const design_caps *caps,
	agree_case *c, dse_error *err)
{
	static const char *const dtypes[] = { "fp32", "fp16", "int16", "int8" };
	poly_analysis *a;
	sim_options opt;
	const char *dtype;
	size_t len;
	int st;

	memset(c, 0, sizeof(*c));
	draw_kernel(state, c);
	a = poly_analyze(&c->pk.desc, err);
	if (!a)
		return -1;
	st = (int) (design_random(state) % (uint64_t) a->n_candidates);
	if (poly_template_from(a, st, &c->tmpl, err) != dse_stat_ok) {
		poly_analysis_free(a);
		return -1;
	}
	poly_analysis_free(a);
	/* Every option not drawn below keeps its default (0), the data
	 * packing bounds included.
	 */
	memset(&opt, 0, sizeof(opt));
	opt.array_part_L2 = design_random(state) % 4 == 0 && !caps->no_l2;
	opt.io_network = 1;
	opt.double_buffer = 1;
	dtype = dtypes[design_random(state) % 4];
	c->board = *arch_board_at((int) (design_random(state) %
		(uint64_t) arch_board_count()));
	c->model = sim_model_alloc(&c->tmpl, &c->board,
		arch_dtype_find(dtype), &opt, err);
	if (!c->model)
		return -1;
	len = strlen(c->label);
	snprintf(c->label + len, sizeof(c->label) - len, " st%d %s %s%s", st,
		dtype, c->board.name, opt.array_part_L2 ? " L2" : "");
	return design_draw(c->model, &c->tmpl, caps, state, c->knobs) ? 1 : 0;
}

void agree_case_clear(agree_case *c)
{
	c->model = sim_model_free(c->model);
}
