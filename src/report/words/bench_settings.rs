//! What the bench files' own settings cost, in words (`docs/replication.md` §3, "Bench files that set
//! their own times"): the note projecting the plan's runs before the first look, the warning of a rewrite
//! of the bench files' `measurement_time`, `warm_up_time` and `sample_size` calls, and the warning of runs
//! measured longer than requested after it. The measuring stage (`measure/prepare/bench_settings/tell.rs`)
//! finds the calls, projects the lengths and fills in the causes below with their numbers and names; only
//! this file words them.
//!
//! Lengths read as a person writes them ([`seconds`]: `0.25 s`, `3.5 s`, `84 s`, `28 min`); a list of
//! calls names at most [`LISTED`] of them, then how many more (the last one by name when one is left).
//!
//! Must not: compute a length or decide whether to tell (the measuring stage does), or read back a text
//! it made.

use std::path::PathBuf;

/// The most calls listed by file and line in one warning.
const LISTED: usize = 6;

/// The argument of a setting call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SetTo {
    /// A literal duration, in seconds.
    Seconds(f64),
    /// A literal sample count.
    Count(f64),
    /// Anything but a literal (a variable, an expression).
    Expression,
}

/// One call of a setting method in a bench file: `benches/x.rs:12 measurement_time(3 s)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SettingCall {
    /// The file, relative to the tree's root.
    pub file: PathBuf,
    /// The line of the method's name, from 1.
    pub line: usize,
    /// The method's name in Rust (`measurement_time`).
    pub method: &'static str,
    pub value: SetTo,
}

/// The plan's runs before the first look, when they may outlast plain `cargo bench` runs or the budget.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Projection {
    /// The runs' time at the cap, in seconds.
    pub at_most_secs: f64,
    pub revisions: usize,
    /// Runs per revision at most.
    pub max_runs: u32,
    pub benchmarks: usize,
    /// One run of one benchmark, in seconds (the mean over the plan's targets).
    pub per_run_secs: f64,
    /// One plain `cargo bench` run per revision, in seconds.
    pub plain_secs: f64,
    /// `--budget` in seconds, when the runs at the cap may exceed it.
    pub over_budget_secs: Option<f64>,
    /// The runs' time up to the first look, in seconds.
    pub first_look_secs: f64,
}

/// The bench files' overriding calls were rewritten to the requested length.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rewrite {
    /// The calls, sorted by file, line and method, without repeats.
    pub calls: Vec<SettingCall>,
    pub warm_up_secs: f64,
    pub measurement_secs: f64,
    pub sample_size: u32,
    /// What the plan's runs at the cap would take with the calls kept, and take as rewritten (seconds),
    /// when every kept call is a literal.
    pub kept_cost: Option<(f64, f64)>,
}

/// Why the bench files' settings were kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// `--keep-bench-settings`.
    ByFlag,
    /// Rewriting was asked, but the working tree is outside git and cannot be copied as git sees it.
    WorkingTreeOutsideGit,
}

/// Where the length of the long runs comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LongCause {
    /// The bench files' calls, kept.
    Kept { why: Kept, calls: Vec<SettingCall> },
    /// The bench files' calls, which the rewrite did not reach.
    NotReached { calls: Vec<SettingCall> },
    /// No call was found.
    NotFound,
}

/// After the first look: runs measured more than twice the requested time because a bench file set it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LongRuns {
    /// The benchmarks measured long.
    pub long: usize,
    /// The benchmarks measured.
    pub measured: usize,
    /// The long ones' median measurement per run, in seconds.
    pub median_secs: f64,
    /// The requested measurement time, in seconds.
    pub requested_secs: f64,
    pub cause: LongCause,
    /// The plan's runs at this length, at the cap, in seconds.
    pub at_most_secs: f64,
    pub revisions: usize,
    pub max_runs: u32,
    /// One run of one benchmark at this length, warm-up included, in seconds.
    pub per_run_secs: f64,
    /// One plain `cargo bench` run per revision, in seconds.
    pub plain_secs: f64,
    /// `--keep-bench-settings` was given: the choices then begin with leaving it out.
    pub keep_flag: bool,
}

/// The note of a [`Projection`], `note: ` included.
pub(crate) fn projection_note(p: &Projection) -> String {
    let budget = p
        .over_budget_secs
        .map(|b| format!(" and more than --budget ({})", seconds(b)))
        .unwrap_or_default();
    format!(
        "note: this plan's runs may take up to {} ({} revisions x {} runs x {} benchmarks x {} per run), \
         more than {} plain `cargo bench` runs (about {}){budget}; the first look comes after {}",
        seconds(p.at_most_secs),
        p.revisions,
        p.max_runs,
        p.benchmarks,
        seconds(p.per_run_secs),
        p.revisions,
        seconds(p.plain_secs),
        seconds(p.first_look_secs),
    )
}

/// The warning of a [`Rewrite`].
pub(crate) fn rewrite_warning(r: &Rewrite) -> String {
    let cost = match r.kept_cost {
        Some((kept, at_most)) => format!(
            "; kept, they would make this plan's runs take up to {} instead of {}",
            seconds(kept),
            seconds(at_most)
        ),
        None => String::new(),
    };
    format!(
        "the bench files set criterion's run length themselves, which criterion lets override the \
         command line: {}; cargo speedup rewrote these calls to the requested {} warm-up, {} \
         measurement and {} samples in its own copies of the revisions, identically on every \
         side (your files are untouched), so that a run takes about {} per benchmark{cost}; \
         `--keep-bench-settings` keeps them",
        listed(&r.calls),
        seconds(r.warm_up_secs),
        seconds(r.measurement_secs),
        r.sample_size,
        seconds(r.warm_up_secs + r.measurement_secs),
    )
}

/// The warning of [`LongRuns`].
pub(crate) fn long_runs_warning(l: &LongRuns) -> String {
    let cause = match &l.cause {
        LongCause::Kept { why, calls } => format!(
            "the bench files set their own run length, kept{} ({})",
            match why {
                Kept::WorkingTreeOutsideGit =>
                    " because the working tree is not in a git repository".to_string(),
                Kept::ByFlag => " with --keep-bench-settings".to_string(),
            },
            listed(calls)
        ),
        LongCause::NotReached { calls } => format!(
            "the bench files set their own run length in a way the rewrite did not reach ({})",
            listed(calls)
        ),
        LongCause::NotFound => "the bench files set their own run length where cargo speedup does not \
                                find it (it rewrites the `measurement_time(`, `warm_up_time(` and \
                                `sample_size(` calls of the bench targets' files and of their `mod` files)"
            .to_string(),
    };
    let choices = if l.keep_flag {
        "leave out --keep-bench-settings and cargo speedup rewrites them to the requested length in its \
         own copies of the revisions; or bound the comparison with --fixed --runs N or --budget"
    } else {
        "remove the settings from the bench files (a `criterion_group!` config is overridden by the \
         command line, a benchmark group's is not), or bound the comparison with --fixed --runs N or \
         --budget"
    };
    // The plain runs are estimated from the listed benchmarks; a plan that listed none has no estimate
    // (an empty sum is -0).
    let plain = match l.plain_secs > 0.0 {
        true => format!(
            ", where {} plain `cargo bench` runs take about {}",
            l.revisions,
            seconds(l.plain_secs)
        ),
        false => String::new(),
    };
    format!(
        "{} of {} benchmarks measured {} per run (median), more than twice the requested {}: {cause}; \
         at this length the plan's runs take up to {} ({} revisions x {} runs x {} benchmarks x {} per \
         run, warm-up included){plain}; {choices}",
        l.long,
        l.measured,
        seconds(l.median_secs),
        seconds(l.requested_secs),
        seconds(l.at_most_secs),
        l.revisions,
        l.max_runs,
        l.measured,
        seconds(l.per_run_secs),
    )
}

/// `benches/x.rs:12 measurement_time(3 s), ...`: at most [`LISTED`] calls, then how many more; when only
/// one more is left, that one by name.
fn listed(calls: &[SettingCall]) -> String {
    let shown = if calls.len() == LISTED + 1 {
        calls.len()
    } else {
        LISTED
    };
    let mut words: Vec<String> = calls
        .iter()
        .take(shown)
        .map(|c| {
            let value = match c.value {
                SetTo::Expression => "...".to_string(),
                SetTo::Count(n) => format!("{n}"),
                SetTo::Seconds(secs) => seconds(secs),
            };
            format!("{}:{} {}({value})", c.file.display(), c.line, c.method)
        })
        .collect();
    if calls.len() > shown {
        words.push(format!("and {} more", calls.len() - shown));
    }
    words.join(", ")
}

/// Seconds as a person reads them: `0.25 s`, `3.5 s`, `84 s`, `28 min` (from 2 minutes on).
fn seconds(secs: f64) -> String {
    if secs >= 120.0 {
        return format!("{:.0} min", secs / 60.0);
    }
    let text = if secs < 1.0 {
        format!("{secs:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else if secs < 10.0 {
        format!("{secs:.1}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        format!("{secs:.0}")
    };
    format!("{text} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(line: usize) -> SettingCall {
        SettingCall {
            file: PathBuf::from("benches/b.rs"),
            line,
            method: "sample_size",
            value: SetTo::Count(20.0),
        }
    }

    #[test]
    fn a_list_names_six_calls_then_counts_the_rest_but_names_a_last_one_left() {
        let calls = |n: usize| (1..=n).map(call).collect::<Vec<_>>();
        assert_eq!(
            listed(&calls(2)),
            "benches/b.rs:1 sample_size(20), benches/b.rs:2 sample_size(20)"
        );
        let seven = listed(&calls(7));
        assert!(seven.ends_with("benches/b.rs:7 sample_size(20)"), "{seven}");
        assert!(!seven.contains("more"), "{seven}");
        let eight = listed(&calls(8));
        assert!(
            eight.ends_with("benches/b.rs:6 sample_size(20), and 2 more"),
            "{eight}"
        );
        assert!(!eight.contains(":7 "), "{eight}");
    }

    #[test]
    fn values_read_as_seconds_counts_or_dots() {
        let with = |value| {
            listed(&[SettingCall {
                method: "warm_up_time",
                value,
                ..call(3)
            }])
        };
        assert_eq!(
            with(SetTo::Seconds(0.5)),
            "benches/b.rs:3 warm_up_time(0.5 s)"
        );
        assert_eq!(with(SetTo::Count(50.0)), "benches/b.rs:3 warm_up_time(50)");
        assert_eq!(with(SetTo::Expression), "benches/b.rs:3 warm_up_time(...)");
    }

    #[test]
    fn seconds_read_as_a_person_writes_them() {
        assert_eq!(seconds(0.25), "0.25 s");
        assert_eq!(seconds(0.1), "0.1 s");
        assert_eq!(seconds(3.0), "3 s");
        assert_eq!(seconds(3.5), "3.5 s");
        assert_eq!(seconds(84.4), "84 s");
        assert_eq!(seconds(1680.0), "28 min");
    }
}
