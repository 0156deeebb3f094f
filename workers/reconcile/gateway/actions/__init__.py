"""The four Helm actions, one per module, one interface: ``run(request, io, view, outcome)``, where ``view`` is what
the pass observed before choosing the action (None for uninstall, which deletion runs without observing). Each runs
once, and notes its condition and event in the pass's ``Outcome``.

Driver errors propagate; the loop turns them into a failed attempt with backoff.
"""
