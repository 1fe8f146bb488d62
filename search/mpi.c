/* Starting MPI the way every part of dse needs it. */
#include "search.h"

dse_stat search_mpi_init(int *argc, char ***argv, dse_error *err)
{
	int provided = MPI_THREAD_SINGLE;

	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
			MPI_SUCCESS)
		return dse_error_set(err, DSE_E_MPI, "MPI_Init_thread failed");
	/* MPI's default handler aborts the job on any error, so the checks
	 * of every MPI call's return code (and the messages and exit status
	 * they give) could never run; with MPI_ERRORS_RETURN they do.
	 * Communicators made from MPI_COMM_WORLD inherit it.
	 */
	if (MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) !=
			MPI_SUCCESS)
		return dse_error_set(err, DSE_E_MPI, "MPI_Comm_set_errhandler "
			"failed");
	/* OpenMP threads run beside MPI, and only the thread that started
	 * MPI calls it: an MPI library that cannot promise that much would
	 * misbehave in ways no return code reports.
	 */
	if (provided < MPI_THREAD_FUNNELED)
		return dse_error_set(err, DSE_E_MPI, "this MPI library gives "
			"thread level %d; dse runs OpenMP threads beside MPI "
			"and needs MPI_THREAD_FUNNELED (%d) or above",
			provided, MPI_THREAD_FUNNELED);
	return dse_stat_ok;
}
