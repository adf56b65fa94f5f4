"""The reference CalDAV client (python-caldav, with the icalendar library) for side-by-side
checks: what it reads of the chores Tidings wrote, and chores it writes for Tidings to read.

Usage: caldav_client.py BASE_URL USER PASSWORD COLLECTION_PATH list
       caldav_client.py BASE_URL USER PASSWORD COLLECTION_PATH add UID SUMMARY DUE_DATE RRULE
       caldav_client.py BASE_URL USER PASSWORD COLLECTION_PATH complete UID
       caldav_client.py BASE_URL USER PASSWORD COLLECTION_PATH add-timed UID SUMMARY DUE TZID PRIORITY TRIGGER

`list` prints one JSON array of the VTODOs as icalendar parses them (summary, description,
due and dtstart as ISO dates, rrule as text, status, completed); `add` writes a VTODO built with
icalendar (RRULE may be empty); `complete` marks one completed, as a one-off client would;
`add-timed` writes one due at a local time (DUE `YYYY-MM-DDTHH:MM` in zone TZID), with a
PRIORITY and one display alarm whose TRIGGER is a duration relative to the due time. `list`
also prints each VTODO's due time (`HH:MM`) and TZID, priority, its alarms' triggers and the
UID its RELATED-TO names.
Run it with the Python that `make deps` installs under .build/tools/caldav.
"""
import datetime
import json
import sys

import caldav
import icalendar

base, user, password, path, command = sys.argv[1:6]
client = caldav.DAVClient(url=base, username=user, password=password)
calendar = client.calendar(url=base.rstrip("/") + path)


def new_todo(uid, summary):
    """A calendar and its VTODO with UID, DTSTAMP and SUMMARY; the caller adds it to the calendar."""
    ical = icalendar.Calendar()
    ical.add("prodid", "-//python-caldav reference//EN")
    ical.add("version", "2.0")
    todo = icalendar.Todo()
    todo.add("uid", uid)
    todo.add("dtstamp", datetime.datetime(2026, 11, 23, 12, tzinfo=datetime.timezone.utc))
    todo.add("summary", summary)
    return ical, todo


if command == "list":
    todos = []
    for todo in calendar.todos(include_completed=True):
        component = icalendar.Calendar.from_ical(todo.data).walk("VTODO")[0]
        due = component.get("DUE")
        start = component.get("DTSTART")
        rrule = component.get("RRULE")
        completed = component.get("COMPLETED")
        todos.append({
            "uid": str(component.get("UID")),
            "summary": str(component.get("SUMMARY")),
            "description": str(component.get("DESCRIPTION")) if component.get("DESCRIPTION") else None,
            "due": due.dt.isoformat()[:10] if due else None,
            "dtstart": start.dt.isoformat()[:10] if start else None,
            "rrule": rrule.to_ical().decode() if rrule else None,
            "status": str(component.get("STATUS")) if component.get("STATUS") else None,
            "completed": completed.dt.astimezone(datetime.timezone.utc).isoformat() if completed else None,
            "due_time": due.dt.strftime("%H:%M") if due and isinstance(due.dt, datetime.datetime) else None,
            "tzid": str(due.dt.tzinfo) if due and isinstance(due.dt, datetime.datetime) and due.dt.tzinfo else None,
            "priority": int(component.get("PRIORITY")) if component.get("PRIORITY") is not None else None,
            "alarms": [alarm.get("TRIGGER").to_ical().decode() for alarm in component.walk("VALARM")],
            "related_to": str(component.get("RELATED-TO")) if component.get("RELATED-TO") else None,
            "x_list": str(component.get("X-TIDINGS-LIST")) if component.get("X-TIDINGS-LIST") else None,
        })
    print(json.dumps(sorted(todos, key=lambda todo: todo["summary"])))
elif command == "add":
    uid, summary, due, rrule = sys.argv[6:10]
    ical, todo = new_todo(uid, summary)
    todo.add("due", datetime.date.fromisoformat(due))
    if rrule:
        todo.add("rrule", icalendar.vRecur.from_ical(rrule))
    ical.add_component(todo)
    calendar.save_todo(ical.to_ical().decode())
elif command == "add-timed":
    import zoneinfo
    uid, summary, due, tzid, priority, trigger = sys.argv[6:12]
    ical, todo = new_todo(uid, summary)
    todo.add("due", datetime.datetime.fromisoformat(due).replace(tzinfo=zoneinfo.ZoneInfo(tzid)))
    todo.add("priority", int(priority))
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", summary)
    alarm.add("trigger", icalendar.vDuration.from_ical(trigger), parameters={"RELATED": "END"})
    todo.add_component(alarm)
    ical.add_component(todo)
    ical.add_missing_timezones()
    calendar.save_todo(ical.to_ical().decode())
elif command == "complete":
    todo = calendar.todo_by_uid(sys.argv[6])
    todo.complete(completion_timestamp=datetime.datetime(2026, 11, 23, 12, tzinfo=datetime.timezone.utc))
