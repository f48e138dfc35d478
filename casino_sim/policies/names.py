"""How a run names its policies: a run's records, tables and charts tell policies apart by name, so two different
policies that show under one name would be pooled into one row (every command that plays two or more policies
refuses that here), and a run is called by its seats in the order given ("expert vs greedy, random").

The same policy on both sides (self-play: `--policy expert --vs expert`) is one policy, not a clash.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from casino_sim.core.lists import comma_list
from casino_sim.core.rules import get_rules
from casino_sim.policies.policy import Policy, PolicyError

RENAME = "give one of them another name (a policy file's `name =` field; a Python file's or a bot's file name)"


def plays_alike(p: Policy, q: Policy) -> bool:
    """Whether two loaded policies play the same way: the same kind, weights, parameters and callable (a policy
    file is read anew each time it is named, so equal content counts as the same policy)."""
    return p is q or p.plays_like(q)


def check_distinct(resolved: Iterable[tuple[str, Policy]], self_play: bool = True) -> None:
    """PolicyError (one line naming both and the fix) when two different policies among the resolved (spec, policy)
    pairs show under one name.

    With `self_play` a policy given twice (or two files that play alike) passes: it plays itself. A tournament,
    whose every entry is a row of its tables, passes False.
    """
    seen: dict[str, tuple[str, Policy]] = {}
    for spec, policy in resolved:
        first_spec, first = seen.setdefault(policy.name, (spec, policy))
        if first_spec != spec and not (self_play and plays_alike(first, policy)):
            raise PolicyError(
                f"{first_spec} and {spec} both show as {policy.name!r}, so their results would be pooled: {RENAME}"
            )


def seat_names(text: str) -> list[str]:
    """--seats A,B,C[,D]: the policy names, one per player (player 0 first)."""
    return list(comma_list(text, "must name a policy for every player", "seats"))


Label = Callable[[str], str]  # the name a policy given as a spec shows as


def spec_label(spec: str) -> str:
    """The name a spec shows as when no policy is loaded for it: the spec, a file's stem (a loader's label reads
    the file: casino_sim/loader PolicyLoader.label)."""
    return Path(spec).stem or spec


def folder_safe(name: str) -> str:
    """A policy's name made safe in a file or folder name: anything but letters, digits, '.', '+' and '-' is '_'."""
    return re.sub(r"[^\w.+-]+", "_", name).strip("_") or "policy"


def matchup_sides(
    policy_a: str, policy_b: str, seats: str | None, rules: str, label: Label = spec_label
) -> tuple[str, list[str]]:
    """A's side and the other sides by policy name, in the order seated, as the n-player reports name them
    (reports/tables.py): --seats A,B,C gives (A, [B, C]), each name once; with teams, A's team against the
    other, a team of two policies named X+Y (alphabetical). `label` names a spec: a run's resolved policies, or its
    manifest's names."""
    names = [label(s) for s in (seat_names(seats) if seats else (policy_a, policy_b))]
    if seats and get_rules(rules).teams:
        names = ["+".join(sorted(set(names[t::2]))) for t in (0, 1)]
    return names[0], list(dict.fromkeys(names[1:]))


def recorded_labels(manifest: dict, fallback: Label = spec_label) -> Label:
    """The names a run's policies show as, as its manifest keeps them (`policy_names`, by the spec given): a report
    of a finished run never loads a policy again (its file may have moved or changed, a bot would start). A folder
    written before the manifest kept them names them by `fallback` (a loader's label, where the caller holds one)."""
    names = manifest.get("policy_names") or {}
    return lambda spec: names[spec] if spec in names else fallback(spec)


def matchup(policy_a: str, policy_b: str, seats: str | None, rules: str, label: Label = spec_label) -> str:
    """What a run is called in headlines and captions: "A vs B", with --seats "A vs B, C" in the order given."""
    a, others = matchup_sides(policy_a, policy_b, seats, rules, label)
    return f"{a} vs {', '.join(others)}"


def matchup_folder(policy_a: str, policy_b: str, seats: str | None, rules: str, label: Label = spec_label) -> str:
    """matchup() made safe in a folder name: A-vs-B, A-vs-B-C (folder_safe's characters)."""
    a, others = matchup_sides(policy_a, policy_b, seats, rules, label)
    return f"{folder_safe(a)}-vs-{'-'.join(map(folder_safe, others))}"
