"""The rules engine: deal, legal moves and state transitions, for any RuleSet."""

from __future__ import annotations

import attrs

from bendolib.errors import IllegalMoveError, RuleSetError
from bendolib.geometry.board import Board
from bendolib.moves import DRAW, NEXT_ROUND, OPENING, PASS, Draw, Move, NextRound, Pass, Place
from bendolib.rng import SplitMix64, derive_seed
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import RoundOutcome
from bendolib.state import GAME_OVER, ROUND_OVER, GameState, RoundResult, Turn, _Link
from bendolib.tiles import LEFT, RIGHT, STRAIGHT, indices

_MAX_REDEALS = 1000
_EMPTY = Board()


def new_game(rules: RuleSet, players: int = 2, seed: int = 0) -> GameState:
    """A new match: the first round dealt from ``seed`` (same seed, same game)."""
    if players not in rules.player_counts:
        raise RuleSetError(
            f"{rules.name} is for {', '.join(map(str, rules.player_counts))} players, not {players}"
        )
    zero = (0,) * players
    return _deal(rules, players, seed, 1, zero, ())


def _deal(
    rules: RuleSet,
    players: int,
    seed: int,
    round_number: int,
    scores: tuple[int, ...],
    results: tuple[RoundResult, ...],
) -> GameState:
    tileset = rules.tileset
    size = rules.deal.hand_size(players)
    for attempt in range(_MAX_REDEALS):
        deck = SplitMix64(derive_seed(seed, round_number, attempt)).shuffled(range(len(tileset)))
        hands = []
        for p in range(players):
            mask = 0
            for i in deck[p * size : (p + 1) * size]:
                mask |= 1 << i
            hands.append(mask)
        decision = rules.start.choose(tileset, tuple(hands), round_number)
        if not decision.redeal:
            break
    else:
        raise RuleSetError(f"{rules.name}: no valid deal in {_MAX_REDEALS} shuffles")
    pos = players * size
    table = deck[pos : pos + rules.deal.table_tiles]
    pos += len(table)
    board = _EMPTY
    if table:
        board = rules.geometry.open([(tileset.tiles[i], tileset.tiles[i].a) for i in table])
    return GameState(
        rules=rules,
        players=players,
        seed=seed,
        round_number=round_number,
        deck=deck,
        stock_pos=pos,
        hand_masks=tuple(hands),
        board=board,
        current_player=decision.player,
        scores=scores,
        opening=decision.opening,
        play_points=(0,) * players,
        results=results,
    )


# -- legal moves ---------------------------------------------------------------------


def _opening_move(state: GameState) -> Place:
    tile = state.rules.tileset.tiles[state.opening]
    placed = state.rules.geometry.open([(tile, tile.a)]).placements[0]
    return Place(tile, OPENING, placed.inward, placed.shows, placed.turn, placed.position)


def placements(state: GameState, mask: int) -> list[Place]:
    """
    Every placement of a tile of ``mask`` on the board, in a fixed order:
    by end, then tile index, then inward face, named value and turn.
    """
    rules = state.rules
    tileset = rules.tileset
    tiles = tileset.tiles
    wild = rules.wild_faces
    wild_mask = 0
    for face in wild:
        wild_mask |= tileset.with_face(face)
    bends = rules.geometry.uses_bends
    values = range(tileset.top + 1)
    out: list[Place] = []
    for e, end in enumerate(state.board.ends):
        if not end.free:
            continue
        value = end.value
        cand = mask & (tileset.with_face(value) | wild_mask)
        for i in indices(cand):
            tile = tiles[i]
            faces = (tile.a,) if tile.a == tile.b else (tile.a, tile.b)
            for inward in faces:
                if inward != value and inward not in wild:
                    continue
                outward = tile.other(inward) if tile.a != tile.b else inward
                shown = values if outward in wild else (outward,)
                if bends:
                    allowed = end.free & tile.turn_from(inward)
                    for shows in shown:
                        if allowed & LEFT:
                            out.append(Place(tile, e, inward, shows, LEFT, end.left))
                        if allowed & RIGHT:
                            out.append(Place(tile, e, inward, shows, RIGHT, end.right))
                else:
                    for shows in shown:
                        out.append(Place(tile, e, inward, shows, STRAIGHT, None))
    return out


def can_place(state: GameState, mask: int) -> bool:
    """True if some tile of ``mask`` can be placed on the board."""
    if not mask:
        return False
    rules = state.rules
    tileset = rules.tileset
    wild = rules.wild_faces
    wild_mask = 0
    for face in wild:
        wild_mask |= tileset.with_face(face)
    bends = rules.geometry.uses_bends
    for end in state.board.ends:
        if not end.free:
            continue
        cand = mask & (tileset.with_face(end.value) | wild_mask)
        if not cand:
            continue
        if not bends:
            return True
        for i in indices(cand):
            tile = tileset.tiles[i]
            for inward in (tile.a, tile.b):
                if (inward == end.value or inward in wild) and end.free & tile.turn_from(inward):
                    return True
    return False


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """
    Every legal move of the player to move, in a deterministic order
    (placements first, then draw, then pass).
    """
    if state.phase == GAME_OVER:
        return ()
    if state.phase == ROUND_OVER:
        return (NEXT_ROUND,)
    if state.opening >= 0:
        return (_opening_move(state),)
    hand = state.hand_masks[state.current_player]
    draw = state.rules.draw
    if state.drawn:
        places = placements(state, hand & state.drawn)
        if not places:
            return (DRAW,)
        if draw.must_play:
            return tuple(places)
        return (*places, PASS)
    places = placements(state, hand)
    if _may_draw(state, bool(places)):
        return (*places, DRAW)
    if places:
        return tuple(places)
    return (PASS,)


def _may_draw(state: GameState, can_play: bool) -> bool:
    draw = state.rules.draw
    return draw.draws and state.stock_pos < len(state.deck) and (draw.voluntary or not can_play)


# -- applying moves ------------------------------------------------------------------


def apply(state: GameState, move: Move) -> GameState:
    """
    The state after ``move``; ``state`` is left unchanged.

    Raises :class:`IllegalMoveError` for a move not in ``legal_moves(state)``.
    """
    legal = legal_moves(state)
    if move not in legal:
        raise IllegalMoveError(move, why_illegal(state, move), legal)
    if isinstance(move, NextRound):
        return _deal(
            state.rules,
            state.players,
            state.seed,
            state.round_number + 1,
            state.scores,
            state.results,
        )
    logged = attrs.evolve(state, log=_Link(Turn(state.current_player, move), state.log))
    if isinstance(move, Place):
        return _place(logged, move)
    if isinstance(move, Draw):
        return _draw(logged)
    return _end_turn(logged)


def _place(state: GameState, move: Place) -> GameState:
    rules = state.rules
    player = state.current_player
    index = rules.tileset.index(move.tile)
    if move.end == OPENING:
        board = rules.geometry.open([(move.tile, move.inward)])
    else:
        board = rules.geometry.place(
            state.board, move.end, move.tile, move.inward, move.shows, move.turn
        )
    hands = list(state.hand_masks)
    hands[player] &= ~(1 << index)
    scores = state.scores
    play_points = state.play_points
    if rules.play_scoring is not None:
        gained = rules.play_scoring.score(board.values)
        if gained:
            scores = _add(scores, player, gained)
            play_points = _add(play_points, player, gained)
    out = state.out + (player,) if not hands[player] else state.out
    placed = attrs.evolve(
        state,
        board=board,
        hand_masks=tuple(hands),
        scores=scores,
        play_points=play_points,
        out=out,
        opening=-1,
        drawn=0,
        drawn_count=0,
        last_placer=player,
    )
    if not hands[player]:
        if rules.finish == "first_out":
            return _finish_round(placed, blocked=False)
        if sum(1 for h in hands if h) <= 1:
            return _finish_round(placed, blocked=False)
    return _end_turn(placed)


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return tuple(v + amount if i == index else v for i, v in enumerate(values))


def _draw(state: GameState) -> GameState:
    draw = state.rules.draw
    player = state.current_player
    limit = draw.batch
    if draw.max_per_turn is not None:
        limit = min(limit, draw.max_per_turn - state.drawn_count)
    taken = state.deck[state.stock_pos : state.stock_pos + limit]
    mask = 0
    for i in taken:
        mask |= 1 << i
    hands = list(state.hand_masks)
    hands[player] |= mask
    drawn = attrs.evolve(
        state,
        hand_masks=tuple(hands),
        stock_pos=state.stock_pos + len(taken),
        drawn=state.drawn | mask,
        drawn_count=state.drawn_count + len(taken),
    )
    if can_place(drawn, hands[player] & drawn.drawn):
        return drawn
    stuck = not can_place(drawn, hands[player] & ~drawn.drawn)
    more = draw.max_per_turn is None or drawn.drawn_count < draw.max_per_turn
    if draw.when_stuck == "until_fits" and stuck and more and drawn.stock_pos < len(drawn.deck):
        return drawn
    return _end_turn(drawn)


def _blocked(state: GameState) -> bool:
    """True when no player still holding tiles can place one and no one can draw."""
    if state.rules.draw.draws and state.stock_pos < len(state.deck):
        return False
    return not any(h and can_place(state, h) for h in state.hand_masks)


def _end_turn(state: GameState) -> GameState:
    if _blocked(state):
        return _finish_round(state, blocked=True)
    players = state.players
    seat = state.current_player
    for _ in range(players):
        seat = (seat + state.direction) % players
        if state.hand_masks[seat]:
            break
    return attrs.evolve(state, current_player=seat, drawn=0, drawn_count=0)


def _finish_round(state: GameState, blocked: bool) -> GameState:
    rules = state.rules
    tileset = rules.tileset
    hand_points = tuple(tileset.mask_points(h) for h in state.hand_masks)
    sides = rules.match.sides(state.players)
    outcome = RoundOutcome(
        sides, hand_points, state.out, blocked, state.last_placer, state.play_points
    )
    score = rules.round_scoring.score(outcome)
    scores = tuple(a + b for a, b in zip(state.scores, score.points, strict=True))
    result = RoundResult(
        state.round_number, blocked, state.out, hand_points, score.points, score.winners
    )
    side_scores = [sum(scores[s] for s in side) for side in sides]
    winner = rules.match.winner(side_scores)
    return attrs.evolve(
        state,
        scores=scores,
        results=state.results + (result,),
        phase=GAME_OVER if winner is not None else ROUND_OVER,
        match_winner=-1 if winner is None else winner,
        drawn=0,
        drawn_count=0,
    )


# -- explaining illegal moves --------------------------------------------------------


def why_illegal(state: GameState, move: Move) -> str:
    """A short reason why ``move`` is not legal in ``state``."""
    if state.phase == GAME_OVER:
        return "the game is over"
    if state.phase == ROUND_OVER:
        return "the round is over: the only move is 'next'"
    if isinstance(move, NextRound):
        return "the round is not over"
    player = state.current_player
    hand = state.hand_masks[player]
    if isinstance(move, Draw):
        if not state.rules.draw.draws:
            return f"{state.rules.name} has no drawing"
        if state.stock_pos >= len(state.deck):
            return "the stock is empty"
        if state.opening >= 0:
            return "the round must open with its starting tile"
        if state.drawn:
            return "a drawn tile fits: play it or pass"
        return "a player who can place a tile may not draw in this rule set"
    if isinstance(move, Pass):
        if state.drawn and state.rules.draw.must_play:
            return "a drawn tile that fits must be played"
        return "a player who can place or draw may not pass"
    assert isinstance(move, Place)
    return _why_place_illegal(state, move, hand)


def _why_place_illegal(state: GameState, move: Place, hand: int) -> str:
    tileset = state.rules.tileset
    player = state.current_player
    try:
        index = tileset.index(move.tile)
    except LookupError:
        return f"{move.tile} is not in the tile set"
    if not hand >> index & 1:
        return f"{move.tile} is not in player {player}'s hand"
    if state.opening >= 0:
        if index != state.opening:
            return f"the round opens with {tileset.tiles[state.opening]}"
        return "the opening tile is laid in the centre as listed"
    if state.drawn and not state.drawn >> index & 1:
        return "after drawing, only a drawn tile may be placed"
    ends = state.board.ends
    if not 0 <= move.end < len(ends):
        return f"there is no open end {move.end} (ends: 0..{len(ends) - 1})"
    end = ends[move.end]
    if move.inward not in (move.tile.a, move.tile.b):
        return f"{move.tile} has no face {move.inward}"
    if move.inward != end.value and move.inward not in state.rules.wild_faces:
        return f"end {move.end} shows {end.value}, not {move.inward}"
    if state.rules.geometry.connected(state.board, move.end):
        return f"end {move.end} is closed: both ends of the chain meet"
    if not end.free:
        return f"end {move.end} is a dead end"
    if state.rules.geometry.uses_bends:
        if not move.tile.turn_from(move.inward) & move.turn:
            return f"{move.tile} read from {move.inward} does not turn that way"
        if not end.free & move.turn:
            return f"the position turning that way at end {move.end} is occupied"
    return "the placement does not match the listed one (turn, position or named value)"
