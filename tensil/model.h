/* tensil: the workloads of the overlay systolic family (Tensil), as lists
 * of layers each lowered to matrix multiplies.
 *
 * A convolution is lowered by im2col: M = out_h * out_w output pixels,
 * K = fh * fw * channels, N = filters; a dense layer is the GEMM M x K by
 * K x N itself; a pooling layer has no multiply and runs on the SIMD ALUs
 * only.  Each layer also says what the accumulators do with its outputs
 * before they are written back (activation, batch normalisation, residual
 * addition, pooling), because on Tensil that work is part of the layer.
 *
 * A model is built once and then only read: any number of threads may use
 * it at once.  Ownership is isl-style: tensil_model_free accepts NULL and
 * returns NULL; every function that returns a model gives the caller a new
 * one to free.
 */
#ifndef TENSIL_MODEL_H
#define TENSIL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

#define TENSIL_NAME_LEN 48

/* Largest height, width, filter size or stride a layer may have, and the
 * largest channel or filter count: far beyond any published network, small
 * enough that no product of them overflows 64 bits.
 */
#define TENSIL_MAX_DIM 65536
#define TENSIL_MAX_CHANNELS (1 << 20)

enum tensil_layer_kind {
	TENSIL_CONV = 0,	/* a 2-D convolution (im2col to a GEMM) */
	TENSIL_GEMM,		/* M x K times K x N (dense layers) */
	TENSIL_POOL,		/* max pooling alone: SIMD work, no multiply */
	TENSIL_N_KINDS
};

/* What the SIMD ALUs apply to every output vector of a layer.  Tensil
 * computes ReLU as one Max with a zeroed register, and LeakyReLU as three
 * instructions (load alpha, multiply, max).
 */
enum tensil_act {
	TENSIL_ACT_NONE = 0,
	TENSIL_ACT_RELU,
	TENSIL_ACT_LEAKY,
	TENSIL_N_ACTS
};

/* One layer.  For a convolution and a pooling layer the geometry is that of
 * the feature maps; a GEMM is stored as a 1 x 1 convolution over an
 * M x 1 map with K channels and N filters, so that every layer has the same
 * fields.  tensil_layer_conv and tensil_layer_gemm fill one in full.
 */
typedef struct tensil_layer {
	char name[TENSIL_NAME_LEN];
	int kind;		/* enum tensil_layer_kind */
	int in_h, in_w;		/* input feature map */
	int channels;		/* input channels (K of a GEMM) */
	int fh, fw;		/* filter, or pooling window */
	int filters;		/* output channels (N of a GEMM) */
	int stride;
	int pad_top, pad_left;	/* zero rows above, columns left of the
				 * input; the bottom and right padding follow
				 * from the output size */
	int out_h, out_w;	/* output of the multiply (or of the pool) */
	/* Accumulator work after the multiply: first the residual
	 * addition; then either a max pooling of the outputs (pool_k x
	 * pool_k windows at pool_stride, SAME padding) followed by the batch
	 * normalisation and activation of the pooled outputs, or the
	 * normalisation and activation of every output followed by an
	 * optional global average over all output pixels.  "saves" is the
	 * number of copies written back: 2 when a network keeps both the sum
	 * and its activation (pre-activation residual blocks).
	 */
	int residual;		/* 0/1: adds a tensor of the output's shape */
	int norm;		/* 0/1: batch normalisation left unfolded */
	int act;		/* enum tensil_act */
	int pool_k, pool_stride;	/* 0: no pooling */
	int global_pool;	/* 0/1 */
	int saves;		/* 1 or 2 */
} tensil_layer;

/* Fills "l" as a convolution of an in_h x in_w x channels map by fh x fw x
 * filters at "stride".  With same != 0 the padding is TensorFlow's SAME
 * (out = ceil(in / stride), the odd padding row at the bottom); else VALID
 * (out = (in - f) / stride + 1, no padding).  No post-operation; one save.
 */
void tensil_layer_conv(tensil_layer *l, const char *name, int in_h, int in_w,
	int channels, int fh, int fw, int filters, int stride, int same);

/* Fills "l" as the GEMM M x K by K x N. */
void tensil_layer_gemm(tensil_layer *l, const char *name, int64_t m, int n,
	int k);

/* Fills "l" as a max pooling of an in_h x in_w x channels map by k x k
 * windows at "stride" with SAME padding.
 */
void tensil_layer_pool(tensil_layer *l, const char *name, int in_h, int in_w,
	int channels, int k, int stride);

/* Checks a layer's fields (sizes in range, padding and output consistent
 * with the input).  Returns NULL when it is a layer, else a message saying
 * what is wrong (a static string).
 */
const char *tensil_layer_check(const tensil_layer *l);

/* The GEMM of a layer: M = out_h * out_w, N = filters, K = fh * fw *
 * channels (0, 0, 0 for a pooling layer).
 */
void tensil_layer_gemm_dims(const tensil_layer *l, int64_t *m, int64_t *n,
	int64_t *k);

/* Multiply-accumulates of the im2col GEMM, M * N * K, counting the taps
 * that fall on padding.
 */
int64_t tensil_layer_macs(const tensil_layer *l);

/* Multiply-accumulates of the taps that land inside the input, the figure
 * Tensil's compiler reports as "True MACs".
 */
int64_t tensil_layer_true_macs(const tensil_layer *l);

/* Rows and columns of the layer's final output after any pooling. */
void tensil_layer_final_dims(const tensil_layer *l, int *h, int *w);

typedef struct tensil_model tensil_model;

/* A new empty model named "name" (NULL: "model"). */
tensil_model *tensil_model_alloc(const char *name, dse_error *err);
tensil_model *tensil_model_free(tensil_model *m);
tensil_model *tensil_model_copy(const tensil_model *m, dse_error *err);

/* Appends a copy of "l" after checking it (DSE_E_INPUT with the check's
 * message when it is not a layer).
 */
dse_stat tensil_model_add_layer(tensil_model *m, const tensil_layer *l,
	dse_error *err);

const char *tensil_model_name(const tensil_model *m);
int tensil_model_n_layers(const tensil_model *m);
/* The i-th layer, 0 <= i < n_layers; NULL out of range. */
const tensil_layer *tensil_model_layer(const tensil_model *m, int i);
/* Layers with a multiply (convolutions and GEMMs). */
int tensil_model_n_matmul_layers(const tensil_model *m);
int64_t tensil_model_macs(const tensil_model *m);
int64_t tensil_model_true_macs(const tensil_model *m);

/* Reads a layer list from a CSV file.  Two forms, told apart by the header
 * (the first line that is neither empty nor a '#' comment):
 *  - SCALE-Sim's topology: "Layer name, IFMAP Height, IFMAP Width, Filter
 *    Height, Filter Width, Channels, Num Filter, Strides", each row one
 *    convolution.  As in SCALE-Sim the IFMAP is taken as already padded
 *    (VALID: out = (in - f) / stride + 1).  Two optional columns may
 *    follow: "Padding" (same or valid) and "Activation" (relu, leaky or
 *    none).
 *  - GEMM: "name, M, N, K", each row one matrix multiply.
 * Heights, widths, filter sizes and strides (and M) are at most 65536;
 * channels and filters (K and N) at most 2^20.  Fields are trimmed; trailing commas and
 * empty trailing fields are ignored; CRLF line ends are accepted.  A malformed row gives DSE_E_INPUT
 * through dse_error_set_at(err, path, line, column, NULL, ...), the column
 * being that of the offending field.  The model is named after the file.
 */
tensil_model *tensil_model_read_csv(const char *path, dse_error *err);

/* The same from text held in memory; "file" names it in errors. */
tensil_model *tensil_model_parse_csv(const char *text, const char *file,
	dse_error *err);

/* Reads an ONNX model (tensil/onnx.c has the operators and how they become
 * layers).  An error about a node is DSE_E_INPUT at "file:N:0", N the
 * node's place in the graph from 1; about the file as a whole at line 1.
 * The model is named after the file.
 */
tensil_model *tensil_model_read_onnx(const char *path, dse_error *err);

/* The same from the bytes of the file held in memory. */
tensil_model *tensil_model_parse_onnx(const uint8_t *data, size_t len,
	const char *file, dse_error *err);

/* The names of an ONNX model's graph outputs, comma-separated, in "buf"
 * (what Tensil's compiler takes as its output nodes).  Returns 0, or -1
 * when the file does not read (buf is then empty).
 */
int tensil_onnx_outputs(const char *path, char *buf, size_t size);

/* The built-in models, written from their published layer shapes:
 * "resnet20v2" (CIFAR-10, 32x32x3), "resnet50v2" (ImageNet, 224x224x3),
 * "yolov4-tiny" (416x416x3) and "yolov4-tiny-192" (the 192x192 input that
 * Tensil's tutorials and driver benchmarks compile).  Unknown names give
 * DSE_E_INPUT listing the known ones.
 */
tensil_model *tensil_model_builtin(const char *name, dse_error *err);
/* The comma-separated list of built-in names. */
void tensil_model_builtin_names(char *buf, size_t size);

#endif
