"""The dry-run plan of a gateway: render the chart for its cluster, compare with the deployed release, decide what
the reconciler would do, and redact secrets out of what is shown. Nothing is written to the cluster."""
