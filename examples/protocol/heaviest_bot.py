#!/usr/bin/env python3
"""
A bendolib bot in a separate process: the reference client of docs/protocol.md.

Plain Python, standard library only: it reads one JSON message per line on standard
input and answers on standard output.  It plays the heaviest tile it can place (the
tile's points are its two numbers, read from the move text ``a-b...``), else draws,
else the first legal move.  Run it against the built-in bots with

    bendolib simulate --bots greedy 'process(command="python3 examples/protocol/heaviest_bot.py")'

Options (for testing hosts): ``--sleep SECONDS`` waits before every answer, ``--late P``
answers late (past ``time_ms``) on a fraction P of its decisions, ``--illegal`` answers a
move that is not legal, ``--crash`` exits at the first decision.
"""

import json
import os
import random
import re
import sys
import time
from typing import Any

TILE = re.compile(r"^(\d+)-(\d+)")


def points(move: str) -> int:
    """The points of the tile a move places (-1 for draw, pass, next)."""
    found = TILE.match(move)
    return int(found.group(1)) + int(found.group(2)) if found else -1


def choose(message: dict[str, Any]) -> str:
    """The move to play: the heaviest placement, else draw, else the first legal move."""
    legal: list[str] = message["legal"]
    best = max(legal, key=points)
    if points(best) >= 0:
        return best
    return "draw" if "draw" in legal else legal[0]


def main(argv: list[str]) -> int:
    sleep = float(argv[argv.index("--sleep") + 1]) if "--sleep" in argv else 0.0
    late = float(argv[argv.index("--late") + 1]) if "--late" in argv else 0.0
    for line in sys.stdin:  # ends at end of input: the host has gone
        message: dict[str, Any] = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer: dict[str, Any] = {"type": "ready", "name": "heaviest", "protocol": 1}
        elif kind == "match":
            continue  # rules, players and seat: this bot needs none of them
        elif kind == "decide":
            if "--crash" in argv:
                return 3
            if sleep:
                time.sleep(sleep)
            if late and random.Random(message["seed"]).random() < late:
                time.sleep(message["time_ms"] / 1000 + 0.2)
            move = "9-9@9L" if "--illegal" in argv else choose(message)
            answer = {"type": "move", "id": message["id"], "move": move}
        elif kind == "quit":
            return 0
        else:
            answer = {"type": "error", "message": f"unknown message type {kind!r}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # the host has gone while we answered: leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
