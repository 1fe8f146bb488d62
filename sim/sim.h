/* sim: performance and resource models of a design point.
 *
 * A sim_model is built once from a design template, a board and a data type
 * and is then read-only: any number of threads may call sim_eval on it at
 * once.  sim_eval is the hot path of the search and costs well under a
 * microsecond.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stdint.h>

#include "arch/arch.h"
#include "core/error.h"
#include "core/metrics.h"
#include "polyhedral/poly.h"

/* The most knobs a design point has: array_part and array_part_L2 of every
 * band loop, latency of every band loop, one simd, the I/O network and
 * double buffering.
 */
#define SIM_MAX_KNOBS (3 * POLY_MAX_LOOPS + 3)

/* Values of the io_network knob, X(id, name): the value is the knob's
 * value in a point and the front's io_network column.
 */
#define SIM_IO_NETWORK_TABLE(X) \
	X(SIM_NET_DAISY, "daisy") \
	X(SIM_NET_MULTICAST, "multicast")

enum sim_io_network {
#define SIM_IO_NETWORK_ID(id, name) id,
	SIM_IO_NETWORK_TABLE(SIM_IO_NETWORK_ID)
#undef SIM_IO_NETWORK_ID
	SIM_N_IO_NETWORKS
};

/* The board's capacity for a resource metric (dsp, bram18k, uram, lut,
 * ff); 0 for metrics that are not resources.
 */
double sim_metric_capacity(const arch_board *board, enum sim_metric m);

typedef struct sim_model sim_model;

/* Choices that change the knobs of a design point.  A NULL pointer where
 * one is expected means every field at its default (zero).
 */
typedef struct sim_options {
	int array_part_L2;	/* 1: a second tiling level on every band
				 * loop (array_part_L2_<loop> knobs) */
	int io_network;		/* 1: an "io_network" knob (enum
				 * sim_io_network); else every point uses
				 * the daisy chain */
	int double_buffer;	/* 1: a "double_buffer" knob (0 or 1); else
				 * every point is double-buffered */
	/* Code-generation choices that change the resources of every
	 * point, as AutoSA's own options do.
	 */
	int dsp_packing;	/* 1: two multiplies per DSP slice where the
				 * data type allows it (int8; Xilinx WP486);
				 * AutoSA's code does not pack by default */
	int uram;		/* 1: buffers of the modules at DRAM in URAM
				 * (AutoSA's --uram) */
	int data_pack[3];	/* AutoSA's --data-pack-sizes: the widest
				 * word, in bytes, of the innermost (L1),
				 * intermediate (L2) and outermost (L3) I/O
				 * level; 0 takes AutoSA's default 8, 32,
				 * 64 */
} sim_options;

/* Builds the analytic model of "tmpl" on "board" with data type "dtype".
 * The caller keeps ownership of the arguments, which are copied; "opt" may
 * be NULL.  Returns NULL and fills err (DSE_E_INPUT) when the template is
 * inconsistent (loop, space, latency, simd or group indices out of range,
 * a loop without iterations) or the board or data type cannot be modelled.
 */
sim_model *sim_model_alloc(const poly_template *tmpl, const arch_board *board,
	const arch_dtype *dtype, const sim_options *opt, dse_error *err);
sim_model *sim_model_free(sim_model *model);

/* The knobs a design point of this model has, in order: array_part of
 * every band loop, then array_part_L2 of every band loop when the option
 * asks for it, latency of every latency loop of the template, simd of
 * the simd loop when there is one, then "io_network" and "double_buffer"
 * when the options ask for them.  Their number and names
 * ("array_part_i", "array_part_L2_i", "latency_j", "simd_k", ...), and for
 * each knob the loop it tiles (an index into the template's loops; -1 for
 * io_network and double_buffer).
 */
int sim_model_n_knobs(const sim_model *model);
const char *sim_model_knob_name(const sim_model *model, int knob);
int sim_model_knob_loop(const sim_model *model, int knob);
/* The knob's family: "array_part", "array_part_L2", "latency", "simd",
 * "io_network" or "double_buffer".
 */
const char *sim_model_knob_kind(const sim_model *model, int knob);

/* Evaluates one design point with the analytic model.  "knobs" holds
 * sim_model_n_knobs() values.  Always fills "out"; out->status says whether
 * the point is legal.  Thread-safe.
 */
void sim_eval(const sim_model *model, const int32_t *knobs, sim_metrics *out);

/* Lower bounds of the resource metrics of a design point (dsp, bram18k,
 * uram, lut, ff), at a fraction of sim_eval's cost: never above what
 * sim_eval gives for the same knobs, so a search may skip a point whose
 * bound already breaks a resource constraint and find the same front.
 * DSP is exact for legal points; LUT and FF count the PEs' own logic and
 * lanes (not the I/O network or the buffers), BRAM18K the PEs' local
 * buffers (not the I/O modules'); URAM is 0.  About a tenth of sim_eval's
 * work on a legal point.  lower->status is SIM_OK, or
 * the status sim_eval gives when the knobs themselves are illegal (then
 * every bound is 0); a legal-looking point may still be SIM_TOO_LARGE in
 * sim_eval.  Every other field is 0.  Thread-safe.
 */
void sim_bound(const sim_model *model, const int32_t *knobs,
	sim_metrics *lower);

/* The best metrics any legal point of a box of knob values can have: knob
 * k ranges over [lo[k], hi[k]] (lo == hi for a fixed knob), and for every
 * point of the box that sim_eval finds legal, cycles, latency, off-chip
 * bytes, energy, EDP, DSP, LUT and FF are at least "best"'s and GFLOP/s
 * at most.  BRAM18K and URAM are 0 (no bound).  The bounds only tighten
 * as the box shrinks, and cost about as much as one sim_eval (a few times
 * that where the chain's words are minimised over a fixed tile's
 * latencies).  best->status
 * is SIM_OK, or SIM_BAD_TILE when no point of the box can be legal.
 * bound.c proves each bound from the model's formulas.  Thread-safe.
 */
void sim_bound_box(const sim_model *model, const int32_t *lo,
	const int32_t *hi, sim_metrics *best);

/* The status sim_eval gives every point whose first n knobs are those of
 * "knobs", when those knobs alone decide it (an illegal value, or values
 * that do not divide one another), else SIM_OK.  Thread-safe.
 */
int sim_prefix_status(const sim_model *model, const int32_t *knobs, int n);

/* One line of a design's resource breakdown, as AutoSA's resource report
 * and the HLS report list a design: a kind of module with its count and its
 * own logic, or a buffer or a kind of FIFO of such modules with its word
 * width, depth, banks (AutoSA's cyclic array partitions), copies (2 for
 * ping-pong buffers) and memory.  Resources are of all "count" instances
 * (and all copies) together; the rows of a design add up to sim_eval's
 * metrics.
 */
enum sim_part_kind { SIM_PART_MODULE = 0, SIM_PART_BUFFER, SIM_PART_FIFO };

#define SIM_PART_NAME_LEN (POLY_NAME_LEN + 64)

typedef struct sim_part {
	int kind;			/* enum sim_part_kind */
	char module[SIM_PART_NAME_LEN];	/* "PE", "A_IO_L2_in", ... */
	char name[SIM_PART_NAME_LEN];	/* the buffer or FIFO; the module's
					 * name again on a module row */
	int level;			/* I/O level (1-3); 0 in the PEs */
	int64_t count;			/* instances in the design */
	int width;			/* bits of a word (buffers, FIFOs) */
	int64_t depth;			/* words of one copy */
	int64_t banks;
	int copies;
	int mem;			/* enum arch_mem; -1 on module rows */
	int64_t dsp, bram18k, uram, lut, ff;
} sim_part;

/* The most rows a breakdown has. */
#define SIM_MAX_PARTS (8 * POLY_MAX_GROUPS + POLY_MAX_ACCESSES + 8)

/* Fills "parts" (SIM_MAX_PARTS entries) with the breakdown of the design
 * point "knobs" and sets *n_parts; "total" (may be NULL) gets what
 * sim_eval gives for the point.  Returns the point's status; no rows for an
 * illegal point.  Slower than sim_eval (it names every part), with the same
 * formulas.  Thread-safe.
 */
int sim_breakdown(const sim_model *model, const int32_t *knobs,
	sim_part *parts, int *n_parts, sim_metrics *total);

#endif
