//! The per-benchmark table of the comparison report, in one place: which columns it has and in what order,
//! each column's header and alignment, and each cell's text, formatted once by [`super::format`]
//! ([`Column`], [`Cell`]); and the CSV's row of machine values ([`FIELDS`]).
//!
//! Who uses it: the terminal table (`report::table`), the Markdown table (`report::markdown`) and the HTML
//! page's table (`report::html`) take their columns from [`Rows::columns`] and their cells from
//! [`Rows::cell`]; the CSV (`report::csv`) writes [`FIELDS`]. Each renderer keeps only its markup, as a
//! decoration of the shared cell: escaping (the terminal's inert names, Markdown's and HTML's escapes, the
//! CSV's formula guard and quotes), colours ([`Cell::mood`] on the terminal), Markdown's bold and `🔴`/`🟢`
//! marks and its code span around the drawing, the HTML classes, and the terminal's choice of the columns
//! and the [`Cell::short`] texts that fit its width. The race and bisect reports have rows of another kind
//! (revisions, commits) and keep their own.
//!
//! To add a column to the human tables: a variant of [`Column`], placed in [`Column::ALL`] where it is
//! printed, and its arms in [`Column::header`], [`Column::align`] and [`Rows::cell`]. Every table then
//! shows it; the terminal's `Layout` (`report::table`) says whether a narrow terminal may leave it out,
//! and the HTML page leaves out only the drawn interval, which its forest plot draws; a renderer that marks
//! the new cell up in its own way says so in its own match over the columns. To add a CSV column: one
//! [`Field`] in [`FIELDS`], after the others (the header follows; scripts may read the columns by place).
//!
//! It only presents: no statistic, no decision, no markup; a missing value is [`format::MISSING`] here
//! (empty in the CSV).

use super::format::{self, machine};
use super::glyph::GlyphScale;
use super::words;
use super::{
    Footnotes, Mood, NO_DIFFERENCE, display_unit, exact_change, hpt_winner, mean_test_text,
    verdict_with_level, warnings_of,
};
use crate::model::Basis;
use crate::protocol::{Analysis, BenchmarkAnalysis, Direction, Remedy, Verdict};

/// A column of the per-benchmark table, in the order printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Column {
    /// The benchmark's name, as the input wrote it.
    Name,
    /// BASE's median time (or count).
    Base,
    /// HEAD's median time (or count).
    Head,
    /// The median speedup with its interval (`BenchmarkAnalysis::interval`): the key figure.
    Speedup,
    /// The interval drawn against 1x (`report::glyph`).
    Glyph,
    /// The mean speedup.
    Mean,
    /// The mean protocol's verdict.
    MeanTest,
    /// The median protocol's verdict (the benchmark's), or the exact change of a count.
    MedianTest,
    /// HPT's ranking of the benchmark.
    Hpt,
    /// The numbers of the benchmark's warnings, shown only when some benchmark has one.
    Notes,
}

/// How a column's cells are aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    /// Words.
    Left,
    /// Figures.
    Right,
    /// A drawing: centred in Markdown; on the terminal every drawing has the glyph's width and starts at
    /// the left, as a missing one (`-`) does.
    Centre,
}

impl Column {
    /// Every column, in the order printed.
    pub(crate) const ALL: [Column; 10] = [
        Column::Name,
        Column::Base,
        Column::Head,
        Column::Speedup,
        Column::Glyph,
        Column::Mean,
        Column::MeanTest,
        Column::MedianTest,
        Column::Hpt,
        Column::Notes,
    ];

    /// The column's header, in plain words (no renderer escapes it).
    pub(crate) fn header(self) -> &'static str {
        match self {
            Column::Name => "Benchmark",
            Column::Base => "Base",
            Column::Head => "Head",
            Column::Speedup => "Speedup (median)",
            Column::Glyph => "Interval vs 1x",
            Column::Mean => "Mean",
            Column::MeanTest => "Mean test",
            Column::MedianTest => "Median test",
            Column::Hpt => "HPT",
            Column::Notes => "Notes",
        }
    }

    /// Figures are right-aligned, words left-aligned, the drawing centred.
    pub(crate) fn align(self) -> Align {
        match self {
            Column::Base | Column::Head | Column::Speedup | Column::Mean => Align::Right,
            Column::Glyph => Align::Centre,
            Column::Name | Column::MeanTest | Column::MedianTest | Column::Hpt | Column::Notes => {
                Align::Left
            }
        }
    }

    /// The figure a reader looks at first, which Markdown marks by direction and the HTML page sets in the
    /// verdict's colour: the median speedup.
    pub(crate) fn is_key(self) -> bool {
        self == Column::Speedup
    }
}

/// One cell: its text before any markup, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cell {
    /// The text, rounded by [`super::format`], not escaped: a name as the input wrote it.
    pub(crate) text: String,
    /// What a table short of room prints instead, when the cell has a shorter form: the speedup without
    /// its interval.
    pub(crate) short: Option<String>,
    /// What the cell says of the benchmark: green, red or dim on the terminal; for the verdict's cells,
    /// Markdown's bold and mark.
    pub(crate) mood: Mood,
}

impl Cell {
    fn new(text: impl Into<String>, mood: Mood) -> Cell {
        Cell {
            text: text.into(),
            short: None,
            mood,
        }
    }

    fn plain(text: impl Into<String>) -> Cell {
        Cell::new(text, Mood::Neutral)
    }
}

/// What the cells of one report's table are made from: its benchmarks, the scale their drawings share and
/// their footnote numbers.
pub(crate) struct Rows<'a> {
    benchmarks: &'a [BenchmarkAnalysis],
    scale: GlyphScale,
    notes: &'a Footnotes<'a>,
}

impl<'a> Rows<'a> {
    /// The table of `analysis`, its warnings numbered by `notes`.
    pub(crate) fn new(analysis: &'a Analysis, notes: &'a Footnotes<'a>) -> Rows<'a> {
        Rows {
            benchmarks: &analysis.benchmarks,
            scale: GlyphScale::of(analysis),
            notes,
        }
    }

    /// The columns of the table: every one, the Notes only when some benchmark has a footnote.
    pub(crate) fn columns(&self) -> Vec<Column> {
        let with_notes = self.notes.any_marker();
        Column::ALL
            .into_iter()
            .filter(|&c| c != Column::Notes || with_notes)
            .collect()
    }

    /// The cell of the `i`-th benchmark in `column`.
    pub(crate) fn cell(&self, i: usize, column: Column) -> Cell {
        let b = &self.benchmarks[i];
        let unit = || display_unit(b);
        let verdict = mood(b.verdict);
        let exact = b.basis == Basis::Deterministic;
        match column {
            Column::Name => Cell::plain(b.name.as_str()),
            Column::Base => Cell::plain(format::time(b.base.median, unit())),
            Column::Head => Cell::plain(format::time(b.head.median, unit())),
            Column::Speedup => Cell {
                text: format::speedup_with_interval_against(
                    b.shown_speedup(),
                    b.interval(),
                    b.equivalence.margin_pct,
                ),
                short: Some(format::speedup(b.shown_speedup())),
                mood: verdict,
            },
            Column::Glyph => Cell::new(
                self.scale
                    .glyph(b.shown_speedup(), b.interval())
                    .unwrap_or_else(|| format::MISSING.to_string()),
                verdict,
            ),
            Column::Mean => Cell::plain(format::speedup(b.speedup.mean)),
            Column::MeanTest => {
                let tone = if b.mean_test.found_no_difference() {
                    Mood::Quiet
                } else {
                    mood(b.mean_test.verdict())
                };
                // A count compared exactly was seen by no test: `-`.
                let text = if exact {
                    format::MISSING.to_string()
                } else {
                    mean_test_text(&b.mean_test)
                };
                Cell::new(text, tone)
            }
            Column::MedianTest => Cell::new(
                exact_change(b).unwrap_or_else(|| {
                    paired_mark(b, verdict_with_level(b.verdict, b.shown_level()))
                }),
                verdict,
            ),
            // Nor does HPT rank it.
            Column::Hpt => Cell::new(
                if exact {
                    format::MISSING
                } else {
                    hpt_winner(b.hpt.winner)
                },
                hpt_mood(b.hpt.winner),
            ),
            Column::Notes => Cell::plain(self.notes.marker(i)),
        }
    }
}

/// `text`, the verdict's cell, marked `, paired` when `--paired` decided `b` on its runs paired by block:
/// the "Median test" column then shows the paired signed-rank test's verdict (`docs/replication.md` §7).
fn paired_mark(b: &BenchmarkAnalysis, text: String) -> String {
    match b.pairing {
        Some(crate::protocol::Pairing::Paired(_)) => format!("{text}, paired"),
        _ => text,
    }
}

/// A verdict's mood: faster good, slower bad, unchanged quiet.
fn mood(verdict: Verdict) -> Mood {
    match verdict {
        Verdict::Faster => Mood::Good,
        Verdict::Slower => Mood::Bad,
        Verdict::Unchanged => Mood::Quiet,
        Verdict::Inconclusive => Mood::Neutral,
    }
}

/// HPT's winner's mood; a tie is quiet.
fn hpt_mood(winner: Option<Direction>) -> Mood {
    winner.map_or(Mood::Quiet, |d| mood(d.into()))
}

/// One column of the CSV: its header and a benchmark's value, for machines: numbers as the shortest text
/// that reads back to the same `f64` ([`format::machine`]), times in the benchmark's own unit, a missing
/// number empty.
pub(crate) struct Field {
    /// The header, in `snake_case`.
    pub(crate) header: &'static str,
    /// Whether the value is text from the input or sentences (the name, the warnings), which the CSV
    /// guards against formulas; other values are numbers and fixed words.
    pub(crate) text: bool,
    value: Value,
}

/// How a field's value is made: from the benchmark alone, or worded with the remedy its hints name.
enum Value {
    Of(fn(&BenchmarkAnalysis) -> String),
    Worded(fn(&BenchmarkAnalysis, Remedy) -> String),
}

impl Field {
    const fn new(header: &'static str, value: fn(&BenchmarkAnalysis) -> String) -> Field {
        Field {
            header,
            text: false,
            value: Value::Of(value),
        }
    }

    const fn text(header: &'static str, value: fn(&BenchmarkAnalysis) -> String) -> Field {
        Field {
            header,
            text: true,
            value: Value::Of(value),
        }
    }

    const fn worded(
        header: &'static str,
        value: fn(&BenchmarkAnalysis, Remedy) -> String,
    ) -> Field {
        Field {
            header,
            text: true,
            value: Value::Worded(value),
        }
    }

    /// The value of benchmark `b`, before the CSV's guard and quotes; sentences worded with `remedy`.
    pub(crate) fn value(&self, b: &BenchmarkAnalysis, remedy: Remedy) -> String {
        match self.value {
            Value::Of(value) => value(b),
            Value::Worded(value) => value(b, remedy),
        }
    }
}

/// A time (or a difference of times) in `b`'s own unit.
fn time(b: &BenchmarkAnalysis, nanos: f64) -> String {
    machine(Some(nanos / b.unit.nanos()))
}

/// One of the median protocol's shift figures, empty when it has none.
fn shift(b: &BenchmarkAnalysis, figure: fn(&crate::protocol::Shift) -> f64) -> String {
    b.median_test
        .shift
        .as_ref()
        .map_or_else(String::new, |s| time(b, figure(s)))
}

/// The CSV's columns, in order.
pub(crate) const FIELDS: [Field; 34] = [
    Field::text("name", |b| b.name.clone()),
    Field::new("unit", |b| b.unit.as_str().into()),
    Field::new("verdict", |b| b.verdict.as_str().into()),
    Field::new("base_n", |b| b.base.n.to_string()),
    Field::new("base_min", |b| time(b, b.base.min)),
    Field::new("base_mean", |b| time(b, b.base.mean)),
    Field::new("base_median", |b| time(b, b.base.median)),
    Field::new("head_n", |b| b.head.n.to_string()),
    Field::new("head_min", |b| time(b, b.head.min)),
    Field::new("head_mean", |b| time(b, b.head.mean)),
    Field::new("head_median", |b| time(b, b.head.median)),
    Field::new("speedup_min", |b| machine(Some(b.speedup.min))),
    Field::new("speedup_mean", |b| machine(Some(b.speedup.mean))),
    Field::new("speedup_median", |b| machine(Some(b.speedup.median))),
    Field::new("speedup_median_lower", |b| {
        machine(b.interval().map(|i| i.0))
    }),
    Field::new("speedup_median_upper", |b| {
        machine(b.interval().map(|i| i.1))
    }),
    // "no difference" where the t-test found none: "unchanged" is only ever an equivalence.
    Field::new("mean_verdict", |b| {
        if b.mean_test.found_no_difference() {
            NO_DIFFERENCE.into()
        } else {
            b.mean_test.verdict().as_str().into()
        }
    }),
    Field::new("mean_p_value", |b| machine(b.mean_test.p_value)),
    Field::new("mean_method", |b| {
        b.mean_test.method.map_or("", |m| m.as_str()).into()
    }),
    Field::new("mean_confidence_level", |b| {
        machine(b.mean_test.confidence_level)
    }),
    Field::new("shapiro_p_value_base", |b| {
        machine(b.mean_test.shapiro_p_values.base)
    }),
    Field::new("shapiro_p_value_head", |b| {
        machine(b.mean_test.shapiro_p_values.head)
    }),
    Field::new("variance_p_value", |b| {
        machine(b.mean_test.variance_p_value)
    }),
    Field::new("median_verdict", |b| b.verdict.as_str().into()),
    Field::new("median_p_value", |b| machine(b.median_test.p_value)),
    Field::new("ks_p_value", |b| machine(b.median_test.ks_p_value)),
    Field::new("median_confidence_level", |b| {
        machine(b.median_test.confidence_level)
    }),
    Field::new("p_head_faster", |b| machine(b.median_test.p_head_faster)),
    Field::new("shift_estimate", |b| shift(b, |s| s.estimate)),
    Field::new("shift_lower", |b| shift(b, |s| s.lower)),
    Field::new("shift_upper", |b| shift(b, |s| s.upper)),
    Field::new("hpt_difference", |b| time(b, b.hpt.difference)),
    Field::new("hpt_winner", |b| hpt_winner(b.hpt.winner).into()),
    Field::worded("warnings", |b, remedy| {
        let messages: Vec<String> = warnings_of(b)
            .map(|w| words::ours(w, remedy).message)
            .collect();
        messages.join("; ")
    }),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Format, Style};
    use crate::testutil::analyses;
    use crate::testutil::render::render;

    /// The human tables' headers, in order, when some benchmark has a warning.
    const HEADERS: [&str; 10] = [
        "Benchmark",
        "Base",
        "Head",
        "Speedup (median)",
        "Interval vs 1x",
        "Mean",
        "Mean test",
        "Median test",
        "HPT",
        "Notes",
    ];

    #[test]
    fn under_paired_the_table_shows_the_paired_estimate_level_and_basis() {
        use crate::protocol::{ByDirection, PairedTest, Pairing};
        let mut analysis = analyses::faster_suite();
        // The paired estimate, exp(−pseudomedian), differs from the ratio of medians (1.16x); its
        // interval is the equivalence interval, already the paired one.
        analysis.benchmarks[0].pairing = Some(Pairing::Paired(PairedTest {
            pairs: 12,
            dropped: Default::default(),
            p: ByDirection {
                faster: Some(0.03),
                slower: Some(0.97),
            },
            speedup: 1.15,
        }));
        let notes = Footnotes::of(&analysis, false);
        let rows = Rows::new(&analysis, &notes);
        assert_eq!(rows.cell(0, Column::Speedup).text, "1.15x [1.14, 1.18]");
        assert_eq!(
            rows.cell(0, Column::MedianTest).text,
            "faster (0.97), paired"
        );
        // The JSON and CSV keep paper 000's median speedup (1.1595... in this fixture).
        assert!((analysis.benchmarks[0].speedup.median - 1.16).abs() < 0.001);
        assert_eq!(rows.cell(1, Column::MedianTest).text, "faster (>= 0.99)");
    }

    #[test]
    fn cells_are_formatted_once_with_their_mood() {
        let analysis = analyses::faster_suite();
        let notes = Footnotes::of(&analysis, false);
        let rows = Rows::new(&analysis, &notes);
        assert_eq!(
            rows.columns(),
            &Column::ALL[..9],
            "no Notes without warnings"
        );
        let speedup = rows.cell(0, Column::Speedup);
        assert_eq!(speedup.text, "1.16x [1.14, 1.18]");
        assert_eq!(speedup.short.as_deref(), Some("1.16x"));
        assert_eq!(speedup.mood, Mood::Good);
        assert_eq!(rows.cell(0, Column::Base).text, "812.3 ns");
        assert_eq!(rows.cell(1, Column::Head).text, "80.10 µs");
        assert_eq!(rows.cell(0, Column::MedianTest).text, "faster (>= 0.99)");
        let unchanged = |c| {
            let cell = rows.cell(2, c);
            (cell.text, cell.mood)
        };
        assert_eq!(
            unchanged(Column::MeanTest),
            ("inconclusive".into(), Mood::Quiet)
        );
        assert_eq!(
            unchanged(Column::MedianTest),
            ("unchanged".into(), Mood::Quiet)
        );
        assert_eq!(unchanged(Column::Hpt), ("inconclusive".into(), Mood::Quiet));
    }

    #[test]
    fn every_table_shows_the_shared_columns_in_order() {
        let analysis = analyses::inconclusive_with_warnings();
        let plain = Style::plain();
        let markdown = render(Format::Markdown, &analysis, plain);
        let header = format!("| {} |", HEADERS.join(" | "));
        assert!(markdown.lines().any(|l| l == header), "{markdown}");

        // The HTML page draws the intervals in its forest plot, not in its table.
        let html = render(Format::Html, &analysis, plain);
        let table = &html[html.find(r#"<table class="results">"#).unwrap()..];
        let table = &table[..table.find("</thead>").unwrap()];
        let headers: Vec<&str> = table
            .split(r#"<th scope="col">"#)
            .skip(1)
            .map(|h| &h[..h.find("</th>").unwrap()])
            .collect();
        let expected: Vec<&str> = HEADERS
            .into_iter()
            .filter(|&h| h != "Interval vs 1x")
            .collect();
        assert_eq!(headers, expected);

        let terminal = render(Format::Table, &analysis, plain);
        let line = terminal
            .lines()
            .find(|l| l.starts_with("Benchmark"))
            .unwrap();
        let mut from = 0;
        for h in HEADERS {
            let at = line[from..]
                .find(h)
                .unwrap_or_else(|| panic!("{h} in {line}"));
            from += at + h.len();
        }
    }

    #[test]
    fn each_renderer_decorates_the_same_cell() {
        let analysis = analyses::faster_suite();
        let plain = Style::plain();
        let markdown = render(Format::Markdown, &analysis, plain);
        assert!(
            markdown.contains("| parse/small | 812.3 ns | 700.5 ns | 🟢 **1.16x [1.14, 1.18]** |"),
            "{markdown}"
        );
        assert!(markdown.contains("| faster (>= 0.99) | **faster (>= 0.99)** | faster |"));
        let html = render(Format::Html, &analysis, plain);
        assert!(html.contains(r#"<td class="num key-figure">1.16x [1.14, 1.18]</td>"#));
        assert!(html.contains(r#"<td class="">inconclusive</td>"#));
        let terminal = render(Format::Table, &analysis, plain);
        assert!(terminal.contains("1.16x [1.14, 1.18]"), "{terminal}");
        // Too narrow for the interval: the speedup's short form.
        let narrow = Style {
            width: Some(70),
            ..plain
        };
        let terminal = render(Format::Table, &analysis, narrow);
        let row = terminal.lines().find(|l| l.starts_with("parse/small"));
        assert_eq!(
            row,
            Some("parse/small  812.3 ns  700.5 ns             1.16x  faster (>= 0.99)"),
            "{terminal}"
        );
        // A little wider: HPT's column goes before the interval, the tool's central claim.
        let terminal = render(
            Format::Table,
            &analysis,
            Style {
                width: Some(80),
                ..plain
            },
        );
        let row = terminal.lines().find(|l| l.starts_with("parse/small"));
        assert_eq!(
            row,
            Some("parse/small  812.3 ns  700.5 ns       1.16x [1.14, 1.18]  faster (>= 0.99)"),
            "{terminal}"
        );
    }

    #[test]
    fn the_csv_columns_are_the_documented_ones() {
        let headers: Vec<&str> = FIELDS.iter().map(|f| f.header).collect();
        assert_eq!(
            headers,
            [
                "name",
                "unit",
                "verdict",
                "base_n",
                "base_min",
                "base_mean",
                "base_median",
                "head_n",
                "head_min",
                "head_mean",
                "head_median",
                "speedup_min",
                "speedup_mean",
                "speedup_median",
                "speedup_median_lower",
                "speedup_median_upper",
                "mean_verdict",
                "mean_p_value",
                "mean_method",
                "mean_confidence_level",
                "shapiro_p_value_base",
                "shapiro_p_value_head",
                "variance_p_value",
                "median_verdict",
                "median_p_value",
                "ks_p_value",
                "median_confidence_level",
                "p_head_faster",
                "shift_estimate",
                "shift_lower",
                "shift_upper",
                "hpt_difference",
                "hpt_winner",
                "warnings",
            ]
        );
        let texts: Vec<&str> = FIELDS.iter().filter(|f| f.text).map(|f| f.header).collect();
        assert_eq!(texts, ["name", "warnings"]);
    }
}
