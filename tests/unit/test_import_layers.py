"""No two modules of the project import each other (lint-imports checks the layers; this, the pairs within them)."""

from __future__ import annotations

import tomllib

import grimp

from tests.paths import PYPROJECT


def root_packages() -> list[str]:
    """The packages import-linter analyses (pyproject.toml, [tool.importlinter])."""
    return tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["root_packages"]


def mutual_imports(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Every pair of modules that import each other directly, each pair once, sorted."""
    return sorted(
        (module, imported)
        for module in graph.modules
        for imported in graph.find_modules_directly_imported_by(module)
        if module < imported and module in graph.find_modules_directly_imported_by(imported)
    )


def test_no_module_pair_of_the_project_imports_each_other() -> None:
    graph = grimp.build_graph(*root_packages(), cache_dir=None)
    pairs = mutual_imports(graph)
    assert pairs == [], "these modules import each other: " + "; ".join(f"{a} <-> {b}" for a, b in pairs)


def test_a_pair_that_imports_each_other_is_named_and_a_one_way_import_is_not() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("app.admin", "core.site"),
        ("core.site", "app.admin"),  # the pair
        ("app.models", "core.models"),  # one way only
        ("pkg", "pkg.child"),
        ("pkg.child", "pkg"),  # a package and its child are a pair too
    ]:
        graph.add_import(importer=importer, imported=imported)
    assert mutual_imports(graph) == [("app.admin", "core.site"), ("pkg", "pkg.child")]
