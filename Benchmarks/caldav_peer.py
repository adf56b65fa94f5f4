"""The peer of the chore-sync benchmark: python-caldav doing what `task sync` does, in-process.

Usage: caldav_peer.py BASE_URL USER PASSWORD COLLECTION_PATH COUNT RUNS

Creates COUNT VTODOs (SUMMARY, DUE, RRULE, as Tidings writes them) in the collection, one PUT
each, and times that (the first sync of COUNT chores); then takes the collection's sync token
and times RUNS sync-collection REPORTs with nothing changed (the incremental sync). Prints
"FIRST_SECONDS INCREMENTAL_MEDIAN_SECONDS". Interpreter start-up is not counted.
"""
import statistics
import sys
import time
import uuid

import caldav

base, user, password, path, count, runs = sys.argv[1:7]
count, runs = int(count), int(runs)
client = caldav.DAVClient(url=base, username=user, password=password)
calendar = client.calendar(url=base.rstrip("/") + path)

started = time.perf_counter()
for number in range(1, count + 1):
    calendar.add_todo(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VTODO\r\n"
        f"UID:{uuid.uuid4()}\r\nDTSTAMP:20261123T120000Z\r\nSUMMARY:Chore {number}\r\n"
        f"DUE;VALUE=DATE:202612{number % 28 + 1:02d}\r\nRRULE:FREQ=WEEKLY;INTERVAL={number % 3 + 1}\r\n"
        "END:VTODO\r\nEND:VCALENDAR\r\n")
first = time.perf_counter() - started

token = calendar.get_objects_by_sync_token(load_objects=False).sync_token
times = []
for _ in range(runs):
    started = time.perf_counter()
    result = calendar.get_objects_by_sync_token(sync_token=token, load_objects=False)
    times.append(time.perf_counter() - started)
    assert len(list(result)) == 0, "something changed"
    token = result.sync_token
print(f"{first:.4f} {statistics.median(times):.4f}")
