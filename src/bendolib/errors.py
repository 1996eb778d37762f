"""The exceptions bendolib raises; every one derives from :class:`BendolibError`."""

from __future__ import annotations

from typing import Any

from bendolib.limits import MAX_MESSAGE_CHARS, clipped, quoted


class BendolibError(Exception):
    """
    Base class of every error raised by bendolib.  Its text is at most
    :data:`bendolib.limits.MAX_MESSAGE_CHARS` characters, however long the values it
    quotes (``args`` keep the whole message).
    """

    def __str__(self) -> str:
        return clipped(super().__str__(), MAX_MESSAGE_CHARS)


class IllegalMoveError(BendolibError, ValueError):
    """
    A move that is not legal in the given state.

    ``move`` is the offending move, ``reason`` says why, ``legal`` lists what would
    have been legal.
    """

    def __init__(self, move: Any, reason: str, legal: tuple[Any, ...] = ()) -> None:
        self.move = move
        self.reason = reason
        self.legal = legal
        shown = ", ".join(str(m) for m in legal[:12])
        if len(legal) > 12:
            shown += f", ... ({len(legal)} in all)"
        super().__init__(f"illegal move {quoted(str(move))}: {reason}; legal: [{shown}]")


class ParseError(BendolibError, ValueError):
    """
    Malformed notation, position text, record or parameter.

    ``text`` is the input, ``position`` the offset (or move number) where it went wrong;
    the message quotes at most :data:`bendolib.limits.QUOTED_CHARS` characters of it.
    """

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.text = text
        self.position = position
        where = f" at position {position}" if position is not None else ""
        shown = f" in {quoted(text, position)}" if text else ""
        super().__init__(f"{message}{where}{shown}")


class ArgumentError(BendolibError, ValueError):
    """
    A value of the right type but outside its allowed range, given to the API (a seat
    that does not exist, a negative seed...); the message names the value and the range.
    """


class StateError(ArgumentError):
    """
    A :class:`~bendolib.state.GameState` value out of its range (``check_state``: a seat
    that does not exist, a score that is not an int...): raised when such a state is
    made, by ``GameState.create``, ``replace`` or unpickling.  ``field`` names the value
    (``"scores"``, ``"hand_masks"``...).
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class RuleSetError(BendolibError, ValueError):
    """A rule set or parameter that is invalid (bad player count, bad hand size...)."""


class UnknownRuleSetError(BendolibError, LookupError):
    """A rule-set name that is not registered."""


class RecordError(ParseError):
    """
    A game record that cannot be read or replayed.

    ``round_number`` and ``move_number`` (1-based within the round) say where it
    went wrong, when the fault lies in one move or round; ``position`` repeats the
    move number.
    """

    def __init__(
        self, message: str, round_number: int | None = None, move_number: int | None = None
    ) -> None:
        where = []
        if round_number is not None:
            where.append(f"round {round_number}")
        if move_number is not None:
            where.append(f"move {move_number}")
        prefix = ", ".join(where)
        BendolibError.__init__(self, f"{prefix}: {message}" if prefix else message)
        self.text = ""
        self.position = move_number
        self.round_number = round_number
        self.move_number = move_number


class KernelFallbackWarning(UserWarning):
    """
    :func:`bendolib.playouts.playouts` ran on the Python engine (about 100x slower)
    although the compiled kernel was wanted: a rule set, position or player count the
    kernel does not play, or a kernel that is not built.  Warned once per rule set,
    player count and reason; the message says why.  Not warned when the user asked for
    the Python engine (``BENDOLIB_PURE_PYTHON=1``).  Silence it with
    ``warnings.filterwarnings("ignore", category=KernelFallbackWarning)``.
    """
