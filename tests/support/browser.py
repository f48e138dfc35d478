"""A headless Chromium driven over the DevTools protocol on a pipe: open a page, collect its errors, evaluate.

No third-party client: `--remote-debugging-pipe` speaks JSON messages ended by NUL on the child's file
descriptors 3 (commands in) and 4 (replies and events out), so the standard library is enough and no driver
has to match the browser's version.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_browser() -> str | None:
    """The path of a Chromium or Chrome on PATH (or in $CHROMIUM), or None."""
    given = os.environ.get("CHROMIUM")
    if given:
        return shutil.which(given)
    return next(filter(None, map(shutil.which, NAMES)), None)


class Browser:
    """One headless browser process with one page; use as a context manager."""

    def __init__(self, executable: str, timeout: float = 60.0):
        self.timeout = timeout
        self.events: list[dict] = []
        self._id = 0
        self._buffer = b""
        self._profile = tempfile.TemporaryDirectory(prefix="casino-sim-browser-")
        to_child, self._write = os.pipe()
        self._read, from_child = os.pipe()

        def pipes_on_3_and_4():  # in the child: out of the way first, so neither lands on the other's number
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child, from_child)]
            os.dup2(high[0], 3)  # dup2 makes them inheritable: the browser keeps them across exec
            os.dup2(high[1], 4)

        self._proc = subprocess.Popen(
            [
                executable,
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",  # root in a container: the sandbox cannot start
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                f"--user-data-dir={self._profile.name}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=pipes_on_3_and_4,
            close_fds=False,  # closing would take 3 and 4 too; Python's own descriptors are not inherited anyway
        )
        os.close(to_child)
        os.close(from_child)
        self.session = None

    def __enter__(self) -> Browser:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.session = None
            self.call("Browser.close")
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._write)
        os.close(self._read)
        self._profile.cleanup()

    def call(self, method: str, params: dict | None = None) -> dict:
        """Send one command (to the page once attached) and return its result; events met on the way are kept."""
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if self.session:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._next()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, url: str) -> None:
        """Navigate the page to `url` and wait for its load event."""
        self.call("Page.navigate", {"url": url})
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self._next()

    def evaluate(self, expression: str):
        """The value of a JavaScript expression on the page (JSON-able)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries (failed loads, refused resources) so far."""
        out = []
        for e in self.events:
            method, p = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = p.get("exceptionDetails", {})
                out.append(str(details.get("exception", {}).get("description") or details.get("text")))
            elif method == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(f"{p['entry'].get('source')}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out

    def requested(self) -> list[str]:
        """Every URL the page asked for."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def _next(self) -> dict:
        """The next message from the browser (an event is also kept in self.events)."""
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise TimeoutError(f"the browser said nothing for {self.timeout:.0f} s")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise RuntimeError(f"the browser closed its pipe (exit code {self._proc.poll()})")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message = json.loads(raw)
        if "method" in message:
            self.events.append(message)
        return message
