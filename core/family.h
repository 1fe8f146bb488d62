/* core: the interface of a workload family, the accelerators a sweep
 * explores from a [workload] section (the GNN overlay and dataflow
 * engines, Tensil's overlay, and any family added beside them).
 *
 * A family is a table of operations over an object the family builds once
 * per sweep and then only reads, so any number of threads may evaluate
 * points at once.  A design point is an array of knob values in the order
 * of the family's knob table.  The application reaches a family only
 * through this table: the config's [space] keys, the results file's knob
 * columns and their units, `dse show`, `dse tune`'s emitted form and the
 * reports of eval and simulate all come from it, and the families known
 * to a run are listed in one registration table (dse/families.c).
 *
 * It stands on the ground floor so that every family's folder can
 * implement it; the board and data type are named by their struct tags,
 * which a family's folder defines by including arch/.
 */
#ifndef CORE_FAMILY_H
#define CORE_FAMILY_H

#include <stdint.h>

#include "core/error.h"
#include "core/metrics.h"
#include "core/report.h"

/* A knob of a family. */
typedef struct family_knob {
	const char *name;	/* the [space] key and the results column */
	const char *unit;	/* the column's unit in the results file */
	const char *help;	/* one line: what the knob sets */
} family_knob;

/* A fact about the workload a family object was built for (a GNN's graph:
 * its name, vertices and edges), for the results file's root attributes
 * and the reports of dse simulate.
 */
typedef struct family_fact {
	const char *name;	/* the attribute's name ("graph_edges") */
	const char *label;	/* the report's word after the value
				 * ("edges"); NULL for a text fact */
	const char *text;	/* a text fact's value; NULL: "value" */
	int64_t value;
} family_fact;

/* The operations of a family.  "self" is the object the application
 * built for the sweep (the family's own type); every operation except
 * "prepare" and "free" only reads it.
 */
typedef struct family_ops {
	const char *name;	/* [workload] family = NAME */
	const char *summary;	/* one line: what the family is */
	int n_knobs;
	const family_knob *knobs;
	/* The value a knob takes when the config's [space] does not name
	 * it (the family's published configuration).  Not NULL.
	 */
	int64_t (*knob_default)(const void *self, int knob);
	/* Tells the family every value a knob will take in the sweep, so
	 * that it can build what depends on it once, and refuses a value
	 * it cannot take (an input error naming the value).  Not
	 * thread-safe: called for every knob before the first evaluation,
	 * and for each knob of one design by dse simulate --design.  NULL:
	 * the family needs no preparation and takes any value (a value out
	 * of range is then an illegal point, not an input error).
	 */
	dse_stat (*prepare)(void *self, int knob, const int64_t *values,
		int n, dse_error *err);
	/* What "prepare" builds, as the sweep's progress note names it
	 * ("partitions, plans"); NULL when it only checks the values.
	 */
	const char *prepares;
	/* The analytic model of one point; always fills "out", whose status
	 * says whether the point is legal.  Not NULL.
	 */
	void (*eval)(const void *self, const int32_t *knobs,
		sim_metrics *out);
	/* Optional (NULL: none): lower bounds of the resource metrics of
	 * one point and the status "eval" would give, much cheaper than
	 * "eval"; the exhaustive sweep skips a point whose bound already
	 * breaks a constraint (as search_evaluator's "bound").
	 */
	void (*bound)(const void *self, const int32_t *knobs,
		sim_metrics *lower);
	/* One point through the analytic, sampled or full cycle model
	 * (enum sim_model_kind); an error only for a failure of the
	 * simulator itself.  Not NULL.
	 */
	dse_stat (*simulate)(const void *self, const int32_t *knobs,
		int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
		dse_error *err);
	/* Why a point is illegal in words a user can act on; "" for a legal
	 * point or a status whose name says it all.  Returns the length the
	 * whole text needs, as snprintf.  Not NULL.
	 */
	int (*why)(const void *self, const int32_t *knobs, char *buf,
		int size);
	/* A one-line description of a point, the front's "design" column.
	 * Not NULL.
	 */
	void (*describe)(const void *self, const int32_t *knobs, char *buf,
		int size);
	/* The family's own design file, the form `dse tune --emit NAME`
	 * writes (NULL and "emit" NULL: the family has none, and tune
	 * emits JSON).  "emit" writes the whole file into "buf" and returns
	 * its length, as snprintf.
	 */
	const char *emit_name;
	int (*emit)(const void *self, const int32_t *knobs, char *buf,
		int size);
	/* What the user does next with an emitted file written to "path"
	 * (NULL: to standard output) -- the next tool's command line -- or
	 * "" when nothing need be said.  Returns the length, as snprintf.
	 * NULL: nothing.
	 */
	int (*emit_hint)(const void *self, const char *path, char *buf,
		int size);
	/* Optional (NULL: none): the facts of the workload, at most "max"
	 * into "out"; returns how many.  Text facts come first.
	 */
	int (*facts)(const void *self, family_fact *out, int max);
	/* Frees the object; returns NULL.  Accepts NULL. */
	void *(*free)(void *self);
} family_ops;

/* The index of the knob "name" of "ops", or -1. */
int family_knob_find(const family_ops *ops, const char *name);

#endif
