"""The Bendomino variants of the seeds (seeds/000, 001, 002), composed from policies."""

from __future__ import annotations

from bendolib.geometry.bend import BEND
from bendolib.rules.dealing import Deal
from bendolib.rules.drawing import DrawPolicy
from bendolib.rules.match import Match
from bendolib.rules.ruleset import RuleSet
from bendolib.rules.scoring import WinnerTakesPips
from bendolib.rules.starting import HighestDouble
from bendolib.tiles import STANDARD

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
