"""`python -m casino_sim` runs the CLI."""

from casino_sim.cli import main

main()
