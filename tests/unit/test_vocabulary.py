"""One vocabulary: phases, condition types and statuses, reasons, event types, flavours and task names are
spoken through their ``StrEnum``s, never as string literals, and those enums import no Django.

The scan reads the syntax tree, so a word inside a longer string (a message, an f-string) is prose and is left
alone; so are docstrings, ``__all__``, the members of other enums, and the words a person reads in the console
(a ``badge``'s text, an admin column's ``description``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from enum import StrEnum
from pathlib import Path

import pytest

from catalogs import states as catalog_states
from cluster_vocabulary.kubernetes import ConditionStatus, EventType, NamespacePhase
from controlplane.events import ClusterReason
from controlplane.flavours import Flavour
from controlplane.tasks import TaskName
from gateways import states as gateway_states
from rollouts import states as rollout_states
from tests.paths import PROJECT_ROOT

SCANNED = ("workers", "controlplane", "gateways", "catalogs", "rollouts", "notifications")

ENUM_MODULES = {
    "catalogs/states.py",
    "controlplane/conditions.py",
    "controlplane/events.py",
    "controlplane/flavours.py",
    "controlplane/tasks.py",
    "gateways/states.py",
    "rollouts/states.py",
}

VOCABULARY: tuple[type[StrEnum], ...] = (
    gateway_states.Phase,
    gateway_states.ConditionType,
    gateway_states.Reason,
    gateway_states.Step,
    gateway_states.ImagePolicyReason,
    gateway_states.ReleaseStatus,
    gateway_states.ReleaseReason,
    catalog_states.ConditionType,
    catalog_states.Reason,
    catalog_states.AvailabilityMode,
    rollout_states.RolloutPhase,
    rollout_states.ConditionType,
    rollout_states.Reason,
    ConditionStatus,
    EventType,
    ClusterReason,
    Flavour,
    TaskName,
    NamespacePhase,
)
FORBIDDEN = frozenset(member.value for enum in VOCABULARY for member in enum)


def _scanned_files() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((PROJECT_ROOT / top).rglob("*.py")):
            relative = path.relative_to(PROJECT_ROOT).as_posix()
            if "/migrations/" in relative or relative in ENUM_MODULES:
                continue
            files.append(path)
    return files


def _is_enum(node: ast.ClassDef) -> bool:
    return any(isinstance(base, ast.Name | ast.Attribute) and ast.unparse(base).endswith("Enum") for base in node.bases)


def _exempt_nodes(tree: ast.AST) -> set[int]:
    """The ids of the constants that are prose, names or console labels rather than vocabulary."""
    exempt: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            exempt.add(node.value)  # a docstring
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            exempt.update(ast.walk(node.value))
        elif isinstance(node, ast.ClassDef) and _is_enum(node):
            exempt.update(ast.walk(node))  # another enum's members (a reconciler's states, say)
        elif isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
            exempt.update(node.values)  # fragments of an f-string
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "badge" and node.args:
                exempt.add(node.args[0])
            exempt.update(k.value for k in node.keywords if k.arg == "description")
    return {id(node) for node in exempt}


def vocabulary_literals(source: str, forbidden: frozenset[str] = FORBIDDEN) -> list[tuple[int, str]]:
    """The lines and values of the string literals in ``source`` that are exactly a word of the vocabulary (a word
    inside a longer string, a docstring or ``__all__`` is fine)."""
    tree = ast.parse(source)
    exempt = _exempt_nodes(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in forbidden
        and id(node) not in exempt
    )


def test_the_vocabulary_is_spoken_through_its_enums() -> None:
    files = _scanned_files()
    assert any(path.name == "loop.py" for path in files), "the scan must cover the gateway loop"
    found = [
        f"{path.relative_to(PROJECT_ROOT)}:{line}: {value!r}"
        for path in files
        for line, value in vocabulary_literals(path.read_text())
    ]
    assert not found, "String literals where an enum member belongs:\n" + "\n".join(found)


def test_the_enum_modules_exist() -> None:
    """An entry whose file moved would exempt nothing and mean nothing: drop it."""
    for relative in ENUM_MODULES:
        assert (PROJECT_ROOT / relative).exists(), relative


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('phase = "Running"\n', [(1, "Running")]),
        ('x = {"type": "Ready", "status": "True"}\n', [(1, "Ready"), (1, "True")]),
        ('send("workers.tasks.reconcile_gateway", pk)\n', [(1, "workers.tasks.reconcile_gateway")]),
        ('message = "Ready once the workload is up"\n', []),
        ('label = f"{name} is Running"\n', []),
        ('__all__ = ["Stalled"]\n', []),
        ('def f():\n    """Ready"""\n', []),
        ('import_module("workers.tasks.gateways")\n', []),
        ('reason = f"{action}Failed"\n', []),
        ('class State(enum.Enum):\n    FAILED = "Failed"\n', []),
        ('badge("Pending", MUTED)\n', []),
        ('@admin.display(description="Serving")\ndef f(): ...\n', []),
        ('tone = {"Pending": MUTED}\n', [(1, "Pending")]),
    ],
)
def test_the_scan_flags_whole_literals_only(source: str, expected: list[tuple[int, str]]) -> None:
    assert vocabulary_literals(source) == expected


def test_the_django_choices_are_the_enums() -> None:
    from catalogs import choices as catalog_choices
    from controlplane import choices as shared_choices
    from gateways import choices as gateway_choices
    from rollouts import choices as rollout_choices

    pairs = [
        (gateway_choices.Phase, gateway_states.Phase),
        (gateway_choices.ReleaseStatus, gateway_states.ReleaseStatus),
        (gateway_choices.ReleaseReason, gateway_states.ReleaseReason),
        (gateway_choices.ImagePolicyReason, gateway_states.ImagePolicyReason),
        (gateway_choices.DatabaseProvider, gateway_states.DatabaseProvider),
        (gateway_choices.PlanStatus, gateway_states.PlanStatus),
        (gateway_choices.PlanAction, gateway_states.PlanAction),
        (catalog_choices.ConditionType, catalog_states.ConditionType),
        (catalog_choices.Reason, catalog_states.Reason),
        (catalog_choices.AvailabilityMode, catalog_states.AvailabilityMode),
        (rollout_choices.RolloutPhase, rollout_states.RolloutPhase),
        (rollout_choices.TargetState, rollout_states.TargetState),
        (shared_choices.ConditionStatus, ConditionStatus),
        (shared_choices.EventType, EventType),
        (shared_choices.ClusterReason, ClusterReason),
        (shared_choices.Flavour, Flavour),
    ]
    for choices, enum in pairs:
        assert [(m.name, m.value) for m in choices] == [(m.name, m.value) for m in enum], enum
    assert shared_choices.Flavour.OPENSHIFT.label == "OpenShift"
    assert gateway_choices.ReleaseReason.CHART_UNAVAILABLE.label == "Chart Unavailable"
    assert gateway_choices.DatabaseProvider.EXTERNAL.label == "External PostgreSQL URI"


def _imports_no_django(modules: list[str]) -> bool:
    code = (
        f"import sys, {', '.join(modules)}; "
        "sys.exit(any(m.split('.')[0] in ('django', 'rest_framework', 'celery') for m in sys.modules))"
    )
    return subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, timeout=60).returncode == 0


def test_the_enum_modules_import_no_django() -> None:
    assert _imports_no_django(sorted(path.removesuffix(".py").replace("/", ".") for path in ENUM_MODULES))


@pytest.mark.parametrize(
    "module",
    [
        "workers.reconcile.gateway.passes.loop",
        "workers.reconcile.gateway.passes.phases",
        "workers.reconcile.events",
        "rollouts.machine",
    ],
)
def test_the_pure_reconciler_modules_speak_it_without_django(module: str) -> None:
    assert _imports_no_django([module])
