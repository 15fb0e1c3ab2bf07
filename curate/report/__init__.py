"""Reports on what a revision changed: :mod:`~curate.report.diff` computes, and
:mod:`~curate.report.render` writes report.json, report.md and a self-contained report.html.

Importing this package is cheap; the submodules import numpy, torch and plotly.
"""
