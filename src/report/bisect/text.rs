//! A [`Bisection`] in each format ([`render`]), and the plain ones written here: the table for people,
//! Markdown for pull requests, and CSV with one row per commit of the path. Commit subjects and reasons
//! go through `crate::inert` (the terminal rule, the Markdown rule, the CSV rule).
//!
//! Must not: word a sentence of the summary (that is `bisection.rs`) or decide anything.

use std::io::{self, Write};

use super::bisection::{Bisection, Ending, Measurement, comparison_level};
use super::{html, json};
use crate::inert::{self, csv_text};
use crate::protocol::Verdict;
use crate::protocol::bisect::Step;
use crate::report::csv::quote;
use crate::report::format::{self, finite};
use crate::report::markdown::escape_text;
use crate::report::{Format, Style};

/// Writes `bisection` in `format`.
pub(crate) fn render(
    bisection: &Bisection,
    format: Format,
    style: Style,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Table => table(bisection, style, out),
        Format::Json => json::json(bisection, out),
        Format::Markdown => markdown(bisection, out),
        Format::Csv => csv(bisection, out),
        Format::Html => out.write_all(html::page(bisection).as_bytes()),
        // `app::bisect` refuses them before anything runs.
        Format::Bmf | Format::Gab => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a bisection has no BMF or github-action-benchmark form",
        )),
    }
}

fn step_text(m: &Measurement) -> String {
    let step = m.step.map(Step::as_str).unwrap_or("");
    if m.identical {
        format!("{step} (identical executables)")
    } else {
        step.to_string()
    }
}

fn speedup_text(m: &Measurement) -> String {
    m.speedup.map_or_else(String::new, format::speedup)
}

pub(super) fn table(b: &Bisection, style: Style, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", inert::terminal(&b.summary()))?;
    if let Some(line) = b.named_change_line() {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:>4}  {:<10}  {:<4}  {:>9}  {:<12}  {:<12}  {:<33}  subject",
        "#", "commit", "", "vs GOOD", "verdict", "BAD vs it", "step"
    )?;
    let subject_width = style
        .width
        .map_or(60, |w| usize::from(w).saturating_sub(103).max(20));
    for (i, entry) in b.path.iter().enumerate() {
        let (speedup, verdict, against_bad, step) = match &entry.measured {
            Some(m) => (
                speedup_text(m),
                m.against_good.map_or("", Verdict::as_str),
                m.against_bad.map_or("", Verdict::as_str),
                step_text(m),
            ),
            None => (String::new(), "", "", String::new()),
        };
        writeln!(
            out,
            "{i:>4}  {:<10}  {:<4}  {speedup:>9}  {verdict:<12}  {against_bad:<12}  {step:<33}  {}",
            b.short(i),
            b.role(i),
            inert::cut(&inert::terminal(&entry.subject), subject_width)
        )?;
    }
    for (i, why) in &b.skipped {
        writeln!(
            out,
            "\nskipped {} (commit {i}): {}",
            b.short(*i),
            inert::terminal(why)
        )?;
    }
    writeln!(
        out,
        "\nSearched the first-parent path from GOOD to BAD; each comparison at confidence {} \
         (Bonferroni over {} comparisons), {} made.",
        comparison_level(b.comparison_confidence),
        b.budgeted,
        b.comparisons
    )
}

pub(super) fn markdown(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "### cargo speedup bisect\n")?;
    markdown_body(b, out)
}

/// The Markdown report below its heading.
pub(super) fn markdown_body(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}\n", escape_text(&b.summary()))?;
    if let Some(line) = b.named_change_line() {
        writeln!(out, "{}\n", escape_text(&line))?;
    }
    writeln!(
        out,
        "| # | commit | | speedup vs GOOD | verdict vs GOOD | BAD vs it | step | subject |"
    )?;
    writeln!(out, "|--:|---|---|--:|---|---|---|---|")?;
    for (i, entry) in b.path.iter().enumerate() {
        let cells = entry
            .measured
            .as_ref()
            .map_or((String::new(), "", "", String::new()), |m| {
                (
                    speedup_text(m),
                    m.against_good.map_or("", Verdict::as_str),
                    m.against_bad.map_or("", Verdict::as_str),
                    step_text(m),
                )
            });
        writeln!(
            out,
            "| {i} | `{}` | {} | {} | {} | {} | {} | {} |",
            b.short(i),
            b.role(i),
            cells.0,
            cells.1,
            cells.2,
            cells.3,
            escape_text(&entry.subject)
        )?;
    }
    for (i, why) in &b.skipped {
        writeln!(
            out,
            "\nSkipped `{}` (commit {i}): {}",
            b.short(*i),
            escape_text(why)
        )?;
    }
    writeln!(
        out,
        "\nFirst-parent path from GOOD to BAD; each comparison at confidence {} (Bonferroni over {} \
         comparisons), {} made.",
        comparison_level(b.comparison_confidence),
        b.budgeted,
        b.comparisons
    )
}

pub(super) const CSV_HEADER: &str = "index,sha,role,speedup_vs_good,verdict_vs_good,bad_vs_it,identical,\
                                     step,subject,speedup_vs_parent,speedup_vs_parent_low,\
                                     speedup_vs_parent_high,verdict_vs_parent";

pub(super) fn csv(b: &Bisection, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    csv_rows(b, "", out)
}

/// One CSV row per commit of the path, each after `prefix` (the benchmark's cell and a comma under
/// `--each`, else nothing).
pub(super) fn csv_rows(b: &Bisection, prefix: &str, out: &mut dyn Write) -> io::Result<()> {
    let number = |x: Option<f64>| x.and_then(finite).map_or(String::new(), |s| s.to_string());
    for (i, entry) in b.path.iter().enumerate() {
        let m = entry.measured.as_ref();
        let change = b
            .named_change
            .as_ref()
            .filter(|_| b.ending == Ending::Named(i));
        writeln!(
            out,
            "{prefix}{i},{},{},{},{},{},{},{},{},{},{},{},{}",
            entry.sha,
            b.role(i),
            number(m.and_then(|m| m.speedup)),
            m.and_then(|m| m.against_good).map_or("", Verdict::as_str),
            m.and_then(|m| m.against_bad).map_or("", Verdict::as_str),
            m.is_some_and(|m| m.identical),
            m.and_then(|m| m.step).map_or("", Step::as_str),
            quote(&csv_text(&entry.subject)),
            number(change.and_then(|c| c.speedup)),
            number(change.and_then(|c| c.interval).map(|i| i.0)),
            number(change.and_then(|c| c.interval).map(|i| i.1)),
            change.map_or("", |c| c.verdict.as_str()),
        )?;
    }
    Ok(())
}
