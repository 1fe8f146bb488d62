/* The analytic model, the cycle simulation and the polyhedral front end
 * agree whatever order a kernel's loops are written in.  Run as
 * "test_agree <group>"; the groups are listed in main().
 *
 * orders: every example kernel of one statement, written in every loop
 *   order (a sample of them for five and six loops), each space-time
 *   candidate with random legal designs named by loop: a design is the
 *   same design in every written order that gives the same tile-loop order
 *   (AutoSA's: the space loops outermost, then the others as written), and
 *   there both models give the same cycles to the cycle.  A design whose
 *   order differs (a transposed array, a 1-D array whose time loops run
 *   the other way) is another design and is compared with itself only.
 * gemm: PolyBench's gemm (C *= beta, then C += alpha A B with the loops
 *   i, k, j) and the same kernel written i, j, k, at a tenth of PolyBench's
 *   large size, on the design the default sweep ranked first: the same
 *   cycles in both orders and the analytic model within 2% of the full
 *   simulation (the output used to be drained after every tile in the
 *   order i, k, j: ten times the cycles).
 * property: random designs (tests/support/designs.h: a kernel of the
 *   examples with random sizes in a random written order, a random
 *   candidate, data type, board and legal design): every legal design
 *   says what bounds it, and where DRAM bandwidth does not decide the
 *   analytic model is within 2% of the full simulation on most designs
 *   and never far from it (the figures below; bench_agree prints the
 *   distribution over more designs).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/cycle.h"
#include "tests/support/designs.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Designs drawn per candidate, and written orders tried per kernel at
 * most (all of them up to four loops).
 */
#define DESIGNS_PER_CANDIDATE 3
#define MAX_ORDERS 24

/* The example kernels at sizes whose full simulation takes milliseconds. */
static const struct order_kernel {
	const char *name;
	int64_t values[POLY_MAX_PARAMS];
} order_kernels[] = {
	{ "mm", { 24, 16, 32 } },
	{ "fir", { 48, 8 } },
	{ "gnn-agg", { 32, 16, 8 } },
	{ "mttkrp", { 16, 8, 8, 8 } },
	{ "ttmc", { 8, 8, 4, 4, 4 } },
	{ "conv", { 8, 4, 6, 6, 3, 3 } },
};

/* One evaluated design: which candidate (by its space loops' names) and
 * which drawn design, the tile-loop order it ran in, and both models'
 * cycles.
 */
struct outcome {
	char space[64];
	int design;
	char order[160];	/* the loop order (up to 127 characters) and its band */
	uint64_t analytic, full;
	char written[DESIGN_TEXT_LEN];
};

/* "name,name" of the loops l of t in [from, to). */
static void names(const poly_template *t, int from, int to, char *buf,
	size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int l = from; l < to && len + 1 < size; l++)
		len += (size_t) snprintf(buf + len, size - len, "%s%s",
			l > from ? "," : "", t->loop[l]);
}

static void swap(int *v, int i, int j)
{
	int x = v[i];

	v[i] = v[j];
	v[j] = x;
}

/* The next permutation of perm[0..n) in lexicographic order; 0 after the
 * last.
 */
static int next_perm(int *perm, int n)
{
	int i = n - 2, j = n - 1;

	while (i >= 0 && perm[i] > perm[i + 1])
		i--;
	if (i < 0)
		return 0;
	while (perm[j] < perm[i])
		j--;
	swap(perm, i, j);
	for (int a = i + 1, b = n - 1; a < b; a++, b--)
		swap(perm, a, b);
	return 1;
}

/* The written orders of a kernel of n loops: all of them up to
 * MAX_ORDERS, else the identity and MAX_ORDERS - 1 others.
 */
static int orders_of(int n, uint64_t *state, int perms[][POLY_MAX_LOOPS])
{
	int perm[POLY_MAX_LOOPS], count = 0;

	for (int i = 0; i < n; i++)
		perm[i] = i;
	do {
		memcpy(perms[count++], perm, sizeof(perm));
	} while (count < MAX_ORDERS && next_perm(perm, n));
	if (count < MAX_ORDERS || !next_perm(perm, n))
		return count;
	/* Too many to try them all: each of the others moves one or two
	 * loops elsewhere and keeps the rest in order, so that candidates
	 * whose space loops are the moved ones keep their tile-loop order
	 * (and have pairs to compare), while the rest change theirs.
	 */
	for (count = 1; count < MAX_ORDERS; count++) {
		int *q = perms[count];

		for (int i = 0; i < n; i++)
			q[i] = i;
		for (int move = 0; move <= count % 2; move++) {
			int from = (int) (design_random(state) % (uint64_t) n);
			int to = (int) (design_random(state) % (uint64_t) n);

			for (; from < to; from++)
				swap(q, from, from + 1);
			for (; from > to; from--)
				swap(q, from, from - 1);
		}
	}
	return count;
}

static sim_model *model_of(const poly_template *t)
{
	sim_options opt = { .io_network = 1, .double_buffer = 1 };
	dse_error err;
	sim_model *m;

	dse_error_clear(&err);
	m = sim_model_alloc(t, arch_board_find("u250"),
		arch_dtype_find("fp32"), &opt, &err);
	if (!m)
		fail_msg("sim_model_alloc: %s", err.msg);
	return m;
}

/* Both models' cycles of a design. */
static void both(const sim_model *m, const int32_t *knobs, uint64_t *an,
	uint64_t *full)
{
	sim_cycle_report r;
	sim_metrics e;
	dse_error err;

	dse_error_clear(&err);
	sim_eval(m, knobs, &e);
	if (e.status != SIM_OK)
		fail_msg("a drawn design is illegal: %s",
			sim_status_name(e.status));
	if (sim_simulate(m, knobs, SIM_MODEL_FULL, NULL, &r, &err) !=
	    dse_stat_ok)
		fail_msg("sim_simulate: %s", err.msg);
	*an = e.cycles;
	*full = r.metrics.cycles;
}

/* The candidate of "a" whose space loops have the names "space" (as a
 * set), or -1.
 */
static int find_candidate(const poly_analysis *a, const char *space)
{
	for (int c = 0; c < a->n_candidates; c++) {
		const poly_candidate *cand = &a->cand[c];
		int found = 0, len = 0;

		for (int s = 0; s < cand->n_space; s++) {
			const char *n = a->loop[cand->space[s]];
			char key[POLY_NAME_LEN + 2];

			snprintf(key, sizeof(key), ",%s,", n);
			found += strstr(space, key) != NULL;
			len += (int) strlen(n) + 1;
		}
		if (found == cand->n_space && len + 1 == (int) strlen(space))
			return c;
	}
	return -1;
}

/* The space loops of candidate c as ",i,j," (sorted by name), the key a
 * candidate keeps in every written order.
 */
static void space_key(const poly_analysis *a, const poly_candidate *c,
	char *buf, size_t size)
{
	const char *n[POLY_MAX_SPACE];
	size_t len = 0;

	for (int s = 0; s < c->n_space; s++)
		n[s] = a->loop[c->space[s]];
	for (int i = 0; i < c->n_space; i++)
		for (int j = i + 1; j < c->n_space; j++)
			if (strcmp(n[j], n[i]) < 0) {
				const char *x = n[i];

				n[i] = n[j];
				n[j] = x;
			}
	snprintf(buf, size, ",");
	for (int s = 0; s < c->n_space; s++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s,", n[s]);
	}
}

/* Evaluates the designs of every candidate of the kernel written in
 * order "perm" (designs[c][d] drawn on the identity order's models
 * base[c]) into out; returns the number of outcomes.
 */
static int run_order(const struct order_kernel *ok, const int *perm,
	const poly_analysis *base, sim_model **bm,
	int32_t designs[][DESIGNS_PER_CANDIDATE][SIM_MAX_KNOBS],
	struct outcome *out)
{
	const example_kernel *k = example_kernel_find(ok->name);
	permuted_kernel pk;
	poly_analysis *a;
	dse_error err;
	int n = 0;

	if (example_kernel_permute(k, ok->values, perm, &pk))
		fail_msg("%s: cannot write the loops in another order",
			ok->name);
	dse_error_clear(&err);
	a = poly_analyze(&pk.desc, &err);
	if (!a)
		fail_msg("%s: %s", pk.domain, err.msg);
	for (int c = 0; c < base->n_candidates; c++) {
		char key[64], w[128];
		poly_template t;
		sim_model *m;
		int pc;

		space_key(base, &base->cand[c], key, sizeof(key));
		pc = find_candidate(a, key);
		if (pc < 0 || poly_template_from(a, pc, &t, &err))
			continue;
		m = model_of(&t);
		names(&t, 0, t.n_loops, w, sizeof(w));
		for (int d = 0; d < DESIGNS_PER_CANDIDATE; d++) {
			int32_t knobs[SIM_MAX_KNOBS];
			struct outcome *o = &out[n];

			if (designs[c][d][0] == 0 ||
			    design_by_name(bm[c], designs[c][d], m, knobs))
				continue;
			snprintf(o->space, sizeof(o->space), "%s", key);
			o->design = d;
			snprintf(o->order, sizeof(o->order), "%s band %d", w,
				t.band);
			snprintf(o->written, sizeof(o->written), "%s",
				pk.domain);
			both(m, knobs, &o->analytic, &o->full);
			n++;
		}
		sim_model_free(m);
	}
	poly_analysis_free(a);
	return n;
}

/* The designs of the identity order: DESIGNS_PER_CANDIDATE per
 * candidate (a first knob of 0 marks a candidate without one).
 */
static poly_analysis *draw_base(const struct order_kernel *ok,
	uint64_t *state, sim_model **bm,
	int32_t designs[][DESIGNS_PER_CANDIDATE][SIM_MAX_KNOBS])
{
	const example_kernel *k = example_kernel_find(ok->name);
	poly_kernel_desc d = example_kernel_desc(k, ok->values);
	design_caps caps = { 512, 64, 1 };
	dse_error err;
	poly_analysis *a;

	dse_error_clear(&err);
	a = poly_analyze(&d, &err);
	if (!a)
		fail_msg("%s: %s", ok->name, err.msg);
	for (int c = 0; c < a->n_candidates; c++) {
		poly_template t;

		if (poly_template_from(a, c, &t, &err))
			fail_msg("%s: %s", ok->name, err.msg);
		bm[c] = model_of(&t);
		for (int i = 0; i < DESIGNS_PER_CANDIDATE; i++)
			if (design_draw(bm[c], &t, &caps, state, designs[c][i]))
				designs[c][i][0] = 0;
	}
	return a;
}

/* Every pair of outcomes of the same candidate, design and tile-loop
 * order gives the same cycles.  Returns the pairs compared.
 */
static int compare_all(const char *kernel, const struct outcome *o, int n)
{
	int pairs = 0;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			if (o[i].design != o[j].design ||
			    strcmp(o[i].space, o[j].space) ||
			    strcmp(o[i].order, o[j].order))
				continue;
			if (o[i].analytic != o[j].analytic ||
			    o[i].full != o[j].full)
				fail_msg("%s space %s design %d order %s: "
					"analytic %llu / %llu, full %llu / "
					"%llu\n  %s\n  %s", kernel, o[i].space,
					o[i].design, o[i].order,
					(unsigned long long) o[i].analytic,
					(unsigned long long) o[j].analytic,
					(unsigned long long) o[i].full,
					(unsigned long long) o[j].full,
					o[i].written, o[j].written);
			pairs++;
		}
	return pairs;
}

static void test_orders(void **state)
{
	uint64_t seed = 18;
	int total = 0;

	(void) state;
	for (size_t i = 0; i < N_ELEMS(order_kernels); i++) {
		const struct order_kernel *ok = &order_kernels[i];
		static int32_t designs[POLY_MAX_CANDIDATES]
			[DESIGNS_PER_CANDIDATE][SIM_MAX_KNOBS];
		static struct outcome out[MAX_ORDERS * POLY_MAX_CANDIDATES *
			DESIGNS_PER_CANDIDATE];
		sim_model *bm[POLY_MAX_CANDIDATES] = { NULL };
		int perms[MAX_ORDERS][POLY_MAX_LOOPS], n = 0, pairs;
		char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
		poly_analysis *base = draw_base(ok, &seed, bm, designs);
		int n_orders = orders_of(example_kernel_loops(
			example_kernel_find(ok->name), loop), &seed, perms);

		for (int p = 0; p < n_orders; p++)
			n += run_order(ok, perms[p], base, bm, designs,
				out + n);
		pairs = compare_all(ok->name, out, n);
		/* Every kernel has designs that several written orders
		 * share: the test compares something for each.
		 */
		if (pairs < base->n_candidates)
			fail_msg("%s: only %d pairs of the same design in "
				"different written orders", ok->name, pairs);
		total += pairs;
		for (int c = 0; c < base->n_candidates; c++)
			sim_model_free(bm[c]);
		poly_analysis_free(base);
	}
	print_message("%d pairs of written orders agree\n", total);
}

/* PolyBench's gemm with its initialisation, in the order PolyBench writes
 * it (i, k, j) and in the order i, j, k.
 */
static const char gemm_reads[] =
	"[NI,NJ,NK] -> { S0[i,j] -> C[i,j]; S0[i,j] -> beta[]; "
	"S1[%s] -> alpha[]; S1[%s] -> A[i,k]; S1[%s] -> B[k,j]; "
	"S1[%s] -> C[i,j] }";

static poly_template gemm_template(const char *loops, const char *sched)
{
	char domain[512], reads[512], writes[256], schedule[256];
	const char *param[3] = { "NI", "NJ", "NK" };
	const int64_t value[3] = { 100, 110, 120 };
	poly_kernel_desc d;
	poly_template t;
	dse_error err;

	snprintf(domain, sizeof(domain), "[NI,NJ,NK] -> { S0[i,j] : "
		"0 <= i < NI and 0 <= j < NJ; S1[%s] : 0 <= i < NI and "
		"0 <= j < NJ and 0 <= k < NK }", loops);
	snprintf(reads, sizeof(reads), gemm_reads, loops, loops, loops,
		loops);
	snprintf(writes, sizeof(writes), "[NI,NJ,NK] -> { S0[i,j] -> C[i,j]; "
		"S1[%s] -> C[i,j] }", loops);
	snprintf(schedule, sizeof(schedule), "[NI,NJ,NK] -> { S0[i,j] -> "
		"[i,0,j,0]; S1[%s] -> [%s] }", loops, sched);
	memset(&d, 0, sizeof(d));
	d.name = "gemm";
	d.domain = domain;
	d.reads = reads;
	d.writes = writes;
	d.schedule = schedule;
	d.reduction = "k";
	d.n_params = 3;
	for (int p = 0; p < 3; p++) {
		d.param_name[p] = param[p];
		d.param_value[p] = value[p];
	}
	dse_error_clear(&err);
	if (poly_template_build(&d, -1, &t, &err) != dse_stat_ok)
		fail_msg("gemm %s: %s", loops, err.msg);
	return t;
}

static void test_gemm(void **state)
{
	static const struct {
		const char *loops, *sched;
	} orders[] = {
		{ "i,k,j", "i,1,k,j" },
		{ "i,j,k", "i,1,j,k" },
	};
	/* The sweep's first design at the large size, array_part
	 * i=200, j=100, k=16, latency i=8, j=4, simd 1, scaled down by ten
	 * on i and j: i=20, j=10, k=16 (k pads 120 to 128).
	 */
	static const int32_t knobs[] = { 20, 10, 16, 4, 2, 1, 0, 1 };
	uint64_t an[2], full[2];

	(void) state;
	for (int i = 0; i < 2; i++) {
		poly_template t = gemm_template(orders[i].loops,
			orders[i].sched);
		sim_model *m = model_of(&t);
		char w[64];

		names(&t, 0, t.n_loops, w, sizeof(w));
		if (strcmp(w, "i,j,k") || sim_model_n_knobs(m) != 8)
			fail_msg("gemm %s: loops %s, %d knobs", orders[i].loops,
				w, sim_model_n_knobs(m));
		both(m, knobs, &an[i], &full[i]);
		if (fabs((double) an[i] - (double) full[i]) >
		    0.02 * (double) full[i])
			fail_msg("gemm %s: analytic %llu, full %llu",
				orders[i].loops, (unsigned long long) an[i],
				(unsigned long long) full[i]);
		sim_model_free(m);
	}
	if (an[0] != an[1] || full[0] != full[1])
		fail_msg("gemm: analytic %llu / %llu, full %llu / %llu",
			(unsigned long long) an[0], (unsigned long long) an[1],
			(unsigned long long) full[0],
			(unsigned long long) full[1]);
}

/* The property test's draws, and what it holds the analytic model to
 * where DRAM does not decide.  The goal is 2% on 95% of the designs
 * (bench_agree prints how far the model is from it: 96.5% over 1,957
 * designs); the test keeps the model from sliding back: 92% of its 150
 * designs within 2% (three standard deviations of a sample of 150 below
 * the benchmark's share), a median error
 * below 0.5% and none beyond 25%, where a model that ignores the order
 * of the tiles or the time a drain waits misses by 10x.
 */
#define PROPERTY_DESIGNS 150
#define PROPERTY_SHARE 0.92
#define PROPERTY_MEDIAN 0.005
#define PROPERTY_WORST 0.25

static int by_value(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* One drawn case: its relative error into *err (analytic against full);
 * returns 1 when DRAM decides it, 0 when not, -1 when it has no design.
 */
static int property_case(agree_case *c, double *err)
{
	sim_metrics e;
	uint64_t an, full;

	sim_eval(c->model, c->knobs, &e);
	if (e.status != SIM_OK)
		return -1;
	if (e.bound_by <= SIM_BOUND_NONE || e.bound_by >= SIM_N_BOUNDS ||
	    !(e.bound_share > 0 && e.bound_share <= 1) ||
	    ((e.bound_by == SIM_BOUND_IO || e.bound_by == SIM_BOUND_DRAIN) !=
	     (e.bound_group >= 0 && e.bound_group < c->tmpl.n_groups)))
		fail_msg("%s: bound %d share %g group %d", c->label,
			e.bound_by, e.bound_share, e.bound_group);
	both(c->model, c->knobs, &an, &full);
	*err = fabs((double) an - (double) full) / (double) full;
	return e.bound_by == SIM_BOUND_DRAM;
}

static void test_property(void **state)
{
	design_caps caps = { 2048, 128, 0 };
	uint64_t seed = 1818;
	double err[PROPERTY_DESIGNS], worst = 0;
	int n = 0, within = 0, draws = 0;

	(void) state;
	while (n < PROPERTY_DESIGNS && draws++ < 20 * PROPERTY_DESIGNS) {
		agree_case c;
		dse_error e;
		int r;

		dse_error_clear(&e);
		r = agree_case_draw(&seed, &caps, &c, &e);
		if (r < 0)
			fail_msg("%s: %s", c.label, e.msg);
		if (r == 0 && property_case(&c, &err[n]) == 0) {
			within += err[n] <= 0.02;
			if (err[n] > worst)
				worst = err[n];
			if (err[n] > PROPERTY_WORST)
				fail_msg("%s: analytic %.1f%% off the full "
					"simulation", c.label, 100 * err[n]);
			n++;
		}
		agree_case_clear(&c);
	}
	if (n < PROPERTY_DESIGNS / 2)
		fail_msg("only %d designs where DRAM does not decide", n);
	qsort(err, (size_t) n, sizeof(err[0]), by_value);
	print_message("%d designs: median %.2f%%, %.1f%% within 2%%, worst "
		"%.2f%%\n", n, 100 * err[n / 2], 100.0 * within / n,
		100 * worst);
	if (within < PROPERTY_SHARE * n || err[n / 2] > PROPERTY_MEDIAN)
		fail_msg("the analytic model is within 2%% of the full "
			"simulation on %d of %d designs, median %.2f%%", within,
			n, 100 * err[n / 2]);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest orders[] = {
		cmocka_unit_test(test_orders),
	};
	const struct CMUnitTest gemm[] = {
		cmocka_unit_test(test_gemm),
	};
	const struct CMUnitTest property[] = {
		cmocka_unit_test(test_property),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

#define RUN(g) \
	if (all || strcmp(group, #g) == 0) { \
		failed += cmocka_run_group_tests_name("sim.agree." #g, g, \
			NULL, NULL); \
		ran = 1; \
	}
	RUN(orders)
	RUN(gemm)
	RUN(property)
#undef RUN
	if (!ran) {
		fprintf(stderr, "test_agree: no group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
