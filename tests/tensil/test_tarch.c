/* Tests of tensil/tarch.c: the instruction layout against the sizes
 * Tensil's tools print for its own architecture files, the DRAM cycles of
 * the latency model, the resources of the published configurations (they
 * must fit their boards; larger ones must not), the ranges, and the .tarch
 * JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tensil/tarch.h"

/* Instruction sizes from Tensil's summaries: the PYNQ-Z1 tutorial's RTL
 * summary for pynqz1.tarch (local 8192, accumulators 2048, DRAM 2^20:
 * operands of 16, 24 and 16 bits, 8 bytes) and the Ultra96 tutorial's
 * compiler summary for ultra96v2.tarch (local 20480, accumulators 4096,
 * DRAM 2^21: operands 24, 24, 16, 9 bytes).  Operand 2 of 16 bits moves at
 * most 2^16 vectors.
 */
static void test_layout(void **state)
{
	static const struct {
		const char *board;
		int bytes;
		int64_t max_size;
	} cases[] = {
		{ "pynq-z1", 8, 65536 },
		{ "ultra96-v2", 9, 65536 },
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		tensil_arch a;

		tensil_arch_default(arch_board_find(cases[c].board), &a);
		if (!strcmp(cases[c].board, "pynq-z1"))
			a.array_size = 8;	/* the tutorial's array */
		assert_int_equal(tensil_arch_instruction_bytes(&a),
			cases[c].bytes);
		assert_int_equal(tensil_arch_max_size(&a), cases[c].max_size);
	}
}

/* Cycles a vector of a DRAM read and write: 128-bit transfers at 2 and 1
 * cycles, unless the board is slower.
 */
static void test_dram_cycles(void **state)
{
	static const struct {
		int dtype, n;
		double gbps, mhz, rd, wr;
	} cases[] = {
		/* 8 x 16 = 128 bits: one transfer */
		{ TENSIL_FP16BP8, 8, 2.67, 150, 2, 1 },
		/* The Arty A7-35's 1.3 GB/s at 150 MHz is 8.67 bytes a
		 * cycle: the 16 bytes written take 1.85 cycles, a read
		 * still Tensil's 2.
		 */
		{ TENSIL_FP16BP8, 8, 1.3, 150, 2, 16.0 / (1.3e3 / 150) },
		/* 12 x 16 = 192 bits: two transfers; PYNQ-Z1's 2.1 GB/s at
		 * 150 MHz is 14 bytes a cycle, so the 32 bytes written take
		 * 32 / 14 cycles rather than 2.
		 */
		{ TENSIL_FP16BP8, 12, 2.1, 150, 4, 32.0 / 14.0 },
		{ TENSIL_FP16BP8, 16, 8.5, 300, 4, 2 },
		/* 8 x 32 = 256 bits: two */
		{ TENSIL_FP32B16, 8, 2.67, 150, 4, 2 },
		/* 0.1 GB/s at 100 MHz is 1 byte a cycle: 16 cycles for 16
		 * bytes, whatever the direction.
		 */
		{ TENSIL_FP16BP8, 8, 0.1, 100, 16, 16 },
		/* 1.2 GB/s at 150 MHz is 8 bytes a cycle: reads unchanged at
		 * 2, writes slowed to 2.
		 */
		{ TENSIL_FP16BP8, 8, 1.2, 150, 2, 2 },
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		tensil_arch a;

		tensil_arch_default(NULL, &a);
		a.data_type = cases[c].dtype;
		a.array_size = cases[c].n;
		a.dram_gbps = cases[c].gbps;
		a.mhz = cases[c].mhz;
		assert_float_equal(tensil_arch_read_cycles(&a), cases[c].rd,
			1e-9);
		assert_float_equal(tensil_arch_write_cycles(&a), cases[c].wr,
			1e-9);
	}
}

/* The published configurations on their boards.  DSP: one a PE and one a
 * SIMD lane.  BRAM18K: local memory and accumulators of n x 16 bits,
 * 36-bit wide blocks of 512 words: 8 x 8 -> 4 x 16 + 4 x 4 = 80; 12 x 12
 * -> 6 x 16 + 6 x 4 = 120; 16 x 16 -> 8 x 40 + 8 x 8 = 384.
 */
static void test_resources(void **state)
{
	static const struct {
		const char *board;
		int64_t dsp, bram;
	} cases[] = {
		{ "arty-a7-35", 64 + 8, 80 },
		{ "pynq-z1", 144 + 12, 120 },
		{ "ultra96-v2", 256 + 16, 384 },
	};
	size_t c;
	tensil_arch a;
	tensil_resources r;
	const arch_board *b;

	(void) state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		b = arch_board_find(cases[c].board);
		assert_non_null(b);
		tensil_arch_default(b, &a);
		tensil_arch_resources(&a, b, &r);
		assert_int_equal(r.dsp, cases[c].dsp);
		assert_int_equal(r.bram18k, cases[c].bram);
		assert_int_equal(r.uram, 0);
		assert_true(tensil_resources_fit(&r, b));
	}
	/* Ultra96's 16 x 16 array on the Arty: 272 DSP of 90. */
	b = arch_board_find("ultra96-v2");
	tensil_arch_default(b, &a);
	tensil_arch_resources(&a, arch_board_find("arty-a7-35"), &r);
	assert_false(tensil_resources_fit(&r, arch_board_find("arty-a7-35")));
	/* FP32B16 takes four DSP slices a multiplier: 4 x 64 + 4 x 8. */
	b = arch_board_find("arty-a7-35");
	tensil_arch_default(b, &a);
	a.data_type = TENSIL_FP32B16;
	tensil_arch_resources(&a, b, &r);
	assert_int_equal(r.dsp, 4 * 64 + 4 * 8);
	assert_false(tensil_resources_fit(&r, b));
	/* A deep 32 x 32 local memory goes to URAM on the U250 (512 bits x
	 * 65536: 8 x 16 = 128 URAM against 15 x 128 BRAM18K) and to BRAM on
	 * the ZCU102, which has none.
	 */
	a.data_type = TENSIL_FP16BP8;
	a.array_size = 32;
	a.local_depth = 65536;
	a.accumulator_depth = 4096;
	tensil_arch_resources(&a, arch_board_find("u250"), &r);
	assert_int_equal(r.uram, 128 + 8);
	tensil_arch_resources(&a, arch_board_find("zcu102"), &r);
	assert_int_equal(r.uram, 0);
	assert_int_equal(r.bram18k, 15 * 128 + 15 * 8);
}

static void test_check(void **state)
{
	static const char *const fields[] = {
		"data_type", "array_small", "array_big", "dram0", "local",
		"local_big", "acc", "simd", "stride", "mhz"
	};
	size_t c;

	(void) state;
	for (c = 0; c < sizeof(fields) / sizeof(fields[0]); c++) {
		tensil_arch a;

		tensil_arch_default(arch_board_find("ultra96-v2"), &a);
		assert_null(tensil_arch_check(&a));
		if (!strcmp(fields[c], "data_type"))
			a.data_type = 2;
		else if (!strcmp(fields[c], "array_small"))
			a.array_size = 1;
		else if (!strcmp(fields[c], "array_big"))
			a.array_size = 257;
		else if (!strcmp(fields[c], "dram0"))
			a.dram0_depth = TENSIL_MAX_DRAM_DEPTH + 1;
		else if (!strcmp(fields[c], "local"))
			a.local_depth = 1;
		else if (!strcmp(fields[c], "local_big"))
			a.local_depth = 65537;
		else if (!strcmp(fields[c], "acc"))
			a.accumulator_depth = 0;
		else if (!strcmp(fields[c], "simd"))
			a.simd_registers_depth = 17;
		else if (!strcmp(fields[c], "stride"))
			a.stride0_depth = 0;
		else
			a.mhz = 0;
		if (!tensil_arch_check(&a))
			fail_msg("%s out of range was accepted", fields[c]);
	}
}

/* The JSON of Ultra96's shipped architecture, as ultra96v2.tarch. */
static void test_json(void **state)
{
	const char *want =
		"{\n"
		"    \"data_type\": \"FP16BP8\",\n"
		"    \"array_size\": 16,\n"
		"    \"dram0_depth\": 2097152,\n"
		"    \"dram1_depth\": 2097152,\n"
		"    \"local_depth\": 20480,\n"
		"    \"accumulator_depth\": 4096,\n"
		"    \"simd_registers_depth\": 1,\n"
		"    \"stride0_depth\": 8,\n"
		"    \"stride1_depth\": 8\n"
		"}\n";
	char buf[512], small[16];
	tensil_arch a;
	int n;

	(void) state;
	tensil_arch_default(arch_board_find("ultra96-v2"), &a);
	n = tensil_arch_json(&a, buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_int_equal(n, (int) strlen(want));
	/* Cut short, still terminated, and the length still told. */
	assert_int_equal(tensil_arch_json(&a, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

static void test_names(void **state)
{
	tensil_arch a;

	(void) state;
	assert_string_equal(tensil_dtype_name(TENSIL_FP32B16), "FP32B16");
	assert_int_equal(tensil_dtype_find("fp16bp8"), TENSIL_FP16BP8);
	assert_int_equal(tensil_dtype_find("fp8"), -1);
	assert_null(tensil_dtype_name(7));
	assert_int_equal(tensil_dtype_bits(TENSIL_FP32B16), 32);
	/* Boards without a shipped file get zcu104.tarch's array. */
	tensil_arch_default(arch_board_find("u250"), &a);
	assert_int_equal(a.array_size, 32);
	assert_int_equal(a.local_depth, 16384);
	assert_true(a.mhz == 300.0);
	tensil_arch_default(arch_board_find("pynq-z1"), &a);
	assert_int_equal(a.array_size, 12);
	assert_int_equal(a.local_depth, 8192);
	assert_int_equal(a.accumulator_depth, 2048);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_dram_cycles),
		cmocka_unit_test(test_resources),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
