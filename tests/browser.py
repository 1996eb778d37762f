"""
A headless Chromium driven through the DevTools protocol over a pipe (stdlib only).

``Browser.find()`` is the path of Debian's ``chromium`` (or ``chromium-browser``,
``google-chrome``), or None.  ``with Browser(url) as page:`` starts it on ``url`` with
no network, sandbox or profile of its own (a temporary one), and ``page.run(js)``
evaluates JavaScript in the page, ``page.key("ArrowRight")`` types a key.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from types import TracebackType
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
)
KEY_CODES = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}


class Browser:
    """One headless Chromium showing one page (see the module docstring)."""

    @staticmethod
    def find() -> str | None:
        """The browser's path, or None."""
        for name in NAMES:
            path = shutil.which(name)
            if path:
                return path
        return None

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        path = self.find()
        if path is None:
            raise RuntimeError("no chromium on PATH")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="bendolib-chromium-")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()

        def pipes() -> None:  # in the child: its fd 3 reads commands, fd 4 writes replies
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [path, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            preexec_fn=pipes,
            pass_fds=(3, 4),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._out = to_browser_w
        self._in = from_browser_r
        self._buffer = b""
        self._id = 0
        self.session = ""
        self.url = url

    def __enter__(self) -> Browser:
        try:
            targets = self.call("Target.getTargets")["targetInfos"]
            page = next(t["targetId"] for t in targets if t["type"] == "page")
            attached = self.call("Target.attachToTarget", {"targetId": page, "flatten": True})
            self.session = attached["sessionId"]
            self.call("Page.navigate", {"url": self.url})
            self.wait(
                f"location.href === {json.dumps(self.url)} && document.readyState === 'complete'"
            )
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End the browser (the process this object started) and remove its profile."""
        try:
            if self.process.poll() is None:
                with contextlib.suppress(OSError, RuntimeError):
                    self.call("Browser.close", session=False)
                try:
                    self.process.wait(5)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(5)
        finally:
            for fd in (self._out, self._in):
                with contextlib.suppress(OSError):
                    os.close(fd)
            shutil.rmtree(self.profile, ignore_errors=True)

    def call(
        self, method: str, params: dict[str, Any] | None = None, *, session: bool = True
    ) -> Any:
        """Send one DevTools command and wait for its reply (its ``result``)."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" not in self._buffer:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no reply to {method} in {self.timeout} s")
                chunk = os.read(self._in, 1 << 16)
                if not chunk:
                    raise RuntimeError(f"the browser closed the pipe during {method}")
                self._buffer += chunk
            line, _, self._buffer = self._buffer.partition(b"\0")
            reply = json.loads(line)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def run(self, expression: str) -> Any:
        """The value of the JavaScript ``expression`` in the page."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression: str) -> None:
        """Wait until ``expression`` is true in the page."""
        deadline = time.monotonic() + self.timeout
        while not self.run(expression):
            if time.monotonic() > deadline:
                raise RuntimeError(f"still false after {self.timeout} s: {expression}")
            time.sleep(0.05)

    def key(self, name: str) -> None:
        """Press and release the key ``name`` (``ArrowRight``, ``ArrowLeft``, ``Home``, ``End``)."""
        code = KEY_CODES[name]
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": name, "code": name, "windowsVirtualKeyCode": code},
            )
