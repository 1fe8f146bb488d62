/* dse_scale_net: SCALE-Sim's config and topology in, its report files and
 * the network's results out (see scale_net.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dse/scale_net.h"

/* A config is a few hundred bytes and a topology a few KB; reading stops
 * past these (and so ends on /dev/zero).
 */
#define MAX_CFG_BYTES (1u << 20)
#define MAX_TOPO_BYTES (64u << 20)

/* Room for the reports' folder and a file in it. */
#define DIR_LEN (SIM_SCALE_PATH_LEN + SIM_SCALE_NAME_LEN + 2)
#define FILE_LEN (DIR_LEN + 64)

enum { IF = SIM_SCALE_IFMAP, FI = SIM_SCALE_FILTER, OF = SIM_SCALE_OFMAP };

/* Reads the regular file "path" whole (at most "limit" bytes) into a new
 * NUL-ended buffer.
 */
static char *read_text(const char *path, size_t limit, size_t *len,
	dse_error *err)
{
	struct stat st;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	ssize_t n = 0;

	if (fd < 0) {
		dse_error_set_at(err, path, 0, 0, NULL, "cannot read it: %s",
			strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (size_t) st.st_size > limit) {
		dse_error_set_at(err, path, 0, 0, NULL, "not a regular file "
			"of at most %zu bytes", limit);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t) st.st_size + 1);
	*len = 0;
	while (buf && *len < (size_t) st.st_size &&
	       (n = read(fd, buf + *len, (size_t) st.st_size - *len)) > 0)
		*len += (size_t) n;
	close(fd);
	if (!buf || n < 0) {
		free(buf);
		dse_error_set_at(err, path, 0, 0, NULL, "cannot read it: %s",
			buf ? strerror(errno) : "out of memory");
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}

/* The run: the config, the topology, the result of every layer and the
 * folder of the reports.
 */
struct dse_scale_net {
	sim_scale_config cfg;
	char topo_file[SIM_SCALE_PATH_LEN];
	sim_scale_topology *topo;
	sim_scale_result *res;
	int n;
	sim_scale_result total;
	char dir[DIR_LEN];
};

static dse_stat read_inputs(const struct dse_scale_net_opts *o, struct dse_scale_net *nt,
	dse_error *err)
{
	size_t len;
	char *text = read_text(o->config, MAX_CFG_BYTES, &len, err);
	dse_stat st;

	if (!text)
		return dse_stat_error;
	st = sim_scale_parse_config(text, len, o->config, &nt->cfg, err);
	free(text);
	if (st)
		return st;
	if (snprintf(nt->topo_file, sizeof(nt->topo_file), "%s", o->topology ?
	    o->topology : nt->cfg.topology) >= (int) sizeof(nt->topo_file))
		return dse_error_set(err, DSE_E_INPUT, "the topology's path "
			"is longer than %d characters", SIM_SCALE_PATH_LEN - 1);
	if (!nt->topo_file[0])
		return dse_error_set_at(err, o->config, 1, 1, NULL, "no "
			"topology: give -t topology.csv or TopologyCsvLoc in "
			"[network_presets]");
	text = read_text(nt->topo_file, MAX_TOPO_BYTES, &len, err);
	if (!text)
		return dse_stat_error;
	nt->topo = sim_scale_parse_topology(text, len, nt->topo_file, o->gemm,
		err);
	free(text);
	return nt->topo ? dse_stat_ok : dse_stat_error;
}

/* Adds layer "r" into the network's totals. */
static void add_total(sim_scale_result *t, const sim_scale_result *r)
{
	int i;

	t->macs += r->macs;
	t->cycles += r->cycles;
	t->compute_cycles += r->compute_cycles;
	t->fill_drain_cycles += r->fill_drain_cycles;
	t->stall_cycles += r->stall_cycles;
	t->folds += r->folds;
	t->dram_bytes += r->dram_bytes;
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++) {
		t->sram_reads[i] += r->sram_reads[i];
		t->sram_writes[i] += r->sram_writes[i];
		t->dram_reads[i] += r->dram_reads[i];
		t->dram_writes[i] += r->dram_writes[i];
	}
}

/* Runs every layer, on every OpenMP thread (the layers share nothing); an
 * error names the first failing layer's row.
 */
static dse_stat run_layers(struct dse_scale_net *nt, dse_error *err)
{
	const sim_scale_arch *a = &nt->cfg.arch;
	double pes = (double) a->rows * (double) a->cols;
	dse_error *errs;
	int i, bad = -1;

	nt->n = sim_scale_topology_n_layers(nt->topo);
	nt->res = calloc((size_t) nt->n, sizeof(*nt->res));
	errs = calloc((size_t) nt->n, sizeof(*errs));
	if (!nt->res || !errs) {
		free(errs);
		return dse_error_set(err, DSE_E_NOMEM, "out of memory for %d "
			"layers", nt->n);
	}
#pragma omp parallel for schedule(dynamic, 1)
	for (i = 0; i < nt->n; i++)
		sim_scale_run(a, &sim_scale_topology_layer(nt->topo, i)->layer,
			&nt->res[i], &errs[i]);
	for (i = 0; i < nt->n && bad < 0; i++)
		if (errs[i].code != DSE_E_NONE)
			bad = i;
	for (i = 0; i < nt->n && bad < 0; i++)
		add_total(&nt->total, &nt->res[i]);
	if (bad >= 0) {
		const sim_scale_topo_layer *l =
			sim_scale_topology_layer(nt->topo, bad);

		if (errs[bad].code != DSE_E_INPUT)
			*err = errs[bad];
		else
			dse_error_set_at(err, nt->topo_file, l->line, 1, NULL,
				"layer %s: %s", l->name, errs[bad].msg);
		free(errs);
		return dse_stat_error;
	}
	free(errs);
	nt->total.utilization = (double) nt->total.macs /
		(pes * (double) nt->total.cycles);
	nt->total.mapping_efficiency = (double) nt->total.macs /
		(pes * (double) nt->total.compute_cycles);
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* The report files */

/* Writes "path" through a temporary file renamed over it when complete,
 * so that a reader never sees half a report.
 */
static dse_stat write_file(const char *path, const struct dse_scale_net *nt,
	int (*body)(FILE *, const struct dse_scale_net *, int), int kind,
	dse_error *err)
{
	char tmp[FILE_LEN + 32];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long) getpid());
	f = fopen(tmp, "w");
	if (!f)
		return dse_error_set(err, DSE_E_IO, "cannot create '%s': %s",
			tmp, strerror(errno));
	bad = body(f, nt, kind) || fflush(f) || fsync(fileno(f));
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		return dse_error_set(err, DSE_E_IO, "cannot write '%s': %s",
			path, strerror(e));
	}
	return dse_stat_ok;
}

/* The lines of one of SCALE-Sim's reports. */
static int report_body(FILE *f, const struct dse_scale_net *nt, int kind)
{
	int i;

	if (sim_scale_report_header(f, kind))
		return -1;
	for (i = 0; i < nt->n; i++)
		if (sim_scale_report_line(f, kind, i, &nt->res[i].report))
			return -1;
	return 0;
}

/* NETWORK_REPORT.csv: the network's totals, cycles as counts. */
static int totals_body(FILE *f, const struct dse_scale_net *nt, int kind)
{
	const sim_scale_result *t = &nt->total;

	(void) kind;
	return fprintf(f, "Layers, Cycles, Stall Cycles, MACs, Overall Util %%, "
		"Mapping Efficiency %%, SRAM IFMAP Reads, SRAM Filter Reads, "
		"SRAM OFMAP Writes, DRAM IFMAP Reads, DRAM Filter Reads, "
		"DRAM OFMAP Writes,\n%d, %lld, %lld, %lld, %.6f, %.6f, %lld, "
		"%lld, %lld, %lld, %lld, %lld,\n", nt->n,
		(long long) t->cycles, (long long) t->stall_cycles,
		(long long) t->macs, 100 * t->utilization,
		100 * t->mapping_efficiency, (long long) t->sram_reads[IF],
		(long long) t->sram_reads[FI], (long long) t->sram_writes[OF],
		(long long) t->dram_reads[IF], (long long) t->dram_reads[FI],
		(long long) t->dram_writes[OF]) < 0 ? -1 : 0;
}

/* Makes "path" a folder unless it is one already. */
static dse_stat make_dir(const char *path, dse_error *err)
{
	struct stat st;

	if (!mkdir(path, 0777))
		return dse_stat_ok;
	if (errno == EEXIST && !stat(path, &st))
		return S_ISDIR(st.st_mode) ? dse_stat_ok :
			dse_error_set(err, DSE_E_INPUT, "cannot make the "
			"folder '%s': something else has that name", path);
	return dse_error_set(err, DSE_E_IO, "cannot make the folder '%s': %s",
		path, strerror(errno));
}

static dse_stat write_reports(const struct dse_scale_net_opts *o,
	const struct dse_scale_net *nt, char *dir, size_t size, dse_error *err)
{
	char path[FILE_LEN];
	int k;

	if (o->dir && strlen(o->dir) >= SIM_SCALE_PATH_LEN)
		return dse_error_set(err, DSE_E_INPUT, "the folder given to "
			"-p is longer than %d characters",
			SIM_SCALE_PATH_LEN - 1);
	snprintf(dir, size, "%s/%s", o->dir ? o->dir : ".", nt->cfg.run_name);
	if (make_dir(o->dir ? o->dir : ".", err) || make_dir(dir, err))
		return dse_stat_error;
	for (k = 0; k < SIM_SCALE_N_REPORTS; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir,
			sim_scale_report_file(k));
		if (write_file(path, nt, report_body, k, err))
			return dse_stat_error;
	}
	snprintf(path, sizeof(path), "%s/NETWORK_REPORT.csv", dir);
	return write_file(path, nt, totals_body, 0, err);
}

/* ------------------------------------------------------------------ */
/* The run */

dse_scale_net *dse_scale_net_run(const struct dse_scale_net_opts *o,
	dse_error *err)
{
	struct dse_scale_net *nt = calloc(1, sizeof(*nt));
	dse_stat st;

	if (!nt) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	st = read_inputs(o, nt, err);
	if (!st)
		st = run_layers(nt, err);
	if (!st)
		st = write_reports(o, nt, nt->dir, sizeof(nt->dir), err);
	return st ? dse_scale_net_free(nt) : nt;
}

dse_scale_net *dse_scale_net_free(dse_scale_net *nt)
{
	if (nt) {
		sim_scale_topology_free(nt->topo);
		free(nt->res);
		free(nt);
	}
	return NULL;
}

const sim_scale_config *dse_scale_net_config(const dse_scale_net *nt)
{
	return &nt->cfg;
}

const char *dse_scale_net_topology_file(const dse_scale_net *nt)
{
	return nt->topo_file;
}

const char *dse_scale_net_dir(const dse_scale_net *nt)
{
	return nt->dir;
}

int dse_scale_net_n_layers(const dse_scale_net *nt)
{
	return nt->n;
}

const sim_scale_topo_layer *dse_scale_net_layer(const dse_scale_net *nt,
	int i)
{
	return sim_scale_topology_layer(nt->topo, i);
}

const sim_scale_result *dse_scale_net_result(const dse_scale_net *nt,
	int i)
{
	return i >= 0 && i < nt->n ? &nt->res[i] : NULL;
}

const sim_scale_result *dse_scale_net_total(const dse_scale_net *nt)
{
	return &nt->total;
}
