from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.paginated_rollout_list import PaginatedRolloutList
from ...models.rollouts_list_phase import RolloutsListPhase
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    phase: RolloutsListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    target_release: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    params["name"] = name

    params["offset"] = offset

    params["ordering"] = ordering

    json_phase: str | Unset = UNSET
    if not isinstance(phase, Unset):
        json_phase = phase.value

    params["phase"] = json_phase

    params["search"] = search

    params["target_release"] = target_release

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/rollouts/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedRolloutList | None:
    if response.status_code == 200:
        response_200 = PaginatedRolloutList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedRolloutList]:
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
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    phase: RolloutsListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    target_release: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedRolloutList]:
    """Rollouts of a release over a selection of gateways, in health-gated waves.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        phase (RolloutsListPhase | Unset):
        search (str | Unset):
        target_release (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedRolloutList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        phase=phase,
        search=search,
        target_release=target_release,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    phase: RolloutsListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    target_release: str | Unset = UNSET,
) -> Any | Error | PaginatedRolloutList | None:
    """Rollouts of a release over a selection of gateways, in health-gated waves.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        phase (RolloutsListPhase | Unset):
        search (str | Unset):
        target_release (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedRolloutList
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        phase=phase,
        search=search,
        target_release=target_release,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    phase: RolloutsListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    target_release: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedRolloutList]:
    """Rollouts of a release over a selection of gateways, in health-gated waves.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        phase (RolloutsListPhase | Unset):
        search (str | Unset):
        target_release (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedRolloutList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        phase=phase,
        search=search,
        target_release=target_release,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    phase: RolloutsListPhase | Unset = UNSET,
    search: str | Unset = UNSET,
    target_release: str | Unset = UNSET,
) -> Any | Error | PaginatedRolloutList | None:
    """Rollouts of a release over a selection of gateways, in health-gated waves.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        phase (RolloutsListPhase | Unset):
        search (str | Unset):
        target_release (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedRolloutList
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            name=name,
            offset=offset,
            ordering=ordering,
            phase=phase,
            search=search,
            target_release=target_release,
        )
    ).parsed
