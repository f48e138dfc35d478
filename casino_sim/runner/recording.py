"""Recorded rounds: the moves kept by `simulate --record N`, the saved game file, and their replay.

A saved game file is JSON: {"format": "casino-sim-game/1", "rules": "strict", "rounds": [{"deck": [52 cards
in NOTATION text, deal order], "dealer": 0 or 1 (0..n-1 with n players), "moves": [48 NOTATION move records]}]}.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from casino_sim.core.cards import CardError, format_card, parse_cards
from casino_sim.core.deal import PLIES
from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError
from casino_sim.core.rows import DealRows
from casino_sim.core.rules import RulesError, RuleSet, get_rules
from casino_sim.reference.apply import check_move
from casino_sim.reference.moves import PLAYER_NAMES, PLAYER_VALUES, Move, MoveError
from casino_sim.reference.round import RoundResult, play_round
from casino_sim.runner.records import read_file
from casino_sim.runner.rundir import RunDir
from casino_sim.runner.sides import side_points

GAME_FORMAT = "casino-sim-game/1"


@dataclass(frozen=True)
class RecordedRound:
    """A round as dealt and played: the deck in deal order, the dealer seat, every play in order."""

    deck: tuple[int, ...]
    dealer: int
    moves: tuple[Move, ...]
    label: str = ""  # where the round comes from, for the header of a replay
    totals: tuple[int, ...] | None = None  # the points the recording engine gave each side, checked on replay


def new_trace(k: int) -> np.ndarray:
    """A buffer for the move records of k rounds (the engine's trace argument)."""
    from casino_sim.kernels import MOVE_FIELDS  # deferred, like move_of_row below: importing the kernels loads numba

    return np.zeros((k, PLIES, MOVE_FIELDS), dtype=np.int64)


def recorded_tables(rows: DealRows, trace: np.ndarray) -> dict[str, pd.DataFrame]:
    """The `moves` (one row per play) and `decks` (one row per round) tables of the first len(trace) rows."""
    from casino_sim.kernels import move_of_row

    k, n = len(trace), rows.seating.shape[1]
    dealer = rows.dealer[:k].astype(np.int8)
    plies = np.arange(1, PLIES + 1, dtype=np.int16)
    moves = pd.DataFrame(
        {
            "deal_id": np.repeat(rows.deal_id[:k], PLIES),
            "mirror": np.repeat(rows.mirror[:k], PLIES),
            "ply": np.tile(plies, k),
            "player": ((np.repeat(dealer, PLIES) + np.tile(plies, k)) % n).astype(np.int8),  # from the dealer's left
            "move": [json.dumps(move_of_row(r).to_json()) for r in trace.reshape(-1, trace.shape[-1])],
        }
    )
    decks = pd.DataFrame(
        {
            "deal_id": rows.deal_id[:k],
            "mirror": rows.mirror[:k],
            "dealer": dealer,
            "deck": [" ".join(format_card(int(c)) for c in d) for d in rows.decks[:k]],
        }
    )
    return {"moves": moves, "decks": decks}


def _run_round(path: Path, k: int) -> tuple[RuleSet, RecordedRound]:
    """The k-th recorded round (1-based, deal order) of a simulate run folder."""
    run = RunDir(path)
    manifest = run.read_manifest()
    if manifest.get("kind") != "simulate":
        raise InputError(f"{path} is not a simulate run")
    if not (run.path / "decks").is_dir():
        raise InputError(f"{path} holds no recorded rounds (simulate with --record N keeps them)")
    decks = run.read_table("decks").sort_values(["deal_id", "mirror"], ignore_index=True)
    if not 1 <= k <= len(decks):
        raise FieldError("round", f"must be between 1 and {len(decks)} (the rounds recorded in {path}), got {k}")
    row = decks.iloc[k - 1]
    deal_id, mirror, chunk = int(row["deal_id"]), int(row["mirror"]), int(row["chunk"])
    where = [("deal_id", "==", deal_id), ("mirror", "==", mirror)]
    name = run.chunk_path(chunk).name
    moves = pd.read_parquet(run.path / "moves" / name, filters=where).sort_values("ply")
    rules = get_rules(manifest["config"]["rules"])
    found = read_file(run.rounds / name, filters=where).to_pandas()  # in format 2 (runner/records.py)
    rec = found.iloc[0]
    config = manifest["config"]
    # seats are named by place (A plays first); the run's A is --policy, which a mirrored round seats elsewhere
    option = (
        {}
        if config["policy_a"] == config["policy_b"]
        else {config["policy_a"]: " (--policy)", config["policy_b"]: " (--vs)"}
    )
    plays = ", ".join(
        f"{PLAYER_NAMES[p]} plays {rec[f'policy_{p}']}{option.get(rec[f'policy_{p}'], '')}"
        for p in range(rules.players)
    )
    label = f"deal {deal_id} (mirror {mirror}), recorded round {k} of {len(decks)}; {plays}"
    rnd = RecordedRound(
        tuple(parse_cards(row["deck"].split())),
        int(row["dealer"]),
        tuple(Move.from_json(json.loads(m)) for m in moves["move"]),
        label,
        tuple(int(x) for x in side_points(found, rules)[0]),
    )
    return rules, rnd


def write_game(path: Path | str, rules: str, rounds) -> None:
    """Save rounds (RecordedRound or anything with deck, dealer, moves) as a game file."""
    data = {
        "format": GAME_FORMAT,
        "rules": get_rules(rules).name,
        "rounds": [
            {
                "deck": [format_card(int(c)) for c in r.deck],
                "dealer": int(r.dealer),
                "moves": [m.to_json() for m in r.moves],
            }
            for r in rounds
        ],
    }
    Path(path).write_text(json.dumps(data, indent=1) + "\n")


def read_game(path: Path | str) -> tuple[RuleSet, list[RecordedRound]]:
    """The rule set and rounds of a game file; InputError (one line) on any malformation."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise InputError(f"{path} is not JSON: {e}") from None
    if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
        raise InputError(f'{path} is not a casino-sim game file (no "format": "{GAME_FORMAT}")')
    try:
        rules = get_rules(data.get("rules", "strict"))
    except RulesError as e:
        raise InputError(f"{path}: {e}") from None
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise InputError(f'{path}: "rounds" must be a non-empty list')
    return rules, [_game_round(path, i, r, rules.players) for i, r in enumerate(rounds, 1)]


def _game_round(path: Path, i: int, r, players: int = 2) -> RecordedRound:
    """Round i of a game file, checked field by field."""
    where = f"{path}: round {i}"
    if not isinstance(r, dict) or set(r) != {"deck", "dealer", "moves"}:
        raise InputError(f"{where} must be an object with exactly deck, dealer and moves")
    try:
        deck = parse_cards(r["deck"]) if isinstance(r["deck"], list) else None
    except (CardError, TypeError, AttributeError) as e:
        raise InputError(f"{where}: bad deck: {e}") from None
    if deck is None or sorted(deck) != list(range(52)):
        raise InputError(f"{where}: the deck must list each of the 52 cards once")
    if r["dealer"] not in range(players) or isinstance(r["dealer"], bool):
        raise InputError(f"{where}: dealer must be {PLAYER_VALUES[players]}, got {r['dealer']!r}")
    if not isinstance(r["moves"], list) or len(r["moves"]) != PLIES:
        raise InputError(f"{where}: moves must list the round's {PLIES} plays")
    try:
        moves = tuple(Move.from_json(m) for m in r["moves"])
    except MoveError as e:
        raise InputError(f"{where}: bad move: {e}") from None
    return RecordedRound(tuple(deck), r["dealer"], moves, f"round {i} of {path.name}")


def load_round(source: Path, k: int) -> tuple[RuleSet, RecordedRound]:
    """Round k of a run folder (k-th recorded round) or of a game file."""
    if source.is_dir():
        return _run_round(source, k)
    if not source.is_file():
        raise InputError(f"{source} is neither a run folder nor a game file")
    rules, rounds = read_game(source)
    if not 1 <= k <= len(rounds):
        raise FieldError("round", f"must be between 1 and {len(rounds)} (the rounds of {source}), got {k}")
    return rules, rounds[k - 1]


def replay_round(rules: RuleSet, rnd: RecordedRound) -> RoundResult:
    """Play the recorded moves on the reference engine; InputError names the first illegal one."""

    played: list[Move] = []

    def chooser(pos, legal):
        move = rnd.moves[len(played)]
        if move not in legal:
            reason = check_move(pos, move) or "the reference engine does not list it"
            raise InputError(
                f"{rnd.label}, play {len(played) + 1}: {move.describe(pos.to_move)} is not legal: {reason}"
            )
        played.append(move)
        return move

    result = play_round(rules, list(rnd.deck), rnd.dealer, chooser)
    if rnd.totals is not None and tuple(result.score.totals) != rnd.totals:
        raise RuntimeError(
            f"engine bug: {rnd.label}: the reference engine scores {result.score.totals}, the run recorded {rnd.totals}"
        )
    return result
