/* tensil: the built-in models, as tables of their published layer shapes.
 *
 * Every convolution and dense layer of each network is a row; the max
 * pooling layers that stand alone are rows too.  Convolutions pad SAME:
 * the output of a layer of stride s is ceil(in / s), and the padding
 * before the first row and column is TensorFlow's (half the total, the odd
 * row after) unless the row gives it (pad >= 0) as the Keras models do
 * with an explicit ZeroPadding2D before a stride-2 convolution.  Batch
 * normalisations that follow a convolution are folded into its weights (as
 * the ONNX export does); those that follow a residual addition stay as
 * SIMD work of the layer that computes the sum.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* One row: name; kind (C convolution, G dense, P max pooling); input
 * height = width (M for a dense layer); input channels (K); filter (or
 * window) size; filters (N; the channels of a pooling layer); stride;
 * padding before (-1: SAME); activation (N none, R ReLU, L LeakyReLU);
 * batch normalisation, residual addition; in-layer max pool window and
 * stride; global average pooling; saves.
 */
struct row {
	const char *name;
	char kind;
	int n, c, k, f, s, pad;
	char act;
	int norm, res, pool_k, pool_s, gap, saves;
};

/* ResNet-20 v2 for CIFAR-10, 32 x 32 x 3: the Keras example
 * "cifar10_resnet" (keras-team/keras, examples/cifar10_resnet.py),
 * resnet_v2 at depth 20, the model Tensil's tutorials compile
 * (resnet20v2_cifar).  A 3 x 3 convolution of 16 filters, then three
 * stages of two bottleneck blocks (1 x 1, 3 x 3, 1 x 1) of 16 -> 64,
 * 64 -> 128 and 128 -> 256 filters, the first block of each stage with a
 * 1 x 1 projection shortcut (stride 2 from the second stage on), BN-ReLU
 * before every convolution, then an 8 x 8 average and a 10-way dense
 * layer.  The BN-ReLU that opens a block sits in the layer that computes
 * the previous block's sum, which keeps both the sum (for the shortcut)
 * and its activation: two saves.  Tensil's compiler summary for this
 * model reports 23 layers and 61.476 M true MACs, which this table gives.
 */
static const struct row resnet20v2[] = {
	{ "conv0", 'C', 32, 3, 3, 16, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s0b0_1x1a", 'C', 32, 16, 1, 16, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s0b0_3x3", 'C', 32, 16, 3, 16, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s0b0_1x1b", 'C', 32, 16, 1, 64, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "s0b0_short", 'C', 32, 16, 1, 64, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "s0b1_1x1a", 'C', 32, 64, 1, 16, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s0b1_3x3", 'C', 32, 16, 3, 16, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s0b1_1x1b", 'C', 32, 16, 1, 64, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "s1b0_1x1a", 'C', 32, 64, 1, 64, 2, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s1b0_3x3", 'C', 16, 64, 3, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s1b0_1x1b", 'C', 16, 64, 1, 128, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "s1b0_short", 'C', 32, 64, 1, 128, 2, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "s1b1_1x1a", 'C', 16, 128, 1, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s1b1_3x3", 'C', 16, 64, 3, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s1b1_1x1b", 'C', 16, 64, 1, 128, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "s2b0_1x1a", 'C', 16, 128, 1, 128, 2, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s2b0_3x3", 'C', 8, 128, 3, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s2b0_1x1b", 'C', 8, 128, 1, 256, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "s2b0_short", 'C', 16, 128, 1, 256, 2, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "s2b1_1x1a", 'C', 8, 256, 1, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s2b1_3x3", 'C', 8, 128, 3, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "s2b1_1x1b", 'C', 8, 128, 1, 256, 1, -1, 'R', 1, 1, 0, 0, 1, 1 },
	{ "dense", 'G', 1, 256, 1, 10, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
};

/* ResNet-50 v2 for ImageNet, 224 x 224 x 3: Keras Applications'
 * ResNet50V2 (keras/applications/resnet_v2.py; He, Zhang, Ren, Sun,
 * "Identity Mappings in Deep Residual Networks", ECCV 2016).  A 7 x 7/2
 * convolution of 64 filters after a 3-pixel zero padding, a 3 x 3/2 max
 * pool, then four stacks of 3, 4, 6 and 3 pre-activation bottleneck
 * blocks of 64, 128, 256 and 512 filters (x4 at the block's output).  The
 * first block of a stack has a 1 x 1 convolution shortcut on the
 * pre-activation (_0); the last block of each of the first three stacks
 * strides its 3 x 3 convolution by 2 (after a 1-pixel zero padding) and
 * subsamples its shortcut with a 1 x 1/2 max pool (_pool).  A final
 * BN-ReLU, global average and a 1000-way dense layer close it.
 */
static const struct row resnet50v2[] = {
	{ "conv1", 'C', 224, 3, 7, 64, 2, 3, 'R', 1, 0, 3, 2, 0, 1 },
	{ "conv2_block1_0", 'C', 56, 64, 1, 256, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block1_1", 'C', 56, 64, 1, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block1_2", 'C', 56, 64, 3, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block1_3", 'C', 56, 64, 1, 256, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv2_block2_1", 'C', 56, 256, 1, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block2_2", 'C', 56, 64, 3, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block2_3", 'C', 56, 64, 1, 256, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv2_block3_1", 'C', 56, 256, 1, 64, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block3_2", 'C', 56, 64, 3, 64, 2, 1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block3_pool", 'P', 56, 256, 1, 256, 2, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv2_block3_3", 'C', 28, 64, 1, 256, 1, -1, 'R', 1, 1, 0, 0, 0, 1 },
	{ "conv3_block1_0", 'C', 28, 256, 1, 512, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block1_1", 'C', 28, 256, 1, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block1_2", 'C', 28, 128, 3, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block1_3", 'C', 28, 128, 1, 512, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv3_block2_1", 'C', 28, 512, 1, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block2_2", 'C', 28, 128, 3, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block2_3", 'C', 28, 128, 1, 512, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv3_block3_1", 'C', 28, 512, 1, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block3_2", 'C', 28, 128, 3, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block3_3", 'C', 28, 128, 1, 512, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv3_block4_1", 'C', 28, 512, 1, 128, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block4_2", 'C', 28, 128, 3, 128, 2, 1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block4_pool", 'P', 28, 512, 1, 512, 2, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv3_block4_3", 'C', 14, 128, 1, 512, 1, -1, 'R', 1, 1, 0, 0, 0, 1 },
	{ "conv4_block1_0", 'C', 14, 512, 1, 1024, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block1_1", 'C', 14, 512, 1, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block1_2", 'C', 14, 256, 3, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block1_3", 'C', 14, 256, 1, 1024, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv4_block2_1", 'C', 14, 1024, 1, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block2_2", 'C', 14, 256, 3, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block2_3", 'C', 14, 256, 1, 1024, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv4_block3_1", 'C', 14, 1024, 1, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block3_2", 'C', 14, 256, 3, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block3_3", 'C', 14, 256, 1, 1024, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv4_block4_1", 'C', 14, 1024, 1, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block4_2", 'C', 14, 256, 3, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block4_3", 'C', 14, 256, 1, 1024, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv4_block5_1", 'C', 14, 1024, 1, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block5_2", 'C', 14, 256, 3, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block5_3", 'C', 14, 256, 1, 1024, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv4_block6_1", 'C', 14, 1024, 1, 256, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block6_2", 'C', 14, 256, 3, 256, 2, 1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block6_pool", 'P', 14, 1024, 1, 1024, 2, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv4_block6_3", 'C', 7, 256, 1, 1024, 1, -1, 'R', 1, 1, 0, 0, 0, 1 },
	{ "conv5_block1_0", 'C', 7, 1024, 1, 2048, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block1_1", 'C', 7, 1024, 1, 512, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block1_2", 'C', 7, 512, 3, 512, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block1_3", 'C', 7, 512, 1, 2048, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv5_block2_1", 'C', 7, 2048, 1, 512, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block2_2", 'C', 7, 512, 3, 512, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block2_3", 'C', 7, 512, 1, 2048, 1, -1, 'R', 1, 1, 0, 0, 0, 2 },
	{ "conv5_block3_1", 'C', 7, 2048, 1, 512, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block3_2", 'C', 7, 512, 3, 512, 1, -1, 'R', 0, 0, 0, 0, 0, 1 },
	{ "conv5_block3_3", 'C', 7, 512, 1, 2048, 1, -1, 'R', 1, 1, 0, 0, 1, 1 },
	{ "predictions", 'G', 1, 2048, 1, 1000, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
};

/* YOLOv4-tiny, 416 x 416 x 3: darknet's cfg/yolov4-tiny.cfg (Bochkovskiy,
 * Wang, Liao, "YOLOv4", 2020) as the Keras port tensorflow-yolov4-tflite
 * builds it, the model Tensil's YOLO tutorial compiles up to its two heads
 * conv2d_17 and conv2d_20.  21 convolutions with batch normalisation
 * folded and LeakyReLU (the heads linear), stride-2 convolutions padded by
 * one row and column at the top and left (ZeroPadding2D ((1, 0), (1, 0))),
 * three 2 x 2/2 max pools.  The route layers (channel splits and
 * concatenations) only address memory; the 2 x nearest upsampling of the
 * 13 x 13 x 128 map before conv2d_19 is left out, its SIMD work being
 * under 0.1% of the network's.  Sizes are those of the 416 input; other
 * inputs scale them (Tensil's summary for the 192 input, 670.349 M true
 * MACs, is what the table gives at 192).
 */
static const struct row yolov4_tiny[] = {
	{ "conv2d_0", 'C', 416, 3, 3, 32, 2, 1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_1", 'C', 208, 32, 3, 64, 2, 1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_2", 'C', 104, 64, 3, 64, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_3", 'C', 104, 32, 3, 32, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_4", 'C', 104, 32, 3, 32, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_5", 'C', 104, 64, 1, 64, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "max_pooling2d_0", 'P', 104, 128, 2, 128, 2, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_6", 'C', 52, 128, 3, 128, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_7", 'C', 52, 64, 3, 64, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_8", 'C', 52, 64, 3, 64, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_9", 'C', 52, 128, 1, 128, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "max_pooling2d_1", 'P', 52, 256, 2, 256, 2, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_10", 'C', 26, 256, 3, 256, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_11", 'C', 26, 128, 3, 128, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_12", 'C', 26, 128, 3, 128, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_13", 'C', 26, 256, 1, 256, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "max_pooling2d_2", 'P', 26, 512, 2, 512, 2, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_14", 'C', 13, 512, 3, 512, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_15", 'C', 13, 512, 1, 256, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_16", 'C', 13, 256, 3, 512, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_17", 'C', 13, 512, 1, 255, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_18", 'C', 13, 256, 1, 128, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_19", 'C', 26, 384, 3, 256, 1, -1, 'L', 0, 0, 0, 0, 0, 1 },
	{ "conv2d_20", 'C', 26, 256, 1, 255, 1, -1, 'N', 0, 0, 0, 0, 0, 1 },
};

/* The input size the YOLOv4-tiny table is written for. */
#define YOLO_BASE 416

#define N_ROWS(t) ((int) (sizeof(t) / sizeof((t)[0])))

static const struct builtin {
	const char *name;
	const struct row *rows;
	int n;
	int input;		/* scales the sizes: input / YOLO_BASE; 0 keeps
				 * them */
} builtins[] = {
	{ "resnet20v2", resnet20v2, N_ROWS(resnet20v2), 0 },
	{ "resnet50v2", resnet50v2, N_ROWS(resnet50v2), 0 },
	{ "yolov4-tiny", yolov4_tiny, N_ROWS(yolov4_tiny), 0 },
	{ "yolov4-tiny-192", yolov4_tiny, N_ROWS(yolov4_tiny), 192 },
};

#define N_BUILTINS N_ROWS(builtins)

static int act_of(char c)
{
	return c == 'R' ? TENSIL_ACT_RELU : c == 'L' ? TENSIL_ACT_LEAKY :
		TENSIL_ACT_NONE;
}

/* Fills "l" from table row "r", its sizes scaled to "input" when set. */
static void from_row(const struct row *r, int input, tensil_layer *l)
{
	int n = input ? r->n * input / YOLO_BASE : r->n;

	if (r->kind == 'G')
		tensil_layer_gemm(l, r->name, n, r->f, r->c);
	else if (r->kind == 'P')
		tensil_layer_pool(l, r->name, n, n, r->c, r->k, r->s);
	else
		tensil_layer_conv(l, r->name, n, n, r->c, r->k, r->k, r->f,
			r->s, 1);
	if (r->pad >= 0) {
		l->pad_top = r->pad;
		l->pad_left = r->pad;
	}
	l->act = act_of(r->act);
	l->norm = r->norm;
	l->residual = r->res;
	l->pool_k = r->pool_k;
	l->pool_stride = r->pool_s;
	l->global_pool = r->gap;
	l->saves = r->saves;
}

tensil_model *tensil_model_builtin(const char *name, dse_error *err)
{
	const struct builtin *b = NULL;
	tensil_model *m;
	char names[128];
	int i;

	for (i = 0; name && i < N_BUILTINS; i++)
		if (!strcasecmp(name, builtins[i].name))
			b = &builtins[i];
	if (!b) {
		tensil_model_builtin_names(names, sizeof(names));
		dse_error_set(err, DSE_E_INPUT, "unknown model '%s' (known: "
			"%s)", name ? name : "", names);
		return NULL;
	}
	m = tensil_model_alloc(b->name, err);
	for (i = 0; m && i < b->n; i++) {
		tensil_layer l;

		from_row(&b->rows[i], b->input, &l);
		if (tensil_model_add_layer(m, &l, err) != dse_stat_ok)
			return tensil_model_free(m);
	}
	return m;
}

void tensil_model_builtin_names(char *buf, size_t size)
{
	size_t used = 0;
	int i;

	if (!buf || size == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < N_BUILTINS && used < size; i++) {
		int k = snprintf(buf + used, size - used, "%s%s",
			i ? ", " : "", builtins[i].name);

		if (k < 0)
			return;
		used += (size_t) k;
	}
}
