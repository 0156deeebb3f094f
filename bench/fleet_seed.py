"""Seeding a fleet for the benchmarks: one real install, cloned to every other gateway as a restored etcd would hold it.

One gateway of the first cluster is installed by a real control-plane pass (the real helm binary, the PKI player
playing its certgen hook) and passed again until it is Running. Its devcluster is then stopped, which saves the
cluster's state (`--state-file`). From that state every cluster's state is written: the template's objects
(namespace, Helm's storage Secret, the certgen Secrets, workloads, pods, events, and the cluster-scoped RBAC the
release renders) are copied for each gateway, renamed to its namespace, release, id and base domain, with fresh
uids and resourceVersions; Helm's storage record is decoded, renamed and encoded again. Each devcluster then
starts from its state file, as an API server restarts from etcd: what a real install leaves, at no helm cost.
"""

from __future__ import annotations

import base64
import gzip
import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devcluster.workloads import template_hash
from tests.fixtures.devcluster import DevCluster, start_devcluster
from workers.reconcile.gateway.backend_tls.objects import SECRET_VERSION_ANNOTATION

__all__ = ["SeededFleet", "seed_fleet"]

TEMPLATE_TIMEOUT_SECONDS = 120
START_TIMEOUT_SECONDS = 300  # a devcluster restoring thousands of gateways' objects
HELM_STORAGE_TYPE = "helm.sh/release.v1"


@dataclass
class SeededFleet:
    """The running devclusters and, per cluster name, its gateways' names (the template first)."""

    devclusters: list[DevCluster]
    names: dict[str, list[str]]


@dataclass(frozen=True)
class Identity:
    """What names one gateway on its cluster: every string a clone rewrites."""

    pk: uuid.UUID
    name: str
    release: str
    namespace: str
    domain: str

    def pairs(self, new: Identity) -> list[tuple[str, str]]:
        """(old, new) in the order that keeps longer names whole: ids, then namespace, release, name, domain."""
        return [
            (str(self.pk), str(new.pk)),
            (self.pk.hex, new.pk.hex),
            (self.namespace, new.namespace),
            (self.release, new.release),
            (self.name, new.name),
            (self.domain, new.domain),
        ]


def _identity(gateway: Any) -> Identity:
    return Identity(gateway.pk, gateway.name, gateway.helm_release_name, gateway.namespace, gateway.cluster.base_domain)


def _rewrite(text: str, pairs: list[tuple[str, str]]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def _encode_release(text: str) -> str:
    return base64.b64encode(base64.b64encode(gzip.compress(text.encode(), compresslevel=1))).decode()


def _decode_release(secret: dict[str, Any]) -> str:
    raw = base64.b64decode(base64.b64decode(secret["data"]["release"]))
    return gzip.decompress(raw).decode() if raw[:2] == b"\x1f\x8b" else raw.decode()


class Template:
    """The template gateway's objects, as text to rewrite per clone."""

    def __init__(self, state: dict[str, Any], identity: Identity) -> None:
        self.identity = identity
        self.parts: list[tuple[str, str, str]] = []  # (group, plural, object as JSON)
        self.release_text = ""
        uids: list[str] = []
        for resource in state["resources"]:
            for obj in resource["items"]:
                meta = obj["metadata"]
                if not self.belongs(obj, resource["plural"]):
                    continue
                uids.append(meta["uid"])
                if obj.get("type") == HELM_STORAGE_TYPE:
                    self.release_text = _decode_release(obj)
                self.parts.append((resource["group"], resource["plural"], json.dumps(obj)))
        if not self.release_text:
            raise RuntimeError(f"no Helm storage record in {identity.namespace}")
        self.uids = uids

    def belongs(self, obj: dict[str, Any], plural: str) -> bool:
        meta = obj["metadata"]
        if meta.get("namespace"):
            return meta["namespace"] == self.identity.namespace
        if plural == "namespaces":
            return meta["name"] == self.identity.namespace
        return self.identity.release in meta["name"]  # the release's cluster-scoped RBAC

    def clone(self, new: Identity, next_rv: int) -> tuple[list[tuple[str, str, dict[str, Any]]], int]:
        """The clone's objects by storage key, and the next free resourceVersion."""
        pairs = [(uid, str(uuid.uuid4())) for uid in self.uids] + self.identity.pairs(new)
        release = _encode_release(_rewrite(self.release_text, pairs))
        objects = []
        versions = {}  # the template's resourceVersions to the clone's
        for group, plural, text in self.parts:
            obj = json.loads(_rewrite(text, pairs))
            versions[obj["metadata"]["resourceVersion"]] = str(next_rv)
            obj["metadata"]["resourceVersion"] = str(next_rv)
            next_rv += 1
            if obj.get("type") == HELM_STORAGE_TYPE:
                obj["data"]["release"] = release
            objects.append((group, plural, obj))
        _revise(objects)
        _follow_secret_versions(objects, versions)
        return objects, next_rv


def _follow_secret_versions(objects: list[tuple[str, str, dict[str, Any]]], versions: dict[str, str]) -> None:
    """The route-owned TLS objects name the resourceVersion of the server Secret they were written from: in a
    clone, that of the clone's Secret, as a pass on the clone would have written."""
    for _, _, obj in objects:
        annotations = obj["metadata"].get("annotations") or {}
        if SECRET_VERSION_ANNOTATION in annotations:
            annotations[SECRET_VERSION_ANNOTATION] = versions[annotations[SECRET_VERSION_ANNOTATION]]


def _revise(objects: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Give a clone's StatefulSets and their pods the revision their renamed template hashes to, as the
    controller does: with the template's revision they would be rolled on the first sync."""
    revisions = {}
    for _, plural, obj in objects:
        if plural == "statefulsets":
            name = obj["metadata"]["name"]
            revisions[obj["metadata"]["uid"]] = revision = f"{name}-{template_hash(obj['spec']['template'])}"
            status = obj.setdefault("status", {})
            status.update(currentRevision=revision, updateRevision=revision)
    for _, plural, obj in objects:
        owners = [ref["uid"] for ref in obj["metadata"].get("ownerReferences", []) if ref["uid"] in revisions]
        if plural == "pods" and owners:
            obj["metadata"].setdefault("labels", {})["controller-revision-hash"] = revisions[owners[0]]


def _append(state: dict[str, Any], objects: list[tuple[str, str, dict[str, Any]]]) -> None:
    buckets = {(r["group"], r["plural"]): r["items"] for r in state["resources"]}
    for group, plural, obj in objects:
        if (group, plural) not in buckets:
            buckets[(group, plural)] = []
            state["resources"].append({"group": group, "plural": plural, "items": buckets[(group, plural)]})
        buckets[(group, plural)].append(obj)


def _start(workdir: Path) -> DevCluster:
    return start_devcluster(
        workdir,
        ready_delay=0.0,
        extra_presets=("agent-sandbox",),
        timeout=START_TIMEOUT_SECONDS,
        extra_args=("--state-file", str(workdir / "state.json"), "--state-interval", "3600"),
    )


def _install_template(gateway_id: str) -> None:
    """Real passes until the template gateway is Running (its certgen Secrets played, its pods ready)."""
    from gateways.models import Gateway
    from workers.reconcile.gateway.passes.run import run_pass

    deadline = time.monotonic() + TEMPLATE_TIMEOUT_SECONDS
    while (phase := Gateway.objects.values_list("phase", flat=True).get(pk=gateway_id)) != "Running":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the template gateway stayed {phase}")
        _, again = run_pass(gateway_id)
        time.sleep(min(again or 0.2, 1.0))


def seed_fleet(stack: ExitStack, work: Path, clusters: int, per_cluster: int) -> SeededFleet:
    """Gateway rows and cluster state for the whole fleet; every devcluster running when it returns."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from controlplane.models import ManagedCluster
    from gateways.models import Gateway

    owner = get_user_model().objects.create_user("fleet")
    rows: dict[int, list[Any]] = {}
    for c in range(clusters):
        cluster = ManagedCluster.objects.create(
            name=f"fleet{c}", kubeconfig="", base_domain=f"c{c}.bench.test", reachable=True
        )
        rows[c] = []
        for n in range(per_cluster):
            gateway = Gateway(
                owner=owner,
                cluster=cluster,
                name=f"f{c}g{n:05d}",
                image="ghcr.io/o/gw:1",
                supervisor_image="ghcr.io/o/sv:1",
            )
            gateway.assign_namespace()
            rows[c].append(gateway)
        Gateway.objects.bulk_create(rows[c], batch_size=2000)
    first = _start(work / "dc0")
    ManagedCluster.objects.filter(name="fleet0").update(kubeconfig=first.kubeconfig.read_text())
    template_row = Gateway.objects.select_related("cluster").get(pk=rows[0][0].pk)
    _install_template(str(template_row.pk))
    first.stop()
    base_text = (work / "dc0" / "state.json").read_text()
    template = Template(json.loads(base_text), _identity(template_row))
    started = time.monotonic()
    starting = ThreadPoolExecutor(4)  # each devcluster loads its state while the next cluster's is written
    pending = []
    for c in range(clusters):
        workdir = work / f"dc{c}"
        state = json.loads(base_text)
        next_rv = int(state["resourceVersion"]) + 1
        cluster_row = ManagedCluster.objects.get(name=f"fleet{c}")
        clones = rows[c] if c else rows[c][1:]
        if c:
            # Another cluster: the template's own objects are rewritten for this cluster's first gateway too.
            _drop_template(state, template)
        for gateway in clones:
            gateway.cluster = cluster_row
            objects, next_rv = template.clone(_identity(gateway), next_rv)
            _append(state, objects)
        state["resourceVersion"] = next_rv
        workdir.mkdir(parents=True, exist_ok=True)
        (workdir / "state.json").write_text(json.dumps(state))
        pending.append((cluster_row, starting.submit(_start, workdir)))
        print(
            f"  cluster fleet{c}: {per_cluster} gateways written ({time.monotonic() - started:.0f} s so far)",
            flush=True,
        )
    devclusters = []
    for cluster_row, future in pending:
        devcluster = stack.enter_context(future.result())
        cluster_row.kubeconfig = devcluster.kubeconfig.read_text()
        cluster_row.save(update_fields=["kubeconfig"])
        devclusters.append(devcluster)
    starting.shutdown()
    print(f"  every devcluster serves its state ({time.monotonic() - started:.0f} s)", flush=True)
    return SeededFleet(devclusters, {f"fleet{c}": [g.name for g in rows[c]] for c in range(clusters)})


def _drop_template(state: dict[str, Any], template: Template) -> None:
    for resource in state["resources"]:
        resource["items"] = [obj for obj in resource["items"] if not template.belongs(obj, resource["plural"])]
