"""The OpenSpiel adapter (issues 5 and 16): bendolib rule sets as pyspiel games."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel: Any = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

import bendolib  # noqa: E402
from bendolib import rules  # noqa: E402
from bendolib.adapters import openspiel as adapter  # noqa: E402
from bendolib.encoding import action_index, encode, encoding_size  # noqa: E402
from bendolib.engine import deal_from  # noqa: E402
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
