#!/bin/sh
# Writes the JSON report of every BASE/HEAD pair under fixtures/ into the directory given (default
# target/fixture-reports), with a fixed date, so that two builds' reports can be compared byte for byte:
#   benches/fixture_reports.sh /tmp/before && (change, rebuild) && benches/fixture_reports.sh /tmp/after
#   diff -r /tmp/before /tmp/after
# Uses target/release/cargo-speedup (build it first). `merge` of the base64 A/A report is included.
set -u
bin=${BIN:-target/release/cargo-speedup}
out=${1:-target/fixture-reports}
mkdir -p "$out"
export SOURCE_DATE_EPOCH=0
find fixtures -name 'base*' -not -path '*/target/*' -not -path 'fixtures/criterion-project/*' | sort |
while read -r base; do
    head=$(echo "$base" | sed 's/base/head/')
    [ -e "$head" ] || continue
    name=$(echo "$base" | tr '/' '_')
    "$bin" compare "$base" "$head" --format json -o "$out/$name.json" -q 2>"$out/$name.stderr"
    echo "exit $?" >>"$out/$name.stderr"
done
"$bin" merge fixtures/shape/base64-aa.json --format json -o "$out/base64-aa-merge.json" -q \
    2>"$out/base64-aa-merge.stderr"
echo "exit $?" >>"$out/base64-aa-merge.stderr"
