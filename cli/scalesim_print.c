/* What "dse scalesim" prints (see scalesim_print.h). */
#include <stdint.h>
#include <stdio.h>

#include "cli/json.h"
#include "cli/scalesim_print.h"

enum { IF = SIM_SCALE_IFMAP, FI = SIM_SCALE_FILTER, OF = SIM_SCALE_OFMAP };

static const char *mode_name(const sim_scale_arch *a)
{
	return a->bw_mode == SIM_SCALE_USER ? "USER" : "CALC";
}

/* ------------------------------------------------------------------ */
/* A network */

/* One row of the network table. */
static void table_row(FILE *out, const char *name, const sim_scale_result *r)
{
	fprintf(out, "  %-24.24s %12lld %9lld %7.2f %7.2f %12lld %12lld "
		"%12lld\n", name, (long long) r->cycles,
		(long long) r->stall_cycles, 100 * r->utilization,
		100 * r->mapping_efficiency, (long long) r->dram_reads[IF],
		(long long) r->dram_reads[FI], (long long) r->dram_writes[OF]);
}

static void net_table(FILE *out, const dse_scale_net *nt)
{
	const sim_scale_config *cfg = dse_scale_net_config(nt);
	const sim_scale_arch *a = &cfg->arch;
	int i, n = dse_scale_net_n_layers(nt);

	fprintf(out, "dse scalesim: %s, %lldx%lld array, %s dataflow, %s "
		"mode, SRAM %lld/%lld/%lld KiB, %d layers of %s\n",
		cfg->run_name, (long long) a->rows, (long long) a->cols,
		sim_scale_dataflow_name(a->dataflow), mode_name(a),
		(long long) a->sram_kb[IF], (long long) a->sram_kb[FI],
		(long long) a->sram_kb[OF], n,
		dse_scale_net_topology_file(nt));
	fprintf(out, "  %-24s %12s %9s %7s %7s %12s %12s %12s\n", "layer",
		"cycles", "stalls", "util %", "map %", "IFMAP rd", "FILTER rd",
		"OFMAP wr");
	for (i = 0; i < n; i++)
		table_row(out, dse_scale_net_layer(nt, i)->name,
			dse_scale_net_result(nt, i));
	table_row(out, "total", dse_scale_net_total(nt));
	fprintf(out, "  (cycles are counts; DRAM words; the reports in %s/ "
		"follow SCALE-Sim: Total Cycles = cycles - 1)\n",
		dse_scale_net_dir(nt));
}

/* The three operands' counts as a flat object. */
static void json_triple(struct cli_json *j, const char *key,
	const int64_t *v)
{
	cli_json_open(j, key, '{', 1);
	cli_json_int(j, "ifmap", v[IF]);
	cli_json_int(j, "filter", v[FI]);
	cli_json_int(j, "ofmap", v[OF]);
	cli_json_close(j, '}');
}

/* The figures of one layer (or of the totals) as members. */
static void json_figures(struct cli_json *j, const sim_scale_result *r)
{
	cli_json_int(j, "cycles", r->cycles);
	cli_json_int(j, "stall_cycles", r->stall_cycles);
	cli_json_int(j, "compute_cycles", r->compute_cycles);
	cli_json_int(j, "macs", r->macs);
	cli_json_f64(j, "utilization", r->utilization);
	cli_json_f64(j, "mapping_efficiency", r->mapping_efficiency);
	json_triple(j, "sram_reads", r->sram_reads);
	json_triple(j, "sram_writes", r->sram_writes);
	json_triple(j, "dram_reads", r->dram_reads);
	json_triple(j, "dram_writes", r->dram_writes);
	cli_json_int(j, "dram_bytes", r->dram_bytes);
}

/* One object, a line for the run, one for each layer, one for the
 * totals, so that a script can read it whole and a person by the line.
 */
static void net_json(FILE *out, const dse_scale_net *nt)
{
	const sim_scale_config *cfg = dse_scale_net_config(nt);
	const sim_scale_arch *a = &cfg->arch;
	int i, n = dse_scale_net_n_layers(nt);
	struct cli_json j;

	cli_json_begin(&j, out, 0);
	cli_json_open(&j, NULL, '{', 1);
	cli_json_str(&j, "run_name", cfg->run_name);
	cli_json_int(&j, "rows", a->rows);
	cli_json_int(&j, "cols", a->cols);
	cli_json_str(&j, "dataflow", sim_scale_dataflow_name(a->dataflow));
	cli_json_str(&j, "mode", mode_name(a));
	cli_json_str(&j, "reports", dse_scale_net_dir(nt));
	cli_json_break(&j, 1);
	cli_json_open(&j, "layers", '[', 1);
	for (i = 0; i < n; i++) {
		cli_json_break(&j, 2);
		cli_json_open(&j, NULL, '{', 1);
		cli_json_str(&j, "name", dse_scale_net_layer(nt, i)->name);
		json_figures(&j, dse_scale_net_result(nt, i));
		cli_json_close(&j, '}');
	}
	cli_json_break(&j, 1);
	cli_json_close(&j, ']');
	cli_json_break(&j, 1);
	cli_json_open(&j, "total", '{', 1);
	json_figures(&j, dse_scale_net_total(nt));
	cli_json_close(&j, '}');
	cli_json_close(&j, '}');
	fputc('\n', out);
}

void cli_scale_print_net(FILE *out, const dse_scale_net *nt, int json)
{
	(json ? net_json : net_table)(out, nt);
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
		sim_scale_dataflow_name(a->dataflow), mode_name(a));
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

static void layer_json(FILE *out, const sim_scale_arch *a,
	const sim_scale_result *r)
{
	struct cli_json j;

	cli_json_begin(&j, out, 0);
	cli_json_open(&j, NULL, '{', 1);
	cli_json_int(&j, "rows", a->rows);
	cli_json_int(&j, "cols", a->cols);
	cli_json_str(&j, "dataflow", sim_scale_dataflow_name(a->dataflow));
	cli_json_str(&j, "mode", mode_name(a));
	cli_json_int(&j, "out_h", r->out_h);
	cli_json_int(&j, "out_w", r->out_w);
	cli_json_int(&j, "e", r->e);
	cli_json_int(&j, "win", r->win);
	cli_json_int(&j, "k", r->k);
	cli_json_int(&j, "sr", r->sr);
	cli_json_int(&j, "sc", r->sc);
	cli_json_int(&j, "t", r->t);
	cli_json_int(&j, "row_folds", r->row_folds);
	cli_json_int(&j, "col_folds", r->col_folds);
	cli_json_int(&j, "folds", r->folds);
	cli_json_int(&j, "fill_drain_cycles", r->fill_drain_cycles);
	cli_json_int(&j, "scalesim_total_cycles", r->report.total_cycles);
	json_triple(&j, "sram_kb", a->sram_kb);
	cli_json_int(&j, "word_bytes", a->word_bytes);
	json_figures(&j, r);
	cli_json_close(&j, '}');
	fputc('\n', out);
}

void cli_scale_print_layer(FILE *out, const sim_scale_arch *a,
	const sim_scale_result *r, int json)
{
	(json ? layer_json : layer_table)(out, a, r);
}
