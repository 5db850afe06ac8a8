//! What was not compared, in words: each [`LeftOut`]'s reason and its fix (`docs/verdicts.md` §8).
//!
//! The reason is the tool's words; the name, and any message of a compiler or harness it quotes, are a
//! stranger's text that the caller passes to each sink as a name.

use crate::model::Side;
use crate::model::coverage::{Granularity, LeftOut, Reason};

/// "bench target" or "benchmark".
pub(crate) fn granularity(granularity: Granularity) -> &'static str {
    match granularity {
        Granularity::Target => "bench target",
        Granularity::Benchmark => "benchmark",
    }
}

/// Where it was left out: "at HEAD", "at BASE", or nothing for both.
pub(crate) fn side(item: &LeftOut) -> &'static str {
    match item.side {
        Some(Side::Base) => " at BASE",
        Some(Side::Head) => " at HEAD",
        None => "",
    }
}

/// Why it was left out, in a few words, and the quoted text (a harness's or compiler's message) when the
/// reason carries one: `("needs feature heavy", None)`, `("failed 3 of 3 runs (exit 101)", Some("thread
/// 'main' panicked ..."))`.
pub(crate) fn reason(item: &LeftOut) -> (String, Option<String>) {
    match &item.reason {
        Reason::NeedsFeatures { missing } => (
            format!(
                "needs feature{} {}",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            ),
            None,
        ),
        Reason::BuildFailed { message } => ("did not build".into(), first_line(message)),
        Reason::Failed {
            failed,
            runs,
            exit_codes,
            message,
        } => {
            let codes: Vec<String> = exit_codes
                .iter()
                .map(|c| match c {
                    Some(code) => format!("exit {code}"),
                    None => "a signal".into(),
                })
                .collect();
            (
                format!(
                    "failed {failed} of {runs} run{}{}",
                    if *runs == 1 { "" } else { "s" },
                    if codes.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", codes.join(", "))
                    }
                ),
                first_line(message),
            )
        }
        Reason::Skipped { message } => (
            "skipped by its harness".into(),
            message.as_deref().and_then(first_line),
        ),
        Reason::Errored { message } => {
            ("its harness reported an error".into(), first_line(message))
        }
        Reason::BelowResolution { printed } => (
            format!("printed as `{printed}`: below the harness's resolution, not a time"),
            None,
        ),
        Reason::NoValue { detail } => (format!("no usable value ({detail})"), None),
        Reason::Excluded { option } => (format!("excluded by {option}"), None),
        Reason::OnlyAtThisSide => ("a bench target of this revision only".into(), None),
    }
}

/// The fix, when there is one the user can type.
pub(crate) fn fix(item: &LeftOut) -> Option<String> {
    match &item.reason {
        Reason::NeedsFeatures { missing } => Some(format!(
            "`--features {}` or `--all-features` compares it",
            missing.join(",")
        )),
        Reason::Failed { .. } | Reason::BuildFailed { .. } if item.side.is_none() => Some(
            "it fails at both revisions: fix it, or leave it out with `--filter` or `--bench`"
                .into(),
        ),
        Reason::Failed { .. } => Some("`--filter` leaves a benchmark out".into()),
        _ => None,
    }
}

/// The first non-empty line of a message, cut to 160 characters; `None` when it has none.
fn first_line(message: &str) -> Option<String> {
    let line = message.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(if line.chars().count() > 160 {
        let cut: String = line.chars().take(159).collect();
        format!("{cut}…")
    } else {
        line.to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_says_how_many_runs_failed_and_how() {
        let item = LeftOut::benchmark(
            "b",
            Some(Side::Head),
            Reason::Failed {
                failed: 2,
                runs: 3,
                exit_codes: vec![Some(101), None],
                message: "\n  thread 'main' panicked at src/lib.rs:3:5\nmore".into(),
            },
        );
        assert_eq!(
            reason(&item),
            (
                "failed 2 of 3 runs (exit 101, a signal)".to_string(),
                Some("thread 'main' panicked at src/lib.rs:3:5".to_string())
            )
        );
        assert_eq!(side(&item), " at HEAD");
        assert_eq!(
            fix(&item).as_deref(),
            Some("`--filter` leaves a benchmark out")
        );
    }

    #[test]
    fn a_feature_names_the_flags_that_compare_it() {
        let item = LeftOut::target(
            "heavy",
            None,
            Reason::NeedsFeatures {
                missing: vec!["heavy".into(), "simd".into()],
            },
        );
        assert_eq!(reason(&item).0, "needs features heavy, simd");
        assert_eq!(
            fix(&item).as_deref(),
            Some("`--features heavy,simd` or `--all-features` compares it")
        );
        assert_eq!(side(&item), "");
    }
}
