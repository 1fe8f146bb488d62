/* sim_scale_io: SCALE-Sim's own files (v2): its config (scale.cfg), its
 * topology CSVs (convolutions and GEMMs) and its three report files.
 *
 * The readers take text held in memory and a file name for messages; an
 * error is DSE_E_INPUT at file:line:col saying what is wrong.  They keep
 * SCALE-Sim's reading of the files (the first line of a topology is its
 * header whatever it says, a trailing comma ends a row, a layer whose name
 * contains "DP" is depthwise and is run as one single-channel layer per
 * channel) and refuse what SCALE-Sim would misread or crash on (unknown
 * keys, a missing key, a field that is no number, a row of the wrong
 * length).
 *
 * The report writers print to a stream the caller opened, in SCALE-Sim's
 * layout (its scalesim/simulator.py): a header line, then per layer its id
 * and the figures separated by ", ", each line ending in ",".  Counts print
 * as integers and the rest as Python prints a float ("21442.0",
 * "75.42250570324504"), so that the files compare equal as text.
 *
 * A topology is built once and then only read; ownership is isl-style
 * (sim_scale_topology_free accepts NULL and returns NULL).
 */
#ifndef SIM_SCALE_IO_H
#define SIM_SCALE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "sim/scale.h"

#define SIM_SCALE_NAME_LEN 128
#define SIM_SCALE_PATH_LEN 1024

/* Everything scale.cfg says.  SCALE-Sim v2 reads but does not use the
 * memory offsets (they only shift the addresses of its traces) and
 * MemoryBanks; they are kept here so that they can be shown.
 */
typedef struct sim_scale_config {
	char run_name[SIM_SCALE_NAME_LEN];
	sim_scale_arch arch;		/* dataflow, sizes, mode, bandwidth */
	int64_t offsets[SIM_SCALE_N_OPERANDS];
	int64_t banks;			/* 1 when not given */
	int n_bandwidths;		/* values in "Bandwidth" (the first is
					 * used, as SCALE-Sim does) */
	char topology[SIM_SCALE_PATH_LEN];	/* [network_presets]
						 * TopologyCsvLoc; "" when
						 * absent */
	int topology_line;		/* where it was given */
} sim_scale_config;

/* Reads scale.cfg from "text" ("len" bytes; it need not end in NUL).
 * Sections and keys are SCALE-Sim's: [general] run_name;
 * [architecture_presets] ArrayHeight, ArrayWidth, IfmapSramSzkB,
 * FilterSramSzkB, OfmapSramSzkB, IfmapOffset, FilterOffset, OfmapOffset,
 * Dataflow, Bandwidth (needed in USER mode), MemoryBanks (optional);
 * [run_presets] InterfaceBandwidth (CALC or USER); [network_presets]
 * TopologyCsvLoc (optional).  Keys are case-insensitive and take "=" or
 * ":"; '#' and ';' start comments.
 */
dse_stat sim_scale_parse_config(const char *text, size_t len,
	const char *file, sim_scale_config *cfg, dse_error *err);

/* One row of a topology (or one channel of a depthwise row). */
typedef struct sim_scale_topo_layer {
	char name[SIM_SCALE_NAME_LEN];
	sim_scale_layer layer;
	int line;		/* the row's line in the file */
} sim_scale_topo_layer;

typedef struct sim_scale_topology sim_scale_topology;

/* Reads a topology from "text".  gemm == 0: SCALE-Sim's convolution form,
 * rows "name, IFMAP height, IFMAP width, filter height, filter width,
 * channels, filters, stride[, stride width]"; gemm != 0: rows "name, M, N,
 * K".  The first line is a header and is skipped; blank rows (also rows of
 * empty fields) and title rows (one name) are skipped.  Fields are
 * separated by commas, or by tabs where the header has tabs and no comma;
 * '#' starts a note to the end of the line; an empty field after the last
 * column a layer may have ends the row (a spreadsheet's own columns
 * follow it in SCALE-Sim's Resnet50.csv).
 */
sim_scale_topology *sim_scale_parse_topology(const char *text, size_t len,
	const char *file, int gemm, dse_error *err);
sim_scale_topology *sim_scale_topology_free(sim_scale_topology *t);
int sim_scale_topology_n_layers(const sim_scale_topology *t);
/* The i-th layer, 0 <= i < n_layers; NULL out of range. */
const sim_scale_topo_layer *sim_scale_topology_layer(
	const sim_scale_topology *t, int i);

/* SCALE-Sim's report files. */
enum sim_scale_report_kind {
	SIM_SCALE_COMPUTE_REPORT = 0,	/* COMPUTE_REPORT.csv */
	SIM_SCALE_BANDWIDTH_REPORT,	/* BANDWIDTH_REPORT.csv */
	SIM_SCALE_DETAIL_REPORT,	/* DETAILED_ACCESS_REPORT.csv */
	SIM_SCALE_N_REPORTS
};

/* The report's file name. */
const char *sim_scale_report_file(enum sim_scale_report_kind kind);

/* Writes the report's header line.  Returns -1 when the stream fails. */
int sim_scale_report_header(FILE *f, enum sim_scale_report_kind kind);

/* Writes the line of layer "id".  Returns -1 when the stream fails. */
int sim_scale_report_line(FILE *f, enum sim_scale_report_kind kind, int id,
	const sim_scale_report *r);

/* Formats "v" as Python's repr of a float does (the shortest text that
 * reads back to v; fixed notation from 1e-4 up to 1e16, with at least one
 * decimal).
 */
void sim_scale_pyfloat(char *buf, size_t size, double v);

#endif
