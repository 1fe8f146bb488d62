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
#include "dse/error.h"
#include "polyhedral/poly.h"

/* The most knobs a design point has: array_part and array_part_L2 of every
 * band loop, latency of every band loop, one simd, the I/O network and
 * double buffering.
 */
#define SIM_MAX_KNOBS (3 * POLY_MAX_LOOPS + 3)

/* Values of the io_network knob. */
enum sim_io_network { SIM_NET_DAISY = 0, SIM_NET_MULTICAST = 1 };

/* The metrics of one evaluated design point.  A small value. */
typedef struct sim_metrics {
	uint64_t cycles;
	double latency_s;
	double gops;		/* GFLOP/s for floats, GOP/s for integers */
	int64_t dsp;
	int64_t bram18k;
	int64_t uram;
	int64_t lut;
	int64_t ff;
	int64_t offchip_bytes;	/* DRAM traffic, both directions */
	double energy_j;	/* joules for one run of the kernel */
	double edp;		/* energy x latency, J*s */
	double mhz;		/* the clock the design runs at */
	int64_t n_pe;		/* PEs of the whole array */
	int32_t pe_rows;	/* PEs along the first space loop */
	int32_t pe_cols;	/* along the second (1 for a 1-D array) */
	int32_t ii;		/* initiation interval of the PE loop */
	int32_t status;		/* enum sim_status */
} sim_metrics;

/* Why a point is not a legal design.  SIM_OK for legal ones. */
enum sim_status {
	SIM_OK = 0,
	SIM_BAD_TILE,		/* array_part is not in 1..loop bound (it need
				 * not divide it: the last tile is padded, as
				 * AutoSA pads), or array_part_L2 is not a
				 * multiple of array_part within the bound */
	SIM_BAD_LATENCY,	/* latency does not divide array_part */
	SIM_BAD_SIMD,		/* simd does not divide what a PE runs of
				 * its loop */
	SIM_TOO_LARGE,		/* cycles or resources beyond 64 bits */
	SIM_BAD_KNOB,		/* io_network or double_buffer out of range,
				 * or GNN knobs that make no accelerator */
	SIM_FAILED,		/* the cycle simulation of the point failed
				 * (set by a search's second stage, which
				 * records the point and goes on) */
	SIM_NO_FIT,		/* a layer of an overlay's workload fits no
				 * tiling of the local memory and the
				 * accumulators */
	SIM_N_STATUS
};
const char *sim_status_name(int status);

/* Metric identifiers, for objectives and constraints. */
enum sim_metric {
	SIM_M_LATENCY = 0,	/* seconds */
	SIM_M_CYCLES,
	SIM_M_DSP,
	SIM_M_BRAM18K,
	SIM_M_URAM,
	SIM_M_GOPS,
	SIM_M_LUT,
	SIM_M_FF,
	SIM_M_OFFCHIP,		/* "offchip_bytes", bytes */
	SIM_M_ENERGY,		/* "energy", joules */
	SIM_M_EDP,		/* "edp", joule-seconds */
	SIM_N_METRICS
};

/* Name of a metric ("latency", "cycles", "dsp", ...) and its unit. */
const char *sim_metric_name(enum sim_metric m);
const char *sim_metric_unit(enum sim_metric m);
/* Finds a metric by name; -1 when unknown. */
int sim_metric_find(const char *name);
/* Whether smaller is better (1) or larger is better (0). */
int sim_metric_minimise(enum sim_metric m);
/* The metric's value as a double. */
double sim_metrics_get(const sim_metrics *m, enum sim_metric id);
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
 * lanes (not the I/O network); BRAM18K and URAM are 0.  About a tenth of
 * sim_eval's work on a legal point.  lower->status is SIM_OK, or
 * the status sim_eval gives when the knobs themselves are illegal (then
 * every bound is 0); a legal-looking point may still be SIM_TOO_LARGE in
 * sim_eval.  Every other field is 0.  Thread-safe.
 */
void sim_bound(const sim_model *model, const int32_t *knobs,
	sim_metrics *lower);

/* Writes the AutoSA --sa-sizes string of a design point into buf (the
 * io_network and double_buffer knobs are not part of it), e.g.
 * "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];
 *   kernel[]->latency[8,8];kernel[]->simd[2]}", with
 * "kernel[]->array_part_L2[...]" after array_part when the model has those
 * knobs, and without the latency or simd part when it has no such knob.
 * The string is cut (and still terminated) when buf is too small.
 */
void sim_sa_sizes(const sim_model *model, const int32_t *knobs, char *buf,
	int size);

#endif
