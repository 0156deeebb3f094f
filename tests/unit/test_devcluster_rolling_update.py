"""devcluster's Deployment rolling update step (`rolling_update`), against upstream's maxSurge/maxUnavailable."""

from __future__ import annotations

import pytest

from devcluster.workloads import Replicas, rolling_update


@pytest.mark.parametrize(("desired", "surge", "unavailable"), [(2, 1, 0), (4, 1, 1), (3, 0, 1), (5, 2, 0), (2, 0, 0)])
def test_a_roll_stays_within_surge_and_availability(desired: int, surge: int, unavailable: int) -> None:
    """Every step keeps at most desired + surge pods and at least desired - unavailable available (upstream
    turns 0/0 into maxUnavailable 1), and the roll ends on the new ReplicaSet alone."""
    floor = desired - (unavailable or (0 if surge else 1))
    new, old = Replicas(0, 0), [Replicas(desired, desired)]
    for _ in range(50):
        new_wanted, old_wanted = rolling_update(desired, surge, unavailable, new, old)
        assert new_wanted + sum(old_wanted) <= desired + surge
        # Scaled-down pods go at once; new pods become available on the next step.
        old = [Replicas(w, min(w, rs.available)) for w, rs in zip(old_wanted, old, strict=True)]
        assert new.available + sum(rs.available for rs in old) >= floor
        new = Replicas(new_wanted, new_wanted)
        if new.wanted == desired and not sum(rs.wanted for rs in old):
            break
    assert (new.wanted, [rs.wanted for rs in old]) == (desired, [0])


def test_unavailable_old_pods_go_first_and_nothing_below_the_floor() -> None:
    # An old ReplicaSet with two broken pods: one may go within the surge; the healthy one stays.
    assert rolling_update(3, 1, 0, Replicas(1, 1), [Replicas(3, 1)]) == (1, [2])
    # While the new pod is unavailable nothing old goes (upstream waits, up to progressDeadlineSeconds).
    assert rolling_update(3, 1, 0, Replicas(1, 0), [Replicas(3, 1)]) == (1, [3])
    assert rolling_update(3, 1, 0, Replicas(1, 1), [Replicas(1, 1)]) == (3, [1])


def test_scaling_the_new_replica_set_down() -> None:
    assert rolling_update(1, 1, 0, Replicas(3, 3), []) == (1, [])
