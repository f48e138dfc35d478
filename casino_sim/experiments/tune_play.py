"""How `tune` scores candidate weights: each plays the same mirrored deals against every opponent of the field.

With three or four players a mirrored deal is played in every seating: the candidate alone in each seat with
the opponent in the others, or the candidate's team against the opponent's and then swapped.

A generation's candidates share one set of deals (common random numbers), so the
differences between their scores are the differences between their weights, not luck.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from casino_sim.core.rules import get_rules
from casino_sim.experiments.compare import deal_headline
from casino_sim.policies.kinds import HeuristicPolicy
from casino_sim.policies.policy import Policy
from casino_sim.runner.chunk_seeding import chunk_rows
from casino_sim.runner.seating import seatings


def candidate_policy(weights: np.ndarray, name: str = "candidate", description: str = "") -> HeuristicPolicy:
    """A heuristic policy built in memory from a weight vector (FEATURE_NAMES order)."""
    return HeuristicPolicy(name, description, source="tune", weights=np.asarray(weights, dtype=np.float64))


@dataclass(frozen=True)
class FieldJob:
    """Candidates (one weight row each) to play `deals` mirrored deals from `rows_seed` against `field`.

    A backend maps `play_candidate` over candidate indices; `threads` is what the local backend runs on.
    """

    weights: np.ndarray  # (candidates, features)
    field: tuple[Policy, ...]
    rules: str
    deals: int
    rows_seed: int
    threads: int = 0


def play_candidate(job: FieldJob, k: int) -> np.ndarray:
    """Candidate k's points minus each opponent's per mirrored deal, averaged over the field: one value a deal.

    The deals are one block of `rows_seed`'s stream, with no chunk size to depend on: drawn as earlier versions drew
    them (runner/chunk_seeding.py), so that tune runs resume as they were started."""
    ruleset, me = get_rules(job.rules), candidate_policy(job.weights[k])
    rows = chunk_rows(job.rows_seed, 0, job.deals, seatings(ruleset))
    return np.mean([deal_headline("numba", rows, ruleset, me, opp) for opp in job.field], axis=0)


def play_field(backend, job: FieldJob, progress=None) -> np.ndarray:
    """Every candidate's per-deal differences, (candidates, deals), in candidate order whatever the backend."""
    out = np.zeros((len(job.weights), job.deals))
    for done, (k, diffs) in enumerate(backend.map(play_candidate, job, range(len(job.weights))), start=1):
        out[k] = diffs
        if progress is not None:
            progress(done)
    return out
