/* The entry point that runs any strategy, and the strategies' names. */
#include <string.h>
#include <time.h>

#include "search_private.h"

/* Indexed by enum search_strategy. */
static const char *const strategy_names[SEARCH_N_STRATEGIES] = {
#define SEARCH_STRATEGY_NAME(id, name) [id] = name,
	SEARCH_STRATEGY_TABLE(SEARCH_STRATEGY_NAME)
#undef SEARCH_STRATEGY_NAME
};

const char *search_strategy_name(int strategy)
{
	if (strategy < 0 || strategy >= SEARCH_N_STRATEGIES)
		return "unknown";
	return strategy_names[strategy];
}

int search_strategy_find(const char *name)
{
	int s;

	for (s = 0; name && s < SEARCH_N_STRATEGIES; s++)
		if (!strcmp(strategy_names[s], name))
			return s;
	return -1;
}

int search_feasible(const search_options *opt, const sim_metrics *m)
{
	return search__feasible(opt, m);
}

/* The CPU time of this process, every thread's, in seconds. */
static double process_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

dse_stat search_run(const search_space *space, const search_evaluator *ev,
	const search_options *opt, MPI_Comm comm, search_result *result,
	dse_error *err)
{
	dse_stat st;
	double cpu;

	if (opt->strategy < 0 || opt->strategy >= SEARCH_N_STRATEGIES) {
		memset(result, 0, sizeof(*result));
		return dse_error_set(err, DSE_E_INPUT,
			"there is no search strategy number %d", opt->strategy);
	}
	cpu = process_cpu();
	if (search_space_n_parts(space))
		st = search__run_parts(space, ev, opt, comm, result, err);
	else if (opt->strategy == SEARCH_EXHAUSTIVE)
		st = search_exhaustive_with(space, ev, opt, comm, result, err);
	else
		st = search__heuristic(space, ev, opt, comm, result, err);
	result->strategy = opt->strategy;
	/* Collective like the search itself; a failed search has agreed on
	 * its failure, so every rank comes here either way.
	 */
	cpu = process_cpu() - cpu;
	if (MPI_Allreduce(&cpu, &result->cpu_seconds, 1, MPI_DOUBLE, MPI_SUM,
			comm) != MPI_SUCCESS)
		result->cpu_seconds = 0;
	return st;
}
