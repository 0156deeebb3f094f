"""Browser tests: the console in headless Chromium against the live stack (API, worker, devcluster)."""

from tests.e2e.conftest import gateway_cluster, register
from tests.fixtures.browser import chromium, console, console_stack, staff_user

__all__ = ["chromium", "console", "console_stack", "gateway_cluster", "register", "staff_user"]
