"""ppo: proximal policy optimization of an actor-critic (derived from
Milabench's ppo and brax), one step = one rollout + the PPO update on it:

- actor and critic: MLPs obs -> H -> H -> (act | 1), tanh; a Gaussian
  policy with a learned state-independent log std;
- the rollout: `steps` steps of `envs` copies of a synthetic deterministic
  environment, linear dynamics `s' = s A + a Bm` and a quadratic reward
  `-mean(s'^2) - 0.01 |a|^2`; the exploration noise is part of the batch
  (pre-generated, so every framework sees the same numbers); a `for t in
  range(steps)` loop writing each step's data into [T, N, ...] buffers with
  scatter_add;
- GAE (gamma 0.99, lambda 0.95) by a reverse `scan(f, init, xs)` helper
  taking a closure;
- the update: `epochs` epochs of `minibatches` minibatches (the
  permutations are in the batch), each an SGD step on the clipped surrogate
  (eps 0.2, advantages normalized per minibatch) + 0.5 * the value loss -
  0.01 * the entropy; its `loss` is the mean over the minibatches.

The rollout is not differentiated: the step is two compiled functions, the
rollout, then the update (a loop over the minibatches, each a
value_and_grad of the PPO loss on the collected data), in every framework
(step hooks; torch runs the rollout under no_grad, JAX as its own jit)."""

import numpy as np

import adjoint as adj
import adjoint.numpy as anp

from ..workload import Problem, Workload, normal
from .dlrm import mlp_params

GAMMA, LAMBDA, CLIP, VF, ENT = 0.99, 0.95, 0.2, 0.5, 0.01
LOG_2PI = float(np.log(2 * np.pi))


# The model, in adjoint's front end (translated by @adjoint.jit).

def mlp(p, prefix, x):
    h = adj.tanh(x @ p[prefix + "_w0"] + p[prefix + "_b0"])
    h = adj.tanh(h @ p[prefix + "_w1"] + p[prefix + "_b1"])
    return h @ p[prefix + "_w2"] + p[prefix + "_b2"]


def log_prob(mean, log_std, a):
    z = (a - mean) * adj.exp(-log_std)
    return (-0.5 * adj.sum(z * z, axis=1) - adj.sum(log_std)
            - 0.5 * LOG_2PI * mean.shape[1])


def scan(f, init, xs, reverse=False):
    """carry_t = f(carry_{t-1}, (x[t] for x in xs)) over the leading axis of
    the xs (from the end when `reverse`); returns the last carry and the
    carries stacked (as jax.lax.scan of a step whose output is its carry)."""
    n = xs[0].shape[0]
    ys = adj.broadcast_to(anp.zeros_like(init), [n] + list(init.shape))
    carry = init
    for i in range(n):
        t = n - 1 - i if reverse else i
        carry = f(carry, tuple(x[t] for x in xs))
        ys = adj.scatter_add(ys, t, carry)
    return carry, ys


def rollout(p, b):
    s = b["s0"]
    noise = b["noise"]
    steps, envs = noise.shape[0], noise.shape[1]
    obs = adj.broadcast_to(anp.zeros_like(s), [steps] + list(s.shape))
    acts = anp.zeros_like(noise)
    logps = adj.broadcast_to(anp.zeros_like(s[:, 0]), [steps, envs])
    values = logps
    rewards = logps
    for t in range(steps):
        mean = mlp(p, "pi", s)
        a = mean + adj.exp(p["log_std"]) * noise[t]
        s2 = s @ b["A"] + a @ b["Bm"]
        r = -adj.mean(s2 * s2, axis=1) - 0.01 * adj.sum(a * a, axis=1)
        obs = adj.scatter_add(obs, t, s)
        acts = adj.scatter_add(acts, t, a)
        logps = adj.scatter_add(logps, t, log_prob(mean, p["log_std"], a))
        values = adj.scatter_add(values, t, mlp(p, "v", s)[:, 0])
        rewards = adj.scatter_add(rewards, t, r)
        s = s2
    last = mlp(p, "v", s)[:, 0]
    nxt = adj.concat([values[1:], last[None, :]], axis=0)
    deltas = rewards + GAMMA * nxt - values

    def gae(adv, x):
        return x[0] + GAMMA * LAMBDA * adv

    _, advs = scan(gae, last * 0.0, (deltas,), reverse=True)
    n = steps * envs
    return {"obs": adj.reshape(obs, [n, -1]),
            "act": adj.reshape(acts, [n, -1]),
            "logp": adj.reshape(logps, [n]),
            "adv": adj.reshape(advs, [n]),
            "ret": adj.reshape(advs + values, [n])}


def ppo_loss(p, d):
    mean = mlp(p, "pi", d["obs"])
    logp = log_prob(mean, p["log_std"], d["act"])
    ratio = adj.exp(logp - d["logp"])
    adv = d["adv"] - adj.mean(d["adv"])
    adv = adv / (adj.sqrt(adj.mean(adv * adv)) + 1e-8)
    clipped = adj.minimum(adj.maximum(ratio, 1.0 - CLIP), 1.0 + CLIP)
    pg = -adj.mean(adj.minimum(ratio * adv, clipped * adv))
    v = mlp(p, "v", d["obs"])[:, 0]
    vloss = 0.5 * adj.mean((v - d["ret"]) ** 2.0)
    entropy = adj.sum(p["log_std"]) + 0.5 * (1.0 + LOG_2PI) * mean.shape[1]
    return pg + VF * vloss - ENT * entropy


def update(p, d, perm, lr):
    """SGD on ppo_loss over the minibatches perm[k] (row k: the sample
    indices of minibatch k, epochs one after the other)."""
    total = 0.0
    for idx in perm:
        mb = {k: v[idx] for k, v in d.items()}
        value, grads = adj.value_and_grad(ppo_loss)(p, mb)
        p = {k: p[k] - lr * grads[k] for k in p}
        total = total + value
    return total / perm.shape[0], p


class PPO(Workload):
    name = "ppo"
    unit = "env-steps/s"
    derived_from = "ppo, brax"
    sizes = {
        "tiny": dict(envs=8, steps=4, obs=11, act=3, hidden=16, epochs=1,
                     minibatches=2),
        "cpu": dict(envs=128, steps=10, obs=11, act=3, hidden=256,
                    epochs=4, minibatches=32),
        "gpu": dict(envs=8192, steps=10, obs=11, act=3, hidden=256,
                    epochs=4, minibatches=32),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        n, t, o, a, h = (size["envs"], size["steps"], size["obs"],
                         size["act"], size["hidden"])
        params = {}
        params.update(mlp_params(rng, "pi", (o, h, h, a)))
        params.update(mlp_params(rng, "v", (o, h, h, 1)))
        params["pi_w2"] *= 0.1
        params["log_std"] = np.full(a, -0.5, np.float32)
        # A stable linear system: a random rotation scaled by 0.95.
        q, _ = np.linalg.qr(rng.standard_normal((o, o)))
        dyn = {"A": (0.95 * q).astype(np.float32),
               "Bm": normal(rng, (a, o), 0.3)}
        total = n * t
        mb = total // size["minibatches"]
        batches = []
        for _ in range(4):
            perm = np.concatenate([rng.permutation(total)
                                   for _ in range(size["epochs"])])
            batches.append(dict(
                dyn, s0=normal(rng, (n, o)), noise=normal(rng, (t, n, a)),
                perm=perm[:size["epochs"] * size["minibatches"] * mb]
                .reshape(-1, mb).astype(np.int64)))
        return Problem(params, batches, items=total, lr=0.01)

    def loss_adjoint(self, size):
        return ppo_loss

    def step_adjoint(self, size):
        collect = adj.jit(rollout)
        learn = adj.jit(update)

        def step(params, batch, lr):
            data = collect(params, batch)
            return learn(params, data, batch["perm"], lr)
        return step

    def step_torch(self, size, compile=False):
        from reference import ppo
        return ppo.torch_step(compile)

    def step_jax(self, size):
        from reference import ppo
        return ppo.jax_step()
