"""Commands that play or tell whole rounds: deal, replay, play."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from casino_sim.cli.options import BotTimeoutOpt, RulesOpt, console, ensure_compiled, policy_loader
from casino_sim.core.fields import FieldError
from casino_sim.core.rules import get_rules
from casino_sim.policies.names import check_distinct
from casino_sim.runner.random_round import random_round


def deal(
    seed: Annotated[int, typer.Option(help="Seed for the shuffle, the dealer and every choice.")] = 0,
    rules: RulesOpt = "strict",
) -> None:
    """Play one round between random players (two, or three and four: --rules brazilian:players=4) and tell it."""

    ruleset = get_rules(rules)
    _print_round(f"Casino round, rules {ruleset.name}, seed {seed}.", random_round(ruleset, seed))


def _print_round(header: str, result) -> None:
    """A played round as `deal` and `replay` tell it: a header, the story, the score table."""
    # deferred, so that `casino-sim --help` never loads them: rich's tables
    from casino_sim.cli.transcript import round_story, score_table, side_names

    console.print(header, highlight=False, soft_wrap=True)
    for line in round_story(result):
        console.print(line, highlight=False, markup=False)
    if not result.void:
        console.print(score_table(result.score, names=side_names(result.final.rules)))


def replay(
    source: Annotated[Path, typer.Argument(help="A run folder of `simulate --record N`, or a saved game file.")],
    round_: Annotated[
        int,
        typer.Option(
            "--round",
            help="Which round, from 1: the K-th recorded round of a run "
            "(deal order: deal id, then mirror), or round K of a game file.",
        ),
    ] = 1,
) -> None:
    """Tell a recorded round move by move, in the words of `casino-sim deal` (the reference engine checks each play)."""
    # deferred, so that `casino-sim --help` never loads them: pandas
    from casino_sim.runner.recording import load_round, replay_round

    ruleset, rnd = load_round(source, round_)
    _print_round(f"Casino round, rules {ruleset.name}, {rnd.label}.", replay_round(ruleset, rnd))


def play(
    vs: Annotated[
        str, typer.Option("--vs", help="The opponents' policy: a name, a .toml file, module:function or exec:COMMAND.")
    ] = "rollout",
    rules: RulesOpt = "strict",
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            help="2, 3 or 4 players (brazilian and italian); the same as players=N in --rules. Four brazilian "
            "players play in partnerships: your partner is C.",
            show_default=False,
        ),
    ] = None,
    partner: Annotated[
        str | None,
        typer.Option(
            "--partner", help="Your partner's policy with teams (default: the --vs policy).", show_default=False
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the shuffles and the opponent (default: random).")] = None,
    hint_worlds: Annotated[int, typer.Option("--hint-worlds", help="Worlds the hint's analysis samples.")] = 1000,
    hint_policy: Annotated[str, typer.Option("--hint-policy", help="The hint's play-out policy.")] = "expert",
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Write the finished rounds to this game file (JSON), for `casino-sim replay FILE --round K`."
        ),
    ] = None,
    bot_timeout: BotTimeoutOpt = None,
) -> None:
    """Play a game at the terminal against a policy in every other seat (--players; with teams, --partner plays
    your partner); moves are chosen by number, 'hint' analyses."""
    # deferred, so that `casino-sim --help` never loads them: numba, pandas
    from casino_sim.cli.terminal_game import TerminalGame, random_seed
    from casino_sim.runner.recording import write_game
    from casino_sim.runner.rundir import writable_folder

    ruleset = rules_with_players(rules, players)
    if partner is not None and not ruleset.teams:
        raise FieldError(
            "partner", f"{{partner}}: {ruleset.name} has no partnerships (four brazilian players, or teams=true)"
        )
    opponent, ally = policy_loader()(vs), None if partner is None else policy_loader()(partner)  # resolved once
    check_distinct([(vs, opponent), (partner or vs, ally or opponent)])  # the table and saved game name seats by policy
    if save is not None:
        writable_folder(save.parent if str(save.parent) else Path("."))
        if save.is_dir():
            raise FieldError("save", f"{{save}} {save}: is a folder; name a file")
    game = TerminalGame(
        ruleset,
        opponent,
        random_seed() if seed is None else seed,
        policy_loader()(hint_policy),
        hint_worlds,
        console=console,
        read_line=sys.stdin.readline,
        echo=not sys.stdin.isatty(),
        partner=ally,
    )
    if any(p.searches for p in (game.policy_of(1), game.partner) if p is not None):  # a hint compiles as it is asked
        ensure_compiled("rollout")
    try:
        game.run()
    finally:
        if save is not None and game.played:
            write_game(save, game.rules.name, game.played)
            console.print(
                f"{len(game.played)} round(s) saved to {save}; replay with  casino-sim replay {save} --round K",
                highlight=False,
            )


def rules_with_players(rules: str, players: int | None):
    """The rule set of --rules with --players applied; --players that contradicts a players= in --rules is an
    error (the same number twice is fine)."""

    ruleset = get_rules(rules)
    if players is None:
        return ruleset
    if players not in (2, 3, 4):
        raise FieldError("players", f"must be 2, 3 or 4, got {players}")
    if re.search(r"[:,]\s*players\s*=", rules):
        if ruleset.players != players:
            raise FieldError(
                ("players", "rules"),
                f"{{players}} {players} contradicts {{rules}} {rules}: give the number of players once",
            )
        return ruleset
    base, _, spec = rules.partition(":")
    return get_rules(f"{base}:{','.join(filter(None, (spec, f'players={players}')))}")
