"""
Test configuration: hypothesis profiles ("ci" modest, "ci-pure" for CI's pure-Python
pass, "dev" default, "soak" long), and
the optional extras: a test file that needs a package no installed extra provides is
not collected, and the summary says which files and why (tests/extras.py).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import extras

# Ctrl-C as a terminal delivers it: a harness that starts the tests in the background of
# a shell without job control hands them SIGINT ignored (POSIX), which the command-line
# runs they start inherit, and no test of Ctrl-C could then interrupt anything (a run of
# 100,000 matches played to its end).  Python installs its handler only over SIG_DFL.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# The second pass of CI, on the pure-Python build: every property runs again, on fewer
# examples (the compiled pass ran the "ci" profile, and the differential tests hold the
# two builds to the same moves), to keep CI within its budget (issue 24 point 7).
settings.register_profile(
    "ci-pure", max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "soak", max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck)
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

#: Test files left out for want of a package, with the reason.
_LEFT_OUT: dict[Path, str] = {}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Leave out a test file that imports a package that is not installed."""
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    missing = extras.missing_in_file(collection_path)
    if not missing:
        return None
    _LEFT_OUT[collection_path] = extras.reason(missing)
    return True


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """
    A line per test file and package module left out because an extra is missing; the
    inputs tried by the adversarial suite when it ran (tests/adversarial/fuzz.py).
    """
    fuzz = sys.modules.get("fuzz")
    if fuzz is not None:
        fuzz.summary(terminalreporter)
    lines = [f"{path.relative_to(extras.ROOT)}: {why}" for path, why in sorted(_LEFT_OUT.items())]
    for path in sorted((extras.SOURCE / "bendolib").rglob("*.py")):
        missing = extras.missing_in_file(path)
        if missing:
            module = ".".join(path.relative_to(extras.SOURCE).with_suffix("").parts)
            lines.append(f"{module} (not imported by the tests): {extras.reason(missing)}")
    if lines:
        terminalreporter.section("skipped: optional packages not installed", sep="-")
        for line in lines:
            terminalreporter.write_line(line)
