from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_subscription_list import PaginatedSubscriptionList
from ...models.subscriptions_list_min_severity import SubscriptionsListMinSeverity
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_severity: SubscriptionsListMinSeverity | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["enabled"] = enabled

    params["limit"] = limit

    json_min_severity: str | Unset = UNSET
    if not isinstance(min_severity, Unset):
        json_min_severity = min_severity.value

    params["min_severity"] = json_min_severity

    params["name"] = name

    params["offset"] = offset

    params["ordering"] = ordering

    params["receiver"] = receiver

    params["search"] = search

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/subscriptions/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedSubscriptionList | None:
    if response.status_code == 200:
        response_200 = PaginatedSubscriptionList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedSubscriptionList]:
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
    enabled: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_severity: SubscriptionsListMinSeverity | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedSubscriptionList]:
    """Subscriptions of a receiver to events. Tenants subscribe to their own gateways' events only.

    Args:
        cursor (str | Unset):
        enabled (bool | Unset):
        limit (int | Unset):
        min_severity (SubscriptionsListMinSeverity | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        receiver (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedSubscriptionList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        enabled=enabled,
        limit=limit,
        min_severity=min_severity,
        name=name,
        offset=offset,
        ordering=ordering,
        receiver=receiver,
        search=search,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_severity: SubscriptionsListMinSeverity | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Any | Error | PaginatedSubscriptionList | None:
    """Subscriptions of a receiver to events. Tenants subscribe to their own gateways' events only.

    Args:
        cursor (str | Unset):
        enabled (bool | Unset):
        limit (int | Unset):
        min_severity (SubscriptionsListMinSeverity | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        receiver (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedSubscriptionList
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        enabled=enabled,
        limit=limit,
        min_severity=min_severity,
        name=name,
        offset=offset,
        ordering=ordering,
        receiver=receiver,
        search=search,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_severity: SubscriptionsListMinSeverity | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedSubscriptionList]:
    """Subscriptions of a receiver to events. Tenants subscribe to their own gateways' events only.

    Args:
        cursor (str | Unset):
        enabled (bool | Unset):
        limit (int | Unset):
        min_severity (SubscriptionsListMinSeverity | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        receiver (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedSubscriptionList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        enabled=enabled,
        limit=limit,
        min_severity=min_severity,
        name=name,
        offset=offset,
        ordering=ordering,
        receiver=receiver,
        search=search,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    enabled: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    min_severity: SubscriptionsListMinSeverity | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Any | Error | PaginatedSubscriptionList | None:
    """Subscriptions of a receiver to events. Tenants subscribe to their own gateways' events only.

    Args:
        cursor (str | Unset):
        enabled (bool | Unset):
        limit (int | Unset):
        min_severity (SubscriptionsListMinSeverity | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        receiver (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedSubscriptionList
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            enabled=enabled,
            limit=limit,
            min_severity=min_severity,
            name=name,
            offset=offset,
            ordering=ordering,
            receiver=receiver,
            search=search,
        )
    ).parsed
