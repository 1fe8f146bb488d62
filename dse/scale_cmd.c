/* "dse scalesim": one GEMM or unpadded convolution layer on a plain rows x
 * cols systolic array with an output-, weight- or input-stationary
 * dataflow, in the setting of the SCALE-Sim simulator (sim/scale.h), so
 * that its numbers can be set side by side with that simulator's reports.
 * No config file, no MPI communication: the command only reads its
 * arguments and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "sim/scale.h"

int dse_scale_main(int argc, char **argv);

static const char scale_usage[] =
"Usage: dse scalesim --array RxC --dataflow os|ws|is\n"
"                    (--gemm M,N,K | --conv H,W,R,S,C,K,STRIDE)\n"
"                    [--sram-kb IFMAP,FILTER,OFMAP] [--word-bytes B] [--json]\n"
"\n"
"Runs one layer on a rows x cols systolic array the way SCALE-Sim (v2)\n"
"maps it: output stationary (os), weight stationary (ws) or input\n"
"stationary (is), the operands cut into folds of the array's size, each\n"
"fold paying its fill and drain. Prints the cycles (stall-free), the\n"
"compute and fill/drain cycles, the folds, the PE utilisation and\n"
"mapping efficiency, SRAM reads and writes per operand and the DRAM\n"
"traffic the SRAM sizes imply.\n"
"\n"
"Options:\n"
"  -a, --array RxC        rows x columns of PEs, e.g. 32x32\n"
"  -d, --dataflow DF      os, ws or is\n"
"  -g, --gemm M,N,K       C (MxN) = A (MxK) B (KxN)\n"
"  -c, --conv H,W,R,S,C,K,STRIDE\n"
"                         IFMAP HxW with C channels, K filters of RxS,\n"
"                         stride; no padding\n"
"  -s, --sram-kb I,F,O    IFMAP, FILTER and OFMAP SRAM sizes in KiB\n"
"                         (default 6144,6144,2048)\n"
"  -w, --word-bytes B     bytes per word (default 1, as SCALE-Sim)\n"
"  -j, --json             print one JSON object instead of a table\n"
"  -h, --help             show this help and exit\n"
"\n"
"Exit status: 0 success, 2 bad arguments.\n";

/* The parsed command line. */
struct scale_cli {
	sim_scale_arch arch;
	sim_scale_layer layer;
	int have_array, have_dataflow, have_layer, json, help;
};

/* Reads exactly "n" positive integers separated by "sep" into "out".
 * Returns 0, or -1 when the text is anything else.
 */
static int parse_list(const char *text, char sep, int n, int64_t *out)
{
	const char *p = text;
	char *end;
	int i;

	for (i = 0; i < n; i++) {
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (errno || v < 1)
			return -1;
		out[i] = v;
		p = end;
		if (i + 1 < n && *p++ != sep)
			return -1;
	}
	return *p ? -1 : 0;
}

/* Like parse_list, but 0 is allowed (an SRAM that holds nothing). */
static int parse_sram(const char *text, int64_t *out)
{
	const char *p = text;
	char *end;
	int i;

	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++) {
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		out[i] = strtoll(p, &end, 10);
		if (errno)
			return -1;
		p = end;
		if (i + 1 < SIM_SCALE_N_OPERANDS && *p++ != ',')
			return -1;
	}
	return *p ? -1 : 0;
}

/* The long name of the option whose short letter is "c". */
static const char *long_name(int c)
{
	switch (c) {
	case 'a': return "array";
	case 'd': return "dataflow";
	case 'g': return "gemm";
	case 'c': return "conv";
	case 's': return "sram-kb";
	default: return "word-bytes";
	}
}

/* Applies one option; returns 0, or 2 with a message in "msg". */
static int apply_option(int c, const char *arg, struct scale_cli *cli,
	char *msg, size_t size)
{
	int64_t v[7];

	switch (c) {
	case 'a':
		if (parse_list(arg, 'x', 2, v))
			goto bad;
		cli->arch.rows = v[0];
		cli->arch.cols = v[1];
		cli->have_array = 1;
		return 0;
	case 'd':
		if (sim_scale_dataflow_parse(arg, &cli->arch.dataflow))
			goto bad;
		cli->have_dataflow = 1;
		return 0;
	case 'g':
	case 'c':
		if (cli->have_layer) {
			snprintf(msg, size, "give one layer: --gemm or --conv, "
				"once");
			return 2;
		}
		if (parse_list(arg, ',', c == 'g' ? 3 : 7, v))
			goto bad;
		if (c == 'g')
			sim_scale_gemm(&cli->layer, v[0], v[1], v[2]);
		else
			cli->layer = (sim_scale_layer) { v[0], v[1], v[2],
				v[3], v[4], v[5], v[6] };
		cli->have_layer = 1;
		return 0;
	case 's':
		if (parse_sram(arg, cli->arch.sram_kb))
			goto bad;
		return 0;
	case 'w':
		if (parse_list(arg, ',', 1, v))
			goto bad;
		cli->arch.word_bytes = v[0];
		return 0;
	}
	return 2;
bad:
	snprintf(msg, size, "bad value '%s' for --%s (see dse scalesim "
		"--help)", arg, long_name(c));
	return 2;
}

/* Parses argv (argv[0] is "scalesim"); returns 0, or 2 with a message. */
static int parse(int argc, char **argv, struct scale_cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "array", required_argument, NULL, 'a' },
		{ "dataflow", required_argument, NULL, 'd' },
		{ "gemm", required_argument, NULL, 'g' },
		{ "conv", required_argument, NULL, 'c' },
		{ "sram-kb", required_argument, NULL, 's' },
		{ "word-bytes", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(cli, 0, sizeof(*cli));
	sim_scale_arch_default(&cli->arch, 1, 1, SIM_SCALE_OS);
	optind = 0;	/* a full reset: the command may run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":a:d:g:c:s:w:jh", opts, NULL))
		!= -1) {
		if (c == 'j' || c == 'h') {
			*(c == 'j' ? &cli->json : &cli->help) = 1;
			continue;
		}
		if (c == ':' || c == '?') {
			snprintf(msg, size, c == ':' ? "option '%s' needs a "
				"value" : "unknown option '%s'",
				argv[optind - 1]);
			return 2;
		}
		if (apply_option(c, optarg, cli, msg, size))
			return 2;
	}
	if (cli->help)
		return 0;
	if (optind < argc) {
		snprintf(msg, size, "unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (!cli->have_array || !cli->have_dataflow || !cli->have_layer) {
		snprintf(msg, size, "needs --array, --dataflow and one of "
			"--gemm or --conv");
		return 2;
	}
	return 0;
}

/* One line per operand of an int64 triple, in the table. */
static void print_triple(const char *what, const int64_t *v)
{
	printf("  %-22s %14lld %14lld %14lld\n", what, (long long) v[0],
		(long long) v[1], (long long) v[2]);
}

static void print_table(const struct scale_cli *cli,
	const sim_scale_result *r)
{
	const sim_scale_arch *a = &cli->arch;
	int64_t fits[SIM_SCALE_N_OPERANDS];
	int i;

	printf("dse scalesim: %lldx%lld array, %s dataflow\n",
		(long long) a->rows, (long long) a->cols,
		sim_scale_dataflow_name(a->dataflow));
	printf("  operands (im2col)      IFMAP %lldx%lld, FILTER %lldx%lld, "
		"OFMAP %lldx%lld\n", (long long) r->e, (long long) r->win,
		(long long) r->win, (long long) r->k, (long long) r->e,
		(long long) r->k);
	printf("  mapping                Sr %lld, Sc %lld, T %lld\n",
		(long long) r->sr, (long long) r->sc, (long long) r->t);
	printf("  folds                  %lld (%lld row x %lld col)\n",
		(long long) r->folds, (long long) r->row_folds,
		(long long) r->col_folds);
	printf("  cycles                 %lld (stall-free)\n",
		(long long) r->cycles);
	printf("  compute cycles         %lld\n",
		(long long) r->compute_cycles);
	printf("  fill/drain cycles      %lld\n",
		(long long) r->fill_drain_cycles);
	printf("  stall cycles           %lld\n", (long long) r->stall_cycles);
	printf("  MACs                   %lld\n", (long long) r->macs);
	printf("  PE utilisation         %.4f %%\n", 100.0 * r->utilization);
	printf("  mapping efficiency     %.4f %%\n",
		100.0 * r->mapping_efficiency);
	printf("  %-22s %14s %14s %14s\n", "words", "ifmap", "filter",
		"ofmap");
	print_triple("SRAM reads", r->sram_reads);
	print_triple("SRAM writes", r->sram_writes);
	print_triple("SRAM size (KiB)", a->sram_kb);
	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
		fits[i] = r->fits[i];
	print_triple("fits (read once)", fits);
	print_triple("DRAM reads", r->dram_reads);
	print_triple("DRAM writes", r->dram_writes);
	printf("  DRAM bytes             %lld (%lld-byte words)\n",
		(long long) r->dram_bytes, (long long) a->word_bytes);
}

/* A JSON object of the three per-operand counts. */
static void json_triple(const char *key, const int64_t *v, const char *tail)
{
	printf("  \"%s\": {\"ifmap\": %lld, \"filter\": %lld, \"ofmap\": "
		"%lld}%s\n", key, (long long) v[0], (long long) v[1],
		(long long) v[2], tail);
}

static void print_json(const struct scale_cli *cli,
	const sim_scale_result *r)
{
	const sim_scale_arch *a = &cli->arch;
	int64_t fits[SIM_SCALE_N_OPERANDS];
	int i;

	for (i = 0; i < SIM_SCALE_N_OPERANDS; i++)
		fits[i] = r->fits[i];
	printf("{\n  \"rows\": %lld, \"cols\": %lld, \"dataflow\": \"%s\",\n",
		(long long) a->rows, (long long) a->cols,
		sim_scale_dataflow_name(a->dataflow));
	printf("  \"e\": %lld, \"win\": %lld, \"k\": %lld,\n",
		(long long) r->e, (long long) r->win, (long long) r->k);
	printf("  \"sr\": %lld, \"sc\": %lld, \"t\": %lld,\n",
		(long long) r->sr, (long long) r->sc, (long long) r->t);
	printf("  \"row_folds\": %lld, \"col_folds\": %lld, \"folds\": %lld,\n",
		(long long) r->row_folds, (long long) r->col_folds,
		(long long) r->folds);
	printf("  \"cycles\": %lld, \"compute_cycles\": %lld, "
		"\"fill_drain_cycles\": %lld, \"stall_cycles\": %lld,\n",
		(long long) r->cycles, (long long) r->compute_cycles,
		(long long) r->fill_drain_cycles,
		(long long) r->stall_cycles);
	printf("  \"macs\": %lld, \"utilization\": %.17g, "
		"\"mapping_efficiency\": %.17g,\n", (long long) r->macs,
		r->utilization, r->mapping_efficiency);
	json_triple("sram_kb", a->sram_kb, ",");
	json_triple("sram_reads", r->sram_reads, ",");
	json_triple("sram_writes", r->sram_writes, ",");
	json_triple("fits", fits, ",");
	json_triple("dram_reads", r->dram_reads, ",");
	json_triple("dram_writes", r->dram_writes, ",");
	printf("  \"word_bytes\": %lld, \"dram_bytes\": %lld\n}\n",
		(long long) a->word_bytes, (long long) r->dram_bytes);
}

int dse_scale_main(int argc, char **argv)
{
	struct scale_cli cli;
	sim_scale_result res;
	dse_error err;
	char msg[DSE_ERROR_MSG_LEN + 64];

	if (parse(argc, argv, &cli, msg, sizeof(msg))) {
		fprintf(stderr, "dse scalesim: %s\n", msg);
		return 2;
	}
	if (cli.help) {
		fputs(scale_usage, stdout);
		return 0;
	}
	dse_error_clear(&err);
	if (sim_scale_run(&cli.arch, &cli.layer, &res, &err)) {
		dse_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "dse scalesim: %s\n", msg);
		return dse_error_exit_status(&err);
	}
	if (cli.json)
		print_json(&cli, &res);
	else
		print_table(&cli, &res);
	return 0;
}
