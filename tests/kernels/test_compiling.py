"""Compiling ahead: one notice and a progress bar for everything a command compiles, nothing when cached, and
warm-ups that compile the very versions the commands then run."""

from __future__ import annotations

import io
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from numba.core import event
from rich.console import Console

from casino_sim.engines import compiling
from casino_sim.kernels import compiled
from casino_sim.kernels.headstart import AHEAD_KERNEL
from tests.support.policies import LOADER, get_policy


def fake_kernel(name: str):
    module, function = name.split(".")
    where = module if module == "numba" else f"casino_sim.kernels.{module}"
    return SimpleNamespace(py_func=SimpleNamespace(__module__=where, __name__=function))


def compiles(*names: str):
    """A warm-up that 'compiles' these kernels: numba's compile events, as numba sends them."""

    def warm(_search=False):
        for name in names:
            with event.trigger_event("numba:compile", data={"dispatcher": fake_kernel(name)}):
                pass

    return warm


def test_a_command_needing_two_kinds_of_kernels_shows_one_notice_and_the_kernels_done(monkeypatch):
    warmed = []
    monkeypatch.setattr(compiled, "will_compile", lambda *work, search: True)
    due = ["rows._play_rows", "movegen._movegen", "x._judge"]
    monkeypatch.setattr(compiled, "kernels_due", lambda *work, search: due)
    monkeypatch.setattr(
        compiling,
        "WARMUPS",
        {
            "rounds": lambda _: (warmed.append("rounds"), compiles("movegen._movegen", "rows._play_rows")()),
            "apply": compiles("numba.impl"),  # numba's own helpers compile along: not counted
            "regret": lambda _: (warmed.append("regret"), compiles("x._judge")()),
        },
    )
    out = io.StringIO()
    seconds = compiling.ensure_compiled("rounds", "regret", "rounds", "apply", console=Console(file=out, width=200))
    text = out.getvalue()
    assert warmed == ["rounds", "regret"]  # each kind once, in the order asked
    assert text.count("compiling the numba engine") == 1
    assert "for rounds and judging the last batch and playing a move (" in text
    assert "kernels 3/3" in text
    assert isinstance(seconds, float) and seconds >= 0


def test_with_the_kernels_cached_nothing_is_shown_or_compiled(monkeypatch):
    monkeypatch.setattr(compiled, "will_compile", lambda *work, search: False)
    monkeypatch.setattr(compiling, "WARMUPS", {"rounds": lambda _: pytest.fail("compiled although cached")})
    out = io.StringIO()
    assert compiling.ensure_compiled("rounds", console=Console(file=out)) == 0.0
    assert out.getvalue() == ""


def test_every_kind_of_work_has_a_warm_up_and_words():
    assert set(compiling.WARMUPS) == set(compiled.ENTRY_KERNELS) == set(compiling.WHAT)


def test_kernels_due_are_the_ones_numba_compiles_on_their_own(monkeypatch):
    monkeypatch.setattr(compiled, "_has_cached_code", lambda kernel, search=False: False)  # a cold cache
    simulate, regret = set(compiled.kernels_due("rounds", search=True)), set(compiled.kernels_due("regret"))
    assert {"rows._play_rows", "rows._play_block", "movegen._movegen", "exact._exact_values"} <= simulate
    assert "rows._play_row" not in simulate  # inlined into _play_block: never compiled alone
    # without a seat that searches, the rounds' variant never reaches the search kernels
    plain = set(compiled.kernels_due("rounds"))
    assert (
        plain < simulate and {"search._search_index", "rollout._rollout_index", "exact._exact_values"} & plain == set()
    )
    # nor, compiled ahead (without --check), the invariants of kernels/check.py
    assert not {k for k in simulate | regret if k.startswith("check.")}
    judge = {k for k in regret if k.startswith("lastbatch.")}  # and the exact solver, as the searching rounds use it
    assert plain <= regret <= simulate | judge and "lastbatch._judge_rows" in regret
    monkeypatch.setattr(
        compiled, "_has_cached_code", lambda kernel, search=False: compiled.kernel_name(kernel) != "rows._play_rows"
    )
    assert compiled.kernels_due("rounds") == ["rows._play_rows"]


@pytest.mark.parametrize("kind", ["rounds", "regret", "analyse", "rollout", "apply"])
def test_each_warm_up_compiles_its_entry_kernels(kind):
    compiling._on_deep_stack(lambda: compiling.WARMUPS[kind](False))  # compiled there if the cache is cold, else loaded
    for module, name in compiled.ENTRY_KERNELS[kind]:
        assert compiled._entry(module, name).signatures, f"{module}.{name}"


def test_a_warm_up_compiles_the_version_the_command_then_runs():
    """No second compile after the warm-up: the real call takes the warm-up's signature (two players: the variant
    with the search kernels, as a rollout plays; four: without, as random seats play)."""
    import casino_sim as cs
    from casino_sim.kernels.decide import _rollout_diffs
    from casino_sim.kernels.rows import _play_rows

    warm = compiling.WARMUPS
    compiling._on_deep_stack(lambda: [warm["rounds"](True), warm["rounds"](False), warm["analyse"](False)])
    kernels = (_play_rows, _rollout_diffs)  # one row kernel for every player count
    warmed = [set(kernel.signatures) for kernel in kernels]  # other tests of this process may have made others
    from casino_sim.experiments.simulate import SimConfig, play_chunk

    play_chunk(SimConfig(deals=4, policy_a="rollout", policy_b="greedy", chunk_deals=4, card_deals=2, loader=LOADER), 0)
    play_chunk(SimConfig(deals=2, rules="italian:players=4", chunk_deals=2, loader=LOADER), 0)
    cs.analyse({"hands": [["7D", "TD", "2S", "KH"], None], "loose": ["3C", "4H", "KC", "TS"]}, worlds=4)
    for kernel, before in zip(kernels, warmed, strict=True):
        assert set(kernel.signatures) == before, kernel.signatures


def test_the_compile_runs_on_a_deep_stack_and_its_error_reaches_the_command():
    """A cold compile of the row kernels overflowed an 8 MiB stack in LLVM (a segfault, exit 139)."""
    import threading

    seen = []

    def compile_step():
        seen.append(threading.current_thread().name)
        raise ValueError("bad kernel")

    with pytest.raises(ValueError, match="bad kernel"):
        compiling._on_deep_stack(compile_step)
    assert seen == ["casino-compile"] and threading.stack_size() == 0  # the deep stack was for that thread only
    assert compiling.COMPILE_STACK >= 256 << 20


def test_tables_without_a_searching_seat_compile_the_rounds_without_the_search_kernels():
    from casino_sim.kernels.rows import _play_rows

    expert, greedy, rollout, random = (get_policy(name) for name in ("expert", "greedy", "rollout", "random"))
    assert compiling.search_variants([(expert, greedy)]) == compiling.search_variants([]) == (False,)
    assert compiling.search_variants([(expert, rollout), (greedy, random)]) == (False, True)
    compiling._on_deep_stack(lambda: compiling.WARMUPS["rounds"](False))
    search = _play_rows.py_func.__code__.co_varnames.index("search")
    assert any(str(sig[search]) == "none" for sig in _play_rows.signatures)  # search None: the variant without them
    assert compiled._has_cached_code(_play_rows, search=False)


def test_check_is_a_variant_of_the_round_kernels():
    """--check plays the variant with the invariants (True); every other run the one without them (None), the one
    compiled ahead and looked for in the cache."""
    from casino_sim.kernels.rows import _play_rows, check_switch

    assert check_switch(True) is True and check_switch(False) is None
    variant = compiled._variant(_play_rows, search=False)
    assert sorted(variant.values()) == ["none", "none"]  # check and search, by their positions


def head_start(monkeypatch, events: list, ahead, beside):
    """ensure_compiled("rounds") on two cores with the heuristic's choice due, its second process `ahead` (a
    fake), this process's kernels beside it `beside`; the bar's text."""
    from casino_sim.kernels import headstart

    due = [AHEAD_KERNEL, "movegen._movegen", "rows._play_rows"]
    monkeypatch.setattr(compiled, "will_compile", lambda *work, search: True)
    # asked once for the bar, then once the second process is done: its kernel is in the cache now
    answers = iter([due, ["movegen._movegen", "rows._play_rows"]])
    monkeypatch.setattr(compiled, "kernels_due", lambda *work, search: next(answers))
    monkeypatch.setattr(compiling.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(compiling, "_start_ahead", lambda: events.append("started") or ahead)
    monkeypatch.setattr(headstart, "compile_examples", beside)
    warm_up = compiles("rows._play_rows")
    monkeypatch.setattr(compiling, "WARMUPS", {"rounds": lambda s: (events.append("warm-up"), warm_up(s))})
    out = io.StringIO()
    compiling.ensure_compiled("rounds", console=Console(file=out, width=200))
    return out.getvalue()


class Ahead:
    """A second process as subprocess.Popen answers: running until waited for, or ended already."""

    def __init__(self, events: list, running: bool):
        self.events, self.running = events, running

    def poll(self):
        return None if self.running else 0

    def wait(self):
        self.events.append("waited")
        self.running = False

    def kill(self):
        self.events.append("killed")


def test_a_second_process_compiles_the_choice_meanwhile_and_the_bar_counts_it(monkeypatch):
    from casino_sim.kernels.headstart import BESIDE

    events = []

    def beside(examples, only):
        assert examples == BESIDE and AHEAD_KERNEL in only
        events.append("beside")
        compiles("movegen._movegen")()

    text = head_start(monkeypatch, events, Ahead(events, running=True), beside)
    assert events == ["started", "beside", "waited", "warm-up"]  # the warm-up loads what both compiled
    assert "kernels 3/3" in text  # the second process's kernel counted as done


def test_the_second_process_is_stopped_when_this_one_fails(monkeypatch):
    events = []

    def beside(_examples, only):
        raise RuntimeError("out of memory")

    with pytest.raises(RuntimeError, match="out of memory"):
        head_start(monkeypatch, events, Ahead(events, running=True), beside)
    assert events == ["started", "killed", "waited"]


def test_one_core_compiles_alone(monkeypatch):
    monkeypatch.setattr(compiled, "will_compile", lambda *work, search: True)
    monkeypatch.setattr(compiled, "kernels_due", lambda *work, search: [AHEAD_KERNEL])
    monkeypatch.setattr(compiling.os, "cpu_count", lambda: 1)
    monkeypatch.setattr(compiling, "_start_ahead", lambda: pytest.fail("a second process on one core"))
    monkeypatch.setattr(compiling, "WARMUPS", {"rounds": compiles(AHEAD_KERNEL)})
    out = io.StringIO()
    compiling.ensure_compiled("rounds", console=Console(file=out, width=200))
    assert "kernels 1/1" in out.getvalue()


def test_the_head_start_compiles_the_versions_the_rounds_then_run():
    """Its examples have the types the round kernels pass: no warm-up compiles a second version of its kernels."""
    from casino_sim.kernels.headstart import AHEAD, BESIDE, compile_examples

    kernels = compile_examples(AHEAD + BESIDE)
    assert [compiled.kernel_name(kernel) for kernel in kernels[: len(AHEAD)]] == [AHEAD_KERNEL]  # the one it names
    before = [set(kernel.signatures) for kernel in kernels]
    warm = compiling.WARMUPS
    compiling._on_deep_stack(lambda: [warm["rounds"](s) for s in (False, True)])
    for kernel, signatures in zip(kernels, before, strict=True):
        assert set(kernel.signatures) == signatures, kernel.py_func.__name__


def test_the_second_process_runs_this_install_on_this_cache(tmp_path, monkeypatch):
    """From a folder holding another casino_sim (a checkout beside a `pip install .`), it still imports this one's
    sources, whose kernels the cache in the environment holds."""
    decoy = tmp_path / "casino_sim"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("raise SystemExit(3)\n")
    monkeypatch.chdir(tmp_path)
    cache = Path(os.environ["NUMBA_CACHE_DIR"])  # set by `import casino_sim`: a folder per source tree inside
    compiling._on_deep_stack(lambda: compiling.WARMUPS["rounds"](False))  # the kernels of this tree are in it
    trees = sorted(p.name for p in cache.iterdir() if p.is_dir())
    ahead = compiling._start_ahead()
    assert ahead.wait(timeout=600) == 0
    assert sorted(p.name for p in cache.iterdir() if p.is_dir()) == trees
