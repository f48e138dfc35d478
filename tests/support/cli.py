"""Running `casino-sim` as a user does, and the one-line error every bad input must give.

`run` calls the entry point, casino_sim.cli:main (its one-line errors and exit codes), in this process, as a fresh
process would: its own argv, stdin, stdout, stderr, environment and console. That spares every call the start of
Python, numpy, numba and pandas and the loading of the cached kernels (a second or more each). `run_process` starts
`python -m casino_sim` for what only a process shows: signals, what is read at start-up (NUMBA_*), exec: bots
(which live as long as the process), the interpreter's own exit.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tempfile
import traceback
import warnings
from contextlib import contextmanager, redirect_stderr, redirect_stdout

# A position of every field (docs/notation.md's positions table names them; no card twice).
EXAMPLE = {
    "rules": "strict",
    "to_move": 0,
    "hands": [["7D", "7S", "2D"], ["KC", "3C", "9H"]],
    "loose": ["8D"],
    "builds": [{"value": 7, "cards": ["5C", "2H"], "owner": 0}],
    "captured": [["4S", "4H"], []],
    "sweeps": [0, 0],
    "last_capturer": 0,
    "must_act": [False, False],
}

# Environment variables a command reads while it runs (the console's size, the bots' timeout); any other (NUMBA_*,
# PYTHONPATH, ...) is read at start-up, so a run given it needs a process of its own.
READ_WHILE_RUNNING = {"COLUMNS", "LINES", "CASINO_SIM_BOT_TIMEOUT"}
# The warning filters a new interpreter starts with: what a user's run shows on stderr (pytest's would record it).
FRESH_FILTERS = (
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
)


def run(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`casino-sim ARGS` with its text output and exit code: in this process, or in a fresh one when `env` sets
    what is read at start-up or an exec: bot is asked to play."""
    if not set(env or {}) <= READ_WHILE_RUNNING or any("exec:" in a for a in args):
        return run_process(*args, stdin=stdin, env=env)
    return _run_here(list(args), stdin, env or {})


def run_process(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """`casino-sim ARGS` in a fresh process, with its text output. Its environment is os.environ (and `env`), not
    the process's own: under pytest that holds COLUMNS=80 and LINES=24 that os.environ does not show."""
    return subprocess.run(
        [sys.executable, "-m", "casino_sim", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def _run_here(args: list[str], stdin: str | None, env: dict) -> subprocess.CompletedProcess:
    """main() with ARGS, stdin and `env`, its output captured; what it changes of this process put back after."""
    from casino_sim.cli import main  # the entry point, casino-sim = "casino_sim.cli:main"
    from casino_sim.cli.options import console, policy_loader

    saved = (sys.argv, sys.stdin, dict(os.environ), signal.getsignal(signal.SIGTERM), dict(console.__dict__))
    threads = _numba_threads()
    program = sys.modules["__main__"].__dict__.get("__package__")  # `python -m pytest`: click would say so
    sys.modules["__main__"].__package__ = None  # the installed script's: click names the program argv[0]
    policy_loader.cache_clear()  # the command's policy loader: a new process makes its own, knowing no policy loaded
    sys.argv, sys.stdin = ["casino-sim", *args], io.StringIO(stdin or "")
    os.environ.update(env)
    code = 0
    try:
        with _output_as_pipes() as output, warnings.catch_warnings(), _help_console_as_new():
            _warn_as_a_new_process()
            console.__dict__.update(type(console)().__dict__)  # as a new process makes it: width, colour, terminal
            try:
                main()
            except SystemExit as e:
                code = _exit_code(e.code)
            except Exception:  # what the interpreter does with an exception main() lets through
                traceback.print_exc()
                code = 1
    finally:
        sys.argv, sys.stdin = saved[0], saved[1]
        policy_loader.cache_clear()
        sys.modules["__main__"].__package__ = program
        os.environ.clear()
        os.environ.update(saved[2])
        signal.signal(signal.SIGTERM, saved[3])
        console.__dict__.clear()
        console.__dict__.update(saved[4])
        if threads is not None:
            sys.modules["numba"].set_num_threads(threads)
    return subprocess.CompletedProcess(["casino-sim", *args], code, *output)


@contextmanager
def _output_as_pipes():
    """File descriptors 1 and 2, and sys.stdout and sys.stderr over them, sent to files as a pipe takes a process's
    output: what a forked child (the report maker) or C code writes is caught too. Yields [stdout, stderr], filled
    in at the end."""
    sys.stdout.flush()
    sys.stderr.flush()
    files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    kept = [os.dup(1), os.dup(2)]
    output = []
    try:
        os.dup2(files[0].fileno(), 1)
        os.dup2(files[1].fileno(), 2)
        out = open(1, "w", encoding="utf-8", closefd=False)  # buffered as Python buffers a pipe
        err = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
        try:
            with redirect_stdout(out), redirect_stderr(err):
                yield output
        finally:
            out.flush()
            err.flush()
    finally:
        os.dup2(kept[0], 1)
        os.dup2(kept[1], 2)
        for fd in kept:
            os.close(fd)
        for f in files:
            f.seek(0)
            output.append(f.read().decode("utf-8"))
            f.close()


@contextmanager
def _help_console_as_new():
    """typer's help console as a new process makes it. typer reads TERMINAL_WIDTH (and the colour variables) once,
    when its rich_utils is first imported, which in this process may be inside an earlier test's CliRunner with a
    width of its own: that width would stay for every later --help here."""
    from typer import rich_utils

    names = ("MAX_WIDTH", "FORCE_TERMINAL")
    saved = {name: getattr(rich_utils, name) for name in names}
    width = os.environ.get("TERMINAL_WIDTH")
    rich_utils.MAX_WIDTH = int(width) if width else None
    forced = any(os.environ.get(v) for v in ("GITHUB_ACTIONS", "FORCE_COLOR", "PY_COLORS"))
    rich_utils.FORCE_TERMINAL = False if os.environ.get("_TYPER_FORCE_DISABLE_TERMINAL") else (True if forced else None)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)


def _warn_as_a_new_process() -> None:
    """A new interpreter's warning filters (each warning shown once again), warnings printed on stderr."""
    warnings.resetwarnings()
    for action, category, module in FRESH_FILTERS:
        warnings.filterwarnings(action, category=category, module=module, append=True)
    warnings.showwarning = _show_warning


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _exit_code(code) -> int:
    """The exit code of sys.exit(code), as the interpreter gives it (a message is printed and exits 1)."""
    if code is None or isinstance(code, int):
        return code or 0
    print(code, file=sys.stderr)
    return 1


def _numba_threads() -> int | None:
    numba = sys.modules.get("numba")
    return numba.get_num_threads() if numba is not None else None


def assert_one_line_error(proc: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit code 2, one stderr line holding every fragment, no traceback."""
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for f in fragments:
        assert f in lines[0], lines[0]
