"""
The strength ladder command (issue 26 point 3c): ``python bench/ladder.py`` prints a
table per rule set with win rates, intervals and the first seat's win rate.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_ladder_prints_a_table_per_rule_set() -> None:
    """Issue 26.3(c): one command, a table per rule set, mirrored deals, seat advantage."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "ladder.py"),
            "--rules",
            "basic",
            "classic-draw",
            "--param",
            "target=1",
            "--bots",
            "random",
            "greedy",
            "--matches",
            "4",
            "--jobs",
            "1",
            "--no-ismcts",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    out = done.stdout
    assert out.count("| bot | vs random | vs greedy | overall |") == 2
    assert "## basic {'target': 1}: 4 matches per pair" in out
    assert "## classic-draw {'target': 1}: 4 matches per pair" in out
    rows = [line for line in out.splitlines() if line.startswith("| **")]
    assert len(rows) == 4
    assert len(re.findall(r"Seat 0 \(first seat\) won \d/4 matches", out)) == 2
    # the two bots' wins of a pair add up to at most its matches (ties count for no one)
    overall = [int(m) for m in re.findall(r"\| (\d+)/4 \d+%", out)]
    assert len(overall) == 4
    assert overall[0] + overall[1] <= 4 and overall[2] + overall[3] <= 4
