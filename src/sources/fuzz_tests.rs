//! No input makes the readers panic: arbitrary bytes, and committed fixtures mutated byte by byte, go through
//! detection and every parser ([`load_bytes`]), and mutated criterion files through the tree reader.
//! Every case must end in `Ok` with valid samples or in an error whose message is not empty.

use proptest::prelude::*;

use super::tests::fixture;
use super::*;

const TEXT_FIXTURES: [&str; 10] = [
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
