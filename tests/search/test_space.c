/* The space: encode inverts decode over whole spaces, values outside the
 * lists encode to UINT64_MAX, the odometer walks the indices in order,
 * and tiling chains are stored and checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "search/search.h"
#include "search/search_private.h"

struct space_case {
	const char *what;
	int n_knobs;
	int n[4];
	int64_t v[4][6];
	uint64_t size;		/* by hand: the product of the list lengths */
};

static const struct space_case cases[] = {
	{ "one knob", 1, { 5 }, { { 1, 2, 4, 8, 16 } }, 5 },
	{ "unsorted and negative values", 3, { 3, 1, 4 },
	  { { 7, -2, 3 }, { 42 }, { 0, -1, 100, 5 } }, 12 },
	{ "four knobs", 4, { 2, 3, 6, 5 },
	  { { 1, 2 }, { 3, 1, 2 }, { 1, 2, 3, 4, 6, 12 },
	    { 2147483647, -2147483647 - 1, 0, 9, 8 } }, 180 },
};

static search_space *build(const struct space_case *c)
{
	search_space *s = search_space_alloc(c->n_knobs);
	char name[8];
	int k;

	assert_non_null(s);
	for (k = 0; k < c->n_knobs; k++) {
		name[0] = 'k';
		name[1] = (char) ('0' + k);
		name[2] = '\0';
		assert_int_equal(search_space_set_knob(s, k, name, c->v[k],
			c->n[k], NULL), dse_stat_ok);
	}
	return s;
}

static void test_round_trip(void **state)
{
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct space_case *k = &cases[c];
		search_space *s = build(k);
		int32_t knobs[SEARCH_MAX_KNOBS], walk[SEARCH_MAX_KNOBS];
		int digit[SEARCH_MAX_KNOBS], j, more = 1;
		uint64_t idx, rest;

		assert_int_equal(search_space_size(s), k->size);
		search__space_digits(s, 0, digit);
		search_space_decode(s, 0, walk);
		for (idx = 0; idx < k->size; idx++) {
			assert_true(more);
			search_space_decode(s, idx, knobs);
			assert_memory_equal(knobs, walk,
				k->n_knobs * sizeof(*knobs));
			assert_int_equal(search_space_encode(s, knobs), idx);
			/* Knob 0 is the most significant digit. */
			rest = idx;
			for (j = k->n_knobs - 1; j >= 0; j--) {
				assert_int_equal(knobs[j],
					k->v[j][rest % (uint64_t) k->n[j]]);
				rest /= (uint64_t) k->n[j];
			}
			more = search__space_next(s, digit, walk);
		}
		assert_false(more);
		/* A value in no list encodes to UINT64_MAX. */
		search_space_decode(s, k->size - 1, knobs);
		knobs[k->n_knobs - 1] = 12345;
		assert_true(search_space_encode(s, knobs) == UINT64_MAX);
		search_space_free(s);
	}
}

static void test_chains(void **state)
{
	const int64_t v[3] = { 1, 2, 4 };
	search_space *s = search_space_alloc(3);
	int64_t top = -5;
	int level = -5, k;

	(void) state;
	for (k = 0; k < 3; k++)
		assert_int_equal(search_space_set_knob(s, k, "x", v, 3, NULL),
			dse_stat_ok);
	/* Plain choices by default. */
	for (k = 0; k < 3; k++)
		assert_int_equal(search_space_knob_chain(s, k, &level, &top),
			-1);
	assert_int_equal(search_space_knob_chain(s, 0, NULL, NULL), -1);
	assert_int_equal(search_space_set_chain(s, 0, 2, 0, 64, NULL),
		dse_stat_ok);
	assert_int_equal(search_space_set_chain(s, 1, 2, 1, 64, NULL),
		dse_stat_ok);
	assert_int_equal(search_space_knob_chain(s, 0, &level, &top), 2);
	assert_int_equal(level, 0);
	assert_int_equal(top, 64);
	assert_int_equal(search_space_knob_chain(s, 1, &level, NULL), 2);
	assert_int_equal(level, 1);
	assert_int_equal(search_space_knob_chain(s, 2, NULL, NULL), -1);
	/* Bad chains are refused and leave the knob as it was. */
	assert_int_equal(search_space_set_chain(s, 1, -2, 0, 64, NULL),
		dse_stat_error);
	assert_int_equal(search_space_set_chain(s, 1, 0, -1, 64, NULL),
		dse_stat_error);
	assert_int_equal(search_space_set_chain(s, 1, 0, 0, 0, NULL),
		dse_stat_error);
	assert_int_equal(search_space_set_chain(s, 3, 0, 0, 8, NULL),
		dse_stat_error);
	assert_int_equal(search_space_knob_chain(s, 1, &level, &top), 2);
	assert_int_equal(level, 1);
	/* Chain -1 makes the knob a plain choice again. */
	assert_int_equal(search_space_set_chain(s, 1, -1, 0, 0, NULL),
		dse_stat_ok);
	assert_int_equal(search_space_knob_chain(s, 1, NULL, NULL), -1);
	search_space_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
