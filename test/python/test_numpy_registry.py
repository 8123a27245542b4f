"""The registry of adjoint.numpy (python/adjoint/_np_registry.py) agrees
with the namespace and with docs/python.md's table."""

import importlib.util
import pathlib

import jax.numpy as jnp
import numpy as np

import adjoint.numpy as anp
from adjoint import _np_registry as registry

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _update_script():
    path = ROOT / "scripts" / "update-numpy-table.py"
    spec = importlib.util.spec_from_file_location("update_numpy_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documented_table_is_the_registrys():
    text = (ROOT / "docs" / "python.md").read_text()
    assert _update_script().updated(text) == text, (
        "docs/python.md's numpy table is stale: run "
        "PYTHONPATH=build/python python3 scripts/update-numpy-table.py")


def test_every_implemented_name_is_numpys_or_jaxs_or_a_declared_extra():
    # A name that neither numpy nor jax.numpy has is a typo or an
    # undeclared extension.
    known = set(registry.JAX_NUMPY) | set(registry.NUMPY_ONLY) | \
        set(registry.EXTRAS)
    assert sorted(set(anp.NAMES) - known) == []
    for name in registry.EXTRAS:
        assert name in anp.NAMES, name


def test_names_of_the_frozen_lists_exist_in_numpy_or_jax():
    for name in registry.JAX_NUMPY:
        assert callable(getattr(jnp, name, None)), name
    for name in registry.NUMPY_ONLY:
        assert callable(getattr(np, name, None)), name


def test_every_name_is_implemented_or_explained_once():
    have, gaps = registry.implemented(), registry.missing()
    assert not set(have) & set(gaps)
    everything = set(registry.JAX_NUMPY) | set(registry.NUMPY_ONLY)
    assert everything <= set(have) | set(gaps)
    # Spellings of one function are grouped, each name once in the table.
    listed = [n for groups in registry.spellings().values()
              for g in groups for n in g]
    assert sorted(listed) == sorted(have)
    assert any(g == ["abs", "absolute"]
               for g in registry.spellings()[registry.family(have["abs"])])
