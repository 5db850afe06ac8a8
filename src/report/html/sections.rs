//! The sections of the analysis' HTML page, each as HTML text: the header (the headline), the table of
//! the Markdown report, the suite's figures and the gate, the warnings, the runs per benchmark and the
//! glossary of the terms the page printed.
//!
//! Must not: decide anything or round a figure (figures come rounded from `report::format`, cells from
//! `report::columns`, sentences from the functions the Markdown report uses); every name and message goes
//! through [`escape`].

use std::fmt::Write as _;

use super::svg::{escape, shorten};
use super::{forest, runs};
use crate::protocol::{Analysis, FailOn};
use crate::report::columns::{Align, Column, Rows};
use crate::report::format;
use crate::report::words::glossary::Term;
use crate::report::{
    Footnotes, Mood, concerned, disagreement, headline, suite_facts, where_changed,
};

/// The most benchmarks whose runs are drawn, regressions first; the others are listed as not drawn.
pub(crate) const MAX_RUN_FIGURES: usize = 60;

/// The table of the Markdown report (`report::columns`), as HTML, without the drawn intervals (the forest
/// plot draws them).
pub(super) fn table(analysis: &Analysis, notes: &Footnotes<'_>) -> String {
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
pub(super) fn header(analysis: &Analysis) -> String {
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
pub(super) fn facts(analysis: &Analysis) -> String {
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
                escape(&crate::report::words::gate_reason(reason))
            );
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>");
    out
}

/// The numbered warnings, as the Markdown report's footnotes.
pub(super) fn warnings(analysis: &Analysis, notes: &Footnotes<'_>) -> String {
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
pub(super) fn terms_section(terms: &[&Term]) -> String {
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

/// The runs of the first [`MAX_RUN_FIGURES`] benchmarks in the forest's order.
pub(super) fn run_figures(analysis: &Analysis, order: &[usize]) -> String {
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

/// Where a benchmark's time and its instruction count disagree (`report::disagreement`): one item per
/// benchmark, its name in code; empty when none disagrees.
pub(super) fn disagreement_section(analysis: &Analysis) -> String {
    let all = disagreement::of(analysis);
    if all.is_empty() {
        return String::new();
    }
    let mut out = format!(
        r#"<section id="disagree"><h2>{}</h2><ul>"#,
        escape(disagreement::TITLE.trim_end_matches(':'))
    );
    for d in &all {
        let name = format!("<code>{}</code>", escape(&d.benchmark));
        let _ = write!(out, "<li>{}</li>", disagreement::line(d, &name));
    }
    out.push_str("</ul></section>");
    out
}

/// Where each changed instruction count changed (`report::where_changed`): per benchmark a folded list of
/// the functions whose counts moved most; empty when no count changed or no profile says where.
pub(super) fn where_changed_section(analysis: &Analysis) -> String {
    let all = where_changed::of(analysis);
    if all.is_empty() {
        return String::new();
    }
    let mut out =
        String::from(r#"<section id="where-changed"><h2>Where the instructions changed</h2>"#);
    for (name, changes) in &all {
        let title = where_changed::title(&format!("<code>{}</code>", escape(name)));
        let _ = write!(out, "<details open><summary>{title}</summary><ul>");
        for change in changes {
            let function = format!("<code>{}</code>", escape(&change.function));
            let _ = write!(out, "<li>{}</li>", where_changed::line(change, &function));
        }
        out.push_str("</ul></details>");
    }
    out.push_str("</section>");
    out
}
