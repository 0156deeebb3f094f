from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.gateways_list_phase import GatewaysListPhase
from ...models.paginated_gateway_list import PaginatedGatewayList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cluster: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    phase: GatewaysListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    suspended: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cluster"] = cluster

    params["cursor"] = cursor

    params["limit"] = limit

    params["name"] = name

    params["offset"] = offset

    params["ordering"] = ordering

    params["owner"] = owner

    json_phase: str | Unset = UNSET
    if not isinstance(phase, Unset):
        json_phase = phase.value

    params["phase"] = json_phase

    params["search"] = search

    params["suspended"] = suspended

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/gateways/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedGatewayList | None:
    if response.status_code == 200:
        response_200 = PaginatedGatewayList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedGatewayList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cluster: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    phase: GatewaysListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    suspended: bool | Unset = UNSET,
) -> Response[Any | Error | PaginatedGatewayList]:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        cluster (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        owner (str | Unset):
        phase (GatewaysListPhase | Unset):
        search (str | Unset):
        suspended (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedGatewayList]
    """

    kwargs = _get_kwargs(
        cluster=cluster,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        owner=owner,
        phase=phase,
        search=search,
        suspended=suspended,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cluster: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    phase: GatewaysListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    suspended: bool | Unset = UNSET,
) -> Any | Error | PaginatedGatewayList | None:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        cluster (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        owner (str | Unset):
        phase (GatewaysListPhase | Unset):
        search (str | Unset):
        suspended (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedGatewayList
    """

    return sync_detailed(
        client=client,
        cluster=cluster,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        owner=owner,
        phase=phase,
        search=search,
        suspended=suspended,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cluster: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    phase: GatewaysListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    suspended: bool | Unset = UNSET,
) -> Response[Any | Error | PaginatedGatewayList]:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        cluster (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        owner (str | Unset):
        phase (GatewaysListPhase | Unset):
        search (str | Unset):
        suspended (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedGatewayList]
    """

    kwargs = _get_kwargs(
        cluster=cluster,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        owner=owner,
        phase=phase,
        search=search,
        suspended=suspended,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cluster: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    owner: str | Unset = UNSET,
    phase: GatewaysListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    suspended: bool | Unset = UNSET,
) -> Any | Error | PaginatedGatewayList | None:
    """Tenant gateways. Users see and change only their own; platform admins see all.

    Args:
        cluster (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        owner (str | Unset):
        phase (GatewaysListPhase | Unset):
        search (str | Unset):
        suspended (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedGatewayList
    """

    return (
        await asyncio_detailed(
            client=client,
            cluster=cluster,
            cursor=cursor,
            limit=limit,
            name=name,
            offset=offset,
            ordering=ordering,
            owner=owner,
            phase=phase,
            search=search,
            suspended=suspended,
        )
    ).parsed
