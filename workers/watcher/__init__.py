"""The cluster watcher: one long-lived process (or several, sharing clusters by lease) that turns
changes in the managed clusters into gateway passes, so convergence never waits for the resync."""
