/* core: the metrics every family gives a design point, the statuses that
 * say why a point is not a legal design, and the tables of their names.
 *
 * These are the vocabulary the search, the results file and the command
 * line share with every accelerator family (systolic, GNN overlay, GNN
 * dataflow, Tensil), so they stand on the ground floor.  Each enum and its
 * names come from one X-macro table, so an identifier can never be added
 * without its name (or the other way round).
 */
#ifndef CORE_METRICS_H
#define CORE_METRICS_H

#include <stdint.h>

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
	int32_t bound_by;	/* enum sim_bound: what bounds the cycles */
	int32_t bound_group;	/* the I/O group (of the family's template)
				 * of an "io" or "drain" bound, else -1 */
	double bound_share;	/* share of the cycles it is busy, 0..1 */
} sim_metrics;

/* What bounds a design's cycles, X(id, name): the resource busiest over
 * the run.  compute: the PEs (its share is their utilisation); dram: the
 * board's bandwidth, loads and drains together; io: the I/O network of
 * one array (its DRAM port's beats, the chain or crossbar of its PE
 * lines, or the feed of a line's first PE); drain: the drain of one
 * array's results.  SIM_BOUND_NONE: not evaluated, or a family that does
 * not say.  The numbers are written to results files: new ones go at the
 * end.
 */
#define SIM_BOUND_TABLE(X) \
	X(SIM_BOUND_NONE, "") \
	X(SIM_BOUND_COMPUTE, "compute") \
	X(SIM_BOUND_DRAM, "dram") \
	X(SIM_BOUND_IO, "io") \
	X(SIM_BOUND_DRAIN, "drain")

enum sim_bound {
#define SIM_BOUND_ID(id, name) id,
	SIM_BOUND_TABLE(SIM_BOUND_ID)
#undef SIM_BOUND_ID
	SIM_N_BOUNDS
};
/* "compute", "dram", "io", "drain"; "" for none or out of range. */
const char *sim_bound_name(int bound);

/* Why a point is not a legal design, X(id, name): SIM_OK for legal ones.
 * SIM_BAD_TILE: array_part is not in 1..loop bound (it need not divide it:
 * the last tile is padded, as AutoSA pads), or array_part_L2 is not a
 * multiple of array_part within the bound.  SIM_TOO_LARGE: cycles or
 * resources beyond 64 bits.  SIM_BAD_KNOB: io_network or double_buffer out
 * of range, or workload knobs that make no accelerator.  SIM_FAILED: the
 * cycle simulation of the point failed (set by a search's second stage,
 * which records the point and goes on).  SIM_NO_FIT: a layer of an
 * overlay's workload fits no tiling of the local memory and the
 * accumulators.  The numbers are written to results files and printed as
 * "status_code": new statuses go at the end.
 */
#define SIM_STATUS_TABLE(X) \
	X(SIM_OK, "ok") \
	X(SIM_BAD_TILE, "array_part or array_part_L2 is not between 1 and " \
		"the loop bound, or array_part_L2 is not a multiple of " \
		"array_part") \
	X(SIM_BAD_LATENCY, "latency does not divide array_part") \
	X(SIM_BAD_SIMD, "simd does not divide what a PE runs of its loop") \
	X(SIM_TOO_LARGE, "cycles or resources overflow 64 bits") \
	X(SIM_BAD_KNOB, "a knob out of its range, or knob values that make " \
		"no accelerator") \
	X(SIM_FAILED, "the cycle simulation failed") \
	X(SIM_NO_FIT, "a layer fits no tiling of the local memory and the " \
		"accumulators")

enum sim_status {
#define SIM_STATUS_ID(id, name) id,
	SIM_STATUS_TABLE(SIM_STATUS_ID)
#undef SIM_STATUS_ID
	SIM_N_STATUS
};
/* The status's sentence; "unknown status" for a number out of range. */
const char *sim_status_name(int status);

/* Metric identifiers, for objectives and constraints, X(id, name, unit,
 * minimise, field): the name objectives, constraints and front columns
 * use, its unit, whether smaller is better (1) or larger (0), and the
 * sim_metrics field that holds it.  Their order is that of the front's
 * metric columns.
 */
#define SIM_METRIC_TABLE(X) \
	X(SIM_M_LATENCY, "latency", "s", 1, latency_s) \
	X(SIM_M_CYCLES, "cycles", "cycles", 1, cycles) \
	X(SIM_M_DSP, "dsp", "DSP", 1, dsp) \
	X(SIM_M_BRAM18K, "bram18k", "BRAM18K", 1, bram18k) \
	X(SIM_M_URAM, "uram", "URAM", 1, uram) \
	X(SIM_M_GOPS, "gops", "GOP/s", 0, gops) \
	X(SIM_M_LUT, "lut", "LUT", 1, lut) \
	X(SIM_M_FF, "ff", "FF", 1, ff) \
	X(SIM_M_OFFCHIP, "offchip_bytes", "bytes", 1, offchip_bytes) \
	X(SIM_M_ENERGY, "energy", "J", 1, energy_j) \
	X(SIM_M_EDP, "edp", "J*s", 1, edp)

enum sim_metric {
#define SIM_METRIC_ID(id, name, unit, minimise, field) id,
	SIM_METRIC_TABLE(SIM_METRIC_ID)
#undef SIM_METRIC_ID
	SIM_N_METRICS
};

/* Name of a metric ("latency", "cycles", "dsp", ...) and its unit;
 * "unknown" and "" for an identifier out of range.
 */
const char *sim_metric_name(enum sim_metric m);
const char *sim_metric_unit(enum sim_metric m);
/* Finds a metric by name; -1 when unknown. */
int sim_metric_find(const char *name);
/* Whether smaller is better (1) or larger is better (0). */
int sim_metric_minimise(enum sim_metric m);
/* The metric's value as a double; 0 for NULL or an unknown identifier. */
double sim_metrics_get(const sim_metrics *m, enum sim_metric id);

#endif
