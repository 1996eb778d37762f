"""
Batched games (bendolib.vector, issue 23): the same games as the scalar engine, bit for bit.

Issue 23, point 2: "a differential test that steps the batch and, for a sample of its
games, the scalar engine (legal_moves/apply + encoding) with the same seeds and
actions, comparing every observation, mask, reward and reset, for every rule set and
player count".  The short profile runs a few games of every chain rule set and player
count the kernel covers; ``BENDOLIB_LONG=1`` plays many more (docs/testing.md).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from bendolib import rules as registry  # noqa: E402
from bendolib._playouts_reference import greedy_index, heaviest_index  # noqa: E402
from bendolib._rng import SplitMix64, derive_seed  # noqa: E402
from bendolib.adapters._rewards import round_returns  # noqa: E402
from bendolib.encoding import action_mask, encode, move_of, on_cells  # noqa: E402
from bendolib.engine import apply, legal_moves, new_game  # noqa: E402
from bendolib.errors import ArgumentError, IllegalMoveError, RuleSetError  # noqa: E402
from bendolib.moves import NEXT_ROUND  # noqa: E402
from bendolib.playouts import KERNEL  # noqa: E402
from bendolib.rules import RuleSet  # noqa: E402
from bendolib.state import GAME_OVER, PLAYING, GameState  # noqa: E402

pytestmark = pytest.mark.skipif(not KERNEL, reason="batched games need the compiled kernel")

LONG = os.environ.get("BENDOLIB_LONG", "") not in ("", "0")

#: Every chain rule set and player count (the kernel plays them all).
CASES = [
    (name, players)
    for name in registry.names()
    if not on_cells(registry.get(name))
    for players in registry.get(name).player_counts
]


class Scalar:
    """One game of the batch replayed on the scalar engine: the specification."""

    def __init__(self, rules: Any, players: int, base: int, *, match: bool) -> None:
        self.rules = rules
        self.players = players
        self.base = base
        self.match = match
        self.episode = 0
        self.deal()

    def deal(self) -> None:
        self.state: GameState = new_game(
            self.rules, self.players, derive_seed(self.base, self.episode)
        )
        self.start = self.state.side_scores
        self.rng = SplitMix64(derive_seed(self.base, self.episode, 1))

    def decision(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        state = self.state
        legal = legal_moves(state)
        seat = state.current_player
        return encode(state.observation(seat)), action_mask(legal, self.rules, state.board), seat

    def play(self, action: int) -> None:
        state = self.state
        self.state = apply(state, move_of(action, legal_moves(state), self.rules, state.board))

    def core(self, policy: str) -> None:
        """A move of the kernel policy ``policy`` (as the reference playouts choose it)."""
        state = self.state
        legal = legal_moves(state)
        if len(legal) == 1:
            k = 0
        elif policy == "random":
            k = self.rng.below(len(legal))
        elif policy == "heaviest":
            k = heaviest_index(legal)
        else:
            k = greedy_index(state, legal)
        self.state = apply(state, legal[k])


def settle(
    game: Scalar, rewards: list[float], agent: int, policy: str | None, *, decided: bool
) -> tuple[bool, tuple[int, ...] | None, tuple[int, ...] | None]:
    """
    Advance ``game`` as the batch does after a move: round ends (rewards), new rounds,
    new episodes, the core's moves.  Returns (terminated, final observation, final
    scores) of an episode that ended.
    """
    ended: tuple[bool, tuple[int, ...] | None, tuple[int, ...] | None] = (False, None, None)
    while True:
        state = game.state
        if state.phase != PLAYING:
            if decided:
                for s, r in enumerate(round_returns(state, game.start)):
                    rewards[s] += r
            if game.match and state.phase != GAME_OVER:
                game.state = apply(state, NEXT_ROUND)
                game.start = game.state.side_scores
                continue
            if decided:
                observer = agent if agent >= 0 else state.current_player
                ended = (True, encode(state.observation(observer)), state.scores)
            game.episode += 1
            game.deal()
            decided = False
            continue
        if agent >= 0 and state.current_player != agent and policy is not None:
            game.core(policy)
            continue
        return ended


def run_differential(
    name: str | RuleSet,
    players: int,
    *,
    games: int,
    steps: int,
    seed: int,
    check: int,
    match: bool = False,
    opponents: str | None = None,
) -> None:
    """Step ``games`` batched games ``steps`` times; replay the first ``check`` alone."""
    from bendolib.vector import VectorGames

    rules = registry.get(name) if isinstance(name, str) else name
    batch = VectorGames(
        rules,
        games,
        players,
        seed=seed,
        opponents=opponents,
        episode="match" if match else "round",
    )
    agent = 0 if opponents is not None else -1
    sample = [
        Scalar(rules, players, int(batch.seeds[g]), match=match) for g in range(min(check, games))
    ]
    for g, game in enumerate(sample):
        settle(game, [0.0] * players, agent, opponents, decided=False)
        assert int(batch.deal_seed[g]) == game.state.seed
    chooser = np.random.default_rng(seed)
    episodes = 0
    for step in range(steps):
        for g, game in enumerate(sample):
            obs, mask, seat = game.decision()
            where = f"{name} {players}p game {g} step {step}"
            assert int(batch.seat[g]) == seat, where
            assert tuple(batch.action_mask[g].tolist()) == mask, where
            assert tuple(batch.obs[g].tolist()) == obs, where
        logits = chooser.random(batch.action_mask.shape) + batch.action_mask
        actions = logits.argmax(axis=1)
        batch.step(actions)
        for g, game in enumerate(sample):
            rewards = [0.0] * players
            round_number = game.state.round_number
            game.play(int(actions[g]))
            terminated, final, scores = settle(game, rewards, agent, opponents, decided=True)
            where = f"{name} {players}p game {g} step {step}"
            assert bool(batch.terminated[g]) == terminated, where
            assert batch.rewards[g].tolist() == rewards, where
            if terminated or game.state.round_number != round_number:
                episodes += 1
            if terminated:
                assert tuple(batch.final_obs[g].tolist()) == final, where
                assert tuple(batch.final_scores[g].tolist()) == scores, where
            assert int(batch.deal_seed[g]) == game.state.seed, where
    assert episodes > 0 or steps < 40


@pytest.mark.parametrize(("name", "players"), CASES)
def test_batch_is_the_scalar_engine(name: str, players: int) -> None:
    """Issue 23 point 2: every observation, mask, reward and reset, self-play mode."""
    games, steps, check = (64, 4000, 8) if LONG else (3, 70, 3)
    run_differential(name, players, games=games, steps=steps, seed=players, check=check)


@pytest.mark.parametrize("policy", ["random", "heaviest", "greedy"])
@pytest.mark.parametrize(("name", "players"), [("basic", 3), ("all-five", 2), ("draw-dominoes", 2)])
def test_core_opponents_are_the_reference_policies(name: str, players: int, policy: str) -> None:
    """Issue 23 point 1: the caller plays seat 0, the kernel's policy the others."""
    games, steps = (6, 1500) if LONG else (2, 40)
    run_differential(name, players, games=games, steps=steps, seed=7, check=games, opponents=policy)


@pytest.mark.parametrize(
    ("name", "players"), [("all-five", 3), ("basic", 2), ("bendo-all-in-actions", 2)]
)
def test_match_episodes(name: str, players: int) -> None:
    """Episode "match": the rounds follow each other in the core, as in the scalar engine."""
    games, steps = (4, 3000) if LONG else (2, 80)
    run_differential(name, players, games=games, steps=steps, seed=3, check=games, match=True)


def test_a_game_plays_the_same_whatever_the_batch_size() -> None:
    """Issue 23: "Batched games are reproducible per seed whatever N is"."""
    from bendolib.vector import VectorGames

    small = VectorGames("basic", 2, seed=11)
    large = VectorGames("basic", 5, seed=11)
    alone = VectorGames("basic", 1, seeds=large.seeds[3:4])
    chooser = np.random.default_rng(0)
    for _ in range(60):
        assert (small.obs == large.obs[:2]).all()
        assert (alone.obs[0] == large.obs[3]).all()
        actions = (chooser.random(large.action_mask.shape) + large.action_mask).argmax(axis=1)
        small.step(actions[:2])
        large.step(actions)
        alone.step(actions[3:4])


@pytest.mark.parametrize(
    ("name", "players", "opponents", "match"),
    [
        ("basic", 2, None, False),
        ("bendo-all-in-actions", 3, "greedy", False),
        ("classic-draw", 2, "random", True),
        ("all-five", 4, "heaviest", False),
    ],
)
def test_double_twelve_batches_are_the_scalar_engine(
    name: str, players: int, opponents: str | None, match: bool
) -> None:
    """
    Issue 24 point 2 (the tile sets beyond 64 tiles in the core): on double-12 (91
    tiles, 97 with the action tiles) the batch runs in the wide build and every
    observation, mask, reward and reset is the scalar engine's.
    """
    from bendolib import playouts
    from bendolib.vector import VectorGames
    from large_sets import on_double

    if playouts._kernel_wide is None:
        pytest.skip("the wide build of the kernel is not loaded (no 128-bit integers)")
    rules = on_double(name, 12)
    assert VectorGames(rules, 1, players)._kernel.__name__ == "bendolib._kernel_wide"
    if playouts._kernel_huge is not None:  # double-15: playouts in the huge build, no batches
        with pytest.raises(RuleSetError, match="batched games take at most 128 tiles"):
            VectorGames(on_double(name, 15), 1, players)
    games, steps = (8, 1500) if LONG else (2, 150)
    run_differential(
        rules,
        players,
        games=games,
        steps=steps,
        seed=5,
        check=games,
        match=match,
        opponents=opponents,
    )


def test_active_games_step_and_the_others_stand_still() -> None:
    """
    ``step(actions, active=...)`` (what batched self-play steps once a game is over):
    the marked games play as in a full step, the others keep their rows, unread actions
    included (an illegal one there is no error).
    """
    from bendolib.vector import VectorGames

    full = VectorGames("basic", 4, seed=5, episode="match")
    part = VectorGames("basic", 4, seed=5, episode="match")
    chooser = np.random.default_rng(1)
    active = np.array([True, False, True, False])
    for step in range(40):
        actions = (chooser.random(full.action_mask.shape) + full.action_mask).argmax(axis=1)
        before = part.obs.copy(), part.action_mask.copy(), part.rewards.copy()
        full.step(actions)
        stale = actions.copy()
        stale[~active] = -1  # not read
        part.step(stale, active=active)
        assert (part.obs[active] == full.obs[active]).all(), step
        assert (part.action_mask[active] == full.action_mask[active]).all(), step
        assert (part.rewards[active] == full.rewards[active]).all(), step
        assert (part.terminated[active] == full.terminated[active]).all(), step
        assert (part.obs[~active] == before[0][~active]).all(), step
        assert (part.action_mask[~active] == before[1][~active]).all(), step
        assert (part.rewards[~active] == before[2][~active]).all(), step
    # the kernel's policies too: only the marked games are asked; the others' random
    # streams do not move
    full, part = (VectorGames("basic", 4, seed=6, skip_forced=True) for _ in range(2))
    moves = part.round_moves.copy()
    chosen, first = part.core_actions("random", active=active), full.core_actions("random")
    assert (chosen[active] == first[active]).all()
    assert (chosen[~active] == 0).all() and (part.round_moves[~active] == moves[~active]).all()
    assert (part.core_actions("random")[~active] == first[~active]).all()
    assert (full.core_actions("random")[~active] != first[~active]).any()  # a stream moves
    with pytest.raises(TypeError, match="active must be"):
        part.core_actions("random", active=[1, 0, 1, 0])
    with pytest.raises(TypeError, match=r"active must be a bool array of shape \(4,\)"):
        part.step(actions, active=np.ones(4, dtype=np.int8))
    with pytest.raises(TypeError, match="active must be"):
        part.step(actions, active=np.ones(3, dtype=np.bool_))


def test_core_actions_take_policy_names_or_codes() -> None:
    """
    ``core_actions`` (batched self-play calls it at every step): a code out of range is
    a library error whatever the integer type, a wrong shape a TypeError.
    """
    from bendolib.vector import POLICIES, VectorGames

    batch = VectorGames("basic", 3, seed=2)
    greedy = batch.core_actions("greedy")
    codes = np.full((3, 2), POLICIES.index("greedy"), dtype=np.int8)
    assert (batch.core_actions(codes) == greedy).all()
    assert (batch.core_actions(codes.astype(np.int64)) == greedy).all()
    assert (batch.core_actions(np.asfortranarray(np.tile(codes, 1))) == greedy).all()
    for kind in (np.int8, np.int64):
        for bad in (-1, len(POLICIES)):
            wrong = codes.astype(kind)
            wrong[1, 1] = bad
            with pytest.raises(ArgumentError, match="policies are indices into"):
                batch.core_actions(wrong)
    with pytest.raises(TypeError, match=r"integer array of shape \(3, 2\)"):
        batch.core_actions(codes[:2])
    with pytest.raises(ArgumentError, match="a policy is one of"):
        batch.core_actions("search")


def test_illegal_actions_name_the_game_and_the_action() -> None:
    """Issue 23: "a library error naming the game and the action"; no game moves."""
    from bendolib.vector import VectorGames

    batch = VectorGames("basic", 3, seed=1)
    before = batch.obs.copy()
    actions = batch.action_mask.argmax(axis=1)
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(batch.action_mask[1] == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"action {bad[1]} for game 1 .* not legal"):
        batch.step(bad)
    assert (batch.obs == before).all()
    bad[1] = batch.action_count
    with pytest.raises(IllegalMoveError, match=r"for game 1 .* out of range"):
        batch.step(bad)
    bad[1] = -1
    with pytest.raises(IllegalMoveError, match="action -1 for game 1"):
        batch.step(bad)
    batch.step(actions)


def test_wrong_arrays_say_what_was_expected() -> None:
    """Issue 23: "an array of the wrong shape or dtype a TypeError ... saying what was expected"."""
    from bendolib.vector import VectorGames

    batch = VectorGames("basic", 3, seed=1)
    with pytest.raises(TypeError, match=r"integer array of shape \(3,\)"):
        batch.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(TypeError, match="integer array"):
        batch.step(np.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="integer array"):
        batch.step([[0, 0, 0]])
    with pytest.raises(TypeError, match="seeds must be"):
        batch.reset(seeds=[1, 2])
    actions = batch.action_mask.argmax(axis=1).astype(np.int8)
    batch.step(actions)  # any integer dtype is taken


def test_unsupported_rule_sets_say_why() -> None:
    """Issue 23: "a clear error naming the reason (as kernel_reason does)"."""
    from bendolib.vector import VectorGames, unsupported_reason

    with pytest.raises(RuleSetError, match=r"cannot batch triominoes .* TriangleGeometry"):
        VectorGames("triominoes", 4)
    assert unsupported_reason(registry.get("basic"), 2) is None
    with pytest.raises(RuleSetError, match="not 9"):
        VectorGames("basic", 4, players=9)
    with pytest.raises(ArgumentError, match="opponents"):
        VectorGames("basic", 4, opponents="clever")
    with pytest.raises(ArgumentError, match="num_games"):
        VectorGames("basic", 0)


def test_callback_opponents_play_like_the_core() -> None:
    """Issue 23 point 1: a NumPy callback as the opponents gives the game the core gives."""
    from bendolib.vector import VectorGames

    calls = []

    def first_legal(obs: Any, mask: Any, seat: Any) -> Any:
        calls.append(len(seat))
        assert obs.shape[0] == mask.shape[0] == len(seat) and (seat != 0).all()
        return mask.argmax(axis=1)

    batch = VectorGames("basic", 4, 3, seed=5, opponents=first_legal)
    chooser = np.random.default_rng(1)
    total = np.zeros(3)
    for _ in range(100):
        assert (batch.seat == 0).all()
        actions = (chooser.random(batch.action_mask.shape) + batch.action_mask).argmax(axis=1)
        batch.step(actions)
        total += batch.rewards.sum(axis=0)
    assert calls and abs(total.sum()) < 1e-6

    def bad(obs: Any, mask: Any, seat: Any) -> Any:
        return np.full(len(seat), -5)

    with pytest.raises(IllegalMoveError, match="callback's action -5 for game"):
        VectorGames("basic", 2, 2, seed=5, opponents=bad)


def test_truncation_and_memory() -> None:
    """``max_moves`` cuts an episode (truncated); the batch holds a few kB per game."""
    from bendolib.vector import VectorGames

    batch = VectorGames("basic", 4, seed=2, max_moves=3)
    for _ in range(3):
        batch.step(batch.action_mask.argmax(axis=1))
    assert batch.truncated.all() and not batch.terminated.any()
    assert batch.bytes_per_game < 8000


def skip_forced(game: Scalar) -> None:
    """Play the forced moves (and deal the next episodes) as ``skip_forced=True`` does."""
    while True:
        if game.state.phase != PLAYING:
            game.episode += 1
            game.deal()
            continue
        legal = legal_moves(game.state)
        if len(legal) > 1:
            return
        game.state = apply(game.state, legal[0])


@pytest.mark.parametrize(("name", "players"), [("basic", 2), ("all-five", 3), ("wild-draw", 2)])
def test_core_actions_are_the_reference_policies(name: str, players: int) -> None:
    """``core_actions``: the kernel policies' choices, seat by seat, as the reference makes them."""
    from bendolib.vector import POLICIES, VectorGames

    rules = registry.get(name) if isinstance(name, str) else name
    batch = VectorGames(rules, 3, players, seed=4, skip_forced=True)
    codes = np.array([[(g + s) % 3 for s in range(players)] for g in range(3)], dtype=np.int8)
    sample = [Scalar(rules, players, int(batch.seeds[g]), match=False) for g in range(3)]
    for game in sample:
        skip_forced(game)
    for step in range(60):
        actions = batch.core_actions(codes)
        for g, game in enumerate(sample):
            state = game.state
            legal = legal_moves(state)
            policy = POLICIES[codes[g, state.current_player]]
            if policy == "random":
                k = game.rng.below(len(legal))
            elif policy == "heaviest":
                k = heaviest_index(legal)
            else:
                k = greedy_index(state, legal)
            where = f"{name} game {g} step {step}"
            assert int(batch.round_moves[g]) == len(state.history), where
            assert move_of(int(actions[g]), legal, rules, state.board) == legal[k], where
            game.state = apply(state, legal[k])
            skip_forced(game)
        batch.step(actions)
        for g, game in enumerate(sample):
            assert tuple(batch.obs[g].tolist()) == game.decision()[0]


def test_selfplay_writes_through_the_batch(tmp_path: Any) -> None:
    """
    Issue 23 point 3: ``bendolib.selfplay`` writing through the batch.  Each game's rows
    replay on the scalar engine: every observation, mask and action, the round rewards
    and the final outcome.
    """
    from bendolib import selfplay

    summary = selfplay.selfplay(
        "basic",
        ["greedy", "random"],
        3,
        tmp_path,
        seed=6,
        batch=True,
        shard_games=2,
        file_format="npz",
    )
    assert summary.games == 3 and summary.decisions > 0
    data = selfplay.load(tmp_path)
    rules = registry.get("basic")
    for index in range(3):
        rows = np.flatnonzero(data["game"] == index)
        assert (data["entrant"][rows] == (data["seat"][rows] - index) % 2).all()
        state = new_game(rules, 2, derive_seed(derive_seed(6, index), 0))
        start = state.side_scores
        returns: dict[int, list[float]] = {}
        for row in rows:
            while state.phase != PLAYING or len(legal_moves(state)) == 1:
                if state.phase != PLAYING:
                    returns[state.round_number] = round_returns(state, start)
                    state = apply(state, NEXT_ROUND)
                    start = state.side_scores
                else:
                    state = apply(state, legal_moves(state)[0])
            seat = state.current_player
            legal = legal_moves(state)
            assert int(data["seat"][row]) == seat
            assert int(data["round"][row]) == state.round_number
            assert int(data["move"][row]) == len(state.history)
            assert tuple(data["observation"][row].tolist()) == encode(state.observation(seat))
            assert tuple(data["legal"][row].tolist()) == action_mask(legal, rules, state.board)
            state = apply(state, move_of(int(data["action"][row]), legal, rules, state.board))
        while state.phase != GAME_OVER:
            if state.phase != PLAYING:
                returns[state.round_number] = round_returns(state, start)
                state = apply(state, NEXT_ROUND)
                start = state.side_scores
            else:
                state = apply(state, legal_moves(state)[0])
        returns[state.round_number] = round_returns(state, start)
        side_of = {s: i for i, side in enumerate(state.sides) for s in side}
        for row in rows:
            seat = int(data["seat"][row])
            expected = returns[int(data["round"][row])][seat]
            assert float(data["round_reward"][row]) == pytest.approx(expected)
            assert int(data["won"][row]) == int(side_of[seat] == state.match_winner)
            assert int(data["final_score"][row]) == state.side_scores[side_of[seat]]
    with pytest.raises(selfplay.SelfplayError, match="random and greedy only"):
        selfplay.selfplay("basic", ["search", "greedy"], 1, tmp_path / "x", batch=True)


def test_without_the_kernel_the_reason_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: the error names the reason (here: no compiled kernel, as in pure mode)."""
    import bendolib.vector as vector

    monkeypatch.setattr(vector, "_kernel", None)
    assert vector.unsupported_reason(registry.get("basic"), 2) == (
        "the compiled kernel is not loaded"
    )
    with pytest.raises(RuleSetError, match=r"cannot batch basic .* kernel is not loaded"):
        vector.VectorGames("basic", 2)


def test_without_numpy_the_import_says_which_extra() -> None:
    """Issue 23: "make the import error clear when NumPy is absent"."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['numpy'] = None\n"
        "try:\n"
        "    import bendolib.vector\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "bendolib.vector needs NumPy: pip install 'bendolib[gymnasium]'" in done.stdout


def configured() -> list[tuple[str, RuleSet]]:
    """Configured variants that reach the deductions' rarer paths."""
    from bendolib.rules.starting import FixedSeat, HighestDouble

    basic = registry.get("basic")
    return [
        ("two a draw", basic.configure("b2", batch=2, max_per_turn=2, when_stuck="until_fits")),
        ("fixed seat", basic.configure("fx", start=FixedSeat(1))),
        ("free opening", basic.configure("no", start=HighestDouble(opens=False))),
        ("forced draws", basic.configure("fd", voluntary=False)),
        ("draw and play", basic.configure("dp", after_voluntary="play")),
    ]


@pytest.mark.parametrize(("what", "rules"), configured(), ids=[w for w, _ in configured()])
@pytest.mark.parametrize("players", [2, 3])
def test_configured_rule_sets_too(what: str, rules: RuleSet, players: int) -> None:
    """Several tiles a draw, a free opening, draws by choice that do not end the turn..."""
    games, steps, check = (16, 3000, 4) if LONG else (3, 60, 3)
    run_differential(rules, players, games=games, steps=steps, seed=players, check=check)


def test_batches_step_in_threads_as_they_do_alone() -> None:
    """The step releases the GIL: batches stepped in two threads play as they do alone."""
    import threading

    from bendolib.vector import VectorGames

    def play(batch: Any) -> None:
        for _ in range(40):
            batch.step(batch.action_mask.argmax(axis=1))

    alone = [VectorGames("basic", 64, seed=s) for s in (1, 2)]
    for batch in alone:
        play(batch)
    threaded = [VectorGames("basic", 64, seed=s) for s in (1, 2)]
    workers = [threading.Thread(target=play, args=(batch,)) for batch in threaded]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for one, other in zip(alone, threaded, strict=True):
        assert (one.obs == other.obs).all() and (one.final_scores == other.final_scores).all()
