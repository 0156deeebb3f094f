"""The context file: where it is, reading and writing it, and which context a command uses."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from cpctl.config import Config, Context, config_path, load, resolve, save
from cpctl.exits import NOT_FOUND, USAGE, CliError

LOCAL = Context("local", "http://127.0.0.1:8000", "local-token")
PROD = Context("prod", "https://cp.example.com", "prod-token")


def test_path_from_cpctl_config_then_xdg_then_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert config_path({"CPCTL_CONFIG": "/x/c.yaml", "XDG_CONFIG_HOME": "/xdg"}) == Path("/x/c.yaml")
    assert config_path({"XDG_CONFIG_HOME": "/xdg"}) == Path("/xdg/cpctl/config.yaml")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert config_path({}) == tmp_path / ".config" / "cpctl" / "config.yaml"


def test_save_and_load_round_trip_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "config.yaml"
    save(Config(current="prod", contexts={"local": LOCAL, "prod": PROD}), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded = load(path)
    assert loaded.current == "prod" and loaded.contexts == {"local": LOCAL, "prod": PROD}
    assert not list(path.parent.glob("*.tmp"))


def test_an_absent_file_is_empty_and_a_dangling_current_is_none(tmp_path: Path) -> None:
    assert load(tmp_path / "none.yaml") == Config()
    path = tmp_path / "config.yaml"
    path.write_text("current-context: gone\ncontexts:\n- {name: local, url: http://h, token: t}\n")
    assert load(path).current is None


@pytest.mark.parametrize("text", ["contexts: [{name: x}]\n", "contexts: 3\n", "[: bad yaml\n"])
def test_a_broken_file_is_a_usage_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(CliError) as raised:
        load(path)
    assert raised.value.exit_code == USAGE and str(path) in raised.value.message


def test_resolve_uses_the_current_context_with_env_overrides() -> None:
    config = Config(current="local", contexts={"local": LOCAL, "prod": PROD})
    assert resolve(config, None, {}) == LOCAL
    assert resolve(config, None, {"CPCTL_TOKEN": "other"}) == Context("local", LOCAL.url, "other")
    assert resolve(config, None, {"CPCTL_URL": "http://elsewhere"}).url == "http://elsewhere"


def test_an_explicit_context_wins_over_env() -> None:
    config = Config(current="local", contexts={"local": LOCAL, "prod": PROD})
    assert resolve(config, "prod", {"CPCTL_URL": "http://elsewhere", "CPCTL_TOKEN": "t"}) == PROD


def test_env_alone_is_enough_and_nothing_is_a_usage_error() -> None:
    assert resolve(Config(), None, {"CPCTL_URL": "http://h", "CPCTL_TOKEN": "t"}) == Context("env", "http://h", "t")
    with pytest.raises(CliError) as raised:
        resolve(Config(), None, {"CPCTL_URL": "http://h"})
    assert raised.value.exit_code == USAGE


def test_an_unknown_context_is_not_found() -> None:
    with pytest.raises(CliError) as raised:
        resolve(Config(contexts={"local": LOCAL}), "prod", {})
    assert raised.value.exit_code == NOT_FOUND and "prod" in raised.value.message
