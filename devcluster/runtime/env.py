"""A container's environment as a kubelet builds it (pure): the image's ENV, then `envFrom`, then `env` in
order, with `valueFrom` Secret/ConfigMap keys and the downward API, and `$(VAR)` references expanded against the
variables defined before (`$$` escapes), as https://kubernetes.io/docs/tasks/inject-data-application/ says."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["EnvError", "Lookup", "SetupError", "container_env", "expand", "field_value"]

Lookup = Callable[[tuple[str, str], str, str], dict[str, Any] | None]
SECRETS_KEY = ("", "secrets")
CONFIGMAPS_KEY = ("", "configmaps")
_REFERENCE = re.compile(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")
_SUBSCRIPT = re.compile(r"^metadata\.(labels|annotations)\['(.+)'\]$")


class SetupError(ValueError):
    """A container the runtime cannot set up (its pod stays Pending with CreateContainerConfigError)."""


class EnvError(SetupError):
    """The environment cannot be built."""


def expand(value: str, defined: Mapping[str, str]) -> str:
    """Kubernetes' `$(VAR)` expansion: defined names are replaced, unknown ones kept, `$$` becomes `$`."""

    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name = match.group(1)
        return defined[name] if name in defined else match.group(0)

    return _REFERENCE.sub(replace, value)


def field_value(pod: dict[str, Any], path: str) -> str:
    """The downward API's `fieldRef.fieldPath` of a pod."""
    meta, spec, status = pod["metadata"], pod.get("spec") or {}, pod.get("status") or {}
    simple = {
        "metadata.name": meta.get("name", ""),
        "metadata.namespace": meta.get("namespace", ""),
        "metadata.uid": meta.get("uid", ""),
        "spec.nodeName": spec.get("nodeName", ""),
        "spec.serviceAccountName": spec.get("serviceAccountName", ""),
        "status.hostIP": status.get("hostIP", ""),
        "status.podIP": status.get("podIP", ""),
    }
    if path in simple:
        return simple[path]
    subscript = _SUBSCRIPT.match(path)
    if subscript:
        return str((meta.get(subscript.group(1)) or {}).get(subscript.group(2), ""))
    raise EnvError(f"unsupported fieldRef fieldPath {path!r}")


def _data(obj: dict[str, Any], secret: bool) -> dict[str, str]:
    if secret:
        return {key: base64.b64decode(value).decode() for key, value in (obj.get("data") or {}).items()}
    binary = {key: base64.b64decode(value).decode() for key, value in (obj.get("binaryData") or {}).items()}
    return {**binary, **(obj.get("data") or {})}


def _source(lookup: Lookup, namespace: str, ref: dict[str, Any], secret: bool) -> dict[str, str] | None:
    obj = lookup(SECRETS_KEY if secret else CONFIGMAPS_KEY, namespace, ref.get("name", ""))
    if obj is None:
        if ref.get("optional"):
            return None
        raise EnvError(f'{"secret" if secret else "configmap"} "{ref.get("name", "")}" not found')
    return _data(obj, secret)


def _value_from(lookup: Lookup, pod: dict[str, Any], source: dict[str, Any]) -> str | None:
    namespace = pod["metadata"]["namespace"]
    for field, secret in (("secretKeyRef", True), ("configMapKeyRef", False)):
        ref = source.get(field)
        if ref is not None:
            data = _source(lookup, namespace, ref, secret)
            if data is None:
                return None
            if ref.get("key") not in data:
                if ref.get("optional"):
                    return None
                kind = "Secret" if secret else "ConfigMap"
                raise EnvError(f"couldn't find key {ref.get('key')} in {kind} {namespace}/{ref.get('name', '')}")
            return data[ref["key"]]
    if source.get("fieldRef") is not None:
        return field_value(pod, source["fieldRef"].get("fieldPath", ""))
    raise EnvError(f"unsupported valueFrom {sorted(source)}")


def container_env(
    lookup: Lookup, pod: dict[str, Any], container: dict[str, Any], image_env: Mapping[str, str]
) -> dict[str, str]:
    """The environment the container's process starts with (the image's ENV overridden by the pod's)."""
    namespace = pod["metadata"]["namespace"]
    defined: dict[str, str] = {}
    for source in container.get("envFrom") or []:
        prefix = source.get("prefix", "")
        for field, secret in (("secretRef", True), ("configMapRef", False)):
            if source.get(field) is not None:
                data = _source(lookup, namespace, source[field], secret) or {}
                defined.update({prefix + key: value for key, value in data.items()})
    for item in container.get("env") or []:
        if "valueFrom" in item:
            value = _value_from(lookup, pod, item["valueFrom"])
            if value is None:
                continue
        else:
            value = expand(item.get("value", ""), defined)
        defined[item["name"]] = value
    return {**image_env, **defined}
