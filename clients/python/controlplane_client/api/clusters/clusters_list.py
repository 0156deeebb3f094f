from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.clusters_list_flavour import ClustersListFlavour
from ...models.error import Error
from ...models.paginated_cluster_list import PaginatedClusterList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    flavour: ClustersListFlavour | Unset = UNSET,
    gateway_api: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    network_policy: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reachable: bool | Unset = UNSET,
    search: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_flavour: str | Unset = UNSET
    if not isinstance(flavour, Unset):
        json_flavour = flavour.value

    params["flavour"] = json_flavour

    params["gateway_api"] = gateway_api

    params["limit"] = limit

    params["name"] = name

    params["network_policy"] = network_policy

    params["offset"] = offset

    params["ordering"] = ordering

    params["reachable"] = reachable

    params["search"] = search

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/clusters/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | PaginatedClusterList | None:
    if response.status_code == 200:
        response_200 = PaginatedClusterList.from_dict(response.json())

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
) -> Response[Any | Error | PaginatedClusterList]:
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
    flavour: ClustersListFlavour | Unset = UNSET,
    gateway_api: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    network_policy: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reachable: bool | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedClusterList]:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        cursor (str | Unset):
        flavour (ClustersListFlavour | Unset):
        gateway_api (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        network_policy (bool | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reachable (bool | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedClusterList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        flavour=flavour,
        gateway_api=gateway_api,
        limit=limit,
        name=name,
        network_policy=network_policy,
        offset=offset,
        ordering=ordering,
        reachable=reachable,
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
    flavour: ClustersListFlavour | Unset = UNSET,
    gateway_api: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    network_policy: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reachable: bool | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Any | Error | PaginatedClusterList | None:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        cursor (str | Unset):
        flavour (ClustersListFlavour | Unset):
        gateway_api (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        network_policy (bool | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reachable (bool | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedClusterList
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        flavour=flavour,
        gateway_api=gateway_api,
        limit=limit,
        name=name,
        network_policy=network_policy,
        offset=offset,
        ordering=ordering,
        reachable=reachable,
        search=search,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    flavour: ClustersListFlavour | Unset = UNSET,
    gateway_api: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    network_policy: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reachable: bool | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[Any | Error | PaginatedClusterList]:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        cursor (str | Unset):
        flavour (ClustersListFlavour | Unset):
        gateway_api (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        network_policy (bool | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reachable (bool | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | PaginatedClusterList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        flavour=flavour,
        gateway_api=gateway_api,
        limit=limit,
        name=name,
        network_policy=network_policy,
        offset=offset,
        ordering=ordering,
        reachable=reachable,
        search=search,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    flavour: ClustersListFlavour | Unset = UNSET,
    gateway_api: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    network_policy: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: str | Unset = UNSET,
    reachable: bool | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Any | Error | PaginatedClusterList | None:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        cursor (str | Unset):
        flavour (ClustersListFlavour | Unset):
        gateway_api (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        network_policy (bool | Unset):
        offset (int | Unset):
        ordering (str | Unset):
        reachable (bool | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | PaginatedClusterList
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            flavour=flavour,
            gateway_api=gateway_api,
            limit=limit,
            name=name,
            network_policy=network_policy,
            offset=offset,
            ordering=ordering,
            reachable=reachable,
            search=search,
        )
    ).parsed
