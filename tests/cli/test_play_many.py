"""`casino-sim play` with three and four players, driven by scripted input: seats, piles, turns, the game's end."""

from __future__ import annotations

import re

import pytest

from casino_sim.cli.terminal_game import obligations
from tests.support.cli import assert_one_line_error, run
from tests.support.positions import table

PLAY = re.compile(r"^\s*\d+\. ([A-D]) ", re.M)
HEADER = re.compile(r"^=== Round (\d+): dealer ([A-D]), ([A-D]) plays first, then ([A-D, ]+) ===$", re.M)
PILE = re.compile(r"([A-D](?:\+[A-D])?) (\d+) cards?, (\d+) spades?, (\d+) sweeps?")


def play(*args: str, stdin: str) -> str:
    out = run("play", "--seed", "4", "--hint-worlds", "20", *args, stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    return out.stdout


def piles(line: str) -> dict[str, tuple[int, int, int]]:
    """'A 3 cards, 1 spade, 0 sweeps; ...' -> {'A': (3, 1, 0), ...}."""
    return {m.group(1): tuple(map(int, m.group(2, 3, 4))) for m in PILE.finditer(line)}


def first_round(text: str) -> str:
    return text.split("=== Round 2", 1)[0]


def test_four_brazilian_players_seat_the_person_with_a_computer_partner():
    text = play("--players", "4", "--rules", "brazilian", "--vs", "greedy", "--partner", "expert", stdin="1\n" * 12)
    assert "you are A, your partner C is played by expert; your opponents B and D are played by greedy" in text
    round1 = first_round(text)
    header = HEADER.search(round1)
    order = [header.group(3), *header.group(4).split(", ")]
    assert order[-1] == header.group(2) and sorted(order) == list("ABCD")  # the dealer plays last
    players = PLAY.findall(round1)
    assert len(players) == 48 and players == order * 12  # turns pass in order, 12 plays each
    assert [f"-- Deal {k} of 3" in round1 for k in (1, 2, 3)] == [True] * 3 and "Deal 3 of 3 (last)" in round1
    assert "C (your partner) holds" in round1 and "Your turn (A); then B" in round1


def test_team_piles_are_the_partners_piles_together_and_score_the_prizes():
    text = first_round(play("--rules", "brazilian:players=4", "--vs", "greedy", stdin="1\n" * 12))
    shown = re.findall(r"^Captured: (.*)\nTeam piles: (.*)$", text, re.M)
    assert len(shown) == 12
    for players, teams in shown:
        p, t = piles(players), piles(teams)
        for team in ("A+C", "B+D"):
            assert t[team] == tuple(x + y for x, y in zip(p[team[0]], p[team[2]]))
    end = piles(re.search(r"^Team piles: (.*)\.$", text, re.M).group(1))
    assert end["A+C"][0] + end["B+D"][0] == 52
    cells = re.search(r"│ most cards\s+│\s+(\d+) │\s+(\d+) │", text).groups()
    assert "A+C" in re.search(r"┃ category .*", text).group(0)
    more = "A+C" if end["A+C"][0] > end["B+D"][0] else "B+D" if end["B+D"][0] > end["A+C"][0] else None
    assert list(map(int, cells)) == [3 if more == "A+C" else 0, 3 if more == "B+D" else 0]
    a, b = map(int, re.search(r"│ total\s+│\s+(\d+) │\s+(\d+) │", text).groups())
    assert f"Game score: A+C {a}, B+D {b} (to 21)." in text


def test_three_players_play_a_whole_game_to_the_single_highest_total():
    text = play("--players", "3", "--rules", "italian", "--vs", "greedy", stdin="1\n" * 3000)
    won = re.search(r"^([ABC]) wins the game: A (\d+), B (\d+), C (\d+)\.$", text, re.M)
    assert won, text[-2000:]
    totals = dict(zip("ABC", map(int, won.group(2, 3, 4))))
    assert max(totals.values()) >= 21 and sorted(totals.values())[-2] < totals[won.group(1)]
    dealers = [m.group(2) for m in HEADER.finditer(text)]
    for before, after in zip(dealers, dealers[1:]):
        assert after == before or after == "ABC"["ABC".index(before) + 1 - 3]  # the deal passes on (void: again)
    assert text.count("Nobody captured") == sum(1 for x, y in zip(dealers, dealers[1:]) if x == y)
    assert "Game stopped" not in text and "Team piles" not in text


def test_four_italian_players_play_alone():
    text = play("--rules", "italian:players=4", "--vs", "greedy", stdin="1\n" * 12)
    assert "you are A, B, C and D are played by greedy" in text
    assert "Team piles" not in text and "partner" not in text
    assert re.search(r"┃ category\s+┃ A ┃ B ┃ C ┃ D ┃", text)
    assert re.search(r"^Game score: A \d+, B \d+, C \d+, D \d+ \(to 21\)\.$", text, re.M)


def test_players_and_the_rules_option_are_one_setting():
    flags = play("--players", "4", "--rules", "brazilian", "--vs", "greedy", stdin="1\n1\nquit\n")
    option = play("--rules", "brazilian:players=4", "--vs", "greedy", stdin="1\n1\nquit\n")
    both = play("--players", "4", "--rules", "brazilian:players=4", "--vs", "greedy", stdin="1\n1\nquit\n")
    assert flags == option == both and "rules brazilian:players=4," in flags


def test_the_hint_and_a_searching_opponent_with_four_players():
    text = play("--players", "4", "--rules", "brazilian", "--vs", "rollout", stdin="hint\n1\nquit\n")
    assert "A to move: A+C's points minus B+D's" in text
    assert re.search(r"^\s*\d+\. [BCD] ", text, re.M)  # the rollout opponents played


def test_a_saved_four_player_game_replays_in_the_same_words(tmp_path):
    saved = tmp_path / "game.json"
    text = play("--rules", "italian:players=4,teams=true", "--vs", "greedy", "--save", str(saved), stdin="1\n" * 12)
    told = [re.sub(r" -- [A-D] sweeps!$", "", line.strip()) for line in re.findall(r"^\s*\d+\. [A-D] .*$", text, re.M)]
    replay = run("replay", str(saved), "--round", "1")
    assert replay.returncode == 0, replay.stderr
    assert [line.strip() for line in re.findall(r"^\s*\d+\. [A-D] .*$", replay.stdout, re.M)] == told[:48]


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--players", "5", "--rules", "brazilian"], "--players must be 2, 3 or 4, got 5"),
        (["--players", "3", "--rules", "brazilian:players=4"], "--players 3 contradicts --rules brazilian:players=4"),
        (["--players", "3"], "strict is a two-player rule set"),
        (["--rules", "brazilian:players=3,teams=true"], "teams=true needs players=4"),
        (["--players", "3", "--rules", "italian", "--partner", "greedy"], "--partner"),
        (["--players", "4", "--rules", "brazilian", "--partner", "oracle"], "unknown policy"),
    ],
)
def test_bad_many_player_options_are_one_line_errors(args, fragment):
    assert_one_line_error(run("play", *args, stdin="1\n"), fragment)


def test_the_italian_obligation_in_words_with_more_players():
    pos = table("italian:players=4", ["7D KC", "6D 2D", "QS 5D", "3D AS"], "TH JH", must_act=[True] + [False] * 3)
    assert obligations(pos, 0) == [
        "you may not trail this turn (you built on your last turn and no opponent captured or built since)"
    ]
    assert obligations(pos, 1) == []


def test_python_players_see_only_their_own_hand():
    import io

    from rich.console import Console

    from casino_sim.cli.terminal_game import TerminalGame
    from casino_sim.core.rules import get_rules
    from tests.support.policies import get_policy, register_policy

    views = []

    def peeker(pos, moves, rng):
        views.append((pos.to_move, [h is None for h in pos.hands]))
        return moves[-1]

    lines = iter(["1\n"] * 12)
    out = io.StringIO()
    game = TerminalGame(
        get_rules("brazilian:players=4"),
        register_policy("test-peeker-many", peeker),
        9,
        get_policy("greedy"),
        10,
        console=Console(file=out, width=100),
        read_line=lambda: next(lines, ""),
        partner=get_policy("test-peeker-many"),
    )
    assert game.run() is None  # the input ran out in round 2
    assert len(views) >= 36  # B, C and D play 12 times each in round 1 (and some of round 2 before A)
    assert all(hidden == [q != p for q in range(4)] for p, hidden in views)
