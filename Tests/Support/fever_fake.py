#!/usr/bin/env python3
"""A loopback Fever API server for the REPL's fault tests, answering in the way the first
argument names (a real server cannot be made to):
  hostile    valid Fever answers whose feed and item titles, authors and URLs carry terminal
             escapes (CSI, OSC), bidirectional overrides and a javascript: link;
  html       an HTML login page for every request (a wrong endpoint);
  truncated  every answer cut off in the middle of its JSON;
  auth0      `auth: 0` for every request (a wrong password);
  slow       no answer for 30 seconds.
The api_key must be the MD5 of reader@example.com:secret, else auth is 0. Marks are accepted
and counted in the answers of later requests (`unread_item_ids`). The port and the lifeline
are loopback.py's."""
import hashlib
import json
import sys
import time
import urllib.parse

from loopback import Handler, serve

MODE = sys.argv[1]
KEY = hashlib.md5(b"reader@example.com:secret").hexdigest()
ESC = "\x1b"
HOSTILE = f"{ESC}[2J{ESC}]0;pwned\x07Title\u202ereversed{ESC}[31m"
unread = {1, 2}


class Fever(Handler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query, keep_blank_values=True)
        params = {**{k: v[0] for k, v in query.items()}, **{k: v[0] for k, v in form.items()}}
        if MODE == "slow":
            time.sleep(30)
        if MODE == "html":
            return self.send(200, b"<!DOCTYPE html><html><title>Log in</title></html>", {"Content-Type": "text/html"})
        if MODE == "auth0" or params.get("api_key") != KEY:
            return self.send(200, b'{"api_version":3,"auth":0}', {"Content-Type": "application/json"})
        answer = {"api_version": 3, "auth": 1, "last_refreshed_on_time": 1795780399}
        if params.get("mark") == "item" and params.get("as") == "read":
            unread.discard(int(params.get("id", 0)))
        if "feeds" in params:
            answer["feeds"] = [{"id": 7, "title": HOSTILE, "url": "https://hostile.example/feed",
                                "site_url": "javascript:alert(1)", "last_updated_on_time": 1795780000}]
            answer["feeds_groups"] = [{"group_id": 3, "feed_ids": "7"}]
        if "groups" in params:
            answer["groups"] = [{"id": 3, "title": f"Folder{ESC}[5m"}]
            answer["feeds_groups"] = [{"group_id": 3, "feed_ids": "7"}]
        if "items" in params:
            since = int(params.get("since_id") or 0)
            items = [{"id": i, "feed_id": 7, "title": HOSTILE + str(i), "author": f"{ESC}]8;;https://x.example{ESC}\\\\Eve",
                      "html": f"<p>Body {ESC}[31mred</p>", "url": "javascript:alert(1)" if i == 1 else f"https://hostile.example/{i}",
                      "is_read": 0 if i in unread else 1, "is_saved": 0, "created_on_time": 1795780000 + i}
                     for i in (1, 2) if i > since]
            answer["items"] = items
            answer["total_items"] = 2
        if "unread_item_ids" in params:
            answer["unread_item_ids"] = ",".join(str(i) for i in sorted(unread))
        if "saved_item_ids" in params:
            answer["saved_item_ids"] = ""
        body = json.dumps(answer).encode()
        if MODE == "truncated":
            body = body[: len(body) // 2]
        self.send(200, body, {"Content-Type": "application/json"})


if __name__ == "__main__":
    serve(Fever)
