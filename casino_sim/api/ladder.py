"""`findings`: every finding under each policy of a strength ladder, as `casino-sim findings` measures it, the table
it writes as findings.csv returned as a DataFrame (its front door: experiments/findings.py FindingsRun)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, call_text, check_types, names
from casino_sim.api.policies import loader
from casino_sim.experiments.findings import TABLES, FindingsRequest, FindingsRun
from casino_sim.experiments.ladder import LADDER
from casino_sim.policies.bots import set_bot_timeout
from casino_sim.reports.equity import RESAMPLES


def findings(
    policies: str | list[str] | tuple[str, ...] = LADDER,
    *,
    rules: str = "brazilian",
    players: str | list[str] | tuple[str, ...] = tuple(TABLES),
    deals: int = 20_000,
    until_ci: float = 0.25,
    card_deals: int = 500,
    seed: int = 0,
    threads: int = 0,
    chunk_deals: int = 1_000,
    resamples: int = RESAMPLES,
    out: str | Path = "results/findings",
    force: bool = False,
    backend: str | None = None,
    scheduler: str | None = None,
    bot_timeout: float | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """The findings table (findings.csv's rows: finding, policy, table, value and its 95% interval) of `policies`
    (weakest first) at the tables `players` (some of 2, 3, 4, teams), as `casino-sim findings` plays and collates
    them into `out`, with findings.md and the charts. As the command: the same call again into the same `out`
    finishes what it holds (force=True plays every run again); `policies` and `players` may be comma-separated
    strings; `bot_timeout` (the command's --bot-timeout) holds for this process from then on."""
    given = dict(locals())
    check_types(
        policies=(policies, str, list, tuple),
        rules=(rules, str),
        players=(players, str, list, tuple),
        deals=(deals, int),
        until_ci=(until_ci, float),
        card_deals=(card_deals, int),
        seed=(seed, int),
        threads=(threads, int),
        chunk_deals=(chunk_deals, int),
        resamples=(resamples, int),
        out=(out, "path"),
        force=(force, bool),
        backend=(backend, str, None),
        scheduler=(scheduler, str, None),
        bot_timeout=(bot_timeout, float, None),
        progress=(progress, bool),
    )
    with api_errors(given):
        if bot_timeout is not None:
            set_bot_timeout(bot_timeout)
        request = FindingsRequest(
            policies=names("policies", policies),
            rules=rules,
            players=names("players", players),
            deals=deals,
            until_ci=until_ci,
            card_deals=card_deals,
            seed=seed,
            threads=threads,
            chunk_deals=chunk_deals,
            resamples=resamples,
        )
        door = FindingsRun.new(request, loader(), Path(out), [call_text("findings", given, _DEFAULTS)], force)
        return door.execute(backend, scheduler, Bar(progress))


_DEFAULTS = {k: p.default for k, p in inspect.signature(findings).parameters.items()}
