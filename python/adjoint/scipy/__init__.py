"""scipy's functions in jitted code: ``adjoint.scipy.linalg`` (as
jax.scipy)."""

from . import linalg  # noqa: F401
