"""Decoding Kubernetes protobuf request bodies (the `k8s\\0` envelope) for what kubectl sends as protobuf: Secrets,
ConfigMaps, Namespaces and the RBAC kinds (`kubectl create secret|configmap|namespace|role|rolebinding|...`).
Field numbers are those of k8s.io/api's generated.proto files."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from typing import Any

from devcluster.errors import bad_request, unsupported_media_type
from devcluster.protobuf import ProtobufError, fields_by_number

PROTOBUF_CONTENT_TYPE = "application/vnd.kubernetes.protobuf"
MAGIC = b"k8s\x00"


def _text(value: int | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _last(fields: dict[int, list[int | bytes]], number: int) -> int | bytes | None:
    values = fields.get(number)
    return values[-1] if values else None


def _map(entries: list[int | bytes], as_bytes: bool = False) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for entry in entries:
        fields = fields_by_number(entry) if isinstance(entry, bytes) else {}
        key, value = _last(fields, 1), _last(fields, 2)
        raw = value if isinstance(value, bytes) else b""
        result[_text(key or b"")] = base64.b64encode(raw).decode() if as_bytes else raw.decode()
    return result


def _time(data: int | bytes | None) -> str | None:
    if not isinstance(data, bytes):
        return None
    seconds = _last(fields_by_number(data), 1)
    moment = datetime.fromtimestamp(int(seconds or 0), UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _owner_reference(data: bytes) -> dict[str, Any]:
    fields = fields_by_number(data)
    ref: dict[str, Any] = {}
    for number, name in ((5, "apiVersion"), (1, "kind"), (3, "name"), (4, "uid")):
        if _last(fields, number) is not None:
            ref[name] = _text(_last(fields, number))  # type: ignore[arg-type]
    for number, name in ((6, "controller"), (7, "blockOwnerDeletion")):
        if _last(fields, number) is not None:
            ref[name] = bool(_last(fields, number))
    return ref


def decode_object_meta(data: bytes) -> dict[str, Any]:
    fields = fields_by_number(data)
    result: dict[str, Any] = {}
    for number, name in ((1, "name"), (2, "generateName"), (3, "namespace"), (5, "uid"), (6, "resourceVersion")):
        value = _last(fields, number)
        if value not in (None, b""):
            result[name] = _text(value)  # type: ignore[arg-type]
    if _last(fields, 7):
        result["generation"] = _last(fields, 7)
    created = _time(_last(fields, 8))
    if created:
        result["creationTimestamp"] = created
    if 11 in fields:
        result["labels"] = _map(fields[11])
    if 12 in fields:
        result["annotations"] = _map(fields[12])
    if 13 in fields:
        result["ownerReferences"] = [_owner_reference(ref) for ref in fields[13] if isinstance(ref, bytes)]
    if 14 in fields:
        result["finalizers"] = [_text(value) for value in fields[14]]
    return result


def _decode_secret(fields: dict[int, list[int | bytes]]) -> dict[str, Any]:
    obj: dict[str, Any] = {"metadata": decode_object_meta(_bytes(_last(fields, 1)))}
    if 2 in fields:
        obj["data"] = _map(fields[2], as_bytes=True)
    if _last(fields, 3) is not None:
        obj["type"] = _text(_last(fields, 3))  # type: ignore[arg-type]
    if 4 in fields:
        obj["stringData"] = _map(fields[4])
    if _last(fields, 5) is not None:
        obj["immutable"] = bool(_last(fields, 5))
    return obj


def _decode_config_map(fields: dict[int, list[int | bytes]]) -> dict[str, Any]:
    obj: dict[str, Any] = {"metadata": decode_object_meta(_bytes(_last(fields, 1)))}
    if 2 in fields:
        obj["data"] = _map(fields[2])
    if 3 in fields:
        obj["binaryData"] = _map(fields[3], as_bytes=True)
    if _last(fields, 4) is not None:
        obj["immutable"] = bool(_last(fields, 4))
    return obj


def _decode_namespace(fields: dict[int, list[int | bytes]]) -> dict[str, Any]:
    obj: dict[str, Any] = {"metadata": decode_object_meta(_bytes(_last(fields, 1)))}
    spec = fields_by_number(_bytes(_last(fields, 2)))
    if 1 in spec:
        obj["spec"] = {"finalizers": [_text(value) for value in spec[1]]}
    return obj


def _texts(fields: dict[int, list[int | bytes]], number: int) -> list[str]:
    return [_text(value) for value in fields.get(number, [])]


def _policy_rule(data: bytes) -> dict[str, Any]:
    fields = fields_by_number(data)
    names = ((1, "verbs"), (2, "apiGroups"), (3, "resources"), (4, "resourceNames"), (5, "nonResourceURLs"))
    return {name: _texts(fields, number) for number, name in names if number in fields}


def _decode_role(fields: dict[int, list[int | bytes]]) -> dict[str, Any]:
    """Role and ClusterRole: metadata 1, rules 2 (a ClusterRole's aggregationRule, 3, is not decoded)."""
    obj: dict[str, Any] = {"metadata": decode_object_meta(_bytes(_last(fields, 1)))}
    obj["rules"] = [_policy_rule(rule) for rule in fields.get(2, []) if isinstance(rule, bytes)]
    return obj


def _decode_binding(fields: dict[int, list[int | bytes]]) -> dict[str, Any]:
    """RoleBinding and ClusterRoleBinding: metadata 1, subjects 2 (kind, apiGroup, name, namespace), roleRef 3
    (apiGroup, kind, name)."""
    obj: dict[str, Any] = {"metadata": decode_object_meta(_bytes(_last(fields, 1)))}
    subjects = []
    for data in fields.get(2, []):
        subject = fields_by_number(_bytes(data))
        keys = ((1, "kind"), (2, "apiGroup"), (3, "name"), (4, "namespace"))
        subjects.append({name: _text(_last(subject, n)) for n, name in keys if _last(subject, n) not in (None, b"")})
    if subjects:
        obj["subjects"] = subjects
    ref = fields_by_number(_bytes(_last(fields, 3)))
    obj["roleRef"] = {name: _text(_last(ref, n) or b"") for n, name in ((1, "apiGroup"), (2, "kind"), (3, "name"))}
    return obj


def _decode_delete_options(fields: dict[int, list[int | bytes]]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if _last(fields, 1) is not None:
        options["gracePeriodSeconds"] = _last(fields, 1)
    if _last(fields, 4) is not None:
        options["propagationPolicy"] = _text(_last(fields, 4))  # type: ignore[arg-type]
    if 5 in fields:
        options["dryRun"] = [_text(value) for value in fields[5]]
    return options


_DECODERS = {
    ("v1", "Secret"): _decode_secret,
    ("v1", "ConfigMap"): _decode_config_map,
    ("v1", "Namespace"): _decode_namespace,
    ("rbac.authorization.k8s.io/v1", "Role"): _decode_role,
    ("rbac.authorization.k8s.io/v1", "ClusterRole"): _decode_role,
    ("rbac.authorization.k8s.io/v1", "RoleBinding"): _decode_binding,
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"): _decode_binding,
    ("v1", "DeleteOptions"): _decode_delete_options,
    ("meta.k8s.io/v1", "DeleteOptions"): _decode_delete_options,
}


def _bytes(value: int | bytes | None) -> bytes:
    return value if isinstance(value, bytes) else b""


def decode(body: bytes) -> dict[str, Any]:
    """A protobuf-encoded Kubernetes object as its JSON form; 415 for kinds this decoder doesn't know."""
    if not body.startswith(MAGIC):
        raise bad_request("protobuf body lacks the k8s envelope magic")
    try:
        envelope = fields_by_number(body[len(MAGIC) :])
        type_meta = fields_by_number(_bytes(_last(envelope, 1)))
        api_version = _text(_last(type_meta, 1) or b"")
        kind = _text(_last(type_meta, 2) or b"")
        decoder = _DECODERS.get((api_version, kind))
        if decoder is None:
            raise unsupported_media_type(f"{PROTOBUF_CONTENT_TYPE} (no protobuf decoder for {api_version} {kind})")
        obj = decoder(fields_by_number(_bytes(_last(envelope, 2))))
    except (ProtobufError, UnicodeDecodeError, ValueError) as exc:
        raise bad_request(f"malformed protobuf body: {exc}") from None
    if kind != "DeleteOptions":
        obj = {"apiVersion": api_version, "kind": kind, **obj}
    return obj
