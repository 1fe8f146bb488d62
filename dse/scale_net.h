/* dse_scale_net: a whole SCALE-Sim run (config + topology) in one process
 * and its report files.  Used by "dse scalesim", which prints the results
 * (cli/scalesim_print.c); nothing here prints.
 *
 * A run is built by dse_scale_net_run and then only read; ownership is
 * isl-style (dse_scale_net_free accepts NULL and returns NULL).
 */
#ifndef DSE_SCALE_NET_H
#define DSE_SCALE_NET_H

#include "core/error.h"
#include "sim/scale.h"
#include "sim/scale_io.h"

struct dse_scale_net_opts {
	const char *config;	/* scale.cfg */
	const char *topology;	/* NULL: the config's TopologyCsvLoc */
	const char *dir;	/* NULL: "." */
	int gemm;		/* the topology is M,N,K rows */
};

typedef struct dse_scale_net dse_scale_net;

/* Reads the config and the topology, runs every layer and writes the
 * reports under <dir>/<run_name>/.  Returns NULL on error: nothing is
 * written when an input is bad (DSE_E_INPUT, at file:line:col); a report
 * that cannot be written is DSE_E_IO.
 */
/* __isl_give */ dse_scale_net *dse_scale_net_run(
	const struct dse_scale_net_opts *o, dse_error *err);
/* __isl_null */ dse_scale_net *dse_scale_net_free(
	/* __isl_take */ dse_scale_net *nt);

/* What was read: the config, the topology file's name, the folder the
 * reports went to (<dir>/<run_name>).
 */
const sim_scale_config *dse_scale_net_config(const dse_scale_net *nt);
const char *dse_scale_net_topology_file(const dse_scale_net *nt);
const char *dse_scale_net_dir(const dse_scale_net *nt);

/* The layers: their number, the i-th one's row of the topology and its
 * result (0 <= i < n), and the network's totals.
 */
int dse_scale_net_n_layers(const dse_scale_net *nt);
const sim_scale_topo_layer *dse_scale_net_layer(const dse_scale_net *nt,
	int i);
const sim_scale_result *dse_scale_net_result(const dse_scale_net *nt,
	int i);
const sim_scale_result *dse_scale_net_total(const dse_scale_net *nt);

#endif
