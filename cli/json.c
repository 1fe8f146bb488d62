/* The one JSON writer of the command line (see cli/json.h). */
#include <math.h>
#include <string.h>

#include "cli/json.h"
#include "dse/ctx.h"

void cli_json_begin(struct cli_json *j, FILE *out, int compact)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->compact = compact;
}

void cli_json_value(struct cli_json *j, const char *key)
{
	if (j->depth > 0) {
		int flat = j->compact || j->flat[j->depth - 1];

		if (j->count[j->depth - 1]++)
			fputs(flat && !j->compact && !j->brk ? ", " : ",",
				j->out);
		if (!flat)
			fprintf(j->out, "\n%*s", 2 * j->depth, "");
		else if (j->brk)
			fprintf(j->out, "\n%*s", j->brk - 1, "");
		j->brk = 0;
	}
	if (key) {
		dse_json_string(j->out, key);
		fputs(j->compact ? ":" : ": ", j->out);
	}
}

void cli_json_open(struct cli_json *j, const char *key, char bracket,
	int flat)
{
	cli_json_value(j, key);
	fputc(bracket, j->out);
	j->flat[j->depth] = flat || (j->depth > 0 && j->flat[j->depth - 1]);
	j->count[j->depth] = 0;
	j->depth++;
}

void cli_json_close(struct cli_json *j, char bracket)
{
	int had = j->count[j->depth - 1];
	int flat = j->compact || j->flat[j->depth - 1];

	j->depth--;
	if (had && !flat)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	else if (j->brk)
		fprintf(j->out, "\n%*s", j->brk - 1, "");
	j->brk = 0;
	fputc(bracket, j->out);
}

void cli_json_break(struct cli_json *j, int indent)
{
	if (!j->compact)
		j->brk = indent + 1;
}

void cli_json_str(struct cli_json *j, const char *key, const char *v)
{
	cli_json_value(j, key);
	dse_json_string(j->out, v);
}

void cli_json_int(struct cli_json *j, const char *key, long long v)
{
	cli_json_value(j, key);
	fprintf(j->out, "%lld", v);
}

void cli_json_bool(struct cli_json *j, const char *key, int v)
{
	cli_json_value(j, key);
	fputs(v ? "true" : "false", j->out);
}

void cli_json_null(struct cli_json *j, const char *key)
{
	cli_json_value(j, key);
	fputs("null", j->out);
}

void cli_json_fixed(struct cli_json *j, const char *key, double v,
	int decimals)
{
	cli_json_value(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.*f", decimals, v);
	else
		fputs("null", j->out);
}

void cli_json_f64(struct cli_json *j, const char *key, double v)
{
	cli_json_value(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.17g", v);
	else
		fputs("null", j->out);
}

void cli_json_number(struct cli_json *j, const char *key, const char *text)
{
	cli_json_value(j, key);
	fputs(text, j->out);
}
