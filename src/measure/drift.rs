//! Did the machine change during a run? One revision's rounds measure the same code, so their samples should
//! come from one distribution; when they do not (a background job, thermal throttling, a frequency change),
//! pooling hides it and the comparison inherits the bias. This module only warns: it never drops a round
//! (paper 000 §2.2 forbids removing observations).
//!
//! Test: the two-sided Wilcoxon–Mann–Whitney rank-sum test ([`crate::stats::rank_sum`], R's `wilcox.test`),
//! H0 "the rounds come from one distribution". With 2 rounds, round 1 against round 2 at alpha 0.01; with
//! N > 2, each round against the others pooled at 0.01 / N (Bonferroni), so that the chance of a false
//! warning per benchmark stays at most 1 %. Rounds of a single observation, or all equal, are not tested.

use crate::model::{Results, Unit};
use crate::stats::describe::median;
use crate::stats::{Alternative, rank_sum::rank_sum};

/// Risk of a false warning per benchmark.
pub const ALPHA: f64 = 0.01;

/// One note per benchmark whose rounds differ, naming the revision, the benchmark and the round.
pub fn notes(origin: &str, rounds: &[Results]) -> Vec<String> {
    let mut names: Vec<&str> = Vec::new();
    for b in rounds.iter().flat_map(|r| &r.benchmarks) {
        if !names.contains(&b.name.as_str()) {
            names.push(&b.name);
        }
    }
    names
        .into_iter()
        .filter_map(|name| {
            let per_round: Vec<&[f64]> = rounds
                .iter()
                .filter_map(|r| r.benchmarks.iter().find(|b| b.name == name))
                .map(|b| b.sample.nanos())
                .collect();
            let (round, p_value) = differing_round(&per_round)?;
            let here = median(per_round.get(round)?).ok()?;
            let elsewhere = median(&others(&per_round, round)).ok()?;
            Some(format!(
                    "{origin}: `{name}` differs between rounds (round {} median {} vs {} in the others; \
                     rank-sum p = {p_value:.2e} < {ALPHA}): the machine's state changed during the run. \
                     hint: close other programs and run again, or raise --rounds",
                    round + 1,
                    readable(here),
                    readable(elsewhere),
                ))
        })
        .collect()
}

/// The first round whose samples differ from the others', with the p-value, if any.
fn differing_round(per_round: &[&[f64]]) -> Option<(usize, f64)> {
    let n = per_round.len();
    if n < 2 {
        return None;
    }
    // Two rounds make one test, reported as the later round moving away from the first.
    let (first, alpha) = if n == 2 {
        (1, ALPHA)
    } else {
        (0, ALPHA / n as f64)
    };
    (first..n).find_map(|round| {
        let rest = others(per_round, round);
        let this = per_round[round];
        if this.len() < 2 || rest.len() < 2 {
            return None;
        }
        let result = rank_sum(this, &rest, Alternative::TwoSided).ok()?;
        (result.p_value < alpha).then_some((round, result.p_value))
    })
}

fn others(per_round: &[&[f64]], round: usize) -> Vec<f64> {
    per_round
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != round)
        .flat_map(|(_, s)| s.iter().copied())
        .collect()
}

/// Four significant digits in the largest unit below the value (`185.5 ns`, `1.204 ms`).
fn readable(nanos: f64) -> String {
    let unit = Unit::readable(nanos);
    let value = nanos / unit.nanos();
    let decimals = match value {
        v if v >= 100.0 => 1,
        v if v >= 10.0 => 2,
        _ => 3,
    };
    format!("{value:.decimals$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Environment, Observation, Sample};

    fn round(values: &[f64]) -> Results {
        Results {
            origin: "round".into(),
            benchmarks: vec![Benchmark {
                name: "parse".into(),
                sample: Sample::new(values.to_vec(), Unit::Ns).unwrap(),
                unit: Unit::Ns,
                observation: Observation::BatchMean,
            }],
            environment: Environment::default(),
            notes: vec![],
        }
    }

    const STEADY: [f64; 10] = [
        100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100.3,
    ];

    #[test]
    fn interleaved_rounds_raise_no_note() {
        let other = [
            100.05, 100.9, 99.1, 100.4, 99.6, 100.25, 99.7, 100.15, 99.95, 100.35,
        ];
        assert!(notes("main", &[round(&STEADY), round(&other)]).is_empty());
    }

    #[test]
    fn a_shifted_round_is_named() {
        // Every value of round 2 is above every value of round 1: exact two-sided p = 2 / C(20, 10);
        // R 4.2.2: wilcox.test(x, x * 1.2)$p.value = 1.082509e-05.
        let shifted: Vec<f64> = STEADY.iter().map(|v| v * 1.2).collect();
        let found = notes("main (abc)", &[round(&STEADY), round(&shifted)]);
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("main (abc): `parse` differs between rounds (round 2"));
        assert!(found[0].contains("p = 1.08e-5"), "{}", found[0]);
        assert!(
            found[0].contains("median 120.1 ns vs 100.0 ns"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn with_three_rounds_the_odd_one_out_is_found() {
        let shifted: Vec<f64> = STEADY.iter().map(|v| v * 1.2).collect();
        let found = notes("m", &[round(&STEADY), round(&STEADY), round(&shifted)]);
        assert_eq!(found.len(), 1);
        assert!(found[0].contains("(round 3 median"), "{}", found[0]);
    }

    #[test]
    fn a_single_round_is_not_tested() {
        assert!(notes("m", &[round(&STEADY)]).is_empty());
    }
}
