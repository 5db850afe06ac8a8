//! CLI tests of the formats that other harnesses already write (divan's tree, libtest's bench lines,
//! gungraun summaries, BMF) read by `compare` from fixtures the real tools produced
//! (`fixtures/sources/README.md`), and of the dashboards' formats `--format bmf` and `--format gab`.

use serde_json::Value;

use crate::support::{benchmark, run};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// `compare fixtures/sources/BASE fixtures/sources/HEAD ARGS`, its stdout parsed as JSON.
fn compare(base: &str, head: &str, args: &[&str]) -> Value {
    let base = format!("fixtures/sources/{base}");
    let head = format!("fixtures/sources/{head}");
    let mut all = vec!["compare", base.as_str(), head.as_str()];
    all.extend_from_slice(args);
    let output = run(&all);
    // 1 where the default gate finds a benchmark more than 2 % slower: each test asserts what it reads.
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{all:?}: {}",
        stderr(&output)
    );
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{all:?}: {e}\n{}", stdout(&output)))
}

#[test]
fn divan_trees_appended_are_process_runs_and_the_planted_slowdown_is_found() {
    let json = compare("divan/base.txt", "divan/head.txt", &["--format", "json"]);
    assert_eq!(json["benchmarks"].as_array().expect("benchmarks").len(), 11);
    let checksum = benchmark(&json, "divan_bench::checksum::1024");
    assert_eq!(checksum["observation"], "process-runs");
    assert_eq!(checksum["base"]["runs"], 5);
    assert_eq!(checksum["verdict"], "slower");
    // fib_20 was not touched: 15.38 µs in four of the five runs of each side.
    assert_eq!(
        benchmark(&json, "divan_bench::fib_20")["verdict"],
        "unchanged"
    );
    // The bench file's counters, per side: `BytesCount::new(1024)`; none on fib_20.
    assert_eq!(
        checksum["counters"]["base"],
        serde_json::json!([{"kind": "bytes", "per_iteration": 1024.0, "exact": true}])
    );
    assert_eq!(checksum["counters"]["head"], checksum["counters"]["base"]);
    assert!(
        benchmark(&json, "divan_bench::fib_20")
            .get("counters")
            .is_none()
    );
}

#[test]
fn libtest_text_and_json_are_read_and_the_planted_slowdown_is_found() {
    for (base, head) in [
        ("libtest/base.txt", "libtest/head.txt"),
        ("libtest/base.jsonl", "libtest/head.jsonl"),
    ] {
        let json = compare(base, head, &["--format", "json"]);
        let checksum = benchmark(&json, "benches::checksum_4k");
        assert_eq!(checksum["verdict"], "slower", "{base}");
        assert_eq!(checksum["unit"], "us", "{base}");
        assert_eq!(json["benchmarks"].as_array().expect("benchmarks").len(), 3);
    }
}

#[test]
fn gungraun_counts_are_compared_exactly_in_their_own_units() {
    let json = compare(
        "gungraun/base.json",
        "gungraun/head.json",
        &["--format", "json"],
    );
    let ir = benchmark(
        &json,
        "gungraun_bench::fmt_group::bench_checksum kib (instructions)",
    );
    assert_eq!(ir["observation"], "deterministic");
    assert_eq!(ir["unit"], "instructions");
    assert_eq!(ir["base"]["median"], 7468.0);
    assert_eq!(ir["head"]["median"], 14396.0);
    assert_eq!(ir["verdict"], "slower");
    assert_eq!(ir["warnings"][0]["kind"], "exact");
    let fib = benchmark(
        &json,
        "gungraun_bench::fmt_group::bench_fib long (instructions)",
    );
    assert_eq!(fib["verdict"], "unchanged");
    // The table says how each count changed instead of a test's verdict.
    let table = run(&[
        "compare",
        "fixtures/sources/gungraun/base.json",
        "fixtures/sources/gungraun/head.json",
    ]);
    let text = stdout(&table);
    assert!(text.contains("exact: +92.8 % instructions"), "{text}");
    assert!(text.contains("7468   14396"), "{text}");
    assert!(
        text.contains("Suite: no suite test: every benchmark is a count compared exactly."),
        "{text}"
    );
    // `--fail-on any` gates the counts exactly: 92.8 % more instructions fails, a 95 % threshold passes.
    let gate = |threshold: &str| {
        run(&[
            "compare",
            "fixtures/sources/gungraun/base.json",
            "fixtures/sources/gungraun/head.json",
            "--fail-on",
            "any",
            "--threshold",
            threshold,
        ])
        .status
        .code()
    };
    assert_eq!(gate("0"), Some(1));
    assert_eq!(gate("95"), Some(0));
}

#[test]
fn bmf_from_bencher_docs_reads_latency_and_notes_the_other_measures() {
    let json = compare(
        "bmf/docs-example.json",
        "bmf/head.json",
        &["--format", "json"],
    );
    let b = benchmark(&json, "benchmark_name");
    assert_eq!(b["base"]["median"], 88.0);
    // HEAD: three runs, 91.5, 90.75 and 92.25 ns.
    assert_eq!(b["head"]["runs"], 3);
    assert_eq!(b["head"]["median"], 91.5);
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("`build-time` (1), `file-size` (1), `throughput` (1)"),
        "{warnings}"
    );
}

#[test]
fn format_bmf_writes_heads_latency_with_its_range_the_speedup_and_counts() {
    let json = compare("divan/base.txt", "divan/head.txt", &["--format", "bmf"]);
    // divan_bench::checksum::64: HEAD's five runs all 106.7 ns; BASE's all 54.33 ns.
    let checksum = &json["divan_bench::checksum::64"];
    assert_eq!(checksum["latency"]["value"], 106.7);
    assert_eq!(checksum["latency"]["lower_value"], 106.7);
    assert_eq!(checksum["latency"]["upper_value"], 106.7);
    assert_eq!(checksum["speedup"]["value"], 54.33 / 106.7);
    assert!(checksum["speedup"]["lower_value"].is_number());
    // divan_bench::push_items::Vec<u64>: HEAD's runs range over lines 22, 48, 74, 100 and 126 of head.txt.
    let push = &json["divan_bench::push_items::Vec<u64>"]["latency"];
    assert!(push["lower_value"].as_f64() < push["upper_value"].as_f64());
    assert_eq!(json.as_object().expect("an object").len(), 11);

    let counts = compare(
        "gungraun/base.json",
        "gungraun/head.json",
        &["--format", "bmf"],
    );
    let checksum = &counts["gungraun_bench::fmt_group::bench_checksum kib"];
    assert_eq!(
        checksum["instructions"],
        serde_json::json!({"value": 14396.0})
    );
    assert_eq!(checksum["estimated-cycles"]["value"], 17650.0);
    assert_eq!(checksum["l1-hits"]["value"], 16645.0);
    assert!(checksum.get("speedup").is_none());
    assert_eq!(counts.as_object().expect("an object").len(), 3);
}

#[test]
fn format_gab_writes_custom_smaller_is_better_entries() {
    let json = compare(
        "gungraun/base.json",
        "gungraun/head.json",
        &["--format", "gab"],
    );
    let entries = json.as_array().expect("an array");
    assert_eq!(entries.len(), 30);
    assert_eq!(
        entries[0],
        serde_json::json!({
            "name": "gungraun_bench::fmt_group::bench_checksum kib (instructions)",
            "unit": "instructions",
            "value": 14396.0,
            "extra": "BASE 7468 instructions, HEAD 14396 instructions (medians of 1 and 1 values)\nexact: +92.8 % instructions"
        })
    );
    let times = compare("divan/base.txt", "divan/head.txt", &["--format", "gab"]);
    let first = &times[0];
    assert_eq!(first["name"], "divan_bench::checksum::64");
    assert_eq!(first["unit"], "ns");
    assert_eq!(first["value"], 106.7);
    // Every run of HEAD at 106.7 ns: no range.
    assert!(first.get("range").is_none());
    let extra = first["extra"].as_str().expect("extra");
    assert!(
        extra
            .starts_with("BASE 54.33 ns, HEAD 106.7 ns (medians of 5 and 5 values)\nspeedup 0.51x"),
        "{extra}"
    );
    assert!(extra.ends_with(": slower (>= 0.99)"), "{extra}");
}

/// `compare FILE FILE` on bad input written to a temporary file: exit 2, the message.
fn refused(name: &str, content: &str) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, content).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    let output = run(&["compare", path, path]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    stderr(&output).replace(path, name)
}

#[test]
fn bad_inputs_of_each_new_format_exit_2_naming_the_file_and_what_was_expected() {
    let divan = refused(
        "divan.txt",
        "divan_bench  fastest │ slowest │ median │ mean │ samples │ iters\n",
    );
    assert!(
        divan.contains(
            "divan.txt: no samples: no benchmark found in this divan output input\nhint: save the whole \
             output of `cargo bench` for a divan target"
        ),
        "{divan}"
    );
    let libtest = refused(
        "bench.txt",
        "test cmov ... bench:        2835 cycles/iter (+/- 14)\n",
    );
    // A line in another unit is detected as libtest's, then skipped: nothing is left.
    assert!(
        libtest
            .contains("bench.txt: no samples: no benchmark found in this libtest bench text input"),
        "{libtest}"
    );
    assert!(
        libtest.contains("hint: save what `cargo +nightly bench` prints"),
        "{libtest}"
    );
    let summary = refused(
        "summary.json",
        r#"{"version": "99", "module_path": "b::g::f", "profiles": [{"tool": "Callgrind"}]}"#,
    );
    assert!(
        summary.contains(
            "summary.json: summary 1 has version \"99\"\nhint: this tool reads summary versions 7 \
             (gungraun) and 6 (iai-callgrind 0.15, 0.16)"
        ),
        "{summary}"
    );
    let bmf = refused(
        "bmf.json",
        "{\"f\": {\"latency\": {\"value\": 1.0}}}\n{\"f\": {\"latency\": {\"value\": \"fast\"}}}\n",
    );
    assert!(
        bmf.contains(
            "bmf.json: no usable benchmark: every benchmark in bmf.json had no usable value: `f` \
             (measure `latency` has no numeric `value` (object 2))\nhint: "
        ),
        "{bmf}"
    );
}
