"""
Testing tools for bendolib users: hypothesis strategies, an invariant checker that
plays random games of any rule set (and shortens what it finds), a variant played
against its base, scenarios from the rule text, a state machine over the public API,
and a harness that checks a bot on every rule set.

Needs the ``testing`` extra (``pip install 'bendolib[testing]'``), which installs
hypothesis; ``import bendolib`` itself never imports this package or hypothesis.
"""

from __future__ import annotations

try:
    import hypothesis as _hypothesis  # noqa: F401  (only to fail early, with advice)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("bendolib.testing needs hypothesis: pip install 'bendolib[testing]'") from exc

from bendolib.testing import invariants, rule_scenarios, strategies
from bendolib.testing.bot_harness import (
    BOT_INVARIANTS,
    BOT_TIME,
    DEFAULT_TIME_BUDGET,
    bot_state_machine,
    check_bot,
    check_bot_game,
)
from bendolib.testing.checker import (
    ALL_INVARIANTS,
    CheckReport,
    Violation,
    check_game,
    check_ruleset,
    game_seed,
    minimise,
    replay_choices,
)
from bendolib.testing.machine import KitFinding, api_state_machine
from bendolib.testing.scenarios import Scenario, ScenarioReport, check_scenarios
from bendolib.testing.variant import Difference, VariantReport, check_variant

__all__ = [
    "ALL_INVARIANTS",
    "BOT_INVARIANTS",
    "BOT_TIME",
    "DEFAULT_TIME_BUDGET",
    "CheckReport",
    "Difference",
    "KitFinding",
    "Scenario",
    "ScenarioReport",
    "VariantReport",
    "Violation",
    "api_state_machine",
    "bot_state_machine",
    "check_bot",
    "check_bot_game",
    "check_game",
    "check_ruleset",
    "check_scenarios",
    "check_variant",
    "game_seed",
    "invariants",
    "minimise",
    "replay_choices",
    "rule_scenarios",
    "strategies",
]
