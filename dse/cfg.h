/* The sweep configuration language.
 *
 * INI-style: "[section]" headers, "key = value" lines, "#" comments.
 * Values are integers, floats, strings (bare, "quoted", or """triple
 * quoted""" spanning lines, as isl strings often do), name lists
 * ("latency, dsp"), integer sets ("1,2,4", "1..64 pow2", "1..1024 divisors",
 * "1, 3, 8..64 pow2"), lists of values from a fixed set ("daisy,
 * multicast"), parameter assignments ("M=1024, N=512") and
 * constraint lists ("dsp <= 0.75, bram18k <= 2000").
 *
 * Parsing checks everything the language itself knows: the section and key
 * names against the schema, the type of each value, duplicates, empty
 * ranges and missing required keys.  Checks that need other modules (board
 * names, loop names, metric names) are made by the caller with
 * dse_cfg_pos(), so that every error still names file:line:col and the key.
 *
 * A dse_cfg is immutable once parsed and may be read from several threads.
 */
#ifndef DSE_CFG_H
#define DSE_CFG_H

#include <stdint.h>

#include "core/error.h"

typedef struct dse_cfg dse_cfg;

/* Parses the file at "path".  Returns NULL and fills err (code DSE_E_INPUT,
 * file:line:col and key set) on any error, including an unreadable file.
 */
dse_cfg *dse_cfg_parse_file(const char *path, dse_error *err);

/* Opens "path" for reading, refusing anything but a regular file before
 * a read could block (a FIFO) or never end (a device): returns a file
 * descriptor, or -1 with errno set and, when the path exists but is no
 * regular file, *kind saying what it is (dse_file_kind).
 */
int dse_open_regular(const char *path, const char **kind);

/* Parses "text"; "name" stands for the file name in messages. */
dse_cfg *dse_cfg_parse_string(const char *text, const char *name,
	dse_error *err);

dse_cfg *dse_cfg_free(dse_cfg *cfg);

/* The complete source text and the file name it was read from. */
const char *dse_cfg_text(const dse_cfg *cfg);
const char *dse_cfg_file(const dse_cfg *cfg);

/* Whether "section" has "key". */
int dse_cfg_has(const dse_cfg *cfg, const char *section, const char *key);
/* Whether the config has "key" in "section" and the section's schema
 * lists it; 0 for a key the section takes only as a workload family's
 * (a [space] knob or a [workload] key no schema lists), which the setup
 * checks against the family.
 */
int dse_cfg_key_listed(const dse_cfg *cfg, const char *section,
	const char *key);
/* The error for a key of "section" that the section's schema does not
 * list and that the workload's family does not take either, at the key:
 * the keys the schema lists, then "more" (the family's own; NULL or ""
 * for none).  Returns dse_stat_error.
 */
dse_stat dse_cfg_unknown_key(const dse_cfg *cfg, const char *section,
	const char *key, const char *more, dse_error *err);

/* The position (1-based line and column) of the value of "key"; returns 0
 * and sets 0/0 when the key is absent (the position of the section header
 * is then given when the section exists, so "missing" errors can point at
 * it).
 */
int dse_cfg_pos(const dse_cfg *cfg, const char *section, const char *key,
	int *line, int *col);

/* The keys of a section in file order (for keys such as "array_part.i"). */
int dse_cfg_n_keys(const dse_cfg *cfg, const char *section);
const char *dse_cfg_key_at(const dse_cfg *cfg, const char *section, int i);

/* Typed getters.  They return "dflt" when the key is absent; the schema has
 * already guaranteed the type of a present key.
 */
int64_t dse_cfg_int(const dse_cfg *cfg, const char *section, const char *key,
	int64_t dflt);
double dse_cfg_float(const dse_cfg *cfg, const char *section,
	const char *key, double dflt);
/* Strings, names and isl strings (the text without quotes). */
const char *dse_cfg_string(const dse_cfg *cfg, const char *section,
	const char *key, const char *dflt);

/* Name lists ("latency, dsp"): count and i-th name (0 when absent). */
int dse_cfg_n_names(const dse_cfg *cfg, const char *section,
	const char *key);
const char *dse_cfg_name_at(const dse_cfg *cfg, const char *section,
	const char *key, int i);
/* The column of the i-th name, for errors about one element. */
int dse_cfg_name_col(const dse_cfg *cfg, const char *section,
	const char *key, int i);

/* Lists of values from a fixed set ("io_network = daisy, multicast",
 * "double_buffer = 0, 1"): their count (0 when absent), and the i-th value
 * as its index in the key's set of known values (daisy 0, multicast 1;
 * "0" 0, "1" 1), or -1 when out of range.
 */
int dse_cfg_n_choices(const dse_cfg *cfg, const char *section,
	const char *key);
int dse_cfg_choice_at(const dse_cfg *cfg, const char *section,
	const char *key, int i);

/* The candidates of a V_CANDIDATES key ([space] space_time): -1 for
 * "all", else their number, with the first "max" of them, sorted and
 * without repeats, in values; 0 when the key is absent.  A single number
 * also reads with dse_cfg_int.
 */
int dse_cfg_candidates(const dse_cfg *cfg, const char *section,
	const char *key, int *values, int max);

/* Parameter assignments ("M=1024, N=512"). */
int dse_cfg_n_params(const dse_cfg *cfg, const char *section,
	const char *key);
const char *dse_cfg_param_name(const dse_cfg *cfg, const char *section,
	const char *key, int i);
int64_t dse_cfg_param_value(const dse_cfg *cfg, const char *section,
	const char *key, int i);

/* Constraints ("dsp <= 0.75, bram18k <= 2000, gops >= 500, latency <=
 * 1ms").  A bound written with a decimal point and no unit, or with a
 * '%' sign, is a fraction of the board ("0.75", "75%"); a plain integer
 * is an absolute amount; a unit ("1ms", "2 GiB") is read as written and
 * checked by whoever knows the metric.
 */
typedef struct dse_cfg_constraint {
	char metric[32];
	int lower;		/* 1: "metric >= bound"; 0: "metric <= bound" */
	double bound;		/* the fraction (0.75 for "75%") or amount */
	int fraction;		/* 1 when bound is a fraction of the board */
	int percent;		/* 1 when written as a percentage ("75%") */
	char unit[16];		/* the unit written after the number; "" */
	int line;
	int col;		/* column of the metric name */
	int unit_col;		/* column of the unit (when there is one) */
} dse_cfg_constraint;
int dse_cfg_n_constraints(const dse_cfg *cfg, const char *section,
	const char *key);
const dse_cfg_constraint *dse_cfg_constraint_at(const dse_cfg *cfg,
	const char *section, const char *key, int i);

/* Resolves an integer set against "bound", the trip count of the loop the
 * knob tiles ("divisors" keeps the divisors of bound).  Returns the sorted
 * distinct values in a new array (*values, caller frees with free()) and
 * their number in *n.  An empty result, or one of more than 1,000,000
 * values, is an input error at the key's position.
 */
dse_stat dse_cfg_int_set(const dse_cfg *cfg, const char *section,
	const char *key, int64_t bound, int64_t **values, int *n,
	dse_error *err);

/* Resolves an integer-set text that is not in a file (the built-in
 * defaults), with the same rules.
 */
dse_stat dse_cfg_int_set_text(const char *text, int64_t bound,
	int64_t **values, int *n, dse_error *err);

#endif
