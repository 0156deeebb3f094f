"""The fleet resync's verdict on a gateway's BackendTLSPolicy and BackendCA ConfigMap, from listed metadata (pure)."""

from __future__ import annotations

import pytest

from workers.reconcile.gateway.backend_tls.judge import BackendTlsVerdict, judge_backend_tls


def head(version: str | None) -> dict:
    annotations = {} if version is None else {"controlplane/server-secret-version": version}
    return {"metadata": {"name": "x", "annotations": annotations}}


@pytest.mark.parametrize(
    ("wanted", "secret", "policy", "configmap", "verdict"),
    [
        (True, "7", head("7"), head("7"), BackendTlsVerdict.IN_STEP),
        (True, "8", head("7"), head("7"), BackendTlsVerdict.STALE),  # cert-manager rotated the Secret
        (True, "8", head("8"), head("7"), BackendTlsVerdict.STALE),  # a pass wrote one of them only
        (True, "7", head(None), head(None), BackendTlsVerdict.STALE),  # made before the annotation
        (True, "7", head("7"), None, BackendTlsVerdict.MISSING),  # the ConfigMap was deleted
        (True, "7", None, head("7"), BackendTlsVerdict.MISSING),
        (True, None, head("7"), head("7"), BackendTlsVerdict.IN_STEP),  # Secret not listed: the pass says why
        (False, "7", head("7"), head("7"), BackendTlsVerdict.UNWANTED),  # TLS or the route turned off
        (False, "7", None, head("7"), BackendTlsVerdict.UNWANTED),
        (False, None, None, None, BackendTlsVerdict.IN_STEP),
    ],
)
def test_the_verdict(
    wanted: bool, secret: str | None, policy: dict | None, configmap: dict | None, verdict: BackendTlsVerdict
) -> None:
    assert judge_backend_tls(wanted=wanted, secret_version=secret, policy=policy, configmap=configmap) is verdict
