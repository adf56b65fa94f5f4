"""Starts a real CalDAV server on 127.0.0.1 for one test: Radicale or Xandikos.

Usage: caldav_server.py radicale STORAGE_DIR USERS_FILE PORT_FILE
       caldav_server.py xandikos STORAGE_DIR USER PORT_FILE

For Radicale, STORAGE_DIR holds the collections (the test creates them as Radicale's
filesystem storage lays them out) and USERS_FILE is an htpasswd file with plain-text
passwords. Xandikos serves STORAGE_DIR (collections made with `xandikos create-collection`,
each a git repository) with USER's principal at /USER/; it checks no password (Xandikos leaves
that to a reverse proxy, or to its own https). The server listens on a free port, which is
written to PORT_FILE (with a final newline) once it accepts connections. It stops when this
script's standard input closes: the test's lifeline. Run it with the Python that has both
installed (`make deps` puts one under .build/tools/caldav).
"""
import os
import signal
import socket
import subprocess
import sys
import threading
import time

kind, storage, users, port_file = sys.argv[1:5]

# A test process's threads block signals, and a child inherits the mask: unblock them, so that
# Radicale (started below with this mask) stops when it is told to.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(port):
    if kind == "xandikos":
        return subprocess.Popen(
            [sys.executable, "-m", "xandikos", "serve", "-d", storage,
             "-l", "127.0.0.1", "-p", str(port), "--no-detect-systemd",
             "--state-dir", os.path.join(os.path.dirname(storage), "xandikos-state"),
             "--current-user-principal", "/%s/" % users],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return subprocess.Popen(
        [sys.executable, "-m", "radicale", "--config", "",
         "--server-hosts", "127.0.0.1:%d" % port,
         "--storage-filesystem-folder", storage,
         "--auth-type", "htpasswd", "--auth-htpasswd-filename", users,
         "--auth-htpasswd-encryption", "plain",
         "--rights-type", "owner_only",
         "--logging-level", "warning"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def accepting(server, port, deadline):
    """Whether the server accepts connections before the deadline (False once it has exited)."""
    while time.time() < deadline and server.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


# The free port found is free only until something else takes it: tests running beside this
# one open connections from the same range of ports. A server that could not bind it exits at
# once, and is started again on another port.
server = None
deadline = time.time() + 60
for attempt in range(5):
    port = free_port()
    server = start(port)
    # Accepting, and still running a moment later: not another test's server on the same port
    # while this one, unable to bind it, is on its way out (under load that takes a while).
    if accepting(server, port, deadline) and server.poll() is None:
        time.sleep(0.5)
        if server.poll() is None and accepting(server, port, deadline):
            break
        if server.poll() is None:
            server.terminate()
        continue
    if server.poll() is None:
        server.terminate()
        sys.exit("%s did not start" % kind)
else:
    sys.exit("%s did not start: no port it could bind" % kind)


def stop(*_):
    """Stops the server and this script: at the end of the lifeline, or on SIGTERM."""
    server.terminate()
    try:
        server.wait(timeout=5)
    except subprocess.TimeoutExpired:
        server.kill()
    os._exit(0)


threading.Thread(target=lambda: (sys.stdin.read(), stop()), daemon=True).start()
signal.signal(signal.SIGTERM, stop)

with open(port_file + ".tmp", "w") as out:
    out.write("%d\n" % port)
os.rename(port_file + ".tmp", port_file)
sys.exit(server.wait())
