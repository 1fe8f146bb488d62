/* "dse scalesim": SCALE-Sim (v2) as a drop-in.  With SCALE-Sim's own files
 * (-c scale.cfg -t topology.csv) it runs the whole network and writes
 * SCALE-Sim's three report files plus the network's totals (scale_net.c);
 * with flags it runs one layer and prints it.  No MPI: the command only
 * reads its inputs, computes and writes.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/scalesim_print.h"
#include "core/error.h"
#include "dse/scale_net.h"
#include "sim/scale.h"

int dse_scale_main(int argc, char **argv);

const char dse_scale_usage[] =
"Usage: dse scalesim [-c] scale.cfg [-t topology.csv] [-p DIR]\n"
"                    [-i conv|gemm] [--json] [--quiet]\n"
"       dse scalesim --array RxC --dataflow os|ws|is\n"
"                    (--gemm M,N,K | --conv H,W,R,S,C,K,STRIDE[,STRIDE_W])\n"
"                    [--sram-kb IFMAP,FILTER,OFMAP] [--word-bytes B]\n"
"                    [--bandwidth WORDS] [--json]\n"
"\n"
"Runs layers on a rows x cols systolic array the way SCALE-Sim (v2) does:\n"
"output (os), weight (ws) or input (is) stationary, the operands cut into\n"
"folds of the array's size, double-buffered SRAMs in front of DRAM.\n"
"\n"
"With SCALE-Sim's files it reads the config (-c) and the topology (-t, or\n"
"TopologyCsvLoc in the config), runs every layer in this one process and\n"
"writes COMPUTE_REPORT.csv, BANDWIDTH_REPORT.csv and\n"
"DETAILED_ACCESS_REPORT.csv in SCALE-Sim's format and conventions (Total\n"
"Cycles is the index of the last cycle) to DIR/<run_name>/, with\n"
"NETWORK_REPORT.csv, the network's totals. The table it prints gives\n"
"cycles as counts (SCALE-Sim's Total Cycles + 1).\n"
"\n"
"Options:\n"
"  -c, --config FILE      SCALE-Sim config (scale.cfg)\n"
"  -t, --topology FILE    topology CSV (conv: 8 or 9 columns; gemm: M,N,K)\n"
"  -p, --path DIR         where the reports go (default: .)\n"
"  -i, --input conv|gemm  the topology's form (default conv)\n"
"  -q, --quiet            print no table (reports and errors only)\n"
"  -a, --array RxC        rows x columns of PEs, e.g. 32x32\n"
"  -d, --dataflow DF      os, ws or is\n"
"  -g, --gemm M,N,K       C (MxN) = A (MxK) B (KxN)\n"
"  -C, --conv H,W,R,S,C,K,STRIDE[,STRIDE_W]\n"
"                         IFMAP HxW with C channels, K filters of RxS\n"
"  -s, --sram-kb I,F,O    IFMAP, FILTER and OFMAP SRAM sizes in KiB\n"
"                         (default 64,64,64, as SCALE-Sim's scale.cfg)\n"
"  -w, --word-bytes B     bytes per word (default 1, as SCALE-Sim)\n"
"  -b, --bandwidth W      USER mode: W words a cycle per buffer (default:\n"
"                         CALC mode, DRAM as fast as the array needs)\n"
"  -j, --json             print one JSON object instead of a table\n"
"  -h, --help             show this help and exit\n"
"\n"
"Exit status: 0 success, 1 a file could not be written, 2 bad arguments\n"
"or input (nothing is written then).\n";

/* The parsed command line. */
struct scale_cli {
	sim_scale_arch arch;
	sim_scale_layer layer;
	struct dse_scale_net_opts net;
	int have_array, have_dataflow, have_layer, json, quiet, help;
};

/* Reads between "lo" and "n" positive integers separated by "sep" into
 * "out"; with zero_ok a 0 is allowed too.  Returns how many, or -1 when the
 * text is anything else.
 */
static int parse_list(const char *text, char sep, int lo, int n,
	int zero_ok, int64_t *out)
{
	const char *p = text;
	char *end;
	int i;

	for (i = 0; i < n; i++) {
		long long v;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || v < !zero_ok)
			return -1;
		out[i] = v;
		p = end;
		if (!*p)
			break;
		if (i + 1 < n && *p++ != sep)
			return -1;
	}
	return *p || i + 1 < lo ? -1 : i + 1;
}

/* The long name of the option whose short letter is "c". */
static const char *long_name(int c)
{
	static const char *const names[][2] = {
		{ "a", "array" }, { "d", "dataflow" }, { "g", "gemm" },
		{ "C", "conv" }, { "s", "sram-kb" }, { "w", "word-bytes" },
		{ "b", "bandwidth" }, { "i", "input" }
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i][0][0] == c)
			return names[i][1];
	return "?";
}

/* A layer from --gemm or --conv. */
static int apply_layer(int c, const char *arg, struct scale_cli *cli)
{
	int64_t v[8];
	int n = parse_list(arg, ',', c == 'g' ? 3 : 7, c == 'g' ? 3 : 8, 0, v);

	if (n < 0)
		return -1;
	if (c == 'g')
		sim_scale_gemm(&cli->layer, v[0], v[1], v[2]);
	else
		cli->layer = (sim_scale_layer) { v[0], v[1], v[2], v[3], v[4],
			v[5], v[6], n == 8 ? v[7] : v[6] };
	cli->have_layer = 1;
	return 0;
}

/* Applies one option with a value; returns 0, or 2 with a message. */
static int apply_option(int c, const char *arg, struct scale_cli *cli,
	char *msg, size_t size)
{
	int64_t v[3];

	if (c == 'c' || c == 't' || c == 'p') {
		*(c == 'c' ? &cli->net.config : c == 't' ?
			&cli->net.topology : &cli->net.dir) = arg;
		return 0;
	}
	if ((c == 'g' || c == 'C') && cli->have_layer) {
		snprintf(msg, size, "give one layer: --gemm or --conv, once");
		return 2;
	}
	if (c == 'a' ? parse_list(arg, 'x', 2, 2, 0, v) < 0 :
	    c == 'd' ? sim_scale_dataflow_parse(arg, &cli->arch.dataflow) :
	    c == 'g' || c == 'C' ? apply_layer(c, arg, cli) :
	    c == 's' ? parse_list(arg, ',', 3, 3, 1, cli->arch.sram_kb) < 0 :
	    c == 'i' ? strcmp(arg, "conv") && strcmp(arg, "gemm") :
	    parse_list(arg, ',', 1, 1, 0, v) < 0) {
		snprintf(msg, size, "bad value '%s' for --%s (see dse "
			"scalesim --help)", arg, long_name(c));
		return 2;
	}
	if (c == 'a') {
		cli->arch.rows = v[0];
		cli->arch.cols = v[1];
	}
	cli->have_array |= c == 'a';
	cli->have_dataflow |= c == 'd';
	if (c == 'i')
		cli->net.gemm = !strcmp(arg, "gemm");
	if (c == 'w')
		cli->arch.word_bytes = v[0];
	if (c == 'b') {
		cli->arch.bw_mode = SIM_SCALE_USER;
		cli->arch.bandwidth = v[0];
	}
	return 0;
}

/* Checks what the options add up to; returns 0, or 2 with a message. */
static int check_cli(struct scale_cli *cli, char *msg, size_t size)
{
	int flags = cli->have_array || cli->have_dataflow || cli->have_layer;

	if (cli->net.config) {
		if (flags) {
			snprintf(msg, size, "-c runs a SCALE-Sim config; "
				"--array, --dataflow, --gemm and --conv are "
				"for one layer without one");
			return 2;
		}
		return 0;
	}
	if (cli->net.topology || cli->net.dir) {
		snprintf(msg, size, "-t and -p need the config: -c scale.cfg");
		return 2;
	}
	if (!cli->have_array || !cli->have_dataflow || !cli->have_layer) {
		snprintf(msg, size, "needs -c scale.cfg, or --array, "
			"--dataflow and one of --gemm or --conv");
		return 2;
	}
	return 0;
}

/* Parses argv (argv[0] is "scalesim"); returns 0, or 2 with a message. */
static int parse(int argc, char **argv, struct scale_cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "topology", required_argument, NULL, 't' },
		{ "path", required_argument, NULL, 'p' },
		{ "input", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "array", required_argument, NULL, 'a' },
		{ "dataflow", required_argument, NULL, 'd' },
		{ "gemm", required_argument, NULL, 'g' },
		{ "conv", required_argument, NULL, 'C' },
		{ "sram-kb", required_argument, NULL, 's' },
		{ "word-bytes", required_argument, NULL, 'w' },
		{ "bandwidth", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(cli, 0, sizeof(*cli));
	sim_scale_arch_default(&cli->arch, 1, 1, SIM_SCALE_OS);
	optind = 0;	/* a full reset: the command may run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:t:p:i:qa:d:g:C:s:w:b:jh", opts,
		NULL)) != -1) {
		if (c == 'j' || c == 'h' || c == 'q') {
			*(c == 'j' ? &cli->json : c == 'h' ? &cli->help :
				&cli->quiet) = 1;
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
	/* One file given without an option is the config, as with -c:
	 * "dse scalesim scale.cfg" is what a SCALE-Sim user types first.
	 */
	if (optind < argc && !cli->net.config && !cli->have_array &&
	    !cli->have_dataflow && !cli->have_layer)
		cli->net.config = argv[optind++];
	if (optind < argc) {
		snprintf(msg, size, "unexpected argument '%s'%s", argv[optind],
			cli->net.config ? " (a topology goes after -t)" : "");
		return 2;
	}
	return check_cli(cli, msg, size);
}

/* Runs SCALE-Sim's files (-c, -t) and prints the network unless quiet. */
static dse_stat run_net(const struct scale_cli *cli, dse_error *err)
{
	dse_scale_net *nt = dse_scale_net_run(&cli->net, err);

	if (!nt)
		return dse_stat_error;
	if (!cli->quiet)
		cli_scale_print_net(stdout, nt, cli->json);
	dse_scale_net_free(nt);
	return dse_stat_ok;
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
		fputs(dse_scale_usage, stdout);
		return 0;
	}
	dse_error_clear(&err);
	if (cli.net.config ? run_net(&cli, &err) :
	    sim_scale_run(&cli.arch, &cli.layer, &res, &err)) {
		dse_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "dse scalesim: %s\n", msg);
		return dse_error_exit_status(&err);
	}
	if (!cli.net.config)
		cli_scale_print_layer(stdout, &cli.arch, &res, cli.json);
	return 0;
}
