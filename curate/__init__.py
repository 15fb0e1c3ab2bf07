"""curate: find, revalidate and fix broken sentence pairs in social-bias benchmarks."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata when first asked: importlib.metadata
    costs more than the rest of ``curate --help``'s own imports (PEP 562)."""
    if name != "__version__":
        raise AttributeError(f"module 'curate' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("curate")
    except PackageNotFoundError:  # running from a source tree without installation
        value = "0.0.0+unknown"
    globals()["__version__"] = value
    return value
