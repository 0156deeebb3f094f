from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.catalogs_list_availability_mode import CatalogsListAvailabilityMode
from ...models.error import Error
from ...models.paginated_catalog_list import PaginatedCatalogList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    availability_mode: CatalogsListAvailabilityMode | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_availability_mode: str | Unset = UNSET
    if not isinstance(availability_mode, Unset):
        json_availability_mode = availability_mode.value

    params["availability_mode"] = json_availability_mode

    params["cursor"] = cursor

    params["limit"] = limit

    params["name"] = name

    params["offset"] = offset

    params["ordering"] = ordering

    params["search"] = search

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/catalogs/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedCatalogList | None:
    if response.status_code == 200:
        response_200 = PaginatedCatalogList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedCatalogList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    availability_mode: CatalogsListAvailabilityMode | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedCatalogList]:
    """File-based catalogs from OCI images. Everyone may read; platform admins write.

    Args:
        availability_mode (CatalogsListAvailabilityMode | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedCatalogList]
    """

    kwargs = _get_kwargs(
        availability_mode=availability_mode,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    availability_mode: CatalogsListAvailabilityMode | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Any | Error | PaginatedCatalogList | None:
    """File-based catalogs from OCI images. Everyone may read; platform admins write.

    Args:
        availability_mode (CatalogsListAvailabilityMode | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedCatalogList
    """

    return sync_detailed(
        client=client,
        availability_mode=availability_mode,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    availability_mode: CatalogsListAvailabilityMode | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedCatalogList]:
    """File-based catalogs from OCI images. Everyone may read; platform admins write.

    Args:
        availability_mode (CatalogsListAvailabilityMode | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedCatalogList]
    """

    kwargs = _get_kwargs(
        availability_mode=availability_mode,
        cursor=cursor,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    availability_mode: CatalogsListAvailabilityMode | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Any | Error | PaginatedCatalogList | None:
    """File-based catalogs from OCI images. Everyone may read; platform admins write.

    Args:
        availability_mode (CatalogsListAvailabilityMode | Unset):
        cursor (str | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedCatalogList
    """

    return (
        await asyncio_detailed(
            client=client,
            availability_mode=availability_mode,
            cursor=cursor,
            limit=limit,
            name=name,
            offset=offset,
            ordering=ordering,
            search=search,
        )
    ).parsed
