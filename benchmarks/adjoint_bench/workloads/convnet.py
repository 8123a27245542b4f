"""convnet: a ResNet-style CNN (derived from Milabench's resnet50).

A 7x7/2 stem convolution, batch norm, ReLU and a 3x3/2 max pool, then
stages of residual basic blocks (two 3x3 convolutions with batch norm; a
strided 1x1 projection with batch norm on the shortcut where a stage
changes the width or the resolution), a global average pool, a linear head
and softmax cross-entropy on integer labels.

Batch norm is in training mode: the statistics of the batch over N, H, W,
the biased variance, eps 1e-5, a learnable scale and shift (no running
statistics), composed from reductions and elementwise ops. Convolutions
have no bias (batch norm follows each one), as in ResNet.

Sizes: "cpu" is 3x64x64 images, stages 32/64/128/256 of 2 basic blocks
(a ResNet-18 layout); "gpu" is ImageNet-sized (3x224x224, batch 256) with
the ResNet-34 layout [3, 4, 6, 3] at widths 64/128/256/512 (basic blocks,
not ResNet-50's bottlenecks).
"""

import functools

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, normal


def layout(size):
    """The convolutions and batch norms: a list of (name, cin, cout, kernel,
    stride) for the stem, then the blocks as (prefix, cin, cout, stride,
    projection)."""
    widths, blocks = size["widths"], size["blocks"]
    out = []
    cin = widths[0]
    for s, (width, count) in enumerate(zip(widths, blocks)):
        for i in range(count):
            stride = 2 if (s > 0 and i == 0) else 1
            out.append(("s%d.b%d" % (s, i), cin, width, stride,
                        stride != 1 or cin != width))
            cin = width
    return out


class ConvNet(Workload):
    name = "convnet"
    unit = "images/s"
    derived_from = "resnet50"
    sizes = {
        "tiny": dict(batch=2, channels=3, image=16, widths=(8, 16),
                     blocks=(1, 1), classes=4),
        "cpu": dict(batch=16, channels=3, image=64, widths=(32, 64, 128, 256),
                    blocks=(2, 2, 2, 2), classes=10),
        "gpu": dict(batch=256, channels=3, image=224,
                    widths=(64, 128, 256, 512), blocks=(3, 4, 6, 3),
                    classes=1000),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        c, hw, k = size["channels"], size["image"], size["classes"]
        params = {}

        def conv(name, cin, cout, kernel):
            # He initialization (fan-in, ReLU gain).
            params[name + ".w"] = normal(
                rng, (cout, cin, kernel, kernel),
                np.sqrt(2.0 / (cin * kernel * kernel)))

        def bn(name, width):
            params[name + ".g"] = np.ones(width, np.float32)
            params[name + ".b"] = np.zeros(width, np.float32)

        w0 = size["widths"][0]
        conv("stem", c, w0, 7)
        bn("stem.bn", w0)
        for prefix, cin, cout, stride, proj in layout(size):
            conv(prefix + ".conv1", cin, cout, 3)
            bn(prefix + ".bn1", cout)
            conv(prefix + ".conv2", cout, cout, 3)
            bn(prefix + ".bn2", cout)
            if proj:
                conv(prefix + ".proj", cin, cout, 1)
                bn(prefix + ".bnp", cout)
        # A zero head, as some recipes initialize the classifier: the loss
        # starts at log(classes), the trunk's gradient is zero at the first
        # step and small after it. With a Glorot head the first steps are
        # chaotic enough that the f32 rounding of a pre-activation next to
        # ReLU's kink (its gradient flips between 0 and 1; one in a 2x2 map
        # of the last stage changes every upstream gradient by ~1e-3) makes
        # the losses of torch, jax and adjoint (and f64) differ by 1e-4 after
        # 3 or 4 steps.
        params["fc.w"] = np.zeros((size["widths"][-1], k), np.float32)
        params["fc.b"] = np.zeros(k, np.float32)

        # A learnable problem: each class is a texture (a random 8x8 tile
        # repeated over the image) plus a colour (a shift per channel); a
        # sample is its class's pattern plus as much Gaussian noise.
        t = 8
        protos = normal(rng, (k, c, 1, 1)) + np.tile(
            normal(rng, (k, c, t, t)), (1, 1, hw // t, hw // t))
        batches = []
        for _ in range(4):
            y = rng.integers(0, k, size["batch"])
            x = protos[y] + normal(rng, (size["batch"], c, hw, hw))
            batches.append({"x": x, "y": y})
        return Problem(params, batches, items=size["batch"], lr=0.02)

    def loss_adjoint(self, size):
        blocks = layout(size)

        def loss(p, b):
            def bn(x, name):
                mu = adj.mean(x, [0, 2, 3], True)
                xc = x - mu
                var = adj.mean(xc * xc, [0, 2, 3], True)
                g = p[name + ".g"].reshape(1, -1, 1, 1)
                beta = p[name + ".b"].reshape(1, -1, 1, 1)
                return xc * adj.rsqrt(var + 1e-5) * g + beta

            def conv(x, name, stride, pad):
                return adj.conv2d(x, p[name + ".w"], stride=[stride, stride],
                                  padding=[pad, pad, pad, pad])

            h = adj.relu(bn(conv(b["x"], "stem", 2, 3), "stem.bn"))
            h = adj.max_pool2d(h, [3, 3], stride=[2, 2],
                               padding=[1, 1, 1, 1])
            for prefix, cin, cout, stride, proj in blocks:
                o = adj.relu(bn(conv(h, prefix + ".conv1", stride, 1),
                                prefix + ".bn1"))
                o = bn(conv(o, prefix + ".conv2", 1, 1), prefix + ".bn2")
                if proj:
                    h = bn(conv(h, prefix + ".proj", stride, 0),
                           prefix + ".bnp")
                h = adj.relu(o + h)
            h = adj.mean(h, [2, 3])
            return adj.cross_entropy(h @ p["fc.w"] + p["fc.b"], b["y"])

        return loss

    def loss_torch(self, size):
        from reference import convnet
        return functools.partial(convnet.torch_loss, blocks=layout(size))

    def loss_jax(self, size):
        from reference import convnet
        return functools.partial(convnet.jax_loss, blocks=layout(size))
