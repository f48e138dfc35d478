"""`findings`: every finding under each policy of a strength ladder, as `casino-sim findings` measures it, the table
it writes as findings.csv returned as a DataFrame (made from its declaration, experiments/study_declarations.py
FINDINGS; its front door: experiments/findings.py FindingsRun)."""

from __future__ import annotations

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, call_text
from casino_sim.api.declared import api_function
from casino_sim.api.policies import loader
from casino_sim.core.fields import check_kind
from casino_sim.experiments.findings import FindingsRun
from casino_sim.experiments.study_declarations import FINDINGS
from casino_sim.policies.bots import set_bot_timeout


def _findings(values: dict, given: frozenset) -> pd.DataFrame:
    """The findings table (findings.csv's rows: finding, policy, table, value and its 95% interval) of `policies`
    (weakest first) at the tables `players` (some of 2, 3, 4, teams), as `casino-sim findings` plays and collates
    them into `out` (default results/runs/findings-<rules>-<policies>-<tables>), with findings.md and the charts.
    As the command: the same call again into the same `out`
    finishes what it holds (force=True plays every run again); `policies` and `players` may be comma-separated
    strings; `bot_timeout` (the command's --bot-timeout) holds for this process from then on."""
    for name in ("policies", "players"):
        for item in values[name] if isinstance(values[name], list | tuple) else ():
            check_kind(name, item, (str,))  # a list of names, each a string
    with api_errors():
        if values["bot_timeout"] is not None:
            set_bot_timeout(values["bot_timeout"])
        command = [call_text("findings", values, FINDINGS.defaults())]
        door = FindingsRun.of(values, loader(), command)
        return door.execute(values["backend"], values["scheduler"], Bar(values["progress"]))


findings = api_function(FINDINGS, _findings, positional=1)
