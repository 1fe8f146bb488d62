/* The cloud keeps the points of smallest hash, whatever the order of
 * offers and however they are split and merged; its size is bounded, a
 * point offered twice is kept once, and it sorts by index; a ceiling
 * (the sweep's threads get root's) changes nothing merged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "search/search.h"
#include "search/search_private.h"

/* The splitmix64 finaliser, written out here so the test does not take
 * the ranking from the code under test.
 */
static uint64_t ref_hash(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int cmp_hash(const void *va, const void *vb)
{
	uint64_t a = ref_hash(*(const uint64_t *) va);
	uint64_t b = ref_hash(*(const uint64_t *) vb);

	return (a > b) - (a < b);
}

static int cmp_u64(const void *va, const void *vb)
{
	uint64_t a = *(const uint64_t *) va, b = *(const uint64_t *) vb;

	return (a > b) - (a < b);
}

/* The expected cloud: the k indices of smallest hash, sorted by index. */
static size_t reference(const uint64_t *idx, size_t n, size_t k,
	uint64_t *out)
{
	memcpy(out, idx, n * sizeof(*idx));
	qsort(out, n, sizeof(*out), cmp_hash);
	if (k > n)
		k = n;
	qsort(out, k, sizeof(*out), cmp_u64);
	return k;
}

static void offer(search_cloud *c, uint64_t index)
{
	search_point p;

	memset(&p, 0, sizeof(p));
	p.index = index;
	/* A payload that follows the index, to check points move whole. */
	p.knobs[0] = (int32_t) (index * 7);
	p.metrics.dsp = (int64_t) index + 1;
	assert_true(search_cloud_add(c, &p) >= 0);
}

static void check(search_cloud *c, const uint64_t *expect, size_t n)
{
	size_t i;

	search_cloud_sort(c);
	assert_int_equal(search_cloud_size(c), n);
	for (i = 0; i < n; i++) {
		const search_point *p = search_cloud_at(c, i);

		assert_int_equal(p->index, expect[i]);
		assert_int_equal(p->knobs[0], (int32_t) (expect[i] * 7));
		assert_int_equal(p->metrics.dsp, (int64_t) expect[i] + 1);
	}
}

struct cloud_case {
	size_t n;		/* distinct indices offered */
	size_t k;		/* cloud size */
	int parts;		/* clouds the offers are split over */
};

static const struct cloud_case cases[] = {
	{ 0, 5, 1 }, { 3, 5, 2 }, { 100, 1, 3 }, { 100, 100, 4 },
	{ 1000, 37, 7 }, { 5000, 300, 16 }, { 20000, 64, 2 },
};

/* For each case, many random orders and splits: the merged cloud is
 * always the reference, and no cloud ever holds more than k points.
 */
static void test_any_split(void **state)
{
	uint64_t s = 99;
	size_t c, i;
	int trial, j;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct cloud_case *k = &cases[c];
		uint64_t *idx = malloc((k->n + 1) * sizeof(*idx));
		uint64_t *expect = malloc((k->n + 1) * sizeof(*idx));
		size_t n_expect;

		/* Sparse, unordered indices over the whole 64-bit range. */
		for (i = 0; i < k->n; i++)
			idx[i] = i % 3 ? rng(&s) : i;
		qsort(idx, k->n, sizeof(*idx), cmp_u64);
		for (i = 1; i < k->n; i++)
			assert_true(idx[i] != idx[i - 1]);
		n_expect = reference(idx, k->n, k->k, expect);
		for (trial = 0; trial < 10; trial++) {
			search_cloud *part[16], *all;

			for (j = 0; j < k->parts; j++)
				part[j] = search_cloud_alloc(k->k);
			/* Shuffle, then deal at random. */
			for (i = k->n; i > 1; i--) {
				size_t r = rng(&s) % i;
				uint64_t t = idx[i - 1];

				idx[i - 1] = idx[r];
				idx[r] = t;
			}
			for (i = 0; i < k->n; i++) {
				j = (int) (rng(&s) % (uint64_t) k->parts);
				offer(part[j], idx[i]);
				assert_true(search_cloud_size(part[j]) <= k->k);
			}
			all = search_cloud_alloc(k->k);
			for (j = k->parts - 1; j >= 0; j--) {
				assert_int_equal(search_cloud_merge(all, part[j],
					NULL), dse_stat_ok);
				assert_true(search_cloud_size(all) <= k->k);
				search_cloud_free(part[j]);
			}
			check(all, expect, n_expect);
			search_cloud_free(all);
		}
		free(idx);
		free(expect);
	}
}

/* Offering a point twice keeps it once, before and after the cloud is
 * full, and after a sort (which reorders the points under the heap).
 */
static void test_duplicates_and_sort(void **state)
{
	search_cloud *c = search_cloud_alloc(10);
	uint64_t idx[40], expect[40];
	search_point p;
	size_t i, n;

	(void) state;
	for (i = 0; i < 40; i++)
		idx[i] = 1000 + 3 * i;
	n = reference(idx, 40, 10, expect);
	memset(&p, 0, sizeof(p));
	for (i = 0; i < 20; i++)
		offer(c, idx[i]);
	search_cloud_sort(c);
	for (i = 1; i < search_cloud_size(c); i++)
		assert_true(search_cloud_at(c, i - 1)->index <
			search_cloud_at(c, i)->index);
	for (i = 0; i < 40; i++)
		offer(c, idx[i]);
	for (i = 0; i < 40; i++) {
		p.index = idx[i];
		p.knobs[0] = (int32_t) (idx[i] * 7);
		p.metrics.dsp = (int64_t) idx[i] + 1;
		assert_int_equal(search_cloud_add(c, &p), 0);
	}
	check(c, expect, n);
	search_cloud_free(c);
}

/* Clouds given the ceiling of the cloud they are merged into (as the
 * sweep's threads are given root's) turn hopeless offers away, and the
 * merge is still the reference.
 */
static void test_ceiling(void **state)
{
	uint64_t idx[3000], expect[3000], s = 5, c;
	search_cloud *root = search_cloud_alloc(50), *part[3];
	size_t i, n;
	int j;

	(void) state;
	for (i = 0; i < 3000; i++)
		idx[i] = 7 * i + 1;
	n = reference(idx, 3000, 50, expect);
	assert_true(search__cloud_ceiling(root) == UINT64_MAX);
	for (i = 0; i < 1000; i++)
		offer(root, idx[i]);
	c = search__cloud_ceiling(root);
	assert_true(c < UINT64_MAX);
	for (j = 0; j < 3; j++) {
		part[j] = search_cloud_alloc(50);
		search__cloud_set_ceiling(part[j], c);
		/* A ceiling only comes down. */
		search__cloud_set_ceiling(part[j], UINT64_MAX);
	}
	for (i = 1000; i < 3000; i++)
		offer(part[rng(&s) % 3], idx[i]);
	for (j = 0; j < 3; j++) {
		for (i = 0; i < search_cloud_size(part[j]); i++)
			assert_true(ref_hash(search_cloud_at(part[j], i)->index)
				< c);
		assert_int_equal(search_cloud_merge(root, part[j], NULL), 0);
		search_cloud_free(part[j]);
	}
	check(root, expect, n);
	search_cloud_free(root);
}

static void test_empty(void **state)
{
	search_cloud *c = search_cloud_alloc(0);
	search_point p;

	(void) state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(search_cloud_add(c, &p), 0);
	assert_int_equal(search_cloud_size(c), 0);
	search_cloud_sort(c);
	assert_null(search_cloud_free(c));
	assert_null(search_cloud_free(NULL));
	assert_int_equal(search_cloud_size(NULL), 0);
	/* Index 0, whose hash is 0, is a point like any other. */
	c = search_cloud_alloc(2);
	assert_int_equal(search_cloud_add(c, &p), 1);
	assert_int_equal(search_cloud_add(c, &p), 0);
	assert_int_equal(search_cloud_size(c), 1);
	search_cloud_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_any_split),
		cmocka_unit_test(test_duplicates_and_sort),
		cmocka_unit_test(test_ceiling),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
