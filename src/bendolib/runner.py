"""
Running many seeded, independent jobs (matches, self-play games) on any executor.

:func:`run_indexed` hands the jobs to a :class:`concurrent.futures.Executor` in
chunks sized from the measured time per job (about :data:`CHUNK_SECONDS` each), keeps
only a few chunks in flight, reports progress at least once a second, and on Ctrl-C
cancels what has not started and returns control within about a chunk's time.  Each
job is a pure function of its index, so the chunking never changes a result.
:func:`process_pool` makes a process pool whose workers leave Ctrl-C to the caller, and
:func:`stop_pool` ends one at once.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

_R = TypeVar("_R")
_T = TypeVar("_T")

#: Target duration of one chunk of jobs, in seconds (progress and Ctrl-C granularity).
CHUNK_SECONDS = 0.25
#: Most jobs in one chunk.
MAX_CHUNK = 1024
#: Longest wait between two progress reports, in seconds.
PROGRESS_SECONDS = 1.0


class SerialExecutor(Executor):
    """An executor that runs every task at once in the calling thread."""

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """Run ``fn(*args, **kwargs)`` now; the future holds its result or exception."""
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # KeyboardInterrupt and SystemExit propagate
            future.set_exception(exc)
        return future


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C back during the block, then raise it (in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


@contextmanager
def _interrupts_remembered() -> Iterator[threading.Event]:
    """
    Ctrl-C raises KeyboardInterrupt as usual during the block, and the event it yields is
    set too: CPython drops an exception raised inside a finaliser (a ``__del__``, a
    weakref callback, run by the garbage collector wherever the main thread happens to
    be), so a press that lands there is lost unless the caller checks the event.  Only in
    the main thread, and only over Python's default handler (a handler of the caller's
    is left alone).
    """
    pressed = threading.Event()
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield pressed
        return

    def on_interrupt(number: int, frame: object) -> None:
        pressed.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """
    A process pool of ``workers`` processes (default: one per CPU) that ignore Ctrl-C,
    so that the calling process alone handles it (no traceback from every worker).  The
    workers are started at once, with Ctrl-C held back meanwhile: an interrupt while a
    pool starts its processes can leave it unable to shut down.
    """
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        with _interrupts_deferred():
            pool.submit(int).result()
    except KeyboardInterrupt:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return pool


def stop_pool(executor: Executor) -> None:
    """
    Shut ``executor`` down without waiting: cancel what has not started and, for a
    process pool, end the workers' running jobs too (a slow bot's match would
    otherwise delay Ctrl-C until it ends).  Meant for a pool the caller owns; other
    executors are shut down without waiting (Dask's cancels its running tasks).
    """
    if not isinstance(executor, ProcessPoolExecutor):
        executor.shutdown(wait=False)
        return
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14+
    if callable(terminate):
        terminate()
        return
    # Before 3.14 the pool exposes no way to end a running job: end its processes.
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


def parallelism(executor: Executor) -> int:
    """How many jobs ``executor`` runs at once (its workers; a guess for unknown kinds)."""
    if isinstance(executor, SerialExecutor):
        return 1
    workers = getattr(executor, "_max_workers", None)
    if isinstance(workers, int) and workers > 0:
        return workers
    client = getattr(executor, "_client", None)  # Dask's ClientExecutor
    if client is not None and hasattr(client, "nthreads"):
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # a cluster that cannot answer: fall back to the CPU count
            pass
    return os.cpu_count() or 1


def _timed(task: Callable[[tuple[int, ...]], list[_R]], chunk: tuple[int, ...]) -> Any:
    start = time.perf_counter()
    out = task(chunk)
    return out, time.perf_counter() - start


def run_indexed(
    task: Callable[[tuple[int, ...]], list[_R]],
    indices: Sequence[int],
    executor: Executor,
    on_done: Callable[[tuple[int, ...], list[_R]], None],
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """
    Run ``task(chunk)`` over ``indices`` in chunks on ``executor``; ``task`` returns one
    result per index of its chunk (it must be picklable for a process pool or a
    cluster).  ``on_done(chunk, results)`` and ``progress(done, total)`` are called in
    the calling thread, ``progress`` at least every :data:`PROGRESS_SECONDS` while
    chunks are running (a job is never split).  An exception from a job cancels the
    rest and is raised.  On ``KeyboardInterrupt`` the chunks not started are cancelled,
    the finished ones delivered to ``on_done``, and the interrupt raised again.
    """
    total = len(indices)
    width = parallelism(executor)
    window = 1 if width == 1 and isinstance(executor, SerialExecutor) else 2 * width
    timed = partial(_timed, task)
    in_flight: dict[Future[Any], tuple[int, ...]] = {}
    submitted = done = 0
    seconds = 0.0
    last = 1

    def chunk_size() -> int:
        # From the mean time per job so far, at most twice the last chunk: one quick
        # job must not make the next chunk take minutes.
        nonlocal last
        if done:
            per_job = seconds / done
            size = int(CHUNK_SECONDS / per_job) if per_job > 0 else MAX_CHUNK
            last = max(1, min(size, 2 * last, MAX_CHUNK, -(-(total - submitted) // width)))
        return last

    def deliver(future: Future[Any]) -> None:
        nonlocal done, seconds
        chunk = in_flight.pop(future)
        results, took = future.result()
        done += len(chunk)
        seconds += took
        on_done(chunk, results)

    try:
        with _interrupts_remembered() as pressed:
            while True:
                while len(in_flight) < window and submitted < total:
                    chunk = tuple(indices[submitted : submitted + chunk_size()])
                    submitted += len(chunk)
                    in_flight[executor.submit(timed, chunk)] = chunk
                    if isinstance(executor, SerialExecutor):
                        break
                if not in_flight:
                    break
                finished, _ = wait(tuple(in_flight), PROGRESS_SECONDS, FIRST_COMPLETED)
                for future in finished:
                    deliver(future)
                if progress is not None:
                    progress(done, total)
                if pressed.is_set():  # a press the interpreter dropped (in a finaliser)
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        for future in in_flight:
            future.cancel()
        for future in [f for f in in_flight if f.done() and not f.cancelled()]:
            if future.exception() is None:
                deliver(future)
        raise
    except BaseException:
        for future in in_flight:
            future.cancel()
        raise
