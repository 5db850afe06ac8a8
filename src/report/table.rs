//! The default report, for a person at a terminal (README, "Output" and "What it computes"): a table with one row
//! per benchmark, then the suite's lines (HPT, geometric mean, overall gain and speedup, proportion of
//! accelerated benchmarks, unmatched names), the warnings in full and the gate.
//!
//! It only presents: every figure comes from the [`Analysis`] and is rounded by [`super::format`]. Colours
//! (green faster, red slower, dim unchanged) appear only when [`Style::color`] says so. Without a width
//! nothing is wrapped. With [`Style::width`], the table (comfy-table, borderless columns like critcmp's) is
//! fitted to it, wrapping cells at spaces and keeping times and, when there is room, speedup intervals whole;
//! when even that cannot fit, each benchmark is printed as a short block of lines instead. Every other line is
//! word-wrapped, so that no line is wider than the width. Times are printed per row in the readable unit of
//! the smaller median (the analysis' own unit may be nanoseconds for a second-long benchmark).

use std::io::{self, Write};

use comfy_table::{
    Attribute, Cell, CellAlignment, Color, ColumnConstraint, ContentArrangement, LineStyle, Table,
    TableStyle, Width,
};

use super::format;
use super::{
    Footnotes, Render, Style, concerned, hpt_sentence, hpt_winner, mean_verdict, nothing_compared,
    suite_facts, verdict_with_level,
};
use crate::protocol::{Analysis, BenchmarkAnalysis, Direction, FailOn, Verdict};

/// The terminal table.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableReport;

impl Render for TableReport {
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
        let notes = Footnotes::of(analysis);
        let mut lines = Vec::new();
        if analysis.benchmarks.is_empty() {
            lines.push(line(nothing_compared(analysis)));
        } else if let Some(table) = benchmark_table(analysis, &notes, style) {
            writeln!(out, "{}", table.trim_fmt())?;
        } else {
            lines.extend(benchmark_list(analysis, &notes));
        }
        lines.push(line(""));
        lines.extend(summary_lines(analysis));
        lines.extend(warning_lines(analysis, &notes));
        lines.extend(gate_lines(analysis));
        for line in lines {
            for piece in format::wrap(&line.text, style.width) {
                writeln!(out, "{}", paint(&piece, line.tone, style.color))?;
            }
        }
        Ok(())
    }
}

/// How a line or cell is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tone {
    Plain,
    Good,
    Bad,
    Quiet,
}

impl Tone {
    fn of(verdict: Verdict) -> Tone {
        match verdict {
            Verdict::Faster => Tone::Good,
            Verdict::Slower => Tone::Bad,
            Verdict::Unchanged => Tone::Quiet,
            Verdict::Inconclusive => Tone::Plain,
        }
    }

    fn of_direction(direction: Option<Direction>) -> Tone {
        direction.map_or(Tone::Quiet, |d| Tone::of(d.into()))
    }
}

/// One line under the table, before wrapping.
struct Line {
    text: String,
    tone: Tone,
}

fn line(text: impl Into<String>) -> Line {
    Line {
        text: text.into(),
        tone: Tone::Plain,
    }
}

fn paint(text: &str, tone: Tone, color: bool) -> String {
    let code = match tone {
        _ if !color || text.is_empty() => return text.to_string(),
        Tone::Plain => return text.to_string(),
        Tone::Good => "32",
        Tone::Bad => "31",
        Tone::Quiet => "2",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// One cell before layout: its text, its colour, and whether it may break at spaces (a time may not).
struct Text {
    text: String,
    tone: Tone,
    breaks: bool,
    /// The width of a part best kept on one line (a speedup's interval), when there is room.
    keep: usize,
}

fn text(text: impl Into<String>, tone: Tone) -> Text {
    Text {
        text: text.into(),
        tone,
        breaks: true,
        keep: 0,
    }
}

fn unbroken(text: impl Into<String>) -> Text {
    Text {
        text: text.into(),
        tone: Tone::Plain,
        breaks: false,
        keep: 0,
    }
}

impl Text {
    /// The narrowest the cell can be without cutting a word, or without breaking its `keep` part when
    /// `preferred`.
    fn min_width(&self, preferred: bool) -> usize {
        let words = self.word_width();
        if preferred {
            words.max(self.keep)
        } else {
            words
        }
    }

    fn word_width(&self) -> usize {
        let words: Box<dyn Iterator<Item = &str>> = if self.breaks {
            Box::new(self.text.split(' '))
        } else {
            Box::new(std::iter::once(self.text.as_str()))
        };
        words.map(|w| w.chars().count()).max().unwrap_or(0)
    }

    fn into_cell(self, style: Style) -> Cell {
        let mut cell = Cell::new(self.text);
        if !self.breaks {
            cell = cell.set_delimiter('\u{0}');
        }
        match self.tone {
            _ if !style.color => cell,
            Tone::Plain => cell,
            Tone::Good => cell.fg(Color::Green),
            Tone::Bad => cell.fg(Color::Red),
            Tone::Quiet => cell.add_attribute(Attribute::Dim),
        }
    }
}

const HEADER: [&str; 9] = [
    "Benchmark",
    "Base",
    "Head",
    "Speedup (median)",
    "Mean",
    "Mean test",
    "Median test",
    "HPT",
    "Notes",
];

/// Columns are separated by this many spaces; the table has no vertical borders.
const GAP: u16 = 2;

/// A name column narrower than this may wrap rather than squeeze the figures.
const NAME_MIN: usize = 24;

/// Only a line under the header: the columns read like `critcmp`'s, and leave room for the figures.
const LAYOUT: TableStyle = TableStyle::new().header_separator(LineStyle::none().fill('─'));

/// The benchmarks as a table, or `None` when the width cannot hold it without cutting words.
fn benchmark_table(analysis: &Analysis, notes: &Footnotes<'_>, style: Style) -> Option<Table> {
    let with_notes = notes.any_marker();
    let columns = if with_notes {
        HEADER.len()
    } else {
        HEADER.len() - 1
    };
    let rows: Vec<Vec<Text>> = analysis
        .benchmarks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut row = benchmark_row(b);
            if with_notes {
                row.push(unbroken(notes.marker(i)));
            }
            row
        })
        .collect();
    let mut table = Table::new();
    table.load_style(LAYOUT).force_no_tty();
    if style.color {
        table.enforce_styling();
    }
    table.set_header(&HEADER[..columns]);
    let tiers = [true, false].map(|preferred| min_widths(&rows, columns, preferred));
    for row in rows {
        table.add_row(
            row.into_iter()
                .map(|t| t.into_cell(style))
                .collect::<Vec<_>>(),
        );
    }
    arrange(&mut table, &tiers, style.width).then_some(table)
}

/// The narrowest each column can be without cutting a word (the name column at most [`NAME_MIN`]); when
/// `preferred`, also without breaking the parts best kept whole.
fn min_widths(rows: &[Vec<Text>], columns: usize, preferred: bool) -> Vec<usize> {
    (0..columns)
        .map(|c| {
            let header = HEADER[c]
                .split(' ')
                .map(|w| w.chars().count())
                .max()
                .unwrap_or(0);
            let cells = rows
                .iter()
                .filter_map(|r| r.get(c))
                .map(|t| t.min_width(preferred));
            let widest = cells.fold(header, usize::max);
            if c == 0 { widest.min(NAME_MIN) } else { widest }
        })
        .collect()
}

/// Alignment, gaps and width: with a known width the table is fitted to it, under the first tier of
/// minimum widths that fits; false when none fits.
fn arrange(table: &mut Table, tiers: &[Vec<usize>], width: Option<u16>) -> bool {
    let last = tiers.first().map_or(0, |t| t.len().saturating_sub(1));
    for (i, column) in table.column_iter_mut().enumerate() {
        column.set_padding((0, if i == last { 0 } else { GAP }));
        if (1..=4).contains(&i) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let Some(width) = width else {
        table.set_content_arrangement(ContentArrangement::Disabled);
        return true;
    };
    table
        .set_width(width)
        .set_content_arrangement(ContentArrangement::Dynamic);
    let fits =
        |m: &&Vec<usize>| m.iter().sum::<usize>() + usize::from(GAP) * last <= usize::from(width);
    let Some(minimums) = tiers.iter().find(fits) else {
        return false;
    };
    // comfy-table's lower boundary includes the column's padding.
    let bounds = minimums.iter().enumerate().map(|(i, &m)| {
        let padded = m + if i == last { 0 } else { usize::from(GAP) };
        ColumnConstraint::LowerBoundary(Width::Fixed(u16::try_from(padded).unwrap_or(u16::MAX)))
    });
    table.set_constraints(bounds);
    true
}

/// The benchmarks as a list, for a terminal too narrow for the table: one block per benchmark with the
/// same figures as the table's row.
fn benchmark_list(analysis: &Analysis, notes: &Footnotes<'_>) -> Vec<Line> {
    let mut lines = Vec::new();
    for (i, b) in analysis.benchmarks.iter().enumerate() {
        let cells = benchmark_row(b);
        let marker = notes.marker(i);
        let name = if marker.is_empty() {
            b.name.clone()
        } else {
            format!("{} [{marker}]", b.name)
        };
        lines.push(line(name));
        lines.push(line(format!(
            "    base {}, head {}",
            cells[1].text, cells[2].text
        )));
        lines.push(Line {
            text: format!(
                "    speedup (median) {}, mean {}",
                cells[3].text, cells[4].text
            ),
            tone: cells[3].tone,
        });
        lines.push(Line {
            text: format!(
                "    mean test {}, median test {}, HPT {}",
                cells[5].text, cells[6].text, cells[7].text
            ),
            tone: cells[6].tone,
        });
    }
    lines
}

fn benchmark_row(b: &BenchmarkAnalysis) -> Vec<Text> {
    let unit = format::row_unit(b.base.median, b.head.median);
    let verdict = Tone::of(b.verdict);
    let mean = mean_verdict(&b.mean_test);
    let interval = b.median_test.speedup_interval;
    let mut speedup = text(
        format::speedup_with_interval(b.speedup.median, interval),
        verdict,
    );
    speedup.keep = speedup
        .text
        .find('[')
        .map_or(0, |i| speedup.text[i..].chars().count());
    vec![
        text(b.name.as_str(), Tone::Plain),
        unbroken(format::time(b.base.median, unit)),
        unbroken(format::time(b.head.median, unit)),
        text(
            format::speedup_with_interval(b.speedup.median, interval),
            verdict,
        ),
        unbroken(format::speedup(b.speedup.mean)),
        text(
            protocol_text(mean, b.mean_test.confidence_level),
            Tone::of(mean),
        ),
        text(
            protocol_text(b.verdict, b.median_test.confidence_level),
            verdict,
        ),
        text(hpt_winner(b.hpt.winner), Tone::of_direction(b.hpt.winner)),
    ]
}

/// A protocol's verdict with the confidence level of paper 000's search: `faster (0.99)`.
fn protocol_text(verdict: Verdict, level: Option<f64>) -> String {
    verdict_with_level(verdict, level)
}

fn summary_lines(analysis: &Analysis) -> Vec<Line> {
    let mut lines = vec![Line {
        text: format!("HPT: {}", hpt_sentence(analysis)),
        tone: Tone::of(analysis.verdict),
    }];
    lines.extend(suite_facts(analysis).into_iter().map(line));
    lines
}

fn warning_lines(analysis: &Analysis, notes: &Footnotes<'_>) -> Vec<Line> {
    if notes.notes.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![line(""), line("Warnings:")];
    for (i, note) in notes.notes.iter().enumerate() {
        let scope = concerned(note, analysis.benchmarks.len())
            .map_or_else(String::new, |names| format!("{names}: "));
        lines.push(line(format!("[{}] {scope}{}", i + 1, note.warning.message)));
        if let Some(hint) = &note.warning.hint {
            lines.push(line(format!("    hint: {hint}")));
        }
    }
    lines
}

fn gate_lines(analysis: &Analysis) -> Vec<Line> {
    let gate = &analysis.gate;
    if gate.fail_on == FailOn::None {
        return vec![line(""), line("Gate: off (--fail-on none)")];
    }
    let head = format!(
        "Gate (--fail-on {}, threshold {}): ",
        gate.fail_on.as_str(),
        format::percent_value(gate.threshold)
    );
    let mut lines = vec![line("")];
    if gate.failed {
        lines.push(Line {
            text: format!("{head}FAILED"),
            tone: Tone::Bad,
        });
        lines.extend(gate.reasons.iter().map(|r| line(format!("  - {r}"))));
    } else {
        lines.push(line(format!("{head}passed")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paint_only_when_colour_is_on() {
        assert_eq!(paint("x", Tone::Good, false), "x");
        assert_eq!(paint("x", Tone::Good, true), "\x1b[32mx\x1b[0m");
        assert_eq!(paint("x", Tone::Bad, true), "\x1b[31mx\x1b[0m");
        assert_eq!(paint("x", Tone::Plain, true), "x");
    }
}
