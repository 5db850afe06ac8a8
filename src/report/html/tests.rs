//! The page's structure and its bad inputs: snapshots of every SVG of each sample analysis (the plots'
//! structure stays stable), and pages that must still render, escaped, with the missing plots explained:
//! hostile and very long names, one run per side, infinite or missing intervals, no curve.

use super::sections::{facts, header};
use super::*;
use crate::model::BaseHead;
use crate::protocol::{Analysis, ConfidencePoint, RunPoint};
use crate::testutil::analyses;

/// Every `<svg>...</svg>` of `page`, one per line: the plots without the page around them.
fn svgs(page: &str) -> String {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("closed svg") + start + "</svg>".len();
        out.push(&rest[start..end]);
        rest = &rest[end..];
    }
    out.join("\n")
}

#[test]
fn snapshots_of_the_plots_of_every_sample() {
    for (name, analysis) in analyses::all() {
        insta::assert_snapshot!(format!("html_svg_{name}"), svgs(&page(&analysis)));
    }
}

#[test]
fn the_page_is_self_contained_and_balanced() {
    let html = page(&analyses::faster_suite());
    assert!(html.starts_with("<!DOCTYPE html>"));
    for forbidden in ["<script", "http://", "src=", "<link", "@import", "url("] {
        assert!(!html.contains(forbidden), "{forbidden}");
    }
    // The only addresses are the glossary's links, to the pages of this repository: nothing is fetched.
    let repository = "<a href=\"https://github.com/cargo-speedup/cargo-speedup/blob/main/docs/";
    assert!(html.contains(repository));
    assert_eq!(
        html.matches("https://").count(),
        html.matches(repository).count(),
        "{html}"
    );
    for tag in ["svg", "table", "section", "figure", "tr"] {
        let open = html.matches(&format!("<{tag}")).count();
        let close = html.matches(&format!("</{tag}>")).count();
        assert_eq!(open, close, "<{tag}> opened {open} times, closed {close}");
    }
    for plot in [
        "data-plot=\"forest\"",
        "data-plot=\"curve\"",
        "data-plot=\"runs\"",
    ] {
        assert!(html.contains(plot), "{plot}");
    }
}

#[test]
fn names_and_messages_are_escaped_and_long_names_cut() {
    let mut analysis = analyses::inconclusive_with_warnings();
    let hostile = "<script>alert(\"x\")</script>&'".to_string();
    analysis.benchmarks[0].name = hostile.clone();
    analysis.benchmarks[1].name = "n".repeat(10_000);
    analysis.benchmarks[0]
        .warnings
        .push(crate::protocol::Warning::new(
            crate::protocol::WarningKind::Input,
            "a <b>message</b> & more",
        ));
    let html = page(&analysis);
    assert!(!html.contains("<script"));
    assert!(!html.contains("<b>"));
    assert!(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"));
    assert!(html.contains("a &lt;b&gt;message&lt;/b&gt; &amp; more"));
    // The long name is shown cut (with an ellipsis) and kept whole only in tooltips.
    assert!(html.contains(&format!("{}…", "n".repeat(79))));
    assert!(html.len() < 200_000, "{} bytes", html.len());
}

#[test]
fn one_run_per_side_says_there_is_no_distribution() {
    let mut analysis = analyses::faster_suite();
    analysis.benchmarks[0].points = BaseHead::new(
        vec![RunPoint {
            value: 100.0,
            spread: None,
        }],
        vec![RunPoint {
            value: 90.0,
            spread: None,
        }],
    );
    let html = page(&analysis);
    assert!(html.contains("No distribution to draw: BASE has 1 and HEAD 1 observation(s)"));
}

#[test]
fn infinite_and_missing_intervals_are_drawn_to_the_edge_or_explained() {
    let mut analysis = analyses::faster_suite();
    analysis.benchmarks[0].equivalence.interval = Some((1.1, f64::INFINITY));
    analysis.benchmarks[1].equivalence.interval = None;
    analysis.benchmarks[2].equivalence.interval = Some((0.001, 5000.0));
    let html = page(&analysis);
    // An infinite end (which the analysis never prints: `Equivalence::interval` keeps finite ends only) is
    // cut at the axis like any end past it.
    assert_eq!(
        html.matches("the interval goes past the axis").count(),
        2,
        "{html}"
    );
    assert!(html.contains("no interval: too few runs"));
    // The axis spans the points, 1.1, 1 and the band, widened by 8 %: 0.98 / 1.08 to 1.1595 * 1.08; the
    // interval of 0.001x to 5000x is clipped at both ends.
    assert!(html.contains("the interval goes past the axis (0.908x to 1.252x)"));
    assert_eq!(
        html.matches("class=\"arrow\"").count(),
        3,
        "one arrow per open end"
    );
    assert!(!html.to_lowercase().contains("nan") && !html.contains("inf\""));
}

#[test]
fn a_suite_without_curve_says_so() {
    let mut analysis = analyses::faster_suite();
    analysis.suite.hpt.curve.clear();
    assert!(page(&analysis).contains("No confidence curve"));
    analysis.suite.hpt.curve = vec![
        ConfidencePoint {
            gamma: 0.9,
            faster: 1.0,
            slower: 0.0,
        },
        ConfidencePoint {
            gamma: 1.2,
            faster: 0.5,
            slower: 0.4,
        },
    ];
    let html = page(&analysis);
    assert!(html.contains("class=\"curve-line faster\""));
    assert!(html.contains("0.95-speedup"));
}

#[test]
fn regressions_come_first_in_the_forest() {
    let analysis = analyses::slower_suite_failed_gate();
    let order = forest::order(&analysis);
    let verdicts: Vec<_> = order
        .iter()
        .map(|&i| analysis.benchmarks[i].verdict)
        .collect();
    let first_other = verdicts
        .iter()
        .position(|v| *v != crate::protocol::Verdict::Slower)
        .unwrap_or(verdicts.len());
    assert!(
        verdicts[first_other..]
            .iter()
            .all(|v| *v != crate::protocol::Verdict::Slower),
        "{verdicts:?}"
    );
    assert!(first_other > 0, "the sample has a slower benchmark");
}

#[test]
fn many_samples_are_thinned_to_the_most_points() {
    let mut analysis = analyses::faster_suite();
    let many: Vec<RunPoint> = (0..5000)
        .map(|i| RunPoint {
            value: 1000.0 + f64::from(i),
            spread: None,
        })
        .collect();
    analysis.benchmarks[0].points = BaseHead::new(many.clone(), many);
    let figure = runs::figure(&analysis.benchmarks[0], "x");
    assert_eq!(figure.matches("<circle").count(), 2 * runs::MAX_POINTS);
    assert!(figure.contains("evenly spaced points"));
}

#[test]
fn the_headlines_code_is_set_as_code_and_a_names_backticks_as_typed() {
    // Some sample's headline speaks of an option in backticks (the gate that cannot fail, the fix).
    let with_code: Vec<(String, Analysis)> = analyses::all()
        .into_iter()
        .filter(|(_, a)| {
            crate::report::headline(a)
                .iter()
                .any(|s| s.plain().contains('`'))
        })
        .map(|(n, a)| (n.to_string(), a))
        .collect();
    assert!(!with_code.is_empty());
    for (name, analysis) in &with_code {
        let top = header(analysis);
        assert!(top.contains("<code>--"), "{name}: {top}");
        assert!(!top.contains('`'), "{name}: {top}");
    }
    // A name is the stranger's: its backticks stay characters, its text is never set as code.
    let (_, mut analysis) = with_code.into_iter().next().unwrap();
    for b in &mut analysis.benchmarks {
        b.name = format!("a`{}`b", b.name);
    }
    let top = header(&analysis);
    assert!(
        crate::report::headline(&analysis)
            .iter()
            .any(|s| s.plain().contains("a`")),
        "the sample's headline names a benchmark"
    );
    assert!(top.contains("a`"), "{top}");
    assert!(!top.contains("a<code>"), "{top}");
}

#[test]
fn the_suites_words_set_their_code_as_code_and_names_listed_there_stay_as_typed() {
    // The suite's figures: HPT's sentence names `--fail-on any` when the gate cannot fail.
    let (_, mut analysis) = analyses::all()
        .into_iter()
        .find(|(_, a)| {
            crate::report::suite::suite_facts(a, true)
                .iter()
                .any(|f| f.text.contains('`'))
        })
        .expect("a sample whose suite's figures speak of an option");
    let suite = facts(&analysis);
    assert!(suite.contains("<code>--"), "{suite}");
    assert!(!suite.contains('`'), "{suite}");
    // Names listed there (only on one side, identical executables) are the stranger's: their backticks
    // stay characters.
    analysis.base_only = vec!["a`x`b".to_string(), "c`d`e".to_string()];
    analysis.identical = vec!["f`g`h".to_string(), "i`j`k".to_string()];
    let suite = facts(&analysis);
    for name in ["a`x`b", "c`d`e", "f`g`h", "i`j`k"] {
        assert!(suite.contains(name), "{name}: {suite}");
    }
    assert!(
        !suite.contains("<code>x</code>") && !suite.contains("<code>g</code>"),
        "{suite}"
    );
}
