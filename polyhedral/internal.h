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
#include <isl/union_map.h>

#include "dse/error.h"
#include "polyhedral/poly.h"

/* The kernel after it has been read and checked.
 *
 * All isl objects live in "ctx", which the kernel does not own.  The
 * given parameter values are fixed and projected out everywhere, so the
 * domain is a plain integer set; the access relations are restricted to
 * the domain and keep only the parameters that have no value (those used
 * by the accesses alone).  Loop bounds are inclusive.
 */
typedef struct poly__kernel {
	isl_ctx *ctx;
	isl_set *domain;
	isl_union_map *reads;
	isl_union_map *writes;
	char statement[POLY_NAME_LEN];
	int n_loops;
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	int64_t lower[POLY_MAX_LOOPS];
	int64_t upper[POLY_MAX_LOOPS];
	int64_t extent[POLY_MAX_LOOPS];
	int reduction;
} poly__kernel;

/* Reads desc into *kernel using ctx, which must have been set up with
 * ISL_ON_ERROR_CONTINUE.  On success the caller owns the isl objects in
 * *kernel and releases them with poly__kernel_clear.  On failure *kernel
 * holds nothing that needs freeing and err says why (DSE_E_INPUT at the
 * source of the offending string for a bad kernel).
 */
dse_stat poly__kernel_read(isl_ctx *ctx, const poly_kernel_desc *desc,
	poly__kernel *kernel, dse_error *err);

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

#endif
