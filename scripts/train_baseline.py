"""results/research/baseline.*: a first learning baseline, sb3-contrib's MaskablePPO on SoloEnv, and its curve.

    python scripts/train_baseline.py [--random-steps 80000] [--greedy-steps 80000] [--eval-every 40000]
                                     [--eval-deals 40] [--envs 4] [--seed 2026] [--threads 1]
                                     [--out results/research] [--work DIR] [--report-only]

Needs the `learn` extra (docs/research.md, "A first learning baseline": torch's CPU wheel first, then
`pip install '.[learn]'`). The learner plays strict rounds for two in casino_sim.pettingzoo's SoloEnv with
`zero_sum=True` (its reward: its points less the opponent's), seat 0 in half of the environments and seat 1 in the
others, its legal actions the factored encoding's mask; it trains --random-steps against `random`, then
--greedy-steps more against `greedy`. Every --eval-every steps (and before the first) it plays --eval-deals fixed
deals against greedy and against expert, each deal twice with the seats swapped (research/evaluate.py), its
deterministic action each time: points a round, the learner's side less the opponent's, with 95% Student's t
intervals over the deals. The model is saved to --work (default ~/.cache/casino-sim/baseline), never to results/.
baseline.csv grows at each evaluation; --report-only writes baseline.md and the chart again from it (with the
training's other options, so that the command and the planned steps are the run's).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from casino_sim.reports.charts import CI_NOTE, yerr
from casino_sim.reports.output import atomic_write, csv_bytes, save_figure
from casino_sim.reports.stats import mean_ci

ROOT = Path(__file__).resolve().parent.parent
WORK = Path.home() / ".cache" / "casino-sim" / "baseline"  # the trained model: not results
JUDGES = ("greedy", "expert")  # the policies the learner is evaluated against
COLUMNS = ["steps", "trained_against", "seconds"]
COLUMNS += [f"{judge}_{c}" for judge in JUDGES for c in ("mean", "ci_lo", "ci_hi")] + ["rounds"]


def curve_row(steps: int, against: str, seconds: float, points: dict[str, np.ndarray]) -> dict:
    """One line of the curve: for each judge, the learner's points a round (a deal's two rounds averaged, one
    sample a deal) with its 95% interval; `rounds` is the rounds played against each judge."""
    row = {"steps": steps, "trained_against": against, "seconds": round(seconds, 1)}
    for judge in JUDGES:
        e = mean_ci(points[judge].mean(axis=1))
        row |= {f"{judge}_mean": e.mean, f"{judge}_ci_lo": e.lo, f"{judge}_ci_hi": e.hi}
    return row | {"rounds": points[JUDGES[0]].size}


def write_curve(rows: list[dict], out: Path) -> pd.DataFrame:
    """baseline.csv in `out`, its numbers to 3 decimals."""
    table = pd.DataFrame(rows, columns=COLUMNS).round(3)
    atomic_write(out / "baseline.csv", csv_bytes(table))
    return table


def curve_chart(table: pd.DataFrame) -> Figure:
    """Points a round against each judge by training steps, 95% bars; where the opponent changed, a line."""
    fig = Figure(figsize=(6.0, 3.6), layout="constrained")
    ax = fig.subplots()
    for i, judge in enumerate(JUDGES):
        x = table["steps"] + (i - 0.5) * 0.01 * max(table["steps"].max(), 1)
        ax.errorbar(x, table[f"{judge}_mean"], yerr=yerr(table, f"{judge}_"), marker="o", capsize=3, label=judge)
    if (table["trained_against"] == "greedy").any():  # the last row against random is where greedy took over
        switch = table.loc[table["trained_against"] == "random", "steps"].max()
        ax.axvline(switch, color="grey", linestyle=":", label="trains against greedy from here")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set(xlabel="training steps (the learner's actions)", ylabel="points a round, learner − opponent")
    ax.set_title(f"MaskablePPO against greedy and expert\n({CI_NOTE})", fontsize=9)
    ax.legend(fontsize=8)
    return fig


def _env(opponent: str, seat: int):
    from casino_sim.pettingzoo import SoloEnv  # the research extra: only when the script runs

    return SoloEnv(opponent, seat=seat, rules="strict", zero_sum=True)


def _evaluate(model, seeds: list[int]) -> dict[str, np.ndarray]:
    from casino_sim.research.evaluate import mirrored_points

    def act(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return model.predict(observations, action_masks=masks, deterministic=True)[0]

    return {judge: mirrored_points(act, lambda seat, j=judge: _env(j, seat), seeds) for judge in JUDGES}


def train(args) -> list[dict]:
    """Both phases with an evaluation every --eval-every steps and at the end: the curve's rows."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from casino_sim.research.evaluate import deal_seeds

    torch.set_num_threads(args.threads)
    train_seed, eval_seed = np.random.SeedSequence(args.seed).generate_state(2)
    seeds, rows, clock = deal_seeds(int(eval_seed), args.eval_deals), [], {"train": 0.0, "since": time.perf_counter()}

    def record(model, against: str) -> None:
        clock["train"] += time.perf_counter() - clock["since"]
        rows.append(curve_row(model.num_timesteps, against, clock["train"], _evaluate(model, seeds)))
        write_curve(rows, args.out)  # as it goes: a stopped run keeps its curve so far
        print(pd.DataFrame(rows[-1:], columns=COLUMNS).round(3).to_string(index=False), flush=True)
        clock["since"] = time.perf_counter()

    class Every(BaseCallback):
        def __init__(self, against: str):
            super().__init__()
            self.against = against

        def _on_step(self) -> bool:
            before = self.num_timesteps - self.training_env.num_envs  # the steps before this call
            if self.num_timesteps // args.eval_every > before // args.eval_every:
                record(self.model, self.against)
            return True

    def venv(opponent: str, seed: int) -> DummyVecEnv:
        envs = DummyVecEnv([lambda i=i: _env(opponent, i % 2) for i in range(args.envs)])
        envs.seed(seed)
        return envs

    model = MaskablePPO(
        "MlpPolicy", venv("random", int(train_seed)), n_steps=args.rollout // args.envs, batch_size=256, n_epochs=4,
        gamma=1.0, ent_coef=0.01, learning_rate=3e-4, policy_kwargs={"net_arch": [256, 256]},
        seed=int(train_seed) % 2**31, device="cpu", verbose=0,
    )  # fmt: skip
    clock["since"] = time.perf_counter()
    record(model, "random")
    model.learn(args.random_steps, callback=Every("random"))
    model.set_env(venv("greedy", int(train_seed) + 1))
    model.learn(args.greedy_steps, callback=Every("greedy"), reset_num_timesteps=False)
    if rows[-1]["steps"] != model.num_timesteps:
        record(model, "greedy")
    args.work.mkdir(parents=True, exist_ok=True)
    model.save(args.work / "maskable_ppo")
    return rows


def _summary(table: pd.DataFrame) -> str:
    """What the curve says, from its first and last rows."""
    first, last = table.iloc[0], table.iloc[-1]
    words = []
    for judge in JUDGES:
        lo, hi = last[f"{judge}_ci_lo"], last[f"{judge}_ci_hi"]
        verdict = "ahead of" if lo > 0 else "behind" if hi < 0 else "not told apart from"
        words.append(
            f"against {judge} {first[f'{judge}_mean']:+.2f} points a round untrained and "
            f"{last[f'{judge}_mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] after {int(last['steps']):,} steps, {verdict} it"
        )
    return "The learner scored " + "; ".join(words) + "."


def write_report(table: pd.DataFrame, command: str, planned: int, out: Path) -> None:
    """baseline.md and the chart beside baseline.csv (its last row: the steps and training seconds in all)."""
    steps, seconds = int(table["steps"].iloc[-1]), float(table["seconds"].iloc[-1])
    stopped = f" The run was stopped after {steps:,} of its {planned:,} steps: the curve up to there." * (
        steps < planned
    )
    save_figure(curve_chart(table), out, "baseline")
    cells = ["steps", "trained against", *(f"vs {j}, 95% interval" for j in JUDGES), "rounds each"]
    lines = [f"| {' | '.join(cells)} |", "| ---: | --- | ---: | ---: | ---: |"]
    for r in table.itertuples():
        vs = [
            f"{getattr(r, f'{j}_mean'):+.2f} [{getattr(r, f'{j}_ci_lo'):+.2f}, {getattr(r, f'{j}_ci_hi'):+.2f}]"
            for j in JUDGES
        ]
        lines.append(f"| {r.steps:,} | {r.trained_against} | {' | '.join(vs)} | {r.rounds:,} |")
    text = [
        "# A first learning baseline: MaskablePPO against random, then greedy",
        "",
        f'Made by `{command}` (docs/research.md, "A first learning baseline").',
        "",
        f"Training: {steps:,} steps in {seconds / 60:.1f} minutes ({steps / max(seconds, 1e-9):,.0f} steps/s, one "
        "torch thread, the evaluations left out). Points a round are the learner's less the opponent's on fixed strict "
        "deals, each played twice with the seats swapped; 95% Student's t intervals over the deals." + stopped,
        "",
        *lines,
        "",
        "![curve](baseline.png) ([svg](baseline.svg), [csv](baseline.csv))",
        "",
        _summary(table),
        "",
    ]
    atomic_write(out / "baseline.md", "\n".join(text).encode())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--random-steps", type=int, default=80_000)
    p.add_argument("--greedy-steps", type=int, default=80_000)
    p.add_argument("--eval-every", type=int, default=40_000)
    p.add_argument("--eval-deals", type=int, default=40)
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--rollout", type=int, default=2048, help="steps a PPO update, over all environments")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", type=Path, default=ROOT / "results" / "research")
    p.add_argument("--work", type=Path, default=WORK)
    p.add_argument("--report-only", action="store_true", help="baseline.md and the chart again from baseline.csv")
    argv = sys.argv[1:] if argv is None else argv
    args = p.parse_args(argv)
    command = shlex.join(["python", "scripts/train_baseline.py", *(a for a in argv if a != "--report-only")])
    planned = args.random_steps + args.greedy_steps
    if args.report_only:
        if not (args.out / "baseline.csv").is_file():
            sys.exit(f"--report-only: no curve to report in {args.out} (baseline.csv)")
        write_report(pd.read_csv(args.out / "baseline.csv"), command, planned, args.out)
        return
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        sys.exit("train_baseline.py needs the learn extra: pip install '.[learn]' (docs/research.md)")
    args.out.mkdir(parents=True, exist_ok=True)
    write_report(write_curve(train(args), args.out), command, planned, args.out)
    print(f"wrote {args.out}/baseline.csv, baseline.md, baseline.png, baseline.svg", flush=True)


if __name__ == "__main__":
    main()
