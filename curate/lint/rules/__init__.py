"""Lint rules, one module per family; importing this package registers them all."""

from curate.lint.rules import (  # noqa: F401
    design,
    duplicates,
    labels,
    perturbation,
    semantics,
    spelling,
    typography,
)
