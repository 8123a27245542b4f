"""Calls from many Python threads at once (issue 13): no deadlock, and the
same results as serial calls.

Each scenario runs in a fresh interpreter (a subprocess) with a time limit,
so that a hang fails the test instead of hanging the suite, and so that the
threads make the process's first calls into the extension (first-use
initialisation is where the deadlock was). On a hang the child prints every
thread's Python stack (faulthandler) before it is stopped.
"""

import os
import subprocess
import sys
import textwrap

import pytest

#: Seconds a scenario may take; the child dumps its stacks a little sooner.
TIMEOUT = 240

PRELUDE = """
import faulthandler, sys, threading
faulthandler.dump_traceback_later(%d, exit=True)
import numpy as np
import adjoint as adj

THREADS = 8

def in_threads(work):
    \"\"\"work(i) in THREADS threads released together; their results.\"\"\"
    barrier = threading.Barrier(THREADS)
    results, errors = [None] * THREADS, []

    def run(i):
        barrier.wait()
        try:
            results[i] = work(i)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results
""" % (TIMEOUT - 30)


def run_scenario(body, tmp_path):
    env = dict(os.environ, ADJOINT_CACHE_DIR=str(tmp_path / "cache"))
    # A file, not -c: @jit reads the source of the functions it compiles.
    script = tmp_path / "scenario.py"
    script.write_text(PRELUDE + textwrap.dedent(body) + "\nprint('passed')\n")
    try:
        r = subprocess.run([sys.executable, str(script)], env=env,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        pytest.fail("threads hang (killed after %d s):\n%s" %
                    (TIMEOUT, e.stderr or ""))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("passed"), r.stdout


def test_first_calls_of_one_jit_function(tmp_path):
    # Eight threads make the first call of the same @jit function at once:
    # each builds and compiles it (or finds it compiled), then runs it.
    run_scenario("""
        @adj.jit
        def f(x, w):
            return adj.sum(adj.tanh(x @ w) * 2.0, axis=1) + adj.sum(x)

        rng = np.random.default_rng(0)
        xs = [rng.standard_normal((16, 8)).astype(np.float32)
              for _ in range(THREADS)]
        w = rng.standard_normal((8, 4)).astype(np.float32)
        concurrent = in_threads(lambda i: f(xs[i], w))
        for x, got in zip(xs, concurrent):
            np.testing.assert_array_equal(got, f(x, w))
            np.testing.assert_allclose(
                got, (np.tanh(x @ w) * 2).sum(1) + x.sum(), rtol=1e-4)
        """, tmp_path)


def test_first_calls_of_one_compiled_function(tmp_path):
    # The builder API: one compiled function, first called from 8 threads.
    run_scenario("""
        m = adj.Module()
        m.function("f", [adj.Type.tensor(adj.f64, [5])],
                   lambda x: adj.exp(x) * 2.0 + x)
        exe = adj.compile(m, "f", cache=False)
        xs = [np.linspace(-1, 1, 5) * (i + 1) for i in range(THREADS)]
        concurrent = in_threads(lambda i: exe(xs[i]))
        for x, got in zip(xs, concurrent):
            np.testing.assert_array_equal(got, exe(x))
            np.testing.assert_allclose(got, np.exp(x) * 2 + x, rtol=1e-12)
        """, tmp_path)


def test_many_calls_of_a_compiled_function(tmp_path):
    # Already compiled: 8 threads call it 50 times each, on their own inputs
    # and large enough to use the runtime's thread pool; every result equals
    # the serial one bit for bit.
    run_scenario("""
        @adj.jit
        def step(x, w):
            return adj.tanh(x @ w) @ adj.transpose(w)

        rng = np.random.default_rng(1)
        w = rng.standard_normal((256, 256)).astype(np.float32) * 0.05
        xs = [rng.standard_normal((64, 256)).astype(np.float32)
              for _ in range(THREADS)]
        serial = [step(x, w) for x in xs]

        def work(i):
            for _ in range(50):
                got = step(xs[i], w)
                if not np.array_equal(got, serial[i]):
                    return False
            return True

        assert all(in_threads(work))
        """, tmp_path)


def test_different_functions_compiled_concurrently(tmp_path):
    # Each thread builds and compiles its own function (and its gradient)
    # while the others do; compile() lets the other threads run meanwhile.
    run_scenario("""
        def work(i):
            m = adj.Module()
            t = adj.Type.tensor(adj.f64, [6])
            f = m.function("f", [t],
                           lambda x: adj.sum(adj.sin(x * float(i + 1))))
            m.function("df", [t], lambda x: adj.grad(f)(x))
            x = np.linspace(0, 1, 6)
            return (adj.compile(m, "f", cache=False)(x),
                    adj.compile(m, "df", cache=False)(x))

        x = np.linspace(0, 1, 6)
        for i, (value, grad) in enumerate(in_threads(work)):
            k = i + 1
            np.testing.assert_allclose(value, np.sin(k * x).sum(),
                                       rtol=1e-12)
            np.testing.assert_allclose(grad, k * np.cos(k * x), rtol=1e-12)
        """, tmp_path)


def test_one_module_compiled_while_built_into(tmp_path):
    # The same Module compiled by 8 threads at once while the main thread
    # keeps adding functions to it: each compile works on the module as it
    # was when the call started.
    run_scenario("""
        m = adj.Module()
        t = adj.Type.tensor(adj.f32, [4])
        m.function("f", [t], lambda x: adj.sum(x * x) + 1.0)
        x = np.arange(4, dtype=np.float32)
        results = [None] * THREADS

        def work(i):
            results[i] = adj.compile(m, "f", cache=False)(x)

        threads = [threading.Thread(target=work, args=(i,))
                   for i in range(THREADS)]
        for th in threads:
            th.start()
        for k in range(40):
            m.function("g%d" % k, [t], lambda x, k=k: x * float(k))
        for th in threads:
            th.join()
        assert [float(r) for r in results] == [15.0] * THREADS
        np.testing.assert_array_equal(adj.compile(m, "g39")(x), x * 39)
        """, tmp_path)


def test_interpreter_from_several_threads(tmp_path):
    # interpret() also releases the GIL while it evaluates; 8 threads
    # interpret one module at once and agree with the serial results.
    run_scenario("""
        m = adj.Module()
        t = adj.Type.tensor(adj.f64, [3, 3])
        m.function("f", [t], lambda x: adj.sum(adj.tanh(x @ x), axis=0))
        xs = [np.full((3, 3), 0.1 * (i + 1)) for i in range(THREADS)]
        concurrent = in_threads(lambda i: adj.interpret(m, "f", xs[i]))
        for x, got in zip(xs, concurrent):
            np.testing.assert_array_equal(got, adj.interpret(m, "f", x))
            np.testing.assert_allclose(got, np.tanh(x @ x).sum(0),
                                       rtol=1e-12)
        """, tmp_path)
