//! CLI tests of the shape of the distributions (`docs/mixtures.md`) on `fixtures/shape/`, whose BASE
//! `parse/large` runs are bistable by construction (`fixtures/shape/make.py`: 14 of 20 runs near 1.02 ms, 6
//! near 1.31 ms), whose HEAD has one level, and whose `tick/coarse` reads one value on every BASE run.

use serde_json::Value;

use crate::support::{benchmark, run};

const BASE: &str = "fixtures/shape/base.json";
const HEAD: &str = "fixtures/shape/head.json";

fn compare(extra: &[&str]) -> (Value, String) {
    let mut args = vec!["compare", BASE, HEAD, "--format", "json"];
    args.extend_from_slice(extra);
    let output = run(&args);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json = serde_json::from_slice(&output.stdout).expect("JSON report");
    (json, String::from_utf8(output.stderr).expect("UTF-8"))
}

#[test]
fn bistable_runs_raise_the_multimodal_warning() {
    // The modes of one side are a detail under the median's verdict: `--verbose` shows them.
    let output = run(&["compare", BASE, HEAD, "--verbose"]);
    let table = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        table.contains(
            "BASE of `parse/large` has 2 modes: 1.02 ms (70 %) and 1.31 ms (30 %); the mean protocol is \
             misleading here, trust the median protocol"
        ),
        "{table}"
    );
    assert!(table.contains(
        "BASE of `parse/large` has 2 modes and HEAD 1 mode: the change altered the shape of the distribution"
    ));
    assert!(table.contains("BASE of `tick/coarse`: too few distinct values to model the shape"));
    // The unimodal benchmark raises no shape warning.
    assert!(!table.contains("`parse/small`"), "{table}");
}

#[test]
fn the_json_carries_modes_per_side() {
    let (json, _) = compare(&[]);
    let large = benchmark(&json, "parse/large");
    assert_eq!(json["schema"], "cargo-speedup/1");
    let base = &large["shape"]["base"];
    assert_eq!(base["modelled"], true);
    assert_eq!(base["mode_count"], 2);
    // By construction: 14 of 20 runs near 1.02 ms (× a 0.4 % level noise), 6 near 1.31 ms.
    let modes = base["modes"].as_array().expect("modes");
    let at = |i: usize, f: &str| modes[i][f].as_f64().expect("number");
    assert!((at(0, "location") - 1.02).abs() < 0.01 && (at(1, "location") - 1.31).abs() < 0.01);
    assert!((at(0, "weight") - 0.7).abs() < 1e-6 && (at(1, "weight") - 0.3).abs() < 1e-6);
    assert!(base["bic_over_one_normal"].as_f64().expect("evidence") > 10.0);
    assert_eq!(large["shape"]["head"]["mode_count"], 1);
    assert_eq!(large["unit"], "ms");
    // HEAD (near 1.00 ms) is faster than every BASE run.
    assert_eq!(large["shape"]["p_head_fastest"], 1.0);
    assert!(large["shape"]["mixture_fit"].is_null());
    let kinds: Vec<&str> = large["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(|w| w["kind"].as_str().expect("kind"))
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "shape").count(),
        2,
        "{kinds:?}"
    );
    let coarse = &benchmark(&json, "tick/coarse")["shape"]["base"];
    assert_eq!(coarse["modelled"], false);
    assert_eq!(
        coarse["reason"],
        "too few distinct values to model the shape"
    );
    assert!(coarse["modes"].as_array().expect("modes").is_empty());
}

#[test]
fn mixture_fit_adds_the_parametric_cross_checks() {
    let (json, _) = compare(&["--mixture-fit"]);
    let check = &benchmark(&json, "parse/large")["shape"]["mixture_fit"];
    assert_eq!(check["replicates"], 200);
    // The mixtures overlap only in their normal tails: Î2 is close to the sample's Ĩ3 = 1.
    assert!(check["p_head_faster"].as_f64().expect("p") > 0.99);
    for p in check["ks_fit_p_values"].as_array().expect("p-values") {
        let p = p.as_f64().expect("p-value");
        assert!(
            (0.0..=1.0).contains(&p) && ((p * 200.0) - (p * 200.0).round()).abs() < 1e-9,
            "{p}"
        );
    }
    // Seeded: the same p-values on a second run.
    let (again, _) = compare(&["--mixture-fit"]);
    assert_eq!(
        again["benchmarks"][0]["shape"]["mixture_fit"],
        json["benchmarks"][0]["shape"]["mixture_fit"]
    );
    // A side that could not be modelled has no cross-check.
    assert!(benchmark(&json, "tick/coarse")["shape"]["mixture_fit"].is_null());
}

/// A real A/A comparison of base64 0.22.1 (the same commit on both sides, `calibrate/run.sh --cases aa`, 20
/// process runs per side, each linked in its own code layout), kept as the JSON report it wrote: its runs
/// travel with it, and `merge` analyses them again.
const REAL_AA: &str = "fixtures/shape/base64-aa.json";

#[test]
fn real_runs_in_two_layout_states_are_multimodal_on_both_sides_and_not_a_changed_shape() {
    // BASE's 20 run values of `encode_small_input/encode/3072`, sorted (ns): 1446-1468 (11 runs), then a
    // gap of 3 %, 1511-1564 (9 runs).
    let output = run(&["merge", REAL_AA, "--fail-on", "none", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    let encode = benchmark(&json, "encode_small_input/encode/3072");
    let messages: Vec<&str> = encode["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter(|w| w["kind"] == "shape")
        .filter_map(|w| w["message"].as_str())
        .collect();
    assert!(
        messages.iter().any(|m| m.starts_with(
            "BASE of `encode_small_input/encode/3072` has 2 modes: 1.45 µs (55 %) and 1.52 µs (45 %)"
        )),
        "{messages:?}"
    );
    // HEAD shows the same two states (15 and 5 runs): the same code, not a changed shape.
    assert!(
        !messages.iter().any(|m| m.contains("altered the shape")),
        "{messages:?}"
    );
}
