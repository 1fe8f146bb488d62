/* The argument parsers of the commands: options in, struct cli out, a
 * message and status 2 for anything they cannot take.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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
int cli_parse_analyze(int argc, char **argv, struct cli *cli, char *msg,
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
int cli_parse_eval(int argc, char **argv, struct cli *cli, char *msg,
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
	long long v = 0;
	int rc = 0;

	switch (c) {
	case 'm':
		cli->sopt.mode = sim_model_kind_find(optarg);
		if (cli->sopt.mode < 0) {
			snprintf(msg, size, "--mode takes full, sampled or "
				"analytic, got '%s'", optarg);
			return 2;
		}
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
int cli_parse_tune(int argc, char **argv, struct cli *cli, char *msg,
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
				char names[128];

				dse_emit_names(names, sizeof(names));
				snprintf(msg, size, "--emit must be one of %s, "
					"not '%s'", names, optarg);
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
int cli_parse_simulate(int argc, char **argv, struct cli *cli, char *msg,
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

/* Parses the arguments of a sweep (argv[0] is "dse"); returns 0, or 2
 * with a message.
 */
int cli_parse_sweep(int argc, char **argv, struct cli *cli, char *msg,
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
