#!/usr/bin/env python3
"""Compares `tidings parse --json` with feedparser 6 (an established parser) on feedparser's own
public corpus of edge cases, field by field, and prints the agreement.

    python3 Tools/compare-feedparser.py [TIDINGS_BINARY] [CORPUS_DIR]

Without CORPUS_DIR it downloads feedparser's source distribution (which holds the corpus, about
2,240 small documents under tests/) with pip into /tmp/feedparser-corpus. Needs `pip install
feedparser`. Writes every disagreement to /tmp/feedparser-corpus/disagreements.json.

Compared: whether the document is a feed at all, the format, the feed's title and link, the item
count, and each item's title, link, id, published and updated dates, first author, categories
and enclosure URLs. Text is compared as plain text (tags dropped, entities decoded, spaces
collapsed), since Tidings keeps titles as text where feedparser keeps sanitised HTML.
"""
import calendar, collections, glob, html, json, os, re, subprocess, sys, tarfile, time

import feedparser

WORK = "/tmp/feedparser-corpus"
BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/tidings"


def corpus():
    if len(sys.argv) > 2:
        return sys.argv[2]
    os.makedirs(WORK, exist_ok=True)
    version = feedparser.__version__
    root = os.path.join(WORK, f"feedparser-{version}", "tests")
    if not os.path.isdir(root):
        subprocess.run([sys.executable, "-m", "pip", "download", f"feedparser=={version}", "--no-binary", ":all:",
                        "--no-deps", "-q", "-d", WORK], check=True)
        with tarfile.open(os.path.join(WORK, f"feedparser-{version}.tar.gz")) as archive:
            archive.extractall(WORK)
    return root


def text(value):
    if value is None:
        return None
    if "<" in value or "&" in value:
        value = html.unescape(re.sub(r"<[^>]*>", "", value))
    return " ".join(value.split()) or None


def rfc3339(parsed):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", parsed) if parsed else None


FORMATS = {"rss20": "rss2.0", "rss": "rss2.0", "rss091u": "rss0.9x", "rss091n": "rss0.9x", "rss092": "rss0.9x",
           "rss093": "rss0.9x", "rss094": "rss0.9x", "rss090": "rss1.0", "rss10": "rss1.0", "atom10": "atom1.0",
           "atom": "atom1.0", "atom03": "atom0.3", "atom02": "atom0.3", "atom01": "atom0.3"}


def main():
    files = sorted(glob.glob(os.path.join(corpus(), "**", "*.xml"), recursive=True))
    agree, total = collections.Counter(), collections.Counter()
    disagreements = collections.defaultdict(list)

    def compare(field, ours, theirs, path):
        total[field] += 1
        if ours == theirs:
            agree[field] += 1
        else:
            disagreements[field].append({"file": path, "tidings": ours, "feedparser": theirs})

    for path in files:
        reference = feedparser.parse(path)
        run = subprocess.run([BINARY, "parse", "--json", path], capture_output=True, text=True)
        ours = json.loads(run.stdout) if run.returncode == 0 and run.stdout.strip() else None
        compare("is a feed", ours is not None, bool(reference.get("version")), path)
        if ours is None or not reference.get("version"):
            continue
        compare("format", ours["format"], FORMATS.get(reference.version, reference.version), path)
        compare("feed title", text(ours["title"]), text(reference.feed.get("title")), path)
        compare("feed link", ours["link"], reference.feed.get("link"), path)
        compare("item count", len(ours["items"]), len(reference.entries), path)
        for item, entry in zip(ours["items"], reference.entries):
            compare("item title", text(item["title"]), text(entry.get("title")), path)
            compare("item link", item["link"], entry.get("link"), path)
            compare("item id", item["id"], entry.get("id"), path)
            compare("item published", item["published"], rfc3339(entry.get("published_parsed")), path)
            compare("item updated", item["updated"], rfc3339(entry.get("updated_parsed")), path)
            author = item["authors"][0].get("name") if item["authors"] else None
            detail = entry.get("author_detail")
            compare("item author", text(author), text(detail.get("name") if detail else None), path)
            compare("item categories", sorted(item["categories"]),
                    sorted(tag["term"] for tag in entry.get("tags", []) if tag.get("term")), path)
            compare("item enclosures", sorted(e["url"] for e in item["enclosures"]),
                    sorted(e["href"] for e in entry.get("enclosures", []) if e.get("href")), path)

    print(f"{len(files)} documents")
    for field in sorted(total):
        print(f"{field:18s} {agree[field]:5d} / {total[field]:5d}  {100 * agree[field] / total[field]:5.1f}%")
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "disagreements.json"), "w") as out:
        json.dump(disagreements, out, indent=1, default=str)


if __name__ == "__main__":
    main()
