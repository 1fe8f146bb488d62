/* Internal interface of the heuristic strategies (islands.c, genetic.c,
 * anneal.c): the islands' generators, the neighbourhood operators on the
 * tiling chains, and the state of one island.  Not for other modules.
 */
#ifndef SEARCH_HEURISTIC_H
#define SEARCH_HEURISTIC_H

#include "search_private.h"

/* --- generators ---------------------------------------------------------
 *
 * Every island draws from its own splitmix64 generator: one 64-bit word of
 * state, so a checkpoint holds it whole and a resumed island continues the
 * very same sequence.
 */
uint64_t search__rng_next(uint64_t *state);
/* Uniform in [0, 1). */
double search__rng_unit(uint64_t *state);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t search__rng_below(uint64_t *state, uint64_t n);
/* The seed of island "island" of a search seeded with "seed". */
uint64_t search__island_seed(uint64_t seed, int island);

/* --- operators on the tiling chains (genetic.c) -------------------------
 *
 * The knobs fall into groups: every tiling chain is one group (its knobs
 * ordered by level), every knob without a chain a group of its own.
 * Crossover takes whole groups from either parent; mutation moves one
 * prime factor along a chain, or one plain knob to a neighbouring value.
 */
typedef struct search__ops search__ops;

search__ops *search__ops_alloc(const search_space *space, dse_error *err);
search__ops *search__ops_free(search__ops *ops);
/* A uniformly random point: every knob's value drawn from its list. */
void search__random_point(const search__ops *ops, uint64_t *rng,
	int32_t *knobs);
/* A point built chain by chain as a divisor chain from the lists (a knob
 * falls back to a random value when no listed value fits).
 */
void search__chain_point(const search__ops *ops, uint64_t *rng,
	int32_t *knobs);
/* One neighbourhood move on "knobs", in place: a prime factor moved between
 * two levels of a chain (the values between them multiplied or divided by
 * it, only to listed values, keeping a divisor chain a divisor chain), or,
 * when the chain allows no such move or the knob has no chain, a knob
 * moved to a neighbouring list position or a random value.  Leaves the
 * point unchanged only when no knob has two values.
 */
void search__mutate(const search__ops *ops, uint64_t *rng, int32_t *knobs);
/* Uniform crossover over the groups: each group whole from "a" or "b". */
void search__crossover(const search__ops *ops, uint64_t *rng,
	const int32_t *a, const int32_t *b, int32_t *child);
/* Whether every chain of "knobs" is a divisor chain under its top. */
int search__chains_legal(const search__ops *ops, const int32_t *knobs);

/* --- islands ------------------------------------------------------------ */

/* A set of evaluated indices (open addressing; keys stored plus one, so
 * zero marks an empty slot).
 */
typedef struct search__seen {
	uint64_t *slot;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
} search__seen;

/* -1: out of memory, 0: already there, 1: added. */
int search__seen_add(search__seen *s, uint64_t index);
int search__seen_has(const search__seen *s, uint64_t index);
void search__seen_clear(search__seen *s);

/* An evaluated point as the strategies rank it: cls 0 feasible, 1 legal
 * but over a constraint (viol: the total normalised violation), 2
 * illegal; obj the objectives, every one minimised (maximised metrics
 * negated); rank and crowd the NSGA-II front number and crowding
 * distance; score the annealing objective.
 */
typedef struct search__indiv {
	search_point p;
	double obj[SEARCH_MAX_OBJECTIVES];
	double viol;
	double crowd;
	double score;
	int32_t cls;
	int32_t rank;
} search__indiv;

/* What every island of a run shares, read-only. */
typedef struct search__ctx {
	const search_space *space;
	const search_evaluator *ev;
	const search_options *opt;
	const search__ops *ops;
	int strategy;
	int n_islands;
	int population;
	int migrate_every;
	int migrants;
	uint64_t size;		/* points in the space */
} search__ctx;

/* Redraws of a point already evaluated before one is evaluated again. */
#define SEARCH_DUP_TRIES 16

typedef struct search__island {
	int id;
	int failed;		/* out of memory */
	uint64_t rng;
	uint64_t budget;	/* evaluations this island may make */
	uint64_t used;
	uint64_t generation;	/* generations done (the first included) */
	uint64_t valid;
	uint64_t over;
	uint64_t status[SIM_N_STATUS];
	search_front *archive;	/* every legal feasible point evaluated */
	search_cloud *cloud;	/* the calling thread's cloud, or NULL */
	search__seen seen;
	/* genetic: the population (room for parents and children) */
	search__indiv *pop;
	int n_pop;
	/* annealing: the current point, the cooling, the weights and the
	 * best points found (the emigrants)
	 */
	search__indiv cur;
	double temp;
	double alpha;
	double weight[SEARCH_MAX_OBJECTIVES];
	search__indiv *elite;
	int n_elite;
} search__island;

/* Evaluates p (knobs set) on the island: index, metrics, counters,
 * archive, cloud and the seen set.  Returns -1 on memory exhaustion.
 */
int search__island_eval(const search__ctx *c, search__island *is,
	search_point *p);
/* Fills an individual's class, violation and objectives from its point. */
void search__indiv_classify(const search__ctx *c, search__indiv *ind);
/* Initial point "i" of an island: uniform for even i, built as divisor
 * chains for odd i, redrawn (up to SEARCH_DUP_TRIES times) while the
 * island has evaluated it already.
 */
void search__initial_point(const search__ctx *c, search__island *is, int i,
	int32_t *knobs);

/* Genetic (NSGA-II).  The first generation is the initial population;
 * each later one breeds min(population, budget left) children.
 */
int search__genetic_first(const search__ctx *c, search__island *is);
int search__genetic_step(const search__ctx *c, search__island *is);
/* The island's best "n" points (fewer when it has fewer). */
int search__genetic_emigrants(const search__ctx *c, const search__island *is,
	search_point *out, int n);
int search__genetic_immigrate(const search__ctx *c, search__island *is,
	const search_point *in, int n);
/* NSGA-II ranking of n individuals: fronts under constrained domination,
 * crowding distances, then sorted best first (rank, crowding, index).
 * Returns -1 on memory exhaustion.
 */
int search__nsga_sort(const search__ctx *c, search__indiv *ind, int n);

/* Simulated annealing. */
int search__anneal_first(const search__ctx *c, search__island *is);
int search__anneal_step(const search__ctx *c, search__island *is);
int search__anneal_emigrants(const search__ctx *c, const search__island *is,
	search_point *out, int n);
int search__anneal_immigrate(const search__ctx *c, search__island *is,
	const search_point *in, int n);
/* Island "island"'s weights: opt->weights, or spread over the simplex. */
void search__anneal_weights(const search__ctx *c, int island, double *w);

#endif
