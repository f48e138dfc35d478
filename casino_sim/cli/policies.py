"""The `policies` sub-app: list the playing policies, their features, or show one."""

from __future__ import annotations

from typing import Annotated

import typer

from casino_sim.cli.helpstyle import HelpCommand, HelpGroup
from casino_sim.cli.options import HELP_OPTIONS, console, policy_loader
from casino_sim.policies import FEATURES

policies_app = typer.Typer(
    help="The playing policies: list them, or show one.",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
    cls=HelpGroup,
)


@policies_app.command("list", cls=HelpCommand)
def policies_list() -> None:
    """Every policy known by name, with its kind and what it does."""
    # deferred, so that `casino-sim --help` never loads them: rich's tables
    from rich.table import Table

    table = Table(title="Policies")
    for col in ("name", "kind", "what it does"):
        table.add_column(col)
    for policy in policy_loader().known().values():
        table.add_row(policy.name, policy.kind, policy.description)
    console.print(table)


@policies_app.command("features", cls=HelpCommand)
def policies_features() -> None:
    """The move features a heuristic policy file can weigh, with what each measures."""

    for name, doc in FEATURES:
        console.print(f"{name:20s} {doc}", highlight=False, markup=False)


@policies_app.command("show", cls=HelpCommand)
def policies_show(
    name: Annotated[str, typer.Argument(help="A policy name, a .toml policy file, module:function or exec:COMMAND.")],
) -> None:
    """What a policy does and its parameters (weights for a heuristic)."""

    console.print(policy_loader()(name).describe(), highlight=False, markup=False)
