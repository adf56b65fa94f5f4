#!/usr/bin/env python3
"""A loopback config server for ConfigTests: started by a test on a random port, stopped when
the test closes its stdin. Writes its port to the file named by its first argument.

GET /config.json serves the current document with an ETag and Last-Modified, and answers 304
to a matching If-None-Match. PUT /config.json replaces the document (a new ETag)."""
import hashlib
import http.server
import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Support"))
import loopback  # noqa: E402
from loopback import serve  # noqa: E402

lock = threading.Lock()
state = {"body": b'{"minVersion":"1.0.0"}', "version": 1}


def etag():
    return '"' + hashlib.sha256(state["body"]).hexdigest()[:16] + '"'


def last_modified():
    # A fixed date per version, so the header changes with the document.
    return "Sat, %02d Mar 2021 09:00:00 GMT" % state["version"]


class Handler(loopback.Handler):

    def do_GET(self):
        if self.path != "/config.json":
            return self.send(404, b"not found")
        with lock:
            body, tag, modified = state["body"], etag(), last_modified()
        headers = {"ETag": tag, "Last-Modified": modified}
        if self.headers.get("If-None-Match") == tag:
            return self.send(304, headers=headers)
        headers["Content-Type"] = "application/json"
        return self.send(200, body, headers)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        with lock:
            state["body"] = body
            state["version"] += 1
        return self.send(204)


serve(Handler)
