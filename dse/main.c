/* The dse command line. */
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"

#define MAX_SHOWN_ROWS 12

static const char usage[] =
"Usage: dse [options] [sweep.cfg]\n"
"       mpirun -np N dse [options] [sweep.cfg]\n"
"       dse --resume [-o FILE] [sweep.cfg]\n"
"       dse --restart [-o FILE] [sweep.cfg]\n"
"       dse analyze [--json] [--space-time N] [sweep.cfg]\n"
"       dse [analyze] [-D NAME[=VALUE]]... [-I DIR]... kernel.c\n"
"       dse eval --sa-sizes STRING [--io-network daisy|multicast]\n"
"                [--double-buffer 0|1] [--breakdown] [--json] [sweep.cfg]\n"
"       dse simulate --sa-sizes STRING [--mode full|sampled|analytic]\n"
"                [--io-network ..] [--double-buffer ..] [--fifo-depth N]\n"
"                [--samples N] [--seed N] [--json] [sweep.cfg]\n"
"       dse simulate --design \"knob=value ...\" [--mode ..] workload.cfg\n"
"       dse tune [--objective M] [--emit autosa|tensil|json] [-o FILE]\n"
"                [--from results.h5] [sweep.cfg]\n"
"       dse scalesim ...    (dse scalesim --help)\n"
"       dse show [--sort COL] [--csv] ... results.h5  (dse show --help)\n"
"\n"
"Explores the design space of an accelerator for the kernel (a systolic\n"
"array) or the workload (GNN or overlay accelerators) and board in\n"
"sweep.cfg and writes the Pareto front to an HDF5 file.\n"
"A C file (kernel.c, its loop nest between #pragma scop and #pragma\n"
"endscop) stands for a config that reads it, with the default board,\n"
"space and search.\n"
"Without a config, runs the built-in sweep: an fp32 1024x1024x1024 matrix\n"
"multiply on an Alveo U250 (see --print-default).\n"
"\n"
"Options:\n"
"  -o, --output FILE   write the results to FILE (overrides [output] file)\n"
"  -q, --quiet         print nothing but errors\n"
"      --resume        continue the stopped sweep whose checkpoint is the\n"
"                      results file the config names (same config)\n"
"      --restart       start the sweep again although the results file\n"
"                      holds an unfinished checkpoint of this config\n"
"                      (without it that is refused: --resume continues it)\n"
"  -D NAME[=VALUE]     define a macro for a C kernel, as cc -D does\n"
"  -I DIR              search DIR for a C kernel's #include files\n"
"      --print-default print the built-in sweep config and exit\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\n"
"Commands:\n"
"  analyze             print the kernel's dependences, space-time candidates\n"
"                      and I/O groups without sweeping (dse analyze --help)\n"
"  eval                evaluate one design given as AutoSA's --sa-sizes\n"
"                      string and print every metric (dse eval --help)\n"
"  simulate            run one design through the full or sampled cycle\n"
"                      simulation: cycles, stalls per module, utilisation\n"
"                      (dse simulate --help)\n"
"  tune                pick the best design for one objective and emit it\n"
"                      for AutoSA, Tensil or as JSON (dse tune --help)\n"
"  show                print a results file's front or cloud as a table or\n"
"                      CSV, sorted by any column (dse show --help)\n"
"  scalesim            SCALE-Sim's config and topology files, or one layer,\n"
"                      on an os/ws/is systolic array (dse scalesim --help)\n"
"\n"
"Parallelism: MPI ranks from mpirun, OpenMP threads per rank from\n"
"OMP_NUM_THREADS. The front is the same for any number of either.\n"
"\n"
"Long sweeps write a checkpoint into the results file every [search]\n"
"checkpoint seconds (60 by default); SIGINT or SIGTERM stops the search at\n"
"its next synchronisation with a last checkpoint (a second Ctrl-C quits at\n"
"once), and --resume continues from it.\n"
"\n"
"Exit status:\n"
"  0  success\n"
"  1  runtime failure (out of memory, MPI or HDF5 error, unwritable file)\n"
"  2  bad input (command line, config, kernel, input or results file,\n"
"     an output name that is not a regular file or is in use); nothing\n"
"     is written\n"
"  130, 143  stopped by SIGINT or SIGTERM (128 + the signal's number) after\n"
"     writing a checkpoint\n";

static const char analyze_usage[] =
"Usage: dse analyze [--json] [--space-time N] [sweep.cfg]\n"
"       dse analyze [-D NAME[=VALUE]]... [-I DIR]... kernel.c\n"
"\n"
"Analyses the kernel of sweep.cfg (the built-in matrix multiply without a\n"
"config) the way a sweep does before its search, and prints what it found:\n"
"the loops, the outermost permutable band, the reduction, parallel, space\n"
"and SIMD loops; every dependence with its distance vector (a range [a,b]\n"
"when it varies, ? when the analysis cannot bound it); the space-time\n"
"candidates (AutoSA's space_time[n], the value of [space] space_time); and\n"
"for each candidate its I/O groups: direction, exterior or interior I/O,\n"
"copy in/out, pruned, embedded, I/O levels, buffer level, W_in and W_out.\n"
"Only the [kernel] section is read; the search is not run and nothing is\n"
"written but the report on standard output.\n"
"\n"
"Options:\n"
"      --json          print one JSON object instead of tables\n"
"  -s, --space-time N  show the I/O groups of candidate N only\n"
"  -D NAME[=VALUE]     define a macro for a C kernel, as cc -D does\n"
"  -I DIR              search DIR for a C kernel's #include files\n"
"  -h, --help          show this help and exit\n"
"\n"
"Exit status: 0 success, 1 runtime failure, 2 bad input (command line,\n"
"config, kernel); errors name file:line:col and the key.\n";

static const char eval_usage[] =
"Usage: dse eval --sa-sizes STRING [--io-network daisy|multicast]\n"
"                [--double-buffer 0|1] [--breakdown] [--json] [sweep.cfg]\n"
"\n"
"Evaluates one design of the kernel in sweep.cfg (the built-in matrix\n"
"multiply without a config) on the config's board with the model a sweep\n"
"uses, and prints every metric with its unit and each resource as a share\n"
"of the board. The design is given in AutoSA's syntax, as in a results\n"
"file's sa_sizes column, e.g.\n"
"  \"{kernel[]->space_time[3];kernel[]->array_part[260,256,512];\n"
"    kernel[]->latency[20,16];kernel[]->simd[8]}\"\n"
"Entries come in any order and blanks are allowed. space_time picks the\n"
"candidate (the config's when absent); array_part has one value per band\n"
"loop, array_part_L2 (optional) likewise, latency one per latency loop,\n"
"simd one for the SIMD loop ('dse analyze' names them). A tile need not\n"
"divide its loop: the last tile is padded.\n"
"\n"
"Options:\n"
"  -s, --sa-sizes STR    the design (required)\n"
"      --io-network NET  daisy (AutoSA's daisy chain) or multicast (the\n"
"                        multicast crossbar); default: the config's single\n"
"                        [space] io_network value, else daisy\n"
"      --double-buffer B 1 (on) or 0 (off); default: the config's single\n"
"                        [space] double_buffer value, else 1\n"
"      --breakdown       list every module AutoSA generates for the design\n"
"                        with its buffers and FIFOs (width, depth, banks,\n"
"                        copies, memory) and their resources, as in AutoSA's\n"
"                        resource report\n"
"      --json            print one JSON object instead of a table\n"
"  -h, --help            show this help and exit\n"
"\n"
"Exit status: 0 legal design, 1 illegal design (the rule it breaks is\n"
"printed; the JSON still carries \"status\") or runtime failure, 2 bad\n"
"input (command line, config, --sa-sizes string).\n";

static const char simulate_usage[] =
"Usage: dse simulate --sa-sizes STRING [--mode full|sampled|analytic]\n"
"       dse simulate --design \"knob=value ...\" [--mode MODE] gnn.cfg\n"
"                    [--io-network daisy|multicast] [--double-buffer 0|1]\n"
"                    [--fifo-depth N] [--samples N] [--seed N] [--json]\n"
"                    [sweep.cfg]\n"
"\n"
"Runs one design of the kernel in sweep.cfg (the built-in matrix multiply\n"
"without a config) through a model and prints what it found: cycles and\n"
"latency; for the sampled model the confidence interval of the cycles and\n"
"the fraction of tiles simulated; PE utilisation, the DRAM bandwidth\n"
"achieved, and for every module class (PEs, each I/O module level, DRAM)\n"
"its count and the busy, stall_in (waiting for data) and stall_out\n"
"(waiting for room) cycles of one module. The design is given as in\n"
"'dse eval' (see dse eval --help), and built the same way.\n"
"\n"
"For a GNN workload (a config with a [workload] section) the design is\n"
"--design with the family's knobs, e.g. \"n_pe=8 p_sys=16 feat_rows=16384\";\n"
"a knob left out takes the config's single [space] value, else the\n"
"published configuration's. Tiles are then subshards (gnn-overlay) or\n"
"node tasks (gnn-dataflow).\n"
"\n"
"Options:\n"
"  -s, --sa-sizes STR    the design (required for a kernel)\n"
"  -d, --design TEXT     a GNN design: knob=value pairs\n"
"  -m, --mode MODE       full: every tile, every cycle (the reference);\n"
"                        sampled: a sample of each tile class, extrapolated\n"
"                        (the default); analytic: the sweep's model\n"
"      --io-network NET  daisy or multicast (as in dse eval)\n"
"      --double-buffer B 1 (on) or 0 (off) (as in dse eval)\n"
"      --fifo-depth N    depth of the FIFOs between modules (default 2)\n"
"      --samples N       sampled model: tiles per class (default 4)\n"
"      --seed N          sampled model: which tiles are sampled (default:\n"
"                        the config's [search] seed)\n"
"      --json            print one JSON object instead of tables\n"
"  -h, --help            show this help and exit\n"
"\n"
"Exit status: 0 legal design, 1 illegal design (the rule it breaks is\n"
"printed; the JSON still carries \"status\") or runtime failure, 2 bad\n"
"input (command line, config, --sa-sizes string).\n";

static const char tune_usage[] =
"Usage: dse tune [--objective METRIC] [--emit autosa|tensil|json]\n"
"                [-o FILE] [--from results.h5] [sweep.cfg]\n"
"\n"
"The auto-tuner: finds the single best design of the sweep for one\n"
"objective under the config's constraints and emits it in the form the\n"
"next tool takes. Without --from it runs the search with that objective\n"
"alone (on every rank and thread, two-stage when the config says so);\n"
"with --from it picks from the front of a finished results file (whose\n"
"own config is used, so no config is given) and re-evaluates the design.\n"
"\n"
"Forms:\n"
"  autosa  (systolic sweeps; the default there) a shell snippet that\n"
"          writes AutoSA's --simd-info file and runs AutoSA with the\n"
"          design's --sa-sizes\n"
"  tensil  (overlay-systolic workloads; the default there) the .tarch\n"
"          architecture file\n"
"  json    (any sweep; the default for GNN workloads) the knobs and every\n"
"          metric of the design\n"
"\n"
"Options:\n"
"      --objective M   latency, energy, edp, dsp, ... (default: the\n"
"                      config's first objective)\n"
"      --emit FORM     autosa, tensil or json\n"
"  -o, --output FILE   write the design to FILE instead of stdout\n"
"      --from FILE     pick from this results file instead of searching\n"
"  -q, --quiet         no progress line\n"
"  -h, --help          show this help and exit\n"
"\n"
"Exit status: 0 success, 1 no design meets the constraints or runtime\n"
"failure, 2 bad input (command line, config, results file).\n";

struct cli {
	const char *config;
	const char *output;
	int quiet;
	int help;
	int version;
	int print_default;
	int resume;		/* --resume: continue from the checkpoint */
	int restart;		/* --restart: discard an unfinished one */
	int analyze;		/* the "analyze" sub-command */
	dse_analyze_opts aopt;
	int eval;		/* the "eval" sub-command */
	dse_eval_opts eopt;
	int simulate;		/* the "simulate" sub-command */
	dse_simulate_opts sopt;
	int tune;		/* the "tune" sub-command */
	dse_tune_opts topt;
	/* -D and -I, for a C kernel given in place of a config. */
	int n_defines, n_includes;
	const char *define[CFRONT_MAX_DEFINES];
	const char *include[CFRONT_MAX_INCLUDES];
};

/* -D ('D') and -I ('I'): kept for a C kernel.  Returns 0, or 2 with a
 * message.
 */
static int c_option(int c, struct cli *cli, char *msg, size_t size)
{
	if (c == 'D' && cli->n_defines < CFRONT_MAX_DEFINES) {
		cli->define[cli->n_defines++] = optarg;
		return 0;
	}
	if (c == 'I' && cli->n_includes < CFRONT_MAX_INCLUDES) {
		cli->include[cli->n_includes++] = optarg;
		return 0;
	}
	snprintf(msg, size, "at most %d -D and %d -I options",
		CFRONT_MAX_DEFINES, CFRONT_MAX_INCLUDES);
	return 2;
}

/* The usage error for getopt's answer "c" (':' for a missing value, else
 * an unknown option); "where" names the sub-command.  Returns 2.
 */
static int bad_option(int c, char **argv, const char *where, char *msg,
	size_t size)
{
	if (c == ':')
		snprintf(msg, size, "option '%s' needs a value",
			argv[optind - 1]);
	else
		snprintf(msg, size, "unknown option '%s'%s", argv[optind - 1],
			where);
	return 2;
}

/* Takes the one optional config file left after the options. */
static int take_config(int argc, char **argv, struct cli *cli, char *msg,
	size_t size)
{
	if (optind < argc)
		cli->config = argv[optind++];
	if (optind < argc) {
		snprintf(msg, size, "unexpected argument '%s' (one config "
			"file at most)", argv[optind]);
		return 2;
	}
	return 0;
}

/* Parses the arguments after "analyze"; returns 0, or 2 with a message. */
static int parse_analyze(int argc, char **argv, struct cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "space-time", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	long v;
	int c;

	cli->analyze = 1;
	cli->aopt.space_time = -1;
	while ((c = getopt_long(argc, argv, ":s:hD:I:", opts, NULL)) != -1) {
		switch (c) {
		case 'j': cli->aopt.json = 1; break;
		case 'h': cli->help = 1; break;
		case 'D': case 'I':
			if (c_option(c, cli, msg, size))
				return 2;
			break;
		case 's':
			v = strtol(optarg, &end, 10);
			if (!optarg[0] || *end || v < 0 || v > 1000000) {
				snprintf(msg, size, "--space-time needs a "
					"candidate number (0, 1, ...), got "
					"'%s'", optarg);
				return 2;
			}
			cli->aopt.space_time = (int) v;
			break;
		default:
			return bad_option(c, argv, " for 'dse analyze'", msg,
				size);
		}
	}
	return take_config(argc, argv, cli, msg, size);
}

/* Reads the value of --io-network or --double-buffer: the index of
 * "arg" in names[], or -1.
 */
static int pick(const char *arg, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

/* The design options eval and simulate share: --io-network ('n') and
 * --double-buffer ('b').  Returns 0, or 2 with a message.
 */
static int design_option(int c, int *io_network, int *double_buffer,
	char *msg, size_t size)
{
#define NET_NAME(id, name) name,
	static const char *const nets[] = { SIM_IO_NETWORK_TABLE(NET_NAME) };
#undef NET_NAME
	static const char *const onoff[] = { "0", "1" };

	if (c == 'n') {
		*io_network = pick(optarg, nets, SIM_N_IO_NETWORKS);
		if (*io_network < 0) {
			snprintf(msg, size, "--io-network takes daisy or "
				"multicast, got '%s'", optarg);
			return 2;
		}
		return 0;
	}
	*double_buffer = pick(optarg, onoff, 2);
	if (*double_buffer < 0) {
		snprintf(msg, size, "--double-buffer takes 0 or 1, got '%s'",
			optarg);
		return 2;
	}
	return 0;
}

/* Parses the arguments after "eval"; returns 0, or 2 with a message. */
static int parse_eval(int argc, char **argv, struct cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "sa-sizes", required_argument, NULL, 's' },
		{ "io-network", required_argument, NULL, 'n' },
		{ "double-buffer", required_argument, NULL, 'b' },
		{ "breakdown", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	cli->eval = 1;
	cli->eopt.io_network = cli->eopt.double_buffer = -1;
	while ((c = getopt_long(argc, argv, ":s:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': cli->eopt.sa_sizes = optarg; break;
		case 'r': cli->eopt.breakdown = 1; break;
		case 'j': cli->eopt.json = 1; break;
		case 'h': cli->help = 1; break;
		case 'n': case 'b':
			if (design_option(c, &cli->eopt.io_network,
					&cli->eopt.double_buffer, msg, size))
				return 2;
			break;
		default:
			return bad_option(c, argv, " for 'dse eval'", msg,
				size);
		}
	}
	if (!cli->help && !cli->eopt.sa_sizes) {
		snprintf(msg, size, "'dse eval' needs --sa-sizes STRING");
		return 2;
	}
	return take_config(argc, argv, cli, msg, size);
}

/* Reads an integer option in [lo, hi] into *v; 2 with a message when it
 * is not one.
 */
static int int_option(const char *name, const char *arg, long long lo,
	long long hi, long long *v, char *msg, size_t size)
{
	char *end;

	*v = strtoll(arg, &end, 10);
	if (!arg[0] || *end || *v < lo || *v > hi) {
		snprintf(msg, size, "%s takes an integer from %lld to %lld, "
			"got '%s'", name, lo, hi, arg);
		return 2;
	}
	return 0;
}

/* Parses one option of "simulate" that "eval" does not have. */
static int simulate_option(int c, struct cli *cli, char *msg, size_t size)
{
	static const char *const modes[] = { "analytic", "sampled", "full" };
	long long v = 0;
	int rc = 0;

	switch (c) {
	case 'm':
		cli->sopt.mode = pick(optarg, modes, 3);
		if (cli->sopt.mode < 0) {
			snprintf(msg, size, "--mode takes full, sampled or "
				"analytic, got '%s'", optarg);
			return 2;
		}
		/* The names above follow enum sim_model_kind. */
		cli->sopt.mode = sim_model_kind_find(optarg);
		return 0;
	case 'f':
		rc = int_option("--fifo-depth", optarg, 1, 65536, &v, msg,
			size);
		cli->sopt.fifo_depth = (int) v;
		return rc;
	case 'S':
		rc = int_option("--samples", optarg, 1, 1000000, &v, msg,
			size);
		cli->sopt.samples = (int) v;
		return rc;
	case 'r':
		rc = int_option("--seed", optarg, 0, INT64_MAX, &v, msg, size);
		cli->sopt.seed = v;
		return rc;
	}
	return 2;
}

/* Parses the arguments after "tune"; returns 0, or 2 with a message. */
static int parse_tune(int argc, char **argv, struct cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "objective", required_argument, NULL, 'O' },
		{ "emit", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	cli->tune = 1;
	cli->topt.emit = -1;
	while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'O': cli->topt.objective = optarg; break;
		case 'o': cli->topt.output = optarg; break;
		case 'f': cli->topt.from = optarg; break;
		case 'q': cli->quiet = 1; break;
		case 'h': cli->help = 1; break;
		case 'e':
			cli->topt.emit = dse_emit_find(optarg);
			if (cli->topt.emit < 0) {
				snprintf(msg, size, "--emit must be autosa, "
					"tensil or json, not '%s'", optarg);
				return 2;
			}
			break;
		default:
			return bad_option(c, argv, " for 'dse tune'", msg,
				size);
		}
	}
	if (take_config(argc, argv, cli, msg, size))
		return 2;
	if (cli->topt.from && cli->config) {
		snprintf(msg, size, "--from reads the results file's own "
			"config: give no config file");
		return 2;
	}
	return 0;
}

/* Parses the arguments after "simulate"; returns 0, or 2 with a message.
 * The options it shares with "eval" are read by the same code.
 */
static int parse_simulate(int argc, char **argv, struct cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "sa-sizes", required_argument, NULL, 's' },
		{ "design", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "io-network", required_argument, NULL, 'n' },
		{ "double-buffer", required_argument, NULL, 'b' },
		{ "fifo-depth", required_argument, NULL, 'f' },
		{ "samples", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	cli->simulate = 1;
	cli->sopt.mode = SIM_MODEL_SAMPLED;
	cli->sopt.io_network = cli->sopt.double_buffer = -1;
	cli->sopt.seed = -1;
	while ((c = getopt_long(argc, argv, ":s:d:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': cli->sopt.sa_sizes = optarg; break;
		case 'd': cli->sopt.design = optarg; break;
		case 'j': cli->sopt.json = 1; break;
		case 'h': cli->help = 1; break;
		case 'n': case 'b':
			if (design_option(c, &cli->sopt.io_network,
					&cli->sopt.double_buffer, msg, size))
				return 2;
			break;
		case 'm': case 'f': case 'S': case 'r':
			if (simulate_option(c, cli, msg, size))
				return 2;
			break;
		default:
			return bad_option(c, argv, " for 'dse simulate'", msg,
				size);
		}
	}
	if (!cli->help && !cli->sopt.sa_sizes && !cli->sopt.design) {
		snprintf(msg, size, "'dse simulate' needs --sa-sizes STRING "
			"(a kernel) or --design TEXT (a GNN workload)");
		return 2;
	}
	return take_config(argc, argv, cli, msg, size);
}

/* Parses argv; returns 0, or 2 with a message in "msg" on bad usage. */
static int parse_cli(int argc, char **argv, struct cli *cli, char *msg,
	size_t size)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "print-default", no_argument, NULL, 'P' },
		{ "resume", no_argument, NULL, 'R' },
		{ "restart", no_argument, NULL, 'X' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	/* A sub-command comes first; "./analyze" names a config file. */
	if (argc > 1 && !strcmp(argv[1], "analyze")) {
		optind = 1;
		return parse_analyze(argc - 1, argv + 1, cli, msg, size);
	}
	if (argc > 1 && !strcmp(argv[1], "eval")) {
		optind = 1;
		return parse_eval(argc - 1, argv + 1, cli, msg, size);
	}
	if (argc > 1 && !strcmp(argv[1], "simulate")) {
		optind = 1;
		return parse_simulate(argc - 1, argv + 1, cli, msg, size);
	}
	if (argc > 1 && !strcmp(argv[1], "tune")) {
		optind = 1;
		return parse_tune(argc - 1, argv + 1, cli, msg, size);
	}
	while ((c = getopt_long(argc, argv, ":o:qhVD:I:", opts, NULL)) != -1) {
		switch (c) {
		case 'o': cli->output = optarg; break;
		case 'q': cli->quiet = 1; break;
		case 'h': cli->help = 1; break;
		case 'V': cli->version = 1; break;
		case 'D': case 'I':
			if (c_option(c, cli, msg, size))
				return 2;
			break;
		case 'P': cli->print_default = 1; break;
		case 'R': cli->resume = 1; break;
		case 'X': cli->restart = 1; break;
		default:
			return bad_option(c, argv, "", msg, size);
		}
	}
	if (cli->resume && cli->restart) {
		snprintf(msg, size, "--resume continues a sweep and --restart "
			"starts it again: give one of them");
		return 2;
	}
	return take_config(argc, argv, cli, msg, size);
}

static int report_error(const dse_ctx *ctx, const dse_error *err)
{
	char line[DSE_ERROR_MSG_LEN + DSE_ERROR_FILE_LEN + 128];

	if (ctx->rank == 0) {
		dse_error_format(err, line, sizeof(line));
		fprintf(stderr, "dse: %s\n", line);
	}
	return dse_error_exit_status(err) ? dse_error_exit_status(err) : 1;
}

/* Whether "path" names a C file rather than a config. */
static int is_c_file(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 2 && !strcmp(path + n - 2, ".c");
}

/* The config of a C kernel given on the command line: every rank makes
 * the same text from the same arguments.  -D and -I with a config file
 * are refused, as the config says its own defines.
 */
static dse_cfg *c_config(const struct cli *cli, dse_error *err)
{
	dse_cfg *cfg;
	char *text;

	if (!is_c_file(cli->config)) {
		dse_error_set(err, DSE_E_INPUT, "-D and -I apply to a C kernel "
			"given on the command line (dse kernel.c); a config "
			"sets them with defines and include in [kernel]");
		return NULL;
	}
	text = dse_c_config(cli->config, cli->define, cli->n_defines,
		cli->include, cli->n_includes);
	if (!text) {
		dse_error_set(err, DSE_E_NOMEM, "out of memory");
		return NULL;
	}
	cfg = dse_cfg_parse_string(text, "<command-line>", err);
	free(text);
	return cfg;
}

/* Rank 0 reads the config and every rank parses the same text, so every
 * rank reaches the same verdict without reading the file itself.
 */
static dse_cfg *load_config(const dse_ctx *ctx, const char *path,
	dse_error *err)
{
	dse_cfg *cfg = NULL;
	long len = 0;
	char *text;

	if (!path)
		return dse_cfg_parse_string(dse_default_config(), "<default>",
			err);
	if (ctx->rank == 0) {
		cfg = dse_cfg_parse_file(path, err);
		len = cfg ? (long) strlen(dse_cfg_text(cfg)) : -1;
	}
	if (MPI_Bcast(&len, 1, MPI_LONG, 0, ctx->comm) != MPI_SUCCESS) {
		dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the config failed");
		return dse_cfg_free(cfg);
	}
	if (len < 0) {
		if (ctx->rank != 0)
			dse_error_set(err, DSE_E_INPUT, "bad config on rank 0");
		return NULL;
	}
	text = ctx->rank == 0 ? (char *) dse_cfg_text(cfg) : calloc(len + 1, 1);
	if (!text || MPI_Bcast(text, (int) len, MPI_CHAR, 0, ctx->comm) !=
			MPI_SUCCESS) {
		dse_error_set(err, DSE_E_MPI, "MPI_Bcast of the config failed");
		if (ctx->rank != 0)
			free(text);
		return dse_cfg_free(cfg);
	}
	if (ctx->rank != 0) {
		cfg = dse_cfg_parse_string(text, path, err);
		free(text);
	}
	return cfg;
}

/* Seconds between progress lines when stderr is not a terminal (a log
 * file): the search may report more often, at its own synchronisations.
 */
#define LOG_INTERVAL 5.0

struct progress_state {
	int tty;
	int printed;
	int stage;		/* of the last line printed */
	double last;		/* search seconds at the last line */
};

/* The second stage: band points through the sampled cycle model. */
static void print_stage2(const search_progress *p, struct progress_state *ps)
{
	double rate = p->seconds > 0 ? p->evaluated / p->seconds : 0;
	double eta = rate > 0 ? (p->total - p->evaluated) / rate : 0;

	fprintf(stderr, "%sdse: sampled model: %5.1f%%  %llu/%llu band points"
		"  %.1f points/s  ETA %.1f s%s", ps->tty ? "\r\033[K" : "",
		p->total ? 100.0 * p->evaluated / p->total : 100.0,
		(unsigned long long) p->evaluated,
		(unsigned long long) p->total, rate, eta, ps->tty ? "" : "\n");
	ps->printed = 1;
	fflush(stderr);
}

static void print_progress(const search_progress *p, void *user)
{
	struct progress_state *ps = user;
	double rate = p->seconds > 0 ? p->evaluated / p->seconds : 0;
	/* The count is an estimate over the ranks and may pass the total. */
	double left = p->total > p->evaluated ?
		(double) (p->total - p->evaluated) : 0;
	double eta = rate > 0 ? left / rate : 0;
	double valid = p->evaluated ? 100.0 * p->valid / p->evaluated : 0;
	char hv[32], what[48];

	if (p->stage == 2) {
		/* The sweep's last line stays on screen above this one. */
		if (ps->tty && ps->stage == 1)
			fputc('\n', stderr);
		ps->stage = 2;
		print_stage2(p, ps);
		return;
	}
	/* A log gets a line per interval, and the last one. */
	if (!ps->tty && ps->printed && ps->stage == 1 &&
	    p->seconds - ps->last < LOG_INTERVAL && p->evaluated < p->total)
		return;
	ps->last = p->seconds;
	ps->stage = 1;
	/* The hypervolume is unknown (NaN) until the front has a point. */
	hv[0] = '\0';
	if (!isnan(p->hypervolume))
		snprintf(hv, sizeof(hv), "  hv %.4f", p->hypervolume);
	/* A heuristic search counts evaluations against its budget and
	 * says which generation it has reached.
	 */
	if (p->strategy != SEARCH_EXHAUSTIVE)
		snprintf(what, sizeof(what), "%s gen %llu  ",
			search_strategy_name(p->strategy),
			(unsigned long long) p->generation);
	else
		what[0] = '\0';
	fprintf(stderr, "%sdse: %s%5.1f%%  %llu/%llu %s  %.2f M points/s  "
		"valid %.1f%%  front %zu%s  ETA %.1f s%s",
		ps->tty ? "\r\033[K" : "", what,
		p->total ? 100.0 * p->evaluated / p->total : 100.0,
		(unsigned long long) p->evaluated,
		(unsigned long long) p->total,
		p->strategy != SEARCH_EXHAUSTIVE ? "of budget" : "points",
		rate / 1e6, valid, p->front_size, hv, eta,
		ps->tty ? "" : "\n");
	ps->printed = 1;
	fflush(stderr);
}

/* The knobs --sa-sizes does not carry (io_network, double_buffer), as
 * " multicast, no double buffering"; "" when the model has neither.
 */
static const char *knob_suffix(const dse_ctx *ctx, const search_point *p,
	char *buf, size_t size)
{
	int k;

	buf[0] = '\0';
	for (k = 0; ctx->model && k < sim_model_n_knobs(ctx->model); k++) {
		const char *kind = sim_model_knob_kind(ctx->model, k);
		size_t len = strlen(buf);

		if (!strcmp(kind, "io_network"))
			snprintf(buf + len, size - len, " %s",
				p->knobs[k] == SIM_NET_MULTICAST ?
				"multicast" : "daisy");
		else if (!strcmp(kind, "double_buffer"))
			snprintf(buf + len, size - len, " %s",
				p->knobs[k] ? "db" : "no-db");
	}
	return buf;
}

/* How long the summary may spend looking for an example of each kind of
 * illegal point, evaluating the space from its first index.
 */
#define EXAMPLE_SECONDS 0.3

/* One illegal design of each status the sweep counted, with what is wrong
 * with it, found by evaluating the space in index order: a sweep that
 * lost points should show one, not only count them.
 */
static void print_examples(const dse_ctx *ctx, const search_result *res)
{
	search_evaluator ev = dse_evaluator(ctx);
	uint64_t size = search_space_size(ctx->space), idx;
	uint64_t first[SIM_N_STATUS] = { 0 };
	int shown[SIM_N_STATUS] = { 0 }, want = 0, st;
	double t0 = MPI_Wtime();

	for (st = 1; st < SIM_N_STATUS; st++)
		want += res->status_count[st] > 0;
	for (idx = 0; idx < size && want > 0; idx++) {
		int32_t knobs[SEARCH_MAX_KNOBS];
		sim_metrics m;

		if ((idx & 63) == 63 && MPI_Wtime() - t0 > EXAMPLE_SECONDS)
			break;
		search_space_decode(ctx->space, idx, knobs);
		ev.eval(ev.model, knobs, &m);
		st = m.status;
		if (st <= SIM_OK || st >= SIM_N_STATUS || shown[st] ||
		    !res->status_count[st])
			continue;
		shown[st] = 1;
		first[st] = idx;
		want--;
	}
	/* In the order of the counts on the line above. */
	for (st = 1; st < SIM_N_STATUS; st++) {
		int32_t knobs[SEARCH_MAX_KNOBS];
		char design[256], why[256];

		if (!shown[st])
			continue;
		search_space_decode(ctx->space, first[st], knobs);
		dse_design_text(ctx, knobs, design, sizeof(design));
		why[0] = '\0';
		if (dse_is_workload(ctx))
			dse_workload_why(ctx, knobs, why, sizeof(why));
		printf("    e.g. %s: %s\n", design, why[0] ? why :
			sim_status_name(st));
	}
}

/* Why points were left out, when some were: a sweep with an empty front
 * must say whether its constraints or its knob ranges are to blame.
 */
static void print_rejected(const dse_ctx *ctx, const search_result *res)
{
	int st, illegal = 0;

	if (res->valid == res->evaluated)
		return;
	printf("  left out: %llu over a constraint",
		(unsigned long long) res->over_constraint);
	for (st = 1; st < SIM_N_STATUS; st++)
		if (res->status_count[st]) {
			printf(", %llu illegal (%s)",
				(unsigned long long) res->status_count[st],
				sim_status_name(st));
			illegal = 1;
		}
	printf("\n");
	if (illegal)
		print_examples(ctx, res);
}

/* An empty front although legal points were evaluated: which bound
 * ruled out the most of them, from a sample of the space, with the
 * runners-up, so that a slip such as "dsp <= 1" is found at once.
 */
static void print_empty_front(const dse_ctx *ctx, const search_result *res)
{
	uint64_t legal, broken[SEARCH_MAX_CONSTRAINTS];
	int order[SEARCH_MAX_CONSTRAINTS], i, j, n = ctx->sopt.n_constraints;

	if (search_front_size(res->front) || !res->over_constraint)
		return;
	dse_bound_blame(ctx, 1.0, &legal, broken);
	if (!legal)
		return;
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && broken[order[j - 1]] < broken[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	printf("  the front is empty: every legal design breaks a "
		"constraint; of %llu legal designs looked at again,\n",
		(unsigned long long) legal);
	for (i = 0; i < n && i < 3 && broken[order[i]]; i++) {
		const dse_bound *b = &ctx->bound[order[i]];

		printf("    %5.1f%% break %s", 100.0 * (double) broken[order[i]] /
			(double) legal, b->text);
		if (b->line)
			printf(" (%s:%d:%d)", dse_cfg_file(ctx->cfg), b->line,
				b->col);
		printf("\n");
	}
}

/* The share of the board resource "id" of "m" takes, in percent. */
static double share(const dse_ctx *ctx, const sim_metrics *m,
	enum sim_metric id)
{
	double cap = sim_metric_capacity(&ctx->board, id);

	return cap > 0 ? 100.0 * sim_metrics_get(m, id) / cap : 0.0;
}

static void print_summary(const dse_ctx *ctx, const search_result *res)
{
	size_t i, n = search_front_size(res->front);
	char sa[256], extra[64];

	printf("dse: %s on %s, %s search: %llu points in %.2f s (%d ranks x "
		"%d threads, %.2f M points/s), %llu valid, front of %zu designs "
		"-> %s\n", ctx->tmpl.kernel, ctx->board.name,
		search_strategy_name(ctx->sopt.strategy),
		(unsigned long long) res->evaluated, res->seconds, ctx->size,
		res->threads, res->seconds > 0 ?
		res->evaluated / res->seconds / 1e6 : 0.0,
		(unsigned long long) res->valid, n, ctx->out_path);
	print_rejected(ctx, res);
	print_empty_front(ctx, res);
	if (n)
		printf("  %12s %10s %7s %8s %6s %6s %10s %9s  %s\n",
			"latency(ms)", ctx->dtype->is_float ? "GFLOP/s" :
			"GOP/s", "DSP", "BRAM18K", "LUT%", "FF%", "energy(mJ)",
			"PEs", dse_is_workload(ctx) ? "design" :
			"AutoSA --sa-sizes");
	for (i = 0; i < n && i < MAX_SHOWN_ROWS; i++) {
		const search_point *p = search_front_at(res->front, i);
		char pes[32];

		dse_design_text(ctx, p->knobs, sa, sizeof(sa));
		/* rows x cols names a 2-D grid only; a 1-D or 3-D array
		 * shows its PE count, so the figure never understates it.
		 */
		if ((int64_t) p->metrics.pe_rows * p->metrics.pe_cols ==
		    p->metrics.n_pe)
			snprintf(pes, sizeof(pes), "%dx%d", p->metrics.pe_rows,
				p->metrics.pe_cols);
		else
			snprintf(pes, sizeof(pes), "%lld",
				(long long) p->metrics.n_pe);
		printf("  %12.4f %10.1f %7lld %8lld %6.1f %6.1f %10.3f %9s  "
			"%s%s\n", p->metrics.latency_s * 1e3, p->metrics.gops,
			(long long) p->metrics.dsp,
			(long long) p->metrics.bram18k,
			share(ctx, &p->metrics, SIM_M_LUT),
			share(ctx, &p->metrics, SIM_M_FF),
			p->metrics.energy_j * 1e3, pes, sa,
			knob_suffix(ctx, p, extra, sizeof(extra)));
	}
	if (n > MAX_SHOWN_ROWS)
		printf("  ... %zu more rows in %s\n", n - MAX_SHOWN_ROWS,
			ctx->out_path);
}

/* The second stage in one or two lines: how many band points the sampled
 * model re-evaluated, and whether band_max cut the band.
 */
static void print_two_stage(const dse_ctx *ctx, const search_result *res)
{
	if (ctx->sopt.model != SIM_MODEL_SAMPLED)
		return;
	printf("  two-stage: %llu points within %g%% of the analytic front "
		"re-evaluated with the sampled cycle model in %.2f s; %llu "
		"dropped (illegal or over a constraint); front rows say "
		"model=sampled\n", (unsigned long long) res->resimulated,
		100.0 * ctx->sopt.band, res->resim_seconds,
		(unsigned long long) res->resim_dropped);
	if (res->resim_failed)
		printf("  two-stage: the simulation of %llu of them failed; "
			"they are left out of the front\n",
			(unsigned long long) res->resim_failed);
	if (res->band_cut)
		printf("  two-stage: the band had %llu points; band_max = %zu "
			"left out the %llu farthest from the front\n",
			(unsigned long long) res->band_points,
			ctx->sopt.band_max,
			(unsigned long long) res->band_cut);
}

/* Whether the front was kept in boxes (front_resolution) or outgrew
 * front_max and was thinned, and how to get it exact or reproducible.
 */
static void print_thinning(const dse_ctx *ctx, const search_result *res)
{
	double r = res->front ? search_front_resolution(res->front) : 0;

	if (r <= 0)
		return;
	if (r <= ctx->sopt.front_resolution * (1 + 1e-9)) {
		printf("  front: one design per box of %.3g%% in every "
			"objective (front_resolution)\n", 100 * r);
		return;
	}
	fprintf(stderr, "dse: warning: the front outgrew front_max = %zu "
		"points and was thinned to one design per box of %.3g%% in "
		"every objective; every design left out is within %.3g%% of "
		"one kept. Raise [search] front_max for an exact front, or set "
		"front_resolution = %.6g for this front on any number of "
		"ranks\n", ctx->sopt.front_max, 100 * r,
		100 * ((1 + r) * (1 + r) - 1), r);
}

/* What the strategy did, when there is more to say than the points: the
 * generations and islands of a heuristic search, the points exhaustive
 * search skipped on resource bounds, and whether it resumed.
 */
static void print_strategy(const dse_ctx *ctx, const search_result *res)
{
	if (ctx->sopt.strategy != SEARCH_EXHAUSTIVE)
		printf("  %s: %llu generations on %d islands\n",
			search_strategy_name(ctx->sopt.strategy),
			(unsigned long long) res->generations, res->islands);
	else if (res->pruned)
		printf("  pruned: %llu points skipped, a resource bound already "
			"over a constraint\n", (unsigned long long) res->pruned);
	if (res->resumed)
		printf("  resumed from a checkpoint\n");
	print_thinning(ctx, res);
}

/* The config's warnings (ctx->warnings), on rank 0, each "dse: " and
 * its line.
 */
static void print_warnings(const dse_ctx *ctx)
{
	const char *p = ctx->warnings, *e;

	if (ctx->rank != 0 || ctx->quiet)
		return;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		fprintf(stderr, "dse: %.*s\n", (int) (e - p), p);
	}
}

/* Warns, on rank 0, about an exhaustive sweep that will take hours. */
static void warn_big_space(const dse_ctx *ctx)
{
	char msg[512];

	if (ctx->rank == 0 && !ctx->quiet && dse_space_warning(ctx,
			ctx->size, omp_get_max_threads(), msg, sizeof(msg)))
		fprintf(stderr, "dse: warning: %s\n", msg);
}

/* Runs the search with SIGINT and SIGTERM caught ("s" installed here, for
 * the caller to restore).  Collective.
 */
static dse_stat search_with_signals(dse_ctx *ctx, search_result *res,
	dse_signals *s, dse_error *err)
{
	search_evaluator ev = dse_evaluator(ctx);
	dse_stat st;

	/* Without the handlers (sigaction never fails in practice) a signal
	 * just ends the process, as it would have before.
	 */
	if (dse_signals_install(s, NULL) == dse_stat_ok)
		ctx->sopt.stop = s->stop;
	st = search_run(ctx->space, &ev, &ctx->sopt, ctx->comm, res, err);
	ctx->sopt.stop = NULL;
	return st;
}

/* A stopped search: rank 0 says where the checkpoint is and how to go
 * on.  Returns the exit status, 128 + the signal's number on every rank,
 * so a script cannot take the stop for success.  Collective.
 */
static int stopped(const dse_ctx *ctx, search_result *res,
	const dse_checkpointer *cp, int sig)
{
	char cmd[2 * DSE_PATH_LEN + 32];
	int any = sig;

	if (MPI_Allreduce(&sig, &any, 1, MPI_INT, MPI_MAX, ctx->comm) !=
			MPI_SUCCESS || any <= 0)
		any = sig > 0 ? sig : SIGINT;
	if (ctx->rank == 0 && cp->written && cp->failing) {
		/* The stop's own checkpoint failed: an older one is there. */
		dse_resume_command(ctx, cmd, sizeof(cmd));
		fprintf(stderr, "dse: interrupted after %llu points; %s keeps "
			"the last checkpoint written, at %llu of %llu points; "
			"continue with: %s\n",
			(unsigned long long) res->evaluated, ctx->out_path,
			(unsigned long long) cp->evaluated,
			(unsigned long long) cp->total, cmd);
	} else if (ctx->rank == 0 && cp->written) {
		dse_resume_command(ctx, cmd, sizeof(cmd));
		fprintf(stderr, "dse: interrupted after %llu of %llu points; "
			"checkpoint written to %s; continue with: %s\n",
			(unsigned long long) cp->evaluated,
			(unsigned long long) cp->total, ctx->out_path, cmd);
	} else if (ctx->rank == 0) {
		fprintf(stderr, "dse: interrupted after %llu points; no "
			"checkpoint was written\n",
			(unsigned long long) res->evaluated);
	}
	search_front_free(res->front);
	search_cloud_free(res->cloud);
	return 128 + any;
}

/* The finished search's stop signals: a stop that came after the search
 * had ended (during the final write or the summary) found the sweep
 * complete, so the run says so and succeeds; a failed final write says
 * what the file still holds.
 */
static int after_final_write(const dse_ctx *ctx, const dse_checkpointer *cp,
	int ok, int sig, dse_error *err)
{
	if (ctx->rank != 0)
		return 0;
	if (ok && sig)
		fprintf(stderr, "dse: %s arrived while the results were being "
			"written; the write was finished: %s holds the whole "
			"sweep\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
			ctx->out_path);
	if (ok)
		return 0;
	if (cp->written)
		fprintf(stderr, "dse: the results could not be written; %s "
			"keeps the last checkpoint (%llu of %llu points), which "
			"--resume continues\n", ctx->out_path,
			(unsigned long long) cp->evaluated,
			(unsigned long long) cp->total);
	return report_error(ctx, err);
}

/* Rank 0 writes the finished sweep over the last checkpoint and prints
 * the summary, with the stop signals held so that a stop during the
 * write does not lose it.  Returns the exit status.
 */
static int finish(const dse_ctx *ctx, search_result *res, dse_signals *s,
	const dse_checkpointer *cp, dse_error *err)
{
	res_file *out;
	int ok = 1;

	(void) dse_signals_hold(s, NULL);
	if (ctx->rank == 0) {
		out = res_file_create(ctx->out_real, err);
		ok = out && dse_write_results(ctx, out, res, MPI_Wtime() -
			cp->t0, err) == dse_stat_ok;
		if (ok && !ctx->quiet) {
			print_summary(ctx, res);
			print_strategy(ctx, res);
			print_two_stage(ctx, res);
		}
	}
	search_front_free(res->front);
	search_cloud_free(res->cloud);
	fflush(stdout);
	return after_final_write(ctx, cp, ok, dse_signals_restore(s), err);
}

/* Runs the sweep once the context is built, from the checkpoint with
 * "resume".  Returns the exit status.
 */
static int run(dse_ctx *ctx, int resume, int restart, dse_error *err)
{
	struct progress_state ps = { isatty(2), 0, 0, 0 };
	dse_checkpointer cp = { ctx, MPI_Wtime(), 0, 0, 0, 0, 0 };
	search_result res;
	void *state = NULL;
	size_t state_size = 0;
	dse_signals sigs;
	dse_stat st;

	/* The output is checked and locked before the checkpoint is read,
	 * so no other writer can replace it meanwhile.
	 */
	if (dse_output_prepare(ctx, resume, restart, err))
		return report_error(ctx, err);
	if (ctx->rank == 0 && ctx->stale_removed && !ctx->quiet)
		fprintf(stderr, "dse: removed %d temporary file%s that stopped "
			"runs left beside %s\n", ctx->stale_removed,
			ctx->stale_removed > 1 ? "s" : "", ctx->out_path);
	if (resume && dse_resume_load(ctx, &state, &state_size, err))
		return report_error(ctx, err);
	warn_big_space(ctx);
	if (!ctx->quiet) {
		ctx->sopt.progress = print_progress;
		ctx->sopt.progress_user = &ps;
	}
	ctx->sopt.progress_interval = ps.tty ? 0.5 : LOG_INTERVAL;
	ctx->sopt.resume = state;
	ctx->sopt.resume_size = state_size;
	ctx->sopt.checkpoint = dse_checkpoint_write;
	ctx->sopt.checkpoint_user = &cp;
	st = search_with_signals(ctx, &res, &sigs, err);
	free(state);
	ctx->sopt.resume = NULL;
	if (ps.printed && ps.tty)
		fputc('\n', stderr);
	if (st) {
		dse_signals_restore(&sigs);
		return report_error(ctx, err);
	}
	if (res.interrupted)
		return stopped(ctx, &res, &cp, dse_signals_restore(&sigs));
	return finish(ctx, &res, &sigs, &cp, err);
}

/* "dse tune" once the context is built, with the sweep's progress line.
 * Returns the exit status.
 */
static int tune(dse_ctx *ctx, const dse_tune_opts *opts, dse_error *err)
{
	struct progress_state ps = { isatty(2), 0, 0, 0 };

	if (!ctx->quiet && !opts->from) {
		ctx->sopt.progress = print_progress;
		ctx->sopt.progress_user = &ps;
	}
	ctx->sopt.progress_interval = ps.tty ? 0.5 : LOG_INTERVAL;
	if (dse_tune(ctx, opts, err))
		return report_error(ctx, err);
	if (ps.printed && ps.tty)
		fputc('\n', stderr);
	return 0;
}

static int main_mpi(int argc, char **argv, dse_ctx *ctx)
{
	char msg[256];
	struct cli cli;
	dse_error err;
	int bad, any_bad;

	dse_error_clear(&err);
	if (parse_cli(argc, argv, &cli, msg, sizeof(msg))) {
		if (ctx->rank == 0)
			fprintf(stderr, "dse: error: %s\n"
				"Try 'dse %s--help' for more information.\n",
				msg, cli.analyze ? "analyze " : cli.eval ?
				"eval " : cli.simulate ? "simulate " :
				cli.tune ? "tune " : "");
		return 2;
	}
	if (cli.help || cli.version || cli.print_default) {
		if (ctx->rank == 0)
			fputs(cli.help ? (cli.analyze ? analyze_usage :
				cli.eval ? eval_usage : cli.simulate ?
				simulate_usage : cli.tune ? tune_usage :
				usage) :
				cli.version ? "dse " DSE_VERSION "\n" :
				dse_default_config(), stdout);
		return 0;
	}
	ctx->quiet = cli.quiet;
	ctx->cfg = cli.tune && cli.topt.from ?
		dse_tune_config(cli.topt.from, &err) :
		is_c_file(cli.config) || cli.n_defines || cli.n_includes ?
		c_config(&cli, &err) : load_config(ctx, cli.config, &err);
	if (cli.analyze) {
		/* load_config is collective and leaves every rank with the
		 * same verdict; the analysis itself runs on rank 0.
		 */
		if (ctx->cfg && dse_cfg_has(ctx->cfg, "workload", "family")) {
			int line = 0, col = 0;

			dse_cfg_pos(ctx->cfg, "workload", "family", &line, &col);
			dse_error_set_at(&err, dse_cfg_file(ctx->cfg), line, col,
				"family", "'dse analyze' analyses a [kernel]; "
				"this config is a GNN workload");
			return report_error(ctx, &err);
		}
		if (!ctx->cfg || dse_analyze(ctx, &cli.aopt, &err))
			return report_error(ctx, &err);
		return 0;
	}
	bad = !ctx->cfg || dse_ctx_setup(ctx, cli.output, &err);
	/* Every rank builds the same context from the same text, so they
	 * normally agree; but a rank short of memory must not leave the
	 * others waiting in the search's collectives.
	 */
	if (MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, ctx->comm) !=
			MPI_SUCCESS)
		any_bad = 1;
	if (any_bad && !bad)
		dse_error_set(&err, DSE_E_RUNTIME,
			"setting up the sweep failed on another rank");
	if (any_bad)
		return report_error(ctx, &err);
	print_warnings(ctx);
	if (cli.eval && dse_is_workload(ctx)) {
		dse_error_set(&err, DSE_E_INPUT, "'dse eval' takes a kernel's "
			"--sa-sizes; for a workload use 'dse simulate "
			"--mode analytic --design ...'");
		return report_error(ctx, &err);
	}
	if (cli.eval)
		return dse_eval(ctx, &cli.eopt, &err) ?
			report_error(ctx, &err) : 0;
	if (cli.simulate)
		return dse_simulate(ctx, &cli.sopt, &err) ?
			report_error(ctx, &err) : 0;
	if (cli.tune)
		return tune(ctx, &cli.topt, &err);
	return run(ctx, cli.resume, cli.restart, &err);
}

/* The rank a launcher such as mpirun gave this process, 0 without one. */
static int launcher_rank(void)
{
	const char *r = getenv("OMPI_COMM_WORLD_RANK");

	if (!r)
		r = getenv("PMI_RANK");
	return r ? atoi(r) : 0;
}

int main(int argc, char **argv)
{
	dse_ctx ctx;
	dse_error err;
	int started = 0, status;

	res_init();
	/* scalesim is a calculation of one process that needs no MPI; under
	 * mpirun only the first rank runs it, so the answer prints once.
	 */
	if (argc > 1 && !strcmp(argv[1], "scalesim"))
		return launcher_rank() == 0 ?
			dse_scale_main(argc - 1, argv + 1) : 0;
	/* show only reads a file, so it needs no MPI either. */
	if (argc > 1 && !strcmp(argv[1], "show"))
		return launcher_rank() == 0 ?
			dse_show_main(argc - 1, argv + 1) : 0;
	memset(&ctx, 0, sizeof(ctx));
	dse_error_clear(&err);
	if (search_mpi_init(&argc, &argv, &err)) {
		char msg[DSE_ERROR_MSG_LEN + 64];

		dse_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "dse: %s\n", msg);
		if (MPI_Initialized(&started) == MPI_SUCCESS && started)
			MPI_Finalize();
		return dse_error_exit_status(&err);
	}
	ctx.comm = MPI_COMM_WORLD;
	MPI_Comm_rank(ctx.comm, &ctx.rank);
	MPI_Comm_size(ctx.comm, &ctx.size);
	status = main_mpi(argc, argv, &ctx);
	dse_ctx_clear(&ctx);
	fflush(stdout);
	MPI_Finalize();
	return status;
}
