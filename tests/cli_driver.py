"""Driving the ``bendolib`` command as a user would: in process, as a process, on a terminal."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

import bendolib
from bendolib.cli import main

#: The folder holding the ``bendolib`` package being tested (for child processes).
SOURCE = str(Path(bendolib.__file__).resolve().parents[1])


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str | None = "",
) -> tuple[int, str, str]:
    """``bendolib ARGV`` in this process, ``stdin`` typed (``None``: standard input closed)."""
    monkeypatch.setattr(sys, "stdin", None if stdin is None else io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([SOURCE, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("PYTHONWARNINGS", None)
    return env


def run_process(
    argv: Sequence[str], stdin: bytes | None = b"", shell_redirect: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """``python -m bendolib ARGV`` as a child process (``shell_redirect``: e.g. ``0<&-``)."""
    command = [sys.executable, "-m", "bendolib", *argv]
    if shell_redirect:
        quoted = " ".join("'" + part.replace("'", "'\\''") + "'" for part in command)
        return subprocess.run(
            ["/bin/sh", "-c", f"exec {quoted} {shell_redirect}"],
            capture_output=True,
            timeout=timeout,
            env=child_env(),
            check=False,
        )
    return subprocess.run(
        command, input=stdin, capture_output=True, timeout=timeout, env=child_env(), check=False
    )


class Terminal:
    """``python -m bendolib ARGV`` on a pseudo-terminal: type keys, read the screen."""

    def __init__(self, argv: Sequence[str]) -> None:
        import pty

        pid, fd = pty.fork()
        if pid == 0:  # the child: the command, on the terminal
            try:
                os.execve(sys.executable, [sys.executable, "-m", "bendolib", *argv], child_env())
            finally:
                os._exit(127)
        self.pid = pid
        self.fd = fd
        self.output = b""

    def read(self, timeout: float) -> bool:
        """Read what is there within ``timeout`` seconds; False at the end of output."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        self.output += chunk
        return bool(chunk)

    def expect(self, pattern: str, timeout: float = 60) -> str:
        """Wait until the screen shows ``pattern`` (a regex); returns the screen so far."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern.encode(), self.output):
            if time.monotonic() > deadline or not self.read(0.2):
                raise AssertionError(f"no {pattern!r} in {self.text[-2000:]!r}")
        return self.text

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait(self, timeout: float = 60) -> int:
        """Read to the end; the exit status (-n when killed by signal n)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.read(0.2):
            pass
        for _ in range(int(timeout * 10)):
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, 9)
        raise AssertionError(f"still running; screen: {self.text[-2000:]!r}")

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", "replace")
