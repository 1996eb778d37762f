"""
The limits on what bendolib reads, so that crafted input costs time and memory in
proportion to its size, at most (docs/records.md, "Limits", lists them).

Every reader checks its input against these before or while reading it and raises a
:class:`~bendolib.errors.ParseError` (or :class:`~bendolib.errors.RuleSetError` for a
tile set built in code) naming the limit.  Messages quote at most
:data:`QUOTED_CHARS` characters of the input.
"""

from __future__ import annotations

from typing import Any

#: Characters of a position text (a 1,024-tile set with a long match's results fits).
MAX_POSITION_CHARS = 1_000_000
#: Characters of a record's JSON text (about 2 million moves).
MAX_RECORD_CHARS = 32_000_000
#: Characters of one move in notation.
MAX_MOVE_CHARS = 200
#: Digits of a number in notation, position text or a record (a 64-bit seed has 20).
MAX_DIGITS = 20
#: Nesting of lists and objects in a record, a rule set's parameters or a JSON field.
MAX_DEPTH = 32
#: Tiles in a tile set.
MAX_TILES = 1024
#: The highest number on a tile (faces are 0..MAX_FACE, or one of the action symbols).
MAX_FACE = 99
#: The largest seed: seeds are integers from 0 to 2**64 - 1.
MAX_SEED = 2**64 - 1
#: The largest integer rule parameter (a target, a batch, points...), in absolute value:
#: beyond any game, and small enough that the compiled kernel's 64-bit arithmetic
#: holds a sum of two.
MAX_PARAM = 2**62
#: The highest round number of a state (a match of 2**62 rounds is never played).
MAX_ROUND = 2**62
#: Characters of the input quoted in an error message.
QUOTED_CHARS = 80
#: Characters of an error's text, whatever it quotes.
MAX_MESSAGE_CHARS = 1_000


def nests_within(data: Any, limit: int = MAX_DEPTH) -> bool:
    """True when the lists, tuples and dicts in ``data`` nest at most ``limit`` deep."""
    level: list[Any] = [data]
    for _ in range(limit + 1):
        inner: list[Any] = []
        for item in level:
            if isinstance(item, list | tuple):
                inner.extend(item)
            elif isinstance(item, dict):
                inner.extend(item.values())
        if not inner:
            return True
        level = inner
    return False


def ascii_int(text: str, signed: bool = False) -> int | None:
    """
    The integer written ``text`` in ASCII digits (with a leading ``-`` when ``signed``),
    at most :data:`MAX_DIGITS` of them; None for anything else (``"٢"``, ``"+1"``,
    ``" 1"``, ``"1_000"``, ``"1e3"``).
    """
    digits = text[1:] if signed and text[:1] == "-" else text
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def clipped(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` itself, or its first ``limit`` characters and "..." when longer."""
    return text if len(text) <= limit else text[:limit] + "..."


def shown(value: Any, limit: int = QUOTED_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters (and never failing on huge numbers)."""
    try:
        return clipped(repr(value), limit)
    except (ValueError, RecursionError):  # an int too long to write, or deep nesting
        return f"<a {type(value).__name__} too large to show>"


def quoted(text: str, at: int | None = None, limit: int = QUOTED_CHARS) -> str:
    """
    ``repr(text)``, or when longer than ``limit`` characters a window of it (around
    offset ``at`` when given) with the text's length.
    """
    if len(text) <= limit:
        return repr(text)
    first = 0 if at is None else max(0, min(at - limit // 3, len(text) - limit))
    window = repr(text[first : first + limit])
    before = "..." if first else ""
    after = "..." if first + limit < len(text) else ""
    return f"{before}{window}{after} ({len(text):,} characters)"
