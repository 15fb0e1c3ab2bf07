"""StereoSet (Nadeem et al. 2021): a context with a target term and three options (stereotype,
anti-stereotype, unrelated) that swap an *attribute* of a fixed group.

:mod:`.benchmark` declares the benchmark; nothing is imported here (see
:mod:`curate.benchmarks.crows_pairs`).
"""
