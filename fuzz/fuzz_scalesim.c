/* Fuzz target: SCALE-Sim's files (sim/scale_io.h).  The first byte picks
 * the reader: 'c' a config (scale.cfg), 'g' a GEMM topology, anything else
 * a convolution topology; the rest is the file.
 *
 * A refusal must be an input error at a line of the file (or out of
 * memory).  A config that reads must run a small layer, or refuse it as an
 * input error (its array or memories out of range).  A topology that reads
 * must hold layers whose filter fits the IFMAP; its small layers must run
 * on a 4x4 array with 1 KiB SRAMs in CALC and USER mode, SCALE-Sim's last
 * cycle index being the cycle count less one, and each report line must
 * print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz_util.h"
#include "sim/scale_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Layers above this many multiply-accumulates are read but not run, so
 * that one input never takes seconds.
 */
#define RUN_MACS 200000

static void refusal(const dse_error *err, const char *what)
{
	if (err->code == DSE_E_NOMEM)
		return;
	if (err->code != DSE_E_INPUT || !err->msg[0] || err->line < 1 ||
	    strcmp(err->file, "fuzz")) {
		fprintf(stderr, "fuzz_scalesim: %s refused without a line or "
			"not as an input error (code %d, %s:%d): %s\n", what,
			(int) err->code, err->file, err->line, err->msg);
		abort();
	}
}

static void run(const sim_scale_arch *a, const sim_scale_layer *l)
{
	FILE *null = fopen("/dev/null", "w");
	sim_scale_result r;
	dse_error err;
	int k;

	dse_error_clear(&err);
	if (sim_scale_run(a, l, &r, &err)) {
		if (err.code != DSE_E_INPUT && err.code != DSE_E_NOMEM)
			abort();
	} else if (r.report.total_cycles != r.cycles - 1 || r.cycles < 1 ||
		   r.stall_cycles < 0 || r.dram_reads[0] < 1 ||
		   r.dram_writes[2] != r.sram_writes[2])
		abort();
	for (k = 0; null && k < SIM_SCALE_N_REPORTS; k++)
		if (sim_scale_report_line(null, k, 0, &r.report))
			abort();
	if (null)
		fclose(null);
}

static void topology(const char *text, size_t len, int gemm)
{
	sim_scale_topology *t;
	sim_scale_arch a;
	dse_error err;
	int i, mode;

	dse_error_clear(&err);
	t = sim_scale_parse_topology(text, len, "fuzz", gemm, &err);
	if (!t) {
		refusal(&err, "the topology");
		return;
	}
	for (i = 0; i < sim_scale_topology_n_layers(t); i++) {
		const sim_scale_layer *l =
			&sim_scale_topology_layer(t, i)->layer;

		if (l->r > l->h || l->s > l->w || l->c < 1 || l->k < 1)
			abort();
		if (l->h * l->w * l->c > RUN_MACS ||
		    l->r * l->s * l->c * l->k > RUN_MACS ||
		    l->h * l->w * l->k > RUN_MACS)
			continue;
		for (mode = 0; mode < 2; mode++) {
			sim_scale_arch_default(&a, 4, 4, i % 3);
			a.sram_kb[0] = a.sram_kb[1] = a.sram_kb[2] = 1;
			a.bw_mode = mode;
			run(&a, l);
		}
	}
	sim_scale_topology_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sim_scale_config cfg;
	sim_scale_layer l;
	dse_error err;
	char *text;

	if (!size)
		return 0;
	text = fuzz_text(data + 1, size - 1);
	if (!text)
		return 0;
	if (data[0] == 'c') {
		dse_error_clear(&err);
		if (sim_scale_parse_config(text, size - 1, "fuzz", &cfg, &err))
			refusal(&err, "the config");
		else if (cfg.arch.rows * cfg.arch.cols <= 4096) {
			sim_scale_gemm(&l, 9, 7, 5);
			run(&cfg.arch, &l);
		}
	} else
		topology(text, size - 1, data[0] == 'g');
	free(text);
	return 0;
}
