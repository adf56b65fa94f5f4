"""Builds a corpus of 250 RSS feeds x 50 items whose text is prose: the machine's manual pages,
rendered by nroff, cut into items of 1,500-3,000 characters.

The shared corpus (../shared/bench/make-corpus.sh) writes its text from a list of about a thousand
words, so its 12,500 articles hold about a thousand distinct words; text people write holds a
hundred times more, and what a search index costs grows with them. This corpus is for measuring
that cost on text with a real vocabulary (process-bench.sh, section `prose`).

    python3 Benchmarks/prose_corpus.py OUT_DIR BASE_URL

writes OUT_DIR/pNNN.rss, OUT_DIR/urls.txt (BASE_URL/pNNN.rss) and prints the corpus's size and
its distinct words. The same manual pages give the same corpus (files in sorted order, a fixed
seed); stdlib only.
"""

import glob
import gzip
import html
import os
import random
import re
import subprocess
import sys

TEXT_BYTES = 30_000_000


def pages():
    for path in sorted(glob.glob("/usr/share/man/man[1-8]/*.gz")):
        try:
            with gzip.open(path, "rb") as f:
                source = f.read()
        except OSError:
            continue
        rendered = subprocess.run(
            ["nroff", "-man", "-Tutf8"], input=source, capture_output=True,
            env=dict(os.environ, MANWIDTH="100")).stdout
        # Overstrikes (bold, underline) out, as col -b takes them.
        text = re.sub(rb".\x08", b"", rendered).decode("utf-8", "replace")
        yield re.sub(r"[ \t]+", " ", text)


def main():
    out, base = sys.argv[1], sys.argv[2].rstrip("/")
    os.makedirs(out, exist_ok=True)
    parts, size = [], 0
    for text in pages():
        parts.append(text)
        size += len(text)
        if size >= TEXT_BYTES:
            break
    blob = "\n".join(parts)
    if len(blob) < 5_000_000:
        sys.exit("prose_corpus.py: too few manual pages here (is man-db's /usr/share/man installed?)")
    rng = random.Random(11)
    position, urls, used = 0, [], []
    for feed in range(250):
        items = []
        for number in range(50):
            length = rng.randint(1500, 3000)
            body = blob[position:position + length]
            position = (position + length) % (len(blob) - 4000)
            used.append(body)
            title = " ".join(body.split()[:8])
            items.append(
                f"<item><title>{html.escape(title)}</title><guid>p{feed}-{number}</guid>"
                f"<link>http://example.com/{feed}/{number}</link>"
                f"<description>{html.escape(html.escape(body))}</description>"
                f"<pubDate>Mon, 0{1 + number % 9} Nov 2026 10:00:00 GMT</pubDate></item>")
        with open(os.path.join(out, f"p{feed:03}.rss"), "w", encoding="utf-8") as f:
            f.write(
                '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
                f"<title>Prose {feed}</title><link>http://example.com/{feed}</link>"
                "<description>manual pages</description>" + "".join(items) + "</channel></rss>")
        urls.append(f"{base}/p{feed:03}.rss")
    with open(os.path.join(out, "urls.txt"), "w") as f:
        f.write("\n".join(urls) + "\n")
    text = " ".join(used).lower()
    print(f"{sum(map(len, used))} characters, {len(set(text.split()))} distinct words between white space")


if __name__ == "__main__":
    main()
