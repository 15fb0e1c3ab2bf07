"""``python -m curate`` runs the CLI."""

from curate.cli import main

main()
