r"""Field selectors, parsed and checked as the API server does.

A selector is terms split on unescaped commas; each term is a field label, the first unescaped `!=`, `==` or
`=`, and a value that may hold any character (`type=kubernetes.io/tls`), with `\\`, `\,` and `\=` escaped by
a backslash. A field label the resource does not select on is refused (400 "field label not supported").
"""

from __future__ import annotations

from typing import Any

from devcluster.errors import bad_request
from devcluster.selectors import Matcher

__all__ = ["FIELD_LABELS", "field_matcher"]

# Field labels beyond metadata.name and metadata.namespace (which every resource has; custom resources have only
# those), by (group, plural), as kube-apiserver registers them.
FIELD_LABELS: dict[tuple[str, str], frozenset[str]] = {
    ("", "secrets"): frozenset({"type"}),
    ("", "namespaces"): frozenset({"status.phase"}),
    ("", "nodes"): frozenset({"spec.unschedulable"}),
    ("", "pods"): frozenset(
        {
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
        }
    ),
    ("", "events"): frozenset(
        {
            "involvedObject.kind",
            "involvedObject.namespace",
            "involvedObject.name",
            "involvedObject.uid",
            "involvedObject.apiVersion",
            "involvedObject.resourceVersion",
            "involvedObject.fieldPath",
            "reason",
            "reportingComponent",
            "source",
            "type",
        }
    ),
    ("apps", "replicasets"): frozenset({"status.replicas"}),
    ("batch", "jobs"): frozenset({"status.successful"}),
}
COMMON_FIELD_LABELS = frozenset({"metadata.name", "metadata.namespace"})
_ESCAPES = {"\\": "\\", ",": ",", "=": "="}
_OPERATORS = ("!=", "==", "=")


def _terms(selector: str) -> list[str]:
    """The selector split on commas no backslash escapes (escapes kept, for ``_unescape``)."""
    terms, current, escaped = [], "", False
    for char in selector:
        if char == "," and not escaped:
            terms.append(current)
            current = ""
        else:
            current += char
        escaped = char == "\\" and not escaped
    return [term for term in [*terms, current] if term.strip()]


def _unescape(value: str) -> str:
    out, chars = [], iter(value)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            if following not in _ESCAPES:
                raise bad_request(f"invalid field selector: invalid escape sequence in {value!r}")
            char = _ESCAPES[following]
        out.append(char)
    return "".join(out)


def _term(term: str) -> tuple[str, bool, str]:
    """(field label, equal, value): the first unescaped operator splits the term."""
    escaped = False
    for index, char in enumerate(term):
        if not escaped:
            op = next((op for op in _OPERATORS if term.startswith(op, index)), None)
            if op is not None:
                return term[:index].strip(), op != "!=", _unescape(term[index + len(op) :])
        escaped = char == "\\" and not escaped
    raise bad_request(f"invalid selector: {term!r}; can't understand {term!r}")


def _field_value(obj: dict[str, Any], path: str) -> str:
    value: Any = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if isinstance(value, bool):
        return str(value).lower()
    return "" if value is None else str(value)


def field_matcher(selector: str | None, resource: tuple[str, str]) -> Matcher:
    """A predicate for a field selector over objects of ``resource`` (group, plural); raises 400 for a bad one."""
    supported = COMMON_FIELD_LABELS | FIELD_LABELS.get(resource, frozenset())
    checks = [_term(term) for term in _terms(selector or "")]
    for label, _, _ in checks:
        if label not in supported:
            raise bad_request(f"field label not supported: {label}")

    def matches(obj: dict[str, Any]) -> bool:
        return all((_field_value(obj, label) == value) == equal for label, equal, value in checks)

    return matches
