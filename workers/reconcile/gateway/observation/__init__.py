"""What a cluster holds for its gateways, read from the Kubernetes API alone (``view``, ``cluster_reads``), and
judged without I/O: release state, drift, readiness, pod problems and the optional APIs the values need."""
