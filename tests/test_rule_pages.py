"""The rule pages (docs/rules/*.md) and the code say the same thing (issue 21 points 1 and 6).

Each rule page's "Drawing, field by field" table gives every ``DrawPolicy`` field of its
rule set with its value; one test per rule set compares the table with the code.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

import bendolib
from bendolib.rules import DrawPolicy

RULES_DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"

#: The page of each registered rule set (its name, except the action tiles').
PAGES = {name: RULES_DOCS / f"{name}.md" for name in bendolib.rules.names()}
PAGES["bendo-all-in-actions"] = RULES_DOCS / "actions.md"

ROW = re.compile(r"^\| `(\w+)` \| `([^`]*)` \|", re.M)


def drawing_table(text: str) -> dict[str, str]:
    """The field and value columns of the page's "Drawing, field by field" table."""
    match = re.search(r"^## Drawing, field by field\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, "the page has no 'Drawing, field by field' section"
    return dict(ROW.findall(match.group(1)))


def shown(value: object) -> str:
    """A field's value as the page writes it: strings in double quotes."""
    return f'"{value}"' if isinstance(value, str) else str(value)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_rule_page_drawing_table_is_the_code(name: str) -> None:
    """Issue 21 point 1: "the page's decision table and the code must say the same
    thing, and a test per rule set pins it" -- every DrawPolicy field, its value."""
    draw = bendolib.rules.get(name).draw
    fields = [f.name for f in attrs.fields(DrawPolicy) if f.init]
    table = drawing_table(PAGES[name].read_text(encoding="utf-8"))
    assert sorted(table) == sorted(fields)
    assert table == {f: shown(getattr(draw, f)) for f in fields}


def test_every_rule_page_belongs_to_a_rule_set() -> None:
    """No page describes a rule set that is not registered (issue 21 point 6)."""
    pages = {p for p in RULES_DOCS.glob("*.md") if p.name != "index.md"}
    assert pages == set(PAGES.values())
