/* polyhedral: declarations shared by the files of this module only.
 *
 * The kernel is first read into a poly__kernel, which still holds isl
 * objects, and the templates are then derived from it.  Nothing here may
 * be included from another module: isl objects never leave polyhedral/.
 */
#ifndef POLYHEDRAL_INTERNAL_H
#define POLYHEDRAL_INTERNAL_H

#include <stdint.h>

#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/union_map.h>

#include "core/error.h"
#include "polyhedral/poly.h"

/* The kernel after it has been read and checked.
 *
 * All isl objects live in "ctx", which the kernel does not own.  The
 * given parameter values are fixed and projected out everywhere, so the
 * domains are plain integer sets; the access relations are restricted to
 * the domains and keep only the parameters that have no value (those used
 * by the accesses alone).  Loop bounds are inclusive.
 *
 * The compute statement is the one with the most loops (the update of an
 * accumulation when there is a tie); the arrays are built around its loop
 * band, and "domain", the loops and the reduction refer to it.  The other
 * statements (initialisations, for instance) take part in the dependence
 * analysis through "domains", the accesses and the schedule.
 */
typedef struct poly__kernel {
	isl_ctx *ctx;
	isl_union_set *domains;		/* every statement */
	isl_set *domain;		/* the compute statement */
	isl_union_map *reads;
	isl_union_map *writes;
	isl_union_map *schedule;	/* program order */
	int n_stmts;
	char stmt[POLY_MAX_STMTS][POLY_NAME_LEN];	/* in program order */
	int stmt_loops[POLY_MAX_STMTS];
	int role[POLY_MAX_STMTS];	/* enum poly_stmt_role */
	char statement[POLY_NAME_LEN];
	int n_loops;
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	int64_t lower[POLY_MAX_LOOPS];
	int64_t upper[POLY_MAX_LOOPS];
	int64_t extent[POLY_MAX_LOOPS];
	int reduction;			/* -1 when there is none */
	uint64_t box_points;		/* of the bounding box */
	uint64_t points;		/* instances of the compute statement */
} poly__kernel;

/* Reads desc into *kernel using ctx, which must have been set up with
 * ISL_ON_ERROR_CONTINUE.  On success the caller owns the isl objects in
 * *kernel and releases them with poly__kernel_clear.  On failure *kernel
 * holds nothing that needs freeing and err says why (DSE_E_INPUT at the
 * source of the offending string for a bad kernel).
 */
dse_stat poly__kernel_read(isl_ctx *ctx, const poly_kernel_desc *desc,
	poly__kernel *kernel, dse_error *err);

/* Gives every statement of k its role (roles.c): the compute statement,
 * or an initialisation of its output in place.  A statement that is
 * neither is refused at its source (the C statement, or the domain
 * string) with what it does that the array would leave out.  Needs the
 * compute statement, the accesses and the schedule.
 */
dse_stat poly__check_roles(poly__kernel *k, const poly_kernel_desc *desc,
	dse_error *err);

/* Counts the points of "domain" (kept; a bounded set without parameters)
 * exactly into *out (count.c).  "box" is the number of points of its
 * bounding box, which bounds isl's point-by-point count of domains with
 * strides.  Returns 0, -1 on an isl failure, 1 when the count would take
 * too long or does not fit 64 bits.
 */
int poly__count_points(__isl_keep isl_set *domain, uint64_t box,
	uint64_t *out);

/* Frees the isl objects of *kernel and resets it.  Accepts NULL. */
void poly__kernel_clear(poly__kernel *kernel);

/* Turns the last error of ctx into err after an isl call failed for a
 * reason other than bad input; "what" says what was being computed.
 * Returns dse_stat_error.
 */
dse_stat poly__isl_error(isl_ctx *ctx, dse_error *err, const char *what);

/* Records a DSE_E_INPUT error at src (see dse_error_set_at).  Returns
 * dse_stat_error.
 */
dse_stat poly__input_error(dse_error *err, const poly_source *src,
	const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The relation { x -> x + e_d } between instances of "domain" that are
 * both in it: one step along loop d.
 */
__isl_give isl_map *poly__unit_step(__isl_keep isl_set *domain, int d);

/* The first access of "array" of the given kind (write or read) in
 * a->access, or -1.
 */
int poly__find_access(const poly_analysis *a, const char *array, int write);

/* Copies an isl name into a fixed-size field; -1 when it does not fit. */
int poly__copy_name(char dst[POLY_NAME_LEN], const char *src);

/* Appends printf-style text at buf + *len, never past size; *len stops
 * growing once the buffer is full.
 */
void poly__append(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Prints an isl object's text into buf, shortened with "..." when it does
 * not fit.  Takes str (which may be NULL).
 */
void poly__text(char *buf, size_t size, __isl_take char *str);

/* The relation of the compute statement to itself inside umap, or an
 * empty map.  Takes umap.
 */
__isl_give isl_map *poly__self(const poly__kernel *k,
	__isl_take isl_union_map *umap);

/* The references an access relation (taken) of one statement to one
 * array holds: its pieces grouped so that each group is one index
 * function (several pieces of one function over parts of the domain stay
 * together), in the order the pieces come, then the pieces that are no
 * function (data-dependent) as one may-reference.  NULL on an isl
 * failure or past POLY_MAX_ACCESSES references.
 */
__isl_give isl_map_list *poly__references(__isl_take isl_map *map);

/* The accesses of k's compute statement, summarised as affine index
 * functions (poly_access), into a->access.
 */
dse_stat poly__accesses(const poly__kernel *k, const poly_kernel_desc *desc,
	poly_analysis *a, dse_error *err);

/* Computes the dependences of the compute statement (a->dep), the band,
 * the parallel loops and the candidate space loops.  rel[i] receives the
 * relation of a->dep[i], for the I/O analysis; the caller frees them
 * (entries past a->n_deps are left NULL).
 */
dse_stat poly__dependences(const poly__kernel *k, poly_analysis *a,
	isl_map **rel, dse_error *err);

/* Enumerates the space-time candidates and finds the SIMD loop. */
dse_stat poly__space_time(const poly__kernel *k, const poly_kernel_desc *desc,
	poly_analysis *a, dse_error *err);

/* Builds, prunes and embeds the I/O groups of every candidate, given the
 * relations of the dependences (see poly__dependences).
 */
dse_stat poly__io(const poly__kernel *k, poly_analysis *a, isl_map **rel,
	dse_error *err);

#endif
