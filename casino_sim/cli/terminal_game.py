"""A game of Casino at the terminal: a person (player A) against policies (B, or B, C and D; with teams C is A's
partner).

Input and output are injected (a line reader and a rich Console), so tests
drive whole rounds with scripted lines. Moves are chosen by number; bad input
is refused with the reason and asked again; the end of input ends the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
from rich.console import Console

from casino_sim.analysis import analyse, analysis_table, print_table
from casino_sim.analysis.analyse import check_analysis_args
from casino_sim.cli.options import ensure_compiled
from casino_sim.cli.transcript import counted, pile_text, piles_told, score_table, side_names
from casino_sim.core.cards import pretty_cards
from casino_sim.core.deal import HAND_SIZE, batches
from casino_sim.core.lists import listed
from casino_sim.core.rules import RuleSet
from casino_sim.policies.decide import choose_move
from casino_sim.policies.policy import Policy
from casino_sim.reference.game import MAX_ROUNDS, game_winner
from casino_sim.reference.moves import PLAYER_NAMES, Move
from casino_sim.reference.play import play
from casino_sim.reference.position import Position
from casino_sim.reference.round import RoundResult, play_round
from casino_sim.reference.score import side_piles
from casino_sim.reference.seats import side_of, sides, turn_order
from casino_sim.runner.recording import RecordedRound

HUMAN = 0  # the person plays A; policies play the other seats (with teams, C is A's partner)
HELP = (
    "Type a move's number to play it; 'hint' ranks your moves (the analyser); 'position' prints what you see "
    "as position JSON (for casino-sim analyse); 'help'; 'quit'."
)


class _Stop(Exception):
    """The person quit, or the input ended."""


def random_seed() -> int:
    """A fresh game seed from the operating system's entropy (shown, so the game can be replayed)."""
    return int(np.random.SeedSequence().generate_state(1)[0] >> 1)


def obligations(pos: Position, player: int) -> list[str]:
    """The rules that bind `player` right now (docs/rules.md sections 4 and 5), in words."""
    owned = [b.value for b in pos.builds if b.owner == player]
    lines = [f"keep a {v} in hand: you own the build of {v} and must be able to capture it" for v in owned]
    if owned and pos.rules.no_trail_while_owner:
        lines.append("you may not trail while you own a build")
    if pos.must_act[player]:
        since = "no opponent captured or built since"  # with two players: the opponent trailed (docs/rules.md 11)
        lines.append(f"you may not trail this turn (you built on your last turn and {since})")
    return lines


def scores_text(names: list[str], totals: list[int]) -> str:
    """'A 3, B 5' (or 'A+C 3, B+D 5'): a total per side."""
    return ", ".join(f"{name} {t}" for name, t in zip(names, totals))


class TerminalGame:
    """One game to the rule set's target between the person and `opponent` (every other seat; with teams,
    `partner` plays the person's partner when given), told on `console`."""

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
        partner: Policy | None = None,
    ):
        check_analysis_args(hint_policy, hint_worlds, seed, prefix="hint_")
        self.rules, self.opponent, self.seed = rules, opponent, seed
        self.partner = partner if rules.teams and partner is not None else opponent
        self.names = side_names(rules)  # A and B, or A+C and B+D with teams
        self.hint_policy, self.hint_worlds = hint_policy, hint_worlds
        self.console, self.read_line = console, read_line
        self.echo = echo  # piped input: write each line read after its prompt, as a terminal would show it
        deal_seq, choice_seq = np.random.SeedSequence(seed).spawn(2)
        self.deal_rng = np.random.default_rng(deal_seq)  # dealer and shuffles: independent of the person's input
        self.choice_rng = np.random.default_rng(choice_seq)  # the opponent's decisions
        self.totals = [0] * rules.n_sides
        self.round_no = 0
        self.ply = 0
        self.played: list[RecordedRound] = []  # every finished round, for `play --save` and `replay`

    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    # ------------------------------------------------------------------ the game

    def policy_of(self, player: int) -> Policy:
        """The policy that plays a computer seat: the partner's, or the opponents'."""
        return self.partner if self.is_partner(player) else self.opponent

    def is_partner(self, player: int) -> bool:
        """Whether `player` is the person's partner (teams only)."""
        return self.rules.teams and player != HUMAN and side_of(self.rules, player) == side_of(self.rules, HUMAN)

    def seating(self) -> str:
        """Who plays which seat, in words."""
        if not self.rules.teams:
            others = [PLAYER_NAMES[p] for p in range(1, self.rules.players)]
            return f"you are A, {listed(others)} {'is' if len(others) == 1 else 'are'} played by {self.opponent.name}"
        return (
            f"you are A, your partner C is played by {self.partner.name}; your opponents B and D are played by "
            f"{self.opponent.name} (partners: {' against '.join(self.names)})"
        )

    def run(self) -> int | None:
        """Play rounds until a side wins or the input ends; returns the winning side (None when stopped)."""
        self.say(
            f"Casino, rules {self.rules.name}, seed {self.seed}: {self.seating()}. Game to {self.rules.target}. {HELP}"
        )
        dealer = int(self.deal_rng.integers(self.rules.players))
        try:
            for _ in range(MAX_ROUNDS):
                result = self._play_round(dealer)
                if result.void:
                    self.say("Nobody captured: the round is void and is dealt again.")
                    continue
                winner = self._end_round(result)
                if winner is not None:
                    self.say(self.victory(winner))
                    return winner
                dealer = (dealer + 1) % self.rules.players
        except _Stop as stop:
            self.stopped(str(stop))
        except KeyboardInterrupt:  # at the prompt or while a policy thinks: the line ended, the score said, exit 130
            self.say()
            self.stopped("Ctrl-C")
            raise
        return None

    def stopped(self, why: str) -> None:
        """The last line of a game not played to its end, whatever ended it (quit, end of input, Ctrl-C)."""
        self.say(f"Game stopped ({why}). Score: {scores_text(self.names, self.totals)}.")

    def victory(self, winner: int) -> str:
        """The last line of a won game: the winner and the totals."""
        name = self.names[winner]
        if len(self.totals) == 2:
            verb = "win" if self.rules.teams else "wins"
            return f"{name} {verb} the game, {max(self.totals)} to {min(self.totals)}."
        return f"{name} wins the game: {scores_text(self.names, self.totals)}."

    def _play_round(self, dealer: int) -> RoundResult:
        self.round_no += 1
        self.ply = 0
        deck = self.deal_rng.permutation(52)
        order = [PLAYER_NAMES[p] for p in turn_order(dealer, self.rules.players)]
        then = f", then {', '.join(order[1:])}" if order[1:-1] else ""  # nobody between the first and the dealer
        self.say(f"\n=== Round {self.round_no}: dealer {order[-1]}, {order[0]} plays first{then} ===")
        result = play_round(self.rules, deck, dealer, self._choose)
        self.played.append(RecordedRound(tuple(int(c) for c in deck), dealer, tuple(result.moves)))
        return result

    def _end_round(self, result: RoundResult) -> int | None:
        for e in result.events:
            if e.kind == "remainder":
                self.say(f"{PLAYER_NAMES[e.player]} takes the remainder: {pretty_cards(e.cards)} (not a sweep)")
        if piles_told(self.rules):
            self.say(f"Piles: {self.piles_text(result.final)}.")
            if self.rules.teams:
                self.say(f"Team piles: {self.team_piles_text(result.final)}.")
        self.console.print(score_table(result.score, title=f"Round {self.round_no} score", names=self.names))
        points = result.score.totals
        self.totals = [t + pt for t, pt in zip(self.totals, points)]
        self.say(f"Game score: {scores_text(self.names, self.totals)} (to {self.rules.target}).")
        return game_winner(self.rules, self.totals, points)

    def piles_text(self, pos: Position) -> str:
        """Each player's capture pile: cards, spades, sweeps."""
        return "; ".join(pile_text(PLAYER_NAMES[s], pos.captured[s], pos.sweeps[s]) for s in range(pos.players))

    def team_piles_text(self, pos: Position) -> str:
        """Each team's two piles as one (what the prizes count), with the team's sweeps."""
        team_sweeps = [sum(pos.sweeps[p] for p in side) for side in sides(self.rules, pos.players)]
        return "; ".join(map(pile_text, self.names, side_piles(self.rules, pos.captured), team_sweeps))

    def _choose(self, pos: Position, moves: list[Move]) -> Move:
        """play_round's chooser: announce deals, ask the person or the policy, tell the play."""
        n = self.rules.players
        if self.ply % (n * HAND_SIZE) == 0:
            batch, total = self.ply // (n * HAND_SIZE), batches(n)
            last = " (last)" if batch == total - 1 else ""
            self.say(f"-- Batch {batch + 1} of {total}{last} --")
        self.ply += 1
        p = pos.to_move
        if p == HUMAN:
            move = self._ask(pos, moves)
        else:
            move = choose_move(self._shown_to_policy(pos), self.policy_of(p), int(self.choice_rng.integers(2**31)))
        sweep = play(pos, move).sweeps != pos.sweeps
        self.say(f"{self.ply:2d}. {move.describe(p)}" + (f" -- {PLAYER_NAMES[p]} sweeps!" if sweep else ""))
        return move

    def _shown_to_policy(self, pos: Position) -> Position:
        """A computer player's view. Built-in policies read only the sizes of the other hands (rollout re-deals
        them), and policies.features.knowledge_of miscounts a hidden hand when its mover is the dealer, so they
        get the position; a Python callable could peek, so it gets the other hands hidden."""
        return pos.seen_by(pos.to_move) if self.policy_of(pos.to_move).plays_in_python else pos

    # ------------------------------------------------------------------ the person's turn

    def show(self, pos: Position, moves: list[Move]) -> None:
        """The table, builds, hand, obligations, capture piles and score, then the numbered moves."""
        p = HUMAN
        self.say(
            f"\nRound {self.round_no}, play {self.ply} of 48. Game score: {scores_text(self.names, self.totals)} "
            f"(to {self.rules.target})."
        )
        if pos.dealer is not None:  # docs/notation.md: a two-player position names no dealer to mark
            self.say(f"Your turn (A); then {', '.join(self.after_you(pos))}.")
        self.say(f"Table: {pretty_cards(pos.loose) if pos.loose else '(no loose cards)'}")
        for b in pos.builds:
            kind = "simple" if b.is_simple else "multiple"
            owner = "yours" if b.owner == p else f"owned by {self.who(b.owner)}"
            self.say(f"Build of {b.value}: {pretty_cards(b.cards)} ({kind}, {owner})")
        held = ", ".join(f"{self.who(q)} holds {counted(len(pos.hands[q]), 'card')}" for q in range(1, pos.players))
        self.say(f"Your hand: {pretty_cards(pos.hands[p])}    {held}")
        self.say(f"Captured: {self.piles_text(pos)}")
        if self.rules.teams:
            self.say(f"Team piles: {self.team_piles_text(pos)}")
        duties = obligations(pos, p)
        self.say("You must: " + "; ".join(duties) if duties else "Obligations: none")
        self.show_moves(moves)

    def who(self, player: int) -> str:
        """A player's letter, marked when they are the person's partner."""
        return PLAYER_NAMES[player] + (" (your partner)" if self.is_partner(player) else "")

    def after_you(self, pos: Position) -> list[str]:
        """The players who play after the person until the person's next turn, the dealer marked."""
        return [self.who(q) + (" (dealer)" if q == pos.dealer else "") for q in range(1, pos.players)]

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
                self.say(json.dumps(pos.seen_by(HUMAN).to_json()))
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
        ensure_compiled("analyse")
        print_table(
            self.console, analysis_table(analyse(pos.seen_by(HUMAN), self.hint_policy, self.hint_worlds, self.seed))
        )


def choice_of(text: str, moves: list[Move]) -> tuple[Move | None, str]:
    """The move a typed number names, or None and the reason it names none."""
    try:
        n = int(text)
    except ValueError:
        return None, f"{text!r} is not a move number or a command (type help)"
    if not 1 <= n <= len(moves):
        return None, f"there is no move {n}: choose 1 to {len(moves)}"
    return moves[n - 1], ""
