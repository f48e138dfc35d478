"""The Dask backend: a real LocalCluster and a real scheduler with workers give the local run's tables."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings

import pandas as pd
import pytest

pytest.importorskip("distributed")

from casino_sim.experiments.simulate import SimConfig, play_chunks, play_run, start_run  # noqa: E402
from casino_sim.runner.backends import open_backend  # noqa: E402
from casino_sim.runner.rundir import RunDir  # noqa: E402
from tests.support.cli import assert_one_line_error, run_process  # noqa: E402  (a process per command: a Dask client logs through handlers set at import)
from tests.support.policies import LOADER
from tests.support.runs import chunk_killing_its_worker, cut_run, simulate_dir  # noqa: E402

SMALL = dict(deals=2000, policy_a="greedy", policy_b="random", seed=9, chunk_deals=250)


@pytest.fixture(scope="module")
def cluster():
    """A real LocalCluster: two single-threaded worker processes."""
    with open_backend("dask", threads=2) as backend:
        yield backend


def simulate_on(backend, path, **options) -> pd.DataFrame:
    config = SimConfig(**options).resolve(LOADER)
    rundir = RunDir(path)
    play_run(config, rundir, ["test"], backend)
    return rundir.read_rounds()


def assert_same_tables(run_a, run_b) -> None:
    """Every per-chunk table of two run folders (rounds, cards, games, ...) is equal, row for row."""
    a, b = RunDir(run_a), RunDir(run_b)
    names = sorted(d.name for d in a.path.iterdir() if d.name != "report" and any(d.glob("chunk-*.parquet")))
    assert "rounds" in names
    assert names == sorted(d.name for d in b.path.iterdir() if d.name != "report" and any(d.glob("chunk-*.parquet")))
    for name in names:
        pd.testing.assert_frame_equal(a.read_table(name), b.read_table(name))


def test_local_cluster_gives_the_local_tables(cluster, tmp_path):
    assert cluster.describe() == {"name": "dask", "scheduler": "LocalCluster", "workers": 2, "threads": 2}
    simulate_dir(tmp_path / "local", **SMALL)  # first: workers then load the kernels it compiled
    on_dask = simulate_on(cluster, tmp_path / "dask", **SMALL)
    assert_same_tables(tmp_path / "dask", tmp_path / "local")
    assert on_dask["chunk"].is_monotonic_increasing and len(on_dask) == 4000
    manifest = json.loads((tmp_path / "dask" / "manifest.json").read_text())
    assert manifest["backend"]["name"] == "dask" and "backend" not in manifest["config"]


def test_until_ci_keeps_the_same_chunks_on_dask(cluster, tmp_path):
    options = dict(deals=20_000, policy_a="greedy", policy_b="random", seed=1, chunk_deals=500, until_ci=0.16)
    local = simulate_dir(tmp_path / "local", **options)
    assert 3000 <= local["deal_id"].nunique() < 10_000  # stopped after several chunks, chunks in flight dropped
    simulate_on(cluster, tmp_path / "dask", **options)
    assert_same_tables(tmp_path / "dask", tmp_path / "local")


def test_a_taken_port_8787_gives_no_warning():
    """The scheduler's HTTP server would take 8787 (the usual dashboard port) and warn when another cluster holds
    it; a run's LocalCluster serves it on a free port instead, without a word."""
    with socket.socket() as taken:
        try:
            taken.bind(("", 8787))
            taken.listen()
        except OSError:
            pass  # already taken by something else: the case itself
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with open_backend("dask", threads=1) as backend:
                assert backend.describe()["workers"] == 1


def test_resume_on_dask_finishes_a_local_run_to_the_same_tables(cluster, tmp_path):
    simulate_dir(tmp_path / "whole", **SMALL)
    cut, config = cut_run(tmp_path / "cut", (0, 3, 7), **SMALL)
    play_run(config, cut, backend=cluster)
    assert_same_tables(cut.path, tmp_path / "whole")


def test_games_and_a_tournament_on_dask_equal_the_local_ones(cluster, tmp_path):
    from casino_sim.experiments.tournament import TournamentConfig, run_tournament, start_tournament

    games = dict(deals=300, policy_a="expert", policy_b="greedy", seed=2, chunk_deals=100, games=True)
    simulate_dir(tmp_path / "local", **games)
    simulate_on(cluster, tmp_path / "dask", **games)
    assert_same_tables(tmp_path / "dask", tmp_path / "local")
    assert (tmp_path / "dask" / "games").is_dir()
    config = TournamentConfig(policies=("random", "greedy", "expert"), games=60, chunk_deals=30, seed=5).resolve(LOADER)
    folders = {}
    for name, backend in (("t-local", None), ("t-dask", cluster)):
        start_tournament(config, tmp_path / name, ["test"])
        folders[name] = run_tournament(config, tmp_path / name, ["test"], backend=backend)
    for a, b in zip(folders["t-local"], folders["t-dask"]):
        assert_same_tables(a, b)


class Recorded:
    """A backend that notes every chunk its map yields, in order."""

    def __init__(self, backend):
        self.backend, self.yielded = backend, []

    def map(self, fn, config, chunks):
        for chunk, tables in self.backend.map(fn, config, chunks):
            self.yielded.append(chunk)
            yield chunk, tables

    def describe(self) -> dict:
        return self.backend.describe()


def test_a_worker_killed_while_it_plays_a_chunk_loses_and_doubles_no_chunk(cluster, tmp_path, monkeypatch):
    from functools import partial

    from casino_sim.experiments import simulate

    # the reference engine: nothing to compile, in this process or in the worker the nanny starts again
    options = dict(
        deals=50, policy_a="random", policy_b="random", seed=13, chunk_deals=5, engine="reference", card_deals=0
    )
    simulate_dir(tmp_path / "local", **options)
    marker = tmp_path / "killed"
    monkeypatch.setattr(simulate, "play_chunk", partial(chunk_killing_its_worker, marker, 3))
    backend = Recorded(cluster)
    config = SimConfig(**options).resolve(LOADER)
    rundir = RunDir(tmp_path / "dask")
    start_run(config, rundir, ["test"])
    timings = play_chunks(config, rundir, backend=backend)
    assert marker.exists()  # a worker died holding chunk 3; the scheduler played its task again elsewhere
    assert sorted(backend.yielded) == list(range(10))  # every chunk once: none lost, none doubled
    assert timings["rounds_played"] == 100
    assert rundir.read_rounds().groupby("chunk").size().to_dict() == {c: 10 for c in range(10)}  # 5 deals, mirrored
    assert_same_tables(tmp_path / "dask", tmp_path / "local")
    cluster.client.wait_for_workers(2, timeout=60)  # the nanny's new worker, for the tests after this one


class DyingTask:
    """A Dask future whose workers died each time they ran it: result() raises what distributed raises then."""

    def __init__(self, key):
        self.key = key

    def result(self):
        from distributed import KilledWorker

        raise KilledWorker(self.key, "tcp://127.0.0.1:1", 3)


class FinishedFirst:
    """distributed.as_completed over DyingTasks: each is ready at once."""

    def __init__(self, loop=None):
        self.futures = []

    def add(self, future):
        self.futures.append(future)

    def is_empty(self):
        return not self.futures

    def has_ready(self):
        return bool(self.futures)

    def __next__(self):
        return self.futures.pop(0)

    def clear(self):
        self.futures.clear()


def test_a_task_whose_workers_keep_dying_ends_the_run_with_one_line(monkeypatch):
    import distributed

    from casino_sim.core.errors import InputError
    from casino_sim.runner.backends import DaskBackend

    client = type(
        "Client",
        (),
        {
            "loop": None,
            "nthreads": lambda self: {"w": 1},
            "submit": lambda self, task, fn, config, chunks, pure: DyingTask(f"task-{chunks[0]}"),
            "cancel": lambda self, futures: None,
        },
    )()
    monkeypatch.setattr(distributed, "as_completed", FinishedFirst)
    with pytest.raises(InputError, match=r"^the Dask workers playing chunk 0 died each time they tried") as e:
        list(DaskBackend(client, None).map(None, SimConfig().resolve(LOADER), [0, 1, 2]))
    assert "\n" not in str(e.value)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(procs) -> None:
    """Terminate the processes, last started first (workers before their scheduler)."""
    for p in reversed(procs):
        if p.poll() is None:
            p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A `dask scheduler` and two `dask worker` processes on 127.0.0.1, stopped even if a test fails."""
    from distributed import Client

    port, work = free_port(), tmp_path_factory.mktemp("dask")
    address = f"tcp://127.0.0.1:{port}"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=work)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-dashboard",
            ],
            **quiet,
        )
    ]
    try:
        procs += [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--local-directory",
                    str(work),
                ],
                **quiet,
            )
            for _ in range(2)
        ]
        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        stop(procs)


def test_scheduler_and_worker_processes_give_the_local_tables(scheduler, tmp_path):
    simulate_dir(tmp_path / "local", **SMALL)
    args = ["--deals", "2000", "--policy", "greedy", "--vs", "random", "--seed", "9", "--chunk-deals", "250"]
    args += ["--no-charts", "--card-deals", "auto"]  # the tables are what is compared, the card replays among them
    done = run_process("simulate", *args, "--scheduler", scheduler, "--out", str(tmp_path / "remote"))
    assert done.returncode == 0, done.stderr
    assert_same_tables(tmp_path / "remote", tmp_path / "local")
    manifest = json.loads((tmp_path / "remote" / "manifest.json").read_text())
    assert manifest["backend"] == {"name": "dask", "scheduler": scheduler, "workers": 2, "threads": 2}


def test_experiment_runs_every_planned_run_on_the_cluster(scheduler, tmp_path):
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'name = "p"\n[defaults]\ndeals = 500\nseed = 4\nchunk_deals = 250\n'
        '[[run]]\nname = "a"\npolicy = "greedy"\nvs = "random"\n'
        '[[run.expect]]\nmetric = "diff"\nat_least = -100\n'
        '[[run]]\nname = "b"\npolicy = "random"\nvs = "greedy"\n'
        '[[run.expect]]\nmetric = "diff"\nat_least = -100\n'
    )
    proc = run_process("experiment", str(plan), "--out", str(tmp_path / "out"), "--scheduler", scheduler, "--no-charts")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name, (a, b) in {"a": ("greedy", "random"), "b": ("random", "greedy")}.items():
        simulate_dir(tmp_path / name, deals=500, seed=4, chunk_deals=250, policy_a=a, policy_b=b)
        assert_same_tables(tmp_path / "out" / name, tmp_path / name)
        assert json.loads((tmp_path / "out" / name / "manifest.json").read_text())["backend"]["name"] == "dask"


def test_interrupted_local_cluster_run_resumes_on_a_scheduler_to_the_local_tables(scheduler, tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "casino_sim", *"simulate --deals 400000 --policy expert --vs expert --seed 3".split()]
    cmd += [*"--chunk-deals 1000 --backend dask --threads 2 --no-charts".split(), "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rundir = RunDir(out)
    deadline = time.time() + 120
    while len(rundir.finished_chunks()) < 3 and time.time() < deadline:
        time.sleep(0.1)
    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(timeout=60) == 130, proc.stderr.read()
    done = rundir.finished_chunks()
    assert 3 <= len(done) < 400, done
    manifest = json.loads(rundir.manifest_path.read_text())
    manifest["config"]["deals"] = 1000 * (max(done) + 2)  # finish a shorter copy: the same chunks
    rundir.write_manifest(manifest)
    resumed = run_process("simulate", "--resume", str(out), "--scheduler", scheduler, "--no-charts")
    assert resumed.returncode == 0, resumed.stderr
    assert rundir.finished_chunks() == set(range(max(done) + 2))
    simulate_dir(
        tmp_path / "fresh",
        deals=1000 * (max(done) + 2),
        policy_a="expert",
        policy_b="expert",
        seed=3,
        chunk_deals=1000,
        card_deals=manifest["config"]["card_deals"],
    )  # as the cut run resolved
    assert_same_tables(out, tmp_path / "fresh")


def test_unreachable_scheduler_is_one_line_and_quick(tmp_path):
    t0 = time.perf_counter()
    proc = run_process(
        "simulate", "--deals", "10", "--scheduler", f"tcp://127.0.0.1:{free_port()}", "--out", str(tmp_path / "x")
    )
    assert_one_line_error(proc, "cannot reach the Dask scheduler")
    assert time.perf_counter() - t0 < 30
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--scheduler", "nowhere"], "cannot reach the Dask scheduler at nowhere"),
        (["--backend", "local", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs the dask backend"),
    ],
)
def test_bad_backend_options_are_one_line(args, fragment, tmp_path):
    assert_one_line_error(run_process("simulate", "--deals", "10", "--out", str(tmp_path / "x"), *args), fragment)
    assert not (tmp_path / "x").exists()


def test_without_the_dask_extra_the_error_says_how_to_install_it(tmp_path):
    fake = tmp_path / "site" / "distributed"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named distributed')\n")
    proc = run_process(
        "simulate",
        "--deals",
        "10",
        "--out",
        str(tmp_path / "x"),
        "--backend",
        "dask",
        env={"PYTHONPATH": str(tmp_path / "site")},
    )
    assert_one_line_error(proc, "pip install 'casino-sim[dask]'")


def test_tune_on_dask_gives_the_local_run(cluster, tmp_path):
    from casino_sim.experiments.tune import TuneConfig, open_run, tune
    from casino_sim.runner.backends import LocalBackend

    config = TuneConfig(against=("greedy",), deals=10, generations=2, population=3, validate_deals=20, seed=4).resolve(
        LOADER
    )
    local = tune(config, open_run(config, tmp_path / "local"), LocalBackend())
    on_dask = tune(config, open_run(config, tmp_path / "dask"), cluster)
    assert local.history == on_dask.history and local.selection == on_dask.selection
    written = [(tmp_path / side / "expert-tuned.toml").read_bytes() for side in ("local", "dask")]
    assert written[0] == written[1]
