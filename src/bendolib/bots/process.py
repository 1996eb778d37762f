"""
Bots in another process, in any language: line-delimited JSON over stdin and stdout.

:class:`ProcessBot` runs a command and plays its answers (docs/protocol.md describes the
protocol).  Every read has a deadline, so a bot that hangs, answers late, answers an
illegal move or dies forfeits the match (:class:`~bendolib.bots.bot.ForfeitError`) and is
started again for the next one; a command that cannot start, or does not answer the
greeting, raises :class:`ProtocolError`.  The process is killed when the bot is
garbage collected or the interpreter exits.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing.util
import os
import queue
import random
import shlex
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any

from bendolib.bots.bot import ForfeitError
from bendolib.errors import BendolibError
from bendolib.moves import Move
from bendolib.observation import Observation
from bendolib.rules.ruleset import RuleSet

#: The protocol's version, sent in the greeting.
PROTOCOL = 1
#: The longest line read from a bot (bytes); a longer one is a protocol error.
MAX_LINE = 1 << 20
#: Seconds a bot is given to exit after ``quit`` before it is killed.
QUIT_SECONDS = 1.0


class ProtocolError(BendolibError):
    """A bot process that cannot start or does not answer the greeting as the protocol says."""


def _stop(process: subprocess.Popen[bytes], polite: bool = True) -> None:
    """
    Ask ``process`` to quit, then kill it if it has not exited within a second
    (``polite=False``: kill it at once).
    """
    if process.poll() is None and not polite:
        process.kill()
        process.wait()
    if process.poll() is None:
        try:
            if process.stdin is not None:
                process.stdin.write(b'{"type": "quit"}\n')
                process.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            process.wait(QUIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdin is not None:  # stdout is closed by its reader thread, at its end
        with contextlib.suppress(OSError):
            process.stdin.close()


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Put each line of ``stream`` on ``lines``, then None at its end."""
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            lines.put(line)
    except (OSError, ValueError):
        pass
    finally:
        # Closed here, by its only reader: closed elsewhere, its descriptor could be
        # reused by another pipe while this thread still reads it.
        with contextlib.suppress(OSError):
            stream.close()
    lines.put(None)


def _json_value(value: Any) -> Any:
    """A rule parameter as JSON: itself when JSON can hold it, else its text."""
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return str(value)
    return value


def _default_name(argv: Sequence[str]) -> str:
    """The program's name: its first file argument (a script), else the command's name."""
    files = [a for a in argv[1:] if not a.startswith("-") and ("." in a or os.sep in a)]
    return os.path.splitext(os.path.basename(files[0] if files else argv[0]))[0] or "process"


class _Child:
    """One running bot process, its reader thread and the queue of its lines."""

    def __init__(self, command: Sequence[str], cwd: str | None) -> None:
        try:
            self.process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,  # Ctrl-C is the host's to handle, not the bot's
            )
        except OSError as exc:
            raise ProtocolError(
                f"cannot start the bot {shlex.join(command)!r}: {exc.strerror or exc}"
            ) from None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        assert self.process.stdout is not None
        self.reader = threading.Thread(
            target=_read_lines, args=(self.process.stdout, self.lines), daemon=True
        )
        self.reader.start()
        self.finalizer = weakref.finalize(self, _stop, self.process)
        # Worker processes of a pool exit without running atexit: stop the bot there too.
        multiprocessing.util.Finalize(self, _stop, args=(self.process,), exitpriority=10)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message (a line of JSON); OSError when the process has gone."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def receive(self, deadline: float, expected: str) -> dict[str, Any]:
        """
        The next message of type ``expected`` (``info`` lines are skipped) read by
        ``deadline`` (a ``time.monotonic()`` value); ValueError saying what went wrong.
        """
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                raise ValueError("did not answer in time") from None
            if line is None:
                try:  # its output ends as it exits: the exit status follows shortly
                    code: int | None = self.process.wait(min(0.5, max(0.0, left)))
                except subprocess.TimeoutExpired:
                    code = None
                raise ValueError(
                    "closed its output" + (f" (exit status {code})" if code is not None else "")
                )
            if len(line) > MAX_LINE:
                raise ValueError(f"answered a line longer than {MAX_LINE} bytes")
            try:
                message = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError):
                raise ValueError(f"answered a line that is not JSON: {line[:80]!r}") from None
            if not isinstance(message, dict):
                raise ValueError(f"answered JSON that is not an object: {line[:80]!r}")
            kind = message.get("type")
            if kind == "info":
                continue
            if kind == "error":
                raise ValueError(f"reported an error: {str(message.get('message'))[:200]}")
            if kind != expected:
                raise ValueError(f"answered {str(kind)[:40]!r} where {expected!r} was due")
            return message

    def close(self, polite: bool = True) -> None:
        """Stop the process (quit, then kill; ``polite=False``: kill at once)."""
        if not polite:
            _stop(self.process, polite=False)
        self.finalizer()


def observation_message(observation: Observation, legal_moves: Sequence[Move]) -> dict[str, Any]:
    """What a ``decide`` message says about the position (docs/protocol.md)."""
    return {
        "seat": observation.player,
        "round": observation.round_number,
        "scores": list(observation.scores),
        "side_scores": list(observation.side_scores),
        "hand": [str(tile) for tile in observation.hand],
        "hand_sizes": list(observation.hand_sizes),
        "stock": observation.stock_size,
        "open_ends": [
            {"end": i, "value": end.value} for i, end in enumerate(observation.open_ends)
        ],
        "history": [[turn.player, str(turn.move)] for turn in observation.history],
        "legal": [str(move) for move in legal_moves],
    }


class _Slot:
    """A process bot's running program in one thread, and what it is due to say next."""

    def __init__(self) -> None:
        self.child: _Child | None = None
        self.match: dict[str, Any] | None = None
        self.ids = 0


#: The running programs of the process bots, by bot token and thread: one per thread
#: (threads of an executor never share one), kept across the copies a worker unpickles
#: (a worker receives the bots again with every chunk of matches).
_SLOTS: dict[tuple[str, int], _Slot] = {}
_SLOTS_LOCK = threading.Lock()


class ProcessBot:
    """
    A bot that is a separate program: ``command`` (a list of arguments, or a string
    split as a shell would) is started on the first decision and asked for every move
    by the line-delimited JSON protocol of docs/protocol.md.

    ``move_time`` seconds are allowed per decision (sent as ``time_ms``) and
    ``start_time`` for the greeting at start.  A late or illegal answer, a line that is
    not the protocol, an ``error`` message or a process that stops forfeits the match
    (:class:`~bendolib.bots.bot.ForfeitError`); the process is then killed and started
    again for the next match.  ``cwd`` is the directory it runs in.  Picklable: each
    worker process (each thread) starts its own copy of the command, once, and keeps
    it for the following matches; :meth:`close` stops them.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        move_time: float = 2.0,
        start_time: float = 10.0,
        name: str | None = None,
        cwd: str | None = None,
    ) -> None:
        if isinstance(command, str):
            argv = shlex.split(command)
        elif isinstance(command, Sequence) and all(isinstance(a, str) for a in command):
            argv = list(command)
        else:
            raise TypeError("command is a str or a sequence of str")
        if not argv:
            raise ValueError("the command of a process bot is empty")
        if not (0 < move_time <= 3600 and 0 < start_time <= 3600):
            raise ValueError(
                f"move_time and start_time are seconds in (0, 3600]: {move_time}, {start_time}"
            )
        self.command = tuple(argv)
        self.move_time = float(move_time)
        self.start_time = float(start_time)
        self.cwd = cwd
        self.name = name or _default_name(argv)
        self.engine_name = ""
        # Names this bot's programs; its pickled copies keep it (one program per thread).
        self._token = os.urandom(12).hex()

    def __getstate__(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "move_time": self.move_time,
            "start_time": self.start_time,
            "name": self.name,
            "cwd": self.cwd,
            "_token": self._token,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        given = dict(state)
        token = str(given.pop("_token"))
        self.__init__(**given)  # type: ignore[misc]
        self._token = token

    def __repr__(self) -> str:
        return f"ProcessBot({shlex.join(self.command)!r}, move_time={self.move_time})"

    def _slot(self) -> _Slot:
        key = (self._token, threading.get_ident())
        with _SLOTS_LOCK:
            slot = _SLOTS.get(key)
            if slot is None:
                slot = _SLOTS[key] = _Slot()
        return slot

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The program running for this thread (None when none is)."""
        child = self._slot().child
        return None if child is None else child.process

    def _start(self) -> _Child:
        child = _Child(self.command, self.cwd)
        where = shlex.join(self.command)
        try:
            child.send({"type": "hello", "protocol": PROTOCOL})
            ready = child.receive(time.monotonic() + self.start_time, "ready")
        except (OSError, ValueError) as exc:
            child.close(polite=False)
            raise ProtocolError(f"the bot {where!r} did not start: it {exc}") from None
        if ready.get("protocol", PROTOCOL) != PROTOCOL:
            child.close()
            raise ProtocolError(
                f"the bot {where!r} speaks protocol {ready.get('protocol')!r}, not {PROTOCOL}"
            )
        self.engine_name = str(ready.get("name", ""))[:80]
        return child

    def close(self) -> None:
        """Stop the programs of this bot in every thread (they start again when needed)."""
        with _SLOTS_LOCK:
            slots = [slot for key, slot in _SLOTS.items() if key[0] == self._token]
        for slot in slots:
            if slot.child is not None:
                slot.child.close()
                slot.child = None

    def start_match(self, rules: RuleSet, players: int, seat: int) -> None:
        """Note a new match: the ``match`` message goes before the next decision."""
        self._slot().match = {
            "type": "match",
            "rules": rules.name,
            "parameters": {k: _json_value(v) for k, v in rules.parameters().items()},
            "players": players,
            "seat": seat,
        }

    def _forfeit(self, slot: _Slot, problem: str) -> ForfeitError:
        if slot.child is not None:  # in an unknown state: killed, not asked to quit
            slot.child.close(polite=False)
            slot.child = None
        return ForfeitError(f"process bot {self.name!r} {problem}")

    def choose(
        self, observation: Observation, legal_moves: Sequence[Move], rng: random.Random
    ) -> Move:
        """The move the process answers; :class:`ForfeitError` if late, illegal or gone."""
        slot = self._slot()
        if slot.child is not None and slot.child.process.poll() is not None:
            code = slot.child.process.returncode
            raise self._forfeit(slot, f"stopped (exit status {code})")
        if slot.child is None:
            slot.child = self._start()
            if slot.match is None:
                self.start_match(observation.rules, observation.players, observation.player)
        child = slot.child
        slot.ids += 1
        message = {
            "type": "decide",
            "id": slot.ids,
            **observation_message(observation, legal_moves),
            "time_ms": round(self.move_time * 1000),
            "seed": rng.getrandbits(63),
        }
        try:
            if slot.match is not None:
                child.send(slot.match)
                slot.match = None
            sent = time.monotonic()
            child.send(message)
            answer = child.receive(sent + self.move_time, "move")
        except OSError:
            raise self._forfeit(slot, "stopped (its input is closed)") from None
        except ValueError as exc:
            raise self._forfeit(slot, str(exc)) from None
        if answer.get("id") != slot.ids:
            raise self._forfeit(slot, f"answered id {str(answer.get('id'))[:20]}, not {slot.ids}")
        text = answer.get("move")
        for move in legal_moves:
            if str(move) == text:
                return move
        raise self._forfeit(slot, f"answered the illegal move {str(text)[:80]!r}")


__all__ = ["MAX_LINE", "PROTOCOL", "ProcessBot", "ProtocolError", "observation_message"]
