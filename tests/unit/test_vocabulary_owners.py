"""Every word of the vocabulary (an enum of the project) is imported from the module that defines it: no module passes
another's words on, so a reader finds a word where it is imported from."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.paths import PROJECT_ROOT

LAYERS = ("cluster_vocabulary", "controlplane", "gateways", "catalogs", "rollouts", "notifications", "workers")
IMPORTERS = (*LAYERS, "devcluster", "cpctl", "tests", "bench", "scripts")
SHARED_CHOICES = "controlplane.choices"  # the Django twins of the shared words, for model and serializer fields


def module_name(path: Path) -> str:
    dotted = path.relative_to(PROJECT_ROOT).with_suffix("").as_posix().replace("/", ".")
    return dotted.removesuffix(".__init__")


def python_files(tops: Iterable[str]) -> list[Path]:
    return [
        path for top in tops for path in sorted((PROJECT_ROOT / top).rglob("*.py")) if "migrations" not in path.parts
    ]


def _is_enum(node: ast.ClassDef) -> bool:
    return any(ast.unparse(base).endswith("Enum") for base in node.bases)


def top_level_names(tree: ast.Module) -> set[str]:
    """The names a module defines itself (classes, functions, assignments), not the ones it imports."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def hops(sources: dict[str, str], words: set[str]) -> list[str]:
    """``module:line: Word from hop`` for every import of a word from a project module that does not define it, and
    of a shared word's Django twin (``controlplane.choices``) outside the models, the API and management commands."""
    trees = {module: ast.parse(source) for module, source in sources.items()}
    defined = {module: top_level_names(tree) for module, tree in trees.items()}
    found = []
    for module, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in defined):
                continue
            for alias in node.names:
                if alias.name not in words:
                    continue
                if alias.name not in defined[node.module]:
                    found.append(f"{module}:{node.lineno}: {alias.name} from {node.module}, which does not define it")
                elif node.module == SHARED_CHOICES and not _needs_django_choices(module):
                    found.append(f"{module}:{node.lineno}: {alias.name} from {node.module}, a Django twin")
    return sorted(found)


def _needs_django_choices(module: str) -> bool:
    parts = module.split(".")
    return parts[-1] in ("models", "choices") or "api" in parts or "management" in parts


def vocabulary(sources: dict[str, str]) -> set[str]:
    """The names of the enums the layers define."""
    return {
        node.name
        for source in sources.values()
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef) and _is_enum(node)
    }


def test_every_word_is_imported_from_its_owner() -> None:
    layers = {module_name(path): path.read_text() for path in python_files(LAYERS)}
    words = vocabulary(layers)
    assert {"ConditionStatus", "EventType", "HelmStatus", "Phase"} <= words
    sources = {module_name(path): path.read_text() for path in python_files(IMPORTERS)}
    found = hops(sources, words)
    assert not found, "import these words from the module that defines them:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("importer", "source", "expected"),
    [
        ("app.loop", "from vocab.words import Status\n", []),
        ("app.loop", "from app.hop import Status\n", ["app.loop:1: Status from app.hop, which does not define it"]),
        ("app.loop", "from app.hop import helper\n", []),  # not a word
        ("app.loop", "from elsewhere import Status\n", []),  # not a project module
        ("app.models", "from controlplane.choices import Status\n", []),
        ("app.api.views", "from controlplane.choices import Status\n", []),
        (
            "app.loop",
            "from controlplane.choices import Status\n",
            ["app.loop:1: Status from controlplane.choices, a Django twin"],
        ),
    ],
)
def test_the_scan_names_a_hop_and_passes_the_owner(importer: str, source: str, expected: list[str]) -> None:
    sources = {
        "vocab.words": "class Status(StrEnum):\n    ON = 'On'\n",
        "app.hop": "from vocab.words import Status\n\ndef helper(): ...\n",
        "controlplane.choices": "Status = text_choices(words.Status, __name__)\n",
        importer: source,
    }
    assert hops(sources, vocabulary(sources)) == expected
