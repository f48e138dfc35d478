#!/usr/bin/env python3
"""Golden outputs: what users read from simulate, tournament and analyse, kept byte for byte.

Each case runs a real command (its entry point, in this process: tests/support/cli.py
`run`) with a fixed seed and keeps its CSV tables (or JSON answer) under
tests/golden/<case>/. `test_golden.py` replays every case and compares bytes, so a
restructuring that changes any number a user sees fails.
Regenerate only for a change that is meant to move numbers, and say why:

    python -m tests.support.golden_outputs [CASE ...]

or, for a change of the round records' columns alone, only their digests (rounds*.sha256), the reports aside:

    python -m tests.support.golden_outputs --records [CASE ...]
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from tests.support.cli import run

GOLDEN = Path(__file__).parent.parent / "golden"
RUN_TABLES = (
    "summary",
    "score_breakdown",
    "sweeps",
    "sweeps_distribution",
    "seat_advantage",
    "anatomy",
    "convergence",
    "card_values",
    "card_values_by_batch",
)
POSITION = {
    "rules": "strict",
    "to_move": 0,
    "hands": [["7D", "TD", "2S", "KH"], None],
    "loose": ["3C", "4H", "KC", "TS"],
    "captured": [[], []],
}

# name -> the command after `casino-sim` (split on spaces; {position} is a position file produce() writes)
CASES: dict[str, str] = {
    "strict-greedy-vs-random": "simulate --deals 2000 --policy greedy --vs random --card-deals 20",
    "strict-expert-vs-greedy": "simulate --deals 2000 --policy expert --vs greedy --card-deals 20",
    "strict-rollout-vs-expert": "simulate --deals 6 --policy rollout --vs expert --chunk-deals 3 --card-deals 0",
    "brazilian-expert-vs-greedy": "simulate --deals 2000 --policy expert --vs greedy --rules brazilian --card-deals 20",
    "italian-expert-vs-random": "simulate --deals 2000 --policy expert --vs random --rules italian --card-deals 20",
    "tournament": "tournament random greedy expert --games 20 --chunk-deals 10",
    "analyse": "analyse {position} --worlds 200 --format json",
    "italian3-expert-vs-greedy": (
        "simulate --deals 600 --policy expert --vs greedy --rules italian:players=3 --card-deals 10"
    ),
    "brazilian4-teams-expert-vs-greedy": (
        "simulate --deals 600 --policy expert --vs greedy --rules brazilian:players=4 --card-deals 10"
    ),
}
# three/four-player cases keep every report file but the charts (as the two-player cases): tables, JSON, report.md
EVERY_REPORT = {"italian3-expert-vs-greedy", "brazilian4-teams-expert-vs-greedy"}


def produce(name: str, work: Path, records: bool = False) -> dict[str, bytes]:
    """Run one case in `work` (a fresh folder) and return its kept outputs, by file name; `records`: only the
    digests of its round records (written chunk by chunk before any report)."""
    args = [a.replace("{position}", str(work / "position.json")) for a in CASES[name].split()]
    (work / "position.json").write_text(json.dumps(POSITION))
    out = work / "out"
    if args[0] in ("simulate", "tournament"):
        args += ["--seed", "7", "--out", str(out)]
    if args[0] == "simulate" and name not in EVERY_REPORT:
        args += ["--no-charts"]  # no golden keeps a chart; report.md, which says so, is kept only of EVERY_REPORT
    proc = run(*args)  # every path in args is absolute: nothing is written to the current folder
    if records:
        return _record_digests(name, out) if args[0] == "simulate" else {}
    if proc.returncode != 0:
        raise RuntimeError(f"casino-sim {' '.join(args)} failed: {proc.stderr.strip()}")
    if args[0] == "analyse":
        return {"analyse.json": proc.stdout.encode()}
    report = out / "report"
    if name in EVERY_REPORT:
        return _every_report(report) | _record_digests(name, out)
    kept = {
        p.name: p.read_bytes() for p in sorted(report.glob("*.csv")) if args[0] == "tournament" or p.stem in RUN_TABLES
    }
    return kept | (_record_digests(name, out) if args[0] == "simulate" else {})


def _record_digests(name: str, out: Path) -> dict[str, bytes]:
    """Every per-round record, as digests (Parquet bytes carry library versions); two-player cases keep the
    anatomy's columns apart (so that adding them once left the other digest as it was)."""
    from casino_sim.core.record import ANATOMY
    from casino_sim.runner.rundir import RunDir

    rounds = RunDir(out).read_rounds()
    if name in EVERY_REPORT:
        return {"rounds.sha256": _digest(rounds)}
    anatomy = [f"{q}_{c}" for q in ("first", "dealer") for c in ANATOMY]
    return {
        "rounds.sha256": _digest(rounds.drop(columns=anatomy)),
        "rounds_anatomy.sha256": _digest(rounds[["deal_id", "mirror", *anatomy]]),
    }


def _every_report(report: Path) -> dict[str, bytes]:
    """Every table, JSON answer and report.md of a run (its `Run:` line masked: it names the temporary folder)."""
    kept = {p.name: p.read_bytes() for p in sorted(report.iterdir()) if p.suffix in (".csv", ".json")}
    lines = (report / "report.md").read_text().splitlines(keepends=True)
    kept["report.md"] = "".join("Run: (masked)\n" if x.startswith("Run: `") else x for x in lines).encode()
    return kept


def _digest(frame) -> bytes:
    return (hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest() + "\n").encode()


def write_all(names=None, records: bool = False) -> None:
    """Regenerate every case's golden files (or those named on the command line); `records`: only the digests of
    their round records, every other file left as it is."""
    import shutil
    import tempfile

    for name in names or CASES:
        with tempfile.TemporaryDirectory() as tmp:
            files = produce(name, Path(tmp), records)
        target = GOLDEN / name
        if not records:
            shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True, exist_ok=True)
        for fname, data in files.items():
            (target / fname).write_bytes(data)
        print(f"{name}: {', '.join(files) or 'no records'}", flush=True)


if __name__ == "__main__":
    write_all([a for a in sys.argv[1:] if a != "--records"], "--records" in sys.argv[1:])
