"""Shell completion: the script ``cpctl completion SHELL`` prints, and completion of commands and context names."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cpctl.config import Config, Context, save
from cpctl.main import cli


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_shell_script(shell: str) -> None:
    result = CliRunner().invoke(cli, ["completion", shell])
    assert result.exit_code == 0 and "_CPCTL_COMPLETE" in result.stdout and shell in result.stdout


def complete(words: str, cword: int, tmp_path: Path) -> list[str]:
    env = {
        "_CPCTL_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(cword),
        "CPCTL_CONFIG": str(tmp_path / "config.yaml"),
    }
    result = CliRunner().invoke(cli, [], env=env, prog_name="cpctl")
    return [line.split(",", 1)[1] for line in result.stdout.splitlines()]


def test_commands_and_context_names_complete(tmp_path: Path) -> None:
    save(
        Config(
            current="alpha",
            contexts={name: Context(name, f"http://{name}", "t") for name in ("alpha", "beta", "bravo")},
        ),
        tmp_path / "config.yaml",
    )
    assert complete("cpctl gateways re", 2, tmp_path) == ["resync", "retry"]
    assert complete("cpctl context use b", 3, tmp_path) == ["beta", "bravo"]
    assert complete("cpctl --context a", 2, tmp_path) == ["alpha"]
