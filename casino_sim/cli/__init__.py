"""The `casino-sim` command line: Typer commands (app), the terminal game, round stories and rich tables."""

from casino_sim.cli.app import app, main

__all__ = ["app", "main"]
