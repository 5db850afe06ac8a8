//! The Markdown report, for a GitHub job summary or a pull-request comment: the suite's verdict in one
//! sentence on top, a GitHub-flavoured table with one row per benchmark, the suite's figures as a list, the
//! gate, and the warnings folded in a `<details>` block. Each row draws its interval against 1x
//! ([`super::glyph`]) and marks a significant speedup by direction (`🔴` slower, `🟢` faster), so that a
//! regression does not look like an improvement.
//!
//! It carries no ANSI codes whatever the style, and escapes benchmark names so that a `|`, `<` or `*` in a
//! name cannot break the table or inject HTML. Figures are rounded by [`super::format`], exactly as in the
//! terminal table.

use std::io::{self, Write};

use super::format;
use super::glyph::GlyphScale;
use super::{
    Footnotes, Mood, Render, Style, concerned, gate_note, headline, nothing_compared, suite_facts,
};
use crate::protocol::{Analysis, BenchmarkAnalysis, FailOn, Verdict};

/// The Markdown report.
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkdownReport;

impl Render for MarkdownReport {
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
        let notes = Footnotes::of(analysis, style.verbose);
        write_headline(analysis, out)?;
        if analysis.benchmarks.is_empty() {
            writeln!(out, "{}", nothing_compared(analysis))?;
        } else {
            write_table(analysis, &notes, out)?;
        }
        for fact in suite_facts(analysis, style.verbose) {
            writeln!(out, "- {}", escape_text(&fact))?;
        }
        if style.verbose {
            writeln!(out, "\n{}", gate_text(analysis))?;
        }
        write_warnings(analysis, &notes, out)
    }
}

/// The headline ([`headline`]): its first sentence in bold with the gate's or the verdict's mark, the
/// others as a list, what was compared in italics.
fn write_headline(analysis: &Analysis, out: &mut dyn Write) -> io::Result<()> {
    let sentences = headline(analysis);
    for (i, s) in sentences.iter().enumerate() {
        let text = s.render(escape_text, escape_name);
        let mark = match s.mood {
            Mood::Bad => "🔴 ",
            Mood::Good => "🟢 ",
            Mood::Neutral | Mood::Quiet => "",
        };
        if i == 0 {
            writeln!(out, "**{mark}{text}**\n")?;
        } else if i + 1 == sentences.len() && text.starts_with("Compared ") {
            writeln!(out, "\n_{text}_")?;
        } else {
            writeln!(out, "- {mark}{text}")?;
        }
    }
    writeln!(out)
}

const HEADER: &str = "| Benchmark | Base | Head | Speedup (median) | Interval vs 1x | Mean | Mean test | Median test | HPT |";
const ALIGN: &str = "|:--|--:|--:|--:|:-:|--:|:--|:--|:--|";

/// The table; the Notes column (warning numbers) only when some benchmark has a warning.
fn write_table(analysis: &Analysis, notes: &Footnotes<'_>, out: &mut dyn Write) -> io::Result<()> {
    let with_notes = notes.any_marker();
    let (extra, extra_align) = if with_notes {
        (" Notes |", ":--|")
    } else {
        ("", "")
    };
    writeln!(out, "{HEADER}{extra}\n{ALIGN}{extra_align}")?;
    let scale = GlyphScale::of(analysis);
    for (i, b) in analysis.benchmarks.iter().enumerate() {
        let mut cells = row(b, &scale);
        if with_notes {
            cells.push(notes.marker(i));
        }
        writeln!(out, "| {} |", cells.join(" | "))?;
    }
    writeln!(out)
}

fn row(b: &BenchmarkAnalysis, scale: &GlyphScale) -> Vec<String> {
    let unit = super::display_unit(b);
    let speedup = format::speedup_with_interval(b.speedup.median, b.median_test.speedup_interval);
    // In a code span so that the cells keep their width; spaces kept as no-break spaces, which GitHub
    // would otherwise trim at the span's ends.
    let glyph = scale
        .glyph(b.speedup.median, b.median_test.speedup_interval)
        .map_or_else(
            || format::MISSING.to_string(),
            |g| format!("`{}`", g.replace(' ', "\u{a0}")),
        );
    vec![
        escape_name(&b.name),
        format::time(b.base.median, unit),
        format::time(b.head.median, unit),
        mark(emphasise(speedup, b.verdict), b.verdict),
        glyph,
        format::speedup(b.speedup.mean),
        super::mean_text(b),
        emphasise(super::verdict_text(b), b.verdict),
        super::hpt_text(b).to_string(),
    ]
}

/// A significant speedup marked by its direction, so that a regression and an improvement differ at a
/// glance and not only by their words: `🔴` slower, `🟢` faster.
fn mark(text: String, verdict: Verdict) -> String {
    match verdict {
        Verdict::Slower => format!("🔴 {text}"),
        Verdict::Faster => format!("🟢 {text}"),
        Verdict::Unchanged | Verdict::Inconclusive => text,
    }
}

/// Significant results in bold, so that they stand out without colour.
fn emphasise(text: String, verdict: Verdict) -> String {
    match verdict {
        Verdict::Faster | Verdict::Slower => format!("**{text}**"),
        Verdict::Unchanged | Verdict::Inconclusive => text,
    }
}

fn gate_text(analysis: &Analysis) -> String {
    let gate = &analysis.gate;
    if gate.fail_on == FailOn::None {
        return "**Gate:** off (`--fail-on none`).".to_string();
    }
    let head = format!(
        "**Gate** (`--fail-on {}`, threshold {}):",
        gate.fail_on.as_str(),
        format::percent_value(gate.threshold)
    );
    if !gate.failed {
        return match gate_note(analysis) {
            Some(note) => format!("{head} passed; {}.", escape_text(&note)),
            None => format!("{head} passed."),
        };
    }
    let reasons: Vec<String> = gate
        .reasons
        .iter()
        .map(|r| format!("\n- {}", escape_text(&super::words::gate_reason(r))))
        .collect();
    format!("{head} **failed**.\n{}", reasons.concat())
}

fn write_warnings(
    analysis: &Analysis,
    notes: &Footnotes<'_>,
    out: &mut dyn Write,
) -> io::Result<()> {
    if notes.notes.is_empty() {
        return Ok(());
    }
    let count = notes.notes.len();
    let plural = if count == 1 { "" } else { "s" };
    writeln!(
        out,
        "\n<details><summary>{count} warning{plural}</summary>\n"
    )?;
    for (i, note) in notes.notes.iter().enumerate() {
        let scope = concerned(note, analysis.benchmarks.len()).map_or_else(String::new, |names| {
            format!("**{}**: ", escape_name(&names))
        });
        write!(
            out,
            "{}. {scope}{}",
            i + 1,
            escape_text(&note.words.message)
        )?;
        if let Some(hint) = &note.words.hint {
            write!(out, "<br>hint: {}", escape_text(hint))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "\n</details>")
}

/// A benchmark name as literal Markdown text: `crate::inert::markdown_name` (nothing Markdown, HTML or
/// GitHub would act on, hidden characters shown escaped, no line break).
pub(crate) fn escape_name(name: &str) -> String {
    crate::inert::markdown_name(name)
}

/// A message or hint: `crate::inert::markdown_text` (its code spans kept; HTML, table pipes, links,
/// mentions and hidden characters neutralised).
pub(crate) fn escape_text(text: &str) -> String {
    crate::inert::markdown_text(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_break_the_table_or_inject_html() {
        let escaped = escape_name("a|b <script>*x*_y_\n`z`");
        assert_eq!(escaped, "a\\|b &lt;script&gt;\\*x\\*\\_y\\_\\\\n\\`z\\`");
    }

    #[test]
    fn messages_keep_code_spans_but_lose_html() {
        assert_eq!(
            escape_text("use `--rounds 10` <now> | later"),
            "use `--rounds 10` &lt;now> \\| later"
        );
    }
}
