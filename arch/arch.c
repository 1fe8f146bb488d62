/* arch: the built-in boards, data types and the BRAM/URAM cost of a buffer.
 *
 * Every hardware number the models use is in one of the const tables of
 * this file.  The figures of each board come from the vendor's device data
 * sheet (DSP, BRAM, URAM, LUT, FF of the FPGA part) and the board's own
 * reference manual (external memory and the usual kernel clock); the source
 * is named next to each entry.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "arch.h"

/* Assumed DRAM latencies, in kernel cycles from a read request to its first
 * data beat.  A DDR3/DDR4/LPDDR4 access through the memory controller and
 * the AXI interconnect costs roughly 200 ns; at the 150-300 MHz kernel
 * clocks of the boards below that is on the order of 64 cycles.  HBM
 * stacks add the switch network of the HBM subsystem and are slower to the
 * first beat, so they get about 100 cycles.  Only the prologue of a design
 * pays this, so the numbers need not be exact.
 */
#define DDR_LATENCY 64
#define HBM_LATENCY 100

/* Widths of one memory-mapped port.  Alveo and F1 shells expose 512-bit
 * AXI ports to kernels; the Zynq high-performance ports and the small
 * Artix memory interfaces are used at 128 bits.
 */
#define PORT_ALVEO 512
#define PORT_EMBEDDED 128

static const arch_board boards[] = {
	/* Alveo U250 (XCU250): DS962 Alveo U200/U250 data sheet and
	 * UG1120.  12,288 DSP; 2,688 BRAM36 = 5,376 BRAM18K; 1,280 URAM;
	 * 1,728K LUT; 3,456K FF.  Four DDR4-2400 x72 channels, 4 x 19.2 =
	 * 77 GB/s; 300 MHz kernel clock of the shell.
	 */
	{ "u250", "xcu250-figd2104-2L-e", 12288, 5376, 1280, 1728000,
	  3456000, 77.0, 300.0, PORT_ALVEO, DDR_LATENCY },
	/* Alveo U280 (XCU280): DS963 Alveo U280 data sheet.  9,024 DSP;
	 * 2,016 BRAM36 = 4,032 BRAM18K; 960 URAM; 1,304K LUT; 2,607K FF.
	 * 8 GB HBM2 at 460 GB/s; 300 MHz kernel clock.
	 */
	{ "u280", "xcu280-fsvh2892-2L-e", 9024, 4032, 960, 1304000,
	  2607000, 460.0, 300.0, PORT_ALVEO, HBM_LATENCY },
	/* Virtex UltraScale+ VU9P as on AWS EC2 F1: DS890 UltraScale
	 * architecture overview.  6,840 DSP; 2,160 BRAM36 = 4,320 BRAM18K;
	 * 960 URAM; 1,182K LUT; 2,364K FF.  Four DDR4 channels, 64 GB/s in
	 * the F1 documentation; the F1 shell runs kernels at 250 MHz.
	 */
	{ "vu9p", "xcvu9p-flgb2104-2-i", 6840, 4320, 960, 1182240,
	  2364480, 64.0, 250.0, PORT_ALVEO, DDR_LATENCY },
	/* Digilent Arty A7-35 (XC7A35T): DS180 7 Series overview.  90 DSP;
	 * 50 BRAM36 = 100 BRAM18K; no URAM; 20,800 LUT; 41,600 FF.  256 MB
	 * DDR3L on a 16-bit bus.  The memory parts are rated for 1,333
	 * MT/s, but the board's -1L FPGA runs its memory controller slower:
	 * the MIG that Digilent's board preset generates for this part has
	 * a 3,077 ps memory clock (325 MHz, 650 MT/s), so 650 MT/s x 2
	 * bytes = 1.3 GB/s.  Clock 150 MHz as in the Tensil benchmark table.
	 */
	{ "arty-a7-35", "xc7a35ticsg324-1L", 90, 100, 0, 20800, 41600, 1.3,
	  150.0, PORT_EMBEDDED, DDR_LATENCY },
	/* Digilent PYNQ-Z1 (XC7Z020): DS190 Zynq-7000 overview.  220 DSP;
	 * 140 BRAM36 = 280 BRAM18K; no URAM; 53,200 LUT; 106,400 FF.  The
	 * board reference manual lists 512 MB DDR3, 16-bit bus at 1,050 MT/s
	 * (2.1 GB/s).  Clock 150 MHz as in the Tensil benchmark table.
	 */
	{ "pynq-z1", "xc7z020clg400-1", 220, 280, 0, 53200, 106400, 2.1,
	  150.0, PORT_EMBEDDED, DDR_LATENCY },
	/* Avnet Ultra96-V2 (XCZU3EG): DS891 Zynq UltraScale+ MPSoC overview.
	 * 360 DSP; 216 BRAM36 = 432 BRAM18K; no URAM; 70,560 LUT; 141,120 FF.
	 * 2 GB LPDDR4, 32-bit bus at 2,133 MT/s (8.5 GB/s).  Clock 300 MHz
	 * as in the Tensil benchmark table.
	 */
	{ "ultra96-v2", "xczu3eg-sbva484-1-i", 360, 432, 0, 70560, 141120,
	  8.5, 300.0, PORT_EMBEDDED, DDR_LATENCY },
	/* Xilinx ZCU102 (XCZU9EG): DS891 Zynq UltraScale+ MPSoC overview and
	 * UG1182.  2,520 DSP; 912 BRAM36 = 1,824 BRAM18K; no URAM; 274,080
	 * LUT; 548,160 FF.  PS DDR4, 64-bit bus at 2,400 MT/s (19.2 GB/s);
	 * 300 MHz kernel clock.
	 */
	{ "zcu102", "xczu9eg-ffvb1156-2-e", 2520, 1824, 0, 274080, 548160,
	  19.2, 300.0, PORT_EMBEDDED, DDR_LATENCY },
};

#define N_BOARDS ((int) (sizeof(boards) / sizeof(boards[0])))

/* The data types of the compute units.
 *
 * DSP slices of the operators, as Vivado HLS binds them in the code AutoSA
 * generates (which asks for no particular core, so HLS takes its default,
 * the full-DSP implementations):
 * - fp32: the Floating-Point Operator core (Xilinx PG060) takes 3 DSP48
 *   slices for a single-precision multiplier and 2 for the adder; AutoSA's
 *   own resource model charges 5 a multiply-add as well.  A lane of a
 *   three-operand statement (MTTKRP's A*B*C summed) is two multipliers and
 *   one adder: 8.
 * - fp16: one slice for the half-precision multiplier and one for the adder.
 * - int32: a 32 x 32-bit product kept to 32 bits needs three of the
 *   DSP48E2's 27 x 18 multipliers (low x low, and the two cross products;
 *   high x high only reaches bits 34 and up); the add is in the fabric.
 * - int16: one DSP48E2 (27x18 multiplier with a 48-bit accumulator) does
 *   the multiply, and its post-adder the accumulation.
 * - int8: one slice a multiply, as HLS binds it; two 8-bit multiplies
 *   sharing an operand fit in one DSP48E2 (Xilinx WP486, "Deep Learning
 *   with INT8 Optimization on Xilinx Devices"), which AutoSA's code does
 *   not do unless asked: mul_per_dsp = 2 is used only with DSP packing.
 * The hand-built accelerators of the GNN families pack int8 pairs and
 * charge dsp_per_mac a multiply-accumulate (0.5 for int8).
 *
 * Accumulation latency, the cycles of the loop-carried add:
 * - fp32: the pipelined single-precision adder is 4 to 5 stages at
 *   250-300 MHz in HLS reports; the model takes the conservative 5.
 * - fp16: the half-precision adder is a stage shorter, 4.
 * - integers: the DSP's post-adder (or a fabric adder) accumulates in one
 *   cycle.
 */
static const arch_dtype dtypes[] = {
	{ "fp32", 32, 5.0, 5, 1, 3, 2, 1 },
	{ "fp16", 16, 2.0, 4, 1, 1, 1, 1 },
	{ "int32", 32, 3.0, 1, 0, 3, 0, 1 },
	{ "int16", 16, 1.0, 1, 0, 1, 0, 1 },
	{ "int8", 8, 0.5, 1, 0, 1, 0, 2 },
};

#define N_DTYPES ((int) (sizeof(dtypes) / sizeof(dtypes[0])))

/* The geometry of the on-chip memories, in one place.
 *
 * A BRAM18K block is 18 Kib: 1024 words of 18 bits, or 512 words of 36 bits
 * in its widest (simple dual-port) mode.  A URAM block is 4096 words of 72
 * bits.  HLS keeps arrays of at most about 1 Kib in registers or LUTRAM
 * rather than spending a block on them when the code leaves the choice to
 * it, so buffers up to lutram_max_bits cost no BRAM in arch_bram18k; code
 * that binds a buffer to BRAM (AutoSA's) pays arch_bram18k_bound.  A
 * RAM64M LUTRAM cell holds 64 words of 3 bits in 4 LUTs (UltraScale+ CLB
 * user guide UG574).
 */
static const struct memory_geometry {
	int64_t lutram_max_bits;
	int bram_narrow_width;	/* widths up to this use the deep mode */
	int64_t bram_narrow_depth;
	int bram_wide_width;
	int64_t bram_wide_depth;
	int uram_width;
	int64_t uram_depth;
	int lutram_cell_bits;	/* a RAM64M: 64 words of 3 bits */
	int lutram_cell_luts;	/* in 4 LUTs (UG574) */
	int64_t lutram_depth;
} geometry = { 1024, 18, 1024, 36, 512, 72, 4096, 3, 4, 64 };

const arch_board *arch_board_find(const char *name)
{
	int i;

	if (!name)
		return NULL;
	for (i = 0; i < N_BOARDS; i++)
		if (strcasecmp(boards[i].name, name) == 0)
			return &boards[i];
	return NULL;
}

int arch_board_count(void)
{
	return N_BOARDS;
}

const arch_board *arch_board_at(int i)
{
	if (i < 0 || i >= N_BOARDS)
		return NULL;
	return &boards[i];
}

/* Writes "a, b, c" from a list of names reached through "name_at"; the
 * output is truncated (and still terminated) when buf is too small.
 */
static void join_names(char *buf, size_t size, int n,
	const char *(*name_at)(int))
{
	size_t used = 0;
	int i;

	if (!buf || size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++) {
		int k = snprintf(buf + used, size - used, "%s%s",
			i ? ", " : "", name_at(i));
		if (k < 0)
			return;
		used += (size_t) k;
	}
}

static const char *board_name_at(int i)
{
	return boards[i].name;
}

static const char *dtype_name_at(int i)
{
	return dtypes[i].name;
}

void arch_board_names(char *buf, size_t size)
{
	join_names(buf, size, N_BOARDS, board_name_at);
}

/* The DSP slice's maximum frequency by family and speed grade (-1, -2,
 * -3): DSP48E2 of UltraScale+ (DS923 and DS925 switching
 * characteristics: 644, 775, 891 MHz; the -2L parts of the Alveo cards
 * run at the -2 figure) and DSP48E1 of the 7 series (DS181 and DS187:
 * 464, 550, 628 MHz).  The block RAMs are slower still, so no design of
 * the part clocks above these.
 */
static const struct part_fmax {
	const char *prefix[4];	/* part name prefixes of the family */
	double mhz[3];
} part_fmax[] = {
	{ { "xcu", "xcvu", "xczu", NULL }, { 644, 775, 891 } },
	{ { "xc7a", "xc7z", "xc7k", "xc7v" }, { 464, 550, 628 } },
};

double arch_board_max_mhz(const arch_board *b)
{
	const char *p;
	size_t f, i;
	int grade = 0;

	if (!b)
		return 0;
	/* The speed grade is the first field after a '-' that starts
	 * with a digit ("-2L", "-1").
	 */
	for (p = strchr(b->part, '-'); p && !grade; p = strchr(p + 1, '-'))
		if (p[1] >= '1' && p[1] <= '3')
			grade = p[1] - '0';
	if (!grade)
		return 0;
	for (f = 0; f < sizeof(part_fmax) / sizeof(part_fmax[0]); f++)
		for (i = 0; i < 4 && part_fmax[f].prefix[i]; i++)
			if (!strncasecmp(b->part, part_fmax[f].prefix[i],
					strlen(part_fmax[f].prefix[i])))
				return part_fmax[f].mhz[grade - 1];
	return 0;
}

const arch_dtype *arch_dtype_find(const char *name)
{
	int i;

	if (!name)
		return NULL;
	for (i = 0; i < N_DTYPES; i++)
		if (strcasecmp(dtypes[i].name, name) == 0)
			return &dtypes[i];
	return NULL;
}

void arch_dtype_names(char *buf, size_t size)
{
	join_names(buf, size, N_DTYPES, dtype_name_at);
}

int64_t arch_lutram_max_bits(void)
{
	return geometry.lutram_max_bits;
}

int64_t arch_bram18k(int width_bits, int64_t depth)
{
	if (width_bits <= 0 || depth <= 0)
		return 0;
	/* Compare by division so that width x depth cannot overflow. */
	if (depth <= geometry.lutram_max_bits / width_bits)
		return 0;
	return arch_bram18k_bound(width_bits, depth);
}

int64_t arch_bram18k_bound(int width_bits, int64_t depth)
{
	const struct memory_geometry *g = &geometry;

	if (width_bits <= 0 || depth <= 0)
		return 0;
	if (width_bits > g->bram_narrow_width)
		return dse_cdiv(width_bits, g->bram_wide_width) *
			dse_cdiv(depth, g->bram_wide_depth);
	return dse_cdiv(width_bits, g->bram_narrow_width) *
		dse_cdiv(depth, g->bram_narrow_depth);
}

int64_t arch_uram(int width_bits, int64_t depth)
{
	if (width_bits <= 0 || depth <= 0)
		return 0;
	return dse_cdiv(width_bits, geometry.uram_width) *
		dse_cdiv(depth, geometry.uram_depth);
}

static const char *const mem_names[ARCH_N_MEM] = {
	[ARCH_MEM_FF] = "FF",
	[ARCH_MEM_SRL] = "SRL",
	[ARCH_MEM_LUTRAM] = "LUTRAM",
	[ARCH_MEM_BRAM] = "BRAM",
	[ARCH_MEM_URAM] = "URAM",
};

const char *arch_mem_name(int mem)
{
	return mem >= 0 && mem < ARCH_N_MEM ? mem_names[mem] : NULL;
}

int64_t arch_bank_depth(int64_t depth, int64_t *banks)
{
	if (*banks < 1)
		*banks = 1;
	if (*banks > depth)
		*banks = depth;
	return dse_cdiv(depth, *banks);
}

void arch_buffer_cost(int mem, int width_bits, int64_t depth, int64_t banks,
	arch_mem_cost *out)
{
	const struct memory_geometry *g = &geometry;
	int64_t bank;

	memset(out, 0, sizeof(*out));
	if (width_bits <= 0 || depth <= 0)
		return;
	bank = arch_bank_depth(depth, &banks);
	switch (mem) {
	case ARCH_MEM_BRAM:
		out->bram18k = banks * arch_bram18k_bound(width_bits, bank);
		break;
	case ARCH_MEM_URAM:
		out->uram = banks * arch_uram(width_bits, bank);
		break;
	case ARCH_MEM_LUTRAM:
	case ARCH_MEM_SRL:
		out->lut = banks * dse_cdiv(width_bits, g->lutram_cell_bits) *
			g->lutram_cell_luts * dse_cdiv(bank, g->lutram_depth);
		break;
	default:
		out->ff = (int64_t) width_bits * depth;
		break;
	}
}
