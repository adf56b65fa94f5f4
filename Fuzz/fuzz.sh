#!/usr/bin/env bash
# Builds the libFuzzer targets and runs them one after another (see Fuzz/README.md).
#
#   bash Fuzz/fuzz.sh [all|xml|json|html|opml|dates|tokenizer|ical|dav ...]
#
# FUZZ_SECONDS (default 180) is each target's time; FUZZ_FLAGS adds libFuzzer flags. Corpora
# grow in Fuzz/work/corpus/NAME and are kept between runs; crashes, hangs and sanitizer reports
# go to Fuzz/work/findings/NAME, each run's log to Fuzz/work/logs/NAME.log. Exits non-zero when
# any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-180}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
ALL="xml json html opml dates tokenizer ical dav"
SCRATCH=.build-fuzz
WORK=Fuzz/work
BENCH_CORPUS=${BENCH_CORPUS:-/tmp/feedcorpus}

targets=("$@")
if [ ${#targets[@]} -eq 0 ] || [ "${targets[0]}" = all ]; then read -ra targets <<<"$ALL"; fi
for name in "${targets[@]}"; do
    case " $ALL " in *" $name "*) ;; *) echo "unknown fuzz target '$name' (one of: $ALL)" >&2; exit 2 ;; esac
done

# SwiftPM's --sanitize=fuzzer leaves `main` to libFuzzer; -Xswiftc -sanitize=fuzzer,address has every
# module compiled with coverage and AddressSanitizer (SwiftPM's flags alone reach the compiler as
# two -sanitize options, of which only the last counts).
build_flags=(-c debug --scratch-path "$SCRATCH" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
    -Xswiftc -parse-as-library)
for name in "${targets[@]}"; do
    TIDINGS_FUZZ=1 "$SWIFT" build "${build_flags[@]}" --product "fuzz-$name" 2>&1 | grep -v "Cannot export" || exit 1
done
bin=$(TIDINGS_FUZZ=1 "$SWIFT" build "${build_flags[@]}" --show-bin-path)

# Copies the files given (at most 64 KB each) into a fresh seed folder.
seed_files() {
    local dir=$1
    shift
    rm -rf "$dir" && mkdir -p "$dir"
    for file in "$@"; do
        if [ -f "$file" ] && [ "$(wc -c <"$file")" -le 65536 ]; then cp "$file" "$dir/"; fi
    done
}

# Writes each line of a text file into a file of its own.
seed_lines() {
    local dir=$1 file=$2 n=0
    rm -rf "$dir" && mkdir -p "$dir"
    while IFS= read -r line; do
        n=$((n + 1))
        printf '%s' "$line" >"$dir/line-$n"
    done <"$file"
}

seeds() {
    local name=$1 dir=$WORK/seeds/$1
    local fixtures=Tests/FeedParserTests/Resources
    shopt -s nullglob
    case $name in
        xml)
            seed_files "$dir" $fixtures/rss/*.xml $fixtures/atom/*.xml $fixtures/other/*.xml Demo/feeds/*.xml \
                Demo/feeds/*.atom $BENCH_CORPUS/atom-00[0-2].xml $BENCH_CORPUS/rss-00[0-2].xml
            ;;
        json) seed_files "$dir" $fixtures/jsonfeed/*.json Demo/feeds/*.json $BENCH_CORPUS/json-00[0-2].json ;;
        html) seed_files "$dir" $fixtures/other/*.html $fixtures/rss/html-entities.xml $fixtures/rss/title-with-html.xml \
            $fixtures/atom/atom-xhtml.xml ;;
        opml) seed_files "$dir" $fixtures/other/*.opml ;;
        ical) seed_files "$dir" Tests/ChoresTests/Resources/ical/*.ics ;;
        dav) seed_files "$dir" Fuzz/Seeds/dav/*.xml ;;
        dates) seed_lines "$dir" Fuzz/Seeds/dates.txt ;;
        tokenizer)
            seed_lines "$dir" Fuzz/Seeds/tokenizer.txt
            grep -v '^#' Demo/setup.tidings >"$WORK/demo-lines.txt"
            seed_lines "$dir/demo" "$WORK/demo-lines.txt"
            mv "$dir"/demo/* "$dir"/ && rmdir "$dir/demo"
            ;;
    esac
    shopt -u nullglob
}

dictionary() {
    case $1 in
        xml | opml | dav) echo Fuzz/Dictionaries/xml.dict ;;
        ical) echo Fuzz/Dictionaries/ical.dict ;;
        json) echo Fuzz/Dictionaries/json.dict ;;
        html) echo Fuzz/Dictionaries/html.dict ;;
        dates) echo Fuzz/Dictionaries/dates.dict ;;
        *) echo "" ;;
    esac
}

max_len() {
    case $1 in
        xml | json | html | opml | ical | dav) echo 16384 ;;
        *) echo 256 ;;
    esac
}

status=0
summary=()
for name in "${targets[@]}"; do
    corpus=$WORK/corpus/$name findings=$WORK/findings/$name log=$WORK/logs/$name.log
    mkdir -p "$corpus" "$findings" "$WORK/logs"
    seeds "$name"
    dict=$(dictionary "$name")
    echo "fuzz-$name: ${FUZZ_SECONDS}s, corpus $corpus, findings $findings, log $log"
    # Swift's own crash reporter would get in the way of AddressSanitizer's.
    set +e
    SWIFT_BACKTRACE=enable=no "$bin/fuzz-$name" "$corpus" "$WORK/seeds/$name" \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len="$(max_len "$name")" \
        -artifact_prefix="$findings/" -print_final_stats=1 ${dict:+-dict="$dict"} $FUZZ_FLAGS >"$log" 2>&1
    code=$?
    set -e
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
    found=$(find "$findings" -type f | wc -l)
    line="fuzz-$name: exit $code, ${runs:-?} runs, last: ${last:-none}; corpus $(find "$corpus" -type f | wc -l) files; findings $found"
    summary+=("$line")
    echo "$line"
    if [ "$code" -ne 0 ] || [ "$found" -ne 0 ]; then status=1; fi
done
printf '%s\n' "" "Summary:" "${summary[@]}"
exit $status
