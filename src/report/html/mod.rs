//! The HTML report (`--format html`, `--html FILE`): one self-contained page that a person reads in a
//! browser, straight from a CI artifact. Inline CSS and inline SVG only: no script, no font, no network.
//!
//! What it shows, top to bottom: the suite's verdict in one sentence (as the Markdown report), the forest
//! plot of every benchmark's speedup and interval ([`forest`]), HPT's confidence curve ([`curve`]), the
//! table and the suite's figures, the gate, the warnings, per benchmark the runs of BASE and HEAD
//! ([`runs`]), and the glossary of the terms the page printed, linked to their pages of `docs/`
//! (`report::words::glossary`). Each picture that cannot be drawn (one run per side, no interval, an interval without
//! bound, no usable benchmark) says why in its place.
//!
//! The SVG is written by hand rather than with `plotters` (criterion's choice): the plots are a few lines,
//! circles and labels, and writing them directly keeps the output small (the page of 1000 benchmarks must
//! stay under 5 MB), deterministic for the snapshot tests, escaped by one function we control
//! ([`svg::escape`]), and free of a dependency tree with font handling the page does not need.
//!
//! Like every report it only presents: figures come rounded from [`super::format`], the table's columns and
//! cells from `report::columns`, sentences from the functions the Markdown report uses, verdicts from the
//! analysis.

pub(crate) mod curve;
pub(crate) mod forest;
pub(crate) mod runs;
pub(crate) mod svg;

use std::fmt::Write as _;
use std::io::{self, Write};

use super::columns::{Align, Column, Rows};
use super::format;
use super::words::glossary::{self, Term};
use super::{Footnotes, Mood, Render, Style, concerned, headline, nothing_compared, suite_facts};
use crate::protocol::{Analysis, FailOn};
use svg::{escape, shorten};

/// The most benchmarks whose runs are drawn, regressions first; the others are listed as not drawn.
pub(crate) const MAX_RUN_FIGURES: usize = 60;

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

/// The table of the Markdown report ([`super::columns`]), as HTML, without the drawn intervals (the forest
/// plot draws them).
fn table(analysis: &Analysis, notes: &Footnotes<'_>) -> String {
    let rows = Rows::new(analysis, notes);
    let columns: Vec<Column> = rows
        .columns()
        .into_iter()
        .filter(|&c| c != Column::Glyph)
        .collect();
    let mut out = String::from("<table class=\"results\"><thead><tr>");
    for c in &columns {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, c.header());
    }
    out.push_str("</tr></thead><tbody>");
    for (i, b) in analysis.benchmarks.iter().enumerate() {
        let _ = write!(out, r#"<tr class="{}">"#, forest::verdict_class(b.verdict));
        for &c in &columns {
            let text = rows.cell(i, c).text;
            let _ = match c {
                // The name heads its row, cut to 120 characters; the whole name in its title.
                Column::Name => write!(
                    out,
                    r#"<th scope="row" title="{}">{}</th>"#,
                    escape(&text),
                    escape(&shorten(&text, 120))
                ),
                Column::Notes => write!(out, "<td>{}</td>", escape(&text)),
                _ => write!(out, r#"<td class="{}">{}</td>"#, class(c), escape(&text)),
            };
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// A cell's class: figures right-aligned (`num`), the key figure in the row's verdict colour.
fn class(column: Column) -> &'static str {
    match column.align() {
        Align::Right if column.is_key() => "num key-figure",
        Align::Right => "num",
        Align::Left | Align::Centre => "",
    }
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

/// The tool's own words of a headline sentence, escaped, with their `code` spans (options, commands) set as
/// `<code>`. Only the tool's words: a name is escaped alone ([`escape`]), its backticks kept as typed.
fn words(text: &str) -> String {
    let escaped = escape(text);
    let spans: Vec<&str> = escaped.split('`').collect();
    // An odd number of backticks has no pairs to trust: shown as written.
    if spans.len() % 2 == 0 {
        return escaped;
    }
    spans
        .iter()
        .enumerate()
        .map(|(i, span)| match i % 2 {
            1 => format!("<code>{span}</code>"),
            _ => (*span).to_string(),
        })
        .collect()
}

/// The page's header: the headline's first sentence as a banner coloured by the gate when one is on (else
/// by the suite's verdict), the other sentences as a list, what was compared under them.
fn header(analysis: &Analysis) -> String {
    let sentences = headline(analysis);
    let class = |mood: Mood| match mood {
        Mood::Good => "v-faster",
        Mood::Bad => "v-slower",
        Mood::Neutral => "v-inconclusive",
        Mood::Quiet => "v-unchanged",
    };
    let mut out = String::from("<header><h1>cargo-speedup</h1>");
    let (compared, sentences) = match sentences.split_last() {
        Some((last, rest)) if last.mood == Mood::Quiet && last.plain().starts_with("Compared ") => {
            (Some(last), rest)
        }
        _ => (None, sentences.as_slice()),
    };
    if let Some((first, rest)) = sentences.split_first() {
        let _ = write!(
            out,
            r#"<p class="headline {}"><strong>{}</strong></p>"#,
            class(first.mood),
            first.render(words, escape)
        );
        if !rest.is_empty() {
            out.push_str(r#"<ul class="changes">"#);
            for s in rest {
                let _ = write!(
                    out,
                    r#"<li class="{}">{}</li>"#,
                    class(s.mood),
                    s.render(words, escape)
                );
            }
            out.push_str("</ul>");
        }
    }
    if let Some(c) = compared {
        let _ = write!(
            out,
            r#"<p class="compared">{}</p>"#,
            c.render(escape, escape)
        );
    }
    out.push_str("</header>");
    out
}

/// The suite's figures and the gate.
fn facts(analysis: &Analysis) -> String {
    let mut out = String::from(r#"<section id="suite"><h2>Suite</h2><ul>"#);
    for fact in suite_facts(analysis, true) {
        // The tool's words with their `code` spans set as code; a list of names as typed.
        let text = if fact.names {
            escape(&fact.text)
        } else {
            words(&fact.text)
        };
        let _ = write!(out, "<li>{text}</li>");
    }
    out.push_str("</ul>");
    let gate = &analysis.gate;
    let text = if gate.fail_on == FailOn::None {
        "off (--fail-on none).".to_string()
    } else {
        format!(
            "--fail-on {}, threshold {}: {}.",
            gate.fail_on.as_str(),
            format::percent_value(gate.threshold.pct()),
            if gate.failed { "failed" } else { "passed" }
        )
    };
    let class = if gate.failed { "gate failed" } else { "gate" };
    let _ = write!(
        out,
        r#"<p class="{class}"><strong>Gate:</strong> {}</p>"#,
        escape(&text)
    );
    if !gate.reasons.is_empty() {
        out.push_str("<ul class=\"reasons\">");
        for reason in &gate.reasons {
            let _ = write!(
                out,
                "<li>{}</li>",
                escape(&super::words::gate_reason(reason))
            );
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>");
    out
}

/// The numbered warnings, as the Markdown report's footnotes.
fn warnings(analysis: &Analysis, notes: &Footnotes<'_>) -> String {
    if notes.notes.is_empty() {
        return String::new();
    }
    let mut out = format!(
        r#"<section id="warnings"><h2>Warnings ({})</h2><ol>"#,
        notes.notes.len()
    );
    for note in &notes.notes {
        out.push_str("<li>");
        if let Some(names) = concerned(note, analysis.benchmarks.len()) {
            let _ = write!(out, "<strong>{}</strong>: ", escape(&shorten(&names, 300)));
        }
        out.push_str(&escape(&note.words.message));
        if let Some(hint) = &note.words.hint {
            let _ = write!(
                out,
                r#"<br><span class="hint">hint: {}</span>"#,
                escape(hint)
            );
        }
        out.push_str("</li>");
    }
    out.push_str("</ol></section>");
    out
}

/// The glossary at the page's end: each term the page printed, what it means, and a link to the page of
/// `docs/` that defines it; nothing when no term was printed.
fn terms_section(terms: &[&Term]) -> String {
    if terms.is_empty() {
        return String::new();
    }
    let mut out = String::from(r#"<section id="terms"><h2>Terms</h2><dl class="terms">"#);
    for t in terms {
        let _ = write!(
            out,
            r#"<dt>{}</dt><dd>{} (<a href="{}">{}</a>)</dd>"#,
            escape(t.name),
            escape(t.meaning),
            escape(&t.url()),
            escape(t.page)
        );
    }
    out.push_str("</dl></section>");
    out
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

/// The runs of the first [`MAX_RUN_FIGURES`] benchmarks in the forest's order.
fn run_figures(analysis: &Analysis, order: &[usize]) -> String {
    let mut out = String::from(
        r#"<section id="runs"><h2>Runs per benchmark</h2><p class="lead">Each point is one observation of BASE or HEAD; the vertical mark is each side's median.</p><div class="figures-grid">"#,
    );
    for (k, &i) in order.iter().take(MAX_RUN_FIGURES).enumerate() {
        out.push_str(&runs::figure(&analysis.benchmarks[i], &format!("runs-{k}")));
    }
    out.push_str("</div>");
    let left = order.len().saturating_sub(MAX_RUN_FIGURES);
    if left > 0 {
        let _ = write!(
            out,
            r#"<p class="missing">The runs of the other {left} benchmarks are not drawn, to keep the page small; the JSON report (<code>--json FILE</code>) has every benchmark's figures.</p>"#
        );
    }
    out.push_str("</section>");
    out
}

/// The page's style: readable on a phone (the wide table scrolls inside its box), colours by verdict that
/// also differ in lightness, and nothing fetched.
pub(crate) const CSS: &str = r#"
:root{--faster:#1a7f37;--slower:#cf222e;--unchanged:#57606a;--inconclusive:#9a6700;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--band:#ddf4ff}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
main{max-width:1100px;margin:0 auto;padding:16px;overflow-wrap:anywhere}
h1{font-size:1.1rem;margin:0 0 4px;color:var(--muted);font-weight:600}
h2{font-size:1.15rem;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.headline.v-slower strong{color:var(--slower)}.headline.v-faster strong{color:var(--faster)}
.changes{margin:4px 0 8px;padding-left:20px}.changes li.v-slower{color:var(--slower)}.changes li.v-faster{color:var(--faster)}
.compared{color:var(--muted);font-size:.9rem;margin:4px 0 8px}
.headline{font-size:1.2rem;margin:0 0 8px;padding:10px 12px;border-left:6px solid var(--unchanged);background:#f6f8fa}
.headline.v-faster{border-color:var(--faster)}.headline.v-slower{border-color:var(--slower)}.headline.v-inconclusive{border-color:var(--inconclusive)}
.lead,.caption,figcaption{color:var(--muted);font-size:.88rem;margin:4px 0 8px}
.missing{color:var(--muted);font-style:italic;background:#f6f8fa;padding:8px 10px;border-radius:6px}
th,td{overflow-wrap:anywhere}
table{border-collapse:collapse}
.forest{width:100%;table-layout:fixed}
.forest th,.forest td{padding:0 6px;border-bottom:1px solid #eef1f4;vertical-align:middle;text-align:left;font-weight:normal}
.forest thead th{position:sticky;top:0;background:#fff;z-index:1;font-weight:600;border-bottom:1px solid var(--line)}
.forest th[scope=row]{width:30%;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.82rem}
.forest .strip{width:45%;padding:0}
.forest .figures{width:25%;font-size:.85rem;font-variant-numeric:tabular-nums}
.forest svg{display:block;width:100%;height:auto}
.band{fill:var(--band)}
.one{stroke:#8c959f;stroke-width:1}
.ci{stroke:currentColor;stroke-width:2}
.point{fill:currentColor;stroke:#fff;stroke-width:1}
.arrow{fill:currentColor}
.v-faster{color:var(--faster)}.v-slower{color:var(--slower)}.v-unchanged{color:var(--unchanged)}.v-inconclusive{color:var(--inconclusive)}
.v-unchanged .point,.v-inconclusive .point{fill:#fff;stroke:currentColor;stroke-width:2}
.forest th[scope=row],.results th[scope=row],.forest .figures{color:var(--ink)}
.verdict{font-weight:600}
.v-faster .verdict{color:var(--faster)}.v-slower .verdict{color:var(--slower)}.v-unchanged .verdict{color:var(--unchanged)}.v-inconclusive .verdict{color:var(--inconclusive)}
.v-slower .verdict::before{content:"▼ "}.v-faster .verdict::before{content:"▲ "}
.note{color:var(--muted)}
.tick{stroke:#8c959f}
.tick-label{font-size:11px;fill:var(--muted)}
.axis-label{font-size:12px;fill:var(--muted)}
.axis-line{stroke:#8c959f}
.grid{stroke:#eef1f4}
.side-label{font-size:11px;font-weight:600;fill:var(--ink)}
.curve svg,.runs svg{display:block;width:100%;height:auto}
.curve{margin:0;max-width:720px}
.curve .tick-label,.curve .axis-label,.curve .r-label{font-size:13px}
.curve-line{fill:none;stroke-width:2.5}
.curve-line.faster,.key.faster{stroke:var(--faster);color:var(--faster)}
.curve-line.slower,.key.slower{stroke:#0969da;color:#0969da}
.level{stroke:var(--ink);stroke-dasharray:5 4}
.r-speedup{stroke:var(--ink);stroke-width:1.5}
.r-label{font-size:12px;font-weight:600;fill:var(--ink)}
.scroll{overflow-x:auto}
.results{width:100%;font-size:.85rem;font-variant-numeric:tabular-nums}
.results th,.results td{padding:4px 8px;border-bottom:1px solid #eef1f4;text-align:left;white-space:nowrap}
.results th[scope=row]{white-space:normal;min-width:12em;max-width:28em;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:normal}
.results td.num{text-align:right}
.results .key-figure{font-weight:600}
.results .v-faster .key-figure{color:var(--faster)}.results .v-slower .key-figure{color:var(--slower)}
.results tr{color:var(--ink)}
.gate.failed strong{color:var(--slower)}
.hint{color:var(--muted)}
.figures-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px}
.runs{margin:0;padding:8px;border:1px solid var(--line);border-radius:8px;min-width:0}
.runs figcaption{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--ink);font-size:.82rem;margin:0 0 4px}
.runs .base circle{fill:#8c959f}.runs .head circle{fill:#0969da}
.runs .spread{stroke-width:1.2}.runs .base .spread{stroke:#8c959f}.runs .head .spread{stroke:#0969da}
.runs .median{stroke:var(--ink);stroke-width:2}
.bisect th[scope=row]{width:34%;font-family:inherit;font-size:.85rem;padding:3px 6px}
.bisect th[scope=row] code{font-size:.8rem}
.bisect .index{display:inline-block;min-width:2em;color:var(--muted);font-variant-numeric:tabular-nums}
.role{font-size:.7rem;font-weight:700;padding:0 4px;border:1px solid var(--ink);border-radius:4px}
.bisect tr.unmeasured th[scope=row],.bisect tr.skipped th[scope=row]{color:var(--muted)}
.bisect tr.left{background:#fff8e5}
.bisect tr.named{background:#fff1e5;outline:2px solid var(--slower);outline-offset:-2px}
.bisect .named-label{color:var(--ink)}
.bisect details summary{cursor:pointer;color:var(--muted)}
.bisect ul.commits{margin:4px 0;padding-left:0;list-style:none;font-size:.8rem}
.terms dt{font-weight:600;margin-top:6px}.terms dd{margin:0 0 0 16px;color:var(--muted)}
.reference{fill:#fff;stroke:var(--ink);stroke-width:1.5}
.identical{fill:var(--unchanged)}
@media (max-width:640px){main{padding:10px}.headline{font-size:1.05rem}
.forest,.forest thead,.forest tbody,.forest tr,.forest th,.forest td{display:block;width:100%!important}
.forest thead th:not(.strip){display:none}
.forest tbody tr{padding:6px 0;border-bottom:1px solid #eef1f4}
.forest th,.forest td{border:0}
.forest .figures{font-size:.8rem}}
"#;

#[cfg(test)]
mod tests;
