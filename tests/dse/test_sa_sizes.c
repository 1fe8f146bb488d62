/* Tests of the --sa-sizes reader (dse/sa_sizes.h): strings as AutoSA and
 * the results file write them, the liberties a person typing one takes
 * (order, blanks, missing prefixes), and malformed strings, each with the
 * column and the words its message must name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dse/sa_sizes.h"

struct good_case {
	const char *text;
	int space_time;		/* -1: not given */
	const char *array_part;	/* the values joined by ',', NULL: absent */
	const char *array_part_L2;
	const char *latency;
	const char *simd;
};

static const struct good_case good_cases[] = {
	{ "{kernel[]->space_time[3];kernel[]->array_part[260,256,512];"
	  "kernel[]->latency[20,16];kernel[]->simd[8]}",
	  3, "260,256,512", NULL, "20,16", "8" },
	{ "{kernel[]->space_time[0];kernel[]->array_part[16,16,16];"
	  "kernel[]->array_part_L2[32,32,32];kernel[]->latency[8,8];"
	  "kernel[]->simd[2]}",
	  0, "16,16,16", "32,32,32", "8,8", "2" },
	/* Any order, blanks anywhere, prefixes optional, a final ';'. */
	{ " { simd[4] ; kernel [ ] -> latency [ 2 , 2 ] ;\n"
	  "  array_part[8,8,8]; } ",
	  -1, "8,8,8", NULL, "2,2", "4" },
	{ "{kernel[]->array_part[1]}", -1, "1", NULL, NULL, NULL },
	{ "{S0[]->space_time[5];S0[]->array_part[2147483647,1]}",
	  5, "2147483647,1", NULL, NULL, NULL },
	/* AutoSA's documentation: LU's untiled array and empty latency
	 * list, one simd factor per candidate loop, second-level tiles.
	 */
	{ "{kernel[]->space_time[3];kernel[]->array_part[-1,-1,-1];"
	  "kernel[]->latency[]}", 3, "-1,-1,-1", NULL, "", NULL },
	{ "{kernel[]->space_time[4];kernel[]->array_part[64,56,14,64];"
	  "kernel[]->latency[4,4,7];kernel[]->simd[1,1,8]}",
	  4, "64,56,14,64", NULL, "4,4,7", "1,1,8" },
	{ "{kernel[]->space_time[3];kernel[]->array_part[16,16,16];"
	  "kernel[]->array_part_L2[2,2,2];kernel[]->latency[8,8];"
	  "kernel[]->simd[2]}", 3, "16,16,16", "2,2,2", "8,8", "2" },
	{ "{array_part[-1, 8, -1];latency[ ]}", -1, "-1,8,-1", NULL, "",
	  NULL },
};

static void join(const int32_t *v, int n, char *buf, size_t size)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%d",
			i ? "," : "", v[i]);
}

static void check_list(const dse_sa_sizes *s, enum dse_sa_entry e,
	const char *want)
{
	char got[256];

	assert_int_equal(s->given[e], want != NULL);
	if (!want) {
		assert_int_equal(s->n[e], 0);
		return;
	}
	join(s->v[e], s->n[e], got, sizeof(got));
	assert_string_equal(got, want);
}

static void test_good(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(good_cases) / sizeof(good_cases[0]); i++) {
		const struct good_case *c = &good_cases[i];
		dse_sa_sizes s;
		dse_error err;

		dse_error_clear(&err);
		if (dse_sa_sizes_parse(c->text, &s, &err))
			print_error("case %zu: %s\n", i, err.msg);
		assert_int_equal(err.code, DSE_E_NONE);
		assert_int_equal(s.given[DSE_SA_SPACE_TIME],
			c->space_time >= 0);
		if (c->space_time >= 0) {
			assert_int_equal(s.n[DSE_SA_SPACE_TIME], 1);
			assert_int_equal(s.v[DSE_SA_SPACE_TIME][0],
				c->space_time);
		}
		check_list(&s, DSE_SA_ARRAY_PART, c->array_part);
		check_list(&s, DSE_SA_ARRAY_PART_L2, c->array_part_L2);
		check_list(&s, DSE_SA_LATENCY, c->latency);
		check_list(&s, DSE_SA_SIMD, c->simd);
	}
}

struct bad_case {
	const char *text;
	int col;		/* the column the message names */
	const char *msg;	/* a substring of the message */
};

static const struct bad_case bad_cases[] = {
	{ "", 1, "expected '{' at the start, found the end of the text" },
	{ "kernel[]->simd[8]", 1, "expected '{' at the start, found 'k'" },
	{ "{}", 2, "no entries between '{' and '}'" },
	{ "{kernel[]->simd[8]", 19, "expected ';' or '}' after an entry, "
	  "found the end of the text" },
	{ "{kernel[]->simd[8]}}", 20, "unexpected text after the closing" },
	{ "{kernel[]->tile[8]}", 12, "unknown entry 'tile' (entries: "
	  "space_time, array_part, array_part_L2, latency, simd, "
	  "hbm_<array>)" },
	{ "{array_part[-2]}", 13, "array_part values must be positive, or "
	  "-1 (not tiled)" },
	{ "{array_part[-10]}", 13, "array_part values must be positive, or "
	  "-1 (not tiled)" },
	{ "{simd[-1]}", 7, "simd values must be positive" },
	{ "{latency[-1]}", 10, "latency values must be positive" },
	{ "{array_part[]}", 2, "the array_part list is empty" },
	{ "{hbm_A[2,2]}", 2, "hbm_A takes one value (the HBM banks of the "
	  "array), got 2" },
	{ "{hbm_A[x]}", 8, "expected an integer in the hbm_A list" },
	{ "{hbm_A[2];kernel[]->hbm_A[4]}", 11, "hbm_A is given twice" },
	{ "{hbm_[2]}", 2, "unknown entry 'hbm_'" },
	{ "{kernel[]->Simd[8]}", 12, "unknown entry 'Simd'" },
	{ "{kernel[]simd[8]}", 10, "expected '->' after 'kernel[]'" },
	{ "{kernel[]->[8]}", 12, "expected an entry such as" },
	{ "{;}", 2, "expected an entry such as" },
	{ "{simd[8];;latency[1]}", 10, "expected an entry such as" },
	{ "{simd 8}", 7, "expected '[' after the entry name, found '8'" },
	{ "{simd[]}", 2, "the simd list is empty" },
	{ "{simd[ ]}", 2, "the simd list is empty" },
	{ "{simd[,]}", 7, "expected an integer in the simd list, found ','" },
	{ "{simd[8,]}", 9, "expected an integer in the simd list" },
	{ "{simd[8 4]}", 9, "expected ',' or ']' in the simd list, found '4'" },
	{ "{simd[8}", 8, "expected ',' or ']' in the simd list, found '}'" },
	{ "{simd[0]}", 7, "simd values must be positive" },
	{ "{latency[4,-2]}", 12, "latency values must be positive" },
	{ "{space_time[-1]}", 13, "space_time values must be >= 0" },
	{ "{array_part[x]}", 13, "expected an integer in the array_part "
	  "list, found 'x'" },
	{ "{array_part[2147483648]}", 13, "array_part value too large" },
	{ "{array_part[99999999999999999999999]}", 13, "too large" },
	{ "{space_time[1,2]}", 16, "space_time takes one value" },
	{ "{simd[2];array_part[4];kernel[]->simd[2]}", 24,
	  "simd is given twice" },
	{ "{array_part[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]}", 52,
	  "the array_part list has more than 16 values" },
	{ "{simd[1.5]}", 8, "expected ',' or ']' in the simd list, "
	  "found '.'" },
};

static void test_bad(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		char col[32];
		dse_sa_sizes s;
		dse_error err;
		dse_stat st;

		dse_error_clear(&err);
		st = dse_sa_sizes_parse(c->text, &s, &err);
		snprintf(col, sizeof(col), "column %d: ", c->col);
		if (st == dse_stat_ok || !strstr(err.msg, c->msg) ||
		    !strstr(err.msg, col))
			print_error("case %zu '%s': got '%s'\n", i, c->text,
				st ? err.msg : "success");
		assert_int_equal(st, dse_stat_error);
		assert_int_equal(err.code, DSE_E_INPUT);
		assert_int_equal(dse_error_exit_status(&err), 2);
		assert_non_null(strstr(err.msg, "--sa-sizes"));
		assert_non_null(strstr(err.msg, col));
		assert_non_null(strstr(err.msg, c->msg));
	}
}

/* NULL is an input error, not a crash. */
static void test_null(void **state)
{
	dse_sa_sizes s;
	dse_error err;

	(void) state;
	dse_error_clear(&err);
	assert_int_equal(dse_sa_sizes_parse(NULL, &s, &err), dse_stat_error);
	assert_int_equal(err.code, DSE_E_INPUT);
	assert_string_equal(dse_sa_entry_name(DSE_SA_ARRAY_PART_L2),
		"array_part_L2");
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
