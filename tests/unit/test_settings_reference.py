"""The configuration reference agrees with the code: each variable the settings read is described, each described
variable is read, and the committed page is what ``make docs`` would write."""

from __future__ import annotations

from pathlib import Path

from controlplane.settings_reference import PAGE, declarations, described, render
from tests.paths import PROJECT_ROOT

README_MAX_LINES = 150


def test_every_variable_read_is_described_and_every_one_described_is_read() -> None:
    read, words = set(declarations()), described()
    assert not read - set(words), "describe these in controlplane/settings_meanings.py"
    assert not set(words) - read, "these are described but no settings module reads them"
    assert len(words) == len(set(words)), "a variable is described twice"


def test_the_committed_reference_is_the_generated_one() -> None:
    assert PAGE.read_text() == render(declarations()), "run `make docs` and commit docs/operators/configuration.md"


def test_defaults_are_the_code_s_own_expressions(tmp_path: Path) -> None:
    for module in ("settings.py", "catalog_store_env.py", "image_policy_env.py", "metrics.py"):
        (tmp_path / module).write_text("")
    (tmp_path / "settings.py").write_text(
        'A = env_int("SOME_SECONDS", 60 * 5, minimum=1)\n'
        'B = env_required("SOME_KEY", "set it")\n'
        'C = os.environ.get("SOME_DIR") or None\n'
        'D = _key_pair("SOME_ID", "SOME_SECRET")\n'
        "E = env_int(name, 3)\n"  # not a declaration: its name is not written
    )
    found = {name: declared.default for name, declared in declarations(tmp_path).items()}
    assert found == {
        "SOME_SECONDS": "60 * 5",
        "SOME_KEY": "required",
        "SOME_DIR": "unset",
        "SOME_ID": "unset",
        "SOME_SECRET": "unset",
    }


def test_the_readme_stays_short() -> None:
    lines = (PROJECT_ROOT / "README.md").read_text().count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move detail into docs/"
