#!/usr/bin/env python3
"""A loopback static file server for the end-to-end tests (FeedTests, REPLTests): serves the
directory named by the first argument on a random port and answers If-Modified-Since with 304
(http.server's own rule, from the file's mtime). A path under /slow/ is held for 60 s, after the
file .slow-request is written in the directory, so interrupt tests know the request is in
flight. The port and the lifeline are loopback.py's."""
import functools
import os
import http.server
import sys
import time

from loopback import serve


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/slow/"):
            # Tell the test the request is in flight (it waits for this file), then hold it.
            with open(os.path.join(self.directory, ".slow-request"), "w") as marker:
                marker.write(self.path)
            time.sleep(60)
        return super().do_GET()


if __name__ == "__main__":
    serve(functools.partial(Handler, directory=sys.argv[1]))
