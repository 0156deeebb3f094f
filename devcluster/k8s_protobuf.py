"""Decoding Kubernetes protobuf request bodies (the `k8s\\0` envelope) for Secrets, ConfigMaps and Namespaces."""

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
