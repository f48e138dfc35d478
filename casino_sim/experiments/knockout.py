"""What each skill of a heuristic is worth: the policy against itself with one feature's weight set to zero.

Every knocked-out policy plays the whole policy on the same seeded mirrored deals
(common random numbers), chunk by chunk; a feature stops as soon as its 95%
interval is clear of zero by a margin (the bound nearest zero at least one
half-width away from it) or narrower than the precision asked, else at the most
deals allowed. A pair (A, B) measures B with A already out: the policy without A
against the policy without A and B. With three or four players each deal is played in
every seating (runner/seating.py): the whole policy alone in each seat, or its team
against the knocked-out one's and then swapped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.fields import FieldError
from casino_sim.core.rules import get_rules
from casino_sim.experiments.compare import deal_headline
from casino_sim.experiments.skill_fields import KNOCKOUT
from casino_sim.policies.features import FEATURE_INDEX, FEATURE_NAMES
from casino_sim.policies.kinds import HeuristicPolicy
from casino_sim.policies.policy import Load, Policy
from casino_sim.reports.stats import Estimate, mean_ci
from casino_sim.runner.deals import chunked_rows
from casino_sim.runner.seating import Lineup, Resolves, declared_options, resolved_field, seatings
from casino_sim.runner.threads import use_threads

Progress = Callable[[int, int], None]  # (rounds done, rounds planned)
SKIPPED = "skipped: weight 0"


@dataclass(frozen=True)
class KnockoutConfig(Resolves):
    """What decides a knockout's table (threads do not change it)."""

    policy: str = "expert"
    deals: int = 20_000  # the most mirrored deals any one feature plays
    rules: str = "strict"
    seed: int = 0
    threads: int = 0
    chunk_deals: int = 1_000  # deals between two looks at the intervals
    precision: float = 0.05  # stop a feature once its interval's half-width is at most this many points
    pairs: tuple[tuple[str, str], ...] = ()  # (A, B): the worth of B with A already out

    # the policy resolved once, by resolve() (the front door's); never in the manifest, which keeps its name
    resolved: Lineup | None = resolved_field()

    @classmethod
    def of(cls, values: dict) -> KnockoutConfig:
        """The config of knockout's options by field name (experiments/skill_fields.py KNOCKOUT: --pairs as the
        command line or the API writes it), unresolved."""
        return cls(**declared_options(KNOCKOUT, values) | {"pairs": parse_pairs(values.get("pairs"))})

    def specs(self) -> tuple[str, ...]:
        return (self.policy,)

    def resolve(self, load: Load, given: frozenset = frozenset()) -> KnockoutConfig:
        """The knockout's specification: every option checked (FieldError names the first that is not sound), the
        policy resolved once by `load`, a heuristic whose --pairs name features it weighs."""
        KNOCKOUT.check(declared_options(KNOCKOUT, vars(self)), given)
        get_rules(self.rules)
        spec = self.resolve_with(load)
        policy = spec.heuristic()
        if policy.kind != "heuristic":
            raise InputError(
                f"knockout sets a heuristic's feature weights to zero; {policy.name!r} is a {policy.kind} policy "
                "(give a heuristic: a built-in such as expert, or a .toml file of weights)"
            )
        for a, b in self.pairs:
            for name in (a, b):
                if name not in FEATURE_INDEX:
                    raise FieldError(
                        "pairs", f"{{pairs}}: unknown feature {name!r} (features: {', '.join(FEATURE_NAMES)})"
                    )
                if policy.weights[FEATURE_INDEX[name]] == 0:
                    raise FieldError(
                        "pairs", f"{{pairs}}: feature {name!r} has weight 0 in {policy.name}: it is out already"
                    )
            if a == b:
                raise FieldError("pairs", f"{{pairs}}: {a},{b} names one feature twice")
        return spec

    def heuristic(self) -> Policy:
        """The policy whose features are knocked out, as the front door resolved it."""
        return self.lineup().policy(self.policy)


def parse_pairs(values: str | list[str] | tuple[str, ...] | None) -> tuple[tuple[str, str], ...]:
    """`A,B` pairs, several per value when separated by `;` (and the option may be given again: a list)."""
    pairs = []
    for value in [values] if isinstance(values, str) else values or ():
        for part in value.split(";"):
            names = [n.strip() for n in part.split(",")]
            if len(names) != 2 or not all(names):
                raise FieldError(
                    "pairs", f"{{pairs}}: {part.strip()!r} is not two features A,B (e.g. {{pairs}} sweep_open,trail)"
                )
            pairs.append((names[0], names[1]))
    return tuple(pairs)


def without(policy: Policy, features: tuple[str, ...]) -> Policy:
    """The heuristic with these features' weights set to zero (its other weights as they are)."""
    weights = policy.weights.copy()
    weights[[FEATURE_INDEX[n] for n in features]] = 0.0
    name = f"{policy.name}-without-{'-'.join(features)}"
    return HeuristicPolicy(name, f"{policy.name} without {', '.join(features)}", policy.source, weights=weights)


@dataclass
class Entry:
    """One measured skill: `feature` knocked out of a policy that already lacks `given_out`."""

    feature: str
    weight: float
    given_out: tuple[str, ...]
    baseline: Policy | None  # None: skipped (the feature's weight is already 0)
    challenger: Policy | None
    diffs: list = field(default_factory=list)  # per mirrored deal: baseline minus challenger
    stopped: str = ""

    @property
    def deals(self) -> int:
        return sum(len(d) for d in self.diffs)

    def estimate(self) -> Estimate:
        return mean_ci(np.concatenate(self.diffs) if self.diffs else np.zeros(0))


def stop_reason(est: Estimate, precision: float) -> str:
    """Why a feature needs no more deals ('' when it does): its interval is narrow, or clear of zero by a margin."""
    if est.n < 2:
        return ""
    if est.half_width <= precision:
        return "precise"
    if abs(est.mean) >= 2 * est.half_width:  # the bound nearest zero is a half-width or more away from it
        return "clear"
    return ""


def entries_of(policy: Policy, pairs: tuple[tuple[str, str], ...]) -> list[Entry]:
    """Every feature alone (or, with pairs, the features they name), then each pair's second feature."""
    singles = list(dict.fromkeys(n for p in pairs for n in p)) if pairs else list(FEATURE_NAMES)
    out = []
    for name in singles:
        w = float(policy.weights[FEATURE_INDEX[name]])
        if w == 0:
            out.append(Entry(name, w, (), None, None, stopped=SKIPPED))
        else:
            out.append(Entry(name, w, (), policy, without(policy, (name,))))
    for a, b in pairs:
        w = float(policy.weights[FEATURE_INDEX[b]])
        out.append(Entry(b, w, (a,), without(policy, (a,)), without(policy, (a, b))))
    return out


class Knockout:
    """A knockout run: its entries keep every finished chunk, so an interrupted run still has a table."""

    def __init__(self, config: KnockoutConfig):
        self.config = config
        self.policy = config.heuristic()
        self.rules = get_rules(config.rules)
        self.entries = entries_of(self.policy, config.pairs)

    def run(self, progress: Progress | None = None) -> pd.DataFrame:
        """Play chunk after chunk, each active entry on the same rows, until every entry has stopped."""
        cfg = self.config
        active = [e for e in self.entries if not e.stopped]
        seated = seatings(self.rules)  # a deal's rounds: one per seating (mirrored pair, seats or teams turned)
        per_deal = len(seated)
        total = per_deal * cfg.deals * len(active)
        done = 0
        if progress:
            progress(done, total)
        with use_threads(cfg.threads):
            for _, rows in chunked_rows(cfg.seed, cfg.deals, cfg.chunk_deals, seated):
                for e in active:
                    e.diffs.append(deal_headline("numba", rows, self.rules, e.baseline, e.challenger))
                    done += len(rows)
                    e.stopped = stop_reason(e.estimate(), cfg.precision)
                    if e.stopped:
                        total -= per_deal * (cfg.deals - e.deals)
                    elif e.deals >= cfg.deals:
                        e.stopped = "most deals"
                active = [e for e in active if not e.stopped]
                if progress:
                    progress(done, total)
                if not active:
                    break
        return self.table()

    def table(self) -> pd.DataFrame:
        """One row per entry, most valuable first (skipped features last): the worth in points per mirrored deal
        with its 95% interval, the deals it took and why it stopped ('interrupted' while it was still playing)."""
        rows = []
        for e in self.entries:
            est = e.estimate()
            rows.append(
                {
                    "feature": e.feature,
                    "given_out": ",".join(e.given_out),
                    "weight": e.weight,
                    **est.as_dict("worth_"),
                    "deals": e.deals,
                    "stopped": e.stopped or "interrupted",
                }
            )
        t = pd.DataFrame(rows).drop(columns="worth_n")
        t["_skipped"] = t["stopped"] == SKIPPED
        t = t.sort_values(["_skipped", "worth_mean"], ascending=[True, False], kind="stable")
        return t.drop(columns="_skipped").reset_index(drop=True)
