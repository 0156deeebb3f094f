"""POST a notification to a receiver under the SSRF rules (no Django).

Each hop's host is resolved once, every answer is checked (``notifications.addresses``), and the connection
goes to a checked address: the IP is pinned while the ``Host`` header, TLS SNI and certificate check keep the
host name, so a second DNS answer can never steer the request elsewhere. Redirects are followed by hand, at
most ``max_redirects`` of them, each hop checked the same way (and never from https down to http unless
plain http is allowed). Every redirect re-sends the same POST, body and headers.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import urllib3

from notifications.addresses import (
    BlockedAddress,
    IPNetwork,
    Resolver,
    UnresolvableHost,
    resolve_checked,
    system_resolver,
)

__all__ = ["Answer", "RefusedUrl", "SendFailed", "Target", "TransportPolicy", "check_url", "origin", "post"]

REDIRECTS = frozenset({301, 302, 303, 307, 308})
ANSWER_CHARS = 512


def origin(url: str) -> str:
    """``url`` without its path, query or credentials, for messages: a Slack URL's path is its token."""
    try:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}"
    except ValueError:
        return "<invalid URL>"


class RefusedUrl(ValueError):
    """The URL (or a redirect's) breaks a rule: scheme, form, address, or too many hops. Not worth retrying."""


class SendFailed(OSError):
    """No answer: the connection failed or timed out. Worth retrying."""


@dataclass(frozen=True)
class TransportPolicy:
    allow_private: bool = False
    allowed_networks: tuple[IPNetwork, ...] = ()
    allow_http: bool = False
    timeout: float = 10.0
    max_redirects: int = 3
    resolver: Resolver = system_resolver


@dataclass(frozen=True)
class Target:
    """One hop: where to connect (checked addresses) and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


@dataclass(frozen=True)
class Answer:
    status: int
    url: str  # the origin of the hop that answered (no path: see ``origin``)
    text: str  # the start of the body, for the delivery log
    redirects: int = 0


def check_url(url: str, policy: TransportPolicy) -> Target:
    """The checked first hop of ``url``; ``RefusedUrl`` says why it may not be used."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise RefusedUrl(f"not a valid URL: {exc}") from None
    allowed = ("https", "http") if policy.allow_http else ("https",)
    if parts.scheme not in allowed:
        hint = "" if policy.allow_http else " (NOTIFICATIONS_ALLOW_HTTP allows http://)"
        raise RefusedUrl(f"the URL must start with {' or '.join(s + '://' for s in allowed)}{hint}")
    if not parts.hostname:
        raise RefusedUrl("the URL has no host")
    if parts.username or parts.password:
        raise RefusedUrl("the URL may not carry credentials; use the signing secret")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = resolve_checked(
            parts.hostname,
            port,
            allow_private=policy.allow_private,
            allowed_networks=policy.allowed_networks,
            resolver=policy.resolver,
        )
    except (BlockedAddress, UnresolvableHost) as exc:
        raise RefusedUrl(str(exc)) from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, tuple(addresses))


def _pool(target: Target, address: str, timeout: float) -> urllib3.HTTPConnectionPool:
    common = {"port": target.port, "timeout": urllib3.Timeout(total=timeout), "retries": False, "maxsize": 1}
    if target.scheme == "https":
        return urllib3.HTTPSConnectionPool(
            address,
            server_hostname=target.host,
            assert_hostname=target.host,
            cert_reqs="CERT_REQUIRED",
            **common,
        )
    return urllib3.HTTPConnectionPool(address, **common)


def _send_once(target: Target, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, str, str | None]:
    """POST to the first of the target's checked addresses that accepts a connection."""
    last: Exception | None = None
    for address in target.addresses:
        with _pool(target, address, timeout) as pool:
            try:
                response = pool.urlopen(
                    "POST",
                    target.path,
                    body=body,
                    headers={**headers, "Host": target.host_header},
                    redirect=False,
                    retries=False,
                    preload_content=False,
                    assert_same_host=False,
                )
            except urllib3.exceptions.NewConnectionError as exc:
                last = exc
                continue
            except urllib3.exceptions.HTTPError as exc:
                raise SendFailed(f"{target.host}: {_without_path(str(exc), target)}") from None
            try:
                text = response.read(ANSWER_CHARS * 4, decode_content=False).decode("utf-8", "replace")[:ANSWER_CHARS]
            except urllib3.exceptions.HTTPError:
                text = ""
            finally:
                response.release_conn()
            return response.status, text, response.headers.get("Location")
    raise SendFailed(f"{target.host}: could not connect: {_without_path(str(last), target)}")


def _without_path(message: str, target: Target) -> str:
    return message.replace(target.path, "/...") if target.path != "/" else message


def post(url: str, body: bytes, headers: dict[str, str], policy: TransportPolicy) -> Answer:
    """POST ``body`` to ``url``, following redirects by hand; the answer of the last hop."""
    current = url
    for hop in range(policy.max_redirects + 1):
        target = check_url(current, policy)
        status, text, location = _send_once(target, body, headers, policy.timeout)
        if status not in REDIRECTS or not location:
            return Answer(status, origin(current), text, redirects=hop)
        following = urljoin(current, location)
        if urlsplit(current).scheme == "https" and urlsplit(following).scheme == "http" and not policy.allow_http:
            raise RefusedUrl(f"{origin(current)} redirected from https to {origin(following)}")
        current = following
    raise RefusedUrl(f"more than {policy.max_redirects} redirects, the last to {origin(current)}")
