"""What `tune` writes: the policy file, the tables of its search and validation, and their charts."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from casino_sim.core.featurespec import FEATURE_NAMES
from casino_sim.reports.captions import add_caption
from casino_sim.reports.charts import CI_NOTE, _figure, yerr
from casino_sim.reports.output import csv_bytes, save_figure
from casino_sim.reports.separation import AHEAD, beats, leader
from casino_sim.reports.stats import mean_ci
from casino_sim.reports.verdict import POINTS
from casino_sim.reports.webpage import write_page
from casino_sim.runner.rundir import atomic_write_bytes, writable_folder

WEIGHT_DIGITS = 4  # the policy file's weights, rounded: what is validated is what is written


def tune_command(config) -> str:
    """The command line that reproduces a run (threads aside)."""
    return (
        f"casino-sim tune --start {config.start} --against {','.join(config.against)} --rules {config.rules} "
        f"--deals {config.deals} --generations {config.generations} --population {config.population} "
        f"--sigma {config.sigma:g} --seed {config.seed}"
    )


def policy_toml(name: str, description: str, weights) -> str:
    """A heuristic policy file (strings JSON-quoted, which TOML reads as basic strings)."""
    lines = [f"name = {json.dumps(name)}", f"description = {json.dumps(description)}", "", "[weights]"]
    lines += [f"{n} = {round(float(w), WEIGHT_DIGITS)!r}" for n, w in zip(FEATURE_NAMES, weights) if round(w, 4)]
    return "\n".join(lines) + "\n"


def write_policy(config, chosen: dict, folder: Path, validation: list[dict] | None = None) -> Path:
    """Write the chosen weights as `<folder>/<name>.toml`, saying how they were found (and how they fared)."""
    how = (
        f"Tuned by CMA-ES: `{tune_command(config)}` ({config.generations} generations, seed {config.seed}); "
        f"written: the {chosen['candidate']}."
    )
    if validation:
        v = validation[0]
        how += (
            f" Against {v['opponent']} on {v['deals']:,} fresh mirrored deals: "
            f"{v['mean']:+.3f} points per deal (95% interval {v['ci_lo']:+.3f} to {v['ci_hi']:+.3f})."
        )
    path = Path(folder) / f"{config.name}.toml"
    atomic_write_bytes(path, policy_toml(config.name, how, chosen["weights"]).encode())
    return path


def generations_table(history: list[dict]) -> pd.DataFrame:
    """One row per candidate: generation, its score with interval, its weights."""
    rows = [
        {"generation": g["generation"], "candidate": k, **s, **dict(zip(FEATURE_NAMES, w))}
        for g in history
        for k, (s, w) in enumerate(zip(g["scores"], g["weights"]))
    ]
    return pd.DataFrame(rows)


def learning_curve_table(history: list[dict]) -> pd.DataFrame:
    """Per generation: the best candidate's score and interval, the candidates' mean score and its interval."""
    rows = []
    for g in history:
        means = np.array([s["mean"] for s in g["scores"]])
        best = g["scores"][int(np.argmax(means))]
        rows.append(
            {
                "generation": g["generation"],
                **{f"best_{k}": best[k] for k in ("mean", "ci_lo", "ci_hi")},
                **mean_ci(means).as_dict("mean_"),
                "sigma": g["sigma"],
            }
        )
    return pd.DataFrame(rows)


def weights_table(history: list[dict]) -> pd.DataFrame:
    """The search centre's weights after each generation: the weights' paths."""
    return pd.DataFrame([{"generation": g["generation"], **dict(zip(FEATURE_NAMES, g["centre"]))} for g in history])


def learning_curve_chart(curve: pd.DataFrame, caption: str):
    """Best and mean candidate score per generation, each with its 95% interval."""
    fig, (ax,) = _figure(1, width=7.0)
    x = curve["generation"].to_numpy()
    ax.errorbar(x - 0.1, curve["best_mean"], yerr=yerr(curve, "best_"), marker="o", capsize=3, label="best")
    ax.errorbar(x + 0.1, curve["mean_mean"], yerr=yerr(curve, "mean_"), marker="s", capsize=3, label="mean")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("generation")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # generations are whole numbers
    ax.set_ylabel("points per mirrored deal against the field")
    ax.set_title(f"Learning curve ({CI_NOTE})", fontsize=10)
    ax.legend(fontsize=8)
    return add_caption(fig, caption)


def weights_chart(paths: pd.DataFrame, caption: str):
    """Each weight of the search's centre after each generation."""
    fig, (ax,) = _figure(1, width=8.0, height=5.0)
    for i, name in enumerate(FEATURE_NAMES):
        ax.plot(paths["generation"], paths[name], color=f"C{i % 10}", ls="-" if i < 10 else "--", label=name)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("generation")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("weight")
    ax.set_title("Weights of the search's centre after each generation", fontsize=10)
    ax.legend(fontsize=7, ncol=3)
    return add_caption(fig, caption)


def validation_verdicts(name: str, rows: list[dict]) -> list[str]:
    """Per opponent: the tuned policy beats it (or loses to it) only when the interval excludes 0; equal when it
    lies within 0.1 points of 0; else how many fresh deals would tell them apart (reports/separation.py)."""
    out = []
    for r in rows:
        verdict = beats(name, r["opponent"], r["mean"], r["ci_lo"], r["ci_hi"], r["deals"], POINTS)
        if verdict.leader:
            loser = r["opponent"] if verdict.leader == name else name
            out.append(f"{verdict.leader} beats {loser} on fresh deals")
        else:
            out.append(f"{name} vs {r['opponent']}: " + verdict.no_leader("tell them apart", "mirrored deals", "them"))
    return out


def selection_verdict(selection: list[dict]) -> str:
    """Whether the policy written (the short list's highest mean) is ahead of every other candidate by a test of
    the differences (reports/separation.py)."""
    rows = [(r["candidate"], r["mean"], r["ci_lo"], r["ci_hi"]) for r in selection]
    verdict = leader(rows, int(selection[0]["n"]), POINTS) if selection else None
    if verdict is None or verdict.leader:
        return f"The candidate written scores best, ahead of every other candidate ({AHEAD})."
    return (
        "The candidate written has the highest mean, not a clear lead: "
        + verdict.no_leader("tell the candidates apart", "mirrored deals per opponent")
        + "."
    )


TUNE_WHAT = (
    "Each candidate plays mirrored deals against every policy of the field, the candidates of a generation on "
    "the same deals; its score is its mean point difference per mirrored deal over the field, with its 95% "
    "interval. The best candidate of a generation is the one of highest mean (a pick: the highest of several "
    "noisy means is biased up); the mean line is the candidates' mean score."
)


def _report_md(config, result, curve: pd.DataFrame) -> str:
    """report.md of a tune run: its charts with what they show, the pick of the policy written and its validation."""
    last = curve.iloc[-1]
    lines = [
        f"# Tune: {config.name} from {config.start}",
        "",
        f"Run: `{tune_command(config)}`",
        "",
        "All intervals are 95% confidence intervals.",
        "",
        "## Learning curve",
        "",
        "![Learning curve](learning_curve.png) (learning_curve.svg; table learning_curve.csv)",
        "",
        TUNE_WHAT,
        "",
        f"- generation {int(last['generation'])}: best candidate {last['best_mean']:+.3f} [{last['best_ci_lo']:+.3f}, "
        f"{last['best_ci_hi']:+.3f}], candidates' mean {last['mean_mean']:+.3f} [{last['mean_ci_lo']:+.3f}, "
        f"{last['mean_ci_hi']:+.3f}] points per mirrored deal",
        "",
        "## Weights",
        "",
        "![Weights](weights.png) (weights.svg; table weights.csv)",
        "",
        "Each weight of the search's centre after each generation.",
        "",
        "## The policy written",
        "",
        "The short list (selection.csv) is replayed on fresh deals and its highest mean is written; the policy "
        "written then plays its start and the field on other fresh deals (validation.csv).",
        "",
        f"- {selection_verdict(result.selection)}",
        *(f"- {v}" for v in validation_verdicts(config.name, result.validation)),
        "",
    ]
    return "\n".join(lines)


def write_report(config, result, folder: Path) -> None:
    """Tables (CSV), charts (PNG and SVG), report.md and the page index.html of a finished tune run."""
    writable_folder(folder)
    caption = "\n".join(textwrap.wrap(tune_command(config), 100))
    curve, paths = learning_curve_table(result.history), weights_table(result.history)
    tables = {
        "generations": generations_table(result.history),
        "learning_curve": curve,
        "weights": paths,
        "selection": pd.DataFrame([{k: v for k, v in r.items() if k != "weights"} for r in result.selection]),
        "validation": pd.DataFrame(result.validation),
    }
    for name, table in tables.items():
        atomic_write_bytes(folder / f"{name}.csv", csv_bytes(table))
    save_figure(learning_curve_chart(curve, caption), folder, "learning_curve")
    save_figure(weights_chart(paths, caption), folder, "weights")
    atomic_write_bytes(folder / "report.md", _report_md(config, result, curve).encode())
    write_page(folder, {"kind": "tune", **config.manifest()})
