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


def test_a_gauntlet_plays_only_the_pairs_of_one_bot() -> None:
    """Issue 26.3(c): ``--gauntlet`` measures one bot against each of the others (the
    strength figures of docs/bots.md), leaving the other pairs out."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    command = [sys.executable, str(ROOT / "bench" / "ladder.py"), "--rules", "basic"]
    command += ["--param", "target=1", "--bots", "random", "greedy", "search"]
    command += ["--gauntlet", "greedy", "--matches", "2", "--jobs", "1", "--no-ismcts"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    played = re.findall(r"^  (\S+) vs (\S+): \d/2$", done.stdout, re.MULTILINE)
    assert played == [("random", "greedy"), ("greedy", "search(8)")]
    lines = [line for line in done.stdout.splitlines() if line.startswith("| **")]
    rows = {line.split("|")[1].strip(): line for line in lines}
    # random and search never met: their cells are empty, their totals count 2 matches
    assert rows["**random**"].split("|")[4].strip() == "—"
    assert re.search(r"\| \d/2 ", rows["**search(8)**"])
    assert re.search(r"\| \d/4 ", rows["**greedy**"])
    wrong = subprocess.run(command[:-5] + ["--gauntlet", "nobody"], capture_output=True, env=env)
    assert wrong.returncode == 2
