//! The default report, for a person at a terminal (`docs/usage.md` §5): the headline
//! (`report::headline`), a table with one row per benchmark, the names present on one side only, and the
//! warnings that change the conclusion; with `--verbose` also the suite's secondary figures (HPT's
//! sentence, geometric mean, overall gain and speedup, proportions), every warning and the gate's reasons;
//! last, "Terms:", the glossary of the terms it printed (`report::words::glossary`).
//!
//! It only presents: every figure comes from the [`Analysis`] and is rounded by [`super::format`]; the
//! columns and their cells are those of `report::columns`, which this file colours and lays out. Colours
//! (green faster, red slower, dim unchanged) appear only when [`Style::color`] says so. Without a width
//! nothing is wrapped. With [`Style::width`], the table (comfy-table, borderless columns like critcmp's)
//! keeps each benchmark on one line: it takes the widest of its `LAYOUTS` that fits, leaving out the least
//! important figures first (the mean speedup, the mean test, the interval's drawing, then the speedup's
//! interval, said in a line under the table) and wrapping only headers; when even the narrowest layout
//! cannot fit, each benchmark is printed as a short block of lines instead. Every other line is word-wrapped, so that no line is wider
//! than the width, and no line ends in spaces, coloured or not. Names, and every line under the table
//! (which quote names), go through `crate::inert::terminal`; a name wider than half the width is
//! shortened when no layout holds it whole, its middle elided and never to another name's short form
//! (`docs/verdicts.md` §6). Times are printed per row in the readable
//! unit of the smaller median (the analysis' own unit may be nanoseconds for a second-long benchmark).

use std::io::{self, Write};

use comfy_table::{
    Attribute, Cell, CellAlignment, Color, ColumnConstraint, LineStyle, Table, TableStyle, Width,
};

use super::columns::{Align, Column, Rows};
use super::format;
use super::words::glossary::{self, Term};
use super::{
    Footnotes, Mood, Render, Style, concerned, gate_note, headline, nothing_compared, suite_facts,
};
use crate::inert;
use crate::protocol::{Analysis, FailOn};

/// The terminal table.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TableReport;

impl Render for TableReport {
    fn render(&self, analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
        if style.color {
            // crossterm, which styles comfy-table's cells, reads NO_COLOR by itself; the tool's own
            // decision (`--color`, NO_COLOR, a terminal) was taken already and is `style.color`.
            crossterm::style::force_color_output(true);
        }
        let mut body = Vec::new();
        report(analysis, style, &mut body)?;
        out.write_all(&body)?;
        let shown = glossary::without_colour(&String::from_utf8_lossy(&body));
        for line in terms_lines(&glossary::printed(&shown)) {
            for piece in format::wrap(&line, style.width) {
                writeln!(out, "{piece}")?;
            }
        }
        Ok(())
    }
}

/// The glossary after everything else ("Terms:"), one line per term the report printed, each naming the
/// page of `docs/` that defines it, and the address of those pages once; nothing when no term was printed.
fn terms_lines(terms: &[&Term]) -> Vec<String> {
    if terms.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![String::new(), "Terms:".to_string()];
    lines.extend(
        terms
            .iter()
            .map(|t| format!("  {}: {} ({})", t.name, t.meaning, t.page)),
    );
    // The repository alone, short enough that no terminal breaks it.
    lines.push(format!(
        "  The pages are in docs/ of {}",
        env!("CARGO_PKG_REPOSITORY")
    ));
    lines
}

/// The report without its glossary.
fn report(analysis: &Analysis, style: Style, out: &mut dyn Write) -> io::Result<()> {
    let notes = Footnotes::of(analysis, style.verbose);
    // Names in the headline are inert and shortened to half the width (60 columns without one), so
    // that a long name cannot fill the screen, and never to the same text; the sides' labels stay
    // whole (wrapped).
    let room = style.width.map_or(60, |w| usize::from(w / 2).max(8));
    let short = super::headline::shortened_names(analysis, room);
    let name = |n: &str| short.get(&inert::terminal(n));
    let mut lines: Vec<Line> = headline(analysis)
        .iter()
        .map(|s| Line {
            text: s.render_labels(inert::terminal, name, inert::terminal),
            tone: Tone::of_mood(s.mood),
        })
        .collect();
    lines.push(line(""));
    for line in lines.drain(..) {
        for piece in format::wrap(&line.text, style.width) {
            writeln!(out, "{}", paint(&piece, line.tone, style.color))?;
        }
    }
    if analysis.benchmarks.is_empty() {
        lines.push(line(nothing_compared(analysis)));
    } else if let Some((table, left_out)) = benchmark_table(analysis, &notes, style) {
        writeln!(out, "{table}")?;
        lines.extend(left_out.map(line));
    } else {
        lines.extend(benchmark_list(analysis, &notes, style));
    }
    if style.verbose {
        for (name, changes) in super::where_changed::of(analysis) {
            lines.push(line(""));
            lines.push(line(super::where_changed::title(name)));
            for change in &changes {
                lines.push(line(format!(
                    "  {}",
                    super::where_changed::line(change, &change.function)
                )));
            }
        }
    }
    // Said with or without `--verbose`: it changes how the rows read.
    let disagreements = super::disagreement::of(analysis);
    if !disagreements.is_empty() {
        lines.push(line(""));
        lines.push(line(super::disagreement::TITLE));
        for d in &disagreements {
            lines.push(line(format!(
                "  {}",
                super::disagreement::line(d, &d.benchmark)
            )));
        }
    }
    let facts = suite_facts(analysis, style.verbose);
    if !facts.is_empty() {
        lines.push(line(""));
        lines.extend(facts.into_iter().map(|fact| line(fact.text)));
    }
    lines.extend(warning_lines(analysis, &notes));
    if style.verbose {
        lines.extend(gate_lines(analysis));
    }
    for line in lines {
        for piece in format::wrap(&inert::terminal(&line.text), style.width) {
            writeln!(out, "{}", paint(&piece, line.tone, style.color))?;
        }
    }
    Ok(())
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
    fn of_mood(mood: Mood) -> Tone {
        match mood {
            Mood::Good => Tone::Good,
            Mood::Bad => Tone::Bad,
            Mood::Quiet => Tone::Quiet,
            Mood::Neutral => Tone::Plain,
        }
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

/// One cell of the table: its text and its colour. Cells never wrap: a layout is chosen that holds them.
struct Text {
    text: String,
    tone: Tone,
}

impl Text {
    /// The shared cell of the `i`-th benchmark in `column` ([`Rows::cell`]) as the terminal prints it: the
    /// name made inert, the cell's short form when `layout` has no room for the speedup's interval, its
    /// mood as a colour.
    fn of(rows: &Rows<'_>, i: usize, column: Column, layout: Layout) -> Text {
        let cell = rows.cell(i, column);
        let text = match cell.short {
            _ if column == Column::Name => inert::terminal(&cell.text),
            Some(short) if !layout.interval => short,
            _ => cell.text,
        };
        Text {
            text,
            tone: Tone::of_mood(cell.mood),
        }
    }

    fn width(&self) -> usize {
        inert::width(&self.text)
    }

    fn into_cell(self, style: Style) -> Cell {
        let cell = Cell::new(self.text);
        match self.tone {
            _ if !style.color => cell,
            Tone::Plain => cell,
            Tone::Good => cell.fg(Color::Green),
            Tone::Bad => cell.fg(Color::Red),
            Tone::Quiet => cell.add_attribute(Attribute::Dim),
        }
    }
}

/// Which of the figures that a narrow terminal can spare a table shows. Each benchmark must stay on one
/// line: the least important figures go first (the mean speedup, then the mean protocol's verdict, then the
/// drawing of the interval, then HPT's column), and the interval of the median speedup, the tool's central
/// claim, goes last; below the last layout the benchmarks become a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    mean: bool,
    mean_test: bool,
    glyph: bool,
    hpt: bool,
    interval: bool,
}

/// Every figure shown.
const ALL: Layout = Layout {
    mean: true,
    mean_test: true,
    glyph: true,
    hpt: true,
    interval: true,
};

/// From the widest layout to the narrowest.
const LAYOUTS: [Layout; 6] = [
    ALL,
    Layout { mean: false, ..ALL },
    Layout {
        mean: false,
        mean_test: false,
        ..ALL
    },
    Layout {
        mean: false,
        mean_test: false,
        glyph: false,
        ..ALL
    },
    Layout {
        mean: false,
        mean_test: false,
        glyph: false,
        hpt: false,
        interval: true,
    },
    Layout {
        mean: false,
        mean_test: false,
        glyph: false,
        hpt: false,
        interval: false,
    },
];

impl Layout {
    /// The columns of `all` ([`Rows::columns`]) that this layout shows.
    fn columns(self, all: &[Column]) -> Vec<Column> {
        all.iter()
            .copied()
            .filter(|c| match c {
                Column::Mean => self.mean,
                Column::MeanTest => self.mean_test,
                Column::Glyph => self.glyph,
                Column::Hpt => self.hpt,
                _ => true,
            })
            .collect()
    }

    /// What this layout leaves out, in words, or `None` when it shows every figure. The interval's drawing
    /// is not named: it repeats figures that the Speedup column still prints.
    fn left_out(self) -> Option<String> {
        let parts: Vec<&str> = [
            (!self.mean, "mean speedup"),
            (!self.mean_test, "mean test"),
            (!self.hpt, "HPT"),
            (!self.interval, "speedup interval"),
        ]
        .into_iter()
        .filter_map(|(out, what)| out.then_some(what))
        .collect();
        (!parts.is_empty()).then(|| {
            format!(
                "Hidden at this width: {} (--format markdown shows them)",
                parts.join(", ")
            )
        })
    }
}

/// Columns are separated by this many spaces; the table has no vertical borders.
const GAP: usize = 2;

/// Only a line under the header: the columns read like `critcmp`'s, and leave room for the figures.
const LAYOUT: TableStyle = TableStyle::new().header_separator(LineStyle::none().fill('─'));

/// The benchmarks as a table, with the line saying which figures it leaves out, or `None` when no layout
/// holds every benchmark on one line within the width.
fn benchmark_table(
    analysis: &Analysis,
    notes: &Footnotes<'_>,
    style: Style,
) -> Option<(String, Option<String>)> {
    let shared = Rows::new(analysis, notes);
    let all = shared.columns();
    let room = style.width.map_or(usize::MAX, usize::from);
    // Whole names first, leaving figures out; long names are cut only when no layout holds them whole.
    let attempts = LAYOUTS.map(|l| (l, false)).into_iter();
    attempts
        .chain(LAYOUTS.map(|l| (l, true)))
        .find_map(|(layout, cut)| {
            let columns = layout.columns(&all);
            let mut rows: Vec<Vec<Text>> = (0..analysis.benchmarks.len())
                .map(|i| {
                    columns
                        .iter()
                        .map(|&c| Text::of(&shared, i, c, layout))
                        .collect()
                })
                .collect();
            if cut {
                fit_names(&columns, &mut rows, room);
            }
            let widths = column_widths(&columns, &rows, room)?;
            let table = build_table(&columns, rows, &widths, style);
            Some((table, layout.left_out()))
        })
}

/// The fewest columns a cut name keeps.
const MIN_NAME_COLUMNS: usize = 12;

/// Cuts each name (the first column) wider than half of `room` to the room that the other columns leave
/// (at least [`MIN_NAME_COLUMNS`]), eliding their middles and never to the same text: what a table whose names do not fit whole does before
/// it becomes a list, so that one long name neither widens the table beyond the terminal nor turns every
/// benchmark into a block of lines. Shorter names stay whole.
fn fit_names(columns: &[Column], rows: &mut [Vec<Text>], room: usize) {
    let word = |h: &str| h.split(' ').map(inert::width).max().unwrap_or(0);
    let others: usize = (1..columns.len())
        .map(|c| {
            let cells = rows.iter().map(|r| r[c].width()).max().unwrap_or(0);
            cells.max(word(columns[c].header())) + GAP
        })
        .sum();
    let left = room.saturating_sub(others).max(MIN_NAME_COLUMNS);
    let long: Vec<String> = rows
        .iter()
        .filter(|r| r[0].width() > room / 2)
        .map(|r| r[0].text.clone())
        .collect();
    let short = inert::Shortened::new(long.iter().map(String::as_str), left);
    for row in rows {
        if row[0].width() > room / 2 {
            row[0].text = short.get(&row[0].text);
        }
    }
}

/// The width of each column when every cell fits on one line within `room`, headers wrapping at spaces
/// only when the room is short; `None` when the cells alone are too wide.
fn column_widths(columns: &[Column], rows: &[Vec<Text>], room: usize) -> Option<Vec<usize>> {
    let cells: Vec<usize> = (0..columns.len())
        .map(|c| rows.iter().map(|r| r[c].width()).max().unwrap_or(0))
        .collect();
    let word = |h: &str| h.split(' ').map(|w| w.chars().count()).max().unwrap_or(0);
    let mut widths: Vec<usize> = columns
        .iter()
        .zip(&cells)
        .map(|(c, &w)| w.max(word(c.header())))
        .collect();
    let gaps = GAP * columns.len().saturating_sub(1);
    let used = widths.iter().sum::<usize>() + gaps;
    let mut spare = room.checked_sub(used)?;
    // Then whole headers, the cheapest first, while the room lasts.
    let mut wanted: Vec<(usize, usize)> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.header().chars().count().saturating_sub(widths[i]), i))
        .filter(|&(more, _)| more > 0)
        .collect();
    wanted.sort_unstable();
    for (more, i) in wanted {
        if more <= spare {
            widths[i] += more;
            spare -= more;
        }
    }
    Some(widths)
}

/// The table at fixed column widths, every line without trailing spaces, colour codes included.
fn build_table(columns: &[Column], rows: Vec<Vec<Text>>, widths: &[usize], style: Style) -> String {
    let mut table = Table::new();
    table.load_style(LAYOUT).force_no_tty();
    if style.color {
        table.enforce_styling();
    }
    table.set_header(columns.iter().map(|c| c.header()).collect::<Vec<_>>());
    for row in rows {
        table.add_row(
            row.into_iter()
                .map(|t| t.into_cell(style))
                .collect::<Vec<_>>(),
        );
    }
    let last = columns.len().saturating_sub(1);
    for (i, column) in table.column_iter_mut().enumerate() {
        let gap = if i == last { 0 } else { GAP };
        column.set_padding((0, u16::try_from(gap).unwrap_or(0)));
        // A drawing is as wide as its column, or missing (`-`) at its start.
        if columns[i].align() == Align::Right {
            column.set_cell_alignment(CellAlignment::Right);
        }
        // comfy-table's absolute width includes the column's padding.
        let width = u16::try_from(widths[i] + gap).unwrap_or(u16::MAX);
        column.set_constraint(ColumnConstraint::Absolute(Width::Fixed(width)));
    }
    table
        .lines()
        .map(|l| trim_end_styled(&l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` without the spaces at its end, including those before its final colour codes: comfy-table pads
/// a cell inside its colour, so a coloured last cell would end in spaces.
fn trim_end_styled(line: &str) -> String {
    let mut body = line.trim_end_matches(' ');
    let mut codes = Vec::new();
    while let Some(start) = body.ends_with('m').then(|| body.rfind('\x1b')).flatten() {
        let code = &body[start..];
        let is_sgr = code
            .strip_prefix("\x1b[")
            .and_then(|c| c.strip_suffix('m'))
            .is_some_and(|c| c.chars().all(|c| c.is_ascii_digit() || c == ';'));
        if !is_sgr {
            break;
        }
        codes.push(code);
        body = body[..start].trim_end_matches(' ');
    }
    codes.reverse();
    let mut trimmed = body.to_string();
    trimmed.extend(codes);
    trimmed
}

/// The benchmarks as a list, for a terminal too narrow for the table: one block per benchmark with the
/// same figures as the table's widest layout.
fn benchmark_list(analysis: &Analysis, notes: &Footnotes<'_>, style: Style) -> Vec<Line> {
    let mut lines = Vec::new();
    let full = LAYOUTS[0];
    let rows = Rows::new(analysis, notes);
    for (i, b) in analysis.benchmarks.iter().enumerate() {
        let cell = |c| Text::of(&rows, i, c, full);
        let marker = notes.marker(i);
        let suffix = if marker.is_empty() {
            String::new()
        } else {
            format!(" [{marker}]")
        };
        let room = style.width.map_or(usize::MAX, |w| {
            usize::from(w).saturating_sub(inert::width(&suffix))
        });
        let name = format!("{}{suffix}", inert::elide(&inert::terminal(&b.name), room));
        lines.push(line(name));
        lines.push(line(format!(
            "    base {}, head {}",
            cell(Column::Base).text,
            cell(Column::Head).text
        )));
        let speedup = cell(Column::Speedup);
        lines.push(Line {
            text: format!(
                "    speedup (median) {}, mean {}",
                speedup.text,
                cell(Column::Mean).text
            ),
            tone: speedup.tone,
        });
        let median = cell(Column::MedianTest);
        lines.push(Line {
            text: format!(
                "    mean test {}, median test {}, HPT {}",
                cell(Column::MeanTest).text,
                median.text,
                cell(Column::Hpt).text
            ),
            tone: median.tone,
        });
    }
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
        lines.push(line(format!("[{}] {scope}{}", i + 1, note.words.message)));
        if let Some(hint) = &note.words.hint {
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
        format::percent_value(gate.threshold.pct())
    );
    let mut lines = vec![line("")];
    if gate.failed {
        lines.push(Line {
            text: format!("{head}FAILED"),
            tone: Tone::Bad,
        });
        lines.extend(
            gate.reasons
                .iter()
                .map(|r| line(format!("  - {}", super::words::gate_reason(r)))),
        );
    } else if let Some(note) = gate_note(analysis) {
        lines.push(line(format!("{head}passed; {note}")));
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

    #[test]
    fn trailing_spaces_go_even_inside_colour_codes() {
        assert_eq!(
            trim_end_styled("a  \x1b[2mtie   \x1b[0m"),
            "a  \x1b[2mtie\x1b[0m"
        );
        assert_eq!(
            trim_end_styled("\x1b[32mfaster  \x1b[39m\x1b[2m   \x1b[0m  "),
            "\x1b[32mfaster\x1b[39m\x1b[2m\x1b[0m"
        );
        assert_eq!(trim_end_styled("1.2 ms  "), "1.2 ms");
        assert_eq!(trim_end_styled("\x1b[31m1.2 ms"), "\x1b[31m1.2 ms");
        assert_eq!(trim_end_styled(""), "");
    }
}
