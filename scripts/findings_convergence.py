"""results/findings/convergence/: does each headline finding converge as the searcher gets more compute? (issue 47
item 4, docs/findings.md "Does it converge?")

Imported by standard_results.py (`--only convergence`). The rungs are the built-in searcher and the same searcher
with MULTIPLES times its worlds (policy files written into --convergence-runs/policies/; docs/policies.md
"Strength for compute" has what the other knobs buy). Three steps, each resumed when run again:
1. each rung against the one below on fresh mirrored strict deals (compute_sweep.py play_pair, a seed of its own
   per pair): a rung is called stronger only when that difference's 95% interval lies above 0
   (reports/separation.py beats), and one that is not is reported as such;
2. `casino-sim findings` with the rungs as its ladder, two players in strict (the seat advantage there is the first
   question), every rung carried to --convergence-precision (`--precise-rungs`), so each chart is the finding
   against compute;
3. the tables and charts copied into results/findings/convergence/, and convergence.md: the rungs' strength and one
   sentence per finding between the two dearest rungs by the verdict rule: converging (to the top rung's value),
   moving, or undetermined.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
from compute_sweep import pair_folder, play_pair
from findings_results import KEEP

from casino_sim.api.policies import loader
from casino_sim.reports.findings import CARD_FINDINGS, EACH_CARD, PLACE_WORDS, value_format
from casino_sim.reports.headlines import ci_text
from casino_sim.reports.separation import beats
from casino_sim.reports.verdict import MOVES, POINTS, SETTLED, Verdict, needed_text

MULTIPLES = (1, 4, 16)  # the rungs: the built-in searcher's worlds times each
RULES = "strict"
PAIR_SEED = 4700  # the strength pairs' seeds (one more per pair): deals none of the findings' runs play


def rung_name(multiple: int) -> str:
    return "searcher" if multiple == 1 else f"searcher-x{multiple}"


def rung_files(work: Path, multiples: tuple[int, ...]) -> list[str]:
    """Each rung as `findings --policies` takes it: the built-in's name, or a policy file of the built-in's params
    with its worlds multiplied (written into work/policies/)."""
    built_in = loader()("searcher").params
    out = []
    for k in multiples:
        if k == 1:
            out.append("searcher")
            continue
        params = {**built_in, "worlds": built_in["worlds"] * k}
        path = work / "policies" / f"{rung_name(k)}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [f'name = "{rung_name(k)}"', 'kind = "searcher"', "", "[params]"]
        lines += [f"{key} = {json.dumps(v)}" for key, v in params.items()]  # TOML's ints, floats, bools, strings
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(str(path))
    return out


def strength_lines(work: Path, rungs: list[str], names: list[str], args) -> tuple[list[str], bool]:
    """Each rung against the one below on fresh mirrored strict deals: stronger only by the test of the difference.
    With whether the top rung was shown stronger than the one below it (what its findings' verdicts rest on)."""
    out, stronger = [], False
    for i in range(1, len(rungs)):
        folder = pair_folder(work, Path(f"{names[i]}.toml"), Path(f"{names[i - 1]}.toml"))
        played = SimpleNamespace(threads=args.convergence_threads)  # what play_pair reads of the options
        pair = (folder, rungs[i], rungs[i - 1], played, PAIR_SEED + i, args.convergence_pair_deals)
        mean, lo, hi, deals = play_pair(*pair)
        stronger = lo > 0  # by the interval alone: a difference both above 0 and inside the margin is still one
        said = f"{names[i]} against {names[i - 1]}: {ci_text({'mean': mean, 'ci_lo': lo, 'ci_hi': hi})} points a deal"
        if stronger:
            small = f" (by less than {POINTS:g} points a deal)" if hi <= POINTS else ""
            out.append(f"- {said} over {deals:,} fresh mirrored deals: stronger{small}.")
        elif hi < 0:
            out.append(f"- {said} over {deals:,} fresh mirrored deals: weaker, not stronger.")
        else:
            verdict = beats(names[i], names[i - 1], mean, lo, hi, deals, POINTS)
            tell = verdict.no_leader("tell it stronger", "mirrored deals", "them")
            out.append(f"- {said} over {deals:,} fresh mirrored deals: not shown stronger; {tell}.")
    return out, stronger


def caveat(names: list[str], multiples: list[int], stronger: bool) -> list[str]:
    """What a verdict between the two dearest rungs cannot say when the dearer was not shown the stronger player."""
    if stronger or len(names) < 2:
        return []
    return [
        f"{names[-1]} was not shown stronger than {names[-2]} (above), so a finding converging between them says "
        f"only that {multiples[-1]}x the worlds moves it by less than its margin from {multiples[-2]}x, not that "
        "stronger play would leave it there."
    ]


def convergence_sentences(verdicts: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    """One sentence per finding and place between the two dearest rungs (verdicts.csv): converging to the top
    rung's value when their difference lies inside the margin, moving when it excludes 0, else undetermined."""
    out = []
    for v in verdicts[verdicts["finding"] != EACH_CARD].itertuples():
        weaker, stronger = v.policies.split(", ")
        top = table[(table["finding"] == v.finding) & (table["place"] == v.place) & (table["policy"] == stronger)]
        r = top.iloc[0]
        value = ci_text({"mean": r["value"], "ci_lo": r["ci_lo"], "ci_hi": r["ci_hi"]}, fmt=value_format(v.finding))
        test = Verdict(v.diff, v.diff_lo, v.diff_hi, v.margin)
        diff = f"{stronger} less {weaker} {ci_text({'mean': v.diff, 'ci_lo': v.diff_lo, 'ci_hi': v.diff_hi})}"
        card = v.finding in CARD_FINDINGS
        where = f"Value of the {v.place}" if card else f"{v.finding.capitalize()} ({PLACE_WORDS.get(v.place, v.place)})"
        if v.verdict == SETTLED:
            out.append(f"- {where}: converging, to {value} under {stronger} ({diff}, inside ±{v.margin:g}).")
        elif v.verdict == MOVES:
            out.append(f"- {where}: still moving with compute, {value} under {stronger} ({diff}).")
        else:
            out.append(f"- {where}: undetermined, {value} under {stronger} ({diff}){needed_text(test, None)}.")
    return out


def convergence_section(args, tmp: Path) -> list[str]:
    """Play the rungs' pairs and the findings along them, write results/findings/convergence/; the README lines."""
    work = args.convergence_runs or tmp / "convergence"
    work.mkdir(parents=True, exist_ok=True)
    rungs, names = rung_files(work, args.convergence_multiples), [rung_name(k) for k in args.convergence_multiples]
    strength, stronger = strength_lines(work, rungs, names, args)
    command = ["findings", "--policies", ",".join(rungs), "--rules", RULES, "--players", "2"]
    command += ["--deals", str(args.convergence_deals), "--precision", f"{args.convergence_precision:g}"]
    command += ["--precise-rungs", str(len(rungs)), "--threads", str(args.convergence_threads), "--seed"]
    command += [str(args.seed), "--out", str(work / "findings")]
    subprocess.run([sys.executable, "-m", "casino_sim", *command], check=True)
    target = args.out / "findings" / "convergence"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    runs = work / "findings"
    for f in [*KEEP, *(p.name for p in runs.glob("*.png")), *(p.name for p in runs.glob("*.svg"))]:
        shutil.copy(runs / f, target / f)
    files = ",".join(r if r == "searcher" else f"DIR/policies/{Path(r).name}" for r in rungs)  # no machine's paths
    shown = " ".join(command[:-2]).replace(",".join(rungs), files)
    said = convergence_sentences(pd.read_csv(target / "verdicts.csv"), pd.read_csv(target / "findings.csv"))
    multiples = ", ".join(f"{k}x" for k in args.convergence_multiples)
    lines = [
        f"## Does it converge? The searcher by compute ({RULES}, two players; {multiples} the built-in's worlds)",
        "",
        "Each rung against the one below on fresh mirrored deals, stronger only when that difference's 95% interval "
        "lies above 0:",
        "",
        *strength,
        "",
        f"Every finding along the rungs, each rung played until its findings reach ±{args.convergence_precision:g} "
        f"points or to {args.convergence_deals:,} deals, whichever comes first "
        f"(`casino-sim {shown}`, DIR being --convergence-runs; charts in "
        "[findings/convergence/](findings/convergence/)); between "
        "the two dearest rungs, by the verdict rule (docs/findings.md):",
        "",
        *said,
        "",
        *(x for line in caveat(names, args.convergence_multiples, stronger) for x in (line, "")),
    ]
    (target / "convergence.md").write_text("\n".join(["# Does it converge?", "", *lines[2:]]), encoding="utf-8")
    return lines
