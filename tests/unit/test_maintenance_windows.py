"""Maintenance windows and freezes (pure): parsing, DST transitions both ways, midnight, freezes, overrides."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from controlplane.maintenance_windows import (
    WindowError,
    allowed_at,
    next_allowed,
    parse_duration,
    parse_schedule,
    verdict,
)

BERLIN = ZoneInfo("Europe/Berlin")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def windows(*entries: dict, freezes: tuple[dict, ...] = ()) -> object:
    return parse_schedule({"windows": list(entries), "freezes": list(freezes)})


def berlin(cron: str, duration: str) -> dict:
    return {"cron": cron, "duration": duration, "timezone": "Europe/Berlin"}


# Spring forward: Europe/Berlin 2026-03-29, 02:00 CET (01:00 UTC) becomes 03:00 CEST.
@pytest.mark.parametrize(
    ("at", "allowed"),
    [
        (utc(2026, 3, 29, 0, 59), False),  # 01:59 CET: before the window
        (utc(2026, 3, 29, 1, 0), True),  # 03:00 CEST: 02:30 does not exist that night, so the window opens here
        (utc(2026, 3, 29, 1, 59), True),  # 03:59 CEST: an hour of elapsed time after it opened
        (utc(2026, 3, 29, 2, 0), False),  # 04:00 CEST: closed after one elapsed hour
        (utc(2026, 3, 30, 0, 30), True),  # the next night, 02:30 CEST exists again
        (utc(2026, 3, 30, 0, 29), False),
    ],
)
def test_spring_forward_window_in_the_skipped_hour_opens_after_the_jump(at: datetime, allowed: bool) -> None:
    schedule = windows(berlin("30 2 * * *", "1h"))
    assert allowed_at(schedule, at) is allowed


def test_spring_forward_next_start_is_the_jump() -> None:
    schedule = windows(berlin("30 2 * * *", "1h"))
    start = next_allowed(schedule, utc(2026, 3, 28, 12, 0))
    assert start is not None and start.astimezone(UTC) == utc(2026, 3, 29, 1, 0)


def test_spring_forward_duration_is_elapsed_time() -> None:
    # 01:00 CET + 3 hours of elapsed time ends at 05:00 CEST (03:00 UTC), not at 04:00 on the wall clock.
    schedule = windows(berlin("0 1 * * *", "3h"))
    assert allowed_at(schedule, utc(2026, 3, 29, 2, 59))
    assert not allowed_at(schedule, utc(2026, 3, 29, 3, 0))


# Fall back: Europe/Berlin 2026-10-25, 03:00 CEST (01:00 UTC) becomes 02:00 CET; 02:00-03:00 happens twice.
@pytest.mark.parametrize(
    ("at", "allowed"),
    [
        (utc(2026, 10, 24, 23, 59), False),  # 01:59 CEST
        (utc(2026, 10, 25, 0, 0), True),  # 02:00 CEST: the first 02:00 opens the window
        (utc(2026, 10, 25, 0, 59), True),  # 02:59 CEST
        (utc(2026, 10, 25, 1, 0), False),  # 02:00 CET (the second 02:00): a fixed time fires once, one elapsed hour
        (utc(2026, 10, 25, 1, 30), False),  # 02:30 CET
        (utc(2026, 10, 26, 1, 0), True),  # the next night, 02:00 CET
    ],
)
def test_fall_back_fixed_time_window_opens_once(at: datetime, allowed: bool) -> None:
    schedule = windows(berlin("0 2 * * *", "1h"))
    assert allowed_at(schedule, at) is allowed


def test_fall_back_next_start_after_the_first_occurrence_is_the_next_day() -> None:
    schedule = windows(berlin("0 2 * * *", "1h"))
    start = next_allowed(schedule, utc(2026, 10, 25, 1, 0))  # 02:00 CET, the repeated hour
    assert start is not None and start.astimezone(UTC) == utc(2026, 10, 26, 1, 0)


def test_fall_back_interval_window_opens_in_both_hours() -> None:
    # "*/30 2" names every half hour of 02:xx, so the repeated hour opens it again (as Debian cron runs it).
    schedule = windows(berlin("*/30 2 * * *", "10m"))
    assert allowed_at(schedule, utc(2026, 10, 25, 0, 5))  # 02:05 CEST
    assert allowed_at(schedule, utc(2026, 10, 25, 1, 5))  # 02:05 CET
    assert not allowed_at(schedule, utc(2026, 10, 25, 1, 15))


def test_fall_back_duration_is_elapsed_time() -> None:
    # 01:00 CEST + 3 hours of elapsed time ends at 03:00 CET (02:00 UTC): the repeated hour counts.
    schedule = windows(berlin("0 1 * * *", "3h"))
    assert allowed_at(schedule, utc(2026, 10, 25, 1, 59))
    assert not allowed_at(schedule, utc(2026, 10, 25, 2, 0))


@pytest.mark.parametrize(
    ("at", "allowed"),
    [
        (datetime(2026, 6, 1, 21, 59, tzinfo=BERLIN), False),
        (datetime(2026, 6, 1, 22, 0, tzinfo=BERLIN), True),
        (datetime(2026, 6, 1, 23, 59, tzinfo=BERLIN), True),
        (datetime(2026, 6, 2, 0, 0, tzinfo=BERLIN), True),  # past midnight, still the Monday night window
        (datetime(2026, 6, 2, 1, 59, tzinfo=BERLIN), True),
        (datetime(2026, 6, 2, 2, 0, tzinfo=BERLIN), False),
        (datetime(2026, 6, 2, 22, 30, tzinfo=BERLIN), False),  # Tuesday night: not a Monday
        (datetime(2026, 6, 8, 1, 0, tzinfo=BERLIN), False),  # Sunday night into Monday: the window starts Mondays
    ],
)
def test_window_across_midnight(at: datetime, allowed: bool) -> None:
    schedule = windows(berlin("0 22 * * 1", "4h"))
    assert allowed_at(schedule, at) is allowed


def test_next_start_of_a_window_across_midnight() -> None:
    schedule = windows(berlin("0 22 * * 1", "4h"))
    start = next_allowed(schedule, datetime(2026, 6, 2, 3, 0, tzinfo=BERLIN))
    assert start == datetime(2026, 6, 8, 22, 0, tzinfo=BERLIN)


def test_no_windows_allows_any_time_and_freezes_still_hold() -> None:
    assert allowed_at(parse_schedule({}), utc(2026, 1, 1))
    assert allowed_at(parse_schedule(None), utc(2026, 1, 1))
    frozen = parse_schedule({"freezes": [{"start": "2026-12-20T00:00:00+01:00", "end": "2027-01-04T00:00:00+01:00"}]})
    assert not allowed_at(frozen, utc(2026, 12, 25))
    assert next_allowed(frozen, utc(2026, 12, 25)) == datetime(2027, 1, 4, tzinfo=BERLIN)
    assert allowed_at(frozen, utc(2027, 1, 3, 23, 0))


def test_fixed_freeze_inside_a_window_holds_until_its_end_while_the_window_is_still_open() -> None:
    schedule = windows(
        berlin("0 22 * * *", "4h"),
        freezes=({"start": "2026-06-01T21:00:00+02:00", "end": "2026-06-01T23:30:00+02:00"},),
    )
    assert not allowed_at(schedule, datetime(2026, 6, 1, 22, 0, tzinfo=BERLIN))
    # The window opened during the freeze and is still open when the freeze ends.
    assert next_allowed(schedule, datetime(2026, 6, 1, 22, 0, tzinfo=BERLIN)) == datetime(
        2026, 6, 1, 23, 30, tzinfo=BERLIN
    )


def test_freeze_covering_a_whole_window_moves_to_the_next_one() -> None:
    schedule = windows(
        berlin("0 22 * * *", "2h"),
        freezes=({"start": "2026-06-01T20:00:00+02:00", "end": "2026-06-02T01:00:00+02:00"},),
    )
    assert next_allowed(schedule, datetime(2026, 6, 1, 19, 0, tzinfo=BERLIN)) == datetime(
        2026, 6, 2, 22, 0, tzinfo=BERLIN
    )


def test_recurring_freeze_overlapping_windows() -> None:
    # Daily windows at 22:00 for 4h; a freeze every Friday at 18:00 for 3 days (the weekend).
    schedule = windows(berlin("0 22 * * *", "4h"), freezes=(berlin("0 18 * * 5", "3d"),))
    friday_night = datetime(2026, 6, 5, 22, 30, tzinfo=BERLIN)
    assert not allowed_at(schedule, friday_night)
    # The freeze ends Monday 18:00; the next window opens Monday 22:00.
    assert next_allowed(schedule, friday_night) == datetime(2026, 6, 8, 22, 0, tzinfo=BERLIN)
    assert allowed_at(schedule, datetime(2026, 6, 4, 23, 0, tzinfo=BERLIN))  # Thursday night


def test_freeze_that_never_ends_within_the_horizon_has_no_next_start() -> None:
    schedule = windows(berlin("0 22 * * *", "1h"), freezes=(berlin("0 0 * * *", "31d"),))
    assert next_allowed(schedule, utc(2026, 6, 1)) is None
    held = verdict(schedule, utc(2026, 6, 1))
    assert not held.open and held.next_start is None


def test_verdict_says_when_and_an_override_opens() -> None:
    schedule = windows(berlin("0 22 * * *", "1h"))
    now = datetime(2026, 6, 1, 12, 0, tzinfo=BERLIN)
    held = verdict(schedule, now)
    assert not held.open
    assert held.next_start == datetime(2026, 6, 1, 22, 0, tzinfo=BERLIN)
    assert "2026-06-01T22:00:00+02:00" in held.message
    overridden = verdict(schedule, now, override_until=now + timedelta(hours=1))
    assert overridden.open and overridden.overridden_until == now + timedelta(hours=1)
    assert not verdict(schedule, now, override_until=now).open  # an override that has run out
    assert verdict(schedule, datetime(2026, 6, 1, 22, 10, tzinfo=BERLIN)).open


def test_clock_is_the_callers() -> None:
    schedule = windows(berlin("0 22 * * *", "1h"))
    clock = iter([datetime(2026, 6, 1, 21, 0, tzinfo=BERLIN), datetime(2026, 6, 1, 22, 0, tzinfo=BERLIN)])
    assert [verdict(schedule, next(clock)).open for _ in range(2)] == [False, True]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("90m", timedelta(minutes=90)),
        ("4h", timedelta(hours=4)),
        ("1h30m", timedelta(minutes=90)),
        ("2d", timedelta(days=2)),
        ("31d", timedelta(days=31)),
    ],
)
def test_durations(text: str, expected: timedelta) -> None:
    assert parse_duration(text, "d") == expected


@pytest.mark.parametrize(
    ("data", "path", "words"),
    [
        ({"windows": [berlin("61 2 * * *", "1h")]}, "windows[0].cron", "not a cron expression"),
        ({"windows": [berlin("0 2 * *", "1h")]}, "windows[0].cron", "five fields"),
        ({"windows": [berlin("0 0 30 2 *", "1h")]}, "windows[0].cron", "not a cron expression"),
        (
            {
                "windows": [
                    berlin("0 2 * * *", "1h"),
                    {"cron": "0 2 * * *", "duration": "1h", "timezone": "Europe/Berln"},
                ]
            },
            "windows[1].timezone",
            "not an IANA time zone",
        ),
        (
            {"windows": [{"cron": "0 2 * * *", "duration": "1h", "timezone": "../../etc/passwd"}]},
            "windows[0].timezone",
            "not an IANA time zone",
        ),
        (
            {"windows": [{"cron": "0 2 * * *", "duration": "1h", "timezone": "localtime"}]},
            "windows[0].timezone",
            "not an IANA time zone",
        ),
        (
            {"windows": [{"cron": "0 2 * * *", "duration": "1h", "timezone": "America"}]},
            "windows[0].timezone",
            "not an IANA time zone",
        ),
        ({"windows": [berlin("0 2 * * *", "99999999999999d")]}, "windows[0].duration", "not a duration"),
        ({"windows": [berlin("0 2 * * *", "0m")]}, "windows[0].duration", "longer than zero"),
        ({"windows": [berlin("0 2 * * *", "-1h")]}, "windows[0].duration", "not a duration"),
        ({"windows": [berlin("0 2 * * *", "32d")]}, "windows[0].duration", "at most 31 days"),
        ({"windows": [{"cron": "0 2 * * *", "timezone": "UTC"}]}, "windows[0].duration", "required"),
        (
            {"freezes": [{"start": "2026-12-20T00:00:00+01:00", "end": "2026-12-19T00:00:00+01:00"}]},
            "freezes[0].end",
            "after start",
        ),
        (
            {"freezes": [{"start": "2026-12-20T00:00:00", "end": "2026-12-21T00:00:00+01:00"}]},
            "freezes[0].start",
            "with an offset",
        ),
        ({"freezes": [berlin("0 0 * * 5", "3x")]}, "freezes[0].duration", "not a duration"),
        ({"windows": "0 2 * * *"}, "windows", "must be a list"),
        ({"window": []}, "maintenance_windows", "unknown key"),
        ({"hold_installs_and_deletes": "yes"}, "hold_installs_and_deletes", "true or false"),
    ],
)
def test_bad_entries_are_named(data: dict, path: str, words: str) -> None:
    with pytest.raises(WindowError) as caught:
        parse_schedule(data)
    assert caught.value.path == path
    assert words in str(caught.value)
