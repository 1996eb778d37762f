"""
A policy trained on batched games, with NumPy alone, that learns to beat the greedy bot.

    python examples/train_vector_policy.py        # the short form CI runs (seconds)
    python examples/train_vector_policy.py --generations 20 --candidates 16 --rounds 1000 \
        --check 4000 --final 20000 --svg docs/images/vector-learning.svg

The agent plays seat 0 of Basic Bendominoes (2 players) against the kernel's greedy
policy in batched games (:class:`bendolib.vector.VectorGames`, 256 at a time).  Its
policy plays the legal action of highest score, a weighted sum of six features of the
action: it is greedy's choice (:meth:`VectorGames.core_actions`), the tile's points, a
double, and, for the number the placement leaves showing, how many tiles with it the
opponent may hold (the observation's ``possible`` field), whether it may hold none,
and how many the agent keeps.  The weights start at zero (the first legal action)
and are learned by the cross-entropy method: each generation draws ``--candidates``
weight vectors around the mean, plays ``--rounds`` rounds of each against greedy (the
same deals for all), and moves the mean to the ``--elite`` best.  After each
generation the mean plays ``--check`` rounds on other deals; the script prints its
score (rounds won, a tie counting half: greedy against itself scores 0.5) and, with
``--svg FILE``, draws the learning curve; ``--final N`` scores the last weights over N
more rounds.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from bendolib.encoding import action_count
from bendolib.vector import VectorGames


class Policy:
    """
    The legal action of highest score, a weighted sum of a few features of the action:
    it is the greedy bot's choice; the tile's points; a double; and, for the number the
    placement leaves showing, how many tiles with it the opponent may hold (the
    observation's deductions), whether it may hold none, and how many the agent keeps.
    """

    FEATURES = 6

    def __init__(self, rules: Any) -> None:
        tileset = rules.tileset
        n = len(tileset)
        actions = action_count(rules)
        self.n = n
        self.theta = np.zeros(self.FEATURES, dtype=np.float32)
        faces = tileset.top + 1
        self.has = np.zeros((n, faces), dtype=np.float32)  # tile i carries number f
        for i, tile in enumerate(tileset.tiles):
            self.has[i, tile.a] = self.has[i, tile.b] = 1
        self.tile = np.zeros(actions, dtype=np.int64)
        self.shows = np.zeros(actions, dtype=np.int64)
        self.placing = np.zeros(actions, dtype=np.float32)
        ends = 2 * max(1, rules.deal.table_tiles)
        turns = 2 if rules.geometry.uses_bends else 1
        for a in range(n, n + n * ends * 2 * turns):
            rest = (a - n) // turns
            side = rest % 2
            t = rest // 2 // ends
            tile = tileset.tiles[t]
            self.tile[a], self.placing[a] = t, 1
            self.shows[a] = tile.b if side == 0 else tile.a
        points = np.array([tileset.points(i) for i in range(n)], dtype=np.float32)
        double = np.array([float(t.a == t.b) for t in tileset.tiles], dtype=np.float32)
        self.points = points[self.tile] * self.placing / 10
        self.double = double[self.tile] * self.placing

    def action_features(self, obs: Any, greedy: Any) -> Any:
        """(games, actions, FEATURES): the features of every action of every game."""
        n = self.n
        hand = obs[:, :n].astype(np.float32)
        possible = obs[:, 3 * n : 4 * n].astype(np.float32)  # the opponent's tiles
        theirs = (possible @ self.has)[:, self.shows]
        mine = (hand @ self.has)[:, self.shows] - self.has[self.tile, self.shows]
        out = np.zeros((len(obs), len(self.tile), self.FEATURES), dtype=np.float32)
        out[np.arange(len(obs)), greedy, 0] = 1
        out[:, :, 1] = self.points
        out[:, :, 2] = self.double
        out[:, :, 3] = theirs * self.placing / 7
        out[:, :, 4] = (theirs == 0) * self.placing
        out[:, :, 5] = mine * self.placing / 7
        return out

    def scores(self, obs: Any, mask: Any, greedy: Any) -> Any:
        logits = self.action_features(obs, greedy) @ self.theta
        return np.where(mask > 0, logits, -np.inf)


def win_rate(policy: Policy, rounds: int, seed: int) -> tuple[float, int]:
    """
    The share of ``rounds`` the most likely action wins against greedy, a tie counting
    half (greedy itself scores 0.5): fresh seeds, ``seed``'s.
    """
    games = VectorGames("basic", 256, 2, seed=seed, opponents="greedy", skip_forced=True)
    won = played = steps = 0
    while played < rounds:
        greedy = games.core_actions("greedy")
        scores = policy.scores(games.obs, games.action_mask, greedy)
        games.step(scores.argmax(axis=1))
        steps += len(scores)
        done = games.terminated
        played += int(done.sum())
        won += int((games.rewards[done, 0] > 0).sum()) * 2 + int(
            (games.rewards[done, 0] == 0).sum()
        )
    return won / (2 * played), steps


def train(
    generations: int, candidates: int, elite: int, rounds: int, check: int
) -> tuple[list[tuple[int, float]], Any]:
    """
    The cross-entropy method on the action features' weights: each generation draws
    ``candidates`` weight vectors around the mean, plays ``rounds`` rounds of each
    against greedy (the same deals for all), and moves the mean to the ``elite`` best.
    Returns the learning curve: (agent steps so far, the mean's score against greedy
    over ``check`` rounds on other deals), and the last mean.
    """
    rng = np.random.default_rng(0)
    rules = VectorGames("basic", 1, 2).rules
    mean = np.zeros(Policy.FEATURES)
    spread = np.ones(Policy.FEATURES)
    policy = Policy(rules)
    steps = 0

    def score(theta: Any, rounds_: int, seed: int) -> tuple[float, int]:
        policy.theta = theta.astype(np.float32)
        return win_rate(policy, rounds_, seed)

    found, _ = score(mean, check, 99_999)
    curve = [(0, found)]
    print(f"agent steps {0:>10,}  score against greedy {found:.3f}")
    for generation in range(1, generations + 1):
        drawn = mean + spread * rng.standard_normal((candidates, Policy.FEATURES))
        results = []
        for theta in drawn:
            result, used = score(theta, rounds, generation)
            results.append(result)
            steps += used
        best = drawn[np.argsort(results)[-elite:]]
        mean = best.mean(axis=0)
        spread = best.std(axis=0) + 0.05
        found, _ = score(mean, check, 99_999 - generation)
        curve.append((steps, found))
        print(
            f"agent steps {steps:>10,}  score against greedy {found:.3f}  weights {mean.round(2)}"
        )
    return curve, mean


def svg(curve: list[tuple[int, float]], path: str) -> None:
    """The learning curve as a small SVG picture."""
    width, height, pad = 560, 300, 48
    most = max(s for s, _ in curve) or 1
    low, high = 0.4, 0.6

    def at(steps: float, rate: float) -> tuple[float, float]:
        x = pad + (width - 2 * pad) * steps / most
        y = height - pad - (height - 2 * pad) * (rate - low) / (high - low)
        return x, y

    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(s, r) for s, r in curve))
    half = at(0, 0.5)[1]
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        'stroke="black"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>',
        f'<line x1="{pad}" y1="{half:.1f}" x2="{width - pad}" y2="{half:.1f}" '
        'stroke="gray" stroke-dasharray="4 3"/>',
        f'<text x="{width - pad}" y="{half - 4:.1f}" text-anchor="end" fill="gray">'
        "even with greedy</text>",
        f'<polyline points="{points}" fill="none" stroke="#1f6fb2" stroke-width="2"/>',
        f'<text x="{width / 2}" y="{height - 12}" text-anchor="middle">agent steps '
        f"(0 to {most:,})</text>",
        f'<text x="14" y="{height / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {height / 2})">'
        "score against greedy (a tie is half a win)</text>",
    ]
    for rate in (0.40, 0.45, 0.50, 0.55, 0.60):
        y = at(0, rate)[1]
        lines.append(f'<text x="{pad - 6}" y="{y + 4:.1f}" text-anchor="end">{rate:.2f}</text>')
    lines.append("</svg>")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--generations", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=6)
    parser.add_argument("--elite", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--check", type=int, default=400)
    parser.add_argument("--final", type=int, default=0)
    parser.add_argument("--svg", metavar="FILE")
    args = parser.parse_args()
    start = time.process_time()
    curve, weights = train(args.generations, args.candidates, args.elite, args.rounds, args.check)
    print(f"{time.process_time() - start:.0f} CPU seconds")
    if args.final:
        policy = Policy(VectorGames("basic", 1, 2).rules)
        policy.theta = weights.astype(np.float32)
        final, _ = win_rate(policy, args.final, seed=123_456_789)
        print(f"the last weights over {args.final:,} more rounds: score {final:.4f}")
    if args.svg:
        svg(curve, args.svg)


if __name__ == "__main__":
    main()
