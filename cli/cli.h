/* cli: the dse command line, apart from the application it drives.
 *
 * Every command is one row of the command table (cli/commands.c): its
 * name, the summary the top-level help lists, its full help text, its
 * argument parser, whether it needs MPI, and what runs it.  The
 * top-level --help, each command's --help and docs/reference/cli.md
 * ("dse help --markdown") are all generated from that table, so they
 * cannot drift apart.  Only the commands that search (a sweep, tune)
 * start MPI; the others run on the launcher's first rank alone.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "dse/ctx.h"

struct dse_command;

/* What the command line asked for. */
struct cli {
	const struct dse_command *cmd;	/* never NULL after parsing */
	const char *config;
	const char *output;
	int quiet;
	int help;
	int version;
	int print_default;
	int resume;		/* --resume: continue from the checkpoint */
	int restart;		/* --restart: discard an unfinished one */
	int markdown;		/* "dse help --markdown" */
	const char *help_on;	/* "dse help COMMAND" */
	dse_analyze_opts aopt;
	dse_eval_opts eopt;
	dse_simulate_opts sopt;
	dse_tune_opts topt;
	/* -D and -I, for a C kernel given in place of a config. */
	int n_defines, n_includes;
	const char *define[CFRONT_MAX_DEFINES];
	const char *include[CFRONT_MAX_INCLUDES];
};

/* One command.  "parse" reads argv (argv[0] is the command's name, or
 * "dse" for the sweep) into *cli and returns 0, or 2 with a message in
 * msg.  "run" runs it once the context is built (the config loaded and,
 * for "setup" commands, dse_ctx_setup done) and returns the exit status.
 * Commands that read their own arguments and files (show, scalesim,
 * help) have "main" instead of parse and run.
 */
struct dse_command {
	const char *name;	/* "" for the sweep */
	const char *summary;	/* for the top-level help; "" for none */
	const char *usage;	/* the whole --help text */
	int (*parse)(int argc, char **argv, struct cli *cli, char *msg,
		size_t size);
	int needs_mpi;		/* 1: collective, starts MPI */
	int setup;		/* 1: run needs dse_ctx_setup */
	int (*run)(dse_ctx *ctx, struct cli *cli, dse_error *err);
	int (*main)(int argc, char **argv);
};

/* The table, in the order --help lists it; the sweep first. */
extern const struct dse_command dse_commands[];
extern const int dse_n_commands;

/* The command called "name" ("" or NULL for the sweep); NULL when none. */
const struct dse_command *cli_command_find(const char *name);
/* The command argv names: argv[1] when it is a command's name, else the
 * sweep.
 */
const struct dse_command *cli_command_of(int argc, char **argv);
/* Writes the --help text of "cmd" (the top-level help for the sweep,
 * with the generated list of commands).
 */
void cli_help(FILE *out, const struct dse_command *cmd);
/* Writes the command-line reference, docs/reference/cli.md. */
void cli_reference(FILE *out);

/* The parsers of the table (cli/parse.c). */
int cli_parse_sweep(int argc, char **argv, struct cli *cli, char *msg,
	size_t size);
int cli_parse_analyze(int argc, char **argv, struct cli *cli, char *msg,
	size_t size);
int cli_parse_eval(int argc, char **argv, struct cli *cli, char *msg,
	size_t size);
int cli_parse_simulate(int argc, char **argv, struct cli *cli, char *msg,
	size_t size);
int cli_parse_tune(int argc, char **argv, struct cli *cli, char *msg,
	size_t size);

/* The runners of the table (cli/main.c). */
int cli_run_sweep(dse_ctx *ctx, struct cli *cli, dse_error *err);
int cli_run_analyze(dse_ctx *ctx, struct cli *cli, dse_error *err);
int cli_run_eval(dse_ctx *ctx, struct cli *cli, dse_error *err);
int cli_run_simulate(dse_ctx *ctx, struct cli *cli, dse_error *err);
int cli_run_tune(dse_ctx *ctx, struct cli *cli, dse_error *err);

/* Prints the analysis dse_analyze returned (rank 0's "res"): a warning on
 * stderr when the config's space_time names no candidate, then the report
 * on "out", as tables or, with opts->json, one JSON object.
 */
dse_stat cli_analysis_print(const dse_ctx *ctx, const dse_analysis *res,
	const dse_analyze_opts *opts, FILE *out, dse_error *err);

/* Prints the design dse_eval returned (rank 0's "res") on "out": every
 * metric with its unit, or one JSON object when "json".  An I/O error on
 * "out" is DSE_E_IO.
 */
dse_stat cli_evaluation_print(const dse_ctx *ctx, const dse_evaluation *res,
	int json, FILE *out, dse_error *err);
/* Prints the run dse_simulate returned, as cli_evaluation_print does. */
dse_stat cli_simulation_print(const dse_ctx *ctx, const dse_simulation *res,
	const dse_simulate_opts *opts, FILE *out, dse_error *err);

/* Writes the design dse_tune found (rank 0's "best") in its form to the
 * file best->output names, atomically (a temporary file renamed at the
 * end), or to standard output; for a Tensil .tarch of an ONNX workload,
 * the Tensil compiler's command on standard error unless quiet.  Not
 * collective.
 */
dse_stat cli_tune_emit(const dse_ctx *ctx, const dse_tune_opts *opts,
	const dse_tuned *best, dse_error *err);

/* What the reports of eval and simulate share (cli/eval.c): the five
 * resource lines (DSP, BRAM18K, URAM, LUT, FF) with their shares of the
 * board; a legal design's status line ("legal", or "over the board: " and
 * the resources over it); what bounds it ("bound by  io A (busy 84.0% of
 * the cycles)", nothing where the model does not say).  As JSON members:
 * "status" ("ok", "over_board" or the illegal status's text),
 * "status_code" and, for a legal design, "over_board" (the resources over
 * the board, [] when it fits); "bound_by", "bound_array", "bound_share";
 * "board_fraction", the board's share of each resource; the five
 * resources themselves ("dsp" to "ff").
 */
struct cli_json;
void cli_resource_lines(FILE *out, const dse_ctx *ctx, const sim_metrics *m);
void cli_print_fit(FILE *out, const dse_ctx *ctx, const sim_metrics *m);
void cli_print_bound(FILE *out, const poly_template *t,
	const sim_metrics *m);
void cli_json_design_status(struct cli_json *j, const dse_ctx *ctx,
	const sim_metrics *m);
void cli_json_design_bound(struct cli_json *j, const poly_template *t,
	const sim_metrics *m);
void cli_json_board(struct cli_json *j, const dse_ctx *ctx,
	const sim_metrics *m);
void cli_json_resources(struct cli_json *j, const sim_metrics *m);

/* "dse scalesim ..." and "dse show ...": argv[0] is the command's name.
 * Return the exit status.
 */
int dse_scale_main(int argc, char **argv);
int dse_show_main(int argc, char **argv);
extern const char dse_scale_usage[];
extern const char dse_show_usage[];

#endif
