//! The warnings of a human report as numbered footnotes: identical warnings merged, each printed once with
//! the benchmarks it concerns, and each benchmark's row marked with the numbers of its own. Also the
//! warnings' names of the JSON and CSV contract.

use std::collections::HashMap;

use super::words::{self, Words};
use crate::protocol::{Analysis, BenchmarkAnalysis, Remedy, Warning, WarningKind};

/// The contract's snake_case name of a warning kind (JSON, CSV).
pub(crate) fn warning_kind_name(kind: WarningKind) -> &'static str {
    match kind {
        WarningKind::TooFewSamples => "too_few_samples",
        WarningKind::NotNormal => "not_normal",
        WarningKind::NotLocationShift => "not_location_shift",
        WarningKind::NoConfidenceLevel => "no_confidence_level",
        WarningKind::ProtocolsDisagree => "protocols_disagree",
        WarningKind::Inapplicable => "inapplicable",
        WarningKind::OneProcess => "one_process",
        WarningKind::UnequalSizes => "unequal_sizes",
        WarningKind::Unmatched => "unmatched",
        WarningKind::EnvironmentDiffers => "environment_differs",
        WarningKind::Suite => "suite",
        WarningKind::Input => "input",
        WarningKind::Undecided => "undecided",
        WarningKind::Shape => "shape",
        WarningKind::Exact => "exact",
    }
}

/// Every warning of one benchmark: about the benchmark, then the mean protocol's, then the median's.
pub(crate) fn warnings_of(b: &BenchmarkAnalysis) -> impl Iterator<Item = &Warning> {
    b.warnings
        .iter()
        .chain(&b.mean_test.warnings)
        .chain(&b.median_test.warnings)
}

/// One numbered warning of a human report, printed once with the benchmarks it concerns.
pub(crate) struct Footnote<'a> {
    /// The warning in words ([`words::ours`]).
    pub words: Words,
    /// Benchmarks raising it; empty for a suite-level warning.
    pub benchmarks: Vec<&'a str>,
}

/// The warnings of a human report: identical warnings are merged into one footnote, numbered from 1 in order
/// of first appearance; `markers[i]` lists the footnote numbers of benchmark `i`.
pub(crate) struct Footnotes<'a> {
    pub notes: Vec<Footnote<'a>>,
    pub markers: Vec<Vec<usize>>,
}

/// What makes two warnings the same footnote: their kind and words.
type NoteKey = (WarningKind, Words);

impl<'a> Footnotes<'a> {
    /// Numbers the warnings of `analysis` that a person should read: every one with `verbose`, else those
    /// that are not details ([`Warning::detail`]); linear in the number of warnings, whatever the suite's
    /// size.
    pub(crate) fn of(analysis: &'a Analysis, verbose: bool) -> Footnotes<'a> {
        let shown = |w: &&Warning| verbose || !w.detail;
        let mut notes: Vec<Footnote<'a>> = Vec::new();
        let mut index: HashMap<NoteKey, usize> = HashMap::new();
        let mut markers = Vec::with_capacity(analysis.benchmarks.len());
        for b in &analysis.benchmarks {
            let mut row: Vec<usize> = Vec::new();
            for w in warnings_of(b).filter(shown) {
                let i = note_index(&mut notes, &mut index, w, analysis.remedy);
                // A benchmark's warnings come together, so a repeat can only be the last name.
                if notes[i].benchmarks.last() != Some(&b.name.as_str()) {
                    notes[i].benchmarks.push(&b.name);
                }
                if !row.contains(&(i + 1)) {
                    row.push(i + 1);
                }
            }
            row.sort_unstable();
            markers.push(row);
        }
        for w in analysis
            .suite
            .hpt
            .warnings
            .iter()
            .chain(&analysis.warnings)
            .filter(shown)
        {
            note_index(&mut notes, &mut index, w, analysis.remedy);
        }
        Footnotes { notes, markers }
    }

    /// Whether any benchmark has a warning, i.e. whether a report needs a column of markers.
    pub(crate) fn any_marker(&self) -> bool {
        self.markers.iter().any(|row| !row.is_empty())
    }

    /// The marker text of benchmark `i`: `1,3`.
    pub(crate) fn marker(&self, i: usize) -> String {
        self.markers.get(i).map_or_else(String::new, |row| {
            row.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        })
    }
}

fn note_index<'a>(
    notes: &mut Vec<Footnote<'a>>,
    index: &mut HashMap<NoteKey, usize>,
    warning: &Warning,
    remedy: Remedy,
) -> usize {
    let words = words::ours(warning, remedy);
    *index
        .entry((warning.kind, words.clone()))
        .or_insert_with(|| {
            notes.push(Footnote {
                words,
                benchmarks: Vec::new(),
            });
            notes.len() - 1
        })
}

/// Which benchmarks a footnote concerns, in words: `parse/a, parse/b`, `all 12 benchmarks`, or the first
/// three and how many more.
pub(crate) fn concerned(note: &Footnote<'_>, total: usize) -> Option<String> {
    let names = &note.benchmarks;
    match names.len() {
        0 => None,
        n if n == total && n > 3 => Some(format!("all {n} benchmarks")),
        n if n > 5 => Some(format!("{} and {} more", names[..3].join(", "), n - 3)),
        _ => Some(names.join(", ")),
    }
}
