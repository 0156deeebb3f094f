"""``manage.py watch_clusters``: the long-lived cluster watcher (run one or more replicas)."""

from __future__ import annotations

import os
import signal
import socket
import threading
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Watch the managed clusters and enqueue a gateway pass whenever a release or workload changes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--identity",
            default=f"{socket.gethostname()}-{os.getpid()}",
            help="this replica's name in the cluster leases (default: host and pid)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from workers.watcher.service import Watcher

        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        watcher = Watcher(options["identity"], timedelta(seconds=settings.WATCHER_LEASE_SECONDS))
        self.stdout.write(f"cluster watcher {watcher.identity} started", ending="\n")
        self.stdout.flush()
        watcher.run(stop)
        self.stdout.write("cluster watcher stopped")
