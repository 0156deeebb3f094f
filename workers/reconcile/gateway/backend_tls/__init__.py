"""TLS from the route's proxy to the gateway pod: the BackendTLSPolicy and BackendCA ConfigMap (``objects``), whether
the cluster's copies are in step (``judge``), and writing or removing them in a pass (``reconcile``)."""
