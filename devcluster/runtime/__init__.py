"""devcluster's opt-in process runtime: the control plane's own pods run as processes (see runtime.py)."""

from devcluster.runtime.env import SetupError
from devcluster.runtime.runtime import POD_IP, ProcessRuntime, RuntimeConfig

__all__ = ["POD_IP", "ProcessRuntime", "RuntimeConfig", "SetupError"]
