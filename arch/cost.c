/* arch: what the modules of a generated array cost in fabric and energy,
 * and the figures of the multicast crossbar.
 *
 * Every constant of the resource and energy model sits in one of the
 * tables of this file with the place its figure comes from.  Where no
 * public report gives a figure, the comment says it is an estimate and
 * how it was reached, so that a measurement can replace it later.
 */
#include <math.h>

#include "arch.h"

/* LUT/FF and energy of one MAC lane.
 *
 * Energy: Horowitz, "Computing's energy problem (and what we can do about
 * it)", ISSCC 2014, 45 nm at 0.9 V: fp32 multiply 3.7 pJ + add 0.9 pJ =
 * 4.6 pJ; fp16 1.1 + 0.4 = 1.5 pJ; int32 3.1 + 0.1 = 3.2 pJ; int8 0.2 +
 * 0.03 = 0.23 pJ.  The paper gives no 16-bit integer figure; a multiplier's
 * energy grows about with the square of its width, so 0.2 x 4 = 0.8 pJ for
 * the multiply and 0.05 pJ for the add: 0.85 pJ (an estimate).
 *
 * Fabric: estimates.  With full DSP usage the Floating-Point Operator
 * (Xilinx PG060) still spends a few hundred LUTs and FFs on alignment,
 * normalisation and rounding of a single-precision multiply-add pair, and
 * HLS adds the pipeline registers of the lane: 350 LUT and 500 FF for fp32,
 * about half for fp16.  The adder's alignment and normalisation shifters
 * are the larger part, so the pair is split 150/200 LUT and 200/300 FF
 * between multiplier and adder.  An integer MAC lives in the DSP48E2; its
 * LUTs are operand registers and muxes (and for int32 the adders that join
 * the three partial products), split evenly, and packed int8 pairs need
 * the small correction adder of WP486.
 */
static const struct lane_row {
	int is_float;
	int bits;
	double pj_per_mac;
	int lut_mul, ff_mul, lut_add, ff_add;
} lanes[] = {
	{ 1, 16, 1.5, 90, 120, 110, 180 },
	{ 1, 32, 4.6, 150, 200, 200, 300 },
	{ 1, 64, 4 * 4.6, 350, 450, 450, 650 },	/* estimate: 4x fp32 */
	{ 0, 8, 0.23, 10, 20, 10, 20 },
	{ 0, 16, 0.85, 15, 30, 15, 30 },
	{ 0, 32, 3.2, 30, 60, 30, 60 },
};

#define N_LANES ((int) (sizeof(lanes) / sizeof(lanes[0])))

/* Control logic of the generated modules (estimates from the structure
 * of AutoSA's HLS code: a PE is a few nested loop counters and the FIFO
 * handshakes of its neighbours; an I/O module adds the address arithmetic
 * of its buffer; an L3 module carries an AXI4 master with burst logic,
 * which the AXI interconnect reports put at one to two thousand LUTs;
 * the dummy module at the end of a chain of PEs only reads its FIFO under
 * one loop counter).  FIFO depth 2 is what AutoSA's code generator declares for its streams.
 */
static const arch_logic logic = {
	.pe_lut = 200, .pe_ff = 300,
	.io_lut = 400, .io_ff = 600,
	.dram_lut = 1500, .dram_ff = 2500,
	.dummy_lut = 30, .dummy_ff = 40,
	.fifo_depth = 2,
};

/* FIFO mapping (UltraScale+ CLB user guide UG574): an SRLC32E shift
 * register holds 32 entries of one bit in one LUT, a RAM64M LUTRAM 64
 * entries of 3 bits in 4 LUTs (about 1.3 LUT per bit per 64 entries);
 * deeper FIFOs go to BRAM.  Each FIFO adds its counters and flags (an
 * estimate of 8 LUT and 8 FF; 30 LUT for a BRAM FIFO's wider counters)
 * and registers its output word.
 */
static const struct fifo_geometry {
	int64_t srl_depth;
	int64_t lutram_depth;
	double lutram_lut_per_bit;
	int ctrl_lut, ctrl_ff, bram_ctrl_lut;
} fifo = { 32, 512, 4.0 / 3.0, 8, 8, 30 };

/* A bank goes to URAM when one URAM block (288 Kib, 16 BRAM18K worth of
 * bits) replaces at least 8 BRAM18K of it, that is when at least half of
 * the URAM's capacity is used: the rule keeps shallow buffers, which would
 * waste most of a URAM, in BRAM.
 */
#define URAM_MIN_BRAMS 8

/* Eyeriss (Chen, Emer, Sze, ISCA 2016, Fig. 5): normalised energy of a
 * data access relative to a MAC: register file 1x, PE-to-PE (array) 2x,
 * global buffer 6x, DRAM 200x.  A MAC reads two operands and updates its
 * accumulator in registers: three register accesses.
 */
static const arch_energy energy = { 1.0, 2.0, 6.0, 200.0, 3 };

/* The multicast AXI crossbar of Colagrande and Benini, "A Multicast-
 * Capable AXI Crossbar for Many-core Machine Learning Accelerators"
 * (2024): the multicast extension costs 9% of the crossbar's area at 8x8
 * and 12% at 16x16, that is 3% per doubling of the ports, which the model
 * extends to 3% x log2(ports) (0 for a single port); every configuration
 * met its clock except 16x16, 6% slower, so the clock loses 6% per doubling
 * beyond 8 ports, bounded below by half the clock.  A multicast waits
 * until all unicast transactions are complete and vice versa: a switch
 * costs the round trip of a request and its joined response through the
 * crossbar's levels.
 */
static const struct multicast_figures {
	double area_per_doubling;
	int clock_free_log2;
	double clock_per_doubling;
	double clock_floor;
} mcast = { 0.03, 3, 0.06, 0.5 };

arch_lane_cost arch_lane_cost_of(const arch_dtype *d)
{
	const struct lane_row *best = NULL, *widest = NULL;
	arch_lane_cost c;
	int i;

	for (i = 0; i < N_LANES; i++) {
		const struct lane_row *r = &lanes[i];

		if (!d || r->is_float != (d->is_float != 0))
			continue;
		if (!widest || r->bits > widest->bits)
			widest = r;
		if (r->bits >= d->bits && (!best || r->bits < best->bits))
			best = r;
	}
	if (!best)
		best = widest ? widest : &lanes[1];
	c.pj_per_mac = best->pj_per_mac;
	c.lut_mul = best->lut_mul;
	c.ff_mul = best->ff_mul;
	c.lut_add = best->lut_add;
	c.ff_add = best->ff_add;
	c.lut = c.lut_mul + c.lut_add;
	c.ff = c.ff_mul + c.ff_add;
	return c;
}

const arch_logic *arch_logic_costs(void)
{
	return &logic;
}

int arch_fifo_mem(int64_t depth)
{
	if (depth <= fifo.srl_depth)
		return ARCH_MEM_SRL;
	return depth <= fifo.lutram_depth ? ARCH_MEM_LUTRAM : ARCH_MEM_BRAM;
}

void arch_fifo_cost(int width_bits, int64_t depth, int64_t *lut,
	int64_t *ff, int64_t *bram18k)
{
	int64_t w = width_bits > 0 ? width_bits : 1;

	*bram18k = 0;
	*ff = w + fifo.ctrl_ff;
	switch (arch_fifo_mem(depth)) {
	case ARCH_MEM_SRL:
		*lut = w + fifo.ctrl_lut;
		break;
	case ARCH_MEM_LUTRAM:
		*lut = (int64_t) ceil((double) w * fifo.lutram_lut_per_bit *
			(double) ((depth + 63) / 64)) + fifo.ctrl_lut;
		break;
	default:
		*lut = fifo.bram_ctrl_lut;
		*bram18k = arch_bram18k((int) w, depth);
		break;
	}
}

int64_t arch_uram_min_brams(void)
{
	return URAM_MIN_BRAMS;
}

void arch_buffer_map(const arch_board *board, int width_bits, int64_t depth,
	int64_t banks, int64_t *bram18k, int64_t *uram)
{
	int64_t bank_depth, b, u;

	*bram18k = *uram = 0;
	if (width_bits <= 0 || depth <= 0)
		return;
	bank_depth = arch_bank_depth(depth, &banks);
	b = arch_bram18k(width_bits, bank_depth);
	u = arch_uram(width_bits, bank_depth);
	if (board && board->uram > 0 && b >= u * URAM_MIN_BRAMS) {
		*uram = u * banks;
		return;
	}
	*bram18k = b * banks;
}

const arch_energy *arch_energy_costs(void)
{
	return &energy;
}

/* ceil(log2(n)) for n >= 1. */
static int clog2(int64_t n)
{
	int k = 0;

	while (k < 62 && ((int64_t) 1 << k) < n)
		k++;
	return k;
}

double arch_multicast_area(int64_t ports)
{
	return ports <= 1 ? 0.0 : mcast.area_per_doubling * log2((double) ports);
}

double arch_multicast_clock(int64_t ports)
{
	double over = ports <= 1 ? 0.0 :
		log2((double) ports) - mcast.clock_free_log2;
	double f = 1.0 - mcast.clock_per_doubling * (over > 0 ? over : 0.0);

	return f < mcast.clock_floor ? mcast.clock_floor : f;
}

int arch_multicast_levels(int64_t targets)
{
	return 1 + clog2(targets < 1 ? 1 : targets);
}

int arch_multicast_switch(int64_t targets)
{
	return 2 * arch_multicast_levels(targets);
}
