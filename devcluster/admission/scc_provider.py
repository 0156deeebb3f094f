"""One SecurityContextConstraints as an admission provider: default a pod under it, then validate (pure).

Follows openshift/apiserver-library-go pkg/securitycontextconstraints: sccmatching/matcher.go
(AssignSecurityContext, CreateProviderFromConstraint: namespace-preallocated UID range, MCS level and
groups), sccmatching/provider.go (Create*/Validate*SecurityContext), the user, group, selinux, seccomp and
capabilities strategies, sccdefaults (volume defaulting) and util/sort (priority, restrictiveness, name).
Field errors are rendered as k8s.io/apimachinery field.Error renders them. Not modelled: sysctls, flex
volume drivers, the MustRunAs UID of `runAsUser.uid`-less SCCs other than MustRunAs/Range/NonRoot/RunAsAny.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from devcluster.admission.ranges import (
    MCS_ANNOTATION,
    SUPPLEMENTAL_GROUPS_ANNOTATION,
    UID_RANGE_ANNOTATION,
    parse_block,
    parse_blocks,
)

__all__ = ["FieldError", "Provider", "aggregate", "assign", "provider_for", "sort_key"]

SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CONTAINER_PREFIX = "container.seccomp.security.alpha.kubernetes.io/"

# util.GetVolumeFSType: a volume's type is its first source in this order.
VOLUME_TYPES = (
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
)
_TRIVIAL_VOLUMES = {"secret", "configMap", "emptyDir", "downwardAPI", "projected", "none"}


@dataclass(frozen=True)
class FieldError:
    """A field.Error: `<path>: <Type>[: <value>][: <detail>]`."""

    path: str
    type: str  # "Invalid value", "Required value" or "Forbidden"
    value: Any = None
    detail: str = ""
    go_type: str = ""  # the Go type of a list value, e.g. "[]int64"

    def __str__(self) -> str:
        body = self.type if self.type != "Invalid value" else f"{self.type}: {_go_value(self.value, self.go_type)}"
        return f"{self.path}: {body}: {self.detail}" if self.detail else f"{self.path}: {body}"


def _go_value(value: Any, go_type: str) -> str:
    """A bad value as field.Error prints it (`%v` for scalars, `%q` for strings, `%#v` for slices)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        items = ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in value)
        return f"{go_type}{{{items}}}"
    if value is None and go_type:
        return f"{go_type}(nil)"
    return "null"


def aggregate(errors: list[FieldError]) -> str:
    """utilerrors.Aggregate's message: duplicates dropped, one bare, several in brackets."""
    messages = list(dict.fromkeys(str(e) for e in errors))
    return messages[0] if len(messages) == 1 else "[" + ", ".join(messages) + "]"


@dataclass(frozen=True)
class Provider:
    """An SCC with the namespace's preallocated UID range, MCS level and groups filled in."""

    scc: dict[str, Any]

    @property
    def name(self) -> str:
        return self.scc["metadata"]["name"]


def provider_for(scc: dict[str, Any], namespace: dict[str, Any]) -> Provider:
    """CreateProviderFromConstraint; ValueError when the namespace lacks a needed annotation."""
    scc = copy.deepcopy(scc)
    annotations = namespace["metadata"].get("annotations") or {}
    ns_name, scc_name = namespace["metadata"]["name"], scc["metadata"]["name"]
    run_as_user = scc.setdefault("runAsUser", {}) or {}
    scc["runAsUser"] = run_as_user
    if run_as_user.get("type") == "MustRunAsRange" and run_as_user.get("uidRangeMin") is None:
        text = annotations.get(UID_RANGE_ANNOTATION)
        if not text:
            raise ValueError(
                f"unable to find pre-allocated uid annotation for namespace {ns_name} while trying to configure "
                f"SCC {scc_name}: unable to find annotation {UID_RANGE_ANNOTATION}"
            )
        block = parse_block(text)
        run_as_user["uidRangeMin"], run_as_user["uidRangeMax"] = block.start, block.end
    se_linux = scc.get("seLinuxContext") or {}
    scc["seLinuxContext"] = se_linux
    if se_linux.get("type") == "MustRunAs" and not (se_linux.get("seLinuxOptions") or {}).get("level"):
        level = annotations.get(MCS_ANNOTATION)
        if not level:
            raise ValueError(
                f"unable to find pre-allocated mcs annotation for namespace {ns_name} while trying to configure "
                f"SCC {scc_name}: unable to find annotation {MCS_ANNOTATION}"
            )
        se_linux["seLinuxOptions"] = {**(se_linux.get("seLinuxOptions") or {}), "level": level}
    for key in ("fsGroup", "supplementalGroups"):
        strategy = scc.get(key) or {"type": "RunAsAny"}
        scc[key] = strategy
        if strategy.get("type") == "MustRunAs" and not strategy.get("ranges"):
            text = annotations.get(SUPPLEMENTAL_GROUPS_ANNOTATION) or annotations.get(UID_RANGE_ANNOTATION)
            if not text:
                raise ValueError(
                    f"unable to find pre-allocated group annotation for namespace {ns_name} while trying to "
                    f"configure SCC {scc_name}: unable to find supplemental group or uid annotation for "
                    f"namespace {ns_name}"
                )
            blocks = parse_blocks(text)
            # The fsGroup range is the first block's first ID only (getPreallocatedFSGroup).
            ranges = [(blocks[0].start, blocks[0].start)] if key == "fsGroup" else [(b.start, b.end) for b in blocks]
            strategy["ranges"] = [{"min": lo, "max": hi} for lo, hi in ranges]
    return Provider(scc)


# -- ordering (util/sort) ----------------------------------------------------------------------------------


def _allowed_volumes(scc: dict[str, Any]) -> set[str]:
    """The SCC's volumes after SetDefaults_SCC (allowHostDirVolumePlugin wins over the list)."""
    volumes = scc.get("volumes")
    host_dir = bool(scc.get("allowHostDirVolumePlugin"))
    allowed = {"*"} if volumes is None else set(volumes) or ({"hostPath"} if host_dir else {"none"})
    if host_dir:
        if "*" not in allowed:
            allowed.add("hostPath")
    else:
        everything = "*" in allowed
        allowed -= {"*", "hostPath"}
        if everything:
            allowed |= set(VOLUME_TYPES) - {"hostPath"}
    return allowed


def _points(scc: dict[str, Any]) -> int:
    """pointValue: how permissive an SCC is (lower is more restrictive)."""
    total = 1_600_000 if scc.get("allowPrivilegedContainer") else 0
    volumes = set(scc.get("volumes") or [])
    if volumes & {"hostPath", "*"}:
        total += 200_000
    elif volumes - _TRIVIAL_VOLUMES:
        total += 100_000
    total += 400_000 if scc.get("allowHostNetwork") else 0
    total += 800_000 if scc.get("allowHostPorts") else 0
    caps = 5000 + 300 * len(scc.get("defaultAddCapabilities") or [])
    allowed = [c.upper() for c in scc.get("allowedCapabilities") or []]
    caps += 4000 if ("*" in allowed or "ALL" in allowed) else 10 * len(allowed)
    drops = [c.upper() for c in scc.get("requiredDropCapabilities") or []]
    caps += -3000 if "ALL" in drops else -50 * len(drops)
    total += max(0, min(9999, caps))
    strategy_points = {"RunAsAny": 40_000, "MustRunAsNonRoot": 30_000, "MustRunAsRange": 20_000, "MustRunAs": 10_000}
    total += strategy_points.get((scc.get("seLinuxContext") or {}).get("type", ""), 0)
    total += strategy_points.get((scc.get("runAsUser") or {}).get("type", ""), 0)
    return total


def sort_key(scc: dict[str, Any]) -> tuple[int, int, str]:
    """ByPriority: higher priority first (nil is 0), then the more restrictive, then by name."""
    return (-(scc.get("priority") or 0), _points(scc), scc["metadata"]["name"])


# -- defaulting and validation (provider.go) -------------------------------------------------------------


def _containers(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each container with its path suffix, as VisitContainersWithPath."""
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for i, container in enumerate(spec.get(key) or []):
            yield f".{key}[{i}]", container


def _seccomp_annotation(profile: dict[str, Any] | None) -> str:
    kind = (profile or {}).get("type")
    if kind == "Unconfined":
        return "unconfined"
    if kind == "RuntimeDefault":
        return "runtime/default"
    if kind == "Localhost" and profile and profile.get("localhostProfile") is not None:
        return "localhost/" + profile["localhostProfile"]
    return ""


def _seccomp_field(annotation: str) -> dict[str, Any] | None:
    if annotation == "unconfined":
        return {"type": "Unconfined"}
    if annotation in ("runtime/default", "docker/default"):
        return {"type": "RuntimeDefault"}
    if annotation.startswith("localhost/") and annotation != "localhost/":
        return {"type": "Localhost", "localhostProfile": annotation.removeprefix("localhost/")}
    return None


def _validate_seccomp(scc: dict[str, Any], path: str, profile: str) -> list[FieldError]:
    profiles = scc.get("seccompProfiles") or []
    allow_any = "*" in profiles
    allowed = [p for p in profiles if p != "*"]
    if not allow_any and not allowed and profile:
        return [FieldError(path, "Forbidden", detail="seccomp may not be set")]
    if (not allowed and not profile) or allow_any:
        return []
    runtime_default = bool({"runtime/default", "docker/default"} & set(allowed))
    if profile in allowed or (runtime_default and profile in ("runtime/default", "docker/default")):
        return []
    valid = "[" + " ".join(allowed) + "]"
    return [
        FieldError(path, "Forbidden", detail=f"{profile} is not an allowed seccomp profile. Valid values are {valid}")
    ]


def _validate_groups(strategy: dict[str, Any], path: str, groups: list[int] | None) -> list[FieldError]:
    if strategy.get("type") != "MustRunAs":
        return []
    ranges = strategy.get("ranges") or []
    if not groups:
        return [
            FieldError(
                path, "Invalid value", groups, "unable to validate empty groups against required ranges", "[]int64"
            )
        ]
    return [
        FieldError(path, "Invalid value", groups, f"{g} is not an allowed group", "[]int64")
        for g in groups
        if not any(r["min"] <= g <= r["max"] for r in ranges)
    ]


def _validate_se_linux(scc: dict[str, Any], path: str, options: dict[str, Any] | None) -> list[FieldError]:
    strategy = scc.get("seLinuxContext") or {}
    if strategy.get("type") != "MustRunAs":
        return []
    if options is None:
        return [FieldError(path, "Required value")]
    wanted = strategy.get("seLinuxOptions") or {}
    errs = []
    if not _equal_levels(wanted.get("level", ""), options.get("level", "")):
        errs.append(
            FieldError(f"{path}.level", "Invalid value", options.get("level", ""), f"must be {wanted.get('level', '')}")
        )
    for key in ("role", "type", "user"):
        if options.get(key, "") != wanted.get(key, ""):
            errs.append(
                FieldError(f"{path}.{key}", "Invalid value", options.get(key, ""), f"must be {wanted.get(key, '')}")
            )
    return errs


def _equal_levels(expected: str, actual: str) -> bool:
    if expected == actual:
        return True
    e, a = expected.split(":", 1), actual.split(":", 1)
    return len(e) == 2 and len(a) == 2 and e[0] == a[0] and sorted(e[1].split(",")) == sorted(a[1].split(","))


def _validate_run_as_user(scc: dict[str, Any], path: str, non_root: bool | None, uid: int | None) -> list[FieldError]:
    strategy = scc.get("runAsUser") or {}
    kind = strategy.get("type")
    if kind == "MustRunAsRange":
        if uid is None:
            return [FieldError(f"{path}.runAsUser", "Required value")]
        lo, hi = strategy["uidRangeMin"], strategy["uidRangeMax"]
        if not lo <= uid <= hi:
            return [FieldError(f"{path}.runAsUser", "Invalid value", uid, f"must be in the ranges: [{lo}, {hi}]")]
    elif kind == "MustRunAs":
        if uid is None:
            return [FieldError(f"{path}.runAsUser", "Required value")]
        if uid != strategy.get("uid"):
            return [FieldError(f"{path}.runAsUser", "Invalid value", uid, f"must be: {strategy.get('uid')}")]
    elif kind == "MustRunAsNonRoot":
        if non_root is None and uid is None:
            return [FieldError(f"{path}.runAsNonRoot", "Required value", detail="must be true")]
        if non_root is False:
            return [FieldError(f"{path}.runAsNonRoot", "Invalid value", False, "must be true")]
        if uid == 0:
            return [FieldError(f"{path}.runAsUser", "Invalid value", 0, "running with the root UID is forbidden")]
    return []


def _generate_capabilities(scc: dict[str, Any], container: dict[str, Any]) -> dict[str, Any] | None:
    current = (container.get("securityContext") or {}).get("capabilities")
    add, drop = set((current or {}).get("add") or []), set((current or {}).get("drop") or [])
    default_add = set(scc.get("defaultAddCapabilities") or []) - drop
    combined_add, combined_drop = default_add | add, set(scc.get("requiredDropCapabilities") or []) | drop
    if len(combined_add) == len(add) and len(combined_drop) == len(drop):
        return current
    result = {}
    if combined_add:
        result["add"] = sorted(combined_add)
    if combined_drop:
        result["drop"] = sorted(combined_drop)
    return result


def _validate_capabilities(scc: dict[str, Any], path: str, caps: dict[str, Any] | None) -> list[FieldError]:
    default_add, required_drop = scc.get("defaultAddCapabilities") or [], scc.get("requiredDropCapabilities") or []
    if caps is None:
        if not default_add and not required_drop:
            return []
        return [
            FieldError(
                f"{path}.capabilities",
                "Invalid value",
                None,
                "required capabilities are not set on the securityContext",
            )
        ]
    allowed = scc.get("allowedCapabilities") or []
    if "*" in allowed:
        return []
    errs = [
        FieldError(f"{path}.capabilities.add", "Invalid value", cap, "capability may not be added")
        for cap in caps.get("add") or []
        if cap not in default_add and cap not in allowed
    ]
    drops = caps.get("drop")
    errs += [
        FieldError(
            f"{path}.capabilities.drop",
            "Invalid value",
            drops,
            f"{cap} is required to be dropped but was not found",
            "[]core.Capability",
        )
        for cap in required_drop
        if cap not in (drops or [])
    ]
    return errs


def _volume_type(volume: dict[str, Any]) -> str:
    return next((kind for kind in VOLUME_TYPES if volume.get(kind) is not None), "")


def _only_service_account_token_sources(projected: dict[str, Any]) -> bool:
    """IsOnlyServiceAccountTokenSources: the projected volume a ServiceAccount token mount uses."""
    expected_cm = {"kube-root-ca.crt": "ca.crt", "openshift-service-ca.crt": "service-ca.crt"}
    for source in projected.get("sources") or []:
        token, cm, downward = source.get("serviceAccountToken"), source.get("configMap"), source.get("downwardAPI")
        if token is None and cm is None and downward is None:
            return False
        if token is not None and (token.get("path") != "token" or token.get("audience")):
            return False
        if cm is not None:
            key = expected_cm.get(cm.get("name", ""))
            if key is None or (cm.get("items") or []) != [{"key": key, "path": key}]:
                return False
        for item in (downward or {}).get("items") or []:
            ref = item.get("fieldRef") or {}
            if (
                item.get("path") != "namespace"
                or ref.get("apiVersion", "v1") != "v1"
                or ref.get("fieldPath") != "metadata.namespace"
            ):
                return False
    return True


def _validate_pod(scc: dict[str, Any], prefix: str, pod: dict[str, Any]) -> list[FieldError]:
    spec, path = pod["spec"], f"{prefix}.spec.securityContext"
    sc = spec.get("securityContext") or {}
    fs_group = sc.get("fsGroup")
    errs = _validate_groups(scc["fsGroup"], f"{path}.fsGroup", [fs_group] if fs_group is not None else [])
    errs += _validate_groups(scc["supplementalGroups"], f"{path}.supplementalGroups", sc.get("supplementalGroups"))
    profile = (pod["metadata"].get("annotations") or {}).get(SECCOMP_POD_ANNOTATION) or _seccomp_annotation(
        sc.get("seccompProfile")
    )
    errs += _validate_seccomp(scc, f"pod.metadata.annotations[{SECCOMP_POD_ANNOTATION}]", profile)
    errs += _validate_se_linux(scc, f"{path}.seLinuxOptions", sc.get("seLinuxOptions"))
    errs += _host_namespace_errors(scc, path, spec)
    if scc.get("userNamespaceLevel") == "RequirePod" and spec.get("hostUsers") is not False:
        errs.append(
            FieldError(f"{path}.hostUsers", "Invalid value", spec.get("hostUsers"), "Host Users must be set to false")
        )
    allowed = _allowed_volumes(scc)
    if spec.get("volumes") and "*" not in allowed:
        for i, volume in enumerate(spec["volumes"]):
            kind = _volume_type(volume)
            token_only = (
                kind == "projected" and "secret" in allowed and _only_service_account_token_sources(volume["projected"])
            )
            if kind not in allowed and not token_only:
                errs.append(
                    FieldError(
                        f"spec.volumes[{i}]", "Invalid value", kind, f"{kind} volumes are not allowed to be used"
                    )
                )
    return errs


def _host_namespace_errors(scc: dict[str, Any], path: str, spec: dict[str, Any]) -> list[FieldError]:
    checks = (
        ("hostNetwork", "allowHostNetwork", "Host network"),
        ("hostPID", "allowHostPID", "Host PID"),
        ("hostIPC", "allowHostIPC", "Host IPC"),
    )
    return [
        FieldError(f"{path}.{field}", "Invalid value", True, f"{what} is not allowed to be used")
        for field, allow, what in checks
        if spec.get(field) and not scc.get(allow)
    ]


def _container_profile(pod: dict[str, Any], container: dict[str, Any]) -> str:
    """profileForContainer: the container's field, its annotation, the pod's field, the pod's annotation."""
    own = (container.get("securityContext") or {}).get("seccompProfile")
    if own is not None:
        return _seccomp_annotation(own)
    annotations = pod["metadata"].get("annotations") or {}
    if SECCOMP_CONTAINER_PREFIX + container.get("name", "") in annotations:
        return annotations[SECCOMP_CONTAINER_PREFIX + container.get("name", "")]
    pod_profile = (pod["spec"].get("securityContext") or {}).get("seccompProfile")
    if pod_profile is not None:
        return _seccomp_annotation(pod_profile)
    return annotations.get(SECCOMP_POD_ANNOTATION, "")


def _default_container(scc: dict[str, Any], pod: dict[str, Any], container: dict[str, Any]) -> None:
    """CreateContainerSecurityContext: fill what the SCC defaults, where neither container nor pod set it."""
    pod_sc = pod["spec"].get("securityContext") or {}
    sc = dict(container.get("securityContext") or {})

    def effective(key: str) -> Any:
        return sc[key] if sc.get(key) is not None else pod_sc.get(key)

    strategy = scc.get("runAsUser") or {}
    if effective("runAsUser") is None:
        generated = (
            strategy.get("uidRangeMin")
            if strategy.get("type") == "MustRunAsRange"
            else strategy.get("uid")
            if strategy.get("type") == "MustRunAs"
            else None
        )
        if generated is not None:
            sc["runAsUser"] = generated
    se_linux = scc.get("seLinuxContext") or {}
    if effective("seLinuxOptions") is None and se_linux.get("type") == "MustRunAs":
        sc["seLinuxOptions"] = dict(se_linux.get("seLinuxOptions") or {})
    if effective("runAsNonRoot") is None:
        uid = effective("runAsUser")
        if (uid is None and strategy.get("type") == "MustRunAsNonRoot") or (uid is not None and uid > 0):
            sc["runAsNonRoot"] = True
    caps = _generate_capabilities(scc, container)
    if caps is not None:
        sc["capabilities"] = caps
    if scc.get("readOnlyRootFilesystem") and sc.get("readOnlyRootFilesystem") is None:
        sc["readOnlyRootFilesystem"] = True
    annotation = (pod["metadata"].get("annotations") or {}).get(SECCOMP_CONTAINER_PREFIX + container.get("name", ""))
    if annotation is not None and (profile := _seccomp_field(annotation)) is not None:
        sc["seccompProfile"] = profile
    privileged = bool(sc.get("privileged"))
    sys_admin = "CAP_SYS_ADMIN" in ((caps or {}).get("add") or [])
    if (
        scc.get("defaultAllowPrivilegeEscalation") is not None
        and sc.get("allowPrivilegeEscalation") is None
        and not privileged
        and not sys_admin
    ):
        sc["allowPrivilegeEscalation"] = scc["defaultAllowPrivilegeEscalation"]
    if scc.get("allowPrivilegeEscalation") is False and sc.get("allowPrivilegeEscalation") is None:
        sc["allowPrivilegeEscalation"] = False
    if sc:
        container["securityContext"] = sc


def _validate_container(
    scc: dict[str, Any], pod: dict[str, Any], container: dict[str, Any], path: str
) -> list[FieldError]:
    spec = pod["spec"]
    pod_sc, sc = spec.get("securityContext") or {}, container.get("securityContext") or {}

    def effective(key: str) -> Any:
        return sc[key] if sc.get(key) is not None else pod_sc.get(key)

    errs = _validate_run_as_user(scc, path, effective("runAsNonRoot"), effective("runAsUser"))
    errs += _validate_se_linux(scc, f"{path}.seLinuxOptions", effective("seLinuxOptions"))
    errs += _validate_seccomp(
        scc,
        f"pod.metadata.annotations[{SECCOMP_CONTAINER_PREFIX}{container.get('name', '')}]",
        _container_profile(pod, container),
    )
    if sc.get("privileged") and not scc.get("allowPrivilegedContainer"):
        errs.append(FieldError(f"{path}.privileged", "Invalid value", True, "Privileged containers are not allowed"))
    errs += _validate_capabilities(scc, path, sc.get("capabilities"))
    host_namespaces = _host_namespace_errors(scc, path, spec)
    errs += [e for e in host_namespaces if e.path.endswith(".hostNetwork")]
    if not scc.get("allowHostPorts"):
        # As upstream, every container's host ports are checked, under this container's path.
        for suffix, other in _containers(spec):
            errs += [
                FieldError(
                    f"{path}{suffix}.hostPort",
                    "Invalid value",
                    port["hostPort"],
                    "Host ports are not allowed to be used",
                )
                for port in other.get("ports") or []
                if (port.get("hostPort") or 0) > 0
            ]
    errs += [e for e in host_namespaces if not e.path.endswith(".hostNetwork")]
    if scc.get("readOnlyRootFilesystem"):
        read_only = sc.get("readOnlyRootFilesystem")
        if read_only is None:
            errs.append(
                FieldError(
                    f"{path}.readOnlyRootFilesystem",
                    "Invalid value",
                    None,
                    "ReadOnlyRootFilesystem may not be nil and must be set to true",
                )
            )
        elif not read_only:
            errs.append(
                FieldError(
                    f"{path}.readOnlyRootFilesystem",
                    "Invalid value",
                    False,
                    "ReadOnlyRootFilesystem must be set to true",
                )
            )
    escalation = sc.get("allowPrivilegeEscalation")
    if scc.get("allowPrivilegeEscalation") is False and escalation is not False:
        errs.append(
            FieldError(
                f"{path}.allowPrivilegeEscalation",
                "Invalid value",
                escalation,
                "Allowing privilege escalation for containers is not allowed",
            )
        )
    return errs


def _default_pod(scc: dict[str, Any], pod: dict[str, Any]) -> None:
    """CreatePodSecurityContext: supplemental groups, fsGroup, SELinux options and the seccomp profile."""
    sc = dict(pod["spec"].get("securityContext") or {})
    for key in ("supplementalGroups", "fsGroup"):
        strategy = scc[key]
        if sc.get(key) is None and strategy.get("type") == "MustRunAs":
            first = strategy["ranges"][0]["min"]
            sc[key] = [first] if key == "supplementalGroups" else first
    se_linux = scc.get("seLinuxContext") or {}
    if sc.get("seLinuxOptions") is None and se_linux.get("type") == "MustRunAs":
        sc["seLinuxOptions"] = dict(se_linux.get("seLinuxOptions") or {})
    annotations = pod["metadata"].get("annotations") or {}
    allowed = [p for p in scc.get("seccompProfiles") or [] if p != "*"]
    profile = annotations.get(SECCOMP_POD_ANNOTATION) or (
        _seccomp_annotation(sc["seccompProfile"])
        if sc.get("seccompProfile") is not None
        else (allowed[0] if allowed else "")
    )
    if profile:
        pod["metadata"]["annotations"] = {**annotations, SECCOMP_POD_ANNOTATION: profile}
        field = _seccomp_field(profile)
        if field is not None:
            sc["seccompProfile"] = field
        else:
            sc.pop("seccompProfile", None)
    if sc:
        pod["spec"]["securityContext"] = sc


def assign(provider: Provider, pod: dict[str, Any]) -> tuple[dict[str, Any] | None, list[FieldError]]:
    """AssignSecurityContext: the pod defaulted under the SCC, or None and why it does not validate."""
    scc, prefix = provider.scc, f"provider {provider.name}: "
    pod = copy.deepcopy(pod)
    pod.setdefault("spec", {})
    _default_pod(scc, pod)
    errs = _validate_pod(scc, prefix, pod)
    for suffix, container in _containers(pod["spec"]):
        _default_container(scc, pod, container)
        errs += _validate_container(scc, pod, container, prefix + suffix)
    return (None, errs) if errs else (pod, [])
