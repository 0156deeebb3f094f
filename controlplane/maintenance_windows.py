"""A cluster's maintenance windows and freezes: parse, check, and say whether a change may start at a given time.

Pure: no Django, no I/O, no clock of its own; every function takes the time it judges (the caller's clock).

``ManagedCluster.maintenance_windows`` holds::

    {"windows": [{"cron": "0 22 * * 1-5", "duration": "4h", "timezone": "Europe/Berlin"}],
     "freezes": [{"cron": "0 0 20 12 *", "duration": "15d", "timezone": "Europe/Berlin"},
                 {"start": "2026-12-20T00:00:00+01:00", "end": "2027-01-04T00:00:00+01:00"}],
     "hold_installs_and_deletes": false}

A change may start at ``t`` when ``t`` is inside an allowed window (or the cluster has none) and inside no freeze.
A recurring entry opens at each time its five-field cron expression names on the wall clock of its IANA time zone
(cronsim, which follows Debian cron across DST changes: a time skipped by the spring jump fires right after it, and
a fixed time that occurs twice in the autumn fires once, at its first occurrence) and stays open for ``duration`` of
elapsed time (``1h30m``, ``2d``), whatever the clocks do meanwhile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from cronsim import CronSim, CronSimError

__all__ = [
    "HORIZON",
    "MAX_DURATION",
    "MAX_FIXED_FREEZE",
    "Clock",
    "FixedSpan",
    "Recurring",
    "Schedule",
    "Verdict",
    "WindowError",
    "WindowReason",
    "allowed_at",
    "next_allowed",
    "parse_duration",
    "parse_schedule",
    "verdict",
]

Clock = Callable[[], datetime]

MAX_DURATION = timedelta(days=31)
MAX_FIXED_FREEZE = timedelta(days=366)
# How far ahead the next allowed start is looked for; beyond it, "none".
HORIZON = timedelta(days=366)
MAX_STEPS = 10_000
CRON_FIELDS = 5
KEYS = frozenset({"windows", "freezes", "hold_installs_and_deletes"})
DURATION = re.compile(r"^(?:(?P<d>\d{1,6})d)?(?:(?P<h>\d{1,6})h)?(?:(?P<m>\d{1,6})m)?$")
ONE_SECOND = timedelta(seconds=1)


class WindowReason(StrEnum):
    """The reasons of a gateway's or a rollout's ``MaintenanceWindow`` condition (False: a change waits)."""

    OUTSIDE_WINDOW = "OutsideWindow"  # a change waits for the next window (or for a freeze to end)
    WINDOW_OPEN = "WindowOpen"  # changes may start now
    NOTHING_HELD = "NothingHeld"  # outside a window, but no change waits


class WindowError(ValueError):
    """An entry that cannot be used; ``path`` names it (``windows[1].timezone``)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


@dataclass(frozen=True)
class Recurring:
    """Opens at each time ``cron`` names in ``timezone`` and stays open for ``duration`` (elapsed)."""

    cron: str
    duration: timedelta
    timezone: ZoneInfo

    def last_start(self, t: datetime) -> datetime:
        """The latest start at or before ``t`` (starts fall on whole minutes, so one second past ``t``, truncated,
        bounds them; cronsim's reverse iteration is strictly before its start)."""
        # (In UTC: arithmetic on a zoned time forgets which of a repeated hour's two occurrences it was.)
        bound = (t.astimezone(UTC).replace(microsecond=0) + ONE_SECOND).astimezone(self.timezone)
        return next(CronSim(self.cron, bound, reverse=True))

    def open_until(self, t: datetime) -> datetime | None:
        """When the occurrence open at ``t`` ends (None: closed at ``t``)."""
        try:
            end = _elapsed(self.last_start(t), self.duration)
        except StopIteration:
            return None
        return end if end > t else None

    def starts_after(self, t: datetime) -> Iterator[datetime]:
        return CronSim(self.cron, t.astimezone(self.timezone))


@dataclass(frozen=True)
class FixedSpan:
    """A freeze from ``start`` until ``end`` (times with offsets)."""

    start: datetime
    end: datetime

    def open_until(self, t: datetime) -> datetime | None:
        return self.end if self.start <= t < self.end else None


@dataclass(frozen=True)
class Schedule:
    windows: tuple[Recurring, ...] = ()
    freezes: tuple[Recurring | FixedSpan, ...] = ()
    hold_installs_and_deletes: bool = False

    @property
    def empty(self) -> bool:
        """No window and no freeze: changes may start at any time."""
        return not self.windows and not self.freezes


@dataclass(frozen=True)
class Verdict:
    """Whether a change may start now and, when not, when it may next (None: not within ``HORIZON``)."""

    open: bool
    next_start: datetime | None = None
    overridden_until: datetime | None = None
    message: str = field(default="")


def _elapsed(start: datetime, duration: timedelta) -> datetime:
    """``start`` plus ``duration`` of elapsed time (aware arithmetic in a zone is wall-clock arithmetic)."""
    return start.astimezone(UTC) + duration


def parse_duration(text: Any, path: str) -> timedelta:
    """``90m``, ``4h``, ``1h30m``, ``2d``: more than zero, at most ``MAX_DURATION``."""
    match = DURATION.match(text) if isinstance(text, str) and text else None
    if match is None:
        raise WindowError(path, f"{text!r} is not a duration such as '4h', '1h30m' or '2d'")
    duration = timedelta(days=int(match["d"] or 0), hours=int(match["h"] or 0), minutes=int(match["m"] or 0))
    if duration <= timedelta(0):
        raise WindowError(path, "must be longer than zero")
    if duration > MAX_DURATION:
        raise WindowError(path, f"must be at most {MAX_DURATION.days} days")
    return duration


@cache
def _iana_zones() -> frozenset[str]:
    """The zones of the IANA database (a system's ``localtime`` link and ``posixrules`` are files, not zones)."""
    return frozenset(available_timezones()) - {"localtime", "posixrules"}


def _zone(name: Any, path: str) -> ZoneInfo:
    """An IANA zone by name; not a file of the zone directory that names no zone (``localtime``, a folder)."""
    if not isinstance(name, str) or name not in _iana_zones():
        raise WindowError(path, f"{name!r} is not an IANA time zone")
    return ZoneInfo(name)


def _cron(expr: Any, path: str) -> str:
    if not isinstance(expr, str) or len(expr.split()) != CRON_FIELDS:
        raise WindowError(path, f"{expr!r} is not a cron expression of five fields (minute hour day month weekday)")
    try:
        CronSim(expr, datetime(2000, 1, 1, tzinfo=UTC))
    except CronSimError as exc:
        raise WindowError(path, f"{expr!r} is not a cron expression: {exc}") from exc
    return expr


def _keys(entry: Any, allowed: frozenset[str], path: str) -> Mapping[str, Any]:
    if not isinstance(entry, dict):
        raise WindowError(path, "must be an object")
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise WindowError(path, f"unknown key(s) {', '.join(unknown)}; expected {', '.join(sorted(allowed))}")
    return entry


def _recurring(entry: Any, path: str) -> Recurring:
    entry = _keys(entry, frozenset({"cron", "duration", "timezone"}), path)
    for key in ("cron", "duration", "timezone"):
        if key not in entry:
            raise WindowError(f"{path}.{key}", "is required")
    return Recurring(
        cron=_cron(entry["cron"], f"{path}.cron"),
        duration=parse_duration(entry["duration"], f"{path}.duration"),
        timezone=_zone(entry["timezone"], f"{path}.timezone"),
    )


def _instant(text: Any, path: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise WindowError(path, f"{text!r} is not an ISO 8601 time with an offset (2026-12-20T00:00:00+01:00)")
    return moment


def _freeze(entry: Any, path: str) -> Recurring | FixedSpan:
    if isinstance(entry, dict) and ("start" in entry or "end" in entry):
        entry = _keys(entry, frozenset({"start", "end"}), path)
        start, end = _instant(entry.get("start"), f"{path}.start"), _instant(entry.get("end"), f"{path}.end")
        if end <= start:
            raise WindowError(f"{path}.end", "must be after start")
        if end - start > MAX_FIXED_FREEZE:
            raise WindowError(f"{path}.end", f"must be at most {MAX_FIXED_FREEZE.days} days after start")
        return FixedSpan(start, end)
    return _recurring(entry, path)


def _entries(data: Mapping[str, Any], key: str) -> list[Any]:
    entries = data.get(key) or []
    if not isinstance(entries, list):
        raise WindowError(key, "must be a list")
    return entries


def parse_schedule(data: Any) -> Schedule:
    """The schedule ``data`` describes (None or ``{}``: no windows); ``WindowError`` names the first bad entry."""
    if not data:
        return Schedule()
    data = _keys(data, KEYS, "maintenance_windows")
    hold = data.get("hold_installs_and_deletes", False)
    if not isinstance(hold, bool):
        raise WindowError("hold_installs_and_deletes", "must be true or false")
    return Schedule(
        windows=tuple(_recurring(entry, f"windows[{i}]") for i, entry in enumerate(_entries(data, "windows"))),
        freezes=tuple(_freeze(entry, f"freezes[{i}]") for i, entry in enumerate(_entries(data, "freezes"))),
        hold_installs_and_deletes=hold,
    )


def _frozen_until(schedule: Schedule, t: datetime) -> datetime | None:
    """The latest end of the freezes that hold at ``t`` (None: none does)."""
    ends = [end for end in (freeze.open_until(t) for freeze in schedule.freezes) if end is not None]
    return max(ends, default=None)


def _in_window(schedule: Schedule, t: datetime) -> bool:
    return not schedule.windows or any(window.open_until(t) is not None for window in schedule.windows)


def allowed_at(schedule: Schedule, t: datetime) -> bool:
    """Whether a change may start at ``t``: inside a window (or there are none) and inside no freeze."""
    return _frozen_until(schedule, t) is None and _in_window(schedule, t)


def _next_window_start(schedule: Schedule, t: datetime) -> datetime:
    return min(next(window.starts_after(t)) for window in schedule.windows)


def next_allowed(schedule: Schedule, t: datetime) -> datetime | None:
    """The first time at or after ``t`` at which a change may start (``t`` itself when allowed now); None when
    there is none within ``HORIZON``."""
    limit, moment = t + HORIZON, t
    for _ in range(MAX_STEPS):
        if moment > limit:
            return None
        frozen_until = _frozen_until(schedule, moment)
        if frozen_until is not None:
            moment = frozen_until  # a window may have opened during the freeze and still be open at its end
        elif _in_window(schedule, moment):
            return moment
        else:
            moment = _next_window_start(schedule, moment)
    return None


def verdict(schedule: Schedule, now: datetime, override_until: datetime | None = None) -> Verdict:
    """May a change start at ``now``? A platform admin's override (until ``override_until``) opens the cluster
    whatever its windows and freezes say."""
    if override_until is not None and now < override_until:
        return Verdict(
            True,
            now,
            override_until,
            f"A platform admin's override allows changes until {override_until.astimezone(UTC).isoformat()}",
        )
    if schedule.empty:
        return Verdict(True, now, message="The cluster has no maintenance windows: changes may start at any time")
    start = next_allowed(schedule, now)
    if start == now:
        return Verdict(True, now, message="Inside a maintenance window")
    if start is None:
        return Verdict(False, None, message=f"No maintenance window opens within {HORIZON.days} days")
    return Verdict(False, start, message=f"Waiting for the next maintenance window, at {start.isoformat()}")
