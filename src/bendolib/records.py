"""
Game records: a versioned JSON file with everything needed to replay a match.

:func:`dump` writes the record of a state's match (every move of every round, in
notation), :func:`load` reads one, :func:`replay` plays it again, checking every
move, and :func:`steps` yields the states one move at a time.  The format is
described in docs/records.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from bendolib import position_text
from bendolib._rule_spec import (
    policy_classes,
    register_policy,
    rules_from_spec,
    rules_to_spec,
    tile_text,
)
from bendolib.engine import apply, new_game
from bendolib.errors import (
    ArgumentError,
    BendolibError,
    IllegalMoveError,
    ParseError,
    RecordError,
    UnknownRuleSetError,
)
from bendolib.limits import (
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_RECORD_CHARS,
    MAX_SEED,
    clipped,
    nests_within,
    quoted,
)
from bendolib.moves import NEXT_ROUND, Move
from bendolib.notation import parse_move
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GameState, RoundResult

__all__ = [
    "FORMAT",
    "VERSION",
    "GameRecord",
    "RoundRecord",
    "Step",
    "dump",
    "initial_state",
    "load",
    "policy_classes",
    "record_of",
    "register_policy",
    "replay",
    "rules_from_spec",
    "rules_to_spec",
    "steps",
]

#: The value of the record's ``"format"`` key.
FORMAT = "bendolib-record"
#: The record version this library writes and reads.
VERSION = 1


@attrs.frozen
class RoundRecord:
    """One round: its number, its moves in notation, and its result once finished."""

    number: int
    moves: tuple[str, ...]
    result: RoundResult | None = None


@attrs.frozen
class GameRecord:
    """
    A match as recorded: the rule set, players, seed and the rounds' moves.

    ``names`` are optional player names (one per seat); ``start`` is the position
    text the match began from when it did not begin with a fresh deal; ``scores``
    and ``winner`` are the recorded final match scores and winning side (checked
    on replay when present).
    """

    rules: RuleSet
    players: int
    seed: int
    rounds: tuple[RoundRecord, ...]
    names: tuple[str, ...] = ()
    start: str | None = None
    scores: tuple[int, ...] | None = None
    winner: int | None = None

    @property
    def move_count(self) -> int:
        """Number of moves recorded, over all rounds (the deals between rounds excluded)."""
        return sum(len(r.moves) for r in self.rounds)

    def to_json(self) -> str:
        """The record as JSON text (one line per field, a round's moves on one line)."""
        return _format(self.to_dict()) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": rules_to_spec(self.rules),
            "tileset": {
                "name": self.rules.tileset.name,
                "tiles": [tile_text(t) for t in self.rules.tileset.tiles],
            },
            "players": self.players,
        }
        if self.names:
            data["names"] = list(self.names)
        data["seed"] = self.seed
        if self.start is not None:
            data["start"] = self.start
        data["rounds"] = [_round_dict(r) for r in self.rounds]
        if self.scores is not None:
            data["scores"] = list(self.scores)
        if self.winner is not None:
            data["winner"] = self.winner
        return data


def _round_dict(record: RoundRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"round": record.number, "moves": list(record.moves)}
    if record.result is not None:
        r = record.result
        data["result"] = {
            "blocked": r.blocked,
            "order": list(r.order),
            "hand_points": list(r.hand_points),
            "points": list(r.points),
            "winners": list(r.winners),
        }
    return data


def _format(value: Any, indent: int = 0) -> str:
    """JSON with dicts spread over lines and lists of scalars kept on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {_format(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        items = [pad + _format(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value)


def record_of(
    state: GameState, names: Sequence[str] = (), start: GameState | str | None = None
) -> GameRecord:
    """
    The record of the match that led to ``state``: every move since the match began.

    ``start`` is the state (or its position text) the match began from, when it
    did not begin with :func:`~bendolib.new_game` (a state read from a position
    text, say); ``names`` names the players.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"record_of takes a GameState, not {type(state).__name__}")
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise TypeError("names are a sequence of str, one per seat")
    if names and len(names) != state.players:
        raise ArgumentError(f"{len(names)} names for {state.players} players")
    history = state.match_history
    first = state.round_number - len(history) + 1
    if start is None:
        # a match that began from a loaded position records it
        start = state.past[0].origin if state.past else state.origin
    if start is None and first != 1:
        raise BendolibError(
            f"the moves of this match begin in round {first}: pass start= (the state it "
            "began from) to record it"
        )
    rounds = []
    for k, turns in enumerate(history):
        number = first + k
        result = next((r for r in state.results if r.round_number == number), None)
        if k == len(history) - 1 and not state.is_round_over:
            result = None
        rounds.append(RoundRecord(number, tuple(str(t.move) for t in turns), result))
    start_text = position_text.dumps(start) if isinstance(start, GameState) else start
    return GameRecord(
        rules=state.rules,
        players=state.players,
        seed=state.seed,
        rounds=tuple(rounds),
        names=tuple(names),
        start=start_text,
        scores=state.scores if state.is_game_over else None,
        winner=state.winner,
    )


def dump(state: GameState, names: Sequence[str] = (), start: GameState | str | None = None) -> str:
    """The JSON record of the match that led to ``state`` (see :func:`record_of`)."""
    return record_of(state, names, start).to_json()


# -- reading ----------------------------------------------------------------------------


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where} has no {quoted(key)} (truncated?)")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise RecordError(f"{where}: {quoted(key)} has the wrong type ({type(value).__name__})")
    return value


def _shown(value: Any) -> str:
    """A JSON value as the record writes it, cut short."""
    return clipped(json.dumps(value))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(
    value: Any, what: str, round_number: int | None = None, count: int | None = None
) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise RecordError(f"{what} must be a list of integers", round_number)
    if count is not None and len(value) != count:
        raise RecordError(f"{what} must have {count} values, not {len(value)}", round_number)
    return tuple(value)


def _read_result(data: Any, number: int, players: int) -> RoundResult:
    if not isinstance(data, dict):
        raise RecordError("the result must be an object", number)
    keys = ("blocked", "order", "hand_points", "points", "winners")
    missing = [k for k in keys if k not in data]
    if missing:
        raise RecordError(f"the result has no {', '.join(missing)}", number)
    if not isinstance(data["blocked"], bool):
        raise RecordError("'blocked' must be true or false", number)
    order, winners = (_ints(data[k], k, number) for k in ("order", "winners"))
    hand, points = (_ints(data[k], k, number, players) for k in ("hand_points", "points"))
    return RoundResult(number, data["blocked"], order, hand, points, winners)


def _read_round(data: Any, index: int, players: int) -> RoundRecord:
    if not isinstance(data, dict):
        raise RecordError(f"rounds[{index}] must be an object")
    number = _need(data, "round", int, f"rounds[{index}]")
    if number < 1:
        raise RecordError(f"rounds[{index}]: a round number is 1 or more, not {number}")
    moves = _need(data, "moves", list, f"round {number}")
    for n, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise RecordError(f"a move is a string in notation, not {_shown(move)}", number, n)
    result = _read_result(data["result"], number, players) if "result" in data else None
    return RoundRecord(number, tuple(moves), result)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number has at most {MAX_DIGITS} digits: {quoted(text)}")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordError(f"a number out of range: {quoted(text)}")
    return value


def _json_constant(text: str) -> Any:
    raise RecordError(f"{text} is not a value a record holds")


def _json(text: str) -> Any:
    """The JSON data of a record's text, within the limits (docs/records.md, "Limits")."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            f"a record has at most {MAX_RECORD_CHARS:,} characters, not {len(text):,}"
        )
    try:
        data = json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except json.JSONDecodeError as exc:
        error = RecordError(
            f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}; truncated?)"
        )
        error.position = exc.pos
        raise error from None
    except RecursionError:
        raise RecordError(
            f"not a record: lists or objects nest more than {MAX_DEPTH} deep"
        ) from None
    if not nests_within(data):
        raise RecordError(f"not a record: lists or objects nest more than {MAX_DEPTH} deep")
    return data


def load(text: str) -> GameRecord:
    """
    Read a JSON record; raises :class:`~bendolib.errors.RecordError` (a
    :class:`ParseError`) for text that is not a record of a version this library
    reads, or whose rule set is unknown.  The moves are checked by :func:`replay`.
    """
    if not isinstance(text, str):
        raise TypeError(f"records.load reads a str, not {type(text).__name__}")
    data = _json(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f'not a bendolib record (no "format": "{FORMAT}")')
    version = data.get("version")
    if version != VERSION or not _is_int(version):
        raise RecordError(
            f"record version {version!r:.40} is not supported (this bendolib reads {VERSION})"
        )
    try:
        rules = rules_from_spec(_need(data, "rules", dict, "the record"))
    except UnknownRuleSetError as exc:
        raise RecordError(str(exc.args[0])) from None
    except ParseError as exc:
        raise RecordError(f"bad rules: {exc}") from None
    tileset = data.get("tileset")
    if tileset is not None:
        listed = tileset.get("tiles") if isinstance(tileset, dict) else None
        if listed != [tile_text(t) for t in rules.tileset.tiles]:
            raise RecordError(f"the tile set differs from the one of {rules.name} (edited?)")
    players = _need(data, "players", int, "the record")
    if players not in rules.player_counts:
        raise RecordError(f"{rules.name} is not for {players} players")
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError("'names' must be a list of strings")
    if names and len(names) != players:
        raise RecordError(f"{len(names)} names for {players} players")
    seed = _need(data, "seed", int, "the record")
    if not 0 <= seed <= MAX_SEED:
        raise RecordError(f"a seed is from 0 to 2**64 - 1, not {seed}")
    start = data.get("start")
    if start is not None and not isinstance(start, str):
        raise RecordError("'start' must be a position text")
    listed_rounds = _need(data, "rounds", list, "the record")
    rounds = tuple(_read_round(r, i, players) for i, r in enumerate(listed_rounds))
    scores = _ints(data["scores"], "scores", count=players) if "scores" in data else None
    winner = data.get("winner")
    if winner is not None and not (
        _is_int(winner) and 0 <= winner < len(rules.match.sides(players))
    ):
        raise RecordError(f"'winner' must be a side number or null, not {_shown(winner)}")
    return GameRecord(rules, players, seed, rounds, tuple(names), start, scores, winner)


# -- replaying --------------------------------------------------------------------------


@attrs.frozen
class Step:
    """
    One move of a replay: ``player`` made ``move`` (written ``text``) as move
    ``move_number`` of round ``round_number``, giving ``state``.  The deal of a
    new round is a step with move number 0.
    """

    round_number: int
    move_number: int
    player: int
    move: Move
    text: str
    state: GameState


def initial_state(record: GameRecord) -> GameState:
    """The state the record starts from: the first deal, or its start position."""
    if not isinstance(record, GameRecord):
        raise TypeError(f"a GameRecord is needed, not {type(record).__name__}")
    if record.start is None:
        try:
            return new_game(record.rules, record.players, record.seed)
        except BendolibError as exc:
            raise RecordError(f"cannot deal the first round: {exc}") from None
    try:
        state = position_text.loads(record.start)
    except ParseError as exc:
        raise RecordError(f"bad start position: {exc}") from None
    if state.rules != record.rules or state.players != record.players:
        raise RecordError("the start position is for other rules or players")
    return state


def steps(record: GameRecord) -> Iterator[Step]:
    """
    Replay ``record`` one move at a time, checking each move; raises
    :class:`~bendolib.errors.RecordError` naming the round and move at fault.
    """
    state = initial_state(record)
    for k, rnd in enumerate(record.rounds):
        if k:
            previous = record.rounds[k - 1].number
            if state.is_game_over:
                raise RecordError(
                    f"the match ended in round {previous}, yet round {rnd.number} follows",
                    rnd.number,
                )
            if not state.is_round_over:
                raise RecordError(
                    f"round {previous} is not over after its {len(record.rounds[k - 1].moves)} "
                    "moves (moves missing?)",
                    rnd.number,
                )
            player = state.current_player
            state = apply(state, NEXT_ROUND)
            yield Step(state.round_number, 0, player, NEXT_ROUND, str(NEXT_ROUND), state)
        if rnd.number != state.round_number:
            raise RecordError(
                f"expected round {state.round_number}, found round {rnd.number}", rnd.number
            )
        for n, text in enumerate(rnd.moves, 1):
            if state.is_round_over:
                raise RecordError(
                    f"the round is already over: {quoted(text)} is one move too many", rnd.number, n
                )
            try:
                move = parse_move(text, state)
            except IllegalMoveError as exc:
                raise RecordError(
                    f"illegal move {quoted(text)} for player {state.current_player}: {exc.reason}",
                    rnd.number,
                    n,
                ) from None
            except ParseError as exc:
                raise RecordError(f"bad move {quoted(text)}: {exc}", rnd.number, n) from None
            player = state.current_player
            state = apply(state, move)
            yield Step(rnd.number, n, player, move, text, state)
        if rnd.result is not None:
            if not state.is_round_over:
                raise RecordError(
                    f"the moves stop after move {len(rnd.moves)} before the round is over "
                    "(truncated?)",
                    rnd.number,
                )
            if state.results[-1] != rnd.result:
                raise RecordError(
                    f"the recorded result differs from the replay's (edited?): recorded "
                    f"points {list(rnd.result.points)}, replayed {list(state.results[-1].points)}",
                    rnd.number,
                )
    if record.scores is not None and record.scores != state.scores:
        raise RecordError(
            f"the recorded final scores {list(record.scores)} differ from the replay's "
            f"{list(state.scores)} (edited or truncated?)"
        )
    if record.winner is not None and record.winner != state.winner:
        raise RecordError(
            f"the recorded winner {record.winner} differs from the replay's {state.winner}"
        )


def replay(record: GameRecord) -> GameState:
    """The final state of ``record``, every move checked (see :func:`steps`)."""
    final: GameState | None = None
    for step in steps(record):
        final = step.state
    return final if final is not None else initial_state(record)
