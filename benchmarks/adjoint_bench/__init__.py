"""adjoint-bench: a Milabench-derived set of training workloads, compiled
by Adjoint and compared with PyTorch and JAX (docs/benchmarks.md)."""
