"""The Bendomino variants of the seeds (seeds/000, 001, 002), composed from policies."""

from __future__ import annotations

import attrs

from bendolib.geometry.bend import BEND
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.effects import FaceEffects, NextDraws, Reverse
from bendolib.rules.match import Match
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import EndsMultiple, FinishingOrder, HighestPlayScore, WinnerTakesPips
from bendolib.rules.starting import HighestDouble
from bendolib.tiles import ARROW, LEFT, PLUS, RIGHT, STANDARD, STAR, Tile, TileSet

#: Hand sizes of the basic rules: 7 / 6 / 5 for 2 / 3 / 4 players.
BASIC_HANDS = {2: 7, 3: 6, 4: 5}

BASIC = RuleSet(
    name="basic",
    description="Basic Bendominoes: draw one when stuck (or by choice), first to 100.",
    tileset=STANDARD,
    geometry=BEND,
    deal=Deal(BASIC_HANDS),
    start=HighestDouble(),
    draw=DrawPolicy(when_stuck="once", voluntary=True, must_play=False),
    round_scoring=WinnerTakesPips(),
    match=Match(target=100),
)

#: Partners sit opposite each other: seats 0 and 2 against seats 1 and 3.
OPPOSITE_PARTNERS = ((0, 2), (1, 3))

WILD_DRAW = BASIC.configure(
    "wild-draw",
    when_stuck="until_fits",
    description="Wild Draw: a player without a fitting tile draws until one fits.",
)

NO_DRAW = BASIC.configure(
    "no-draw",
    when_stuck="never",
    voluntary=False,
    description="No Draw: a player without a fitting tile passes; the stock stays out.",
)

NO_DRAW_TEAMS = NO_DRAW.configure(
    "no-draw-teams",
    hand_sizes={4: 7},
    teams=OPPOSITE_PARTNERS,
    description="No Draw for 2 teams of 2: 7 tiles each, no stock, team scores to 100.",
)

ALL_FIVE = attrs.evolve(
    BASIC.configure(
        "all-five",
        table_tiles=2,
        opens=False,
        target=200,
        description="All Five: four open ends; score them when they add up to a multiple of 5.",
    ),
    play_scoring=EndsMultiple(5),
    round_scoring=HighestPlayScore(),
)

#: Bendo All In's points by finishing place, for 2, 3 and 4 players.
ALL_IN_PLACES = {2: (40, 0), 3: (40, 20, 0), 4: (40, 20, 10, 0)}

ALL_IN = attrs.evolve(
    WILD_DRAW,
    name="bendo-all-in",
    description="Bendo All In: Wild Draw played until one player is left; 40/20/10/0 a place.",
    finish="last_one_left",
    round_scoring=FinishingOrder(ALL_IN_PLACES, tie="share"),
)

ALL_IN_TEAMS = ALL_IN.configure(
    "bendo-all-in-teams",
    hand_sizes={4: 5},
    teams=OPPOSITE_PARTNERS,
    table={4: (30, 20, 10, 0)},
    description="Bendo All In for 2 teams of 2: 30/20/10/0 a place to the team, first to 100.",
)

ALL_IN_CARIBBEAN = ALL_IN_TEAMS.configure(
    "bendo-all-in-caribbean",
    hand_sizes={4: 7},
    description="Bendo All In teams, Caribbean style: 7 tiles each and no stock.",
)

#: The optional action tiles: one arrow, one plus and one wild star turning each
#: way, each with a number on its other face (1 to 6, once each).
ACTION_TILES = (
    Tile(ARROW, 2, LEFT),
    Tile(ARROW, 5, RIGHT),
    Tile(PLUS, 1, RIGHT),
    Tile(PLUS, 4, LEFT),
    Tile(STAR, 3, LEFT),
    Tile(STAR, 6, RIGHT),
)

#: The 28 standard tiles and the six action tiles.
ACTION_SET = TileSet("double-6 curved + actions", STANDARD.tiles + ACTION_TILES)

#: What the action faces do: an arrow reverses the order of play, a plus makes the
#: next player draw one tile (the star is wild: see ``wild_faces``).
ACTION_EFFECTS = FaceEffects({ARROW: Reverse(), PLUS: NextDraws(1)})


def with_actions(rules: RuleSet, name: str | None = None) -> RuleSet:
    """``rules`` played with the action tiles: wild stars, arrows and pluses."""
    plain = rules.configure(
        name or f"{rules.name}-actions",
        tileset=ACTION_SET,
        wild_faces={STAR},
        description=f"{rules.description} With the action tiles (arrow, plus, wild star).",
    )
    return attrs.evolve(plain, effects=ACTION_EFFECTS)


ALL_IN_ACTIONS = with_actions(ALL_IN)

#: Every Bendomino rule set, in registration order.
BENDOMINO_RULESETS = (
    BASIC,
    WILD_DRAW,
    NO_DRAW,
    NO_DRAW_TEAMS,
    ALL_FIVE,
    ALL_IN,
    ALL_IN_TEAMS,
    ALL_IN_CARIBBEAN,
    ALL_IN_ACTIONS,
)
