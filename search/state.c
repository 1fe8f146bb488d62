/* Checkpoint state: a checked header and the strategy's payload.
 *
 * The header says which search made the state (strategy, space, seed,
 * objectives, constraints, model) so that a resume with other settings is
 * refused with a message saying what differs, and carries two FNV-1a
 * checksums: one of the header itself, checked first so that a damaged
 * length or setting reads as damage and not as a mismatch, and one of the
 * payload.  All fields are native 64-bit values: a state is only read back
 * by the same build of the tool, which the format version and the size of
 * a search_point check.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_private.h"

#define STATE_MAGIC "DSECKPT\n"
/* 5: the exhaustive sweep's counters hold the points a reference beat
 * and the model's evaluations (pruning by bounds).
 */
#define STATE_VERSION 5

struct header {
	char magic[8];
	uint64_t version;
	uint64_t point_size;
	uint64_t strategy;
	uint64_t n_knobs;
	uint64_t space_size;
	uint64_t space_hash;	/* knob sizes, values and chains */
	uint64_t seed;
	uint64_t n_obj;
	uint64_t objectives[SEARCH_MAX_OBJECTIVES];
	uint64_t n_constraints;
	uint64_t con_metric[SEARCH_MAX_CONSTRAINTS];
	double con_max[SEARCH_MAX_CONSTRAINTS];
	double con_min[SEARCH_MAX_CONSTRAINTS];
	uint64_t model;
	double band;
	uint64_t payload_size;
	uint64_t payload_sum;
	uint64_t header_sum;	/* of every byte above */
};

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV_PRIME;
	}
	return h;
}

/* --- buffers ------------------------------------------------------------ */

void search__put(search__buf *b, const void *data, size_t n)
{
	if (b->failed || n == 0)
		return;
	if (n > b->cap - b->n) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *p;

		while (cap - b->n < n) {
			if (cap > SIZE_MAX / 2) {
				b->failed = 1;
				return;
			}
			cap *= 2;
		}
		p = realloc(b->p, cap);
		if (!p) {
			b->failed = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, data, n);
	b->n += n;
}

void search__put_u64(search__buf *b, uint64_t v)
{
	search__put(b, &v, sizeof(v));
}

void search__put_f64(search__buf *b, double v)
{
	search__put(b, &v, sizeof(v));
}

void search__put_front(search__buf *b, const search_front *front)
{
	size_t i, n = search_front_size(front);

	search__put_u64(b, (uint64_t) search__front_level(front));
	search__put_u64(b, n);
	for (i = 0; i < n; i++)
		search__put(b, search_front_at(front, i), sizeof(search_point));
}

void search__put_cloud(search__buf *b, const search_cloud *cloud)
{
	size_t i, n = search_cloud_size(cloud);

	search__put_u64(b, n);
	for (i = 0; i < n; i++)
		search__put(b, search_cloud_at(cloud, i), sizeof(search_point));
}

void search__buf_clear(search__buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int search__get(search__reader *r, void *out, size_t n)
{
	if (r->failed || n > r->n - r->off) {
		r->failed = 1;
		return -1;
	}
	memcpy(out, r->p + r->off, n);
	r->off += n;
	return 0;
}

int search__get_u64(search__reader *r, uint64_t *v)
{
	return search__get(r, v, sizeof(*v));
}

int search__get_f64(search__reader *r, double *v)
{
	return search__get(r, v, sizeof(*v));
}

/* The count of a list of points, checked against the bytes left so that
 * a damaged count never makes a reader loop or allocate wildly.
 */
static int get_count(search__reader *r, uint64_t *n)
{
	if (search__get_u64(r, n) < 0)
		return -1;
	if (*n > (r->n - r->off) / sizeof(search_point)) {
		r->failed = 1;
		return -1;
	}
	return 0;
}

int search__get_front(search__reader *r, search_front *front)
{
	search_point *p;
	uint64_t level, n, i;
	int rc = 0;

	/* A level beyond any a front reaches is damage, not a setting. */
	if (search__get_u64(r, &level) < 0 || level > 64) {
		r->failed = 1;
		return -1;
	}
	if (get_count(r, &n) < 0 ||
	    search__front_raise(front, (int) level) < 0)
		return -1;
	/* get_count bounded n by the bytes left, so this is no more than
	 * the state itself.
	 */
	p = malloc(n ? n * sizeof(*p) : 1);
	if (!p)
		return -1;
	for (i = 0; i < n && rc == 0; i++)
		rc = search__get(r, &p[i], sizeof(p[i]));
	if (rc == 0)
		rc = search__front_restore(front, p, n);
	free(p);
	return rc < 0 ? -1 : 0;
}

int search__get_cloud(search__reader *r, search_cloud *cloud)
{
	search_point p;
	uint64_t n, i;

	if (get_count(r, &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (search__get(r, &p, sizeof(p)) < 0 ||
		    search_cloud_add(cloud, &p) < 0)
			return -1;
	return 0;
}

/* --- the header --------------------------------------------------------- */

static uint64_t space_hash(const search_space *space)
{
	uint64_t h = FNV_OFFSET, v;
	int k, i, n = search_space_n_knobs(space), level;
	int64_t top;

	for (k = 0; k < n; k++) {
		v = (uint64_t) search_space_knob_size(space, k);
		h = fnv1a(h, &v, sizeof(v));
		for (i = 0; i < search_space_knob_size(space, k); i++) {
			int32_t x = search__space_value(space, k, i);

			h = fnv1a(h, &x, sizeof(x));
		}
		v = (uint64_t) (int64_t) search_space_knob_chain(space, k,
			&level, &top);
		h = fnv1a(h, &v, sizeof(v));
		h = fnv1a(h, &level, sizeof(level));
		h = fnv1a(h, &top, sizeof(top));
	}
	/* A space of parts is those parts, in order. */
	for (k = 0; k < search_space_n_parts(space); k++) {
		v = space_hash(search_space_part(space, k));
		h = fnv1a(h, &v, sizeof(v));
	}
	return h;
}

/* The header of a search with "opt" over "space", checksums left zero. */
static void make_header(const search_space *space, const search_options *opt,
	struct header *h)
{
	int i;

	memset(h, 0, sizeof(*h));
	memcpy(h->magic, STATE_MAGIC, sizeof(h->magic));
	h->version = STATE_VERSION;
	h->point_size = sizeof(search_point);
	h->strategy = (uint64_t) opt->strategy;
	h->n_knobs = (uint64_t) search_space_n_knobs(space);
	h->space_size = search_space_size(space);
	h->space_hash = space_hash(space);
	h->seed = opt->seed;
	h->n_obj = (uint64_t) opt->n_obj;
	for (i = 0; i < opt->n_obj && i < SEARCH_MAX_OBJECTIVES; i++)
		h->objectives[i] = (uint64_t) opt->objectives[i];
	h->n_constraints = (uint64_t) opt->n_constraints;
	for (i = 0; i < opt->n_constraints && i < SEARCH_MAX_CONSTRAINTS;
			i++) {
		h->con_metric[i] = (uint64_t) opt->constraints[i].metric;
		h->con_max[i] = opt->constraints[i].max;
		h->con_min[i] = opt->constraints[i].min;
	}
	h->model = (uint64_t) opt->model;
	h->band = opt->model == SIM_MODEL_SAMPLED ? opt->band : 0.0;
}

dse_stat search__state_frame(const search_space *space,
	const search_options *opt, const search__buf *payload,
	search__buf *out, dse_error *err)
{
	struct header h;

	if (payload->failed)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory writing the search state");
	make_header(space, opt, &h);
	h.payload_size = payload->n;
	h.payload_sum = fnv1a(FNV_OFFSET, payload->p, payload->n);
	h.header_sum = fnv1a(FNV_OFFSET, &h, offsetof(struct header,
		header_sum));
	out->n = 0;
	out->failed = 0;
	search__put(out, &h, sizeof(h));
	search__put(out, payload->p, payload->n);
	if (out->failed)
		return dse_error_set(err, DSE_E_NOMEM,
			"out of memory writing the search state");
	return dse_stat_ok;
}

/* "obj a, b" for a message. */
static void list_objectives(char *buf, size_t size, uint64_t n,
	const uint64_t *obj)
{
	size_t len = 0;
	uint64_t i;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += (size_t) snprintf(buf + len, size - len, "%s%s",
			i ? ", " : "", obj[i] < SIM_N_METRICS ?
			sim_metric_name((enum sim_metric) obj[i]) : "?");
}

static const char *strategy_of(uint64_t s)
{
	return search_strategy_name(s < SEARCH_N_STRATEGIES ? (int) s : -1);
}

/* Compares the settings of an intact header with this search's. */
static dse_stat compare(const struct header *got, const struct header *want,
	dse_error *err)
{
	char a[160], b[160];
	uint64_t i;

	if (got->strategy != want->strategy)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made by the %s strategy; this search uses %s",
			strategy_of(got->strategy), strategy_of(want->strategy));
	if (got->space_size != want->space_size ||
	    got->n_knobs != want->n_knobs)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made for a space of %llu points and %llu knobs; this "
			"one has %llu points and %llu knobs",
			(unsigned long long) got->space_size,
			(unsigned long long) got->n_knobs,
			(unsigned long long) want->space_size,
			(unsigned long long) want->n_knobs);
	if (got->space_hash != want->space_hash)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made for a space of the same size but other knob "
			"values or tiling chains");
	if (got->n_obj != want->n_obj ||
	    memcmp(got->objectives, want->objectives,
			sizeof(got->objectives))) {
		list_objectives(a, sizeof(a), got->n_obj, got->objectives);
		list_objectives(b, sizeof(b), want->n_obj, want->objectives);
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made with objectives %s; this search has %s", a, b);
	}
	for (i = 0; got->n_constraints == want->n_constraints &&
			i < got->n_constraints; i++)
		if (got->con_metric[i] != want->con_metric[i] ||
		    got->con_max[i] != want->con_max[i] ||
		    got->con_min[i] != want->con_min[i])
			break;
	if (got->n_constraints != want->n_constraints ||
	    i < got->n_constraints)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made with other constraints (%llu of them; this search "
			"has %llu)", (unsigned long long) got->n_constraints,
			(unsigned long long) want->n_constraints);
	if (got->model != want->model || got->band != want->band)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made with the %s model and band %g; this search uses "
			"the %s model and band %g",
			got->model == SIM_MODEL_SAMPLED ? "sampled" : "analytic",
			got->band,
			want->model == SIM_MODEL_SAMPLED ? "sampled" : "analytic",
			want->band);
	if (got->seed != want->seed)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"made with seed %llu; this search has seed %llu",
			(unsigned long long) got->seed,
			(unsigned long long) want->seed);
	return dse_stat_ok;
}

dse_stat search__state_open(const search_space *space,
	const search_options *opt, const void *state, size_t size,
	search__reader *payload, dse_error *err)
{
	const unsigned char *bytes = state;
	struct header h, want;
	size_t whole;

	memset(payload, 0, sizeof(*payload));
	if (!state || memcmp(bytes, STATE_MAGIC,
			size < 8 ? size : 8))
		return dse_error_set(err, DSE_E_INPUT,
			"this is not a dse checkpoint");
	if (size < sizeof(h))
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"truncated: %zu bytes, less than its %zu-byte header",
			size, sizeof(h));
	memcpy(&h, bytes, sizeof(h));
	if (h.header_sum != fnv1a(FNV_OFFSET, &h,
			offsetof(struct header, header_sum)))
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"corrupt: its header checksum does not match");
	if (h.version != STATE_VERSION || h.point_size != sizeof(search_point))
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint was "
			"written by another version of dse (format %llu, points "
			"of %llu bytes; this one reads format %d, %zu bytes)",
			(unsigned long long) h.version,
			(unsigned long long) h.point_size, STATE_VERSION,
			sizeof(search_point));
	whole = sizeof(h) + h.payload_size;
	if (h.payload_size > SIZE_MAX - sizeof(h) || size < whole)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"truncated: %zu of %llu bytes", size,
			(unsigned long long) sizeof(h) +
			(unsigned long long) h.payload_size);
	if (size > whole)
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"corrupt: it has %zu bytes, %llu more than it says",
			size, (unsigned long long) (size - whole));
	if (h.payload_sum != fnv1a(FNV_OFFSET, bytes + sizeof(h),
			h.payload_size))
		return dse_error_set(err, DSE_E_INPUT, "the checkpoint is "
			"corrupt: its checksum does not match (written by a run "
			"that was killed mid-write?)");
	make_header(space, opt, &want);
	if (compare(&h, &want, err))
		return dse_stat_error;
	payload->p = bytes + sizeof(h);
	payload->n = h.payload_size;
	return dse_stat_ok;
}

dse_stat search_state_check(const search_space *space,
	const search_options *opt, const void *state, size_t size,
	dse_error *err)
{
	search__reader r;

	return search__state_open(space, opt, state, size, &r, err);
}
