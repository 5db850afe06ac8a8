//! The HTML report's pages: the analysis' page ([`page`]) in its section order, and the page of a report
//! with no plots of its own ([`text_page`]), each one self-contained document with the style of `css.rs`.
//!
//! Must not: draw (the plots are `forest.rs`, `curve.rs`, `runs.rs`) or word a section (`sections.rs`).

use std::fmt::Write as _;
use std::io::{self, Write};

use super::css::CSS;
use super::sections::{
    disagreement_section, facts, header, run_figures, table, terms_section, warnings,
    where_changed_section,
};
use super::svg::escape;
use super::{curve, forest};
use crate::protocol::Analysis;
use crate::report::words::glossary;
use crate::report::{Footnotes, Render, Style, nothing_compared};

/// The HTML report.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HtmlReport;

impl Render for HtmlReport {
    fn render(&self, analysis: &Analysis, _style: Style, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(page(analysis).as_bytes())
    }
}

/// The whole page.
pub fn page(analysis: &Analysis) -> String {
    // The page's details carry every warning.
    let notes = Footnotes::of(analysis, true);
    let order = forest::order(analysis);
    let verdict = analysis.verdict.as_str();
    let mut body = String::new();
    body.push_str(&header(analysis));
    if analysis.benchmarks.is_empty() {
        let _ = write!(body, "<p>{}</p>", escape(nothing_compared(analysis)));
    } else {
        let _ = write!(
            body,
            r#"<section id="forest"><h2>Speedup per benchmark</h2><p class="lead">Median speedup (BASE / HEAD, above 1x HEAD is faster) with its interval: entirely below 1x it shows HEAD slower, above 1x faster, inside the shaded band (the equivalence margin) equal within that margin. Slower benchmarks come first.</p>{}</section>"#,
            forest::forest(analysis, &order)
        );
        let _ = write!(
            body,
            r#"<section id="confidence"><h2>How much faster, with what confidence</h2>{}</section>"#,
            curve::figure(analysis)
        );
        let _ = write!(
            body,
            r#"<section id="table"><h2>Benchmarks</h2><div class="scroll">{}</div></section>"#,
            table(analysis, &notes)
        );
        body.push_str(&where_changed_section(analysis));
        body.push_str(&disagreement_section(analysis));
    }
    body.push_str(&facts(analysis));
    body.push_str(&warnings(analysis, &notes));
    if !analysis.benchmarks.is_empty() {
        body.push_str(&run_figures(analysis, &order));
    }
    let terms = glossary::printed(&visible_text(&body));
    body.push_str(&terms_section(&terms));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>cargo-speedup: suite {verdict}</title><style>{CSS}</style></head>\
         <body><main>{body}</main></body></html>\n"
    )
}

/// A page holding a report that has no plots of its own (a race): its Markdown text, preformatted and
/// escaped line by line (so that its lines stay lines), under a title.
pub(crate) fn text_page(title: &str, text: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{CSS}</style></head><body><main><h1>{}</h1>\
         <pre class=\"scroll\">{}</pre></main></body></html>\n",
        escape(title),
        escape(title),
        text.lines().map(escape).collect::<Vec<_>>().join("\n")
    )
}

/// What a person reads of a page's body: its text without tags, its entities decoded.
pub(crate) fn visible_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                // Tags separate words ("<td>faster</td><td>HPT" reads as two cells).
                out.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}
