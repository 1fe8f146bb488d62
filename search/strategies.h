/* search: the table of the strategies' identifiers and names, apart from
 * search.h so that the config schema can list the names without MPI.
 */
#ifndef SEARCH_STRATEGIES_H
#define SEARCH_STRATEGIES_H

/* The strategies, X(id, name): SEARCH_EXHAUSTIVE visits every point,
 * pruned by resource bounds; SEARCH_RANDOM draws uniform samples of the
 * index range; SEARCH_GENETIC runs NSGA-II on islands and SEARCH_ANNEAL
 * simulated annealing on islands.  The numbers are stored in checkpoints:
 * new strategies go at the end.
 */
#define SEARCH_STRATEGY_TABLE(X) \
	X(SEARCH_EXHAUSTIVE, "exhaustive") \
	X(SEARCH_RANDOM, "random") \
	X(SEARCH_GENETIC, "genetic") \
	X(SEARCH_ANNEAL, "anneal")

#endif
