"""Pressing Ctrl-C on this process from a timer, for the tests of prompt interruption."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def pressing_ctrl_c(first: float) -> Iterator[list[float]]:
    """
    Ctrl-C (SIGINT to this process) ``first`` seconds into the block, and again every 2 s
    until it ends; yields the times of the presses (``time.monotonic``).  A press that is
    lost (bendolib.runner: CPython drops a KeyboardInterrupt raised in a finaliser; the
    runner now stops on it all the same) then costs the test seconds, not the minutes of
    a long run played to its end; the test's own time check still fails.
    """
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
