"""The words Kubernetes and Helm use in what they return, as StrEnums: one definition for every layer.

It imports nothing of the project and no Django, so the drivers, the apps and the controlplane can all take
these words from here (below every other package in the layers contract)."""
