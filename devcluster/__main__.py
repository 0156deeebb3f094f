"""Command line: `python -m devcluster serve --kubeconfig PATH [...]`, and `play-pki --kubeconfig PATH`, the
separate process that plays certgen hooks and cert-manager against a running devcluster."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from devcluster import pki_player, presets
from devcluster.paging import DEFAULT_CONTINUE_WINDOW_SECONDS
from devcluster.runtime import RuntimeConfig
from devcluster.server import serve
from devcluster.watching import IDLE_BOOKMARK_SECONDS


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="devcluster", description="A Kubernetes API server simulator.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("serve", help="serve the API on 127.0.0.1 until SIGTERM/SIGINT")
    run.add_argument("--kubeconfig", type=Path, required=True, help="where to write the kubeconfig once ready")
    run.add_argument("--port", type=int, default=0, help="port to listen on (0 picks a free one)")
    run.add_argument("--flavour", choices=sorted(presets.flavours()), default="kubernetes")
    run.add_argument("--ready-delay", type=float, default=0.5, help="seconds until workloads report ready")
    run.add_argument("--faults", type=Path, help="YAML/JSON file with fault rules to install at start")
    run.add_argument("--verbose", action="store_true", help="log every request to stderr")
    run.add_argument(
        "--continue-window",
        type=float,
        default=DEFAULT_CONTINUE_WINDOW_SECONDS,
        help="seconds a list's continue tokens stay valid after its first chunk (then 410 Expired)",
    )
    run.add_argument(
        "--bookmark-interval",
        type=float,
        default=IDLE_BOOKMARK_SECONDS,
        help="seconds without events after which a watch with allowWatchBookmarks gets a BOOKMARK",
    )
    run.add_argument(
        "--with",
        dest="extra",
        action="append",
        default=[],
        choices=presets.extras(),
        help="install an optional preset's CRDs too (repeatable)",
    )
    run.add_argument(
        "--state-file",
        type=Path,
        help="load the objects from this file at start (when it exists) and save them to it periodically and at exit",
    )
    run.add_argument("--state-interval", type=float, default=1.0, help="seconds between saves of a changed state")
    run.add_argument(
        "--pod-security-default",
        choices=("privileged", "baseline", "restricted"),
        default="privileged",
        help="the Pod Security level enforced in namespaces without a pod-security.kubernetes.io/enforce label "
        "(privileged, as a real API server without an AdmissionConfiguration)",
    )
    run.add_argument(
        "--process-image-repository",
        help="run pods whose every container's image has this repository (any tag or digest) as processes",
    )
    run.add_argument(
        "--process-root",
        type=Path,
        help="the checkout that stands in for that image (its Dockerfile gives the image's config)",
    )
    run.add_argument(
        "--process-dir",
        type=Path,
        help="where pod volumes, claims and container logs live (default: beside the kubeconfig)",
    )
    play = commands.add_parser("play-pki", help="play certgen hook Jobs and cert-manager until SIGTERM/SIGINT")
    play.add_argument("--kubeconfig", type=Path, required=True, help="the cluster to play against")
    play.add_argument("--interval", type=float, default=0.1, help="seconds between polls")
    return parser.parse_args(argv)


def play_pki(kubeconfig: Path, interval: float) -> None:
    """Run the PKI player in the foreground; SIGTERM/SIGINT stop it after the current pass."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    pki_player.main(kubeconfig, interval, stop)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "play-pki":
        play_pki(args.kubeconfig, args.interval)
        return 0
    runtime = None
    if args.process_image_repository:
        root = (args.process_root or Path.cwd()).resolve()
        state_dir = (args.process_dir or args.kubeconfig.parent / "process-runtime").resolve()
        runtime = RuntimeConfig(args.process_image_repository, root, state_dir)
    serve(
        args.kubeconfig,
        args.port,
        args.flavour,
        args.ready_delay,
        args.faults,
        args.verbose,
        args.extra,
        args.continue_window,
        args.bookmark_interval,
        args.state_file,
        args.state_interval,
        args.pod_security_default,
        runtime,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
