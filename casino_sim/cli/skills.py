"""Commands that measure skills: knockout (what each feature of a heuristic is worth), regret (against exact play),
each made from its declaration (experiments/skill_fields.py) onto its front door (experiments/skill_runs.py)."""

from __future__ import annotations

from casino_sim.cli.declared import command
from casino_sim.cli.options import console, policy_loader
from casino_sim.cli.run_flow import Said
from casino_sim.cli.ui import knockout_table, regret_table
from casino_sim.experiments.skill_fields import KNOCKOUT, REGRET


def _shown(show) -> Said:
    """The hooks of knockout and regret on the terminal: `show(table)` once it is written (a run cut short too),
    then Ctrl-C's line."""
    return Said("interrupted: the table in {path} holds what was finished", folder=None, reported=show)


def _knockout(values: dict, given: frozenset) -> None:
    """knockout's body: the values by field name (KNOCKOUT) into its door, executed, its table shown."""
    # deferred, so that `casino-sim --help` never loads them: numba, pandas, matplotlib
    from casino_sim.analysis.analyse import print_table
    from casino_sim.experiments.skill_runs import KnockoutRun

    door = KnockoutRun.new(values, given, policy_loader())

    def show(table) -> None:
        print_table(console, knockout_table(table, door.knockout.policy.name))
        console.print(f"table and chart: {door.path}", highlight=False, soft_wrap=True)

    door.execute(hooks=_shown(show))


knockout = command(
    KNOCKOUT,
    _knockout,
    "What each skill of a heuristic is worth: the policy against itself with one feature's weight set to zero.",
)


def _regret(values: dict, given: frozenset) -> None:
    """regret's body: the values by field name (REGRET) into its door, executed, its table shown."""
    # deferred, so that `casino-sim --help` never loads them: numba, matplotlib
    from casino_sim.analysis.analyse import print_table
    from casino_sim.experiments.skill_runs import RegretRun

    door = RegretRun.new(values, given, policy_loader())

    def show(table) -> None:
        if len(table):
            print_table(console, regret_table(table))
            times = ", ".join(f"{name} {s:.1f} s" for name, s in door.regret.seconds.items())
            line = f"table and chart: {door.path} (played and judged in: {times})"
            console.print(line, highlight=False, soft_wrap=True)

    door.execute(hooks=_shown(show))


regret = command(
    REGRET,
    _regret,
    "How often policies play a best move in the last batch, and the points they lose, against exact play.",
)
