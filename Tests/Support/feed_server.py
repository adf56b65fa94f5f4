#!/usr/bin/env python3
"""A loopback static file server for the end-to-end tests (FeedTests, REPLTests): serves the
directory named by the first argument on a random port, answers If-Modified-Since with 304
(http.server's own rule, from the file's mtime), holds any path under /slow/ for 60 s before
answering (for interrupt tests), writes its port to the file named by the second argument, and
stops when its stdin closes (the test's lifeline)."""
import functools
import http.server
import sys
import threading
import time


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.startswith("/slow/"):
            time.sleep(60)
        return super().do_GET()


def main():
    directory, port_file = sys.argv[1], sys.argv[2]
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=directory))
    with open(port_file, "w") as f:
        f.write(f"{server.server_address[1]}\n")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # returns when the test closes the pipe
    server.shutdown()


if __name__ == "__main__":
    main()
