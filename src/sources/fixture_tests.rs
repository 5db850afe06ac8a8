//! Detection and `load` tests over every committed fixture in `fixtures/sources/`.

use std::path::PathBuf;

use super::load::load_bytes;
use super::*;

use crate::testutil::source_fixtures::{copy_tree, fixture};

fn options() -> ReadOptions {
    ReadOptions {
        criterion_home: Some(fixture("criterion/real")),
        more_homes: Vec::new(),
        unit_override: None,
        max_input_size: None,
    }
}

#[test]
fn baseline_name_is_found_in_the_criterion_home() {
    let results = load("before", &options()).unwrap();
    assert_eq!(results.benchmarks.len(), 4);
    assert_eq!(results.benchmarks[0].name, "fib_20");
}

#[test]
fn unknown_name_lists_the_baselines_found() {
    let message = load("nothing-here", &options()).unwrap_err().to_string();
    assert!(message.contains("`nothing-here`"), "{message}");
    assert!(
        message.contains("hint: baselines found there: after, before, new"),
        "{message}"
    );
}

#[test]
fn a_baseline_saved_in_several_homes_is_one_side_and_a_name_in_two_is_refused() {
    // Two bench packages' homes, each with its own benchmarks of criterion's committed output.
    let dir = tempfile::tempdir().expect("tempdir");
    let real = fixture("criterion/real");
    let (app, util) = (dir.path().join("app"), dir.path().join("util"));
    copy_tree(&real.join("fib_20"), &app.join("fib_20"));
    copy_tree(&real.join("flat"), &util.join("flat"));
    let options = ReadOptions {
        criterion_home: Some(dir.path().join("root-has-none")),
        more_homes: vec![app.clone(), util.clone()],
        ..options()
    };
    let results = load("before", &options).unwrap();
    let mut names: Vec<&str> = results.benchmarks.iter().map(|b| b.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["fib_20", "flat/30"]);

    // Not found anywhere: each place is listed with what it holds.
    let message = load("nightly", &options).unwrap_err().to_string();
    assert!(message.contains("any of the 3 places"), "{message}");
    assert!(message.contains("root-has-none: no baselines"), "{message}");
    assert!(
        message.contains(&format!("{}: baselines after, before, new", app.display())),
        "{message}"
    );

    // The same benchmark in two homes cannot be one side.
    copy_tree(&real.join("fib_20"), &util.join("fib_20"));
    let message = load("before", &options).unwrap_err().to_string();
    assert!(message.contains("`fib_20` appears twice"), "{message}");
}

#[test]
fn criterion_root_with_selector_is_a_baseline() {
    let spec = format!("{}#before", fixture("criterion/real").display());
    let results = load(&spec, &options()).unwrap();
    assert!(results.origin.contains("`before`"));
}

#[test]
fn context_home_set_wins() {
    assert_eq!(options().criterion_home(), fixture("criterion/real"));
}

/// Every committed fixture file and the format its content must be detected as.
const DETECTED: [(&str, InputFormat); 23] = [
    ("raw/base.json", InputFormat::RawJson),
    ("raw/head.json", InputFormat::RawJson),
    ("hyperfine/base.json", InputFormat::Hyperfine),
    ("hyperfine/head.json", InputFormat::Hyperfine),
    ("hyperfine/revisions.json", InputFormat::Hyperfine),
    ("hyperfine/legacy-parameter.json", InputFormat::Hyperfine),
    ("cargo-criterion/base.jsonl", InputFormat::CargoCriterion),
    ("cargo-criterion/head.jsonl", InputFormat::CargoCriterion),
    ("go/base.txt", InputFormat::Go),
    ("go/head.txt", InputFormat::Go),
    ("google-benchmark/base.json", InputFormat::GoogleBenchmark),
    (
        "google-benchmark/aggregates-only.json",
        InputFormat::GoogleBenchmark,
    ),
    ("divan/base.txt", InputFormat::Divan),
    ("divan/head.txt", InputFormat::Divan),
    ("libtest/base.txt", InputFormat::LibtestText),
    ("libtest/legacy.txt", InputFormat::LibtestText),
    ("libtest/base.jsonl", InputFormat::LibtestJson),
    ("libtest/head.jsonl", InputFormat::LibtestJson),
    ("gungraun/base.json", InputFormat::Gungraun),
    ("bmf/docs-example.json", InputFormat::Bmf),
    ("bmf/head.json", InputFormat::Bmf),
    ("misc/analysis-report.json", InputFormat::AnalysisReport),
    (
        "criterion/real/fib_20/new/sample.json",
        InputFormat::RawJson,
    ),
];

#[test]
fn each_fixture_is_detected_from_its_content() {
    // The last entry is the counter-example: a criterion sample.json alone is no results file, and its
    // detection must not pretend otherwise (it has no `benchmarks`): it is checked below.
    for (rel, format) in &DETECTED[..22] {
        let text = std::fs::read_to_string(fixture(rel)).unwrap();
        assert_eq!(detect(&text), Some(*format), "{rel}");
    }
    let sample = std::fs::read_to_string(fixture(DETECTED[22].0)).unwrap();
    assert_eq!(detect(&sample), None);
}

#[test]
fn detection_ignores_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (rel, format)) in DETECTED[..21].iter().enumerate() {
        // JSON saved as .txt, text saved as .json: the content decides.
        let text = matches!(
            format,
            InputFormat::Go | InputFormat::Divan | InputFormat::LibtestText
        );
        let ext = if text { "json" } else { "txt" };
        let path = dir.path().join(format!("input{i}.{ext}"));
        std::fs::copy(fixture(rel), &path).unwrap();
        let loaded = load(path.to_str().unwrap(), &options());
        match format {
            InputFormat::GoogleBenchmark if rel.contains("aggregates") => {
                assert!(
                    matches!(loaded, Err(SourceError::NoSamples { .. })),
                    "{rel}"
                )
            }
            _ => assert!(loaded.is_ok(), "{rel}: {:?}", loaded.err()),
        }
    }
}

#[test]
fn garbage_lists_every_format_tried() {
    for bytes in [&b"hello world\n"[..], b"{\"a\": 1}"] {
        let err = load_bytes(bytes, "junk.bin", None, &options()).unwrap_err();
        let message = err.to_string();
        assert!(
            message.starts_with("junk.bin: not a results file"),
            "{message}"
        );
        for format in FILE_FORMATS {
            assert!(message.contains(format), "{message} lacks {format}");
        }
        assert!(message.contains("hint:"), "{message}");
    }
}

#[test]
fn bytes_that_are_not_utf8_are_named_by_their_place() {
    let bytes = b"{\"benchmarks\": [\n  {\"name\": \"caf\xe9\", \"samples\": [1]}]}";
    let err = load_bytes(bytes, "latin1.json", None, &options()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "latin1.json: not UTF-8 text: byte 32 (counting from 0; line 2, column 16) is 0xe9, which is \
         invalid UTF-8 there\nhint: every format this tool reads is UTF-8 text; convert the file (e.g. \
         `iconv -f latin1 -t utf-8`) or fix the name or value at that place"
    );
    let binary = load_bytes(b"\xff\xfe\x00binary", "junk.bin", None, &options()).unwrap_err();
    assert!(
        binary.to_string().starts_with(
            "junk.bin: not UTF-8 text: byte 0 (counting from 0; line 1, column 1) is 0xff"
        ),
        "{binary}"
    );
}

#[test]
fn more_numbers_than_the_size_limit_allows_are_refused_before_parsing() {
    // A 1 KiB limit allows 32 numbers: 200 one-digit samples are refused, 30 are read.
    let samples = |n: usize| {
        let values = vec!["1"; n].join(",");
        format!("{{\"unit\":\"ns\",\"benchmarks\":[{{\"name\":\"a\",\"samples\":[{values}]}}]}}")
    };
    let small = ReadOptions {
        max_input_size: Some(1024),
        ..options()
    };
    let err = load_bytes(samples(200).as_bytes(), "many.json", None, &small).unwrap_err();
    assert_eq!(
        err.to_string(),
        "many.json: holds 200 numbers, more than the 32 one input may hold (one per 32 bytes of the 1 KiB \
         size limit)\nhint: if it really holds results, raise the limit: `--max-input-size 8KiB`"
    );
    let read = load_bytes(samples(30).as_bytes(), "few.json", None, &small).unwrap();
    assert_eq!(read.benchmarks[0].runs.len(), 30);
}

#[test]
fn hyperfine_csv_is_not_accepted() {
    let path = fixture("misc/hyperfine.csv");
    let err = load(path.to_str().unwrap(), &options()).unwrap_err();
    assert!(matches!(err, SourceError::Unrecognised { .. }), "{err:?}");
}

#[test]
fn analysis_report_gets_its_own_error_and_hint() {
    let path = fixture("misc/analysis-report.json");
    let message = load(path.to_str().unwrap(), &options())
        .unwrap_err()
        .to_string();
    assert!(message.contains("is an analysis report"), "{message}");
    assert!(
        message.contains("hint: compare the files written by `cargo speedup record`"),
        "{message}"
    );
}

#[test]
fn selector_on_a_format_without_parts_is_an_error() {
    let spec = format!("{}#x", fixture("raw/base.json").display());
    let message = load(&spec, &options()).unwrap_err().to_string();
    assert!(
        message.contains("`#x` selects nothing in raw timing JSON"),
        "{message}"
    );
}

#[test]
fn directory_without_criterion_data_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let message = load(dir.path().to_str().unwrap(), &options())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("no criterion benchmark has a `new` baseline"),
        "{message}"
    );
    assert!(
        message.contains("hint: run `cargo bench` first"),
        "{message}"
    );
}

#[test]
fn unreadable_path_names_the_path() {
    // A path with a separator is never taken for a baseline name.
    let message = load("no/such/file.json", &options())
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "cannot read no/such/file.json: no such file or directory"
    );
}

#[test]
fn missing_criterion_home_does_not_panic() {
    let options = ReadOptions {
        criterion_home: Some(PathBuf::from("/nonexistent/criterion")),
        more_homes: Vec::new(),
        unit_override: None,
        max_input_size: None,
    };
    let message = load("before", &options).unwrap_err().to_string();
    assert!(
        message.contains("save one with `cargo bench --bench NAME -- --save-baseline BASELINE`"),
        "{message}"
    );
}

#[test]
fn one_summary_a_stream_and_an_array_of_summaries_are_all_gungraun() {
    let stream = std::fs::read_to_string(fixture("gungraun/base.json")).unwrap();
    let summaries: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&stream)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(summaries.len(), 3);
    let one = summaries[0].to_string();
    let array = serde_json::Value::Array(summaries).to_string();
    for text in [&stream, &one, &array] {
        assert_eq!(detect(text), Some(InputFormat::Gungraun));
    }
    let read = load_bytes(array.as_bytes(), "all.json", None, &options()).unwrap();
    assert_eq!(read.benchmarks.len(), 30);
}

#[test]
fn one_libtest_bench_event_alone_is_libtest_json() {
    let line = r#"{ "type": "bench", "name": "b::x", "median": 135, "deviation": 24 }"#;
    assert_eq!(detect(line), Some(InputFormat::LibtestJson));
    let read = load_bytes(line.as_bytes(), "one.json", None, &options()).unwrap();
    assert_eq!(read.benchmarks[0].runs.values(), [135.0]);
}
