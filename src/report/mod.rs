//! [`crate::protocol::Analysis`] -> bytes: one [`Render`] implementation per output format (hyperfine's one
//! exporter per format), chosen by [`renderer`].
//!
//! Reports only present: they take no decision, compute no statistic and never re-derive a verdict that the
//! analysis carries. All rounding lives in [`mod@format`]; JSON goes through private wire structs carrying
//! `"schema": "cargo-speedup/1"` (`docs/json.md`), never `Serialize` on internal types. Nothing
//! here prints `NaN`: a missing or non-finite value is `null` (JSON), empty (CSV) or `-` (table, Markdown).

pub mod csv;
pub mod format;
pub mod glyph;
pub mod html;
pub mod json;
pub mod markdown;
#[cfg(test)]
mod properties;
pub mod race;
pub mod race_simulation;
#[cfg(test)]
mod sample;
pub mod simulation;
pub mod speeduptest;
mod suite;
pub mod table;

pub(crate) use suite::{gate_note, hpt_sentence};

use std::collections::HashMap;
use std::io::{self, Write};

use crate::protocol::{
    Analysis, BenchmarkAnalysis, Direction, GainSpeedup, Proportion, Verdict, Warning, WarningKind,
};

/// What a report is rendered as (`--format`). Defined here, not in the command line, so that rendering
/// does not depend on how its options are parsed; `cli` re-exports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A table for the terminal
    Table,
    /// The JSON report, for scripts
    Json,
    /// Markdown, for a pull-request comment or a job summary
    Markdown,
    /// One CSV row per benchmark, for spreadsheets
    Csv,
    /// One self-contained page with plots (`report::html`).
    Html,
}

/// Whether the table is coloured (`--color`); `NO_COLOR` counts under `Auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour a terminal, unless NO_COLOR is set or TERM is dumb
    Auto,
    /// Always colour
    Always,
    /// Never colour
    Never,
}

/// How a report may look on the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI colours.
    pub color: bool,
    /// Terminal width in columns, when known.
    pub width: Option<u16>,
}

impl Style {
    /// No colour, no width: for files and pipes.
    pub fn plain() -> Style {
        Style {
            color: false,
            width: None,
        }
    }

    /// The style of a report written to standard output: colour per [`color_enabled`], and the terminal's
    /// width when standard output is a terminal (as comfy-table detects it), else `COLUMNS` when it is set
    /// (a pager or a CI log of known width).
    pub fn for_stdout(choice: ColorChoice) -> Style {
        use std::io::IsTerminal;
        let tty = io::stdout().is_terminal();
        let columns = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse().ok());
        Style {
            color: color_enabled(choice, tty),
            width: if tty {
                comfy_table::Table::new().width().or(columns)
            } else {
                columns
            },
        }
    }
}

/// One output format.
pub trait Render {
    /// Writes `analysis` to `out` in this format, in `style`.
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()>;
}

/// The renderer of one `--format`.
pub fn renderer(format: Format) -> Box<dyn Render> {
    match format {
        Format::Table => Box::new(table::TableReport),
        Format::Json => Box::new(json::JsonReport),
        Format::Markdown => Box::new(markdown::MarkdownReport),
        Format::Csv => Box::new(csv::CsvReport),
        Format::Html => Box::new(html::HtmlReport),
    }
}

/// Whether to colour a report written to a stream: `never` and `always` say it; `auto` colours a terminal
/// unless `NO_COLOR` is set to a non-empty value (<https://no-color.org>) or `TERM` is `dumb`.
pub fn color_enabled(choice: ColorChoice, stream_is_tty: bool) -> bool {
    color_enabled_in(choice, stream_is_tty, |name| {
        std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
    })
}

/// [`color_enabled`] with the environment given as a lookup, so that tests need not touch the process's.
pub fn color_enabled_in(
    choice: ColorChoice,
    stream_is_tty: bool,
    env: impl Fn(&str) -> Option<String>,
) -> bool {
    match choice {
        ColorChoice::Never => false,
        ColorChoice::Always => true,
        ColorChoice::Auto => {
            let no_color = env("NO_COLOR").is_some_and(|v| !v.is_empty());
            let dumb = env("TERM").is_some_and(|t| t == "dumb");
            stream_is_tty && !no_color && !dumb
        }
    }
}

/// A protocol's verdict with the highest confidence level at which it holds: `faster (0.99)`. Only a
/// significant verdict carries a level: beside "unchanged", the level (that of "faster", below
/// `--confidence`) would read as a confidence in "unchanged".
pub(crate) fn verdict_with_level(verdict: Verdict, level: Option<f64>) -> String {
    match (verdict, format::finite_opt(level)) {
        (Verdict::Faster | Verdict::Slower, Some(level)) => {
            format!("{} ({})", verdict.as_str(), format::grid_level(level))
        }
        _ => verdict.as_str().to_string(),
    }
}

/// How HPT's per-benchmark winner reads in a column: faster, slower or tie.
pub(crate) fn hpt_winner(winner: Option<Direction>) -> &'static str {
    winner.map_or("tie", Direction::as_str)
}

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
    }
}

/// Every warning of one benchmark: about the benchmark, then the mean protocol's, then the median's.
pub(crate) fn benchmark_warnings(b: &BenchmarkAnalysis) -> impl Iterator<Item = &Warning> {
    b.warnings
        .iter()
        .chain(&b.mean_test.warnings)
        .chain(&b.median_test.warnings)
}

/// One numbered warning of a human report, printed once with the benchmarks it concerns.
pub(crate) struct Footnote<'a> {
    pub warning: &'a Warning,
    /// Benchmarks raising it; empty for a suite-level warning.
    pub benchmarks: Vec<&'a str>,
}

/// The warnings of a human report: identical warnings are merged into one footnote, numbered from 1 in order
/// of first appearance; `markers[i]` lists the footnote numbers of benchmark `i`.
pub(crate) struct Footnotes<'a> {
    pub notes: Vec<Footnote<'a>>,
    pub markers: Vec<Vec<usize>>,
}

/// What makes two warnings the same footnote.
type NoteKey<'a> = (WarningKind, &'a str, Option<&'a str>);

impl<'a> Footnotes<'a> {
    /// Numbers the warnings of `analysis`; linear in the number of warnings, whatever the suite's size.
    pub fn of(analysis: &'a Analysis) -> Footnotes<'a> {
        let mut notes: Vec<Footnote<'a>> = Vec::new();
        let mut index: HashMap<NoteKey<'a>, usize> = HashMap::new();
        let mut markers = Vec::with_capacity(analysis.benchmarks.len());
        for b in &analysis.benchmarks {
            let mut row: Vec<usize> = Vec::new();
            for w in benchmark_warnings(b) {
                let i = note_index(&mut notes, &mut index, w);
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
        for w in analysis.suite.hpt.warnings.iter().chain(&analysis.warnings) {
            note_index(&mut notes, &mut index, w);
        }
        Footnotes { notes, markers }
    }

    /// Whether any benchmark has a warning, i.e. whether a report needs a column of markers.
    pub fn any_marker(&self) -> bool {
        self.markers.iter().any(|row| !row.is_empty())
    }

    /// The marker text of benchmark `i`: `1,3`.
    pub fn marker(&self, i: usize) -> String {
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
    index: &mut HashMap<NoteKey<'a>, usize>,
    warning: &'a Warning,
) -> usize {
    let key = (
        warning.kind,
        warning.message.as_str(),
        warning.hint.as_deref(),
    );
    *index.entry(key).or_insert_with(|| {
        notes.push(Footnote {
            warning,
            benchmarks: Vec::new(),
        });
        notes.len() - 1
    })
}

/// Every warning of `analysis` once, as plain lines for standard error (README, "Output": warnings also go to
/// stderr whatever the format): `tiny/a, tiny/b: message (hint: ...)`.
pub fn warning_summary(analysis: &Analysis) -> Vec<String> {
    let notes = Footnotes::of(analysis);
    notes
        .notes
        .iter()
        .map(|note| {
            let scope = concerned(note, analysis.benchmarks.len())
                .map_or_else(String::new, |names| format!("{names}: "));
            let hint = note
                .warning
                .hint
                .as_ref()
                .map_or_else(String::new, |h| format!(" (hint: {h})"));
            format!("{scope}{}{hint}", note.warning.message)
        })
        .collect()
}

/// What a per-benchmark verdict risks, so that a reader expects the false ones: faster and slower are each
/// a one-sided claim at risk alpha, so unchanged code gets one of them in about 1 / (2 alpha) benchmarks,
/// while the gate's risk covers the suite (as benchstat warns of its own per-benchmark tests).
fn false_verdicts_sentence(confidence: f64) -> String {
    let alpha = 1.0 - confidence;
    let one_in = (0.5 / alpha).round();
    // 1 - 0.95 is 0.05000000000000004 in binary: shown to six decimals of a percent at most.
    let risk = format::percent_value((alpha * 1e8).round() / 1e6);
    format!(
        "Faster and slower are each claimed at risk {} per benchmark: on unchanged code expect about one \
         such verdict in {one_in} benchmarks; the gate's risk of {} covers the whole suite",
        risk, risk
    )
}

/// What the human reports say in place of the table when no benchmark was compared.
pub(crate) fn nothing_compared(analysis: &Analysis) -> &'static str {
    if analysis.identical.is_empty() {
        "No benchmark is present in both BASE and HEAD."
    } else {
        "Every benchmark is unchanged: BASE and HEAD built identical executables, so none was run."
    }
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

/// HPT's confidence at `--speedup-under-test`, in one sentence without prefix, when it was asked for.
pub(crate) fn gamma_sentence(analysis: &Analysis) -> Option<String> {
    let hpt = &analysis.suite.hpt;
    let gamma = format::finite_opt(hpt.gamma)?;
    let c = format::finite_opt(hpt.gamma_confidence)
        .map_or_else(|| "not computed".to_string(), format::confidence);
    Some(format!(
        "confidence that HEAD is more than {} faster than BASE: {c}",
        format::speedup(gamma)
    ))
}

/// The suite's figures beside HPT's verdict, one sentence each, in the order both human reports print them:
/// HPT at `--speedup-under-test`, the geometric mean (for comparison only), the overall speedups, the
/// proportions of accelerated benchmarks, and the names present on one side only.
pub(crate) fn suite_facts(analysis: &Analysis) -> Vec<String> {
    let mut facts: Vec<String> = gamma_sentence(analysis)
        .map(|s| format!("HPT: {s}"))
        .into_iter()
        .collect();
    if let Some(g) = format::finite_opt(analysis.suite.hpt.geometric_mean_speedup) {
        facts.push(format!(
            "Geometric mean of the median speedups: {} (for comparison only: no confidence attached)",
            format::speedup(g)
        ));
    }
    if let Some(o) = &analysis.suite.overall {
        let part = |name: &str, g: &GainSpeedup| {
            let (s, gain) = (format::speedup(g.speedup), format::percent(g.gain));
            format!("{name} {s} (gain {gain})")
        };
        facts.push(format!(
            "Overall speedup of the total times: {}, {}, {}",
            part("median", &o.median),
            part("mean", &o.mean),
            part("min", &o.min)
        ));
    }
    if let Some(p) = &analysis.suite.proportion {
        let c = format::level(analysis.confidence);
        facts.push(proportion_text("median", &p.median, &c));
        facts.push(proportion_text("mean", &p.mean, &c));
    }
    if let (true, Some(c)) = (
        analysis.benchmarks.len() > 1,
        format::finite_opt(Some(analysis.confidence)).filter(|c| (0.0..1.0).contains(c)),
    ) {
        facts.push(false_verdicts_sentence(c));
    }
    if analysis.looks > 1 {
        let risk = 100.0 * (1.0 - analysis.confidence) / f64::from(analysis.looks);
        facts.push(format!(
            "Each benchmark ran until decided (up to {} looks, each deciding at risk {risk:.2}%, so that \
             looking repeatedly adds no error); the JSON gives each benchmark's runs",
            analysis.looks
        ));
    }
    if !analysis.identical.is_empty() {
        facts.push(format!(
            "Unchanged, not run (BASE and HEAD built identical executables): {}",
            analysis.identical.join(", ")
        ));
    }
    for (side, names) in [("BASE", &analysis.base_only), ("HEAD", &analysis.head_only)] {
        if !names.is_empty() {
            facts.push(format!(
                "Only in {side}, not compared: {}",
                names.join(", ")
            ));
        }
    }
    facts
}

/// The proportion of accelerated benchmarks with its interval and its caveats (paper 000 §5).
fn proportion_text(protocol: &str, p: &Proportion, confidence: &str) -> String {
    let mut text = format!(
        "Accelerated benchmarks ({protocol} protocol): {}/{}, {confidence} interval [{}, {}]",
        p.accelerated,
        p.total,
        format::percent(p.lower),
        format::percent(p.upper)
    );
    if !p.valid {
        text.push_str(
            "; too few benchmarks for this interval to be accurate (its normal approximation needs \
             a(1 − a/b) > 5)",
        );
    }
    if let Some(b) = p.minimal_benchmarks {
        text.push_str(&format!(
            "; {b} benchmarks would estimate the proportion within ±{}",
            format::percent_value((p.precision * 1e6).round() / 1e4)
        ));
    }
    text
}

#[cfg(test)]
mod tests;
