"""`tune`: tiny searches are reproducible, resume as if never cut, and write a policy that loads and plays."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from casino_sim import kernels as engine
from casino_sim.core.errors import InputError
from casino_sim.core.featurespec import FEATURE_NAMES
from casino_sim.core.rules import STRICT
from casino_sim.experiments import tune as tn
from casino_sim.policies.arrays import policy_arrays
from casino_sim.runner.backends import LocalBackend
from casino_sim.runner.deals import deal_rows, rotations
from tests.support.policies import LOADER, get_policy

OPTIONS = tn.TuneConfig(deals=12, generations=3, population=3, validate_deals=30, seed=5)  # unresolved
TINY = OPTIONS.resolve(LOADER)


def tuned(folder, config=TINY, resume=False):
    return tn.tune(config, tn.open_run(config, folder, resume=resume), LocalBackend())


def outputs(folder) -> dict[str, bytes]:
    """Everything a run wrote except its charts (PNG bytes carry library versions)."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix != ".png" and p.suffix != ".pkl"
    }


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tune") / "run"
    return folder, tuned(folder)


def test_same_seed_same_run_on_any_threads(tiny_run, tmp_path):
    folder, first = tiny_run
    again = tuned(tmp_path / "again", config=tn.replace(TINY, threads=1))
    assert outputs(folder) == outputs(tmp_path / "again")
    assert np.array_equal(first.policy.weights, again.policy.weights)
    other = tuned(tmp_path / "other", config=tn.replace(TINY, seed=6))
    assert not np.array_equal(other.policy.weights, first.policy.weights)


def test_generations_play_common_deals_and_the_optimiser_moves(tiny_run):
    _, result = tiny_run
    assert [g["generation"] for g in result.history] == [0, 1, 2]
    for g in result.history:
        assert len(g["weights"]) == TINY.population and len(g["scores"]) == TINY.population
        assert all(s["n"] == TINY.deals and s["ci_lo"] <= s["mean"] <= s["ci_hi"] for s in g["scores"])
    centres = [np.array(g["centre"]) for g in result.history]
    assert not np.array_equal(centres[0], centres[-1])


def test_a_run_cut_short_resumes_to_the_uninterrupted_result(tiny_run, tmp_path, monkeypatch):
    folder, _ = tiny_run
    real, calls = tn.play_field, []

    def cut_in_third_generation(*args, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(tn, "play_field", cut_in_third_generation)
    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        tuned(cut)
    assert tn.TuneDir(cut).finished() == [0, 1]
    monkeypatch.setattr(tn, "play_field", real)
    with pytest.raises(InputError, match="--resume"):
        tuned(cut)  # a new run into the folder is refused
    config = tn.TuneConfig.from_manifest(tn.TuneDir(cut).read_manifest()).resolve(LOADER)
    tuned(cut, config=config, resume=True)
    assert outputs(cut) == outputs(folder)


def test_the_written_policy_loads_and_plays(tiny_run):
    folder, result = tiny_run
    policy = get_policy(str(folder / "expert-tuned.toml"))
    assert policy.kind == "heuristic" and policy.name == "expert-tuned"
    assert np.array_equal(policy.weights, result.policy.weights)
    assert "casino-sim tune --start expert" in policy.description and "seed 5" in policy.description
    out = engine.play_rows(
        deal_rows(1, 0, 20, rotations([0, 1], True)), STRICT, *policy_arrays((policy, get_policy("greedy")))
    )
    assert (out["first_total"] + out["dealer_total"] > 0).all()
    chosen = result.selection[0]
    assert np.allclose(policy.weights, chosen["weights"], atol=1e-4)


def test_the_validation_and_learning_curve_have_intervals(tiny_run):
    folder, result = tiny_run
    validation = pd.read_csv(folder / "report" / "validation.csv")
    assert list(validation["opponent"]) == ["expert", "greedy"]
    assert (validation["deals"] == TINY.validate_deals).all()
    assert (validation["ci_lo"] < validation["mean"]).all() and (validation["mean"] < validation["ci_hi"]).all()
    curve = pd.read_csv(folder / "report" / "learning_curve.csv")
    assert len(curve) == TINY.generations
    assert (curve["best_ci_lo"] <= curve["best_mean"]).all() and (curve["mean_ci_lo"] <= curve["mean_mean"]).all()
    assert (curve["best_mean"] >= curve["mean_mean"]).all()
    paths = pd.read_csv(folder / "report" / "weights.csv")
    assert len(paths) == TINY.generations and "sweep_open" in paths.columns
    assert (folder / "report" / "learning_curve.png").stat().st_size > 0
    selection = pd.read_csv(folder / "report" / "selection.csv")
    assert len(selection) == tn.SHORT_LIST and selection["mean"].is_monotonic_decreasing
    assert json.loads((folder / "manifest.json").read_text())["config"]["seed"] == TINY.seed


def test_tune_writes_a_page_with_its_charts_tables_and_words(tiny_run):
    from tests.support.page_tables import csv_rows, read_page

    report = tiny_run[0] / "report"
    page = read_page(report / "index.html")
    assert sorted(page.charts) == ["learning_curve", "weights"]
    assert page.tables == {p.name: csv_rows(p) for p in report.glob("*.csv")}
    text = (report / "report.md").read_text()
    assert "95% interval" in text and "biased up" in text
    # 30 validation deals: whether the tuned policy beats its start is said only where the interval says so
    for r in pd.read_csv(report / "validation.csv").to_dict("records"):
        clear = r["ci_lo"] > 0 or r["ci_hi"] < 0
        assert (f"{TINY.name} vs {r['opponent']}: too few mirrored deals" in text) != clear


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(population=1), "--population must be at least 2"),
        (dict(deals=0), "--deals must be between 1"),
        (dict(start="rollout"), "--start must be a heuristic"),
        (dict(start="random"), "--start must be a heuristic"),
        (dict(against=()), "--against needs at least one policy"),
        (dict(name="../up"), "--name must be"),
    ],
)
def test_bad_options_are_refused_before_any_play(change, message, tmp_path):
    with pytest.raises(InputError, match=message):
        tuned(tmp_path / "bad", config=tn.replace(OPTIONS, **change).resolve(LOADER))
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("generations", [2, 3, 5])
def test_the_charts_count_generations_in_whole_numbers(generations):
    from casino_sim.reports.tune import learning_curve_chart, learning_curve_table, weights_chart, weights_table

    rng = np.random.default_rng(generations)
    history = [
        {
            "generation": g,
            "scores": [{"mean": m, "ci_lo": m - 1, "ci_hi": m + 1} for m in rng.normal(size=3)],
            "sigma": 0.3,
            "centre": rng.normal(size=len(FEATURE_NAMES)),
        }
        for g in range(generations)
    ]
    for fig in (learning_curve_chart(learning_curve_table(history), ""), weights_chart(weights_table(history), "")):
        fig.canvas.draw()  # ticks are placed when drawn
        ticks = fig.axes[0].get_xticks()
        assert len(ticks) >= 2 and np.all(ticks == np.round(ticks)), ticks
