"""
Move notation: ``str(move)`` writes it, :func:`parse_move` reads it back.

* placement: ``<inward>-<outward>[=<named>]@<end><L|R>`` e.g. ``5-3@1L`` lays the
  tile 3-5 with its 5 against open end 1, turning left (no turn letter on a
  straight board; ``=n`` names the value a wild face shows);
* the opening tile of a round: ``6-6*``;
* ``draw``, ``pass`` and ``next`` (deal the next round).
"""

from __future__ import annotations

import re

from bendolib.engine import legal_moves, why_illegal
from bendolib.errors import IllegalMoveError, ParseError
from bendolib.moves import DRAW, NEXT_ROUND, OPENING, PASS, Move, Place
from bendolib.state import GameState
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, SYMBOL_NAMES

_FACE = r"(\d+|[APW])"
_PLACE = re.compile(rf"^{_FACE}-{_FACE}(?:=(\d+))?(?:@(\d+)([LR]?)|(\*))$")
_WORDS: dict[str, Move] = {
    "draw": DRAW,
    "d": DRAW,
    "pass": PASS,
    "p": PASS,
    "next": NEXT_ROUND,
    "n": NEXT_ROUND,
}


def parse_move(text: str, state: GameState) -> Move:
    """
    The legal move of ``state`` written as ``text``.

    A placement without its turn letter is accepted when only one turn is legal.
    Raises :class:`ParseError` for malformed or ambiguous text and
    :class:`IllegalMoveError` for a well-formed move that is not legal.
    """
    if not isinstance(text, str):
        raise ParseError(f"a move is a string, not {type(text).__name__}", repr(text), 0)
    body = text.strip()
    legal = legal_moves(state)
    word = _WORDS.get(body.lower())
    if word is not None:
        if word in legal:
            return word
        raise IllegalMoveError(word, why_illegal(state, word), legal)
    match = _PLACE.match(body)
    if match is None:
        column = _first_bad_column(body)
        raise ParseError(
            "expected a placement like '5-3@1L', '6-6*', or draw / pass / next", text, column
        )
    exact = [m for m in legal if str(m) == body]
    if exact:
        return exact[0]
    inward, outward, named, end, turn, opening = match.groups()
    prefix = f"{inward}-{outward}" + (f"={named}" if named else "")
    if opening is None and not turn:
        candidates = [
            m
            for m in legal
            if isinstance(m, Place) and str(m) in (f"{prefix}@{end}L", f"{prefix}@{end}R")
        ]
        if len(candidates) == 1:
            return candidates[0]
        if len(candidates) > 1:
            raise ParseError("ambiguous move: add the turn letter L or R", text, len(body))
    guess = _placement_guess(state, body, match.groups())
    raise IllegalMoveError(body, why_illegal(state, guess) if guess else "no such move", legal)


def _first_bad_column(body: str) -> int:
    for i in range(len(body), 0, -1):
        head = body[:i]
        if re.match(r"^(\d+|[APW])(-((\d+|[APW])(=\d*)?(@(\d+[LR]?)?|\*)?)?)?$", head):
            return i
    return 0


def _placement_guess(state: GameState, body: str, groups: tuple[str | None, ...]) -> Place | None:
    """A Place built from the text alone, to explain why it is illegal."""
    names = {v: k for k, v in SYMBOL_NAMES.items()}
    inward_s, outward_s, named, end_s, turn, opening = groups
    assert inward_s is not None and outward_s is not None
    inward = names.get(inward_s)
    inward = int(inward_s) if inward is None else inward
    outward = names.get(outward_s)
    outward = int(outward_s) if outward is None else outward
    tileset = state.rules.tileset
    matches = [t for t in tileset.tiles if {t.a, t.b} == {inward, outward}]
    if not matches:
        raise ParseError(f"no tile {inward_s}-{outward_s} in {tileset.name}", body, 0)
    turn_value = {"L": LEFT, "R": RIGHT}.get(turn or "", STRAIGHT)
    tile = matches[0]
    if len(matches) > 1 and turn_value != STRAIGHT:
        tile = next((t for t in matches if t.turn_from(inward) & turn_value), matches[0])
    end = OPENING if opening else int(end_s or 0)
    shows = int(named) if named else outward
    return Place(tile, end, inward, shows, turn_value, None)
