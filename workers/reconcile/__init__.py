"""Reconcilers: observe state, choose one action at a time, record one outcome per step."""
