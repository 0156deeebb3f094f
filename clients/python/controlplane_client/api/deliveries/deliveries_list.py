from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.deliveries_list_event_kind import DeliveriesListEventKind
from ...models.deliveries_list_severity import DeliveriesListSeverity
from ...models.deliveries_list_status import DeliveriesListStatus
from ...models.error import Error
from ...models.paginated_delivery_list import PaginatedDeliveryList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    event_kind: DeliveriesListEventKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reason: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
    severity: DeliveriesListSeverity | Unset = UNSET,
    status: DeliveriesListStatus | Unset = UNSET,
    subscription: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_event_kind: str | Unset = UNSET
    if not isinstance(event_kind, Unset):
        json_event_kind = event_kind.value

    params["event_kind"] = json_event_kind

    params["limit"] = limit

    params["object_id"] = object_id

    params["offset"] = offset

    params["ordering"] = ordering

    params["reason"] = reason

    params["receiver"] = receiver

    params["search"] = search

    json_severity: str | Unset = UNSET
    if not isinstance(severity, Unset):
        json_severity = severity.value

    params["severity"] = json_severity

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["subscription"] = subscription

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/deliveries/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedDeliveryList | None:
    if response.status_code == 200:
        response_200 = PaginatedDeliveryList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedDeliveryList]:
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
    event_kind: DeliveriesListEventKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reason: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
    severity: DeliveriesListSeverity | Unset = UNSET,
    status: DeliveriesListStatus | Unset = UNSET,
    subscription: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedDeliveryList]:
    """The delivery log: every matched event, its payload and its attempts. Tenants see their own.

    Args:
        cursor (str | Unset):
        event_kind (DeliveriesListEventKind | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reason (str | Unset):
        receiver (str | Unset):
        search (str | Unset):
        severity (DeliveriesListSeverity | Unset):
        status (DeliveriesListStatus | Unset):
        subscription (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedDeliveryList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        event_kind=event_kind,
        limit=limit,
        object_id=object_id,
        offset=offset,
        ordering=ordering,
        reason=reason,
        receiver=receiver,
        search=search,
        severity=severity,
        status=status,
        subscription=subscription,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    event_kind: DeliveriesListEventKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reason: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
    severity: DeliveriesListSeverity | Unset = UNSET,
    status: DeliveriesListStatus | Unset = UNSET,
    subscription: str | Unset = UNSET,
) -> Any | Error | PaginatedDeliveryList | None:
    """The delivery log: every matched event, its payload and its attempts. Tenants see their own.

    Args:
        cursor (str | Unset):
        event_kind (DeliveriesListEventKind | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reason (str | Unset):
        receiver (str | Unset):
        search (str | Unset):
        severity (DeliveriesListSeverity | Unset):
        status (DeliveriesListStatus | Unset):
        subscription (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedDeliveryList
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        event_kind=event_kind,
        limit=limit,
        object_id=object_id,
        offset=offset,
        ordering=ordering,
        reason=reason,
        receiver=receiver,
        search=search,
        severity=severity,
        status=status,
        subscription=subscription,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    event_kind: DeliveriesListEventKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reason: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
    severity: DeliveriesListSeverity | Unset = UNSET,
    status: DeliveriesListStatus | Unset = UNSET,
    subscription: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedDeliveryList]:
    """The delivery log: every matched event, its payload and its attempts. Tenants see their own.

    Args:
        cursor (str | Unset):
        event_kind (DeliveriesListEventKind | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reason (str | Unset):
        receiver (str | Unset):
        search (str | Unset):
        severity (DeliveriesListSeverity | Unset):
        status (DeliveriesListStatus | Unset):
        subscription (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedDeliveryList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        event_kind=event_kind,
        limit=limit,
        object_id=object_id,
        offset=offset,
        ordering=ordering,
        reason=reason,
        receiver=receiver,
        search=search,
        severity=severity,
        status=status,
        subscription=subscription,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    event_kind: DeliveriesListEventKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    object_id: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reason: str | Unset = UNSET,
    receiver: str | Unset = UNSET,
    search: str | Unset = UNSET,
    severity: DeliveriesListSeverity | Unset = UNSET,
    status: DeliveriesListStatus | Unset = UNSET,
    subscription: str | Unset = UNSET,
) -> Any | Error | PaginatedDeliveryList | None:
    """The delivery log: every matched event, its payload and its attempts. Tenants see their own.

    Args:
        cursor (str | Unset):
        event_kind (DeliveriesListEventKind | Unset):
        limit (int | Unset):
        object_id (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reason (str | Unset):
        receiver (str | Unset):
        search (str | Unset):
        severity (DeliveriesListSeverity | Unset):
        status (DeliveriesListStatus | Unset):
        subscription (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedDeliveryList
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            event_kind=event_kind,
            limit=limit,
            object_id=object_id,
            offset=offset,
            ordering=ordering,
            reason=reason,
            receiver=receiver,
            search=search,
            severity=severity,
            status=status,
            subscription=subscription,
        )
    ).parsed
