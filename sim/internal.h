/* sim: declarations shared by the files of this module only.
 *
 * sim.c turns a template into a sim_model (the knobs and the I/O groups
 * sorted by the role they play in the model, with their footprint formulas
 * compiled); model.c evaluates design points on it.
 */
#ifndef SIM_INTERNAL_H
#define SIM_INTERNAL_H

#include <stdint.h>

#include "sim.h"

enum { SIM__KNOB_NAME_LEN = POLY_NAME_LEN + 16 };

/* Above this, a resource count is not a design anyone can build, and the
 * 64-bit sums of the models could wrap: such points are recorded as too
 * large.
 */
#define SIM__RESOURCE_LIMIT 1e18

/* Rounds a non-negative resource count up into *out; 0 when it is beyond
 * the limit (or not a number).
 */
static inline int sim__count(double v, int64_t *out)
{
	int64_t i;

	if (!(v >= 0) || v > SIM__RESOURCE_LIMIT)
		return 0;
	i = (int64_t) v;
	*out = (double) i < v ? i + 1 : i;
	return 1;
}

enum sim__kind {
	SIM__ARRAY_PART = 0,
	SIM__ARRAY_PART_L2,
	SIM__LATENCY,
	SIM__SIMD,
	SIM__N_SA_KINDS,		/* the kinds above are AutoSA's */
	SIM__IO_NETWORK = SIM__N_SA_KINDS,
	SIM__DOUBLE_BUFFER,
	SIM__N_KINDS
};

/* The footprint of one access (poly_footprint) with the zero coefficients
 * dropped, so that evaluating it for a tile touches only the loops each
 * array dimension depends on.  A dimension that is not an affine function
 * of the loops ("whole") always covers its extent.
 */
typedef struct sim__footprint {
	int n_dims;
	struct sim__fp_dim {
		int64_t extent;
		int unit_loop;		/* the loop when the index is one
					 * loop with coefficient +-1, else -1 */
		int whole;
		int n_terms;
		int loop[POLY_MAX_LOOPS];
		int64_t coef[POLY_MAX_LOOPS];	/* absolute values */
	} dim[POLY_MAX_ARRAY_DIMS];
} sim__footprint;

/* Compiles the footprint formula of access "acc" of "t". */
void sim__footprint_compile(const poly_template *t, int acc,
	sim__footprint *fp);

/* poly_footprint on the compiled formula: per array dimension
 * min(extent, 1 + sum |coef| * (tile - 1)), multiplied, saturating at
 * INT64_MAX.  "tile" has an entry per loop of the template, each >= 1.
 */
int64_t sim__footprint_words(const sim__footprint *fp, const int64_t *tile);

/* Data loaded from DRAM for every tile.  Its PE lines run along the
 * space loops of nonzero direction; "dir0_mask" has bit s set for each
 * space loop s (in the candidate's order) of direction zero, along which
 * there is one line per PE.  "multicast" groups (exterior inputs) may use
 * the multicast crossbar; "packed" ones move along the simd loop.
 */
typedef struct sim__input {
	sim__footprint fp;
	unsigned dir0_mask;
	int multicast;
	int packed;
	int interior;
	int group;		/* its group in the template */
} sim__input;

/* Data written to DRAM: once per output tile, that is each time the tile
 * index of a band loop in "loop_mask" changes as the tiles run (the
 * prefix of the band that names an output tile, from
 * poly_template_drain_loops), which for partial sums that leave the array
 * ("every_tile") is after every tile.
 */
typedef struct sim__output {
	sim__footprint fp;
	int every_tile;
	unsigned loop_mask;
	unsigned dir0_mask;
	int interior;
	int group;		/* its group in the template */
} sim__output;

/* A double-buffered local buffer: in every PE ("per_pe", interior I/O
 * with the buffer at L1) or in every L2 module feeding a line of PEs
 * (exterior I/O).  A line runs along the space loops whose direction is
 * not zero; "dir0_mask" has bit s set for each space loop s (in the
 * candidate's order) with a zero direction.  A "packed" buffer holds words
 * of simd data values, because the access moves along the simd loop.
 */
typedef struct sim__buffer {
	sim__footprint fp;
	int per_pe;
	unsigned dir0_mask;
	int packed;
} sim__buffer;

/* One I/O network as AutoSA's code generator builds it, for the resource
 * model (resource.c): the modules of an input group (data loaded from
 * DRAM) or of an output group (results drained to DRAM, or partial sums
 * that leave the array) at each of its levels, their local buffer and
 * their FIFOs.  Interior networks have a module beside every PE at L1,
 * chained into one L2 module per column of PEs; exterior ones feed (or
 * collect) whole PE lines from one L2 module per line, their L1 modules
 * being embedded in the PEs.  One module at the top level talks to DRAM.
 */
typedef struct sim__io {
	char array[POLY_NAME_LEN];
	sim__footprint fp;
	int input;		/* data flows into the array */
	int drain;		/* final results out: AutoSA's drain modules,
				 * never double-buffered */
	int interior;
	int levels;		/* I/O levels (3 for 2-D and 3-D arrays) */
	int buffer_level;	/* enum poly_io_level of its local buffer */
	unsigned dir0_mask;	/* as in sim__input */
	int packed;		/* its innermost dimension moves along the
				 * simd loop with stride one: words of S */
} sim__io;

/* A local variable of every PE: the accumulator of an array the PE
 * updates over its whole tile ("acc"), else the operands of one step,
 * S of them when the access moves along the simd loop ("moves"),
 * partitioned S ways when it does so with stride one ("packed").
 */
typedef struct sim__pe_var {
	char array[POLY_NAME_LEN];
	sim__footprint fp;
	int acc;
	int moves;
	int packed;
} sim__pe_var;

/* The tiling of a legal design point as the resource model reads it:
 * views of the arrays of model.c's point (or of a sim__point).
 */
typedef struct sim__shape {
	const int64_t *t1, *t2, *lat, *pe;
	const int64_t *p;		/* PEs along each space loop */
	int64_t s, n_pe, max_p;
	int net, db;
} sim__shape;

/* The fields sim_eval reads come first and the copies of the template,
 * board and data type (read only when naming knobs and writing the
 * --sa-sizes string) last, so that the hot part shares few cache lines.
 */
/* The tiling of one design point as sim_eval derives it, for the cycle
 * simulator (cycle.c), which must build exactly the array the analytic
 * model describes.  Fields as in model.c's own point structure.
 */
typedef struct sim__point {
	int64_t t1[POLY_MAX_LOOPS], t2[POLY_MAX_LOOPS], lat[POLY_MAX_LOOPS];
	int64_t pe[POLY_MAX_LOOPS], n[POLY_MAX_LOOPS];
	int64_t p[POLY_MAX_SPACE];
	int64_t s, n_pe, sum_p, max_p, per_l2;
	int64_t comp;		/* cycles of one PE on one tile */
	int64_t ii;
	int net, db;
} sim__point;

/* Reads and checks a design point as sim_eval does; returns its status
 * (SIM_OK or why it is illegal) and fills "p" for legal points.
 */
int sim__read_point(const sim_model *m, const int32_t *knobs, sim__point *p);

/* The PE lines of a group whose zero-direction space loops are "dir0" and
 * in "line" the tile of one line (model.c's line_tile).
 */
int64_t sim__line_tile(const sim_model *m, const sim__point *p,
	unsigned dir0, const int64_t *tile, int64_t *line);

/* The contiguous innermost run of a footprint over a tile, and the packing
 * factor of a run under a cap (model.c's fp_run and pack).
 */
int64_t sim__footprint_run(const sim__footprint *fp, const int64_t *tile);
int64_t sim__pack(int64_t run, int64_t cap);

/* The PE lines of "dir0" as sim__line_tile counts them, from the latency
 * factors alone.
 */
int64_t sim__lines(const sim_model *m, const int64_t *lat, unsigned dir0,
	const int64_t *tile, int64_t *line);

/* resource.c: the I/O networks, PE variables and operator counts of the
 * resource model, worked out once when the model is built.
 */
void sim__res_setup(sim_model *m, const sim_options *opt);

/* DSP, BRAM18K, URAM, LUT and FF of a legal point into "out"; with
 * "parts" (SIM_MAX_PARTS entries) every module, buffer and FIFO as well,
 * their number in *n_parts.  Returns SIM_OK or SIM_TOO_LARGE.
 */
int sim__resources(const sim_model *m, const sim__shape *sh,
	sim_metrics *out, sim_part *parts, int *n_parts);

/* sim_bound's resources: the PEs' logic, lanes and local buffers. */
void sim__res_bound(const sim_model *m, const sim__shape *sh,
	sim_metrics *lower);

struct sim_model {
	int n_knobs;
	char knob_name[SIM_MAX_KNOBS][SIM__KNOB_NAME_LEN];
	int knob_loop[SIM_MAX_KNOBS];
	int knob_kind[SIM_MAX_KNOBS];	/* enum sim__kind */
	int l2;				/* array_part_L2 knobs present */
	int net_knob;			/* an io_network knob */
	int db_knob;			/* a double_buffer knob */

	/* The loop nest, copied out of the template for locality. */
	int n_loops;
	int band;
	int64_t extent[POLY_MAX_LOOPS];
	int n_space;
	int space_loop[POLY_MAX_SPACE];
	int n_latency;
	int latency_loop[POLY_MAX_LOOPS];
	int simd_loop;			/* -1: no simd knob */

	int n_in, n_out, n_buf;
	sim__input in[POLY_MAX_GROUPS];
	sim__output out[POLY_MAX_GROUPS];
	sim__buffer buf[POLY_MAX_GROUPS];

	/* Point-independent numbers of the model. */
	int carried;		/* a dependence makes the PE loop wait */
	int bits;		/* data width */
	double bytes;		/* bytes of a data word */
	int64_t port_words;	/* words of one DRAM port beat */
	double bytes_per_s;	/* DRAM bandwidth of the board */
	double mhz;		/* the board's clock */
	int64_t dram_latency;
	int64_t acc_latency;
	double macs_per_point;	/* MAC units one point uses */
	double ops;		/* operations of the kernel */
	arch_lane_cost lane;
	arch_logic logic;
	arch_energy energy;

	/* The resource model (resource.c). */
	int n_io;
	int n_pe_var;
	int dsp_mul_lane;	/* DSP of one lane's multipliers */
	int dsp_add_lane;	/* and of its adders */
	int mul_per_dsp;	/* 2 with int8 packing, else 1 */
	int lane_lut, lane_ff;	/* fabric of one lane */
	int uram;		/* DRAM modules' buffers in URAM */
	int fifo_mem;		/* enum arch_mem of the FIFOs */
	int fifo_linear;	/* their cost is fifo_lut/fifo_ff's line */
	int64_t fifo_lut[2];	/* LUT of a FIFO of w bits in shift
				 * registers: [0] + [1] x w */
	int64_t fifo_ff[2];	/* and FF */
	int64_t pack_words[3];	/* data packing bound per I/O level, words */
	sim__io io[2 * POLY_MAX_GROUPS];
	sim__pe_var pe_var[POLY_MAX_ACCESSES];

	poly_template tmpl;
	arch_board board;
	arch_dtype dtype;
};

#endif
