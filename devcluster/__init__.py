"""devcluster: an in-process Kubernetes API server simulator for development and tests.

Real helm, kubectl and the kubernetes python client talk to it over plain HTTP.
Production code never imports this package.
"""
