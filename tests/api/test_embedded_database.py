"""The API modules that filter, search (`test_gateways`) and select by labels, run again on SQLite (the embedded
database `make run` uses), so a PostgreSQL-only lookup fails CI instead of answering 500 on `make run`.

pytest-django opens one database per session, so the modules run in a pytest of their own with a SQLite
``DATABASE_URL``; every other setting is this session's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.paths import PROJECT_ROOT

MODULES = (
    "tests/api/test_label_selection.py",
    "tests/api/test_rollouts.py",
    "tests/api/test_filtering.py",
    "tests/api/test_gateway_listing.py",
    "tests/api/test_gateways.py",
    "tests/api/test_catalogs.py",
    "tests/api/test_notifications.py",
)


def test_the_label_filter_and_search_modules_pass_on_sqlite(tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *MODULES, "-q", "-p", "no:cacheprovider", f"--junitxml={report}"],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    cases = ET.parse(report).getroot().iter("testcase")
    failed = [
        f"{case.get('classname')}::{case.get('name')}"
        for case in cases
        if case.find("failure") is not None or case.find("error") is not None
    ]
    assert run.returncode == 0 and not failed, f"failed on SQLite: {failed}\n{run.stdout[-4000:]}{run.stderr[-2000:]}"
    suite = ET.parse(report).getroot().find("testsuite")
    assert suite is not None and int(suite.get("tests", "0")) > len(MODULES), "the modules ran no tests"
