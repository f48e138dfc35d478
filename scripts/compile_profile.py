"""Where a cold numba compile goes: one casino-sim command run in-process on an empty numba cache, and a table of
each kernel's compile time and specialisations (docs/design.md "Round kernels in two variants").

    python scripts/compile_profile.py [--top N] [--passes] -- simulate --deals 200 --policy expert --vs greedy

Seconds are the process's CPU seconds (the machine may be busy). A kernel's `self` seconds leave out the kernels
it compiled inside (its callees); `total` includes them. `sigs` counts the specialisations (argument types) numba
compiled for it: more than one is a duplicate worth a look (a literal against a variable, int32 against int64, a
variant). The passes are numba's compiler passes (native_lowering includes LLVM's optimisation); --passes also
sums them over all kernels. Every kernel compiles here, in one process: the first run's head start (a second
process compiling the heuristic's choice meanwhile, kernels/headstart.py) is off.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=60, help="rows of the table (default 60)")
    parser.add_argument("--passes", action="store_true", help="also the compiler passes' seconds")
    parser.add_argument("command", nargs="+", help="the casino-sim command and its options, after --")
    args = parser.parse_args()
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="casino-numba-")  # cold: before numba is imported

    from numba.core import event

    from casino_sim.kernels.compiled import kernel_name

    # compiles and passes being timed: [kind, name, sig, start, seconds of any inside, seconds of kernels inside]
    stack: list[list] = []
    rows: dict[str, dict] = defaultdict(
        lambda: {"self": 0.0, "total": 0.0, "sigs": set(), "compiles": 0, "passes": defaultdict(float)}
    )
    passes: dict[str, float] = defaultdict(float)

    def begin(kind: str, name: str, sig: str = "") -> None:
        stack.append([kind, name, sig, time.process_time(), 0.0, 0.0])

    def end() -> None:
        kind, name, sig, start, inner, inner_kernels = stack.pop()
        took = time.process_time() - start
        if stack:
            stack[-1][4] += took
        outer = next((frame for frame in reversed(stack) if frame[0] == "kernel"), None)
        if kind == "pass":
            passes[name.split(" [")[0]] += took - inner
            if outer is not None:
                rows[outer[1]]["passes"][name.split(" [")[0]] += took - inner
            return
        if outer is not None:
            outer[5] += took
        row = rows[name]
        row["self"] += took - inner_kernels
        row["total"] += took
        row["sigs"].add(sig)
        row["compiles"] += 1

    class Compiles(event.Listener):
        def on_start(self, e):
            begin("kernel", kernel_name(e.data["dispatcher"]), str(e.data["args"]))

        def on_end(self, e):
            end()

    class Passes(event.Listener):
        def on_start(self, e):
            begin("pass", e.data["name"])

        def on_end(self, e):
            end()

    from casino_sim.cli import main as cli_main
    from casino_sim.engines import compiling

    compiling._start_ahead = lambda: None  # every kernel in this process, where it is timed: no head start

    cpu0, t0 = time.process_time(), time.perf_counter()
    event.register("numba:compile", Compiles())
    if args.passes:
        event.register("numba:run_pass", Passes())
    sys.argv = ["casino-sim", *args.command]
    try:
        cli_main()
    except SystemExit as e:
        if e.code:
            raise
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    _table(rows, args.top, wall, cpu)
    if args.passes:
        print("\ncompiler pass (self seconds, all kernels)", file=sys.stderr)
        for name, s in sorted(passes.items(), key=lambda kv: -kv[1])[:15]:
            print(f"{name:<40} {s:8.1f}", file=sys.stderr)


def _table(rows: dict, top: int, wall: float, cpu: float) -> None:
    """The kernels by self seconds, then the totals."""
    print(f"\n{'kernel':<32} {'self s':>7} {'total s':>8} {'sigs':>5} {'compiles':>8}  its top passes", file=sys.stderr)
    for name, row in sorted(rows.items(), key=lambda kv: -kv[1]["self"])[:top]:
        top_passes = sorted(row["passes"].items(), key=lambda kv: -kv[1])[:3]
        print(
            f"{name:<32} {row['self']:7.1f} {row['total']:8.1f} {len(row['sigs']):5d} {row['compiles']:8d}  "
            + ", ".join(f"{p} {s:.1f}" for p, s in top_passes),
            file=sys.stderr,
        )
    compiled = sum(r["self"] for r in rows.values())
    n_sigs = sum(len(r["sigs"]) for r in rows.values())
    print(
        f"{len(rows)} kernels, {n_sigs} specialisations, {compiled:.1f} s compiling; the command: {wall:.1f} s wall, "
        f"{cpu:.1f} s CPU",
        file=sys.stderr,
    )
    for name, row in rows.items():
        if len(row["sigs"]) > 1:
            print(f"  {name}: " + " | ".join(sorted(row["sigs"])), file=sys.stderr)


if __name__ == "__main__":
    main()
