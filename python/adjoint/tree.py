"""``adjoint.tree``: the short names of adjoint.tree_util, as ``jax.tree``
(``adjoint.tree.map``, ``adjoint.tree.leaves``, ...)."""

from .tree_util import (  # noqa: F401
    tree_all as all, tree_flatten as flatten,
    tree_flatten_with_path as flatten_with_path, tree_leaves as leaves,
    tree_leaves_with_path as leaves_with_path, tree_map as map,
    tree_map_with_path as map_with_path, tree_reduce as reduce,
    tree_structure as structure, tree_unflatten as unflatten)

__all__ = ["all", "flatten", "flatten_with_path", "leaves",
           "leaves_with_path", "map", "map_with_path", "reduce",
           "structure", "unflatten"]
