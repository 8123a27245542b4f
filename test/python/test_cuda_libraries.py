"""The package points the runtime at the nvidia-cublas wheel's cuBLASLt."""

import os

from adjoint import _cuda_libraries


def _wheel(root, *parts):
    path = root.joinpath("nvidia", *parts)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x7fELF")
    return str(path)


def test_finds_the_cuda13_wheel_before_the_cuda12_one(tmp_path):
    assert _cuda_libraries.find_cublaslt([str(tmp_path)]) is None
    cu12 = _wheel(tmp_path, "cublas", "lib", "libcublasLt.so.12")
    assert _cuda_libraries.find_cublaslt([str(tmp_path)]) == cu12
    cu13 = _wheel(tmp_path, "cu13", "lib", "libcublasLt.so.13")
    assert _cuda_libraries.find_cublaslt([str(tmp_path)]) == cu13


def test_a_set_variable_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("ADJOINT_CUBLASLT", "/opt/mine/libcublasLt.so")
    monkeypatch.setattr(_cuda_libraries, "find_cublaslt",
                        lambda: str(tmp_path / "wheel.so"))
    _cuda_libraries.point_runtime_at_wheels()
    assert os.environ["ADJOINT_CUBLASLT"] == "/opt/mine/libcublasLt.so"
    monkeypatch.delenv("ADJOINT_CUBLASLT")
    _cuda_libraries.point_runtime_at_wheels()
    assert os.environ["ADJOINT_CUBLASLT"] == str(tmp_path / "wheel.so")
