"""`casino-sim play` driven by scripted input: whole rounds and games, refusals, hints, the end of input."""

from __future__ import annotations

import json
import re

import pytest

from casino_sim.cli.terminal_game import choice_of, obligations
from casino_sim.reference.score import CATEGORY_LABELS
from tests.support.cli import assert_one_line_error, run
from tests.support.positions import position

MOVE_LINE = re.compile(r"^\s+(\d+)\s{2}(\S.*)$")
PLAY_LINE = re.compile(r"^\s*(\d+)\. (A|B) (.*?)( -- [AB] sweeps!)?$")


def play(*args: str, stdin: str):
    out = run("play", "--seed", "4", "--hint-worlds", "40", *args, stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    return out.stdout


def first_listed_and_played(text: str) -> list[tuple[str, str]]:
    """For each turn of A: (move 1 as listed, the play then told)."""
    pairs, listed = [], None
    for line in text.splitlines():
        m = MOVE_LINE.match(line)
        if m and m.group(1) == "1":
            listed = m.group(2)
        p = PLAY_LINE.match(line)
        if p and p.group(2) == "A":
            pairs.append((listed, f"A {p.group(3)}"))
    return pairs


def test_a_scripted_round_is_played_to_its_score_table():
    text = play("--vs", "greedy", stdin="1\n" * 24)  # A's 24 plays of round 1, then the input ends
    played = first_listed_and_played(text)
    assert len(played) >= 24
    assert all(listed == told for listed, told in played[:24])
    assert len(re.findall(r"^\s*\d+\. [AB] ", text, re.M)) >= 48  # both players' plays are told
    assert all(f"-- Deal {k} of 6" in text for k in range(1, 7)) and "(last)" in text
    assert "Round 1 score" in text
    for label in CATEGORY_LABELS.values():
        assert label in text
    a, b = map(int, re.search(r"│ total\s+│\s+(\d+) │\s+(\d+) │", text).groups())
    assert f"Game score: A {a}, B {b}" in text
    assert text.rstrip().endswith(f"Game stopped (end of input). Score: A {a}, B {b}.")


def test_a_whole_game_ends_with_a_winner():
    text = play("--vs", "random", "--rules", "brazilian", stdin="1\n" * 2000)
    winner = re.search(r"^(A|B) wins the game, (\d+) to (\d+)\.$", text, re.M)
    assert winner, text[-2000:]
    assert int(winner.group(2)) >= 21 > 0 and int(winner.group(2)) > int(winner.group(3))
    last_score = re.findall(r"Game score: A (\d+), B (\d+)", text)[-1]
    assert sorted(map(int, last_score), reverse=True) == [int(winner.group(2)), int(winner.group(3))]
    assert "Game stopped" not in text


def test_bad_choices_are_refused_with_the_reason_and_asked_again():
    text = play("--vs", "greedy", stdin="seven\n0\n99\n-1\n\n1\nquit\n")
    assert "refused: 'seven' is not a move number or a command" in text
    assert "refused: there is no move 0" in text and "refused: there is no move 99" in text
    assert "refused: there is no move -1" in text
    assert re.search(r"^\s*[12]\. A ", text, re.M)  # the 1 after the refusals was played
    assert "Game stopped (quit)" in text


def test_the_hint_is_the_analysers_table(tmp_path):
    text = play("--vs", "rollout", stdin="position\nhint\nquit\n")
    seen = json.loads(next(line for line in text.splitlines() if line.startswith('{"rules"')))
    assert seen["hands"][1 - seen["to_move"]] is None  # the hint knows only what the person sees
    path = tmp_path / "seen.json"
    path.write_text(json.dumps(seen))
    out = run("analyse", str(path), "--worlds", "40", "--seed", "4")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() in text
    assert "casino-sim analyse POSITION --worlds 40 --policy expert --seed 4" in text


def test_the_hint_numbers_moves_as_the_move_list_does_and_lists_them_again():
    text = play("--vs", "greedy", stdin="hint\nquit\n")
    before, after = text.split("(casino-sim analyse POSITION", 1)
    listed = {int(m.group(1)): m.group(2).strip() for m in map(MOVE_LINE.match, before.splitlines()) if m}
    rows = re.findall(r"^│\s*(\d+) │ (.*?)\s*│\s*[+-]\d", after, re.M)
    assert len(rows) == len(listed) > 1
    assert {int(n): move for n, move in rows} == listed  # each hint row carries the move list's own number
    assert [int(n) for n, _ in rows] != sorted(listed) or len(listed) == 1  # best first, not in list order
    hint_end = after.index("best first; # is the move's number")
    relisted = [m.group(2).strip() for m in map(MOVE_LINE.match, after[hint_end:].splitlines()) if m]
    assert relisted[: len(listed)] == [listed[k] for k in sorted(listed)]  # the list is shown again after the hint


def test_counts_and_the_prompt_read_as_english():
    text = play("--vs", "greedy", stdin="1\n" * 24)
    assert "B holds 1 cards" not in text and "1 card" in text
    assert re.search(r"B holds 1 card\b", text)
    assert "(1-1, " not in text and "Your move (1, hint" in text  # the last play of a batch has one move


def test_the_screen_shows_table_hand_piles_score_and_obligations():
    text = play("--vs", "greedy", stdin="")
    assert "Table: " in text and "Your hand: " in text and re.search("B holds [34] cards", text)
    assert "Captured: A 0 cards" in text and "Game score: A 0, B 0 (to 21)" in text
    assert text.rstrip().endswith("Game stopped (end of input). Score: A 0, B 0.")


def test_obligations_in_words():
    own = position("7D 7S 2D", None, loose="8D", builds=[(7, "5C 2H", 0)], captured=("4S 4H", ""))
    duties = obligations(own, 0)
    assert any("keep a 7" in d for d in duties) and any("may not trail" in d for d in duties)
    assert obligations(own, 1) == []
    brazilian = position("7D 7S 2D", None, loose="8D", builds=[(7, "5C 2H", 0)], rules="brazilian")
    assert not any("may not trail" in d for d in obligations(brazilian, 0))
    italian = position("7D 7S 2D", None, loose="8D", rules="italian", must_act=(True, False))
    assert any("may not trail this turn" in d for d in obligations(italian, 0))


def test_choice_of_numbers():
    moves = ["m1", "m2"]
    assert choice_of(" 2 ", moves) == ("m2", "")
    assert choice_of("3", moves)[0] is None and "1 to 2" in choice_of("3", moves)[1]


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["--vs", "oracle"], "unknown policy"),
        (["--rules", "poker"], "unknown rule set"),
        (["--hint-worlds", "0"], "--hint-worlds"),
        (["--hint-policy", "rollout"], "random or a heuristic"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_bad_options_are_one_line_errors(args, fragment):
    assert_one_line_error(run("play", *args, stdin="1\n"), fragment)


def test_a_python_opponent_never_sees_the_persons_hand():
    import io

    from rich.console import Console

    from casino_sim.cli.terminal_game import TerminalGame
    from casino_sim.core.rules import get_rules
    from tests.support.policies import get_policy, register_policy

    views = []

    def peeker(pos, moves, rng):
        views.append(pos.hands[1 - pos.to_move])
        return moves[-1]  # captures and builds come after trails: the table never piles up

    lines = iter(["1\n"] * 24)
    out = io.StringIO()
    game = TerminalGame(
        get_rules("strict"),
        register_policy("test-peeker", peeker),
        9,
        get_policy("greedy"),
        10,
        console=Console(file=out, width=100),
        read_line=lambda: next(lines, ""),
    )
    assert game.run() is None  # the input ran out in round 2
    assert len(views) == 24 and all(v is None for v in views)
    assert "Round 1 score" in out.getvalue()


def test_a_saved_game_replays_in_the_same_words(tmp_path):
    saved = tmp_path / "game.json"
    text = play("--vs", "greedy", "--save", str(saved), stdin="1\n" * 24)
    assert "1 round(s) saved" in text
    told = [m.group(0).strip() for m in re.finditer(r"^\s*\d+\. [AB] .*$", text, re.M)]
    replay = run("replay", str(saved), "--round", "1")
    assert replay.returncode == 0, replay.stderr
    replayed = [m.group(0).strip() for m in re.finditer(r"^\s*\d+\. [AB] .*$", replay.stdout, re.M)]
    strip = [re.sub(r" -- [AB] sweeps!$", "", t) for t in told[:48]]
    assert replayed == strip
    a, b = map(int, re.search(r"│ total\s+│\s+(\d+) │\s+(\d+) │", text).groups())
    assert re.search(rf"│ total\s+│\s+{a} │\s+{b} │", replay.stdout)
