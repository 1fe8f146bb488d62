/* polyhedral: the kernel, read and analysed with isl, and the systolic
 * design templates derived from it, the way AutoSA builds an array.
 *
 * The analysis runs once per sweep: it reads the kernel (several
 * statements, exact and data-dependent accesses), computes the flow, read
 * and output dependences with their distance vectors, finds the outermost
 * permutable band, enumerates the space-time candidates (AutoSA's
 * space_time[n] numbering), detects the latency-hiding and SIMD loops, and
 * builds, prunes and embeds the I/O groups of every candidate.
 *
 * isl objects never leave this module: everything handed to the other
 * modules is a plain value (numbers, names, and isl relations printed as
 * text for people).  Each call makes and frees its own isl_ctx, so the
 * functions are safe to call from several threads.  The small formulas at
 * the end of this header evaluate a template for any tiling chain with
 * integer arithmetic only: the search loop never calls isl.
 */
#ifndef POLYHEDRAL_POLY_H
#define POLYHEDRAL_POLY_H

#include <stdint.h>

#include "core/error.h"

#define POLY_MAX_LOOPS 8
#define POLY_MAX_PARAMS 16
#define POLY_MAX_STMTS 16
#define POLY_MAX_LOCAL 8
#define POLY_MAX_ACCESSES 24
#define POLY_MAX_ARRAY_DIMS 6
#define POLY_MAX_DEPS 48
#define POLY_MAX_SPACE 3
#define POLY_MAX_CANDIDATES 96
#define POLY_MAX_GROUPS 16
#define POLY_MAX_GROUP_DEPS 8
#define POLY_MAX_LEVELS 3
#define POLY_NAME_LEN 32
#define POLY_TEXT_LEN 256

/* --- input ------------------------------------------------------------- */

/* Where a kernel string came from, so that isl's complaints can be turned
 * into file:line:col errors.  Any field may be empty/0.
 */
typedef struct poly_source {
	const char *file;
	int line;
	int col;
	const char *key;
} poly_source;

/* The kernel as the user wrote it: isl strings plus parameter values.
 *
 * An access relation that maps an instance to a single element is an
 * exact (must) access; one that maps it to several elements (for example
 * "S[e,f] -> H[v,f] : 0 <= v < V", an index read from memory) is a
 * data-dependent may-access over that range.
 *
 * "schedule", when given, is the program order as an isl union map from
 * statement instances to a common time space.  Without it, statements are
 * ordered as their loops are nested: each instance goes to its loop
 * indices padded with zeros, then the statement's rank in the order the
 * statements first appear in "domain" -- so an initialisation S0[i,j]
 * runs before the update S1[i,j,k] of the same (i,j).
 */
/* What a front end that reads C knows of a statement beyond the isl
 * strings: the operations one instance performs, and where and how it is
 * written, so that messages can quote it.
 */
typedef struct poly_stmt_info {
	const char *name;	/* the statement, as named in the domain */
	int ops;		/* arithmetic operations per instance */
	const char *text;	/* as written, e.g. "C[i][j] += A[i][k] * B[k][j]" */
	poly_source src;
} poly_stmt_info;

typedef struct poly_kernel_desc {
	const char *name;
	const char *domain;	/* isl union set of statement instances */
	const char *reads;	/* isl union map */
	const char *writes;	/* isl union map */
	const char *schedule;	/* isl union map, or NULL */
	int n_params;
	const char *param_name[POLY_MAX_PARAMS];
	int64_t param_value[POLY_MAX_PARAMS];
	const char *reduction;	/* name of the reduction loop, or NULL */
	int ops_per_point;	/* operations per instance; 0: derived */
	int max_space;		/* 2 (default when 0) or 3 for 3-D arrays */
	/* Wall-clock seconds the analysis may take (0: POLY_MAX_SECONDS);
	 * past them it stops with an input error at the domain.
	 */
	int max_seconds;
	poly_source domain_src, reads_src, writes_src, schedule_src,
		params_src, reduction_src;
	poly_source space_time_src;	/* of the space_time choice */
	/* Filled by the C front end (cfront/), zero for isl kernels: the
	 * statements in program order, and the arrays declared inside the
	 * scop, which live on chip and never travel to or from DRAM.
	 */
	int n_stmt_info;
	poly_stmt_info stmt_info[POLY_MAX_STMTS];
	int n_local;
	const char *local[POLY_MAX_LOCAL];
} poly_kernel_desc;

/* The longest isl string a kernel may give (characters) and the deepest
 * nesting of (), [] and {} in it: isl's parser recurses once per level,
 * so 50,000 nested parentheses overflowed the stack inside isl; real
 * kernels nest a few levels and take a few hundred characters.  Checked
 * before isl reads the string.
 */
#define POLY_MAX_TEXT 65536
#define POLY_MAX_NESTING 256
/* The default bound of the analysis in wall-clock seconds: the kernels of
 * configs/ take well under one; a domain of a hundred disjuncts took
 * minutes, and the bound of isl operations alone let it run for eight.
 */
#define POLY_MAX_SECONDS 60

/* --- the analysis ------------------------------------------------------ */

/* What a statement is to the array: the computation mapped onto the PEs,
 * or an initialisation of that computation's output in place (C[i][j] =
 * 0, C[i][j] *= beta), which the PEs perform when an output tile is first
 * loaded.  A kernel with any other statement is refused.
 */
enum poly_stmt_role { POLY_ROLE_COMPUTE = 0, POLY_ROLE_INIT };

/* One access of the compute statement, summarised as an affine index
 * function of the statement's loops so that footprints can be computed for
 * any tile without isl: index d of the array is
 * sum_l coef[d][l] * loop_l + cst[d].  A dimension that is not an affine
 * function (a may-access) has exact[d] == 0 and covers its whole extent.
 */
typedef struct poly_access {
	char array[POLY_NAME_LEN];
	char text[POLY_TEXT_LEN];	/* e.g. "A[i][k]" */
	int write;
	int may;			/* data-dependent access */
	int n_dims;
	int64_t coef[POLY_MAX_ARRAY_DIMS][POLY_MAX_LOOPS];
	int64_t cst[POLY_MAX_ARRAY_DIMS];
	int exact[POLY_MAX_ARRAY_DIMS];
	int64_t extent[POLY_MAX_ARRAY_DIMS];	/* index range over the domain */
} poly_access;

enum poly_dep_kind {
	POLY_DEP_READ = 0,	/* reuse of a read-only element */
	POLY_DEP_FLOW,		/* a value written then read */
	POLY_DEP_OUTPUT,	/* an element written twice */
	POLY_N_DEP_KINDS
};
const char *poly_dep_kind_name(int kind);

/* A dependence between instances of the compute statement, on one array.
 * The distance range is over the statement's loops; for a uniform
 * dependence dist_min == dist_max.  A distance the analysis cannot bound
 * (from may-accesses) has unknown set and the range of all possibilities.
 */
typedef struct poly_dep {
	char name[8];			/* "D1", "D2", ... */
	int kind;			/* enum poly_dep_kind */
	char array[POLY_NAME_LEN];
	int access;			/* its sink access (index) */
	int uniform;
	int unknown;			/* may-dependence, distance not known */
	int64_t dist_min[POLY_MAX_LOOPS];
	int64_t dist_max[POLY_MAX_LOOPS];
	char relation[POLY_TEXT_LEN];	/* isl text, for people */
} poly_dep;

enum poly_io_type { POLY_IO_INTERIOR = 0, POLY_IO_EXTERIOR };
enum poly_io_level { POLY_L1 = 0, POLY_L2, POLY_L3 };

/* An I/O group of one candidate: accesses of an array with their
 * dependences, and the network AutoSA builds for it.
 *
 * dir is the dependence distance on the space loops (in the order of the
 * candidate's space loops); the group is exterior when a dependence is
 * carried by a space loop (data moves from PE to PE), interior when the
 * data stays in one PE.  A group without dependences (no reuse the array
 * can exploit) is exterior with direction 0: every PE is fed directly.
 *
 * Construction: L1 modules feed one line of PEs each, L2 modules cluster
 * the L1 modules of a line, one L3 module talks to DRAM (a daisy chain at
 * every level).  Optimisation: exterior groups have their L1 modules
 * embedded in the PEs; a group whose data stays in the PE from one tile to
 * the next (the accumulated C of matrix multiply) is pruned.  The local
 * buffer, double-buffered when enabled, sits at buffer_level (L1 for
 * interior I/O, L2 for exterior I/O).
 */
typedef struct poly_group {
	char name[8];			/* "g1", "g2", ... */
	char array[POLY_NAME_LEN];
	int kind;			/* enum poly_dep_kind of its deps */
	int access;			/* representative access (index) */
	int n_deps;
	int dep[POLY_MAX_GROUP_DEPS];	/* indices into poly_analysis.dep */
	int dir[POLY_MAX_SPACE];
	int dir_known;			/* 0 when a distance is unknown */
	int type;			/* enum poly_io_type */
	int copy_in;			/* data comes from DRAM */
	int copy_out;			/* data goes to DRAM */
	int pruned;
	int embedded;			/* L1 modules inside the PEs */
	int levels;			/* I/O levels built (0 when pruned) */
	int buffer_level;		/* enum poly_io_level */
	char copy_in_set[POLY_TEXT_LEN];	/* W_in, isl text ("" if none) */
	char copy_out_set[POLY_TEXT_LEN];	/* W_out */
} poly_group;

/* One space-time candidate: AutoSA's space_time[index]. */
typedef struct poly_candidate {
	int index;
	int n_space;
	int space[POLY_MAX_SPACE];	/* loop indices, outermost first */
	int n_time;
	int time[POLY_MAX_LOOPS];	/* the other loops, in order */
	int n_groups;
	poly_group group[POLY_MAX_GROUPS];
} poly_candidate;

/* The whole analysis of a kernel.  A plain value of about 1 MiB (every
 * candidate's groups are stored whole), so it lives on the heap:
 * poly_analyze allocates it.
 */
typedef struct poly_analysis {
	char kernel[POLY_NAME_LEN];
	char statement[POLY_NAME_LEN];	/* the compute statement */
	int n_statements;
	char stmt_name[POLY_MAX_STMTS][POLY_NAME_LEN];
	int stmt_role[POLY_MAX_STMTS];	/* enum poly_stmt_role */
	int n_loops;
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	int64_t extent[POLY_MAX_LOOPS];
	int reduction;			/* reduction loop, -1 if none */
	int band;			/* the band is loops [0, band) */
	int parallel[POLY_MAX_LOOPS];	/* no dependence carried */
	int space_ok[POLY_MAX_LOOPS];	/* candidate space loop */
	int simd_loop;			/* -1 when no loop vectorises */
	char simd_layout[POLY_TEXT_LEN];	/* e.g. "B[k][j] -> B[j][k]" */
	uint64_t points;		/* compute statement instances */
	/* The points of the domain's bounding box, which the array runs
	 * (equal to points for a rectangular domain).
	 */
	uint64_t box_points;
	int ops_per_point;
	int n_accesses;
	poly_access access[POLY_MAX_ACCESSES];
	int n_deps;
	poly_dep dep[POLY_MAX_DEPS];
	int n_candidates;
	poly_candidate cand[POLY_MAX_CANDIDATES];
	int default_candidate;		/* the one a sweep takes by default */
	double seconds;			/* time the analysis took */
} poly_analysis;

/* Reads and analyses the kernel.  Returns a new analysis that the caller
 * frees with poly_analysis_free, or NULL with err filled: input errors
 * have code DSE_E_INPUT and the position of the offending string; an
 * analysis that exceeds isl's operation bound is reported as such.
 */
poly_analysis *poly_analyze(const poly_kernel_desc *desc, dse_error *err);
poly_analysis *poly_analysis_free(poly_analysis *a);

/* The kernel of desc as a C file with a scop that AutoSA (or dse's own C
 * reader) reads back to the same model: its loops generated by isl's AST
 * generator from the statement instances and the schedule, with the
 * parameters fixed to their values; each statement written from its
 * accesses, and the compute statement padded with scalar factors to
 * "ops" operations (0: as its reads give).  "elem" is the C element type
 * ("float").  Returns the text, which the caller frees with free(), or
 * NULL with err filled (an access read from memory cannot be written).
 */
char *poly_kernel_c(const poly_kernel_desc *desc, const char *elem, int ops,
	dse_error *err);

/* The index of a loop by name, or -1. */
int poly_analysis_loop(const poly_analysis *a, const char *name);

/* --- the template of one candidate ------------------------------------- */

/* The tile-loop order of candidate c, as AutoSA builds its array: the
 * space loops are permuted outermost (in the band's order) and the other
 * loops keep the order they are written in, so the band's other loops
 * come next and the loops outside the band last.  Fills order[] with loop
 * indices of "a", outermost first, and returns their number (a->n_loops),
 * or -1 when c does not name every loop once.
 */
int poly_candidate_order(const poly_analysis *a, const poly_candidate *c,
	int *order);

/* Everything the models need about one candidate, as plain numbers.
 *
 * The template's loops are in the candidate's tile-loop order
 * (poly_candidate_order), not in the order the kernel writes them: loop l
 * of the template is the l-th tile loop, so the space loops are loops
 * 0 .. n_space - 1, tiles are visited with loop 0 outermost, and every
 * per-loop list of the template (loop, extent, access coefficients,
 * latency loops) and of a design (its array_part, latency, simd knobs)
 * follows that order, which is AutoSA's order for --sa-sizes.  The same
 * kernel written in any loop order thus gives the same template for the
 * same space loops, as long as the loops outside them keep their order.
 *
 * The tiling chain of a design point is, per band loop l:
 *   array_part_L2 T2[l] (0: no second level), a multiple of T1[l] that
 *     divides the extent;
 *   array_part T1[l], dividing the extent;
 *   latency L[l] for the latency loops, dividing T1[l];
 *   simd S on the simd loop, dividing what is left of its tile.
 * Loops outside the band run whole inside each tile.
 */
typedef struct poly_template {
	char kernel[POLY_NAME_LEN];
	char statement[POLY_NAME_LEN];
	int n_loops;
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	int64_t extent[POLY_MAX_LOOPS];
	int band;			/* tiled loops are [0, band) */
	int reduction;			/* -1 if none */
	int space_time;			/* AutoSA's space_time[n] number */
	int n_space;
	int space_loop[POLY_MAX_SPACE];
	int n_latency;
	int latency_loop[POLY_MAX_LOOPS];	/* parallel band loops */
	int simd_loop;			/* -1 when no SIMD */
	uint64_t points;
	int ops_per_point;
	int n_accesses;
	poly_access access[POLY_MAX_ACCESSES];
	int n_groups;
	poly_group group[POLY_MAX_GROUPS];
} poly_template;

/* Fills "out" with the template of candidate space_time of "a".  Fails
 * with DSE_E_INPUT, without a source position (the caller knows where the
 * choice came from), when there is no such candidate.
 */
dse_stat poly_template_from(const poly_analysis *a, int space_time,
	poly_template *out, dse_error *err);

/* Analyses desc and fills the template of candidate space_time, or of the
 * default candidate when space_time < 0.  A bad space_time is reported at
 * desc->space_time_src.
 */
dse_stat poly_template_build(const poly_kernel_desc *desc, int space_time,
	poly_template *out, dse_error *err);

/* The index of a loop by name in the template, or -1. */
int poly_template_loop(const poly_template *tmpl, const char *name);

/* --- formulas on a tiling chain (no isl) -------------------------------- */

/* Elements of access "acc" touched by a box of "tile[l]" consecutive
 * iterations of each loop l (n_loops entries): per array dimension
 * min(extent, sum_l |coef| * (tile[l] - 1) + 1), multiplied.  Saturates
 * at INT64_MAX.
 */
int64_t poly_footprint(const poly_template *t, int acc, const int64_t *tile);

/* The length of the innermost array dimension of that footprint: the
 * bound on data packing at a level whose buffer holds this tile.
 */
int64_t poly_inner_run(const poly_template *t, int acc, const int64_t *tile);

/* Whether group g's values reach DRAM through another group: it is an
 * unpruned group of an array whose flow group is not pruned either, so
 * the flow group's traffic after every tile carries its data in and out.
 */
int poly_template_superseded(const poly_template *t, int g);

/* The band loops (bit l for loop l of the template) whose tile indices
 * name one tile of group g's data on its way out: after the last tile of
 * such a tile the group's values are drained, once per tile of these
 * loops in the order the tiles run.  Every band loop for a flow group
 * (its partial values leave after every tile); for other groups the band
 * loops up to the innermost one their access uses (0: one tile for the
 * whole run).  Meaningful for groups that copy out, are not pruned and
 * are not superseded.
 */
unsigned poly_template_drain_loops(const poly_template *t, int g);

/* Whether loop l is one of the candidate's space loops. */
int poly_template_is_space(const poly_template *t, int l);

#endif
