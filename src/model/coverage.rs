//! What a comparison did not compare, and why: the coverage every report states
//! (`docs/verdicts.md` §8).
//!
//! A comparison is only as true as what it covers. Every bench target and every benchmark that exists at
//! either side is either compared (a [`super::Pair`], or unchanged by construction: identical executables)
//! or listed here as [`LeftOut`], with the side it concerns and the reason, which the reports word with the
//! fix (`report::words`). Readers put here the rows of an input they cannot use (a benchmark the harness
//! skipped, a time printed as 0 below the harness's resolution, a command whose runs all failed), so that
//! one bad benchmark is one note and the rest is compared; the measuring commands put here the bench
//! targets cargo would skip without a word (`required-features`), the ones that do not build or panic at
//! one revision, and the benchmarks a `--filter`, `--bench` or `--partition` excluded.
//!
//! Names present at one side only are [`super::Suite::base_only`] and [`super::Suite::head_only`] (the
//! "unmatched" of the JSON contract), not repeated here.
//!
//! Data only: no I/O and no sentence a person reads.

use super::Side;

/// What was left out: a whole bench target (cargo's `[[bench]]`), or one benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Granularity {
    /// A bench target: every benchmark it holds.
    Target,
    /// One benchmark (a row of a results file, a benchmark a harness listed).
    Benchmark,
}

/// Why something was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// A bench target whose `required-features` are not enabled: cargo skips it without a word. The fix is
    /// `--features` with these, or `--all-features`.
    NeedsFeatures {
        /// The features it requires and the comparison did not enable, as `Cargo.toml` names them.
        missing: Vec<String>,
    },
    /// The bench target did not build at this side; the first lines of the compiler's message.
    BuildFailed {
        /// The compiler's first lines, as printed (a stranger's text: inert at every sink).
        message: String,
    },
    /// The benchmark's process failed (a panic, a signal) at this side.
    Failed {
        /// How many of its runs failed, of how many started.
        failed: usize,
        /// Runs started.
        runs: usize,
        /// The distinct exit codes seen (`None`: ended by a signal), in order of first sight; empty when the
        /// input does not give them (libtest's `FAILED`, Go's `--- FAIL:`).
        exit_codes: Vec<Option<i32>>,
        /// The first lines of the message of the first failure; empty when the input gives none.
        message: String,
    },
    /// The harness skipped it (Google Benchmark's `SkipWithMessage`, `"skipped": true`), with its message.
    Skipped {
        /// The harness's message, when it gave one.
        message: Option<String>,
    },
    /// The harness reports an error for it (Google Benchmark's `error_occurred`, `error_message`).
    Errored {
        /// The harness's message.
        message: String,
    },
    /// Its time was printed as 0 by a harness that rounds to whole units (`0 ns/iter` in the bencher and
    /// libtest formats): below the harness's resolution, not a time.
    BelowResolution {
        /// The value as printed, `0 ns/iter`.
        printed: String,
    },
    /// The input names it but gives no usable value (no sample, a value that is not a finite positive time).
    NoValue {
        /// What was wrong, in the reader's words (data: worded as given).
        detail: String,
    },
    /// Excluded by an option of the command (`--filter`, `--bench`, `--partition`, `--exclude`).
    Excluded {
        /// The option, `--filter`.
        option: String,
    },
    /// The bench target exists at this side only (the [`LeftOut::side`] that has it): the other revision
    /// has no target of that name, so there is nothing to compare it with. Its benchmarks, when it ran,
    /// are that side's own names (`Suite::base_only`, `Suite::head_only`). Not a failure to measure
    /// ([`LeftOut::is_unmeasured`]): a bench target added at HEAD is measured there.
    OnlyAtThisSide,
}

/// One thing not compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    /// The bench target's or benchmark's name, as the input or `Cargo.toml` spells it.
    pub name: String,
    /// A bench target or one benchmark.
    pub granularity: Granularity,
    /// The side it concerns; `None` when both (a target that needs a feature at both revisions, a filter).
    pub side: Option<Side>,
    /// Why it was not compared.
    pub reason: Reason,
}

impl LeftOut {
    /// One benchmark left out at `side` for `reason`.
    pub fn benchmark(name: impl Into<String>, side: Option<Side>, reason: Reason) -> LeftOut {
        LeftOut {
            name: name.into(),
            granularity: Granularity::Benchmark,
            side,
            reason,
        }
    }

    /// One bench target left out at `side` for `reason`.
    pub fn target(name: impl Into<String>, side: Option<Side>, reason: Reason) -> LeftOut {
        LeftOut {
            name: name.into(),
            granularity: Granularity::Target,
            side,
            reason,
        }
    }

    /// Whether it concerns HEAD (alone or with BASE): something HEAD could not show, which the gate
    /// counts as not covered.
    pub fn concerns_head(&self) -> bool {
        self.side != Some(Side::Base)
    }

    /// Whether the comparison failed to measure it, rather than being told to leave it out or having
    /// nothing to compare it with: everything but [`Reason::Excluded`] and [`Reason::OnlyAtThisSide`].
    pub fn is_unmeasured(&self) -> bool {
        !matches!(
            self.reason,
            Reason::Excluded { .. } | Reason::OnlyAtThisSide
        )
    }
}

/// Joins the left-out lists of BASE and HEAD: each item gets its side, and an item left out for the same
/// reason at both sides is listed once with no side. The order is BASE's items, then HEAD's own.
pub fn join(base: Vec<LeftOut>, head: Vec<LeftOut>) -> Vec<LeftOut> {
    let mut joined: Vec<LeftOut> = base
        .into_iter()
        .map(|item| LeftOut {
            side: item.side.or(Some(Side::Base)),
            ..item
        })
        .collect();
    for item in head {
        let item = LeftOut {
            side: item.side.or(Some(Side::Head)),
            ..item
        };
        let same = joined.iter_mut().find(|b| {
            b.name == item.name
                && b.granularity == item.granularity
                && b.reason == item.reason
                && b.side == Some(Side::Base)
        });
        match same {
            Some(b) => b.side = None,
            None => joined.push(item),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_lists_an_item_of_both_sides_once_and_keeps_each_sides_own() {
        let skipped = || Reason::Skipped { message: None };
        let base = vec![
            LeftOut::benchmark("a", None, skipped()),
            LeftOut::benchmark("b", None, skipped()),
        ];
        let head = vec![
            LeftOut::benchmark("a", None, skipped()),
            LeftOut::benchmark(
                "b",
                None,
                Reason::Errored {
                    message: "x".into(),
                },
            ),
        ];
        let joined = join(base, head);
        let sides: Vec<(&str, Option<Side>)> =
            joined.iter().map(|l| (l.name.as_str(), l.side)).collect();
        assert_eq!(
            sides,
            [
                ("a", None),
                ("b", Some(Side::Base)),
                ("b", Some(Side::Head))
            ]
        );
        assert!(joined[0].concerns_head());
        assert!(!joined[1].concerns_head());
        assert!(joined[2].concerns_head());
    }

    #[test]
    fn only_an_option_excludes_without_a_failure_to_measure() {
        let excluded = LeftOut::target(
            "heavy",
            None,
            Reason::Excluded {
                option: "--bench".into(),
            },
        );
        assert!(!excluded.is_unmeasured());
        let needs = LeftOut::target(
            "heavy",
            None,
            Reason::NeedsFeatures {
                missing: vec!["heavy".into()],
            },
        );
        assert!(needs.is_unmeasured());
        let added = LeftOut::target("new", Some(Side::Head), Reason::OnlyAtThisSide);
        assert!(added.concerns_head() && !added.is_unmeasured());
    }
}
