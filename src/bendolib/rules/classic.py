"""The classic domino games of the seeds (seeds/003, 004) on the straight line."""

from __future__ import annotations

from bendolib.geometry.straight import STRAIGHT_LINE
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import WinnerTakesPips
from bendolib.rules.starting import FixedSeat, HighestDouble, HolderOf
from bendolib.tiles import STANDARD_STRAIGHT, TileSet

#: The larger classic sets (55 and 91 tiles), for ``configure(tileset=...)``.
DOUBLE_NINE = TileSet.double(9, straight=True)
DOUBLE_TWELVE = TileSet.double(12, straight=True)

#: Seed 003: 2 players take 7 tiles, 3 or 4 players take 5.
CLASSIC_HANDS = {2: 7, 3: 5, 4: 5}
#: Seed 004's Draw Dominoes: 7 tiles each for 2 players ("if you are using 3 or 4
#: players, take just 5"), 5 for 3 or 4 (``hand_sizes`` changes it, e.g. to 6).
DRAW_HANDS = {2: 7, 3: 5, 4: 5}
#: Seed 004's domino by pairs: four players, 7 tiles each, partners opposite.
PAIRS_HANDS = {4: 7}
PAIRS_TEAMS = ((0, 2), (1, 3))

_HIGHEST_DOUBLE = HighestDouble(no_double="redeal")
# seeds/003 "must draw dominoes from the boneyard until he/she finds a suitable domino",
# seeds/004 "they keep drawing ... until they find one they can play": also when no
# tile off the board fits (the line is blocked) the stuck player takes the boneyard; the
# Bendomino sets' one-each drain is seeds/000's sentence (issue 21 point 1)
_UNTIL_FITS = DrawPolicy(
    when_stuck="until_fits", voluntary=False, must_play=True, when_blocked="as_stuck"
)
_DRAW_ONE = DrawPolicy(when_stuck="once", voluntary=False, must_play=True, when_blocked="as_stuck")
_NO_DRAW = DrawPolicy(when_stuck="never", voluntary=False)
_LOWEST_HAND = WinnerTakesPips(blocked_winner="lowest_seat", tie="nobody")

CLASSIC_DRAW = RuleSet(
    name="classic-draw",
    description=(
        "Seed 003: highest double leads, draw until a tile fits, first out or lowest "
        "blocked hand scores the others' pips, first to 100 (target=50: short game)."
    ),
    tileset=STANDARD_STRAIGHT,
    geometry=STRAIGHT_LINE,
    deal=Deal(CLASSIC_HANDS),
    start=_HIGHEST_DOUBLE,
    draw=_UNTIL_FITS,
    round_scoring=_LOWEST_HAND,
    match=Match(target=100),
)

CLASSIC_DRAW_ONE = CLASSIC_DRAW.configure(
    "classic-draw-one",
    draw=_DRAW_ONE,
    description="Seed 003's variation: a stuck player draws one tile, plays it if it fits.",
)

CLASSIC_BLOCK = CLASSIC_DRAW.configure(
    "classic-block",
    draw=_NO_DRAW,
    description="Seed 003 without the boneyard: a player who cannot play passes.",
)

DOMINO_PAIRS = CLASSIC_BLOCK.configure(
    "domino-pairs",
    deal=Deal(PAIRS_HANDS),
    start=HolderOf(6, 6),
    round_scoring=WinnerTakesPips(blocked_winner="lowest_side", tie="locker_loses"),
    match=Match(target=100, teams=PAIRS_TEAMS),
    description=(
        "Seed 004's domino by pairs: two teams of partners, the 6-6 opens, no drawing; "
        "a locked game goes to the team with fewer points (the locker's team loses a tie)."
    ),
)

DRAW_DOMINOES = CLASSIC_DRAW.configure(
    "draw-dominoes",
    deal=Deal(DRAW_HANDS),
    minus_own=True,
    description=(
        "Seed 004's Draw Dominoes: 7 tiles each for two, 5 for more; draw until "
        "playable; a blocked round "
        "goes to the fewest pips, who scores the others' pips minus their own."
    ),
)

FIRST_OUT = CLASSIC_DRAW.configure(
    "first-out",
    deal=Deal(DRAW_HANDS),
    win_points=1,
    target=1,
    description=(
        "Seed 004's simple game (picture dominoes): the first player to empty the hand "
        "wins; a blocked round goes to the fewest pips."
    ),
)

#: Every classic rule set, in registration order.
CLASSIC_RULESETS = (
    CLASSIC_DRAW,
    CLASSIC_DRAW_ONE,
    CLASSIC_BLOCK,
    DOMINO_PAIRS,
    DRAW_DOMINOES,
    FIRST_OUT,
)

#: classic-block as OpenSpiel's ``python_block_dominoes`` plays it: two players,
#: seat 0 opens with any tile (used by the anchor tests and benchmarks).
AS_OPENSPIEL_BLOCK = CLASSIC_BLOCK.configure(
    "classic-block/openspiel", start=FixedSeat(0), hand_sizes={2: 7}
)
#: domino-pairs as OpenSpiel's ``python_team_dominoes``: seat 0 opens with any tile,
#: and every round goes to the team with fewer points in hand (a tie scores nothing).
AS_OPENSPIEL_TEAM = DOMINO_PAIRS.configure(
    "domino-pairs/openspiel", start=FixedSeat(0), out_wins=False, tie="nobody"
)
#: domino-pairs as the ``dominoes`` package's Game scores it (6-6 opens): the winning
#: team takes every point left on the table, and a locked tie scores nothing.
AS_DOMINOES_PACKAGE = DOMINO_PAIRS.configure("domino-pairs/dominoes", takes="all", tie="nobody")
