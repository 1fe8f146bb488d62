/* Checkpoint state: a framed payload reads back as written; a state from
 * another search is refused with a message saying what differs; any
 * flipped byte, truncation or extra byte is caught.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/search.h"
#include "search/search_private.h"

/* 4 x 5 x 6 = 120 points; "last" replaces knob 2's values. */
static search_space *make_space(int n2, int64_t last)
{
	const int64_t a[6] = { 1, 2, 3, 4, 5, 6 };
	int64_t c[7] = { 1, 2, 3, 4, 5, 6, 7 };
	search_space *s = search_space_alloc(3);

	c[n2 - 1] = last;
	assert_int_equal(search_space_set_knob(s, 0, "a", a, 4, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 1, "b", a, 5, NULL), 0);
	assert_int_equal(search_space_set_knob(s, 2, "c", c, n2, NULL), 0);
	return s;
}

static search_options base_options(void)
{
	search_options o;

	memset(&o, 0, sizeof(o));
	o.strategy = SEARCH_GENETIC;
	o.seed = 3;
	o.n_obj = 2;
	o.objectives[0] = SIM_M_LATENCY;
	o.objectives[1] = SIM_M_DSP;
	o.n_constraints = 1;
	o.constraints[0].metric = SIM_M_DSP;
	o.constraints[0].max = 600;
	return o;
}

static search_point point(uint64_t index, double latency, int64_t dsp)
{
	search_point p;

	memset(&p, 0, sizeof(p));
	p.index = index;
	p.knobs[1] = (int32_t) index;
	p.metrics.latency_s = latency;
	p.metrics.dsp = dsp;
	return p;
}

/* A state with a front of three points and a cloud of four. */
static void make_state(const search_space *s, const search_options *o,
	search__buf *out)
{
	search_front *f = search_front_alloc(o->n_obj, o->objectives);
	search_cloud *c = search_cloud_alloc(10);
	search__buf pl = { 0 };
	search_point p;
	uint64_t i;

	for (i = 0; i < 4; i++) {
		p = point(10 + i, 1.0 + (double) i, 40 - 10 * (int64_t) i);
		assert_int_equal(search_front_add(f, &p), 1);
		assert_int_equal(search_cloud_add(c, &p), 1);
	}
	p = point(99, 9, 99);
	assert_int_equal(search_front_add(f, &p), 0);
	search__put_u64(&pl, 42);
	search__put_f64(&pl, 2.5);
	search__put_front(&pl, f);
	search__put_cloud(&pl, c);
	memset(out, 0, sizeof(*out));
	assert_int_equal(search__state_frame(s, o, &pl, out, NULL), 0);
	search__buf_clear(&pl);
	search_front_free(f);
	search_cloud_free(c);
}

static void test_round_trip(void **state)
{
	search_space *s = make_space(6, 6);
	search_options o = base_options();
	search_front *f = search_front_alloc(2, o.objectives);
	search_cloud *c = search_cloud_alloc(10);
	search__buf st;
	search__reader r;
	uint64_t u;
	double d;
	size_t i;

	(void) state;
	make_state(s, &o, &st);
	assert_int_equal(search_state_check(s, &o, st.p, st.n, NULL), 0);
	assert_int_equal(search__state_open(s, &o, st.p, st.n, &r, NULL), 0);
	assert_int_equal(search__get_u64(&r, &u), 0);
	assert_int_equal(u, 42);
	assert_int_equal(search__get_f64(&r, &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(search__get_front(&r, f), 0);
	assert_int_equal(search__get_cloud(&r, c), 0);
	assert_int_equal(r.off, r.n);
	search_front_sort(f);
	search_cloud_sort(c);
	assert_int_equal(search_front_size(f), 4);
	assert_int_equal(search_cloud_size(c), 4);
	for (i = 0; i < 4; i++) {
		/* Sorted by latency: index 10 first. */
		assert_int_equal(search_front_at(f, i)->index, 10 + i);
		assert_int_equal(search_front_at(f, i)->knobs[1], 10 + i);
		assert_int_equal(search_cloud_at(c, i)->index, 10 + i);
		assert_int_equal(search_cloud_at(c, i)->metrics.dsp,
			40 - 10 * (int64_t) i);
	}
	/* Past the end: fails, and every later read fails too. */
	assert_int_equal(search__get_u64(&r, &u), -1);
	r.off = 0;
	assert_int_equal(search__get_u64(&r, &u), -1);
	search__buf_clear(&st);
	search_front_free(f);
	search_cloud_free(c);
	search_space_free(s);
}

struct mismatch {
	const char *message;
	int n2;			/* knob 2's list length */
	int64_t last;		/* its last value */
	int chain;		/* set a chain on knob 0 */
	void (*change)(search_options *o);
};

static void to_anneal(search_options *o) { o->strategy = SEARCH_ANNEAL; }
static void seed_1(search_options *o) { o->seed = 1; }
static void bram(search_options *o) { o->objectives[1] = SIM_M_BRAM18K; }
static void dsp_700(search_options *o) { o->constraints[0].max = 700; }
static void no_con(search_options *o) { o->n_constraints = 0; }
static void sampled(search_options *o)
{
	o->model = SIM_MODEL_SAMPLED;
	o->band = 0.1;
}
static void same(search_options *o) { (void) o; }

static const struct mismatch mismatches[] = {
	{ "the checkpoint was made by the genetic strategy; this search "
	  "uses anneal", 6, 6, 0, to_anneal },
	{ "the checkpoint was made with seed 3; this search has seed 1",
	  6, 6, 0, seed_1 },
	{ "the checkpoint was made for a space of 120 points and 3 knobs; "
	  "this one has 140 points and 3 knobs", 7, 7, 0, same },
	{ "the checkpoint was made for a space of the same size but other "
	  "knob values or tiling chains", 6, 60, 0, same },
	{ "the checkpoint was made for a space of the same size but other "
	  "knob values or tiling chains", 6, 6, 1, same },
	{ "the checkpoint was made with objectives latency, dsp; this search "
	  "has latency, bram18k", 6, 6, 0, bram },
	{ "the checkpoint was made with other constraints (1 of them; this "
	  "search has 1)", 6, 6, 0, dsp_700 },
	{ "the checkpoint was made with other constraints (1 of them; this "
	  "search has 0)", 6, 6, 0, no_con },
	{ "the checkpoint was made with the analytic model and band 0; this "
	  "search uses the sampled model and band 0.1", 6, 6, 0, sampled },
};

static void test_mismatch(void **state)
{
	search_space *s = make_space(6, 6);
	search_options o = base_options();
	search__buf st;
	size_t i;

	(void) state;
	make_state(s, &o, &st);
	for (i = 0; i < sizeof(mismatches) / sizeof(mismatches[0]); i++) {
		const struct mismatch *m = &mismatches[i];
		search_space *s2 = make_space(m->n2, m->last);
		search_options o2 = base_options();
		dse_error err;

		if (m->chain)
			assert_int_equal(search_space_set_chain(s2, 0, 0, 0, 8,
				NULL), 0);
		m->change(&o2);
		dse_error_clear(&err);
		assert_int_equal(search_state_check(s2, &o2, st.p, st.n, &err),
			dse_stat_error);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_string_equal(err.msg, m->message);
		search_space_free(s2);
	}
	search__buf_clear(&st);
	search_space_free(s);
}

static uint64_t fnv(const unsigned char *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* Every flipped byte, truncation and extension is refused. */
static void test_damage(void **state)
{
	search_space *s = make_space(6, 6);
	search_options o = base_options();
	search__buf st;
	unsigned char *copy;
	dse_error err;
	size_t i, header;
	char want[128];

	(void) state;
	make_state(s, &o, &st);
	copy = malloc(st.n + 1);
	for (i = 0; i < st.n; i++) {
		memcpy(copy, st.p, st.n);
		copy[i] ^= 0x5a;
		assert_int_equal(search_state_check(s, &o, copy, st.n, &err),
			dse_stat_error);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_non_null(strstr(err.msg, i < 8 ?
			"not a dse checkpoint" : "the checkpoint is corrupt"));
	}
	for (i = 0; i < st.n; i++) {
		assert_int_equal(search_state_check(s, &o, st.p, i, &err),
			dse_stat_error);
		assert_non_null(strstr(err.msg, "the checkpoint is truncated"));
	}
	snprintf(want, sizeof(want), "the checkpoint is truncated: %zu of "
		"%zu bytes", st.n - 1, st.n);
	assert_int_equal(search_state_check(s, &o, st.p, st.n - 1, &err), -1);
	assert_string_equal(err.msg, want);
	memcpy(copy, st.p, st.n);
	copy[st.n] = 0;
	assert_int_equal(search_state_check(s, &o, copy, st.n + 1, &err), -1);
	snprintf(want, sizeof(want), "the checkpoint is corrupt: it has %zu "
		"bytes, 1 more than it says", st.n + 1);
	assert_string_equal(err.msg, want);
	/* A header from another format version, with a valid header
	 * checksum: the payload is five words and eight points (four in
	 * the front after its level, four in the cloud).
	 */
	header = st.n - (4 * sizeof(uint64_t) + sizeof(double) +
		8 * sizeof(search_point));
	memcpy(copy, st.p, st.n);
	copy[8] ^= 1;
	{
		uint64_t h = fnv(copy, header - 8);

		memcpy(copy + header - 8, &h, 8);
	}
	assert_int_equal(search_state_check(s, &o, copy, st.n, &err), -1);
	assert_non_null(strstr(err.msg, "written by another version of dse"));
	free(copy);
	search__buf_clear(&st);
	search_space_free(s);
}

/* A damaged point count never makes a reader allocate or loop wildly. */
static void test_bad_count(void **state)
{
	search__buf b = { 0 };
	search__reader r;
	search_front *f;
	search_point p = point(1, 1, 1);
	const int obj[1] = { SIM_M_LATENCY };

	(void) state;
	f = search_front_alloc(1, obj);
	search__put_u64(&b, UINT64_C(1) << 60);
	search__put(&b, &p, sizeof(p));
	r.p = b.p;
	r.n = b.n;
	r.off = 0;
	r.failed = 0;
	assert_int_equal(search__get_front(&r, f), -1);
	assert_int_equal(search_front_size(f), 0);
	search__buf_clear(&b);
	search_front_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_mismatch),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_bad_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
