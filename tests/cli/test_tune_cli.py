"""`casino-sim tune` from the command line: a tiny run writes its policy and prints its validation; bad input is
one `error:` line and exit code 2."""

from __future__ import annotations

import pytest

from tests.support.cli import assert_one_line_error, run


def test_a_tiny_tune_writes_a_policy_and_prints_its_validation(tmp_path):
    out = tmp_path / "t"
    args = ["--deals", "5", "--generations", "1", "--population", "2", "--validate-deals", "10", "--out", str(out)]
    proc = run("tune", *args, "--against", "greedy", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "expert-tuned vs expert" in proc.stdout and "expert-tuned vs greedy" in proc.stdout
    assert (out / "expert-tuned.toml").is_file() and (out / "report" / "learning_curve.png").is_file()
    again = run("tune", *args, "--against", "greedy")
    assert_one_line_error(again, "already holds a run", "--resume")
    resumed = run("tune", "--resume", str(out))  # nothing left to search: picks and validates again, the same
    assert resumed.returncode == 0, resumed.stderr
    assert proc.stdout.splitlines()[-8:] == resumed.stdout.splitlines()[-8:]


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--population", "1"], ["--population must be at least 2"]),
        (["--deals", "0"], ["--deals must be between 1"]),
        (["--start", "rollout"], ["--start must be a heuristic", "rollout"]),
        (["--start", "random"], ["--start must be a heuristic"]),
        (["--against", "nosuch"], ["unknown policy 'nosuch'"]),
        (["--rules", "klondike"], ["unknown rule set"]),
    ],
)
def test_bad_tune_options(args, fragments, tmp_path):
    assert_one_line_error(run("tune", "--out", str(tmp_path / "x"), *args), *fragments)
    assert not (tmp_path / "x").exists()


def test_a_rollout_policy_file_cannot_be_tuned(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text('name = "deep"\nkind = "rollout"\n[params]\nworlds = 4\n')
    assert_one_line_error(
        run("tune", "--start", str(path), "--out", str(tmp_path / "x")), "--start must be a heuristic"
    )


def test_resume_needs_a_tune_folder_and_not_force(tmp_path):
    assert_one_line_error(run("tune", "--resume", str(tmp_path)), "not a tune run folder")
    assert_one_line_error(run("tune", "--resume", str(tmp_path), "--force"), "give one of them")
