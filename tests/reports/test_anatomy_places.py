"""The anatomy of a round with three and four players, per place in the turn order, on reference records."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from casino_sim.core.record import PLAY_KINDS
from casino_sim.core.rules import get_rules
from casino_sim.reference.record import round_record
from casino_sim.reference.round import play_round
from casino_sim.reports.anatomy import anatomy_table


def records(spec: str, rounds: int = 12) -> pd.DataFrame:
    """Random rounds played by the reference engine, as the n-player record (one deal each)."""
    rules, rng = get_rules(spec), np.random.default_rng(4)
    rows = []
    for d in range(rounds):
        result = play_round(
            rules, rng.permutation(52), d % rules.players, lambda pos, moves: moves[rng.integers(len(moves))]
        )
        rows.append({"deal_id": d, **round_record(result)})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("spec", ["italian:players=3", "brazilian:players=4", "italian:players=4"])
def test_every_place_has_its_anatomy_and_the_places_add_up(spec):
    df = records(spec)
    t = anatomy_table(df).set_index(["place", "quantity"])["mean"]
    n = get_rules(spec).players
    places = ["first", "second", "third"][: n - 1] + ["dealer"]
    assert sorted(set(t.index.get_level_values("place"))) == sorted(places)
    live = df[df["void"] == 0]
    for p in places:
        assert sum(t[(p, f"share_{k}")] for k in PLAY_KINDS) == pytest.approx(1)
        assert t[(p, "cards")] == pytest.approx(live[f"{p}_n_cards"].mean())
    assert sum(t[(p, "cards")] for p in places) == pytest.approx(52)  # every card ends in a pile
    assert sum(t[(p, "last_capture")] for p in places) == pytest.approx(1)
    remainder = sum(t[(p, "remainder_cards")] for p in places)
    assert remainder == pytest.approx(live["remainder"].mean())
    won = sum(t[(p, "most_cards_won")] for p in places)
    if get_rules(spec).teams:  # both places of a team share its prize
        assert won / 2 + t[("first", "most_cards_tied")] == pytest.approx(1)
    else:
        assert won + t[("first", "most_cards_tied")] == pytest.approx(1)
    assert ("first", "builds_made") not in t.index  # the n-player record keeps no build fates
