"""Tests of the cpctl CLI and the generated client kept in clients/python."""
