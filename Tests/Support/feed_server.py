#!/usr/bin/env python3
"""A loopback static file server for the end-to-end tests (FeedTests, REPLTests): serves the
directory named by the first argument on a random port, answers If-Modified-Since with 304
(http.server's own rule, from the file's mtime), holds any path under /slow/ for 60 s before
answering (for interrupt tests), writes its port to the file named by the second argument, and
stops when its stdin closes (the test's lifeline)."""
import functools
import http.server
import sys
import time

from loopback import serve


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/slow/"):
            time.sleep(60)
        return super().do_GET()


if __name__ == "__main__":
    serve(functools.partial(Handler, directory=sys.argv[1]))
