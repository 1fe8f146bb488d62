/* Tests of arch/: the board and data-type tables and the BRAM/URAM cost of
 * a buffer.  Run as "test_arch <group>" with group boards, dtypes or memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "arch/arch.h"

/* The device figures every built-in board must carry: the FPGA part's DSP
 * and BRAM18K counts from the vendor data sheets, and the kernel clock.
 */
static const struct board_case {
	const char *name;
	int64_t dsp;
	int64_t bram18k;
	int64_t uram;
	double mhz;
} board_cases[] = {
	{ "u250", 12288, 5376, 1280, 300.0 },
	{ "u280", 9024, 4032, 960, 300.0 },
	{ "vu9p", 6840, 4320, 960, 250.0 },
	{ "arty-a7-35", 90, 100, 0, 150.0 },
	{ "pynq-z1", 220, 280, 0, 150.0 },
	{ "ultra96-v2", 360, 432, 0, 300.0 },
	{ "zcu102", 2520, 1824, 0, 300.0 },
};

static void test_board_figures(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(board_cases) / sizeof(board_cases[0]); i++) {
		const struct board_case *c = &board_cases[i];
		const arch_board *b = arch_board_find(c->name);

		assert_non_null(b);
		assert_string_equal(b->name, c->name);
		assert_int_equal(b->dsp, c->dsp);
		assert_int_equal(b->bram18k, c->bram18k);
		assert_int_equal(b->uram, c->uram);
		assert_true(b->mhz == c->mhz);
	}
}

/* Every field a model divides by or compares against must be positive;
 * only URAM may be absent.
 */
static void test_board_fields_positive(void **state)
{
	int i, n = arch_board_count();

	(void) state;
	assert_true(n >= 7);
	for (i = 0; i < n; i++) {
		const arch_board *b = arch_board_at(i);

		assert_non_null(b);
		assert_true(strlen(b->name) > 0);
		assert_true(strlen(b->part) > 0);
		assert_true(b->dsp > 0);
		assert_true(b->bram18k > 0);
		assert_true(b->uram >= 0);
		assert_true(b->lut > 0);
		assert_true(b->ff > b->lut);
		assert_true(b->dram_gbps > 0);
		assert_true(b->mhz > 0);
		assert_true(b->dram_port_bits == 128 ||
			b->dram_port_bits == 512);
		assert_true(b->dram_latency > 0);
		/* Each board is found again by its own name. */
		assert_ptr_equal(arch_board_find(b->name), b);
	}
	assert_null(arch_board_at(-1));
	assert_null(arch_board_at(n));
}

static const struct lookup_case {
	const char *query;
	const char *found;	/* NULL when the lookup must fail */
} lookup_cases[] = {
	{ "u250", "u250" },
	{ "U250", "u250" },
	{ "Arty-A7-35", "arty-a7-35" },
	{ "PYNQ-Z1", "pynq-z1" },
	{ "Ultra96-V2", "ultra96-v2" },
	{ "ZCU102", "zcu102" },
	{ "u251", NULL },
	{ "u25", NULL },
	{ "u2500", NULL },
	{ "", NULL },
	{ NULL, NULL },
};

static void test_board_lookup(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(lookup_cases) / sizeof(lookup_cases[0]); i++) {
		const struct lookup_case *c = &lookup_cases[i];
		const arch_board *b = arch_board_find(c->query);

		if (!c->found) {
			assert_null(b);
			continue;
		}
		assert_non_null(b);
		assert_string_equal(b->name, c->found);
	}
}

/* The list holds every board, in table order, separated by ", ". */
static void test_board_names(void **state)
{
	char buf[512], expect[512] = "";
	char small[8];
	int i;

	(void) state;
	arch_board_names(buf, sizeof(buf));
	for (i = 0; i < arch_board_count(); i++) {
		if (i)
			strcat(expect, ", ");
		strcat(expect, arch_board_at(i)->name);
	}
	assert_string_equal(buf, expect);
	for (i = 0; i < (int) (sizeof(board_cases) / sizeof(board_cases[0]));
	     i++)
		assert_non_null(strstr(buf, board_cases[i].name));
	assert_int_equal(strncmp(buf, "u250, u280, ", 12), 0);
	/* A short buffer gets a terminated prefix. */
	arch_board_names(small, sizeof(small));
	assert_string_equal(small, "u250, u");
}

/* The data types and their operators' DSP slices (arch/arch.c names the
 * sources): fp32 multiplier 3 and adder 2 (PG060, full DSP usage), fp16 1
 * and 1, int32 3 (three 27x18 partial products of a 32-bit product) and
 * an adder in the fabric, int16 and int8 1 and the DSP's post-adder;
 * only int8 packs two multiplies in a slice (WP486).
 */
static const struct dtype_case {
	const char *query;
	const char *name;	/* NULL when the lookup must fail */
	int bits;
	double dsp_per_mac;
	int is_float;
	int dsp_mul, dsp_add, mul_per_dsp;
} dtype_cases[] = {
	{ "fp32", "fp32", 32, 5.0, 1, 3, 2, 1 },
	{ "FP32", "fp32", 32, 5.0, 1, 3, 2, 1 },
	{ "fp16", "fp16", 16, 2.0, 1, 1, 1, 1 },
	{ "int32", "int32", 32, 3.0, 0, 3, 0, 1 },
	{ "int16", "int16", 16, 1.0, 0, 1, 0, 1 },
	{ "int8", "int8", 8, 0.5, 0, 1, 0, 2 },
	{ "int4", NULL, 0, 0, 0, 0, 0, 0 },
	{ "fp64", NULL, 0, 0, 0, 0, 0, 0 },
	{ NULL, NULL, 0, 0, 0, 0, 0, 0 },
};

static void test_dtypes(void **state)
{
	size_t i;
	char buf[128];

	(void) state;
	for (i = 0; i < sizeof(dtype_cases) / sizeof(dtype_cases[0]); i++) {
		const struct dtype_case *c = &dtype_cases[i];
		const arch_dtype *d = arch_dtype_find(c->query);

		if (!c->name) {
			assert_null(d);
			continue;
		}
		assert_non_null(d);
		assert_string_equal(d->name, c->name);
		assert_int_equal(d->bits, c->bits);
		assert_true(d->dsp_per_mac == c->dsp_per_mac);
		assert_int_equal(d->is_float, c->is_float);
		assert_int_equal(d->dsp_mul, c->dsp_mul);
		assert_int_equal(d->dsp_add, c->dsp_add);
		assert_int_equal(d->mul_per_dsp, c->mul_per_dsp);
		/* Floating-point adders are pipelined over several cycles;
		 * integer accumulation takes one.
		 */
		if (c->is_float)
			assert_true(d->acc_latency > 1);
		else
			assert_int_equal(d->acc_latency, 1);
	}
	arch_dtype_names(buf, sizeof(buf));
	assert_string_equal(buf, "fp32, fp16, int32, int16, int8");
}

/* BRAM18K blocks of a width x depth buffer, worked out by hand:
 * wide mode (w > 18) ceil(w/36)*ceil(d/512), narrow ceil(w/18)*ceil(d/1024),
 * nothing at or below 1024 bits.
 */
static const struct mem_case {
	int width;
	int64_t depth;
	int64_t expect;
} bram_cases[] = {
	{ 32, 32, 0 },		/* 1024 bits: LUTRAM */
	{ 16, 64, 0 },		/* 1024 bits: LUTRAM */
	{ 16, 65, 1 },		/* 1040 bits: one block */
	{ 1, 1024, 0 },		/* 1024 bits */
	{ 1, 1025, 2 },		/* 1025 bits, narrow: 1 x ceil(1025/1024) */
	{ 1025, 1, 29 },	/* 1025 bits, wide: ceil(1025/36) x 1 */
	{ 36, 28, 0 },		/* 1008 bits */
	{ 36, 29, 1 },		/* 1044 bits */
	{ 18, 512, 1 },
	{ 18, 1024, 1 },	/* narrow mode holds 1024 deep */
	{ 18, 1025, 2 },
	{ 19, 512, 1 },		/* wide mode holds 512 deep */
	{ 19, 513, 2 },
	{ 19, 1024, 2 },	/* one bit wider than 18 doubles the blocks */
	{ 36, 512, 1 },
	{ 36, 513, 2 },
	{ 37, 512, 2 },
	{ 32, 1000, 2 },
	{ 64, 100, 2 },
	{ 512, 4096, 120 },	/* 15 x 8 */
	{ 8, 0, 0 },
	{ 8, -5, 0 },
	{ 0, 100, 0 },
	{ 32, INT64_C(1) << 40, INT64_C(1) << 31 },	/* no overflow */
};

static const struct mem_case uram_cases[] = {
	{ 72, 4096, 1 },
	{ 73, 4096, 2 },
	{ 72, 4097, 2 },
	{ 1, 1, 1 },
	{ 512, 8192, 16 },	/* 8 x 2 */
	{ 144, 10000, 6 },	/* 2 x 3 */
	{ 32, 0, 0 },
	{ 32, -1, 0 },
	{ 0, 64, 0 },
};

static void test_bram18k(void **state)
{
	size_t i;

	(void) state;
	assert_int_equal(arch_lutram_max_bits(), 1024);
	for (i = 0; i < sizeof(bram_cases) / sizeof(bram_cases[0]); i++) {
		const struct mem_case *c = &bram_cases[i];
		int64_t got = arch_bram18k(c->width, c->depth);

		if (got != c->expect)
			fail_msg("bram18k(%d, %lld) = %lld, expected %lld",
				c->width, (long long) c->depth,
				(long long) got, (long long) c->expect);
	}
	/* Bound to BRAM, a small buffer takes its blocks all the same: 32
	 * bits x 32 words (1 Kib) one, 512 bits x 11 (AutoSA's int8
	 * local_A) ceil(512/36) = 15, 8 bits x 352 one.
	 */
	assert_int_equal(arch_bram18k(32, 32), 0);
	assert_int_equal(arch_bram18k_bound(32, 32), 1);
	assert_int_equal(arch_bram18k_bound(512, 11), 15);
	assert_int_equal(arch_bram18k_bound(8, 352), 1);
	assert_int_equal(arch_bram18k_bound(0, 352), 0);
}

/* A buffer bound to each memory, worked by hand: BRAM and URAM per bank
 * of ceil(depth/banks) words, LUTRAM ceil(w/3) RAM64M cells of 4 LUTs per
 * 64 words, registers a FF a bit.
 */
static const struct cost_case {
	int mem, width;
	int64_t depth, banks;
	arch_mem_cost want;
} cost_cases[] = {
	/* 256 bits x 11: 8 BRAM18K (ceil(256/36)). */
	{ ARCH_MEM_BRAM, 256, 11, 1, { 8, 0, 0, 0 } },
	/* 32 bits x 1000 in 4 banks of 250: 1 each. */
	{ ARCH_MEM_BRAM, 32, 1000, 4, { 4, 0, 0, 0 } },
	/* 16 bits x 4096: ceil(16/18) x ceil(4096/1024) = 4. */
	{ ARCH_MEM_BRAM, 16, 4096, 1, { 4, 0, 0, 0 } },
	/* 512 bits x 128 in URAM: ceil(512/72) = 8. */
	{ ARCH_MEM_URAM, 512, 128, 1, { 0, 8, 0, 0 } },
	/* 72 bits x 8192 in 2 banks of 4096: 1 each. */
	{ ARCH_MEM_URAM, 72, 8192, 2, { 0, 2, 0, 0 } },
	/* 32 bits x 100 in LUTRAM: 11 cells x 2 (64-word) rows x 4. */
	{ ARCH_MEM_LUTRAM, 32, 100, 1, { 0, 0, 88, 0 } },
	/* 8 bits x 64 in registers: 512 FF; more banks change nothing. */
	{ ARCH_MEM_FF, 8, 64, 64, { 0, 0, 0, 512 } },
	/* More banks than words: one a word. */
	{ ARCH_MEM_BRAM, 32, 2, 8, { 2, 0, 0, 0 } },
	{ ARCH_MEM_BRAM, 0, 64, 1, { 0, 0, 0, 0 } },
	{ ARCH_MEM_BRAM, 32, 0, 1, { 0, 0, 0, 0 } },
};

static void test_buffer_cost(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(cost_cases) / sizeof(cost_cases[0]); i++) {
		const struct cost_case *c = &cost_cases[i];
		arch_mem_cost got;

		arch_buffer_cost(c->mem, c->width, c->depth, c->banks, &got);
		if (memcmp(&got, &c->want, sizeof(got)))
			fail_msg("case %zu: %lld BRAM18K %lld URAM %lld LUT "
				"%lld FF", i, (long long) got.bram18k,
				(long long) got.uram, (long long) got.lut,
				(long long) got.ff);
	}
	assert_string_equal(arch_mem_name(ARCH_MEM_BRAM), "BRAM");
	assert_string_equal(arch_mem_name(ARCH_MEM_SRL), "SRL");
	assert_null(arch_mem_name(ARCH_N_MEM));
	assert_int_equal(arch_fifo_mem(2), ARCH_MEM_SRL);
	assert_int_equal(arch_fifo_mem(64), ARCH_MEM_LUTRAM);
	assert_int_equal(arch_fifo_mem(1024), ARCH_MEM_BRAM);
}

static void test_uram(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(uram_cases) / sizeof(uram_cases[0]); i++) {
		const struct mem_case *c = &uram_cases[i];
		int64_t got = arch_uram(c->width, c->depth);

		if (got != c->expect)
			fail_msg("uram(%d, %lld) = %lld, expected %lld",
				c->width, (long long) c->depth,
				(long long) got, (long long) c->expect);
	}
}

/* Buffer mapping with partitioning and the URAM rule, on the u250 (URAM)
 * and the ZCU102 (none): a bank goes to URAM when one URAM replaces at
 * least 8 BRAM18K of it.
 */
static const struct map_case {
	const char *board;
	int width;
	int64_t depth, banks, bram, uram;
} map_cases[] = {
	/* 32b x 4096 in one bank: 8 BRAM18K -> 1 URAM on the u250. */
	{ "u250", 32, 4096, 1, 0, 1 },
	{ "zcu102", 32, 4096, 1, 8, 0 },
	/* 32b x 2048: 4 BRAM18K, too shallow for URAM. */
	{ "u250", 32, 2048, 1, 4, 0 },
	/* 32b x 512 read 4 words a cycle: 4 banks of 128 -> 1 each. */
	{ "u250", 32, 512, 4, 4, 0 },
	/* 32b x 64 in 2 banks of 32 words (1024 bits): LUTRAM, no block. */
	{ "u250", 32, 64, 2, 0, 0 },
	/* 32b x 65536 in 2 banks of 32768: 8 URAM each. */
	{ "u250", 32, 65536, 2, 0, 16 },
};

static void test_buffer_map(void **state)
{
	size_t i;

	(void) state;
	for (i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
		const struct map_case *c = &map_cases[i];
		int64_t b, u;

		arch_buffer_map(arch_board_find(c->board), c->width, c->depth,
			c->banks, &b, &u);
		if (b != c->bram || u != c->uram)
			fail_msg("case %zu: %lld BRAM18K %lld URAM", i,
				(long long) b, (long long) u);
	}
}

/* FIFOs: depth 2 as SRL (w + 8 LUT), 64 as LUTRAM (ceil(w*4/3) + 8),
 * 1024 deep in BRAM; the multicast figures of the seed; lane costs.
 */
static void test_costs(void **state)
{
	int64_t lut, ff, bram;
	arch_lane_cost c;

	(void) state;
	arch_fifo_cost(64, 2, &lut, &ff, &bram);
	assert_true(lut == 72 && ff == 72 && bram == 0);
	arch_fifo_cost(30, 64, &lut, &ff, &bram);
	assert_true(lut == 48 && ff == 38 && bram == 0);
	arch_fifo_cost(32, 1024, &lut, &ff, &bram);
	assert_true(lut == 30 && bram == 2);
	assert_true(fabs(arch_multicast_area(8) - 0.09) < 1e-12);
	assert_true(fabs(arch_multicast_area(16) - 0.12) < 1e-12);
	assert_true(arch_multicast_area(1) == 0.0);
	assert_true(arch_multicast_clock(8) == 1.0);
	assert_true(fabs(arch_multicast_clock(16) - 0.94) < 1e-12);
	assert_true(fabs(arch_multicast_clock(32) - 0.88) < 1e-12);
	assert_int_equal(arch_multicast_levels(1), 1);
	assert_int_equal(arch_multicast_levels(16), 5);
	assert_int_equal(arch_multicast_levels(13), 5);
	c = arch_lane_cost_of(arch_dtype_find("fp32"));
	assert_true(c.pj_per_mac == 4.6 && c.lut == 350 && c.ff == 500);
	assert_true(c.lut_mul + c.lut_add == c.lut &&
		c.ff_mul + c.ff_add == c.ff);
	c = arch_lane_cost_of(arch_dtype_find("int8"));
	assert_true(c.pj_per_mac == 0.23);
	assert_true(arch_energy_costs()->dram == 200.0 &&
		arch_energy_costs()->hop == 2.0 &&
		arch_energy_costs()->buffer == 6.0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest boards[] = {
		cmocka_unit_test(test_board_figures),
		cmocka_unit_test(test_board_fields_positive),
		cmocka_unit_test(test_board_lookup),
		cmocka_unit_test(test_board_names),
	};
	const struct CMUnitTest dtypes[] = {
		cmocka_unit_test(test_dtypes),
	};
	const struct CMUnitTest memory[] = {
		cmocka_unit_test(test_bram18k),
		cmocka_unit_test(test_uram),
		cmocka_unit_test(test_buffer_map),
		cmocka_unit_test(test_buffer_cost),
		cmocka_unit_test(test_costs),
	};
	const char *group = argc > 1 ? argv[1] : "all";
	int all = strcmp(group, "all") == 0, failed = 0, ran = 0;

	if (all || strcmp(group, "boards") == 0)
		failed += cmocka_run_group_tests_name("arch.boards", boards,
			NULL, NULL), ran = 1;
	if (all || strcmp(group, "dtypes") == 0)
		failed += cmocka_run_group_tests_name("arch.dtypes", dtypes,
			NULL, NULL), ran = 1;
	if (all || strcmp(group, "memory") == 0)
		failed += cmocka_run_group_tests_name("arch.memory", memory,
			NULL, NULL), ran = 1;
	if (!ran) {
		fprintf(stderr, "unknown test group '%s'\n", group);
		return 2;
	}
	return failed ? 1 : 0;
}
