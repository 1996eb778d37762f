"""The hypothesis strategies of ``bendolib.testing.strategies``: valid values, good shrinking."""

from __future__ import annotations

import attrs
from hypothesis import find, given, settings
from hypothesis import strategies as st

import bendolib
from bendolib import GameState, Move, RuleSet, TileSet, position_text, records
from bendolib.errors import RuleSetError
from bendolib.moves import Draw, NextRound, Pass, Place, PlaceInCell
from bendolib.observation import Observation
from bendolib.records import GameRecord
from bendolib.rules import DrawPolicy
from bendolib.testing import invariants
from bendolib.testing import strategies as bst
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, Tile


@given(bst.rulesets())
def test_rulesets_are_registered(rules: RuleSet) -> None:
    assert rules == bendolib.rules.get(rules.name)


@given(st.data())
def test_configured_rulesets_are_accepted_and_deal(data: st.DataObject) -> None:
    rules = data.draw(bst.rulesets(configured=True))
    base = bendolib.rules.get(rules.name)
    params = {k: v for k, v in rules.parameters().items() if v != base.parameters()[k]}
    assert base.configure(**params) == rules
    state = data.draw(bst.deals(rules))
    assert invariants.first_broken(state) is None


@given(st.data())
def test_ruleset_parameters_are_valid_for_configure(data: st.DataObject) -> None:
    rules = data.draw(bst.rulesets())
    params = data.draw(bst.ruleset_parameters(rules))
    assert set(params) <= set(rules.parameters())
    rules.configure(**params)


@given(bst.tilesets(max_top=9))
def test_tilesets_are_double_n_sets(tileset: TileSet) -> None:
    n = tileset.top + 1
    kinds = {t.bend for t in tileset.tiles if not t.is_double}
    if kinds <= {STRAIGHT} and n > 1:
        assert len(tileset) == n * (n + 1) // 2 and not tileset.curved
    elif len(tileset) == n * n:
        assert all(
            {(t.a, t.b, LEFT), (t.a, t.b, RIGHT)} <= {(u.a, u.b, u.bend) for u in tileset.tiles}
            for t in tileset.tiles
            if not t.is_double
        )
    else:
        assert len(tileset) == n * (n + 1) // 2
        assert kinds <= {LEFT, RIGHT}


@given(st.integers(1, 8).flatmap(lambda top: st.tuples(st.just(top), bst.bend_tables(top))))
def test_bend_tables_set_the_bends(pair: tuple[int, dict[tuple[int, int], int]]) -> None:
    top, table = pair
    tileset = TileSet.double(top, bends=table)
    assert {(t.a, t.b): t.bend for t in tileset.tiles if not t.is_double} == table


@given(bst.deals())
def test_deals_are_fresh_matches(state: GameState) -> None:
    assert state.round_number == 1 and not state.history and not any(state.scores)
    assert state.players in state.rules.player_counts
    assert bendolib.new_game(state.rules, state.players, state.seed) == state


@given(bst.game_states(max_moves=150))
def test_game_states_keep_the_invariants(state: GameState) -> None:
    assert invariants.first_broken(state) is None


@given(bst.states_and_moves(max_moves=100))
def test_states_and_moves_are_legal(pair: tuple[GameState, Move]) -> None:
    state, move = pair
    assert not state.is_game_over
    assert move in bendolib.legal_moves(state)


@given(st.data())
def test_illegal_moves_are_refused(data: st.DataObject) -> None:
    state = data.draw(bst.game_states(max_moves=60, allow_game_over=False))
    move = data.draw(bst.illegal_moves(state))
    assert move not in bendolib.legal_moves(state)


def test_game_states_shrink_to_short_early_games() -> None:
    """The smallest state three placements into a round: three moves of round 1 (which
    rule set it shrinks to is hypothesis' best effort: under load it may stop early)."""
    state = find(
        bst.game_states(),
        lambda s: sum(isinstance(t.move, bendolib.Place) for t in s.history) >= 3,
    )
    assert len(state.history) == 3
    assert state.round_number == 1


@given(bst.observations(max_moves=80))
def test_observations_are_a_seats_view(observation: Observation) -> None:
    assert 0 <= observation.player < observation.players
    assert len(observation.hand) == observation.hand_sizes[observation.player]


@given(bst.game_records(max_moves=80))
def test_game_records_replay(record: GameRecord) -> None:
    state = records.replay(record)
    assert records.record_of(state) == record


@given(bst.record_texts(max_moves=40), bst.position_texts(max_moves=40))
def test_texts_read_back(record: str, position: str) -> None:
    records.load(record)
    position_text.loads(position)


@given(bst.move_texts(max_moves=60))
def test_move_texts_parse(pair: tuple[GameState, str]) -> None:
    state, text = pair
    assert str(bendolib.parse_move(text, state)) == text


# -- what hypothesis users expect (issue 18) ---------------------------------------------------


@attrs.frozen
class Saved:
    """A user's own value with fields of bendolib's types (for ``st.builds``)."""

    state: GameState
    rules: RuleSet
    tile: Tile


attrs.resolve_types(Saved)  # string annotations (``from __future__ import annotations``)


@settings(max_examples=10, deadline=None)
@given(
    st.from_type(GameState),
    st.builds(Saved),
    st.from_type(Move),  # type: ignore[arg-type]  # a union alias
    st.from_type(Observation),
    st.from_type(TileSet),
)
def test_the_librarys_types_resolve_with_from_type(
    state: GameState, built: Saved, move: Move, seen: Observation, tileset: TileSet
) -> None:
    assert invariants.first_broken(state) is None
    assert isinstance(built.rules, RuleSet) and isinstance(built.tile, Tile)
    assert isinstance(move, Place | PlaceInCell | Draw | Pass | NextRound)
    assert 0 <= seen.player < seen.players
    assert len(tileset) >= 1


@settings(max_examples=20, deadline=None)
@given(
    bst.legal_moves(bst.game_states(max_moves=40, allow_game_over=False)),
    bst.illegal_moves(bst.game_states(max_moves=40, allow_game_over=False)),
)
def test_move_strategies_take_state_strategies(
    legal: tuple[GameState, Move], illegal: tuple[GameState, Move]
) -> None:
    state, move = legal
    assert move in bendolib.legal_moves(state)
    state, move = illegal
    assert move not in bendolib.legal_moves(state)


def test_a_rule_sets_repr_is_its_name_and_changes() -> None:
    for name in bendolib.rules.names():
        assert repr(bendolib.rules.get(name)) == f"RuleSet({name!r})"
    rules = bendolib.rules.get("draw-dominoes", opens=False, target=50)
    assert repr(rules) == "RuleSet('draw-dominoes', opens=False, target=50)"
    renamed = rules.configure("house", tileset=TileSet.double(9, straight=True))
    assert repr(renamed) == (
        "RuleSet('house', base='draw-dominoes', tileset=<double-9 straight>, opens=False, "
        "target=50)"
    )


@attrs.frozen
class BatchWithoutVoluntary(DrawPolicy):
    """A user's draw policy that rejects some combinations of its parameters."""

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        if self.batch > 1 and not self.voluntary:
            raise RuleSetError("a batch of draws needs voluntary draws in this house")


@given(st.data())
def test_parameters_a_rule_set_rejects_are_never_generated(data: st.DataObject) -> None:
    rules = bendolib.rules.get("basic").configure(draw=BatchWithoutVoluntary())
    params = data.draw(bst.ruleset_parameters(rules))
    configured = rules.configure(**params)
    assert not (configured.draw.batch > 1 and not configured.draw.voluntary)
