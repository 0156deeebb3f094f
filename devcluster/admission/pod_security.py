"""Pod Security Admission: the baseline and restricted Pod Security Standards, enforced on pod creates.

Follows kubernetes/pod-security-admission (policy/check_*.go, policy/registry.go, api/helpers.go,
admission/admission.go): the same checks per policy version, run in the same order (baseline check IDs
sorted, then restricted ones; a restricted check replaces the baseline check it overrides), with the same
reasons, details and pluralisation. A namespace's `pod-security.kubernetes.io/enforce` label picks the level
(an invalid value fails closed to `restricted`), `enforce-version` the version (invalid means `latest`).
Only `enforce` is modelled: audit and warn modes, exemptions and workload (template) warnings are not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from devcluster import errors

__all__ = [
    "ENFORCE_LABEL",
    "ENFORCE_VERSION_LABEL",
    "LATEST",
    "CheckResult",
    "LevelVersion",
    "enforce",
    "evaluate",
    "forbidden_detail",
    "policy_for",
]

ENFORCE_LABEL = "pod-security.kubernetes.io/enforce"
ENFORCE_VERSION_LABEL = "pod-security.kubernetes.io/enforce-version"
LEVELS = ("privileged", "baseline", "restricted")
LATEST = 10**6  # the minor of "latest": newer than any real version
# The newest policy version with its own checks (sysctls gained two names in v1.37).
MAX_MINOR = 37
_VERSION = re.compile(r"^v1\.([0-9]|[1-9][0-9]*)$")

Pod = dict[str, Any]


@dataclass(frozen=True)
class LevelVersion:
    """A policy to evaluate: level and minor version of v1 (`LATEST` for "latest")."""

    level: str
    minor: int = LATEST

    def __str__(self) -> str:
        return f"{self.level}:{'latest' if self.minor == LATEST else f'v1.{self.minor}'}"


@dataclass(frozen=True)
class CheckResult:
    """A failed check: the short reason and the detail naming what failed."""

    reason: str
    detail: str = ""


def parse_version(text: str) -> int:
    """A version label's minor (`LATEST` for "latest" and, as upstream, for anything invalid)."""
    match = _VERSION.match(text)
    return int(match.group(1)) if match else LATEST


def policy_for(labels: dict[str, str], default_level: str) -> LevelVersion:
    """The enforce policy of a namespace with these labels (api.PolicyToEvaluate): an invalid level is
    `restricted` (fail closed), an invalid or missing version `latest`."""
    level = labels.get(ENFORCE_LABEL, default_level)
    if level not in LEVELS:
        level = "restricted"
    return LevelVersion(level, parse_version(labels.get(ENFORCE_VERSION_LABEL, "latest")))


# -- helpers (policy/helpers.go, policy/visitor.go) ------------------------------------------------------


def _containers(spec: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """initContainers, containers, then ephemeralContainers, as visitContainers."""
    for key in ("initContainers", "containers", "ephemeralContainers"):
        yield from spec.get(key) or []


def _sc(obj: dict[str, Any]) -> dict[str, Any]:
    return obj.get("securityContext") or {}


def _quote(items: list[str]) -> str:
    return ", ".join(f'"{item}"' for item in items)


def _plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def _named(kind: str, names: list[str]) -> str:
    """`container "a"` / `containers "a", "b"`."""
    return f"{_plural(kind, kind + 's', len(names))} {_quote(names)}"


def _windows(spec: dict[str, Any]) -> bool:
    return (spec.get("os") or {}).get("name") == "windows"


def _user_namespaced(spec: dict[str, Any]) -> bool:
    return spec.get("hostUsers") is False


def _setters(pod_bad: bool, containers: list[str]) -> list[str]:
    """ "pod" and/or `containers "a", "b"`, the subjects of an explicit bad setting."""
    return (["pod"] if pod_bad else []) + ([_named("container", containers)] if containers else [])


# -- baseline checks ---------------------------------------------------------------------------------------


def _app_armor(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    allowed = ("RuntimeDefault", "Localhost")
    bad_values: set[str] = set()
    pod_profile = _sc(spec).get("appArmorProfile")
    pod_bad = pod_profile is not None and pod_profile.get("type") not in allowed
    if pod_bad:
        bad_values.add(pod_profile.get("type", ""))
    containers = []
    for c in _containers(spec):
        profile = _sc(c).get("appArmorProfile")
        if profile is not None and profile.get("type") not in allowed:
            containers.append(c.get("name", ""))
            bad_values.add(profile.get("type", ""))
    setters = _setters(pod_bad, containers)
    annotations = sorted(
        f'{key}="{value}"'
        for key, value in (meta.get("annotations") or {}).items()
        if key.startswith("container.apparmor.security.beta.kubernetes.io/")
        and value
        and value != "runtime/default"
        and not value.startswith("localhost/")
    )
    values = sorted(bad_values) + annotations
    if annotations:
        setters.append(_plural("annotation", "annotations", len(annotations)))
    if not setters:
        return None
    return CheckResult(
        _plural("forbidden AppArmor profile", "forbidden AppArmor profiles", len(values)),
        f"{' and '.join(setters)} must not set AppArmor profile type to {_quote(values)}",
    )


_BASELINE_CAPABILITIES = {
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
}


def _capabilities_baseline(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    containers, caps = [], set()
    for c in _containers(spec):
        extra = [
            cap for cap in (_sc(c).get("capabilities") or {}).get("add") or [] if cap not in _BASELINE_CAPABILITIES
        ]
        if extra:
            containers.append(c.get("name", ""))
            caps.update(extra)
    if not containers:
        return None
    return CheckResult(
        "non-default capabilities",
        f"{_named('container', containers)} must not include {_quote(sorted(caps))} "
        "in securityContext.capabilities.add",
    )


def _host_namespaces(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    used = [f"{field}=true" for field in ("hostNetwork", "hostPID", "hostIPC") if spec.get(field)]
    return CheckResult("host namespaces", ", ".join(used)) if used else None


def _host_path_volumes(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    names = [v.get("name", "") for v in spec.get("volumes") or [] if v.get("hostPath") is not None]
    return CheckResult("hostPath volumes", _named("volume", names)) if names else None


def _host_ports(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    containers, ports = [], set()
    for c in _containers(spec):
        used = [str(p["hostPort"]) for p in c.get("ports") or [] if p.get("hostPort")]
        if used:
            containers.append(c.get("name", ""))
            ports.update(used)
    if not containers:
        return None
    return CheckResult(
        "hostPort",
        f"{_named('container', containers)} {_plural('uses', 'use', len(containers))} "
        f"{_plural('hostPort', 'hostPorts', len(ports))} {', '.join(sorted(ports))}",
    )


def _host_probes(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    containers, hosts = set(), set()
    for c in _containers(spec):
        handlers = [c.get(p) for p in ("livenessProbe", "readinessProbe", "startupProbe")]
        handlers += [(c.get("lifecycle") or {}).get(h) for h in ("postStart", "preStop")]
        for handler in filter(None, handlers):
            bad = [(handler.get(k) or {}).get("host") for k in ("httpGet", "tcpSocket")]
            if any(bad):
                containers.add(c.get("name", ""))
                hosts.update(filter(None, bad))
    if not containers:
        return None
    return CheckResult(
        "probe or lifecycle host",
        f"{_named('container', sorted(containers))} {_plural('uses', 'use', len(containers))} "
        f"{_plural('probe or lifecycle host', 'probe or lifecycle hosts', len(hosts))} {_quote(sorted(hosts))}",
    )


def _privileged(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    names = [c.get("name", "") for c in _containers(spec) if _sc(c).get("privileged")]
    if not names:
        return None
    return CheckResult("privileged", f"{_named('container', names)} must not set securityContext.privileged=true")


def _proc_mount(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    containers, kinds = [], set()
    for c in _containers(spec):
        mount = _sc(c).get("procMount")
        if mount is not None and mount != "Default":
            containers.append(c.get("name", ""))
            kinds.add(mount)
    if not containers:
        return None
    return CheckResult(
        "procMount",
        f"{_named('container', containers)} must not set securityContext.procMount to {_quote(sorted(kinds))}",
    )


def _relaxed_for_user_namespaces(check: Callable[[dict[str, Any], dict[str, Any]], CheckResult | None]) -> Any:
    """The v1.35 form of a check: pods in a user namespace (`hostUsers: false`) pass."""
    return lambda meta, spec: None if _user_namespaced(spec) else check(meta, spec)


def _not_on_windows(check: Callable[[dict[str, Any], dict[str, Any]], CheckResult | None]) -> Any:
    """The v1.25 form of a check: pods with `os.name: windows` pass."""
    return lambda meta, spec: None if _windows(spec) else check(meta, spec)


def _se_linux_options(allowed_types: set[str]) -> Any:
    def check(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
        bad_types: set[str] = set()
        flags = {"user": False, "role": False}

        def valid(options: dict[str, Any]) -> bool:
            ok = True
            if options.get("type", "") not in allowed_types:
                bad_types.add(options.get("type", ""))
                ok = False
            for key in flags:
                if options.get(key):
                    flags[key], ok = True, False
            return ok

        pod_options = _sc(spec).get("seLinuxOptions")
        pod_bad = pod_options is not None and not valid(pod_options)
        containers = [
            c.get("name", "")
            for c in _containers(spec)
            if _sc(c).get("seLinuxOptions") is not None and not valid(_sc(c)["seLinuxOptions"])
        ]
        setters = _setters(pod_bad, containers)
        if not setters:
            return None
        data = [_named("type", sorted(bad_types))] if bad_types else []
        data += [f"{key} may not be set" for key, was_set in flags.items() if was_set]
        return CheckResult(
            "seLinuxOptions",
            f"{' and '.join(setters)} set forbidden securityContext.seLinuxOptions: {'; '.join(data)}",
        )

    return check


def _valid_seccomp(profile: dict[str, Any]) -> bool:
    return profile.get("type") in ("RuntimeDefault", "Localhost")


def _seccomp_explicit(spec: dict[str, Any]) -> tuple[list[str], set[str], bool, list[str]]:
    """Bad setters, bad types, whether the pod sets a valid profile, and containers that set none."""
    bad_values: set[str] = set()
    pod_profile = _sc(spec).get("seccompProfile")
    pod_bad = pod_profile is not None and not _valid_seccomp(pod_profile)
    if pod_bad:
        bad_values.add(pod_profile.get("type", ""))
    explicit, implicit = [], []
    for c in _containers(spec):
        profile = _sc(c).get("seccompProfile")
        if profile is None:
            implicit.append(c.get("name", ""))
        elif not _valid_seccomp(profile):
            explicit.append(c.get("name", ""))
            bad_values.add(profile.get("type", ""))
    pod_valid = pod_profile is not None and not pod_bad
    return _setters(pod_bad, explicit), bad_values, pod_valid, implicit


def _seccomp_refusal(setters: list[str], values: set[str]) -> CheckResult:
    return CheckResult(
        "seccompProfile",
        f"{' and '.join(setters)} must not set securityContext.seccompProfile.type to {_quote(sorted(values))}",
    )


def _seccomp_baseline(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    setters, values, _, _ = _seccomp_explicit(spec)
    return _seccomp_refusal(setters, values) if setters else None


def _sysctls(allowed: set[str]) -> Any:
    def check(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
        bad = [s.get("name", "") for s in _sc(spec).get("sysctls") or [] if s.get("name") not in allowed]
        return CheckResult("forbidden sysctls", ", ".join(bad)) if bad else None

    return check


def _windows_host_process(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    def host_process(obj: dict[str, Any]) -> bool:
        return bool((_sc(obj).get("windowsOptions") or {}).get("hostProcess"))

    containers = [c.get("name", "") for c in _containers(spec) if host_process(c)]
    setters = _setters(host_process(spec), containers)
    if not setters:
        return None
    return CheckResult(
        "hostProcess", f"{' and '.join(setters)} must not set securityContext.windowsOptions.hostProcess=true"
    )


# -- restricted checks -------------------------------------------------------------------------------------


def _allow_privilege_escalation(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    names = [c.get("name", "") for c in _containers(spec) if _sc(c).get("allowPrivilegeEscalation") is not False]
    if not names:
        return None
    return CheckResult(
        "allowPrivilegeEscalation != false",
        f"{_named('container', names)} must set securityContext.allowPrivilegeEscalation=false",
    )


def _capabilities_restricted(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    missing_drop, adding, caps = [], [], set()
    for c in _containers(spec):
        capabilities = _sc(c).get("capabilities")
        if capabilities is None:
            missing_drop.append(c.get("name", ""))
            continue
        if "ALL" not in (capabilities.get("drop") or []):
            missing_drop.append(c.get("name", ""))
        extra = [cap for cap in capabilities.get("add") or [] if cap != "NET_BIND_SERVICE"]
        if extra:
            adding.append(c.get("name", ""))
            caps.update(extra)
    details = []
    if missing_drop:
        details.append(f'{_named("container", missing_drop)} must set securityContext.capabilities.drop=["ALL"]')
    if adding:
        details.append(
            f"{_named('container', adding)} must not include {_quote(sorted(caps))} in securityContext.capabilities.add"
        )
    return CheckResult("unrestricted capabilities", "; ".join(details)) if details else None


_RESTRICTED_VOLUME_SOURCES = (
    "configMap",
    "csi",
    "downwardAPI",
    "emptyDir",
    "ephemeral",
    "image",
    "persistentVolumeClaim",
    "projected",
    "secret",
)
_OTHER_VOLUME_SOURCES = (
    "hostPath",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "nfs",
    "iscsi",
    "glusterfs",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "fc",
    "azureFile",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "portworxVolume",
    "scaleIO",
    "storageos",
)


def _restricted_volumes(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    names, kinds = [], set()
    for volume in spec.get("volumes") or []:
        if any(volume.get(key) is not None for key in _RESTRICTED_VOLUME_SOURCES):
            continue
        names.append(volume.get("name", ""))
        kinds.add(next((key for key in _OTHER_VOLUME_SOURCES if volume.get(key) is not None), "unknown"))
    if not names:
        return None
    return CheckResult(
        "restricted volume types",
        f"{_named('volume', names)} {_plural('uses', 'use', len(names))} "
        f"{_plural('restricted volume type', 'restricted volume types', len(kinds))} {_quote(sorted(kinds))}",
    )


def _run_as_non_root(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    pod_value = _sc(spec).get("runAsNonRoot")
    explicit, implicit = [], []
    for c in _containers(spec):
        value = _sc(c).get("runAsNonRoot")
        if value is False:
            explicit.append(c.get("name", ""))
        elif value is None and pod_value is not True:
            implicit.append(c.get("name", ""))
    setters = _setters(pod_value is False, explicit)
    if setters:
        return CheckResult(
            "runAsNonRoot != true", f"{' and '.join(setters)} must not set securityContext.runAsNonRoot=false"
        )
    if implicit:
        return CheckResult(
            "runAsNonRoot != true", f"pod or {_named('container', implicit)} must set securityContext.runAsNonRoot=true"
        )
    return None


def _run_as_user(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    containers = [c.get("name", "") for c in _containers(spec) if _sc(c).get("runAsUser") == 0]
    setters = _setters(_sc(spec).get("runAsUser") == 0, containers)
    return CheckResult("runAsUser=0", f"{' and '.join(setters)} must not set runAsUser=0") if setters else None


def _seccomp_restricted(meta: dict[str, Any], spec: dict[str, Any]) -> CheckResult | None:
    setters, values, pod_valid, implicit = _seccomp_explicit(spec)
    if setters:
        return _seccomp_refusal(setters, values)
    if implicit and not pod_valid:
        return CheckResult(
            "seccompProfile",
            f"pod or {_named('container', implicit)} must set securityContext.seccompProfile.type to "
            '"RuntimeDefault" or "Localhost"',
        )
    return None


# -- the registry (policy/registry.go) --------------------------------------------------------------------

CheckFn = Callable[[dict[str, Any], dict[str, Any]], CheckResult | None]


@dataclass(frozen=True)
class Check:
    """One check: its ID, level, implementations by first policy minor, and the baseline IDs it replaces."""

    id: str
    level: str
    versions: tuple[tuple[int, CheckFn], ...]
    overrides: tuple[str, ...] = ()

    def at(self, minor: int) -> CheckFn | None:
        """The implementation in force at a policy minor, if the check exists yet."""
        chosen = None
        for first, fn in self.versions:
            if first <= minor:
                chosen = fn
        return chosen


_SYSCTLS_1_0 = {
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_unprivileged_port_start",
}
_SYSCTLS_1_27 = _SYSCTLS_1_0 | {"net.ipv4.ip_local_reserved_ports"}
_SYSCTLS_1_29 = _SYSCTLS_1_27 | {
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}
_SYSCTLS_1_32 = _SYSCTLS_1_29 | {"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem"}
_SYSCTLS_1_37 = _SYSCTLS_1_32 | {"net.ipv4.tcp_slow_start_after_idle", "net.ipv4.tcp_notsent_lowat"}
_SELINUX_TYPES_1_0 = {"", "container_t", "container_init_t", "container_kvm_t"}

CHECKS: tuple[Check, ...] = (
    Check("appArmorProfile", "baseline", ((0, _app_armor),)),
    Check("capabilities_baseline", "baseline", ((0, _capabilities_baseline),)),
    Check("hostNamespaces", "baseline", ((0, _host_namespaces),)),
    Check("hostPathVolumes", "baseline", ((0, _host_path_volumes),)),
    Check("hostPorts", "baseline", ((0, _host_ports),)),
    Check("hostProbesAndHostLifecycle", "baseline", ((34, _host_probes),)),
    Check("privileged", "baseline", ((0, _privileged),)),
    Check("procMount", "baseline", ((0, _proc_mount), (35, _relaxed_for_user_namespaces(_proc_mount)))),
    Check(
        "seLinuxOptions",
        "baseline",
        (
            (0, _se_linux_options(_SELINUX_TYPES_1_0)),
            (31, _se_linux_options(_SELINUX_TYPES_1_0 | {"container_engine_t"})),
        ),
    ),
    # Before v1.19 the baseline seccomp check read the alpha annotations; only the field form is modelled.
    Check("seccompProfile_baseline", "baseline", ((0, _seccomp_baseline),)),
    Check(
        "sysctls",
        "baseline",
        (
            (0, _sysctls(_SYSCTLS_1_0)),
            (27, _sysctls(_SYSCTLS_1_27)),
            (29, _sysctls(_SYSCTLS_1_29)),
            (32, _sysctls(_SYSCTLS_1_32)),
            (37, _sysctls(_SYSCTLS_1_37)),
        ),
    ),
    Check("windowsHostProcess", "baseline", ((0, _windows_host_process),)),
    Check(
        "allowPrivilegeEscalation",
        "restricted",
        ((8, _allow_privilege_escalation), (25, _not_on_windows(_allow_privilege_escalation))),
    ),
    Check(
        "capabilities_restricted",
        "restricted",
        ((22, _capabilities_restricted), (25, _not_on_windows(_capabilities_restricted))),
        ("capabilities_baseline",),
    ),
    Check("procMount_restricted", "restricted", ((35, _proc_mount),), ("procMount",)),
    Check("restrictedVolumes", "restricted", ((0, _restricted_volumes),), ("hostPathVolumes",)),
    Check("runAsNonRoot", "restricted", ((0, _run_as_non_root), (35, _relaxed_for_user_namespaces(_run_as_non_root)))),
    Check("runAsUser", "restricted", ((23, _run_as_user), (35, _relaxed_for_user_namespaces(_run_as_user)))),
    Check(
        "seccompProfile_restricted",
        "restricted",
        ((19, _seccomp_restricted), (25, _not_on_windows(_seccomp_restricted))),
        ("seccompProfile_baseline",),
    ),
)


def evaluate(policy: LevelVersion, pod: Pod) -> list[CheckResult]:
    """The failed checks of `pod` under `policy`, in upstream order (EvaluatePod)."""
    if policy.level == "privileged":
        return []
    minor = min(policy.minor, MAX_MINOR)
    active = [(check, check.at(minor)) for check in CHECKS]
    active = [(check, fn) for check, fn in active if fn is not None]
    if policy.level == "baseline":
        active = [(check, fn) for check, fn in active if check.level == "baseline"]
    else:
        overridden = {o for check, _ in active for o in check.overrides}
        active = [(check, fn) for check, fn in active if check.id not in overridden]
    active.sort(key=lambda item: (item[0].level != "baseline", item[0].id))
    meta, spec = pod.get("metadata") or {}, pod.get("spec") or {}
    return [result for _, fn in active if (result := fn(meta, spec)) is not None]


def forbidden_detail(results: list[CheckResult]) -> str:
    """`reason (detail), reason, ...` as AggregateCheckResult.ForbiddenDetail."""
    return ", ".join(f"{r.reason} ({r.detail})" if r.detail else r.reason for r in results)


def enforce(namespace_labels: dict[str, str], default_level: str, name: str, pod: Pod) -> None:
    """Refuse (403) a pod that violates its namespace's enforce policy."""
    policy = policy_for(namespace_labels, default_level)
    results = evaluate(policy, pod)
    if results:
        raise errors.forbidden(
            f'pods "{name}" is forbidden: violates PodSecurity "{policy}": {forbidden_detail(results)}'
        )
