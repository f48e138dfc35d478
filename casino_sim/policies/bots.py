"""Bots in any language (`exec:COMMAND`): a program that reads a position and its legal moves as one JSON line on
stdin and answers one line, the 0-based index of the move it plays (README, "Bots in any language").

One process per worker (process and thread) that plays, started at its first decision and kept for the run; a
bot that dies, answers anything but an index in range, or stays silent for the bot timeout stops the run with a
BotError naming the bot and the position. Every process is ended when this one exits (or at close_bots()).
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from casino_sim.core.errors import UserError
from casino_sim.core.fields import FieldError
from casino_sim.policies.policy import Policy, where
from casino_sim.reference.moves import Move
from casino_sim.reference.position import Position

PREFIX = "exec:"
TIMEOUT_ENV = "CASINO_SIM_BOT_TIMEOUT"  # an environment variable, so that Dask worker processes inherit it
DEFAULT_TIMEOUT_S = 10.0
CLOSE_WAIT_S = 1.0  # how long a bot may take to exit once its stdin is closed, before it is killed
MAX_LINE = 1 << 20  # an answer is a short number; a bot writing a megabyte without a newline is broken


class BotError(UserError):
    """A bot that failed to start, died, answered garbage or out of range, or stayed silent too long."""


class BotSilent(BotError, FieldError):
    """A bot that stayed silent longer than --bot-timeout: a bot's failure that names the field that sets the wait."""


def set_bot_timeout(seconds: float) -> None:
    """How long every bot of this process (and of worker processes started after) may think about one move."""
    if not 0 < seconds <= 86_400:
        raise FieldError("bot_timeout", f"must be a positive number of seconds (at most a day), got {seconds}")
    os.environ[TIMEOUT_ENV] = repr(float(seconds))


def bot_timeout() -> float:
    """The seconds a bot may take to answer (set_bot_timeout, default DEFAULT_TIMEOUT_S)."""
    try:
        return float(os.environ.get(TIMEOUT_ENV, DEFAULT_TIMEOUT_S))
    except ValueError:
        return DEFAULT_TIMEOUT_S


def bot_name(argv: list[str]) -> str:
    """The name a bot shows in tables and folder names: the stem of its last argument that is not an option
    (python3 bots/first_move.py: first_move)."""
    words = [a for a in argv if not a.startswith("-")] or argv
    return Path(words[-1]).stem or words[-1]


def request_line(pos: Position, moves: list[Move]) -> bytes:
    """What a bot reads for one decision: the position as the mover sees it and the legal moves (docs/notation.md)."""
    request = {"position": pos.seen_by(pos.to_move).to_json(), "moves": [m.to_json() for m in moves]}
    return (json.dumps(request, separators=(",", ":")) + "\n").encode()


class _Process:
    """One running bot: its pipes, and its stderr in a file (its last line tells why it died)."""

    def __init__(self, argv: list[str], command: str):
        self.command = command
        self.stderr = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        except OSError as e:
            self.stderr.close()
            raise BotError(f"bot `{command}` cannot start: {e.strerror or e}") from None
        self.pending = b""
        self.closed = False

    def ask(self, line: bytes, timeout: float, where: str) -> bytes:
        """Write one request line and read one answer line, within `timeout` seconds."""
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self.died(where) from None
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            deadline = time.monotonic() + timeout
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.close(kill=True)
                    raise BotSilent(
                        "bot_timeout", f"bot `{self.command}` said nothing for {timeout:g} s ({{bot_timeout}}) {where}"
                    )
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                if not chunk:
                    raise self.died(where)
                self.pending += chunk
                if len(self.pending) > MAX_LINE:
                    self.close(kill=True)
                    raise BotError(f"bot `{self.command}` wrote over {MAX_LINE:,} bytes without a newline {where}")
        answer, _, self.pending = self.pending.partition(b"\n")
        return answer

    def died(self, where: str) -> BotError:
        """The error of a bot that has exited (or closed its stdout): its exit code and its last word on stderr."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.stderr.seek(0)
        said = [s.strip() for s in self.stderr.read().decode(errors="replace").splitlines() if s.strip()]
        code = self.close()
        why = f"exit code {code}" + (f": {said[-1]}" if said else "")
        return BotError(f"bot `{self.command}` died ({why}) {where}")

    def close(self, kill: bool = False) -> int | None:
        """End the process (closing its stdin first, killing it if it lingers or `kill`) and reap it."""
        if self.closed:
            return self.proc.returncode
        self.closed = True
        if self.proc.poll() is None and not kill:
            try:
                self.proc.stdin.close()
                self.proc.wait(CLOSE_WAIT_S)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        self.stderr.close()
        return code


# The bots running in this process, by their spec and the (process, thread) asking: one process each, however many
# ExecBot objects name the spec (a Dask worker unpickles one with each chunk it plays).
_running: dict[tuple[str, int, int], _Process] = {}
_running_lock = threading.Lock()


class ExecBot:
    """A Python policy callable (position, moves, rng) -> move that asks an outside program.

    It holds its command alone, so it pickles (to a Dask worker) as that: a worker starts the program at its first
    decision and keeps it for every chunk that brings the bot, one process per spec and thread, as this one does.
    """

    def __init__(self, spec: str, argv: list[str]):
        self.spec = spec
        self.argv = argv  # the program and its arguments, checked where the spec was loaded
        self.command = spec[len(PREFIX) :]

    def _process(self) -> _Process:
        key = (self.spec, os.getpid(), threading.get_ident())
        proc = _running.get(key)
        if proc is None or proc.closed:
            proc = _Process(self.argv, self.command)
            with _running_lock:
                _running[key] = proc
        return proc

    def __call__(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        proc = self._process()
        here = where(pos)
        try:
            answer = proc.ask(request_line(pos, moves), bot_timeout(), here)
        except BotError:
            self._forget(proc)
            raise
        text = answer.decode(errors="replace").strip()
        if not (text.isascii() and text.isdigit()) or int(text) >= len(moves):
            self._forget(proc)
            proc.close(kill=True)
            shown = text if len(text) <= 40 else text[:40] + "..."
            raise BotError(
                f"bot `{self.command}` answered {shown!r}, not a move index from 0 to {len(moves) - 1}, {here}"
            )
        return moves[int(text)]

    def _forget(self, proc: _Process) -> None:
        with _running_lock:
            for key in [k for k, p in _running.items() if p is proc]:
                del _running[key]


@dataclass(frozen=True, eq=False)
class BotPolicy(Policy):
    """A bot as a policy: its own kind, asked for every move on the reference engine (one process per worker)."""

    bot: ExecBot | None = None
    kind: ClassVar[str] = "exec"
    plays_in_python: ClassVar[bool] = True

    def pick(self, pos: Position, moves: list[Move], rng: np.random.Generator) -> Move:
        return self.bot(pos, moves, rng)  # its failures are one-line BotErrors naming the bot and the position

    def plays_like(self, other: Policy) -> bool:
        return super().plays_like(other) and self.bot is other.bot


def close_bots() -> None:
    """End every bot process this process started (the run is over, or stopped)."""
    with _running_lock:
        procs = list(_running.values())
        _running.clear()
    for proc in procs:
        proc.close()


atexit.register(close_bots)
