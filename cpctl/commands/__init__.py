"""The command groups of ``cpctl``."""
