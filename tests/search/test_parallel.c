/* The parallel building blocks of the search: the shared counter that
 * deals work as ranks free up (deal.c), and the reduction up a binomial
 * tree of ranks (tree.c).  The dealer never hands one value to two ranks
 * and leaves no gap, whoever asks and how much; the tree reaches root in
 * ceil(log2 P) steps with every rank's contribution, and a rank that fails
 * (its own part, or packing its message) makes root and its ancestors
 * report an error without leaving any rank waiting.  ctest runs this
 * binary under mpiexec with 1, 2, 3 and 4 ranks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpi.h>

#include "search/search_private.h"

static int rank_, size_;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* Every rank takes runs of 1 to 3 values, as many runs as its rank plus
 * 5; root gathers every run and checks that they tile [0, total) with no
 * overlap, and a read (k = 0) at the end sees the total.
 */
static void test_dealer_tiles(void **state)
{
	enum { MAX_RUNS = 64 };
	search__dealer *d;
	uint64_t mine[2 * MAX_RUNS], *all = NULL, end = 0, total = 0, v;
	int n = rank_ + 5, i, counts[64], displs[64], sum = 0;

	(void) state;
	assert_true(size_ <= 64 && n <= MAX_RUNS);
	d = search__dealer_alloc(MPI_COMM_WORLD, NULL);
	assert_non_null(d);
	for (i = 0; i < n; i++) {
		uint64_t k = (uint64_t) (1 + (rank_ + i) % 3);

		assert_int_equal(search__dealer_add(d, k, &mine[2 * i], NULL),
			dse_stat_ok);
		mine[2 * i + 1] = k;
		total += k;
	}
	MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UINT64_T, MPI_SUM,
		MPI_COMM_WORLD);
	n *= 2;
	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank_ == 0) {
		for (i = 0; i < size_; i++) {
			displs[i] = sum;
			sum += counts[i];
		}
		all = malloc(sizeof(*all) * (size_t) sum);
		assert_non_null(all);
	}
	MPI_Gatherv(mine, n, MPI_UINT64_T, all, counts, displs, MPI_UINT64_T,
		0, MPI_COMM_WORLD);
	/* Everyone has taken its runs before root reads the count. */
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank_ == 0) {
		qsort(all, (size_t) sum / 2, 2 * sizeof(*all), cmp_u64);
		for (i = 0; i < sum; i += 2) {
			assert_int_equal(all[i], end);
			end += all[i + 1];
		}
		assert_int_equal(end, total);
		assert_int_equal(search__dealer_add(d, 0, &v, NULL),
			dse_stat_ok);
		assert_int_equal(v, total);
		free(all);
	}
	search__dealer_free(d);
}

/* The tree's payload in these tests: a sum of contributions, a count of
 * messages taken in, and the deepest chain of messages below.
 */
struct acc {
	uint64_t sum;
	uint64_t received;
	uint64_t depth;
	int fail_pack;
};

static int absorb_acc(const void *bytes, size_t n, void *user)
{
	struct acc *a = user;
	uint64_t in[2];

	if (n != sizeof(in))
		return -1;
	memcpy(in, bytes, sizeof(in));
	a->sum += in[0];
	a->received++;
	if (in[1] + 1 > a->depth)
		a->depth = in[1] + 1;
	return 0;
}

static int pack_acc(search__buf *out, void *user)
{
	struct acc *a = user;
	uint64_t v[2] = { a->sum, a->depth };

	if (a->fail_pack)
		return -1;
	search__put(out, v, sizeof(v));
	return out->failed ? -1 : 0;
}

static uint64_t ceil_log2(int n)
{
	uint64_t d = 0;

	while (((int64_t) 1 << d) < n)
		d++;
	return d;
}

/* The longest chain of messages to root: rank r's message passes one
 * rank per set bit of r.
 */
static uint64_t deepest(int n)
{
	uint64_t d = 0;
	int r;

	for (r = 0; r < n; r++)
		if ((uint64_t) __builtin_popcount((unsigned) r) > d)
			d = (uint64_t) __builtin_popcount((unsigned) r);
	return d;
}

/* Root ends with every rank's contribution, from ceil(log2 P) messages
 * of its own, over chains no longer than that.
 */
static void test_tree_sum(void **state)
{
	struct acc a = { (uint64_t) rank_ + 1, 0, 0, 0 };

	(void) state;
	assert_int_equal(search__tree_reduce(MPI_COMM_WORLD, 77, 0,
		absorb_acc, pack_acc, &a, NULL), dse_stat_ok);
	if (rank_ == 0) {
		assert_int_equal(a.sum,
			(uint64_t) size_ * (uint64_t) (size_ + 1) / 2);
		assert_int_equal(a.depth, deepest(size_));
		assert_true(a.depth <= ceil_log2(size_));
		assert_int_equal(a.received, ceil_log2(size_));
	}
}

/* A failure on the last rank, of its own part or of its packing, reaches
 * root as an error; every rank returns (a hang would time the test out),
 * and a second reduction afterwards works.
 */
static void test_tree_failure(void **state)
{
	int how;

	(void) state;
	for (how = 0; how < 2 && size_ > 1; how++) {
		struct acc a = { 1, 0, 0, 0 };
		int last = rank_ == size_ - 1;
		dse_error err;
		dse_stat st;

		a.fail_pack = how == 1 && last;
		dse_error_clear(&err);
		st = search__tree_reduce(MPI_COMM_WORLD, 78, how == 0 && last,
			absorb_acc, pack_acc, &a, &err);
		if (rank_ == 0)
			assert_int_equal(st, dse_stat_error);
		if (last)
			assert_int_equal(st, dse_stat_error);
		a.sum = 1;
		a.fail_pack = 0;
		a.depth = a.received = 0;
		assert_int_equal(search__tree_reduce(MPI_COMM_WORLD, 79, 0,
			absorb_acc, pack_acc, &a, NULL), dse_stat_ok);
		if (rank_ == 0)
			assert_int_equal(a.sum, (uint64_t) size_);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dealer_tiles),
		cmocka_unit_test(test_tree_sum),
		cmocka_unit_test(test_tree_failure),
	};
	int fails;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
	MPI_Comm_size(MPI_COMM_WORLD, &size_);
	fails = cmocka_run_group_tests(tests, NULL, NULL);
	MPI_Finalize();
	return fails ? 1 : 0;
}
