"""A game of Casino at the terminal: a person (player A) against a policy (player B).

Input and output are injected (a line reader and a rich Console), so tests
drive whole rounds with scripted lines. Moves are chosen by number; bad input
is refused with the reason and asked again; the end of input ends the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from rich.console import Console

from casino_sim.analysis import analyse, analysis_table, print_table
from casino_sim.analysis.analyse import check_analysis_args
from casino_sim.cli.transcript import score_table
from casino_sim.core.cards import is_spade, pretty_cards
from casino_sim.core.rules import RuleSet
from casino_sim.policies.decide import choose_move
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS, game_winner
from casino_sim.reference.moves import PLAYER_NAMES, Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position
from casino_sim.reference.round import BATCHES, HAND_SIZE, RoundResult, play_round
from casino_sim.runner.recording import RecordedRound

HUMAN = 0  # the person plays A; the policy plays B
HELP = (
    "Type a move's number to play it; 'hint' ranks your moves (the analyser); 'position' prints what you see "
    "as position JSON (for casino-sim analyse); 'help'; 'quit'."
)


class _Stop(Exception):
    """The person quit, or the input ended."""


def random_seed() -> int:
    """A fresh game seed from the operating system's entropy (shown, so the game can be replayed)."""
    return int(np.random.SeedSequence().generate_state(1)[0] >> 1)


def seen_by(pos: Position, player: int) -> Position:
    """The position as `player` sees it: the other hand unknown."""
    hands = tuple(pos.hands[q] if q == player else None for q in (0, 1))
    return replace(pos, hands=hands)


def obligations(pos: Position, player: int) -> list[str]:
    """The rules that bind `player` right now (RULES.md sections 3 and 6), in words."""
    owned = [b.value for b in pos.builds if b.owner == player]
    lines = [f"keep a {v} in hand: you own the build of {v} and must be able to capture it" for v in owned]
    if owned and pos.rules.no_trail_while_owner:
        lines.append("you may not trail while you own a build")
    if pos.must_act[player]:
        lines.append("you may not trail this turn (you built on your last turn and the other player trailed)")
    return lines


class TerminalGame:
    """One game to the rule set's target between the person and `opponent`, told on `console`."""

    def __init__(
        self,
        rules: RuleSet,
        opponent: Policy,
        seed: int,
        hint_policy: Policy,
        hint_worlds: int,
        console: Console,
        read_line: Callable[[], str],
        echo: bool = False,
    ):
        check_analysis_args(hint_policy, hint_worlds, seed, prefix="hint-")
        self.rules, self.opponent, self.seed = rules, opponent, seed
        self.hint_policy, self.hint_worlds = hint_policy, hint_worlds
        self.console, self.read_line = console, read_line
        self.echo = echo  # piped input: write each line read after its prompt, as a terminal would show it
        deal_seq, choice_seq = np.random.SeedSequence(seed).spawn(2)
        self.deal_rng = np.random.default_rng(deal_seq)  # dealer and shuffles: independent of the person's input
        self.choice_rng = np.random.default_rng(choice_seq)  # the opponent's decisions
        self.totals = [0, 0]
        self.round_no = 0
        self.ply = 0
        self.played: list[RecordedRound] = []  # every finished round, for `play --save` and `replay`

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    # ------------------------------------------------------------------ the game

    def run(self) -> int | None:
        """Play rounds until a player wins or the input ends; returns the winner (None when stopped)."""
        self.say(
            f"Casino, rules {self.rules.name}, seed {self.seed}: you are A, B is played by {self.opponent.name}."
            f" Game to {self.rules.target}. {HELP}"
        )
        dealer = int(self.deal_rng.integers(2))
        try:
            for _ in range(MAX_ROUNDS):
                result = self._play_round(dealer)
                if result.void:
                    self.say("Nobody captured: the round is void and is dealt again.")
                    continue
                winner = self._end_round(result)
                if winner is not None:
                    self.say(f"{PLAYER_NAMES[winner]} wins the game, {max(self.totals)} to {min(self.totals)}.")
                    return winner
                dealer = 1 - dealer
        except _Stop as stop:
            self.say(f"Game stopped ({stop}). Score: A {self.totals[0]}, B {self.totals[1]}.")
        return None

    def _play_round(self, dealer: int) -> RoundResult:
        self.round_no += 1
        self.ply = 0
        deck = self.deal_rng.permutation(52)
        self.say(
            f"\n=== Round {self.round_no}: dealer {PLAYER_NAMES[dealer]}, {PLAYER_NAMES[1 - dealer]} plays first ==="
        )
        result = play_round(self.rules, deck, dealer, self._choose)
        self.played.append(RecordedRound(tuple(int(c) for c in deck), dealer, tuple(result.moves)))
        return result

    def _end_round(self, result: RoundResult) -> int | None:
        for e in result.events:
            if e.kind == "remainder":
                self.say(f"{PLAYER_NAMES[e.player]} takes the remainder: {pretty_cards(e.cards)} (not a sweep)")
        self.console.print(score_table(result.score, title=f"Round {self.round_no} score"))
        points = result.score.totals
        self.totals = [self.totals[0] + points[0], self.totals[1] + points[1]]
        self.say(f"Game score: A {self.totals[0]}, B {self.totals[1]} (to {self.rules.target}).")
        return game_winner(self.rules, self.totals, points)

    def _choose(self, pos: Position, moves: list[Move]) -> Move:
        """play_round's chooser: announce deals, ask the person or the policy, tell the play."""
        if self.ply % (2 * HAND_SIZE) == 0:
            batch = self.ply // (2 * HAND_SIZE)
            last = " (last)" if batch == BATCHES - 1 else ""
            self.say(f"-- Deal {batch + 1} of {BATCHES}{last} --")
        self.ply += 1
        p = pos.to_move
        if p == HUMAN:
            move = self._ask(pos, moves)
        else:
            move = choose_move(self._shown_to_policy(pos), self.opponent, int(self.choice_rng.integers(2**31)))
        sweep = play(pos, move).sweeps != pos.sweeps
        self.say(f"{self.ply:2d}. {move.describe(p)}" + (f" -- {PLAYER_NAMES[p]} sweeps!" if sweep else ""))
        return move

    def _shown_to_policy(self, pos: Position) -> Position:
        """The opponent's view. Built-in policies read only the size of the person's hand (rollout re-deals
        it), and policies.features.knowledge_of miscounts a hidden hand when its mover is the dealer, so they
        get the position; a Python callable could peek, so it gets the person's hand hidden."""
        return seen_by(pos, pos.to_move) if self.opponent.kind == "python" else pos

    # ------------------------------------------------------------------ the person's turn

    def show(self, pos: Position, moves: list[Move]) -> None:
        """The table, builds, hand, obligations, capture piles and score, then the numbered moves."""
        p, q = HUMAN, 1 - HUMAN
        self.say(
            f"\nRound {self.round_no}, play {self.ply} of 48. Game score: A {self.totals[0]}, "
            f"B {self.totals[1]} (to {self.rules.target})."
        )
        self.say(f"Table: {pretty_cards(pos.loose) if pos.loose else '(no loose cards)'}")
        for b in pos.builds:
            kind = "simple" if b.is_simple else "multiple"
            owner = "yours" if b.owner == p else f"owned by {PLAYER_NAMES[b.owner]}"
            self.say(f"Build of {b.value}: {pretty_cards(b.cards)} ({kind}, {owner})")
        self.say(
            f"Your hand: {pretty_cards(pos.hands[p])}    {PLAYER_NAMES[q]} holds {counted(len(pos.hands[q]), 'card')}"
        )
        piles = []
        for s in (p, q):
            pile = pos.captured[s]
            spades = sum(map(is_spade, pile))
            piles.append(
                f"{PLAYER_NAMES[s]} {counted(len(pile), 'card')}, {counted(spades, 'spade')}, "
                f"{counted(pos.sweeps[s], 'sweep')}"
            )
        self.say("Captured: " + "; ".join(piles))
        duties = obligations(pos, p)
        self.say("You must: " + "; ".join(duties) if duties else "Obligations: none")
        self.show_moves(moves)

    def show_moves(self, moves: list[Move]) -> None:
        """The numbered legal moves (the numbers the person types, and the hint's # column)."""
        self.say("Your moves:")
        for i, m in enumerate(moves, 1):
            self.say(f"  {i:2d}  {m.describe(HUMAN)}")

    def _ask(self, pos: Position, moves: list[Move]) -> Move:
        """Read until a legal choice; commands and refusals re-prompt."""
        self.show(pos, moves)
        while True:
            numbers = "1" if len(moves) == 1 else f"1-{len(moves)}"
            self.console.print(
                f"Your move ({numbers}, hint, position, help, quit): ", end="", markup=False, highlight=False
            )
            line = self.read_line()
            if line == "":
                self.say()
                raise _Stop("end of input")
            if self.echo:
                self.say(line.rstrip("\r\n"))
            text = line.strip().lower()
            if text in ("quit", "q", "exit"):
                raise _Stop("quit")
            if text in ("hint", "h"):
                self.hint(pos)
                self.show_moves(moves)
            elif text in ("position", "p"):
                self.say(json.dumps(seen_by(pos, HUMAN).to_json()))
            elif text in ("help", "?"):
                self.say(HELP)
            elif text == "":
                self.show(pos, moves)
            else:
                move, reason = choice_of(text, moves)
                if move is not None:
                    return move
                self.say(f"refused: {reason}")

    def hint(self, pos: Position) -> None:
        """The analyser's table for what the person sees (the same as casino-sim analyse with these options)."""
        self.say(
            f"(casino-sim analyse POSITION --worlds {self.hint_worlds} --policy {self.hint_policy.name} "
            f"--seed {self.seed}; 'position' prints POSITION)"
        )
        print_table(
            self.console, analysis_table(analyse(seen_by(pos, HUMAN), self.hint_policy, self.hint_worlds, self.seed))
        )


def counted(n: int, noun: str) -> str:
    """'1 card', '3 cards'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def choice_of(text: str, moves: list[Move]) -> tuple[Move | None, str]:
    """The move a typed number names, or None and the reason it names none."""
    try:
        n = int(text)
    except ValueError:
        return None, f"{text!r} is not a move number or a command (type help)"
    if not 1 <= n <= len(moves):
        return None, f"there is no move {n}: choose 1 to {len(moves)}"
    return moves[n - 1], ""
