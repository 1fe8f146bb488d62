/* Spaces made of parts (one per dataflow of a sweep): the whole's index
 * range is the parts' one after another, decode and encode go through the
 * parts, bad placements are refused; every strategy searches every part
 * with the part's own evaluator; the exhaustive front of the whole is the
 * non-dominated union of the parts' fronts, on any rank count; and a
 * resume from any checkpoint ends with the uninterrupted front, while a
 * part's own state is refused for the whole.
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

#include "search/search.h"

/* A part: its knobs' value lists and where they go in the whole. */
struct part_case {
	int n_knobs;
	int n[3];
	int64_t v[3][6];
	int place[3];
	int32_t label;
	double scale;		/* the part's own cost model */
};

struct parts_case {
	const char *what;
	int n_parts;
	struct part_case part[3];
	int n_knobs;		/* of the whole: knob 0 and the union */
	const char *names[5];
	uint64_t size;		/* by hand: the sum of the parts' products */
};

static const struct parts_case cases[] = {
	{ "one part", 1,
	  { { 2, { 3, 2 }, { { 1, 2, 4 }, { 1, 8 } }, { 1, 2 }, 7, 1.0 } },
	  3, { "space_time", "a", "b" }, 6 },
	{ "parts of different knobs", 3,
	  { { 2, { 4, 3 }, { { 1, 2, 4, 8 }, { 1, 3, 9 } }, { 1, 2 }, 3, 1.0 },
	    { 1, { 5 }, { { 1, 2, 3, 4, 5 } }, { 3 }, 4, 0.7 },
	    { 3, { 2, 3, 2 }, { { 2, 4 }, { 1, 2, 3 }, { 5, 6 } },
	      { 2, 1, 4 }, 9, 1.3 } },
	  5, { "space_time", "a", "b", "c", "d" }, 12 + 5 + 12 },
	{ "the same knobs, other values", 2,
	  { { 2, { 3, 3 }, { { 1, 2, 3 }, { 1, 2, 3 } }, { 1, 2 }, 0, 1.0 },
	    { 2, { 2, 4 }, { { 6, 5 }, { 1, 2, 4, 8 } }, { 1, 2 }, 1, 0.5 } },
	  3, { "space_time", "a", "b" }, 9 + 8 },
};

static search_space *build_part(const struct part_case *p)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	search_space *s = search_space_alloc(p->n_knobs);
	int k;

	assert_non_null(s);
	for (k = 0; k < p->n_knobs; k++)
		assert_int_equal(search_space_set_knob(s, k,
			names[p->place[k] - 1], p->v[k], p->n[k], NULL),
			dse_stat_ok);
	return s;
}

static search_space *build(const struct parts_case *c)
{
	search_space *parts[3];
	int place[3 * SEARCH_MAX_KNOBS], i, k;
	int32_t labels[3];

	memset(place, 0, sizeof(place));
	for (i = 0; i < c->n_parts; i++) {
		parts[i] = build_part(&c->part[i]);
		labels[i] = c->part[i].label;
		for (k = 0; k < c->part[i].n_knobs; k++)
			place[i * SEARCH_MAX_KNOBS + k] = c->part[i].place[k];
	}
	return search_space_alloc_parts(c->n_parts, parts, labels, c->n_knobs,
		c->names, place, NULL);
}

static void test_layout(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct parts_case *pc = &cases[c];
		search_space *s = build(pc);
		uint64_t idx, first = 0;
		int p, k;

		assert_non_null(s);
		assert_int_equal(search_space_size(s), pc->size);
		assert_int_equal(search_space_n_parts(s), pc->n_parts);
		assert_int_equal(search_space_n_knobs(s), pc->n_knobs);
		for (k = 0; k < pc->n_knobs; k++)
			assert_string_equal(search_space_knob_name(s, k),
				pc->names[k]);
		for (p = 0; p < pc->n_parts; p++) {
			const struct part_case *pp = &pc->part[p];
			uint64_t n = search_space_size(search_space_part(s, p));

			assert_int_equal(search_space_part_offset(s, p), first);
			assert_int_equal(search_space_part_label(s, p),
				pp->label);
			for (idx = first; idx < first + n; idx++) {
				int32_t w[SEARCH_MAX_KNOBS], l[SEARCH_MAX_KNOBS];
				int32_t back[SEARCH_MAX_KNOBS];
				int used[SEARCH_MAX_KNOBS] = { 0 };

				assert_int_equal(search_space_part_of(s, idx), p);
				search_space_decode(s, idx, w);
				assert_int_equal(w[0], pp->label);
				search_space_decode(search_space_part(s, p),
					idx - first, l);
				for (k = 0; k < pp->n_knobs; k++) {
					assert_int_equal(w[pp->place[k]], l[k]);
					used[pp->place[k]] = 1;
				}
				/* The knobs a part leaves out are 0. */
				for (k = 1; k < pc->n_knobs; k++)
					if (!used[k])
						assert_int_equal(w[k], 0);
				assert_int_equal(search_space_encode(s, w), idx);
				assert_int_equal(search_space_pick(s, w, back), p);
				assert_memory_equal(back, l, sizeof(*l) *
					(size_t) pp->n_knobs);
			}
			first += n;
		}
		assert_int_equal(search_space_part_of(s, pc->size), -1);
		search_space_free(s);
	}
}

/* Placements and labels that make no whole. */
static void test_refused(void **state)
{
	static const struct { const char *what; int place[2]; int32_t
		label[2]; int n_knobs; } bad[] = {
		{ "a knob on knob 0", { 0, 1 }, { 0, 1 }, 3 },
		{ "two knobs on one", { 1, 1 }, { 0, 1 }, 3 },
		{ "a knob past the whole", { 1, 3 }, { 0, 1 }, 3 },
		{ "two parts of one label", { 1, 2 }, { 5, 5 }, 3 },
	};
	const int64_t v[2] = { 1, 2 };
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *names[3] = { "space_time", "a", "b" };
		search_space *parts[2];
		int place[2 * SEARCH_MAX_KNOBS] = { 0 }, p;
		dse_error err;

		for (p = 0; p < 2; p++) {
			parts[p] = search_space_alloc(2);
			assert_int_equal(search_space_set_knob(parts[p], 0, "a",
				v, 2, NULL), dse_stat_ok);
			assert_int_equal(search_space_set_knob(parts[p], 1, "b",
				v, 2, NULL), dse_stat_ok);
			place[p * SEARCH_MAX_KNOBS] = p ? 1 : bad[i].place[0];
			place[p * SEARCH_MAX_KNOBS + 1] = p ? 2 :
				bad[i].place[1];
		}
		assert_null(search_space_alloc_parts(2, parts, bad[i].label,
			bad[i].n_knobs, names, place, &err));
		/* Taken (and freed) even when refused. */
		assert_null(parts[0]);
		assert_null(parts[1]);
	}
}

/* --- searching parts ---------------------------------------------------- */

/* A part's model: a closed form in its knobs, a fifth of the points
 * illegal, so fronts have several points and parts beat one another.
 */
struct part_model {
	const struct part_case *p;
};

static void eval_part(const void *model, const int32_t *knobs,
	sim_metrics *out)
{
	const struct part_model *m = model;
	double work = 1, area = 0;
	int k;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < m->p->n_knobs; k++) {
		work *= (double) knobs[k];
		area += (double) (knobs[k] * (k + 1));
	}
	if ((int) (work + area) % 5 == 0) {
		out->status = SIM_BAD_TILE;
		return;
	}
	out->status = SIM_OK;
	out->latency_s = m->p->scale * 1e3 / work;
	out->dsp = (int64_t) (area * 10 * m->p->scale);
	out->cycles = (uint64_t) (out->latency_s * 1e6);
}

static dse_stat no_simulate(const void *model, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err)
{
	(void) model, (void) knobs, (void) kind, (void) opt, (void) out;
	return dse_error_set(err, DSE_E_RUNTIME, "no cycle model here");
}

struct whole_model {
	struct part_model part[3];
	int n;
};

static int part_of(const void *model, int p, search_evaluator *out)
{
	const struct whole_model *w = model;

	if (p < 0 || p >= w->n)
		return -1;
	memset(out, 0, sizeof(*out));
	out->model = &w->part[p];
	out->eval = eval_part;
	out->simulate = no_simulate;
	return 0;
}

static search_evaluator whole_evaluator(struct whole_model *w,
	const struct parts_case *c)
{
	search_evaluator ev;
	int p;

	w->n = c->n_parts;
	for (p = 0; p < c->n_parts; p++)
		w->part[p].p = &c->part[p];
	memset(&ev, 0, sizeof(ev));
	ev.model = w;
	ev.simulate = no_simulate;
	ev.part = part_of;
	return ev;
}

static search_options options(int strategy)
{
	search_options o;

	memset(&o, 0, sizeof(o));
	o.n_obj = 2;
	o.objectives[0] = SIM_M_LATENCY;
	o.objectives[1] = SIM_M_DSP;
	o.strategy = strategy;
	o.seed = 11;
	o.budget = 12;
	o.islands = 2;
	o.population = 4;
	o.block = 3;
	return o;
}

/* Whether front a holds exactly the points of front b (index and
 * metrics), row by row after sorting.
 */
static void assert_same_front(search_front *a, search_front *b)
{
	size_t i;

	search_front_sort(a);
	search_front_sort(b);
	assert_int_equal(search_front_size(a), search_front_size(b));
	for (i = 0; i < search_front_size(a); i++) {
		const search_point *p = search_front_at(a, i);
		const search_point *q = search_front_at(b, i);

		assert_int_equal(p->index, q->index);
		assert_memory_equal(p->knobs, q->knobs, sizeof(p->knobs));
		assert_true(p->metrics.latency_s == q->metrics.latency_s);
		assert_int_equal(p->metrics.dsp, q->metrics.dsp);
	}
}

/* The non-dominated union of every part searched alone, as points of
 * the whole (root; NULL elsewhere).
 */
static search_front *union_of_parts(const search_space *s,
	search_evaluator *ev, const search_options *o, int rank)
{
	search_front *u = rank == 0 ? search_front_alloc(o->n_obj,
		o->objectives) : NULL;
	int p;

	for (p = 0; p < search_space_n_parts(s); p++) {
		search_evaluator pe;
		search_result r;
		size_t i;

		assert_int_equal(ev->part(ev->model, p, &pe), 0);
		assert_int_equal(search_run(search_space_part(s, p), &pe, o,
			MPI_COMM_WORLD, &r, NULL), dse_stat_ok);
		for (i = 0; rank == 0 && i < search_front_size(r.front); i++) {
			search_point q = *search_front_at(r.front, i);

			search_space_place(s, p, search_front_at(r.front,
				i)->knobs, q.knobs);
			q.index += search_space_part_offset(s, p);
			assert_true(search_front_add(u, &q) >= 0);
		}
		search_front_free(r.front);
		search_cloud_free(r.cloud);
	}
	return u;
}

static void test_exhaustive_is_union(void **state)
{
	size_t c;
	int rank;

	(void) state;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		search_space *s = build(&cases[c]);
		struct whole_model w;
		search_evaluator ev = whole_evaluator(&w, &cases[c]);
		search_options o = options(SEARCH_EXHAUSTIVE);
		search_result r;
		search_front *u;

		assert_int_equal(search_run(s, &ev, &o, MPI_COMM_WORLD, &r,
			NULL), dse_stat_ok);
		assert_int_equal(r.evaluated, cases[c].size);
		u = union_of_parts(s, &ev, &o, rank);
		if (rank == 0) {
			assert_true(search_front_size(r.front) > 0);
			assert_same_front(r.front, u);
		}
		search_front_free(u);
		search_front_free(r.front);
		search_space_free(s);
	}
}

/* The heuristic strategies: every part searched within its share of the
 * budget, every front point a point of its part with the metrics of its
 * part's model.
 */
static void test_heuristics(void **state)
{
	static const int strategies[] = { SEARCH_RANDOM, SEARCH_GENETIC,
		SEARCH_ANNEAL };
	const struct parts_case *c = &cases[1];
	size_t i, j;
	int rank;

	(void) state;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < sizeof(strategies) / sizeof(strategies[0]); i++) {
		search_space *s = build(c);
		struct whole_model w;
		search_evaluator ev = whole_evaluator(&w, c);
		search_options o = options(strategies[i]);
		search_result r;

		assert_int_equal(search_run(s, &ev, &o, MPI_COMM_WORLD, &r,
			NULL), dse_stat_ok);
		/* Shares of 12 by size (12, 5 and 12 of 29), at least 1. */
		assert_true(r.evaluated >= 3 && r.evaluated <= 12 + 3);
		for (j = 0; rank == 0 && j < search_front_size(r.front); j++) {
			const search_point *p = search_front_at(r.front, j);
			int32_t local[SEARCH_MAX_KNOBS];
			sim_metrics m;
			int part = search_space_pick(s, p->knobs, local);

			assert_true(part >= 0);
			assert_int_equal(search_space_encode(s, p->knobs),
				p->index);
			eval_part(&w.part[part], local, &m);
			assert_true(m.latency_s == p->metrics.latency_s);
		}
		search_front_free(r.front);
		search_cloud_free(r.cloud);
		search_space_free(s);
	}
}

#define MAX_STATES 64

struct states {
	void *bytes[MAX_STATES];
	size_t size[MAX_STATES];
	int n;
};

static dse_stat keep_state(const search_checkpoint *cp, void *user,
	dse_error *err)
{
	struct states *st = user;

	(void) err;
	assert_non_null(cp->front);
	assert_true(cp->evaluated <= cp->total);
	if (st->n == MAX_STATES)
		return dse_stat_ok;
	st->bytes[st->n] = malloc(cp->size);
	memcpy(st->bytes[st->n], cp->state, cp->size);
	st->size[st->n] = cp->size;
	st->n++;
	return dse_stat_ok;
}

/* Root's state "i" on every rank (a malloc'd copy). */
static void *bcast_state(struct states *st, int i, size_t *size, int rank)
{
	uint64_t n = rank == 0 ? st->size[i] : 0;
	void *b;

	MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	b = malloc(n);
	if (rank == 0)
		memcpy(b, st->bytes[i], n);
	MPI_Bcast(b, (int) n, MPI_BYTE, 0, MPI_COMM_WORLD);
	*size = n;
	return b;
}

static void test_resume(void **state)
{
	const struct parts_case *c = &cases[1];
	search_space *s = build(c);
	struct whole_model w;
	search_evaluator ev = whole_evaluator(&w, c);
	search_options o = options(SEARCH_EXHAUSTIVE);
	struct states st = { { NULL }, { 0 }, 0 };
	search_result ref, r;
	uint64_t n = 0;
	int rank, i;

	(void) state;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	o.block = 1;
	o.checkpoint_interval = 1e-9;
	o.checkpoint = keep_state;
	o.checkpoint_user = &st;
	assert_int_equal(search_run(s, &ev, &o, MPI_COMM_WORLD, &ref, NULL),
		dse_stat_ok);
	if (rank == 0)
		n = (uint64_t) st.n;
	MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	/* A checkpoint at every synchronisation of every part (how many
	 * depends on the rank count).
	 */
	assert_true(n >= 2);
	o.checkpoint = NULL;
	for (i = 0; i < (int) n; i++) {
		size_t size;
		void *b = bcast_state(&st, i, &size, rank);

		o.resume = b;
		o.resume_size = size;
		assert_int_equal(search_state_check(s, &o, b, size, NULL),
			dse_stat_ok);
		assert_int_equal(search_run(s, &ev, &o, MPI_COMM_WORLD, &r,
			NULL), dse_stat_ok);
		assert_int_equal(r.resumed, 1);
		assert_int_equal(r.evaluated, ref.evaluated);
		assert_int_equal(r.valid, ref.valid);
		if (rank == 0)
			assert_same_front(r.front, ref.front);
		/* A part's own state is no state of the whole. */
		if (i == 0) {
			search_evaluator pe;
			search_result pr;
			struct states ps = { { NULL }, { 0 }, 0 };
			search_options po = o;
			dse_error err;
			void *pb;
			size_t psize;

			po.resume = NULL;
			po.checkpoint = keep_state;
			po.checkpoint_user = &ps;
			assert_int_equal(ev.part(ev.model, 0, &pe), 0);
			assert_int_equal(search_run(search_space_part(s, 0),
				&pe, &po, MPI_COMM_WORLD, &pr, NULL),
				dse_stat_ok);
			if (rank == 0)
				assert_true(ps.n > 0);
			pb = bcast_state(&ps, 0, &psize, rank);
			assert_int_equal(search_state_check(s, &o, pb, psize,
				&err), dse_stat_error);
			assert_int_equal(err.code, DSE_E_INPUT);
			free(pb);
			while (ps.n > 0)
				free(ps.bytes[--ps.n]);
			search_front_free(pr.front);
		}
		search_front_free(r.front);
		free(b);
	}
	o.resume = NULL;
	while (st.n > 0)
		free(st.bytes[--st.n]);
	search_front_free(ref.front);
	search_space_free(s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_exhaustive_is_union),
		cmocka_unit_test(test_heuristics),
		cmocka_unit_test(test_resume),
	};
	dse_error err;
	int rc;

	if (search_mpi_init(&argc, &argv, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (rc)
		MPI_Abort(MPI_COMM_WORLD, rc);
	MPI_Finalize();
	return rc;
}
