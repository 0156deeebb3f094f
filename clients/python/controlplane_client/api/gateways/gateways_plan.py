from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.gateway_plan import GatewayPlan
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/gateways/{id}/plan/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | GatewayPlan | None:
    if response.status_code == 200:
        response_200 = GatewayPlan.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = GatewayPlan.from_dict(response.json())

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
) -> Response[Any | Error | GatewayPlan]:
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
    wait: int | Unset = UNSET,
) -> Response[Any | Error | GatewayPlan]:
    """Preview what reconciling the gateway's current spec would do against what is deployed. Nothing is
    applied. Answers 202 with the pending plan and its `Location` (or, with `?wait`, 200 once ready).

    Args:
        id (UUID):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | GatewayPlan]
    """

    kwargs = _get_kwargs(
        id=id,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Any | Error | GatewayPlan | None:
    """Preview what reconciling the gateway's current spec would do against what is deployed. Nothing is
    applied. Answers 202 with the pending plan and its `Location` (or, with `?wait`, 200 once ready).

    Args:
        id (UUID):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | GatewayPlan
    """

    return sync_detailed(
        id=id,
        client=client,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Response[Any | Error | GatewayPlan]:
    """Preview what reconciling the gateway's current spec would do against what is deployed. Nothing is
    applied. Answers 202 with the pending plan and its `Location` (or, with `?wait`, 200 once ready).

    Args:
        id (UUID):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | GatewayPlan]
    """

    kwargs = _get_kwargs(
        id=id,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = UNSET,
) -> Any | Error | GatewayPlan | None:
    """Preview what reconciling the gateway's current spec would do against what is deployed. Nothing is
    applied. Answers 202 with the pending plan and its `Location` (or, with `?wait`, 200 once ready).

    Args:
        id (UUID):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | GatewayPlan
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            wait=wait,
        )
    ).parsed
