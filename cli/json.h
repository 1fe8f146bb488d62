/* cli/json: the one JSON writer of the command line.
 *
 * A streaming writer: it tracks whether a comma is due at each nesting
 * level, so a printer writes members in order and never counts them.
 * Two layouts, chosen when the document starts: "pretty" puts each member
 * of an object or array on its own indented line, except inside levels
 * opened "flat" (lists of numbers and names), which stay on one line with
 * ", " between members; "compact" writes the whole document on one line
 * with no blanks, for scripts that read one object a line.  Strings go
 * through dse_json_string, the one escaper.  JSON has no NaN or
 * infinity: cli_json_f64 writes them as null.
 */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <stdio.h>

/* The deepest nesting a document may use (the analysis report nests five
 * levels: root, candidates, a candidate, its groups, a group's deps).
 */
#define CLI_JSON_MAX_DEPTH 8

struct cli_json {
	FILE *out;
	int compact;			/* 1: one line, no blanks */
	int depth;
	int count[CLI_JSON_MAX_DEPTH];	/* members written at each level */
	int flat[CLI_JSON_MAX_DEPTH];	/* no newlines inside this level */
	int brk;			/* 1 + the indent of a line break
					 * due before the next member or
					 * close (cli_json_break) */
};

/* Starts a document on "out"; "compact" chooses the layout. */
void cli_json_begin(struct cli_json *j, FILE *out, int compact);

/* Starts a value: the comma and line break due before it and, inside an
 * object, the member name "key" (NULL inside an array).  The caller then
 * writes the value itself; the typed writers below do both.
 */
void cli_json_value(struct cli_json *j, const char *key);

/* Opens an object ('{') or array ('[') as member "key"; "flat" keeps it
 * (and all it holds) on one line in the pretty layout.
 */
void cli_json_open(struct cli_json *j, const char *key, char bracket,
	int flat);
/* Closes the innermost level with "bracket" ('}' or ']'). */
void cli_json_close(struct cli_json *j, char bracket);

/* In a flat level of the pretty layout: the next member (after its comma)
 * or the closing bracket starts a new line indented by "indent" blanks,
 * for documents that keep one line per record (dse scalesim's layers).
 * Ignored in the compact layout.
 */
void cli_json_break(struct cli_json *j, int indent);

void cli_json_str(struct cli_json *j, const char *key, const char *v);
void cli_json_int(struct cli_json *j, const char *key, long long v);
void cli_json_bool(struct cli_json *j, const char *key, int v);
void cli_json_null(struct cli_json *j, const char *key);
/* A number printed with "%.*f" to "decimals" places; null when it is not
 * finite.
 */
void cli_json_fixed(struct cli_json *j, const char *key, double v,
	int decimals);
/* A number the caller has formatted ("text", never NaN or infinity). */
void cli_json_number(struct cli_json *j, const char *key, const char *text);
/* A number printed exactly ("%.17g"); null when it is not finite. */
void cli_json_f64(struct cli_json *j, const char *key, double v);

#endif
