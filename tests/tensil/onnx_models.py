#!/usr/bin/python3
"""Writes the small ONNX models of the tests (with Debian's python3-onnx)
and, beside each network, its topology CSV form, the same network in the
extended SCALE-Sim columns the overlay family reads (Padding, Activation,
Residual, Pooling; a dense layer as a 1 x 1 convolution over an M x 1 map).

Usage: onnx_models.py OUTDIR

  resnet.onnx / resnet.csv    a ResNet-style network on 32x32x3: a stem
                              (3x3 convolution, ReLU, 3x3/2 max pool), an
                              identity block, a downsampling block with a
                              1x1/2 projection, global average, a dense
                              classifier; batch normalisations after every
                              convolution (folded), the batch dimension
                              symbolic ("N")
  mlp.onnx / mlp.csv          a 784-256-128-10 perceptron (Gemm, MatMul)
  preact.onnx                 a pre-activation block: Add, then
                              BatchNormalization and ReLU, the sum read
                              again by the next Add (two saves)
  shapes.onnx                 shape operators between two dense layers
  bad-*.onnx                  models the reader must refuse
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def weights(name, *shape):
    return numpy_helper.from_array(
        np.zeros(shape, dtype=np.float32), name)


class Net:
    """A graph built node by node, with the weights it needs."""

    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def fresh(self, op):
        self.n += 1
        return "%s%d" % (op.lower(), self.n)

    def node(self, op, inputs, name=None, **attrs):
        name = name or self.fresh(op)
        self.nodes.append(helper.make_node(op, inputs, [name], name=name,
                                           **attrs))
        return name

    def conv(self, x, cin, cout, k, stride=1, name=None, pad="SAME_UPPER"):
        name = name or self.fresh("conv")
        self.inits += [weights(name + "_w", cout, cin, k, k),
                       weights(name + "_b", cout)]
        attrs = dict(kernel_shape=[k, k], strides=[stride, stride])
        if pad == "SAME_UPPER":
            attrs["auto_pad"] = "SAME_UPPER"
        else:
            attrs["pads"] = pad
        y = self.node("Conv", [x, name + "_w", name + "_b"], name, **attrs)
        return self.bn(y, cout)

    def bn(self, x, c):
        n = self.fresh("bn")
        self.inits += [weights(n + "_" + p, c)
                       for p in ("scale", "bias", "mean", "var")]
        return self.node("BatchNormalization",
                         [x] + [n + "_" + p for p in
                                ("scale", "bias", "mean", "var")], n)

    def gemm(self, x, k, n, name):
        self.inits += [weights(name + "_w", n, k), weights(name + "_b", n)]
        return self.node("Gemm", [x, name + "_w", name + "_b"], name,
                         transB=1)

    def model(self, x, shape, out, out_shape, name):
        inp = helper.make_tensor_value_info(x, TensorProto.FLOAT, shape)
        outp = helper.make_tensor_value_info(out, TensorProto.FLOAT,
                                             out_shape)
        g = helper.make_graph(self.nodes, name, [inp], [outp], self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        return m


CSV_HEAD = ("Layer name, IFMAP Height, IFMAP Width, Filter Height, "
            "Filter Width, Channels, Num Filter, Strides, Padding, "
            "Activation, Residual, Pooling\n")


def resnet():
    g = Net()
    x = g.conv("input", 3, 16, 3, name="stem")
    x = g.node("Relu", [x])
    x = g.node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 1, 1])
    # An identity block on 16x16x16.
    y = g.node("Relu", [g.conv(x, 16, 16, 3, name="b1_a")])
    y = g.conv(y, 16, 16, 3, name="b1_b")
    x = g.node("Relu", [g.node("Add", [y, x])])
    # A downsampling block to 8x8x32 with a 1x1/2 projection.
    y = g.node("Relu", [g.conv(x, 16, 32, 3, 2, name="b2_a")])
    y = g.conv(y, 32, 32, 3, name="b2_b")
    p = g.conv(x, 16, 32, 1, 2, name="b2_proj", pad=[0, 0, 0, 0])
    x = g.node("Relu", [g.node("Add", [y, p])])
    x = g.node("GlobalAveragePool", [x])
    x = g.node("Flatten", [x], axis=1)
    x = g.gemm(x, 32, 10, "fc")
    csv = CSV_HEAD + (
        "stem, 32, 32, 3, 3, 3, 16, 1, same, relu, none, max3/2,\n"
        "b1_a, 16, 16, 3, 3, 16, 16, 1, same, relu, none, none,\n"
        "b1_b, 16, 16, 3, 3, 16, 16, 1, same, relu, add, none,\n"
        "b2_a, 16, 16, 3, 3, 16, 32, 2, same, relu, none, none,\n"
        "b2_b, 8, 8, 3, 3, 32, 32, 1, same, none, none, none,\n"
        "b2_proj, 16, 16, 1, 1, 16, 32, 2, same, relu, add, global,\n"
        "fc, 1, 1, 1, 1, 32, 10, 1, valid, none, none, none,\n")
    return g.model("input", ["N", 3, 32, 32], x, ["N", 10], "resnet"), csv


def mlp():
    g = Net()
    x = g.node("Relu", [g.gemm("input", 784, 256, "fc1")])
    g.inits.append(weights("fc2_w", 256, 128))
    x = g.node("Relu", [g.node("MatMul", [x, "fc2_w"], "fc2")])
    x = g.gemm(x, 128, 10, "fc3")
    csv = CSV_HEAD + (
        "fc1, 1, 1, 1, 1, 784, 256, 1, valid, relu,\n"
        "fc2, 1, 1, 1, 1, 256, 128, 1, valid, relu,\n"
        "fc3, 1, 1, 1, 1, 128, 10, 1, valid, none,\n")
    return g.model("input", ["N", 784], x, ["N", 10], "mlp"), csv


def preact():
    """x -> conv1 -> Add(x) = s; s -> BN -> ReLU -> conv2 -> Add(s)."""
    g = Net()
    x = g.node("Relu", [g.conv("input", 8, 8, 3, name="c0")])
    y = g.conv(x, 8, 8, 3, name="c1")
    s = g.node("Add", [y, x], "sum1")
    t = g.node("Relu", [g.bn(s, 8)])
    z = g.conv(t, 8, 8, 3, name="c2")
    out = g.node("Add", [z, s], "sum2")
    return g.model("input", [1, 8, 16, 16], out, [1, 8, 16, 16], "preact")


def shapes():
    g = Net()
    x = g.conv("input", 4, 6, 3, name="c", pad=[1, 1, 1, 1])
    x = g.node("Transpose", [x], perm=[0, 2, 3, 1])       # 1x8x8x6
    x = g.node("Reshape", [x, "shape"])                  # 64 x 6
    g.inits.append(numpy_helper.from_array(
        np.array([64, 6], dtype=np.int64), "shape"))
    x = g.node("Unsqueeze", [x, "axes"])                 # 1 x 64 x 6
    g.inits.append(numpy_helper.from_array(
        np.array([0], dtype=np.int64), "axes"))
    x = g.node("Squeeze", [x, "axes"])                   # 64 x 6
    x = g.node("Identity", [x])
    x = g.node("Dropout", [x])
    x = g.gemm(x, 6, 5, "d1")                            # 64 x 5
    y = g.node("Constant", [], value=numpy_helper.from_array(
        np.zeros((64, 3), dtype=np.float32)))
    x = g.node("Concat", [x, y], axis=1)                 # 64 x 8
    x = g.gemm(x, 8, 2, "d2")                            # 64 x 2
    return g.model("input", [1, 4, 8, 8], x, [64, 2], "shapes")


def bad_models():
    def one(op_nodes, inits, shape=(1, 4, 8, 8)):
        inp = helper.make_tensor_value_info("input", TensorProto.FLOAT,
                                            list(shape))
        outp = helper.make_tensor_value_info(op_nodes[-1].output[0],
                                             TensorProto.FLOAT, [1])
        g = helper.make_graph(op_nodes, "bad", [inp], [outp], inits)
        return helper.make_model(g,
                                 opset_imports=[helper.make_opsetid("", 13)])

    w = weights("w", 4, 4, 3, 3)
    conv = helper.make_node("Conv", ["input", "w"], ["c"], name="conv",
                            pads=[1, 1, 1, 1])
    out = {}
    out["bad-sigmoid"] = one(
        [conv, helper.make_node("Sigmoid", ["c"], ["s"], name="act")], [w])
    out["bad-group"] = one([helper.make_node(
        "Conv", ["input", "wg"], ["c"], name="dw", group=4)],
        [weights("wg", 4, 1, 3, 3)])
    out["bad-dilation"] = one([helper.make_node(
        "Conv", ["input", "w"], ["c"], name="dil", dilations=[2, 2])], [w])
    out["bad-strides"] = one([helper.make_node(
        "Conv", ["input", "w"], ["c"], name="rect", strides=[2, 1])], [w])
    out["bad-unknown-input"] = one([helper.make_node(
        "Conv", ["nowhere", "w"], ["c"], name="lost")], [w])
    out["bad-no-layer"] = one([helper.make_node(
        "Relu", ["input"], ["r"], name="only_relu")], [])
    out["bad-symbolic"] = one([conv], [w], shape=("N", 4, "H", 8))
    return out


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, (m, csv) in (("resnet", resnet()), ("mlp", mlp())):
        onnx.checker.check_model(m)
        onnx.save(m, os.path.join(d, name + ".onnx"))
        with open(os.path.join(d, name + ".csv"), "w") as f:
            f.write(csv)
    for name, m in (("preact", preact()), ("shapes", shapes())):
        onnx.checker.check_model(m)
        onnx.save(m, os.path.join(d, name + ".onnx"))
    for name, m in bad_models().items():
        onnx.save(m, os.path.join(d, name + ".onnx"))
    with open(os.path.join(d, "bad-not-onnx.onnx"), "wb") as f:
        f.write(b"\x08\x07\x12\xff\xff\xff\xff\x0f not a model")
    with open(os.path.join(d, "resnet.onnx"), "rb") as f:
        data = f.read()
    with open(os.path.join(d, "bad-truncated.onnx"), "wb") as f:
        f.write(data[:len(data) // 2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
