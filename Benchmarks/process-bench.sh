#!/usr/bin/env bash
# Whole-process benchmarks of the release `tidings` binary, side by side with the peers the
# issues name (run in the same session by ../shared/bench):
#   refresh   250 feeds x 50 items (the shared corpus on nginx, 127.0.0.1:18080) as one
#             `tidings -c 'feed refresh'`: cold (every feed new) and warm (every feed answers 304);
#             peer: newsboat -x reload (newsboat-reload.sh)
#   startup   `tidings -c 'feed list'` on a database of 250 feeds and 100,000 articles
#   task-add  `tidings -c 'task add x'`; peer: taskwarrior's `task add` (taskwarrior.sh)
#   search    `tidings -c 'items --search …'` on the 100,000 articles (rare word, substring inside
#             words, two-character Japanese word, emoji, common words); peer: the LIKE scan
#             newsboat runs for its search, through the sqlite3 shell on the same file
# REPS (default 3) repetitions of the refresh, RUNS (default 30) of the short commands; medians.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS="${REPS:-3}"
RUNS="${RUNS:-30}"
PEERS="${PEERS:-$PWD/../shared/bench}"
CORPUS=/tmp/feedcorpus
WORK=/tmp/tidings-process-bench
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)"; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 CLI (apt-get install sqlite3)"; exit 1; }

make -s release >/dev/null
BIN="$(make -s release-bin)"
bash "$PEERS/make-corpus.sh" >/dev/null
bash "$PEERS/serve.sh" start >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }
now_s() { date +%s.%N; }

rm -rf "$WORK"; mkdir -p "$WORK"
{
  echo '<?xml version="1.0"?><opml version="2.0"><head><title>corpus</title></head><body>'
  while read -r url; do echo "<outline type=\"rss\" text=\"$url\" xmlUrl=\"$url\"/>"; done <"$CORPUS/urls.txt"
  echo '</body></opml>'
} >"$WORK/corpus.opml"

echo "# tidings $($BIN --version), $(nproc) cores, $(date -u +%FT%TZ)"
cold=(); warm=(); cold_rss=(); warm_rss=()
for rep in $(seq "$REPS"); do
  home="$WORK/home-$rep"
  "$BIN" --home "$home" -c "feed import $WORK/corpus.opml" >/dev/null
  /usr/bin/time -f "%e %M" -o "$WORK/t" "$BIN" --home "$home" -c "feed refresh" >"$WORK/cold-$rep.out"
  read -r wall rss <"$WORK/t"; cold+=("$wall"); cold_rss+=("$rss")
  /usr/bin/time -f "%e %M" -o "$WORK/t" "$BIN" --home "$home" -c "feed refresh" >"$WORK/warm-$rep.out"
  read -r wall rss <"$WORK/t"; warm+=("$wall"); warm_rss+=("$rss")
  echo "refresh rep $rep: cold ${cold[-1]} s ($(cat "$WORK/cold-$rep.out")); warm ${warm[-1]} s ($(cat "$WORK/warm-$rep.out"))"
done
echo "REFRESH cold median $(printf '%s\n' "${cold[@]}" | median) s, peak RSS $(printf '%s\n' "${cold_rss[@]}" | median) KB"
echo "REFRESH warm median $(printf '%s\n' "${warm[@]}" | median) s, peak RSS $(printf '%s\n' "${warm_rss[@]}" | median) KB"

# 100,000 articles: the 12,500 of the corpus and seven older copies of each.
db="$WORK/home-1/tidings.sqlite"
sqlite3 "$db" <<'SQL'
WITH k(n) AS (VALUES (1), (2), (3), (4), (5), (6), (7))
INSERT INTO article (feedId, uniqueId, title, link, published, sortDate, summary, contentHtml, contentText)
SELECT feedId, uniqueId || '#' || k.n, title, link, published - k.n * 86400, sortDate - k.n * 86400, summary,
       contentHtml, contentText
FROM article, k WHERE instr(uniqueId, '#') = 0;
INSERT OR IGNORE INTO articleStatus (feedId, uniqueId, isRead, isStarred, arrivedAt)
SELECT feedId, uniqueId, 0, 0, sortDate FROM article;
-- One article in 500 holds each rare thing the searches look for (the corpus has none). Only
-- copies not yet indexed are changed: changing an indexed one needs Tidings' search tokenizer.
UPDATE article SET contentText = contentText || ' zeppelin'
WHERE id % 500 = 7 AND id > (SELECT indexedThrough FROM articleSearchState);
UPDATE article SET title = title || ' 今日は天気予報'
WHERE id % 500 = 11 AND id > (SELECT indexedThrough FROM articleSearchState);
UPDATE article SET contentText = contentText || ' 🦀'
WHERE id % 500 = 13 AND id > (SELECT indexedThrough FROM articleSearchState);
SQL
echo "database: $(sqlite3 "$db" 'select count(*) from feed') feeds, $(sqlite3 "$db" 'select count(*) from article') articles"
startup=()
for _ in $(seq "$RUNS"); do
  t0=$(now_s); "$BIN" --home "$WORK/home-1" -c "feed list" >/dev/null; t1=$(now_s)
  startup+=("$(echo "$t1 - $t0" | bc)")
done
echo "STARTUP feed list median $(printf '%s\n' "${startup[@]}" | median) s over $RUNS runs"

adds=()
for _ in $(seq "$RUNS"); do
  t0=$(now_s); "$BIN" --home "$WORK/home-2" -c "task add x" >/dev/null; t1=$(now_s)
  adds+=("$(echo "$t1 - $t0" | bc)")
done
echo "TASK ADD median $(printf '%s\n' "${adds[@]}" | median) s over $RUNS runs"

# Search: the first search indexes the 87,500 copies made above (a refresh indexes what it
# stores; these were written behind its back), then each search as a whole process, beside the
# query newsboat's search runs (LIKE over title and content, newest first).
t0=$(now_s); "$BIN" --home "$WORK/home-1" -c "items --search zeppelin" >/dev/null; t1=$(now_s)
echo "SEARCH catch-up indexing of 87,500 articles $(echo "$t1 - $t0" | bc) s"
for word in zeppelin eppeli 天気 🦀 "parser stream"; do
  ours=(); peer=()
  for _ in $(seq "$RUNS"); do
    t0=$(now_s); "$BIN" --home "$WORK/home-1" -c "items --search '$word'" >/dev/null; t1=$(now_s)
    ours+=("$(echo "$t1 - $t0" | bc)")
    like="%${word%% *}%"
    t0=$(now_s)
    # newsboat loads every match (cache::search_for_items), newest first.
    sqlite3 "$db" "SELECT id, title FROM article WHERE title LIKE '$like' OR contentText LIKE '$like' ORDER BY sortDate DESC" >/dev/null
    t1=$(now_s)
    peer+=("$(echo "$t1 - $t0" | bc)")
  done
  matches=$("$BIN" --home "$WORK/home-1" --json -c "items --search '$word'" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
  echo "SEARCH '$word' ($matches matches) median $(printf '%s\n' "${ours[@]}" | median) s; LIKE scan (newsboat's search) $(printf '%s\n' "${peer[@]}" | median) s"
done
