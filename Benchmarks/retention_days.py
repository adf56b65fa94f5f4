#!/usr/bin/env python3
"""Writes day DAY of a simulated month of feeds for the retention benchmark.

retention_days.py DIR FEEDS PER_DAY DAY DAYS: DIR/feed-N.xml for N in 1..FEEDS, each listing the
newest 50 of the PER_DAY items a day it published on days 1..DAY, dated as if day DAYS were
today (so a retention in days, measured against the real clock, sees them as that old), with a
body of about 2 KB; and DIR/feeds.opml listing them at BASE (the env variable BASE, a URL).
"""
import os
import sys
from datetime import datetime, timedelta, timezone

directory, feeds, per_day, day, days = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
os.makedirs(directory, exist_ok=True)
now = datetime.now(timezone.utc)
body = " ".join(f"word{i % 97}" for i in range(300))
for n in range(1, feeds + 1):
    items = []
    for d in range(day, 0, -1):
        for k in range(per_day - 1, -1, -1):
            when = now - timedelta(days=days - d, hours=k)
            guid = f"f{n}-d{d}-{k}"
            items.append(
                f"<item><title>Feed {n} day {d} story {k}</title><guid>{guid}</guid>"
                f"<link>https://example.com/{guid}</link>"
                f"<pubDate>{when.strftime('%a, %d %b %Y %H:%M:%S GMT')}</pubDate>"
                f"<description>{body} {guid}</description></item>")
            if len(items) == 50:
                break
        if len(items) == 50:
            break
    with open(os.path.join(directory, f"feed-{n}.xml"), "w") as out:
        out.write(f'<?xml version="1.0"?><rss version="2.0"><channel><title>Feed {n}</title>{"".join(items)}</channel></rss>')
base = os.environ.get("BASE", "http://127.0.0.1:8000")
with open(os.path.join(directory, "feeds.opml"), "w") as out:
    out.write('<?xml version="1.0"?><opml version="2.0"><head><title>r</title></head><body>')
    for n in range(1, feeds + 1):
        out.write(f'<outline type="rss" text="Feed {n}" xmlUrl="{base}/feed-{n}.xml"/>')
    out.write("</body></opml>")
