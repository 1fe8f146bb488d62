/* The run context: everything a sweep needs, built from the config.
 * Private to dse/.
 */
#ifndef DSE_CTX_H
#define DSE_CTX_H

#include <mpi.h>
#include <signal.h>
#include <stdio.h>

#include "arch/arch.h"
#include "cfront/cfront.h"
#include "cfg.h"
#include "core/family.h"
#include "gnn/graph.h"
#include "gnn/share.h"
#include "polyhedral/poly.h"
#include "results/res.h"
#include "search/search.h"
#include "sim/sim.h"

#define DSE_PATH_LEN 4096

/* What the config's warnings may hold in all (see dse_ctx.warnings). */
#define DSE_WARNINGS_LEN 2048

/* One bound every design of a sweep must meet: a constraint of the config,
 * or the board's own capacity of a resource the config leaves unbounded
 * (board fit).  ctx->bound[i] names ctx->sopt.constraints[i] for the
 * messages that speak of it.
 */
typedef struct dse_bound {
	int metric;		/* enum sim_metric */
	int board;		/* 1: the board's capacity, not in the config */
	int line, col;		/* where the config wrote it; 0 for the board's */
	char text[80];		/* "dsp <= 0.75", "lut <= 100% of the board" */
} dse_bound;
/* A file the sweep reads (inputs.c). */
typedef struct dse_input {
	char section[32];	/* where the config names it ("workload");
				 * "" for the config itself and other
				 * files outside the sweep's identity */
	char key[DSE_ERROR_KEY_LEN];	/* its key, or what it is ("config") */
	char path[DSE_PATH_LEN];
	uint64_t bytes;		/* its size */
	uint64_t hash;		/* FNV-1a of its contents (rank 0, files
				 * with a section only) */
	uint64_t dev, ino;	/* which file it is */
} dse_input;

/* What the application has to say while it works (how a long step went,
 * a checkpoint that could not be written): the command line prints it,
 * the application never does.  A progress note is for a user watching
 * (dropped under --quiet); a warning always reaches them.  "msg" is one
 * line without the program's name or a newline.
 */
enum dse_note_kind { DSE_NOTE_PROGRESS, DSE_NOTE_WARNING };
typedef void dse_note_fn(void *user, enum dse_note_kind kind,
	const char *msg);

/* One space-time candidate of a sweep over several ([space] space_time =
 * all, or a list): its template and model, and its name as dse analyze
 * gives its space loops ("[o,r]").
 */
typedef struct dse_cand {
	poly_template tmpl;
	sim_model *model;	/* owned */
	char name[POLY_MAX_SPACE * (POLY_NAME_LEN + 1) + 2];
} dse_cand;

/* A workload family a run knows: its operations and its constructor
 * from the [workload] section, which sets ctx->fam_obj (ctx->fam and
 * ctx->dtype already set) and ctx->tmpl.kernel ("name", the config's, or
 * the workload's own), records every input file it reads, and gives its
 * errors the config position and key.
 */
struct dse_ctx;
typedef struct dse_family {
	const family_ops *ops;
	dse_stat (*setup)(struct dse_ctx *ctx, const char *name,
		dse_error *err);
	/* The [workload] keys the constructor reads beyond those the
	 * config's schema lists (NULL-terminated; NULL: none).
	 */
	const char *const *keys;
} dse_family;

typedef struct dse_ctx {
	dse_cfg *cfg;		/* owned */
	arch_board board;	/* the named board with the config's overrides */
	const arch_dtype *dtype;
	poly_analysis *analysis;	/* owned */
	/* The data type a C kernel's arrays declare ("fp32", ...); "" for
	 * an isl kernel.
	 */
	char kernel_dtype[8];
	poly_template tmpl;
	sim_options sim_opt;	/* the options ctx->model was built with */
	sim_model *model;	/* owned; NULL for a GNN workload */
	gnn_graph *graph;	/* owned; a GNN workload's graph */
	gnn_share *share;	/* owned; the node's one copy of graph and
				 * partitions, or NULL (one process) */
	/* A workload's family (NULL for a systolic sweep) and the object
	 * it evaluates points with (owned, freed by fam->free).
	 */
	const family_ops *fam;
	void *fam_obj;
	/* The families the config may name: NULL for those dse knows
	 * (dse_families); a test gives its own.
	 */
	const struct dse_family *families;
	int n_families;
	search_space *space;	/* owned */
	/* A sweep over several candidates: n_cands of them (0 for a sweep
	 * of one), ctx->space made of one part per candidate (knob 0
	 * "space_time" holds the candidate's number), and ctx->tmpl and
	 * ctx->model those of the first candidate (the model borrowed).
	 */
	int n_cands;
	dse_cand *cands;	/* owned */
	search_options sopt;
	dse_bound bound[SEARCH_MAX_CONSTRAINTS];	/* of sopt.constraints */
	/* Warnings found while building the context, one a line, each
	 * "FILE:LINE:COL: warning: ..."; rank 0 prints them.
	 */
	char warnings[DSE_WARNINGS_LEN];
	int64_t seed;
	char out_path[DSE_PATH_LEN];	/* as the user gave it */
	char out_real[DSE_PATH_LEN];	/* the file written (links followed) */
	int out_given;		/* out_path came from -o (1) */
	int out_from_cfg;	/* out_path came from [output] file (1) */
	res_lock *lock;		/* owned; rank 0's, while it writes */
	int stale_removed;	/* dead writers' temporary files removed */
	dse_input *inputs;	/* owned; the files read, config first */
	int n_inputs;
	int cap_inputs;
	int mpi;		/* 1: MPI runs and comm holds the ranks;
				 * 0: one process without MPI (commands
				 * that do not search) */
	MPI_Comm comm;
	int rank;
	int size;
	int quiet;
	dse_note_fn *note;	/* NULL: notes are dropped */
	void *note_user;
} dse_ctx;

/* Formats a note and hands it to ctx->note, on rank 0 only (every rank
 * would say the same).  Not collective.
 */
void dse_note(const dse_ctx *ctx, enum dse_note_kind kind, const char *fmt,
	...) __attribute__((format(printf, 3, 4)));

/* Builds ctx's board, template, model, space and search options from
 * ctx->cfg.  Every input error carries the config position and key.
 * "out_override" (the -o option) wins over [output] file when not NULL.
 * Not collective: every rank builds the same context from the same text.
 */
dse_stat dse_ctx_setup(dse_ctx *ctx, const char *out_override,
	dse_error *err);

/* The constraints of [search] constraints, in ctx->sopt and ctx->bound,
 * and board fit: every resource the board has that the config does not
 * bound gets the bound "at most 100% of the board".  A bound above the
 * board is taken only as a percentage ("lut <= 120%"), the one way to
 * relax board fit.  Errors carry the config position (bounds.c).
 */
dse_stat dse_setup_constraints(dse_ctx *ctx, dse_error *err);

/* [platform] mhz and dram_gbps, overrides of the built-in board "b", into
 * ctx->board, each checked against what the board can do: the clock
 * against the fastest its part runs (arch_board_max_mhz), the bandwidth
 * against the board's own memory.  Errors carry the config position.
 */
dse_stat dse_setup_board_rates(dse_ctx *ctx, const arch_board *b,
	dse_error *err);

/* The most of resource "m" a design may use and still fit: the board's
 * capacity, or what a percentage above 100% in the config allows.
 */
double dse_fit_limit(const dse_ctx *ctx, enum sim_metric m);

/* The resources of "m" over their fit limit, as text into buf ("LUT
 * 776540 (283.3% of 274080), FF 1148420 (209.5% of 548160)"); returns
 * their number (0: the design fits; buf is then "").
 */
int dse_over_board(const dse_ctx *ctx, const sim_metrics *m, char *buf,
	size_t size);

/* Why a front came out empty: over points spread evenly over ctx's space
 * (every point of a small one, at most 100,000, for about "seconds"),
 * the legal ones in *legal and, for each bound i of ctx->sopt, how many
 * of them break it in broken[i] (SEARCH_MAX_CONSTRAINTS entries).  Not
 * collective.
 */
void dse_bound_blame(const dse_ctx *ctx, double seconds, uint64_t *legal,
	uint64_t *broken);

/* Fills "desc" from the [kernel] section of ctx->cfg.  The strings stay
 * owned by the config, or by *c for a kernel read from C (source = ...),
 * which the caller frees with cfront_free once the analysis is done; *c
 * is NULL for an isl kernel.  Errors carry the config position and key,
 * or the C file's line and column.
 */
dse_stat dse_ctx_kernel_desc(const dse_ctx *ctx, poly_kernel_desc *desc,
	cfront_kernel **c, dse_error *err);

/* The C part of dse_ctx_kernel_desc (kernel_c.c): reads [kernel] source
 * with its defines, include folders, scop and variable values.
 */
dse_stat dse_c_kernel(const dse_ctx *ctx, poly_kernel_desc *desc,
	cfront_kernel **c, dse_error *err);

/* The config that "dse kernel.c" and "dse analyze kernel.c" run: a
 * [kernel] section reading "path" with the -D and -I values.  Returns
 * malloc'd text, or NULL when out of memory.
 */
char *dse_c_config(const char *path, const char *const *defines,
	int n_defines, const char *const *includes, int n_includes);

/* The path of a file the config names: as given when absolute, else
 * relative to the config file's folder.
 */
void dse_config_path(const dse_ctx *ctx, const char *name, char *path,
	size_t size);

/* Records an input error at the value of "key" in "section" of ctx's
 * config (its section when absent), "offset" characters into the value
 * (negative or 0: at its start).  Returns dse_stat_error.
 */
dse_stat dse_ctx_error(const dse_ctx *ctx, const char *section,
	const char *key, int offset, dse_error *err, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* The families ctx's config may name ("n" of them): ctx->families, or
 * those dse knows when ctx is NULL or gives none.
 */
const dse_family *dse_families(const dse_ctx *ctx, int *n);
/* Whether "name" is a knob of any family ctx may name. */
int dse_family_knob_known(const dse_ctx *ctx, const char *name);

/* Builds a workload's family and space from the [workload] and [space]
 * sections (ctx->board set); ctx->tmpl.kernel gets the workload's name.
 * Errors carry the config position and key.
 */
dse_stat dse_workload_setup(dse_ctx *ctx, dse_error *err);

/* What the search evaluates ctx's points with: the workload's family or
 * the systolic model.
 */
search_evaluator dse_evaluator(const dse_ctx *ctx);

/* A workload's family name ("systolic" for a sweep of a kernel);
 * dse_is_workload says whether ctx has one.
 */
int dse_is_workload(const dse_ctx *ctx);
const char *dse_workload_family(const dse_ctx *ctx);
int dse_workload_n_knobs(const dse_ctx *ctx);
const char *dse_workload_knob_name(const dse_ctx *ctx, int knob);
/* The facts of a workload's family (family_ops' facts), at most "max";
 * returns how many (0 without a workload).
 */
#define DSE_MAX_FACTS 8
int dse_workload_facts(const dse_ctx *ctx, family_fact *out, int max);
/* A knob's unit as the family's table gives it ("" for none). */
const char *dse_workload_knob_unit(const dse_ctx *ctx, int knob);
int64_t dse_workload_knob_default(const dse_ctx *ctx, int knob);
int dse_workload_knob_find(const dse_ctx *ctx, const char *name);
dse_stat dse_workload_simulate(const dse_ctx *ctx, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err);
/* Why a workload's design point is illegal, when the family can say more
 * than its status (an overlay names the layer that does not fit and the
 * memory it lacks); "" otherwise.
 */
void dse_workload_why(const dse_ctx *ctx, const int32_t *knobs, char *buf,
	size_t size);
/* Builds what a GNN family needs for one design whose knob values the
 * sweep's [space] did not name (partitions and plans of its n_pe,
 * feat_rows and feat_cols), so that `dse simulate --design` takes any
 * design.  Changes the family behind the const context: call it on one
 * rank, before any evaluation, as dse simulate does.
 */
dse_stat dse_workload_prepare_design(const dse_ctx *ctx,
	const int32_t *knobs, dse_error *err);

/* The candidate of a systolic design point of ctx's space: its template
 * and model, and its knobs as that model takes them in "local"
 * (SEARCH_MAX_KNOBS).  A sweep of one candidate gives ctx's own; -1 when
 * the point names no candidate of the sweep (or ctx has no kernel).
 */
int dse_point_design(const dse_ctx *ctx, const int32_t *knobs,
	const poly_template **tmpl, const sim_model **model, int32_t *local);

/* The whole space of a sweep over several candidates (candidates.c) from
 * one space per candidate (taken): knob 0 "space_time", then the union of
 * the candidates' knobs, by kind and then by loop in the kernel's order.
 */
search_space *dse_cands_space(const dse_ctx *ctx, search_space **parts,
	dse_error *err);
/* The evaluator of a sweep over several candidates: each candidate's own
 * model for its part, and points of the whole dispatched by knob 0.
 */
search_evaluator dse_cands_evaluator(const dse_ctx *ctx);
/* The name of ctx's kernel's space-time candidate "space_time" (its
 * space loops, "[i,j]"), in buf; "" when the kernel has no such
 * candidate (a GNN or overlay workload has none).  Returns buf.
 */
const char *dse_space_time_name(const dse_ctx *ctx, int space_time,
	char *buf, size_t size);

/* The candidate of number "space_time" among ctx->cands; NULL if none. */
const dse_cand *dse_cand_find(const dse_ctx *ctx, int space_time);

/* A design point as text: the AutoSA --sa-sizes string of a systolic
 * point, the family's description ("knob=value ...") of a workload's.
 */
void dse_design_text(const dse_ctx *ctx, const int32_t *knobs, char *buf,
	int size);

/* A systolic design as AutoSA reads it (sa_write.c): the --sa-sizes
 * string of "knobs" of model "m" built on template "t" (array_part,
 * array_part_L2 in array_part tiles, latency in the template's loop
 * order, which is AutoSA's; one simd factor per loop AutoSA's SIMD pass
 * takes as a candidate), and the --simd-info file for it.  The text is
 * cut (and still terminated) when buf is too small.
 */
void dse_sa_write(const poly_template *t, const sim_model *m,
	const int32_t *knobs, char *buf, size_t size);
void dse_sa_simd_info(const poly_template *t, const sim_model *m,
	const int32_t *knobs, char *buf, size_t size);
/* The loops (template indices) AutoSA's SIMD pass takes as candidates
 * for the design "knobs", in the order its simd list gives their
 * factors, with the space loops among them when "touch_space" (AutoSA's
 * --simd-touch-space); legal[i] is 0 where AutoSA would need a layout
 * change and skips the loop.  Returns their number (at most
 * POLY_MAX_LOOPS).
 */
int dse_sa_simd_loops(const poly_template *t, const sim_model *m,
	const int32_t *knobs, int touch_space, int *loops, int *legal);
/* Registers a file the config names at "key" of "section" before it is
 * read: anything but a regular file is an input error at the key; rank 0
 * records its size and a hash of its contents, which a checkpoint keeps.
 * With "section" NULL, "key" only says what the file is ("config") and
 * the file stays out of the checkpoint's identity (the config's text is
 * compared whole).  A file that cannot be opened is left to its reader to
 * report.  Not collective.
 */
dse_stat dse_input_add(dse_ctx *ctx, const char *section, const char *key,
	const char *path, dse_error *err);

/* The inputs with a key as the text of the "input_files" attribute, one
 * line each ("key<TAB>bytes<TAB>hash<TAB>path"); a new string the caller
 * frees, NULL when out of memory.
 */
char *dse_inputs_text(const dse_ctx *ctx);

/* Checks ctx's inputs against a checkpoint's "input_files" text "stored"
 * (of the results file "file"): an input whose size or contents differ, or
 * that the checkpoint does not record, is an input error at its key.
 */
dse_stat dse_inputs_check(const dse_ctx *ctx, const char *stored,
	const char *file, dse_error *err);

/* The input that is the same file as "path" (the same device and inode,
 * whatever name reached it), NULL when none is or "path" does not exist.
 */
const dse_input *dse_input_same_file(const dse_ctx *ctx, const char *path);

void dse_inputs_clear(dse_ctx *ctx);

/* Before a sweep's search (output.c): resolves the results file (links
 * followed), refuses a name that is an input or that holds anything but a
 * regular file, takes the one-writer lock and removes the temporary files
 * of dead writers, checks that the file can be created, and refuses to
 * replace a file that is not a dse results file, or, unless "restart", an
 * unfinished checkpoint of this same config (which --resume continues).
 * Every error is an input error (status 2) but an unwritable folder (1).
 * Rank 0 decides; every rank gets the same verdict.  Collective.
 */
dse_stat dse_output_prepare(dse_ctx *ctx, int resume, int restart,
	dse_error *err);

/* The checks of dse_output_prepare that any output file takes ("dse tune
 * -o" too): resolves "path" into "real" and refuses an input file.  "what"
 * names the option or key in messages.  Not collective.
 */
dse_stat dse_output_check(const dse_ctx *ctx, const char *path,
	const char *what, char *real, size_t size, dse_error *err);

/* Frees what ctx owns (not ctx itself). */
void dse_ctx_clear(dse_ctx *ctx);

/* Writes root's search result into "f" (made by res_file_create; the
 * command checks before the search that it can be, so an unwritable path
 * fails before hours of work) with "complete" 1 and commits it under its
 * final name, replacing the last checkpoint.  Takes "f" in all cases.
 * Rank 0 only.
 */
dse_stat dse_write_results(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err);

/* Writes the attributes, the front and the analysis tables of "res"
 * into "f" without committing it (dse_write_results and the checkpoint
 * writer add what tells them apart).  Rank 0 only.
 */
dse_stat dse_write_contents(const dse_ctx *ctx, res_file *f,
	const search_result *res, double wall_s, dse_error *err);

/* When an exhaustive sweep of ctx's space looks too big to finish in an
 * hour on "ranks" x "threads" cores (at a nominal 20 M points/s per core)
 * or has more than 10^12 points: writes a warning naming the point count
 * and the estimate and suggesting a heuristic strategy into "buf" and
 * returns 1; 0 otherwise.  Not collective.
 */
int dse_space_warning(const dse_ctx *ctx, int ranks, int threads,
	char *buf, size_t size);

/* Checkpoints (checkpoint.c).  The writer is a search_checkpoint_fn with
 * a dse_checkpointer as its user data: on rank 0 it writes the results
 * file at its final name, atomically, with "complete" 0, the front so
 * far and the search state as the byte dataset /checkpoint/state.  The
 * search calls it on root only; it is not collective.  A checkpoint that
 * cannot be written (a full disk, an I/O error) is reported on stderr
 * and counted, and the search goes on: the next interval tries again, and
 * the file keeps the last checkpoint that was written.
 */
typedef struct dse_checkpointer {
	const dse_ctx *ctx;
	double t0;		/* MPI_Wtime() when the run started */
	int written;		/* checkpoints written so far */
	int failed;		/* checkpoints that could not be written */
	int failing;		/* of them, since the last one written */
	uint64_t evaluated;	/* the last checkpoint's figures */
	uint64_t total;
} dse_checkpointer;
dse_stat dse_checkpoint_write(const search_checkpoint *cp, void *user,
	dse_error *err);

/* "--resume": rank 0 reads the checkpoint in ctx->out_path, refuses a
 * missing or finished file, one of another config (naming the first line
 * that differs) and a corrupt one (search_state_check), and broadcasts
 * the state; every rank gets the same bytes in *state (freed by the
 * caller with free()).  Collective: every rank returns the same status;
 * only rank 0's err carries the real message.
 */
dse_stat dse_resume_load(const dse_ctx *ctx, void **state, size_t *size,
	dse_error *err);

/* The command line that continues a stopped sweep of ctx
 * ("dse --resume [-o FILE] CFG").  Not collective.
 */
void dse_resume_command(const dse_ctx *ctx, char *buf, size_t size);

/* SIGINT and SIGTERM while a search runs: the first sets the flag
 * "stop" points at (the signal's number), so the search stops at its
 * next synchronisation and writes a checkpoint; the handlers reset
 * themselves, so a second signal ends the process at once.  A signal the
 * process was started ignoring stays ignored.  Per process, not
 * collective; install before the search, restore after it.
 */
typedef struct dse_signals {
	const volatile sig_atomic_t *stop;
	struct sigaction old_int;
	struct sigaction old_term;
	int installed;
} dse_signals;
dse_stat dse_signals_install(dse_signals *s, dse_error *err);
/* From now on a stop signal only records itself (the handlers no longer
 * reset themselves), so that the final write, once started, finishes
 * whatever arrives; dse_signals_restore then says what was caught.
 */
dse_stat dse_signals_hold(dse_signals *s, dse_error *err);
/* Puts the previous handlers back; returns the signal caught, or 0. */
int dse_signals_restore(dse_signals *s);

/* Options of "dse analyze". */
typedef struct dse_analyze_opts {
	int json;		/* one JSON object instead of tables */
	int space_time;		/* show this candidate alone; -1: all */
} dse_analyze_opts;

/* What "dse analyze" found, for the command line to print. */
typedef struct dse_analysis {
	poly_analysis *a;	/* owned; NULL on ranks other than 0 */
	double read_seconds;	/* reading a C kernel took; 0: isl kernel */
	int chosen;		/* the candidate a sweep of the config takes;
				 * -1: [space] space_time names none */
	long long bad_choice;	/* with chosen -1: that space_time, */
	int bad_line, bad_col;	/* and where the config says it */
} dse_analysis;

/* "dse analyze": builds the kernel description from ctx->cfg and analyses
 * it into *res (which the caller clears with dse_analysis_clear).  A
 * --space-time (opts->space_time) the kernel does not have is an input
 * error.  Never prints.  Collective when ctx->mpi: rank 0 works, the
 * others receive the outcome, so every rank returns the same status; only
 * rank 0's err carries the real message and only its res the analysis.
 */
dse_stat dse_analyze(const dse_ctx *ctx, const dse_analyze_opts *opts,
	dse_analysis *res, dse_error *err);
void dse_analysis_clear(dse_analysis *res);

/* The names of loops idx[0..n) joined by "sep", or "-" for none. */
void dse_loop_list(const poly_analysis *a, const int *idx, int n,
	const char *sep, char *buf, size_t size);
/* Names shared by the analysis report and the results file: loops idx[]
 * joined by commas ("i,j"; "" for none), a group's I/O direction ("(1,0)",
 * or "?" when a distance is unknown), "exterior"/"interior", "L1".."L3".
 */
void dse_loop_names(const poly_analysis *a, const int *idx, int n,
	char *buf, size_t size);
void dse_group_direction(const poly_candidate *c, const poly_group *g,
	char *buf, size_t size);
const char *dse_io_type_name(int type);
const char *dse_io_level_name(int level);

/* Options of "dse eval". */
typedef struct dse_eval_opts {
	const char *sa_sizes;	/* AutoSA's --sa-sizes string */
	int io_network;		/* enum sim_io_network; -1: not given */
	int double_buffer;	/* 0 or 1; -1: not given */
	int json;		/* one JSON object instead of a table */
	int breakdown;		/* every module, buffer and FIFO too */
} dse_eval_opts;

/* A design named by an AutoSA --sa-sizes string: the template of its
 * space-time candidate, a model built for it, its knobs and the string as
 * the model writes it back.
 */
typedef struct dse_design {
	poly_template tmpl;
	sim_model *model;	/* owned; dse_design_clear frees it */
	int32_t knobs[SIM_MAX_KNOBS];
	char sa[512];
	char note[256];		/* what of the string the models leave out */
	int io_network;		/* the values the loop-less knobs took */
	int double_buffer;
} dse_design;

/* Builds the design "sa_sizes" names (any space-time candidate of ctx's
 * kernel) with ctx's board, data type and model options, as "dse eval"
 * does.  io_network and double_buffer are the command line's values (-1:
 * not given: the config's single value, else daisy and on).  A malformed
 * string or a list of the wrong length is an input error.  Not
 * collective.  The caller clears "d" whatever the outcome.
 */
dse_stat dse_design_build(const dse_ctx *ctx, const char *sa_sizes,
	int io_network, int double_buffer, dse_design *d, dse_error *err);
void dse_design_clear(dse_design *d);

/* What "dse eval" evaluated, for the command line to print. */
typedef struct dse_evaluation {
	dse_design d;
	sim_metrics m;
	int n_parts;		/* -1: no breakdown asked for */
	sim_part parts[SIM_MAX_PARTS];
} dse_evaluation;

/* "dse eval": evaluates the design opts->sa_sizes names (any space-time
 * candidate of the kernel) with ctx's board, data type and model options
 * (with opts->breakdown, every module, buffer and FIFO too) into *res,
 * which the caller frees with dse_evaluation_free.  The io_network and
 * double_buffer knobs take the options' values, else the config's single
 * value, else daisy and on.  A malformed string or a list of the wrong
 * length is an input error and leaves *res NULL; an illegal design, or
 * one over the board, sets *res (to be shown) and returns a runtime error
 * naming the rule it breaks.  Never prints.  Needs ctx set up by
 * dse_ctx_setup.  Collective: rank 0 works, every rank returns the same
 * status; only rank 0's err and *res carry the real outcome.
 */
dse_stat dse_eval(const dse_ctx *ctx, const dse_eval_opts *opts,
	dse_evaluation **res, dse_error *err);
dse_evaluation *dse_evaluation_free(dse_evaluation *res);

/* For commands where rank 0 works alone: broadcasts rank 0's outcome "st"
 * so every rank returns the same status (only rank 0's err carries the
 * real message).  Collective.
 */
dse_stat dse_root_verdict(const dse_ctx *ctx, dse_stat st, dse_error *err);

/* The I/O network's name: "daisy" or "multicast". */
const char *dse_net_name(int io_network);
/* Appends printf-formatted text to the string in buf (of "size" bytes)
 * as far as it fits; the string stays terminated.  For text read by
 * people or cut on purpose (a cell of a table, a --sa-sizes string in a
 * fixed buffer).
 */
void dse_appendf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "str" as a JSON string value, escaped (NULL: ""): the one string
 * escaper, which the command line's JSON writer (cli/json.c) uses.
 */
void dse_json_string(FILE *out, const char *str);
/* The array of an io or drain bound of design "m" of template "t"
 * (sim_metrics.bound_by), "" for any other (or a NULL template).
 */
const char *dse_bound_array(const poly_template *t, const sim_metrics *m);
/* The outcome of a design: ok, or a runtime error naming the illegal
 * status or the resources over the board.
 */
dse_stat dse_fit_verdict(const dse_ctx *ctx, const char *design,
	const sim_metrics *m, dse_error *err);

/* Options of "dse simulate". */
typedef struct dse_simulate_opts {
	const char *sa_sizes;	/* AutoSA's --sa-sizes string */
	const char *design;	/* a GNN design: "knob=value ..." */
	int mode;		/* enum sim_model_kind */
	int io_network;		/* enum sim_io_network; -1: not given */
	int double_buffer;	/* 0 or 1; -1: not given */
	int fifo_depth;		/* 0: the simulator's default */
	int samples;		/* 0: the simulator's default */
	int64_t seed;		/* -1: the config's [search] seed */
	int json;
} dse_simulate_opts;

/* What "dse simulate" simulated, for the command line to print. */
typedef struct dse_simulation {
	int workload;		/* 1: a workload's design (GNN, Tensil) */
	dse_design d;
	sim_cycle_opts co;
	sim_cycle_report rep;
	double seconds;		/* wall time of the simulation */
	char why[256];		/* an illegal workload design: what to
				 * change ("" when the status says it all) */
} dse_simulation;

/* "dse simulate": builds the design as "dse eval" does (or a workload's
 * from opts->design) and runs it through the chosen model (full or
 * sampled cycle simulation, or the analytic model) into *res, which the
 * caller frees with dse_simulation_free: cycles, latency, the confidence
 * interval and fraction simulated, utilisation, DRAM bandwidth and the
 * busy / stall cycles of every module class.  Outcomes as dse_eval: *res
 * is set when the simulation ran, even for a design that is then refused.
 * Never prints.  Collective: rank 0 works, every rank returns the same
 * status.
 */
dse_stat dse_simulate(const dse_ctx *ctx, const dse_simulate_opts *opts,
	dse_simulation **res, dse_error *err);
dse_simulation *dse_simulation_free(dse_simulation *res);

/* The forms "dse tune" emits: AutoSA's files, JSON, or a workload
 * family's own design file (DSE_EMIT_FAMILY: the sweep's family's).  A
 * family's form asked for by its name (family_ops' emit_name: "tensil"
 * for the overlay's .tarch) is DSE_EMIT_FAMILY + 1 + the index of the
 * first family dse knows (dse_families) that writes it; dse tune checks
 * that the sweep's family is one that does.
 */
enum dse_emit { DSE_EMIT_AUTOSA = 0, DSE_EMIT_JSON, DSE_EMIT_FAMILY };
/* The form called "name"; -1 when unknown. */
int dse_emit_find(const char *name);
/* Every form's name, "autosa, json, tensil", in "buf". */
void dse_emit_names(char *buf, size_t size);

/* Options of "dse tune". */
typedef struct dse_tune_opts {
	const char *objective;	/* a metric name; NULL: the config's first
				 * objective */
	int emit;		/* enum dse_emit; -1: the family's own */
	const char *output;	/* -o: the file to write; NULL: stdout */
	const char *from;	/* a finished results file to pick from */
} dse_tune_opts;

/* The config a results file was made with (its "config" attribute),
 * parsed; an unreadable file is an input error.  Not collective.
 */
dse_cfg *dse_tune_config(const char *from, dse_error *err);

/* The best design "dse tune" found, for the command line to emit. */
typedef struct dse_tuned {
	int32_t knobs[SEARCH_MAX_KNOBS];
	sim_metrics metrics;
	int model;		/* enum sim_model_kind of the metrics */
	int metric;		/* the objective (enum sim_metric) */
	int form;		/* what to emit (enum dse_emit) */
	char output[DSE_PATH_LEN];	/* the file -o names, links
					 * followed; "": standard output */
} dse_tuned;

/* "dse tune": finds the best design of ctx's sweep for the objective
 * under the config's constraints -- by searching with that objective
 * alone, or from the front of opts->from -- into *best, with the form to
 * emit it in (an AutoSA command with its --simd-info file, a Tensil
 * .tarch, or a JSON of the knobs and metrics) and the file to write,
 * checked as a sweep's results file is (never an input).  Never prints.
 * Collective: every rank returns the same status; only rank 0's err and
 * *best carry the real outcome.
 */
dse_stat dse_tune(dse_ctx *ctx, const dse_tune_opts *opts, dse_tuned *best,
	dse_error *err);

/* What AutoSA needs to build a design (tune_autosa.c): the kernel's C
 * file in the loop order the design's --sa-sizes assumes (a C kernel as
 * written, an isl kernel written from its model), the --simd-info JSON
 * and the full AutoSA command line.
 */
typedef struct dse_autosa {
	char *c;		/* owned: the C file's text */
	char c_name[POLY_NAME_LEN + 8];	/* "<kernel>.c" */
	char sa[512];		/* --sa-sizes */
	char info[512];		/* simd_info.json */
	char *command;		/* owned: the AutoSA command line */
} dse_autosa;

/* Builds *a for the design "knobs"; the command names the files in the
 * absolute folder "dir", or as ./<file> when "dir" is NULL.  Never
 * prints.  Free with dse_autosa_free.
 */
dse_stat dse_autosa_build(const dse_ctx *ctx, const int32_t *knobs,
	const char *dir, dse_autosa *a, dse_error *err);

/* Makes folder "dir" when missing and gives its absolute path in abs. */
dse_stat dse_autosa_dir(const char *dir, char *abs, size_t size,
	dse_error *err);

/* Writes the C file, simd_info.json and autosa.sh (the command, run in
 * AutoSA's folder) into folder "dir", each atomically.
 */
dse_stat dse_autosa_write(const dse_ctx *ctx, const dse_autosa *a,
	const char *dir, dse_error *err);

void dse_autosa_free(dse_autosa *a);

/* Checks before any work that "dir" can take --emit autosa's files: not
 * an existing file other than a folder, and none of its files an input.
 */
dse_stat dse_tune_autosa_check(const dse_ctx *ctx, const char *dir,
	dse_error *err);

/* The built-in sweep run when no config is given. */
const char *dse_default_config(void);

#endif
