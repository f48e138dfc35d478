"""`casino-sim findings`: the command made from its declaration (experiments/study_declarations.py FINDINGS) onto
the ladder's front door (experiments/findings.py FindingsRun)."""

from __future__ import annotations

import sys

from casino_sim.cli.declared import command
from casino_sim.cli.options import console, policy_loader
from casino_sim.cli.run_flow import Said
from casino_sim.experiments.study_declarations import FINDINGS


def _findings(values: dict, given: frozenset) -> None:
    """Every finding (seat advantage, card values, sweeps, anatomy, equity) under each policy of a ladder.

    Each policy plays every seat of each table on the same deals; writes findings.csv, verdicts.csv and findings.md
    (each finding settled, moving with strength or undetermined between the two strongest policies, by the
    interval of their difference against a margin) and one chart per finding (docs/findings.md)."""
    # deferred, so that `casino-sim --help` never loads them: pandas, matplotlib and the engine
    from casino_sim.experiments.findings import FindingsRun
    from casino_sim.reports.findings import sentences

    backend = values["backend"]
    door = FindingsRun.of(values, policy_loader(), sys.argv)
    cut = "interrupted: finished runs and chunks are kept; the same command again finishes them ({path})"
    table = door.execute(backend.value if backend else None, values["scheduler"], Said(cut, "findings folder"))
    for line in sentences(table, door.ladder):
        console.print(f"- {line}", highlight=False, soft_wrap=True)
    console.print(f"table, charts and findings.md: {door.root}", highlight=False)


findings = command(FINDINGS, _findings, _findings.__doc__)
