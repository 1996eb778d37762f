"""The ``bendolib`` command line."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from bendolib import rules as rules_registry
from bendolib.engine import apply, legal_moves, new_game
from bendolib.errors import BendolibError
from bendolib.text import board_text


def _demo(args: argparse.Namespace) -> int:
    """Play one match with random legal moves and print it."""
    ruleset = rules_registry.get(args.rules)
    state = new_game(ruleset, players=args.players, seed=args.seed)
    rng = random.Random(args.seed)
    print(f"{ruleset.name}: {args.players} players, seed {args.seed}")
    while not state.is_game_over:
        moves = legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        if state.is_round_over:
            print(board_text(state))
            print()
        else:
            print(f"round {state.round_number}  player {state.current_player}: {move}")
        state = apply(state, move)
    print(board_text(state))
    print(f"scores: {list(state.scores)}; winner: player {state.winner}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    """List the rule sets and their parameters."""
    for name in rules_registry.names():
        ruleset = rules_registry.get(name)
        counts = "/".join(map(str, ruleset.player_counts))
        print(f"{name:24} {counts:8} {ruleset.description}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``bendolib`` command."""
    parser = argparse.ArgumentParser(prog="bendolib", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a demo match with random moves and print it")
    demo.add_argument("--rules", default="basic")
    demo.add_argument("--players", type=int, default=2)
    demo.add_argument("--seed", type=int, default=1)
    demo.set_defaults(func=_demo)
    listing = sub.add_parser("rules", help="list the rule sets")
    listing.set_defaults(func=_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    try:
        status: int = args.func(args)
    except BendolibError as exc:
        print(f"bendolib: {exc}", file=sys.stderr)
        return 2
    return status
