"""
The import graph of ``src/bendolib`` is a DAG in layers (docs/architecture.md, "Layers").

The graph is read from the sources: every ``import`` statement, at the top of a module
or inside a function, except those under ``if TYPE_CHECKING:`` (annotations only, never
run).  ``from package import name`` is an import of the submodule ``package.name`` when
there is one, of ``package`` otherwise.  The tests check that the graph has no cycle,
that every import goes to the same layer or a lower one, and that the diagrams in
docs/architecture.md are the ones drawn from the graph.  After changing an import or
adding a module, redraw them with ``python tests/test_layers.py --write``.
"""

from __future__ import annotations

import ast
import os
import pathlib
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

#: The layers, lowest first: a name, what it holds, and its modules (a package stands
#: for itself and its submodules).  Names are relative to ``bendolib``; ``bendolib`` is
#: the package itself (its ``__init__``).
LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "support",
        "errors, input limits, memo tables, constructors, the RNG, atomic files",
        ("errors", "limits", "_memo", "_construct", "_rng", "_files"),
    ),
    ("tiles", "tiles and tile sets", ("tiles",)),
    ("geometry", "lattices, boards, geometries, and the moves laid on them", ("geometry", "moves")),
    ("rules", "the policies, RuleSet, the variants and their registry", ("rules",)),
    ("state", "GameState, a frozen value", ("state",)),
    (
        "engine",
        "legal moves and apply (the compiled kernel's step functions too)",
        (
            "_placing",
            "_kernel_abi",
            "_kernel_tri_input",
            "_kernel_input",
            "_kernel",
            "_kernel_wide",
            "_kernel_huge",
            "_kernel_vast",
            "engine",
        ),
    ),
    (
        "records",
        "notation, position texts, records, pictures",
        (
            "blocking",
            "text",
            "render_svg",
            "render_html",
            "cell_notation",
            "notation",
            "_rule_spec",
            "position_text",
            "records",
        ),
    ),
    (
        "observation",
        "what a seat knows, sampling, playouts",
        (
            "_inference",
            "observation",
            "sampling",
            "_playouts_reference",
            "playouts",
        ),
    ),
    (
        "bots",
        "bots, encodings, batched games, adapters",
        ("bots", "encoding", "vector", "adapters"),
    ),
    (
        "tournament",
        "matches between bots, self-play, the testing kit",
        ("runner", "tournament", "league", "selfplay", "testing"),
    ),
    ("package", "import bendolib: the names most programs use", ("bendolib",)),
    ("cli", "the command line", ("cli", "__main__")),
)


def _short(module: str) -> str:
    return module if module == "bendolib" else module.removeprefix("bendolib.")


def modules() -> dict[str, pathlib.Path]:
    """Every module of the package by dotted name (a compiled one by its ``.pyi`` stub)."""
    found: dict[str, pathlib.Path] = {}
    for path in sorted((SRC / "bendolib").rglob("*.py*")):
        if path.suffix not in (".py", ".pyi") or (
            path.suffix == ".pyi" and path.with_suffix(".py").exists()
        ):
            continue
        parts = path.relative_to(SRC).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:``."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(inner) for inner in ast.walk(node))
    return skip


def import_graph() -> dict[str, set[str]]:
    """Each module's run-time imports of other modules of the package."""
    found = modules()
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_only(tree)
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in found else base for a in node.names
                ]
            for target in targets:
                while target and target not in found:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    deps.add(target)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each module that lies on one (depth-first search, no recursion)."""
    colour: dict[str, int] = {}
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in colour:
            continue
        path: list[str] = []
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph[root]))]
        colour[root] = 1
        path.append(root)
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                colour[node] = 2
                continue
            nxt = todo.pop()
            if colour.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in colour:
                colour[nxt] = 1
                path.append(nxt)
                stack.append((nxt, sorted(graph[nxt])))
    return found


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer holding ``module``."""
    short = _short(module)
    for index, (_, _, members) in enumerate(LAYERS):
        for member in members:
            if short == member or short.startswith(member + "."):
                return index
    raise KeyError(f"module {module} is in no layer: add it to LAYERS in tests/test_layers.py")


def layer_diagram(graph: dict[str, set[str]]) -> str:
    """The layers, top first, each with its modules and the layers it imports."""
    width = max(len(name) for name, _, _ in LAYERS) + 2
    lines: list[str] = []
    for index in reversed(range(len(LAYERS))):
        name, what, _ = LAYERS[index]
        members = sorted(_short(m) for m in graph if layer_of(m) == index)
        below = {layer_of(d) for m in graph if layer_of(m) == index for d in graph[m]} - {index}
        lines.append(f"{name:<{width}}{what}")
        uses = ", ".join(LAYERS[i][0] for i in sorted(below, reverse=True)) or "-"
        for label, items in (("modules: ", ", ".join(members)), ("imports: ", uses)):
            indent = " " * (width + len(label))
            lines.append(textwrap.fill(items, 88, initial_indent=indent, subsequent_indent=indent))
            lines[-1] = f"{'':<{width}}{label}" + lines[-1][len(indent) :]
        if index:
            lines.append(f"{'':<{width - 2}}|")
    return "\n".join(lines)


def module_table(graph: dict[str, set[str]]) -> str:
    """Every module, layer by layer from the top, with the modules it imports."""
    lines: list[str] = []
    for index in reversed(range(len(LAYERS))):
        members = sorted((m for m in graph if layer_of(m) == index), key=_short)
        lines.append(f"[{LAYERS[index][0]}]")
        for module in members:
            deps = ", ".join(sorted(_short(d) for d in graph[module])) or "-"
            head = f"  {_short(module)} -> "
            wrapped = textwrap.fill(
                deps, 88, initial_indent=" " * len(head), subsequent_indent=" " * 6
            )
            lines.append(head + wrapped[len(head) :])
    return "\n".join(lines)


def _block(text: str, marker: str) -> str:
    """The ```text block of docs/architecture.md after ``<!-- marker -->``."""
    start = text.index(f"<!-- {marker} -->")
    body = text.index("```text\n", start) + len("```text\n")
    return text[body : text.index("\n```", body)]


def _drawn(text: str, graph: dict[str, set[str]]) -> str:
    for marker, drawing in (("layers", layer_diagram(graph)), ("modules", module_table(graph))):
        old = _block(text, marker)
        text = text.replace(
            f"<!-- {marker} -->\n```text\n{old}\n```", f"<!-- {marker} -->\n```text\n{drawing}\n```"
        )
    return text


def test_the_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50  # the whole package was read
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(map(_short, c)) for c in found)


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_every_import_goes_to_the_same_layer_or_a_lower_one() -> None:
    graph = import_graph()
    upward = [
        f"{_short(m)} ({LAYERS[layer_of(m)][0]}) imports {_short(d)} ({LAYERS[layer_of(d)][0]})"
        for m, deps in sorted(graph.items())
        for d in sorted(deps)
        if layer_of(d) > layer_of(m)
    ]
    assert not upward, "imports up the layers:\n" + "\n".join(upward)


def test_type_checking_and_function_level_imports_are_read() -> None:
    graph = import_graph()
    # a function-level import counts (cli imports the bots inside a function) ...
    assert "bendolib.bots" in graph["bendolib.cli"]
    # ... an annotation-only one does not (the rules name GameState only in annotations)
    assert "bendolib.state" not in graph["bendolib.rules.scoring"]


def test_the_architecture_page_draws_the_real_graph() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert _drawn(text, import_graph()) == text, (
        "docs/architecture.md's import diagrams are stale: run python tests/test_layers.py --write"
    )


def test_a_program_that_imports_only_the_state_module_gets_the_views() -> None:
    """GameState's views, installed by higher layers (state._VIEWS), are there."""
    code = (
        "import bendolib.state\n"
        "from bendolib.engine import new_game\n"
        "from bendolib.rules import get\n"
        "state = new_game(get('basic'), players=2, seed=1)\n"
        "import bendolib\n"
        "assert str(state) == bendolib.text.state_text(state)\n"
        "assert state._repr_svg_() == bendolib.render_svg.to_svg(state)\n"
        "assert state.observation(1) == bendolib.observation.observe(state, 1)\n"
        "assert repr(get('basic', target=50)) == \"RuleSet('basic', target=50)\"\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


if __name__ == "__main__":
    if "--write" in sys.argv:
        page = ARCHITECTURE.read_text(encoding="utf-8")
        ARCHITECTURE.write_text(_drawn(page, import_graph()), encoding="utf-8")
    else:
        print(layer_diagram(import_graph()), module_table(import_graph()), sep="\n\n")
