"""
The adversarial suite's machinery: mutations of valid inputs, and the check every input
of every surface must pass.

Hypothesis draws a valid input (a position, a record, a move of a real game...) and a
seed; :func:`text_mutants` and :func:`json_mutants` turn it into a batch of malformed
inputs, the way an attacker or a careless user would (characters deleted, inserted and
duplicated; look-alike Unicode digits, dashes and spaces; huge, negative, float, NaN and
bool numbers; deep nesting; unknown keys; policies naming other modules).
:func:`attack` feeds each one to the surface and checks that it returns or raises only
a library error (a ``TypeError`` too at the API edge), within :data:`HANG_SECONDS`; what
it accepts must give a state that keeps every invariant and plays on.

Profiles (environment variable ``BENDOLIB_FUZZ``): ``ci`` (the default: a few hundred
inputs per surface, for the test suite) and ``long`` (at least 100,000 per surface)::

    BENDOLIB_FUZZ=long PYTHONPATH=src python -m pytest -q -p no:cacheprovider tests/adversarial

The number of inputs tried per surface is printed at the end of the run.
"""

from __future__ import annotations

import json
import os
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from hypothesis import HealthCheck, Phase, settings

import bendolib
from bendolib import BendolibError, GameState
from bendolib.sampling import sample_state
from bendolib.state import PLAYING
from bendolib.testing import invariants

PROFILE = os.environ.get("BENDOLIB_FUZZ", "ci")
if PROFILE not in ("ci", "long"):
    raise RuntimeError(f"BENDOLIB_FUZZ is ci or long, not {PROFILE!r}")
LONG = PROFILE == "long"
#: Inputs per hypothesis example: each example's seed makes a batch of mutants.
BATCH = 250 if LONG else 10
#: Hypothesis examples per surface (``ci``: ``examples`` as each test asks).
LONG_EXAMPLES = 400
#: No single input may take longer than this (a guard against hangs, not a speed test).
HANG_SECONDS = 10.0

#: Inputs tried per surface in this run (printed by conftest.py at the end).
TRIED: Counter[str] = Counter()
#: Inputs accepted per surface (returned a value instead of raising).
ACCEPTED: Counter[str] = Counter()


def fuzzing(ci: int) -> settings:
    """
    Hypothesis settings for a surface: ``ci`` examples in the ci profile, else enough
    batches for 100,000 inputs; no deadline (:func:`attack` guards against hangs).
    """
    return settings(
        max_examples=LONG_EXAMPLES if LONG else ci,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
        # the failing input is in the report already: shrinking the batch's seed
        # would only take minutes
        phases=[Phase.explicit, Phase.generate],
    )


# -- look-alikes and awkward values -----------------------------------------------------

LOOKALIKE_DIGITS = (
    "\u0660\u0661\u0662\u0663\u06f4\u06f5\u0966\u0967\u09e6\u09e7"  # Arabic, Indic
    "\uff10\uff11\uff12"  # fullwidth
    "\u2070\u00b9\u00b2\u00b3\u2080\u2081\u2082"  # super- and subscripts
    "\U0001d7ce\U0001d7cf\U0001d7d8\U0001d7d9\u07c0\u07c1"  # mathematical, N'Ko
)
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d\u2043"
SPACES = "\u00a0\u2000\u2003\u2009\u200b\u3000\t\n\r\x0b\x0c\x1c\x85\u2028\ufeff"
CONTROL = ["\x00", "\x1b[31m", "\x7f", "\x08", "\ud800", "\U0010ffff", "é", "e\u0301", "🀱"]
NUMBERS = [
    "-1",
    "-0",
    "0",
    "00",
    "007",
    "1e400",
    "1e3",
    "1.5",
    "2.0",
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "inf",
    "True",
    "true",
    "false",
    "null",
    "None",
    "0x1F",
    "1_000",
    "+1",
    "9" * 25,
    "9" * 5000,
    "18446744073709551616",
    "18446744073709551615",
    "-9223372036854775809",
    "²",
    "٢",
    "\uff11\uff12",
    "",
]
NESTING = [5, 40, 1000, 100_000]


def _pool(rng: random.Random, near: str) -> str:
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(LOOKALIKE_DIGITS)
    if kind == 1:
        return rng.choice(DASHES)
    if kind == 2:
        return rng.choice(SPACES)
    if kind == 3:
        return rng.choice(CONTROL)
    if kind == 4:
        return rng.choice(NUMBERS)
    if kind == 5:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 6)))
    return "".join(rng.choice(near) for _ in range(rng.randrange(1, 6)))


def mutate_text(text: str, rng: random.Random, near: str = "0123456789-=@*LR,/|") -> str:
    """``text`` with one to four random edits (see the module docstring)."""
    out = text
    for _ in range(rng.randrange(1, 5)):
        size = len(out)
        at = rng.randrange(size + 1)
        op = rng.randrange(11)
        if op == 0 and size:  # delete a span
            out = out[:at] + out[at + rng.randrange(1, 8) :]
        elif op == 1:  # insert awkward characters
            out = out[:at] + _pool(rng, near) + out[at:]
        elif op == 2 and size:  # replace one character
            at = min(at, size - 1)
            out = out[:at] + _pool(rng, near)[:1] + out[at + 1 :]
        elif op == 3 and size:  # duplicate a span, maybe many times
            end = min(size, at + rng.randrange(1, 40))
            times = rng.choice((1, 1, 2, 10, 1000))
            out = out[:end] + out[at:end] * times + out[end:]
        elif op == 4 and size > 1:  # swap two characters
            i, j = sorted(rng.sample(range(size), 2))
            out = out[:i] + out[j] + out[i + 1 : j] + out[i] + out[j + 1 :]
        elif op == 5:  # cut the end off
            out = out[:at]
        elif op == 6:  # a number replaced by an awkward one
            digits = [i for i, c in enumerate(out) if c.isdigit()]
            if digits:
                i = rng.choice(digits)
                j = i
                while j < len(out) and out[j].isdigit():
                    j += 1
                while i > 0 and out[i - 1].isdigit():
                    i -= 1
                out = out[:i] + rng.choice(NUMBERS) + out[j:]
        elif op == 7:  # a look-alike for a digit or a dash
            spots = [i for i, c in enumerate(out) if c.isdigit() or c == "-"]
            if spots:
                i = rng.choice(spots)
                twin = rng.choice(DASHES if out[i] == "-" else LOOKALIKE_DIGITS)
                out = out[:i] + twin + out[i + 1 :]
        elif op == 8:  # deep nesting
            depth = rng.choice(NESTING)
            out = out[:at] + rng.choice("[{(") * depth + out[at:]
        elif op == 9:  # whitespace games
            out = out.replace(" ", rng.choice(SPACES)) if rng.randrange(2) else out.strip()
        else:  # case games
            out = out.swapcase() if rng.randrange(2) else out.upper()
    return out


def text_mutants(
    text: str, seed: int, count: int = BATCH, near: str = "0123456789-=@*LR,/|"
) -> Iterator[str]:
    """``count`` mutants of ``text`` from ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield mutate_text(text, rng, near)


# -- JSON structure -----------------------------------------------------------------------

_HUGE = "__HUGE_NUMBER__"
_DEEP = "__DEEP_NESTING__"


def _awkward_value(rng: random.Random) -> Any:
    return rng.choice(
        [
            _HUGE,
            _DEEP,
            -1,
            -(10**19),
            10**19,
            2**64,
            0,
            1.5,
            -0.0,
            1e308,
            float("nan"),
            float("inf"),
            True,
            False,
            None,
            "",
            "x" * 1000,
            "٢",
            [],
            {},
            [0] * 5000,
            {"$policy": "bendolib.__main__:main"},
            {"$policy": "os:system", "command": "echo hacked"},
            {"$policy": "bendolib.rules.starting:FixedSeat", "seat": -3},
            {"$policy": "bendolib.rules.match:Match", "target": "abc"},
            {"$tile": "9-9"},
            {"$tile": 5},
            {"$tileset": {"name": "x", "top": 10**6, "tiles": ["0-0", "0-1L"]}},
            {"$tileset": {"name": "x", "tiles": ["0-0"] * 3}},
            {"$tileset": {"name": 5, "tiles": "0-0"}},
            {
                "$tileset": {
                    "name": "big",
                    "tiles": [f"{a}-{b}" for a in range(45) for b in range(a, 45)],
                }
            },
            {"$unknown": 1},
        ]
    )


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data[:50]):
            yield from _paths(value, (*prefix, i))


def mutate_json(data: Any, rng: random.Random) -> Any:
    """A deep copy of ``data`` with one to three nodes replaced, removed or added."""
    out = json.loads(json.dumps(data))
    for _ in range(rng.randrange(1, 4)):
        paths = list(_paths(out))
        path = rng.choice(paths)
        if not path:
            if rng.randrange(4) == 0:
                out = _awkward_value(rng)
            continue
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        op = rng.randrange(5)
        if op == 0 and isinstance(parent, dict):
            del parent[last]
        elif op == 1 and isinstance(parent, dict):
            parent[rng.choice(["extra", "$policy", "base", "name", "parameters", "x" * 300])] = (
                _awkward_value(rng)
            )
        elif op == 2 and isinstance(parent, list):
            parent.insert(last, parent[last] if rng.randrange(2) else _awkward_value(rng))
        else:
            parent[last] = _awkward_value(rng)
    return out


def dump_json(data: Any, rng: random.Random) -> str:
    """``data`` as JSON text, the markers written as a 5,000-digit number or deep nesting."""
    text = json.dumps(data)
    text = text.replace(f'"{_HUGE}"', "9" * 5000)
    depth = rng.choice(NESTING)
    return text.replace(f'"{_DEEP}"', "[" * depth + "]" * depth)


def json_mutants(data: Any, seed: int, count: int = BATCH) -> Iterator[str]:
    """``count`` JSON texts of mutants of ``data`` from ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield dump_json(mutate_json(data, rng), rng)


# -- the check ------------------------------------------------------------------------------


class EscapeError(AssertionError):
    """An input made a surface misbehave."""


def _shown(value: Any) -> str:
    """The input, clipped; ``BENDOLIB_FUZZ_DUMP=path`` writes it whole to ``path``."""
    dump = os.environ.get("BENDOLIB_FUZZ_DUMP")
    if dump and isinstance(value, str):
        with open(dump, "w", encoding="utf-8", errors="surrogatepass") as handle:
            handle.write(value)
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a number too long to write, or deep nesting
        return f"<a {type(value).__name__} too large to show>"
    return text if len(text) <= 400 else f"{text[:400]}... ({len(text):,} characters)"


def attack(
    surface: str,
    inputs: Iterable[Any],
    call: Callable[[Any], Any],
    *,
    on_accept: Callable[[Any, Any], None] | None = None,
    type_errors: bool = False,
) -> None:
    """
    Feed every input to ``call``: it must return (then ``on_accept(input, result)``
    runs) or raise a :class:`BendolibError` (or a ``TypeError`` when ``type_errors``),
    within :data:`HANG_SECONDS`.
    """
    for value in inputs:
        TRIED[surface] += 1
        start = time.perf_counter()
        try:
            result = call(value)
        except BendolibError as exc:
            _check_message(surface, value, exc)
        except TypeError as exc:
            if not type_errors:
                raise EscapeError(_escape(surface, value)) from exc
            _check_message(surface, value, exc)
        except Exception as exc:
            raise EscapeError(_escape(surface, value)) from exc
        else:
            ACCEPTED[surface] += 1
            if on_accept is not None:
                try:
                    on_accept(value, result)
                except Exception as exc:
                    raise EscapeError(
                        f"{surface}: an accepted input then failed ({type(exc).__name__}: "
                        f"{exc}): {_shown(value)}"
                    ) from exc
        elapsed = time.perf_counter() - start
        if elapsed > HANG_SECONDS:
            raise EscapeError(f"{surface}: {elapsed:.1f} s for one input: {_shown(value)}")


def _escape(surface: str, value: Any) -> str:
    return f"{surface}: not a library error for {_shown(value)}\n{traceback.format_exc()}"


def _check_message(surface: str, value: Any, exc: BaseException) -> None:
    """An error's message is short and says something."""
    message = str(exc)
    if not message or len(message) > 2_000:
        raise EscapeError(
            f"{surface}: a message of {len(message):,} characters for {_shown(value)}"
        )


def plays_on(state: GameState, seed: int, moves: int = 12) -> None:
    """
    ``state`` keeps every single-state invariant, every seat can observe it (and a
    state can be sampled from the observation of the player to move), and random
    play goes on from it, keeping the invariants.
    """
    rng = random.Random(seed)
    broken = invariants.first_broken(state)
    assert broken is None, f"an accepted state breaks {broken}"
    if state.phase == PLAYING:
        observation = state.observation(state.current_player)
        world = sample_state(observation, rng, max_attempts=2_000)
        assert world.observation(state.current_player) == observation
    for _ in range(moves):
        legal = bendolib.legal_moves(state)
        if not legal:
            break
        move = rng.choice(legal)
        after = bendolib.apply(state, move)
        broken = invariants.first_broken(after)
        if broken is None:
            kept = invariants.tiles_kept(state, move, after)
            broken = None if kept is None else (invariants.TILE_CONSERVATION, kept)
        assert broken is None, f"play from an accepted state breaks {broken}"
        state = after
        for seat in range(state.players):
            state.observation(seat)


def summary(terminalreporter: Any) -> None:
    """The inputs tried and accepted per surface (printed at the end of a pytest run);
    ``BENDOLIB_FUZZ_REPORT=path`` also writes them to ``path`` as JSON."""
    if not TRIED:
        return
    terminalreporter.section(f"adversarial inputs ({PROFILE} profile)")
    for surface in sorted(TRIED):
        tried, accepted = TRIED[surface], ACCEPTED[surface]
        terminalreporter.write_line(f"{surface:36} {tried:>9,} tried {accepted:>9,} accepted")
    terminalreporter.write_line(f"{'total':36} {sum(TRIED.values()):>9,} tried")
    report = os.environ.get("BENDOLIB_FUZZ_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as handle:
            counts = {s: [TRIED[s], ACCEPTED[s]] for s in sorted(TRIED)}
            json.dump({"profile": PROFILE, "tried_accepted": counts}, handle, indent=1)
