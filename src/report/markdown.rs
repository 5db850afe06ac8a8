//! The Markdown report, for a GitHub job summary or a pull-request comment: the suite's verdict in one
//! sentence on top, a GitHub-flavoured table with one row per benchmark, the suite's figures as a list, the
//! gate, the warnings folded in a `<details>` block, and the glossary of the terms it printed, folded too
//! (`report::words::glossary`). Each row draws its interval against 1x
//! ([`super::glyph`]) and marks a significant speedup by direction (`🔴` slower, `🟢` faster), so that a
//! regression does not look like an improvement.
//!
//! It carries no ANSI codes whatever the style, and escapes benchmark names so that a `|`, `<` or `*` in a
//! name cannot break the table or inject HTML. The table's columns and cells are those of
//! `report::columns`, exactly as in the terminal table; this file adds only their Markdown.

use std::io::{self, Write};

use super::columns::{Align, Cell, Column, Rows};
use super::disagreement;
use super::format;
use super::where_changed;
use super::words::glossary::{self, Term};
use super::{
    Footnotes, Mood, Render, Style, concerned, gate_note, headline, nothing_compared, suite_facts,
};
use crate::protocol::{Analysis, FailOn};

/// The Markdown report.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MarkdownReport;

impl Render for MarkdownReport {
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
        let mut body = Vec::new();
        report(analysis, style, &mut body)?;
        out.write_all(&body)?;
        let terms = glossary::printed(&String::from_utf8_lossy(&body));
        write_terms(&terms, body.ends_with(b"\n\n"), out)
    }
}

/// The glossary, folded: one line per term the report printed, linked to the page of `docs/` that defines
/// it; nothing when no term was printed.
/// One blank line stands before it, whether or not the report ends with one (`after_blank`).
fn write_terms(terms: &[&Term], after_blank: bool, out: &mut dyn Write) -> io::Result<()> {
    if terms.is_empty() {
        return Ok(());
    }
    if !after_blank {
        writeln!(out)?;
    }
    writeln!(out, "<details><summary>Terms</summary>\n")?;
    for t in terms {
        writeln!(
            out,
            "- **{}**: {} ([{}]({}))",
            escape_text(t.name),
            escape_text(t.meaning),
            t.page,
            t.url()
        )?;
    }
    writeln!(out, "\n</details>")
}

/// The report without its glossary.
fn report(analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let notes = Footnotes::of(analysis, style.verbose);
    write_headline(analysis, out)?;
    if analysis.benchmarks.is_empty() {
        writeln!(out, "{}", nothing_compared(analysis))?;
    } else {
        write_table(analysis, &notes, out)?;
        write_where_changed(analysis, out)?;
        write_disagreements(analysis, out)?;
    }
    for fact in suite_facts(analysis, style.verbose) {
        writeln!(out, "- {}", escape_text(&fact.text))?;
    }
    if style.verbose {
        writeln!(out, "\n{}", gate_text(analysis))?;
    }
    write_warnings(analysis, &notes, out)
}

/// Where each changed instruction count changed ([`where_changed`]), folded under the table (which ends
/// in a blank line): per benchmark, its title and one item per function, names escaped as benchmark names
/// are; nothing when no count changed or no profile says where.
fn write_where_changed(analysis: &Analysis, out: &mut dyn Write) -> io::Result<()> {
    let all = where_changed::of(analysis);
    if all.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "<details><summary>Where the instructions changed</summary>"
    )?;
    for (name, changes) in &all {
        writeln!(
            out,
            "\n{}\n",
            where_changed::title(&format!("**{}**", escape_name(name)))
        )?;
        for change in changes {
            writeln!(
                out,
                "- {}",
                where_changed::line(change, &escape_name(&change.function))
            )?;
        }
    }
    // A blank line after the block, which ends it, so that the list after it is Markdown again.
    writeln!(out, "\n</details>\n")
}

/// Where a benchmark's time and its instruction count disagree ([`disagreement`]), under the table and
/// its folded blocks (which end in a blank line): the title in bold and one item per benchmark, names
/// escaped; nothing when none disagrees.
fn write_disagreements(analysis: &Analysis, out: &mut dyn Write) -> io::Result<()> {
    let all = disagreement::of(analysis);
    if all.is_empty() {
        return Ok(());
    }
    writeln!(out, "**{}**\n", escape_text(disagreement::TITLE))?;
    for d in &all {
        writeln!(
            out,
            "- {}",
            disagreement::line(d, &format!("**{}**", escape_name(&d.benchmark)))
        )?;
    }
    writeln!(out)
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

/// The table ([`super::columns`]); the Notes column (warning numbers) only when some benchmark has a
/// warning.
fn write_table(analysis: &Analysis, notes: &Footnotes<'_>, out: &mut dyn Write) -> io::Result<()> {
    let rows = Rows::new(analysis, notes);
    let columns = rows.columns();
    let headers: Vec<&str> = columns.iter().map(|c| c.header()).collect();
    let aligns: String = columns
        .iter()
        .map(|c| match c.align() {
            Align::Left => ":--|",
            Align::Right => "--:|",
            Align::Centre => ":-:|",
        })
        .collect();
    writeln!(out, "| {} |\n|{aligns}", headers.join(" | "))?;
    for i in 0..analysis.benchmarks.len() {
        let cells: Vec<String> = columns
            .iter()
            .map(|&c| markdown_cell(c, rows.cell(i, c)))
            .collect();
        writeln!(out, "| {} |", cells.join(" | "))?;
    }
    writeln!(out)
}

/// A shared cell in Markdown: the name escaped, the drawing in a code span, the key figure marked and the
/// verdict in bold when significant; figures and words as they are (nothing in them is Markdown).
fn markdown_cell(column: Column, cell: Cell) -> String {
    match column {
        Column::Name => escape_name(&cell.text),
        // In a code span so that the cells keep their width; spaces kept as no-break spaces, which GitHub
        // would otherwise trim at the span's ends.
        Column::Glyph if cell.text != format::MISSING => {
            format!("`{}`", cell.text.replace(' ', "\u{a0}"))
        }
        _ if column.is_key() => mark(emphasise(cell.text, cell.mood), cell.mood),
        Column::MedianTest => emphasise(cell.text, cell.mood),
        _ => cell.text,
    }
}

/// A significant speedup marked by its direction, so that a regression and an improvement differ at a
/// glance and not only by their words: `🔴` slower, `🟢` faster.
fn mark(text: String, mood: Mood) -> String {
    match mood {
        Mood::Bad => format!("🔴 {text}"),
        Mood::Good => format!("🟢 {text}"),
        Mood::Neutral | Mood::Quiet => text,
    }
}

/// Significant results in bold, so that they stand out without colour.
fn emphasise(text: String, mood: Mood) -> String {
    match mood {
        Mood::Good | Mood::Bad => format!("**{text}**"),
        Mood::Neutral | Mood::Quiet => text,
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
        format::percent_value(gate.threshold.pct())
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
