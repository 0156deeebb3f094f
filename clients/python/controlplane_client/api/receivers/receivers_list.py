from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_receiver_list import PaginatedReceiverList
from ...models.receivers_list_kind import ReceiversListKind
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    kind: ReceiversListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
    tenants_may_subscribe: bool | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["limit"] = limit

    params["name"] = name

    params["offset"] = offset

    params["ordering"] = ordering

    params["search"] = search

    params["tenants_may_subscribe"] = tenants_may_subscribe

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/receivers/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedReceiverList | None:
    if response.status_code == 200:
        response_200 = PaginatedReceiverList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedReceiverList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ReceiversListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
    tenants_may_subscribe: bool | Unset = UNSET,
) -> Response[Any | Error | PaginatedReceiverList]:
    """Notification receivers. Platform admins only; the URL and the secret are write-only.

    Args:
        cursor (str | Unset):
        kind (ReceiversListKind | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):
        tenants_may_subscribe (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedReceiverList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        kind=kind,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
        tenants_may_subscribe=tenants_may_subscribe,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ReceiversListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
    tenants_may_subscribe: bool | Unset = UNSET,
) -> Any | Error | PaginatedReceiverList | None:
    """Notification receivers. Platform admins only; the URL and the secret are write-only.

    Args:
        cursor (str | Unset):
        kind (ReceiversListKind | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):
        tenants_may_subscribe (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedReceiverList
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        kind=kind,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
        tenants_may_subscribe=tenants_may_subscribe,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ReceiversListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
    tenants_may_subscribe: bool | Unset = UNSET,
) -> Response[Any | Error | PaginatedReceiverList]:
    """Notification receivers. Platform admins only; the URL and the secret are write-only.

    Args:
        cursor (str | Unset):
        kind (ReceiversListKind | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):
        tenants_may_subscribe (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedReceiverList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        kind=kind,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
        tenants_may_subscribe=tenants_may_subscribe,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ReceiversListKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
    tenants_may_subscribe: bool | Unset = UNSET,
) -> Any | Error | PaginatedReceiverList | None:
    """Notification receivers. Platform admins only; the URL and the secret are write-only.

    Args:
        cursor (str | Unset):
        kind (ReceiversListKind | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):
        tenants_may_subscribe (bool | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedReceiverList
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            kind=kind,
            limit=limit,
            name=name,
            offset=offset,
            ordering=ordering,
            search=search,
            tenants_may_subscribe=tenants_may_subscribe,
        )
    ).parsed
