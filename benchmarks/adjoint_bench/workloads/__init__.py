"""The workloads, by name."""

from .mlp import MLP

WORKLOADS = {w.name: w for w in (MLP(),)}
