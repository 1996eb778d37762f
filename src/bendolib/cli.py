"""
The ``bendolib`` command line: play against bots, run tournaments, read records.

Subcommands: ``demo``, ``rules``, ``play``, ``simulate``, ``league``, ``selfplay``, ``render``,
``replay``
(``bendolib COMMAND --help`` for each).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

import attrs

from bendolib import position_text, records
from bendolib import rules as rules_registry
from bendolib._files import write_atomically
from bendolib._playouts_reference import MAX_MOVES
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import BendolibError, IllegalMoveError, ParseError
from bendolib.geometry.triangles import TriangleBoard
from bendolib.limits import MAX_DEPTH, MAX_DIGITS, clipped, nests_within
from bendolib.moves import NEXT_ROUND, Draw, Move, Pass
from bendolib.notation import parse_move
from bendolib.observation import detached
from bendolib.render_html import HANDS, to_html
from bendolib.render_svg import to_svg
from bendolib.rules.ruleset import RuleSet
from bendolib.state import GameState
from bendolib.text import board_text, printable, side_name, state_text
from bendolib.tiles import TileSet


def _demo(args: argparse.Namespace) -> int:
    """Play one match with random legal moves and print it."""
    ruleset = rules_registry.get(args.rules)
    # --players, else the fewest the rule set allows (2 for most; 4 for the team games)
    players = args.players if args.players is not None else ruleset.player_counts[0]
    state = new_game(ruleset, players=players, seed=args.seed)
    rng = random.Random(args.seed)
    print(f"{ruleset.name}: {players} players, seed {args.seed}")
    played = 0
    while not state.is_game_over:
        if played >= MAX_MOVES:  # no registered rule set gets here
            raise _too_long(state, MAX_MOVES, args.seed)
        played += 1
        moves = legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        if state.is_round_over:
            print(board_text(state))
            print()
        else:
            print(f"round {state.round_number}  player {state.current_player}: {move}")
        state = apply(state, move)
    print(board_text(state))
    names = [f"player {seat}" for seat in range(state.players)]
    winner = state.winner
    # a side: the seat, or the team and its players (issue 21 point 6)
    side = -1 if winner is None else winner
    print(f"scores: {list(state.scores)}; winner: {_side_text(state, side, names)}")
    return 0


# -- rules ------------------------------------------------------------------------------


def _param_text(value: Any) -> str:
    """A parameter value as ``--param`` takes it (JSON), or a readable form for objects."""
    if isinstance(value, TileSet):
        return f"<tile set {value.name!r}, {len(value)} tiles>"
    if attrs.has(type(value)):
        fields = ", ".join(
            f"{f.name}={_param_text(getattr(value, f.name))}"
            for f in attrs.fields(type(value))
            if f.init
        )
        return f"{type(value).__name__}({fields})"
    if isinstance(value, tuple | list) and any(attrs.has(type(v)) for v in value):
        return "[" + ", ".join(_param_text(v) for v in value) + "]"
    if isinstance(value, tuple | list) and any(isinstance(v, tuple) for v in value):
        return "[" + ", ".join(_param_text(v) for v in value) + "]"
    if isinstance(value, frozenset | set):
        return json.dumps(sorted(value))
    return json.dumps(value)


def _rules(args: argparse.Namespace) -> int:
    """List the rule sets and their parameters."""
    names = [args.name] if args.name else list(rules_registry.names())
    for name in names:
        ruleset = rules_registry.get(name)
        counts = "/".join(map(str, ruleset.player_counts))
        print(f"{name:24} {counts:10} {ruleset.description}")
        for key, value in ruleset.parameters().items():
            print(f"    {key} = {_param_text(value)}")
    return 0


def _parse_params(items: Sequence[str]) -> dict[str, Any]:
    """
    ``key=value`` options: the value read as JSON when it is JSON, else as text; a
    number of more than :data:`~bendolib.limits.MAX_DIGITS` digits or lists nested
    more than :data:`~bendolib.limits.MAX_DEPTH` deep is refused (ParseError).
    """
    params: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise ParseError("a parameter is written key=value", item, 0)
        deep = ParseError(
            f"parameter {clipped(key)}: lists and objects nest at most {MAX_DEPTH} deep"
        )

        def number(digits: str, key: str = key) -> int:
            if len(digits.lstrip("-")) > MAX_DIGITS:
                raise ParseError(
                    f"parameter {clipped(key)}: a number has at most {MAX_DIGITS} digits, "
                    f"not {len(digits.lstrip('-')):,}"
                )
            return int(digits)

        try:
            value = json.loads(text, parse_int=number)
        except json.JSONDecodeError:
            value = text
        except RecursionError:  # nested far beyond the limit
            raise deep from None
        if not nests_within(value):
            raise deep
        params[key] = tuple(value) if isinstance(value, list) else value
    return params


def _ruleset(args: argparse.Namespace) -> RuleSet:
    return rules_registry.get(args.rules, **_parse_params(args.param or ()))


# -- play -------------------------------------------------------------------------------


def _bot_names(items: Sequence[str]) -> list[str]:
    """The bots of ``--bots``: each item, cut at the commas outside brackets and quotes."""
    from bendolib.bots.spec import split_specs

    return [name for item in items for name in split_specs(item)]


def _get_bot(name: str) -> Any:
    """A bot from its text: a name, ``module:Class`` or ``file.py:Class``, with arguments."""
    from bendolib import bots

    return bots.load(name)


def _columns(items: Sequence[str], width: int = 78) -> list[str]:
    """Items laid out in columns that fit ``width`` characters."""
    if not items:
        return []
    cell = max(len(i) for i in items) + 2
    per_line = max(1, width // cell)
    return [
        "".join(item.ljust(cell) for item in items[k : k + per_line]).rstrip()
        for k in range(0, len(items), per_line)
    ]


_PLAY_HELP = """\
Type the number of a move, or the move in notation:
  5-3@1L   lay the tile with its 5 against open end 1, turning left (L) or right (R)
  6-6*     the opening tile;  draw / pass (or d / p)
  5-3      enough when only one legal move fits
Tiles: 3-5L turns left read from 3 to 5 (so right read from 5 to 3); 3-5R turns
  right; a double (4-4) turns either way.  Left is counter-clockwise seen from above.
Ends: "1:5 (open)" is open end 1 showing a 5.  A blocked end says why:
  A  no tile still off the board has that number
  B  no such tile turns the way the free place there needs
  C  a dead end: the places beyond the end are taken
  D  the two ends of the chain meet
Picture of a curved board: each tile is a curved band of ':' or '.' (touching
  tiles differ) with its two numbers in its two halves; <n> marks open end n just
  beyond it, #n a blocked end n.  A straight board is one line, end 0 on the left.
A lone draw or pass is played for you (start with --ask-forced to be asked).
Other commands: board (show the board again), moves (list the moves), help, quit."""

_TRIANGLE_PLAY_HELP = """\
Type the number of a move, or the move in notation:
  5-3-3@1,-1d  lay a tile in cell 1,-1d so that it shows 5, 3, 3 at the cell's
               corners, clockwise from corner 0 (the lower-left corner of an up
               cell 'u', the upper-left of a down cell 'd')
  5-5-5*       the opening tile (it lies in cell 0,0u);  draw / pass (or d / p)
  5-3-3        enough when only one legal move fits
Tiles: 0-3-5 reads its numbers clockwise; a tile is turned, never flipped.
Cells: x,y then u or d; x counts along a row, y rows up (docs/triangles.md).
Open edges: "3:0-3 (open)" is open edge 3 with a 0 and a 3 at its corners.
  A blocked edge says why:
  A  no tile still off the board shows those two numbers that way round
  B  some does, but none also fits the cell's third corner
  C  no tile of the whole set fits the cell beyond it (a hole for good)
Picture: the numbers at the corners, tile edges as - / \\; in a free cell beside
  the layout, + when some tile off the board fits it, else the blocked letter;
  * marks the latest tile.
A lone draw or pass is played for you (start with --ask-forced to be asked).
Other commands: board (show the board again), moves (list the moves), help, quit."""

#: The longest answer read at a prompt; the rest of a longer line is skipped.
_MAX_ANSWER = 200


class _Prompter:
    """Reads answers from the user; ``None`` at the end of input (or no input at all)."""

    def __init__(self, stdin: TextIO | None, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        if self.stdin is None:  # started with standard input closed (0<&-)
            self.stdout.write("\n")
            return None
        line = self.stdin.readline(_MAX_ANSWER + 1)
        if not line:
            self.stdout.write("\n")
            return None
        if len(line) > _MAX_ANSWER and not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):
                rest = self.stdin.readline(64 * 1024)
        return line.strip()


def _number(answer: str) -> int | None:
    """The answer as a move or step number (ASCII digits only), else ``None``."""
    if answer.isascii() and answer.isdigit():
        return int(answer) if len(answer) <= 9 else 10**9
    return None


def _quoted(answer: str) -> str:
    """An answer quoted in a message (shortened, control characters escaped)."""
    return repr(answer if len(answer) <= 40 else answer[:40] + "...")


def _show_moves(out: TextIO, moves: Sequence[Move]) -> None:
    numbered = [f"{n}) {m}" for n, m in enumerate(moves, 1)]
    out.write("legal moves:\n")
    for line in _columns(numbered):
        out.write(f"  {line}\n")


def _choose_human(state: GameState, prompter: _Prompter, seat: int) -> Move | None:
    """The human's move, asked until it is legal; ``None`` to stop playing."""
    out = prompter.stdout
    moves = legal_moves(state)
    out.write("\n" + state_text(state, viewer=seat) + "\n")
    _show_moves(out, moves)
    cells = isinstance(state.board, TriangleBoard)
    example = "5-3-3@1,-1d" if cells else "5-3@1L"
    while True:
        answer = prompter.ask(f"your move [1-{len(moves)}, notation, help, quit]: ")
        if answer is None or answer.lower() in ("q", "quit", "exit"):
            return None
        if not answer:
            continue
        lowered = answer.lower()
        if lowered in ("h", "help", "?"):
            out.write((_TRIANGLE_PLAY_HELP if cells else _PLAY_HELP) + "\n")
            continue
        if lowered == "board":
            out.write(state_text(state, viewer=seat) + "\n")
            continue
        if lowered == "moves":
            _show_moves(out, moves)
            continue
        number = _number(answer)
        if number is not None:
            if 1 <= number <= len(moves):
                return moves[number - 1]
            out.write(f"no move {_quoted(answer)[1:-1]}: choose 1 to {len(moves)}\n")
            continue
        if len(answer) > 40:
            out.write(
                f"cannot read {_quoted(answer)}: a move is a few characters, like {example}\n"
            )
            continue
        try:
            return parse_move(answer, state)
        except IllegalMoveError as exc:
            out.write(f"illegal move {_quoted(answer)}: {printable(exc.reason)}\n")
        except BendolibError as exc:
            out.write(f"cannot read {_quoted(answer)}: {printable(str(exc))}\n")


def _forced(moves: Sequence[Move]) -> bool:
    """True when the only legal move is a draw or a pass (nothing to decide)."""
    return len(moves) == 1 and isinstance(moves[0], Draw | Pass)


def _forced_text(before: GameState, after: GameState, seat: int, move: Move) -> str:
    """What a forced move did, said to the human: the tiles drawn, or the pass."""
    if isinstance(move, Pass):
        return "you pass (nothing else to do)"
    drawn = [t for t in after.hand(seat) if t not in before.hand(seat)]
    tiles = " ".join(str(t) for t in drawn) or "nothing"
    return f"you draw {tiles} (nothing else to do)"


def _side_text(state: GameState, side: int, names: Sequence[str]) -> str:
    """A scoring side: a seat's name, or ``team 1 (players 1 and 3)``."""
    sides = state.sides
    if len(sides) == state.players and 0 <= side < len(sides):
        return names[sides[side][0]]
    return side_name(state, side)


def _round_summary(state: GameState, names: Sequence[str]) -> str:
    result = state.last_result
    if result is None:
        return ""
    if result.blocked:
        how = "blocked"
    elif result.order:
        how = f"{names[result.order[0]]} went out"
    else:  # a placement reached the match's target (target_check="at_once")
        how = f"{' and '.join(names[w] for w in result.winners)} reached the target"
    gained = [sum(result.points[s] for s in side) for side in state.sides]
    gains = ", ".join(f"{_side_text(state, k, names)} {p:+d}" for k, p in enumerate(gained) if p)
    scores = ", ".join(
        f"{_side_text(state, k, names)} {v}" for k, v in enumerate(state.side_scores)
    )
    return f"round {result.round_number} over ({how}); {gains or 'no points'}; scores: {scores}"


def _players_for(ruleset: RuleSet, args: argparse.Namespace, bot_count: int | None) -> int:
    """``--players``, else the rule set's only player count, else one per bot plus you."""
    if args.players is not None:
        return int(args.players)
    if len(ruleset.player_counts) == 1:
        return ruleset.player_counts[0]
    return (bot_count or 1) + 1


def _play(args: argparse.Namespace) -> int:
    """A human against bots in the terminal."""
    out: TextIO = sys.stdout
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    given = _bot_names(args.bots) if args.bots else None
    if args.position:
        state = _load_position(args.position)
        ruleset, players = state.rules, state.players
    else:
        ruleset = _ruleset(args)
        players = _players_for(ruleset, args, len(given) if given else None)
        state = new_game(ruleset, players, seed)
    bot_names = given or ["greedy"]
    if len(bot_names) == 1 and players > 2:
        bot_names *= players - 1
    if len(bot_names) != players - 1:
        raise ParseError(f"{players} players need {players - 1} bots, not {len(bot_names)}")
    seat = args.seat
    if not 0 <= seat < players:
        raise ParseError(f"--seat must be 0 to {players - 1}")
    start = state
    opponents = iter(bot_names)
    seats: list[tuple[str, Any]] = []
    for s in range(players):
        if s == seat:
            seats.append(("you", None))
        else:
            name = next(opponents)
            seats.append((name, _get_bot(name)))
    names = [f"player {s} ({label})" for s, (label, _) in enumerate(seats)]
    if args.record:
        _check_record(args.record, start, names, args.position)
    rng = random.Random(seed)
    team = [side for side in state.sides if seat in side]
    partners = [names[s] for s in team[0] if s != seat] if team and len(team[0]) > 1 else []
    with_whom = f", with {' and '.join(partners)}" if partners else ""
    out.write(
        f"{printable(ruleset.name)}: {players} players, seed {state.seed}; "
        f"you are player {seat}{with_whom}\n"
    )
    prompter = _Prompter(sys.stdin, out)
    played = 0
    try:
        while not state.is_game_over:
            if played >= args.max_moves:
                out.write(f"game left unfinished after {played:,} moves\n")
                _save_record(args, state, names, start)
                raise _too_long(state, args.max_moves, seed)
            played += 1
            if state.is_round_over:
                out.write("\n" + state_text(state, viewer=seat) + "\n")
                out.write(_round_summary(state, names) + "\n")
                state = apply(state, NEXT_ROUND)
                out.write(f"\nround {state.round_number}\n")
                continue
            player = state.current_player
            bot = seats[player][1]
            if bot is None:
                moves = legal_moves(state)
                if args.auto_forced and _forced(moves):
                    after = apply(state, moves[0])
                    out.write(_forced_text(state, after, seat, moves[0]) + "\n")
                    state = after
                    continue
                move = _choose_human(state, prompter, seat)
                if move is None:
                    out.write("game left unfinished\n")
                    _save_record(args, state, names, start)
                    return 0
                out.write(f"you play {move}\n")
            else:
                try:
                    seen = detached(state.observation(player))  # cannot change the game
                    move = bot.choose(seen, legal_moves(state), rng)
                except Exception as exc:  # a failing bot ends the game with a message
                    raise BendolibError(f"{names[player]} failed: {exc!r}") from exc
                out.write(f"{names[player]} plays {move}\n")
            state = apply(state, move)
    except KeyboardInterrupt:
        _save_record(args, state, names, start)
        raise
    out.write("\n" + state_text(state, viewer=seat) + "\n")
    out.write(_round_summary(state, names) + "\n")
    winner = state.winner
    winners = _side_text(state, -1 if winner is None else winner, names)
    out.write(f"match over: {winners} wins\n")
    _save_record(args, state, names, start)
    return 0


def _too_long(state: GameState, max_moves: int, seed: int) -> BendolibError:
    """The error of ``play`` at ``--max-moves`` (the match may never end)."""
    from bendolib.tournament import MatchTooLongError

    return MatchTooLongError(
        repr(state.rules), max_moves, state.seed, seed, state.round_number, state.scores
    )


def _load_position(text: str) -> GameState:
    """A ``--position`` text as a state; a finished match must name a side as winner."""
    state = position_text.loads(text)
    if state.is_game_over and not 0 <= state.match_winner < len(state.sides):
        raise ParseError(
            f"the match is over but its winner {state.match_winner} is not a side "
            f"(0 to {len(state.sides) - 1})"
        )
    return state


def _check_record(path: str, start: GameState, names: Sequence[str], position: str) -> None:
    """Before a match: the record can be written to ``path`` and saved as a record."""
    try:
        records.dump(start, names, start if position else None)
    except BendolibError as exc:
        raise BendolibError(f"cannot save a record of this game: {exc}") from None
    _check_writable(path)


def _save_record(
    args: argparse.Namespace, state: GameState, names: Sequence[str], start: GameState
) -> None:
    if not args.record:
        return
    begin = start if args.position else None
    _write_file(args.record, records.dump(state, names, begin))
    print(f"record written to {args.record}")


# -- files ------------------------------------------------------------------------------


def _check_writable(path: str) -> None:
    """Raise a one-line error unless a file can be written at ``path`` (nothing is kept)."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise BendolibError(f"cannot write {path!r}: it is a folder")
    if os.path.exists(target) and not os.path.isfile(target):
        return  # a device or a pipe (/dev/null, /dev/stdout): written in place
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise BendolibError(f"cannot write {path!r}: there is no folder {folder!r}")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise BendolibError(f"cannot write {path!r}: permission denied")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise BendolibError(f"cannot write {path!r}: {exc.strerror or exc}") from None


def _write_file(path: str, text: str) -> None:
    """
    Write ``text`` to ``path`` atomically: to a new file beside it, then renamed over
    it, so that a failure leaves any existing file as it was.

    A device or a pipe (``/dev/stdout``) is written in place; a symbolic link is
    followed, and the file it points to replaced.
    """
    _check_writable(path)
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        with open(target, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    try:
        write_atomically(target, lambda stream: stream.write(text.encode("utf-8")))
    except OSError as exc:
        raise BendolibError(f"cannot write {path!r}: {exc.strerror or exc}") from None


# -- simulate ---------------------------------------------------------------------------


class _ProgressBar:
    """
    Progress on a stream: a bar rewritten in place on a terminal; elsewhere (a file,
    a pipe) a plain line every :attr:`every` seconds and at the end.
    """

    def __init__(self, stream: TextIO, unit: str = "matches", width: int = 30) -> None:
        import time

        self.stream = stream
        self.unit = unit
        self.width = width
        self.tty = stream.isatty()
        self.every = 10.0
        self.clock = time.monotonic
        self.start = self.clock()
        self.last = -self.every  # the first call prints a line: the run has started
        self.shown = ""
        self.state = (0, 0)

    def text(self, done: int, total: int) -> str:
        elapsed = self.clock() - self.start
        line = f"{done}/{total} {self.unit}, {elapsed:.0f} s"
        if 0 < done < total:
            line += f", about {elapsed * (total - done) / done:.0f} s left"
        return line

    def __call__(self, done: int, total: int) -> None:
        self.state = (done, total)
        if self.tty:
            filled = self.width * done // total if total else self.width
            bar = "#" * filled + "." * (self.width - filled)
            line = f"[{bar}] {self.text(done, total)}"
            self.stream.write("\r" + line.ljust(len(self.shown)))
            self.shown = line
            self.stream.flush()
        elif self.clock() - self.last >= self.every and done < total:
            self.last = self.clock()
            self.stream.write(self.text(done, total) + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty and self.shown:
            self.stream.write("\n")
        elif not self.tty and self.state[1]:
            self.stream.write(self.text(*self.state) + "\n")
        self.stream.flush()


def _jobs(text: str) -> int:
    """``--jobs``: 0 (one worker per CPU) or a positive number of workers."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"must be 0 (one worker process per CPU) or a positive number, not {text!r}"
        )
    return value


def _max_moves(text: str) -> int:
    """``--max-moves``: a positive number of moves."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive number of moves, not {text!r}")
    return value


def _add_max_moves(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-moves",
        type=_max_moves,
        default=MAX_MOVES,
        metavar="N",
        help="stop with an error when a match is still going after N moves "
        "(default: %(default)s; some configured rules never end a match)",
    )


def _executor(args: argparse.Namespace) -> Any:
    """The executor of ``--jobs`` / ``--dask`` (None: the default process pool)."""
    from bendolib import runner

    if args.dask:
        import importlib

        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise BendolibError(
                "--dask needs the distributed package: pip install 'bendolib[dask]'"
            ) from None
        return distributed.Client(args.dask).get_executor()
    if args.jobs == 1:
        return runner.SerialExecutor()
    if args.jobs > 1:
        return runner.process_pool(args.jobs)
    return None


def _shutdown(executor: Any, status: int) -> None:
    """Shut down the executor of ``_executor``: at once after Ctrl-C (``status`` 130)."""
    from bendolib import runner

    if executor is None:
        return
    if status:
        runner.stop_pool(executor)
    else:
        executor.shutdown()


def _simulate(args: argparse.Namespace) -> int:
    """A tournament between bots: progress on stderr, a table (or JSON) on stdout."""
    import os

    from bendolib import tournament

    ruleset = _ruleset(args)
    names = _bot_names(args.bots)
    if len(names) not in ruleset.player_counts:
        counts = "/".join(map(str, ruleset.player_counts))
        raise ParseError(f"{ruleset.name} is for {counts} players: give that many --bots")
    bots = [_get_bot(name) for name in names]
    if args.games < 1:
        raise ParseError("--games must be at least 1")
    if args.records:
        os.makedirs(args.records, exist_ok=True)
    progress = None if args.quiet else _ProgressBar(sys.stderr)
    executor = _executor(args)
    status = 0
    try:
        result = tournament.run_tournament(
            ruleset,
            bots,
            args.games,
            args.seed,
            executor=executor,
            progress=progress,
            keep_moves=bool(args.records),
            max_moves=args.max_moves,
        )
    except tournament.TournamentInterrupted as stop:
        result = stop.result
        status = 130
    finally:
        if progress is not None:
            progress.close()
        _shutdown(executor, status)
        _close_bots(bots)
    if status:
        print(
            f"bendolib: interrupted: {len(result.records)} of {args.games} matches finished",
            file=sys.stderr,
        )
    if args.records:
        for record in result.records:
            name = os.path.join(args.records, f"match-{record.index:06d}.json")
            with open(name, "w", encoding="utf-8") as handle:
                handle.write(result.record(record.index).to_json())
        print(f"{len(result.records)} records written to {args.records}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.table())
    return status


def _write_records(folder: str, result: Any) -> None:
    """Each match of ``result`` (kept moves) as ``folder/match-N.json``."""
    os.makedirs(folder, exist_ok=True)
    for record in result.records:
        name = os.path.join(folder, f"match-{record.index:06d}.json")
        with open(name, "w", encoding="utf-8") as handle:
            handle.write(result.record(record.index).to_json())
    print(f"{len(result.records)} records written to {folder}", file=sys.stderr)


def _close_bots(bots: Sequence[Any]) -> None:
    """Stop the programs of the process bots (the others have no ``close``)."""
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def _league(args: argparse.Namespace) -> int:
    """A league among any number of bots: progress on stderr, a table (or JSON) on stdout."""
    from bendolib import league
    from bendolib.tournament import bot_name

    ruleset = _ruleset(args)
    specs = _bot_names(args.bots)
    bots = [_get_bot(spec) for spec in specs]
    names = [
        spec if len(spec) <= 32 else bot_name(bot) for spec, bot in zip(specs, bots, strict=True)
    ]
    if args.games < 1:
        raise ParseError("--games must be at least 1")
    try:
        table_list = league.tables(
            len(bots), args.players or min(ruleset.player_counts), args.gauntlet
        )
    except ValueError as exc:
        raise BendolibError(str(exc)) from None
    if args.svg:
        if not league.ratings_available():
            raise BendolibError("--svg draws the ratings: pip install 'bendolib[ratings]'")
        _check_writable(args.svg)
    progress = None if args.quiet else _ProgressBar(sys.stderr)
    executor = _executor(args)
    status = 0
    try:
        result = league.run_league(
            ruleset,
            bots,
            args.games,
            args.seed,
            players=args.players,
            gauntlet=args.gauntlet,
            executor=executor,
            progress=progress,
            results=args.results,
            keep_moves=bool(args.records),
            names=names,
            max_moves=args.max_moves,
        )
    except league.LeagueInterrupted as stop:
        result = stop.result
        status = 130
    except ValueError as exc:
        raise BendolibError(str(exc)) from None
    finally:
        if progress is not None:
            progress.close()
        _shutdown(executor, status)
        _close_bots(bots)
    if status:
        again = "; run the same command again to resume" if args.results else ""
        print(
            f"bendolib: interrupted: {len(result.records)} of {args.games} matches finished{again}",
            file=sys.stderr,
        )
    group = result.players * len(table_list)
    if args.games % group and not args.quiet:
        print(
            f"bendolib: {args.games} matches is not a multiple of {group} (seats x tables): "
            "the tables do not all play the same deals",
            file=sys.stderr,
        )
    if args.svg:
        _write_file(args.svg, result.ratings_svg())
    if args.records:
        _write_records(args.records, result)
    print(result.to_json() if args.json else result.table())
    if args.pairs and not args.json:
        print("\nwins against each other (row against column):")
        print(result.pairs_table())
    return status


def _selfplay(args: argparse.Namespace) -> int:
    """Self-play data: every decision of many matches, written to shard files."""
    from bendolib import selfplay

    ruleset = _ruleset(args)
    names = _bot_names(args.bots)
    if len(names) == 1:
        names *= min(ruleset.player_counts)
    if len(names) not in ruleset.player_counts:
        counts = "/".join(map(str, ruleset.player_counts))
        raise ParseError(f"{ruleset.name} is for {counts} players: give that many --bots")
    if args.games < 1:
        raise ParseError("--games must be at least 1")
    bots = [_get_bot(name) for name in names]
    progress = None if args.quiet else _ProgressBar(sys.stderr, "games")
    executor = _executor(args)
    status = 0
    try:
        summary = selfplay.selfplay(
            ruleset,
            bots,
            args.games,
            args.out,
            args.seed,
            shard_games=args.shard_games,
            file_format=args.format,
            executor=executor,
            progress=progress,
            batch=args.batch,
            max_moves=args.max_moves,
        )
    except selfplay.SelfplayInterrupted as stop:
        summary = stop.summary
        status = 130
    finally:
        if progress is not None:
            progress.close()
        _shutdown(executor, status)
    done = summary.games_before + summary.games
    kept = f" ({summary.games_before} were there already)" if summary.games_before else ""
    print(
        f"{done} of {args.games} games in {summary.directory}{kept}; this run wrote "
        f"{summary.games} games, {summary.decisions} decisions ({summary.format})"
    )
    if status:
        print("bendolib: interrupted: run the same command again to resume", file=sys.stderr)
    return status


# -- records ----------------------------------------------------------------------------

#: The largest record or position file the command reads (bytes): far more than any
#: real match needs, and a bound on what a wrong file (``/dev/zero``) costs.
MAX_INPUT_BYTES = 16 * 1024 * 1024


def _read_input(path: str) -> str:
    """The text of a file (``-``: standard input), at most :data:`MAX_INPUT_BYTES`, UTF-8."""
    name = "standard input" if path == "-" else repr(path)
    if path == "-":
        stream = sys.stdin
        if stream is None:
            raise BendolibError("cannot read standard input: it is closed")
        buffer = getattr(stream, "buffer", None)
        if buffer is None:  # a text stream without bytes underneath (tests, IDEs)
            text = stream.read(MAX_INPUT_BYTES + 1)
            data = text.encode("utf-8", "surrogateescape")
        else:
            data = buffer.read(MAX_INPUT_BYTES + 1)
    else:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise BendolibError(f"{name} is longer than {MAX_INPUT_BYTES // 2**20} MiB: not a record")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BendolibError(
            f"{name} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})"
        ) from None


def _render(args: argparse.Namespace) -> int:
    """Draw the board of a record (or of a position text) as SVG or text."""
    if args.html:
        if not args.record or args.position:
            raise ParseError("--html draws a RECORD file (not --position)")
        record = records.load(_read_input(args.record))
        page = to_html(record, hands=args.hands, numbers=args.numbers)
        if args.html == "-":
            sys.stdout.write(page)
        else:
            _write_file(args.html, page)
            print(f"wrote {args.html}: {len(record.rounds)} rounds, {record.move_count} moves")
        return 0
    if args.position:
        state = _load_position(args.position)
    elif args.record:
        record = records.load(_read_input(args.record))
        state = _pick_state(record, args.round, args.move)
    else:
        raise ParseError("give a RECORD file or --position TEXT")
    if args.svg == "-":
        sys.stdout.write(to_svg(state, numbers=args.numbers))
    elif args.svg:
        _write_file(args.svg, to_svg(state, numbers=args.numbers))
        print(f"wrote {args.svg}: {len(state.board.placements)} tiles, round {state.round_number}")
    else:
        print(state_text(state))
    return 0


def _frames(record: Any) -> list[tuple[int, int, GameState]]:
    """(round, move number, state) before the first move and after every move."""
    first = records.initial_state(record)
    frames = [(first.round_number, 0, first)]
    frames += [(s.round_number, s.move_number, s.state) for s in records.steps(record)]
    return frames


def _pick_state(record: Any, round_number: int | None, move: int | None) -> GameState:
    """
    The state after move ``move`` of round ``round_number`` (default: the last);
    move 0 is the round as dealt, before its first move.
    """
    frames = _frames(record)
    wanted = frames[-1][0] if round_number is None else round_number
    in_round = [f for f in frames if f[0] == wanted]
    if not in_round:
        rounds = sorted({f[0] for f in frames})
        raise ParseError(
            f"the record has no round {wanted} (its rounds are {rounds[0]} to {rounds[-1]})"
        )
    if move is None:
        return in_round[-1][2]
    for _, number, state in in_round:
        if number == move:
            return state
    first, last = in_round[0][1], in_round[-1][1]
    raise ParseError(
        f"round {wanted} has no move {move} (choose {first} to {last}; 0 is the deal)"
        if first == 0
        else f"round {wanted} has no move {move} (choose {first} to {last})"
    )


_REPLAY_HELP = "[Enter] next move, b back, a number: go to that step, e end, q quit"


def _replay(args: argparse.Namespace) -> int:
    """Step through a record, showing each move and the board."""
    record = records.load(_read_input(args.record))
    names = [printable(n) for n in record.names] or [f"player {s}" for s in range(record.players)]
    first = records.initial_state(record)
    title = f"{printable(record.rules.name)}, {record.players} players, seed {record.seed}"
    frames = [(title, first)]
    for k, step in enumerate(records.steps(record), 1):
        if step.move_number == 0:
            label = f"step {k}: round {step.round_number} is dealt"
        else:
            label = (
                f"step {k}: round {step.round_number} move {step.move_number}: "
                f"{names[step.player]} plays {printable(step.text)}"
            )
        frames.append((label, step.state))
    stdin = sys.stdin
    interactive = args.step or (not args.all and stdin is not None and stdin.isatty())
    if not interactive:
        for label, state in frames:
            print(label)
            if args.boards:
                print(state_text(state) + "\n")
        _print_end(frames[-1][1], names)
        return 0
    prompter = _Prompter(stdin, sys.stdout)
    index = 0
    while True:
        label, state = frames[index]
        print(label)
        print(state_text(state))
        answer = prompter.ask(f"[{index}/{len(frames) - 1}] {_REPLAY_HELP}: ")
        if answer is None or answer.lower() in ("q", "quit"):
            return 0
        number = _number(answer)
        if answer == "":
            if index == len(frames) - 1:
                _print_end(state, names)
                return 0
            index += 1
        elif answer.lower() == "b":
            index = max(0, index - 1)
        elif answer.lower() == "e":
            index = len(frames) - 1
        elif number is not None and number < len(frames):
            index = number
        else:
            print(f"cannot read {_quoted(answer)}: {_REPLAY_HELP}")


def _print_end(state: GameState, names: Sequence[str]) -> None:
    scores = ", ".join(
        f"{_side_text(state, k, names)} {v}" for k, v in enumerate(state.side_scores)
    )
    if state.is_game_over:
        winner = state.winner
        print(
            f"final scores: {scores}; winner: "
            f"{_side_text(state, -1 if winner is None else winner, names)}"
        )
    else:
        print(f"scores: {scores}; the match is not over")


# -- the parser -------------------------------------------------------------------------


class _UsageError(Exception):
    """A command line argparse cannot read (reported in one line, status 2)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser that reports a bad command line in one ``bendolib:`` line."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="basic", help="rule set (see 'bendolib rules')")
    parser.add_argument(
        "--param",
        action="append",
        metavar="KEY=VALUE",
        help="change a rule parameter, e.g. --param target=50 (repeatable)",
    )


def _add_run_options(parser: argparse.ArgumentParser, unit: str) -> None:
    """The options of ``simulate`` and ``selfplay`` that say how the run goes."""
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help=f"seed of the run (default: %(default)s): the same seed plays the same {unit}; "
        "each one's deal and bot seeds derive from it and its number",
    )
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=0,
        help="worker processes (default 0: one per CPU; 1: none, all in this process)",
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run on a Dask cluster, e.g. tcp://scheduler:8786 (needs bendolib[dask])",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``bendolib`` command."""
    from bendolib import __version__

    parser = _Parser(
        prog="bendolib", description="Bendominoes and classic dominoes: play, simulate, replay."
    )
    parser.add_argument("--version", action="version", version=f"bendolib {__version__}")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a demo match with random moves and print it")
    demo.add_argument("--rules", default="basic")
    demo.add_argument(
        "--players", type=int, default=None, help="default: the fewest the rule set allows"
    )
    demo.add_argument("--seed", type=int, default=1)
    demo.set_defaults(func=_demo)

    listing = sub.add_parser("rules", help="list the rule sets and their parameters")
    listing.add_argument("name", nargs="?", help="show only this rule set")
    listing.set_defaults(func=_rules)

    play = sub.add_parser("play", help="play against bots in the terminal")
    _add_rules_options(play)
    play.add_argument("--bots", nargs="+", metavar="BOT", help="opponents (default: greedy)")
    play.add_argument(
        "--players",
        type=int,
        help="number of players (default: the rule set's only count, else bots + 1)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=int, help="deal seed (default: random, printed)")
    play.add_argument("--position", help="start from this position text")
    play.add_argument("--record", metavar="FILE", help="write the game record to FILE")
    play.add_argument(
        "--ask-forced",
        dest="auto_forced",
        action="store_false",
        help="ask even when a draw or a pass is your only move (default: played for you)",
    )
    _add_max_moves(play)
    play.set_defaults(func=_play)

    simulate = sub.add_parser(
        "simulate",
        help="a tournament between bots",
        description="A tournament between bots, seats rotated; Ctrl-C stops it and "
        "prints the matches that finished.",
    )
    _add_rules_options(simulate)
    simulate.add_argument(
        "--games", type=int, default=100, help="number of matches (default: %(default)s)"
    )
    simulate.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help="one bot per seat: a name, module:Class or file.py:Class, each with optional "
        "arguments, e.g. 'search(worlds=16)' (see docs/cli.md)",
    )
    _add_run_options(simulate, "matches")
    simulate.add_argument("--json", action="store_true", help="print the results as JSON")
    simulate.add_argument(
        "--records", metavar="DIR", help="write each match's game record to DIR/match-N.json"
    )
    _add_max_moves(simulate)
    simulate.set_defaults(func=_simulate)

    league = sub.add_parser(
        "league",
        help="a league among any number of bots, with ratings",
        description="A round robin (or a gauntlet) among any number of bots at tables of "
        "the rule set's seats, each deal played in every rotation of the seats; ratings "
        "with their uncertainty when openskill is installed (bendolib[ratings]). Ctrl-C "
        "stops it and prints the matches that finished; with --results, the same command "
        "resumes it.",
    )
    _add_rules_options(league)
    league.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help="the entrants: names, module:Class or file.py:Class, each with optional "
        "arguments, e.g. 'search(worlds=16)'",
    )
    league.add_argument(
        "--games", type=int, default=120, help="number of matches (default: %(default)s)"
    )
    league.add_argument(
        "--players", type=int, help="seats per table (default: the rule set's fewest)"
    )
    league.add_argument(
        "--gauntlet",
        type=int,
        default=0,
        metavar="K",
        help="the first K bots each play the others, not each other (default 0: round robin)",
    )
    league.add_argument(
        "--results", metavar="FILE", help="keep the finished matches in FILE (JSON) to resume"
    )
    league.add_argument("--svg", metavar="FILE", help="write the ratings chart to FILE (SVG)")
    league.add_argument(
        "--pairs", action="store_true", help="also print each pair's wins against each other"
    )
    league.add_argument(
        "--records", metavar="DIR", help="write each match's game record to DIR/match-N.json"
    )
    _add_run_options(league, "matches")
    league.add_argument("--json", action="store_true", help="print the results as JSON")
    _add_max_moves(league)
    league.set_defaults(func=_league)

    play_self = sub.add_parser(
        "selfplay",
        help="self-play data: every decision of many matches, to Parquet or .npz files",
        description="Plays matches between bots and writes every decision (observation "
        "encoding, legal-action mask, action, final outcome) to shard files in OUT. "
        "Run the same command again to resume a stopped run.",
    )
    _add_rules_options(play_self)
    play_self.add_argument(
        "--games", type=int, default=1000, help="number of matches (default: %(default)s)"
    )
    play_self.add_argument(
        "--bots",
        nargs="+",
        default=["greedy"],
        metavar="BOT",
        help="one bot per seat, or one for every seat (default: greedy)",
    )
    play_self.add_argument("--out", required=True, metavar="DIR", help="directory of the data")
    play_self.add_argument(
        "--format",
        choices=["parquet", "npz"],
        help="file format (default: parquet when pyarrow is installed, else npz)",
    )
    play_self.add_argument(
        "--shard-games",
        type=int,
        default=100,
        metavar="N",
        help="games per file (default: %(default)s)",
    )
    play_self.add_argument(
        "--batch",
        action="store_true",
        help="play the matches in the compiled kernel's batched games, whole files "
        "together (bots random and greedy only; chain rule sets; other deals than without it)",
    )
    _add_run_options(play_self, "games")
    _add_max_moves(play_self)
    play_self.set_defaults(func=_selfplay)

    render = sub.add_parser("render", help="draw the board of a record as SVG (or text)")
    render.add_argument("record", nargs="?", help="record file ('-' for standard input)")
    render.add_argument(
        "--svg", metavar="FILE", help="write an SVG picture to FILE ('-': standard output)"
    )
    render.add_argument("--position", help="draw this position text instead of a record")
    render.add_argument("--round", type=int, help="the round to draw (default: the last)")
    render.add_argument(
        "--move",
        type=int,
        help="draw the board after this move of the round (0: as dealt; default: the last)",
    )
    render.add_argument("--numbers", action="store_true", help="numbers instead of pips")
    render.add_argument(
        "--html",
        metavar="FILE",
        help="write a page that steps through the whole match to FILE ('-': standard output)",
    )
    render.add_argument(
        "--hands",
        choices=HANDS,
        default="shown",
        help="with --html: show every hand's tiles, or only their sizes (default: %(default)s)",
    )
    render.set_defaults(func=_render)

    replay = sub.add_parser("replay", help="step through a record")
    replay.add_argument("record", help="record file ('-' for standard input)")
    replay.add_argument("--step", action="store_true", help="prompt after every move")
    replay.add_argument("--all", action="store_true", help="print every move, no prompts")
    replay.add_argument("--boards", action="store_true", help="with --all: print every board")
    replay.set_defaults(func=_replay)
    return parser


def _fail(message: str) -> int:
    """Report an error in one line on standard error; the exit status 2."""
    line = "bendolib: " + printable(message)
    if len(line) > 1000:
        line = line[:1000] + "..."
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    return 2


def _tolerant_streams() -> None:
    """
    Standard streams that never fail on an odd character: input that is not UTF-8
    is read with replacement characters, output the terminal cannot show is escaped,
    and a closed standard output (``1>&-``) swallows what is written.
    """
    for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors=errors)
    reconfigure = getattr(sys.stderr, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(Exception):
            reconfigure(errors="backslashreplace")
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    _tolerant_streams()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["demo", *(argv or [])])
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except (BendolibError, _UsageError) as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        if sys.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write("\n")
        return 130
    except Exception as exc:  # the last resort: a bug, still reported in one line
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report it")
