"""CLI commands, one module per pipeline stage; each exposes ``register(app)``.

Layer: the top, with :mod:`curate.cli`. It may import everything below; nothing imports it
(a benchmark's own route is lent what it needs, :class:`curate.benchmarks.spec.Frontend`).
"""
