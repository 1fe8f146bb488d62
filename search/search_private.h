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

#endif
