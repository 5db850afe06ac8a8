//! The bisection's HTML page (`cargo speedup bisect --format html`, `--html FILE`): what was searched, the
//! outcome, and the chart of the speedup along the range (`docs/bisect.md` §7, `docs/html.md` §8).
//!
//! The chart is the forest plot's table of strips ([`crate::report::html::forest`]) turned to the path: one row per
//! commit, GOOD on top and BAD at the bottom in path order, each measured commit's speedup against GOOD as
//! a point with its interval on the forest's logarithmic axis (its scale rule: `glyph::drawn`, widened by
//! 8 %, within 1/100x to 100x, arrows past it), the line at 1x (no change). GOOD is the reference (a
//! hollow diamond at 1x); a commit whose executables were identical to GOOD's (nothing ran) is a filled
//! diamond at 1x; a skipped commit says why; a commit the search did not need is left blank and says so,
//! and two or more of them next to each other are folded into one row whose list opens on a click (a long
//! range's few measured commits stay on one screen).
//! The commit named is highlighted (and so are the commits of the interval left, when the search stopped
//! short). No equivalence band is shaded: the bisection's report does not carry the margin.
//!
//! Must not: decide anything (the steps are `protocol::bisect`'s) or write a subject unescaped: every sha,
//! subject and reason goes through [`escape`] (`crate::inert::html`).

use std::fmt::Write as _;

use super::bisection::{Bisection, Ending, Measurement, comparison_level};
use crate::protocol::Direction;
use crate::protocol::bisect::Step;
use crate::report::format;
use crate::report::html::CSS;
use crate::report::html::forest::{self, MID, verdict_class};
use crate::report::html::svg::{LogScale, escape, px, shorten};

/// Characters of a subject shown in a row (the whole subject is in its tooltip).
const SUBJECT_CHARS: usize = 90;

/// The whole page.
pub(crate) fn page(b: &Bisection) -> String {
    let outcome = match b.ending {
        Ending::NothingToBisect => "nothing to bisect",
        Ending::Named(_) => "commit named",
        Ending::Interval { .. } => "interval left",
    };
    let mut body = header(b);
    let _ = write!(
        body,
        r#"<section id="range"><h2>Speedup along the range</h2><p class="lead">One row per commit of the first-parent path, oldest first: GOOD on top, BAD at the bottom. A measured commit's speedup against GOOD (GOOD's time / its time: below 1x it is slower than GOOD) is a point with its interval, on a logarithmic axis; the grey line is 1x, no change. ◇ GOOD, the reference; ◆ executables identical to GOOD's, nothing ran; a blank row is a commit the search did not need to measure, and two or more of them in a row are folded into one (click it for their list).</p>{}</section>"#,
        chart(b)
    );
    body.push_str(&search(b));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>cargo-speedup bisect: {outcome}</title><style>{CSS}</style></head>\
         <body><main>{body}</main></body></html>\n"
    )
}

fn short(sha: &str) -> String {
    sha.chars().take(10).collect()
}

/// `<code>sha</code> “subject”` of the commit at `index`, escaped, the subject cut.
fn commit(b: &Bisection, index: usize) -> String {
    let entry = &b.path[index];
    format!(
        "<code title=\"{}\">{}</code> “{}”",
        escape(&entry.sha),
        escape(&short(&entry.sha)),
        escape(&shorten(&entry.subject, SUBJECT_CHARS))
    )
}

/// The outcome as a banner (red or green for a commit named, amber for an interval, grey for nothing to
/// bisect), and what was searched under it, as the comparison page says what it compared.
fn header(b: &Bisection) -> String {
    let class = match (&b.ending, b.direction) {
        (Ending::Named(_), Direction::Slower) => "v-slower",
        (Ending::Named(_), Direction::Faster) => "v-faster",
        (Ending::Interval { .. }, _) => "v-inconclusive",
        (Ending::NothingToBisect, _) => "v-unchanged",
    };
    let last = b.path.len() - 1;
    let threshold = if b.threshold_pct > 0.0 {
        format!(" by at least {}", format::percent_value(b.threshold_pct))
    } else {
        String::new()
    };
    let own_change = b
        .named_change_line()
        .map(|line| format!(r#"<p class="named-change">{}</p>"#, escape(&line)))
        .unwrap_or_default();
    format!(
        r#"<header><h1>cargo-speedup bisect</h1><p class="headline {class}"><strong>{}</strong></p>{own_change}<p class="compared">Searched the {last} commits of the first-parent path after GOOD {} up to BAD {} (<code>{}..{}</code>) for the first commit after which the benchmarks are {}{threshold}.</p></header>"#,
        escape(&b.summary()),
        commit(b, 0),
        commit(b, last),
        escape(&short(&b.path[0].sha)),
        escape(&short(&b.path[last].sha)),
        b.direction.as_str(),
    )
}

/// How the search went: the confidence, the error budget, the comparisons, the skipped commits.
fn search(b: &Bisection) -> String {
    let mut out = String::from(r#"<section id="search"><h2>Search</h2><ul>"#);
    let budget = format!(
        "each comparison was made at confidence {} (Bonferroni over {} comparisons budgeted); comparisons \
         made: {}",
        comparison_level(b.comparison_confidence),
        b.budgeted,
        b.comparisons
    );
    let _ = match b.ending {
        Ending::Named(_) => write!(
            out,
            "<li>The commit named is right with confidence {}, given one change in the range: {}.</li>",
            escape(&format::level(b.confidence)),
            escape(&budget)
        ),
        _ => write!(
            out,
            "<li>A commit named would be right with confidence {}: {}.</li>",
            escape(&format::level(b.confidence)),
            escape(&budget)
        ),
    };
    if let Some(why) = b.reason() {
        let _ = write!(out, "<li>The search stopped: {}.</li>", escape(&why));
    }
    for (i, why) in &b.skipped {
        let _ = write!(
            out,
            "<li>Skipped {} (commit {i}): {}</li>",
            commit(b, *i),
            escape(why)
        );
    }
    out.push_str("</ul></section>");
    out
}

/// The commits the ending points at: the one named, or those of the interval left.
fn highlighted(b: &Bisection, index: usize) -> Option<&'static str> {
    match b.ending {
        Ending::Named(named) if named == index => Some("named"),
        Ending::Interval { good, bad, .. } if index > good && index <= bad => Some("left"),
        _ => None,
    }
}

/// The chart: a table of strips sharing one logarithmic axis, a row per commit in path order.
fn chart(b: &Bisection) -> String {
    let measured: Vec<&Measurement> = b.path.iter().filter_map(|e| e.measured.as_ref()).collect();
    let points = measured.iter().filter_map(|m| m.speedup);
    let intervals = measured.iter().filter_map(|m| m.interval);
    // No band: the report does not carry the equivalence margin.
    let scale = forest::spanning(crate::report::glyph::drawn(points, intervals), (1.0, 1.0));
    let mut out = format!(
        r#"<table class="forest bisect" data-plot="bisect"><thead><tr><th scope="col">Commit</th><th scope="col" class="strip">{}</th><th scope="col" class="figures">Speedup vs GOOD [interval]</th></tr></thead><tbody>"#,
        forest::axis(&scale)
    );
    let mut i = 0;
    while i < b.path.len() {
        let run = (i..b.path.len()).take_while(|&k| folded(b, k)).count();
        if run >= 2 {
            out.push_str(&unmeasured_rows(b, i, i + run - 1, &scale));
            i += run;
            continue;
        }
        out.push_str(&row(b, i, &scale));
        i += 1;
    }
    out.push_str("</tbody></table>");
    out
}

/// Whether commit `index` goes into a folded row with its unmeasured neighbours: neither GOOD nor BAD,
/// not measured, not skipped, and outside the interval left.
fn folded(b: &Bisection, index: usize) -> bool {
    index != 0
        && index != b.path.len() - 1
        && b.path[index].measured.is_none()
        && !b.skipped.iter().any(|(s, _)| *s == index)
        && highlighted(b, index).is_none()
}

/// One row for the unmeasured commits `first` to `last` (two or more, in path order): their number, and
/// each commit's hash and subject in a list that opens on a click, so that a long range's few measured
/// commits stay together on the screen.
fn unmeasured_rows(b: &Bisection, first: usize, last: usize, scale: &LogScale) -> String {
    let mut list = String::new();
    for i in first..=last {
        let _ = write!(
            list,
            r#"<li title="{}"><span class="index">{i}</span> <code>{}</code> {}</li>"#,
            escape(&b.path[i].sha),
            escape(&short(&b.path[i].sha)),
            escape(&shorten(&b.path[i].subject, SUBJECT_CHARS))
        );
    }
    format!(
        r#"<tr class="v-unchanged unmeasured" data-commits="{first}-{last}"><th scope="row"><details><summary><span class="index">{first}–{last}</span> {} commits</summary><ul class="commits">{list}</ul></details></th><td class="strip">{}</td><td class="figures"><small class="note">not measured: the search did not need them</small></td></tr>"#,
        last - first + 1,
        forest::frame("not measured", scale, None, ""),
    )
}

/// The row of commit `i`: its hash, GOOD or BAD, its subject, its strip and its figures.
fn row(b: &Bisection, i: usize, scale: &LogScale) -> String {
    let entry = &b.path[i];
    let m = entry.measured.as_ref();
    let skipped = b.skipped.iter().find(|(s, _)| *s == i).map(|(_, w)| w);
    let mut classes = vec![
        m.and_then(|m| m.against_good)
            .map_or("v-unchanged", verdict_class),
    ];
    if m.is_none() && i != 0 {
        classes.push("unmeasured");
    }
    if skipped.is_some() || m.is_some_and(|m| m.step == Some(Step::Skipped)) {
        classes.push("skipped");
    }
    classes.extend(highlighted(b, i));
    let role = match i {
        0 => r#" <span class="role">GOOD</span>"#,
        i if i == b.path.len() - 1 => r#" <span class="role">BAD</span>"#,
        _ => "",
    };
    format!(
        r#"<tr class="{}" data-commit="{i}"><th scope="row" title="{} {}"><span class="index">{i}</span> <code>{}</code>{role}<br><span class="subject">{}</span></th><td class="strip">{}</td><td class="figures">{}</td></tr>"#,
        classes.join(" "),
        escape(&entry.sha),
        escape(&entry.subject),
        escape(&short(&entry.sha)),
        escape(&shorten(&entry.subject, SUBJECT_CHARS)),
        strip(i, m, scale),
        figures(b, i, m, skipped, scale)
    )
}

/// One commit's strip: GOOD's reference diamond, an identical commit's diamond, or the point and interval.
fn strip(index: usize, m: Option<&Measurement>, scale: &LogScale) -> String {
    let mut marks = String::new();
    let aria = if index == 0 {
        diamond(&mut marks, scale, "reference");
        "GOOD, the reference: 1x".to_string()
    } else {
        match m {
            None => "not measured".to_string(),
            Some(m) if m.identical && m.speedup.is_none() => {
                diamond(&mut marks, scale, "identical");
                "identical executables to GOOD: 1x, nothing ran".to_string()
            }
            Some(m) => match m.speedup {
                Some(s) => {
                    forest::interval_marks(&mut marks, m.interval, scale);
                    forest::point_mark(&mut marks, s, scale);
                    format!(
                        "{}: {}",
                        m.against_good.map_or("", |v| v.as_str()),
                        format::speedup_with_interval(s, m.interval)
                    )
                }
                None => "no speedup measured".to_string(),
            },
        }
    };
    forest::frame(&aria, scale, None, &marks)
}

/// A diamond at 1x, `class` `reference` (hollow) or `identical` (filled).
fn diamond(out: &mut String, scale: &LogScale, class: &str) {
    if let Some(x) = scale.x(1.0) {
        let _ = write!(
            out,
            r#"<path class="{class}" d="M{} {}L{} {}L{} {}L{} {}Z"/>"#,
            px(x - 5.0),
            px(MID),
            px(x),
            px(MID - 5.0),
            px(x + 5.0),
            px(MID),
            px(x),
            px(MID + 5.0)
        );
    }
}

/// The figures beside a strip: the speedup and its verdict, the step, and what the picture cannot show.
fn figures(
    b: &Bisection,
    index: usize,
    m: Option<&Measurement>,
    skipped: Option<&String>,
    scale: &LogScale,
) -> String {
    let mut out = String::new();
    let mut notes: Vec<String> = Vec::new();
    match m {
        _ if index == 0 => out.push_str("1x <span class=\"verdict\">reference</span>"),
        None => notes.push("not measured: the search did not need it".into()),
        Some(m) => {
            if let Some(s) = m.speedup {
                out.push_str(&escape(&format::speedup_with_interval(s, m.interval)));
                if let Some((lo, hi)) = m.interval {
                    if scale.outside(lo) || scale.outside(hi) {
                        notes.push(
                            "the interval goes past the axis: an arrow marks the cut end".into(),
                        );
                    }
                } else {
                    notes.push("no interval: the suite's verdict (HPT) gives none".into());
                }
            } else if m.identical {
                out.push_str("1x");
            }
            if let Some(v) = m.against_good {
                let _ = write!(out, r#" <span class="verdict">{}</span>"#, v.as_str());
            }
            if m.identical {
                notes.push("identical executables: nothing ran".into());
            }
            let mut step = Vec::new();
            if let Some(s) = m.step.filter(|s| *s != Step::Skipped) {
                step.push(format!("step: {}", s.as_str()));
            }
            if let Some(v) = m.against_bad {
                step.push(format!("BAD vs it: {}", v.as_str()));
            }
            if !step.is_empty() {
                notes.push(step.join(" · "));
            }
        }
    }
    if let Some(why) = skipped {
        notes.push(format!("skipped: {why}"));
    }
    match highlighted(b, index) {
        Some("named") => {
            out.push_str(r#" <strong class="named-label">◀ the commit named</strong>"#)
        }
        Some(_) => notes.push("in the interval left".into()),
        None => {}
    }
    for note in notes {
        let _ = write!(out, r#"<br><small class="note">{}</small>"#, escape(&note));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::bisection::PathEntry;
    use super::*;
    use crate::protocol::Verdict;
    use crate::protocol::bisect::Cut;

    fn measured(speedup: f64, verdict: Verdict, step: Option<Step>) -> Option<Measurement> {
        Some(Measurement {
            speedup: Some(speedup),
            interval: Some((speedup * 0.96, speedup * 1.04)),
            against_good: Some(verdict),
            against_bad: None,
            identical: false,
            step,
        })
    }

    /// GOOD, 6 commits: 1 not reached, 2 identical to GOOD, 3 like GOOD, 4 named (0.5x), 5 not reached,
    /// BAD (0.5x).
    fn bisection() -> Bisection {
        let entry = |n: u32, subject: &str, measured: Option<Measurement>| PathEntry {
            sha: format!("{n:x}{}", "a".repeat(39)),
            subject: subject.to_string(),
            measured,
        };
        Bisection {
            direction: Direction::Slower,
            threshold_pct: 0.0,
            confidence: 0.95,
            comparison_confidence: 1.0 - 0.05 / 7.0,
            budgeted: 7,
            comparisons: 4,
            path: vec![
                entry(0, "base", None),
                entry(1, "one", None),
                entry(
                    2,
                    "docs",
                    Some(Measurement {
                        speedup: None,
                        interval: None,
                        against_good: Some(Verdict::Unchanged),
                        against_bad: None,
                        identical: true,
                        step: Some(Step::LikeGood),
                    }),
                ),
                entry(
                    3,
                    "tidy",
                    measured(0.99, Verdict::Unchanged, Some(Step::LikeGood)),
                ),
                entry(
                    4,
                    "slow down",
                    measured(0.5, Verdict::Slower, Some(Step::LikeBad)),
                ),
                entry(5, "five", None),
                entry(6, "head", measured(0.51, Verdict::Slower, None)),
            ],
            ending: Ending::Named(4),
            skipped: vec![],
            named_change: None,
            more_steps: None,
        }
    }

    /// The row of commit `i`, from `<tr` to `</tr>`.
    fn row(html: &str, i: usize) -> &str {
        let start = html.find(&format!("data-commit=\"{i}\"")).expect("the row");
        let start = html[..start].rfind("<tr").expect("its start");
        let end = start + html[start..].find("</tr>").expect("its end");
        &html[start..end]
    }

    /// The `cx` of the row's point.
    fn point_x(row: &str) -> f64 {
        let at = row.find("<circle class=\"point\" cx=\"").expect("a point") + 26;
        row[at..at + row[at..].find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn commits_are_rows_in_path_order_good_first_bad_last() {
        let html = page(&bisection());
        let positions: Vec<usize> = (0..7)
            .map(|i| html.find(&format!("data-commit=\"{i}\"")).expect("a row"))
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
        assert_eq!(html.matches("data-commit=").count(), 7);
        assert!(row(&html, 0).contains(r#"<span class="role">GOOD</span>"#));
        assert!(row(&html, 6).contains(r#"<span class="role">BAD</span>"#));
        assert_eq!(html.matches(r#"<span class="role">"#).count(), 2);
        assert!(row(&html, 4).contains("slow down"));
    }

    #[test]
    fn each_measured_commit_has_one_point_and_one_interval() {
        let html = page(&bisection());
        // Commits 3, 4 and BAD were measured with a speedup and an interval; 2 ran nothing.
        assert_eq!(html.matches(r#"<circle class="point""#).count(), 3);
        // An interval is one horizontal line at mid-height and a tick at each end.
        let horizontal = format!(r#"y1="{0}" x2="#, px(MID));
        let intervals: Vec<usize> = (0..7)
            .filter(|&i| {
                row(&html, i).match_indices(&horizontal).any(|(at, _)| {
                    row(&html, i)[at..].contains(&format!(r#"y2="{}" class="ci""#, px(MID)))
                })
            })
            .collect();
        assert_eq!(intervals, [3, 4, 6]);
        for i in [3, 4, 6] {
            assert_eq!(row(&html, i).matches(r#"class="ci""#).count(), 3, "{i}");
        }
        // GOOD is the reference and commit 2 the identical one, each a diamond at 1x.
        assert_eq!(html.matches(r#"<path class="reference""#).count(), 1);
        assert!(row(&html, 0).contains(r#"<path class="reference""#));
        assert_eq!(html.matches(r#"<path class="identical""#).count(), 1);
        assert!(row(&html, 2).contains("identical executables: nothing ran"));
        for i in [1, 5] {
            assert!(row(&html, i).contains("not measured: the search did not need it"));
            assert!(row(&html, i).contains("unmeasured"));
            assert!(!row(&html, i).contains("<circle"));
        }
    }

    #[test]
    fn slower_commits_lie_left_of_one_and_the_named_one_is_highlighted_once() {
        let html = page(&bisection());
        let one = |r: &str| -> f64 {
            let at = r.find(r#"class="one""#).expect("1x");
            let x1 = r[..at].rfind("x1=\"").unwrap() + 4;
            r[x1..x1 + r[x1..].find('"').unwrap()].parse().unwrap()
        };
        let (named, tidy) = (row(&html, 4), row(&html, 3));
        assert!(point_x(named) < point_x(tidy), "0.5x left of 0.99x");
        assert!(point_x(tidy) < one(tidy), "0.99x left of 1x");
        assert!(
            point_x(named) < point_x(row(&html, 6)),
            "0.5x left of 0.51x"
        );
        assert_eq!(html.matches("◀ the commit named").count(), 1);
        assert_eq!(html.matches(r#" named" data-commit"#).count(), 1);
        assert!(
            named.starts_with(r#"<tr class="v-slower named" data-commit="4""#),
            "{named}"
        );
    }

    #[test]
    fn the_page_says_what_was_searched_and_an_interval_is_highlighted() {
        let mut b = bisection();
        let html = page(&b);
        assert!(html.contains(
            "Searched the 6 commits of the first-parent path after GOOD <code title=\"0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">0aaaaaaaaa</code> “base” up to BAD <code title=\"6aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">6aaaaaaaaa</code> “head” (<code>0aaaaaaaaa..6aaaaaaaaa</code>) for the first commit after which the benchmarks are slower."
        ), "{html}");
        assert!(
            html.contains(
                r#"<p class="headline v-slower"><strong>The slowdown came with 4aaaaaaaaa"#
            )
        );
        b.ending = Ending::Interval {
            good: 3,
            bad: 6,
            cut: Cut::TimeBudget,
        };
        let html = page(&b);
        let left: Vec<usize> = (0..7)
            .filter(|&i| row(&html, i).contains(" left\""))
            .collect();
        assert_eq!(left, [4, 5, 6]);
        assert!(!html.contains("◀ the commit named"));
        assert!(html.contains("<li>The search stopped: the --budget is spent.</li>"));
        assert!(html.contains(r#"class="headline v-inconclusive""#));
    }

    #[test]
    fn runs_of_unmeasured_commits_fold_into_one_row_listing_them() {
        let mut b = bisection();
        // Commits 1 to 3 unmeasured: one row; commit 5 alone keeps its own.
        b.path[2].measured = None;
        b.path[3].measured = None;
        let html = page(&b);
        let rows: Vec<&str> = html
            .match_indices("<tr class=")
            .map(|(at, _)| {
                let data = at + html[at..].find("data-commit").expect("data");
                &html[data..data + html[data..].find('>').expect("end")]
            })
            .collect();
        assert_eq!(
            rows,
            [
                r#"data-commit="0""#,
                r#"data-commits="1-3""#,
                r#"data-commit="4""#,
                r#"data-commit="5""#,
                r#"data-commit="6""#
            ]
        );
        let folded = &html[html.find(r#"data-commits="1-3""#).unwrap()..];
        let folded = &folded[..folded.find("</tr>").unwrap()];
        assert!(folded.contains("<span class=\"index\">1–3</span> 3 commits</summary>"));
        for (i, subject) in [(1, "one"), (2, "docs"), (3, "tidy")] {
            assert!(
                folded.contains(&format!(
                    "<span class=\"index\">{i}</span> <code>{i}aaaaaaaaa</code> {subject}</li>"
                )),
                "{folded}"
            );
        }
        assert!(html.contains("<li>The commit named is right with confidence 0.95"));
        // Commits of an interval left are never folded, and nothing is said named.
        b.ending = Ending::Interval {
            good: 0,
            bad: 4,
            cut: Cut::TimeBudget,
        };
        let html = page(&b);
        assert!(!html.contains("data-commits="));
        assert!(
            html.contains(
                "<li>A commit named would be right with confidence 0.95: each comparison"
            )
        );
    }

    #[test]
    fn subjects_and_reasons_are_escaped_and_add_no_tag() {
        let with = |subject: &str, why: &str| {
            let mut b = bisection();
            for entry in &mut b.path {
                entry.subject = subject.into();
            }
            b.path[5].measured = Some(Measurement::skipped());
            b.skipped = vec![(5, why.into())];
            page(&b)
        };
        let plain = with("plain", "building failed");
        let html = with(
            "<script>alert(\"x\")</script>&'\u{202e}",
            "building <img src=x onerror=y> failed",
        );
        assert!(!html.contains("<script") && !html.contains("<img"));
        assert!(!html.contains('\u{202e}'));
        assert!(
            html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;\\u{202e}")
        );
        assert!(row(&html, 5).contains("skipped: building &lt;img src=x onerror=y&gt; failed"));
        assert_eq!(html.matches('<').count(), plain.matches('<').count());
    }
}
