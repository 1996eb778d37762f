# ruff: noqa: E501 - the position texts are one line each, as position_text writes them
"""
The library's own rule pages as scenarios (:class:`~bendolib.testing.scenarios.Scenario`):
each is a position from a game of the registered rule set, a move, and what the
sentence of the rules it cites says must follow.  The sources are the rules texts in
``seeds/`` (the user's seeds) and the rule pages in ``docs/rules/``.

Copy them for a variant that keeps those rules::

    from bendolib.testing.scenarios import check_scenarios
    from bendolib.testing.rule_scenarios import SCENARIOS, for_rule_set

    check_scenarios(for_rule_set("basic"), rules=my_variant).raise_for_violation()

The positions were found in seeded random games and written with
``position_text.dumps``; the expectations are what the sentence says for them.
"""

from __future__ import annotations

from bendolib.testing.scenarios import Scenario

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "The winner of a round scores the dot points from all opponents' remaining Bendominoes.",
        "seeds/000_92ddef32c2766681.txt",
        "basic players=3 seed=0 round=1 turn=0 scores=0,0,0 hands=0-4L/0-0,0-5R,1-2L,2-5R/0-6R,1-6R,2-4L deck=1-1,5-6L,6-6,3-4L,5-5,0-2L,2-5R,2-6L,3-3,3-6R,3-5L,0-0,0-1L,1-3L,0-6R,1-5L,0-3R,4-6L,1-4R,0-4L,1-2L,2-3L,4-4,4-5L,2-2,1-6R,0-5R,2-4L|- board=6-6*,6-2@0R,6-4@1R,2-0@0R,0-1@0L,1-4@0R,4-5@0L,5-5@0R,5-6@0L,6-3@0L,3-1@0R,1-1@0L,1-5@0L,4-4@1L,5-3@0R,4-3@1R,3-3@1R,3-2@0R,2-2@0L,3-0@1L last=2",
        "0-4@1L",
        gained=(34, 0, 0),
        outcome="round over",
        blocked=False,
        winners=(0,),
        name="basic: going out",
    ),
    Scenario(
        "No pieces can be played BY ANY PLAYER and you have the lowest point total.",
        "seeds/000_92ddef32c2766681.txt",
        "basic players=2 seed=0 round=4 turn=0 scores=12,26 hands=0-4L,1-2L,4-4/1-6R,3-3,4-6L deck=5-6L,0-1L,1-1,3-5L,0-6R,2-2,4-5L,0-2L,2-5R,4-6L,2-3L,1-5L,1-3L,1-4R,3-6R,0-0,0-5R,4-4,1-6R,2-6L,1-2L,6-6,0-4L,3-3,2-4L,3-4L,0-3R,5-5|- board=2-2*,2-0@1R,2-5@0R,5-4@0R,0-1@1L,4-1@0L,1-1@1R,1-3@0L,3-6@0R,6-0@0L,1-5@1L,5-6@1L,0-0@0R,6-6@1R,0-5@0R,6-2@1R,2-3@1L,3-0@1L,5-5@0L,5-3@0R,3-4@0L,4-2@0R results=[[1,0,[0],[0,4],[4,0],[0]],[2,0,[1],[26,0],[0,26],[1]],[3,0,[0],[0,8],[8,0],[0]]] last=0",
        "2-1@0R",
        gained=(23, 0),
        outcome="round over",
        blocked=True,
        winners=(0,),
        name="basic: blocked round",
    ),
    Scenario(
        "Taking turns in a clockwise direction, each player tries to match a Bendomino by number to either end of the Bendomino chain.",
        "seeds/000_92ddef32c2766681.txt",
        "basic players=4 seed=0 round=1 turn=1 scores=0,0,0,0 hands=1-1,3-4L,5-5,5-6L/0-2L,2-5R,2-6L,3-3,3-6R/0-0,0-1L,0-6R,1-3L,3-5L/0-3R,0-4L,1-4R,1-5L,4-6L deck=1-1,5-6L,6-6,3-4L,5-5,0-2L,2-5R,2-6L,3-3,3-6R,3-5L,0-0,0-1L,1-3L,0-6R,1-5L,0-3R,4-6L,1-4R,0-4L|1-2L,2-3L,4-4,4-5L,2-2,1-6R,0-5R,2-4L board=6-6* last=0",
        "6-2@0R",
        gained=(0, 0, 0, 0),
        next_player=2,
        outcome="play",
        name="basic: clockwise",
    ),
    Scenario(
        "If the piece they draw can be played, they can immediately play it.",
        "seeds/000_92ddef32c2766681.txt",
        "basic players=3 seed=0 round=1 turn=2 scores=0,0,0 hands=0-4L,1-1,3-4L,4-4,5-5,5-6L/0-0,1-2L,2-5R,3-3,3-5L,3-6R/0-3R,0-6R,1-3L,1-5L,2-3L deck=1-1,5-6L,6-6,3-4L,5-5,0-2L,2-5R,2-6L,3-3,3-6R,3-5L,0-0,0-1L,1-3L,0-6R,1-5L,0-3R,4-6L,1-4R,0-4L,1-2L,2-3L,4-4|4-5L,2-2,1-6R,0-5R,2-4L board=6-6*,6-2@0R,6-4@1R,2-0@0R,0-1@0L,1-4@0R last=1",
        "draw",
        gained=(0, 0, 0),
        next_player=2,
        outcome="play",
        name="basic: play the drawn tile",
    ),
    Scenario(
        "The First player to score 100 points wins the game.",
        "seeds/000_92ddef32c2766681.txt",
        "basic players=2 seed=0 round=8 turn=0 scores=71,99 hands=2-5R,3-3/2-2 deck=0-2L,1-5L,3-6R,4-5L,3-5L,0-1L,2-3L,0-0,0-3R,3-4L,2-4L,5-5,0-5R,1-3L,2-6L,2-5R,1-6R,4-4,0-6R,4-6L,6-6,5-6L,0-4L,2-2,1-1,1-2L,1-4R,3-3|- board=5-5*,5-4@0R,4-2@0R,5-1@1R,2-3@0L,1-3@1L,3-5@0L,3-0@1L,0-0@1R,0-1@1L,1-6@1R,6-6@1R,6-3@1L,3-4@1L,4-0@1R,0-2@1L,2-6@1L,6-5@1R,5-0@1L,0-6@1R,6-4@1R,4-4@1L,4-1@1L,1-1@1R,1-2@1L results=[[1,0,[0],[0,4],[4,0],[0]],[2,0,[1],[26,0],[0,26],[1]],[3,0,[0],[0,8],[8,0],[0]],[4,1,[],[12,23],[23,0],[0]],[5,1,[],[31,11],[0,31],[1]],[6,1,[],[30,36],[36,0],[0]],[7,1,[],[42,17],[0,42],[1]]] last=1",
        "2-5@1R",
        scores=(71, 105),
        outcome="match over",
        name="basic: the match",
    ),
    Scenario(
        "If the new total of the four ends is a multiple of 5, that player scores the total of the four ends",
        "seeds/000_92ddef32c2766681.txt",
        "all-five players=2 seed=0 round=1 turn=1 scores=0,0 hands=0-2L,1-1,3-4L,5-5,6-6/0-1L,1-3L,2-6L,3-3,3-5L,3-6R deck=1-1,5-6L,6-6,3-4L,5-5,0-2L,2-5R,2-6L,3-3,3-6R,3-5L,0-0,0-1L,1-3L,0-6R,1-5L|0-3R,4-6L,1-4R,0-4L,1-2L,2-3L,4-4,4-5L,2-2,1-6R,0-5R,2-4L board=0-6*,5-1*,6-5@1R,0-0@0R,5-2@1L last=0",
        "1-3@3L",
        gained=(0, 10),
        next_player=0,
        name="all-five: a multiple of five",
    ),
    Scenario(
        "If the new total of the four ends is a multiple of 5, that player scores the total of the four ends",
        "seeds/000_92ddef32c2766681.txt",
        "all-five players=2 seed=0 round=1 turn=1 scores=0,0 hands=0-2L,1-1,2-5R,3-4L,5-5,6-6/0-0,0-1L,1-3L,2-6L,3-3,3-5L,3-6R deck=1-1,5-6L,6-6,3-4L,5-5,0-2L,2-5R,2-6L,3-3,3-6R,3-5L,0-0,0-1L,1-3L,0-6R,1-5L|0-3R,4-6L,1-4R,0-4L,1-2L,2-3L,4-4,4-5L,2-2,1-6R,0-5R,2-4L board=0-6*,5-1*,6-5@1R last=0",
        "0-0@0R",
        gained=(0, 0),
        next_player=0,
        name="all-five: no multiple of five",
    ),
    Scenario(
        'If the game ended "blocked" and no player used all their dominoes, the player with the fewest points remaining wins that round and collects the points (minus any points they have remaining.)',
        "seeds/004_bd8f907c2a83feeb.txt",
        "draw-dominoes players=2 seed=0 round=4 turn=1 scores=37,12 hands=1-1,6-6/1-4,1-6,4-4,4-6 deck=5-6,0-1,1-1,3-5,0-6,2-2,4-5,0-2,2-5,4-6,2-3,1-5,1-3,1-4,3-6,0-0,0-5,4-4,1-6,2-6,1-2,6-6,0-4,3-3,2-4,3-4,0-3|5-5 board=2-2*,2-0@1,0-6@1,2-3@0,6-5@1,5-1@1,3-5@0,5-2@0,1-0@1,0-0@1,0-5@1,2-6@0,5-4@1,6-3@0,4-0@1,3-1@0,1-2@0,2-4@0,4-3@0,3-3@0,0-3@1 results=[[1,0,[0],[0,34],[34,0],[0]],[2,0,[1],[12,0],[0,12],[1]],[3,0,[0],[0,3],[3,0],[0]]] last=0",
        "draw",
        gained=(26, 0),
        outcome="round over",
        blocked=True,
        winners=(0,),
        name="draw-dominoes: blocked round",
    ),
    Scenario(
        "Draw cost. 5 a tile [1, 2, 6, 8].",
        "docs/rules/triominoes.md",
        "triominoes players=2 seed=0 round=1 turn=0 scores=0,25 hands=0-1-3,0-2-2,0-2-5,0-4-4,1-3-3,1-3-4,2-2-3,3-3-4,4-4-5/0-1-2,0-2-4,1-2-3,1-2-4,1-3-5,2-3-4,2-4-4,3-3-5 deck=1-3-3,3-3-4,0-4-4,0-1-3,1-3-4,4-4-5,2-2-3,0-2-5,0-2-2,2-4-4,0-1-2,1-2-4,0-2-4,5-5-5,2-3-4,1-2-3,1-3-5,3-3-5|2-2-4,1-4-5,0-3-4,1-5-5,1-1-5,0-0-0,0-2-3,4-4-4,0-0-3,1-4-4,2-3-5,1-2-2,0-0-1,0-0-5,1-1-1,3-3-3,3-4-4,2-4-5,1-1-2,1-1-4,0-1-4,0-5-5,2-5-5,3-4-5,0-3-5,3-5-5,4-5-5,0-4-5,0-1-1,2-2-2,1-2-5,0-1-5,1-1-3,2-2-5,2-3-3,0-0-4,0-0-2,0-3-3 board=5-5-5* play=0,25 last=1",
        "draw",
        gained=(-5, 0),
        next_player=0,
        name="triominoes: a draw costs 5",
    ),
    Scenario(
        "Going out. 25 plus the others' hands [1, 5, 6].",
        "docs/rules/triominoes.md",
        "triominoes players=2 seed=0 round=1 turn=0 scores=83,63 hands=0-3-5/0-2-4 deck=1-3-3,3-3-4,0-4-4,0-1-3,1-3-4,4-4-5,2-2-3,0-2-5,0-2-2,2-4-4,0-1-2,1-2-4,0-2-4,5-5-5,2-3-4,1-2-3,1-3-5,3-3-5,2-2-4,1-4-5,0-3-4,1-5-5,1-1-5,0-0-0,0-2-3,4-4-4,0-0-3,1-4-4,2-3-5,1-2-2,0-0-1,0-0-5,1-1-1,3-3-3,3-4-4,2-4-5,1-1-2,1-1-4,0-1-4,0-5-5,2-5-5,3-4-5,0-3-5,3-5-5,4-5-5,0-4-5,0-1-1,2-2-2,1-2-5,0-1-5,1-1-3,2-2-5,2-3-3,0-0-4,0-0-2,0-3-3|- board=5-5-5*,5-5-1@0,-1d,4-5-1@0,-1u,4-1-3@0,-2d,4-5-4@-1,-1d,2-4-4@-1,-1u,3-1-3@1,-2u,1-2-3@1,-2d,2-4-2@-1,-2d,3-4-2@-2,-1d,3-2-2@-1,-2u,3-3-5@1,-3d,3-3-4@-2,0u,0-2-3@-2,-2d,2-3-5@1,-3u,3-3-3@-3,0d,4-0-3@-2,-2u,4-3-4@-2,-3d,1-4-4@-2,-3u,1-4-1@-3,-3d,2-5-0@1,-4d,1-2-4@-3,-2u,2-2-0@1,-4u,2-1-1@-3,-3u,1-4-0@-2,-4d,0-5-5@2,-4u,2-0-1@1,-5d,0-4-4@-1,-4u,5-2-5@0,0d,5-2-4@1,0u,2-1-2@-3,-4d,5-3-4@2,-3u,4-4-4@-1,-4d,3-5-5@-1,0d,1-0-0@2,-5u,5-4-5@2,-4d,0-4-5@-1,-5d,1-0-1@2,-6d,0-0-5@-1,-5u,1-1-1@2,-6u,5-1-2@0,1u,5-1-1@1,-6d,2-2-2@-3,-4u,0-1-5@-1,1d,1-1-3@2,-7d,3-5-1@1,-6u,2-3-3@-3,0u,2-2-5@-3,-5d,2-0-0@-2,-5d,3-0-3@-3,1u,0-0-3@-4,1d,0-0-0@-4,2u,0-1-3@2,-7u,4-0-0@-5,2d play=83,63 last=1",
        "5-0-3@-4,1u",
        gained=(39, 0),
        outcome="round over",
        winners=(0,),
        name="triominoes: going out",
    ),
)


def for_rule_set(name: str) -> tuple[Scenario, ...]:
    """The scenarios written for the registered rule set ``name`` (its positions' rule set)."""
    return tuple(s for s in SCENARIOS if s.position.split(" ", 1)[0] == name)
