"""`moves` and `analyse`: a position (docs/notation.md: a dict, its JSON text, or a file) in, a DataFrame out."""

from __future__ import annotations

import os

import pandas as pd

from casino_sim.api.arguments import api_errors, check_types
from casino_sim.api.declared import api_function
from casino_sim.api.policies import loader
from casino_sim.core.jsontext import parse_json, read_text
from casino_sim.engines import get_engine
from casino_sim.engines.compiling import ensure_compiled
from casino_sim.experiments.study_declarations import ANALYSE
from casino_sim.reference.position import Position

MOVE_COLUMNS = ["number", "kind", "card", "loose", "builds", "value", "text"]


def position_of(position):
    """A Position from a docs/notation.md dict, its JSON text, a JSON file (a Path), or a Position itself."""

    if isinstance(position, Position):
        return position
    check_types(position=(position, dict, str, os.PathLike))
    if isinstance(position, os.PathLike):
        position = read_text(str(position))
    if isinstance(position, str):
        position = parse_json(position, "the position")
    return Position.from_json(position)


def _move_row(number: int, move, to_move: int) -> dict:
    """A move as a row: its number in the legal-move list, its docs/notation.md fields, and the move in words."""
    return {"number": number, **move.to_json(), "text": move.describe(to_move)}


def _frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """Rows of moves as a DataFrame; a value or exact value that may be absent (a trail's value) stays a whole
    number (pandas' Int64, <NA> where absent)."""
    frame = pd.DataFrame(rows, columns=columns)
    for c in ("value", "exact"):
        if c in frame.columns:
            frame[c] = frame[c].astype("Int64")
    return frame


def moves(position, engine: str = "numba") -> pd.DataFrame:
    """Every legal move of the player to move, one row each, numbered and ordered as `casino-sim moves` lists
    them; a row's kind, card, loose, builds and value are the move of docs/notation.md.

    >>> pos = {"hands": [["7D", "7S", "2H", "4S"], ["KC", "3C", "9H", "JD"]], "loose": ["5C", "8D", "4H", "JS"]}
    >>> cs.moves(pos).head(3)[["number", "kind", "card", "text"]]
       number   kind card         text
    0       1  trail   2H   A trails 2♥
    1       2  trail   4S   A trails 4♠
    2       3  trail   7S   A trails 7♠
    >>> cs.moves(pos).query("kind == 'capture'")["text"].tolist()
    ['A plays 4♠ and captures 4♥']
    """
    check_types(engine=(engine, str))
    with api_errors():
        pos = position_of(position)
        eng = get_engine(engine)
        eng.check_rules(pos.rules)
        if engine == "numba":
            ensure_compiled("moves")
        return _frame([_move_row(i + 1, m, pos.to_move) for i, m in enumerate(eng.legal_moves(pos))], MOVE_COLUMNS)


def _analyse(values: dict, given: frozenset) -> pd.DataFrame:
    """Every legal move ranked, best first, by the expected point difference to the end of the round over `worlds`
    sampled worlds of the hidden cards played out by `policy`, as `casino-sim analyse` ranks them: `mean` with its
    95% interval (`ci_lo`, `ci_hi`), `best_share` (how often it was best) and, in the last batch of two players,
    `exact` (the value under best play). `attrs` holds policy, worlds, seed and exact_note.

    >>> pos = {"hands": [["7D", "TD", "2S", "KH"], None], "loose": ["3C", "4H", "KC", "TS"]}
    >>> a = cs.analyse(pos, worlds=50, seed=1)
    >>> a.loc[0, "text"]  # the best move
    'A plays 7♦ and captures 3♣ 4♥'
    >>> bool((a["ci_lo"] <= a["mean"]).all() and (a["mean"] <= a["ci_hi"]).all())
    True
    """
    worlds, seed = values["worlds"], values["seed"]
    with api_errors():
        # deferred, so that importing the API never loads numba
        from casino_sim.experiments.analyse_door import analysed

        pos = position_of(values["position"])
        result = analysed(pos, values, loader())
    rows = [
        {
            **_move_row(m.number, m.move, pos.to_move),
            "mean": m.mean,
            "ci_lo": m.low,
            "ci_hi": m.high,
            "best_share": m.best_share,
            "exact": m.exact,
        }
        for m in result.moves
    ]
    frame = _frame(rows, [*MOVE_COLUMNS, "mean", "ci_lo", "ci_hi", "best_share", "exact"])
    frame.attrs.update(policy=result.policy, worlds=worlds, seed=seed, exact_note=result.exact_note)
    return frame


analyse = api_function(ANALYSE, _analyse, positional=4)
