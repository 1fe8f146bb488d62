/* tensil: the architecture tables (shipped configurations, latency model,
 * resource model), the instruction layout and the .tarch writer.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tarch.h"

/* The data types (Tensil's "Architectural parameters": FP16BP8, FP32B16)
 * and what one of each costs.
 *
 * DSP slices: a 16 x 16 fixed-point multiply with its accumulation fits
 * one DSP48 (25 x 18 multiplier, 48-bit post-adder); a 32 x 32 multiply
 * takes four (two 17-bit by two 24-bit partial products, 7 Series DSP48E1
 * user guide UG479).  Every SIMD ALU lane has one multiplier (the SIMD
 * Multiply op) and so the same DSP count as a PE.
 *
 * Fabric (estimates, as no utilisation figures are published beside the
 * benchmark table): a PE registers its weight, the passing input and its
 * partial sum (3 words) plus a little control; a lane of the SIMD ALU
 * array carries the ALU's operations, its registers and the accumulator's
 * read-modify-write path; 32-bit words cost about twice the fabric.
 */
static const struct dtype_row {
	const char *name;
	int bits;
	int dsp_per_pe, dsp_per_lane;
	int pe_lut, pe_ff;
	int lane_lut, lane_ff;
} dtypes[TENSIL_N_DTYPES] = {
	{ "FP16BP8", 16, 1, 1, 40, 70, 300, 250 },
	{ "FP32B16", 32, 4, 4, 150, 180, 600, 500 },
};

/* Fixed control (estimate): the instruction decoder with its queues, the
 * lock pool of the memory ports, two AXI masters (DRAM0, DRAM1) with
 * their converters and the instruction stream's AXI-Stream interface.
 * One AXI master with burst logic is 1,500 LUT and 2,500 FF in the arch/
 * logic table; the decoder and lock pool about as much again.
 */
static const struct fixed_logic {
	int lut, ff;
} fixed = { 6000, 8000 };

/* Tensil's latency model: the cycle estimate its compiler backend assigns
 * to each instruction (BackendStream's estimator in tensil-ai/tensil,
 * tools/src/tensil/tools/compiler): a MatMul costs its size, plus one
 * array size after a LoadWeights (the weights settle) or two after any
 * other instruction (the array fills and drains); LoadWeights, SIMD and
 * on-chip DataMoves one cycle per vector; a DRAM DataMove moves 128-bit
 * transfers at 2 cycles each for reads and 1 for writes, and a read pays
 * 32 cycles of setup unless it follows a DataMove in the same direction.
 */
static const tensil_costs costs = {
	.matmul_after_load = 1,
	.matmul_cold = 2,
	.per_vector = 1,
	.simd = 1,
	.noop = 1,
	.dram_beat_bits = 128,
	.dram_read_beat = 2,
	.dram_write_beat = 1,
	.dram_read_setup = 32,
	.dram_write_setup = 0,
};

/* The architectures Tensil ships (the .tarch files of its arch folder and
 * the benchmark table of its documentation).  The benchmark table gives the
 * array size and clock of three boards but not their memory depths: for
 * Arty A7-35 and PYNQ-Z1 the depths are those of pynqz1.tarch (the same as
 * artya7100t.tarch), for Ultra96-V2 those of ultra96v2.tarch.  Any other
 * board gets zcu104.tarch, the largest file Tensil ships.  Stride depths 8
 * and one SIMD register in every file.
 */
static const struct shipped {
	const char *board;	/* NULL: every other board */
	int array_size;
	int64_t dram_depth, local_depth, acc_depth;
} shipped[] = {
	{ "arty-a7-35", 8, 1048576, 8192, 2048 },
	{ "pynq-z1", 12, 1048576, 8192, 2048 },
	{ "ultra96-v2", 16, 2097152, 20480, 4096 },
	{ NULL, 32, 2097152, 16384, 4096 },
};

#define N_SHIPPED ((int) (sizeof(shipped) / sizeof(shipped[0])))
#define STRIDE_DEPTH 8
#define SIMD_REGISTERS 1

const char *tensil_dtype_name(int dtype)
{
	return dtype >= 0 && dtype < TENSIL_N_DTYPES ? dtypes[dtype].name :
		NULL;
}

int tensil_dtype_find(const char *name)
{
	int i;

	for (i = 0; name && i < TENSIL_N_DTYPES; i++)
		if (!strcasecmp(name, dtypes[i].name))
			return i;
	return -1;
}

int tensil_dtype_bits(int dtype)
{
	return dtype >= 0 && dtype < TENSIL_N_DTYPES ? dtypes[dtype].bits : 0;
}

const tensil_costs *tensil_latency_costs(void)
{
	return &costs;
}

void tensil_arch_default(const arch_board *board, tensil_arch *a)
{
	const struct shipped *s = &shipped[N_SHIPPED - 1];
	int i;

	for (i = 0; board && i < N_SHIPPED - 1; i++)
		if (!strcasecmp(board->name, shipped[i].board))
			s = &shipped[i];
	memset(a, 0, sizeof(*a));
	a->data_type = TENSIL_FP16BP8;
	a->array_size = s->array_size;
	a->dram0_depth = a->dram1_depth = s->dram_depth;
	a->local_depth = s->local_depth;
	a->accumulator_depth = s->acc_depth;
	a->simd_registers_depth = SIMD_REGISTERS;
	a->stride0_depth = a->stride1_depth = STRIDE_DEPTH;
	a->mhz = board ? board->mhz : 150.0;
	a->dram_gbps = board ? board->dram_gbps : 2.1;
	a->dram_latency = board ? board->dram_latency : 64;
	a->port_bits = board ? board->dram_port_bits : 128;
}

const char *tensil_arch_check(const tensil_arch *a)
{
	if (a->data_type < 0 || a->data_type >= TENSIL_N_DTYPES)
		return "data_type must be FP16BP8 (0) or FP32B16 (1)";
	if (a->array_size < TENSIL_MIN_ARRAY ||
	    a->array_size > TENSIL_MAX_ARRAY)
		return "array_size must be between 2 and 256";
	if (a->dram0_depth < 2 || a->dram0_depth > TENSIL_MAX_DRAM_DEPTH ||
	    a->dram1_depth < 2 || a->dram1_depth > TENSIL_MAX_DRAM_DEPTH)
		return "DRAM depths must be between 2 and 2^32";
	if (a->local_depth < 2 || a->local_depth > TENSIL_MAX_ONCHIP_DEPTH ||
	    a->accumulator_depth < 2 ||
	    a->accumulator_depth > TENSIL_MAX_ONCHIP_DEPTH)
		return "local and accumulator depths must be between 2 and "
			"2^16";
	if (a->simd_registers_depth < 0 || a->simd_registers_depth > 16)
		return "simd_registers_depth must be between 0 and 16";
	if (a->stride0_depth < 1 || a->stride0_depth > 16 ||
	    a->stride1_depth < 1 || a->stride1_depth > 16)
		return "stride depths must be between 1 and 16";
	if (!(a->mhz > 0) || !(a->dram_gbps > 0) || a->dram_latency < 0 ||
	    a->port_bits < 8)
		return "clock, DRAM bandwidth and port width must be positive";
	return NULL;
}

int tensil_arch_vector_bytes(const tensil_arch *a)
{
	return a->array_size * tensil_dtype_bits(a->data_type) / 8;
}

/* Bits to address "n" locations: ceil(log2(n)), at least 1. */
static int addr_bits(int64_t n)
{
	int b = 1;

	while (b < 62 && ((int64_t) 1 << b) < n)
		b++;
	return b;
}

static int round8(int bits)
{
	return (bits + 7) / 8 * 8;
}

static int max3(int a, int b, int c)
{
	int m = a > b ? a : b;

	return m > c ? m : c;
}

/* Operand widths in bits, as Tensil's InstructionLayout sizes them. */
static void operand_bits(const tensil_arch *a, int *op0, int *op1, int *op2)
{
	int local = addr_bits(a->local_depth);
	int acc = addr_bits(a->accumulator_depth);
	int dram = addr_bits(a->dram0_depth > a->dram1_depth ?
		a->dram0_depth : a->dram1_depth);
	int s0 = addr_bits(a->stride0_depth), s1 = addr_bits(a->stride1_depth);
	/* A SIMD sub-instruction: a 4-bit opcode and three register
	 * operands of ceil(log2(registers + 1)) bits.
	 */
	int simd = 4 + 3 * addr_bits(a->simd_registers_depth + 1);

	if (a->stride0_depth <= 1)
		s0 = 0;
	if (a->stride1_depth <= 1)
		s1 = 0;
	*op0 = round8((local > acc ? local : acc) + s0);
	*op1 = round8(max3(local, acc, dram) + s1);
	*op2 = round8(max3(local, acc, simd));
}

int tensil_arch_instruction_bytes(const tensil_arch *a)
{
	int op0, op1, op2;

	operand_bits(a, &op0, &op1, &op2);
	return (8 + op0 + op1 + op2) / 8;
}

int64_t tensil_arch_max_size(const tensil_arch *a)
{
	int op0, op1, op2;

	operand_bits(a, &op0, &op1, &op2);
	return op2 >= 40 ? (int64_t) 1 << 40 : (int64_t) 1 << op2;
}

/* Cycles per vector when "bits" per vector move as 128-bit transfers of
 * "beat" cycles each, bounded below by the board's bandwidth.
 */
static double dram_cycles(const tensil_arch *a, int beat)
{
	double bits = (double) a->array_size *
		tensil_dtype_bits(a->data_type);
	double transfers = ceil(bits / costs.dram_beat_bits);
	double bytes_per_cycle = a->dram_gbps * 1e3 / a->mhz;
	double tensil = transfers * beat;
	double board = transfers * costs.dram_beat_bits / 8.0 /
		bytes_per_cycle;

	return tensil > board ? tensil : board;
}

double tensil_arch_read_cycles(const tensil_arch *a)
{
	return dram_cycles(a, costs.dram_read_beat);
}

double tensil_arch_write_cycles(const tensil_arch *a)
{
	return dram_cycles(a, costs.dram_write_beat);
}

void tensil_arch_resources(const tensil_arch *a, const arch_board *board,
	tensil_resources *r)
{
	const struct dtype_row *d = &dtypes[a->data_type];
	int64_t n = a->array_size, pes = n * n, bram, uram;
	int width = (int) n * d->bits;

	memset(r, 0, sizeof(*r));
	r->dsp = pes * d->dsp_per_pe + n * d->dsp_per_lane;
	r->lut = pes * d->pe_lut + n * d->lane_lut + fixed.lut;
	r->ff = pes * d->pe_ff + n * d->lane_ff + fixed.ff;
	/* Local memory and the accumulators both hold vectors of the data
	 * type, one vector wide.
	 */
	arch_buffer_map(board, width, a->local_depth, 1, &bram, &uram);
	r->bram18k += bram;
	r->uram += uram;
	arch_buffer_map(board, width, a->accumulator_depth, 1, &bram, &uram);
	r->bram18k += bram;
	r->uram += uram;
}

int tensil_resources_fit(const tensil_resources *r, const arch_board *board)
{
	return r->dsp <= board->dsp && r->bram18k <= board->bram18k &&
		r->uram <= board->uram && r->lut <= board->lut &&
		r->ff <= board->ff;
}

int tensil_arch_json(const tensil_arch *a, char *buf, size_t size)
{
	const char *dt = tensil_dtype_name(a->data_type);

	return snprintf(buf, size,
		"{\n"
		"    \"data_type\": \"%s\",\n"
		"    \"array_size\": %d,\n"
		"    \"dram0_depth\": %lld,\n"
		"    \"dram1_depth\": %lld,\n"
		"    \"local_depth\": %lld,\n"
		"    \"accumulator_depth\": %lld,\n"
		"    \"simd_registers_depth\": %d,\n"
		"    \"stride0_depth\": %d,\n"
		"    \"stride1_depth\": %d\n"
		"}\n",
		dt ? dt : "FP16BP8", a->array_size,
		(long long) a->dram0_depth, (long long) a->dram1_depth,
		(long long) a->local_depth, (long long) a->accumulator_depth,
		a->simd_registers_depth, a->stride0_depth, a->stride1_depth);
}
