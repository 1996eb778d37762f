"""
Strong reference bots (issue 26 point 3): the exact endgame solver and the
information-set search bot.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterator

import pytest

import bendolib
from bendolib import bots
from bendolib.bots import infoset
from bendolib.bots.endgame import (
    EndgameError,
    SolveTimeoutError,
    applies,
    perfect_information,
    solve,
)
from bendolib.bots.infoset import (
    InfoSetBot,
    heavier_evidence,
    outcome_value,
    reply_value,
    rollout_policy,
)
from bendolib.bots.search import scores_value
from bendolib.bots.worlds import Worlds
from bendolib.engine import apply, legal_moves
from bendolib.playouts import playouts
from bendolib.position_text import dumps, loads
from bendolib.sampling import replay, sample_state
from bendolib.state import PLAYING, GameState
from bendolib.testing import check_bot
from bendolib.tournament import play_match


def empty_stock(seed: int, rules: str = "basic", left: int = 99) -> GameState | None:
    """A two-player position of ``rules`` in play with an empty stock, at most ``left``
    tiles in the hands (random play from deal ``seed``), or None."""
    state = bendolib.new_game(bendolib.rules.get(rules), 2, seed)
    rng = random.Random(seed)
    while state.phase == PLAYING:
        if applies(state) and sum(h.bit_count() for h in state.hand_masks) <= left:
            return state
        state = apply(state, rng.choice(legal_moves(state)))
    return None


def minimax(state: GameState, root: GameState) -> int:
    """The value for ``root``'s mover by plain minimax (no pruning, no table)."""
    if state.phase != PLAYING:
        return scores_value(root, state.scores, root.current_player)
    values = [minimax(apply(state, m), root) for m in legal_moves(state)]
    mine = state.current_player in next(s for s in root.sides if root.current_player in s)
    return max(values) if mine else min(values)


def test_the_solver_agrees_with_plain_minimax() -> None:
    """Issue 26.3(b): alpha-beta with a transposition table gives the exact value."""
    checked = 0
    for seed in range(60):
        state = empty_stock(seed, left=9)
        if state is None:
            continue
        solution = solve(state)
        assert solution.value == minimax(state, state)
        # the move it names reaches that value
        after = apply(state, solution.move)
        assert minimax(after, state) == solution.value
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_the_solver_applies_only_with_two_seats_and_an_empty_stock() -> None:
    """Issue 26.3(b): two players, once the stock is empty (perfect information)."""
    state = bendolib.new_game("basic", 2, 1)
    assert not applies(state)
    with pytest.raises(EndgameError, match="empty stock"):
        solve(state)
    with pytest.raises(TypeError, match="GameState"):
        solve("basic")  # type: ignore[arg-type]
    assert not applies(bendolib.new_game("basic", 3, 1))
    found = empty_stock(5)
    assert found is not None and applies(found)
    seat = found.current_player
    assert perfect_information(found.observation(seat))
    assert not perfect_information(state.observation(state.current_player))
    with pytest.raises(SolveTimeoutError):
        solve(empty_stock(5) or found, max_nodes=1)


def test_the_bot_plays_the_solved_move_once_the_stock_is_empty() -> None:
    """Issue 26.3(b): the solver is used by the search bot when it applies."""
    for seed in range(40):
        state = empty_stock(seed)
        if state is None or len(legal_moves(state)) < 2:
            continue
        seat = state.current_player
        legal = legal_moves(state)
        move = InfoSetBot(worlds=1).choose(state.observation(seat), legal, random.Random(0))
        assert move == solve(state).move
        return
    pytest.fail("no two-player empty-stock decision found")


def test_the_bot_is_registered_and_checked_on_every_rule_set() -> None:
    """Issue 26.3(a): it works on every chain rule set and the triangle games."""
    assert bots.get("infoset", worlds=2) == InfoSetBot(worlds=2)
    every = [bendolib.rules.get(name) for name in bendolib.rules.names()]
    # every player count of every rule set (games=None: one game per count)
    report = check_bot(InfoSetBot(worlds=2), every, max_moves=6, loaded_every=3)
    assert report.ok, report
    counts = {c for r in every for c in r.player_counts}
    assert sorted(report.players) == sorted(counts) == [2, 3, 4, 5, 6]


def test_a_time_budget_bounds_the_thinking() -> None:
    """Issue 26.3(a): a time per decision (at least one world; the budget itself is held
    on a fake clock below: no timed assertion here)."""
    state = bendolib.new_game("basic", 2, 3)
    rng = random.Random(1)
    while len(legal_moves(state)) < 2:
        state = apply(state, legal_moves(state)[0])
    bot = InfoSetBot(seconds=0.02)
    move = bot.choose(state.observation(state.current_player), legal_moves(state), rng)
    assert move in legal_moves(state)
    with pytest.raises(ValueError):
        InfoSetBot(worlds=0)
    with pytest.raises(ValueError):
        InfoSetBot(rollout="best")


def test_the_true_hands_never_contradict_a_greedy_opponent() -> None:
    """Issue 26.3(a): the opponent model reads the greedy bot's placements right: the
    real state is never counted as contradicting them, while sampled worlds often are."""
    greedy = bots.get("greedy")
    contradicted = 0
    for seed in range(6):
        state = bendolib.new_game("basic", 2, seed)
        rng = random.Random(seed)
        while not state.is_round_over:
            legal = legal_moves(state)
            seat = state.current_player
            observation = state.observation(seat)
            if seat == 0:
                evidence = heavier_evidence(observation)
                if evidence is not None:
                    assert evidence.misses(state, observation) == 0
                    world = sample_state(observation, rng, forced_draws=True)
                    contradicted += evidence.misses(world, observation) > 0
                move = rng.choice(legal)
            else:
                move = greedy.choose(observation, legal, rng)
            state = apply(state, move)
    assert contradicted > 0


def test_the_rollouts_see_the_bonuses_where_moves_score() -> None:
    """Issue 26.3(a): on the triangle games the rollout policy scores the bonuses."""
    assert rollout_policy(bendolib.rules.get("triangle-dominoes")) == "greedy"
    assert rollout_policy(bendolib.rules.get("triominoes")) == "greedy"
    assert rollout_policy(bendolib.rules.get("basic")) == "heaviest"


def decisions(rules: str, players: int, games: int) -> Iterator[GameState]:
    """The states of greedy-played rounds of ``rules`` where the mover has a choice."""
    greedy = bots.get("greedy")
    for seed in range(games):
        state = bendolib.new_game(bendolib.rules.get(rules), players, seed)
        rng = random.Random(seed)
        while state.phase == PLAYING:
            legal = legal_moves(state)
            if len(legal) > 1:
                yield state
            observation = state.observation(state.current_player)
            state = apply(state, greedy.choose(observation, legal, rng))


def test_the_worlds_are_the_states_the_replay_gives() -> None:
    """Issue 26.3(a): the worlds dealt without replaying the history are the states
    that replaying it from their decks gives (sample_state's), and hold the hidden
    tiles in many ways (different worlds, mostly)."""
    checked = varied = 0
    for state in decisions("basic", 2, 3):
        observation = state.observation(state.current_player)
        rng = random.Random(checked)
        source = Worlds(observation, rng, forced_draws=True)
        seen = set()
        for _ in range(4):
            world = source.draw(rng)
            again = replay(observation, world.deck, world.seed)
            assert again == world and again.context == world.context
            assert world.observation(state.current_player) == observation
            seen.add(world.hand_masks)
        checked += 1
        varied += len(seen) > 1
    assert checked > 20 and varied > checked / 2


def test_the_worlds_stay_consistent_after_draws_by_choice() -> None:
    """Issue 26.3(a): against a player that draws by choice (random play) the plain
    posterior's decks are sometimes rejected by the replay: every world handed out is
    still the state its deck replays to."""
    checked = 0
    for seed in range(2):
        state = bendolib.new_game(bendolib.rules.get("basic"), 2, seed)
        rng = random.Random(seed)
        while state.phase == PLAYING:
            legal = legal_moves(state)
            if len(legal) > 1:
                observation = state.observation(state.current_player)
                source = Worlds(observation, rng, forced_draws=True)
                for _ in range(3):
                    world = source.draw(rng)
                    assert replay(observation, world.deck, world.seed) == world
                    checked += 1
            state = apply(state, rng.choice(legal))
    assert checked > 60


def test_the_worlds_of_a_loaded_position_are_consistent() -> None:
    """Issue 26.3(a): a position loaded from its text (no history to replay) still
    gives worlds consistent with the observation."""
    state = next(s for s in decisions("basic", 2, 1) if s.stock_pos > 14)
    loaded = loads(dumps(state))
    observation = loaded.observation(loaded.current_player)
    rng = random.Random(3)
    source = Worlds(observation, rng, forced_draws=True)
    for _ in range(3):
        assert source.draw(rng).observation(loaded.current_player) == observation
    legal = legal_moves(loaded)
    assert InfoSetBot(worlds=3).choose(observation, legal, rng) in legal


def test_a_reply_search_is_never_more_hopeful_than_the_rollout() -> None:
    """Issue 26.3(a): the worst reply for the bot is at most the reply the heaviest-tile
    rollout plays (the next player's heaviest), so searching the replies can only lower a
    move's value, and it does lower some."""
    lowered = 0
    for state in decisions("basic", 2, 2):
        seat = state.current_player
        world = sample_state(state.observation(seat), random.Random(0), forced_draws=True)
        runs = playouts(world, policy="heaviest", first=range(len(legal_moves(world))))
        for move, run in zip(legal_moves(world), runs, strict=True):
            searched = reply_value(world, move, seat, seat, "heaviest", 0, 100)
            rolled = outcome_value(world, run, seat, seat, 100)
            assert searched <= rolled
            lowered += searched < rolled
    assert lowered > 0


def test_a_match_is_the_same_for_the_same_seeds() -> None:
    """Issue 26.3(a): with a world budget the bot depends on its seed only."""
    rules = bendolib.rules.get("basic", target=30)
    one = play_match(rules, [InfoSetBot(worlds=3), "greedy"], 4, bot_seed=9)
    two = play_match(rules, [InfoSetBot(worlds=3), "greedy"], 4, bot_seed=9)
    assert one.moves == two.moves and one.scores == two.scores
    other = play_match(rules, [InfoSetBot(worlds=3, replies=False), "greedy"], 4, bot_seed=9)
    assert other.moves != one.moves


def test_a_time_budget_stops_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26.3(a): with ``seconds`` the bot searches worlds until the budget is spent
    (a clock that advances a millisecond per reading: about as many worlds as
    milliseconds), at least one."""
    ticks = iter(range(10**6))
    clock = types.SimpleNamespace(thread_time=lambda: next(ticks) / 1000)
    monkeypatch.setattr(infoset, "time", clock)
    drawn: list[int] = []
    original = Worlds.draw

    def counted(self: Worlds, rng: random.Random) -> GameState:
        drawn.append(1)
        return original(self, rng)

    monkeypatch.setattr(Worlds, "draw", counted)
    state = next(s for s in decisions("basic", 2, 1) if s.stock_pos < len(s.deck))
    observation = state.observation(state.current_player)
    legal = legal_moves(state)
    for seconds, most in ((0.0, 1), (0.01, 10), (0.04, 40)):
        drawn.clear()
        assert (
            InfoSetBot(seconds=seconds, endgame=False).choose(observation, legal, random.Random(1))
            in legal
        )
        assert 1 <= len(drawn) <= most
    assert len(drawn) > 10


def test_the_replies_see_the_bonuses_on_the_triangle_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26 point 3: on the triangle games every rollout of the reply search plays
    the greedy policy (which scores the sums and the 40 to 70 point bonuses), and the
    bot's move is legal."""
    used: list[str] = []
    original = playouts

    def spy(state: GameState, *args: object, **kwargs: object) -> object:
        used.append(str(kwargs["policy"]))
        return original(state, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(infoset, "playouts", spy)
    for name in ("triangle-dominoes", "triominoes"):
        state = next(decisions(name, 2, 1))
        legal = legal_moves(state)
        bot = InfoSetBot(worlds=2)
        assert bot.choose(state.observation(state.current_player), legal, random.Random(2)) in legal
    assert used and set(used) == {"greedy"}
