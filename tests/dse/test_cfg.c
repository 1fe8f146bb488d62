/* Tests of the sweep config language (dse/cfg.h).
 *
 * Run as "test_cfg <group>" with group one of good, bad, int_set, file;
 * each group is a ctest test of its own.  Every group is a table of cases
 * and a loop over it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dse/cfg.h"

/* A valid [kernel] section of five lines, so that cases appended to it
 * start on line 6.
 */
#define KERNEL \
	"[kernel]\n" \
	"name = mm\n" \
	"domain = { S[i] : 0 <= i < 8 }\n" \
	"reads = { S[i] -> A[i] }\n" \
	"writes = { S[i] -> A[i] }\n"

/* ---- Bad inputs ---------------------------------------------------------- */

struct bad_case {
	const char *text;
	int line;
	int col;
	const char *key;
	const char *msg;	/* a substring of the message */
};

static const struct bad_case bad_cases[] = {
	/* Sections. */
	{ KERNEL "[spaces]\n", 6, 2, "spaces",
	  "unknown section [spaces]; known sections: kernel, platform, "
	  "space, search, output" },
	{ KERNEL "[space]\nsimd = 1\n[space]\n", 8, 2, "space",
	  "duplicate section [space] (first at line 6)" },
	{ "[kernel\nname = mm\n", 1, 8, "kernel", "expected ']'" },
	{ "[]\n", 1, 2, "", "expected a section name" },
	{ "[kernel] x\n", 1, 10, "kernel",
	  "unexpected text after the section header" },
	/* Keys. */
	{ KERNEL "[search]\nseeds = 1\n", 7, 1, "seeds",
	  "unknown key in section [search]; known keys: strategy, "
	  "objectives, constraints, seed, block" },
	{ KERNEL "[platform]\ndsp.i = 3\n", 7, 1, "dsp.i",
	  "unknown key in section [platform]" },
	{ KERNEL "[space]\nspace_time.i = 3\n", 7, 1, "space_time.i",
	  "known keys: space_time, array_part, array_part_L2, latency, simd, "
	  "io_network, double_buffer, array_part.<loop>, "
	  "array_part_L2.<loop>, latency.<loop>, simd.<loop>" },
	/* space_time: candidate numbers (>= 0), ranges of them, or all. */
	{ KERNEL "[space]\nspace_time = -1\n", 7, 14, "space_time",
	  "candidate number out of range: must be between 0 and 9999" },
	{ KERNEL "[space]\nspace_time = 3, 10000\n", 7, 17, "space_time",
	  "candidate number out of range: must be between 0 and 9999" },
	{ KERNEL "[space]\nspace_time = 6..1\n", 7, 17, "space_time",
	  "empty range: 6..1" },
	{ KERNEL "[space]\nspace_time = 1,,2\n", 7, 16, "space_time",
	  "empty item in the list" },
	{ KERNEL "[space]\nspace_time = every\n", 7, 14, "space_time",
	  "expected a candidate number (as 'dse analyze' lists them), a "
	  "range such as 3..5, or 'all'" },
	{ KERNEL "[space]\nspace_time = 3 4\n", 7, 16, "space_time",
	  "unexpected '4': expected ',' between candidates" },
	{ KERNEL "[space]\narray_part_L2.1 = 4\n", 7, 1, "array_part_L2.1",
	  "bad per-loop key: expected 'array_part_L2.<loop>'" },
	/* The [kernel] keys of the analysis. */
	{ KERNEL "ops = 0\n", 6, 7, "ops",
	  "integer out of range: 0 must be >= 1" },
	{ KERNEL "max_space = two\n", 6, 13, "max_space",
	  "expected an integer, got 'two'" },
	{ KERNEL "schedule = \"\"\"{ S[i] -> [i] }\n", 6, 12, "schedule",
	  "unterminated \"\"\" string" },
	{ KERNEL "[space]\nlatency.1i = 4\n", 7, 1, "latency.1i",
	  "bad per-loop key: expected 'latency.<loop>'" },
	{ "seed = 1\n" KERNEL, 1, 1, "seed", "key outside any section" },
	{ KERNEL "[search]\nseed 1\n", 7, 6, "seed",
	  "expected '=' after the key" },
	{ KERNEL "[search]\nseed\n", 7, 5, "seed",
	  "expected '=' after the key" },
	{ KERNEL "[search]\n!seed = 1\n", 7, 1, "",
	  "expected a 'key = value' line or a '[section]' header" },
	{ KERNEL "name = mm2\n", 6, 1, "name",
	  "duplicate key (first set at line 2)" },
	{ KERNEL "[space]\nlatency.i = 2\n  latency.i = 4\n", 8, 3,
	  "latency.i", "duplicate key (first set at line 7)" },
	/* Missing required keys. */
	{ "# a comment\n  [kernel]\nname = mm\ndomain = { S[i] }\n"
	  "reads = { S[i] -> A[i] }\n", 2, 3, "writes",
	  "missing required key" },
	{ "[search]\nseed = 1\n", 1, 1, "name",
	  "missing required key: the config has no [kernel] section" },
	{ "", 1, 1, "name", "missing required key" },
	/* Empty values. */
	{ KERNEL "[search]\nseed =\n", 7, 7, "seed",
	  "empty value: expected an integer" },
	{ KERNEL "[output]\nfile =   # none\n", 7, 10, "file",
	  "empty value" },
	{ KERNEL "[output]\nfile = \"\"\n", 7, 8, "file", "empty value" },
	/* Scalars. */
	{ KERNEL "[search]\nseed = abc\n", 7, 8, "seed",
	  "expected an integer, got 'abc'" },
	{ KERNEL "[platform]\ndsp = 12.5\n", 7, 7, "dsp",
	  "expected an integer, got '12.5'" },
	{ KERNEL "[search]\nseed = \"1\"\n", 7, 8, "seed",
	  "expected an integer, not a quoted string" },
	{ KERNEL "[search]\nseed = -1\n", 7, 8, "seed",
	  "integer out of range: -1 must be >= 0" },
	{ KERNEL "[platform]\ndsp = 0\n", 7, 7, "dsp",
	  "integer out of range: 0 must be >= 1" },
	{ KERNEL "[search]\nseed = 99999999999999999999\n", 7, 8, "seed",
	  "integer out of range: '99999999999999999999' does not fit" },
	{ KERNEL "[platform]\nmhz = 3x0\n", 7, 7, "mhz",
	  "bad number '3x0'" },
	{ KERNEL "[platform]\ndram_gbps = inf\n", 7, 13, "dram_gbps",
	  "bad number 'inf'" },
	{ KERNEL "[platform]\nmhz = 0.0\n", 7, 7, "mhz",
	  "number out of range: 0.0 must be > 0" },
	{ KERNEL "[platform]\nmhz = 1e999\n", 7, 7, "mhz",
	  "number out of range" },
	/* The two-stage search: the model is a name from its list, the
	 * band's bound a positive count.
	 */
	{ KERNEL "[search]\nmodel = full\n", 7, 9, "model",
	  "expected one of: analytic, sampled" },
	{ KERNEL "[search]\nmodel = sampled\nband_max = 0\n", 8, 12,
	  "band_max", "integer out of range: 0 must be >= 1" },
	{ KERNEL "[search]\nsamples = -4\n", 7, 11, "samples",
	  "integer out of range: -4 must be >= 1" },
	{ KERNEL "[search]\nmodel = sampled, analytic\n", 7, 9, "model",
	  "expected one of: analytic, sampled" },
	{ KERNEL "dtype = fp64\n", 6, 9, "dtype",
	  "value 'fp64' is not allowed; expected one of: fp32, fp16, int32, "
	  "int16, int8" },
	{ KERNEL "dsp_packing = yes\n", 6, 15, "dsp_packing",
	  "value 'yes' is not allowed; expected one of: off, on" },
	{ KERNEL "[search]\nstrategy = annealing\n", 7, 12, "strategy",
	  "expected one of: exhaustive, random, genetic, anneal" },
	/* Strings. */
	{ KERNEL "[output]\nfile = \"res.h5\n", 7, 8, "file",
	  "unterminated string" },
	{ KERNEL "[output]\nfile = \"a # b\n", 7, 8, "file",
	  "unterminated string" },
	{ "[kernel]\nname = mm\ndomain = \"\"\"{ S[i] :\n 0 <= i }\n", 3, 10,
	  "domain", "unterminated \"\"\" string" },
	{ KERNEL "[output]\nfile = \"a\\qb\"\n", 7, 10, "file",
	  "unknown escape" },
	{ KERNEL "[output]\nfile = \"a\" b\n", 7, 12, "file",
	  "unexpected text after the closing quote" },
	{ "[kernel]\nname = mm\ndomain = \"\"\"{ S[i] :\n 0 <= i }\"\"\" x\n",
	  4, 14, "domain", "unexpected text after the closing quote" },
	/* Lines are counted through a multi-line string. */
	{ "[kernel]\nname = mm\ndomain = \"\"\"\n{ S[i] :\n 0 <= i }\n\"\"\"\n"
	  "reads = { S[i] -> A[i] }\nwrites = { S[i] -> A[i] }\n"
	  "[search]\n\tseed = x\n", 10, 9, "seed", "got 'x'" },
	/* CRLF line ends read like LF ones. */
	{ KERNEL "[search]\r\nseed = x\r\n", 7, 8, "seed",
	  "expected an integer, got 'x'" },
	/* Integer sets. */
	{ KERNEL "[space]\nlatency = 1, 8..4\n", 7, 14, "latency",
	  "empty range 8..4" },
	{ KERNEL "[space]\nsimd = 1..64 pow3\n", 7, 14, "simd",
	  "unknown filter 'pow3': expected pow2 or divisors" },
	{ KERNEL "[space]\nsimd = 4 pow2\n", 7, 10, "simd",
	  "a filter applies to a range" },
	{ KERNEL "[space]\nsimd = 0..4\n", 7, 8, "simd",
	  "integer out of range: integer set values must be >= 1" },
	{ KERNEL "[space]\nsimd = 1..3000000000\n", 7, 11, "simd",
	  "integer out of range: integer set values must be at most "
	  "2147483647" },
	{ KERNEL "[space]\nsimd = 1..\n", 7, 11, "simd",
	  "expected an integer after '..'" },
	{ KERNEL "[space]\nsimd = 1,,2\n", 7, 10, "simd",
	  "empty item in the list" },
	{ KERNEL "[space]\nsimd = 1 2\n", 7, 10, "simd",
	  "expected ',' between items" },
	{ KERNEL "[space]\narray_part.j = 1..8 pow2 x\n", 7, 26,
	  "array_part.j", "expected ',' between items" },
	/* Name lists. */
	{ KERNEL "[search]\nobjectives = latency dsp\n", 7, 22,
	  "objectives", "expected ',' between names" },
	{ KERNEL "[search]\nobjectives = latency, latency\n", 7, 23,
	  "objectives", "duplicate name 'latency' in the list" },
	{ KERNEL "[search]\nobjectives = 1abc\n", 7, 14, "objectives",
	  "expected a name" },
	{ KERNEL "[search]\nobjectives = latency,\n", 7, 22, "objectives",
	  "empty item in the list" },
	/* Constraints. */
	{ KERNEL "[search]\nconstraints = dsp < 3\n", 7, 19, "constraints",
	  "only '<=' and '>=' are accepted, found '<'" },
	{ KERNEL "[search]\nconstraints = dsp == 0.5\n", 7, 19,
	  "constraints", "only '<=' and '>=' are accepted, found '=='" },
	{ KERNEL "[search]\nconstraints = gops => 5\n", 7, 20,
	  "constraints", "only '<=' and '>=' are accepted, found '=>'" },
	{ KERNEL "[search]\nconstraints = gops >=\n", 7, 22, "constraints",
	  "expected a bound after '>='" },
	{ KERNEL "[search]\nconstraints = latency <= ms\n", 7, 26,
	  "constraints", "expected a bound after '<=' such as 0.75, 75%, "
	  "2000 or 1ms" },
	{ KERNEL "[search]\nconstraints = latency <= 1e999\n", 7, 26,
	  "constraints", "the bound is too large" },
	{ KERNEL "[search]\nconstraints = latency <= 1 verylongunitname\n",
	  7, 28, "constraints", "unit 'verylongunitname' is too long" },
	{ KERNEL "[search]\nconstraints = dsp <=\n", 7, 21, "constraints",
	  "expected a bound after '<='" },
	{ KERNEL "[search]\nconstraints = dsp 0.5\n", 7, 19, "constraints",
	  "expected '<=' or '>=' after 'dsp'" },
	{ KERNEL "[search]\nconstraints = dsp <= 0.75, <= 3\n", 7, 28,
	  "constraints", "expected a metric name" },
	{ KERNEL "[search]\nconstraints = dsp <= 0.75 lut <= 0.5\n", 7, 27,
	  "constraints", "expected ',' between constraints" },
	{ KERNEL "[search]\nconstraints = dsp <= 75% lut <= 0.5\n", 7, 26,
	  "constraints", "expected ',' between constraints" },
	{ KERNEL "[search]\nconstraints = dsp <= -1\n", 7, 22,
	  "constraints", "expected a bound after '<='" },
	{ KERNEL "[search]\nconstraints = "
	  "a_very_long_metric_name_of_40_characters <= 1\n", 7, 15,
	  "constraints", "longer than 31 characters" },
	/* Parameters. */
	{ KERNEL "params = M=1024, N\n", 6, 19, "params",
	  "bad parameter 'N': expected NAME=VALUE" },
	{ KERNEL "params = M=abc\n", 6, 12, "params",
	  "bad parameter 'M': expected an integer value after '='" },
	{ KERNEL "params = =4\n", 6, 10, "params", "bad parameter" },
	{ KERNEL "params = M=1, N=2, M=3\n", 6, 20, "params",
	  "duplicate parameter 'M' (first set at column 10)" },
	{ KERNEL "params = M 1024\n", 6, 12, "params",
	  "expected NAME=VALUE" },
	/* io_network: names from a fixed list. */
	{ KERNEL "[space]\nio_network = daisy, mesh\n", 7, 21,
	  "io_network", "unknown value 'mesh' for io_network (known: "
	  "daisy, multicast)" },
	{ KERNEL "[space]\nio_network = Daisy\n", 7, 14, "io_network",
	  "unknown value 'Daisy' for io_network" },
	{ KERNEL "[space]\nio_network = daisy, daisy\n", 7, 21,
	  "io_network", "duplicate value 'daisy' in the list" },
	{ KERNEL "[space]\nio_network = daisy,,multicast\n", 7, 20,
	  "io_network", "empty item in the list" },
	{ KERNEL "[space]\nio_network = daisy,\n", 7, 20, "io_network",
	  "empty item in the list" },
	{ KERNEL "[space]\nio_network = daisy multicast\n", 7, 20,
	  "io_network", "unexpected 'm': expected ',' between values" },
	{ KERNEL "[space]\nio_network = \"daisy\"\n", 7, 14, "io_network",
	  "not a quoted string" },
	{ KERNEL "[space]\nio_network = -daisy\n", 7, 14, "io_network",
	  "expected one of: daisy, multicast" },
	{ KERNEL "[space]\nio_network.i = daisy\n", 7, 1, "io_network.i",
	  "unknown key in section [space]" },
	{ KERNEL "[space]\nio_network = daisy\nio_network = multicast\n",
	  8, 1, "io_network", "duplicate key (first set at line 7)" },
	/* double_buffer: 0 or 1 and nothing else. */
	{ KERNEL "[space]\ndouble_buffer = 0, 2\n", 7, 20, "double_buffer",
	  "unknown value '2' for double_buffer (known: 0, 1)" },
	{ KERNEL "[space]\ndouble_buffer = on\n", 7, 17, "double_buffer",
	  "unknown value 'on' for double_buffer (known: 0, 1)" },
	{ KERNEL "[space]\ndouble_buffer = 01\n", 7, 17, "double_buffer",
	  "unknown value '01'" },
	{ KERNEL "[space]\ndouble_buffer = 1, 1\n", 7, 20, "double_buffer",
	  "duplicate value '1'" },
	{ KERNEL "[space]\ndouble_buffer = 0..1\n", 7, 18,
	  "double_buffer", "unexpected '.': expected ',' between values" },
	{ KERNEL "[space]\ndouble_buffer =\n", 7, 16, "double_buffer",
	  "empty value: expected a list of values such as 'daisy, "
	  "multicast'" },
	/* The strategies and their options: the parser knows the names and
	 * the types; which strategy takes which key is the setup's check.
	 */
	{ KERNEL "[search]\nstrategy = nsga2\n", 7, 12, "strategy",
	  "value 'nsga2' is not allowed; expected one of: exhaustive, "
	  "random, genetic, anneal" },
	{ KERNEL "[search]\nstrategy = Genetic\n", 7, 12, "strategy",
	  "value 'Genetic' is not allowed" },
	{ KERNEL "[search]\nbudget_seconds = 0\n", 7, 18, "budget_seconds",
	  "number out of range: 0 must be > 0" },
	{ KERNEL "[search]\nbudget_seconds = 1h\n", 7, 18, "budget_seconds",
	  "bad number '1h'" },
	{ KERNEL "[search]\nislands = 0\n", 7, 11, "islands",
	  "integer out of range: 0 must be >= 1" },
	{ KERNEL "[search]\npopulation = 1.5\n", 7, 14, "population",
	  "expected an integer, got '1.5'" },
	{ KERNEL "[search]\nmigrate_every = -1\n", 7, 17, "migrate_every",
	  "integer out of range: -1 must be >= 1" },
	{ KERNEL "[search]\nmigrants = 0\n", 7, 12, "migrants",
	  "integer out of range: 0 must be >= 1" },
	{ KERNEL "[search]\nbudget = 5%\nbudget = 10%\n", 8, 1, "budget",
	  "duplicate key (first set at line 7)" },
	{ KERNEL "[search]\ncheckpoints = 60\n", 7, 1, "checkpoints",
	  "unknown key in section [search]" },
};

static void test_bad(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		char line[1024], prefix[64], suffix[128];
		dse_error err;
		dse_cfg *cfg;
		size_t len;

		dse_error_clear(&err);
		cfg = dse_cfg_parse_string(c->text, "t.cfg", &err);
		if (cfg || err.line != c->line || err.col != c->col ||
		    strcmp(err.key, c->key) || !strstr(err.msg, c->msg))
			print_error("case %zu: got %s %d:%d key '%s' msg '%s'\n",
				i, cfg ? "success" : "error", err.line,
				err.col, err.key, err.msg);
		assert_null(cfg);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_int_equal(dse_error_exit_status(&err), 2);
		assert_string_equal(err.file, "t.cfg");
		assert_int_equal(err.line, c->line);
		assert_int_equal(err.col, c->col);
		assert_string_equal(err.key, c->key);
		assert_non_null(strstr(err.msg, c->msg));

		/* The formatted line: position first, key last. */
		dse_error_format(&err, line, sizeof(line));
		snprintf(prefix, sizeof(prefix), "t.cfg:%d:%d: error: ",
			c->line, c->col);
		assert_int_equal(strncmp(line, prefix, strlen(prefix)), 0);
		len = strlen(line);
		if (c->key[0]) {
			snprintf(suffix, sizeof(suffix), ", key '%s'", c->key);
			assert_true(len > strlen(suffix));
			assert_string_equal(line + len - strlen(suffix),
				suffix);
		} else {
			assert_null(strstr(line, ", key '"));
		}
	}
	assert_true(i >= 35);
}

/* ---- Good inputs --------------------------------------------------------- */

/* A complete config using every kind of value. */
static const char *const full_cfg =
	"# matrix multiply\n"						/* 1 */
	"[kernel]\n"							/* 2 */
	"name    = mm\n"						/* 3 */
	"domain  = \"\"\"[M,N,K] -> { S0[i,j,k] :\n"			/* 4 */
	"  0 <= i < M and 0 <= j < N and 0 <= k < K }\"\"\"  # isl\n"	/* 5 */
	"reads   = { S0[i,j,k] -> A[i,k]; S0[i,j,k] -> B[k,j] }\n"	/* 6 */
	"writes  = { S0[i,j,k] -> C[i,j] }\n"				/* 7 */
	"params  = M=1024, N=-512,K = 64\n"				/* 8 */
	"reduction = k\n"						/* 9 */
	"dtype   = \"fp16\"\n"						/* 10 */
	"\n"								/* 11 */
	"  [ platform ]   # board\n"					/* 12 */
	"board = xilinx u250   # comment\n"				/* 13 */
	"dsp = 12288\n"							/* 14 */
	"mhz = 300\n"							/* 15 */
	"dram_gbps = 77.5\n"						/* 16 */
	"\n"								/* 17 */
	"[space]\n"							/* 18 */
	"space_time = 4\n"						/* 19 */
	"array_part = 1..1024 divisors\n"				/* 20 */
	"latency = 1..64 pow2\n"					/* 21 */
	"array_part.k = 1, 3, 8..64 pow2\n"				/* 22 */
	"simd = 1,2,4,8\n"						/* 23 */
	"latency.i=2\n"							/* 24 */
	"\n"								/* 25 */
	"[search]\n"							/* 26 */
	"strategy = exhaustive\n"					/* 27 */
	"objectives = latency, dsp ,bram18k\n"				/* 28 */
	"constraints = dsp <= 0.75, bram18k <= 2000,uram<=50%\n"	/* 29 */
	"seed = 0\n"							/* 30 */
	"block = 4096\n"						/* 31 */
	"[output]\n"							/* 32 */
	"file = \"results/mm #1 \\\"a\\\\b\\\".h5\"\n";			/* 33 */

/* The default passed to the integer getters: what an absent key, or one
 * of another type, must give back.
 */
#define NO_INT (-99)

enum kind {
	K_STR,		/* s: the string */
	K_INT,		/* v: the integer */
	K_FLOAT,	/* x: the number */
	K_POS,		/* v: 1 when present; line, col */
	K_NKEYS,	/* v: the number of keys of the section */
	K_KEY,		/* i: index; s: the key */
	K_NAME,		/* i: index; s: name; col */
	K_NNAMES,	/* v: count */
	K_PARAM,	/* i: index; s: name; v: value */
	K_NPARAMS,	/* v: count */
	K_CONS,		/* i: index; s: metric; x: bound; v: fraction; col */
	K_CONS_OP,	/* i: index; s: unit; v: 1 for ">=" */
	K_NCONS,	/* v: count */
	K_SET,		/* x: loop bound; s: the values, comma-separated */
	K_CHOICE,	/* i: index; v: the value's code (-1: none) */
	K_NCHOICES,	/* v: count */
	K_CANDS		/* v: count (-1: all); s: the candidates */
};

struct good_check {
	enum kind kind;
	const char *sec;
	const char *key;
	int i;
	const char *s;
	long long v;
	double x;
	int line;
	int col;
};

static const struct good_check full_checks[] = {
	{ K_STR, "kernel", "name", 0, "mm", 0, 0, 0, 0 },
	{ K_STR, "kernel", "domain", 0, "[M,N,K] -> { S0[i,j,k] :\n  0 <= i "
	  "< M and 0 <= j < N and 0 <= k < K }", 0, 0, 0, 0 },
	{ K_POS, "kernel", "domain", 0, NULL, 1, 0, 4, 11 },
	{ K_STR, "kernel", "reads", 0, "{ S0[i,j,k] -> A[i,k]; S0[i,j,k] -> "
	  "B[k,j] }", 0, 0, 0, 0 },
	{ K_POS, "kernel", "reads", 0, NULL, 1, 0, 6, 11 },
	{ K_NPARAMS, "kernel", "params", 0, NULL, 3, 0, 0, 0 },
	{ K_PARAM, "kernel", "params", 0, "M", 1024, 0, 0, 0 },
	{ K_PARAM, "kernel", "params", 1, "N", -512, 0, 0, 0 },
	{ K_PARAM, "kernel", "params", 2, "K", 64, 0, 0, 0 },
	{ K_STR, "kernel", "reduction", 0, "k", 0, 0, 0, 0 },
	{ K_STR, "kernel", "dtype", 0, "fp16", 0, 0, 0, 0 },
	{ K_POS, "platform", "board", 0, NULL, 1, 0, 13, 9 },
	{ K_STR, "platform", "board", 0, "xilinx u250", 0, 0, 0, 0 },
	{ K_INT, "platform", "dsp", 0, NULL, 12288, 0, 0, 0 },
	{ K_FLOAT, "platform", "dsp", 0, NULL, 0, 12288.0, 0, 0 },
	{ K_FLOAT, "platform", "mhz", 0, NULL, 0, 300.0, 0, 0 },
	{ K_FLOAT, "platform", "dram_gbps", 0, NULL, 0, 77.5, 0, 0 },
	/* Absent key of a present section: the header position. */
	{ K_POS, "platform", "uram", 0, NULL, 0, 0, 12, 3 },
	{ K_INT, "platform", "uram", 0, NULL, NO_INT, 0, 0, 0 },
	{ K_STR, "platform", "lut", 0, "dflt", 0, 0, 0, 0 },
	/* Absent section: 0/0. */
	{ K_POS, "nosuch", "x", 0, NULL, 0, 0, 0, 0 },
	{ K_NKEYS, "space", NULL, 0, NULL, 6, 0, 0, 0 },
	{ K_KEY, "space", NULL, 0, "space_time", 0, 0, 0, 0 },
	{ K_KEY, "space", NULL, 3, "array_part.k", 0, 0, 0, 0 },
	{ K_KEY, "space", NULL, 5, "latency.i", 0, 0, 0, 0 },
	{ K_KEY, "space", NULL, 6, NULL, 0, 0, 0, 0 },
	{ K_NKEYS, "kernel", NULL, 0, NULL, 7, 0, 0, 0 },
	{ K_NKEYS, "nosuch", NULL, 0, NULL, 0, 0, 0, 0 },
	{ K_INT, "space", "space_time", 0, NULL, 4, 0, 0, 0 },
	{ K_POS, "space", "space_time", 0, NULL, 1, 0, 19, 14 },
	{ K_SET, "space", "array_part", 0, "1,2,3,4,6,8,12,16,24,32,48,96", 0,
	  96, 0, 0 },
	{ K_SET, "space", "latency", 0, "1,2,4,8,16,32,64", 0, 1000, 0, 0 },
	{ K_SET, "space", "array_part.k", 0, "1,3,8,16,32,64", 0, 7, 0, 0 },
	{ K_SET, "space", "simd", 0, "1,2,4,8", 0, 0, 0, 0 },
	{ K_SET, "space", "latency.i", 0, "2", 0, 0, 0, 0 },
	{ K_POS, "space", "latency.i", 0, NULL, 1, 0, 24, 11 },
	{ K_STR, "space", "array_part.k", 0, "1, 3, 8..64 pow2", 0, 0, 0, 0 },
	{ K_STR, "search", "strategy", 0, "exhaustive", 0, 0, 0, 0 },
	{ K_NNAMES, "search", "objectives", 0, NULL, 3, 0, 0, 0 },
	{ K_NAME, "search", "objectives", 0, "latency", 0, 0, 0, 14 },
	{ K_NAME, "search", "objectives", 1, "dsp", 0, 0, 0, 23 },
	{ K_NAME, "search", "objectives", 2, "bram18k", 0, 0, 0, 28 },
	{ K_NCONS, "search", "constraints", 0, NULL, 3, 0, 0, 0 },
	{ K_CONS, "search", "constraints", 0, "dsp", 1, 0.75, 29, 15 },
	{ K_CONS, "search", "constraints", 1, "bram18k", 0, 2000, 29, 28 },
	{ K_CONS, "search", "constraints", 2, "uram", 1, 0.5, 29, 44 },
	{ K_INT, "search", "seed", 0, NULL, 0, 0, 0, 0 },
	{ K_INT, "search", "block", 0, NULL, 4096, 0, 0, 0 },
	{ K_STR, "output", "file", 0, "results/mm #1 \"a\\b\".h5", 0, 0, 0,
	  0 },
	/* Getters on a key of another type return the default. */
	{ K_NNAMES, "search", "constraints", 0, NULL, 0, 0, 0, 0 },
	{ K_INT, "kernel", "name", 0, NULL, NO_INT, 0, 0, 0 },
};

/* The candidates of a space_time key against the comma-separated text. */
static void check_candidates(const dse_cfg *cfg, const struct good_check *c)
{
	int v[16], n, i;
	char got[128] = "";

	n = dse_cfg_candidates(cfg, c->sec, c->key, v, 16);
	assert_int_equal(n, c->v);
	for (i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d",
			i ? "," : "", v[i]);
	assert_string_equal(got, c->s);
}

/* Formats n values as "a,b,c". */
static void join(const int64_t *v, int n, char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%lld", i ? "," : "",
			(long long) v[i]);
	}
}

static void check_set(const dse_cfg *cfg, const struct good_check *c)
{
	char buf[1024];
	int64_t *v = NULL;
	dse_error err;
	int n = 0;

	dse_error_clear(&err);
	assert_int_equal(dse_cfg_int_set(cfg, c->sec, c->key,
		(int64_t) c->x, &v, &n, &err), dse_stat_ok);
	join(v, n, buf, sizeof(buf));
	assert_string_equal(buf, c->s);
	free(v);
}

static void check_pos(const dse_cfg *cfg, const struct good_check *c)
{
	int line = -1, col = -1;

	assert_int_equal(dse_cfg_pos(cfg, c->sec, c->key, &line, &col),
		c->v);
	assert_int_equal(line, c->line);
	assert_int_equal(col, c->col);
}

static void check_cons(const dse_cfg *cfg, const struct good_check *c)
{
	const dse_cfg_constraint *k;

	k = dse_cfg_constraint_at(cfg, c->sec, c->key, c->i);
	assert_non_null(k);
	assert_string_equal(k->metric, c->s);
	assert_true(k->bound == c->x);
	assert_int_equal(k->fraction, c->v);
	assert_int_equal(k->line, c->line);
	assert_int_equal(k->col, c->col);
}

static void check_one(const dse_cfg *cfg, const struct good_check *c)
{
	switch (c->kind) {
	case K_STR:
		assert_string_equal(dse_cfg_string(cfg, c->sec, c->key,
			"dflt"), c->s);
		break;
	case K_INT:
		assert_int_equal(dse_cfg_int(cfg, c->sec, c->key, NO_INT),
			c->v);
		break;
	case K_CANDS:
		check_candidates(cfg, c);
		break;
	case K_FLOAT:
		assert_true(dse_cfg_float(cfg, c->sec, c->key, NO_INT) == c->x);
		break;
	case K_POS:
		check_pos(cfg, c);
		assert_int_equal(dse_cfg_has(cfg, c->sec, c->key), c->v);
		break;
	case K_NKEYS:
		assert_int_equal(dse_cfg_n_keys(cfg, c->sec), c->v);
		break;
	case K_KEY:
		if (c->s)
			assert_string_equal(dse_cfg_key_at(cfg, c->sec, c->i),
				c->s);
		else
			assert_null(dse_cfg_key_at(cfg, c->sec, c->i));
		break;
	case K_NAME:
		assert_string_equal(dse_cfg_name_at(cfg, c->sec, c->key, c->i),
			c->s);
		assert_int_equal(dse_cfg_name_col(cfg, c->sec, c->key, c->i),
			c->col);
		break;
	case K_NNAMES:
		assert_int_equal(dse_cfg_n_names(cfg, c->sec, c->key), c->v);
		break;
	case K_PARAM:
		assert_string_equal(dse_cfg_param_name(cfg, c->sec, c->key,
			c->i), c->s);
		assert_int_equal(dse_cfg_param_value(cfg, c->sec, c->key, c->i),
			c->v);
		break;
	case K_NPARAMS:
		assert_int_equal(dse_cfg_n_params(cfg, c->sec, c->key), c->v);
		break;
	case K_CONS:
		check_cons(cfg, c);
		break;
	case K_CONS_OP:
		assert_int_equal(dse_cfg_constraint_at(cfg, c->sec, c->key,
			c->i)->lower, c->v);
		assert_string_equal(dse_cfg_constraint_at(cfg, c->sec, c->key,
			c->i)->unit, c->s);
		break;
	case K_NCONS:
		assert_int_equal(dse_cfg_n_constraints(cfg, c->sec, c->key),
			c->v);
		break;
	case K_SET:
		check_set(cfg, c);
		break;
	case K_CHOICE:
		assert_int_equal(dse_cfg_choice_at(cfg, c->sec, c->key, c->i),
			c->v);
		break;
	case K_NCHOICES:
		assert_int_equal(dse_cfg_n_choices(cfg, c->sec, c->key),
			c->v);
		break;
	}
}

static void test_good(void **state)
{
	dse_error err;
	dse_cfg *cfg;
	size_t i;

	(void) state;
	dse_error_clear(&err);
	cfg = dse_cfg_parse_string(full_cfg, "full.cfg", &err);
	if (!cfg)
		print_error("%s:%d:%d: %s, key '%s'\n", err.file, err.line,
			err.col, err.msg, err.key);
	assert_non_null(cfg);
	assert_string_equal(dse_cfg_text(cfg), full_cfg);
	assert_string_equal(dse_cfg_file(cfg), "full.cfg");
	for (i = 0; i < sizeof(full_checks) / sizeof(full_checks[0]); i++)
		check_one(cfg, &full_checks[i]);
	assert_null(dse_cfg_free(cfg));
	assert_null(dse_cfg_free(NULL));
}

/* Smaller inputs, each with one value to check: the forms a value can be
 * written in.
 */
struct small_case {
	const char *text;	/* appended to KERNEL */
	struct good_check check;
};

static const struct small_case small_cases[] = {
	{ "[search]\nseed = +17 # c\n",
	  { K_INT, "search", "seed", 0, NULL, 17, 0, 0, 0 } },
	{ "[search]\nseed = 9223372036854775807\n",
	  { K_INT, "search", "seed", 0, NULL, INT64_MAX, 0, 0, 0 } },
	{ "[platform]\nmhz = .5\n",
	  { K_FLOAT, "platform", "mhz", 0, NULL, 0, 0.5, 0, 0 } },
	{ "[platform]\nmhz = 2.5e2\n",
	  { K_FLOAT, "platform", "mhz", 0, NULL, 0, 250.0, 0, 0 } },
	{ "[output]\nfile = \"\"\"a\n# not a comment\n[b]\"\"\"\n",
	  { K_STR, "output", "file", 0, "a\n# not a comment\n[b]", 0, 0, 0,
	    0 } },
	{ "[output]\nfile=x#y\n",
	  { K_STR, "output", "file", 0, "x", 0, 0, 0, 0 } },
	{ "[output]\n\tfile =\t\"  padded  \"  \n",
	  { K_STR, "output", "file", 0, "  padded  ", 0, 0, 0, 0 } },
	{ "[output]\n\tfile =\t\"  padded  \"  \n",
	  { K_POS, "output", "file", 0, NULL, 1, 0, 7, 9 } },
	{ "[search]\nconstraints = lut <= 1\n",
	  { K_CONS, "search", "constraints", 0, "lut", 0, 1, 7, 15 } },
	{ "[search]\nconstraints = lut <= 1.\n",
	  { K_CONS, "search", "constraints", 0, "lut", 1, 1, 7, 15 } },
	{ "[search]\nconstraints = ff<=12.5%\n",
	  { K_CONS, "search", "constraints", 0, "ff", 1, 0.125, 7, 15 } },
	{ "[search]\nconstraints = ff<=12.5%\n",
	  { K_NCONS, "search", "constraints", 0, NULL, 1, 0, 0, 0 } },
	{ "[search]\nconstraints = ff<=12.5%\n",
	  { K_CONS_OP, "search", "constraints", 0, "", 0, 0, 0, 0 } },
	/* Lower bounds, units (read as written; the setup knows which a
	 * metric takes), exponents.
	 */
	{ "[search]\nconstraints = gops >= 500\n",
	  { K_CONS, "search", "constraints", 0, "gops", 0, 500, 7, 15 } },
	{ "[search]\nconstraints = gops >= 500\n",
	  { K_CONS_OP, "search", "constraints", 0, "", 1, 0, 0, 0 } },
	{ "[search]\nconstraints = latency <= 1.5ms, gops>=2 TOP/s\n",
	  { K_CONS, "search", "constraints", 0, "latency", 0, 1.5, 7, 15 } },
	{ "[search]\nconstraints = latency <= 1.5ms, gops>=2 TOP/s\n",
	  { K_CONS_OP, "search", "constraints", 0, "ms", 0, 0, 0, 0 } },
	{ "[search]\nconstraints = latency <= 1.5ms, gops>=2 TOP/s\n",
	  { K_CONS_OP, "search", "constraints", 1, "TOP/s", 1, 0, 0, 0 } },
	{ "[search]\nconstraints = edp <= 3J*s\n",
	  { K_CONS_OP, "search", "constraints", 0, "J*s", 0, 0, 0, 0 } },
	{ "[search]\nconstraints = latency <= 2.5e-3\n",
	  { K_CONS, "search", "constraints", 0, "latency", 0, 2.5e-3, 7,
	    15 } },
	{ "[search]\nobjectives = x\n",
	  { K_NAME, "search", "objectives", 0, "x", 0, 0, 0, 14 } },
	/* The [kernel] keys of the analysis and the second tiling level. */
	{ "schedule = \"\"\"{ S[i] -> [i, 0];\n  T[i] -> [i, 1] }\"\"\"\n",
	  { K_STR, "kernel", "schedule", 0, "{ S[i] -> [i, 0];\n  T[i] -> "
	    "[i, 1] }", 0, 0, 0, 0 } },
	{ "schedule = { S[i] -> [i] }\n",
	  { K_POS, "kernel", "schedule", 0, NULL, 1, 0, 6, 12 } },
	{ "ops = 3\n",
	  { K_INT, "kernel", "ops", 0, NULL, 3, 0, 0, 0 } },
	{ "max_space = 3\n",
	  { K_INT, "kernel", "max_space", 0, NULL, 3, 0, 0, 0 } },
	{ "[space]\nspace_time = 0\n",
	  { K_INT, "space", "space_time", 0, NULL, 0, 0, 0, 0 } },
	{ "[space]\nspace_time = 0\n",
	  { K_CANDS, "space", "space_time", 0, "0", 1, 0, 0, 0 } },
	/* Several candidates, sorted and without repeats; dse_cfg_int
	 * gives the default for them.
	 */
	{ "[space]\nspace_time = 7, 3..5, 4\n",
	  { K_CANDS, "space", "space_time", 0, "3,4,5,7", 4, 0, 0, 0 } },
	{ "[space]\nspace_time = 7, 3..5, 4\n",
	  { K_INT, "space", "space_time", 0, NULL, NO_INT, 0, 0, 0 } },
	{ "[space]\nspace_time = 2..2\n",
	  { K_CANDS, "space", "space_time", 0, "2", 1, 0, 0, 0 } },
	{ "[space]\nspace_time = all\n",
	  { K_CANDS, "space", "space_time", 0, "", -1, 0, 0, 0 } },
	{ "[space]\nspace_time = all\n",
	  { K_INT, "space", "space_time", 0, NULL, NO_INT, 0, 0, 0 } },
	{ "[space]\narray_part = 4\n",
	  { K_CANDS, "space", "space_time", 0, "", 0, 0, 0, 0 } },
	{ "[space]\narray_part_L2 = 16..64 pow2\n",
	  { K_SET, "space", "array_part_L2", 0, "16,32,64", 0, 0, 0, 0 } },
	{ "[space]\narray_part_L2.k = 2..8 divisors\n",
	  { K_SET, "space", "array_part_L2.k", 0, "2,4,8", 0, 8, 0, 0 } },
	{ "[space]\narray_part_L2.k = 2..8 divisors\n",
	  { K_POS, "space", "array_part_L2.k", 0, NULL, 1, 0, 7, 19 } },
	{ "[space]\nsimd = 8, 1, 8, 2..3\n",
	  { K_SET, "space", "simd", 0, "1,2,3,8", 0, 0, 0, 0 } },
	{ "[space]\nsimd = 3..100 pow2\n",
	  { K_SET, "space", "simd", 0, "4,8,16,32,64", 0, 0, 0, 0 } },
	{ "[space]\nsimd = 5 .. 20 divisors\n",
	  { K_SET, "space", "simd", 0, "5,10,20", 0, 100, 0, 0 } },
	{ "[space]\nsimd = 36..36 divisors, 6..6 divisors\n",
	  { K_SET, "space", "simd", 0, "6,36", 0, 36, 0, 0 } },
	{ "[space]\nsimd = 1..2147483647 divisors\n",
	  { K_SET, "space", "simd", 0, "1,2,4,8,16,32,64,128", 0, 128, 0,
	    0 } },
	/* The I/O network and double-buffering knobs: each value is its
	 * code for the model (daisy 0, multicast 1; "0" off, "1" on).
	 */
	{ "[space]\nio_network = daisy, multicast\n",
	  { K_NCHOICES, "space", "io_network", 0, NULL, 2, 0, 0, 0 } },
	{ "[space]\nio_network = multicast ,daisy # both\n",
	  { K_CHOICE, "space", "io_network", 0, NULL, 1, 0, 0, 0 } },
	{ "[space]\nio_network = multicast ,daisy # both\n",
	  { K_CHOICE, "space", "io_network", 1, NULL, 0, 0, 0, 0 } },
	{ "[space]\nio_network = multicast\n",
	  { K_CHOICE, "space", "io_network", 1, NULL, -1, 0, 0, 0 } },
	{ "[space]\ndouble_buffer = 1, 0\n",
	  { K_CHOICE, "space", "double_buffer", 0, NULL, 1, 0, 0, 0 } },
	{ "[space]\ndouble_buffer = 1, 0\n",
	  { K_CHOICE, "space", "double_buffer", 1, NULL, 0, 0, 0, 0 } },
	{ "[space]\ndouble_buffer = 0\n",
	  { K_NCHOICES, "space", "double_buffer", 0, NULL, 1, 0, 0, 0 } },
	{ "[space]\nsimd = 4\n",
	  { K_NCHOICES, "space", "io_network", 0, NULL, 0, 0, 0, 0 } },
	{ "[space]\nio_network = daisy\n",
	  { K_POS, "space", "io_network", 0, NULL, 1, 0, 7, 14 } },
	{ "[search]\nconstraints = lut <= 0.7, energy <= 2\n",
	  { K_CONS, "search", "constraints", 1, "energy", 0, 2, 7, 27 } },
	{ "[space]\nsimd = 1..1000 divisors\n",
	  { K_SET, "space", "simd", 0, "1,7,11,13,77,91,143", 0, 1001, 0,
	    0 } },
	/* The strategy keys the parser types: names, counts and seconds;
	 * budget, weights and checkpoint stay text for the setup.
	 */
	{ "[search]\nstrategy = anneal\n",
	  { K_STR, "search", "strategy", 0, "anneal", 0, 0, 0, 0 } },
	{ "[search]\nbudget_seconds = 2.5\n",
	  { K_FLOAT, "search", "budget_seconds", 0, NULL, 0, 2.5, 0, 0 } },
	{ "[search]\nislands = 12\n",
	  { K_INT, "search", "islands", 0, NULL, 12, 0, 0, 0 } },
	{ "[search]\npopulation = 40\nmigrants = 3\n",
	  { K_INT, "search", "migrants", 0, NULL, 3, 0, 0, 0 } },
	{ "[search]\nmigrate_every = 7\n",
	  { K_INT, "search", "migrate_every", 0, NULL, 7, 0, 0, 0 } },
	{ "[search]\nbudget = 5%  # of the space\n",
	  { K_STR, "search", "budget", 0, "5%", 0, 0, 0, 0 } },
	{ "[search]\nweights = 1, 0.5\n",
	  { K_STR, "search", "weights", 0, "1, 0.5", 0, 0, 0, 0 } },
	{ "[search]\nweights = 1, 0.5\n",
	  { K_POS, "search", "weights", 0, NULL, 1, 0, 7, 11 } },
	{ "[search]\ncheckpoint = off\n",
	  { K_STR, "search", "checkpoint", 0, "off", 0, 0, 0, 0 } },
};

static void test_small(void **state)
{
	char text[512];
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(small_cases) / sizeof(small_cases[0]); i++) {
		dse_error err;
		dse_cfg *cfg;

		snprintf(text, sizeof(text), "%s%s", KERNEL,
			small_cases[i].text);
		dse_error_clear(&err);
		cfg = dse_cfg_parse_string(text, "t.cfg", &err);
		if (!cfg)
			print_error("case %zu: %d:%d: %s\n", i, err.line,
				err.col, err.msg);
		assert_non_null(cfg);
		check_one(cfg, &small_cases[i].check);
		dse_cfg_free(cfg);
	}
}

/* ---- Integer-set resolution ---------------------------------------------- */

struct set_case {
	const char *text;
	int64_t bound;
	int n;			/* expected count, or -1 for an error */
	int64_t first;
	int64_t last;
	const char *msg;	/* the error message substring */
};

static const struct set_case set_cases[] = {
	{ "1..64 pow2", 0, 7, 1, 64, NULL },
	{ "1..12 divisors", 12, 6, 1, 12, NULL },
	{ "1, 3, 8..64 pow2", 0, 6, 1, 64, NULL },
	{ "1..1000000", 0, 1000000, 1, 1000000, NULL },
	{ "2000000..2999999, 2500000..2999999", 0, 1000000, 2000000,
	  2999999, NULL },
	{ "1..1000001", 0, -1, 0, 0, "has more than 1000000 values" },
	{ "1..1000000, 500000..1500000", 0, -1, 0, 0,
	  "has more than 1000000 values" },
	{ "3..3 divisors", 1024, -1, 0, 0,
	  "built-in integer set '3..3 divisors', column 1: integer set "
	  "'3..3 divisors' is empty" },
	{ "5..7 pow2", 0, -1, 0, 0, "is empty" },
	{ "1..8 divisors", 0, -1, 0, 0,
	  "needs a positive loop bound, got 0" },
	{ "1, 9..4", 0, -1, 0, 0, "column 4: empty range 9..4" },
	{ "1, 9..0", 0, -1, 0, 0, "column 7: integer out of range" },
	{ "1, x", 0, -1, 0, 0, "column 4: expected an integer" },
	{ "", 0, -1, 0, 0, "column 1: empty item" },
};

static void test_set_text(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		const struct set_case *c = &set_cases[i];
		int64_t *v = NULL;
		dse_error err;
		dse_stat st;
		int n = 0;

		dse_error_clear(&err);
		st = dse_cfg_int_set_text(c->text, c->bound, &v, &n, &err);
		if (c->n < 0) {
			assert_int_equal(st, dse_stat_error);
			assert_int_equal(err.code, DSE_E_INPUT);
			assert_non_null(strstr(err.msg, c->msg));
			continue;
		}
		assert_int_equal(st, dse_stat_ok);
		assert_int_equal(n, c->n);
		assert_int_equal(v[0], c->first);
		assert_int_equal(v[n - 1], c->last);
		for (int k = 1; k < n; k++)
			assert_true(v[k - 1] < v[k]);
		free(v);
	}
}

/* Resolution errors of sets read from a file point at the value. */
struct set_error_case {
	const char *text;	/* appended to KERNEL */
	const char *key;
	int64_t bound;
	int line;
	int col;
	const char *msg;
};

static const struct set_error_case set_error_cases[] = {
	{ "[space]\nsimd = 3..3 divisors\n", "simd", 1024, 7, 8,
	  "integer set '3..3 divisors' is empty" },
	{ "[space]\narray_part.i =  5..7 pow2\n", "array_part.i", 0, 7, 17,
	  "is empty" },
	{ "[space]\nlatency = 1..2000000\n", "latency", 0, 7, 11,
	  "more than 1000000 values" },
	{ "[space]\nlatency = 1..64 divisors\n", "latency", -4, 7, 11,
	  "needs a positive loop bound, got -4" },
};

static void test_set_errors(void **state)
{
	char text[512];
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(set_error_cases) / sizeof(set_error_cases[0]);
	     i++) {
		const struct set_error_case *c = &set_error_cases[i];
		int64_t *v = NULL;
		dse_error err;
		dse_cfg *cfg;
		int n = 0;

		snprintf(text, sizeof(text), "%s%s", KERNEL, c->text);
		cfg = dse_cfg_parse_string(text, "t.cfg", &err);
		assert_non_null(cfg);
		dse_error_clear(&err);
		assert_int_equal(dse_cfg_int_set(cfg, "space", c->key, c->bound,
			&v, &n, &err), dse_stat_error);
		assert_null(v);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_string_equal(err.file, "t.cfg");
		assert_int_equal(err.line, c->line);
		assert_int_equal(err.col, c->col);
		assert_string_equal(err.key, c->key);
		assert_non_null(strstr(err.msg, c->msg));
		/* A key that is not an integer set is a caller error. */
		dse_error_clear(&err);
		assert_int_equal(dse_cfg_int_set(cfg, "space", "nosuch", 1, &v,
			&n, &err), dse_stat_error);
		assert_int_equal(err.code, DSE_E_RUNTIME);
		dse_cfg_free(cfg);
	}
}

/* ---- Files --------------------------------------------------------------- */

static void test_file(void **state)
{
	char path[] = "/tmp/test_cfg_XXXXXX";
	const char *text = KERNEL "[search]\nseed = 5\n";
	dse_error err;
	dse_cfg *cfg;
	FILE *f;
	int fd;

	(void) state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);

	dse_error_clear(&err);
	cfg = dse_cfg_parse_file(path, &err);
	assert_non_null(cfg);
	assert_string_equal(dse_cfg_text(cfg), text);
	assert_string_equal(dse_cfg_file(cfg), path);
	assert_int_equal(dse_cfg_int(cfg, "search", "seed", 0), 5);
	dse_cfg_free(cfg);

	/* An error inside a file names the file. */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(KERNEL "[search]\nseed = five\n", f);
	assert_int_equal(fclose(f), 0);
	assert_null(dse_cfg_parse_file(path, &err));
	assert_string_equal(err.file, path);
	assert_int_equal(err.line, 7);
	assert_int_equal(err.col, 8);
	assert_int_equal(unlink(path), 0);
}

struct unreadable_case {
	const char *path;
	const char *msg;
	const char *line;
};

static const struct unreadable_case unreadable_cases[] = {
	{ "/nonexistent-dir/x.cfg", "cannot read file: No such file or "
	  "directory", "/nonexistent-dir/x.cfg:0:0: error: cannot read file: "
	  "No such file or directory" },
	/* Only a regular file is read: a directory, a device (reading
	 * /dev/zero would never end) or a FIFO (its reader blocks until a
	 * writer comes) is refused before any read, saying what it is.
	 */
	{ "/tmp", "a directory, not a regular file: a config is read from a "
	  "regular file", "/tmp:0:0: error: a directory, not a regular file: "
	  "a config is read from a regular file" },
	{ "/dev/null", "a character device, not a regular file: a config is "
	  "read from a regular file", "/dev/null:0:0: error: a character "
	  "device, not a regular file: a config is read from a regular file" },
};

static void test_unreadable(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(unreadable_cases) / sizeof(unreadable_cases[0]);
	     i++) {
		const struct unreadable_case *c = &unreadable_cases[i];
		char line[1024];
		dse_error err;

		dse_error_clear(&err);
		assert_null(dse_cfg_parse_file(c->path, &err));
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_string_equal(err.file, c->path);
		assert_int_equal(err.line, 0);
		assert_int_equal(err.col, 0);
		assert_string_equal(err.key, "");
		assert_string_equal(err.msg, c->msg);
		dse_error_format(&err, line, sizeof(line));
		assert_string_equal(line, c->line);
	}
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest good[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_small),
	};
	static const struct CMUnitTest bad[] = {
		cmocka_unit_test(test_bad),
	};
	static const struct CMUnitTest int_set[] = {
		cmocka_unit_test(test_set_text),
		cmocka_unit_test(test_set_errors),
	};
	static const struct CMUnitTest file[] = {
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_unreadable),
	};
	const char *group = argc > 1 ? argv[1] : "";
	int failed = 0;

	if (group[0] && strcmp(group, "good") && strcmp(group, "bad") &&
	    strcmp(group, "int_set") && strcmp(group, "file")) {
		print_error("unknown group '%s'\n", group);
		return 2;
	}

	if (!strcmp(group, "good") || !group[0])
		failed += cmocka_run_group_tests_name("good", good, NULL, NULL);
	if (!strcmp(group, "bad") || !group[0])
		failed += cmocka_run_group_tests_name("bad", bad, NULL, NULL);
	if (!strcmp(group, "int_set") || !group[0])
		failed += cmocka_run_group_tests_name("int_set", int_set, NULL,
			NULL);
	if (!strcmp(group, "file") || !group[0])
		failed += cmocka_run_group_tests_name("file", file, NULL, NULL);
	return failed ? 1 : 0;
}
