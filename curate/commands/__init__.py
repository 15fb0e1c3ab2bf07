"""CLI commands, one module per pipeline stage; each exposes ``register(app)``.

Layer: the top, with :mod:`curate.cli`. It may import everything below; nothing imports it
(a benchmark's own route is lent what it needs, :class:`curate.benchmarks.spec.Frontend`).

Imports: at the top of a command module only what parsing its options needs (typer, rich, the
errors, light constants such as :data:`curate.score.settings.DEFAULT_BATCH_SIZE`); the stage
itself (torch, transformers, pandas, plotly, the benchmark registry, the config, the dataset
readers) is imported inside the function that runs it, so ``--help`` and a usage error answer
at once (issue 31). tests/test_cli_startup.py checks it for every command.
"""
