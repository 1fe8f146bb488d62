/* Reductions up a binomial tree: fronts, clouds and counters reach root
 * in ceil(log2 P) steps instead of a gather of every rank's bytes.
 *
 * Rank r sends to r - m, where m is the lowest set bit of r, after
 * receiving from r + m' for every m' below m (those within the
 * communicator).  Each rank folds what its children send into its own
 * state ("absorb") before packing it for its parent ("pack"), so a
 * message holds one merged front, never the fronts of a whole subtree
 * side by side: a front merged from any subset of points is at most as
 * large as the front of all of them, so root receives ceil(log2 P)
 * messages, each no larger than the final front and cloud, and holds one
 * at a time.  The depth, not the rank count, sets the time: at 1,024
 * ranks a merge is ten steps of one message each.
 *
 * Every rank takes part whether or not its own work failed: a failed
 * rank sends an empty message with a failure flag, its parent passes the
 * flag on, and root reports the failure, so no rank is left waiting.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

/* The first byte of every message: 0 when the subtree below is well,
 * 1 when some rank of it failed (the rest is then empty).
 */
enum { MSG_OK = 0, MSG_FAILED = 1 };

/* Receives one message from "src" and absorbs it.  *failed becomes 1
 * when the sender's subtree failed or the message could not be taken in;
 * only a failure of the transport itself is returned as an error.
 */
static dse_stat take_child(MPI_Comm comm, int src, int tag,
	search__absorb_fn absorb, void *user, int *failed, dse_error *err)
{
	MPI_Status status;
	unsigned char *msg, sink;
	int n;

	if (search__mpi_check(MPI_Probe(src, tag, comm, &status), "MPI_Probe",
			err) ||
	    search__mpi_check(MPI_Get_count(&status, MPI_BYTE, &n),
			"MPI_Get_count", err))
		return dse_stat_error;
	msg = n > 0 ? malloc((size_t) n) : NULL;
	/* The message must be received even when there is no room for it,
	 * or its sender would wait for ever: it is then received into one
	 * byte.  Under MPI's default error handler the truncation ends the
	 * whole job with MPI's message (an ending, never a wait); under one
	 * that returns errors it counts as this subtree's failure.
	 */
	if (!msg) {
		MPI_Recv(&sink, 1, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE);
		*failed = 1;
		return dse_stat_ok;
	}
	if (search__mpi_check(MPI_Recv(msg, n, MPI_BYTE, src, tag, comm,
			MPI_STATUS_IGNORE), "MPI_Recv", err)) {
		free(msg);
		return dse_stat_error;
	}
	if (msg[0] != MSG_OK ||
	    (!*failed && absorb(msg + 1, (size_t) n - 1, user) < 0))
		*failed = 1;
	free(msg);
	return dse_stat_ok;
}

dse_stat search__tree_reduce(MPI_Comm comm, int tag, int mine_failed,
	search__absorb_fn absorb, search__pack_fn pack, void *user,
	dse_error *err)
{
	static const unsigned char failure = MSG_FAILED;
	search__buf out = { 0 };
	unsigned char flag = MSG_OK;
	int rank, size, top, m, failed = mine_failed != 0;
	dse_stat st;

	if (search__mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank",
			err) ||
	    search__mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size",
			err))
		return dse_stat_error;
	/* The children: rank + m for every power of two m below the rank's
	 * lowest set bit ("top"; on root, every one below the size).
	 */
	for (top = 1; top < size && !(rank & top); top <<= 1)
		;
	for (m = 1; m < top && rank + m < size; m <<= 1)
		if (take_child(comm, rank + m, tag, absorb, user, &failed,
				err))
			return dse_stat_error;
	/* A failure of this rank's own work is already in "err". */
	if (rank == 0 && failed && !mine_failed)
		return dse_error_set(err, DSE_E_RUNTIME, "the search failed on "
			"another rank (out of memory)");
	if (rank == 0)
		return failed ? dse_stat_error : dse_stat_ok;
	search__put(&out, &flag, 1);
	if (!failed && pack(&out, user) < 0)
		failed = 1;
	failed |= out.failed || out.n > INT_MAX;
	st = search__mpi_check(failed ?
		MPI_Send(&failure, 1, MPI_BYTE, rank - top, tag, comm) :
		MPI_Send(out.p, (int) out.n, MPI_BYTE, rank - top, tag, comm),
		"MPI_Send", err);
	search__buf_clear(&out);
	if (st == dse_stat_ok && failed)
		st = mine_failed ? dse_stat_error : dse_error_set(err,
			DSE_E_NOMEM, "out of memory merging results on rank %d",
			rank);
	return st;
}
