#!/usr/bin/env python3
"""The peer of `account sync` in the benchmark: a small Fever client making the same exchanges
in-process (urllib, one connection per request as Tidings makes them), storing nothing.
  fever_peer.py ENDPOINT USER PASSWORD RUNS
prints "FIRST QUIET": the seconds of a first sync (feeds, groups, every item 50 a page by
since_id, unread and saved ids) and the median seconds of RUNS quiet syncs (feeds, groups, one
empty page after the newest item, unread and saved ids)."""
import hashlib
import json
import statistics
import sys
import time
import urllib.parse
import urllib.request

endpoint, user, password, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
key = hashlib.md5(f"{user}:{password}".encode()).hexdigest()
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def call(query):
    body = urllib.parse.urlencode({"api_key": key}).encode()
    with opener.open(endpoint + "?api&" + query, data=body) as response:
        answer = json.loads(response.read())
    if answer.get("auth") != 1:
        sys.exit("refused")
    return answer


def sync(after):
    call("feeds")
    call("groups")
    newest = after
    while True:
        items = call(f"items&since_id={newest}")["items"]
        ids = [int(item["id"]) for item in items if int(item["id"]) > newest]
        if not ids:
            break
        newest = max(ids)
    call("unread_item_ids")
    call("saved_item_ids")
    return newest


start = time.perf_counter()
newest = sync(0)
first = time.perf_counter() - start
quiet = []
for _ in range(runs):
    start = time.perf_counter()
    sync(newest)
    quiet.append(time.perf_counter() - start)
print(first, statistics.median(quiet))
