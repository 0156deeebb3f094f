from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.gateway import Gateway
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    force: bool | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    params: dict[str, Any] = {}

    params["force"] = force

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/gateways/{id}/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | Gateway | None:
    if response.status_code == 202:
        response_202 = Gateway.from_dict(response.json())

        return response_202

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

    if response.status_code == 412:
        response_412 = Error.from_dict(response.json())

        return response_412

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
    force: bool | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | Gateway]:
    """Marks the gateway Deleting; a worker uninstalls it, then removes the record. After
    GATEWAY_DELETE_MAX_FAILURES failed uninstalls, or at once with `?force=true` (platform admins only),
    the worker removes what the release left: its cluster-scoped objects, the namespace, and the control
    plane's objects.

    Args:
        id (UUID):
        force (bool | Unset):
        if_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | Gateway]
    """

    kwargs = _get_kwargs(
        id=id,
        force=force,
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
    force: bool | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | Gateway | None:
    """Marks the gateway Deleting; a worker uninstalls it, then removes the record. After
    GATEWAY_DELETE_MAX_FAILURES failed uninstalls, or at once with `?force=true` (platform admins only),
    the worker removes what the release left: its cluster-scoped objects, the namespace, and the control
    plane's objects.

    Args:
        id (UUID):
        force (bool | Unset):
        if_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | Gateway
    """

    return sync_detailed(
        id=id,
        client=client,
        force=force,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    force: bool | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Any | Error | Gateway]:
    """Marks the gateway Deleting; a worker uninstalls it, then removes the record. After
    GATEWAY_DELETE_MAX_FAILURES failed uninstalls, or at once with `?force=true` (platform admins only),
    the worker removes what the release left: its cluster-scoped objects, the namespace, and the control
    plane's objects.

    Args:
        id (UUID):
        force (bool | Unset):
        if_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | Gateway]
    """

    kwargs = _get_kwargs(
        id=id,
        force=force,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    force: bool | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Any | Error | Gateway | None:
    """Marks the gateway Deleting; a worker uninstalls it, then removes the record. After
    GATEWAY_DELETE_MAX_FAILURES failed uninstalls, or at once with `?force=true` (platform admins only),
    the worker removes what the release left: its cluster-scoped objects, the namespace, and the control
    plane's objects.

    Args:
        id (UUID):
        force (bool | Unset):
        if_match (str | Unset):

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
            force=force,
            if_match=if_match,
        )
    ).parsed
