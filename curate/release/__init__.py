"""The release stage: from the pinned raw file, autofixes and decisions to a citable release.

- :mod:`~curate.release.recipe` reads ``data/clean/<version>/recipe.toml`` (curation as code);
- :mod:`~curate.release.revise` applies a recipe: revised pairs plus ``changes.jsonl`` records;
- :mod:`~curate.release.publish` builds ``data/clean/<version>/dist/``, immutable and checksummed;
- :mod:`~curate.release.card` renders its data card (from ``templates/datacard.md``) and changelog;
- :mod:`~curate.release.versions` names versions and loads any of them into pairs;
- :mod:`~curate.release.pairdiff` is the pair-level diff of two versions (``curate diff``).

The modules import each other in that direction only (publish -> card -> pairdiff -> versions);
importing this package imports none of them.

Layer: a workflow above the benchmarks and :mod:`curate.datasets` (it reads and writes any
benchmark's files), below sweep and the commands.
"""
