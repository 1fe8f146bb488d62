/* tensil: an ONNX model as the overlay family's layer list.
 *
 * The file is read with protobuf-c, through the C that protoc-c generates at
 * build time from the onnx.proto Debian's libonnx-dev ships.  The graph's
 * nodes are taken in their order (ONNX requires a topological one); every
 * tensor's shape is inferred from its inputs, and the compute nodes become
 * layers the way Tensil's ONNX frontend groups them (one layer is one
 * matrix multiply followed by the accumulator work on its outputs):
 *
 *  - Conv becomes a convolution layer (its padding from "pads" or
 *    "auto_pad"), Gemm and MatMul GEMM layers (a batched MatMul one per
 *    batch);
 *  - on the tensor a layer has just produced, a bias or a scale by a
 *    constant and a BatchNormalization fold into the weights (as Tensil's
 *    compiler folds them); an Add of another activation tensor is the
 *    layer's residual addition; a BatchNormalization after it the layer's
 *    normalisation; Relu and LeakyRelu its activation; a MaxPool with SAME
 *    padding its in-layer pooling and a GlobalAveragePool (or an
 *    AveragePool over the whole map) its global average;
 *  - a MaxPool that cannot be fused becomes a pooling layer;
 *  - Flatten, Reshape, Squeeze, Unsqueeze, Transpose, Concat, Identity and
 *    Dropout only change the shape.
 *
 * A post-operation on a tensor that another node also reads keeps the
 * layer's output twice (Tensil's two saves, as pre-activation residual
 * blocks need); three copies, or post-operations in an order the
 * accumulators cannot run, are refused.  Any other operator is refused
 * with its node.  Errors are DSE_E_INPUT at "file:N:0", N being the node's
 * place in the graph (1 for the first), or 1 when the file as a whole is
 * at fault.  A symbolic first dimension of a graph input (a batch "N") is
 * taken as 1; the model must run one image (a batch of 1).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <protobuf-c/protobuf-c.h>

#include "core/util.h"
#include "onnx.pb-c.h"
#include "tensil/model.h"

/* An ONNX model of weights is tens of MB; this leaves room for the
 * largest public CNNs while keeping protobuf-c's copy of it bounded.
 */
#define MAX_ONNX_BYTES (1u << 30)
#define MAX_RANK 8
#define MAX_CONST 16
#define MAX_BATCH 4096

/* Post-operations already applied to a layer's output, in the order the
 * accumulators run them.
 */
enum {
	ST_MUL = 0,	/* the multiply, biases and scales folded */
	ST_RES = 1,	/* the residual addition */
	ST_NORM = 2,	/* the normalisation */
	ST_ACT = 3	/* the activation */
};

struct tensor {
	const char *name;
	int rank;
	int64_t dim[MAX_RANK];
	int layer;		/* the layer whose output this is, or -1 */
	int stage;		/* ST_*: what that layer did to it so far */
	int readers;		/* nodes that read it */
	int is_const;		/* an initializer or Constant */
	int n_val;		/* its int64 values when small (shapes) */
	int64_t val[MAX_CONST];
};

struct reader {
	const char *file;
	dse_error *err;
	Onnx__GraphProto *g;
	struct tensor *t;
	int n, cap;
	tensil_layer *layers;
	int *stage;		/* per layer: the ST_* its output reached */
	int n_layers, cap_layers;
	int node;		/* the node being read, from 0 */
};

static dse_stat fail(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* An error about the node being read (or about the file before any). */
static dse_stat fail(struct reader *rd, const char *fmt, ...)
{
	char msg[DSE_ERROR_MSG_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->node < 0 || !rd->g || (size_t) rd->node >= rd->g->n_node)
		return dse_error_set_at(rd->err, rd->file, 1, 0, NULL, "%s",
			msg);
	return dse_error_set_at(rd->err, rd->file, rd->node + 1, 0, NULL,
		"node %d '%s' (%s): %s", rd->node + 1,
		rd->g->node[rd->node]->name ? rd->g->node[rd->node]->name : "",
		rd->g->node[rd->node]->op_type ?
		rd->g->node[rd->node]->op_type : "?", msg);
}

static dse_stat nomem(struct reader *rd)
{
	return dse_error_set(rd->err, DSE_E_NOMEM, "out of memory reading %s",
		rd->file);
}

/* ------------------------------------------------------------------ */
/* Tensors */

static struct tensor *find(struct reader *rd, const char *name)
{
	int i;

	if (!name || !name[0])
		return NULL;
	for (i = rd->n - 1; i >= 0; i--)
		if (!strcmp(rd->t[i].name, name))
			return &rd->t[i];
	return NULL;
}

/* A new tensor "name" (a later one of the same name hides an earlier). */
static struct tensor *add(struct reader *rd, const char *name)
{
	struct tensor *t;

	if (!name || !name[0]) {
		fail(rd, "an output without a name");
		return NULL;
	}
	if (rd->n == rd->cap) {
		int cap = rd->cap ? 2 * rd->cap : 64;

		t = realloc(rd->t, (size_t) cap * sizeof(*t));
		if (!t) {
			nomem(rd);
			return NULL;
		}
		rd->t = t;
		rd->cap = cap;
	}
	t = &rd->t[rd->n++];
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->layer = -1;
	return t;
}

/* A tensor of the given shape, derived from "from" (its layer and stage
 * carry over, as a reshape only relabels the same words).
 */
static struct tensor *derive(struct reader *rd, const char *name,
	const struct tensor *from, int rank, const int64_t *dim)
{
	int layer = from ? from->layer : -1, stage = from ? from->stage : 0;
	struct tensor *t = add(rd, name);

	if (!t)
		return NULL;
	if (rank > MAX_RANK) {
		fail(rd, "a tensor of %d dimensions (at most %d)", rank,
			MAX_RANK);
		return NULL;
	}
	t->rank = rank;
	memcpy(t->dim, dim, (size_t) rank * sizeof(*dim));
	t->layer = layer;
	t->stage = stage;
	return t;
}

/* The element count of a tensor, or -1 when it passes 2^40. */
static int64_t elems(const struct tensor *t)
{
	int64_t n = 1;
	int i;

	for (i = 0; i < t->rank; i++) {
		if (t->dim[i] < 0 || (t->dim[i] && n > (INT64_C(1) << 40) /
			t->dim[i]))
			return -1;
		n *= t->dim[i];
	}
	return n;
}

/* Records a TensorProto (an initializer or a Constant's value): its shape
 * and, for a small integer tensor, its values.
 */
static dse_stat add_proto(struct reader *rd, const char *name,
	const Onnx__TensorProto *p)
{
	struct tensor *t;
	size_t i, n;

	if (p->n_dims > MAX_RANK)
		return fail(rd, "constant '%s' has %zu dimensions (at most %d)",
			name, p->n_dims, MAX_RANK);
	t = add(rd, name);
	if (!t)
		return dse_stat_error;
	t->rank = (int) p->n_dims;
	for (i = 0; i < p->n_dims; i++) {
		if (p->dims[i] < 0)
			return fail(rd, "constant '%s' has a negative "
				"dimension", name);
		t->dim[i] = p->dims[i];
	}
	t->is_const = 1;
	n = p->n_int64_data;
	if (n && n <= MAX_CONST)
		memcpy(t->val, p->int64_data, n * sizeof(int64_t));
	else if (!n && p->has_raw_data && p->data_type ==
		 ONNX__TENSOR_PROTO__DATA_TYPE__INT64 &&
		 p->raw_data.len % 8 == 0 && p->raw_data.len / 8 <= MAX_CONST) {
		n = p->raw_data.len / 8;
		for (i = 0; i < n; i++) {
			uint64_t v = 0;
			int b;

			for (b = 7; b >= 0; b--)
				v = v << 8 | p->raw_data.data[8 * i + (size_t) b];
			t->val[i] = (int64_t) v;
		}
	} else
		n = 0;
	t->n_val = (int) n;
	return dse_stat_ok;
}

/* A graph input: its declared shape, a symbolic batch (the first
 * dimension) taken as 1.
 */
static dse_stat add_input(struct reader *rd, const Onnx__ValueInfoProto *v)
{
	const Onnx__TypeProto *ty = v->type;
	const Onnx__TensorShapeProto *s;
	struct tensor *t;
	size_t i;

	if (find(rd, v->name))
		return dse_stat_ok;	/* an initializer listed as input */
	if (!ty || ty->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
	    !ty->tensor_type || !ty->tensor_type->shape)
		return fail(rd, "input '%s' has no tensor shape",
			v->name ? v->name : "");
	s = ty->tensor_type->shape;
	if (s->n_dim > MAX_RANK)
		return fail(rd, "input '%s' has %zu dimensions (at most %d)",
			v->name, s->n_dim, MAX_RANK);
	t = add(rd, v->name);
	if (!t)
		return dse_stat_error;
	t->rank = (int) s->n_dim;
	for (i = 0; i < s->n_dim; i++) {
		const Onnx__TensorShapeProto__Dimension *d = s->dim[i];

		if (d->value_case !=
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && i)
			return fail(rd, "input '%s': dimension %zu has no size "
				"('%s'); only the batch may be symbolic", v->name,
				i + 1, d->value_case ==
				ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
				&& d->dim_param ? d->dim_param : "");
		t->dim[i] = d->value_case ==
			ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ?
			d->dim_value : 1;
		if (t->dim[i] < 1)
			return fail(rd, "input '%s': dimension %zu is %lld",
				v->name, i, (long long) t->dim[i]);
	}
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* Attributes */

static const Onnx__AttributeProto *attr(const Onnx__NodeProto *n,
	const char *name)
{
	size_t i;

	for (i = 0; i < n->n_attribute; i++)
		if (n->attribute[i]->name &&
		    !strcmp(n->attribute[i]->name, name))
			return n->attribute[i];
	return NULL;
}

static int64_t attr_int(const Onnx__NodeProto *n, const char *name,
	int64_t dflt)
{
	const Onnx__AttributeProto *a = attr(n, name);

	return a && a->has_i ? a->i : dflt;
}

/* The ints of attribute "name": exactly "want" of them, or none (then
 * every one is "dflt").  Returns -1 for any other count.
 */
static int attr_ints(const Onnx__NodeProto *n, const char *name, size_t want,
	int64_t dflt, int64_t *out)
{
	const Onnx__AttributeProto *a = attr(n, name);
	size_t i;

	if (a && a->n_ints && a->n_ints != want)
		return -1;
	for (i = 0; i < want; i++)
		out[i] = a && a->n_ints ? a->ints[i] : dflt;
	return 0;
}

/* Whether attribute "name" is the string "s" (absent: dflt). */
static int attr_is(const Onnx__NodeProto *n, const char *name, const char *s,
	int dflt)
{
	const Onnx__AttributeProto *a = attr(n, name);

	if (!a || !a->has_s)
		return dflt;
	return strlen(s) == a->s.len && !memcmp(a->s.data, s, a->s.len);
}

/* ------------------------------------------------------------------ */
/* Layers */

/* What a layer's output may still take, beyond the ST_* order: nothing
 * after a global average or after a pooling layer.
 */
#define ST_DONE 4

/* A new layer named after the node (or "<op>_<n>"), kind "kind". */
static tensil_layer *new_layer(struct reader *rd, const Onnx__NodeProto *n)
{
	tensil_layer *l;

	if (rd->n_layers == rd->cap_layers) {
		int cap = rd->cap_layers ? 2 * rd->cap_layers : 32;
		int *st = realloc(rd->stage, (size_t) cap * sizeof(*st));

		if (st)
			rd->stage = st;
		l = st ? realloc(rd->layers, (size_t) cap * sizeof(*l)) : NULL;
		if (!l) {
			nomem(rd);
			return NULL;
		}
		rd->layers = l;
		rd->cap_layers = cap;
	}
	rd->stage[rd->n_layers] = ST_MUL;
	l = &rd->layers[rd->n_layers++];
	memset(l, 0, sizeof(*l));
	if (n->name && n->name[0])
		snprintf(l->name, sizeof(l->name), "%s", n->name);
	else
		snprintf(l->name, sizeof(l->name), "%s_%d", n->op_type,
			rd->node + 1);
	return l;
}

/* Checks a finished layer (sizes in range, padding consistent). */
static dse_stat check_layer(struct reader *rd, const tensil_layer *l)
{
	const char *why = tensil_layer_check(l);

	return why ? fail(rd, "%s", why) : dse_stat_ok;
}

/* The node's first output. */
static const char *out_name(const Onnx__NodeProto *n)
{
	return n->n_output ? n->output[0] : NULL;
}

/* The output of a node that made one layer: the layer's fresh output. */
static dse_stat layer_output(struct reader *rd, const Onnx__NodeProto *n,
	int rank, const int64_t *dim)
{
	struct tensor *y = derive(rd, out_name(n), NULL, rank, dim);

	if (!y)
		return dse_stat_error;
	y->layer = rd->n_layers - 1;
	return dse_stat_ok;
}

/* Whether every value lies in [1, hi]. */
static int sizes_ok(const int64_t *v, int n, int64_t hi)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] < 1 || v[i] > hi)
			return 0;
	return 1;
}

/* Input i of node n, which an earlier node, an initializer or the graph's
 * inputs must have made.
 */
static struct tensor *in(struct reader *rd, const Onnx__NodeProto *n,
	size_t i)
{
	struct tensor *t;

	if (i >= n->n_input || !n->input[i][0]) {
		fail(rd, "has no input %zu", i + 1);
		return NULL;
	}
	t = find(rd, n->input[i]);
	if (!t)
		fail(rd, "reads '%s', which no earlier node, initializer or "
			"graph input makes", n->input[i]);
	return t;
}

/* The padding of a convolution or pooling along one axis: "auto" is 0
 * (explicit pads p0, p1), 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID.  Sets the
 * padding before and the output size; returns -1 when no window fits.
 */
static int axis_out(int64_t in, int64_t k, int64_t s, int autopad,
	int64_t p0, int64_t p1, int ceil_mode, int64_t *before, int64_t *out)
{
	if (autopad == 1 || autopad == 2) {
		int64_t o = (in + s - 1) / s;
		int64_t total = (o - 1) * s + k - in;

		if (total < 0)
			total = 0;
		*before = autopad == 1 ? total / 2 : total - total / 2;
		*out = o;
		return 0;
	}
	if (autopad == 3)
		p0 = p1 = 0;
	*before = p0;
	if (p0 < 0 || p1 < 0 || in + p0 + p1 < k)
		return -1;
	*out = (in + p0 + p1 - k + (ceil_mode ? s - 1 : 0)) / s + 1;
	return 0;
}

static int auto_pad(const Onnx__NodeProto *n)
{
	if (attr_is(n, "auto_pad", "SAME_UPPER", 0))
		return 1;
	if (attr_is(n, "auto_pad", "SAME_LOWER", 0))
		return 2;
	if (attr_is(n, "auto_pad", "VALID", 0))
		return 3;
	return 0;
}

/* The window geometry of a Conv or a pooling node on a 1 x C x H x W
 * input: kernel k[2] (given, or from the weights), strides, padding
 * before, output size.
 */
static dse_stat window(struct reader *rd, const Onnx__NodeProto *n,
	const struct tensor *x, int64_t *k, int64_t *s, int64_t *before,
	int64_t *out)
{
	int64_t pads[4], dil[2], shape[2];
	int i, ap = auto_pad(n), ceil_mode = (int) attr_int(n, "ceil_mode", 0);

	if (x->rank != 4 || x->dim[0] != 1)
		return fail(rd, "the input must be 1 x C x H x W (one image), "
			"not of %d dimensions or batch %lld", x->rank,
			(long long) (x->rank ? x->dim[0] : 0));
	if (attr_ints(n, "kernel_shape", 2, 0, shape) ||
	    attr_ints(n, "strides", 2, 1, s) || attr_ints(n, "pads", 4, 0,
		pads) || attr_ints(n, "dilations", 2, 1, dil))
		return fail(rd, "kernel_shape, strides, pads or dilations of "
			"the wrong length for a 2-D window");
	if (dil[0] != 1 || dil[1] != 1)
		return fail(rd, "dilations %lldx%lld: the overlay family has "
			"no dilated windows", (long long) dil[0],
			(long long) dil[1]);
	for (i = 0; i < 2; i++)
		if (shape[i])
			k[i] = shape[i];
	if (!sizes_ok(k, 2, 65536) || !sizes_ok(s, 2, 65536))
		return fail(rd, "window or stride out of range");
	for (i = 0; i < 2; i++)
		if (axis_out(x->dim[2 + i], k[i], s[i], ap, pads[i],
			pads[2 + i], ceil_mode, &before[i], &out[i]))
			return fail(rd, "the %lldx%lld window does not fit the "
				"padded %lldx%lld input", (long long) k[0],
				(long long) k[1], (long long) x->dim[2],
				(long long) x->dim[3]);
	if (s[0] != s[1])
		return fail(rd, "strides %lldx%lld: the overlay family's "
			"layers have one stride", (long long) s[0],
			(long long) s[1]);
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* Compute nodes */

static dse_stat op_conv(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0), *w = x ? in(rd, n, 1) : NULL;
	int64_t k[2], s[2], before[2], out[2], dim[4];
	tensil_layer *l;

	if (!w)
		return dse_stat_error;
	if (w->rank != 4)
		return fail(rd, "the weights must be K x C x kH x kW");
	k[0] = w->dim[2];
	k[1] = w->dim[3];
	if (window(rd, n, x, k, s, before, out))
		return dse_stat_error;
	if (attr_int(n, "group", 1) != 1)
		return fail(rd, "a grouped convolution (group %lld): the "
			"overlay family's convolutions read every input "
			"channel", (long long) attr_int(n, "group", 1));
	if (w->dim[1] != x->dim[1] || k[0] != w->dim[2] || k[1] != w->dim[3])
		return fail(rd, "weights of %lld channels and %lldx%lld for an "
			"input of %lld channels and kernel %lldx%lld",
			(long long) w->dim[1], (long long) w->dim[2],
			(long long) w->dim[3], (long long) x->dim[1],
			(long long) k[0], (long long) k[1]);
	if (!sizes_ok(x->dim + 1, 3, 1 << 20) || !sizes_ok(w->dim, 1, 1 << 20)
	    || !sizes_ok(out, 2, 65536) || before[0] > k[0] ||
	    before[1] > k[1])
		return fail(rd, "sizes out of the overlay family's range");
	l = new_layer(rd, n);
	if (!l)
		return dse_stat_error;
	l->kind = TENSIL_CONV;
	l->in_h = (int) x->dim[2];
	l->in_w = (int) x->dim[3];
	l->channels = (int) x->dim[1];
	l->fh = (int) k[0];
	l->fw = (int) k[1];
	l->filters = (int) w->dim[0];
	l->stride = (int) s[0];
	l->pad_top = (int) before[0];
	l->pad_left = (int) before[1];
	l->out_h = (int) out[0];
	l->out_w = (int) out[1];
	l->saves = 1;
	if (check_layer(rd, l))
		return dse_stat_error;
	dim[0] = 1;
	dim[1] = w->dim[0];
	dim[2] = out[0];
	dim[3] = out[1];
	return layer_output(rd, n, 4, dim);
}

/* A GEMM layer of M x K by K x N, batch "batch" of its node (-1: the
 * node makes one).
 */
static dse_stat gemm_layer(struct reader *rd, const Onnx__NodeProto *n,
	int64_t m, int64_t nn, int64_t k, int batch)
{
	char name[TENSIL_NAME_LEN];
	tensil_layer *l;

	if (m < 1 || m > 65536 || nn < 1 || nn > (1 << 20) || k < 1 ||
	    k > (1 << 20))
		return fail(rd, "a %lld x %lld by %lld x %lld multiply is out "
			"of the overlay family's range (M up to 65536, K and N "
			"up to 2^20)", (long long) m, (long long) k,
			(long long) k, (long long) nn);
	l = new_layer(rd, n);
	if (!l)
		return dse_stat_error;
	if (batch >= 0) {
		/* Room for "_b4095" after the node's name; batch is below
		 * MAX_BATCH, which the cast's range holds.
		 */
		_Static_assert(MAX_BATCH <= 65535, "batch fits %hu");
		snprintf(name, sizeof(name), "%.40s_b%hu", l->name,
			(unsigned short) batch);
		snprintf(l->name, sizeof(l->name), "%s", name);
	}
	memcpy(name, l->name, sizeof(name));
	tensil_layer_gemm(l, name, m, (int) nn, (int) k);
	return check_layer(rd, l);
}

static dse_stat op_gemm(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *a = in(rd, n, 0), *b = a ? in(rd, n, 1) : NULL;
	int ta = attr_int(n, "transA", 0) != 0, tb = attr_int(n, "transB", 0) != 0;
	int64_t dim[2];

	if (!b)
		return dse_stat_error;
	if (a->rank != 2 || b->rank != 2)
		return fail(rd, "Gemm multiplies two matrices (A has %d "
			"dimensions, B %d)", a->rank, b->rank);
	if (a->dim[ta ? 0 : 1] != b->dim[tb ? 1 : 0])
		return fail(rd, "A is %lldx%lld and B %lldx%lld: the inner "
			"sizes differ", (long long) a->dim[ta], (long long)
			a->dim[!ta], (long long) b->dim[tb],
			(long long) b->dim[!tb]);
	dim[0] = a->dim[ta ? 1 : 0];
	dim[1] = b->dim[tb ? 0 : 1];
	if (gemm_layer(rd, n, dim[0], dim[1], a->dim[ta ? 0 : 1], -1))
		return dse_stat_error;
	return layer_output(rd, n, 2, dim);
}

/* MatMul: A (..., M, K) times B (K, N), one GEMM of all of A's rows; or
 * B (..., K, N) batched, one GEMM per batch (their outputs no layer's
 * alone, so nothing fuses after them).
 */
static dse_stat op_matmul(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *a = in(rd, n, 0), *b = a ? in(rd, n, 1) : NULL, *y;
	int64_t m = 1, batch = 1, dim[MAX_RANK], i;

	if (!b)
		return dse_stat_error;
	if (a->rank < 2 || b->rank < 2)
		return fail(rd, "MatMul of vectors: give both operands two "
			"dimensions");
	if (a->dim[a->rank - 1] != b->dim[b->rank - 2])
		return fail(rd, "inner sizes %lld and %lld differ",
			(long long) a->dim[a->rank - 1],
			(long long) b->dim[b->rank - 2]);
	for (i = 0; i < a->rank - 1; i++)
		m *= a->dim[i];
	memcpy(dim, a->dim, sizeof(dim));
	dim[a->rank - 1] = b->dim[b->rank - 1];
	if (b->rank == 2)
		return gemm_layer(rd, n, m, b->dim[1], b->dim[0], -1) ?
			dse_stat_error : layer_output(rd, n, a->rank, dim);
	for (i = 0; i < b->rank - 2; i++)
		batch *= b->dim[i];
	if (a->rank != b->rank || batch > MAX_BATCH || elems(a) < 0)
		return fail(rd, "a batched MatMul needs operands of the same "
			"rank and at most %d batches", MAX_BATCH);
	for (i = 0; i < batch; i++)
		if (gemm_layer(rd, n, a->dim[a->rank - 2], b->dim[b->rank - 1],
			b->dim[b->rank - 2], (int) i))
			return dse_stat_error;
	y = derive(rd, out_name(n), NULL, a->rank, dim);
	if (!y)
		return dse_stat_error;
	y->stage = ST_DONE;
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* Post-operations */

/* The layer whose accumulators can still run "what" (of order "st") on
 * tensor x: the last layer made, x its latest value, nothing of order st
 * or later done yet (ST_MUL: biases and scales, any number).  A tensor
 * another node reads too must be kept before and after: two saves.
 */
static tensil_layer *post(struct reader *rd, const struct tensor *x, int st,
	const char *what)
{
	tensil_layer *l;

	if (x->layer < 0) {
		fail(rd, "%s on '%s', which no single layer computes (the "
			"model's input, a concatenation or a batched MatMul): "
			"the overlay family runs it in a layer's accumulators",
			what, x->name);
		return NULL;
	}
	l = &rd->layers[x->layer];
	if (x->layer != rd->n_layers - 1 || x->stage != rd->stage[x->layer]) {
		fail(rd, "%s on the output of layer '%s' once %s: its "
			"accumulators have moved on", what, l->name,
			x->layer != rd->n_layers - 1 ? "a later layer started" :
			"another operation used it");
		return NULL;
	}
	if (rd->stage[x->layer] > st || (st != ST_MUL &&
	    rd->stage[x->layer] == st)) {
		fail(rd, "%s after the layer's %s: the accumulators run the "
			"residual addition, then the normalisation, then the "
			"activation", what, rd->stage[x->layer] >= ST_DONE ?
			"pooling" : rd->stage[x->layer] == ST_ACT ?
			"activation" : rd->stage[x->layer] == ST_NORM ?
			"normalisation" : "residual addition");
		return NULL;
	}
	if (x->readers > 1 && st != ST_MUL) {
		if (l->saves > 1) {
			fail(rd, "layer '%s' would have to keep a third copy "
				"of its output", l->name);
			return NULL;
		}
		l->saves = 2;
	}
	return l;
}

/* The output of a post-operation: x's shape, of the same layer, at stage
 * st.
 */
static dse_stat post_output(struct reader *rd, const Onnx__NodeProto *n,
	const struct tensor *x, int st)
{
	struct tensor *y = derive(rd, out_name(n), x, x->rank, x->dim);

	if (!y)
		return dse_stat_error;
	y->stage = st;
	if (y->layer >= 0)
		rd->stage[y->layer] = st;
	return dse_stat_ok;
}

static dse_stat op_act(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	tensil_layer *l = x ? post(rd, x, ST_ACT, n->op_type) : NULL;

	if (!l)
		return dse_stat_error;
	if (l->global_pool)
		return fail(rd, "an activation after the global average: the "
			"accumulators average last");
	l->act = !strcmp(n->op_type, "Relu") ? TENSIL_ACT_RELU :
		TENSIL_ACT_LEAKY;
	return post_output(rd, n, x, ST_ACT);
}

/* BatchNormalization: folded into the weights right after the multiply
 * (as Tensil's compiler folds it), the layer's normalisation after a
 * residual addition.
 */
static dse_stat op_norm(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	tensil_layer *l;
	int fold;

	if (!x)
		return dse_stat_error;
	fold = x->layer >= 0 && rd->stage[x->layer] == ST_MUL;
	if (fold && x->readers > 1)
		return fail(rd, "a normalisation folded into the weights of "
			"layer '%s', whose output another node reads unfolded",
			rd->layers[x->layer].name);
	l = post(rd, x, fold ? ST_MUL : ST_NORM, "BatchNormalization");
	if (!l)
		return dse_stat_error;
	if (!fold)
		l->norm = 1;
	return post_output(rd, n, x, fold ? ST_MUL : ST_NORM);
}

/* Add, Sub, Mul, Div.  With a constant operand it is a bias or a scale,
 * folded into the multiply; Add of two activations is the residual
 * addition of the layer that made the fresher one.
 */
static dse_stat op_binary(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *a = in(rd, n, 0), *b = a ? in(rd, n, 1) : NULL, *x;
	tensil_layer *l;
	int i;

	if (!b)
		return dse_stat_error;
	if (a->is_const || b->is_const) {
		x = a->is_const ? b : a;
		return post(rd, x, ST_MUL, "a constant operand") ?
			post_output(rd, n, x, ST_MUL) : dse_stat_error;
	}
	if (strcmp(n->op_type, "Add"))
		return fail(rd, "%s of two activations: the overlay family adds "
			"activations (residuals) only", n->op_type);
	if (a->rank != b->rank)
		return fail(rd, "operands of %d and %d dimensions", a->rank,
			b->rank);
	for (i = 0; i < a->rank; i++)
		if (a->dim[i] != b->dim[i])
			return fail(rd, "operands of different shapes: the "
				"residual addition does not broadcast");
	x = b->layer > a->layer ? b : a;
	l = post(rd, x, ST_RES, "the residual addition");
	if (!l)
		return dse_stat_error;
	l->residual = 1;
	return post_output(rd, n, x, ST_RES);
}

/* MaxPool: the in-layer pooling of the layer that made its input when it
 * pools with SAME padding (ceil(H / s) outputs) before any normalisation
 * (after the activation is the same: max commutes with ReLU and
 * LeakyReLU); else a pooling layer of its own.  AveragePool only over the
 * whole map, as the global average.
 */
static dse_stat op_pool(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	int64_t k[2] = { 0, 0 }, s[2], before[2], out[2], dim[4];
	tensil_layer *l;

	if (!x || window(rd, n, x, k, s, before, out))
		return dse_stat_error;
	if (!strcmp(n->op_type, "AveragePool")) {
		if (k[0] != x->dim[2] || k[1] != x->dim[3] || out[0] != 1 ||
		    out[1] != 1)
			return fail(rd, "an average over %lldx%lld windows: "
				"the overlay family averages the whole map "
				"only", (long long) k[0], (long long) k[1]);
		return dse_stat_ok;	/* op_global does the rest */
	}
	if (k[0] != k[1] || out[0] != (x->dim[2] + s[0] - 1) / s[0] ||
	    out[1] != (x->dim[3] + s[1] - 1) / s[1] || s[0] > k[0])
		return fail(rd, "a %lldx%lld max pool at stride %lld to "
			"%lldx%lld: the overlay family pools square windows "
			"with SAME padding (ceil(H / stride) outputs)",
			(long long) k[0], (long long) k[1], (long long) s[0],
			(long long) out[0], (long long) out[1]);
	dim[0] = 1;
	dim[1] = x->dim[1];
	dim[2] = out[0];
	dim[3] = out[1];
	if (x->layer == rd->n_layers - 1 && x->layer >= 0 &&
	    x->stage == rd->stage[x->layer] && x->readers == 1 &&
	    rd->stage[x->layer] != ST_NORM && rd->stage[x->layer] < ST_DONE &&
	    !rd->layers[x->layer].pool_k && !rd->layers[x->layer].norm &&
	    rd->layers[x->layer].kind != TENSIL_POOL) {
		struct tensor *y = derive(rd, out_name(n), x, 4, dim);

		rd->layers[x->layer].pool_k = (int) k[0];
		rd->layers[x->layer].pool_stride = (int) s[0];
		/* No residual addition after the pooling. */
		if (y && rd->stage[x->layer] < ST_RES)
			rd->stage[x->layer] = y->stage = ST_RES;
		return y ? dse_stat_ok : dse_stat_error;
	}
	if (!sizes_ok(x->dim + 1, 3, 65536))
		return fail(rd, "sizes out of the overlay family's range");
	l = new_layer(rd, n);
	if (!l)
		return dse_stat_error;
	tensil_layer_pool(l, l->name, (int) x->dim[2], (int) x->dim[3],
		(int) x->dim[1], (int) k[0], (int) s[0]);
	if (check_layer(rd, l) || layer_output(rd, n, 4, dim))
		return dse_stat_error;
	rd->stage[rd->n_layers - 1] = ST_DONE;
	rd->t[rd->n - 1].stage = ST_DONE;
	return dse_stat_ok;
}

/* GlobalAveragePool (and a whole-map AveragePool): the layer's global
 * average, after its activation.
 */
static dse_stat op_global(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	tensil_layer *l;
	int64_t dim[4];

	if (!x)
		return dse_stat_error;
	if (x->rank != 4)
		return fail(rd, "the input must be 1 x C x H x W");
	if (!strcmp(n->op_type, "AveragePool") && op_pool(rd, n))
		return dse_stat_error;
	l = post(rd, x, ST_DONE, "the global average");
	if (!l)
		return dse_stat_error;
	if (l->pool_k || l->kind == TENSIL_POOL)
		return fail(rd, "a global average after a pooling window");
	l->global_pool = 1;
	memcpy(dim, x->dim, sizeof(dim));
	dim[2] = dim[3] = 1;
	if (!derive(rd, out_name(n), x, 4, dim))
		return dse_stat_error;
	rd->stage[x->layer] = rd->t[rd->n - 1].stage = ST_DONE;
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* Shapes */

/* Flatten to 2 dimensions at "axis". */
static dse_stat op_flatten(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	int64_t axis = attr_int(n, "axis", 1), dim[2] = { 1, 1 };
	int i;

	if (!x)
		return dse_stat_error;
	if (axis < 0)
		axis += x->rank;
	if (axis < 0 || axis > x->rank)
		return fail(rd, "axis %lld of a tensor of %d dimensions",
			(long long) attr_int(n, "axis", 1), x->rank);
	for (i = 0; i < x->rank; i++)
		dim[i >= axis] *= x->dim[i];
	return derive(rd, out_name(n), x, 2, dim) ? dse_stat_ok :
		dse_stat_error;
}

/* Reshape to the constant shape of input 2 (0 keeps a dimension, -1
 * takes what is left).
 */
static dse_stat op_reshape(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0), *s = x ? in(rd, n, 1) : NULL;
	int64_t dim[MAX_RANK], total = x ? elems(x) : 0, known = 1;
	int i, free_at = -1;

	if (!s)
		return dse_stat_error;
	if (!s->is_const || s->rank != 1 || s->n_val != s->dim[0] ||
	    s->n_val > MAX_RANK || s->n_val < 1)
		return fail(rd, "the shape must be a constant list of 1 to %d "
			"integers", MAX_RANK);
	for (i = 0; i < s->n_val; i++) {
		dim[i] = s->val[i] == 0 && i < x->rank ? x->dim[i] : s->val[i];
		if (dim[i] == -1 && free_at < 0)
			free_at = i;
		else if (dim[i] < 1 || known > (INT64_C(1) << 40) / dim[i])
			return fail(rd, "shape entry %d is %lld", i,
				(long long) s->val[i]);
		else
			known *= dim[i];
	}
	if (free_at >= 0)
		dim[free_at] = known ? total / known : 0;
	if (total < 0 || known * (free_at >= 0 ? dim[free_at] : 1) != total)
		return fail(rd, "%lld elements cannot take that shape",
			(long long) total);
	return derive(rd, out_name(n), x, s->n_val, dim) ? dse_stat_ok :
		dse_stat_error;
}

/* The axes of Squeeze or Unsqueeze: the attribute, or input 2. */
static int axes_of(struct reader *rd, const Onnx__NodeProto *n,
	int64_t *axes)
{
	const Onnx__AttributeProto *a = attr(n, "axes");
	struct tensor *t;
	int i;

	if (a && a->n_ints && a->n_ints <= MAX_RANK) {
		for (i = 0; i < (int) a->n_ints; i++)
			axes[i] = a->ints[i];
		return (int) a->n_ints;
	}
	if (n->n_input < 2)
		return 0;
	t = in(rd, n, 1);
	if (!t || !t->is_const || t->n_val != elems(t))
		return -1;
	memcpy(axes, t->val, (size_t) t->n_val * sizeof(*axes));
	return t->n_val;
}

static dse_stat op_squeeze(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	int64_t axes[MAX_RANK], dim[MAX_RANK];
	int na, i, j, rank = 0, unsq = !strcmp(n->op_type, "Unsqueeze");
	unsigned mark = 0;

	if (!x)
		return dse_stat_error;
	na = axes_of(rd, n, axes);
	if (na < 0 || (unsq && na == 0) || x->rank + (unsq ? na : 0) > MAX_RANK)
		return fail(rd, "the axes must be constant and the result of at "
			"most %d dimensions", MAX_RANK);
	for (i = 0; i < na; i++) {
		int64_t ax = axes[i] < 0 ? axes[i] + x->rank + (unsq ? na : 0) :
			axes[i];

		if (ax < 0 || ax >= x->rank + (unsq ? na : 0) ||
		    (!unsq && x->dim[ax] != 1))
			return fail(rd, "axis %lld cannot be %s",
				(long long) axes[i], unsq ? "inserted" :
				"squeezed");
		mark |= 1u << ax;
	}
	for (i = 0, j = 0; i < x->rank + (unsq ? na : 0); i++)
		if (unsq)
			dim[rank++] = mark >> i & 1 ? 1 : x->dim[j++];
		else if (!(na ? mark >> i & 1 : x->dim[i] == 1))
			dim[rank++] = x->dim[i];
	return derive(rd, out_name(n), x, rank, dim) ? dse_stat_ok :
		dse_stat_error;
}

static dse_stat op_transpose(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);
	int64_t perm[MAX_RANK], dim[MAX_RANK];
	unsigned seen = 0;
	int i;

	if (!x)
		return dse_stat_error;
	for (i = 0; i < x->rank; i++)
		perm[i] = x->rank - 1 - i;
	if (attr(n, "perm") && attr_ints(n, "perm", (size_t) x->rank, 0, perm))
		return fail(rd, "perm must name each of the %d dimensions",
			x->rank);
	for (i = 0; i < x->rank; i++) {
		if (perm[i] < 0 || perm[i] >= x->rank || seen >> perm[i] & 1)
			return fail(rd, "perm must name each of the %d "
				"dimensions once", x->rank);
		seen |= 1u << perm[i];
		dim[i] = x->dim[perm[i]];
	}
	return derive(rd, out_name(n), x, x->rank, dim) ? dse_stat_ok :
		dse_stat_error;
}

/* Concat along "axis": a tensor no single layer made. */
static dse_stat op_concat(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0), *y;
	int64_t axis = attr_int(n, "axis", 0), dim[MAX_RANK];
	size_t i;
	int d;

	if (!x)
		return dse_stat_error;
	if (axis < 0)
		axis += x->rank;
	if (axis < 0 || axis >= x->rank)
		return fail(rd, "axis out of range");
	memcpy(dim, x->dim, sizeof(dim));
	for (i = 1; i < n->n_input; i++) {
		struct tensor *z = in(rd, n, i);

		if (!z)
			return dse_stat_error;
		for (d = 0; d < x->rank; d++)
			if (z->rank != x->rank || (d != axis &&
			    z->dim[d] != x->dim[d]))
				return fail(rd, "input %zu's shape does not "
					"match the first's", i + 1);
		dim[axis] += z->dim[axis];
	}
	y = derive(rd, out_name(n), NULL, x->rank, dim);
	if (!y)
		return dse_stat_error;
	y->stage = ST_DONE;
	return dse_stat_ok;
}

static dse_stat op_identity(struct reader *rd, const Onnx__NodeProto *n)
{
	struct tensor *x = in(rd, n, 0);

	return x && derive(rd, out_name(n), x, x->rank, x->dim) ?
		dse_stat_ok : dse_stat_error;
}

static dse_stat op_constant(struct reader *rd, const Onnx__NodeProto *n)
{
	const Onnx__AttributeProto *a = attr(n, "value");
	struct tensor *t;

	if (a && a->t)
		return add_proto(rd, out_name(n) ? out_name(n) : "", a->t);
	a = attr(n, "value_ints");
	if (!a)
		a = attr(n, "value_int");
	if (!a || a->n_ints > MAX_CONST)
		return fail(rd, "a constant of a kind the overlay family does "
			"not read (a tensor or integers)");
	t = add(rd, out_name(n));
	if (!t)
		return dse_stat_error;
	t->is_const = 1;
	t->rank = a->n_ints || !a->has_i ? 1 : 0;
	t->dim[0] = (int64_t) a->n_ints;
	t->n_val = a->n_ints ? (int) a->n_ints : 1;
	if (a->n_ints)
		memcpy(t->val, a->ints, a->n_ints * sizeof(int64_t));
	else
		t->val[0] = a->i;
	return dse_stat_ok;
}

/* ------------------------------------------------------------------ */
/* The graph */

static const struct {
	const char *op;
	dse_stat (*run)(struct reader *, const Onnx__NodeProto *);
} ops[] = {
	{ "Conv", op_conv }, { "Gemm", op_gemm }, { "MatMul", op_matmul },
	{ "Relu", op_act }, { "LeakyRelu", op_act },
	{ "BatchNormalization", op_norm },
	{ "Add", op_binary }, { "Sub", op_binary }, { "Mul", op_binary },
	{ "Div", op_binary },
	{ "MaxPool", op_pool }, { "AveragePool", op_global },
	{ "GlobalAveragePool", op_global },
	{ "Flatten", op_flatten }, { "Reshape", op_reshape },
	{ "Squeeze", op_squeeze }, { "Unsqueeze", op_squeeze },
	{ "Transpose", op_transpose }, { "Concat", op_concat },
	{ "Identity", op_identity }, { "Dropout", op_identity },
	{ "Constant", op_constant },
};

/* How many nodes (and graph outputs) read the tensor "name". */
static int readers_of(const Onnx__GraphProto *g, const char *name)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < g->n_node; i++)
		for (j = 0; j < g->node[i]->n_input; j++)
			n += !strcmp(g->node[i]->input[j], name);
	for (i = 0; i < g->n_output; i++)
		n += g->output[i]->name && !strcmp(g->output[i]->name, name);
	return n;
}

static dse_stat run_node(struct reader *rd, const Onnx__NodeProto *n)
{
	char known[512] = "";
	size_t i;
	int first = rd->n;

	if (!n->op_type || (n->domain && n->domain[0] &&
	    strcmp(n->domain, "ai.onnx")))
		return fail(rd, "an operator outside the standard ONNX "
			"domain");
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(ops[i].op, n->op_type)) {
			if (ops[i].run(rd, n))
				return dse_stat_error;
			/* Count the readers of what the node made. */
			for (; first < rd->n; first++)
				rd->t[first].readers = readers_of(rd->g,
					rd->t[first].name);
			return dse_stat_ok;
		}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		snprintf(known + strlen(known), sizeof(known) - strlen(known),
			"%s%s", i ? ", " : "", ops[i].op);
	return fail(rd, "the overlay family has no such operator (it reads "
		"%s)", known);
}

static dse_stat read_graph(struct reader *rd)
{
	Onnx__GraphProto *g = rd->g;
	size_t i;

	rd->node = -1;
	for (i = 0; i < g->n_initializer; i++)
		if (add_proto(rd, g->initializer[i]->name ?
			g->initializer[i]->name : "", g->initializer[i]))
			return dse_stat_error;
	for (i = 0; i < g->n_input; i++)
		if (add_input(rd, g->input[i]))
			return dse_stat_error;
	for (i = 0; i < (size_t) rd->n; i++)
		rd->t[i].readers = readers_of(g, rd->t[i].name);
	for (i = 0; i < g->n_node; i++) {
		rd->node = (int) i;
		if (run_node(rd, g->node[i]))
			return dse_stat_error;
	}
	rd->node = -1;
	if (!rd->n_layers)
		return fail(rd, "the graph has no Conv, Gemm or MatMul: nothing "
			"for the overlay family to run");
	return dse_stat_ok;
}

/* The model named after the file, with the layers read. */
static tensil_model *build(struct reader *rd)
{
	char name[TENSIL_NAME_LEN], *dot;
	tensil_model *m;
	int i;

	snprintf(name, sizeof(name), "%s", dse_base_name(rd->file));
	dot = strrchr(name, '.');
	if (dot && dot != name)
		*dot = '\0';
	m = tensil_model_alloc(name, rd->err);
	for (i = 0; m && i < rd->n_layers; i++)
		if (tensil_model_add_layer(m, &rd->layers[i], rd->err))
			m = tensil_model_free(m);
	return m;
}

tensil_model *tensil_model_parse_onnx(const uint8_t *data, size_t len,
	const char *file, dse_error *err)
{
	struct reader rd;
	Onnx__ModelProto *mp;
	tensil_model *m = NULL;

	memset(&rd, 0, sizeof(rd));
	rd.file = file;
	rd.err = err;
	rd.node = -1;
	mp = onnx__model_proto__unpack(NULL, len, data);
	if (!mp || !mp->graph) {
		fail(&rd, mp ? "an ONNX model without a graph" : "not an ONNX "
			"model (the protobuf message does not parse)");
	} else {
		rd.g = mp->graph;
		if (!read_graph(&rd))
			m = build(&rd);
	}
	if (mp)
		onnx__model_proto__free_unpacked(mp, NULL);
	free(rd.t);
	free(rd.layers);
	free(rd.stage);
	return m;
}

/* Reads the file whole into a new buffer; NULL with the error set. */
static uint8_t *slurp(const char *path, size_t *len, dse_error *err)
{
	struct stat st;
	uint8_t *buf;
	FILE *f = fopen(path, "rb");

	if (!f) {
		dse_error_set(err, DSE_E_IO, "cannot open '%s': %s", path,
			strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t) st.st_size > MAX_ONNX_BYTES) {
		fclose(f);
		dse_error_set_at(err, path, 1, 0, NULL, "not a regular file of "
			"at most %u MiB", MAX_ONNX_BYTES >> 20);
		return NULL;
	}
	buf = malloc((size_t) st.st_size + 1);
	*len = buf ? fread(buf, 1, (size_t) st.st_size, f) : 0;
	fclose(f);
	if (buf && *len == (size_t) st.st_size)
		return buf;
	if (buf)
		dse_error_set(err, DSE_E_IO, "cannot read '%s'", path);
	else
		dse_error_set(err, DSE_E_NOMEM, "out of memory reading '%s'",
			path);
	free(buf);
	return NULL;
}

int tensil_onnx_outputs(const char *path, char *buf, size_t size)
{
	Onnx__ModelProto *mp = NULL;
	uint8_t *data;
	dse_error err;
	size_t len = 0, i;

	if (size)
		buf[0] = '\0';
	data = slurp(path, &len, &err);
	if (data)
		mp = onnx__model_proto__unpack(NULL, len, data);
	free(data);
	if (!mp || !mp->graph) {
		if (mp)
			onnx__model_proto__free_unpacked(mp, NULL);
		return -1;
	}
	for (i = 0; i < mp->graph->n_output && size; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s",
			i ? "," : "", mp->graph->output[i]->name ?
			mp->graph->output[i]->name : "");
	onnx__model_proto__free_unpacked(mp, NULL);
	return 0;
}

tensil_model *tensil_model_read_onnx(const char *path, dse_error *err)
{
	size_t len = 0;
	uint8_t *buf = slurp(path, &len, err);
	tensil_model *m;

	if (!buf)
		return NULL;
	m = tensil_model_parse_onnx(buf, len, path, err);
	free(buf);
	return m;
}
