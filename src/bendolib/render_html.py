"""
A match you can watch: one self-contained HTML page that steps through a record.

:func:`to_html` replays a :class:`~bendolib.records.GameRecord` and writes one page
holding, for the deal and after every move, the SVG board of
:func:`bendolib.render_svg.to_svg`, the scores, the hands (shown, or only their sizes:
then the tiles are not in the file at all) and the move list.  The page needs no network
and no other file: the frames are stored deflated (base64) and unpacked by the browser's
``DecompressionStream`` (Chromium 80, Firefox 113, Safari 16.4 and later).  ← and → (or
the buttons) step back and forward, Home and End jump to the ends, and a click on a move
in the list goes there.
"""

from __future__ import annotations

import base64
import json
import zlib
from html import escape
from typing import Any

from bendolib.records import GameRecord, initial_state, steps
from bendolib.render_svg import to_svg
from bendolib.state import GameState
from bendolib.text import printable, side_name

#: How hands may be drawn: every tile, or only how many tiles each hand holds.
HANDS = ("shown", "hidden")


def _hands(state: GameState, shown: bool) -> list[str]:
    if shown:
        return [" ".join(str(t) for t in hand) or "(empty)" for hand in state.hands]
    return [f"{len(hand)} tiles" for hand in state.hands]


def _frame(state: GameState, label: str, names: list[str], shown: bool, numbers: bool) -> Any:
    scores = [[side_name(state, k), value] for k, value in enumerate(state.side_scores)]
    return {
        "label": label,
        "svg": to_svg(state, numbers=numbers),
        "scores": scores,
        "hands": [
            [names[seat], text, seat == state.current_player and not state.is_round_over]
            for seat, text in enumerate(_hands(state, shown))
        ],
        "stock": len(state.deck) - state.stock_pos,
        "tiles": len(state.board.placements),
    }


def to_html(record: GameRecord, *, hands: str = "shown", numbers: bool = False) -> str:
    """
    The page of ``record`` (a complete HTML document, see the module docstring).
    ``hands`` is ``"shown"`` (every hand's tiles) or ``"hidden"`` (their sizes only);
    ``numbers`` draws numbers instead of pips.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"to_html takes a GameRecord, not {type(record).__name__}")
    if hands not in HANDS:
        raise ValueError(f"hands is one of {', '.join(HANDS)}, not {hands!r}")
    shown = hands == "shown"
    names = [printable(n) for n in record.names] or [f"player {s}" for s in range(record.players)]
    first = initial_state(record)
    frames = [_frame(first, f"round {first.round_number} dealt", names, shown, numbers)]
    for step in steps(record):
        if step.move_number == 0:
            label = f"round {step.round_number} dealt"
        else:
            label = (
                f"round {step.round_number} move {step.move_number}: "
                f"{names[step.player]} plays {printable(step.text)}"
            )
        frames.append(_frame(step.state, label, names, shown, numbers))
    title = (
        f"{printable(record.rules.name)}, {record.players} players, seed {record.seed}"
        f" ({' vs '.join(names)})"
    )
    data = json.dumps(frames, separators=(",", ":")).encode()
    packed = base64.b64encode(zlib.compress(data, 9)).decode("ascii")
    page = _PAGE.replace("@FRAMES_START@", _FRAMES_START).replace("@TITLE@", escape(title))
    return page.replace("@FRAMES@", packed)


def frames_of(page: str) -> list[dict[str, Any]]:
    """The frames a page of :func:`to_html` holds (what its script shows), for tests."""
    start = page.index(_FRAMES_START) + len(_FRAMES_START)
    data = json.loads(zlib.decompress(base64.b64decode(page[start : page.index("<", start)])))
    if not isinstance(data, list):
        raise ValueError("not a page of to_html")
    return data


_FRAMES_START = '<script id="frames" type="application/octet-stream">'

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; margin: 1em; color: #222; }
#top { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
#board { width: 62vw; height: 72vh; border: 1px solid #ccc; }
#board svg { width: 100%; height: 100%; }
#side { min-width: 18em; }
#moves { max-height: 40vh; overflow: auto; font-size: 90%; padding-left: 3em; }
#moves li { cursor: pointer; }
#moves li.current { background: #ffe08a; font-weight: bold; }
.tomove { font-weight: bold; }
table { border-collapse: collapse; }
td, th { padding: 0.1em 0.6em; text-align: left; }
button { font-size: 110%; }
</style>
</head>
<body>
<h1>@TITLE@</h1>
<p><button id="first" title="Home">&laquo;</button>
<button id="back" title="&#x2190;">&#x25C0;</button>
<button id="forward" title="&#x2192;">&#x25B6;</button>
<button id="last" title="End">&raquo;</button>
<span id="where"></span> &mdash; <span id="label"></span>
<br><small>Keys: &#x2190; back, &#x2192; forward, Home, End; click a move to go there.</small></p>
<div id="top">
<div id="board"></div>
<div id="side">
<h2>Scores</h2><table id="scores"></table>
<h2>Hands</h2><table id="hands"></table>
<p id="counts"></p>
<h2>Moves</h2><ol id="moves" start="0"></ol>
</div>
</div>
@FRAMES_START@@FRAMES@</script>
<script>
"use strict";
let frames = [];
let step = 0;
const list = document.getElementById("moves");
async function unpack() {
  const text = document.getElementById("frames").textContent.trim();
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}
function start() {
frames.forEach((f, k) => {
  const li = document.createElement("li");
  li.textContent = f.label;
  li.addEventListener("click", () => show(k));
  list.appendChild(li);
});
function rows(table, items) {
  table.replaceChildren();
  for (const cells of items) {
    const tr = document.createElement("tr");
    for (const c of cells.slice(0, 2)) {
      const td = document.createElement("td");
      td.textContent = String(c);
      tr.appendChild(td);
    }
    if (cells[2] === true) tr.className = "tomove";
    table.appendChild(tr);
  }
}
function show(k) {
  step = Math.max(0, Math.min(frames.length - 1, k));
  const f = frames[step];
  document.getElementById("board").innerHTML = f.svg;
  document.getElementById("label").textContent = f.label;
  document.getElementById("where").textContent = "step " + step + " of " + (frames.length - 1);
  rows(document.getElementById("scores"), f.scores);
  rows(document.getElementById("hands"), f.hands);
  document.getElementById("counts").textContent =
    f.tiles + " tiles on the table, " + f.stock + " in the stock";
  for (const li of list.children) li.classList.remove("current");
  const li = list.children[step];
  li.classList.add("current");
  li.scrollIntoView({block: "nearest"});
  document.body.dataset.step = String(step);
}
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(step + 1);
  else if (e.key === "ArrowLeft") show(step - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(frames.length - 1);
  else return;
  e.preventDefault();
});
document.getElementById("first").onclick = () => show(0);
document.getElementById("back").onclick = () => show(step - 1);
document.getElementById("forward").onclick = () => show(step + 1);
document.getElementById("last").onclick = () => show(frames.length - 1);
show(0);
}
unpack().then((data) => { frames = data; start(); });
</script>
</body>
</html>
"""
