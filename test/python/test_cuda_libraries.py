"""The package points the runtime at the nvidia wheels' cuBLASLt, cuBLAS,
cuSOLVER and cuFFT."""

import os

import pytest

from adjoint import _cuda_libraries


def _wheel(root, *parts):
    path = root.joinpath("nvidia", *parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x7fELF")
    return str(path)


@pytest.mark.parametrize("variable, cu12, cu13", [
    ("ADJOINT_CUBLASLT", ("cublas", "lib", "libcublasLt.so.12"),
     ("cu13", "lib", "libcublasLt.so.13")),
    ("ADJOINT_CUBLAS", ("cublas", "lib", "libcublas.so.12"),
     ("cu13", "lib", "libcublas.so.13")),
    ("ADJOINT_CUSOLVER", ("cusolver", "lib", "libcusolver.so.11"),
     ("cu13", "lib", "libcusolver.so.12")),
    ("ADJOINT_CUFFT", ("cufft", "lib", "libcufft.so.11"),
     ("cu13", "lib", "libcufft.so.12")),
])
def test_finds_the_cuda13_wheel_before_the_cuda12_one(tmp_path, variable,
                                                      cu12, cu13):
    search = [str(tmp_path)]
    assert _cuda_libraries.find_library(variable, search) is None
    older = _wheel(tmp_path, *cu12)
    assert _cuda_libraries.find_library(variable, search) == older
    newer = _wheel(tmp_path, *cu13)
    assert _cuda_libraries.find_library(variable, search) == newer


def test_each_variable_names_its_own_library(tmp_path):
    search = [str(tmp_path)]
    lt = _wheel(tmp_path, "cu13", "lib", "libcublasLt.so.13")
    assert _cuda_libraries.find_library("ADJOINT_CUBLASLT", search) == lt
    assert _cuda_libraries.find_library("ADJOINT_CUBLAS", search) is None
    assert _cuda_libraries.find_library("ADJOINT_CUSOLVER", search) is None
    assert _cuda_libraries.find_library("ADJOINT_CUFFT", search) is None


def test_a_set_variable_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJOINT_CUBLASLT", "/opt/mine/libcublasLt.so")
    for variable in ("ADJOINT_CUBLAS", "ADJOINT_CUSOLVER", "ADJOINT_CUFFT"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setattr(_cuda_libraries, "find_library",
                        lambda variable: str(tmp_path / (variable + ".so")))
    _cuda_libraries.point_runtime_at_wheels()
    assert os.environ["ADJOINT_CUBLASLT"] == "/opt/mine/libcublasLt.so"
    assert os.environ["ADJOINT_CUSOLVER"] == str(tmp_path /
                                                 "ADJOINT_CUSOLVER.so")
    assert os.environ["ADJOINT_CUBLAS"] == str(tmp_path / "ADJOINT_CUBLAS.so")
    monkeypatch.delenv("ADJOINT_CUBLASLT")
    _cuda_libraries.point_runtime_at_wheels()
    assert os.environ["ADJOINT_CUBLASLT"] == str(tmp_path /
                                                 "ADJOINT_CUBLASLT.so")
