from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.gateway_plan import GatewayPlan
from ...models.gateway_request import GatewayRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: GatewayRequest,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/gateways/plan/",
        "params": params,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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
    *,
    client: AuthenticatedClient,
    body: GatewayRequest,
    wait: int | Unset = UNSET,
) -> Response[Any | Error | GatewayPlan]:
    """Preview a would-be gateway: the body is validated as a create (or, when you already have a gateway
    of that name, as a full update of it), and nothing is saved. Answers as `gateways_plan`.

    Args:
        wait (int | Unset):
        body (GatewayRequest): A tenant gateway on one cluster: its route, OIDC and database
            settings, and optional overrides of its release's images (where the image policy allows
            them). A gateway gets a route by default; send "route": {"enabled": false} to remove it
            and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it and report
            status.phase, status.conditions, status.route_address and status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | GatewayPlan]
    """

    kwargs = _get_kwargs(
        body=body,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: GatewayRequest,
    wait: int | Unset = UNSET,
) -> Any | Error | GatewayPlan | None:
    """Preview a would-be gateway: the body is validated as a create (or, when you already have a gateway
    of that name, as a full update of it), and nothing is saved. Answers as `gateways_plan`.

    Args:
        wait (int | Unset):
        body (GatewayRequest): A tenant gateway on one cluster: its route, OIDC and database
            settings, and optional overrides of its release's images (where the image policy allows
            them). A gateway gets a route by default; send "route": {"enabled": false} to remove it
            and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it and report
            status.phase, status.conditions, status.route_address and status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | GatewayPlan
    """

    return sync_detailed(
        client=client,
        body=body,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: GatewayRequest,
    wait: int | Unset = UNSET,
) -> Response[Any | Error | GatewayPlan]:
    """Preview a would-be gateway: the body is validated as a create (or, when you already have a gateway
    of that name, as a full update of it), and nothing is saved. Answers as `gateways_plan`.

    Args:
        wait (int | Unset):
        body (GatewayRequest): A tenant gateway on one cluster: its route, OIDC and database
            settings, and optional overrides of its release's images (where the image policy allows
            them). A gateway gets a route by default; send "route": {"enabled": false} to remove it
            and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it and report
            status.phase, status.conditions, status.route_address and status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | GatewayPlan]
    """

    kwargs = _get_kwargs(
        body=body,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: GatewayRequest,
    wait: int | Unset = UNSET,
) -> Any | Error | GatewayPlan | None:
    """Preview a would-be gateway: the body is validated as a create (or, when you already have a gateway
    of that name, as a full update of it), and nothing is saved. Answers as `gateways_plan`.

    Args:
        wait (int | Unset):
        body (GatewayRequest): A tenant gateway on one cluster: its route, OIDC and database
            settings, and optional overrides of its release's images (where the image policy allows
            them). A gateway gets a route by default; send "route": {"enabled": false} to remove it
            and "oidc": {"enabled": false} to clear the OIDC settings. Workers reconcile it and report
            status.phase, status.conditions, status.route_address and status.deployed_images.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | GatewayPlan
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            wait=wait,
        )
    ).parsed
