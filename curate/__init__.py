"""curate: find, revalidate and fix broken sentence pairs in social-bias benchmarks."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("curate")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

__all__ = ["__version__"]
