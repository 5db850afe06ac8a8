//! No input makes the readers panic, hang or take memory out of proportion: arbitrary bytes, committed
//! fixtures mutated byte by byte, and JSON fixtures mutated structurally (a node replaced by an extreme or
//! ill-typed value, removed, or repeated) go through detection and every parser ([`load_bytes`]: record,
//! raw JSON, hyperfine, Google Benchmark, cargo-criterion, Go), the criterion tree reader, `merge`'s part
//! and record readers and the join of parts ([`crate::model::merge`]), `speeduptest`'s config and
//! sample readers, and the limits' own parsers. Every case must end in `Ok` with valid samples or in an
//! error whose message is not empty; nesting far past serde_json's limit must be an error, not a stack
//! overflow. Case counts keep the whole harness to a few seconds; `$SOURCES_FUZZ_CASES` runs it longer.

use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::{Value, json};

use super::load::load_bytes;
use super::*;
use crate::model::Results;
use crate::testutil::source_fixtures::fixture;

const TEXT_FIXTURES: [&str; 16] = [
    "divan/base.txt",
    "divan/v0.1.0.txt",
    "libtest/base.txt",
    "libtest/base.jsonl",
    "gungraun/base.json",
    "bmf/docs-example.json",
    "raw/base.json",
    "raw/head.json",
    "hyperfine/base.json",
    "hyperfine/revisions.json",
    "hyperfine/legacy-parameter.json",
    "cargo-criterion/base.jsonl",
    "go/base.txt",
    "go/head.txt",
    "google-benchmark/base.json",
    "google-benchmark/aggregates-only.json",
];

/// Characters that are likely to move a parser into its rare branches.
const INTERESTING: &[u8] = b"{}[]\":,-0123456789.eE+ \nNaInfulltrsBenchmark/=#\\";

#[derive(Debug, Clone)]
enum Mutation {
    Replace(usize, u8),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![any::<u8>(), proptest::sample::select(INTERESTING)];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<usize>(), 1usize..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), proptest::collection::vec(byte, 1..8))
            .prop_map(|(i, v)| Mutation::Insert(i, v)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
    for m in mutations {
        let len = bytes.len().max(1);
        match m {
            Mutation::Replace(i, b) if !bytes.is_empty() => bytes[i % len] = *b,
            Mutation::Delete(i, n) if !bytes.is_empty() => {
                let start = i % len;
                let end = (start + n).min(bytes.len());
                bytes.drain(start..end);
            }
            Mutation::Insert(i, v) => {
                let at = i % (bytes.len() + 1);
                bytes.splice(at..at, v.iter().copied());
            }
            Mutation::Truncate(i) => bytes.truncate(i % len),
            _ => {}
        }
    }
}

fn check(result: Result<Results, SourceError>) {
    match result {
        Ok(results) => {
            assert!(!results.benchmarks.is_empty());
            for b in &results.benchmarks {
                assert!(b.runs.values().iter().all(|v| v.is_finite() && *v > 0.0));
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The one-pass reading of raw timing JSON takes only what [`detect`] tells as raw timing or record JSON,
/// and reads it as telling the format first does: the same results, or the same error.
fn check_one_pass(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Some(one_pass) = raw_json::parse_if_raw(text, "fuzz") else {
        return;
    };
    assert!(
        matches!(
            detect(text),
            Some(InputFormat::RawJson | InputFormat::Record)
        ),
        "{text}"
    );
    assert_eq!(
        format!("{one_pass:?}"),
        format!("{:?}", raw_json::parse(text, "fuzz")),
        "{text}"
    );
}

/// `default` cases, or `$SOURCES_FUZZ_CASES` for a longer run (the criterion tree test runs a tenth).
fn cases(default: u32) -> u32 {
    std::env::var("SOURCES_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const SELECTORS: [Option<&str>; 4] = [None, Some("rev=main"), Some("cpu_time"), Some("0.1")];

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512), s in 0usize..4) {
        check(load_bytes(&bytes, "fuzz", SELECTORS[s], &ReadOptions::default()));
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[{}\\[\\]\":,0-9a-zA-Z .#=/+\\-\n]{0,300}", s in 0usize..4) {
        check(load_bytes(text.as_bytes(), "fuzz", SELECTORS[s], &ReadOptions::default()));
        check_one_pass(text.as_bytes());
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..TEXT_FIXTURES.len(),
        mutations in proptest::collection::vec(mutation(), 1..6),
        s in 0usize..4,
    ) {
        let mut bytes = std::fs::read(fixture(TEXT_FIXTURES[which])).unwrap();
        apply(&mut bytes, &mutations);
        check(load_bytes(&bytes, "fuzz", SELECTORS[s], &ReadOptions::default()));
        check_one_pass(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000) / 10, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_criterion_files_never_panic(
        which in 0usize..2,
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let source = fixture("criterion/real/sum_squares/vec_u32_/64/new");
        let dir = tempfile::tempdir().unwrap();
        let bench = dir.path().join("bench/new");
        std::fs::create_dir_all(&bench).unwrap();
        for file in ["benchmark.json", "sample.json"] {
            let mut bytes = std::fs::read(source.join(file)).unwrap();
            if file == ["benchmark.json", "sample.json"][which] {
                apply(&mut bytes, &mutations);
            }
            std::fs::write(bench.join(file), bytes).unwrap();
        }
        check(criterion::read_baseline(dir.path(), "new"));
    }
}

/// A node of a JSON document, by its place in a depth-first walk, changed.
#[derive(Debug, Clone)]
enum Change {
    /// The node becomes this value.
    Replace(usize, Value),
    /// The node is removed from its array or object.
    Remove(usize),
    /// The node, an element of an array, is repeated after itself.
    Repeat(usize),
}

/// Values that readers must refuse or read safely wherever they appear.
fn hostile_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(1e308)),
        Just(json!(5e-324)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(true)),
        Just(json!("")),
        Just(json!("NaN")),
        Just(json!("\u{1b}[2J\u{0}\u{202e}@octocat\n::error::x")),
        Just(json!([])),
        Just(json!({})),
        Just(json!([[]])),
        Just(json!("cargo-speedup/1")),
        Just(json!("cargo-speedup-record/2")),
        any::<f64>().prop_map(|v| json!(v)),
        "[a-z/:#=0-9 ]{0,12}".prop_map(|v| json!(v)),
        proptest::collection::vec(-1e3f64..1e12, 0..6).prop_map(|v| json!(v)),
    ]
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        3 => (any::<usize>(), hostile_value()).prop_map(|(i, v)| Change::Replace(i, v)),
        1 => any::<usize>().prop_map(Change::Remove),
        1 => any::<usize>().prop_map(Change::Repeat),
    ]
}

/// The JSON pointers of every node under `value` but the root, depth first.
fn pointers(value: &Value, at: &str, out: &mut Vec<String>) {
    let escape = |key: &str| key.replace('~', "~0").replace('/', "~1");
    let children: Vec<(String, &Value)> = match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{at}/{i}"), v))
            .collect(),
        Value::Object(members) => members
            .iter()
            .map(|(k, v)| (format!("{at}/{}", escape(k)), v))
            .collect(),
        _ => vec![],
    };
    for (pointer, child) in children {
        out.push(pointer.clone());
        pointers(child, &pointer, out);
    }
}

/// Applies `changes` to `value`, each to the node its index picks among the nodes there are then.
fn restructure(value: &mut Value, changes: &[Change]) {
    for change in changes {
        let mut all = Vec::new();
        pointers(value, "", &mut all);
        let (Change::Replace(i, _) | Change::Remove(i) | Change::Repeat(i)) = change;
        let Some(pointer) = all.get(i % all.len().max(1)).cloned() else {
            continue;
        };
        let (parent, last) = pointer.rsplit_once('/').expect("a pointer below the root");
        let key = last.replace("~1", "/").replace("~0", "~");
        match change {
            Change::Replace(_, new) => *value.pointer_mut(&pointer).expect("a node") = new.clone(),
            Change::Remove(_) => match value.pointer_mut(parent) {
                Some(Value::Array(items)) => {
                    items.remove(key.parse::<usize>().expect("an index"));
                }
                Some(Value::Object(members)) => {
                    members.remove(&key);
                }
                _ => {}
            },
            Change::Repeat(_) => {
                if let Some(Value::Array(items)) = value.pointer_mut(parent) {
                    let index = key.parse::<usize>().expect("an index");
                    items.insert(index, items[index].clone());
                }
            }
        }
    }
}

/// JSON fixtures of the file formats, to be changed structurally.
const JSON_FIXTURES: [&str; 6] = [
    "bmf/docs-example.json",
    "raw/base.json",
    "hyperfine/revisions.json",
    "hyperfine/legacy-parameter.json",
    "google-benchmark/base.json",
    "cargo-criterion/base.jsonl",
];

/// The text of JSON fixture `which` (one line of a JSON-lines file, at `line`), changed by `changes`, put
/// back into its file.
fn restructured_fixture(which: usize, line: usize, changes: &[Change]) -> String {
    let text = std::fs::read_to_string(fixture(JSON_FIXTURES[which])).unwrap();
    if !JSON_FIXTURES[which].ends_with(".jsonl") {
        // Google Benchmark's `NaN` made JSON first.
        let mut value: Value =
            serde_json::from_str(&google_benchmark::tolerant_json(&text)).unwrap();
        restructure(&mut value, changes);
        return value.to_string();
    }
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = line % lines.len();
    // The fixture holds lines that are not JSON too, as cargo-criterion's output may: left as they are.
    if let Ok(mut value) = serde_json::from_str::<Value>(&lines[at]) {
        restructure(&mut value, changes);
        lines[at] = value.to_string();
    }
    lines.join("\n")
}

/// A record of two benchmarks with a fingerprint, as `cargo speedup record --partition count:1/2` writes.
static RECORD: LazyLock<String> = LazyLock::new(|| {
    use crate::model::{Benchmark, Environment, Run, Runs, Sample, Unit};
    let benchmark = |name: &str, values: &[&[f64]]| Benchmark {
        name: name.into(),
        runs: Runs::new(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| Run::new(Sample::new(v.to_vec(), Unit::Ns).unwrap(), Some(i as u32)))
                .collect(),
        )
        .unwrap(),
        unit: Unit::Us,
        counters: Vec::new(),
    };
    let results = Results {
        origin: "record".into(),
        benchmarks: vec![
            benchmark("parse/small", &[&[812.5, 811.0], &[799.25, 1e-3]]),
            benchmark("one", &[&[5.0, 6.0, 7.0]]),
        ],
        environment: Environment {
            fingerprint: Some(fingerprint(Some("count:1/2"))),
            ..Environment::default()
        },
        notes: vec!["a note".into()],
        left_out: vec![],
    };
    let mut bytes = Vec::new();
    record::write(&results, &mut bytes).unwrap();
    String::from_utf8(bytes).unwrap()
});

fn fingerprint(partition: Option<&str>) -> crate::model::fingerprint::Fingerprint {
    crate::model::fingerprint::Fingerprint {
        tool: "cargo-speedup 0.1.0".into(),
        base_commit: Some("aaaa".into()),
        head_commit: Some("bbbb".into()),
        partition: partition.map(String::from),
        ..Default::default()
    }
}

/// The JSON report of a measured comparison (with its fingerprint and runs): a part of `merge`.
static PART: LazyLock<String> =
    LazyLock::new(|| crate::testutil::part_report::measured_report(Some(fingerprint(None))).1);

/// [`PART`] as read.
static PART_READ: LazyLock<crate::model::PartReport> =
    LazyLock::new(|| part::parse(&PART).unwrap());

/// `merge`'s reading of a part's text: a report, or a record, as `app::merge` tells them; when it reads,
/// the join with an unchanged part must not panic either.
fn check_part(text: &str) {
    use crate::model::merge::{Part, RecordPart, merge, merge_records};
    let is_record = part::schema_of(text).is_some_and(|s| part::is_record_schema(&s));
    if is_record {
        match part::parse_record(text, "fuzz") {
            Ok(results) => {
                check(Ok(results.clone()));
                let record = |label: &str, results: Results| RecordPart {
                    label: label.into(),
                    schema: record::SCHEMA.into(),
                    results,
                };
                let original = raw_json::parse(&RECORD, "record").unwrap();
                let joined = merge_records(&[record("a", original), record("b", results)]);
                if let Err(e) = joined {
                    assert!(!e.to_string().is_empty());
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        return;
    }
    match part::parse(text) {
        Ok(report) => {
            for pair in &report.pairs {
                for side in [&pair.base, &pair.head] {
                    assert!(side.runs.values().iter().all(|v| v.is_finite() && *v > 0.0));
                }
            }
            let original = PART_READ.clone();
            let parts = [
                Part {
                    label: "a".into(),
                    report: original,
                },
                Part {
                    label: "b".into(),
                    report,
                },
            ];
            if let Err(e) = merge(&parts) {
                assert!(!e.to_string().is_empty());
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000) / 5, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn restructured_fixtures_never_panic(
        which in 0usize..JSON_FIXTURES.len(),
        line in any::<usize>(),
        changes in proptest::collection::vec(change(), 1..4),
        s in 0usize..4,
    ) {
        let text = restructured_fixture(which, line, &changes);
        check(load_bytes(text.as_bytes(), "fuzz", SELECTORS[s], &ReadOptions::default()));
        check_one_pass(text.as_bytes());
    }

    #[test]
    fn arbitrary_parts_never_panic(text in "[{}\\[\\]\":,0-9a-z .\\-/]{0,300}") {
        check_part(&text);
        let _ = top_level::TopLevel::parse(&text);
        let _ = limits::parse_size(&text);
        // The bound `limits::excess_numbers` leans on to skip counting short texts.
        assert!(limits::count_numbers(text.as_bytes()) <= (text.len() as u64).div_ceil(2));
    }

    #[test]
    fn speeduptest_configs_and_samples_never_panic(
        mutations in proptest::collection::vec(mutation(), 1..6),
        sample in 0usize..3,
        arbitrary in "[0-9a-zA-Z.,\"\\-+e \n]{0,200}",
    ) {
        let mut config = std::fs::read(speeduptest_fixture("paper/bench.cfg")).unwrap();
        apply(&mut config, &mutations);
        for text in [String::from_utf8_lossy(&config).into_owned(), arbitrary.clone()] {
            let Ok(rows) = speeduptest_sh::parse_config(&text) else {
                continue;
            };
            let file = ["paper/bench1.data.1", "edge/bad_value.data", "edge/single.data"][sample];
            let mut bytes = std::fs::read(speeduptest_fixture(file)).unwrap();
            apply(&mut bytes, &mutations);
            for row in rows.into_iter().flatten() {
                let entry = speeduptest_sh::load_row(row, &|_| Ok(bytes.clone()));
                let samples = entry.samples.iter().flat_map(|s| [&s.base, &s.head]);
                for values in samples {
                    assert!(values.iter().all(|v| v.is_finite() && *v > 0.0));
                }
            }
        }
        if let Ok(values) = speeduptest_sh::parse_sample(&arbitrary, "fuzz") {
            assert!(values.len() >= 2 && values.iter().all(|v| v.is_finite() && *v > 0.0));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(3000) / 10, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn restructured_records_and_parts_never_panic(
        report in any::<bool>(),
        changes in proptest::collection::vec(change(), 1..4),
    ) {
        let text: &str = if report { &PART } else { &RECORD };
        let mut value: Value = serde_json::from_str(text).unwrap();
        restructure(&mut value, &changes);
        let text = value.to_string();
        check_part(&text);
        check(load_bytes(text.as_bytes(), "fuzz", None, &ReadOptions::default()));
    }

    #[test]
    fn mutated_records_and_parts_never_panic(
        report in any::<bool>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let mut bytes = if report { PART.clone() } else { RECORD.clone() }.into_bytes();
        apply(&mut bytes, &mutations);
        check_part(&String::from_utf8_lossy(&bytes));
    }
}

fn speeduptest_fixture(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/speeduptest")
        .join(rel)
}

#[test]
fn nesting_far_past_the_limit_is_an_error_in_every_reader() {
    let depth = 20_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    for deep in [&arrays, &objects] {
        let inside = [
            format!("{{\"benchmarks\": [{deep}]}}"),
            format!("{{\"results\": [{deep}]}}"),
            format!("{{\"context\": {{}}, \"benchmarks\": {deep}}}"),
            format!("{{\"reason\": \"benchmark-complete\", \"id\": {deep}}}"),
            format!("{{\"schema\": \"cargo-speedup/1\", \"benchmarks\": [{deep}]}}"),
            format!("{{\"schema\": \"cargo-speedup-record/2\", \"benchmarks\": [{deep}]}}"),
            deep.clone(),
        ];
        for text in &inside {
            let error = load_bytes(text.as_bytes(), "deep.json", None, &ReadOptions::default())
                .unwrap_err()
                .to_string();
            assert!(!error.is_empty());
            check_part(text);
            assert!(part::parse(text).is_err());
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let bench = dir.path().join("bench/new");
    std::fs::create_dir_all(&bench).unwrap();
    std::fs::write(bench.join("benchmark.json"), &arrays).unwrap();
    std::fs::write(bench.join("sample.json"), &arrays).unwrap();
    let error = criterion::read_baseline(dir.path(), "new")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("benchmark.json: not valid criterion data"),
        "{error}"
    );
    std::fs::write(bench.join("benchmark.json"), r#"{"group_id": "g"}"#).unwrap();
    let error = criterion::read_baseline(dir.path(), "new")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("sample.json: not valid criterion data"),
        "{error}"
    );
}
