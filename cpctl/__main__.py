"""``python -m cpctl``."""

from cpctl.main import cli

cli(prog_name="cpctl")
