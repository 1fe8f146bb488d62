/* dse_scale_net: SCALE-Sim's config and topology in, its report files and
 * the network's totals out (see scale_net.h).
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
#include "sim/scale_io.h"

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

/* The run: the config, the topology and the result of every layer. */
struct net {
	sim_scale_config cfg;
	const char *topo_file;
	sim_scale_topology *topo;
	sim_scale_result *res;
	int n;
	sim_scale_result total;
};

static dse_stat read_inputs(const struct dse_scale_net_opts *o, struct net *nt,
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
	nt->topo_file = o->topology ? o->topology : nt->cfg.topology;
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
static dse_stat run_layers(struct net *nt, dse_error *err)
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
static dse_stat write_file(const char *path, const struct net *nt,
	int (*body)(FILE *, const struct net *, int), int kind,
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
static int report_body(FILE *f, const struct net *nt, int kind)
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
static int totals_body(FILE *f, const struct net *nt, int kind)
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
	const struct net *nt, char *dir, size_t size, dse_error *err)
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
/* What the command prints */

/* One row of the network table. */
static void table_row(FILE *out, const char *name, const sim_scale_result *r)
{
	fprintf(out, "  %-24.24s %12lld %9lld %7.2f %7.2f %12lld %12lld "
		"%12lld\n", name, (long long) r->cycles,
		(long long) r->stall_cycles, 100 * r->utilization,
		100 * r->mapping_efficiency, (long long) r->dram_reads[IF],
		(long long) r->dram_reads[FI], (long long) r->dram_writes[OF]);
}

static void print_table(FILE *out, const struct net *nt, const char *dir)
{
	const sim_scale_arch *a = &nt->cfg.arch;
	int i;

	fprintf(out, "dse scalesim: %s, %lldx%lld array, %s dataflow, %s "
		"mode, SRAM %lld/%lld/%lld KiB, %d layers of %s\n",
		nt->cfg.run_name, (long long) a->rows, (long long) a->cols,
		sim_scale_dataflow_name(a->dataflow),
		a->bw_mode == SIM_SCALE_USER ? "USER" : "CALC",
		(long long) a->sram_kb[IF], (long long) a->sram_kb[FI],
		(long long) a->sram_kb[OF], nt->n, nt->topo_file);
	fprintf(out, "  %-24s %12s %9s %7s %7s %12s %12s %12s\n", "layer",
		"cycles", "stalls", "util %", "map %", "IFMAP rd", "FILTER rd",
		"OFMAP wr");
	for (i = 0; i < nt->n; i++)
		table_row(out, sim_scale_topology_layer(nt->topo, i)->name,
			&nt->res[i]);
	table_row(out, "total", &nt->total);
	fprintf(out, "  (cycles are counts; DRAM words; the reports in %s/ "
		"follow SCALE-Sim: Total Cycles = cycles - 1)\n", dir);
}

/* A JSON string of a name (layer names are plain text from a CSV). */
static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char) *s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char) *s);
		else
			fputc(*s, out);
	fputc('"', out);
}

static void json_triple(FILE *out, const char *key, const int64_t *v)
{
	fprintf(out, "\"%s\": {\"ifmap\": %lld, \"filter\": %lld, \"ofmap\": "
		"%lld}", key, (long long) v[0], (long long) v[1],
		(long long) v[2]);
}

/* The figures of one layer (or of the totals) as JSON members. */
static void json_figures(FILE *out, const sim_scale_result *r)
{
	fprintf(out, "\"cycles\": %lld, \"stall_cycles\": %lld, "
		"\"compute_cycles\": %lld, \"macs\": %lld, \"utilization\": "
		"%.17g, \"mapping_efficiency\": %.17g, ",
		(long long) r->cycles, (long long) r->stall_cycles,
		(long long) r->compute_cycles, (long long) r->macs,
		r->utilization, r->mapping_efficiency);
	json_triple(out, "sram_reads", r->sram_reads);
	fputs(", ", out);
	json_triple(out, "sram_writes", r->sram_writes);
	fputs(", ", out);
	json_triple(out, "dram_reads", r->dram_reads);
	fputs(", ", out);
	json_triple(out, "dram_writes", r->dram_writes);
	fprintf(out, ", \"dram_bytes\": %lld", (long long) r->dram_bytes);
}

static void print_json(FILE *out, const struct net *nt, const char *dir)
{
	const sim_scale_arch *a = &nt->cfg.arch;
	int i;

	fputs("{\"run_name\": ", out);
	json_str(out, nt->cfg.run_name);
	fprintf(out, ", \"rows\": %lld, \"cols\": %lld, \"dataflow\": \"%s\", "
		"\"mode\": \"%s\", \"reports\": ", (long long) a->rows,
		(long long) a->cols, sim_scale_dataflow_name(a->dataflow),
		a->bw_mode == SIM_SCALE_USER ? "USER" : "CALC");
	json_str(out, dir);
	fputs(",\n \"layers\": [\n", out);
	for (i = 0; i < nt->n; i++) {
		fputs("  {\"name\": ", out);
		json_str(out, sim_scale_topology_layer(nt->topo, i)->name);
		fputs(", ", out);
		json_figures(out, &nt->res[i]);
		fputs(i + 1 < nt->n ? "},\n" : "}\n", out);
	}
	fputs(" ],\n \"total\": {", out);
	json_figures(out, &nt->total);
	fputs("}}\n", out);
}

dse_stat dse_scale_net_run(const struct dse_scale_net_opts *o, FILE *out,
	dse_error *err)
{
	struct net nt;
	char dir[DIR_LEN];
	dse_stat st;

	memset(&nt, 0, sizeof(nt));
	st = read_inputs(o, &nt, err);
	if (!st)
		st = run_layers(&nt, err);
	if (!st)
		st = write_reports(o, &nt, dir, sizeof(dir), err);
	if (!st && !o->quiet)
		(o->json ? print_json : print_table)(out, &nt, dir);
	sim_scale_topology_free(nt.topo);
	free(nt.res);
	return st;
}

/* ------------------------------------------------------------------ */
/* One layer */

static void print_triple(FILE *out, const char *what, const int64_t *v)
{
	fprintf(out, "  %-22s %14lld %14lld %14lld\n", what, (long long) v[0],
		(long long) v[1], (long long) v[2]);
}

static void layer_table(FILE *out, const sim_scale_arch *a,
	const sim_scale_result *r)
{
	fprintf(out, "dse scalesim: %lldx%lld array, %s dataflow, %s mode\n",
		(long long) a->rows, (long long) a->cols,
		sim_scale_dataflow_name(a->dataflow),
		a->bw_mode == SIM_SCALE_USER ? "USER" : "CALC");
	fprintf(out, "  output                 %lldx%lld\n",
		(long long) r->out_h, (long long) r->out_w);
	fprintf(out, "  operands (im2col)      IFMAP %lldx%lld, FILTER %lldx%lld, "
		"OFMAP %lldx%lld\n", (long long) r->e, (long long) r->win,
		(long long) r->win, (long long) r->k, (long long) r->e,
		(long long) r->k);
	fprintf(out, "  mapping                Sr %lld, Sc %lld, T %lld\n",
		(long long) r->sr, (long long) r->sc, (long long) r->t);
	fprintf(out, "  folds                  %lld (%lld row x %lld col)\n",
		(long long) r->folds, (long long) r->row_folds,
		(long long) r->col_folds);
	fprintf(out, "  cycles                 %lld (SCALE-Sim's Total Cycles "
		"%lld)\n", (long long) r->cycles,
		(long long) r->report.total_cycles);
	fprintf(out, "  compute cycles         %lld\n",
		(long long) r->compute_cycles);
	fprintf(out, "  fill/drain cycles      %lld\n",
		(long long) r->fill_drain_cycles);
	fprintf(out, "  stall cycles           %lld\n",
		(long long) r->stall_cycles);
	fprintf(out, "  MACs                   %lld\n", (long long) r->macs);
	fprintf(out, "  PE utilisation         %.4f %%\n", 100 * r->utilization);
	fprintf(out, "  mapping efficiency     %.4f %%\n",
		100 * r->mapping_efficiency);
	fprintf(out, "  %-22s %14s %14s %14s\n", "words", "ifmap", "filter",
		"ofmap");
	print_triple(out, "SRAM reads", r->sram_reads);
	print_triple(out, "SRAM writes", r->sram_writes);
	print_triple(out, "SRAM size (KiB)", a->sram_kb);
	print_triple(out, "DRAM reads", r->dram_reads);
	print_triple(out, "DRAM writes", r->dram_writes);
	fprintf(out, "  DRAM bytes             %lld (%lld-byte words)\n",
		(long long) r->dram_bytes, (long long) a->word_bytes);
}

void dse_scale_print_layer(FILE *out, const sim_scale_arch *a,
	const sim_scale_result *r, int json)
{
	if (!json) {
		layer_table(out, a, r);
		return;
	}
	fprintf(out, "{\"rows\": %lld, \"cols\": %lld, \"dataflow\": \"%s\", "
		"\"mode\": \"%s\", \"out_h\": %lld, \"out_w\": %lld, \"e\": "
		"%lld, \"win\": %lld, \"k\": %lld, \"sr\": %lld, \"sc\": %lld, "
		"\"t\": %lld, \"row_folds\": %lld, \"col_folds\": %lld, "
		"\"folds\": %lld, \"fill_drain_cycles\": %lld, "
		"\"scalesim_total_cycles\": %lld, ", (long long) a->rows,
		(long long) a->cols, sim_scale_dataflow_name(a->dataflow),
		a->bw_mode == SIM_SCALE_USER ? "USER" : "CALC",
		(long long) r->out_h, (long long) r->out_w, (long long) r->e,
		(long long) r->win, (long long) r->k, (long long) r->sr,
		(long long) r->sc, (long long) r->t,
		(long long) r->row_folds, (long long) r->col_folds,
		(long long) r->folds, (long long) r->fill_drain_cycles,
		(long long) r->report.total_cycles);
	json_triple(out, "sram_kb", a->sram_kb);
	fprintf(out, ", \"word_bytes\": %lld, ", (long long) a->word_bytes);
	json_figures(out, r);
	fputs("}\n", out);
}
