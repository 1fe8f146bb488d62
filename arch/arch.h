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

/* A data type of the compute units and what one multiply-accumulate costs. */
typedef struct arch_dtype {
	char name[ARCH_NAME_LEN];	/* "fp32", "fp16", "int16", "int8" */
	int bits;
	double dsp_per_mac;	/* DSP slices for one MAC unit */
	int acc_latency;	/* cycles of the accumulation (loop-carried) */
	int is_float;		/* GFLOP/s for floats, GOP/s for integers */
} arch_dtype;

const arch_dtype *arch_dtype_find(const char *name);
void arch_dtype_names(char *buf, size_t size);

/* BRAM18K blocks for one buffer of "width_bits" x "depth" words:
 * ceil(w/36)*ceil(depth/512) for w > 18 bits, ceil(w/18)*ceil(depth/1024)
 * otherwise.  Buffers of at most arch_lutram_max_bits() bits are mapped to
 * LUTs/registers and take no BRAM: 0 is returned for them.
 */
int64_t arch_bram18k(int width_bits, int64_t depth);

/* URAM blocks for one buffer: ceil(w/72)*ceil(depth/4096). */
int64_t arch_uram(int width_bits, int64_t depth);

/* The size up to which a buffer is kept in registers/LUTRAM. */
int64_t arch_lutram_max_bits(void);

#endif
