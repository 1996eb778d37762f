"""Prints how many inputs each surface of the adversarial suite tried (and accepted)."""

from __future__ import annotations

import json
import os
from typing import Any

import fuzz  # the suite's machinery, beside this file


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not fuzz.TRIED:
        return
    terminalreporter.section(f"adversarial inputs ({fuzz.PROFILE} profile)")
    for surface in sorted(fuzz.TRIED):
        tried, accepted = fuzz.TRIED[surface], fuzz.ACCEPTED[surface]
        terminalreporter.write_line(f"{surface:32} {tried:>9,} tried {accepted:>9,} accepted")
    terminalreporter.write_line(f"{'total':32} {sum(fuzz.TRIED.values()):>9,} tried")
    report = os.environ.get("BENDOLIB_FUZZ_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as handle:
            counts = {s: [fuzz.TRIED[s], fuzz.ACCEPTED[s]] for s in sorted(fuzz.TRIED)}
            json.dump({"profile": fuzz.PROFILE, "tried_accepted": counts}, handle, indent=1)
