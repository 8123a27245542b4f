"""ppo in PyTorch and JAX (adjoint_bench/workloads/ppo.py): the same
rollout, GAE scan, PPO loss and minibatch SGD, as whole steps
`step(params, batch, lr) -> (loss, params)`."""

import math

GAMMA, LAMBDA, CLIP, VF, ENT = 0.99, 0.95, 0.2, 0.5, 0.01
LOG_2PI = math.log(2 * math.pi)


# PyTorch ------------------------------------------------------------------

def _t_mlp(p, prefix, x):
    import torch
    h = torch.tanh(x @ p[prefix + "_w0"] + p[prefix + "_b0"])
    h = torch.tanh(h @ p[prefix + "_w1"] + p[prefix + "_b1"])
    return h @ p[prefix + "_w2"] + p[prefix + "_b2"]


def _t_log_prob(mean, log_std, a):
    import torch
    z = (a - mean) * torch.exp(-log_std)
    return (-0.5 * (z * z).sum(dim=1) - log_std.sum()
            - 0.5 * LOG_2PI * mean.shape[1])


def torch_rollout(p, b):
    import torch
    s, noise = b["s0"], b["noise"]
    steps = noise.shape[0]
    obs, acts, logps, values, rewards = [], [], [], [], []
    for t in range(steps):
        mean = _t_mlp(p, "pi", s)
        a = mean + torch.exp(p["log_std"]) * noise[t]
        s2 = s @ b["A"] + a @ b["Bm"]
        rewards.append(-(s2 * s2).mean(dim=1) - 0.01 * (a * a).sum(dim=1))
        obs.append(s)
        acts.append(a)
        logps.append(_t_log_prob(mean, p["log_std"], a))
        values.append(_t_mlp(p, "v", s)[:, 0])
        s = s2
    last = _t_mlp(p, "v", s)[:, 0]
    values, rewards = torch.stack(values), torch.stack(rewards)
    nxt = torch.cat([values[1:], last[None, :]], dim=0)
    deltas = rewards + GAMMA * nxt - values
    adv, advs = torch.zeros_like(last), [None] * steps
    for t in reversed(range(steps)):
        adv = deltas[t] + GAMMA * LAMBDA * adv
        advs[t] = adv
    advs = torch.stack(advs)
    n = deltas.numel()
    return {"obs": torch.stack(obs).reshape(n, -1),
            "act": torch.stack(acts).reshape(n, -1),
            "logp": torch.stack(logps).reshape(n),
            "adv": advs.reshape(n), "ret": (advs + values).reshape(n)}


def torch_loss(p, d):
    import torch
    mean = _t_mlp(p, "pi", d["obs"])
    logp = _t_log_prob(mean, p["log_std"], d["act"])
    ratio = torch.exp(logp - d["logp"])
    adv = d["adv"] - d["adv"].mean()
    adv = adv / (torch.sqrt((adv * adv).mean()) + 1e-8)
    clipped = torch.clamp(ratio, 1.0 - CLIP, 1.0 + CLIP)
    pg = -torch.minimum(ratio * adv, clipped * adv).mean()
    v = _t_mlp(p, "v", d["obs"])[:, 0]
    vloss = 0.5 * ((v - d["ret"]) ** 2).mean()
    entropy = p["log_std"].sum() + 0.5 * (1.0 + LOG_2PI) * mean.shape[1]
    return pg + VF * vloss - ENT * entropy


def torch_step(compile=False):
    import torch
    loss_fn = torch.compile(torch_loss) if compile else torch_loss
    collect = torch.compile(torch_rollout) if compile else torch_rollout

    def step(params, batch, lr):
        with torch.no_grad():
            data = collect(params, batch)
        keys = list(params)
        total = 0.0
        for idx in batch["perm"]:
            mb = {k: v[idx] for k, v in data.items()}
            value = loss_fn(params, mb)
            grads = torch.autograd.grad(value, [params[k] for k in keys])
            with torch.no_grad():
                params = {k: (params[k] - lr * g).requires_grad_()
                          for k, g in zip(keys, grads)}
            total = total + value.detach()
        return total / batch["perm"].shape[0], params
    return step


# JAX ----------------------------------------------------------------------

def _j_mlp(p, prefix, x):
    import jax.numpy as jnp
    h = jnp.tanh(x @ p[prefix + "_w0"] + p[prefix + "_b0"])
    h = jnp.tanh(h @ p[prefix + "_w1"] + p[prefix + "_b1"])
    return h @ p[prefix + "_w2"] + p[prefix + "_b2"]


def _j_log_prob(mean, log_std, a):
    import jax.numpy as jnp
    z = (a - mean) * jnp.exp(-log_std)
    return (-0.5 * jnp.sum(z * z, axis=1) - jnp.sum(log_std)
            - 0.5 * LOG_2PI * mean.shape[1])


def jax_rollout(p, b):
    import jax
    import jax.numpy as jnp
    p = jax.lax.stop_gradient(p)

    def env_step(s, noise):
        mean = _j_mlp(p, "pi", s)
        a = mean + jnp.exp(p["log_std"]) * noise
        s2 = s @ b["A"] + a @ b["Bm"]
        r = -jnp.mean(s2 * s2, axis=1) - 0.01 * jnp.sum(a * a, axis=1)
        return s2, (s, a, _j_log_prob(mean, p["log_std"], a),
                    _j_mlp(p, "v", s)[:, 0], r)

    s, (obs, acts, logps, values, rewards) = jax.lax.scan(
        env_step, b["s0"], b["noise"])
    last = _j_mlp(p, "v", s)[:, 0]
    nxt = jnp.concatenate([values[1:], last[None, :]], axis=0)
    deltas = rewards + GAMMA * nxt - values

    def gae(adv, delta):
        adv = delta + GAMMA * LAMBDA * adv
        return adv, adv

    _, advs = jax.lax.scan(gae, jnp.zeros_like(last), deltas, reverse=True)
    n = deltas.size
    return {"obs": obs.reshape(n, -1), "act": acts.reshape(n, -1),
            "logp": logps.reshape(n), "adv": advs.reshape(n),
            "ret": (advs + values).reshape(n)}


def jax_loss(p, d):
    import jax.numpy as jnp
    mean = _j_mlp(p, "pi", d["obs"])
    logp = _j_log_prob(mean, p["log_std"], d["act"])
    ratio = jnp.exp(logp - d["logp"])
    adv = d["adv"] - jnp.mean(d["adv"])
    adv = adv / (jnp.sqrt(jnp.mean(adv * adv)) + 1e-8)
    clipped = jnp.clip(ratio, 1.0 - CLIP, 1.0 + CLIP)
    pg = -jnp.mean(jnp.minimum(ratio * adv, clipped * adv))
    v = _j_mlp(p, "v", d["obs"])[:, 0]
    vloss = 0.5 * jnp.mean((v - d["ret"]) ** 2)
    entropy = jnp.sum(p["log_std"]) + 0.5 * (1.0 + LOG_2PI) * mean.shape[1]
    return pg + VF * vloss - ENT * entropy


def jax_step():
    import jax

    collect = jax.jit(jax_rollout)

    @jax.jit
    def learn(params, data, perm, lr):
        def minibatch(carry, idx):
            p, total = carry
            mb = {k: v[idx] for k, v in data.items()}
            value, grads = jax.value_and_grad(jax_loss)(p, mb)
            p = jax.tree_util.tree_map(lambda w, g: w - lr * g, p, grads)
            return (p, total + value), None

        (params, total), _ = jax.lax.scan(minibatch, (params, 0.0), perm)
        return total / perm.shape[0], params

    def step(params, batch, lr):
        return learn(params, collect(params, batch), batch["perm"], lr)
    return step
