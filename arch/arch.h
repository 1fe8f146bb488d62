/* arch: boards, data types and the cost of on-chip memories.
 *
 * Every hardware number the models use lives in the tables behind this
 * header, never in a formula elsewhere.  The types are small values the
 * caller copies freely; nothing here allocates.
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include <stddef.h>
#include <stdint.h>

#define ARCH_NAME_LEN 32

/* One FPGA board (or a board with some fields overridden from the config). */
typedef struct arch_board {
	char name[ARCH_NAME_LEN];
	char part[ARCH_NAME_LEN];	/* the FPGA part, for the record */
	int64_t dsp;
	int64_t bram18k;
	int64_t uram;
	int64_t lut;
	int64_t ff;
	double dram_gbps;	/* peak off-chip bandwidth, GB/s (1e9 bytes) */
	double mhz;		/* default kernel clock */
	int dram_port_bits;	/* width of one memory-mapped port */
	int dram_latency;	/* cycles from request to first beat */
} arch_board;

/* Finds a built-in board by name (case-insensitive); NULL when unknown. */
const arch_board *arch_board_find(const char *name);

/* The number of built-in boards, and the i-th one (0 <= i < count). */
int arch_board_count(void);
const arch_board *arch_board_at(int i);

/* Writes the comma-separated list of built-in board names into buf. */
void arch_board_names(char *buf, size_t size);

/* The fastest clock the board's FPGA part can run a design at: the
 * maximum frequency of its DSP slices for its family and speed grade,
 * read from the part name ("xcu250-figd2104-2L-e": UltraScale+, -2).
 * 0 for a part whose family or grade is not known.
 */
double arch_board_max_mhz(const arch_board *b);

/* A data type of the compute units and what its operators cost.
 *
 * dsp_mul and dsp_add are the DSP slices of one multiplier and one adder
 * as HLS binds them in the code AutoSA generates (0: the adder lives in
 * the fabric or in the DSP's own post-adder); a lane of the systolic
 * family costs its statement's multipliers and adders.  mul_per_dsp is
 * how many multiplies one slice holds when DSP packing is asked for (two
 * 8-bit products sharing an operand, Xilinx WP486); 1 for types that do
 * not pack.  dsp_per_mac is the cost of one multiply-accumulate unit of
 * the hand-built accelerators (the GNN families), which do pack int8.
 */
typedef struct arch_dtype {
	char name[ARCH_NAME_LEN];	/* "fp32", "fp16", "int32", "int16",
					 * "int8" */
	int bits;
	double dsp_per_mac;	/* DSP slices for one MAC unit */
	int acc_latency;	/* cycles of the accumulation (loop-carried) */
	int is_float;		/* GFLOP/s for floats, GOP/s for integers */
	int dsp_mul;		/* DSP slices of one multiplier */
	int dsp_add;		/* DSP slices of one adder */
	int mul_per_dsp;	/* multiplies per slice with DSP packing */
} arch_dtype;

const arch_dtype *arch_dtype_find(const char *name);
void arch_dtype_names(char *buf, size_t size);

/* BRAM18K blocks for one buffer of "width_bits" x "depth" words:
 * ceil(w/36)*ceil(depth/512) for w > 18 bits, ceil(w/18)*ceil(depth/1024)
 * otherwise.  Buffers of at most arch_lutram_max_bits() bits are mapped to
 * LUTs/registers and take no BRAM: 0 is returned for them.
 */
int64_t arch_bram18k(int width_bits, int64_t depth);

/* The same geometry without the LUTRAM threshold: the blocks a buffer
 * takes when the code binds it to BRAM, however small it is.
 */
int64_t arch_bram18k_bound(int width_bits, int64_t depth);

/* URAM blocks for one buffer: ceil(w/72)*ceil(depth/4096). */
int64_t arch_uram(int width_bits, int64_t depth);

/* The size up to which a buffer is kept in registers/LUTRAM. */
int64_t arch_lutram_max_bits(void);

/* The memories a buffer or a FIFO can be bound to. */
enum arch_mem {
	ARCH_MEM_FF = 0,	/* registers (a fully partitioned array) */
	ARCH_MEM_SRL,		/* shift registers in LUTs (FIFOs) */
	ARCH_MEM_LUTRAM,	/* distributed RAM */
	ARCH_MEM_BRAM,
	ARCH_MEM_URAM,
	ARCH_N_MEM
};

/* "FF", "SRL", "LUTRAM", "BRAM", "URAM"; NULL out of range. */
const char *arch_mem_name(int mem);

/* What one buffer costs in each resource. */
typedef struct arch_mem_cost {
	int64_t bram18k, uram, lut, ff;
} arch_mem_cost;

/* The words of one bank of a buffer of "depth" words (> 0) split
 * cyclically into *banks banks: ceil(depth / banks), with *banks first
 * brought into 1..depth (a bank holds at least one word).
 */
int64_t arch_bank_depth(int64_t depth, int64_t *banks);

/* The cost of a buffer of "depth" words of "width_bits" bound to memory
 * "mem" and split cyclically into "banks" banks of ceil(depth/banks)
 * words, each bank its own memory (as HLS implements ARRAY_PARTITION):
 * BRAM per bank by arch_bram18k_bound, URAM by arch_uram, LUTRAM in
 * 64-deep 3-bit RAM64M cells of 4 LUTs, registers one FF per bit.  All
 * zero for an empty buffer.
 */
void arch_buffer_cost(int mem, int width_bits, int64_t depth, int64_t banks,
	arch_mem_cost *out);

/* --- costs of the generated modules (arch/cost.c) ----------------------- */

/* What one MAC lane of a data type costs beside its DSP slices: energy,
 * and the fabric of its multiplier and adder apart (lut and ff are their
 * sums, the fabric of one multiply-accumulate lane).
 */
typedef struct arch_lane_cost {
	double pj_per_mac;	/* energy of one multiply-accumulate */
	int lut;		/* fabric of one lane */
	int ff;
	int lut_mul, ff_mul;	/* of its multiplier */
	int lut_add, ff_add;	/* of its adder */
} arch_lane_cost;

/* The lane cost of "d": the table row of d's kind (float or integer) with
 * the narrowest width at or above d->bits, or the widest row of that kind.
 */
arch_lane_cost arch_lane_cost_of(const arch_dtype *d);

/* Fabric of the control logic of the modules AutoSA generates. */
typedef struct arch_logic {
	int pe_lut, pe_ff;	/* control of one PE (loops, FIFO handshakes) */
	int io_lut, io_ff;	/* one L1 or L2 I/O module */
	int dram_lut, dram_ff;	/* one L3 module with its AXI master port */
	int dummy_lut, dummy_ff;	/* a module that ends a chain of PEs */
	int fifo_depth;		/* depth of an inter-module FIFO */
} arch_logic;
const arch_logic *arch_logic_costs(void);

/* LUT, FF and BRAM18K of one FIFO of "width_bits" x "depth": shallow
 * FIFOs are SRL shift registers (a LUT per bit of width), deeper ones
 * LUTRAM, the deepest BRAM.
 */
void arch_fifo_cost(int width_bits, int64_t depth, int64_t *lut,
	int64_t *ff, int64_t *bram18k);
/* The memory a FIFO of "depth" words is built in (SRL, LUTRAM or BRAM),
 * as arch_fifo_cost costs it.
 */
int arch_fifo_mem(int64_t depth);

/* Maps a buffer of "depth" words of "width_bits" read "banks" words per
 * cycle: it is partitioned into "banks" banks of ceil(depth/banks) words
 * each, and a bank goes to URAM when the board has URAM and one URAM
 * replaces at least arch_uram_min_brams() BRAM18K of it, else to BRAM18K
 * (arch_bram18k).  Writes the blocks of one copy of the buffer.
 */
void arch_buffer_map(const arch_board *board, int width_bits, int64_t depth,
	int64_t banks, int64_t *bram18k, int64_t *uram);
int64_t arch_uram_min_brams(void);

/* Energy of data movement relative to one multiply-accumulate of the same
 * data type, per word moved, in the Eyeriss style.
 */
typedef struct arch_energy {
	double rf;		/* register-file access */
	double hop;		/* one hop of the on-chip network */
	double buffer;		/* local buffer (BRAM/URAM) access */
	double dram;		/* off-chip access */
	int rf_per_mac;		/* register accesses of one MAC */
} arch_energy;
const arch_energy *arch_energy_costs(void);

/* The multicast crossbar: area and clock as a function of its ports.
 * arch_multicast_area is the LUT/FF overhead over the unicast network
 * (0.09 at 8 ports, 0.12 at 16), arch_multicast_clock the factor on the
 * design's clock (1 up to 8 ports, 0.94 at 16), arch_multicast_levels the
 * levels a write crosses to reach "targets" destinations (1 + ceil(log2)),
 * arch_multicast_switch the cycles to drain the network when it switches
 * between unicast and multicast traffic.
 */
double arch_multicast_area(int64_t ports);
double arch_multicast_clock(int64_t ports);
int arch_multicast_levels(int64_t targets);
int arch_multicast_switch(int64_t targets);

#endif
