//! The message of an input whose every benchmark was left out ([`super::SourceError::NothingUsable`]):
//! the file, what happened to its benchmarks (`every benchmark in FILE was skipped`), the first few of
//! them with their reasons, and a hint for the commonest reason. Must not: decide what is left out (the
//! readers do).

use crate::model::coverage::{LeftOut, Reason};

/// How many benchmarks the message names before `and N more`.
const NAMED: usize = 5;

/// `FILE: no usable benchmark: every benchmark in FILE was skipped: `a` (message), `b`` with its hint.
pub(super) fn message(path: &str, left_out: &[LeftOut]) -> String {
    let first = left_out.first().map(|l| kind(&l.reason));
    let same = left_out.iter().all(|l| Some(kind(&l.reason)) == first);
    let (what, hint) = match first.filter(|_| same) {
        Some(kind) => (kind.what(), kind.hint()),
        None => ("was unusable", Kind::NoValue.hint()),
    };
    let mut items: Vec<String> = left_out
        .iter()
        .take(NAMED)
        .map(|l| {
            let detail = detail(&l.reason);
            match (same, detail) {
                (true, None) => format!("`{}`", l.name),
                (true, Some(d)) => format!("`{}` ({d})", l.name),
                (false, d) => format!(
                    "`{}` ({}{})",
                    l.name,
                    kind(&l.reason).label(),
                    d.map(|d| format!(": {d}")).unwrap_or_default()
                ),
            }
        })
        .collect();
    if left_out.len() > NAMED {
        items.push(format!("and {} more", left_out.len() - NAMED));
    }
    format!(
        "{path}: no usable benchmark: every benchmark in {path} {what}: {}\nhint: {hint}",
        items.join(", ")
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Skipped,
    Errored,
    Failed,
    BelowResolution,
    NoValue,
    Other,
}

fn kind(reason: &Reason) -> Kind {
    match reason {
        Reason::Skipped { .. } => Kind::Skipped,
        Reason::Errored { .. } => Kind::Errored,
        Reason::Failed { .. } => Kind::Failed,
        Reason::BelowResolution { .. } => Kind::BelowResolution,
        Reason::NoValue { .. } => Kind::NoValue,
        _ => Kind::Other,
    }
}

impl Kind {
    /// What happened to every benchmark of an input, after "every benchmark in FILE".
    fn what(self) -> &'static str {
        match self {
            Kind::Skipped => "was skipped by its harness",
            Kind::Errored => "was reported as an error by its harness",
            Kind::Failed => "failed in every run",
            Kind::BelowResolution => "was printed as 0, below its harness's resolution",
            Kind::NoValue => "had no usable value",
            Kind::Other => "was unusable",
        }
    }

    /// What happened to one benchmark, in a list of several reasons.
    fn label(self) -> &'static str {
        match self {
            Kind::Skipped => "skipped",
            Kind::Errored => "errored",
            Kind::Failed => "failed",
            Kind::BelowResolution => "below the resolution",
            Kind::NoValue => "no usable value",
            Kind::Other => "unusable",
        }
    }

    fn hint(self) -> &'static str {
        match self {
            Kind::Skipped => {
                "the harness skipped every benchmark (Google Benchmark's `SkipWithMessage`): run them \
                 where they are not skipped"
            }
            Kind::Errored => "fix the error the harness reports for each, then run them again",
            Kind::Failed => "fix what makes the runs fail, then run them again",
            Kind::BelowResolution => {
                "a time printed as `0 ns/iter` is below the harness's resolution of 1 ns: give each \
                 iteration more work, or compare criterion's own files (`target/criterion`), whose \
                 samples keep fractions of a nanosecond"
            }
            Kind::NoValue | Kind::Other => {
                "every time is a finite number greater than zero, within 1e-100 to 1e100 ns: check the \
                 unit and the values of these benchmarks"
            }
        }
    }
}

/// The reason's own detail, when it has one.
fn detail(reason: &Reason) -> Option<String> {
    match reason {
        Reason::Skipped { message } => message.clone().filter(|m| !m.trim().is_empty()),
        Reason::Errored { message } => Some(message.clone()),
        Reason::Failed {
            failed,
            runs,
            exit_codes,
            message,
        } => {
            let codes: Vec<String> = exit_codes
                .iter()
                .map(|c| c.map_or("a signal".to_string(), |c| c.to_string()))
                .collect();
            let mut text = format!("{failed} of {runs} runs failed");
            if !codes.is_empty() {
                text.push_str(&format!(", exit codes {}", codes.join(", ")));
            }
            if !message.trim().is_empty() {
                text.push_str(&format!(": {message}"));
            }
            Some(text)
        }
        Reason::BelowResolution { printed } => Some(format!("printed `{printed}`")),
        Reason::NoValue { detail } => Some(detail.clone()),
        Reason::NeedsFeatures { missing } => Some(format!("needs features {}", missing.join(", "))),
        Reason::BuildFailed { message } => Some(message.clone()),
        Reason::Excluded { option } => Some(format!("excluded by {option}")),
        Reason::OnlyAtThisSide => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_reason_is_said_once_and_the_list_is_cut_after_five() {
        let skipped: Vec<LeftOut> = (1..=7)
            .map(|i| {
                LeftOut::benchmark(
                    format!("b{i}"),
                    None,
                    Reason::Skipped {
                        message: (i == 1).then(|| "no GPU".to_string()),
                    },
                )
            })
            .collect();
        let text = message("g.json", &skipped);
        assert!(
            text.starts_with(
                "g.json: no usable benchmark: every benchmark in g.json was skipped by its harness: \
                 `b1` (no GPU), `b2`, `b3`, `b4`, `b5`, and 2 more\nhint: the harness skipped"
            ),
            "{text}"
        );
    }

    #[test]
    fn mixed_reasons_name_each() {
        let left_out = vec![
            LeftOut::benchmark(
                "run",
                None,
                Reason::Failed {
                    failed: 3,
                    runs: 3,
                    exit_codes: vec![Some(1), None],
                    message: String::new(),
                },
            ),
            LeftOut::benchmark(
                "x",
                None,
                Reason::BelowResolution {
                    printed: "0 ns/iter".into(),
                },
            ),
        ];
        let text = message("f", &left_out);
        assert!(
            text.contains(
                "every benchmark in f was unusable: `run` (failed: 3 of 3 runs failed, exit codes 1, \
                 a signal), `x` (below the resolution: printed `0 ns/iter`)"
            ),
            "{text}"
        );
    }
}
