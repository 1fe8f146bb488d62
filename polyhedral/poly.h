/* polyhedral: the kernel, read with isl, and the design template derived
 * from it.
 *
 * isl objects never leave this module: the template handed to the other
 * modules holds plain numbers only.  Each call makes and frees its own
 * isl_ctx, so the functions are safe to call from several threads.
 */
#ifndef POLYHEDRAL_POLY_H
#define POLYHEDRAL_POLY_H

#include <stdint.h>

#include "dse/error.h"

#define POLY_MAX_LOOPS 8
#define POLY_MAX_PARAMS 16
#define POLY_NAME_LEN 32

/* Where a kernel string came from, so that isl's complaints can be turned
 * into file:line:col errors.  Any field may be empty/0.
 */
typedef struct poly_source {
	const char *file;
	int line;
	int col;
	const char *key;
} poly_source;

/* The kernel as the user wrote it: isl strings plus parameter values. */
typedef struct poly_kernel_desc {
	const char *name;
	const char *domain;	/* isl set, e.g. "[M,N,K] -> { S0[i,j,k] : ... }" */
	const char *reads;	/* isl union map */
	const char *writes;	/* isl union map */
	int n_params;
	const char *param_name[POLY_MAX_PARAMS];
	int64_t param_value[POLY_MAX_PARAMS];
	const char *reduction;	/* name of the reduction loop, or NULL */
	poly_source domain_src, reads_src, writes_src, params_src,
		reduction_src;
	poly_source space_time_src;	/* of the space_time choice */
} poly_kernel_desc;

/* One space-time candidate and everything the models need about the loop
 * nest.  Plain numbers only.
 */
typedef struct poly_template {
	char kernel[POLY_NAME_LEN];
	char statement[POLY_NAME_LEN];
	int n_loops;
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];
	int64_t extent[POLY_MAX_LOOPS];	/* trip count of each loop */
	int reduction;			/* index of the reduction loop */
	int space_time;			/* AutoSA's space_time[n] number */
	int n_space;			/* number of space loops */
	int space_loop[2];		/* indices of the space loops */
	uint64_t points;		/* statement instances */
	int ops_per_point;		/* arithmetic operations per instance */
} poly_template;

/* Reads the kernel with isl and builds the template of the output-
 * stationary 2-D array (AutoSA's space_time[3] for matrix multiply).
 * Fills err (with the source position of the offending string) on a
 * malformed or unsupported kernel; input errors have code DSE_E_INPUT.
 */
dse_stat poly_template_build(const poly_kernel_desc *desc, int space_time,
	poly_template *out, dse_error *err);

/* The index of a loop by name in the template, or -1. */
int poly_template_loop(const poly_template *tmpl, const char *name);

#endif
