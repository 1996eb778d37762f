"""The OpenSpiel adapter (issues 5 and 16): bendolib rule sets as pyspiel games."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel: Any = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

import bendolib  # noqa: E402
from bendolib import rules  # noqa: E402
from bendolib.adapters import openspiel as adapter  # noqa: E402
from bendolib.encoding import (  # noqa: E402
    action_count,
    action_index,
    encode,
    encoding_size,
    history_actions,
)
from bendolib.engine import deal_from  # noqa: E402
from bendolib.rules.triangles import TRIANGLE_RULESETS  # noqa: E402
from bendolib.tournament import SerialExecutor, play_match, run_tournament  # noqa: E402


def _dealt(game: Any, rng: random.Random) -> Any:
    """A new state of ``game`` after its chance nodes, outcomes picked by ``rng``."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(rng.choice([a for a, _ in outcomes]))
    return state


def test_every_rule_set_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    for name in rules.names():
        assert adapter.game_name(name) in registered


@pytest.mark.parametrize(
    ("name", "players", "deals"),
    [
        ("basic", 2, 0),
        ("all-five", 3, 0),
        ("classic-draw", 4, 0),
        ("bendo-all-in-actions", 2, 0),
        ("classic-block", 2, 32),
    ],
)
def test_openspiel_random_simulation_checks(name: str, players: int, deals: int) -> None:
    game = pyspiel.load_game(adapter.game_name(name), {"players": players, "deals": deals})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_deck_is_dealt_tile_by_tile_by_chance_nodes() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    state = game.new_initial_state()
    deck = []
    for left in range(28, 0, -1):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left
        assert all(p == pytest.approx(1 / left) for _, p in outcomes)
        tile = outcomes[len(outcomes) // 2][0]
        deck.append(tile)
        state.apply_action(tile)
    assert not state.is_chance_node()
    # the round is the one bendolib deals from that deck: hands, then the stock in order
    assert state.state == deal_from(rules.get("basic"), 2, tuple(deck))


def test_a_played_round_matches_bendolib() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2, "deals": 16})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    state.apply_action(5)
    assert state.state == bendolib.new_game(rules.get("basic"), 2, 5)
    rng = random.Random(0)
    while not state.is_terminal():
        player = state.current_player()
        tensor = state.observation_tensor(player)
        assert len(tensor) == encoding_size(rules.get("basic"), 2)
        assert list(tensor) == [float(v) for v in encode(state.state.observation(player))]
        info = state.information_state_string(player)
        assert info.startswith(f"p{player}") and "moves" in info
        assert info != state.information_state_string(1 - player)
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    scores = state.state.scores  # one round from 0-0: the gains are the scores
    assert returns[0] - returns[1] == pytest.approx(scores[0] - scores[1])


def test_information_state_tensor_holds_the_draws_and_every_move() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    ruleset = rules.get("basic")
    fields = {
        name: (offset, length) for name, offset, length in adapter.infostate_fields(ruleset, 2)
    }
    assert game.information_state_tensor_size() == sum(length for _, length in fields.values())
    state = _dealt(game, random.Random(3))
    rng = random.Random(4)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    tensor = state.information_state_tensor(player)
    obs = state.state.observation(player)
    offset, length = fields["history"]
    moves = [int(v) for v in tensor[offset : offset + length]]
    expected = []
    for turn in obs.history:
        expected += [(turn.player - player) % 2 + 1, action_index(turn.move, ruleset) + 1]
    assert moves == expected + [0] * (length - len(expected))
    offset, length = fields["own_draws"]
    draws = [int(v) for v in tensor[offset : offset + length] if v]
    assert draws == [i + 1 for i in obs.own_draws]
    # two different histories give different information states
    other = state.clone()
    other.apply_action(other.legal_actions()[0])
    assert other.information_state_tensor(player) != tensor


@pytest.mark.parametrize(
    ("name", "players", "deals"),
    [
        ("basic", 2, 0),
        ("all-five", 3, 0),
        ("classic-draw", 2, 0),
        ("bendo-all-in", 4, 0),
        ("basic", 3, 64),
    ],
)
def test_resample_from_infostate_keeps_what_the_player_knows(
    name: str, players: int, deals: int
) -> None:
    """The check OpenSpiel's ResampleInfostateTest makes, at every decision of a round."""
    game = pyspiel.load_game(adapter.game_name(name), {"players": players, "deals": deals})
    rng = random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = _dealt(game, rng)
    changed = 0
    while not state.is_terminal():
        for p in range(players):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.current_player() == state.current_player()
            assert other.legal_actions() == state.legal_actions() or p != state.current_player()
            changed += other.state.hand_masks != state.state.hand_masks
            if not deals:  # the history of the resampled state leads to it
                again = game.new_initial_state()
                for action in other.history():
                    again.apply_action(action)
                assert again.state == other.state
        state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0  # the hidden hands are dealt again, not copied


def test_resampling_before_the_deal_knows_nothing() -> None:
    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.is_chance_node() and other.history() == []


def test_openspiels_ismcts_plays_a_round_of_bendominoes() -> None:
    """OpenSpiel's own Python IS-MCTS, unchanged, through pyspiel (issue 16, point 1)."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("bendolib_basic", {"players": 2})
    random_state = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 10.0, 20, random_state=random_state),
        pyspiel.make_uniform_random_bot(1, 5),
    ]
    state = _dealt(game, random.Random(5))
    searched = 0
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        searched += player == 0 and len(state.legal_actions()) > 1
        state.apply_action(action)
    assert searched > 0 and sum(state.returns()) == pytest.approx(0.0)


def test_the_ismcts_bot_plays_matches_and_repeats_them() -> None:
    bot = adapter.ISMCTSBot(simulations=8)
    ruleset = rules.get("basic", target=20)
    first = play_match(ruleset, [bot, "greedy"], seed=2)
    again = play_match(ruleset, [adapter.ISMCTSBot(simulations=8), "greedy"], seed=2)
    assert first.moves == again.moves and first.final.is_game_over
    result = run_tournament(ruleset, [bot, "random"], 2, seed=1, executor=SerialExecutor())
    assert result.entrants == ("ismcts", "random") and len(result.records) == 2


def test_the_ismcts_bot_is_picklable_and_plays_a_changed_rule_set() -> None:
    import pickle

    bot = pickle.loads(pickle.dumps(adapter.ISMCTSBot(simulations=4, uct_c=3.0)))
    assert (bot.simulations, bot.uct_c) == (4, 3.0)
    ruleset = rules.get("all-five", target=10)
    state = bendolib.new_game(ruleset, 3, 4)
    moves = bendolib.legal_moves(state)
    move = bot.choose(state.observation(state.current_player), moves, random.Random(1))
    assert move in moves


def test_rl_environment_runs_an_episode() -> None:
    rl_environment = pytest.importorskip("open_spiel.python.rl_environment")
    env = rl_environment.Environment("bendolib_no_draw", players=2, deals=8)
    step = env.reset()
    rng = random.Random(1)
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == pytest.approx(0.0)


def test_negative_deals_are_refused() -> None:
    with pytest.raises(Exception, match="deals"):
        pyspiel.load_game("bendolib_basic", {"players": 2, "deals": -1})


# -- the triangle games (issue 15) ---------------------------------------------------------

TRIANGLE_DOMINOES, TRIOMINOES = TRIANGLE_RULESETS


@pytest.mark.parametrize(("ruleset", "players"), [(TRIANGLE_DOMINOES, 3), (TRIOMINOES, 2)])
def test_the_triangle_games_load_by_name_and_pass_random_simulation(
    ruleset: bendolib.RuleSet, players: int
) -> None:
    name = adapter.register(ruleset)  # registered by bendolib's registry once it names them
    assert name == adapter.game_name(ruleset.name) and name in pyspiel.registered_names()
    game = pyspiel.load_game(name, {"players": players})
    assert game.get_type().short_name == name
    assert game.num_distinct_actions() == action_count(ruleset) == 9803
    assert game.observation_tensor_size() == encoding_size(ruleset, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_triangle_deck_is_dealt_tile_by_tile() -> None:
    game = pyspiel.load_game(adapter.register(TRIOMINOES), {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(2)
    deck: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 56 - len(deck)
        deck.append(rng.choice([a for a, _ in outcomes]))
        state.apply_action(deck[-1])
    assert state.state == deal_from(TRIOMINOES, 2, tuple(deck))


def test_a_triangle_round_plays_with_encodings_and_information_states() -> None:
    """Every tensor is the encoding; the information state holds every move and cell."""
    game = pyspiel.load_game(adapter.register(TRIANGLE_DOMINOES), {"players": 2})
    fields = {n: (o, k) for n, o, k in adapter.infostate_fields(TRIANGLE_DOMINOES, 2)}
    state = _dealt(game, random.Random(6))
    rng = random.Random(6)
    played: list[tuple[int, int]] = []  # (seat, action) of every move applied
    while not state.is_terminal():
        player = state.current_player()
        obs = state.state.observation(player)
        assert list(state.observation_tensor(player)) == [float(v) for v in encode(obs)]
        tensor = state.information_state_tensor(player)
        offset, length = fields["history"]
        expected = [v for seat, action in played for v in ((seat - player) % 2 + 1, action + 1)]
        moves = [int(v) for v in tensor[offset : offset + length]]
        assert moves == expected + [0] * (length - len(expected))
        assert history_actions(TRIANGLE_DOMINOES, obs.history) == tuple(a for _, a in played)
        info = state.information_state_string(player)
        assert all(str(turn.move) in info for turn in obs.history)  # with their cells
        for action in state.legal_actions():
            described = state.action_to_string(player, action)
            move = state._held.moves()[action]
            assert str(getattr(move, "tile", move)) in described
        action = rng.choice(state.legal_actions())
        played.append((player, action))
        state.apply_action(action)
    assert len(played) > 10
    returns = state.returns()
    scores = state.state.scores  # one round from 0-0: the gains are the scores
    assert sum(returns) == pytest.approx(0.0)
    assert returns[0] - returns[1] == pytest.approx(scores[0] - scores[1])
    assert max(map(abs, returns)) <= game.max_utility()


def test_openspiels_mcts_plays_triangle_rounds() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts

    for ruleset in TRIANGLE_RULESETS:
        game = pyspiel.load_game(adapter.register(ruleset), {"players": 2})
        random_state = np.random.RandomState(3)
        evaluator = mcts.RandomRolloutEvaluator(1, random_state)
        bot = mcts.MCTSBot(game, 10.0, 3, evaluator, random_state=random_state)
        state = _dealt(game, random.Random(3))
        searched = 0
        while not state.is_terminal():
            if state.current_player() == 0 and searched < 8:
                action = bot.step(state)
                searched += 1
            else:
                action = random.Random(len(state.history())).choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert searched > 1 and sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize("ruleset", TRIANGLE_RULESETS, ids=lambda r: r.name)
def test_resample_from_infostate_on_a_triangle_game(ruleset: bendolib.RuleSet) -> None:
    game = pyspiel.load_game(adapter.register(ruleset), {"players": 3})
    rng = random.Random(8)
    sampler = random.Random(9).random
    state = _dealt(game, rng)
    for _ in range(12):
        if state.is_terminal():
            break
        for p in range(3):
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            again = game.new_initial_state()
            for action in other.history():
                again.apply_action(action)
            assert again.state == other.state
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiels_ismcts_and_the_ismcts_bot_play_a_triangle_round() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(adapter.register(TRIANGLE_DOMINOES), {"players": 2})
    random_state = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, 10.0, 4, random_state=random_state)
    state = _dealt(game, random.Random(5))
    searched = 0
    while not state.is_terminal():
        if state.current_player() == 0 and searched < 6:
            action = bot.step(state)
            searched += 1
        else:
            action = random.Random(len(state.history())).choice(state.legal_actions())
        state.apply_action(action)
    assert searched > 1
    match = play_match(TRIANGLE_DOMINOES, [adapter.ISMCTSBot(simulations=2), "greedy"], seed=4)
    assert match.final.is_game_over
