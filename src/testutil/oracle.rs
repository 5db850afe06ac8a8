//! Test-only access to the R oracle fixtures in `fixtures/oracle/*.json`.
//!
//! Each fixture file is written by the R script of the same name in `fixtures/r/`; tests compare against it
//! with [`assert_rel`] so that a failure names the case.

use serde_json::Value;

/// Loads `fixtures/oracle/<name>.json`.
pub(crate) fn load(name: &str) -> Value {
    let path = format!("{}/fixtures/oracle/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The cases of `fixtures/oracle/<fixture>.json` whose `exact` flag is `exact` (R's exact method, or its
/// approximation); panics unless there are at least `least`, so that a fixture cut short cannot pass.
pub(crate) fn cases_of(fixture: &str, exact: bool, least: usize) -> Vec<Value> {
    let oracle = load(fixture);
    let chosen: Vec<Value> = oracle["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["exact"].as_bool() == Some(exact))
        .cloned()
        .collect();
    assert!(chosen.len() >= least, "{fixture}: too few oracle cases");
    chosen
}

/// A JSON array of numbers as a vector.
pub(crate) fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(number)
        .collect()
}

/// A JSON number, or the strings "Inf"/"-Inf" that the R script writes for infinite bounds.
pub(crate) fn number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().expect("finite number"),
        Value::String(s) if s == "Inf" => f64::INFINITY,
        Value::String(s) if s == "-Inf" => f64::NEG_INFINITY,
        other => panic!("expected a number, got {other}"),
    }
}

/// R's `alternative =` argument: "two.sided", "greater" or "less".
pub(crate) fn alternative(name: &str) -> crate::stats::Alternative {
    use crate::stats::Alternative;
    match name {
        "two.sided" => Alternative::TwoSided,
        "greater" => Alternative::Greater,
        "less" => Alternative::Less,
        other => panic!("unknown alternative {other:?}"),
    }
}

/// Asserts |actual − expected| <= tol·|expected| (or both infinite and equal), naming the case.
#[track_caller]
pub(crate) fn assert_rel(case: &str, what: &str, actual: f64, expected: f64, tol: f64) {
    if actual == expected {
        return;
    }
    let err = (actual - expected).abs();
    let scale = expected.abs().max(f64::MIN_POSITIVE);
    assert!(
        err <= tol * scale,
        "{case}: {what} = {actual:.17e}, R gives {expected:.17e} (relative error {:.3e} > {tol:e})",
        err / scale
    );
}
