/* Internal interface between the files of search/; not for other modules. */
#ifndef SEARCH_PRIVATE_H
#define SEARCH_PRIVATE_H

#include "search.h"

/* The value of knob k at position "digit" of its list. */
int32_t search__space_value(const search_space *space, int k, int digit);
/* Splits an index into per-knob digits (positions in the value lists). */
void search__space_digits(const search_space *space, uint64_t idx, int *digit);
/* Advances digits and knob values to the next index, as an odometer.
 * Returns 0 after the last index (everything wrapped to zero).
 */
int search__space_next(const search_space *space, int *digit, int32_t *knobs);

/* Offers n points at once; returns -1 on memory exhaustion. */
int search__front_add_many(search_front *front, const search_point *p,
	size_t n);

/* Whether a legal point's metrics are within the constraints. */
int search__feasible(const search_options *opt, const sim_metrics *m);
/* An MPI return code as our error. */
dse_stat search__mpi_check(int rc, const char *what, dse_error *err);
/* Agrees on success: returns dse_stat_error on every rank when any rank
 * failed, so no rank is left waiting in a later collective.  Collective.
 */
dse_stat search__agree(dse_stat st, MPI_Comm comm, dse_error *err);

/* Cuts a band to its "max" points closest to its plain front (ties by
 * index), which always contains the plain front when max allows, sorted
 * again; *cut says how many went.  Returns -1 on memory exhaustion.
 */
int search__front_cut(search_front *band, size_t max, size_t *cut);
/* Empties a front, keeping its objectives and band. */
void search__front_clear(search_front *front);

/* The second stage of a two-stage search: re-evaluates the points of
 * "band" (root's merged band; ignored elsewhere) with the sampled cycle
 * model over every rank and thread and replaces root's "front" contents
 * with the front of the results.  Collective.
 */
dse_stat search__resimulate(const search_front *band, search_front *front,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err);

#endif
