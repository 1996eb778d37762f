"""
A position as one line of text (like FEN for chess): :func:`dumps` writes it,
:func:`loads` reads it back as a :class:`GameState` that play can continue from.

The text is the rule set followed by ``key=value`` fields, separated by spaces::

    basic players=2 seed=7 round=1 turn=1 scores=0,0 hands=0-1L,2-4R/3-3 \
deck=6-6,0-1L,...|1-5R,... board=6-6*,6-2@1L

See docs/records.md for every field.  The history of moves is not part of a
position: a loaded state starts with an empty history and is its own
:attr:`~bendolib.state.GameState.origin` (its observations start there).  Only positions
that can arise in play are read, within the limits of :mod:`bendolib.limits`.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

from bendolib._memo import remember
from bendolib._placing import closes_unevenly
from bendolib._rule_spec import rules_from_spec, rules_to_spec, tile_text
from bendolib.errors import ArgumentError, BendolibError, ParseError
from bendolib.geometry.board import Board, Placement
from bendolib.geometry.chain import as_chain
from bendolib.geometry.triangles import TriangleBoard, TriangleGeometry, TrianglePlacement
from bendolib.geometry.trilattice import ORIGIN, Cell
from bendolib.limits import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_POSITION_CHARS,
    MAX_SEED,
    ascii_int,
    clipped,
    nests_within,
    quoted,
    shown,
)
from bendolib.moves import OPENING, Place, PlaceInCell
from bendolib.rules.match import match_winner, round_sides
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.triangles import TriominoesRoundScoring
from bendolib.state import (
    GAME_OVER,
    PLAYING,
    ROUND_OVER,
    STATE_FIELDS,
    GameState,
    RoundResult,
    check_state,
)
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, SYMBOL_NAMES, TileSet, Triangle, face_str, indices

__all__ = ["dumps", "loads"]

_PHASES = {PLAYING: "play", ROUND_OVER: "round-over", GAME_OVER: "game-over"}
_PHASE_VALUES = {name: value for value, name in _PHASES.items()}
_FACES = {name: face for face, name in SYMBOL_NAMES.items()}
#: GameState fields that are history, not position.
_HISTORY = ("log", "past", "origin")
#: The fields every position text has, in the order they are written.
_REQUIRED = ("players", "seed", "round", "turn", "scores", "hands", "deck", "board")
_EMPTY = "-"


class _FieldError(Exception):
    """A fault inside one field's value: the message and its offset in the value."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _parts(text: str, sep: str) -> Iterator[tuple[str, int]]:
    """
    ``text`` split at ``sep``, each part with its offset, one at a time (a reader that
    stops at a bad part has not split the rest).
    """
    at = 0
    while True:
        end = text.find(sep, at)
        if end < 0:
            yield text[at:], at
            return
        yield text[at:end], at
        at = end + len(sep)


def _ints(values: Sequence[int]) -> str:
    return ",".join(map(str, values)) if values else _EMPTY


def _compact_json(data: Any) -> str:
    # Compact JSON has spaces only inside strings; escape them so a field is one token.
    return json.dumps(data, separators=(",", ":")).replace(" ", "\\u0020")


def _tuples(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(_tuples(v) for v in data)
    return data


class _Writer:
    """Writes the fields of one state."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.tiles = state.rules.tileset.tiles

    def tiles_of(self, tile_indices: Sequence[int]) -> str:
        return ",".join(tile_text(self.tiles[i]) for i in tile_indices) or _EMPTY

    def mask(self, mask: int) -> str:
        return self.tiles_of(list(indices(mask)))

    def board(self, board: Board) -> str:
        return ",".join(_placement_text(p) for p in board.placements) or _EMPTY


def _placement_text(p: Placement) -> str:
    if isinstance(p, TrianglePlacement):
        # a cell placement in move notation; the round's first tile (in U(0, 0)) with '*'
        shown = "-".join(map(face_str, p.corners))
        return f"{shown}*" if p.end == OPENING else f"{shown}@{p.cell}"
    return str(Place(p.tile, p.end, p.inward, p.shows, p.turn, p.position))


def _results_text(results: tuple[RoundResult, ...]) -> str:
    rows = [
        [r.round_number, int(r.blocked), r.order, r.hand_points, r.points, r.winners]
        for r in results
    ]
    return _compact_json(rows)


def dumps(state: GameState) -> str:
    """
    The position text of ``state``: rules, players, seed, round, scores, hands, the
    deck (dealt tiles, then the stock in drawing order), the board and the turn.
    """
    w = _Writer(state)
    spec = rules_to_spec(state.rules)
    head = spec["name"] if list(spec) == ["name"] and " " not in spec["name"] else None
    fields = [head if head is not None else _compact_json(spec)]
    dealt, stock = state.deck[: state.stock_pos], state.deck[state.stock_pos :]
    fields += [
        f"players={state.players}",
        f"seed={state.seed}",
        f"round={state.round_number}",
        f"turn={state.current_player}",
        f"scores={_ints(state.scores)}",
        "hands=" + "/".join(w.mask(h) for h in state.hand_masks),
        f"deck={w.tiles_of(dealt)}|{w.tiles_of(stock)}",
        f"board={w.board(state.board)}",
    ]
    if state.phase != PLAYING:
        fields.append(f"phase={_PHASES[state.phase]}")
    if state.opening >= 0:
        fields.append(f"opening={tile_text(w.tiles[state.opening])}")
    if state.drawn:
        fields.append(f"drawn={w.mask(state.drawn)}")
    if state.drawn_count:
        fields.append(f"drawn_count={state.drawn_count}")
    if state.direction != 1:
        fields.append(f"direction={state.direction}")
    if state.out:
        fields.append(f"out={_ints(state.out)}")
    if state.play_points != (0,) * state.players:
        fields.append(f"play={_ints(state.play_points)}")
    if state.results:
        fields.append(f"results={_results_text(state.results)}")
    if state.last_placer != -1:
        fields.append(f"last={state.last_placer}")
    if state.match_winner != -1:
        fields.append(f"winner={state.match_winner}")
    aside = _aside(state)
    if aside:
        fields.append(f"aside={w.mask(aside)}")
    for name in STATE_FIELDS:
        if name in _KNOWN or name in _HISTORY:
            continue
        value = getattr(state, name)
        if name not in _DEFAULTS or value != _DEFAULTS[name]:
            fields.append(f"{name}={_compact_json(_plain(name, value))}")
    return " ".join(fields)


def _aside(state: GameState) -> int:
    """Tiles dealt but in no hand and not on the board (set aside in a built position)."""
    dealt = 0
    for i in state.deck[: state.stock_pos]:
        dealt |= 1 << i
    for hand in state.hand_masks:
        dealt &= ~hand
    for placement in state.board.placements:
        dealt &= ~(1 << state.rules.tileset.index(placement.tile))
    return dealt


def _plain(name: str, value: Any) -> Any:
    """A value of a field this module does not know, as JSON data."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        return [_plain(name, v) for v in value]
    raise BendolibError(f"position text cannot write GameState.{name} = {shown(value)}")


#: The defaults of the values of a state (those :meth:`GameState.create` has).
_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(GameState.create).parameters.items()
    if parameter.default is not inspect.Parameter.empty
}

#: GameState fields written under their own keys above.
_KNOWN = {
    "rules",
    "players",
    "seed",
    "round_number",
    "deck",
    "stock_pos",
    "hand_masks",
    "board",
    "current_player",
    "scores",
    "opening",
    "drawn",
    "drawn_count",
    "direction",
    "out",
    "play_points",
    "results",
    "phase",
    "last_placer",
    "match_winner",
}


# -- reading ----------------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")


class _Reader:
    """Reads one position text, remembering where each field starts for error messages."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fields: dict[str, tuple[str, int]] = {}
        self.rules_text = ""
        self.rules_at = 0
        self._split()

    def fail(self, message: str, key: str, offset: int = 0) -> ParseError:
        """An error at the value of field ``key`` (plus ``offset``)."""
        value_at = self.fields[key][1] + len(key) + 1 if key in self.fields else 0
        return ParseError(message, self.text, value_at + offset)

    def _split(self) -> None:
        text = self.text
        tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]
        if not tokens:
            raise ParseError("empty position text", text, 0)
        self.rules_text, self.rules_at = tokens[0]
        for token, at in tokens[1:]:
            key, sep, value = token.partition("=")
            if not sep or not key:
                raise ParseError(f"expected key=value, not {quoted(token)}", text, at)
            if key not in _KEYS and key not in _EXTRA:
                raise ParseError(f"unknown field {quoted(key)}", text, at)
            if key in self.fields:
                raise ParseError(f"{key} is given twice", text, at)
            self.fields[key] = (value, at)

    def has(self, key: str) -> bool:
        return key in self.fields

    def get(self, key: str) -> str:
        if key not in self.fields:
            raise ParseError(f"missing field {key}=", self.text, len(self.text))
        return self.fields[key][0]

    def value(self, key: str, parse: Callable[[str], Any], default: Any = None) -> Any:
        if key not in self.fields:
            if default is None:
                self.get(key)
            return default
        try:
            return parse(self.fields[key][0])
        except _FieldError as exc:
            raise self.fail(f"bad {key}: {exc.message}", key, exc.offset) from None
        except ParseError as exc:
            raise self.fail(f"bad {key}: {exc.args[0]}", key) from None
        except (ValueError, LookupError, TypeError) as exc:  # a geometry's own check
            raise self.fail(f"bad {key}: {exc}", key) from None


def _rules(reader: _Reader) -> RuleSet:
    token = reader.rules_text
    try:
        spec: Any = _json(token) if token.startswith("{") else {"name": token}
        return rules_from_spec(spec)
    except json.JSONDecodeError as exc:
        raise ParseError(f"bad rules: {exc.msg}", reader.text, reader.rules_at + exc.pos) from None
    except _FieldError as exc:
        raise ParseError(f"bad rules: {exc.message}", reader.text, reader.rules_at) from None
    except BendolibError as exc:
        raise ParseError(f"bad rules: {exc}", reader.text, reader.rules_at) from None


def _json_int(text: str) -> int:
    value = ascii_int(text, signed=True)
    if value is None:
        raise _FieldError(f"a number has at most {MAX_DIGITS} digits: {quoted(text)}")
    return value


def _json_float(text: str) -> float:
    raise _FieldError(f"not an integer: {quoted(text)}")


def _json_constant(text: str) -> Any:
    raise _FieldError(f"not an integer: {text}")


def _json(text: str) -> Any:
    """JSON data of a field, within the limits (docs/records.md, "Limits")."""
    try:
        data = json.loads(
            text,
            parse_int=_json_int,
            parse_float=_json_float,
            parse_constant=_json_constant,
        )
    except RecursionError:
        raise _FieldError(f"lists nest more than {MAX_DEPTH} deep") from None
    if not nests_within(data):
        raise _FieldError(f"lists nest more than {MAX_DEPTH} deep")
    return data


def _int(text: str, offset: int = 0) -> int:
    """A number written in ASCII digits (at most MAX_DIGITS), else a _FieldError."""
    value = ascii_int(text)
    if value is None:
        raise _FieldError(f"not a number: {quoted(text)}", offset)
    return value


def _signed(text: str) -> int:
    value = ascii_int(text, signed=True)
    if value is None:
        raise _FieldError(f"not a number: {quoted(text)}")
    return value


def _read_ints(text: str) -> tuple[int, ...]:
    if text == _EMPTY:
        return ()
    return tuple(_int(v, at) for v, at in _parts(text, ","))


def _read_signed(text: str) -> tuple[int, ...]:
    if text == _EMPTY:
        return ()
    values = []
    for v, at in _parts(text, ","):
        value = ascii_int(v, signed=True)
        if value is None:
            raise _FieldError(f"not a number: {quoted(v)}", at)
        values.append(value)
    return tuple(values)


def _can_lose(rules: RuleSet) -> bool:
    """True when a player's points can fall below 0 (penalties, Triominoes' losses)."""
    return rules.penalties is not None or isinstance(rules.round_scoring, TriominoesRoundScoring)


class _Tiles:
    """Tile lookup by text for one tile set."""

    def __init__(self, rules: RuleSet) -> None:
        self.tiles = rules.tileset.tiles
        self.by_text = {tile_text(t): i for i, t in enumerate(self.tiles)}
        self.name = rules.tileset.name

    def index(self, text: str, offset: int = 0) -> int:
        try:
            return self.by_text[text]
        except KeyError:
            raise _FieldError(f"no tile {quoted(text)} in {clipped(self.name)}", offset) from None

    def indices(self, text: str, offset: int = 0) -> tuple[int, ...]:
        if text == _EMPTY:
            return ()
        return tuple(self.index(t, offset + at) for t, at in _parts(text, ","))

    def mask(self, text: str, offset: int = 0) -> int:
        mask = 0
        for item, at in _parts(text, ",") if text != _EMPTY else []:
            i = self.index(item, offset + at)
            if mask >> i & 1:
                raise _FieldError(f"tile {item} is listed twice", offset + at)
            mask |= 1 << i
        return mask

    def masks(self, text: str) -> tuple[int, ...]:
        return tuple(self.mask(part, at) for part, at in _parts(text, "/"))


def _face(text: str) -> int:
    return _FACES[text] if text in _FACES else _int(text)


def _board(rules: RuleSet, tiles: _Tiles, text: str) -> Board:
    """Rebuild a board by laying its placements again with the rule set's geometry."""
    if text == _EMPTY:
        return Board()
    if isinstance(rules.geometry, TriangleGeometry):
        return _cell_board(rules, text)
    openings: list[tuple[int, int, int]] = []
    board: Board | None = None
    for n, (item, at) in enumerate(_parts(text, ",")):
        try:
            inward, outward, shows, end, turn = _read_placement(item)
            if end == OPENING:
                if board is not None:
                    raise ParseError("an opening tile after the first placements")
                openings.append((inward, outward, shows))
                continue
            if board is None:
                board = _open(rules, tiles, openings)
            board = _place(rules, tiles, board, (inward, outward, shows, end, turn))
        except (ParseError, _FieldError) as exc:
            message = exc.args[0] if isinstance(exc, ParseError) else exc.message
            raise _FieldError(f"placement {n} ({quoted(item)}): {message}", at) from None
    if board is None:
        board = _open(rules, tiles, openings)
    return board


#: One cell placement of a triangle board: ``a-b-c*`` (the opening) or ``a-b-c@x,yu``.
_CELL_ITEM = re.compile(r"([^,@*]*)(\*|@(-?[0-9]+),(-?[0-9]+)([ud]))")


#: The last triangle board read, by the ids of its geometry and tile set (held beside
#: it): ``(geometry, tileset, text, board)``.  A board text that extends it by more
#: placements (the next state's) is read on from it.
_LAST_CELL_BOARD: dict[tuple[int, int], tuple[object, TileSet, str, TriangleBoard]] = {}


def _cell_board(rules: RuleSet, text: str) -> Board:
    """A triangle board: its placements laid again in order, each checked to fit."""
    geometry = cast(TriangleGeometry, rules.geometry)
    tileset = rules.tileset
    key = (id(geometry), id(tileset))
    board = TriangleBoard()
    at, n = 0, 0
    last = _LAST_CELL_BOARD.get(key)
    if last is not None and last[0] is geometry and last[1] is tileset:
        _, _, read, done = last
        if text == read:
            return done
        if text.startswith(read) and text[len(read)] == ",":
            board, at, n = done, len(read) + 1, len(done.placements)
    while True:
        match = _CELL_ITEM.match(text, at)
        item = text[at:].split(",", 1)[0] if match is None else match.group(0)
        try:
            if match is None:
                raise ParseError("a cell placement is written 'a-b-c*' or 'a-b-c@x,yu'")
            faces = tuple(_face(f) for f in match.group(1).split("-"))
            if len(faces) != 3:
                raise ParseError("a triangle shows three numbers 'a-b-c'")
            opening = match.group(2) == "*"
            if opening != (n == 0):
                raise ParseError("the first placement, and only it, is the opening 'a-b-c*'")
            if opening:
                cell = ORIGIN
            else:
                x, y = _signed(match.group(3)), _signed(match.group(4))
                cell = Cell(x, y, match.group(5) == "d")
            board = _lay(geometry, rules, board, faces, cell)
        except (ParseError, _FieldError, BendolibError) as exc:
            message = exc.args[0] if not isinstance(exc, _FieldError) else exc.message
            raise _FieldError(f"placement {n} ({quoted(item)}): {message}", at) from None
        at = match.end()
        n += 1
        if at == len(text):
            remember(_LAST_CELL_BOARD, key, (geometry, tileset, text, board))
            return board
        if text[at] != ",":
            raise _FieldError(f"placement {n - 1} is followed by {text[at]!r}, not ','", at)
        at += 1


#: The triangles' corner readings by the id of their tile set (the values hold the set,
#: so its id is not reused while memoised).
_READINGS: dict[int, tuple[TileSet, dict[tuple[int, ...], tuple[Triangle, int]]]] = {}


def _corner_readings(tileset: TileSet) -> dict[tuple[int, ...], tuple[Triangle, int]]:
    """
    The numbers a cell's corners show (0, 1, 2) with each triangle of ``tileset`` in each
    rotation: the first tile (in the set's order) and rotation (0, 1, 2) that show them.
    """
    held = _READINGS.get(id(tileset))
    if held is None or held[0] is not tileset:
        readings: dict[tuple[int, ...], tuple[Triangle, int]] = {}
        for tile in tileset.tiles:
            if isinstance(tile, Triangle):
                for rotation in range(3):
                    readings.setdefault(tile.turned(rotation), (tile, rotation))
        held = remember(_READINGS, id(tileset), (tileset, readings))
    return held[1]


def _lay(
    geometry: TriangleGeometry,
    rules: RuleSet,
    board: TriangleBoard,
    faces: tuple[int, ...],
    cell: Cell,
) -> TriangleBoard:
    """``board`` with the tile showing ``faces`` at the corners of ``cell``, if it fits."""
    found = _corner_readings(rules.tileset).get(faces)
    if found is None:
        shown = "-".join(map(face_str, faces))
        raise ParseError(f"no tile shows {shown} in {clipped(rules.tileset.name)}")
    move = PlaceInCell(found[0], cell, found[1])
    if board.placements:
        if cell.key in board.filled or cell.key not in board.sites:
            raise ParseError(geometry.why_not(board, move))
        wanted = board.cell_numbers(cell.key)
        if any(w >= 0 and w != f for w, f in zip(wanted, faces, strict=True)):
            raise ParseError(geometry.why_not(board, move))
    return geometry.play(board, move)


def _read_placement(item: str) -> tuple[int, int, int, int, int]:
    """(inward, outward, shows, end, turn) of one placement in move notation."""
    body = item
    if body.endswith("*"):
        end, turn, body = OPENING, STRAIGHT, body[:-1]
    else:
        body, sep, where = body.partition("@")
        if not sep or not where:
            raise ParseError("a placement has '@end' or '*'")
        turn = {"L": LEFT, "R": RIGHT}.get(where[-1], STRAIGHT)
        end = _int(where[:-1] if turn != STRAIGHT else where)
    faces, _, named = body.partition("=")
    inward_text, sep, outward_text = faces.partition("-")
    if not sep:
        raise ParseError("a placement has 'a-b' faces")
    inward, outward = _face(inward_text), _face(outward_text)
    shows = _int(named) if named else outward
    return inward, outward, shows, end, turn


def _tile_candidates(tiles: _Tiles, a: int, b: int) -> list[int]:
    lo, hi = min(a, b), max(a, b)
    found = [i for i, t in enumerate(tiles.tiles) if (t.a, t.b) == (lo, hi)]
    if not found:
        raise ParseError(f"no tile {face_str(lo)}-{face_str(hi)} in {clipped(tiles.name)}")
    return found


def _open(rules: RuleSet, tiles: _Tiles, openings: list[tuple[int, int, int]]) -> Board:
    if not openings:
        raise ParseError("the board does not start with an opening tile ('a-b*')")
    if len(openings) > max(1, rules.deal.table_tiles):
        raise ParseError(f"{len(openings)} opening tiles in {rules.name}")
    chosen = []
    for inward, outward, shows in openings:
        if shows != outward:
            raise ParseError("an opening tile names no value")
        fits = [
            rules.tileset.tiles[i]
            for i in _tile_candidates(tiles, inward, outward)
            if rules.geometry.open([(rules.tileset.tiles[i], inward)]).placements[0].inward
            == inward
        ]
        if not fits:
            raise ParseError(f"opening tile {inward}-{outward} cannot lie that way round")
        chosen.append((fits[0], inward))
    try:
        return rules.geometry.open(chosen)
    except (ValueError, IndexError) as exc:
        raise ParseError(f"bad opening: {exc}") from None


def _place(
    rules: RuleSet,
    tiles: _Tiles,
    board: Board,
    parsed: tuple[int, int, int, int, int],
) -> Board:
    inward, outward, shows, end, turn = parsed
    if not 0 <= end < len(board.ends):
        raise ParseError(f"there is no open end {end}")
    value = board.ends[end].value
    if inward != value and inward not in rules.wild_faces:
        raise ParseError(f"end {end} shows {value}, not {inward}")
    if shows != outward and (
        outward not in rules.wild_faces or not 0 <= shows <= rules.tileset.top
    ):
        raise ParseError(
            f"'={shows}' names a value: the outward face must be wild and the value "
            f"from 0 to {rules.tileset.top}"
        )
    candidates = [rules.tileset.tiles[i] for i in _tile_candidates(tiles, inward, outward)]
    if not board.ends[end].free:
        raise ParseError(f"end {end} is closed")
    if rules.geometry.uses_bends:
        if turn == STRAIGHT:
            raise ParseError("a curved tile needs its turn letter L or R")
        candidates = [t for t in candidates if t.turn_from(inward) & turn]
        if not candidates:
            raise ParseError("the tile does not turn that way")
        if not board.ends[end].free & turn:
            raise ParseError("the position turning that way is occupied")
    elif turn != STRAIGHT:
        raise ParseError("a straight board has no turn letters")
    if closes_unevenly(rules, board, end, turn, shows):
        # only positions that can arise: the rules refuse this closing (issue 21 point 3)
        joints: tuple[tuple[int, int, int], ...] = rules.geometry.joints(board)  # type: ignore[attr-defined]
        met = next(
            m for e, t, m in joints if e == end and t == turn and board.ends[m].value != shows
        )
        raise ParseError(
            f"it closes the chain unevenly: its far end shows {shows} against end {met}'s "
            f"{board.ends[met].value}, which closing={rules.closing!r} forbids "
            "(closing='any' allows it)"
        )
    try:
        return as_chain(rules.geometry).place(board, end, candidates[0], inward, shows, turn)
    except (ValueError, IndexError) as exc:
        raise ParseError(str(exc)) from None


def _results(players: int, can_lose: bool = False) -> Callable[[str], tuple[RoundResult, ...]]:
    def parse(text: str) -> tuple[RoundResult, ...]:
        rows = _json(text)
        if not isinstance(rows, list):
            raise _FieldError("results are a JSON list of rounds")
        out = []
        for n, row in enumerate(rows):
            out.append(_result(row, n, players, can_lose))
        numbers = [r.round_number for r in out]
        if numbers != sorted(set(numbers)):
            raise _FieldError("the rounds' numbers must increase")
        return tuple(out)

    return parse


def _result(row: Any, n: int, players: int, can_lose: bool = False) -> RoundResult:
    shape = "[round, blocked, order, hand points, points, winners]"
    if not isinstance(row, list) or len(row) != 6:
        raise _FieldError(f"round {n} is not {shape}")
    number, blocked, order, hand_points, points, winners = row
    if not _is_int(number) or number < 1 or blocked not in (0, 1):
        raise _FieldError(f"round {n} is not {shape}")
    for values, count in (
        (order, None),
        (hand_points, players),
        (points, players),
        (winners, None),
    ):
        lowest = -(10**MAX_DIGITS) if values is points and can_lose else 0
        if not isinstance(values, list) or not all(_is_int(v) and v >= lowest for v in values):
            raise _FieldError(f"round {n}: lists of numbers 0 or more are expected")
        if count is not None and len(values) != count:
            raise _FieldError(f"round {n}: {len(values)} values for {players} players")
    if not all(s < players for s in (*order, *winners)) or len(set(order)) != len(order):
        raise _FieldError(f"round {n}: seats are from 0 to {players - 1}, each once")
    return RoundResult(
        number, bool(blocked), tuple(order), tuple(hand_points), tuple(points), tuple(winners)
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _phase(text: str) -> int:
    if text not in _PHASE_VALUES:
        raise _FieldError(f"the phase is {', '.join(_PHASE_VALUES)}, not {quoted(text)}")
    return _PHASE_VALUES[text]


def _direction(text: str) -> int:
    if text not in ("1", "-1"):
        raise _FieldError(f"the direction is 1 or -1, not {quoted(text)}")
    return int(text)


def loads(text: str) -> GameState:
    """
    The state written by :func:`dumps` (or by hand); raises :class:`ParseError`
    naming the offending field and its position in the text.  Only positions that
    can arise in play are accepted; the state's :attr:`~GameState.origin` is itself
    (its known history starts here).
    """
    if not isinstance(text, str):
        raise TypeError(f"position_text.loads reads a str, not {type(text).__name__}")
    if len(text) > MAX_POSITION_CHARS:
        raise ParseError(
            f"a position text has at most {MAX_POSITION_CHARS:,} characters, not {len(text):,}"
        )
    reader = _Reader(text)
    rules = _rules(reader)
    tiles = _Tiles(rules)
    players = reader.value("players", _int)
    if players not in rules.player_counts:
        raise reader.fail(f"{rules.name} is not for {players} players", "players")
    zeros = (0,) * players
    hands = reader.value("hands", tiles.masks)
    if len(hands) != players:
        raise reader.fail(f"{len(hands)} hands for {players} players", "hands")
    board = reader.value("board", lambda v: _board(rules, tiles, v), Board())
    points = _read_signed if _can_lose(rules) else _read_ints
    deck, stock_pos = _deck(reader, tiles, board)
    state = GameState._unchecked(
        rules=rules,
        players=players,
        seed=reader.value("seed", _int, 0),
        round_number=reader.value("round", _int, 1),
        deck=deck,
        stock_pos=stock_pos,
        hand_masks=hands,
        board=board,
        current_player=reader.value("turn", _int, 0),
        scores=reader.value("scores", points, zeros),
        opening=reader.value("opening", tiles.index, -1),
        drawn=reader.value("drawn", tiles.mask, 0),
        drawn_count=reader.value("drawn_count", _int, 0),
        direction=reader.value("direction", _direction, 1),
        out=reader.value("out", _read_ints, ()),
        play_points=reader.value("play", points, zeros),
        results=reader.value("results", _results(players, _can_lose(rules)), ()),
        phase=reader.value("phase", _phase, PLAYING),
        last_placer=reader.value("last", _signed, -1),
        match_winner=reader.value("winner", _int, -1),
    )
    extra = {
        key: reader.value(key, lambda v: _tuples(_json(v))) for key in _EXTRA if reader.has(key)
    }
    if extra:
        state = state._replaced(**extra)
    _check(reader, state)
    try:
        check_state(state)  # the values' types and ranges that _check leaves
    except (ArgumentError, TypeError) as exc:
        raise ParseError(f"not a position: {exc}", text, 0) from None
    # the round's known history starts here, not at a deal
    return state._replaced(origin=state)


#: Every key a position text may use for the fields this module knows.
_KEYS = {
    *_REQUIRED,
    "stock",
    "phase",
    "opening",
    "drawn",
    "drawn_count",
    "direction",
    "out",
    "play",
    "results",
    "last",
    "winner",
    "aside",
}
#: The GameState fields this module does not know, written as ``name=<json>``.
_EXTRA = frozenset(STATE_FIELDS) - _KNOWN - set(_HISTORY)


def _deck(reader: _Reader, tiles: _Tiles, board: Board) -> tuple[tuple[int, ...], int]:
    """The deck and stock position, from ``deck=dealt|stock`` or from ``stock=``."""
    count = len(tiles.tiles)
    if reader.has("deck"):
        if reader.has("stock"):
            raise reader.fail("give deck= or stock=, not both", "stock")

        def parse(value: str) -> tuple[tuple[int, ...], int]:
            dealt, sep, stock = value.partition("|")
            if not sep:
                raise ParseError("the deck is written dealt|stock")
            first, rest = tiles.indices(dealt), tiles.indices(stock, len(dealt) + 1)
            return first + rest, len(first)

        deck, stock_pos = reader.value("deck", parse)
        if sorted(deck) != list(range(count)):
            raise reader.fail(f"the deck must hold each of the {count} tiles once", "deck")
        return deck, stock_pos
    stock = reader.value("stock", tiles.indices)
    if len(set(stock)) != len(stock):
        raise reader.fail("a tile is listed twice", "stock")
    on_board = [tiles.by_text[tile_text(p.tile)] for p in board.placements]
    out = set(stock) | set(on_board)
    rest = [i for i in range(count) if i not in out]
    dealt = tuple(on_board + rest)
    return dealt + tuple(stock), len(dealt)


def _check(reader: _Reader, state: GameState) -> None:
    """The checks that a position can arise in play (a hand-written one may fail them)."""
    players = state.players
    rules = state.rules
    tiles = rules.tileset.tiles
    if state.seed > MAX_SEED:
        raise reader.fail(f"a seed is from 0 to 2**64 - 1, not {state.seed}", "seed")
    if state.round_number < 1:
        raise reader.fail("rounds are numbered from 1", "round")
    if not 0 <= state.current_player < players:
        raise reader.fail(f"no player {state.current_player}", "turn")
    for key, values in (("scores", state.scores), ("play", state.play_points)):
        if len(values) != players:
            raise reader.fail(f"{len(values)} values for {players} players", key)
    dealt = 0
    for i in state.deck[: state.stock_pos]:
        dealt |= 1 << i
    used = 0
    on_board = [rules.tileset.index(p.tile) for p in state.board.placements]
    for i in on_board:
        if used >> i & 1:
            raise reader.fail(f"tile {tile_text(tiles[i])} is on the board twice", "board")
        used |= 1 << i
    for player, hand in enumerate(state.hand_masks):
        if used & hand:
            twice = tiles[next(iter(indices(used & hand)))]
            raise reader.fail(
                f"tile {tile_text(twice)} is in hand {player} and on the board or in another hand",
                "hands",
            )
        used |= hand
    if used & ~dealt:
        stray = tiles[next(iter(indices(used & ~dealt)))]
        raise reader.fail(f"tile {tile_text(stray)} is in play and in the stock", "hands")
    if reader.has("deck"):
        declared = reader.value("aside", _Tiles(rules).mask, 0)
        lost = _aside(state) & ~declared
        if lost:
            names = ", ".join(tile_text(tiles[i]) for i in indices(lost))
            raise reader.fail(
                f"dealt tiles in no hand and not on the board: {clipped(names)} (set them "
                "aside with aside=)",
                "deck",
            )
        if declared & ~_aside(state):
            stray = tiles[next(iter(indices(declared & ~_aside(state))))]
            raise reader.fail(f"tile {tile_text(stray)} is not set aside", "aside")
    elif reader.has("aside"):
        raise reader.fail(
            "aside= goes with deck=; with stock= the unlisted tiles are aside", "aside"
        )
    _check_turn(reader, state)
    _check_match(reader, state)


def _check_turn(reader: _Reader, state: GameState) -> None:
    """The round's progress: who went out, the opening tile, the tiles drawn this turn."""
    players = state.players
    mover = state.current_player
    hand = state.hand_masks[mover]
    out = state.out
    if any(s >= players for s in out) or len(set(out)) != len(out):
        raise reader.fail(f"out lists seats from 0 to {players - 1}, each once", "out")
    if any(state.hand_masks[s] for s in out):
        raise reader.fail("a seat that went out has tiles in hand", "out")
    if not -1 <= state.last_placer < players:
        raise reader.fail(f"last is a seat from 0 to {players - 1}, or -1", "last")
    if state.phase == PLAYING:
        empty = [s for s in range(players) if not state.hand_masks[s] and s not in out]
        if empty:
            raise reader.fail(f"player {empty[0]} has no tile but is not out", "hands")
        if not hand:
            raise reader.fail(f"player {mover}, to move, has no tile", "turn")
        if out and state.rules.finish == "first_out":
            raise reader.fail("in this rule set the round ends when a player goes out", "out")
    if state.opening >= 0:
        if state.phase != PLAYING or state.board.placements:
            raise reader.fail("an opening tile is only for a round not yet opened", "opening")
        if not hand >> state.opening & 1:
            raise reader.fail(f"the opening tile must be in the hand of player {mover}", "opening")
    if state.drawn or state.drawn_count:
        if state.phase != PLAYING:
            raise reader.fail("nobody draws once the round is over", "drawn")
        if state.drawn & ~hand:
            raise reader.fail("drawn tiles must be in the hand of the player to move", "drawn")
        if state.drawn.bit_count() != state.drawn_count:
            raise reader.fail(
                f"drawn_count={state.drawn_count} but {state.drawn.bit_count()} tiles drawn",
                "drawn_count" if reader.has("drawn_count") else "drawn",
            )


def _check_match(reader: _Reader, state: GameState) -> None:
    """The match: scores, finished rounds, phase and winner agree."""
    rules = state.rules
    results = state.results
    if results and results[-1].round_number > state.round_number:
        raise reader.fail(f"a result for a round after round {state.round_number}", "results")
    finished = bool(results) and results[-1].round_number == state.round_number
    if finished != (state.phase != PLAYING):
        raise reader.fail(
            f"round {state.round_number} has a result exactly when it is over",
            "results" if reader.has("results") else "phase",
        )
    sides = rules.match.sides(state.players)
    side_scores = [sum(state.scores[s] for s in side) for side in sides]
    won = results[-1].winners if finished else ()
    winner = (
        match_winner(rules.match, side_scores, round_sides(sides, won))
        if state.phase != PLAYING
        else None
    )
    if state.phase == GAME_OVER:
        if state.match_winner != winner:
            raise reader.fail(
                f"the winner of these scores is {'nobody yet' if winner is None else winner}",
                "winner" if reader.has("winner") else "phase",
            )
    elif state.match_winner != -1:
        raise reader.fail("a winner is named only once the game is over", "winner")
    elif winner is not None:
        raise reader.fail(f"side {winner} has won: the phase is game-over", "phase")
