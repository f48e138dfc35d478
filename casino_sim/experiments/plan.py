"""`casino-sim experiment PLAN.toml`: declared runs and the expectations their summaries must meet.

A plan names runs (policy A against B, with simulate's options) and, per run,
expectations on a summary metric, e.g. "greedy beats random by at least 2
points per mirrored pair, with the lower 95% bound above 0".
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from casino_sim.core.errors import InputError
from casino_sim.core.tomlfile import read_toml
from casino_sim.experiments.simulate import SimConfig
from casino_sim.policies.policy import Load

METRICS = {
    "diff": "mean points of A minus B per deal (mirrored: per pair, the average of both seatings)",
    "win_rate_a": "share of rounds A wins (ties count half)",
    "total_a": "A's mean points per round",
    "total_b": "B's mean points per round",
}
CONDITIONS = {
    "at_least": ("mean", ">="),
    "at_most": ("mean", "<="),
    "ci_lo_above": ("ci_lo", ">"),
    "ci_hi_below": ("ci_hi", "<"),
}
RUN_OPTIONS = {
    "policy": "policy_a",
    "vs": "policy_b",
    "deals": "deals",
    "rules": "rules",
    "seed": "seed",
    "mirrored": "mirrored",
    "chunk_deals": "chunk_deals",
    "engine": "engine",
    "threads": "threads",
}


@dataclass(frozen=True)
class Expectation:
    metric: str
    condition: str
    bound: float

    def check(self, row: dict) -> tuple[bool, float]:
        """Whether the summary row meets it, and the value compared."""
        stat, op = CONDITIONS[self.condition]
        value = float(row[f"{self.metric}_{stat}"])
        ok = (
            value >= self.bound
            if op == ">="
            else value <= self.bound
            if op == "<="
            else value > self.bound
            if op == ">"
            else value < self.bound
        )
        return ok, value

    def __str__(self) -> str:
        stat, op = CONDITIONS[self.condition]
        return f"{self.metric} {stat} {op} {self.bound:g}"


@dataclass(frozen=True)
class PlannedRun:
    name: str
    config: SimConfig
    expect: tuple[Expectation, ...] = field(default_factory=tuple)


def _field_error(where: str, msg: str) -> InputError:
    return InputError(f"{where}: {msg}")


def _run_config(raw: dict, defaults: dict, where: str, loader: Load) -> SimConfig:
    options = {}
    for key, val in {**defaults, **raw}.items():
        if key in ("name", "expect"):
            continue
        if key not in RUN_OPTIONS:
            raise _field_error(where, f"unknown field {key!r} (fields: name, expect, {', '.join(RUN_OPTIONS)})")
        target = RUN_OPTIONS[key]
        kind = {f.name: f.type for f in fields(SimConfig)}[target]
        want = {"int": int, "str": str, "bool": bool}.get(str(kind), None)
        if want and (not isinstance(val, want) or (want is int and isinstance(val, bool))):
            raise _field_error(where, f"field {key!r} must be {want.__name__}, got {val!r}")
        options[target] = val
    config = SimConfig(**options, loader=loader)
    try:
        config.check()
    except InputError as e:
        raise _field_error(where, str(e)) from None
    except ValueError as e:  # unknown policy or rule set
        raise _field_error(where, str(e)) from None
    return config


def _expectations(raw, where: str) -> tuple[Expectation, ...]:
    if not isinstance(raw, list):
        raise _field_error(where, "field 'expect' must be a list of tables ([[run.expect]])")
    out = []
    for i, e in enumerate(raw):
        at = f"{where}.expect[{i}]"
        if not isinstance(e, dict):
            raise _field_error(at, "must be a table with metric and a condition")
        metric = e.get("metric")
        if metric not in METRICS:
            raise _field_error(at, f"field 'metric' must be one of {', '.join(METRICS)}, got {metric!r}")
        conds = [k for k in e if k != "metric"]
        if not conds:
            raise _field_error(at, f"needs a condition ({', '.join(CONDITIONS)})")
        for cond in conds:
            if cond not in CONDITIONS:
                raise _field_error(at, f"unknown field {cond!r} (conditions: {', '.join(CONDITIONS)})")
            bound = e[cond]
            if isinstance(bound, bool) or not isinstance(bound, (int, float)):
                raise _field_error(at, f"field {cond!r} must be a number, got {bound!r}")
            out.append(Expectation(metric, cond, float(bound)))
    return tuple(out)


def _check_complete(run: PlannedRun, fields_given: dict, where: str) -> None:
    """A run must name both policies and expect something: a plan never checks a default matchup, or nothing."""
    missing = [k for k in ("policy", "vs") if k not in fields_given]
    if missing:
        raise _field_error(
            where,
            f"needs fields 'policy' and 'vs' (the two policies to play; missing: "
            f"{', '.join(missing)}), in the run or in [defaults]",
        )
    if not run.expect:
        raise _field_error(where, "needs at least one [[run.expect]] (a run without one checks nothing)")


def load_plan(path: Path, loader: Load) -> tuple[str, list[PlannedRun]]:
    """Parse and check a plan, its runs' policies resolved by `loader`; InputError names the file and the field."""
    where = str(path)
    data = read_toml(path, "plan", InputError)
    unknown = set(data) - {"name", "defaults", "run"}
    if unknown:
        raise _field_error(where, f"unknown field {sorted(unknown)[0]!r} (fields: name, defaults, run)")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        raise _field_error(where, "field 'defaults' must be a table")
    runs_raw = data.get("run")
    if not isinstance(runs_raw, list) or not runs_raw:
        raise _field_error(where, "needs at least one [[run]]")
    runs, names = [], set()
    for i, raw in enumerate(runs_raw):
        at = f"{where}: run[{i}]"
        name = raw.get("name", f"run-{i + 1}")
        if not isinstance(name, str) or not name or "/" in name or name in names:
            raise _field_error(at, f"field 'name' must be a unique folder name, got {name!r}")
        names.add(name)
        run = PlannedRun(name, _run_config(raw, defaults, at, loader), _expectations(raw.get("expect", []), at))
        _check_complete(run, {**defaults, **raw}, at)
        runs.append(run)
    return str(data.get("name", Path(path).stem)), runs
