"""
``--param`` values beyond the limits of docs/records.md end in a ``bendolib:`` line
naming the limit (issue 22, "CLI": "--param target=<5000 digits> and a 5,000-deep teams
list end in 'internal error' instead of a bendolib: line naming the limit").
"""

from __future__ import annotations

import pytest

from bendolib.limits import MAX_DEPTH, MAX_DIGITS
from cli_driver import run

SIMULATE = ["simulate", "--bots", "greedy", "greedy", "--games", "1", "--jobs", "1", "--quiet"]


@pytest.mark.parametrize(
    ("param", "message"),
    [
        (
            "target=" + "9" * 5000,
            f"parameter target: a number has at most {MAX_DIGITS} digits, not 5,000",
        ),
        ("target=-" + "9" * 5000, f"at most {MAX_DIGITS} digits, not 5,000"),
        ("target=[" + "1" * 21 + "]", f"at most {MAX_DIGITS} digits, not 21"),
        (
            "teams=" + "[" * 5000 + "]" * 5000,
            f"parameter teams: lists and objects nest at most {MAX_DEPTH} deep",
        ),
        ("teams=" + "[" * 40 + "]" * 40, f"lists and objects nest at most {MAX_DEPTH} deep"),
        (
            "teams=" + '{"a":' * 3000 + "1" + "}" * 3000,
            f"lists and objects nest at most {MAX_DEPTH} deep",
        ),
    ],
)
def test_a_parameter_beyond_the_limits_is_one_line_naming_the_limit(
    param: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run([*SIMULATE, "--param", param], capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.startswith("bendolib: ") and err.count("\n") == 1, err
    assert message in err and "internal error" not in err


def test_parameters_within_the_limits_still_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [*SIMULATE, "--param", "target=20", "--param", "teams=[[0,2],[1,3]]"]
    status, _, err = run(argv, capsys, monkeypatch)
    assert status == 2 and "the teams ((0, 2), (1, 3)) need 2 players" in err  # read, then judged
    status, out, err = run([*SIMULATE, "--param", "target=20"], capsys, monkeypatch)
    assert status == 0 and "1 matches" in out, err
