"""The gateway reconciler: observe (state), decide (policy), act (install/upgrade/uninstall/unlock)."""
