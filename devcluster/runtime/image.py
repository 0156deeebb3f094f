"""The control plane image as the process runtime sees it: the checkout's Dockerfile, read for what a container
runtime takes from an image's config (ENV, WORKDIR, ENTRYPOINT, CMD, USER); the checkout is the image's files."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field

__all__ = ["BASE_PATH", "ImageConfig", "parse_dockerfile", "repository_of"]

# PATH of the python:*-slim base image the Dockerfile builds on (its ENV PATH extends it).
BASE_PATH = "/usr/local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
_USERADD = re.compile(r"useradd\b[^&;]*?--uid (\d+)[^&;]*?--home-dir (\S+)")


@dataclass(frozen=True)
class ImageConfig:
    """What an image's config gives a container: its environment, working directory, entrypoint and command,
    its user, and the home directories of the users it adds (HOME, as a container runtime reads /etc/passwd)."""

    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    entrypoint: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    user: str = ""
    homes: dict[int, str] = field(default_factory=dict)


def repository_of(image: str) -> str:
    """`ghcr.io/x/cp:1.0@sha256:...` -> `ghcr.io/x/cp` (the tag and digest dropped)."""
    name = image.split("@", 1)[0]
    slash = name.rfind("/")
    colon = name.rfind(":")
    return name[:colon] if colon > slash else name


def _instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    logical, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        logical.append(current + line)
        current = ""
    if current:
        logical.append(current)
    pairs = []
    for line in logical:
        instruction, _, arguments = line.partition(" ")
        pairs.append((instruction.upper(), arguments.strip()))
    return pairs


def _expand(value: str, env: dict[str, str]) -> str:
    return _VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), ""), value)


def _command(arguments: str) -> list[str]:
    """The exec form (a JSON array) as is; the shell form runs under /bin/sh -c, as docker does."""
    if arguments.startswith("["):
        return [str(part) for part in json.loads(arguments)]
    return ["/bin/sh", "-c", arguments]


def parse_dockerfile(text: str) -> ImageConfig:
    """The config of the Dockerfile's final stage (the base image contributes its PATH only)."""
    env: dict[str, str] = {"PATH": BASE_PATH}
    workdir, entrypoint, cmd, user = "/", [], [], ""
    homes: dict[int, str] = {}
    for instruction, arguments in _instructions(text):
        if instruction == "FROM":
            env, workdir, entrypoint, cmd, user = {"PATH": BASE_PATH}, "/", [], [], ""
        elif instruction == "ENV":
            words = shlex.split(arguments)
            if words and "=" not in words[0]:  # the legacy `ENV KEY value` form
                words = [f"{words[0]}={' '.join(words[1:])}"]
            for word in words:
                key, _, value = word.partition("=")
                env[key] = _expand(value, env)
        elif instruction == "WORKDIR":
            workdir = _expand(arguments, env)
        elif instruction == "ENTRYPOINT":
            entrypoint, cmd = _command(arguments), []
        elif instruction == "CMD":
            cmd = _command(arguments)
        elif instruction == "USER":
            user = arguments
        elif instruction == "RUN":
            homes.update({int(uid): home for uid, home in _USERADD.findall(arguments)})
    return ImageConfig(env=env, workdir=workdir, entrypoint=entrypoint, cmd=cmd, user=user, homes=homes)
