/* Kernels of the examples written with their loops in another order, and
 * random legal designs of a model, for the tests and the benchmark that
 * set the analytic model beside the cycle simulation.
 */
#ifndef TESTS_SUPPORT_DESIGNS_H
#define TESTS_SUPPORT_DESIGNS_H

#include <stdint.h>

#include "sim/sim.h"
#include "tests/support/mm_kernel.h"

#define DESIGN_TEXT_LEN 1024

/* A kernel description whose strings live in the struct. */
typedef struct permuted_kernel {
	char domain[DESIGN_TEXT_LEN];
	char reads[DESIGN_TEXT_LEN];
	char writes[DESIGN_TEXT_LEN];
	int n_loops;
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN];	/* as written */
	poly_kernel_desc desc;
} permuted_kernel;

/* Example kernel k (of one statement) with parameter values "values",
 * its statement's loops written in the order perm: the i-th loop of the
 * new tuple is loop perm[i] of the example (S0[i,j,k] with perm {0,2,1}
 * becomes S0[i,k,j] everywhere).  The computation is the same; only the
 * order the loops are written in, which is the order the program runs
 * them in, changes.  Returns 0, or -1 when the kernel has several
 * statements (their order would need a schedule written anew), perm is
 * no permutation of its loops or a string does not fit.
 */
int example_kernel_permute(const example_kernel *k, const int64_t *values,
	const int *perm, permuted_kernel *out);

/* The loops of example k's statement (as written in the example). */
int example_kernel_loops(const example_kernel *k,
	char loop[POLY_MAX_LOOPS][POLY_NAME_LEN]);

/* splitmix64: the tests' and benchmark's own generator, so that a seed
 * gives the same designs on every machine.
 */
uint64_t design_random(uint64_t *state);

/* Limits on a random design, so that its full cycle simulation stays
 * short: at most max_tiles tiles and max_pe PEs.
 */
typedef struct design_caps {
	int64_t max_tiles;
	int64_t max_pe;
	int no_l2;		/* agree_case_draw: never array_part_L2 */
} design_caps;

/* Draws a random legal design of model m on template t (the one m was
 * built from) into knobs: array_part a divisor of its loop's extent (now
 * and then any value, so that the last tile is padded), array_part_L2 a
 * multiple of it, latency a divisor of array_part, simd a divisor of what
 * a PE runs of its loop, io_network and double_buffer either value.
 * Returns 0, or -1 when no design within the caps was found in a few
 * hundred draws.
 */
int design_draw(const sim_model *m, const poly_template *t,
	const design_caps *caps, uint64_t *state, int32_t *knobs);

/* The design of model "from" (knobs kf) as a design of model "to" (into
 * kt), knob by knob of the same name ("array_part_i" is loop i's tile in
 * both, whatever their loop orders).  Returns 0, or -1 when a knob of
 * "to" has no namesake in "from".
 */
int design_by_name(const sim_model *from, const int32_t *kf,
	const sim_model *to, int32_t *kt);

/* One random case of the agreement between the analytic model and the
 * cycle simulation: a kernel of the examples with small random sizes,
 * written in a random loop order, a random space-time candidate of it,
 * random knob options, data type and board (any built-in board, so that
 * some designs wait for DRAM), and a random legal design.
 */
typedef struct agree_case {
	char label[256];		/* kernel, sizes, order, candidate */
	permuted_kernel pk;
	poly_template tmpl;
	arch_board board;
	sim_model *model;		/* owned: agree_case_clear frees */
	int32_t knobs[SIM_MAX_KNOBS];
} agree_case;

/* Draws case c from *state within the caps.  Returns 0; 1 when its
 * model has no legal design within the caps (draw again); -1 when the
 * front end or the model fails (err says why).  Call agree_case_clear
 * whatever it returns.
 */
int agree_case_draw(uint64_t *state, const design_caps *caps,
	agree_case *c, dse_error *err);
void agree_case_clear(agree_case *c);

#endif
