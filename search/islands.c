/* The heuristic strategies (random, genetic, annealing) on islands.
 *
 * The islands, not the ranks or threads, are the unit of work.  Island i
 * has its own generator, seeded from the search's seed and i, its own
 * share of the budget and its own archive front; it runs on rank i mod P
 * and, inside a rank, on whichever OpenMP thread takes it.  Whatever an
 * island does depends only on its own state and on the points it receives
 * at migrations, which are the same whoever computes them, so the merged
 * front is the same for any number of ranks and threads.
 *
 * Islands advance in epochs of "migrate_every" generations (a generation
 * is "population" evaluations; the last one of an island may be shorter).
 * Every rank knows every island's budget, so every rank knows the epoch
 * schedule without talking.  Between epochs all ranks synchronise: stop
 * and time budget (search__sync), migration, progress and checkpoints.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <omp.h>

#include "heuristic.h"

/* Tags the layout of the payload this file writes. */
#define PAYLOAD_TAG UINT64_C(0x48455552495354)

/* --- generators and the seen set ----------------------------------------- */

uint64_t search__rng_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

double search__rng_unit(uint64_t *state)
{
	return (double) (search__rng_next(state) >> 11) * 0x1.0p-53;
}

uint64_t search__rng_below(uint64_t *state, uint64_t n)
{
	/* The high word of a 64 x 64 product: uniform enough for any n far
	 * below 2^64, and free of the bias of a modulo.
	 */
	return (uint64_t) (((unsigned __int128) search__rng_next(state) * n) >>
		64);
}

uint64_t search__island_seed(uint64_t seed, int island)
{
	uint64_t s = seed ^ UINT64_C(0x5851f42d4c957f2d);

	s += search__rng_next(&s) + (uint64_t) island;
	return search__rng_next(&s);
}

static size_t seen_slot(uint64_t key, size_t cap)
{
	uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);

	return (size_t) (h ^ (h >> 32)) & (cap - 1);
}

int search__seen_has(const search__seen *s, uint64_t index)
{
	size_t i;

	if (!s->cap)
		return 0;
	for (i = seen_slot(index + 1, s->cap); s->slot[i];
			i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == index + 1)
			return 1;
	return 0;
}

/* Tables from 2 MB up are aligned to 2 MB and offered to the kernel for
 * transparent huge pages: a table is probed at random, so with 4 KB pages
 * nearly every probe of a large table misses the TLB, and its first touch
 * faults once per 4 KB page while the other threads fault on theirs.
 */
#define HUGE_PAGE ((size_t) 2 << 20)

static uint64_t *seen_alloc(size_t cap)
{
	size_t bytes = cap * sizeof(uint64_t);
	void *p;

	if (bytes < HUGE_PAGE)
		return calloc(cap, sizeof(uint64_t));
	if (posix_memalign(&p, HUGE_PAGE, bytes))
		return NULL;
#ifdef MADV_HUGEPAGE
	/* Only advice: without huge pages the table works as it is. */
	(void) madvise(p, bytes, MADV_HUGEPAGE);
#endif
	memset(p, 0, bytes);
	return p;
}

/* Moves the table to "cap" slots (a power of 2 above its count). */
static int seen_resize(search__seen *s, size_t cap)
{
	uint64_t *slot = seen_alloc(cap);
	size_t i, j;

	if (!slot)
		return -1;
	for (i = 0; i < s->cap; i++) {
		if (!s->slot[i])
			continue;
		for (j = seen_slot(s->slot[i], cap); slot[j];
				j = (j + 1) & (cap - 1))
			;
		slot[j] = s->slot[i];
	}
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
	return 0;
}

static int seen_grow(search__seen *s)
{
	return seen_resize(s, s->cap ? 2 * s->cap : 1024);
}

/* Room for "n" indices without growing, up to a bound: growing a table
 * while other threads run frees and maps large blocks, whose unmapping
 * interrupts every core.
 */
#define SEEN_RESERVE_MAX (UINT64_C(1) << 22)

static int seen_reserve(search__seen *s, uint64_t n)
{
	size_t cap = s->cap ? s->cap : 1024;

	if (n > SEEN_RESERVE_MAX)
		n = SEEN_RESERVE_MAX;
	while (2 * n > cap)
		cap *= 2;
	return cap > s->cap ? seen_resize(s, cap) : 0;
}

int search__seen_add(search__seen *s, uint64_t index)
{
	size_t i;

	if (search__seen_has(s, index))
		return 0;
	if (2 * (s->n + 1) > s->cap && seen_grow(s) < 0)
		return -1;
	for (i = seen_slot(index + 1, s->cap); s->slot[i];
			i = (i + 1) & (s->cap - 1))
		;
	s->slot[i] = index + 1;
	s->n++;
	return 1;
}

void search__seen_clear(search__seen *s)
{
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

/* --- evaluation ----------------------------------------------------------- */

static int eval_indexed(const search__ctx *c, search__island *is,
	search_point *p);

int search__island_eval(const search__ctx *c, search__island *is,
	search_point *p)
{
	p->index = search_space_encode(c->space, p->knobs);
	return eval_indexed(c, is, p);
}

/* search__island_eval of a point whose index is already set. */
static int eval_indexed(const search__ctx *c, search__island *is,
	search_point *p)
{
	int st, fresh;

	c->ev->eval(c->ev->model, p->knobs, &p->metrics);
	p->model = SIM_MODEL_ANALYTIC;
	p->cycles_low = p->cycles_high = (double) p->metrics.cycles;
	p->sampled_fraction = 0;
	is->used++;
	/* A point evaluated again (when no new one was found) counts, but is
	 * already in the archive or beaten there: fronts keep equal points
	 * of equal index twice.
	 */
	fresh = search__seen_add(&is->seen, p->index);
	if (fresh < 0)
		return -1;
	st = p->metrics.status;
	if (st != SIM_OK) {
		is->status[st >= 0 && st < SIM_N_STATUS ? st : SIM_BAD_KNOB]++;
	} else if (!search__feasible(c->opt, &p->metrics)) {
		is->over++;
	} else {
		is->valid++;
		if (fresh && search_front_add(is->archive, p) < 0)
			return -1;
	}
	if (st == SIM_OK && is->cloud && search_cloud_add(is->cloud, p) < 0)
		return -1;
	return 0;
}

void search__indiv_classify(const search__ctx *c, search__indiv *ind)
{
	const search_options *opt = c->opt;
	const sim_metrics *m = &ind->p.metrics;
	int j;

	ind->viol = 0;
	if (m->status != SIM_OK) {
		ind->cls = 2;
		return;
	}
	for (j = 0; j < opt->n_obj; j++) {
		double v = sim_metrics_get(m, opt->objectives[j]);

		ind->obj[j] = sim_metric_minimise(opt->objectives[j]) ? v : -v;
	}
	for (j = 0; j < opt->n_constraints; j++) {
		double v = sim_metrics_get(m, opt->constraints[j].metric);
		double max = opt->constraints[j].max;
		double min = opt->constraints[j].min;

		/* The shortfall below a lower bound counts as the excess
		 * over an upper one does, relative to the bound.
		 */
		if (v > max)
			ind->viol += max > 0 ? (v - max) / max : v - max;
		else if (v < min)
			ind->viol += (min - v) / min;
	}
	ind->cls = search__feasible(opt, m) ? 0 : 1;
}

void search__initial_point(const search__ctx *c, search__island *is, int i,
	int32_t *knobs)
{
	int t;

	memset(knobs, 0, sizeof(int32_t) * SEARCH_MAX_KNOBS);
	for (t = 0; t <= SEARCH_DUP_TRIES; t++) {
		/* Half uniform points, half divisor chains to seed legality. */
		if (i % 2)
			search__chain_point(c->ops, &is->rng, knobs);
		else
			search__random_point(c->ops, &is->rng, knobs);
		if (!search__seen_has(&is->seen,
				search_space_encode(c->space, knobs)))
			return;
	}
}

/* Random sampling: uniform knob values are uniform indices. */
/* A uniform point of the space: its index and knob values, drawn digit
 * by digit (knob 0 the most significant), so no encoding is needed.
 */
static void random_indexed(const search__ctx *c, uint64_t *rng,
	search_point *p)
{
	int k, n = search_space_n_knobs(c->space);

	p->index = 0;
	for (k = 0; k < n; k++) {
		int size = search_space_knob_size(c->space, k);
		int d = (int) search__rng_below(rng, (uint64_t) size);

		p->index = p->index * (uint64_t) size + (uint64_t) d;
		p->knobs[k] = search__space_value(c->space, k, d);
	}
}

static int random_step(const search__ctx *c, search__island *is)
{
	uint64_t left = is->budget - is->used, i;
	uint64_t n = left < (uint64_t) c->population ? left :
		(uint64_t) c->population;
	search_point p;
	int t;

	memset(&p, 0, sizeof(p));
	for (i = 0; i < n; i++) {
		for (t = 0; t <= SEARCH_DUP_TRIES; t++) {
			random_indexed(c, &is->rng, &p);
			if (!search__seen_has(&is->seen, p.index))
				break;
		}
		if (eval_indexed(c, is, &p) < 0)
			return -1;
	}
	is->generation++;
	return 0;
}

static int run_generation(const search__ctx *c, search__island *is)
{
	switch (c->strategy) {
	case SEARCH_GENETIC:
		return is->generation == 0 ? search__genetic_first(c, is) :
			search__genetic_step(c, is);
	case SEARCH_ANNEAL:
		return search__anneal_step(c, is);
	default:
		return random_step(c, is);
	}
}

/* --- the run -------------------------------------------------------------- */

/* How many times longer random sampling's default epochs are. */
#define RANDOM_EPOCH_FACTOR 8

struct run {
	search__ctx c;
	MPI_Comm comm;
	int rank;
	int size;
	uint64_t budget;	/* evaluations over all islands */
	int n_mine;		/* islands rank, rank + P, ... */
	search__island *isl;
	int n_threads;
	search_cloud **clouds;	/* one per thread (NULL: no cloud) */
	uint64_t epochs;	/* in all */
	uint64_t epoch;		/* the next to run */
	uint64_t gens0;		/* island 0's generations (the most) */
	search__clock clock;
	int hv_known;
	double ref[SEARCH_MAX_OBJECTIVES];
	double before;		/* search seconds of resumed runs */
	int progress;		/* root reports progress */
	double next_report;	/* root: when progress is next due */
};

static uint64_t island_budget(const struct run *run, int i)
{
	uint64_t n = (uint64_t) run->c.n_islands;

	return run->budget / n + ((uint64_t) i < run->budget % n);
}

static uint64_t generations_of(const struct run *run, uint64_t budget)
{
	return (budget + run->c.population - 1) / run->c.population;
}

static uint64_t default_budget(uint64_t size)
{
	uint64_t b = (uint64_t) (SEARCH_DEFAULT_BUDGET_FRACTION * (double) size);
	uint64_t lo = size < SEARCH_MIN_BUDGET ? size : SEARCH_MIN_BUDGET;

	if (b < lo)
		b = lo;
	return b > SEARCH_MAX_DEFAULT_BUDGET ? SEARCH_MAX_DEFAULT_BUDGET : b;
}

static dse_stat check_options(const search_space *space,
	const search_options *opt, dse_error *err)
{
	if (opt->strategy != SEARCH_RANDOM && opt->strategy != SEARCH_GENETIC &&
	    opt->strategy != SEARCH_ANNEAL)
		return dse_error_set(err, DSE_E_INPUT,
			"strategy %d is not a heuristic strategy", opt->strategy);
	if (opt->model != SIM_MODEL_ANALYTIC &&
	    opt->model != SIM_MODEL_SAMPLED)
		return dse_error_set(err, DSE_E_INPUT, "the search re-evaluates "
			"with the analytic or the sampled model only");
	if (opt->n_obj < 1 || opt->n_obj > SEARCH_MAX_OBJECTIVES)
		return dse_error_set(err, DSE_E_INPUT,
			"a search needs 1 to %d objectives", SEARCH_MAX_OBJECTIVES);
	if (opt->islands < 0 || opt->population < 0 ||
	    opt->migrate_every < 0 || opt->migrants < 0)
		return dse_error_set(err, DSE_E_INPUT, "islands, population, "
			"migrate_every and migrants must not be negative");
	if (opt->population > SEARCH_MAX_POPULATION)
		return dse_error_set(err, DSE_E_INPUT,
			"population %d is above the largest, %d", opt->population,
			SEARCH_MAX_POPULATION);
	if (search_space_size(space) == UINT64_MAX)
		return dse_error_set(err, DSE_E_INPUT,
			"the space has more than 2^64 points");
	return dse_stat_ok;
}

static void setup_ctx(struct run *run, const search_space *space,
	const search_evaluator *ev, const search_options *opt)
{
	search__ctx *c = &run->c;

	c->space = space;
	c->ev = ev;
	c->opt = opt;
	c->strategy = opt->strategy;
	c->n_islands = opt->islands ? opt->islands : SEARCH_DEFAULT_ISLANDS;
	c->population = opt->population ? opt->population :
		SEARCH_DEFAULT_POPULATION;
	c->migrate_every = opt->migrate_every ? opt->migrate_every :
		SEARCH_DEFAULT_MIGRATE_EVERY;
	c->migrants = opt->migrants ? opt->migrants : SEARCH_DEFAULT_MIGRANTS;
	/* Random sampling has no migration to wait for: by default its
	 * epochs are longer, so synchronisations cost little even when an
	 * evaluation takes a fraction of a microsecond.
	 */
	if (c->strategy == SEARCH_RANDOM && !opt->migrate_every)
		c->migrate_every *= RANDOM_EPOCH_FACTOR;
	if (c->migrants > c->population)
		c->migrants = c->population;
	c->size = search_space_size(space);
	/* More evaluations than points would only repeat points. */
	run->budget = opt->budget ? opt->budget : default_budget(c->size);
	if (run->budget > c->size)
		run->budget = c->size;
	run->gens0 = generations_of(run, island_budget(run, 0));
	run->epochs = (run->gens0 + c->migrate_every - 1) / c->migrate_every;
}

static void free_islands(struct run *run)
{
	int i;

	for (i = 0; run->isl && i < run->n_mine; i++) {
		search_front_free(run->isl[i].archive);
		search__seen_clear(&run->isl[i].seen);
		free(run->isl[i].pop);
		free(run->isl[i].elite);
	}
	free(run->isl);
	run->isl = NULL;
	for (i = 0; run->clouds && i < run->n_threads; i++)
		search_cloud_free(run->clouds[i]);
	free(run->clouds);
	run->clouds = NULL;
}

static dse_stat alloc_islands(struct run *run, dse_error *err)
{
	const search_options *opt = run->c.opt;
	int i, ok = 1;

	run->n_mine = run->c.n_islands > run->rank ?
		(run->c.n_islands - run->rank + run->size - 1) / run->size : 0;
	run->isl = calloc(run->n_mine ? run->n_mine : 1, sizeof(*run->isl));
	run->n_threads = omp_get_max_threads();
	run->clouds = calloc(run->n_threads, sizeof(*run->clouds));
	ok = run->isl && run->clouds;
	for (i = 0; ok && opt->cloud_max > 0 && i < run->n_threads; i++)
		ok = (run->clouds[i] = search_cloud_alloc(opt->cloud_max)) != NULL;
	for (i = 0; ok && i < run->n_mine; i++) {
		search__island *is = &run->isl[i];

		is->id = run->rank + i * run->size;
		is->rng = search__island_seed(opt->seed, is->id);
		is->budget = island_budget(run, is->id);
		is->archive = search__alloc_front(opt);
		ok = is->archive != NULL;
		if (ok && run->c.strategy == SEARCH_GENETIC)
			ok = (is->pop = calloc(2 * (size_t) run->c.population,
				sizeof(*is->pop))) != NULL;
		if (ok && run->c.strategy == SEARCH_ANNEAL)
			ok = (is->elite = calloc(run->c.migrants + 1,
				sizeof(*is->elite))) != NULL;
	}
	/* The tables of evaluated points are zeroed by the threads that
	 * will probe them, at once: zeroing tens of megabytes on one thread
	 * would hold up the rest.
	 */
	#pragma omp parallel for schedule(dynamic, 1) num_threads(run->n_threads) reduction(&&: ok)
	for (i = 0; i < run->n_mine; i++)
		ok = ok && seen_reserve(&run->isl[i].seen,
			run->isl[i].budget) == 0;
	return ok ? dse_stat_ok : dse_error_set(err, DSE_E_NOMEM,
		"out of memory setting up %d islands", run->n_mine);
}

/* Runs epoch "e" on this rank's islands, one island per thread at a
 * time.
 */
static dse_stat run_epoch(struct run *run, uint64_t e, dse_error *err)
{
	uint64_t end = (e + 1) * (uint64_t) run->c.migrate_every;
	int i, failed = 0;

	#pragma omp parallel for schedule(dynamic, 1) num_threads(run->n_threads)
	for (i = 0; i < run->n_mine; i++) {
		search__island *is = &run->isl[i];
		uint64_t gens = generations_of(run, is->budget);
		uint64_t stop = end < gens ? end : gens;

		is->cloud = run->clouds[omp_get_thread_num()];
		while (!is->failed && is->generation < stop)
			if (run_generation(&run->c, is) < 0)
				is->failed = 1;
		is->cloud = NULL;
	}
	for (i = 0; i < run->n_mine; i++)
		failed |= run->isl[i].failed;
	return failed ? dse_error_set(err, DSE_E_NOMEM,
		"out of memory in a search island") : dse_stat_ok;
}

/* --- collectives ----------------------------------------------------------- */

/* Every rank's bytes, concatenated in rank order, on every rank.
 * Collective.
 */
static dse_stat allgather_bytes(const search__buf *mine, MPI_Comm comm,
	int size, unsigned char **all, size_t *total, dse_error *err)
{
	int n = (int) mine->n, *counts = calloc(size, sizeof(int));
	int *displs = calloc(size, sizeof(int)), r;
	dse_stat st = dse_stat_ok;
	size_t sum = 0;

	*all = NULL;
	if (!counts || !displs) {
		free(counts);
		free(displs);
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return search__agree(dse_stat_error, comm, err);
	}
	/* A rank that failed sends -1 as its size, which every rank sees:
	 * one collective fewer than agreeing first.
	 */
	if (mine->failed || mine->n > INT_MAX)
		n = -1;
	st = search__mpi_check(MPI_Allgather(&n, 1, MPI_INT, counts, 1,
		MPI_INT, comm), "MPI_Allgather of sizes", err);
	for (r = 0; st == dse_stat_ok && r < size; r++) {
		if (counts[r] < 0) {
			st = dse_error_set(err, DSE_E_NOMEM,
				"out of memory on rank %d", r);
			break;
		}
		displs[r] = (int) sum;
		sum += (size_t) counts[r];
	}
	if (st != dse_stat_ok) {
		free(counts);
		free(displs);
		return search__agree(st, comm, err);
	}
	if (st == dse_stat_ok && (sum > INT_MAX ||
			!(*all = malloc(sum ? sum : 1))))
		st = dse_error_set(err, DSE_E_NOMEM,
			"cannot hold %zu bytes of migrants", sum);
	st = search__agree(st, comm, err);
	if (st == dse_stat_ok)
		st = search__mpi_check(MPI_Allgatherv(mine->p ? mine->p :
			(void *) "", n, MPI_BYTE, *all, counts, displs, MPI_BYTE,
			comm), "MPI_Allgatherv of migrants", err);
	free(counts);
	free(displs);
	if (st != dse_stat_ok) {
		free(*all);
		*all = NULL;
	}
	*total = sum;
	return st;
}

static int emigrants(const search__ctx *c, const search__island *is,
	search_point *out)
{
	if (c->strategy == SEARCH_GENETIC)
		return search__genetic_emigrants(c, is, out, c->migrants);
	return search__anneal_emigrants(c, is, out, c->migrants);
}

/* Finds island "id"'s emigrants in the gathered records. */
static const unsigned char *find_emigrants(const unsigned char *all,
	size_t total, uint64_t id, uint64_t *n)
{
	size_t off = 0;
	uint64_t rec[2];

	while (off + sizeof(rec) <= total) {
		memcpy(rec, all + off, sizeof(rec));
		off += sizeof(rec);
		if (rec[0] == id) {
			*n = rec[1];
			return all + off;
		}
		off += rec[1] * sizeof(search_point);
	}
	*n = 0;
	return NULL;
}

/* Island i receives the best points of island i - 1 (mod islands): every
 * rank gathers every island's emigrants (records of id, count, points),
 * then each island takes its predecessor's.  Collective.
 */
static dse_stat migrate(struct run *run, dse_error *err)
{
	const search__ctx *c = &run->c;
	search_point *out = malloc(sizeof(*out) * (c->migrants + 1));
	search__buf mine = { 0 };
	unsigned char *all = NULL;
	size_t total = 0;
	int i, fail = 0;
	dse_stat st;

	for (i = 0; out && i < run->n_mine; i++) {
		int k = emigrants(c, &run->isl[i], out);

		search__put_u64(&mine, (uint64_t) run->isl[i].id);
		search__put_u64(&mine, (uint64_t) k);
		search__put(&mine, out, sizeof(*out) * k);
	}
	if (!out)
		mine.failed = 1;
	st = allgather_bytes(&mine, run->comm, run->size, &all, &total, err);
	for (i = 0; st == dse_stat_ok && i < run->n_mine; i++) {
		search__island *is = &run->isl[i];
		uint64_t from = (uint64_t) (is->id + c->n_islands - 1) %
			c->n_islands, n;
		const unsigned char *p = find_emigrants(all, total, from, &n);

		if (!p || n == 0)
			continue;
		if (n > (uint64_t) c->migrants)
			n = (uint64_t) c->migrants;
		memcpy(out, p, sizeof(*out) * n);
		if ((c->strategy == SEARCH_GENETIC ?
		     search__genetic_immigrate(c, is, out, (int) n) :
		     search__anneal_immigrate(c, is, out, (int) n)) < 0)
			fail = 1;
	}
	if (st == dse_stat_ok && fail)
		st = dse_error_set(err, DSE_E_NOMEM, "out of memory migrating");
	free(out);
	free(all);
	search__buf_clear(&mine);
	return search__agree(st, run->comm, err);
}

/* The counters over all ranks: evaluated, valid, over, statuses, then the
 * largest generation.  Collective.
 */
struct tally {
	uint64_t v[3 + SIM_N_STATUS];
	uint64_t generations;
};

/* The largest generation is reduced as a signed 64-bit integer, not as
 * MPI_UINT64_T: MPICH 4.0.2 (Debian 12's) compares unsigned integers as
 * signed in MPI_MAX (see sync.c), and a bitwise OR, which sync.c can use
 * for flags and for values only root sets, is not a maximum of several
 * ranks' counts.  A count of generations never nears 2^63 (at one a
 * nanosecond that would take 292 years), so it is clamped there, which
 * only matters for a corrupt resumed count, and the signed maximum of the
 * clamped counts is then their unsigned maximum under any MPI.
 */
static dse_stat reduce_tally(const struct run *run, struct tally *t,
	dse_error *err)
{
	uint64_t in[3 + SIM_N_STATUS] = { 0 }, gen = 0;
	int64_t most, mine;
	int i, s;

	for (i = 0; i < run->n_mine; i++) {
		const search__island *is = &run->isl[i];

		in[0] += is->used;
		in[1] += is->valid;
		in[2] += is->over;
		for (s = 0; s < SIM_N_STATUS; s++)
			in[3 + s] += is->status[s];
		gen = is->generation > gen ? is->generation : gen;
	}
	mine = gen > (uint64_t) INT64_MAX ? INT64_MAX : (int64_t) gen;
	if (search__mpi_check(MPI_Allreduce(in, t->v, 3 + SIM_N_STATUS,
			MPI_UINT64_T, MPI_SUM, run->comm),
			"MPI_Allreduce of counters", err) ||
	    search__mpi_check(MPI_Allreduce(&mine, &most, 1, MPI_INT64_T,
			MPI_MAX, run->comm), "MPI_Allreduce of generations",
			err))
		return dse_stat_error;
	t->generations = (uint64_t) most;
	return dse_stat_ok;
}

/* A front merged up the tree of ranks.  Islands often find the same
 * point, and a front keeps equal points of equal index twice, so every
 * index is offered once: "seen" holds those offered at this rank (a point
 * offered again was kept or beaten the first time, and what beats it is
 * still in the front or beaten in turn by what is).
 */
struct merge {
	search_front *front;
	search__seen seen;
};

static int merge_add(struct merge *m, const search_point *p)
{
	int fresh = search__seen_add(&m->seen, p->index);

	if (fresh <= 0)
		return fresh;
	return search_front_add(m->front, p) < 0 ? -1 : 0;
}

/* A child's front: its thinning level, its points. */
static int absorb_front(const void *bytes, size_t n, void *user)
{
	struct merge *m = user;
	search__reader rd = { bytes, n, 0, 0 };
	uint64_t level, count, i;
	search_point p;

	if (search__get_u64(&rd, &level) || level > 64 ||
	    search__get_u64(&rd, &count) ||
	    count > (rd.n - rd.off) / sizeof(p) ||
	    search__front_raise(m->front, (int) level) < 0)
		return -1;
	for (i = 0; i < count; i++)
		if (search__get(&rd, &p, sizeof(p)) || merge_add(m, &p) < 0)
			return -1;
	return 0;
}

static int pack_front(search__buf *out, void *user)
{
	const struct merge *m = user;

	search__put_front(out, m->front);
	return out->failed ? -1 : 0;
}

/* The merge of every island's archive, on root (NULL elsewhere): each
 * rank merges its islands' archives, in boxes as coarse as the coarsest
 * of them, and the fronts go up the tree of ranks (tree.c), each merged
 * into its parent's.  Collective.
 */
static dse_stat merged_front(struct run *run, search_front **out,
	dse_error *err)
{
	struct merge m = { search__alloc_front(run->c.opt), { 0 } };
	int r, bad = !m.front;
	size_t i;
	dse_stat st;

	*out = NULL;
	for (r = 0; !bad && r < run->n_mine; r++)
		bad = search__front_raise(m.front,
			search__front_level(run->isl[r].archive)) < 0;
	for (r = 0; !bad && r < run->n_mine; r++)
		for (i = 0; !bad &&
				i < search_front_size(run->isl[r].archive); i++)
			bad = merge_add(&m, search_front_at(
				run->isl[r].archive, i)) < 0;
	if (bad)
		dse_error_set(err, DSE_E_NOMEM, "out of memory merging the "
			"fronts");
	st = search__tree_reduce(run->comm, SEARCH__TAG_FRONT, bad,
		absorb_front, pack_front, &m, err);
	search__seen_clear(&m.seen);
	st = search__agree(st, run->comm, err);
	if (st == dse_stat_ok && run->rank == 0) {
		search_front_sort(m.front);
		*out = m.front;
	} else {
		search_front_free(m.front);
	}
	return st;
}

/* The hypervolume of root's merged front in the box from 0 to a reference
 * fixed at the first non-empty front (each objective's worst value there
 * times 2), as the exhaustive sweep reports it.
 */
static double progress_hv(struct run *run, const search_front *front)
{
	double lo[SEARCH_MAX_OBJECTIVES] = { 0 };
	int j, n_obj = run->c.opt->n_obj;
	size_t i;

	if (!run->hv_known) {
		if (search_front_size(front) == 0)
			return NAN;
		for (j = 0; j < n_obj; j++) {
			run->ref[j] = 0;
			for (i = 0; i < search_front_size(front); i++) {
				double v = search_objective_value(front,
					search_front_at(front, i), j);

				run->ref[j] = v > run->ref[j] ? v : run->ref[j];
			}
			run->ref[j] *= 2;
		}
		run->hv_known = 1;
	}
	return search_front_hypervolume(front, lo, run->ref);
}

static void report(struct run *run, const search_front *front,
	const struct tally *t)
{
	const search_options *opt = run->c.opt;
	search_progress pr;

	if (!opt->progress || run->rank != 0)
		return;
	memset(&pr, 0, sizeof(pr));
	pr.stage = 1;
	pr.evaluated = t->v[0];
	pr.valid = t->v[1];
	pr.total = run->budget;
	pr.front_size = search_front_size(front);
	pr.seconds = search__clock_seconds(&run->clock);
	pr.strategy = run->c.strategy;
	pr.hypervolume = progress_hv(run, front);
	pr.generation = t->generations;
	opt->progress(&pr, opt->progress_user);
}

/* --- checkpoint state ------------------------------------------------------ */

static void put_island(search__buf *b, const search__island *is,
	const search__ctx *c)
{
	size_t i;
	int s;

	search__put_u64(b, is->rng);
	search__put_u64(b, is->budget);
	search__put_u64(b, is->used);
	search__put_u64(b, is->generation);
	search__put_u64(b, is->valid);
	search__put_u64(b, is->over);
	for (s = 0; s < SIM_N_STATUS; s++)
		search__put_u64(b, is->status[s]);
	search__put_front(b, is->archive);
	search__put_u64(b, is->seen.n);
	for (i = 0; i < is->seen.cap; i++)
		if (is->seen.slot[i])
			search__put_u64(b, is->seen.slot[i] - 1);
	search__put_u64(b, (uint64_t) is->n_pop);
	if (is->n_pop > 0)
		search__put(b, is->pop, sizeof(*is->pop) * is->n_pop);
	search__put(b, &is->cur, sizeof(is->cur));
	search__put_f64(b, is->temp);
	search__put_f64(b, is->alpha);
	search__put(b, is->weight, sizeof(is->weight));
	search__put_u64(b, (uint64_t) is->n_elite);
	if (is->n_elite > 0)
		search__put(b, is->elite, sizeof(*is->elite) * is->n_elite);
	(void) c;
}

static int get_island(search__reader *r, search__island *is,
	const search__ctx *c)
{
	uint64_t n, i, v, e;
	int s;

	if (search__get_u64(r, &is->rng) || search__get_u64(r, &v) ||
	    v != is->budget || search__get_u64(r, &is->used) ||
	    search__get_u64(r, &is->generation) ||
	    search__get_u64(r, &is->valid) || search__get_u64(r, &is->over))
		return -1;
	for (s = 0; s < SIM_N_STATUS; s++)
		if (search__get_u64(r, &is->status[s]))
			return -1;
	if (search__get_front(r, is->archive) || search__get_u64(r, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (search__get_u64(r, &v) || search__seen_add(&is->seen, v) < 0)
			return -1;
	if (search__get_u64(r, &n) ||
	    n > (uint64_t) (is->pop ? 2 * c->population : 0) ||
	    (n && search__get(r, is->pop, sizeof(*is->pop) * n)))
		return -1;
	is->n_pop = (int) n;
	if (search__get(r, &is->cur, sizeof(is->cur)) ||
	    search__get_f64(r, &is->temp) || search__get_f64(r, &is->alpha) ||
	    search__get(r, is->weight, sizeof(is->weight)) ||
	    search__get_u64(r, &e) ||
	    e > (uint64_t) (is->elite ? c->migrants + 1 : 0) ||
	    (e && search__get(r, is->elite, sizeof(*is->elite) * e)))
		return -1;
	is->n_elite = (int) e;
	return 0;
}

/* This rank's part: its islands as (id, length, record), then its clouds
 * merged, with its length.
 */
static dse_stat put_rank_part(struct run *run, search__buf *b,
	dse_error *err)
{
	search__buf rec = { 0 };
	search_cloud *cloud = NULL;
	dse_stat st = dse_stat_ok;
	int i;

	search__put_u64(b, (uint64_t) run->n_mine);
	for (i = 0; i < run->n_mine; i++) {
		search__buf_clear(&rec);
		put_island(&rec, &run->isl[i], &run->c);
		search__put_u64(b, (uint64_t) run->isl[i].id);
		search__put_u64(b, rec.n);
		search__put(b, rec.p, rec.n);
		b->failed |= rec.failed;
	}
	search__buf_clear(&rec);
	if (run->c.opt->cloud_max > 0) {
		cloud = search_cloud_alloc(run->c.opt->cloud_max);
		if (!cloud)
			st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
		for (i = 0; st == dse_stat_ok && i < run->n_threads; i++)
			st = search_cloud_merge(cloud, run->clouds[i], err);
		if (st == dse_stat_ok)
			search__put_cloud(&rec, cloud);
		search_cloud_free(cloud);
	}
	search__put_u64(b, rec.n);
	search__put(b, rec.p, rec.n);
	b->failed |= rec.failed;
	search__buf_clear(&rec);
	if (st == dse_stat_ok && b->failed)
		st = dse_error_set(err, DSE_E_NOMEM, "out of memory");
	return st;
}

/* The header root writes before the ranks' parts. */
static void put_header(struct run *run, search__buf *b)
{
	search__put_u64(b, PAYLOAD_TAG);
	search__put_u64(b, (uint64_t) run->c.n_islands);
	search__put_u64(b, (uint64_t) run->c.population);
	search__put_u64(b, (uint64_t) run->c.migrate_every);
	search__put_u64(b, (uint64_t) run->c.migrants);
	search__put_u64(b, run->budget);
	search__put_u64(b, run->epoch);
	search__put_f64(b, search__clock_seconds(&run->clock));
	search__put_u64(b, (uint64_t) run->hv_known);
	search__put(b, run->ref, sizeof(run->ref));
	search__put_u64(b, (uint64_t) run->size);
}

/* Gathers the state on root, frames it and hands it to opt->checkpoint
 * with root's merged front.  Collective.
 */
static dse_stat checkpoint(struct run *run, const search_front *front,
	const struct tally *t, int final, dse_error *err)
{
	const search_options *opt = run->c.opt;
	search__buf part = { 0 }, payload = { 0 }, framed = { 0 };
	void *all = NULL;
	size_t *sizes = NULL, total = 0;
	dse_stat st = put_rank_part(run, &part, err);
	int r;

	st = search__agree(st, run->comm, err);
	if (st == dse_stat_ok)
		st = search__gather_bytes(part.p ? part.p : (void *) "", part.n,
			run->comm, &all, &sizes, err);
	if (st == dse_stat_ok && run->rank == 0) {
		search_checkpoint cp;

		for (r = 0; r < run->size; r++)
			total += sizes[r];
		put_header(run, &payload);
		search__put(&payload, all, total);
		st = payload.failed ? dse_error_set(err, DSE_E_NOMEM,
			"out of memory") : search__state_frame(run->c.space, opt,
			&payload, &framed, err);
		memset(&cp, 0, sizeof(cp));
		cp.state = framed.p;
		cp.size = framed.n;
		cp.front = front;
		cp.evaluated = t->v[0];
		cp.valid = t->v[1];
		cp.total = run->budget;
		cp.seconds = search__clock_seconds(&run->clock);
		cp.final = final;
		if (st == dse_stat_ok && opt->checkpoint)
			st = opt->checkpoint(&cp, opt->checkpoint_user, err);
	}
	free(all);
	free(sizes);
	search__buf_clear(&part);
	search__buf_clear(&payload);
	search__buf_clear(&framed);
	return search__agree(st, run->comm, err);
}

static int skip(search__reader *r, uint64_t n)
{
	if (r->failed || n > r->n - r->off) {
		r->failed = 1;
		return -1;
	}
	r->off += (size_t) n;
	return 0;
}

/* Checks the header against this run's options. */
static dse_stat get_header(struct run *run, search__reader *r,
	uint64_t *parts, dse_error *err)
{
	uint64_t v[6], known;
	int i;

	for (i = 0; i < 6; i++)
		if (search__get_u64(r, &v[i]))
			return dse_error_set(err, DSE_E_INPUT,
				"the search state is truncated");
	if (v[0] != PAYLOAD_TAG)
		return dse_error_set(err, DSE_E_INPUT,
			"the search state was not written by a heuristic search");
	if (v[1] != (uint64_t) run->c.n_islands ||
	    v[2] != (uint64_t) run->c.population ||
	    v[3] != (uint64_t) run->c.migrate_every ||
	    v[4] != (uint64_t) run->c.migrants || v[5] != run->budget)
		return dse_error_set(err, DSE_E_INPUT, "the search state has "
			"%llu islands, population %llu, migrate_every %llu, "
			"migrants %llu and budget %llu; this search has %d, %d, "
			"%d, %d and %llu", (unsigned long long) v[1],
			(unsigned long long) v[2], (unsigned long long) v[3],
			(unsigned long long) v[4], (unsigned long long) v[5],
			run->c.n_islands, run->c.population,
			run->c.migrate_every, run->c.migrants,
			(unsigned long long) run->budget);
	if (search__get_u64(r, &run->epoch) ||
	    search__get_f64(r, &run->before) || search__get_u64(r, &known) ||
	    search__get(r, run->ref, sizeof(run->ref)) ||
	    search__get_u64(r, parts) || run->epoch > run->epochs)
		return dse_error_set(err, DSE_E_INPUT,
			"the search state is truncated or corrupt");
	run->hv_known = known != 0;
	return dse_stat_ok;
}

/* Reads one rank part: this rank's islands, and on root the clouds. */
static int get_rank_part(struct run *run, search__reader *r, int *loaded)
{
	uint64_t n, i, id, len;

	if (search__get_u64(r, &n))
		return -1;
	for (i = 0; i < n; i++) {
		search__reader sub;

		if (search__get_u64(r, &id) || search__get_u64(r, &len) ||
		    len > r->n - r->off || id >= (uint64_t) run->c.n_islands)
			return -1;
		sub = (search__reader) { r->p + r->off, (size_t) len, 0, 0 };
		if (id % run->size == (uint64_t) run->rank) {
			if (get_island(&sub, &run->isl[id / run->size],
					&run->c) < 0)
				return -1;
			(*loaded)++;
		}
		if (skip(r, len))
			return -1;
	}
	if (search__get_u64(r, &len) || len > r->n - r->off)
		return -1;
	if (run->rank == 0 && len > 0 && run->clouds[0]) {
		search__reader sub = { r->p + r->off, (size_t) len, 0, 0 };

		if (search__get_cloud(&sub, run->clouds[0]))
			return -1;
	}
	return skip(r, len);
}

/* Every rank takes its islands from the same state bytes. */
static dse_stat resume(struct run *run, dse_error *err)
{
	const search_options *opt = run->c.opt;
	search__reader r;
	uint64_t parts, p;
	int loaded = 0;
	dse_stat st = search__state_open(run->c.space, opt, opt->resume,
		opt->resume_size, &r, err);

	if (st == dse_stat_ok)
		st = get_header(run, &r, &parts, err);
	for (p = 0; st == dse_stat_ok && p < parts; p++)
		if (get_rank_part(run, &r, &loaded) < 0)
			st = dse_error_set(err, DSE_E_INPUT,
				"the search state is truncated or corrupt");
	if (st == dse_stat_ok && loaded != run->n_mine)
		st = dse_error_set(err, DSE_E_INPUT, "the search state holds "
			"%d of this rank's %d islands", loaded, run->n_mine);
	return st;
}

/* --- the driver -------------------------------------------------------------- */

/* What happens between two epochs: migration, the decision to stop,
 * progress and checkpoint.  *stop as search__sync says; the last epoch
 * only reports.  Collective.
 */
static dse_stat between_epochs(struct run *run, int last, int *stop,
	dse_error *err)
{
	const search_options *opt = run->c.opt;
	search_front *front = NULL;
	struct tally t;
	uint64_t due[1];
	int ckpt = 0, report_now;
	double started;
	dse_stat st = dse_stat_ok;

	*stop = 0;
	if (!last && run->c.strategy != SEARCH_RANDOM && run->c.n_islands > 1)
		st = migrate(run, err);
	/* Root says whether progress is due (every progress_interval
	 * seconds, and after the last epoch): gathering the front for it
	 * costs more than a short epoch.
	 */
	due[0] = last;
	if (run->rank == 0 && run->progress && MPI_Wtime() >=
			run->next_report) {
		due[0] = 1;
		run->next_report = MPI_Wtime() + opt->progress_interval;
	}
	if (st == dse_stat_ok && !last)
		st = search__sync_value(&run->clock, opt, run->comm, st, stop,
			&ckpt, due, 1, err);
	report_now = run->progress && due[0];
	started = MPI_Wtime();
	if (st == dse_stat_ok && (report_now || ckpt))
		st = reduce_tally(run, &t, err);
	if (st == dse_stat_ok && (report_now || ckpt))
		st = merged_front(run, &front, err);
	if (st == dse_stat_ok && report_now)
		report(run, front, &t);
	if (st == dse_stat_ok && ckpt) {
		st = checkpoint(run, front, &t, *stop == 1, err);
		if (run->rank == 0)
			search__clock_checkpointed(&run->clock, opt, started);
	}
	search_front_free(front);
	return st;
}

static dse_stat epochs(struct run *run, search_result *result,
	dse_error *err)
{
	dse_stat st = dse_stat_ok;
	int stop = 0;

	while (st == dse_stat_ok && run->epoch < run->epochs) {
		int last = run->epoch + 1 == run->epochs;

		st = search__agree(run_epoch(run, run->epoch, err), run->comm,
			err);
		if (st != dse_stat_ok)
			break;
		run->epoch++;
		st = between_epochs(run, last, &stop, err);
		if (st == dse_stat_ok && stop) {
			result->interrupted = stop == 1;
			break;
		}
	}
	return st;
}

/* A child's cloud, into this rank's. */
static int absorb_cloud(const void *bytes, size_t n, void *user)
{
	search__reader rd = { bytes, n, 0, 0 };

	return search__get_cloud(&rd, user);
}

static int pack_cloud(search__buf *out, void *user)
{
	search__put_cloud(out, user);
	return out->failed ? -1 : 0;
}

/* Every rank's threads' clouds, merged up the tree of ranks; root's in
 * result->cloud.  Collective.
 */
static dse_stat merged_cloud(struct run *run, search_result *result,
	dse_error *err)
{
	search_cloud *cloud = search_cloud_alloc(run->c.opt->cloud_max);
	dse_stat st = cloud ? dse_stat_ok :
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
	int s;

	for (s = 0; st == dse_stat_ok && s < run->n_threads; s++)
		st = search_cloud_merge(cloud, run->clouds[s], err);
	st = search__tree_reduce(run->comm, SEARCH__TAG_CLOUD,
		st != dse_stat_ok, absorb_cloud, pack_cloud, cloud, err);
	st = search__agree(st, run->comm, err);
	if (st == dse_stat_ok && run->rank == 0) {
		search_cloud_sort(cloud);
		result->cloud = cloud;
	} else {
		search_cloud_free(cloud);
	}
	return st;
}

/* Root's merged front, the clouds, the counters.  Collective. */
static dse_stat finish(struct run *run, search_result *result,
	dse_error *err)
{
	struct tally t;
	dse_stat st = merged_front(run, &result->front, err);
	int s;

	if (st == dse_stat_ok)
		st = reduce_tally(run, &t, err);
	if (st == dse_stat_ok && run->c.opt->cloud_max > 0)
		st = merged_cloud(run, result, err);
	if (st != dse_stat_ok)
		return st;
	result->evaluated = t.v[0];
	result->valid = t.v[1];
	result->over_constraint = t.v[2];
	for (s = 0; s < SIM_N_STATUS; s++)
		result->status_count[s] = t.v[3 + s];
	result->generations = t.generations;
	return dse_stat_ok;
}

static void free_result(search_result *result)
{
	result->front = search_front_free(result->front);
	result->cloud = search_cloud_free(result->cloud);
}

dse_stat search__heuristic(const search_space *space,
	const search_evaluator *ev, const search_options *opt, MPI_Comm comm,
	search_result *result, dse_error *err)
{
	struct run run;
	dse_stat st;

	memset(result, 0, sizeof(*result));
	memset(&run, 0, sizeof(run));
	st = check_options(space, opt, err);
	if (st != dse_stat_ok)
		return st;
	run.comm = comm;
	if (search__mpi_check(MPI_Comm_rank(comm, &run.rank), "MPI_Comm_rank",
			err) ||
	    search__mpi_check(MPI_Comm_size(comm, &run.size), "MPI_Comm_size",
			err))
		return dse_stat_error;
	setup_ctx(&run, space, ev, opt);
	run.c.ops = search__ops_alloc(space, err);
	st = run.c.ops ? alloc_islands(&run, err) : dse_stat_error;
	if (st == dse_stat_ok && opt->resume)
		st = resume(&run, err);
	st = search__agree(st, comm, err);
	/* Progress is asked for on root; the front's merge is collective, so
	 * every rank must learn whether root wants it (this also starts the
	 * clocks together).
	 */
	run.progress = opt->progress != NULL;
	if (st == dse_stat_ok)
		st = search__mpi_check(MPI_Allreduce(MPI_IN_PLACE, &run.progress,
			1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce", err);
	if (st == dse_stat_ok) {
		search__clock_start(&run.clock, opt, run.before);
		st = epochs(&run, result, err);
	}
	if (st == dse_stat_ok)
		st = finish(&run, result, err);
	if (st == dse_stat_ok && opt->model == SIM_MODEL_SAMPLED)
		st = search__second_stage(&result->front, ev, opt, comm, result,
			err);
	free_islands(&run);
	search__ops_free((search__ops *) run.c.ops);
	if (st != dse_stat_ok) {
		free_result(result);
		return st;
	}
	result->seconds = search__clock_seconds(&run.clock);
	result->threads = run.n_threads;
	result->strategy = opt->strategy;
	result->islands = run.c.n_islands;
	result->resumed = opt->resume != NULL;
	if (run.rank == 0 && result->front)
		search_front_sort(result->front);
	return dse_stat_ok;
}
