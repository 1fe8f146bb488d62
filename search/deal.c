/* Work dealt as ranks free up: one shared counter of blocks.
 *
 * Root exposes a 64-bit counter in an MPI window, and a rank that needs
 * work adds to it with MPI_Fetch_and_op (MPI_SUM): one atomic operation
 * that the MPI library carries out at root without root's program taking
 * part (passive target synchronisation, inside one MPI_Win_lock_all epoch
 * that lasts as long as the dealer).  Whatever value a rank reads, no
 * other rank reads it, so every block goes to exactly one rank, and a rank
 * that runs slower (a shared core, a slower node) simply takes fewer.
 *
 * That is how the MPI standard describes it, but not how every library
 * does it: an MPI whose transport has no hardware atomics between two
 * processes (MPICH 4 over UCX on one machine, for one) carries the
 * operation out in software at root, the next time root's program enters
 * MPI, so a rank asking for work waited for root's next request of its
 * own, and spun while it waited (on 2 ranks of one machine 77% more CPU
 * time than the sweep needed).  When every rank shares root's node, the
 * counter therefore lives in memory the ranks share
 * (MPI_Win_allocate_shared), and a rank adds to it with the processor's
 * own atomic fetch-and-add, which needs nothing from root.  Ranks spread
 * over nodes use MPI_Fetch_and_op on an ordinary window: MPI's atomics
 * are atomic only among themselves, so the two kinds never mix on one
 * counter.
 *
 * On one rank the counter is a plain variable.  Only one thread of a rank
 * calls the dealer (the MPI library is initialised for funnelled calls),
 * so the variable needs no atomics and the window no lock of ours.
 */
#include <stdlib.h>

#include "search_private.h"

struct search__dealer {
	MPI_Comm comm;
	int size;
	MPI_Win win;
	uint64_t *base;		/* root's counter (NULL elsewhere) */
	uint64_t *shared;	/* the counter in shared memory, or NULL */
	uint64_t local;		/* the counter on one rank */
	int locked;		/* inside the MPI_Win_lock_all epoch */
};

/* Whether every rank of "comm" shares one node's memory (in *yes). */
static dse_stat one_node(MPI_Comm comm, int size, int *yes, dse_error *err)
{
	MPI_Comm node;
	int n = 0;

	if (search__mpi_check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED,
			0, MPI_INFO_NULL, &node), "MPI_Comm_split_type", err))
		return dse_stat_error;
	if (search__mpi_check(MPI_Comm_size(node, &n), "MPI_Comm_size",
			err)) {
		MPI_Comm_free(&node);
		return dse_stat_error;
	}
	MPI_Comm_free(&node);
	/* The sizes agree on every rank: all of them are on one node, or
	 * every node's communicator is smaller than "comm".
	 */
	*yes = n == size;
	return dse_stat_ok;
}

/* The window: the counter in shared memory when the ranks share a node,
 * else an ordinary window at root.  Collective.
 */
static dse_stat make_window(search__dealer *d, int rank, dse_error *err)
{
	MPI_Aint bytes = rank == 0 ? (MPI_Aint) sizeof(uint64_t) : 0;
	int shared, unit, rc;

	if (one_node(d->comm, d->size, &shared, err))
		return dse_stat_error;
	if (!shared) {
		rc = MPI_Win_allocate(bytes, sizeof(uint64_t), MPI_INFO_NULL,
			d->comm, &d->base, &d->win);
		if (rc != MPI_SUCCESS)
			d->win = MPI_WIN_NULL;
		return search__mpi_check(rc, "MPI_Win_allocate", err);
	}
	rc = MPI_Win_allocate_shared(bytes, sizeof(uint64_t), MPI_INFO_NULL,
		d->comm, &d->base, &d->win);
	if (rc != MPI_SUCCESS) {
		d->win = MPI_WIN_NULL;
		return search__mpi_check(rc, "MPI_Win_allocate_shared", err);
	}
	/* Every rank's own address of root's counter. */
	return search__mpi_check(MPI_Win_shared_query(d->win, 0, &bytes, &unit,
		&d->shared), "MPI_Win_shared_query", err);
}

search__dealer *search__dealer_alloc(MPI_Comm comm, dse_error *err)
{
	search__dealer *d = calloc(1, sizeof(*d));
	int rank;

	/* Every rank must take part in the window's creation, or none. */
	if (search__agree(d ? dse_stat_ok : dse_error_set(err, DSE_E_NOMEM,
			"out of memory"), comm, err)) {
		free(d);
		return NULL;
	}
	d->comm = comm;
	d->win = MPI_WIN_NULL;
	if (search__mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank",
			err) ||
	    search__mpi_check(MPI_Comm_size(comm, &d->size), "MPI_Comm_size",
			err))
		return search__dealer_free(d);
	if (d->size == 1)
		return d;
	if (make_window(d, rank, err))
		return search__dealer_free(d);
	if (rank == 0)
		*d->base = 0;
	/* The counter's first value is in place before anyone reads it. */
	if (search__mpi_check(MPI_Barrier(comm), "MPI_Barrier", err) ||
	    search__mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, d->win),
			"MPI_Win_lock_all", err))
		return search__dealer_free(d);
	d->locked = 1;
	return d;
}

search__dealer *search__dealer_free(search__dealer *d)
{
	if (!d)
		return NULL;
	/* A setup that failed before or at MPI_Win_lock_all holds no
	 * epoch, and unlocking a window that is not locked is erroneous
	 * (Open MPI returns an error, MPICH may abort).
	 */
	if (d->locked)
		MPI_Win_unlock_all(d->win);
	if (d->win != MPI_WIN_NULL)
		MPI_Win_free(&d->win);
	free(d);
	return NULL;
}

dse_stat search__dealer_add(search__dealer *d, uint64_t k, uint64_t *before,
	dse_error *err)
{
	if (d->size == 1) {
		*before = d->local;
		d->local += k;
		return dse_stat_ok;
	}
	/* Sequentially consistent, as MPI's own atomics are: the count
	 * root reads after the epoch's gather is every fetch's sum.
	 */
	if (d->shared) {
		*before = __atomic_fetch_add(d->shared, k, __ATOMIC_SEQ_CST);
		return dse_stat_ok;
	}
	/* MPI_NO_OP with k == 0 reads the counter. */
	if (search__mpi_check(MPI_Fetch_and_op(&k, before, MPI_UINT64_T, 0, 0,
			k ? MPI_SUM : MPI_NO_OP, d->win), "MPI_Fetch_and_op",
			err) ||
	    search__mpi_check(MPI_Win_flush(0, d->win), "MPI_Win_flush", err))
		return dse_stat_error;
	return dse_stat_ok;
}
