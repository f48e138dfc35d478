"""`tournament`: a round-robin as `casino-sim tournament` plays it, its tables read back as DataFrames."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import pandas as pd

from casino_sim.api.arguments import Bar, api_errors, call_text, each_a_string
from casino_sim.api.declared import api_function
from casino_sim.api.policies import loader
from casino_sim.core.errors import InputError
from casino_sim.experiments import tournament as tour
from casino_sim.experiments.declarations import TOURNAMENT
from casino_sim.experiments.tournament import make_report
from casino_sim.runner.rundir import RunDir


class Tournament:
    """A finished tournament folder: ratings, matches and the win-rate and margin matrices as DataFrames, its
    chart as a Figure; the same numbers as the folder's `report/*.csv`."""

    def __init__(self, path: str | Path):

        self.path = Path(path)
        self.manifest = RunDir(self.path).read_manifest()
        if self.manifest.get("kind") != "tournament":
            raise InputError(f"{self.path} is not a tournament folder")

    def __repr__(self) -> str:
        c = self.manifest["config"]
        return f"<Tournament {', '.join(c['policies'])}, {c['games']:,} games, rules {c['rules']}: {self.path}>"

    @cached_property
    def _made(self) -> tuple:

        return make_report(self.path, loader().label)

    @property
    def ratings(self) -> pd.DataFrame:
        """Bradley-Terry strength and Elo per policy with bootstrap 95% intervals, best first."""
        return self._made[0]["ratings"].copy()

    @property
    def matches(self) -> pd.DataFrame:
        """Every pairing both ways: games, win rate and points margin with 95% intervals."""
        return self._made[0]["matches"].copy()

    @property
    def win_rate(self) -> pd.DataFrame:
        """Policy (row) against opponent (column): the row's game win rate."""
        return self._made[0]["win_rate_matrix"].copy()

    @property
    def margin(self) -> pd.DataFrame:
        """Policy (row) against opponent (column): the row's final points margin per game."""
        return self._made[0]["margin_matrix"].copy()

    def chart(self):
        """The tournament's Figure (win rates, margins and ratings), as tournament.png shows it."""
        return self._made[1]()


def _tournament(values: dict, given: frozenset) -> Tournament:
    """A round-robin of `policies` over `games` mirrored pairs of whole games per pairing, as
    `casino-sim tournament` plays it (every pairing the same shuffles); the folder `out` (default
    results/runs/<time>-tournament/, refused when it holds a run unless force=True replaces it) gets the same
    tables and chart.

    >>> t = cs.tournament(["random", "greedy"], games=6, seed=3)
    >>> t.ratings["policy"].tolist()
    ['greedy', 'random']
    >>> t.matches[["policy", "opponent", "games"]]
       policy opponent  games
    0  random   greedy     12
    1  greedy   random     12
    """
    each_a_string("policies", values["policies"])
    with api_errors(aliases={"deals": "games"}):  # each pairing is a run of `games` whole games
        command = [call_text("tournament", values, TOURNAMENT.defaults())]
        door = tour.TournamentRun.new(values, loader(), command, RESUME_WITH)
        door.execute(values["backend"], values["scheduler"], Bar(values["progress"]))
        return Tournament(door.root)


RESUME_WITH = "casino-sim tournament --resume {path}"
tournament = api_function(TOURNAMENT, _tournament, positional=2)
