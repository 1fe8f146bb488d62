/* The heuristic strategies (random, NSGA-II, simulated annealing) on
 * islands: the neighbourhood operators keep divisor chains, NSGA-II ranks a
 * hand-made table as Deb's rules say, every strategy gives the same front
 * on any number of ranks (MPI_COMM_WORLD against MPI_COMM_SELF) and threads
 * (ctest runs 1, 2, 4 ranks x 1, 2 threads), spends exactly its budget,
 * stops on its time budget, finds most of the exhaustive front's
 * hypervolume with 5% of the evaluations, and resumes from any checkpoint
 * to exactly the front of an uninterrupted run.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <mpi.h>

#include "search/heuristic.h"
#include "search/search.h"
#include "tests/support/mm_kernel.h"

/* --- a matrix multiply space with tiling chains --------------------------- */

struct fixture {
	poly_template t;
	sim_model *model;
	search_space *space;
	search_evaluator ev;
};

/* array_part: the divisors of the loop's extent; latency and simd 1..8.
 * Knobs of one loop form its chain: array_part, then latency, then simd
 * (simd divides what a PE runs: the latency when the loop has one, else
 * the tile).
 */
static void fixture_init(struct fixture *f, int64_t m, int64_t n, int64_t k)
{
	int i, nk, level[POLY_MAX_LOOPS] = { 0 };

	f->t = mm_kernel_template(m, n, k);
	f->model = sim_model_alloc(&f->t, arch_board_find("u250"),
		arch_dtype_find("fp32"), NULL, NULL);
	assert_non_null(f->model);
	nk = sim_model_n_knobs(f->model);
	f->space = search_space_alloc(nk);
	for (i = 0; i < nk; i++) {
		int loop = sim_model_knob_loop(f->model, i), nv = 0;
		int64_t v[64], e = f->t.extent[loop], d;

		if (!strcmp(sim_model_knob_kind(f->model, i), "array_part")) {
			for (d = 1; d <= e; d++)
				if (e % d == 0)
					v[nv++] = d;
		} else {
			for (d = 1; d <= 8; d++)
				v[nv++] = d;
		}
		assert_int_equal(search_space_set_knob(f->space, i,
			sim_model_knob_name(f->model, i), v, nv, NULL),
			dse_stat_ok);
		assert_int_equal(search_space_set_chain(f->space, i, loop,
			level[loop]++, e, NULL), dse_stat_ok);
	}
	f->ev = search_evaluator_sim(f->model);
}

static void fixture_clear(struct fixture *f)
{
	search_space_free(f->space);
	sim_model_free(f->model);
}

static void base_options(search_options *opt, int strategy)
{
	memset(opt, 0, sizeof(*opt));
	opt->n_obj = 2;
	opt->objectives[0] = SIM_M_LATENCY;
	opt->objectives[1] = SIM_M_DSP;
	opt->n_constraints = 1;
	opt->constraints[0].metric = SIM_M_BRAM18K;
	opt->constraints[0].max = 2000;
	opt->strategy = strategy;
	opt->seed = 11;
	opt->islands = 5;
	opt->population = 16;
	opt->migrate_every = 3;
	opt->migrants = 2;
}

static const int strategies[] = { SEARCH_RANDOM, SEARCH_GENETIC,
	SEARCH_ANNEAL };

static int rank_of(MPI_Comm comm)
{
	int r;

	MPI_Comm_rank(comm, &r);
	return r;
}

static void assert_same_front(const search_front *a, const search_front *b)
{
	size_t i;

	assert_int_equal(search_front_size(a), search_front_size(b));
	for (i = 0; i < search_front_size(a); i++) {
		const search_point *p = search_front_at(a, i);
		const search_point *q = search_front_at(b, i);

		assert_int_equal(p->index, q->index);
		assert_memory_equal(p->knobs, q->knobs, sizeof(p->knobs));
		assert_int_equal(p->metrics.cycles, q->metrics.cycles);
	}
}

static void assert_same_counts(const search_result *a,
	const search_result *b)
{
	int s;

	assert_int_equal(a->evaluated, b->evaluated);
	assert_int_equal(a->valid, b->valid);
	assert_int_equal(a->over_constraint, b->over_constraint);
	for (s = 0; s < SIM_N_STATUS; s++)
		assert_int_equal(a->status_count[s], b->status_count[s]);
	assert_int_equal(a->generations, b->generations);
}

static void result_clear(search_result *r)
{
	search_front_free(r->front);
	search_cloud_free(r->cloud);
}

/* --- operators ------------------------------------------------------------ */

/* A hand-made space: a chain of three levels under top 48, a chain of two
 * under a top of 30 that its level 0 need not divide, and a plain knob.
 */
static search_space *operator_space(void)
{
	static const int64_t a0[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 48 };
	static const int64_t a1[] = { 1, 2, 4, 8, 16 };
	static const int64_t a2[] = { 1, 2, 3, 4 };
	static const int64_t b0[] = { 1, 2, 4, 5, 7, 8, 10, 15, 16, 30 };
	static const int64_t b1[] = { 1, 2, 5 };
	static const int64_t c0[] = { 0, 1 };
	search_space *s = search_space_alloc(6);

	assert_int_equal(search_space_set_knob(s, 0, "a0", a0, 10, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 1, "b0", b0, 10, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 2, "a1", a1, 5, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 3, "c", c0, 2, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 4, "a2", a2, 4, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 5, "b1", b1, 3, NULL), 0);
	assert_int_equal(search_space_set_chain(s, 0, 0, 0, 48, NULL), 0);
	assert_int_equal(search_space_set_chain(s, 2, 0, 1, 48, NULL), 0);
	assert_int_equal(search_space_set_chain(s, 4, 0, 2, 48, NULL), 0);
	assert_int_equal(search_space_set_chain(s, 1, 7, 0, 30, NULL), 0);
	assert_int_equal(search_space_set_chain(s, 5, 7, 1, 30, NULL), 0);
	return s;
}

static int is_prime(int64_t p)
{
	int64_t q;

	if (p < 2)
		return 0;
	for (q = 2; q * q <= p; q++)
		if (p % q == 0)
			return 0;
	return 1;
}

/* What one move may do on a legal point: the knobs that changed all
 * belong to one chain and changed by the same prime factor (all
 * multiplied or all divided), or a single knob changed (a plain move).
 */
static void check_move(const int32_t *before, const int32_t *after)
{
	static const int chain_of[6] = { 0, 1, 0, -1, 0, 1 };
	int k, n = 0, first = -1;

	for (k = 0; k < 6; k++) {
		if (before[k] == after[k])
			continue;
		n++;
		if (first < 0) {
			first = k;
			continue;
		}
		assert_int_equal(chain_of[k], chain_of[first]);
		assert_true(chain_of[k] >= 0);
		/* The same factor, the same direction. */
		assert_true((int64_t) after[k] * before[first] ==
			(int64_t) after[first] * before[k]);
	}
	assert_true(n >= 1);
	if (n > 1 || chain_of[first] >= 0) {
		int64_t hi = after[first] > before[first] ? after[first] :
			before[first];
		int64_t lo = after[first] > before[first] ? before[first] :
			after[first];

		assert_true(hi % lo == 0 && is_prime(hi / lo));
	}
}

static void test_operators(void **state)
{
	search_space *s = operator_space();
	search__ops *ops = search__ops_alloc(s, NULL);
	uint64_t rng = 12345;
	int32_t k[SEARCH_MAX_KNOBS], before[SEARCH_MAX_KNOBS];
	int32_t other[SEARCH_MAX_KNOBS], child[SEARCH_MAX_KNOBS];
	int draw, legal = 0, step, j;

	(void) state;
	assert_non_null(ops);
	memset(k, 0, sizeof(k));
	for (draw = 0; draw < 3000; draw++) {
		search__chain_point(ops, &rng, k);
		assert_int_not_equal(search_space_encode(s, k), UINT64_MAX);
		if (!search__chains_legal(ops, k))
			continue;
		legal++;
		for (step = 0; step < 20; step++) {
			memcpy(before, k, sizeof(k));
			search__mutate(ops, &rng, k);
			check_move(before, k);
			assert_true(search__chains_legal(ops, k));
			assert_int_not_equal(search_space_encode(s, k),
				UINT64_MAX);
		}
		/* Crossover takes each chain whole from one parent. */
		search__random_point(ops, &rng, other);
		search__crossover(ops, &rng, k, other, child);
		for (j = 0; j < 3; j++) {
			static const int members[3][3] = { { 0, 2, 4 },
				{ 1, 5, 5 }, { 3, 3, 3 } };
			int m, from_k = 1, from_other = 1;

			for (m = 0; m < 3; m++) {
				from_k &= child[members[j][m]] ==
					k[members[j][m]];
				from_other &= child[members[j][m]] ==
					other[members[j][m]];
			}
			assert_true(from_k || from_other);
		}
	}
	/* Divisor chains are built from the lists: nearly all legal here. */
	assert_true(legal > 2000);
	/* A random point can still be moved, though maybe not legally. */
	for (draw = 0; draw < 500; draw++) {
		search__random_point(ops, &rng, k);
		memcpy(before, k, sizeof(k));
		search__mutate(ops, &rng, k);
		assert_memory_not_equal(before, k, sizeof(int32_t) * 6);
		assert_int_not_equal(search_space_encode(s, k), UINT64_MAX);
	}
	search__ops_free(ops);
	search_space_free(s);
}

/* --- NSGA-II ranking ------------------------------------------------------ */

struct nsga_row {
	int cls;
	double viol;
	double obj[2];
	int rank;		/* Deb's front number, by hand */
};

/* Feasible points (1,5) (2,3) (5,1) are the first front, (3,4) and (6,2)
 * the second, (4,6) the third; over-constraint points follow by
 * violation, illegal ones last, all equal.
 */
static const struct nsga_row nsga_rows[] = {
	{ 2, 0, { 0, 0 }, 6 },
	{ 0, 0, { 3, 4 }, 1 },
	{ 1, 0.5, { 1, 1 }, 4 },
	{ 0, 0, { 1, 5 }, 0 },
	{ 0, 0, { 4, 6 }, 2 },
	{ 1, 0.1, { 9, 9 }, 3 },
	{ 0, 0, { 5, 1 }, 0 },
	{ 2, 0, { 0, 0 }, 6 },
	{ 0, 0, { 2, 3 }, 0 },
	{ 1, 2.0, { 0, 0 }, 5 },
	{ 0, 0, { 6, 2 }, 1 },
};

static void test_nsga_sort(void **state)
{
	const int n = sizeof(nsga_rows) / sizeof(nsga_rows[0]);
	search__indiv ind[sizeof(nsga_rows) / sizeof(nsga_rows[0])];
	search_options opt;
	search__ctx c;
	int i;

	(void) state;
	base_options(&opt, SEARCH_GENETIC);
	memset(&c, 0, sizeof(c));
	c.opt = &opt;
	memset(ind, 0, sizeof(ind));
	for (i = 0; i < n; i++) {
		ind[i].p.index = (uint64_t) i;
		ind[i].cls = nsga_rows[i].cls;
		ind[i].viol = nsga_rows[i].viol;
		ind[i].obj[0] = nsga_rows[i].obj[0];
		ind[i].obj[1] = nsga_rows[i].obj[1];
	}
	assert_int_equal(search__nsga_sort(&c, ind, n), 0);
	for (i = 0; i < n; i++) {
		assert_int_equal(ind[i].rank, nsga_rows[ind[i].p.index].rank);
		if (i > 0)
			assert_true(ind[i - 1].rank <= ind[i].rank);
	}
	/* In the first front the extremes (1,5) and (5,1) are infinitely
	 * crowded; (2,3) gets (5-1)/4 + (5-1)/4 = 2.
	 */
	assert_true(ind[0].crowd > 1e100 && ind[1].crowd > 1e100);
	assert_int_equal(ind[2].p.index, 8);
	assert_true(fabs(ind[2].crowd - 2.0) < 1e-12);
}

/* Random populations against the definition: a point's rank is 0 when
 * nothing dominates it, else one more than the largest rank of those that
 * do; the crowding distance of a front member is the sum over objectives
 * of the gap between its neighbours in that objective over the front's
 * span, infinite at either end.  Small value ranges make ties and
 * duplicates; a NaN objective takes the other ranking path.
 */
struct nsga_case {
	int n, n_obj;
	int values;		/* objectives drawn from 0..values-1 */
	int infeasible, illegal;	/* percent of the points */
	int nan;		/* percent of feasible points with a NaN */
};

static const struct nsga_case nsga_cases[] = {
	{ 1, 2, 10, 0, 0, 0 },
	{ 2, 2, 1, 0, 0, 0 },
	{ 40, 2, 1000000, 0, 0, 0 },
	{ 256, 2, 1000000, 10, 5, 0 },
	{ 256, 2, 8, 10, 5, 0 },
	{ 200, 3, 6, 20, 10, 0 },
	{ 300, 4, 1000, 0, 0, 0 },
	{ 128, 6, 3, 5, 5, 0 },
	{ 64, 1, 20, 10, 10, 0 },
	{ 100, 2, 10, 10, 10, 5 },
};

static uint64_t nsga_rng(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static int oracle_dom(int n_obj, const search__indiv *a,
	const search__indiv *b)
{
	int o, strict = 0;

	if (a->cls != b->cls)
		return a->cls < b->cls;
	if (a->cls == 1)
		return a->viol < b->viol;
	if (a->cls == 2)
		return 0;
	for (o = 0; o < n_obj; o++) {
		if (a->obj[o] > b->obj[o])
			return 0;
		strict |= a->obj[o] < b->obj[o];
	}
	return strict;
}

static void oracle_ranks(int n_obj, const search__indiv *ind, int n,
	int *rank)
{
	int i, j, changed = 1;

	for (i = 0; i < n; i++)
		rank[i] = 0;
	/* Relax until no rank grows: the longest chain of dominators. */
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (oracle_dom(n_obj, &ind[j], &ind[i]) &&
				    rank[i] < rank[j] + 1) {
					rank[i] = rank[j] + 1;
					changed = 1;
				}
	}
}

/* The crowding distance of member i of its front, by its definition
 * (ties in an objective ordered by position, as the ranking orders them).
 */
static double oracle_crowd(int n_obj, const search__indiv *ind, int n,
	const int *rank, int i)
{
	double d = 0;
	int o, j;

	if (ind[i].cls == 2)
		return 0;
	for (o = 0; o < n_obj; o++) {
		double lo = HUGE_VAL, hi = -HUGE_VAL, below = -HUGE_VAL;
		double above = HUGE_VAL;
		int first = 1, last = 1;
		double v = ind[i].obj[o];

		for (j = 0; j < n; j++) {
			double u = ind[j].obj[o];
			int earlier = u < v || (u == v && j < i);
			int later = u > v || (u == v && j > i);

			if (rank[j] != rank[i])
				continue;
			lo = u < lo ? u : lo;
			hi = u > hi ? u : hi;
			if (j != i && earlier) {
				first = 0;
				below = u > below ? u : below;
			}
			if (j != i && later) {
				last = 0;
				above = u < above ? u : above;
			}
		}
		if (first || last)
			return 1e300;
		if (hi > lo)
			d += (above - below) / (hi - lo);
	}
	return d;
}

/* The population's order: rank, then crowding (larger first), then index. */
static int cmp_order(const search__indiv *a, const search__indiv *b)
{
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->crowd != b->crowd)
		return a->crowd > b->crowd ? -1 : 1;
	return (a->p.index > b->p.index) - (a->p.index < b->p.index);
}

static void test_nsga_random(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(nsga_cases) / sizeof(nsga_cases[0]); c++) {
		const struct nsga_case *k = &nsga_cases[c];
		search__indiv *ind = calloc((size_t) k->n, sizeof(*ind));
		int *rank = calloc((size_t) k->n, sizeof(int));
		double *crowd = calloc((size_t) k->n, sizeof(double));
		uint64_t seed = 7 + c;
		search_options opt;
		search__ctx ctx;
		int i, o;

		assert_non_null(ind);
		assert_non_null(rank);
		assert_non_null(crowd);
		base_options(&opt, SEARCH_GENETIC);
		opt.n_obj = k->n_obj;
		memset(&ctx, 0, sizeof(ctx));
		ctx.opt = &opt;
		for (i = 0; i < k->n; i++) {
			int roll = (int) (nsga_rng(&seed) % 100);

			ind[i].p.index = (uint64_t) i;
			ind[i].cls = roll < k->illegal ? 2 :
				roll < k->illegal + k->infeasible ? 1 : 0;
			ind[i].viol = ind[i].cls == 1 ?
				(double) (nsga_rng(&seed) % 5) : 0;
			for (o = 0; o < k->n_obj; o++)
				ind[i].obj[o] = (double) (nsga_rng(&seed) %
					(uint64_t) k->values);
			if (ind[i].cls == 0 &&
			    (int) (nsga_rng(&seed) % 100) < k->nan)
				ind[i].obj[0] = NAN;
		}
		oracle_ranks(k->n_obj, ind, k->n, rank);
		/* NaN objectives make no total order; their crowding has no
		 * definition to check against.
		 */
		for (i = 0; i < k->n && !k->nan; i++)
			crowd[i] = oracle_crowd(k->n_obj, ind, k->n, rank, i);
		assert_int_equal(search__nsga_sort(&ctx, ind, k->n), 0);
		for (i = 0; i < k->n; i++) {
			int at = (int) ind[i].p.index;

			if (ind[i].rank != rank[at])
				fail_msg("case %zu: point %d has rank %d, by "
					"definition %d", c, at, ind[i].rank,
					rank[at]);
			if (!k->nan && fabs(ind[i].crowd - crowd[at]) >
			    1e-9 * (1 + fabs(crowd[at])))
				fail_msg("case %zu: point %d crowding %g, by "
					"definition %g", c, at, ind[i].crowd,
					crowd[at]);
			if (i > 0 && cmp_order(&ind[i - 1], &ind[i]) > 0)
				fail_msg("case %zu: rows %d and %d out of "
					"order", c, i - 1, i);
		}
		free(ind), free(rank), free(crowd);
	}
}

/* --- determinism and budgets ---------------------------------------------- */

static void test_same_front_any_ranks(void **state)
{
	struct fixture f;
	size_t i;

	(void) state;
	fixture_init(&f, 32, 32, 64);
	for (i = 0; i < 3; i++) {
		search_options opt;
		search_result world, self;
		dse_error err;

		base_options(&opt, strategies[i]);
		opt.budget = 3001;
		opt.cloud_max = 40;
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&world, &err), dse_stat_ok);
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_SELF,
			&self, &err), dse_stat_ok);
		assert_same_counts(&world, &self);
		assert_int_equal(world.evaluated, 3001);
		assert_int_equal(world.islands, 5);
		assert_int_equal(world.strategy, strategies[i]);
		if (rank_of(MPI_COMM_WORLD) == 0) {
			size_t j;

			print_message("%s: front %zu, valid %llu\n",
				search_strategy_name(strategies[i]),
				search_front_size(world.front),
				(unsigned long long) world.valid);
			assert_true(search_front_size(world.front) > 2);
			assert_same_front(world.front, self.front);
			assert_int_equal(search_cloud_size(world.cloud), 40);
			for (j = 0; j < 40; j++)
				assert_int_equal(search_cloud_at(world.cloud,
					j)->index,
					search_cloud_at(self.cloud, j)->index);
		} else {
			assert_null(world.front);
		}
		result_clear(&world);
		result_clear(&self);
	}
	fixture_clear(&f);
}

/* 2503 evaluations over 7 islands: islands 0-3 get 358, the others 357;
 * with populations of 13 island 0 runs ceil(358 / 13) = 28 generations.
 */
static void test_budget_exact(void **state)
{
	struct fixture f;
	size_t i;

	(void) state;
	fixture_init(&f, 32, 32, 64);
	for (i = 0; i < 3; i++) {
		search_options opt;
		search_result res;
		dse_error err;

		base_options(&opt, strategies[i]);
		opt.budget = 2503;
		opt.islands = 7;
		opt.population = 13;
		opt.migrate_every = 4;
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&res, &err), dse_stat_ok);
		assert_int_equal(res.evaluated, 2503);
		assert_int_equal(res.generations, 28);
		assert_int_equal(res.interrupted, 0);
		result_clear(&res);
	}
	fixture_clear(&f);
}

/* An evaluator that takes about 20 microseconds a point. */
static void slow_eval(const void *model, const int32_t *knobs,
	sim_metrics *out)
{
	double t0 = MPI_Wtime();

	sim_eval(model, knobs, out);
	while (MPI_Wtime() - t0 < 20e-6)
		;
}

static void test_budget_seconds(void **state)
{
	struct fixture f;
	search_options opt;
	search_result res;
	search_evaluator slow;
	dse_error err;

	(void) state;
	fixture_init(&f, 32, 32, 64);
	slow = f.ev;
	slow.eval = slow_eval;
	base_options(&opt, SEARCH_GENETIC);
	opt.budget = 100000;
	opt.migrate_every = 1;
	opt.budget_seconds = 0.3;
	assert_int_equal(search_run(f.space, &slow, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	/* 100000 points at 20 us on at most 2 cores take a second or more;
	 * the search stops at the first synchronisation after 0.3 s.
	 */
	assert_true(res.evaluated > 0 && res.evaluated < 100000);
	assert_int_equal(res.interrupted, 0);
	if (rank_of(MPI_COMM_WORLD) == 0) {
		print_message("time budget 0.3 s: %llu evaluations in %.2f s\n",
			(unsigned long long) res.evaluated, res.seconds);
		assert_true(res.seconds < 2.0);
		assert_true(search_front_size(res.front) > 0);
	}
	result_clear(&res);
	fixture_clear(&f);
}

/* --- progress and the second stage ---------------------------------------- */

struct seen_progress {
	int calls;
	uint64_t evaluated[16];
	uint64_t generation[16];
	double hv[16];
};

static void record_progress(const search_progress *p, void *user)
{
	struct seen_progress *sp = user;

	assert_int_equal(p->strategy, SEARCH_GENETIC);
	assert_int_equal(p->total, 2400);
	assert_true(p->front_size > 0);
	if (sp->calls < 16) {
		sp->evaluated[sp->calls] = p->evaluated;
		sp->generation[sp->calls] = p->generation;
		sp->hv[sp->calls] = p->hypervolume;
	}
	sp->calls++;
}

/* 2400 evaluations, 5 islands of 16: 30 generations, 10 epochs of 3, each
 * 5 x 48 = 240 evaluations; the hypervolume in a box fixed at the first
 * call can only grow.
 */
static void test_progress(void **state)
{
	struct fixture f;
	search_options opt;
	search_result res;
	struct seen_progress sp;
	dse_error err;
	int i;

	(void) state;
	memset(&sp, 0, sizeof(sp));
	fixture_init(&f, 32, 32, 64);
	base_options(&opt, SEARCH_GENETIC);
	opt.budget = 2400;
	opt.progress = record_progress;
	opt.progress_user = &sp;
	assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	if (rank_of(MPI_COMM_WORLD) == 0) {
		assert_int_equal(sp.calls, 10);
		for (i = 0; i < 10; i++) {
			assert_int_equal(sp.evaluated[i], 240 * (uint64_t) (i + 1));
			assert_int_equal(sp.generation[i], 3 * (uint64_t) (i + 1));
			assert_true(sp.hv[i] > 0 && sp.hv[i] <= 1);
			if (i > 0)
				assert_true(sp.hv[i] >= sp.hv[i - 1]);
		}
	} else {
		assert_int_equal(sp.calls, 0);
	}
	result_clear(&res);
	fixture_clear(&f);
}

/* The band of a heuristic front through the sampled cycle model: every
 * row re-evaluated, the same on any number of ranks.
 */
static void test_second_stage(void **state)
{
	struct fixture f;
	search_options opt;
	search_result world, self;
	dse_error err;
	size_t i;

	(void) state;
	fixture_init(&f, 32, 32, 32);
	base_options(&opt, SEARCH_GENETIC);
	opt.budget = 1200;
	opt.model = SIM_MODEL_SAMPLED;
	opt.band = 0.05;
	opt.band_max = 40;
	assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
		&world, &err), dse_stat_ok);
	assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_SELF,
		&self, &err), dse_stat_ok);
	assert_true(world.resimulated > 0);
	assert_true(world.resimulated <= 40);
	assert_int_equal(world.resimulated, self.resimulated);
	if (rank_of(MPI_COMM_WORLD) == 0) {
		assert_true(search_front_size(world.front) > 0);
		assert_same_front(world.front, self.front);
		for (i = 0; i < search_front_size(world.front); i++)
			assert_int_equal(search_front_at(world.front, i)->model,
				SIM_MODEL_SAMPLED);
	}
	result_clear(&world);
	result_clear(&self);
	fixture_clear(&f);
}

/* --- quality against the exhaustive front ---------------------------------- */

/* Hypervolume in the exhaustive front's own box: from its best values to
 * 1.1 times its worst, so that only the front's shape counts.
 */
static double hv_in_box(const search_front *ref, const search_front *f)
{
	double lo[3], hi[3];
	size_t i;
	int j;

	for (j = 0; j < search__front_n_obj(ref); j++) {
		lo[j] = INFINITY;
		hi[j] = 0;
		for (i = 0; i < search_front_size(ref); i++) {
			double v = search_objective_value(ref,
				search_front_at(ref, i), j);

			lo[j] = v < lo[j] ? v : lo[j];
			hi[j] = v > hi[j] ? v : hi[j];
		}
		hi[j] *= 1.1;
	}
	return search_front_hypervolume(f, lo, hi);
}

/* How many points of the exhaustive front "ref" the front "f" found. */
static size_t found(const search_front *ref, const search_front *f)
{
	size_t i, j, n = 0;

	for (i = 0; i < search_front_size(ref); i++)
		for (j = 0; j < search_front_size(f); j++)
			if (search_front_at(f, j)->index ==
			    search_front_at(ref, i)->index) {
				n++;
				break;
			}
	return n;
}

/* Latency, DSP and LUT of a 64^3 matrix multiply: 175616 points, a front
 * of 38 designs.  With 5% of the evaluations NSGA-II must reach 95% of the
 * exhaustive front's hypervolume and find most of its points; random
 * sampling does worse on both, annealing better than random sampling.
 */
static void test_quality(void **state)
{
	struct fixture f;
	search_options opt;
	search_result ex, res;
	dse_error err;
	double hv[3], full = 0;
	size_t i, hit[3];

	(void) state;
	fixture_init(&f, 64, 64, 64);
	base_options(&opt, SEARCH_EXHAUSTIVE);
	opt.n_obj = 3;
	opt.objectives[2] = SIM_M_LUT;
	opt.islands = opt.population = opt.migrate_every = opt.migrants = 0;
	assert_int_equal(search_exhaustive_with(f.space, &f.ev, &opt,
		MPI_COMM_WORLD, &ex, &err), dse_stat_ok);
	if (rank_of(MPI_COMM_WORLD) == 0)
		full = hv_in_box(ex.front, ex.front);
	for (i = 0; i < 3; i++) {
		opt.strategy = strategies[i];
		/* The default budget: 5% of the space. */
		opt.budget = 0;
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&res, &err), dse_stat_ok);
		assert_int_equal(res.evaluated,
			(uint64_t) (0.05 * search_space_size(f.space)));
		if (rank_of(MPI_COMM_WORLD) == 0) {
			hv[i] = hv_in_box(ex.front, res.front) / full;
			hit[i] = found(ex.front, res.front);
			print_message("%s: %llu of %llu points, front %zu, "
				"%zu of the %zu exhaustive front points, "
				"hypervolume %.6f of the exhaustive\n",
				search_strategy_name(strategies[i]),
				(unsigned long long) res.evaluated,
				(unsigned long long) search_space_size(f.space),
				search_front_size(res.front), hit[i],
				search_front_size(ex.front), hv[i]);
		}
		result_clear(&res);
	}
	if (rank_of(MPI_COMM_WORLD) == 0) {
		assert_true(hv[1] >= 0.95);
		assert_true(hv[0] < hv[1]);
		assert_true(hv[2] > hv[0]);
		assert_true(hit[1] >= 9 * search_front_size(ex.front) / 10);
		assert_true(hit[0] < hit[1]);
		assert_true(hit[2] > hit[0]);
	}
	result_clear(&ex);
	fixture_clear(&f);
}

/* --- checkpoints and resume ------------------------------------------------ */

struct captured {
	int n;
	void *state[64];
	size_t size[64];
	uint64_t evaluated[64];
	int final[64];
	volatile sig_atomic_t stop;
	int stop_after;		/* progress calls before asking to stop */
	int calls;
};

static dse_stat capture(const search_checkpoint *cp, void *user,
	dse_error *err)
{
	struct captured *c = user;

	(void) err;
	assert_true(c->n < 64);
	c->state[c->n] = malloc(cp->size);
	memcpy(c->state[c->n], cp->state, cp->size);
	c->size[c->n] = cp->size;
	c->evaluated[c->n] = cp->evaluated;
	c->final[c->n] = cp->final;
	assert_non_null(cp->front);
	c->n++;
	return dse_stat_ok;
}

static void ask_stop(const search_progress *p, void *user)
{
	struct captured *c = user;

	(void) p;
	if (c->stop_after && ++c->calls == c->stop_after)
		c->stop = 1;
}

static void captured_clear(struct captured *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		free(c->state[i]);
	memset(c, 0, sizeof(*c));
}

/* Root's captured state "i", on every rank. */
static void *share_state(struct captured *c, int i, size_t *size)
{
	uint64_t n = rank_of(MPI_COMM_WORLD) == 0 ? c->size[i] : 0;
	void *p;

	MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	p = malloc(n);
	if (rank_of(MPI_COMM_WORLD) == 0)
		memcpy(p, c->state[i], n);
	MPI_Bcast(p, (int) n, MPI_BYTE, 0, MPI_COMM_WORLD);
	*size = n;
	return p;
}

static void resume_and_compare(const struct fixture *f,
	const search_options *base, struct captured *c, int which,
	const search_result *full)
{
	search_options opt = *base;
	search_result res;
	dse_error err;
	size_t size;
	void *state = share_state(c, which, &size);

	opt.checkpoint = NULL;
	opt.checkpoint_interval = 0;
	opt.stop = NULL;
	opt.progress = NULL;
	opt.resume = state;
	opt.resume_size = size;
	assert_int_equal(search_run(f->space, &f->ev, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	assert_int_equal(res.resumed, 1);
	assert_same_counts(&res, full);
	if (rank_of(MPI_COMM_WORLD) == 0)
		assert_same_front(res.front, full->front);
	result_clear(&res);
	free(state);
}

static void test_checkpoint_resume(void **state)
{
	struct fixture f;
	size_t i;

	(void) state;
	fixture_init(&f, 32, 32, 64);
	for (i = 0; i < 3; i++) {
		search_options opt;
		search_result full, res;
		struct captured c;
		dse_error err;
		int n;

		memset(&c, 0, sizeof(c));
		base_options(&opt, strategies[i]);
		opt.budget = 2400;
		opt.cloud_max = 30;
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&full, &err), dse_stat_ok);
		/* A checkpoint at every synchronisation. */
		opt.checkpoint = capture;
		opt.checkpoint_user = &c;
		opt.checkpoint_interval = 1e-9;
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&res, &err), dse_stat_ok);
		assert_same_counts(&res, &full);
		n = c.n;
		MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
		/* 480 points an island, 48 a synchronisation: 10 epochs, 9
		 * synchronisations between them.
		 */
		assert_int_equal(n, 9);
		if (rank_of(MPI_COMM_WORLD) == 0) {
			assert_int_equal(c.evaluated[4], 5 * 48 * 5);
			assert_int_equal(c.final[4], 0);
		}
		resume_and_compare(&f, &opt, &c, 4, &full);
		resume_and_compare(&f, &opt, &c, 0, &full);
		resume_and_compare(&f, &opt, &c, n - 1, &full);
		result_clear(&res);
		captured_clear(&c);

		/* A stop request: a final checkpoint, the front so far, and a
		 * resume from it that ends where the full run ends.
		 */
		opt.checkpoint_interval = 0;
		opt.progress = ask_stop;
		opt.progress_user = &c;
		opt.stop = &c.stop;
		c.stop_after = 3;
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&res, &err), dse_stat_ok);
		assert_int_equal(res.interrupted, 1);
		assert_true(res.evaluated < full.evaluated);
		n = c.n;
		MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
		assert_int_equal(n, 1);
		if (rank_of(MPI_COMM_WORLD) == 0) {
			assert_int_equal(c.final[0], 1);
			assert_int_equal(c.evaluated[0], res.evaluated);
		}
		resume_and_compare(&f, &opt, &c, 0, &full);
		result_clear(&res);
		result_clear(&full);
		captured_clear(&c);
	}
	fixture_clear(&f);
}

/* A checkpoint that takes SLOW_WRITE seconds to write. */
#define SLOW_WRITE 0.02

static dse_stat slow_capture(const search_checkpoint *cp, void *user,
	dse_error *err)
{
	struct timespec ts = { 0, (long) (SLOW_WRITE * 1e9) };

	nanosleep(&ts, NULL);
	return capture(cp, user, err);
}

/* Writing checkpoints takes at most opt.checkpoint_share of the search:
 * with writes of SLOW_WRITE seconds, each next checkpoint begins at least
 * SLOW_WRITE / share after the last began, so a search of T seconds writes
 * at most 1 + T share / SLOW_WRITE.  With no share (0) every one of the 9
 * synchronisations writes one, as the interval (1 ns) asks.
 */
static void test_checkpoint_share(void **state)
{
	static const struct {
		double share, effective;
		int every_sync;
	} rows[] = {
		{ 0.1, 0.1, 0 },	/* what dse asks for */
		{ 0.25, 0.25, 0 },
		{ 0, 1, 1 },		/* no limit */
	};
	struct fixture f;
	size_t i;

	(void) state;
	fixture_init(&f, 32, 32, 64);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		search_options opt;
		search_result res;
		struct captured c;
		dse_error err;
		double t0, t;
		int n;

		memset(&c, 0, sizeof(c));
		base_options(&opt, SEARCH_GENETIC);
		opt.budget = 2400;
		opt.checkpoint = slow_capture;
		opt.checkpoint_user = &c;
		opt.checkpoint_interval = 1e-9;
		opt.checkpoint_share = rows[i].share;
		t0 = MPI_Wtime();
		assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
			&res, &err), dse_stat_ok);
		t = MPI_Wtime() - t0;
		n = c.n;
		MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
		MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		print_message("share %g: %d checkpoints in %.3f s\n",
			rows[i].share, n, t);
		assert_true(n >= 1);
		assert_true(n <= 1 + t * rows[i].effective / SLOW_WRITE);
		if (rows[i].every_sync)
			assert_int_equal(n, 9);
		result_clear(&res);
		captured_clear(&c);
	}
	fixture_clear(&f);
}

/* A state from a search of other islands is refused with an input error. */
static void test_resume_mismatch(void **state)
{
	struct fixture f;
	search_options opt;
	search_result res;
	struct captured c;
	dse_error err;
	size_t size;
	void *st;

	(void) state;
	memset(&c, 0, sizeof(c));
	fixture_init(&f, 32, 32, 64);
	base_options(&opt, SEARCH_GENETIC);
	opt.budget = 1000;
	opt.checkpoint = capture;
	opt.checkpoint_user = &c;
	opt.checkpoint_interval = 1e-9;
	assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_ok);
	result_clear(&res);
	st = share_state(&c, 0, &size);
	opt.checkpoint = NULL;
	opt.islands = 6;
	opt.resume = st;
	opt.resume_size = size;
	assert_int_equal(search_run(f.space, &f.ev, &opt, MPI_COMM_WORLD,
		&res, &err), dse_stat_error);
	assert_int_equal(err.code, DSE_E_INPUT);
	free(st);
	captured_clear(&c);
	fixture_clear(&f);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_nsga_sort),
		cmocka_unit_test(test_nsga_random),
		cmocka_unit_test(test_same_front_any_ranks),
		cmocka_unit_test(test_budget_exact),
		cmocka_unit_test(test_budget_seconds),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_second_stage),
		cmocka_unit_test(test_quality),
		cmocka_unit_test(test_checkpoint_resume),
		cmocka_unit_test(test_checkpoint_share),
		cmocka_unit_test(test_resume_mismatch),
	};
	dse_error err;
	int rc;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	/* A failed assertion on one rank must not leave the others waiting
	 * in a collective forever.
	 */
	if (rc)
		MPI_Abort(MPI_COMM_WORLD, rc);
	MPI_Finalize();
	return rc;
}
