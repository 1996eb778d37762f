"""
The command line never shows a traceback (issue 14.11): a bad file, a bad answer, a
closed input or a bug gives one ``bendolib:`` line and exit status 2; text from files
is printed with its control characters escaped (14.7); ``--record`` is checked before
the match and written atomically (14.12).
"""

from __future__ import annotations

import random
import signal
from pathlib import Path

import pytest

import bendolib
from bendolib import position_text as pt
from bendolib import records
from bendolib.state import GameState
from cli_driver import Terminal, run, run_process


def finished_match(seed: int = 4) -> GameState:
    state = bendolib.new_game(bendolib.rules.get("basic", target=40), 2, seed)
    rng = random.Random(seed)
    while not state.is_game_over:
        state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))
    return state


def one_error_line(status: int, err: str, library_error: bool = True) -> str:
    """
    The single ``bendolib:`` line of a failed command; with ``library_error`` it must
    come from a library error, not from the last-resort handler (a bug).
    """
    assert status == 2, err
    assert err.startswith("bendolib: ") and err.endswith("\n") and err.count("\n") == 1, err
    if library_error:
        assert "internal error" not in err, err
    return err


# -- files ----------------------------------------------------------------------------------

BAD_FILES = [
    pytest.param(b'\xff\xfe{"format": "bendolib-record"}', "is not UTF-8 text", id="not-utf8"),
    pytest.param(b"[" * 100_000, "", id="deep-json"),
    pytest.param(
        b'{"format": "bendolib-record", "version": 1, "seed": ' + b"7" * 5000 + b"}",
        "",
        id="5000-digits",
    ),
    pytest.param(b"\x00" * 10, "", id="nul-bytes"),
    pytest.param(b"", "", id="empty"),
]


@pytest.mark.parametrize(("content", "message"), BAD_FILES)
@pytest.mark.parametrize("command", ["replay", "render"])
def test_bad_record_files_give_one_line(
    content: bytes,
    message: str,
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    status, _, err = run([command, str(path)], capsys, monkeypatch)
    assert message in one_error_line(status, err, library_error=False)


LOADER_FAULTS = [p for p in BAD_FILES if p.id in ("deep-json", "5000-digits")]


@pytest.mark.parametrize(("content", "message"), LOADER_FAULTS)
def test_bad_record_files_are_library_errors(
    content: bytes,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    status, _, err = run(["replay", str(path)], capsys, monkeypatch)
    assert message in one_error_line(status, err)


def test_an_endless_file_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run(["replay", "/dev/zero"], capsys, monkeypatch)
    assert "'/dev/zero' is longer than 16 MiB" in one_error_line(status, err)


def test_a_record_on_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = records.dump(finished_match(), ["ann", "bob"])
    status, out, _ = run(["replay", "-", "--all"], capsys, monkeypatch, "\ufeff" + text)
    assert status == 0 and out.splitlines()[-1].startswith("final scores: ann ")
    status, _, err = run(["replay", "-"], capsys, monkeypatch, stdin=None)
    assert "cannot read standard input: it is closed" in one_error_line(status, err)
    done = run_process(["replay", "-"], stdin=b"\xc3\x28")
    assert done.returncode == 2
    assert done.stderr == b"bendolib: standard input is not UTF-8 text (byte 0 is 0xc3)\n"


def test_a_finished_position_with_a_bad_winner(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = pt.dumps(finished_match())
    assert " winner=" in text
    bad = text.rsplit(" winner=", 1)[0] + " winner=99"
    for argv in (["play", "--position", bad], ["render", "--position", bad]):
        status, _, err = run(argv, capsys, monkeypatch, "quit\n")
        assert "99" in one_error_line(status, err)


def test_bad_command_lines_give_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run(["play", "--seed", "x"], capsys, monkeypatch)
    assert "invalid int value: 'x' (see 'bendolib play --help')" in one_error_line(status, err)
    status, _, err = run(["nosuch"], capsys, monkeypatch)
    assert "invalid choice: 'nosuch'" in one_error_line(status, err)
    status, _, err = run(["play", "--seed", "7" * 5000], capsys, monkeypatch)
    one_error_line(status, err)
    assert len(err) < 1100  # the long value is cut


def test_the_last_resort_reports_a_bug_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(bendolib.cli, "_rules", broken)
    status, _, err = run(["rules"], capsys, monkeypatch)
    assert status == 2
    assert err == (
        "bendolib: internal error (RuntimeError: boom\\nsecond line); please report it\n"
    )


# -- prompts ---------------------------------------------------------------------------------

ODD_ANSWERS = [
    "\u00b2",
    "\u0662",
    "7" * 5000,
    "5" * 5000 + "-3",
    "\x1b[2J",
    "6-6*" * 300,
    "x" * 10**5,
]


def test_odd_answers_at_the_play_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = "\n".join([*ODD_ANSWERS, "1", "quit"]) + "\n"
    status, out, _ = run(["play", "--seed", "3"], capsys, monkeypatch, answers)
    assert status == 0
    assert "cannot read '\u00b2'" in out and "cannot read '\u0662'" in out
    assert "no move 7777777777" in out and "7" * 100 not in out
    assert "\x1b" not in out and "cannot read '\\x1b[2J'" in out
    assert out.count("your move [1-1,") == len(ODD_ANSWERS) + 1  # each answer, same prompt
    assert "you play 5-5*" in out and out.rstrip().endswith("game left unfinished")


def test_odd_answers_at_the_replay_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "match.json"
    path.write_text(records.dump(finished_match(), ["ann", "bob"]), encoding="utf-8")
    answers = "\n".join([*ODD_ANSWERS, "2", "q"]) + "\n"
    status, out, _ = run(["replay", str(path), "--step"], capsys, monkeypatch, answers)
    assert status == 0
    assert out.count("cannot read ") == len(ODD_ANSWERS)
    assert "cannot read '\u00b2'" in out and "\x1b" not in out
    assert out.count("[2/") == 1


def test_closed_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    status, out, _ = run(["play", "--seed", "3"], capsys, monkeypatch, stdin=None)
    assert status == 0 and out.rstrip().endswith("game left unfinished")
    path = tmp_path / "match.json"
    path.write_text(records.dump(finished_match(), ["ann", "bob"]), encoding="utf-8")
    for argv in (["play", "--seed", "3"], ["replay", str(path)], ["replay", str(path), "--step"]):
        done = run_process(argv, shell_redirect="0<&-")
        assert done.returncode == 0, done.stderr
        assert b"Traceback" not in done.stdout + done.stderr and done.stderr == b""
    done = run_process(["replay", "-"], shell_redirect="0<&-")
    assert done.returncode == 2
    assert done.stderr == b"bendolib: cannot read standard input: it is closed\n"


def test_closed_standard_output() -> None:
    done = run_process(["rules"], shell_redirect="1>&-")
    assert done.returncode == 0 and done.stderr == b""


@pytest.mark.parametrize(
    "argv",
    [["play", "--seed", "3"], ["replay", "RECORD", "--step"]],
    ids=["play", "replay"],
)
def test_ctrl_c_at_a_prompt(argv: list[str], tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(records.dump(finished_match(), ["ann", "bob"]), encoding="utf-8")
    terminal = Terminal([str(path) if a == "RECORD" else a for a in argv])
    terminal.expect(r"(your move \[|\[0/\d+\]).*: ")
    terminal.type("\x03")  # Ctrl-C
    status = terminal.wait()
    assert status == 128 + signal.SIGINT.value or status == 130, terminal.text
    assert "Traceback" not in terminal.text and "KeyboardInterrupt" not in terminal.text


# -- control characters from files -----------------------------------------------------------


def test_names_from_a_record_are_printed_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14.7: a player name with an escape sequence is shown, not obeyed."""
    path = tmp_path / "match.json"
    names = ["\x1b[31mann", "bob\u202e\nfinal scores: bob 999"]
    path.write_text(records.dump(finished_match(), names), encoding="utf-8")
    status, out, _ = run(["replay", str(path), "--all"], capsys, monkeypatch)
    assert status == 0
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[31mann plays " in out
    assert "bob\\u202e\\nfinal scores: bob 999 plays" in out
    assert [ln for ln in out.splitlines() if ln.startswith("final scores")] == [
        out.splitlines()[-1]
    ]


def test_error_messages_are_printed_escaped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run(["rules", "\x1b[2Jbasic\nx"], capsys, monkeypatch)
    assert "\x1b" not in one_error_line(status, err) and "\\x1b[2Jbasic\\nx" in err
    status, _, err = run(["render", "--position", "basic \x07 players=2"], capsys, monkeypatch)
    assert "\x07" not in one_error_line(status, err)


# -- --record -------------------------------------------------------------------------------


def test_record_path_is_checked_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for target in (tmp_path / "no" / "such" / "game.json", tmp_path):
        argv = ["play", "--seed", "3", "--record", str(target)]
        status, out, err = run(argv, capsys, monkeypatch, "1\n" * 50)
        assert "cannot write" in one_error_line(status, err)
        assert out == ""  # refused before the first prompt


def test_a_failing_save_keeps_the_existing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record is written beside the file and renamed: a failure leaves it whole."""
    existing = tmp_path / "game.json"
    existing.write_text("precious", encoding="utf-8")
    calls = []
    real_dump = records.dump

    def dump_then_fail(*args: object, **kwargs: object) -> str:
        calls.append(1)
        if len(calls) > 1:  # the check before the match passes, the final save fails
            raise bendolib.errors.RuleSetError("cannot write this rule set")
        return real_dump(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(records, "dump", dump_then_fail)
    argv = ["play", "--seed", "3", "--record", str(existing)]
    status, out, err = run(argv, capsys, monkeypatch, "1\nquit\n")
    assert "cannot write this rule set" in one_error_line(status, err)
    assert "you play 5-5*" in out
    assert existing.read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary left


def test_a_rule_set_that_cannot_be_saved_is_refused_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14.4 as the command line met it: the old file was truncated to 0 bytes."""
    existing = tmp_path / "game.json"
    existing.write_text("precious", encoding="utf-8")
    argv = ["play", "--seed", "3", "--param", "wild_faces=[0]", "--record", str(existing)]
    status, out, err = run(argv, capsys, monkeypatch, "1\nquit\n")
    saved = existing.read_text(encoding="utf-8")
    if status == 2:  # the rule set cannot be written: said before the first move
        assert "cannot save a record" in one_error_line(status, err) and out == ""
        assert saved == "precious"
    else:  # once it can be written, the record replaces the file whole
        assert status == 0 and records.replay(records.load(saved)).rules.wild_faces == frozenset(
            {0}
        )


def test_records_are_replaced_whole_and_keep_the_file_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    existing = tmp_path / "game.json"
    existing.write_text("old", encoding="utf-8")
    existing.chmod(0o640)
    argv = ["play", "--seed", "3", "--record", str(existing)]
    status, out, _ = run(argv, capsys, monkeypatch, "1\nquit\n")
    assert status == 0 and f"record written to {existing}" in out
    assert records.load(existing.read_text(encoding="utf-8")).rounds[0].moves[0] == "5-5*"
    assert existing.stat().st_mode & 0o777 == 0o640
    fresh = tmp_path / "new.json"
    status, _, _ = run(["play", "--seed", "3", "--record", str(fresh)], capsys, monkeypatch, "q\n")
    assert status == 0 and fresh.stat().st_mode & 0o777 == 0o666 & ~_umask()


def test_records_through_links_and_to_devices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The atomic rename must not replace a symbolic link, nor /dev/null (run as root)."""
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    status, _, _ = run(["play", "--seed", "3", "--record", str(link)], capsys, monkeypatch, "q\n")
    assert status == 0 and link.is_symlink()
    assert records.load(real.read_text(encoding="utf-8")).seed == 3
    status, out, _ = run(
        ["play", "--seed", "3", "--record", "/dev/null"], capsys, monkeypatch, "q\n"
    )
    assert status == 0 and "record written to /dev/null" in out
    assert Path("/dev/null").is_char_device()
    svg = tmp_path / "no" / "board.svg"
    position = pt.dumps(finished_match())
    status, _, err = run(["render", "--position", position, "--svg", str(svg)], capsys, monkeypatch)
    assert "cannot write" in one_error_line(status, err) and ".tmp" not in err


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask
