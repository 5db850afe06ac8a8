//! [`crate::protocol::Analysis`] -> bytes: one [`Render`] implementation per output format (hyperfine's one
//! exporter per format), chosen by [`renderer`]. The per-benchmark table of every format (its columns,
//! headers and cells) is defined once, in `columns`.
//!
//! Every warning, gate reason and hint is worded here, in `words.rs`, from the cause the protocol recorded.
//!
//! Reports only present: they take no decision, compute no statistic and never re-derive a verdict that the
//! analysis carries. All rounding lives in [`mod@format`]; JSON goes through private wire structs carrying
//! `"schema": "cargo-speedup/1"` (`docs/json.md`), never `Serialize` on internal types. Nothing
//! here prints `NaN`: a missing or non-finite value is `null` (JSON), empty (CSV) or `-` (table, Markdown).

pub(crate) mod bisect;
pub(crate) mod bmf;
mod columns;
pub(crate) mod csv;
mod footnotes;
pub(crate) mod format;
pub(crate) mod gab;
pub(crate) mod glyph;
mod headline;
#[cfg(test)]
mod hostile_tests;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod markdown;
#[cfg(test)]
mod property_tests;
pub(crate) mod race;
pub(crate) mod simulation;
pub(crate) mod speeduptest_sh;
mod suite;
pub(crate) mod table;
pub(crate) mod words;

pub(crate) use footnotes::{Footnotes, concerned, warning_kind_name, warnings_of};
pub(crate) use format::utc_minute;
pub(crate) use headline::{Mood, headline, ruled_out_pct};
pub(crate) use headline::{shown, stderr_summary};
pub(crate) use suite::{gate_note, nothing_compared, suite_facts};

use std::io::{self, Write};

use crate::protocol::{Analysis, Direction, MeanTest, Verdict};

/// What a report is rendered as (`--format`). Defined here, not in the command line, so that rendering
/// does not depend on how its options are parsed; `cli` re-exports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// A table for the terminal
    Table,
    /// The JSON report, for scripts
    Json,
    /// Markdown, for a pull-request comment or a job summary
    Markdown,
    /// One CSV row per benchmark, for spreadsheets
    Csv,
    /// One self-contained page with plots, to open in a browser
    Html,
    /// Bencher Metric Format JSON: HEAD's values per benchmark, for Bencher
    Bmf,
    /// github-action-benchmark's customSmallerIsBetter JSON: HEAD's values, for its charts
    Gab,
}

/// Whether the table is coloured (`--color`); `NO_COLOR` counts under `Auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour a terminal, unless NO_COLOR is set or TERM is dumb
    Auto,
    /// Always colour
    Always,
    /// Never colour
    Never,
}

/// How a report may look on the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Style {
    /// Use ANSI colours.
    pub color: bool,
    /// Terminal width in columns, when known.
    pub width: Option<u16>,
    /// `--verbose`: the human reports also show the warnings that are details (`Warning::detail`) and the
    /// suite's secondary figures.
    pub verbose: bool,
}

impl Style {
    /// No colour, no width: for files and pipes.
    pub(crate) fn plain() -> Style {
        Style {
            color: false,
            width: None,
            verbose: false,
        }
    }

    /// The style of a report written to standard output: colour per [`color_enabled`], and the terminal's
    /// width when standard output is a terminal (as comfy-table detects it), else `COLUMNS` when it is set
    /// (a pager or a CI log of known width).
    pub(crate) fn for_stdout(choice: ColorChoice) -> Style {
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
            verbose: false,
        }
    }
}

/// One output format.
pub(crate) trait Render {
    /// Writes `analysis` to `out` in this format, in `style`.
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()>;
}

/// The renderer of one `--format`.
pub(crate) fn renderer(format: Format) -> Box<dyn Render> {
    match format {
        Format::Table => Box::new(table::TableReport),
        Format::Json => Box::new(json::JsonReport),
        Format::Markdown => Box::new(markdown::MarkdownReport),
        Format::Csv => Box::new(csv::CsvReport),
        Format::Html => Box::new(html::HtmlReport),
        Format::Bmf => Box::new(bmf::BmfReport),
        Format::Gab => Box::new(gab::GabReport),
    }
}

/// Whether to colour a report written to a stream: `never` and `always` say it; `auto` colours a terminal
/// unless `NO_COLOR` is set to a non-empty value (<https://no-color.org>) or `TERM` is `dumb`.
pub(crate) fn color_enabled(choice: ColorChoice, stream_is_tty: bool) -> bool {
    color_enabled_in(choice, stream_is_tty, |name| {
        std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
    })
}

/// [`color_enabled`] with the environment given as a lookup, so that tests need not touch the process's.
pub(crate) fn color_enabled_in(
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

/// How a count of a deterministic measurement changed, compared exactly: `exact: +2.30 % instructions`,
/// `exact: no change in instructions`; `None` for a benchmark that was tested ([`Basis::Deterministic`]
/// only).
pub(crate) fn exact_change(b: &crate::protocol::BenchmarkAnalysis) -> Option<String> {
    if b.basis != crate::model::Basis::Deterministic {
        return None;
    }
    let unit = b.unit.as_str();
    let change = (b.head.median / b.base.median - 1.0) * 100.0;
    Some(match format::finite(change) {
        Some(0.0) => format!("exact: no change in {unit}"),
        Some(c) => {
            let sign = if c > 0.0 { '+' } else { '-' };
            format!("exact: {sign}{} % {unit}", format::significant(c.abs(), 3))
        }
        None => format!("exact: {unit} not comparable"),
    })
}

/// The unit a benchmark's row shows its values in: a count's own unit, else the readable time unit of the
/// smaller median ([`format::row_unit`]).
pub(crate) fn display_unit(b: &crate::protocol::BenchmarkAnalysis) -> crate::model::Unit {
    if b.unit.is_count() {
        b.unit
    } else {
        format::row_unit(b.base.median, b.head.median)
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

/// The mean protocol's result in a column: `faster (0.99)`, `no difference` when its t-test applied and
/// found none (never "unchanged", which only an equivalence shows), else `inconclusive`.
pub(crate) fn mean_test_text(test: &MeanTest) -> String {
    if test.found_no_difference() {
        NO_DIFFERENCE.to_string()
    } else {
        verdict_with_level(test.verdict(), test.confidence_level)
    }
}

/// What a test that found no difference says (`docs/verdicts.md` §1): the same word as a verdict that shows
/// neither a difference nor equivalence, since that is what such a test shows.
pub(crate) const NO_DIFFERENCE: &str = "inconclusive";

/// How HPT's per-benchmark winner reads in a column: faster, slower or, where its test finds no
/// difference, inconclusive (paper 003's "tie": one word per outcome in every report).
pub(crate) fn hpt_winner(winner: Option<Direction>) -> &'static str {
    winner.map_or(NO_DIFFERENCE, Direction::as_str)
}

#[cfg(test)]
mod tests;
