//! Detection and `load` tests over every committed fixture in `fixtures/sources/`.

use std::path::PathBuf;

use super::*;

/// `fixtures/sources/<rel>`.
pub(crate) fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sources")
        .join(rel)
}

fn ctx() -> Context {
    Context {
        criterion_home: Some(fixture("criterion/real")),
        unit_override: None,
    }
}

#[test]
fn baseline_name_is_found_in_the_criterion_home() {
    let results = load("before", &ctx()).unwrap();
    assert_eq!(results.benchmarks.len(), 4);
    assert_eq!(results.benchmarks[0].name, "fib_20");
}

#[test]
fn unknown_name_lists_the_baselines_found() {
    let message = load("nothing-here", &ctx()).unwrap_err().to_string();
    assert!(message.contains("`nothing-here`"), "{message}");
    assert!(
        message.contains("hint: baselines found there: after, before, new"),
        "{message}"
    );
}

#[test]
fn criterion_root_with_selector_is_a_baseline() {
    let spec = format!("{}#before", fixture("criterion/real").display());
    let results = load(&spec, &ctx()).unwrap();
    assert!(results.origin.contains("`before`"));
}

#[test]
fn context_home_set_wins() {
    assert_eq!(ctx().criterion_home(), fixture("criterion/real"));
}
