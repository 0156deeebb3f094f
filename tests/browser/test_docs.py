"""The API docs (Swagger UI, Redoc) and the console render in Chromium from our origin alone, under the CSP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.fixtures.browser import start_chromium
from tests.fixtures.stack import Stack

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

TITLE = "Gateway and catalog control plane API"
LOCAL = {"127.0.0.1", "localhost", "::1"}
NETWORK = {"http", "https", "ws", "wss", "ftp"}


@pytest.fixture
def logged_chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = start_chromium(tmp_path_factory.mktemp("chromium-logged"), logs=True)
    try:
        yield driver
    finally:
        driver.quit()


def requested_urls(driver: WebDriver) -> tuple[list[str], list[str]]:
    """(URLs the page fetched, URLs the CSP stopped before they were sent), from DevTools network events."""
    asked, blocked = {}, set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.requestWillBeSent":
            asked[params["requestId"]] = params["request"]["url"]
        elif message["method"] == "Network.loadingFailed" and params.get("blockedReason") == "csp":
            blocked.add(params["requestId"])
    return [url for rid, url in asked.items() if rid not in blocked], [asked[rid] for rid in blocked if rid in asked]


def off_loopback(urls: list[str]) -> list[str]:
    """The network requests (chrome:// pages, data: and blob: URLs are not) to anywhere but loopback."""
    return [url for url in urls if urlsplit(url).scheme in NETWORK and urlsplit(url).hostname not in LOCAL]


def csp_violations(driver: WebDriver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]


@pytest.mark.parametrize(
    ("path", "rendered"),
    [
        ("/api/v1/schema/swagger-ui/", ".swagger-ui .info .title"),
        ("/api/v1/schema/redoc/", "h1"),
    ],
)
def test_docs_render_offline_under_the_csp(
    console_stack: Stack, logged_chromium: WebDriver, path: str, rendered: str
) -> None:
    logged_chromium.get(console_stack.api_url + path)
    WebDriverWait(logged_chromium, 30).until(
        lambda d: any(TITLE in e.text for e in d.find_elements(By.CSS_SELECTOR, rendered))
    )
    if "swagger" in path:
        WebDriverWait(logged_chromium, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-tag"))
    else:
        WebDriverWait(logged_chromium, 10).until(
            lambda d: "gateways_create" in d.page_source or d.find_elements(By.CSS_SELECTOR, "[data-section-id]")
        )
    fetched, blocked = requested_urls(logged_chromium)
    assert any(url.endswith("/api/v1/schema/") or "/api/v1/schema/?" in url for url in fetched), fetched
    assert off_loopback(fetched) == []
    # Redoc's sidebar hard-codes its vendor's logo from a CDN; the CSP stops it and Redoc hides the image.
    assert blocked == (["https://cdn.redoc.ly/redoc/logo-mini.svg"] if "redoc" in path else [])
    assert all("cdn.redoc.ly" in violation for violation in csp_violations(logged_chromium))


def test_console_login_renders_under_the_csp(console_stack: Stack, logged_chromium: WebDriver) -> None:
    logged_chromium.get(console_stack.api_url + "/admin/login/")
    assert logged_chromium.find_element(By.CSS_SELECTOR, "#login-form")
    fetched, blocked = requested_urls(logged_chromium)
    assert off_loopback(fetched) == [] and blocked == []
    assert csp_violations(logged_chromium) == []
