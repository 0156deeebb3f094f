from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cluster import Cluster
from ...models.cluster_request import ClusterRequest
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: ClusterRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/clusters/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Cluster | Error | None:
    if response.status_code == 201:
        response_201 = Cluster.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[Any | Cluster | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ClusterRequest,
) -> Response[Any | Cluster | Error]:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        body (ClusterRequest): A Kubernetes or OpenShift cluster gateways are installed on,
            reached with the kubeconfig given at registration (write-only). Its status says whether
            the last probe reached it and which optional APIs it serves.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Cluster | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ClusterRequest,
) -> Any | Cluster | Error | None:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        body (ClusterRequest): A Kubernetes or OpenShift cluster gateways are installed on,
            reached with the kubeconfig given at registration (write-only). Its status says whether
            the last probe reached it and which optional APIs it serves.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Cluster | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ClusterRequest,
) -> Response[Any | Cluster | Error]:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        body (ClusterRequest): A Kubernetes or OpenShift cluster gateways are installed on,
            reached with the kubeconfig given at registration (write-only). Its status says whether
            the last probe reached it and which optional APIs it serves.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Cluster | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ClusterRequest,
) -> Any | Cluster | Error | None:
    """Managed Kubernetes clusters. Platform admins only; the kubeconfig is write-only.

    Args:
        body (ClusterRequest): A Kubernetes or OpenShift cluster gateways are installed on,
            reached with the kubeconfig given at registration (write-only). Its status says whether
            the last probe reached it and which optional APIs it serves.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Cluster | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
