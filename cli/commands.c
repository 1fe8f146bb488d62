/* The command table: every command of dse with its help text, parser,
 * need of MPI and runner, and the help and reference generated from it.
 */
#include <string.h>

#include "cli/cli.h"

/* The help of the sweep: the synopsis of every command, the options of a
 * sweep; the list of commands is generated from the table and
 * sweep_trailer follows it.
 */
static const char sweep_usage[] =
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
"\n";

static const char sweep_trailer[] =
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
"                [-o FILE|DIR] [--from results.h5] [sweep.cfg]\n"
"\n"
"The auto-tuner: finds the single best design of the sweep for one\n"
"objective under the config's constraints and emits it in the form the\n"
"next tool takes. Without --from it runs the search with that objective\n"
"alone (on every rank and thread, two-stage when the config says so);\n"
"with --from it picks from the front of a finished results file (whose\n"
"own config is used, so no config is given) and re-evaluates the design.\n"
"\n"
"Forms:\n"
"  autosa  (systolic sweeps; the default there) the kernel's C file in\n"
"          the loop order the design's --sa-sizes assumes, AutoSA's\n"
"          --simd-info file and the full AutoSA command line: with -o, in\n"
"          that folder (KERNEL.c, simd_info.json, autosa.sh), else a\n"
"          shell snippet that writes the files and runs AutoSA\n"
"  tensil  (overlay-systolic workloads; the default there) the .tarch\n"
"          architecture file\n"
"  json    (any sweep; the default for GNN workloads) the knobs and every\n"
"          metric of the design\n"
"\n"
"Options:\n"
"      --objective M   latency, energy, edp, dsp, ... (default: the\n"
"                      config's first objective)\n"
"      --emit FORM     autosa, tensil or json (dse help --families\n"
"                      says which family writes which form)\n"
"  -o, --output FILE   write the design to FILE instead of stdout (a\n"
"                      folder for --emit autosa)\n"
"      --from FILE     pick from this results file instead of searching\n"
"  -q, --quiet         no progress line\n"
"  -h, --help          show this help and exit\n"
"\n"
"Exit status: 0 success, 1 no design meets the constraints or runtime\n"
"failure, 2 bad input (command line, config, results file).\n";

static const char help_usage[] =
"Usage: dse help [COMMAND]\n"
"       dse help --markdown\n"
"       dse help --families\n"
"\n"
"Prints the help of dse (dse --help) or of one command (dse COMMAND\n"
"--help). With --markdown, prints the command-line reference, every\n"
"command's help as docs/reference/cli.md holds it. With --families,\n"
"prints the workload families a [workload] section can name, each with\n"
"its knobs, their units and what they set, as\n"
"docs/reference/families.md holds them.\n"
"\n"
"Options:\n"
"      --markdown      print the command-line reference in Markdown\n"
"      --families      print the workload families and their knobs\n"
"  -h, --help          show this help and exit\n"
"\n"
"Exit status: 0 success, 2 an unknown command or option.\n";

static int help_main(int argc, char **argv);

/* Summaries are wrapped to the help's width; the lines after the first
 * are indented under it.
 */
const struct dse_command dse_commands[] = {
	{ "", "", sweep_usage, cli_parse_sweep, 1, 1, cli_run_sweep, NULL },
	{ "analyze", "print the kernel's dependences, space-time candidates\n"
		"and I/O groups without sweeping (dse analyze --help)",
		analyze_usage, cli_parse_analyze, 0, 0, cli_run_analyze,
		NULL },
	{ "eval", "evaluate one design given as AutoSA's --sa-sizes\n"
		"string and print every metric (dse eval --help)",
		eval_usage, cli_parse_eval, 0, 1, cli_run_eval, NULL },
	{ "simulate", "run one design through the full or sampled cycle\n"
		"simulation: cycles, stalls per module, utilisation\n"
		"(dse simulate --help)",
		simulate_usage, cli_parse_simulate, 0, 1, cli_run_simulate,
		NULL },
	{ "tune", "pick the best design for one objective and emit it\n"
		"for AutoSA, Tensil or as JSON (dse tune --help)",
		tune_usage, cli_parse_tune, 1, 1, cli_run_tune, NULL },
	{ "show", "print a results file's front or cloud as a table or\n"
		"CSV, sorted by any column (dse show --help)",
		dse_show_usage, NULL, 0, 0, NULL, dse_show_main },
	{ "scalesim", "SCALE-Sim's config and topology files, or one layer,\n"
		"on an os/ws/is systolic array (dse scalesim --help)",
		dse_scale_usage, NULL, 0, 0, NULL, dse_scale_main },
	{ "help", "this help, a command's help, or the command-line\n"
		"reference in Markdown (dse help --markdown)",
		help_usage, NULL, 0, 0, NULL, help_main },
};
const int dse_n_commands = (int) (sizeof(dse_commands) /
	sizeof(dse_commands[0]));

const struct dse_command *cli_command_find(const char *name)
{
	int i;

	for (i = 0; i < dse_n_commands; i++)
		if (!strcmp(dse_commands[i].name, name ? name : ""))
			return &dse_commands[i];
	return NULL;
}

/* A command's name comes first; "./analyze" names a config file. */
const struct dse_command *cli_command_of(int argc, char **argv)
{
	const struct dse_command *c = argc > 1 && argv[1][0] ?
		cli_command_find(argv[1]) : NULL;

	return c ? c : &dse_commands[0];
}

/* The list of commands in the top-level help: the name in a column of
 * 22, each summary line under the first.
 */
static void command_list(FILE *out)
{
	int i;

	fputs("Commands:\n", out);
	for (i = 1; i < dse_n_commands; i++) {
		const char *s = dse_commands[i].summary;

		fprintf(out, "  %-20s", dse_commands[i].name);
		while (*s) {
			size_t n = strcspn(s, "\n");

			fprintf(out, "%.*s\n", (int) n, s);
			s += n + (s[n] == '\n');
			if (*s)
				fprintf(out, "%22s", "");
		}
	}
	fputc('\n', out);
}

void cli_help(FILE *out, const struct dse_command *cmd)
{
	fputs(cmd->usage, out);
	if (cmd == &dse_commands[0]) {
		command_list(out);
		fputs(sweep_trailer, out);
	}
}

void cli_reference(FILE *out)
{
	int i;

	fputs("# Command-line reference\n"
		"\n"
		"Each section below is the command's own `--help`. What the "
		"commands print\n"
		"is in [command-output.md](command-output.md), exit statuses "
		"in\n"
		"[exit-status.md](exit-status.md), the config file in "
		"[config.md](config.md).\n"
		"This page is generated by `dse help --markdown` from the "
		"command table\n"
		"(`cli/commands.c`); the test `docs.cli_reference` "
		"fails when they\n"
		"differ.\n", out);
	for (i = 0; i < dse_n_commands; i++) {
		fprintf(out, "\n## dse%s%s\n\n```\n", dse_commands[i].name[0] ?
			" " : "", dse_commands[i].name);
		cli_help(out, &dse_commands[i]);
		fputs("```\n", out);
	}
}

/* The workload families' reference, from their tables, in Markdown. */
static void family_reference(FILE *out)
{
	int i, k, n;
	const dse_family *t = dse_families(NULL, &n);

	fputs("# Workload families\n"
		"\n"
		"The accelerator families a `[workload]` section names "
		"(`family = NAME`;\n"
		"[config.md](config.md#workload) says what each reads). Each "
		"knob is a\n"
		"`[space]` key taking a set of integers (left out, it takes "
		"the family's\n"
		"default) and a column of the results file in the unit "
		"shown.\n"
		"This page is generated by `dse help --families` from the "
		"families' own\n"
		"tables (`core/family.h`); the test `docs.families_reference` "
		"fails when\n"
		"they differ.\n", out);
	for (i = 0; i < n; i++) {
		const family_ops *o = t[i].ops;

		fprintf(out, "\n## %s\n\n%s.\n\n| knob | unit | what it "
			"sets |\n| --- | --- | --- |\n", o->name,
			o->summary);
		for (k = 0; k < o->n_knobs; k++)
			fprintf(out, "| `%s` | %s | %s |\n", o->knobs[k].name,
				o->knobs[k].unit, o->knobs[k].help);
		if (o->emit_name)
			fprintf(out, "\n`dse tune` writes its design file "
				"(`--emit %s`, the default for this "
				"family).\n", o->emit_name);
	}
}

/* "dse help [COMMAND]", "dse help --markdown", "dse help --families". */
static int help_main(int argc, char **argv)
{
	const struct dse_command *cmd = &dse_commands[0];
	int i, markdown = 0, families = 0;

	for (i = 1; i < argc; i++) {
		const struct dse_command *c = cli_command_find(argv[i]);

		if (!strcmp(argv[i], "--markdown")) {
			markdown = 1;
		} else if (!strcmp(argv[i], "--families")) {
			families = 1;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			cmd = cli_command_find("help");
		} else if (c && argv[i][0]) {
			cmd = c;
		} else {
			fprintf(stderr, "dse: error: '%s' is no command or "
				"option of 'dse help'\nTry 'dse help --help' "
				"for more information.\n", argv[i]);
			return 2;
		}
	}
	if (families)
		family_reference(stdout);
	else if (markdown)
		cli_reference(stdout);
	else
		cli_help(stdout, cmd);
	return 0;
}
