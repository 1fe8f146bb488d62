/* tensil: the overlay systolic family (Tensil), explored like the systolic
 * arrays and the GNN families.
 *
 * A family object is built once from a model and a board, then evaluates
 * design points -- arrays of knob values in the order of
 * tensil_family_knob_name -- with the analytic model (Tensil's latency
 * model over the scheduler's instruction counts; microseconds for a
 * ResNet-50) or through sim_cycle_report with the cycle model of the
 * instruction stream.  Built objects are read-only: any number of threads
 * may evaluate points at once.
 */
#ifndef TENSIL_FAMILY_H
#define TENSIL_FAMILY_H

#include <stdint.h>

#include "arch/arch.h"
#include "core/error.h"
#include "core/family.h"
#include "core/report.h"
#include "tensil/model.h"
#include "tensil/tarch.h"

/* The knobs, in point order: array_size (2..256), local_depth and
 * accumulator_depth (vectors, 2..65536), data_type (0 FP16BP8, 1
 * FP32B16), mhz and dram_mbps (the DRAM bandwidth in MB/s, 10^6 bytes).
 * A value out of range makes the point SIM_BAD_KNOB; a layer that no
 * tiling fits makes it SIM_NO_FIT.
 */
enum tensil_knob {
	TENSIL_K_ARRAY = 0,
	TENSIL_K_LOCAL,
	TENSIL_K_ACC,
	TENSIL_K_DTYPE,
	TENSIL_K_MHZ,
	TENSIL_K_DRAM_MBPS,
	TENSIL_N_KNOBS
};

int tensil_family_n_knobs(void);
const char *tensil_family_knob_name(int knob);
/* The index of a knob by name; -1 when unknown. */
int tensil_family_knob_find(const char *name);

typedef struct tensil_family tensil_family;

/* A knob's default.  With a family: the architecture Tensil ships for its
 * board (tensil_arch_default) at the board's clock and bandwidth.  With
 * NULL: the example values of Tensil's architectural parameters table
 * (array 8, local 16384, accumulators 4096, FP16BP8) and 0 for the two
 * board knobs.
 */
int64_t tensil_family_knob_default(const tensil_family *f, int knob);
/* Every knob's default for the family's board. */
void tensil_family_defaults(const tensil_family *f, int32_t *knobs);

/* Builds the family's evaluator for "model" (copied) on "board" (copied).
 * DSE_E_RUNTIME when either is missing or the model has no layer.
 */
tensil_family *tensil_family_alloc(const tensil_model *model,
	const arch_board *board, dse_error *err);
tensil_family *tensil_family_free(tensil_family *f);
const tensil_model *tensil_family_model(const tensil_family *f);
const arch_board *tensil_family_board(const tensil_family *f);

/* The architecture of a design point: the knobs with the board's DRAM
 * latency and port, stride depths 8, one SIMD register, and DRAM depths
 * large enough for the model's constants and variables (at least the
 * shipped file's).  Returns 0 when a knob is out of range (a is still
 * filled as far as it can be).
 */
int tensil_family_arch(const tensil_family *f, const int32_t *knobs,
	tensil_arch *a);

/* The analytic model of one design point: cycles and latency from
 * Tensil's latency model, DSP/BRAM/URAM/LUT/FF from the resource model,
 * DRAM bytes, energy.  Always fills "out"; out->status says whether the
 * point is legal.  Thread-safe.
 */
void tensil_family_eval(const tensil_family *f, const int32_t *knobs,
	sim_metrics *out);

/* One design point through the analytic, sampled or full model (enum
 * sim_model_kind).  The "tiles" are the stages of the program; the full
 * model runs every instruction of every stage, the sampled one the first
 * three output-channel blocks of each layer and advances the machine by
 * their period for the rest.  Every block of a layer runs the same stages,
 * so once the machine is periodic the extrapolation is exact: the sampled
 * model has equalled the full one on every point measured, at a fraction
 * of its time (a seventh for ResNet-50v2, whose layers have up to 256
 * blocks; about half for ResNet-20v2, whose layers have at most 16); its
 * interval is the spread of the two periods it measured (zero when they
 * agree).
 * The modules are the decoder, the two DRAM ports, the array, the
 * accumulators and the DRAM channel.  "opt" is not used (the family has
 * no FIFO depth or sample count to set).  An error only for a failure of
 * the simulator itself (memory).  Thread-safe.
 */
dse_stat tensil_family_simulate(const tensil_family *f, const int32_t *knobs,
	int kind, const sim_cycle_opts *opt, sim_cycle_report *out,
	dse_error *err);

/* A one-line description of a design point, e.g. "array_size=16
 * local_depth=20480 accumulator_depth=4096 data_type=FP16BP8 mhz=300
 * dram_mbps=8500".
 */
void tensil_family_describe(const tensil_family *f, const int32_t *knobs,
	char *buf, int size);

/* Why a point is illegal, in words a user can act on: the knob out of
 * range, or the first layer no tiling fits with what its smallest stage
 * needs, e.g. "layer 'conv5_block1_2' (38 of 70): local memory too
 * small: its smallest stage needs 4,993 vectors, local_depth is 4,096".
 * Writes "" for a legal point.  Returns the length the whole text needs,
 * as snprintf.
 */
int tensil_family_why(const tensil_family *f, const int32_t *knobs,
	char *buf, int size);

/* The .tarch JSON of a design point, as Tensil's architecture files give
 * it (data_type, array_size, dram0_depth, dram1_depth, local_depth,
 * accumulator_depth, simd_registers_depth, stride0_depth, stride1_depth).
 * Returns the length the whole text needs, as snprintf.
 */
int tensil_tarch_json(const tensil_family *f, const int32_t *knobs,
	char *buf, int size);

/* Records the ONNX file the family's model was read from, which the
 * family's emitted hint names (Tensil's compiler takes the model beside
 * the architecture file).
 */
dse_stat tensil_family_set_onnx(tensil_family *f, const char *path,
	dse_error *err);

/* The family through the family interface (core/family.h), over a
 * tensil_family ("self"); its emitted form is the .tarch file.
 */
extern const family_ops tensil_overlay_family;

#endif
