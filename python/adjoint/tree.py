"""``adjoint.tree``: the short names of adjoint.tree_util, as ``jax.tree``
(``adjoint.tree.map``, ``adjoint.tree.leaves``, ...)."""

from .tree_util import (tree_all as all, tree_flatten as flatten,  # noqa: F401
                        tree_leaves as leaves, tree_map as map,
                        tree_reduce as reduce, tree_structure as structure,
                        tree_unflatten as unflatten)

__all__ = ["all", "flatten", "leaves", "map", "reduce", "structure",
           "unflatten"]
