/* sim: names, units and directions of the metrics, and the names of the
 * design-point statuses.  Kept apart from the model so that the tables the
 * config and the results writer read are in one short file.
 */
#include <string.h>

#include "sim.h"

static const struct metric_info {
	const char *name;
	const char *unit;
	int minimise;
} metric_info[SIM_N_METRICS] = {
	[SIM_M_LATENCY] = { "latency", "s", 1 },
	[SIM_M_CYCLES] = { "cycles", "cycles", 1 },
	[SIM_M_DSP] = { "dsp", "DSP", 1 },
	[SIM_M_BRAM18K] = { "bram18k", "BRAM18K", 1 },
	[SIM_M_URAM] = { "uram", "URAM", 1 },
	[SIM_M_GOPS] = { "gops", "GOP/s", 0 },
	[SIM_M_LUT] = { "lut", "LUT", 1 },
	[SIM_M_FF] = { "ff", "FF", 1 },
	[SIM_M_OFFCHIP] = { "offchip_bytes", "bytes", 1 },
	[SIM_M_ENERGY] = { "energy", "J", 1 },
	[SIM_M_EDP] = { "edp", "J*s", 1 },
};

static const char *const status_names[SIM_N_STATUS] = {
	[SIM_OK] = "ok",
	[SIM_BAD_TILE] = "array_part or array_part_L2 is not between 1 and "
		"the loop bound, or array_part_L2 is not a multiple of "
		"array_part",
	[SIM_BAD_LATENCY] = "latency does not divide array_part",
	[SIM_BAD_SIMD] = "simd does not divide what a PE runs of its loop",
	[SIM_TOO_LARGE] = "cycles or resources overflow 64 bits",
	[SIM_BAD_KNOB] = "a knob out of its range, or knob values that make "
		"no accelerator",
	[SIM_FAILED] = "the cycle simulation failed",
	[SIM_NO_FIT] = "a layer fits no tiling of the local memory and the "
		"accumulators",
};

static int metric_valid(enum sim_metric m)
{
	return (int) m >= 0 && (int) m < SIM_N_METRICS;
}

const char *sim_status_name(int status)
{
	if (status < 0 || status >= SIM_N_STATUS)
		return "unknown status";
	return status_names[status];
}

/* Out-of-range identifiers get "unknown" rather than NULL so that a caller
 * printing the name of a corrupted identifier cannot crash.
 */
const char *sim_metric_name(enum sim_metric m)
{
	return metric_valid(m) ? metric_info[m].name : "unknown";
}

const char *sim_metric_unit(enum sim_metric m)
{
	return metric_valid(m) ? metric_info[m].unit : "";
}

int sim_metric_find(const char *name)
{
	int i;

	if (!name)
		return -1;
	for (i = 0; i < SIM_N_METRICS; i++)
		if (strcmp(metric_info[i].name, name) == 0)
			return i;
	return -1;
}

int sim_metric_minimise(enum sim_metric m)
{
	return metric_valid(m) ? metric_info[m].minimise : 1;
}

double sim_metrics_get(const sim_metrics *m, enum sim_metric id)
{
	if (!m)
		return 0.0;
	switch (id) {
	case SIM_M_LATENCY:
		return m->latency_s;
	case SIM_M_CYCLES:
		return (double) m->cycles;
	case SIM_M_DSP:
		return (double) m->dsp;
	case SIM_M_BRAM18K:
		return (double) m->bram18k;
	case SIM_M_URAM:
		return (double) m->uram;
	case SIM_M_GOPS:
		return m->gops;
	case SIM_M_LUT:
		return (double) m->lut;
	case SIM_M_FF:
		return (double) m->ff;
	case SIM_M_OFFCHIP:
		return (double) m->offchip_bytes;
	case SIM_M_ENERGY:
		return m->energy_j;
	case SIM_M_EDP:
		return m->edp;
	default:
		return 0.0;
	}
}

double sim_metric_capacity(const arch_board *board, enum sim_metric m)
{
	if (!board)
		return 0.0;
	switch (m) {
	case SIM_M_DSP:
		return (double) board->dsp;
	case SIM_M_BRAM18K:
		return (double) board->bram18k;
	case SIM_M_URAM:
		return (double) board->uram;
	case SIM_M_LUT:
		return (double) board->lut;
	case SIM_M_FF:
		return (double) board->ff;
	default:
		return 0.0;
	}
}
