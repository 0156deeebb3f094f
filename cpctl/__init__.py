"""cpctl: the command-line client of the control plane."""
