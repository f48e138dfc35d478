"""`knockout` and `regret`: the tables `casino-sim knockout` and `casino-sim regret` write, as DataFrames.

Each is made from its command's declaration (experiments/skill_fields.py) onto its front door
(experiments/skill_runs.py), so the checks and the files are the command's; the API only adds its types and its
progress bar (api/arguments.py)."""

from __future__ import annotations

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, each_a_string
from casino_sim.api.declared import api_function
from casino_sim.api.policies import loader
from casino_sim.experiments.skill_fields import KNOCKOUT, REGRET
from casino_sim.experiments.skill_runs import KnockoutRun, RegretRun
from casino_sim.policies.bots import set_bot_timeout


def _knockout(values: dict, given: frozenset) -> pd.DataFrame:
    """What each feature of the heuristic `policy` is worth, as `casino-sim knockout` measures it: the table it
    writes as knockout.csv (one row per feature, or pair `A,B`: B's worth with A already out), with the same
    chart and page in `out` (default results/runs/knockout-<policy>-<rules>-seed<seed>/; force=True replaces).

    >>> table = cs.knockout("greedy", 60, chunk_deals=30, seed=2, force=True)  # greedy without each feature
    >>> table.columns.tolist()
    ['feature', 'given_out', 'weight', 'worth_mean', 'worth_ci_lo', 'worth_ci_hi', 'deals', 'stopped']
    >>> int(table["deals"].max())  # the most mirrored deals any one feature played
    60
    """
    each_a_string("pairs", values["pairs"])
    with api_errors():
        return KnockoutRun.new(values, given, loader()).execute(hooks=Bar(values["progress"]))


knockout = api_function(KNOCKOUT, _knockout, positional=2)


def _regret(values: dict, given: frozenset) -> pd.DataFrame:
    """How often each of `policies` plays a best move in the last batch, and the points it loses, against exact
    play, as `casino-sim regret` judges it: the table it writes as regret.csv, with the same chart and page in
    `out` (default results/runs/regret-<policies>-<rules>-seed<seed>/; force=True replaces). `bot_timeout` is
    the command's --bot-timeout: it holds for this process from then on."""
    each_a_string("policies", values["policies"])
    with api_errors():
        if values["bot_timeout"] is not None:
            set_bot_timeout(values["bot_timeout"])
        return RegretRun.new(values, given, loader()).execute(hooks=Bar(values["progress"]))


regret = api_function(REGRET, _regret, positional=1)
