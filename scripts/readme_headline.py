"""The README's headline findings, written from results/findings/ (issue 47: the headline sentences come from the
runs, not from a hand): `python scripts/readme_headline.py` rewrites the README between its two markers.

It plays nothing. It reads results/findings/<rules>/ (standard_results.py `--only findings`) and
results/findings/convergence/ (`--only convergence`), and writes the table of the strongest rung against the rung
below, the sentences that table supports, and the searcher by compute. tests/test_scripts.py holds the README to
what this writes from the committed results.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pandas as pd
from findings_convergence import convergence_sentences

from casino_sim.core.numbers import number
from casino_sim.reports.findings import target, value_format
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.verdict import MOVES, POINTS

ROOT = Path(__file__).resolve().parents[1]
START = "<!-- headline findings: written by python scripts/readme_headline.py from results/findings/ -->"
END = "<!-- end of the headline findings -->"
WIDTH = 115  # the README's line length
RULE_SETS = ("strict", "brazilian", "italian")
TOP, BELOW = "searcher", "endgame"  # the standard findings ladder's two precise rungs (findings_results.py)
# (finding, place in findings.csv, the words a reader sees)
HEADLINES = (
    ("seat advantage, two players", "dealer minus first", "seat advantage, two players (dealer minus first)"),
    ("seat advantage, three players", "dealer", "seat advantage, three players (the dealer's)"),
    ("seat advantage, two teams", "team_dealer", "seat advantage, two teams (the dealer's team)"),
    ("value of the 10♦", "10♦", "holding the 10♦ rather than an opponent"),
    ("value of the 2♠", "2♠", "holding the 2♠"),
    ("sweeps per round", "a player's", "sweeps per round, a player's"),
)


def interval(value: float, lo: float, hi: float, spec: str) -> str:
    return ci_text({"mean": value, "ci_lo": lo, "ci_hi": hi}, fmt=spec)


def paragraph(text: str) -> list[str]:
    """text as the README's lines, wrapped at its width (a link or a code span never broken)."""
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False)


def _unit(finding: str) -> str:
    return "" if finding.startswith("sweeps") else ", points a round"


def _read(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    if not (folder / "findings.csv").exists():
        return None
    return pd.read_csv(folder / "findings.csv"), pd.read_csv(folder / "verdicts.csv")


def _row(table: pd.DataFrame, finding: str, place: str, policy: str):
    rows = table[(table["finding"] == finding) & (table["place"] == place) & (table["policy"] == policy)]
    return None if rows.empty else rows.iloc[0]


def _verdict(verdicts: pd.DataFrame, finding: str, place: str):
    return verdicts[(verdicts["finding"] == finding) & (verdicts["place"] == place)].iloc[0]


def ladder_rows(results: Path) -> list[tuple[str, str, object, object, object]]:
    """(finding, rules, top rung's row, the rung below's row, verdict row) of every headline finding a rule set has."""
    tables = {rules: _read(results / "findings" / rules) for rules in RULE_SETS}  # each rule set's CSVs read once
    out = []
    for finding, place, _ in HEADLINES:
        for rules, read in tables.items():
            if read is None or (top := _row(read[0], finding, place, TOP)) is None:
                continue
            out.append((finding, rules, top, _row(read[0], finding, place, BELOW), _verdict(read[1], finding, place)))
    return out


def table_lines(rows) -> list[str]:
    lines = [
        f"| finding | rules | {TOP} (95% interval) | {BELOW} | verdict, {BELOW} to {TOP} |",
        "| --- | --- | --- | --- | --- |",
    ]
    words = {finding: said + _unit(finding) for finding, _, said in HEADLINES}
    for finding, rules, top, below, v in rows:
        spec = value_format(finding)
        diff = interval(v["diff"], v["diff_lo"], v["diff_hi"], "+.3f")
        top_text = interval(top["value"], top["ci_lo"], top["ci_hi"], spec)
        below_text = interval(below["value"], below["ci_lo"], below["ci_hi"], spec)
        lines.append(f"| {words[finding]} | {rules} | {top_text} | {below_text} | {v['verdict']}, {diff} |")
    return lines


def precision(rows) -> str:
    """How precise the top rung's values are (--precision's targets), said only when every row bears it out."""
    if all((r[2]["ci_hi"] - r[2]["ci_lo"]) / 2 <= target(r[0], POINTS) + 1e-9 for r in rows):
        return f"within ±{POINTS:g} points (±{target('sweeps per round', POINTS):g} for sweeps)"
    return "given with its 95% interval"


def _span(values: list[float], spec: str) -> str:
    lo, hi = number(min(values), spec), number(max(values), spec)
    return lo if lo == hi else f"{lo} to {hi}"


def ladder_sentences(rows) -> list[str]:
    """What the table supports, each sentence only when every rule set it names bears it out."""
    out = []
    seat = [r for r in rows if r[0] == "seat advantage, two players"]
    if seat:
        names = ", ".join(r[1] for r in seat)
        if all(-POINTS <= r[2]["ci_lo"] and r[2]["ci_hi"] <= POINTS for r in seat):
            said = f"Between two {TOP}s the dealer's edge with two players lies within ±{POINTS:g} points of zero"
            said += f" ({names}: its 95% interval inside that margin)"
        else:
            span = _span([r[2]["value"] for r in seat], "+.2f")
            said = f"Between two {TOP}s the dealer's edge with two players is {span} points a round ({names})"
        if all(r[3]["ci_hi"] < 0 for r in seat):
            span = _span([-r[3]["value"] for r in seat], ".2f")
            said += f", where {BELOW}'s players gave the first player {span} of a point"
        out.append(said + ".")
    ten = [r for r in rows if r[0] == "value of the 10♦"]
    if ten:
        span = _span([r[2]["value"] for r in ten], ".2f")
        out.append(
            f"Holding the 10♦ is worth {span} points a round to its holder under the {TOP} "
            f"({', '.join(r[1] for r in ten)})."
        )
    two = [r for r in rows if r[0] == "value of the 2♠"]
    if two:
        moves = sum(r[4]["verdict"] == MOVES for r in two)
        top, below = _span([r[2]["value"] for r in two], "+.2f"), _span([r[3]["value"] for r in two], "+.2f")
        out.append(
            f"Holding the 2♠ is worth {top} points under the {TOP} and {below} under {BELOW}: its value moves with "
            f"strength in {moves} of {len(two)} rule sets, so whether it is worth holding depends on how well the "
            "table plays."
        )
    return out


def _multiple(rung: str) -> int:
    """A rung's worlds as a multiple of the built-in's, from its name (findings_convergence.rung_name)."""
    return 1 if rung == TOP else int(rung.rsplit("-x", 1)[1])


def convergence_lines(results: Path) -> list[str]:
    """The searcher by compute (results/findings/convergence/): each rung against the one below, the headline
    findings at every rung, and one sentence each between the two dearest rungs."""
    folder = results / "findings" / "convergence"
    read = _read(folder)
    if read is None:
        return paragraph(
            f"Whether these numbers still move with stronger play than the {TOP}'s is what `python "
            "scripts/standard_results.py --only convergence` measures (not yet run)."
        )
    table, verdicts = read
    page = (folder / "convergence.md").read_text(encoding="utf-8").splitlines()
    strength = [x for x in page if x.startswith("- ") and " against " in x]
    rungs = list(dict.fromkeys(table["policy"]))
    head = "| finding | " + " | ".join(rungs) + f" | verdict, {rungs[-2]} to {rungs[-1]} |"
    times = " and ".join(", ".join(f"{_multiple(r)}x" for r in rungs).rsplit(", ", 1))
    lines = [
        *paragraph(
            f"Above the {TOP}, does it converge? The {TOP} by compute (strict, two players; its worlds {times}; "
            "`python scripts/standard_results.py --only convergence`, "
            "[results/findings/convergence/](results/findings/convergence/convergence.md)). Each rung against the "
            "one below, on fresh mirrored deals:"
        ),
        "",
        *strength,
        "",
        head,
        "| --- |" + " --- |" * len(rungs) + " --- |",
    ]
    headline = []
    for finding, place, said in HEADLINES:
        if _row(table, finding, place, rungs[-1]) is None:
            continue
        spec = value_format(finding)
        cells = [
            interval(r["value"], r["ci_lo"], r["ci_hi"], spec) for r in (_row(table, finding, place, p) for p in rungs)
        ]
        v = _verdict(verdicts, finding, place)
        diff = interval(v["diff"], v["diff_lo"], v["diff_hi"], "+.3f")
        lines.append(f"| {said}{_unit(finding)} | " + " | ".join(cells) + f" | {v['verdict']}, {diff} |")
        headline.append((finding, place))
    picked = verdicts[[(f, p) in headline for f, p in zip(verdicts["finding"], verdicts["place"], strict=True)]]
    said = convergence_sentences(picked, table)
    caveat = [x for x in page if x.startswith(f"{rungs[-1]} was not shown stronger")]  # findings_convergence.caveat
    return [
        *lines,
        "",
        "Between the two dearest rungs, by the same verdict rule:",
        "",
        *said,
        *(["", *paragraph(" ".join(caveat))] if caveat else []),
    ]


def headline_block(results: Path) -> list[str]:
    """The README's lines between START and END."""
    rows = ladder_rows(results)
    return [
        START,
        *paragraph(
            "The findings along the whole ladder of policies (seat advantage with 2, 3 and 4 players, the value of "
            "every card, sweeps, equity at 0-0): `casino-sim findings`, [`docs/findings.md`](docs/findings.md). Under "
            f"the strongest affordable player, the {TOP}, every player of a run playing it, each value below is "
            f"{precision(rows)}, and its verdict tests the {TOP}'s value against the rung below it, "
            f"{BELOW}: settled only when the 95% interval of their difference lies inside ±0.1 points (±0.01 for "
            "sweeps), moves with strength when it excludes 0 ([`results/findings/`](results/README.md); `python "
            "scripts/standard_results.py --only findings`):"
        ),
        "",
        *table_lines(rows),
        "",
        *paragraph(" ".join(ladder_sentences(rows))),
        "",
        *convergence_lines(results),
        END,
    ]


def spliced(readme: list[str], block: list[str]) -> list[str]:
    """readme with the lines from START to END (both kept) replaced by block."""
    try:
        start, end = readme.index(START), readme.index(END)
    except ValueError:
        sys.exit(f"README.md has no headline markers ({START} ... {END})")
    return readme[:start] + block + readme[end + 1 :]


def main() -> None:
    readme = ROOT / "README.md"
    lines = spliced(readme.read_text(encoding="utf-8").splitlines(), headline_block(ROOT / "results"))
    readme.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
