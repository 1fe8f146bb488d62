/* tensil: layers, their checks and multiply counts, and the model that
 * holds them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct tensil_model {
	char name[TENSIL_NAME_LEN];
	int n, cap;
	tensil_layer *layers;
};

/* TensorFlow's SAME padding of one dimension: the output is ceil(in / s)
 * and the padding the windows need is split with the odd row after.
 */
static void same_dim(int in, int f, int s, int *out, int *before)
{
	int o = (in + s - 1) / s;
	int64_t total = (int64_t) (o - 1) * s + f - in;

	*out = o;
	*before = total > 0 ? (int) (total / 2) : 0;
}

static void set_name(tensil_layer *l, const char *name)
{
	snprintf(l->name, sizeof(l->name), "%s", name ? name : "");
}

void tensil_layer_conv(tensil_layer *l, const char *name, int in_h, int in_w,
	int channels, int fh, int fw, int filters, int stride, int same)
{
	memset(l, 0, sizeof(*l));
	set_name(l, name);
	l->kind = TENSIL_CONV;
	l->in_h = in_h;
	l->in_w = in_w;
	l->channels = channels;
	l->fh = fh;
	l->fw = fw;
	l->filters = filters;
	l->stride = stride;
	l->saves = 1;
	if (stride < 1)
		return;
	if (same) {
		same_dim(in_h, fh, stride, &l->out_h, &l->pad_top);
		same_dim(in_w, fw, stride, &l->out_w, &l->pad_left);
	} else {
		l->out_h = in_h >= fh ? (in_h - fh) / stride + 1 : 0;
		l->out_w = in_w >= fw ? (in_w - fw) / stride + 1 : 0;
	}
}

void tensil_layer_gemm(tensil_layer *l, const char *name, int64_t m, int n,
	int k)
{
	int h = m > 0 && m <= TENSIL_MAX_DIM ? (int) m : (m > 0 ? -1 : 0);

	tensil_layer_conv(l, name, h, 1, k, 1, 1, n, 1, 0);
	l->kind = TENSIL_GEMM;
}

void tensil_layer_pool(tensil_layer *l, const char *name, int in_h, int in_w,
	int channels, int k, int stride)
{
	tensil_layer_conv(l, name, in_h, in_w, channels, k, k, channels,
		stride, 1);
	l->kind = TENSIL_POOL;
}

static int in_range(int v, int lo, int hi)
{
	return v >= lo && v <= hi;
}

/* Whether out outputs of windows f at stride s with "pad" padding before
 * all touch the input of size "in": the first window starts at most f - 1
 * rows early, the last starts inside the input.
 */
static int windows_fit(int in, int f, int s, int pad, int out)
{
	return out >= 1 && pad >= 0 && pad <= f - 1 &&
		(int64_t) (out - 1) * s - pad <= in - 1 &&
		(int64_t) (out - 1) * s + f - pad - in <= f - 1;
}

static const char *check_post(const tensil_layer *l)
{
	if (!in_range(l->residual, 0, 1) || !in_range(l->norm, 0, 1) ||
	    !in_range(l->global_pool, 0, 1))
		return "residual, norm and global_pool must be 0 or 1";
	if (!in_range(l->act, 0, TENSIL_N_ACTS - 1))
		return "unknown activation";
	if (!in_range(l->saves, 1, 2))
		return "a layer saves its output once or twice";
	if (l->pool_k < 0 || l->pool_k > TENSIL_MAX_DIM)
		return "pooling window out of range";
	if (l->pool_k > 0 && !in_range(l->pool_stride, 1, l->pool_k))
		return "pooling stride must be between 1 and the window";
	if (l->pool_k > 0 && l->global_pool)
		return "a layer has either a pooling window or a global pool";
	if (l->kind == TENSIL_POOL && (l->residual || l->norm ||
	    l->pool_k || l->global_pool))
		return "a pooling layer has no accumulator work of its own";
	return NULL;
}

const char *tensil_layer_check(const tensil_layer *l)
{
	if (!l)
		return "no layer";
	if (!in_range(l->kind, 0, TENSIL_N_KINDS - 1))
		return "unknown layer kind";
	if (!l->name[0])
		return "a layer needs a name";
	if (!in_range(l->in_h, 1, TENSIL_MAX_DIM) ||
	    !in_range(l->in_w, 1, TENSIL_MAX_DIM))
		return "input height and width must be between 1 and 65536";
	if (!in_range(l->channels, 1, TENSIL_MAX_CHANNELS) ||
	    !in_range(l->filters, 1, TENSIL_MAX_CHANNELS))
		return "channels and filters must be between 1 and 2^20";
	if (!in_range(l->fh, 1, TENSIL_MAX_DIM) ||
	    !in_range(l->fw, 1, TENSIL_MAX_DIM) ||
	    !in_range(l->stride, 1, TENSIL_MAX_DIM))
		return "filter sizes and stride must be between 1 and 65536";
	if (!windows_fit(l->in_h, l->fh, l->stride, l->pad_top, l->out_h) ||
	    !windows_fit(l->in_w, l->fw, l->stride, l->pad_left, l->out_w))
		return "the filter does not fit the padded input "
			"(output size, padding and input disagree)";
	if (l->kind == TENSIL_GEMM && (l->in_w != 1 || l->fh != 1 ||
	    l->fw != 1 || l->stride != 1 || l->out_h != l->in_h))
		return "a GEMM layer is an M x 1 map with 1 x 1 filters";
	if (l->kind == TENSIL_POOL && l->filters != l->channels)
		return "a pooling layer keeps its channels";
	return check_post(l);
}

void tensil_layer_gemm_dims(const tensil_layer *l, int64_t *m, int64_t *n,
	int64_t *k)
{
	if (l->kind == TENSIL_POOL) {
		*m = *n = *k = 0;
		return;
	}
	*m = (int64_t) l->out_h * l->out_w;
	*n = l->filters;
	*k = (int64_t) l->fh * l->fw * l->channels;
}

int64_t tensil_layer_macs(const tensil_layer *l)
{
	int64_t m, n, k;

	tensil_layer_gemm_dims(l, &m, &n, &k);
	return m * n * k;
}

int64_t tensil__taps_inside(int out, int in, int f, int s, int pad)
{
	int64_t total = 0;
	int o;

	for (o = 0; o < out; o++) {
		int64_t a = (int64_t) o * s - pad, b = a + f - 1;

		if (a < 0)
			a = 0;
		if (b > in - 1)
			b = in - 1;
		if (b >= a)
			total += b - a + 1;
	}
	return total;
}

int64_t tensil_layer_true_macs(const tensil_layer *l)
{
	if (l->kind == TENSIL_POOL)
		return 0;
	return tensil__taps_inside(l->out_h, l->in_h, l->fh, l->stride,
		l->pad_top) * tensil__taps_inside(l->out_w, l->in_w, l->fw,
		l->stride, l->pad_left) * l->channels * l->filters;
}

void tensil_layer_final_dims(const tensil_layer *l, int *h, int *w)
{
	if (l->global_pool) {
		*h = *w = 1;
	} else if (l->pool_k > 0) {
		*h = (l->out_h + l->pool_stride - 1) / l->pool_stride;
		*w = (l->out_w + l->pool_stride - 1) / l->pool_stride;
	} else {
		*h = l->out_h;
		*w = l->out_w;
	}
}

tensil_model *tensil_model_alloc(const char *name, dse_error *err)
{
	tensil_model *m = calloc(1, sizeof(*m));

	if (!m) {
		dse_error_nomem(err, "a network model", sizeof(*m));
		return NULL;
	}
	snprintf(m->name, sizeof(m->name), "%s", name ? name : "model");
	return m;
}

tensil_model *tensil_model_free(tensil_model *m)
{
	if (!m)
		return NULL;
	free(m->layers);
	free(m);
	return NULL;
}

tensil_model *tensil_model_copy(const tensil_model *m, dse_error *err)
{
	tensil_model *c;

	if (!m) {
		dse_error_set(err, DSE_E_RUNTIME, "tensil_model_copy: no model");
		return NULL;
	}
	c = tensil_model_alloc(m->name, err);
	if (!c)
		return NULL;
	if (m->n > 0) {
		c->layers = malloc((size_t) m->n * sizeof(*c->layers));
		if (!c->layers) {
			dse_error_nomem(err, "the layers of a network",
				(double) m->n * sizeof(*c->layers));
			return tensil_model_free(c);
		}
		memcpy(c->layers, m->layers, (size_t) m->n *
			sizeof(*c->layers));
	}
	c->n = c->cap = m->n;
	return c;
}

dse_stat tensil_model_add_layer(tensil_model *m, const tensil_layer *l,
	dse_error *err)
{
	const char *why = tensil_layer_check(l);

	if (why)
		return dse_error_set(err, DSE_E_INPUT, "layer '%s': %s",
			l ? l->name : "", why);
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 16;
		tensil_layer *grown = realloc(m->layers, (size_t) cap *
			sizeof(*grown));

		if (!grown)
			return dse_error_nomem(err, "the layers of a network",
				(double) cap * sizeof(*grown));
		m->layers = grown;
		m->cap = cap;
	}
	m->layers[m->n++] = *l;
	return dse_stat_ok;
}

const char *tensil_model_name(const tensil_model *m)
{
	return m->name;
}

int tensil_model_n_layers(const tensil_model *m)
{
	return m->n;
}

const tensil_layer *tensil_model_layer(const tensil_model *m, int i)
{
	return i >= 0 && i < m->n ? &m->layers[i] : NULL;
}

int tensil_model_n_matmul_layers(const tensil_model *m)
{
	int i, n = 0;

	for (i = 0; i < m->n; i++)
		n += m->layers[i].kind != TENSIL_POOL;
	return n;
}

int64_t tensil_model_macs(const tensil_model *m)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < m->n; i++)
		s += tensil_layer_macs(&m->layers[i]);
	return s;
}

int64_t tensil_model_true_macs(const tensil_model *m)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < m->n; i++)
		s += tensil_layer_true_macs(&m->layers[i]);
	return s;
}
