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
	/* A space made of parts (search_space_alloc_parts); 0 parts for a
	 * plain mixed-radix space.
	 */
	int n_parts;
	search_space **part;		/* owned */
	int32_t *label;			/* knob 0's value in part p */
	uint64_t *offset;		/* n_parts + 1: part p's first index */
	int (*place)[SEARCH_MAX_KNOBS];	/* part p's knob k is the whole's
					 * knob place[p][k] */
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
	for (k = 0; k < space->n_parts; k++)
		search_space_free(space->part[k]);
	free(space->part);
	free(space->label);
	free(space->offset);
	free(space->place);
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

	if (space->n_parts)
		return space->offset[space->n_parts];
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

	if (space->n_parts) {
		int32_t local[SEARCH_MAX_KNOBS];
		int p = search_space_part_of(space, idx);

		DSE_ASSERT(p >= 0);
		search_space_decode(space->part[p], idx - space->offset[p],
			local);
		search_space_place(space, p, local, knobs);
		return;
	}
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

	if (space->n_parts) {
		int32_t local[SEARCH_MAX_KNOBS];
		int p = search_space_pick(space, knobs, local);

		if (p < 0)
			return UINT64_MAX;
		idx = search_space_encode(space->part[p], local);
		return idx == UINT64_MAX ? idx : space->offset[p] + idx;
	}
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

/* --- spaces made of parts ------------------------------------------------ */

/* Adds "v" to the sorted list vals[0..*n) unless it is there. */
static void add_sorted(int64_t *vals, int *n, int64_t v)
{
	int i, j;

	for (i = 0; i < *n && vals[i] < v; i++)
		;
	if (i < *n && vals[i] == v)
		return;
	for (j = *n; j > i; j--)
		vals[j] = vals[j - 1];
	vals[i] = v;
	(*n)++;
}

/* The whole's knob k (k >= 1): the union of the values its parts place
 * there, with 0 when some part leaves it out.  Only names, sizes and the
 * checkpoint's identity read these lists; points come from the parts.
 */
static dse_stat union_values(search_space *w, int k, const char *name,
	dse_error *err)
{
	int64_t *vals;
	int p, j, i, n = 0, cap = 1;
	dse_stat st;

	for (p = 0; p < w->n_parts; p++)
		for (j = 0; j < w->part[p]->n_knobs; j++)
			if (w->place[p][j] == k)
				cap += w->part[p]->size[j];
	vals = malloc(sizeof(*vals) * (size_t) cap);
	if (!vals)
		return dse_error_nomem(err, "the values of a knob",
			(double) cap * sizeof(*vals));
	for (p = 0; p < w->n_parts; p++) {
		int found = 0;

		for (j = 0; j < w->part[p]->n_knobs; j++) {
			if (w->place[p][j] != k)
				continue;
			found = 1;
			for (i = 0; i < w->part[p]->size[j]; i++)
				add_sorted(vals, &n, w->part[p]->values[j][i]);
		}
		if (!found)
			add_sorted(vals, &n, 0);
	}
	st = search_space_set_knob(w, k, name, vals, n, err);
	free(vals);
	return st;
}

/* Checks the placement of the parts' knobs: every part's knob lands on a
 * distinct knob 1.. of the whole, and the labels are distinct.
 */
static dse_stat check_parts(int n_parts, search_space *const *parts,
	const int32_t *labels, int n_knobs, const int *place, dse_error *err)
{
	int p, j, q, used[SEARCH_MAX_KNOBS];

	for (p = 0; p < n_parts; p++) {
		if (!parts[p] || parts[p]->n_parts)
			return dse_error_set(err, DSE_E_RUNTIME, "part %d of a "
				"space is missing or has parts itself", p);
		for (q = 0; q < p; q++)
			if (labels[q] == labels[p])
				return dse_error_set(err, DSE_E_RUNTIME,
					"two parts of a space are labelled %d",
					(int) labels[p]);
		memset(used, 0, sizeof(used));
		for (j = 0; j < parts[p]->n_knobs; j++) {
			int k = place[p * SEARCH_MAX_KNOBS + j];

			if (k < 1 || k >= n_knobs || used[k]++)
				return dse_error_set(err, DSE_E_RUNTIME,
					"knob %d of part %d is placed at knob "
					"%d of a space of %d", j, p, k,
					n_knobs);
		}
	}
	return dse_stat_ok;
}

/* The parts' sizes as offsets; an error when the whole overflows. */
static dse_stat part_offsets(search_space *w, dse_error *err)
{
	int p;

	w->offset[0] = 0;
	for (p = 0; p < w->n_parts; p++) {
		uint64_t s = search_space_size(w->part[p]);

		if (s == UINT64_MAX || w->offset[p] > UINT64_MAX - 1 - s)
			return dse_error_set(err, DSE_E_INPUT, "the space has "
				"more than 2^64 points; narrow the knob ranges");
		w->offset[p + 1] = w->offset[p] + s;
	}
	return dse_stat_ok;
}

search_space *search_space_alloc_parts(int n_parts, search_space **parts,
	const int32_t *labels, int n_knobs, const char *const *names,
	const int *place, dse_error *err)
{
	search_space *w;
	int64_t *lab;
	int p, k;
	dse_stat st;

	if (n_parts < 1 || !parts || !labels || !names || !place) {
		dse_error_set(err, DSE_E_RUNTIME, "a space of parts needs at "
			"least one part");
		goto fail;
	}
	if (check_parts(n_parts, parts, labels, n_knobs, place, err))
		goto fail;
	w = search_space_alloc(n_knobs);
	lab = malloc(sizeof(*lab) * (size_t) n_parts);
	if (!w || !lab) {
		free(lab);
		search_space_free(w);
		dse_error_nomem(err, "a space of parts", (double) n_parts);
		goto fail;
	}
	w->part = calloc((size_t) n_parts, sizeof(*w->part));
	w->label = malloc(sizeof(*w->label) * (size_t) n_parts);
	w->offset = malloc(sizeof(*w->offset) * (size_t) (n_parts + 1));
	w->place = malloc(sizeof(*w->place) * (size_t) n_parts);
	if (!w->part || !w->label || !w->offset || !w->place) {
		free(lab);
		search_space_free(w);
		dse_error_nomem(err, "a space of parts", (double) n_parts);
		goto fail;
	}
	w->n_parts = n_parts;
	for (p = 0; p < n_parts; p++) {
		w->part[p] = parts[p];
		parts[p] = NULL;
		w->label[p] = labels[p];
		lab[p] = labels[p];
		memcpy(w->place[p], place + p * SEARCH_MAX_KNOBS,
			sizeof(w->place[p]));
	}
	st = search_space_set_knob(w, 0, names[0], lab, n_parts, err);
	free(lab);
	for (k = 1; st == dse_stat_ok && k < n_knobs; k++)
		st = union_values(w, k, names[k], err);
	if (st == dse_stat_ok)
		st = part_offsets(w, err);
	if (st != dse_stat_ok)
		return search_space_free(w);
	return w;
fail:
	for (p = 0; parts && p < n_parts; p++)
		parts[p] = search_space_free(parts[p]);
	return NULL;
}

int search_space_n_parts(const search_space *space)
{
	return space ? space->n_parts : 0;
}

const search_space *search_space_part(const search_space *space, int p)
{
	DSE_ASSERT(p >= 0 && p < space->n_parts);
	return space->part[p];
}

int32_t search_space_part_label(const search_space *space, int p)
{
	DSE_ASSERT(p >= 0 && p < space->n_parts);
	return space->label[p];
}

uint64_t search_space_part_offset(const search_space *space, int p)
{
	DSE_ASSERT(p >= 0 && p <= space->n_parts);
	return space->offset[p];
}

int search_space_part_of(const search_space *space, uint64_t idx)
{
	int lo = 0, hi = space->n_parts;

	if (!space->n_parts || idx >= space->offset[space->n_parts])
		return -1;
	/* The last part whose first index is at most idx (empty parts
	 * cannot occur: every knob has a value).
	 */
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;

		if (space->offset[mid] <= idx)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void search_space_place(const search_space *space, int p,
	const int32_t *local, int32_t *whole)
{
	int k;

	DSE_ASSERT(p >= 0 && p < space->n_parts);
	for (k = 0; k < space->n_knobs; k++)
		whole[k] = 0;
	whole[0] = space->label[p];
	for (k = 0; k < space->part[p]->n_knobs; k++)
		whole[space->place[p][k]] = local[k];
}

int search_space_pick(const search_space *space, const int32_t *whole,
	int32_t *local)
{
	int p, k;

	for (p = 0; p < space->n_parts; p++)
		if (space->label[p] == whole[0])
			break;
	if (p == space->n_parts)
		return -1;
	for (k = 0; k < space->part[p]->n_knobs; k++)
		local[k] = whole[space->place[p][k]];
	return p;
}
