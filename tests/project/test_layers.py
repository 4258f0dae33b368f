"""The package's layers and import circles (issue 25, item 2): the import-linter contracts of
``pyproject.toml`` hold, and no module reaches itself through its imports, counting the
imports inside functions and those made for type checking only. Linters: marked ``lint``, run
with ``python -m pytest -m lint``."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

pytestmark = pytest.mark.lint


def test_the_import_linter_contracts_are_kept(root: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status = lint_imports(config_filename=str(root / "pyproject.toml"), no_cache=True,
                          no_logo=True)
    assert status == 0, capsys.readouterr().out


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import one another, directly or through others (the
    strongly connected components of more than one module, or a module importing itself)."""
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, following = work[-1]
            for imported in following:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, iter(sorted(imports[imported]))))
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1 or module in imports[module]:
                        found.append(sorted(group))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return found


def test_no_import_circles_counting_function_level_and_type_only_imports() -> None:
    graph = grimp.build_graph("referee", cache_dir=None)
    assert _circles(graph) == []


def test_the_circle_count_sees_a_circle_closed_inside_a_function() -> None:
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b", line_number=3, line_contents="import p.b")
    graph.add_import(importer="p.b", imported="p.a", line_number=9,
                     line_contents="    from p.a import f")  # inside a function
    graph.add_import(importer="p.c", imported="p.a", line_number=1, line_contents="import p.a")
    assert _circles(graph) == [["p.a", "p.b"]]
