"""The notification transport against a real HTTP receiver on loopback: pinned addresses, and redirects checked
hop by hop. Loopback is allowed here only as ``127.0.0.1/32`` (an allowed network), so every other loopback
address stands in for the private targets a redirect or a DNS answer may point at."""

from __future__ import annotations

import ipaddress

import pytest

from notifications.addresses import UnresolvableHost
from notifications.transport import RefusedUrl, SendFailed, TransportPolicy, post
from tests.fixtures.receiver import Receiver
from tests.ports import free_port

pytestmark = pytest.mark.integration

NAMES = {
    "hooks.example.test": ["127.0.0.1"],
    "internal.example.test": ["127.0.0.2"],
    "mixed.example.test": ["127.0.0.1", "10.0.0.1"],
}


def resolve(host: str, port: int) -> list[str]:
    if host not in NAMES:
        raise UnresolvableHost(f"{host} does not resolve")
    return NAMES[host]


POLICY = TransportPolicy(
    allowed_networks=(ipaddress.ip_network("127.0.0.1/32"),), allow_http=True, timeout=5, resolver=resolve
)


def port_of(receiver: Receiver) -> int:
    return receiver.server.server_address[1]


def test_a_name_is_resolved_once_and_the_checked_address_pinned(receiver: Receiver) -> None:
    answer = post(f"http://hooks.example.test:{port_of(receiver)}/hook?x=1", b"{}", {"X-Test": "1"}, POLICY)
    assert answer.status == 200
    [seen] = receiver.requests()
    # Connected to 127.0.0.1 although the system cannot resolve the name: the Host header keeps it.
    assert seen.headers["Host"] == f"hooks.example.test:{port_of(receiver)}" and seen.path == "/hook?x=1"


def test_a_redirect_is_followed_with_the_same_post(receiver: Receiver) -> None:
    receiver.answer = lambda seen, earlier: (307, "/final") if seen.path == "/start" else 200
    answer = post(f"{receiver.url}/start", b'{"a":1}', {"X-Controlplane-Delivery": "k"}, POLICY)
    assert (answer.status, answer.redirects, answer.url) == (200, 1, receiver.url)  # no path: it may be a token
    first, second = receiver.requests()
    assert first.body == second.body == b'{"a":1}' and second.key == "k" and second.path == "/final"


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.2:{port}/",  # a loopback address outside the allowed network
        "http://internal.example.test:{port}/",  # a name that resolves there
        "http://mixed.example.test:{port}/",  # one private answer among allowed ones
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        "http://[::ffff:10.0.0.1]:{port}/",
    ],
)
def test_a_redirect_to_a_forbidden_address_is_refused_before_connecting(receiver: Receiver, target: str) -> None:
    location = target.format(port=port_of(receiver))
    receiver.answer = lambda seen, earlier: (302, location)
    with pytest.raises(RefusedUrl, match="address; notifications may not be sent there"):
        post(f"{receiver.url}/hook", b"{}", {}, POLICY)
    assert len(receiver.requests()) == 1  # only the allowed first hop was reached


def test_redirects_are_bounded(receiver: Receiver) -> None:
    receiver.answer = lambda seen, earlier: (307, "/again")
    with pytest.raises(RefusedUrl, match="more than 3 redirects"):
        post(f"{receiver.url}/hook", b"{}", {}, POLICY)
    assert len(receiver.requests()) == 4


def test_the_literal_first_hop_is_checked_too(receiver: Receiver) -> None:
    with pytest.raises(RefusedUrl, match="loopback"):
        post(f"http://127.0.0.2:{port_of(receiver)}/", b"{}", {}, POLICY)
    with pytest.raises(RefusedUrl, match="must start with https://"):
        post(f"{receiver.url}/", b"{}", {}, TransportPolicy(allow_private=True))
    assert receiver.requests() == []


def test_no_answer_is_a_send_failure() -> None:
    with pytest.raises(SendFailed, match="could not connect"):
        post(f"http://127.0.0.1:{free_port()}/", b"{}", {}, POLICY)
