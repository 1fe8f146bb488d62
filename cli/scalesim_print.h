/* cli_scale_print: what "dse scalesim" prints, a table or one JSON object
 * (through cli/json.c), for a whole network (dse/scale_net.h) or one
 * layer (sim/scale.h).
 */
#ifndef CLI_SCALESIM_PRINT_H
#define CLI_SCALESIM_PRINT_H

#include <stdio.h>

#include "dse/scale_net.h"
#include "sim/scale.h"

/* The network's table (a row per layer and the totals), or with "json"
 * one object: the run, "layers" one a line, "total".
 */
void cli_scale_print_net(FILE *out, const dse_scale_net *nt, int json);

/* One layer's figures, as a table or as one JSON object on one line. */
void cli_scale_print_layer(FILE *out, const sim_scale_arch *a,
	const sim_scale_result *r, int json);

#endif
