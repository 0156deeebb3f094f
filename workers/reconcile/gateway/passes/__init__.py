"""The reconcile pass of one gateway (``loop``, run by ``run``) and the fleet resync of one cluster (``fleet``), with
what they share: the request built from the rows, the phase rules, the maintenance-window gate, and the publish."""
