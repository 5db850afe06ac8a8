//! The mean and median protocols against R on 300 random BASE/HEAD pairs and 5 hand-made ones
//! (`fixtures/r/protocol_random.R`, written to `fixtures/oracle/protocol_random.json`).
//!
//! The R script draws, with a fixed seed, pairs of many shapes (normal, lognormal, exponential, gamma,
//! uniform, Student t, Pareto-like and bimodal laws; HEAD shifted and/or scaled to be faster, slower or equal,
//! or drawn from another law), small (3..30) and large (31..200) sizes, mostly n ≠ m, over half of them
//! rounded to few digits so that they have ties. Five more pairs have an exact Wilcoxon p-value equal to a
//! grid risk (0.35, 0.20, 0.10, 0.05), where the searched level rests on p ≤ α holding with equality. It takes
//! every statistic from R's own tests (`shapiro.test`, `var.test`, `t.test`, `ks.test` on median-centred
//! samples, `wilcox.test` with its defaults) and rebuilds the decisions from the pseudo-code of
//! `docs/speedup-test.md` §2, §3 and §5 without looking at this crate.
//!
//! Each case is checked at the fixed levels 0.95 and 0.99 (both directions) and by the level search
//! (0.99 .. 0.51, "faster" only, every test at the searched α): the decision, its direction, the searched
//! level, the t-test method, the reported p-value, whether the median test is inconclusive, and the exact
//! text of every warning kept. Every p-value agrees with R within 1e-9 relative, except two that R itself
//! computes with an absolute error (the decisions never depend on it: they compare p with α ≥ 0.01):
//! - `var.test` takes the upper tail of F as one minus the lower tail, so its tiny p-values carry an absolute
//!   error up to ~2e-16 (0 for p below 1e-16). We compare with R's `var.test` within 1e-15 absolute, and
//!   within 1e-9 relative with the two tails of R's `pf` each computed directly (`variance_p_direct`).
//! - `ks.test` likewise loses ~1e-13 absolute on exact p-values, and on asymptotic ones (n·m ≥ 10000) it
//!   truncates Kolmogorov's series for λ < 1 (up to ~4e-5, `stats::ks`). We compare with R's `ks.test`
//!   within 1e-12 absolute (exact) or 5e-5 absolute (asymptotic), and within 1e-9 relative with the script's
//!   own reference (`ks_p_direct`): the exact permutation p counted as a sum of positive terms, or the
//!   Kolmogorov series summed to convergence.
//!
//! Constant samples are not drawn: R's `shapiro.test` and `t.test` stop on them, where the protocol
//! reports the test as not applicable (`docs/speedup-test.md` §9); those cases are tested beside each protocol.

use super::{Level, mean_test, median_test};
use crate::protocol::{Direction, MeanTest, MedianTest, TMethod};
use crate::testutil::oracle;
use serde_json::Value;

/// Relative tolerance on every p-value.
const P_TOLERANCE: f64 = 1e-9;

struct Check<'a> {
    case: &'a str,
    failures: Vec<String>,
}

impl Check<'_> {
    fn equal<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, actual: T, expected: T) {
        if actual != expected {
            self.failures.push(format!(
                "{}: {what}: Rust {actual:?}, R {expected:?}",
                self.case
            ));
        }
    }

    /// `actual` within [`P_TOLERANCE`] relative or `tolerance` absolute of `expected`.
    fn near(&mut self, what: &str, actual: Option<f64>, expected: f64, tolerance: f64) {
        let bound = tolerance.max(P_TOLERANCE * expected.abs());
        match actual {
            Some(a) if (a - expected).abs() <= bound => {}
            _ => self.failures.push(format!(
                "{}: {what}: Rust {actual:?}, R {expected:e} (more than {tolerance:e} apart)",
                self.case
            )),
        }
    }

    fn close(&mut self, what: &str, actual: Option<f64>, expected: f64) {
        let Some(actual) = actual else {
            self.failures
                .push(format!("{}: {what}: Rust none, R {expected:e}", self.case));
            return;
        };
        let error = (actual - expected).abs() / expected.abs().max(f64::MIN_POSITIVE);
        if actual != expected && error > P_TOLERANCE {
            self.failures.push(format!(
                "{}: {what}: Rust {actual:.17e}, R {expected:.17e} (relative error {error:.2e})",
                self.case
            ));
        }
    }
}

fn direction(v: &Value) -> Option<Direction> {
    match v.as_str() {
        Some("faster") => Some(Direction::Faster),
        Some("slower") => Some(Direction::Slower),
        _ => None,
    }
}

fn method(v: &Value) -> Option<TMethod> {
    match v.as_str() {
        Some("student") => Some(TMethod::Student),
        Some("welch") => Some(TMethod::Welch),
        _ => None,
    }
}

fn messages(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// What both protocols report, taken from either result.
struct Decision<'a> {
    direction: Option<Direction>,
    significant: bool,
    level: Option<f64>,
    p_value: Option<f64>,
    warnings: &'a [crate::protocol::Warning],
}

/// Compares the decision both protocols share with R's record `r`.
fn check_decision(c: &mut Check, what: &str, t: Decision<'_>, r: &Value, searched: bool) {
    let expected = if searched {
        r["level"].as_f64().map(|_| Direction::Faster)
    } else {
        direction(&r["direction"])
    };
    c.equal(&format!("{what} direction"), t.direction, expected);
    c.equal(
        &format!("{what} significant"),
        t.significant,
        expected.is_some(),
    );
    c.equal(&format!("{what} level"), t.level, r["level"].as_f64());
    c.close(&format!("{what} p"), t.p_value, oracle::number(&r["p"]));
    let actual: Vec<String> = t
        .warnings
        .iter()
        .map(crate::report::words::paper_message)
        .collect();
    c.equal(
        &format!("{what} warnings"),
        actual,
        messages(&r["warnings"]),
    );
}

fn check_mean(c: &mut Check, what: &str, t: &MeanTest, r: &Value, searched: bool) {
    let decision = Decision {
        direction: t.direction,
        significant: t.significant,
        level: t.confidence_level,
        p_value: t.p_value,
        warnings: &t.warnings,
    };
    check_decision(c, what, decision, r, searched);
    c.equal(&format!("{what} method"), t.method, method(&r["method"]));
}

fn check_median(c: &mut Check, what: &str, t: &MedianTest, r: &Value, searched: bool) {
    let decision = Decision {
        direction: t.direction,
        significant: t.significant,
        level: t.confidence_level,
        p_value: t.p_value,
        warnings: &t.warnings,
    };
    check_decision(c, what, decision, r, searched);
    c.equal(
        &format!("{what} inconclusive"),
        Some(t.inconclusive),
        r["inconclusive"].as_bool(),
    );
}

/// How often R's outcome `key` of a protocol record equals `value` over all cases.
fn count(cases: &serde_json::Map<String, Value>, record: &str, key: &str, value: &Value) -> usize {
    cases.values().filter(|r| &r[record][key] == value).count()
}

#[test]
fn the_random_pairs_cover_every_branch_of_both_protocols() {
    // The agreement below means something only if R's outcomes take every value the protocols can give.
    let all = oracle::load("protocol_random");
    let cases = all.as_object().expect("an object of cases");
    for record in ["mean_95", "mean_99", "median_95", "median_99"] {
        for d in ["faster", "slower"] {
            let n = count(cases, record, "direction", &Value::from(d));
            assert!(n >= 30, "{record}: only {n} cases {d}");
        }
        let none = count(cases, record, "direction", &Value::Null);
        assert!(
            none >= 30,
            "{record}: only {none} cases without a direction"
        );
    }
    for record in ["mean_search", "median_search"] {
        let found = cases.len() - count(cases, record, "level", &Value::Null);
        assert!((30..cases.len() - 30).contains(&found), "{record}: {found}");
    }
    for method in ["student", "welch"] {
        let n = count(cases, "mean_95", "method", &Value::from(method));
        assert!(n >= 30, "{method}: {n}");
    }
    let inconclusive = count(cases, "median_95", "inconclusive", &Value::Bool(true));
    assert!(inconclusive >= 20, "{inconclusive} inconclusive");
    let exact = cases
        .values()
        .filter(|r| r["rank_sum_exact"] == Value::Bool(true))
        .count();
    assert!((20..cases.len() - 20).contains(&exact), "{exact} exact");
    let warned = |start: &str| {
        cases
            .values()
            .filter(|r| {
                ["mean_95", "median_95"].iter().any(|k| {
                    messages(&r[*k]["warnings"])
                        .iter()
                        .any(|m| m.contains(start))
                })
            })
            .count()
    };
    for text in [
        "too small for applying the Student",
        "data are not normally distributed",
        "too small for applying the Wilcoxon",
        "do not fit the location shift model",
    ] {
        assert!(warned(text) >= 10, "{text}: {}", warned(text));
    }
}

#[test]
fn both_protocols_agree_with_r_on_305_pairs() {
    let all = oracle::load("protocol_random");
    let cases = all.as_object().expect("an object of cases");
    assert_eq!(cases.len(), 305);
    let mut failures = Vec::new();
    for (name, r) in cases {
        let (x, y) = (oracle::numbers(&r["x"]), oracle::numbers(&r["y"]));
        let mut c = Check {
            case: name,
            failures: Vec::new(),
        };

        let mean = mean_test(&x, &y, Level::Fixed(0.95));
        let sw = oracle::numbers(&r["shapiro_p"]);
        c.close("shapiro p base", mean.shapiro_p_values.base, sw[0]);
        c.close("shapiro p head", mean.shapiro_p_values.head, sw[1]);
        let f_direct = oracle::number(&r["variance_p_direct"]);
        c.close("F p (direct tails)", mean.variance_p_value, f_direct);
        c.near(
            "F p",
            mean.variance_p_value,
            oracle::number(&r["variance_p"]),
            1e-15,
        );
        check_mean(&mut c, "mean 0.95", &mean, &r["mean_95"], false);
        let mean = mean_test(&x, &y, Level::Fixed(0.99));
        check_mean(&mut c, "mean 0.99", &mean, &r["mean_99"], false);
        let mean = mean_test(&x, &y, Level::Search);
        check_mean(&mut c, "mean search", &mean, &r["mean_search"], true);

        let median = median_test(&x, &y, Level::Fixed(0.95));
        let ks_direct = oracle::number(&r["ks_p_direct"]);
        c.close("KS p (direct)", median.ks_p_value, ks_direct);
        let asymptotic = x.len() * y.len() >= 10_000;
        let ks_tolerance = if asymptotic { 5e-5 } else { 1e-12 };
        c.near(
            "KS p",
            median.ks_p_value,
            oracle::number(&r["ks_p"]),
            ks_tolerance,
        );
        check_median(&mut c, "median 0.95", &median, &r["median_95"], false);
        let median = median_test(&x, &y, Level::Fixed(0.99));
        check_median(&mut c, "median 0.99", &median, &r["median_99"], false);
        let median = median_test(&x, &y, Level::Search);
        check_median(&mut c, "median search", &median, &r["median_search"], true);
        failures.extend(c.failures);
    }
    assert!(
        failures.is_empty(),
        "{} disagreements with R:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
