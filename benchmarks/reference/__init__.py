"""The workloads of adjoint-bench in PyTorch and JAX: the same losses as
the adjoint versions (benchmarks/adjoint_bench/workloads), one module per
workload."""
