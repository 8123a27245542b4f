"""The workloads, by name."""

from .gemm import GEMM
from .mlp import MLP

WORKLOADS = {w.name: w for w in (GEMM(), MLP())}
