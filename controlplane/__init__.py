"""The control-plane project package."""
