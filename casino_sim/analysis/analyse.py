"""Rank every legal move by rollouts over sampled hidden cards, with intervals; exact values in the last batch.

The point difference is the mover's round points minus the opponent's at the
end of the round (the whole round's score, cards already captured included);
with teams, the mover's team's less the other team's; with three or four
players alone, the mover's less the best other player's. Exact values need
two players: with more, the last batch's unseen cards could lie in any other hand.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.table import Table

from casino_sim.core.deal import HAND_SIZE, PLIES
from casino_sim.core.fields import FieldError
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.policy import Policy, PolicyError
from casino_sim.reference.movegen import legal_moves
from casino_sim.reference.moves import PLAYER_NAMES, Move
from casino_sim.reference.position import Position
from casino_sim.reference.round import round_context
from casino_sim.reference.seats import side_of, sides
from casino_sim.reports.separation import AHEAD, leader
from casino_sim.reports.stats import t975
from casino_sim.reports.verdict import POINTS

MAX_WORLDS = 100_000
NO_EXACT = "no exact column: with more than two players the last batch's hidden split is unknown"


@dataclass(frozen=True)
class MoveValue:
    """One move's estimate: mean difference, its 95% interval, share of worlds where it was best, exact value."""

    move: Move
    number: int  # the move's number in the legal-move list (1-based, canonical order as `casino-sim moves` lists)
    mean: float
    low: float
    high: float
    best_share: float
    exact: int | None = None


@dataclass(frozen=True)
class Analysis:
    """The ranked moves of one position and how they were estimated."""

    position: Position
    policy: str
    worlds: int
    seed: int
    moves: list[MoveValue]

    @property
    def has_exact(self) -> bool:
        return any(m.exact is not None for m in self.moves)

    @property
    def exact_note(self) -> str | None:
        """Why a last-batch analysis has no exact values (more than two players), else None."""
        pos = self.position
        # the rule: with three or four the last batch's hidden split is unknown (docs/rules.md 11, the searcher)
        if pos.players == 2 or round_context(pos)[2] < PLIES - HAND_SIZE * pos.players:
            return None
        return NO_EXACT


def check_analysis_args(policy: Policy, worlds: int, seed: int, prefix: str = "") -> None:
    """Refuse options the analyser cannot honour, with the reason (FieldError); `prefix` names the fields
    (`hint_`: the play command's hint_worlds and hint_policy)."""
    worlds_field, policy_field = f"{prefix}worlds", f"{prefix}policy"
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 2 <= worlds <= MAX_WORLDS:
        raise FieldError(worlds_field, f"must be a whole number from 2 to {MAX_WORLDS:,}, got {worlds!r}")
    if seed < 0:
        raise FieldError("seed", f"must be >= 0, got {seed}")
    if policy.kind not in ("random", "heuristic"):
        base = f"; a {policy.kind} policy plays out with its base, e.g. {{{policy_field}}} expert"
        raise PlayoutPolicyError(
            policy_field,
            "{" + policy_field + "} (the play-out policy) must be random or a heuristic, "
            f"not {policy.name!r} ({policy.kind})" + (base if policy.searches else ""),
        )


class PlayoutPolicyError(FieldError, PolicyError):
    """A play-out policy the analyser cannot play with: a refused field, and a policy error."""


def best_shares(diffs: np.ndarray) -> np.ndarray:
    """Per move, the share of worlds in which it scored best; a tie of t moves gives each 1/t of that world."""
    best = diffs >= diffs.max(axis=1, keepdims=True) - 1e-9
    return (best / best.sum(axis=1, keepdims=True)).mean(axis=0)


def check_analysis_position(pos: Position) -> None:
    """Refuse a position the analysis cannot sample: one no deal reaches (PositionError says why)."""
    round_context(pos)


def analyse(pos: Position, policy: Policy, worlds: int = 1000, seed: int = 0) -> Analysis:
    """Every legal move of the player to move, best first, from `worlds` sampled worlds played out by `policy`."""
    from casino_sim.kernels import exact_values, rollout_diffs  # deferred: loads numba when the analysis runs

    check_analysis_args(policy, worlds, seed)
    check_analysis_position(pos)
    moves = legal_moves(pos)
    ints, weights, wants = policy_arrays((policy, policy))
    state_seed = int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])
    diffs = rollout_diffs(pos, moves, int(ints[0, 0]), weights[0], wants[0], worlds, state_seed)
    exact = exact_values(pos, moves) if pos.players == 2 else None  # see NO_EXACT (docs/rules.md 11)
    mean = diffs.mean(axis=0)
    half = t975(worlds - 1) * diffs.std(axis=0, ddof=1) / np.sqrt(worlds)  # Student's t: few worlds, wide
    shares = best_shares(diffs)
    values = [
        MoveValue(
            m,
            i + 1,
            float(mean[i]),
            float(mean[i] - half[i]),
            float(mean[i] + half[i]),
            float(shares[i]),
            None if exact is None else int(exact[i]),
        )
        for i, m in enumerate(moves)
    ]
    # exact values rank first when known; then the estimate; legal_moves' canonical order breaks ties
    order = sorted(range(len(values)), key=lambda i: (-(values[i].exact if exact is not None else 0), -values[i].mean))
    return Analysis(pos, policy.name, worlds, seed, [values[i] for i in order])


def analysis_json(a: Analysis) -> dict:
    """The analysis as one JSON object: moves best first, each with its estimate, interval and exact value."""
    p = a.position.to_move
    note = {} if a.exact_note is None else {"exact_note": a.exact_note}
    return {
        "to_move": p,
        "policy": a.policy,
        "worlds": a.worlds,
        "seed": a.seed,
        "exact": a.has_exact,
        **note,
        "moves": [
            {
                "number": m.number,
                "move": m.move.to_json(),
                "text": m.move.describe(p),
                "mean": round(m.mean, 4),
                "ci95": [round(m.low, 4), round(m.high, 4)],
                "best_share": round(m.best_share, 4),
                "exact": m.exact,
            }
            for m in a.moves
        ],
    }


def analysis_table(a: Analysis) -> Table:
    """The analysis as a table, best move first: the move's number in the move list (as `moves` and `play` number
    them), the move in words, expected difference, interval, how often best (, exact)."""
    p = a.position.to_move
    caption = "best first; # is the move's number in the list of legal moves"
    notes = [caption, *filter(None, (a.exact_note, best_move_note(a)))]
    table = Table(
        title=f"{PLAYER_NAMES[p]} to move: {margin_words(a.position)} at the end of the round "
        f"({a.worlds:,} worlds, play-outs by {a.policy}, seed {a.seed})",
        caption="\n".join(notes),
    )
    table.add_column("#", justify="right")
    table.add_column("move")
    table.add_column("expected", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("best in", justify="right")
    if a.has_exact:
        table.add_column("exact (best play)", justify="right")
    for m in a.moves:
        row = [
            str(m.number),
            m.move.describe(p),
            f"{m.mean:+.2f}",
            f"[{m.low:+.2f}, {m.high:+.2f}]",
            f"{m.best_share:.0%}",
        ]
        if a.has_exact:
            row.append(f"{m.exact:+d}")
        table.add_row(*row)
    return table


def best_move_note(a: Analysis) -> str | None:
    """Whether the estimates name a best move: the top move's lead over every other clear of 0 (reports/separation.py);
    None with exact values (they are the truth) or a single move."""
    if a.has_exact or len(a.moves) < 2:
        return None
    verdict = leader([(str(m.number), m.mean, m.low, m.high) for m in a.moves], a.worlds, POINTS)
    if verdict.leader:
        return f"the best move: #{verdict.leader}, ahead of every other move ({AHEAD})"
    return verdict.no_leader("name the best move", "worlds")


def margin_words(pos: Position) -> str:
    """What the analysis estimates, in words: "A's points minus B's", "A+C's points minus B+D's", or "A's points
    minus the best other player's" (the rollout's margin: against the other side when there are two)."""
    p, rules = pos.to_move, pos.rules
    if rules.n_sides > 2:
        return f"{PLAYER_NAMES[p]}'s points minus the best other player's"
    mine, theirs = (
        "+".join(PLAYER_NAMES[q] for q in sides(rules, pos.players)[side])
        for side in (side_of(rules, p), 1 - side_of(rules, p))
    )
    return f"{mine}'s points minus {theirs}'s"


def print_table(console: Console, table: Table) -> None:
    """Print a table; piped output gets the width it needs, so each move stays on one line for scripts."""
    need = max(
        console.measure(table, options=console.options.update_width(10_000)).maximum, len(str(table.title or "")) + 2
    )
    if console.is_terminal or need <= console.width:
        console.print(table)
        return
    width = console.width
    console.width = need
    try:
        console.print(table)
    finally:
        console.width = width
