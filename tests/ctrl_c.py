"""Pressing Ctrl-C on this process from a timer, for the tests of prompt interruption."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def pressing_ctrl_c(first: float) -> Iterator[list[float]]:
    """
    Ctrl-C (SIGINT to this process) ``first`` seconds into the block, and again every 2 s
    until it ends; yields the times of the presses (``time.monotonic``).  A press that is
    lost then costs the test seconds, not the minutes of a long run played to its end;
    the test's own time check still fails.  Ctrl-C must be Python's default handler at
    the start (tests/conftest.py restores it where a harness starts the tests with SIGINT
    ignored).
    """
    handler = signal.getsignal(signal.SIGINT)
    assert handler is signal.default_int_handler, (
        f"Ctrl-C is not Python's default at the start of the test: {handler!r} (left by "
        "an earlier test or a library?)"
    )
    sent: list[float] = []
    stop = threading.Event()

    def keep_pressing() -> None:
        wait = first
        while not stop.wait(wait):
            sent.append(time.monotonic())
            os.kill(os.getpid(), signal.SIGINT)
            wait = 2.0

    presser = threading.Thread(target=keep_pressing, daemon=True)
    presser.start()
    try:
        yield sent
    finally:
        stop.set()
        presser.join()


def give_up_after(seconds: float) -> Callable[[int, int], None]:
    """
    A ``progress`` callback that fails the run (AssertionError) ``seconds`` after its
    first call: a test of Ctrl-C whose presses are all lost fails then, rather than
    playing its long run to the end.
    """
    start: list[float] = []

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        start[:] = start or [now]
        if now - start[0] > seconds:
            raise AssertionError(f"still running {seconds} s on: Ctrl-C did not stop it")

    return progress
