"""``curate diff-report``: what a revision changed about the models' verdicts.

:mod:`~curate.report.alignment` matches two versions by pair id, :mod:`~curate.report.rescoring`
scores both with every model, :mod:`~curate.report.statistics` compares the scores, and
:mod:`~curate.report.output` writes report.json (laid out in :mod:`~curate.report.schema`),
report.md (:mod:`~curate.report.markdown`) and a self-contained report.html
(:mod:`~curate.report.html_page`, charts in :mod:`~curate.report.charts`).

Importing this package is cheap; the submodules import numpy, torch and plotly.

Layer: above the stages (score, lint, formats and the ground floor), below instrument and the
benchmarks. It imports no instrument module: a section built on a report carries its own table.
"""
