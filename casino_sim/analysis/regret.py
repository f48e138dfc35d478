"""How far from best play a policy's last-batch decisions are, with the exact solver as the truth.

Each policy plays seeded rounds (against itself, or mirrored against --vs); in
the last batch every card is known, so each of its plays there is valued
exactly: the best legal move's value and the played move's, as the mover's
final point difference under best play afterwards. A decision is a play with
two or more legal moves (forced plays are counted apart); it is best when the
played move's value equals the best. The points lost per round are the sum over
one seat's last-batch plays of a round. Plays of one deal share their cards, so
every interval is clustered by deal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import pandas as pd

from casino_sim.core.errors import InputError
from casino_sim.core.rules import RulesError, get_rules
from casino_sim.engines import get_engine
from casino_sim.kernels import judge_last_batch
from casino_sim.policies.names import check_distinct
from casino_sim.policies.policy import Load
from casino_sim.reports.stats import cluster_mean_ci, cluster_wilson
from casino_sim.runner.deals import chunked_rows
from casino_sim.runner.play import engine_for
from casino_sim.runner.recording import new_trace
from casino_sim.runner.seating import Lineup, Resolves, resolved_field, seatings
from casino_sim.runner.threads import use_threads

Progress = Callable[[int, int], None]  # (decisions done, decisions planned)
CHUNK_DEALS = 64  # deals per chunk: the seeds are the chunk's, so the table does not depend on the thread count
MAX_DECISIONS = 10**7
MAX_POLICIES = 16
# --decisions by default: well under a minute for each kind of policy (rollouts decide at every play of a round)
AUTO_DECISIONS = {
    "random": 10_000,
    "heuristic": 10_000,
    "rollout": 300,
    "searcher": 300,
    "python": 1_000,
    "exec": 1_000,
}
LAST_PLY = 41  # the first play of the last batch, counted from 1 as the recorded moves count plies


@dataclass(frozen=True)
class RegretConfig(Resolves):
    """What decides a regret table (threads do not change it); its options' declared bounds are checked by its front
    door (experiments/skill_runs.py), the rest by resolve()."""

    policies: tuple[str, ...] = ("expert",)
    vs: str | None = None  # None: each policy against itself
    decisions: int | None = None  # per policy; None: AUTO_DECISIONS by the slower kind at the table
    rules: str = "strict"
    seed: int = 0
    threads: int = 0

    # the policies and --vs resolved once, by resolve() (the front door's); never in the report's config
    resolved: Lineup | None = resolved_field()

    def specs(self) -> tuple[str, ...]:
        """The policies, then --vs."""
        return (*self.policies, *([self.vs] if self.vs else []))

    def resolve(self, load: Load) -> RegretConfig:
        """The table's specification: one clear error for an impossible option, the policies resolved once by
        `load`."""
        if not 1 <= len(self.policies) <= MAX_POLICIES:
            raise InputError(f"give 1 to {MAX_POLICIES} policies, got {len(self.policies)}")
        if get_rules(self.rules).players != 2:  # the rule: the hidden last batch (docs/rules.md 11)
            raise RulesError(
                f"regret needs two players, not {self.rules}: it judges plays by the exact last batch, and with "
                "three or four players the split of the unseen cards among the other hands is unknown"
            )
        spec = self.resolve_with(load)
        lineup = spec.lineup()
        check_distinct(zip(lineup.specs, lineup.policies))
        for name in self.policies:
            spec.seats(name)
        return spec

    def seats(self, name: str):
        """(the policy, its opponent, the engine that plays them); InputError when no engine can."""
        policy = self.lineup().policy(name)
        vs = policy if self.vs is None else self.lineup().policy(self.vs)
        vs = policy if vs.name == policy.name else vs  # the same policy (a file loads anew each time): itself
        return policy, vs, engine_for("numba", (policy, vs))

    def decisions_for(self, name: str) -> int:
        """The decisions to judge for one policy: --decisions, or the default of the slower kind at the table."""
        if self.decisions is not None:
            return self.decisions
        policy, vs, _ = self.seats(name)
        return min(AUTO_DECISIONS[policy.kind], AUTO_DECISIONS[vs.kind])


def judged_plays(rows, judged: np.ndarray, both_seats: bool) -> pd.DataFrame:
    """One row per last-batch play of policy A's seat (both seats when it plays itself): deal_id, mirror, seat,
    ply, moves, best, played, lost. `judged` is engine.judge_last_batch's answer for the rows."""
    n = len(rows)
    k = judged.shape[1]
    seat = judged[:, :, 0].ravel()
    a_moved = rows.seating[np.repeat(np.arange(n), k), seat] == 0  # the mover plays policy A
    mine = np.ones(n * k, dtype=bool) if both_seats else a_moved
    t = pd.DataFrame(
        {
            "deal_id": np.repeat(rows.deal_id, k),
            "mirror": np.repeat(rows.mirror, k),
            "seat": seat.astype(np.int8),
            "ply": np.tile(np.arange(LAST_PLY, LAST_PLY + k, dtype=np.int8), n),
            "moves": judged[:, :, 1].ravel(),
            "best": judged[:, :, 2].ravel(),
            "played": judged[:, :, 3].ravel(),
        }
    )
    t["lost"] = t["best"] - t["played"]
    return t[mine].reset_index(drop=True)


def _until(chunks: list[pd.DataFrame], target: int) -> pd.DataFrame:
    """The plays of whole deals, up to the deal whose decisions reach `target` (all of them when none does)."""
    plays = pd.concat(chunks, ignore_index=True)
    per_deal = (plays["moves"] > 1).groupby(plays["deal_id"], sort=False).sum().cumsum()
    reached = np.searchsorted(per_deal.to_numpy(), target)
    if reached >= len(per_deal):
        return plays
    return plays[plays["deal_id"] <= per_deal.index[reached]].reset_index(drop=True)


class Regret:
    """A regret run over its policies, one after the other; `chunks` keeps every finished chunk per policy, so an
    interrupted run still has a table, and `seconds` how long each policy took."""

    def __init__(self, config: RegretConfig):
        self.config = config
        self.rules = get_rules(config.rules)
        self.chunks: dict[str, list[pd.DataFrame]] = {}
        self.seconds: dict[str, float] = {}

    def run(self, bar: Callable[[str], ContextManager[Progress]] | None = None) -> pd.DataFrame:
        """Judge each policy's plays; `bar(policy)` opens a progress bar (decisions done, planned) for each."""
        for name in self.config.policies:
            start = time.perf_counter()
            with bar(name) if bar else nullcontext(None) as progress:
                self._judge(name, progress)
            self.seconds[name] = time.perf_counter() - start
        return self.table()

    def _judge(self, name: str, progress: Progress | None) -> None:
        """Chunk by chunk until `decisions_for` decisions are judged; then only the whole deals that reach it."""
        policy, vs, engine = self.config.seats(name)
        target = self.config.decisions_for(name)
        chunks = self.chunks[name] = []
        done = 0
        if progress:
            progress(done, target)
        with use_threads(self.config.threads):
            seated = seatings(self.rules, mirrored=vs is not policy)
            for _, rows in chunked_rows(self.config.seed, MAX_DECISIONS, CHUNK_DEALS, seated):
                trace = new_trace(len(rows))
                get_engine(engine).play(rows, self.rules, (policy, vs), trace=trace)
                judged = judge_last_batch(self.rules, rows.decks, rows.dealer, trace)
                chunks.append(judged_plays(rows, judged, both_seats=vs is policy))
                done += int((chunks[-1]["moves"] > 1).sum())
                if progress:
                    progress(min(done, target), target)
                if done >= target:
                    break
        chunks[:] = [_until(chunks, target)]

    def plays(self, name: str) -> pd.DataFrame:
        """Every judged play of one policy so far."""
        chunks = self.chunks.get(name)
        return pd.concat(chunks, ignore_index=True) if chunks else pd.DataFrame()

    def table(self) -> pd.DataFrame:
        """One row per policy with judged plays, in the order given."""
        out = []
        for name in self.config.policies:
            plays = self.plays(name)
            if len(plays):
                policy, vs, _ = self.config.seats(name)
                out.append(regret_row(name, "itself" if vs is policy else self.config.vs, plays))
        return pd.DataFrame(out).drop(columns=[c for c in (out[0] if out else {}) if c.endswith("_n")])


def regret_row(name: str, vs: str, plays: pd.DataFrame) -> dict:
    """One policy's line: decisions, best-move share (Wilson), points lost per decision and per round (Student t)."""
    choice = plays[plays["moves"] > 1]
    rounds = plays.groupby(["deal_id", "mirror", "seat"], sort=False)["lost"].sum().reset_index()
    best = cluster_wilson((choice["lost"] == 0).to_numpy(), choice["deal_id"].to_numpy())
    return {
        "policy": name,
        "vs": vs,
        "deals": plays["deal_id"].nunique(),
        "rounds": len(rounds),
        "decisions": len(choice),
        "forced": int((plays["moves"] == 1).sum()),
        **best.as_dict("best_"),
        **cluster_mean_ci(choice["lost"], choice["deal_id"]).as_dict("lost_per_decision_"),
        **cluster_mean_ci(rounds["lost"], rounds["deal_id"]).as_dict("lost_per_round_"),
    }
