/* tensil: the architectural parameters of a Tensil processing unit, its
 * instruction layout and latency model, and what it costs on a board.
 *
 * The parameters are those of a Tensil architecture file (.tarch): data
 * type, array size, the depths of DRAM0, DRAM1, local memory and the
 * accumulators, SIMD registers and the stride depths.  Clock and DRAM
 * bandwidth come from the board.  All values here are small structs the
 * caller copies; nothing allocates and everything is thread-safe.
 */
#ifndef TENSIL_TARCH_H
#define TENSIL_TARCH_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

/* Tensil's data types: 16-bit fixed point with the binary point at 8 bits,
 * and 32-bit fixed point with the binary point at 16.
 */
enum tensil_dtype { TENSIL_FP16BP8 = 0, TENSIL_FP32B16, TENSIL_N_DTYPES };

/* "FP16BP8", "FP32B16"; tensil_dtype_find is case-insensitive and gives -1
 * for an unknown name.
 */
const char *tensil_dtype_name(int dtype);
int tensil_dtype_find(const char *name);
int tensil_dtype_bits(int dtype);

typedef struct tensil_arch {
	int data_type;			/* enum tensil_dtype */
	int array_size;			/* the array is array_size^2 PEs and
					 * every vector array_size scalars */
	int64_t dram0_depth;		/* vectors of DRAM bank 0 (variables) */
	int64_t dram1_depth;		/* vectors of DRAM bank 1 (constants) */
	int64_t local_depth;		/* vectors of on-chip local memory */
	int64_t accumulator_depth;	/* vectors of accumulators */
	int simd_registers_depth;
	int stride0_depth, stride1_depth;
	/* Not part of the .tarch file: the board around the unit. */
	double mhz;
	double dram_gbps;		/* DRAM bandwidth, GB/s */
	int dram_latency;		/* cycles to the first beat of a read */
	int port_bits;			/* width of one AXI port to DRAM */
} tensil_arch;

/* Allowed ranges (Tensil's "Architectural parameters" table): array size
 * 2-256, DRAM depths 2^1-2^32, local and accumulator depths 2^1-2^16 (any
 * value in between: Tensil's own Ultra96 file uses 20480), SIMD registers
 * 0-16.
 */
#define TENSIL_MIN_ARRAY 2
#define TENSIL_MAX_ARRAY 256
#define TENSIL_MAX_ONCHIP_DEPTH 65536
#define TENSIL_MAX_DRAM_DEPTH 4294967296LL

/* Fills "a" with the architecture Tensil ships for "board": the array
 * size of the benchmark table for Arty A7-35 (8), PYNQ-Z1 (12) and
 * Ultra96-V2 (16) with the depths of the .tarch files Tensil distributes
 * for those boards, and for any other board the largest file Tensil
 * ships (zcu104.tarch).  Clock, bandwidth and latency are the board's.
 */
void tensil_arch_default(const arch_board *board, tensil_arch *a);

/* NULL when "a" is within the allowed ranges, else what is wrong. */
const char *tensil_arch_check(const tensil_arch *a);

/* Bytes of one vector (array_size scalars of the data type). */
int tensil_arch_vector_bytes(const tensil_arch *a);

/* The instruction layout as Tensil's backend computes it: operand 0 holds
 * a local or accumulator address and a stride, operand 1 the largest of
 * the accumulator and DRAM addresses with a stride, operand 2 a size (or a
 * SIMD sub-instruction), each rounded up to whole bytes, behind a byte of
 * opcode and flags.  8 bytes for pynqz1.tarch, 9 for ultra96v2.tarch.
 */
int tensil_arch_instruction_bytes(const tensil_arch *a);
/* The most vectors one instruction moves (2^(operand 2 bits)). */
int64_t tensil_arch_max_size(const tensil_arch *a);

/* Tensil's latency model: what the compiler charges each instruction
 * (the estimator of its backend), the model behind its benchmark table.
 */
typedef struct tensil_costs {
	int matmul_after_load;	/* extra cycles, in array sizes, of a MatMul
				 * right after a LoadWeights */
	int matmul_cold;	/* ... after anything else but a MatMul */
	int per_vector;		/* MatMul, LoadWeights and on-chip DataMove
				 * cycles per vector */
	int simd;		/* one SIMD instruction */
	int noop;
	int dram_beat_bits;	/* one DRAM transfer */
	int dram_read_beat;	/* cycles per transfer read */
	int dram_write_beat;	/* cycles per transfer written */
	int dram_read_setup;	/* first of a run of DRAM reads */
	int dram_write_setup;
} tensil_costs;
const tensil_costs *tensil_latency_costs(void);

/* Cycles per vector of a DRAM read and write: Tensil's transfers per
 * vector times its cycles per transfer, or what the board's bandwidth at
 * the unit's clock allows when that is slower.
 */
double tensil_arch_read_cycles(const tensil_arch *a);
double tensil_arch_write_cycles(const tensil_arch *a);

typedef struct tensil_resources {
	int64_t dsp, bram18k, uram, lut, ff;
} tensil_resources;

/* The unit's resources on "board": DSP slices of the PEs and SIMD ALUs by
 * data type, BRAM/URAM of local memory and accumulators through
 * arch_buffer_map, LUT/FF of PEs, lanes and the fixed control.
 */
void tensil_arch_resources(const tensil_arch *a, const arch_board *board,
	tensil_resources *r);
/* 1 when every resource is within the board's. */
int tensil_resources_fit(const tensil_resources *r, const arch_board *board);

/* Writes the .tarch JSON of "a" as Tensil's files lay it out.  Returns
 * what snprintf returns (the length the whole text needs).
 */
int tensil_arch_json(const tensil_arch *a, char *buf, size_t size);

#endif
