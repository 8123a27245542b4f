"""Loops as Python users write them in jitted code: lists collected in a loop
and stacked, break/continue/else, enumerate/zip/reversed/dict iteration,
comprehensions over them, and the errors of loops whose trip count is a
tensor. The oracle is the same function run un-jitted on numpy arrays."""

import inspect

import numpy as np
import pytest

import adjoint as adj
from conftest import central_diff

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy


def _line_of(fn, marker):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, l in enumerate(lines) if marker in l)


def same(fn, *args, rtol=1e-12):
    """jit(fn)(*args) equals fn(*args) run by numpy; returns the IR."""
    want = fn(*args)
    got = adj.jit(fn)(*args)
    for g, w in zip(_leaves(got), _leaves(want)):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol,
                                   atol=1e-12)
    return str(adj.jit(fn).lower(*args))


def _leaves(x):
    if isinstance(x, (tuple, list)):
        return [l for e in x for l in _leaves(e)]
    if isinstance(x, dict):
        return [l for k in sorted(x) for l in _leaves(x[k])]
    return [x]


@pytest.fixture
def seqs():
    r = np.random.default_rng(1)
    return (r.standard_normal((5, 3)), r.standard_normal((4, 4)) * 0.4,
            r.standard_normal((4, 3)) * 0.5)


# -- 1. collecting per-step outputs --------------------------------------

def rnn_append(xs, w, u):
    h = np.zeros(w.shape[0])
    ys = []
    for t in range(xs.shape[0]):
        h = np.tanh(w @ h + u @ xs[t])
        ys.append(h)
    return np.stack(ys)


def rnn_iadd(xs, w, u):
    h = np.zeros(w.shape[0])
    ys = []
    for t in range(xs.shape[0]):
        h = np.tanh(w @ h + u @ xs[t])
        ys += [h]
    return np.stack(ys, axis=1)


def rnn_concat(xs, w, u):
    h = np.zeros(w.shape[0])
    ys = []
    for x in xs:
        h = np.tanh(w @ h + u @ x)
        ys = ys + [h * 2.0]
    return np.stack(ys)


def rnn_tuples(xs, w, u):
    h = np.zeros(w.shape[0])
    outs = []
    for t in range(len(xs)):
        pre = w @ h + u @ xs[t]
        h = np.tanh(pre)
        outs.append((pre, h))
    pres = np.stack([p for p, _ in outs])
    hs = np.stack([q for _, q in outs])
    return pres.sum() + (hs ** 2).sum()


def rnn_dict(xs, w, u):
    h = np.zeros(w.shape[0])
    hist = {"h": [], "pre": []}
    for t in range(xs.shape[0]):
        pre = w @ h + u @ xs[t]
        h = np.tanh(pre)
        hist["pre"].append(pre)
        hist["h"].append(h)
    return np.stack(hist["h"]) * np.stack(hist["pre"])


@pytest.mark.parametrize("fn", [rnn_append, rnn_iadd, rnn_concat,
                                rnn_tuples, rnn_dict])
def test_collected_outputs_are_stacked(fn, seqs):
    ir = same(fn, *seqs)
    assert "adj.for" not in ir  # unrolled: the list grows while building


def _jax_rnn(xs, w, u):
    h = jnp.zeros(w.shape[0])
    ys = []
    for t in range(xs.shape[0]):
        h = jnp.tanh(w @ h + u @ xs[t])
        ys.append(h)
    return jnp.sum(jnp.stack(ys) ** 2)


def test_grad_through_collected_outputs(seqs):
    def loss(xs, w, u):
        return np.sum(rnn_append(xs, w, u) ** 2)

    grads = adj.jit(adj.grad(loss, argnums=(0, 1, 2)))(*seqs)
    want = jax.grad(_jax_rnn, argnums=(0, 1, 2))(*seqs)
    for g, w in zip(grads, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-10, atol=1e-12)

    def loss_dict(xs, w, u):
        return np.sum(rnn_dict(xs, w, u))
    g = adj.grad(loss_dict, argnums=1)(*seqs)
    np.testing.assert_allclose(g, central_diff(loss_dict, seqs, 1),
                               rtol=1e-6, atol=1e-8)


def test_loops_that_need_no_unrolling_stay_adj_for(seqs):
    def f(xs, w, u):
        h = np.zeros(w.shape[0])
        for x in xs:
            h = np.tanh(w @ h + u @ x)
        for t, x in enumerate(xs):
            h = h + x.sum() * t
        for a, b in zip(xs, xs[::-1]):
            h = h * 0.5 + (a * b).sum()
        return h
    assert "adj.for" in same(f, *seqs)


def test_list_made_inside_the_body_of_an_adj_for(seqs):
    def f(xs, w, u):
        h = np.zeros(w.shape[0])
        for x in xs:
            parts = []
            for k in range(3):
                parts.append(np.tanh(u @ x * k))
            h = h + np.stack(parts).sum(axis=0)
        return h
    assert "adj.for" in same(f, *seqs)


# -- 2. break, continue, else --------------------------------------------

def test_break_and_continue_under_python_conditions(seqs):
    xs = seqs[0]

    def f(xs, limit):
        s = xs[0] * 0.0
        for t in range(xs.shape[0]):
            if t % 2 == 1:
                continue
            if t >= limit:
                break
            s = s + xs[t] * (t + 1)
        for v in (1.0, 2.0, 3.0, 4.0):
            if v == 3.0:
                break
            s = s * v
        for i in range(3):
            for j in range(3):
                if j > i:
                    break          # the inner loop only
                s = s + i * j
        else:
            s = s - 1.0            # no break of the outer loop
        for i in range(4):
            if i == 7:
                break
        else:
            s = s * 2.0
        return s

    for limit in (0, 3, 10):
        same(lambda xs: f(xs, limit), xs)


def test_while_with_a_python_test_is_unrolled(seqs):
    xs = seqs[0]

    def f(xs):
        s, i = xs[0], 0
        while i < xs.shape[0]:
            i += 1
            if i == 2:
                continue
            s = np.tanh(s + xs[i - 1])
            if i == 4:
                break
        n, ys = 0, []
        while len(ys) < 3:
            ys.append(s * n)
            n += 1
        else:
            ys.append(s)
        return np.stack(ys), i

    same(f, xs)


def test_while_turns_traced_when_its_test_becomes_a_tensor(seqs):
    xs = seqs[0]

    def f(xs):
        acc = 0.0                  # a Python float: unrolled at first
        while acc < 5.0:
            acc = acc + np.sum(xs ** 2) * 0.1
        return acc

    assert "adj.while" in same(f, xs)


def test_grad_with_break_and_continue(seqs):
    def f(xs, w, u):
        h = np.zeros(4)
        for t, x in enumerate(xs):
            if t == 1:
                continue
            h = np.tanh(w @ h + u @ x)
            if t == 3:
                break
        return np.sum(h ** 2)

    g = adj.grad(f, argnums=(0, 1))(*seqs)
    for gi, i in zip(g, (0, 1)):
        np.testing.assert_allclose(gi, central_diff(f, seqs, i), rtol=1e-6,
                                   atol=1e-8)


# -- 3. enumerate, zip, reversed, dicts ----------------------------------

def test_iteration_builtins(seqs):
    xs, w, _ = seqs

    def f(xs, w):
        s = 0.0
        for i, row in enumerate(xs):            # rows of a tensor
            s = s + row.sum() * i
        for i, v in enumerate((1.0, 2.0), start=3):
            s = s + v * i
        for i, k in enumerate(range(2, 8, 2)):
            s = s + i * k
        for a, b in zip(xs, w):                 # rows of two tensors
            s = s + (a[:3] * b[:3]).sum()
        for a, b, c in zip([1.0, 2.0], xs, range(10)):
            s = s + a * b.sum() * c
        for i, (a, b) in enumerate(zip(xs, [0.5, 1.5, 2.5])):
            s = s + i * a.sum() * b
        for r in reversed(xs):
            s = s * 0.9 + r.sum()
        for t in reversed(range(1, 4)):
            s = s * t
        for v in reversed([1.0, 2.0]):
            s = s - v
        for t, r in reversed(list(enumerate(xs))):
            s = s + t * r[0]
        return s

    same(f, xs, w)


def test_dict_iteration(seqs):
    xs, w, u = seqs

    def f(xs, w, u):
        d = {"a": xs, "b": w, "c": u}
        s = 0.0
        for v in d.values():
            s = s + v.sum()
        for k, v in d.items():
            s = s + v.mean() * len(k)
        for k in d:
            s = s * 0.5 + d[k].max()
        for k in sorted(d, reverse=True):
            if k == "b":
                continue
            s = s + d[k][0, 0]
        return s

    same(f, xs, w, u)


def test_comprehensions_over_the_same_iterables(seqs):
    xs, w, u = seqs

    def f(xs, w, u):
        d = {"w": w, "u": u}
        a = np.stack([r * i for i, r in enumerate(xs)])
        b = sum(p * q for p, q in zip(xs, xs[::-1]))
        c = tuple(v.sum() for v in d.values())
        e = {k: v.mean() for k, v in d.items()}
        g = [r for r in reversed(xs)][0]
        h = sum(x.sum() for x in (xs, w, u))
        return a.sum() + b.sum() + c[0] * c[1] + e["w"] + g.sum() + h

    same(f, xs, w, u)
    g = adj.grad(f, argnums=0)(xs, w, u)
    np.testing.assert_allclose(g, central_diff(f, seqs, 0), rtol=1e-6,
                               atol=1e-8)


def test_range_with_tensor_bounds_is_adj_for():
    def f(x, n):
        s = x * 0.0
        for i in range(n):
            s = s + x * i
        for i in range(1, n, 2):
            s = s - i
        return s

    x = np.arange(3.0)
    for n in (0, 1, 4):
        assert "adj.for" in same(f, x, np.int64(n))


# -- 4. errors that say what works ---------------------------------------

def append_in_while(x):
    ys = []
    while np.sum(x) < 10.0:
        x = x * 2.0
        ys.append(x)  # marker: append
    return np.stack(ys)


def iadd_in_traced_range(x, n):
    ys = []
    for i in range(n):
        x = x + 1.0
        ys += [x]  # marker: iadd
    return x


def concat_in_while(x):
    ys = [x]
    while np.sum(x) < 10.0:
        x = x * 2.0
        ys = ys + [x]  # marker: concat
    return ys[0]


def append_under_tensor_if(x):
    ys = []
    for t in range(3):
        if np.sum(x) > t:
            ys.append(x * t)  # marker: if
    return np.stack(ys)


def break_under_tensor_if(x):
    for t in range(3):
        x = x * 2.0
        if np.sum(x) > 4.0:
            break  # marker: break
    return x


def continue_in_while(x, k):
    while np.sum(x) < 10.0:
        x = x * 2.0
        if k:
            continue  # marker: continue
    return x


@pytest.mark.parametrize("fn,args,marker,words", [
    (append_in_while, (np.ones(2),), "marker: append",
     ["list.append", "while loop", "range(", ".at[t].set"]),
    (iadd_in_traced_range, (np.ones(2), np.int64(3)), "marker: iadd",
     ["structure of 'ys'", ".at[t].set"]),
    (concat_in_while, (np.ones(2),), "marker: concat",
     ["structure of 'ys'", ".at[t].set"]),
    (append_under_tensor_if, (np.ones(2),), "marker: if",
     ["conditional on a tensor"]),
    (break_under_tensor_if, (np.ones(2),), "marker: break",
     ["break under a tensor condition", "while"]),
    (continue_in_while, (np.ones(2), True), "marker: continue",
     ["continue in a while loop with a tensor test"]),
])
def test_errors_at_the_line(fn, args, marker, words):
    with pytest.raises(adj.FrontendError) as info:
        adj.jit(fn, static_argnums=tuple(
            i for i, a in enumerate(args) if isinstance(a, bool)))(*args)
    assert info.value.lineno == _line_of(fn, marker), str(info.value)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_the_suggested_idiom_works_in_a_while_loop():
    def f(x):
        ys = np.zeros((8, 2))
        t = 0
        while np.sum(x) < 10.0:
            x = x * 2.0
            ys = ys.at[t].set(x)
            t = t + 1
        return ys, t

    def oracle(x):
        ys, t = np.zeros((8, 2)), 0
        while np.sum(x) < 10.0:
            x = x * 2.0
            ys[t] = x
            t = t + 1
        return ys, t

    x = np.array([0.25, 0.5])
    got, want = adj.jit(f)(x), oracle(x)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
    assert int(got[1]) == want[1]


def test_zip_of_unequal_lengths_and_strict(seqs):
    xs = seqs[0]

    def f(xs):
        return sum(r.sum() * k for r, k in zip(xs, range(3)))
    same(f, xs)

    def g(xs):
        return sum(r.sum() for r, _ in zip(xs, range(3), strict=True))
    with pytest.raises(adj.FrontendError, match="strict"):
        adj.jit(g)(xs)


def test_python_trip_counts_follow_python_when_structures_change():
    def f(x):
        for _ in range(3):
            x = np.concatenate([x, x * 0.5])    # [2] -> [16]
        r, k = x, 0
        while k < 2:
            r = (r, r[:2])
            k = k + 1
        return r

    same(f, np.array([1.0, 2.0]))


def test_iadd_on_a_list_under_a_tensor_condition_names_the_line():
    def f(x):
        ys = [x]
        if np.sum(x) > 1.0:
            ys += [x * 2.0]  # marker: iadd
        return ys[0]

    with pytest.raises(adj.FrontendError, match=r"list \+= \[\.\.\.\]") as e:
        adj.jit(f)(np.ones(2))
    assert e.value.lineno == _line_of(f, "marker: iadd")
    assert "conditional on a tensor" in str(e.value)


# -- long loops: collected lists become stacked tensors ------------------

def long_rnn(xs, w, u):
    h = np.zeros(w.shape[0])
    ys, pairs = [], []
    alias = ys
    for t, x in enumerate(xs):
        h = np.tanh(w @ h + u @ x)
        ys.append(h)
        pairs.append((h * t, x.sum()))
    return (np.stack(alias), ys[-1], pairs[7][0], sum(p[1] for p in pairs))


def test_long_loops_stack_collected_lists_in_an_adj_for():
    r = np.random.default_rng(3)
    xs = r.standard_normal((40, 3))
    w, u = r.standard_normal((4, 4)) * 0.4, r.standard_normal((4, 3))
    ir = same(long_rnn, xs, w, u)
    assert "adj.for" in ir and ir.count("tanh") < 5  # not unrolled

    def loss(xs, w, u):
        return np.sum(long_rnn(xs, w, u)[0] ** 2)

    def jax_loss(xs, w, u):
        h, ys = jnp.zeros(4), []
        for x in xs:
            h = jnp.tanh(w @ h + u @ x)
            ys.append(h)
        return jnp.sum(jnp.stack(ys) ** 2)

    got = adj.jit(adj.grad(loss, argnums=(0, 1, 2)))(xs, w, u)
    want = jax.grad(jax_loss, argnums=(0, 1, 2))(xs, w, u)
    for g, wnt in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(wnt), rtol=1e-10,
                                   atol=1e-12)


def test_long_loops_that_cannot_stack_unroll():
    def f(xs):
        ys, zs = [], []
        for t in range(xs.shape[0]):
            ys.append(xs[t] * 2.0)             # nothing carried: stacked
            if t % 3 == 0:
                zs.append(xs[t])               # under a condition
        acc = []
        for x in xs:
            acc.append(x + (acc[-1] if acc else 0.0))   # reads the list
        return np.stack(ys), np.stack(zs), np.stack(acc)

    same(f, np.random.default_rng(4).standard_normal((20, 2)))


def test_a_long_loop_that_only_appends_is_an_adj_for():
    def f(xs):
        ys = []
        for t in range(xs.shape[0]):
            ys.append(np.sin(xs[t]) * t)
        return np.stack(ys)

    assert "adj.for" in same(f, np.random.default_rng(5).standard_normal(
        (20, 2)))


def test_a_list_local_to_a_tensor_branch_is_free():
    def f(x):
        for t in range(2):
            if np.sum(x) > 1.0:
                tmp = []
                tmp.append(x)
        return x * 2.0

    same(f, np.ones(2))


# ---------------------------------------------------------------------------
# Item assignment on Python containers: d[k] = v, ys[i] = v
# ---------------------------------------------------------------------------

def set_items(x, w):
    params = {"w": w, "b": x[0] * 0.0}
    params["w"] = params["w"] * 2.0
    outs = [None, None]
    for i in range(2):
        outs[i] = np.tanh(x[i] @ params["w"])
        params["b"] = params["b"] + outs[i]
    return np.sum(params["b"]) + np.sum(outs[1])


def test_item_assignment_on_dicts_and_lists_as_python():
    x = np.random.default_rng(3).normal(size=(2, 3))
    w = np.random.default_rng(4).normal(size=(3, 3))
    np.testing.assert_allclose(adj.jit(set_items)(x, w), set_items(x, w),
                               rtol=1e-12)
    g = adj.grad(set_items, argnums=1)(x, w)
    np.testing.assert_allclose(g, central_diff(set_items, [x, w], 1),
                               rtol=1e-6, atol=1e-9)


def _marker_line(fn):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, l in enumerate(lines) if "# marker" in l)


def test_item_assignment_that_cannot_be_kept_is_an_error_at_its_line():
    def traced_loop(x):
        d = {"h": x}
        for i in range(np.sum(x > 0.0)):   # a tensor trip count
            d["h"] = d["h"] * 2.0  # marker
        return d["h"]

    def under_a_tensor_condition(x):
        d = {"h": x}
        if np.sum(x) > 0.0:
            d["h"] = x * 2.0  # marker
        return d["h"]

    def on_an_array(x):
        x[0] = 1.0  # marker
        return x

    for fn, words in ((traced_loop, "dict[...] = ..."),
                      (under_a_tensor_condition, "dict[...] = ..."),
                      (on_an_array, "x.at[index].set(value)")):
        with pytest.raises(adj.FrontendError) as info:
            adj.jit(fn)(np.ones(3))
        assert words in str(info.value)
        assert info.value.lineno == _marker_line(fn)
