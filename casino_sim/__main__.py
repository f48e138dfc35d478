"""`python -m casino_sim` runs the CLI."""

from casino_sim.cli.app import main

main()
