"""The triangle games' encoding and adapters in numbers.

    python bench/triangle_encoding.py [--rounds 200] [--mcts 0] [--simulations 20]

1. Over ``--rounds`` random rounds of Triangle Dominoes and Triominoes (2 and 4
   players, deals 0, 1, 2...): the sites per decision (free cells beside the layout:
   the site slots an action can name; the encoding has ``max_sites`` of them), the
   legal moves per decision, the highest site slot any legal move named, and the CPU
   microseconds per decision of the observation's deductions (which ``encode`` reads),
   of ``encode`` once they are made, and of ``action_mask``, beside ``legal_moves``
   (medians), with Basic Bendominoes as the yardstick.
2. With ``--mcts N``: N rounds of Triangle Dominoes (2 players) through the OpenSpiel
   adapter, OpenSpiel's ``mcts.MCTSBot`` (``--simulations``, one random rollout per leaf,
   ``uct_c=10``; a perfect-information search: it sees every hand) against uniform
   random, seats alternating; the searcher's mean return and CPU seconds per decision.
   Needs ``bendolib[openspiel]``.

Plain script: it prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bendolib import RuleSet, apply, legal_moves, new_game, rules
from bendolib.encoding import (
    action_count,
    action_mask,
    encode,
    encoding_size,
    max_sites,
    on_cells,
    site_order,
)
from bendolib.rules.triangles import TRIANGLE_DOMINOES, TRIOMINOES


def _median_us(values: list[float]) -> float:
    return statistics.median(values) * 1e6


def encoding_figures(ruleset: RuleSet, players: int, rounds: int) -> None:
    sites: list[int] = []
    legal_counts: list[int] = []
    top_slot = -1
    t_encode: list[float] = []
    t_deduce: list[float] = []
    t_mask: list[float] = []
    t_legal: list[float] = []
    clock = time.process_time
    for deal in range(rounds):
        state = new_game(ruleset, players, deal)
        rng = random.Random(deal)
        while not state.is_round_over:
            start = clock()
            legal = legal_moves(state)
            t_legal.append(clock() - start)
            board = state.board
            observation = state.observation(state.current_player)
            start = clock()
            observation.deductions  # noqa: B018 - timed (and kept for encode)
            t_deduce.append(clock() - start)
            start = clock()
            encode(observation)
            t_encode.append(clock() - start)
            start = clock()
            mask = action_mask(legal, ruleset, board)
            t_mask.append(clock() - start)
            if on_cells(ruleset):
                sites.append(len(site_order(board)))
                n = len(ruleset.tileset)
                used = [k for k, bit in enumerate(mask) if bit and n <= k < len(mask) - 3]
                if used:
                    top_slot = max(top_slot, max((k - n) // 3 % max_sites(ruleset) for k in used))
            legal_counts.append(len(legal))
            state = apply(state, legal[rng.randrange(len(legal))])
    print(
        f"{ruleset.name}, {players} players, {rounds} rounds, {len(legal_counts)} decisions: "
        f"actions {action_count(ruleset)}, encoding {encoding_size(ruleset, players)} ints"
    )
    if sites:
        sites.sort()
        print(
            f"  sites per decision: median {statistics.median(sites)}, "
            f"99th percentile {sites[int(0.99 * (len(sites) - 1))]}, max {sites[-1]} "
            f"(slots: {max_sites(ruleset)}); highest slot named by a legal move: {top_slot}"
        )
    print(
        f"  legal moves per decision: mean {statistics.fmean(legal_counts):.1f}, "
        f"max {max(legal_counts)}"
    )
    print(
        f"  CPU us per decision (median): legal_moves {_median_us(t_legal):.0f}, "
        f"deductions {_median_us(t_deduce):.0f}, encode then {_median_us(t_encode):.0f}, "
        f"action_mask {_median_us(t_mask):.0f}"
    )


def mcts_figures(rounds: int, simulations: int) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from bendolib.adapters import openspiel as adapter

    game = pyspiel.load_game(adapter.register(TRIANGLE_DOMINOES), {"players": 2})
    returns: list[float] = []
    wins = 0
    decisions: list[float] = []
    for index in range(rounds):
        seat = index % 2
        random_state = np.random.RandomState(index)
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        bot = mcts.MCTSBot(game, 10.0, simulations, evaluator, random_state=random_state)
        rng = random.Random(index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            elif state.current_player() == seat and len(state.legal_actions()) > 1:
                start = time.process_time()
                state.apply_action(bot.step(state))
                decisions.append(time.process_time() - start)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        got = state.returns()[seat]
        returns.append(got)
        wins += got > 0
    print(
        f"MCTS ({simulations} simulations) vs random, triangle-dominoes, {rounds} rounds: "
        f"won {wins}/{rounds}, mean return {statistics.fmean(returns):+.1f} points; "
        f"CPU s per decision median {statistics.median(decisions):.2f} "
        f"(min {min(decisions):.2f}, max {max(decisions):.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--mcts", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=20)
    args = parser.parse_args()
    for ruleset in (TRIANGLE_DOMINOES, TRIOMINOES):
        for players in (2, 4):
            encoding_figures(ruleset, players, args.rounds)
    encoding_figures(rules.get("basic"), 2, args.rounds)
    if args.mcts:
        mcts_figures(args.mcts, args.simulations)


if __name__ == "__main__":
    main()
