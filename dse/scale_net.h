/* dse_scale_net: a whole SCALE-Sim run (config + topology) in one process,
 * its report files and its printed summary.  Used by "dse scalesim".
 */
#ifndef DSE_SCALE_NET_H
#define DSE_SCALE_NET_H

#include <stdio.h>

#include "core/error.h"
#include "sim/scale.h"

struct dse_scale_net_opts {
	const char *config;	/* scale.cfg */
	const char *topology;	/* NULL: the config's TopologyCsvLoc */
	const char *dir;	/* NULL: "." */
	int gemm;		/* the topology is M,N,K rows */
	int json, quiet;
};

/* Reads the config and the topology, runs every layer, writes the reports
 * under <dir>/<run_name>/ and prints the summary to "out" (JSON with
 * o->json, nothing with o->quiet).  Nothing is written when an input is
 * bad (DSE_E_INPUT, at file:line:col); a report that cannot be written is
 * DSE_E_IO.
 */
dse_stat dse_scale_net_run(const struct dse_scale_net_opts *o, FILE *out,
	dse_error *err);

/* Prints one layer's figures, as a table or as one JSON object. */
void dse_scale_print_layer(FILE *out, const sim_scale_arch *arch,
	const sim_scale_result *r, int json);

#endif
