from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.gateway import Gateway
from ...models.patched_gateway_request import PatchedGatewayRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    body: PatchedGatewayRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/gateways/{id}/".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | Gateway | None:
    if response.status_code == 200:
        response_200 = Gateway.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 412:
        response_412 = Error.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = cast(Any, None)
        return response_414

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Error | Gateway]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PatchedGatewayRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | Gateway]:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        id (UUID):
        if_match (str | Unset):
        body (PatchedGatewayRequest | Unset): A tenant gateway on one cluster: its route, OIDC and
            database settings, and optional overrides of its release's images (where the image policy
            allows them). A gateway gets a route by default; send "route": {"enabled": false} to
            remove it and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it
            and report status.phase, status.conditions, status.route_address and
            status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | Gateway]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PatchedGatewayRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | Gateway | None:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        id (UUID):
        if_match (str | Unset):
        body (PatchedGatewayRequest | Unset): A tenant gateway on one cluster: its route, OIDC and
            database settings, and optional overrides of its release's images (where the image policy
            allows them). A gateway gets a route by default; send "route": {"enabled": false} to
            remove it and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it
            and report status.phase, status.conditions, status.route_address and
            status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | Gateway
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PatchedGatewayRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | Gateway]:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        id (UUID):
        if_match (str | Unset):
        body (PatchedGatewayRequest | Unset): A tenant gateway on one cluster: its route, OIDC and
            database settings, and optional overrides of its release's images (where the image policy
            allows them). A gateway gets a route by default; send "route": {"enabled": false} to
            remove it and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it
            and report status.phase, status.conditions, status.route_address and
            status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | Gateway]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: PatchedGatewayRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | Gateway | None:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        id (UUID):
        if_match (str | Unset):
        body (PatchedGatewayRequest | Unset): A tenant gateway on one cluster: its route, OIDC and
            database settings, and optional overrides of its release's images (where the image policy
            allows them). A gateway gets a route by default; send "route": {"enabled": false} to
            remove it and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it
            and report status.phase, status.conditions, status.route_address and
            status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | Gateway
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
