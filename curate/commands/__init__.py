"""CLI commands, one module per pipeline stage; each exposes ``register(app)``."""
