from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.catalog_diff import CatalogDiff
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/catalogs/{id}/diff/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | CatalogDiff | Error | None:
    if response.status_code == 200:
        response_200 = CatalogDiff.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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

    if response.status_code == 414:
        response_414 = cast(Any, None)
        return response_414

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | CatalogDiff | Error]:
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
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | CatalogDiff | Error]:
    """What changed between two versions in the catalog's history (default: the previous version against
    the current one): packages, channels and bundles added, removed and changed, and the channel entries
    and upgrade edges added and removed. A digest not in the history is a 404.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CatalogDiff | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        from_=from_,
        to=to,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | CatalogDiff | Error | None:
    """What changed between two versions in the catalog's history (default: the previous version against
    the current one): packages, channels and bundles added, removed and changed, and the channel entries
    and upgrade edges added and removed. A digest not in the history is a 404.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CatalogDiff | Error
    """

    return sync_detailed(
        id=id,
        client=client,
        from_=from_,
        to=to,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | CatalogDiff | Error]:
    """What changed between two versions in the catalog's history (default: the previous version against
    the current one): packages, channels and bundles added, removed and changed, and the channel entries
    and upgrade edges added and removed. A digest not in the history is a 404.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CatalogDiff | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        from_=from_,
        to=to,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | CatalogDiff | Error | None:
    """What changed between two versions in the catalog's history (default: the previous version against
    the current one): packages, channels and bundles added, removed and changed, and the channel entries
    and upgrade edges added and removed. A digest not in the history is a 404.

    Args:
        id (UUID):
        from_ (str | Unset):
        to (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CatalogDiff | Error
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            from_=from_,
            to=to,
            if_none_match=if_none_match,
        )
    ).parsed
