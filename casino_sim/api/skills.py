"""`knockout` and `regret`: the tables `casino-sim knockout` and `casino-sim regret` write, as DataFrames.

Each builds the command's front door (experiments/skill_runs.py) from the same options, so the checks and the
files are the command's; the API only adds its types and its progress bar (api/arguments.py)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from casino_sim.analysis.regret import RegretConfig
from casino_sim.api.arguments import Bar, api_errors, check_types
from casino_sim.api.policies import loader
from casino_sim.experiments.knockout import KnockoutConfig, parse_pairs
from casino_sim.experiments.skill_runs import KnockoutRun, RegretRun
from casino_sim.policies.bots import set_bot_timeout


def knockout(
    policy: str,
    deals: int = 20_000,
    *,
    precision: float = 0.05,
    pairs: str | list[str] | None = None,
    rules: str = "strict",
    seed: int = 0,
    threads: int = 0,
    chunk_deals: int = 1_000,
    out: str | Path | None = None,
    force: bool = False,
    progress: bool = False,
) -> pd.DataFrame:
    """What each feature of the heuristic `policy` is worth, as `casino-sim knockout` measures it: the table it
    writes as knockout.csv (one row per feature, or pair `A,B`: B's worth with A already out), with the same
    chart and page in `out` (default results/runs/knockout-<policy>-<rules>-seed<seed>/; force=True replaces).

    >>> table = cs.knockout("greedy", 60, chunk_deals=30, seed=2)  # greedy against itself without each feature
    >>> table.columns.tolist()
    ['feature', 'given_out', 'weight', 'worth_mean', 'worth_ci_lo', 'worth_ci_hi', 'deals', 'stopped']
    >>> int(table["deals"].max())  # the most mirrored deals any one feature played
    60
    """
    given = dict(locals())
    check_types(
        policy=(policy, str),
        deals=(deals, int),
        precision=(precision, float),
        pairs=(pairs, str, list, tuple, None),
        rules=(rules, str),
        seed=(seed, int),
        threads=(threads, int),
        chunk_deals=(chunk_deals, int),
        out=(out, "path", None),
        force=(force, bool),
        progress=(progress, bool),
    )
    values = [pairs] if isinstance(pairs, str) else list(pairs or ())
    for value in values:
        check_types(pairs=(value, str))
    with api_errors(given):
        pairs = parse_pairs(values)
        config = KnockoutConfig(policy, deals, rules, seed, threads, chunk_deals, precision, pairs, loader=loader())
        return KnockoutRun(config, out, force).execute(hooks=Bar(progress))


def regret(
    policies: str | list[str] | tuple[str, ...],
    *,
    vs: str | None = None,
    decisions: int | None = None,
    rules: str = "strict",
    seed: int = 0,
    threads: int = 0,
    out: str | Path | None = None,
    force: bool = False,
    bot_timeout: float | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """How often each of `policies` plays a best move in the last batch, and the points it loses, against exact
    play, as `casino-sim regret` judges it: the table it writes as regret.csv, with the same chart and page in
    `out` (default results/runs/regret-<policies>-<rules>-seed<seed>/; force=True replaces). `bot_timeout` is
    the command's --bot-timeout: it holds for this process from then on."""
    given = dict(locals())
    check_types(
        policies=(policies, str, list, tuple),
        vs=(vs, str, None),
        decisions=(decisions, int, None),
        rules=(rules, str),
        seed=(seed, int),
        threads=(threads, int),
        out=(out, "path", None),
        force=(force, bool),
        bot_timeout=(bot_timeout, float, None),
        progress=(progress, bool),
    )
    names = (policies,) if isinstance(policies, str) else tuple(policies)
    for name in names:
        check_types(policies=(name, str))
    with api_errors(given):
        if bot_timeout is not None:
            set_bot_timeout(bot_timeout)
        door = RegretRun(RegretConfig(names, vs, decisions, rules, seed, threads, loader=loader()), out, force)
        return door.execute(hooks=Bar(progress))
