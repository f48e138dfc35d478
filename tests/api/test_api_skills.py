"""`cs.knockout` and `cs.regret` return the tables `casino-sim knockout` and `casino-sim regret` write for the same
options, and write the same files."""

from __future__ import annotations

import json

import casino_sim as cs
from casino_sim.reports.output import csv_bytes
from tests.support.cli import run


def _same_files(api, cli) -> None:
    assert sorted(p.name for p in api.iterdir()) == sorted(p.name for p in cli.iterdir())


def test_knockout_returns_what_the_command_writes(tmp_path, capfd):
    api, cli = tmp_path / "api", tmp_path / "cli"
    table = cs.knockout("greedy", 60, chunk_deals=30, pairs=["cards_taken,aces_taken"], seed=2, out=api, progress=True)
    assert "knockout greedy" in capfd.readouterr().err
    options = ["--deals", "60", "--chunk-deals", "30", "--pairs", "cards_taken,aces_taken", "--seed", "2"]
    proc = run("knockout", "greedy", *options, "--out", str(cli))
    assert proc.returncode == 0, proc.stderr
    assert ("cards_taken", "aces_taken") in zip(table["given_out"], table["feature"])
    assert csv_bytes(table) == (cli / "knockout.csv").read_bytes() == (api / "knockout.csv").read_bytes()
    _same_files(api, cli)


def test_regret_returns_what_the_command_writes(tmp_path, capfd):
    api, cli = tmp_path / "api", tmp_path / "cli"
    table = cs.regret("greedy", vs="random", decisions=20, seed=3, out=api)
    assert "regret greedy" not in capfd.readouterr().err  # no progress bar unless asked
    proc = run("regret", "greedy", "--vs", "random", "--decisions", "20", "--seed", "3", "--out", str(cli))
    assert proc.returncode == 0, proc.stderr
    assert list(table["policy"]) == ["greedy"] and list(table["vs"]) == ["random"]
    assert csv_bytes(table) == (cli / "regret.csv").read_bytes() == (api / "regret.csv").read_bytes()
    _same_files(api, cli)


def test_findings_return_what_the_command_writes(tmp_path):
    api, cli = tmp_path / "api", tmp_path / "cli"
    tiny = dict(players=("2",), deals=40, chunk_deals=20, resamples=100, threads=1)
    table = cs.findings(("random", "greedy"), **tiny, out=api)
    options = ["--players", "2", "--deals", "40", "--chunk-deals", "20", "--resamples", "100"]
    proc = run("findings", "--policies", "random,greedy", *options, "--threads", "1", "--out", str(cli))
    assert proc.returncode == 0, proc.stderr
    assert set(table["policy"]) == {"random", "greedy"}
    assert csv_bytes(table) == (cli / "findings.csv").read_bytes() == (api / "findings.csv").read_bytes()
    _same_files(api, cli)
    command = json.loads((api / "runs" / "greedy" / "2-players" / "manifest.json").read_text())["command"]
    assert command[0].startswith("cs.findings(policies=('random', 'greedy'), players=('2',), deals=40")


def test_tune_returns_the_policy_and_the_validation_the_command_writes(tmp_path):
    api, cli = tmp_path / "api", tmp_path / "cli"
    tuned = cs.tune(against=["greedy"], deals=5, generations=1, population=2, validate_deals=10, seed=3, out=api)
    options = ["--deals", "5", "--generations", "1", "--population", "2", "--validate-deals", "10", "--seed", "3"]
    proc = run("tune", *options, "--against", "greedy", "--out", str(cli))
    assert proc.returncode == 0, proc.stderr
    assert tuned.path == api / "expert-tuned.toml" and tuned.folder == api
    assert tuned.path.read_bytes() == (cli / "expert-tuned.toml").read_bytes()
    assert list(tuned.validation["opponent"]) == ["expert", "greedy"]
    assert csv_bytes(tuned.validation) == (cli / "report" / "validation.csv").read_bytes()
    _same_files(api / "report", cli / "report")
