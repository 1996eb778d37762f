"""
Every surface that plays a whole match stops at a move bound (never a hang).

Some configured rules never end a match: Triominoes with high draw penalties
(``per_draw=10, pass_after_draws=20, pass_when_empty=6``) drive every score below zero
under random play and no score reaches the target (commit 75c96d0 bounded playouts at
``bendolib.playouts.MAX_MOVES``).  ``play_match``, tournaments, leagues, ``bendolib
simulate``/``league``/``play`` raise :class:`MatchTooLongError` at ``max_moves``; the
Gymnasium env truncates the episode.  Each test uses a small bound; a normal match is
played exactly as before (one more move than it needs is no bound at all).
"""

from __future__ import annotations

import io
import pickle
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import bendolib
from bendolib import league
from bendolib.cli import main
from bendolib.errors import ArgumentError, BendolibError
from bendolib.playouts import MAX_MOVES
from bendolib.rules.ruleset import RuleSet
from bendolib.tournament import (
    MatchTooLongError,
    SerialExecutor,
    play_match,
    run_tournament,
)

#: A bound small enough for a test (about 0.3 s of random play).
BOUND = 1500
RANDOM = ["random", "random"]


def endless() -> RuleSet:
    """Triominoes whose draws cost more than random play scores: no match ends."""
    return bendolib.rules.get("triominoes").configure(
        per_draw=10, pass_after_draws=20, pass_when_empty=6
    )


def test_the_default_bound_is_the_playouts_bound() -> None:
    assert MAX_MOVES == 200_000
    assert play_match.__kwdefaults__ == {"max_moves": MAX_MOVES}
    for function in (run_tournament, league.run_league):
        assert (function.__kwdefaults__ or {})["max_moves"] == MAX_MOVES


def test_an_endless_match_raises_naming_the_bound_the_rules_and_the_seeds() -> None:
    with pytest.raises(MatchTooLongError) as caught:
        play_match(endless(), RANDOM, seed=1, bot_seed=2, max_moves=BOUND)
    error = caught.value
    assert isinstance(error, BendolibError)
    text = str(error)
    assert "still going after 1,500 moves" in text and "may never end" in text
    assert "RuleSet('triominoes', per_draw=10, pass_after_draws=20, pass_when_empty=6)" in text
    assert "seed 1, bot seed 2" in text
    assert (error.max_moves, error.seed, error.bot_seed, error.match) == (BOUND, 1, 2, None)
    assert min(error.scores) < 0 and error.round_number > 1
    # it crosses a process pool's pipe whole, and names a tournament's match
    back = pickle.loads(pickle.dumps(error.in_match(7)))
    assert type(back) is MatchTooLongError and back.match == 7
    assert "match 7, seed 1" in str(back) and back.scores == error.scores


def test_a_finished_match_is_untouched_by_a_bound_it_does_not_reach() -> None:
    rules = bendolib.rules.get("basic", target=40)
    whole = play_match(rules, ["greedy", "random"], seed=3)
    moves = len(whole.moves)
    assert whole.final.is_game_over and moves > 10
    assert play_match(rules, ["greedy", "random"], seed=3, max_moves=moves) == whole
    with pytest.raises(MatchTooLongError, match=f"after {moves - 1} moves"):
        play_match(rules, ["greedy", "random"], seed=3, max_moves=moves - 1)


@pytest.mark.parametrize(("bound", "error"), [(0, ArgumentError), (-5, ArgumentError)])
def test_a_bound_below_one_is_refused(bound: int, error: type[Exception]) -> None:
    with pytest.raises(error, match="max_moves must be at least 1"):
        play_match("basic", RANDOM, seed=1, max_moves=bound)
    with pytest.raises(error, match="max_moves must be at least 1"):
        run_tournament("basic", RANDOM, 2, executor=SerialExecutor(), max_moves=bound)


def test_a_bound_that_is_not_an_int_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="max_moves is an int, not str"):
        play_match("basic", RANDOM, seed=1, max_moves="10")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_moves is an int, not bool"):
        play_match("basic", RANDOM, seed=1, max_moves=True)


@pytest.mark.parametrize("threads", [False, True])
def test_a_tournament_stops_with_the_error_naming_the_match(threads: bool) -> None:
    """As a failing bot's BotError does (docs/bots.md, "A failing bot")."""
    executor: Any = ThreadPoolExecutor(2) if threads else SerialExecutor()
    with executor, pytest.raises(MatchTooLongError, match=r"1,500 moves .*match \d+, seed"):
        run_tournament(endless(), RANDOM, 4, seed=1, executor=executor, max_moves=BOUND)


def test_a_league_stops_with_the_error_and_keeps_its_results_file(tmp_path: Path) -> None:
    path = tmp_path / "league.json"
    with pytest.raises(MatchTooLongError, match=r"1,500 moves .*match 0, seed"):
        league.run_league(
            endless(),
            ["random", "random", "random"],
            2,
            executor=SerialExecutor(),
            results=path,
            max_moves=BOUND,
        )
    assert league.load_results(path).records == ()


def test_the_normal_tournament_is_the_same_under_a_bound_it_does_not_reach() -> None:
    rules = bendolib.rules.get("basic", target=40)
    free = run_tournament(rules, ["greedy", "random"], 4, executor=SerialExecutor())
    longest = max(r.moves for r in free.records)
    bounded = run_tournament(
        rules, ["greedy", "random"], 4, executor=SerialExecutor(), max_moves=longest
    )
    assert bounded.records == free.records


ENDLESS_PARAMS = ["--param", "per_draw=10", "--param", "pass_after_draws=20"]
ENDLESS_PARAMS += ["--param", "pass_when_empty=6"]


@pytest.mark.parametrize("command", ["simulate", "league"])
def test_simulate_and_league_report_the_endless_match_and_exit_2(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, "--rules", "triominoes", *ENDLESS_PARAMS, "--bots", "random", "random"]
    argv += ["--games", "2", "--jobs", "1", "--quiet", "--max-moves", str(BOUND)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("bendolib: the match of RuleSet('triominoes', per_draw=10")
    assert "still going after 1,500 moves" in err and "may never end" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["simulate", "league", "play"])
def test_max_moves_must_be_a_positive_number(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--bots", "random", "--max-moves", "0"]) == 2
    assert "--max-moves: must be a positive number of moves, not '0'" in capsys.readouterr().err


def test_play_stops_at_the_bound_and_keeps_the_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The human's turns too: every answer is a move (here: the first one listed)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    record = tmp_path / "game.json"
    argv = ["play", "--rules", "triominoes", *ENDLESS_PARAMS, "--bots", "random"]
    argv += ["--seed", "4", "--max-moves", "300", "--record", str(record)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "game left unfinished after 300 moves" in captured.out
    assert "still going after 300 moves" in captured.err
    state = bendolib.records.replay(bendolib.records.load(record.read_text()))
    assert not state.is_game_over


def _moves_of(state: bendolib.GameState) -> int:
    """The moves of a match so far: every round's, and ``next`` between rounds."""
    return sum(len(h) for h in state.match_history) + state.round_number - 1


def _episode(env: Any, seed: int) -> tuple[list[float], bool, bool, Any]:
    """A masked random agent's episode: its rewards, terminated, truncated, last obs."""
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    rewards: list[float] = []
    while True:
        obs, reward, terminated, truncated, _ = env.step(
            rng.choice(np.flatnonzero(obs["action_mask"]))
        )
        rewards.append(reward)
        if terminated or truncated:
            return rewards, terminated, truncated, obs


def test_the_gymnasium_env_truncates_an_endless_match_at_max_moves() -> None:
    gym = pytest.importorskip("bendolib.adapters.gymnasium", exc_type=ImportError)
    env = gym.BendolibGymEnv(endless(), opponents="random", episode="match", max_moves=600)
    _, terminated, truncated, obs = _episode(env, 1)
    assert truncated and not terminated
    state = env.game_state
    assert not state.is_game_over and _moves_of(state) == 600 and min(state.scores) < 0
    assert not obs["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(bendolib.errors.IllegalMoveError, match="call reset"):
        env.step(0)
    assert env.reset(seed=2)[0]["action_mask"].any()  # a new episode starts as usual


def test_a_normal_gymnasium_episode_is_untouched_by_a_bound_it_does_not_reach() -> None:
    gym = pytest.importorskip("bendolib.adapters.gymnasium", exc_type=ImportError)
    env = gym.BendolibGymEnv("basic", opponents="greedy", episode="match")
    assert env.max_moves == MAX_MOVES
    rewards, terminated, truncated, _ = _episode(env, 3)
    assert terminated and not truncated
    moves = _moves_of(env.game_state)
    exact = gym.BendolibGymEnv("basic", opponents="greedy", episode="match", max_moves=moves)
    assert _episode(exact, 3)[:3] == (rewards, True, False)
    short = gym.BendolibGymEnv("basic", opponents="greedy", episode="match", max_moves=moves - 1)
    cut, terminated, truncated, _ = _episode(short, 3)
    # the same episode, cut before the match's last move: the last round gives no reward
    assert (terminated, truncated) == (False, True) and len(cut) == len(rewards)
    assert cut[:-1] == rewards[:-1] and (cut[-1], rewards[-1]) == (0.0, -6.0)


def test_the_gymnasium_env_refuses_a_bound_reached_before_the_agent_plays() -> None:
    gym = pytest.importorskip("bendolib.adapters.gymnasium", exc_type=ImportError)
    with pytest.raises(ArgumentError, match="max_moves must be at least 1"):
        gym.BendolibGymEnv("basic", max_moves=0)
    with pytest.raises(TypeError, match="max_moves is an int"):
        gym.BendolibGymEnv("basic", max_moves=1.5)
    env = gym.BendolibGymEnv("basic", seat=1, max_moves=1)  # seat 0 opens
    with pytest.raises(ArgumentError, match="before the agent's first decision"):
        env.reset(seed=1)


def _spiel_length(game: Any, chance: Any, seed: int) -> tuple[int, Any]:
    """Actions to the end of a round of ``game`` (``chance(state)`` picks each outcome)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    length = 0
    while not state.is_terminal() and length <= game.max_game_length():
        chosen = chance(state, rng) if state.is_chance_node() else None
        state.apply_action(rng.choice(state.legal_actions()) if chosen is None else chosen)
        length += 1
    return length, state


def test_openspiel_max_game_length_bounds_a_deal_refused_again_and_again() -> None:
    """
    Before: a start policy refusing every deck dealt tile by tile (hands without a
    double, each with a positive chance) went past max_game_length, and on for ever.
    """
    pyspiel = pytest.importorskip("pyspiel")
    from bendolib.adapters.openspiel import REDEALS

    game = pyspiel.load_game("bendolib_classic_draw", {"players": 2})
    tiles = game.rules.tileset.tiles
    plain = [i for i, t in enumerate(tiles) if t.a != t.b]

    def no_double_in_hands(state: Any, rng: random.Random) -> int:
        left = [o for o, _ in state.chance_outcomes()]
        hands = len(tiles) - len(left) < 14  # two hands of 7 are dealt first
        return int(min(o for o in left if o in plain) if hands else left[0])

    length, state = _spiel_length(game, no_double_in_hands, 1)
    assert state.is_terminal() and length <= game.max_game_length()
    history = state.history()
    assert len(history) == length and history[: len(tiles)] == history[len(tiles) : 2 * len(tiles)]
    dealt = state.state
    assert dealt is not None and len(history) - len(dealt.history) == len(tiles) * (1 + REDEALS)
    assert bendolib.new_game(game.rules, 2, dealt.seed).deck == dealt.deck  # a seed's deal


@pytest.mark.parametrize("rules", ["basic", "classic-draw", "triominoes", "endless"])
def test_openspiel_rounds_stay_within_max_game_length(rules: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from bendolib.adapters.openspiel import BendolibGame

    ruleset = endless() if rules == "endless" else bendolib.rules.get(rules)
    game = BendolibGame({"players": 2}, rules=ruleset)
    assert isinstance(game, pyspiel.Game)

    def uniform(state: Any, rng: random.Random) -> int:
        return int(rng.choice([o for o, _ in state.chance_outcomes()]))

    for seed in range(3):
        length, state = _spiel_length(game, uniform, seed)
        assert state.is_terminal() and length <= game.max_game_length()


def test_the_vector_env_truncates_a_match_at_max_moves() -> None:
    """A target no match reaches in practice (10**9 points): cut at ``max_moves``."""
    gym = pytest.importorskip("bendolib.adapters.gymnasium", exc_type=ImportError)
    np = pytest.importorskip("numpy")
    rules = bendolib.rules.get("basic", target=10**9)
    try:
        env = gym.BendolibVectorEnv(2, rules, opponents="random", episode="match", max_moves=300)
    except bendolib.errors.RuleSetError as exc:  # no compiled kernel
        pytest.skip(str(exc))
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(400):
        actions = [rng.choice(np.flatnonzero(row)) for row in obs["action_mask"]]
        obs, _, terminated, truncated, info = env.step(np.array(actions))
        assert not terminated.any()
        if truncated.any():
            break
    assert truncated.any() and info["_final_obs"].tolist() == truncated.tolist()


def test_the_demo_stops_at_the_bound_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It plays registered rule sets only, whose matches end; the bound is shown small."""
    monkeypatch.setattr("bendolib.cli.MAX_MOVES", 30)
    assert main(["demo", "--seed", "2"]) == 2
    assert "still going after 30 moves" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(["demo", "--seed", "2"]) == 0


@pytest.mark.parametrize("batch", [False, True])
def test_selfplay_stops_at_the_bound_naming_the_game_and_keeps_finished_shards(
    tmp_path: Path, batch: bool
) -> None:
    """
    Self-play, played match by match or in the batch: the endless match raises
    :class:`MatchTooLongError` naming the game; the shards finished before it are written.
    """
    pytest.importorskip("numpy")
    from bendolib.selfplay import selfplay

    if batch:  # the batch takes no draw penalties: a target no match reaches in practice
        rules = bendolib.rules.get("basic", target=10**9)
        from bendolib.vector import unsupported_reason

        if unsupported_reason(rules, 2) is not None:
            pytest.skip("no compiled kernel")
        bound, games, shard = 300, 1, 1
    else:
        rules, bound, games, shard = endless(), BOUND, 1, 1
    out = tmp_path / "play"
    with pytest.raises(MatchTooLongError, match=f"after {bound:,} moves") as caught:
        selfplay(
            rules,
            RANDOM,
            games,
            out,
            seed=3,
            shard_games=shard,
            file_format="npz",
            batch=batch,
            max_moves=bound,
        )
    assert caught.value.match == 0 and caught.value.max_moves == bound
    assert (out / "_selfplay.json").exists()


def test_selfplay_cli_reports_the_endless_match_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bendolib selfplay --max-moves``: one line, exit 2, as ``simulate``."""
    pytest.importorskip("numpy")
    argv = ["selfplay", "--rules", "triominoes", *ENDLESS_PARAMS, "--bots", "random", "random"]
    argv += ["--games", "1", "--out", str(tmp_path / "cli"), "--format", "npz"]
    argv += ["--jobs", "1", "--quiet", "--max-moves", str(BOUND)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "still going after 1,500 moves" in err and "match 0" in err
    assert err.count("\n") == 1


def test_selfplay_under_a_bound_it_does_not_reach_is_unchanged(tmp_path: Path) -> None:
    """The bound changes nothing in a match that ends before it."""
    pytest.importorskip("numpy")
    from bendolib.selfplay import load, selfplay

    for name, bound in (("a", MAX_MOVES), ("b", 10_000)):
        selfplay("basic", RANDOM, 3, tmp_path / name, seed=4, file_format="npz", max_moves=bound)
    first, second = load(tmp_path / "a"), load(tmp_path / "b")
    assert first.keys() == second.keys()
    assert all((first[k] == second[k]).all() for k in first)
