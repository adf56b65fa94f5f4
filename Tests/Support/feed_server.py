#!/usr/bin/env python3
"""A loopback static file server for the end-to-end tests (FeedTests, REPLTests): serves the
directory named by the first argument on a random port and answers If-Modified-Since with 304
(http.server's own rule, from the file's mtime). A path under /slow/ is held for 60 s, after the
file .slow-request is written in the directory, so interrupt tests know the request is in
flight. A path under /hold/ is answered after 300 ms, and the most /hold/ requests held at once
so far is written to the file .hold-peak. The port and the lifeline are loopback.py's."""
import functools
import os
import http.server
import sys
import threading
import time

from loopback import serve

lock = threading.Lock()
holding = {"now": 0, "peak": 0}


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/slow/"):
            # Tell the test the request is in flight (it waits for this file), then hold it.
            with open(os.path.join(self.directory, ".slow-request"), "w") as marker:
                marker.write(self.path)
            time.sleep(60)
        if self.path.startswith("/hold/"):
            with lock:
                holding["now"] += 1
                holding["peak"] = max(holding["peak"], holding["now"])
                with open(os.path.join(self.directory, ".hold-peak"), "w") as peak:
                    peak.write(str(holding["peak"]))
            time.sleep(0.3)
            with lock:
                holding["now"] -= 1
        return super().do_GET()


if __name__ == "__main__":
    serve(functools.partial(Handler, directory=sys.argv[1]))
