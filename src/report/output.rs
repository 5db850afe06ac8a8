//! What a report is rendered as and how it may look: the `--format` ([`Format`]) with its renderer
//! ([`renderer`], one [`Render`] implementation per format), the `--color` choice and the terminal's width
//! ([`Style`]). Must not: render anything itself (each format's file does).

use std::io::{self, Write};

use super::{bmf, csv, gab, html, json, markdown, table};
use crate::protocol::Analysis;

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
