"""Bad arguments to the Python API raise one clear exception naming the argument, before any work starts."""

from __future__ import annotations

import pytest

import casino_sim as cs
from tests.support.cli import EXAMPLE

BAD_VALUES = [  # (call, exception, what the one-line message holds)
    (lambda: cs.simulate(deals=0), ValueError, "deals must be between 1 and"),
    (lambda: cs.simulate(deals=5, seed=-1), ValueError, "seed must be >= 0"),
    (lambda: cs.simulate(deals=5, policy="nope"), ValueError, "unknown policy 'nope'"),
    (lambda: cs.simulate(deals=5, rules="chess"), ValueError, "unknown rule set 'chess'"),
    (lambda: cs.simulate(deals=5, card_deals="many"), ValueError, "card_deals must be a number of deals or auto"),
    (lambda: cs.simulate(deals=5, games=True, card_deals=3), ValueError, "card_deals replays single rounds"),
    (lambda: cs.simulate(deals="5"), TypeError, "deals must be a whole number, got '5'"),
    (lambda: cs.simulate(deals=5, mirrored="no"), TypeError, "mirrored must be True or False"),
    (lambda: cs.simulate(deals=5, seats=["expert", 3]), TypeError, "seats must be a string"),
    (lambda: cs.simulate(deals=5, seats="expert,greedy,random"), ValueError, "seats"),
    (lambda: cs.simulate(deals=5, backend="gpu"), ValueError, "unknown backend 'gpu'"),
    (lambda: cs.moves("{not json"), ValueError, "the position is not valid JSON"),
    (lambda: cs.moves({"hands": [["ZZ"], []]}), ValueError, "bad card 'ZZ'"),
    (lambda: cs.moves(42), TypeError, "position must be"),
    (lambda: cs.moves(EXAMPLE, engine="fast"), ValueError, "fast"),
    (lambda: cs.analyse(EXAMPLE, worlds=1), ValueError, "worlds must be a whole number from 2"),
    (lambda: cs.analyse(EXAMPLE, policy="rollout"), ValueError, "policy (the play-out policy) must be random or"),
    (lambda: cs.tournament(["random"], games=3), ValueError, "a tournament needs 2 to"),
    (lambda: cs.tournament(["random", "greedy"], games=0), ValueError, "games must be between 1 and"),
    (lambda: cs.tournament("random greedy"), TypeError, "policies must be"),
    (lambda: cs.open_run("/no/such/run"), ValueError, "is not a run folder"),
    (lambda: cs.knockout("expert", 0), ValueError, "deals must be between 1 and"),
    (lambda: cs.knockout("random", 5), ValueError, "knockout sets a heuristic's feature weights to zero"),
    (lambda: cs.knockout("expert", 5, pairs="sweeps"), ValueError, "pairs: 'sweeps' is not two features A,B"),
    (lambda: cs.knockout("expert", 5, precision=-1), ValueError, "precision must be a half-width in points"),
    (lambda: cs.knockout(3), TypeError, "policy must be a string, got 3"),
    (lambda: cs.knockout("expert", 5, pairs=[("a", "b")]), TypeError, "pairs must be a string"),
    (lambda: cs.regret([]), ValueError, "give 1 to 16 policies, got 0"),
    (lambda: cs.regret("expert", decisions=0), ValueError, "decisions must be between 1 and"),
    (lambda: cs.regret("expert", rules="brazilian:players=3"), ValueError, "regret needs two players"),
    (lambda: cs.regret("expert", vs="nope"), ValueError, "unknown policy 'nope'"),
    (lambda: cs.regret("expert", bot_timeout=-1.0), ValueError, "bot_timeout must be a positive number of seconds"),
    (lambda: cs.regret(["expert", 2]), TypeError, "policies must be a string, got 2"),
    (lambda: cs.regret("expert", decisions="5"), TypeError, "decisions must be a whole number or None"),
    (lambda: cs.findings("random"), ValueError, "policies must name 2 to 16 policies, weakest first, got 1"),
    (lambda: cs.findings(players="2,5"), ValueError, "players takes some of 2, 3, 4, teams, got 2,5"),
    (lambda: cs.findings(rules="italian:players=3"), ValueError, "rules names the game and players the tables"),
    (lambda: cs.findings(resamples=10), ValueError, "resamples must be at least 100, got 10"),
    (lambda: cs.findings(["random", "nope"]), ValueError, "unknown policy 'nope'"),
    (lambda: cs.findings(["random", 1]), TypeError, "policies must be a string, got 1"),
    (lambda: cs.findings(deals=2.0), TypeError, "deals must be a whole number, got 2.0"),
    (lambda: cs.tune(population=1), ValueError, "population must be at least 2, got 1"),
    (lambda: cs.tune(start="rollout"), ValueError, "start must be a heuristic policy"),
    (lambda: cs.tune(against="greedy,nosuch"), ValueError, "unknown policy 'nosuch'"),
    (lambda: cs.tune(against="expert,"), ValueError, "against must name one or more policies, separated by commas"),
    (lambda: cs.findings("random,,greedy"), ValueError, "policies must name one or more policies, separated by commas"),
    (lambda: cs.tune(name="expert"), ValueError, "name 'expert' is the name of a built-in policy"),
    (lambda: cs.tune(sigma="big"), TypeError, "sigma must be a number, got 'big'"),
    (lambda: cs.tune(against=[None]), TypeError, "against must be a string, got None"),
]


@pytest.mark.parametrize("call, error, words", BAD_VALUES, ids=[w for _, _, w in BAD_VALUES])
def test_a_bad_argument_raises_one_clear_line(call, error, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    assert words in message and "\n" not in message
    assert "--" not in message  # the API's argument names, not the command's options
    assert caught.value.__context__ is None or caught.value.__suppress_context__  # no chained deep traceback
    assert not (tmp_path / "results").exists()  # refused before any folder is made


def test_an_unknown_report_kind_names_the_kinds_there_are(tmp_path):
    run = cs.simulate(deals=4, seed=1, card_deals=0, out=tmp_path / "r", reports=False)
    why = r"\(it has no paired deals: run simulate with --card-deals N\)"
    with pytest.raises(ValueError, match=f"no report 'card-swap' for this run {why}; its kinds: summary, score"):
        run.report("card-swap")
    with pytest.raises(ValueError, match="report 'sweeps' has no chart 'pie'; its charts: sweeps"):
        run.chart("sweeps", "pie")
    with pytest.raises(ValueError, match="is not a tournament folder"):
        cs.Tournament(run.path)


def test_a_folder_in_use_is_refused_in_the_api_s_words(tmp_path):
    """The refusal names force=True and out, never the command's --force and --out (the API has no resume:
    it names the command that finishes the run)."""
    for call in (
        lambda out: cs.simulate(deals=5, out=out),
        lambda out: cs.tournament(["random", "greedy"], games=2, out=out),
    ):
        (tmp_path / "manifest.json").write_text("{}")
        with pytest.raises(ValueError) as caught:
            call(tmp_path)
        message = str(caught.value)
        assert "force=True replaces it" in message and "another out)" in message, message
        assert "--force" not in message and "--out" not in message and "casino-sim " in message
