"""Kubernetes and Helm drivers: no Django, all configuration passed in."""
