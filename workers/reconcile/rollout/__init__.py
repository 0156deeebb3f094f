"""The rollout controller: advance rollouts from the database (see ``rollouts.machine`` for the decisions)."""
