/* Synchronisation points, and the byte collectives the strategies use
 * there.
 *
 * Only root's clock counts: root alone decides whether the time budget is
 * spent or a checkpoint is due, so every rank takes the same decision even
 * though their clocks differ.  A stop request may arrive on any rank (a
 * signal goes to the whole job, but not necessarily at the same moment),
 * so the ranks' flags (0 or 1) are reduced with a bitwise OR.  Both travel
 * in one MPI_Allreduce: root's entries carry its decisions and values, the
 * other ranks contribute zeros there, so the OR hands on root's bits
 * unchanged.  The OR, not MAX: MPICH 4.0.2 (Debian 12's) compares
 * unsigned integers as signed in MPI_MAX and MPI_MIN (its issue 6083,
 * fixed in 4.0.3), so a value of 2^63 or more, such as an unfilled
 * cloud's ceiling of UINT64_MAX, came back as root's value MAX 0 = 0, and
 * every rank then turned every cloud point away.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

void search__clock_start(search__clock *c, const search_options *opt,
	double before)
{
	c->t0 = MPI_Wtime();
	c->before = before > 0 ? before : 0;
	c->next_checkpoint = opt->checkpoint_interval > 0 ?
		c->t0 + opt->checkpoint_interval : INFINITY;
}

void search__clock_checkpointed(search__clock *c, const search_options *opt,
	double started)
{
	double now = MPI_Wtime(), took = now - started, gap = 0;
	double share = opt->checkpoint_share;

	if (share > 0 && share < 1)
		gap = took * (1 - share) / share;
	if (opt->checkpoint_interval > 0)
		c->next_checkpoint = now + (gap > opt->checkpoint_interval ?
			gap : opt->checkpoint_interval);
}

double search__clock_seconds(const search__clock *c)
{
	return c->before + (MPI_Wtime() - c->t0);
}

/* The entries of the reduced vector; root's values follow. */
enum { V_FAILED, V_SIGNAL, V_BUDGET, V_CHECKPOINT, V_VALUES };
#define MAX_SYNC_VALUES 4

dse_stat search__sync_value(search__clock *c, const search_options *opt,
	MPI_Comm comm, dse_stat mine, int *stop, int *checkpoint,
	uint64_t *values, int n_values, dse_error *err)
{
	uint64_t in[V_VALUES + MAX_SYNC_VALUES] = { 0 };
	uint64_t out[V_VALUES + MAX_SYNC_VALUES];
	int rank, i, n = V_VALUES + n_values;

	if (n_values < 0 || n_values > MAX_SYNC_VALUES)
		return dse_error_set(err, DSE_E_RUNTIME,
			"%d values at a synchronisation point", n_values);
	if (search__mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank",
			err))
		return dse_stat_error;
	in[V_FAILED] = mine != dse_stat_ok;
	in[V_SIGNAL] = opt->stop && *opt->stop ? 1 : 0;
	if (rank == 0) {
		in[V_BUDGET] = opt->budget_seconds > 0 &&
			search__clock_seconds(c) >= opt->budget_seconds;
		in[V_CHECKPOINT] = opt->checkpoint &&
			MPI_Wtime() >= c->next_checkpoint;
		for (i = 0; i < n_values; i++)
			in[V_VALUES + i] = values[i];
	}
	if (search__mpi_check(MPI_Allreduce(in, out, n, MPI_UINT64_T,
			MPI_BOR, comm), "MPI_Allreduce of the stop flags", err))
		return dse_stat_error;
	if (out[V_FAILED]) {
		if (mine == dse_stat_ok)
			dse_error_set(err, DSE_E_RUNTIME,
				"the search failed on another rank");
		return dse_stat_error;
	}
	*stop = out[V_SIGNAL] ? 1 : out[V_BUDGET] ? 2 : 0;
	/* A stop request always writes a final checkpoint; a spent budget
	 * ends the search normally, so it does not.
	 */
	/* Root schedules the next one once this one is written
	 * (search__clock_checkpointed).
	 */
	*checkpoint = opt->checkpoint && (out[V_CHECKPOINT] || *stop == 1);
	for (i = 0; i < n_values; i++)
		values[i] = out[V_VALUES + i];
	return dse_stat_ok;
}

dse_stat search__sync(search__clock *c, const search_options *opt,
	MPI_Comm comm, int *stop, int *checkpoint, dse_error *err)
{
	return search__sync_value(c, opt, comm, dse_stat_ok, stop,
		checkpoint, NULL, 0, err);
}

dse_stat search__gather_bytes(const void *mine, size_t n, MPI_Comm comm,
	void **all, size_t **sizes, dse_error *err)
{
	uint64_t n64 = n, *counts64 = NULL, total = 0;
	int rank, size, r, *counts = NULL, *displs = NULL;
	dse_stat st = dse_stat_ok;

	*all = NULL;
	*sizes = NULL;
	if (search__mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank",
			err) ||
	    search__mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size",
			err))
		return dse_stat_error;
	if (rank == 0) {
		counts64 = malloc(sizeof(*counts64) * size);
		counts = malloc(sizeof(*counts) * size);
		displs = malloc(sizeof(*displs) * size);
		*sizes = malloc(sizeof(**sizes) * size);
		if (!counts64 || !counts || !displs || !*sizes)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	if (search__agree(st, comm, err) != dse_stat_ok)
		goto fail;
	/* An MPI call fails alike on every rank (or aborts the job), so
	 * only local failures need agreeing on.
	 */
	if (search__mpi_check(MPI_Gather(&n64, 1, MPI_UINT64_T, counts64, 1,
			MPI_UINT64_T, 0, comm), "MPI_Gather of sizes", err))
		goto fail;
	if (rank == 0) {
		/* MPI counts and displacements are ints: more than INT_MAX
		 * bytes in all cannot go in one MPI_Gatherv.
		 */
		for (r = 0; r < size; r++) {
			if (counts64[r] > (uint64_t) INT_MAX - total) {
				st = dse_error_set(err, DSE_E_RUNTIME,
					"cannot gather more than %d bytes on "
					"root", INT_MAX);
				break;
			}
			displs[r] = (int) total;
			counts[r] = (int) counts64[r];
			(*sizes)[r] = (size_t) counts64[r];
			total += counts64[r];
		}
		if (st == dse_stat_ok) {
			*all = malloc(total ? total : 1);
			if (!*all)
				st = dse_error_set(err, DSE_E_NOMEM,
					"out of memory for %llu bytes",
					(unsigned long long) total);
		}
	}
	if (search__agree(st, comm, err) != dse_stat_ok)
		goto fail;
	if (search__mpi_check(MPI_Gatherv(mine, (int) n, MPI_BYTE, *all,
			counts, displs, MPI_BYTE, 0, comm),
			"MPI_Gatherv of bytes", err))
		goto fail;
	free(counts64);
	free(counts);
	free(displs);
	return dse_stat_ok;
fail:
	free(counts64);
	free(counts);
	free(displs);
	free(*all);
	free(*sizes);
	*all = NULL;
	*sizes = NULL;
	return dse_stat_error;
}

dse_stat search__bcast_bytes(void **data, size_t *n, MPI_Comm comm,
	dse_error *err)
{
	uint64_t n64 = 0;
	int rank;
	dse_stat st = dse_stat_ok;

	if (search__mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank",
			err))
		return dse_stat_error;
	if (rank == 0)
		n64 = *n;
	if (search__mpi_check(MPI_Bcast(&n64, 1, MPI_UINT64_T, 0, comm),
			"MPI_Bcast of a size", err))
		return dse_stat_error;
	/* Every rank sees the same size, so all take the same branch. */
	if (n64 > (uint64_t) INT_MAX)
		return dse_error_set(err, DSE_E_RUNTIME,
			"cannot broadcast %llu bytes (at most %d)",
			(unsigned long long) n64, INT_MAX);
	if (rank != 0) {
		*n = (size_t) n64;
		*data = malloc(n64 ? n64 : 1);
		if (!*data)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	}
	if (search__agree(st, comm, err) != dse_stat_ok) {
		if (rank != 0) {
			free(*data);
			*data = NULL;
		}
		return dse_stat_error;
	}
	st = search__mpi_check(MPI_Bcast(*data, (int) n64, MPI_BYTE, 0, comm),
		"MPI_Bcast of bytes", err);
	if (st != dse_stat_ok && rank != 0) {
		free(*data);
		*data = NULL;
	}
	return st;
}
