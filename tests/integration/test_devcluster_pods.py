"""Pods on devcluster: workload controllers create them through admission, the kubelet waits for what they
mount, and workload status is derived from them. Driven by real kubectl, helm and the python client."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes import client, config

from tests.fixtures.devcluster import DevCluster
from tests.paths import HELM, KUBECTL, PROJECT_ROOT
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

CHART = PROJECT_ROOT / "tests" / "charts" / "smallapp"


@pytest.fixture
def kubectl(devcluster: DevCluster, devcluster_namespace: str, tmp_path: Path) -> Callable[..., str]:
    env = {**os.environ, "KUBECONFIG": str(devcluster.kubeconfig), "HOME": str(tmp_path)}

    def run(*args: str, stdin: str | None = None) -> str:
        command = [str(KUBECTL), "-n", devcluster_namespace, *args]
        result = subprocess.run(command, env=env, input=stdin, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"kubectl {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    return run


@pytest.fixture
def core(devcluster: DevCluster) -> Iterator[client.CoreV1Api]:
    api_client = config.new_client_from_config(config_file=str(devcluster.kubeconfig))
    yield client.CoreV1Api(api_client)
    api_client.close()


@pytest.fixture
def apps(devcluster: DevCluster) -> Iterator[client.AppsV1Api]:
    api_client = config.new_client_from_config(config_file=str(devcluster.kubeconfig))
    yield client.AppsV1Api(api_client)
    api_client.close()


def apply(kubectl: Callable[..., str], *manifests: dict[str, Any]) -> None:
    kubectl("apply", "-f", "-", stdin=yaml.safe_dump_all(manifests))


def get(kubectl: Callable[..., str], *what: str) -> dict[str, Any]:
    return json.loads(kubectl("get", *what, "-o", "json"))


def pods(kubectl: Callable[..., str], selector: str) -> list[dict[str, Any]]:
    return get(kubectl, "pods", "-l", selector)["items"]


def ready(pod: dict[str, Any]) -> bool:
    conditions = pod.get("status", {}).get("conditions") or []
    return (
        pod["status"].get("phase") == "Running"
        and {"type": "Ready", "status": "True"}.items()
        <= next((c for c in conditions if c["type"] == "Ready"), {}).items()
    )


def events(kubectl: Callable[..., str], name: str, reason: str) -> list[dict[str, Any]]:
    items = get(kubectl, "events", "--field-selector", f"involvedObject.name={name}")["items"]
    return [e for e in items if e["reason"] == reason]


def container(name: str = "app", **extra: Any) -> dict[str, Any]:
    return {"name": name, "image": "registry.example/app:1", **extra}


def deployment(name: str, replicas: int, pod_spec: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": pod_spec or {"containers": [container()]}},
        },
    }


def bare_pod(name: str, **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name},
        "spec": {"containers": [container()], **spec},
    }


def test_deployment_pods_turn_ready_and_scale_down_removes_pods(kubectl: Callable[..., str]) -> None:
    apply(kubectl, deployment("web", 3))

    def rolled_out() -> dict[str, Any] | None:
        status = get(kubectl, "deployment", "web")["status"]
        return status if status.get("readyReplicas") == 3 and status.get("updatedReplicas") == 3 else None

    status = wait_until(rolled_out, "3 ready replicas")
    assert status["observedGeneration"] == 1 and status["availableReplicas"] == 3
    assert {c["type"]: c["status"] for c in status["conditions"]} == {"Available": "True", "Progressing": "True"}
    (replica_set,) = get(kubectl, "replicasets", "-l", "app=web")["items"]
    running = pods(kubectl, "app=web")
    assert len(running) == 3 and all(ready(p) for p in running)
    for pod in running:
        assert pod["metadata"]["name"].startswith(f"{replica_set['metadata']['name']}-")
        (owner,) = pod["metadata"]["ownerReferences"]
        assert (owner["kind"], owner["uid"], owner["controller"]) == (
            "ReplicaSet",
            replica_set["metadata"]["uid"],
            True,
        )
        assert pod["spec"]["nodeName"] == "devcluster-node" and pod["status"]["podIP"].startswith("10.244.")
        assert pod["status"]["containerStatuses"][0]["state"]["running"]

    kubectl("patch", "deployment", "web", "-p", '{"spec": {"replicas": 1}}')
    wait_until(lambda: len(pods(kubectl, "app=web")) == 1, "scale down to one pod")
    wait_until(lambda: get(kubectl, "deployment", "web")["status"].get("replicas") == 1, "status of one replica")
    assert get(kubectl, "replicaset", replica_set["metadata"]["name"])["status"]["readyReplicas"] == 1


def test_a_new_workload_is_answered_with_an_empty_status_the_client_cannot_set(kubectl: Callable[..., str]) -> None:
    """kube-apiserver drops a created object's status and answers a built-in type's as a struct: `{}`, with the
    fields its schema requires at zero."""
    sent = {**deployment("fresh", 0), "status": {"readyReplicas": 7}}
    created = json.loads(kubectl("create", "-f", "-", "-o", "json", stdin=json.dumps(sent)))
    assert created["status"] == {}
    sent = {**deployment("fresh-set", 0), "kind": "StatefulSet", "status": {"replicas": 7}}
    sent["spec"]["serviceName"] = "fresh-set"
    created = json.loads(kubectl("create", "-f", "-", "-o", "json", stdin=json.dumps(sent)))
    assert created["status"] == {"replicas": 0, "availableReplicas": 0}


def test_template_change_rolls_a_deployment_to_a_new_replica_set(kubectl: Callable[..., str]) -> None:
    apply(kubectl, deployment("api", 2))
    wait_until(
        lambda: (get(kubectl, "deployment", "api").get("status") or {}).get("readyReplicas") == 2, what="first rollout"
    )
    first = {p["metadata"]["uid"] for p in pods(kubectl, "app=api")}
    apply(kubectl, deployment("api", 2, {"containers": [container(env=[{"name": "LEVEL", "value": "2"}])]}))

    def rolled() -> bool:
        status = get(kubectl, "deployment", "api")["status"]
        current = pods(kubectl, "app=api")
        return (
            status.get("observedGeneration") == 2
            and status.get("updatedReplicas") == status.get("readyReplicas") == status.get("replicas") == 2
            and len(current) == 2
            and not first & {p["metadata"]["uid"] for p in current}
        )

    wait_until(rolled, "the second rollout")
    replica_sets = {
        rs["metadata"]["name"]: rs["spec"]["replicas"] for rs in get(kubectl, "rs", "-l", "app=api")["items"]
    }
    assert sorted(replica_sets.values()) == [0, 2]


def test_statefulset_ordinals_claims_and_rolling_update(
    kubectl: Callable[..., str], apps: client.AppsV1Api, core: client.CoreV1Api, devcluster_namespace: str
) -> None:
    ns = devcluster_namespace
    sts = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "db"},
        "spec": {
            "replicas": 3,
            "serviceName": "db-headless",
            "selector": {"matchLabels": {"app": "db"}},
            "template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [container()]}},
            "volumeClaimTemplates": [
                {
                    "metadata": {"name": "data"},
                    "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
                }
            ],
        },
    }
    apps.create_namespaced_stateful_set(ns, sts)

    def all_ready() -> bool:
        # OrderedReady: a pod exists only once its predecessor is Ready, in every state seen on the way.
        seen = {p["metadata"]["name"]: ready(p) for p in pods(kubectl, "app=db")}
        for lower, higher in (("db-0", "db-1"), ("db-1", "db-2")):
            assert higher not in seen or seen.get(lower), f"{higher} created before {lower} was Ready: {seen}"
        status = apps.read_namespaced_stateful_set("db", ns).status
        return status.ready_replicas == 3 and status.current_revision == status.update_revision

    wait_until(all_ready, "3 ready ordinal pods")
    listed = core.list_namespaced_pod(ns, label_selector="app=db").items
    assert sorted(p.metadata.name for p in listed) == ["db-0", "db-1", "db-2"]
    by_name = {p.metadata.name: p for p in listed}
    revision = apps.read_namespaced_stateful_set("db", ns).status.update_revision
    for name, pod in by_name.items():
        assert pod.metadata.labels["statefulset.kubernetes.io/pod-name"] == name
        assert pod.metadata.labels["controller-revision-hash"] == revision
        claims = [v.persistent_volume_claim.claim_name for v in pod.spec.volumes if v.persistent_volume_claim]
        assert claims == [f"data-{name}"]
    claims = core.list_namespaced_persistent_volume_claim(ns).items
    assert sorted((c.metadata.name, c.status.phase) for c in claims) == [
        ("data-db-0", "Bound"),
        ("data-db-1", "Bound"),
        ("data-db-2", "Bound"),
    ]

    old_uids = {p.metadata.uid for p in listed}
    patch = {"spec": {"template": {"spec": {"containers": [container(image="registry.example/app:2")]}}}}
    apps.patch_namespaced_stateful_set("db", ns, patch)

    def rolled() -> bool:
        status = apps.read_namespaced_stateful_set("db", ns).status
        current = core.list_namespaced_pod(ns, label_selector="app=db").items
        return (
            status.update_revision != revision
            and status.current_revision == status.update_revision
            and status.updated_replicas == status.ready_replicas == 3
            and not old_uids & {p.metadata.uid for p in current}
        )

    wait_until(rolled, "the rolling update", timeout=20)
    deletions = [e["message"] for e in events(kubectl, "db", "SuccessfulDelete")]
    assert [m.split()[2] for m in deletions] == ["db-2", "db-1", "db-0"], "highest ordinal first"

    apps.delete_namespaced_stateful_set("db", ns)
    wait_until(lambda: not core.list_namespaced_pod(ns, label_selector="app=db").items, "pods removed with the set")
    assert len(core.list_namespaced_persistent_volume_claim(ns).items) == 3, "claims are retained"


def test_job_pod_succeeds_and_the_job_completes(kubectl: Callable[..., str]) -> None:
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "migrate"},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [container()]}}},
    }
    apply(kubectl, job)
    done = wait_until(
        lambda: (s := get(kubectl, "job", "migrate")["status"]).get("succeeded") == 1 and s, what="job completion"
    )
    assert {(c["type"], c["status"], c["reason"]) for c in done["conditions"]} == {
        ("SuccessCriteriaMet", "True", "CompletionsReached"),
        ("Complete", "True", "CompletionsReached"),
    }
    uid = get(kubectl, "job", "migrate")["metadata"]["uid"]
    (pod,) = pods(kubectl, "job-name=migrate")
    assert pod["status"]["phase"] == "Succeeded" and pod["metadata"]["name"].startswith("migrate-")
    assert pod["metadata"]["labels"]["controller-uid"] == uid
    assert pod["metadata"]["labels"]["batch.kubernetes.io/job-name"] == "migrate"
    kubectl("wait", "--for=condition=complete", "job/migrate", "--timeout=10s")


def test_job_whose_pod_cannot_start_fails_at_its_deadline(kubectl: Callable[..., str]) -> None:
    spec = {
        "restartPolicy": "Never",
        "containers": [container(envFrom=[{"secretRef": {"name": "never-issued"}}])],
    }
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "stuck"},
        "spec": {"activeDeadlineSeconds": 2, "template": {"spec": spec}},
    }
    apply(kubectl, job)

    def config_error() -> bool:
        listed = pods(kubectl, "job-name=stuck")
        statuses = listed[0]["status"].get("containerStatuses") if listed else None
        return bool(statuses) and statuses[0]["state"].get("waiting", {}).get("reason") == "CreateContainerConfigError"

    wait_until(config_error, "the job's pod waiting for its Secret")
    failed = wait_until(
        lambda: next(
            (c for c in get(kubectl, "job", "stuck")["status"].get("conditions") or [] if c["type"] == "Failed"), None
        ),
        timeout=10,
        what="the Failed condition",
    )
    assert (failed["status"], failed["reason"]) == ("True", "DeadlineExceeded")
    assert failed["message"] == "Job was active longer than specified deadline"
    wait_until(lambda: not pods(kubectl, "job-name=stuck"), "active pods deleted")
    assert events(kubectl, "stuck", "DeadlineExceeded")


def test_missing_secret_volume_keeps_a_pod_pending_until_the_secret_exists(kubectl: Callable[..., str]) -> None:
    volumes = [{"name": "tls", "secret": {"secretName": "server-tls"}}]
    apply(kubectl, bare_pod("server", volumes=volumes))
    (event,) = wait_until(lambda: events(kubectl, "server", "FailedMount"), "FailedMount")
    assert event["message"] == 'MountVolume.SetUp failed for volume "tls" : secret "server-tls" not found'
    assert event["type"] == "Warning" and event["source"]["component"] == "kubelet"
    pod = get(kubectl, "pod", "server")
    assert pod["status"]["phase"] == "Pending" and pod["spec"]["nodeName"] == "devcluster-node"
    assert pod["status"]["containerStatuses"][0]["state"] == {"waiting": {"reason": "ContainerCreating"}}

    kubectl("create", "secret", "generic", "unrelated", "--from-literal=x=y")
    assert get(kubectl, "pod", "server")["status"]["phase"] == "Pending"
    kubectl("create", "secret", "generic", "server-tls", "--from-literal=tls.crt=c", "--from-literal=tls.key=k")
    wait_until(lambda: ready(get(kubectl, "pod", "server")), "Running once the Secret exists")

    kubectl("delete", "secret", "server-tls")
    kubectl("create", "configmap", "nudge", "--from-literal=a=b")  # another change in the namespace
    wait_until(lambda: get(kubectl, "configmap", "nudge"), "the nudge ConfigMap")
    assert ready(get(kubectl, "pod", "server")), "a mounted volume stays mounted"


def test_missing_secret_key_ref_is_a_create_container_config_error(kubectl: Callable[..., str]) -> None:
    env = [{"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "token"}}}]
    apply(kubectl, bare_pod("client", containers=[container(env=env)]))

    def waiting() -> dict[str, Any] | None:
        statuses = get(kubectl, "pod", "client")["status"].get("containerStatuses") or [{}]
        state = statuses[0].get("state", {}).get("waiting", {})
        return state if state.get("reason") == "CreateContainerConfigError" else None

    assert wait_until(waiting, what="CreateContainerConfigError")["message"] == 'secret "creds" not found'
    (event,) = wait_until(lambda: events(kubectl, "client", "Failed"), "the Failed event")
    assert (event["type"], event["message"]) == ("Warning", 'Error: secret "creds" not found')

    kubectl("create", "secret", "generic", "creds", "--from-literal=other=x")
    ns = get(kubectl, "pod", "client")["metadata"]["namespace"]
    missing_key = f"couldn't find key token in Secret {ns}/creds"
    wait_until(lambda: (w := waiting()) and w["message"] == missing_key, "key error")
    kubectl("patch", "secret", "creds", "-p", '{"stringData": {"token": "t"}}')
    wait_until(lambda: ready(get(kubectl, "pod", "client")), "Running once the key exists")


def test_missing_claim_leaves_a_pod_unschedulable(kubectl: Callable[..., str]) -> None:
    volumes = [{"name": "data", "persistentVolumeClaim": {"claimName": "cache"}}]
    apply(kubectl, bare_pod("worker", volumes=volumes))
    (event,) = wait_until(lambda: events(kubectl, "worker", "FailedScheduling"), "FailedScheduling")
    assert event["message"] == '0/1 nodes are available: persistentvolumeclaim "cache" not found.'
    pod = get(kubectl, "pod", "worker")
    assert "nodeName" not in pod["spec"]
    assert [(c["type"], c["status"], c["reason"]) for c in pod["status"]["conditions"]] == [
        ("PodScheduled", "False", "Unschedulable")
    ]
    claim = {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": "cache"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
    }
    apply(kubectl, claim)
    wait_until(lambda: ready(get(kubectl, "pod", "worker")), "Running once the claim exists")


def test_refused_pods_are_failed_create_events_and_zero_ready_replicas(
    kubectl: Callable[..., str], devcluster_namespace: str
) -> None:
    kubectl("label", "namespace", devcluster_namespace, "pod-security.kubernetes.io/enforce=restricted")
    apply(kubectl, deployment("locked", 1))
    (rs,) = wait_until(lambda: get(kubectl, "rs", "-l", "app=locked")["items"], "the ReplicaSet")
    name = rs["metadata"]["name"]
    (event,) = wait_until(lambda: events(kubectl, name, "FailedCreate"), "FailedCreate")
    assert event["type"] == "Warning" and event["source"]["component"] == "replicaset-controller"
    prefix = f'Error creating: pods "{name}-" is forbidden: violates PodSecurity "restricted:latest": '
    assert event["message"].startswith(prefix), event["message"]
    # The controller retries with a backoff; repeats raise the count of the one Event.
    (repeated,) = wait_until(lambda: [e for e in events(kubectl, name, "FailedCreate") if e["count"] >= 2], "a retry")
    assert repeated["metadata"]["name"] == event["metadata"]["name"]
    assert repeated["count"] <= 4, "retries back off instead of running every tick"

    failure = next(c for c in get(kubectl, "rs", name)["status"]["conditions"] if c["type"] == "ReplicaFailure")
    assert (failure["status"], failure["reason"]) == ("True", "FailedCreate")
    assert failure["message"] == event["message"].removeprefix("Error creating: ")
    deployment_status = get(kubectl, "deployment", "locked")["status"]
    assert deployment_status.get("readyReplicas", 0) == 0 and deployment_status.get("updatedReplicas", 0) == 0
    assert {"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate"}.items() <= next(
        c for c in deployment_status["conditions"] if c["type"] == "ReplicaFailure"
    ).items()
    assert pods(kubectl, "app=locked") == []


def test_deleted_pod_is_recreated_and_deleting_the_owner_removes_its_pods(kubectl: Callable[..., str]) -> None:
    daemon = {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "agent"},
        "spec": {
            "selector": {"matchLabels": {"app": "agent"}},
            "template": {"metadata": {"labels": {"app": "agent"}}, "spec": {"containers": [container()]}},
        },
    }
    apply(kubectl, deployment("keep", 2), daemon)
    wait_until(lambda: get(kubectl, "daemonset", "agent")["status"].get("numberReady") == 1, "the daemon pod")
    wait_until(lambda: len([p for p in pods(kubectl, "app=keep") if ready(p)]) == 2, "two ready pods")
    victim = pods(kubectl, "app=keep")[0]["metadata"]["name"]
    kubectl("delete", "pod", victim)

    def replaced() -> bool:
        current = [p for p in pods(kubectl, "app=keep") if ready(p)]
        return len(current) == 2 and victim not in {p["metadata"]["name"] for p in current}

    wait_until(replaced, "a replacement pod")
    daemon_pod = pods(kubectl, "app=agent")[0]["metadata"]["name"]
    kubectl("delete", "pod", daemon_pod)
    wait_until(
        lambda: [p for p in pods(kubectl, "app=agent") if p["metadata"]["name"] != daemon_pod and ready(p)],
        "a new ready daemon pod",
    )

    kubectl("delete", "deployment", "keep")
    kubectl("delete", "daemonset", "agent")
    wait_until(lambda: not pods(kubectl, "app in (keep,agent)"), "pods collected with their owners")


def test_helm_install_wait_sees_pods_running(devcluster: DevCluster, devcluster_namespace: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "KUBECONFIG": str(devcluster.kubeconfig),
        "HELM_CACHE_HOME": str(tmp_path / "cache"),
        "HELM_CONFIG_HOME": str(tmp_path / "config"),
        "HELM_DATA_HOME": str(tmp_path / "data"),
    }
    command = [
        str(HELM),
        "install",
        "app",
        str(CHART),
        "-n",
        devcluster_namespace,
        "--set",
        "replicaCount=2",
        "--set",
        "hookJob.enabled=true",
        "--wait",
        "--timeout",
        "30s",
    ]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    listed = devcluster.call("GET", f"/api/v1/namespaces/{devcluster_namespace}/pods")["items"]
    phases = sorted((p["metadata"]["ownerReferences"][0]["kind"], p["status"]["phase"]) for p in listed)
    assert phases == [("Job", "Succeeded"), ("ReplicaSet", "Running"), ("ReplicaSet", "Running")]


def test_statefulset_pod_refused_for_a_missing_service_account(
    kubectl: Callable[..., str], devcluster_namespace: str
) -> None:
    pod_spec = {"serviceAccountName": "gateway", "containers": [container()]}
    sts = {
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "gw"},
        "spec": {
            "serviceName": "gw",
            "selector": {"matchLabels": {"app": "gw"}},
            "template": {"metadata": {"labels": {"app": "gw"}}, "spec": pod_spec},
        },
    }
    apply(kubectl, sts)
    (event,) = wait_until(lambda: events(kubectl, "gw", "FailedCreate"), "FailedCreate")
    ns = devcluster_namespace
    assert event["message"] == (
        f'create Pod gw-0 in StatefulSet gw failed error: pods "gw-0" is forbidden: '
        f'error looking up service account {ns}/gateway: serviceaccount "gateway" not found'
    )
    assert get(kubectl, "statefulset", "gw")["status"].get("readyReplicas", 0) == 0
    apply(kubectl, {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "gateway"}})
    wait_until(lambda: get(kubectl, "statefulset", "gw")["status"].get("readyReplicas") == 1, "ready after the retry")
    assert get(kubectl, "serviceaccount", "default")["metadata"]["name"] == "default"


def test_certificate_is_ready_only_once_its_secret_exists(kubectl: Callable[..., str]) -> None:
    certificate = {
        "apiVersion": "cert-manager.io/v1",
        "kind": "Certificate",
        "metadata": {"name": "server"},
        "spec": {"secretName": "server-tls", "dnsNames": ["a.example"], "issuerRef": {"name": "ca"}},
    }
    apply(kubectl, certificate)

    def ready_condition() -> dict[str, Any] | None:
        conditions = get(kubectl, "certificate", "server").get("status", {}).get("conditions") or []
        return next((c for c in conditions if c["type"] == "Ready"), None)

    waiting = wait_until(ready_condition, "a Ready condition")
    assert (waiting["status"], waiting["reason"]) == ("False", "DoesNotExist")
    assert waiting["message"] == "Issuing certificate as Secret does not exist"
    kubectl("create", "secret", "generic", "server-tls", "--from-literal=tls.crt=c", "--from-literal=tls.key=k")
    wait_until(lambda: ready_condition()["status"] == "True", "Ready once the Secret exists")
