/* core: names, units and directions of the metrics, and the sentences of
 * the design-point statuses, all drawn from the tables in metrics.h.
 */
#include <string.h>

#include "core/metrics.h"

static const struct metric_info {
	const char *name;
	const char *unit;
	int minimise;
} metric_info[SIM_N_METRICS] = {
#define SIM_METRIC_INFO(id, name, unit, minimise, field) \
	[id] = { name, unit, minimise },
	SIM_METRIC_TABLE(SIM_METRIC_INFO)
#undef SIM_METRIC_INFO
};

static const char *const status_names[SIM_N_STATUS] = {
#define SIM_STATUS_NAME(id, name) [id] = name,
	SIM_STATUS_TABLE(SIM_STATUS_NAME)
#undef SIM_STATUS_NAME
};

static const char *const bound_names[SIM_N_BOUNDS] = {
#define SIM_BOUND_NAME(id, name) [id] = name,
	SIM_BOUND_TABLE(SIM_BOUND_NAME)
#undef SIM_BOUND_NAME
};

const char *sim_bound_name(int bound)
{
	return bound >= 0 && bound < SIM_N_BOUNDS ? bound_names[bound] : "";
}

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
#define SIM_METRIC_GET(id, name, unit, minimise, field) \
	case id: \
		return (double) m->field;
	SIM_METRIC_TABLE(SIM_METRIC_GET)
#undef SIM_METRIC_GET
	default:
		return 0.0;
	}
}
