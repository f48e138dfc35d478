"""Compile ahead, behind one notice and a progress bar, the numba kernels a command will run.

Numba compiles a kernel at its first call, so a command compiled a kernel family
wherever it first played one, each with its own wait. Here each kind of work of
kernels/compiled.py is played once on a tiny input before the command starts, so
the wait comes first, is shown (kernels done, elapsed, the one compiling), and
is timed apart from the play. With numba's cache warm nothing is shown or done:
the kernels load at first use (under a second). The kernels are imported inside
the functions that play them (numba loads there): commands read WHAT without
compiling anything.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from contextlib import contextmanager

import numpy as np

from casino_sim.core.cards import format_card
from casino_sim.core.child import python_code
from casino_sim.core.featurespec import N_FEATURES
from casino_sim.core.rules import STRICT
from casino_sim.policies.arrays import policy_arrays
from casino_sim.policies.fields import ROLLOUT_DEFAULTS
from casino_sim.policies.kinds import HeuristicPolicy, RandomPolicy, RolloutPolicy
from casino_sim.reference.position import Position

COMPILE_STACK = 1 << 30  # bytes of stack for the compiling thread (address space: pages are used as touched)
NOTICE = "compiling the numba engine for {what} (first run after install or upgrade only; about 15 seconds)"

# What each kind of work (kernels/compiled.py's ENTRY_KERNELS) compiles, in the notice's words.
WHAT = {
    "rounds": "rounds",
    "moves": "legal moves",
    "apply": "playing a move",
    "rollout": "the rollout and searcher policies",
    "analyse": "the analysis",
    "regret": "judging the last batch",
}


def search_variants(tables) -> tuple[bool, ...]:
    """The round kernels' variants these tables play on (each table: the policies playing together, resolved at the
    front door): True where a rollout or searcher sits (with the search kernels), False elsewhere; (False,) for no
    table."""
    return tuple(sorted({any(policy.searches for policy in table) for table in tables})) or (False,)


def _scripted(search: bool = False):
    """One two-player round of scripted seats on the row kernel, which plays every player count with the same
    compiled code: (its moves, its record); `search`: in the variant of the kernel for seats that search."""
    from casino_sim.kernels import PLIES, play_round_scripted_raw

    # a stream that captures often (always trailing would pile up the table beyond any enumeration)
    return play_round_scripted_raw(STRICT, np.arange(52), 0, np.arange(PLIES, dtype=np.int64) * 7919 + 13, search)


def _last_batch():
    """A two-player position of the last batch (every card known), where each position kernel runs whole."""
    c = [format_card(i) for i in range(52)]
    return Position.from_json({"hands": [c[0:4], c[4:8]], "loose": c[8:12], "captured": [c[12:32], c[32:52]]})


def _moves(_search: bool) -> None:
    from casino_sim.kernels import legal_move_rows

    legal_move_rows(_last_batch())


def _apply(_search: bool) -> None:
    from casino_sim.kernels import apply_move, legal_moves

    pos = _last_batch()
    apply_move(pos, legal_moves(pos)[0])


# What the warm-ups below play: a heuristic weighing every feature, and a rollout on it (numba compiles a kernel for
# the types of its arguments, never their values: any weights and parameters compile what the built-ins run).
WARM_HEURISTIC = HeuristicPolicy("warm-up", "", weights=np.ones(N_FEATURES))
WARM_ROLLOUT = RolloutPolicy("warm-up rollout", "", params=dict(ROLLOUT_DEFAULTS), base=WARM_HEURISTIC)


def _rollout(_search: bool) -> None:
    from casino_sim.kernels import search_choose

    ints, weights, wants = policy_arrays((WARM_ROLLOUT, RandomPolicy("warm-up random", "")))
    search_choose(_last_batch(), ints[0], weights[2], wants[2], 1)


def _analyse(_search: bool) -> None:
    from casino_sim.kernels import exact_values, legal_moves, rollout_diffs

    pos = _last_batch()
    moves = legal_moves(pos)
    ints, weights, wants = policy_arrays((WARM_HEURISTIC, WARM_HEURISTIC))
    rollout_diffs(pos, moves, int(ints[0, 0]), weights[0], wants[0], 2, 1)
    exact_values(pos, moves)


def _regret(search: bool) -> None:
    from casino_sim.kernels import judge_last_batch

    moves, _ = _scripted(search)
    judge_last_batch(STRICT, np.arange(52)[None], np.zeros(1, np.int64), moves[None].copy())


# Each takes `search`: the round kernels' variant to compile (ensure_compiled's); the others ignore it.
WARMUPS = {
    "rounds": _scripted,
    "moves": _moves,
    "apply": _apply,
    "rollout": _rollout,
    "analyse": _analyse,
    "regret": _regret,
}


def ensure_compiled(*work: str, console=None, search: tuple[bool, ...] = (False,), ahead: bool = True) -> float:
    """Compile every kernel of these kinds of work now, behind one notice and a progress bar on stderr (or
    `console`); the seconds it took, 0.0 when numba's cache holds them all (then nothing is shown). `search`: the
    round kernels' variants the rounds play on (search_variants); `ahead`: give the heuristic's choice its head
    start on a second core (off where other processes keep the cores busy already)."""
    from casino_sim.kernels.compiled import kernels_due, will_compile

    work = tuple(dict.fromkeys(work))
    if not work or not any(will_compile(*work, search=s) for s in search):
        return 0.0
    t0 = time.perf_counter()
    due = {name for s in search for name in kernels_due(*work, search=s)}
    with _showing(work, console, search, due) as shown:
        _on_deep_stack(lambda: _compile(work, search, due, shown, ahead))
    return time.perf_counter() - t0


def _compile(work: tuple[str, ...], search: tuple[bool, ...], due: set[str], shown, ahead: bool) -> None:
    """The warm-ups; first, with `ahead`, when the heuristic's choice is `due` and a second core is there, its head
    start (kernels/headstart.py): a second process compiles it while this one compiles the kernels beside it."""
    from casino_sim.kernels.headstart import AHEAD_KERNEL, BESIDE, compile_examples

    second = _start_ahead() if ahead and AHEAD_KERNEL in due and (os.cpu_count() or 1) > 1 else None
    if second is not None:
        try:
            compile_examples(BESIDE, only=due)
            shown(f"{AHEAD_KERNEL} (a second process)")
            second.wait()
        finally:
            if second.poll() is None:  # this process failed first: the other's work is of no use
                second.kill()
                second.wait()
        shown()  # what it compiled is cached now: done
    for s in search:
        for kind in work:
            WARMUPS[kind](s)


def _start_ahead() -> subprocess.Popen | None:
    """The second process of the head start, on the same sources as this one (core/child.py: not a checkout in the
    current folder) and the same numba cache (the environment's NUMBA_CACHE_DIR, core/numba_cache.py). A failure
    there costs nothing but time: the warm-up compiles what is not cached."""
    try:
        return subprocess.Popen(
            python_code("from casino_sim.kernels.headstart import compile_examples; compile_examples()"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None


def _on_deep_stack(fn) -> None:
    """fn() on a thread with a deep stack (its exception raised here): LLVM recurses deeply compiling the row
    kernels, and overflowed (a segfault) the 8 MiB of a main thread's usual limit."""
    error = []

    def run():
        try:
            fn()
        except BaseException as e:  # noqa: BLE001 - raised again in the caller's thread
            error.append(e)

    before = threading.stack_size(COMPILE_STACK)
    try:
        # not a daemon: after Ctrl-C the process waits for the kernel being compiled (kept in the cache) to end,
        # as a daemon thread inside LLVM crashed the interpreter's exit (a segfault)
        thread = threading.Thread(target=run, name="casino-compile")
        thread.start()
    finally:
        threading.stack_size(before)
    thread.join()
    if error:
        raise error[0]


@contextmanager
def _showing(work: tuple[str, ...], console, search: tuple[bool, ...], due: set[str]):
    """The notice, then a bar of the `due` kernels compiled (live on a terminal; its last state once elsewhere).
    Yields shown(note=None): show `note` as what is compiling, or (no note) count the due kernels numba's cache now
    holds as done (another process compiled them)."""
    from rich.console import Console  # deferred, with rich.progress: only when a compile is due
    from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from casino_sim.kernels.compiled import compile_events, kernels_due

    console = console or Console(stderr=True)
    console.print(
        NOTICE.format(what=" and ".join(dict.fromkeys(WHAT[k] for k in work))), highlight=False, soft_wrap=True
    )
    done: set[str] = set()
    compiling: list[str] = []
    columns = (
        SpinnerColumn(finished_text=" "),
        TextColumn("kernels"),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[kernel]}"),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("compiling", total=max(len(due), 1), kernel="")

        def started(name: str) -> None:
            if name in due:  # not numba's own jitted helpers, compiled along
                compiling.append(name)
                bar.update(task, kernel=name)

        def finished(name: str) -> None:
            if name in due:
                done.add(name)
                if name in compiling:  # a kernel compiles its callees first: back to the one that called
                    compiling.remove(name)
                bar.update(task, completed=len(done), kernel=compiling[-1] if compiling else "")

        def shown(note: str | None = None) -> None:
            if note is None:
                done.update(due.difference(*(kernels_due(*work, search=s) for s in search)))
                note = compiling[-1] if compiling else ""
            bar.update(task, completed=len(done), kernel=note)

        with compile_events(started, finished):
            yield shown
        bar.update(task, kernel="", total=len(done), completed=len(done))
