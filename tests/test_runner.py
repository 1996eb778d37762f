"""bendolib.runner: chunks, progress, errors and Ctrl-C on any executor (issue 14, point 13)."""

from __future__ import annotations

import itertools
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bendolib.runner import SerialExecutor, parallelism, process_pool, run_indexed


def _slow_after_the_first(chunk: tuple[int, ...]) -> list[int]:
    for index in chunk:
        if index:
            time.sleep(0.01)
    return [i * i for i in chunk]


def test_every_index_is_run_once_and_chunks_grow_at_most_twofold() -> None:
    chunks: list[tuple[int, ...]] = []
    results: dict[int, int] = {}

    def on_done(chunk: tuple[int, ...], out: list[int]) -> None:
        chunks.append(chunk)
        results.update(zip(chunk, out, strict=True))

    run_indexed(_slow_after_the_first, range(60), SerialExecutor(), on_done)
    assert results == {i: i * i for i in range(60)}
    sizes = [len(c) for c in chunks]
    assert sizes[0] == 1 and all(b <= 2 * a for a, b in itertools.pairwise(sizes))


def _fails_at_7(chunk: tuple[int, ...]) -> list[int]:
    if 7 in chunk:
        raise ZeroDivisionError("seven")
    return list(chunk)


@pytest.mark.parametrize("threads", [False, True])
def test_an_error_in_a_job_is_raised(threads: bool) -> None:
    executor = ThreadPoolExecutor(2) if threads else SerialExecutor()
    with pytest.raises(ZeroDivisionError, match="seven"):
        run_indexed(_fails_at_7, range(20), executor, lambda chunk, out: None)
    executor.shutdown()


def _interrupts_at_5(chunk: tuple[int, ...]) -> list[int]:
    if 5 in chunk:
        raise KeyboardInterrupt
    return list(chunk)


def test_ctrl_c_in_a_serial_job_keeps_what_finished() -> None:
    finished: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        run_indexed(_interrupts_at_5, range(20), SerialExecutor(), lambda c, o: finished.extend(o))
    # the chunks before the one interrupted: a job is never split, a chunk is all or none
    assert finished and finished == list(range(len(finished))) and len(finished) < 5


def test_parallelism_of_each_kind_of_executor() -> None:
    assert parallelism(SerialExecutor()) == 1
    with ThreadPoolExecutor(3) as threads:
        assert parallelism(threads) == 3
    pool = process_pool(2)
    assert parallelism(pool) == 2
    assert pool.submit(abs, -3).result() == 3
    pool.shutdown()


def test_a_ctrl_c_dropped_in_a_finaliser_still_stops_the_run() -> None:
    """
    "Ctrl-C stops promptly": CPython drops a KeyboardInterrupt raised inside a finaliser
    (``__del__``, run wherever the garbage collector runs), so a press that lands there
    used to be lost and the run played on.  It stops at its next check all the same.
    """
    import signal

    class PressesCtrlCWhenFinalised:
        def __del__(self) -> None:
            # the handler runs here, inside __del__, and its KeyboardInterrupt is dropped
            signal.raise_signal(signal.SIGINT)

    delivered: list[tuple[int, ...]] = []

    def on_done(chunk: tuple[int, ...], results: list[int]) -> None:
        delivered.append(chunk)
        if len(delivered) == 1:
            PressesCtrlCWhenFinalised()  # made and finalised at once

    with pytest.raises(KeyboardInterrupt):
        run_indexed(lambda chunk: list(chunk), range(1000), SerialExecutor(), on_done)
    assert sum(len(chunk) for chunk in delivered) < 1000
