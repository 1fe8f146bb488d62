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
	uint64_t local;		/* the counter on one rank */
};

search__dealer *search__dealer_alloc(MPI_Comm comm, dse_error *err)
{
	search__dealer *d = calloc(1, sizeof(*d));
	int rank, rc;

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
	rc = MPI_Win_allocate(rank == 0 ? (MPI_Aint) sizeof(uint64_t) : 0,
		sizeof(uint64_t), MPI_INFO_NULL, comm, &d->base, &d->win);
	if (search__mpi_check(rc, "MPI_Win_allocate", err)) {
		d->win = MPI_WIN_NULL;
		return search__dealer_free(d);
	}
	if (rank == 0)
		*d->base = 0;
	/* The counter's first value is in place before anyone reads it. */
	if (search__mpi_check(MPI_Barrier(comm), "MPI_Barrier", err) ||
	    search__mpi_check(MPI_Win_lock_all(MPI_MODE_NOCHECK, d->win),
			"MPI_Win_lock_all", err))
		return search__dealer_free(d);
	return d;
}

search__dealer *search__dealer_free(search__dealer *d)
{
	if (!d)
		return NULL;
	if (d->win != MPI_WIN_NULL) {
		MPI_Win_unlock_all(d->win);
		MPI_Win_free(&d->win);
	}
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
	/* MPI_NO_OP with k == 0 reads the counter. */
	if (search__mpi_check(MPI_Fetch_and_op(&k, before, MPI_UINT64_T, 0, 0,
			k ? MPI_SUM : MPI_NO_OP, d->win), "MPI_Fetch_and_op",
			err) ||
	    search__mpi_check(MPI_Win_flush(0, d->win), "MPI_Win_flush", err))
		return dse_stat_error;
	return dse_stat_ok;
}
