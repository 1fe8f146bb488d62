/* The design space: a mixed-radix index range over the knobs' values. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define KNOB_NAME_LEN 48

struct search_space {
	int n_knobs;
	char name[SEARCH_MAX_KNOBS][KNOB_NAME_LEN];
	int32_t *values[SEARCH_MAX_KNOBS];
	int size[SEARCH_MAX_KNOBS];
	int chain[SEARCH_MAX_KNOBS];	/* -1: a plain choice */
	int level[SEARCH_MAX_KNOBS];
	int64_t top[SEARCH_MAX_KNOBS];
};

search_space *search_space_alloc(int n_knobs)
{
	search_space *space;
	int k;

	if (n_knobs < 1 || n_knobs > SEARCH_MAX_KNOBS)
		return NULL;
	space = calloc(1, sizeof(*space));
	if (!space)
		return NULL;
	space->n_knobs = n_knobs;
	for (k = 0; k < n_knobs; k++)
		space->chain[k] = -1;
	return space;
}

search_space *search_space_free(search_space *space)
{
	int k;

	if (!space)
		return NULL;
	for (k = 0; k < space->n_knobs; k++)
		free(space->values[k]);
	free(space);
	return NULL;
}

dse_stat search_space_set_knob(search_space *space, int k, const char *name,
	const int64_t *values, int n, dse_error *err)
{
	int32_t *copy;
	int i;

	if (!space || k < 0 || k >= space->n_knobs)
		return dse_error_set(err, DSE_E_RUNTIME,
			"knob %d is outside the space", k);
	if (n < 1)
		return dse_error_set(err, DSE_E_INPUT,
			"knob '%s' has no values", name);
	copy = malloc(sizeof(*copy) * n);
	if (!copy)
		return dse_error_nomem(err, "the values of a knob",
			(double) sizeof(*copy) * n);
	for (i = 0; i < n; i++) {
		if (values[i] < INT32_MIN || values[i] > INT32_MAX) {
			free(copy);
			return dse_error_set(err, DSE_E_INPUT,
				"value %lld of knob '%s' does not fit in 32 bits",
				(long long) values[i], name);
		}
		copy[i] = (int32_t) values[i];
	}
	free(space->values[k]);
	space->values[k] = copy;
	space->size[k] = n;
	strncpy(space->name[k], name, KNOB_NAME_LEN - 1);
	space->name[k][KNOB_NAME_LEN - 1] = '\0';
	return dse_stat_ok;
}

int search_space_n_knobs(const search_space *space)
{
	return space ? space->n_knobs : 0;
}

const char *search_space_knob_name(const search_space *space, int k)
{
	return space->name[k];
}

int search_space_knob_index(const search_space *space, const char *name)
{
	int k;

	for (k = 0; k < search_space_n_knobs(space); k++)
		if (!strcmp(space->name[k], name))
			return k;
	return -1;
}

int search_space_knob_size(const search_space *space, int k)
{
	return space->size[k];
}

int32_t search__space_value(const search_space *space, int k, int digit)
{
	DSE_ASSERT(k >= 0 && k < space->n_knobs);
	DSE_ASSERT(digit >= 0 && digit < space->size[k]);
	return space->values[k][digit];
}

uint64_t search_space_size(const search_space *space)
{
	uint64_t total = 1;
	int k;

	for (k = 0; k < space->n_knobs; k++) {
		uint64_t s = (uint64_t) space->size[k];

		if (s == 0)
			return 0;
		if (total > UINT64_MAX / s)
			return UINT64_MAX;
		total *= s;
	}
	return total;
}

void search__space_digits(const search_space *space, uint64_t idx, int *digit)
{
	int k;

	for (k = space->n_knobs - 1; k >= 0; k--) {
		uint64_t s = (uint64_t) space->size[k];

		digit[k] = (int) (idx % s);
		idx /= s;
	}
	/* Callers decode indices below search_space_size only. */
	DSE_ASSERT(idx == 0);
}

void search_space_decode(const search_space *space, uint64_t idx,
	int32_t *knobs)
{
	int digit[SEARCH_MAX_KNOBS];
	int k;

	search__space_digits(space, idx, digit);
	for (k = 0; k < space->n_knobs; k++)
		knobs[k] = space->values[k][digit[k]];
}

int search__space_next(const search_space *space, int *digit, int32_t *knobs)
{
	int k;

	for (k = space->n_knobs - 1; k >= 0; k--) {
		if (++digit[k] < space->size[k]) {
			knobs[k] = space->values[k][digit[k]];
			return 1;
		}
		digit[k] = 0;
		knobs[k] = space->values[k][0];
	}
	return 0;
}

/* The position of "v" in knob k's list; -1 when it is not there.  Lists
 * are short (tens of values) and need not be sorted, so a scan is right.
 */
static int find_value(const search_space *space, int k, int32_t v)
{
	int i;

	for (i = 0; i < space->size[k]; i++)
		if (space->values[k][i] == v)
			return i;
	return -1;
}

uint64_t search_space_encode(const search_space *space, const int32_t *knobs)
{
	uint64_t idx = 0;
	int k, d;

	for (k = 0; k < space->n_knobs; k++) {
		d = find_value(space, k, knobs[k]);
		if (d < 0)
			return UINT64_MAX;
		idx = idx * (uint64_t) space->size[k] + (uint64_t) d;
	}
	return idx;
}

dse_stat search_space_set_chain(search_space *space, int k, int chain,
	int level, int64_t top, dse_error *err)
{
	if (!space || k < 0 || k >= space->n_knobs)
		return dse_error_set(err, DSE_E_RUNTIME,
			"knob %d is outside the space", k);
	if (chain < -1 || (chain >= 0 && (level < 0 || top < 1)))
		return dse_error_set(err, DSE_E_RUNTIME,
			"knob '%s': chain %d, level %d and top %lld make no "
			"tiling chain", space->name[k], chain, level,
			(long long) top);
	space->chain[k] = chain;
	space->level[k] = chain >= 0 ? level : 0;
	space->top[k] = chain >= 0 ? top : 0;
	return dse_stat_ok;
}

int search_space_knob_chain(const search_space *space, int k, int *level,
	int64_t *top)
{
	if (level)
		*level = space->level[k];
	if (top)
		*top = space->top[k];
	return space->chain[k];
}
