"""The console's plots in headless Chromium: the dashboard's fleet charts and a rollout's wave bars render.

Each test takes a screenshot (kept under its tmp_path) and reads the pixels inside the chart's bounding
rectangle: every series' colour, as the browser computed it from console.css, must be there.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from selenium.webdriver.remote.webelement import WebElement

from controlplane.models import FleetSample, ManagedCluster
from gateways.choices import Phase
from gateways.models import GatewayRelease
from rollouts.choices import RolloutPhase
from rollouts.models import Rollout, RolloutTarget
from tests.browser.test_console import CLOSED_PORT_KUBECONFIG
from tests.fixtures.browser import Console
from tests.fixtures.png import read_png

pytestmark = pytest.mark.browser

TOLERANCE = 6  # per channel: antialiased edges aside, a filled or stroked pixel has the exact colour
MIN_PIXELS = 20


def rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return r, g, b


def rendered(console: Console, element: WebElement) -> dict[str, float]:
    """The element's rectangle in screenshot pixels, once it is laid out with a size."""
    script = "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height];"
    x, y, width, height = console.wait_for(
        lambda: (box := console.driver.execute_script(script, element)) and box[2] > 0 and box[3] > 0 and box,
        "the chart to be laid out",
    )
    scale = console.driver.execute_script("return window.devicePixelRatio")
    return {"x": x * scale, "y": y * scale, "width": width * scale, "height": height * scale}


def colours_in(console: Console, element: WebElement, shot: Path, panel: str) -> Counter[tuple[int, int, int]]:
    """Screenshot the window (``panel`` scrolled to its top) and count the colours inside the element."""
    console.driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", console.find(panel))
    box = rendered(console, element)
    png = console.driver.get_screenshot_as_png()
    shot.write_bytes(png)
    right, bottom = int(box["x"] + box["width"]), int(box["y"] + box["height"])
    pixels = read_png(png, width=right, height=bottom)
    return Counter(
        pixels.rgb(x, y)
        for y in range(max(int(box["y"]), 0), min(bottom, pixels.height))
        for x in range(max(int(box["x"]), 0), min(right, pixels.width))
    )


def has_colour(found: Counter[tuple[int, int, int]], colour: tuple[int, int, int]) -> bool:
    near = sum(n for c, n in found.items() if all(abs(a - b) <= TOLERANCE for a, b in zip(c, colour, strict=True)))
    return near >= MIN_PIXELS


def computed(console: Console, element: WebElement, prop: str) -> tuple[int, int, int]:
    return rgb(console.driver.execute_script(f"return getComputedStyle(arguments[0]).{prop}", element))


def test_the_dashboard_and_a_rollout_page_draw_their_plots(console: Console, staff_user, tmp_path) -> None:
    """One test for both pages: a second would cost a restart of the stack's API."""
    staff_user("platform", superuser=True)
    console.login("platform")
    dashboard_plots(console, tmp_path / "dashboard-plots.png")
    rollout_bars(console, tmp_path / "rollout-waves.png")


def dashboard_plots(console: Console, shot: Path) -> None:
    console.open("/admin/")
    assert "No samples yet: the first is taken within a minute." in console.find("#cp-fleet").text

    clusters = [
        ManagedCluster.objects.create(name=n, kubeconfig=CLOSED_PORT_KUBECONFIG, base_domain=f"{n}.test")
        for n in ("east", "west")
    ]
    now = timezone.now()
    FleetSample.objects.bulk_create(  # Running climbs, Degraded and Failed hold: three lines apart
        FleetSample(
            at=now - timedelta(minutes=m),
            cluster=cluster,
            counts={Phase.RUNNING: 40 - m, Phase.DEGRADED: 12, Phase.FAILED: 5},
        )
        for m in range(2, 32)
        for cluster in clusters
    )
    console.open("/admin/")
    figures = console.find_all("#cp-fleet figure.cp-chart")
    assert [f.get_attribute("data-cluster") for f in figures] == ["east", "west"]
    svg = figures[0].find_element("css selector", "svg")
    paths = svg.find_elements("css selector", "path.cp-chart-line")
    assert len(paths) == len(Phase)
    assert "Running 38" in svg.find_element("css selector", "desc").get_attribute("textContent")

    found = colours_in(console, svg, shot, "#cp-fleet")
    for phase in (Phase.RUNNING, Phase.DEGRADED, Phase.FAILED):
        path = svg.find_element("css selector", f"path[data-phase='{phase}']")
        colour = computed(console, path, "stroke")
        assert has_colour(found, colour), f"{phase}'s line ({colour}) is not in the screenshot"


def rollout_bars(console: Console, shot: Path) -> None:
    release = GatewayRelease.objects.create(name="v2", chart="/charts/gateway")
    rollout = Rollout.objects.create(  # Aborted: the stack's controller leaves it as it is
        name="to-v2", target_release=release, phase=RolloutPhase.ABORTED, wave_count=3, current_wave=1
    )
    waves = {0: ["healthy"] * 3 + ["failed"], 1: ["upgrading", "upgrading", "pending", "rolled_back"], 2: ["pending"]}
    RolloutTarget.objects.bulk_create(
        RolloutTarget(rollout=rollout, gateway_name=f"g{w}{i}", cluster_name="east", wave=w, position=i, state=s)
        for w, states in waves.items()
        for i, s in enumerate(states)
    )
    console.open(f"/admin/rollouts/rollout/{rollout.pk}/change/")
    svg = console.find("#cp-rollout-chart svg")
    bars = svg.find_elements("css selector", "g.cp-chart-bar")
    assert [b.get_attribute("data-wave") for b in bars] == ["0", "1", "2"]
    assert [len(b.find_elements("css selector", "rect[data-state]")) for b in bars] == [2, 3, 1]

    found = colours_in(console, svg, shot, ".field-waves_display")
    for state in ("healthy", "failed", "upgrading", "rolled_back", "pending"):
        segment = svg.find_element("css selector", f"rect[data-state='{state}']")
        colour = computed(console, segment, "fill")
        assert has_colour(found, colour), f"the {state} segment ({colour}) is not in the screenshot"
