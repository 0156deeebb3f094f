"""The gateway reconciler, by concern.

- ``request`` and ``pass_io``: what a pass is given (the ``GatewayRequest``) and the driver handles it talks through;
- ``outcome``: what a pass (or one of its actions) reports, the ``GatewayOutcome`` it saves once;
- ``observation``: what the cluster holds for a gateway, and how it is classified (read-only);
- ``backend_tls``: the BackendTLSPolicy and CA ConfigMap that carry the route's TLS to the gateway pod;
- ``prerequisites``: the namespace and the objects the chart needs but cannot create;
- ``actions``: the Helm actions, one per module;
- ``passes``: one pass (observe, decide, act, repeat; ``summary`` derives Ready) and the fleet resync, from the
  database rows to the saved outcome;
- ``plan``: the dry-run plan, which renders and compares without writing to the cluster.
"""
