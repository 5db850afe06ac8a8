//! The forest plot: one row per benchmark, its median speedup as a point and its printed interval
//! ([`crate::protocol::BenchmarkAnalysis::interval`]: the equivalence check's 1 − 2α Hodges-Lehmann interval,
//! `docs/statistics.md` §5.2) as a line on one logarithmic axis shared by every row, 1x marked and the
//! equivalence band [1/(1 + ε), 1 + ε] shaded, coloured by verdict, regressions on top.
//!
//! It is an HTML table whose rows each hold a small inline SVG strip on the same scale, rather than one big
//! SVG: the names stay real text that wraps on a phone, and the header (the axis) stays in view while a
//! long suite scrolls. An interval that leaves the axis (or is infinite) ends in an arrow at the edge and
//! says so beside the figures; a benchmark without an interval says why.
//!
//! The axis spans what the table's glyphs span ([`crate::report::glyph::drawn_speedups`]: every point, and
//! the bounds but the far ones of a rare wide interval), the equivalence band and 1, widened by 8 % and
//! kept within 1/100x to 100x: one benchmark's wide interval ends in an arrow instead of squashing every
//! other row towards 1x. Tick labels near an end are aligned to it, so that none is cut. A point (the ratio
//! of the medians) outside its interval (the Hodges-Lehmann interval of the ratio) is drawn where it is,
//! and the figures say so.

use std::fmt::Write as _;

use super::svg::{LogScale, escape, line, px, ratio_label, shorten, text};
use crate::protocol::{Analysis, BenchmarkAnalysis, Verdict};
use crate::report::format;

/// The strip's view box: width and height.
const WIDTH: f64 = 400.0;
const HEIGHT: f64 = 22.0;
const LEFT: f64 = 10.0;
const RIGHT: f64 = WIDTH - 10.0;
/// The axis spans at most 1/100x to 100x; beyond, intervals end in arrows.
const LIMIT: f64 = 100.0;
/// The font size of the tick labels, in view-box units (`.tick-label` in the page's style).
const TICK_FONT: f64 = 11.0;
/// Characters of a name shown in a row (the whole name is in its tooltip).
const NAME_CHARS: usize = 80;

/// The order of the rows: slower first (the largest regression on top), then inconclusive, unchanged and
/// faster, each by median speedup, smallest first; a speedup that is not a number goes last in its group.
pub(crate) fn order(analysis: &Analysis) -> Vec<usize> {
    let group = |v: Verdict| match v {
        Verdict::Slower => 0,
        Verdict::Inconclusive => 1,
        Verdict::Unchanged => 2,
        Verdict::Faster => 3,
    };
    let mut order: Vec<usize> = (0..analysis.benchmarks.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&analysis.benchmarks[a], &analysis.benchmarks[b]);
        let key = |x: &BenchmarkAnalysis| {
            let s = x.shown_speedup();
            (
                group(x.verdict),
                !s.is_finite(),
                if s.is_finite() { s } else { 0.0 },
            )
        };
        let (ka, kb) = (key(a), key(b));
        (ka.0, ka.1).cmp(&(kb.0, kb.1)).then(ka.2.total_cmp(&kb.2))
    });
    order
}

/// The CSS class of a verdict's colour.
pub(crate) fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Faster => "v-faster",
        Verdict::Slower => "v-slower",
        Verdict::Unchanged => "v-unchanged",
        Verdict::Inconclusive => "v-inconclusive",
    }
}

/// The shared scale of every row: every finite estimate and interval bound, the equivalence band and 1.
fn scale(analysis: &Analysis, band: (f64, f64)) -> LogScale {
    spanning(crate::report::glyph::drawn_speedups(analysis), band)
}

/// The forest's axis over `values` (already thinned by the glyphs' rule, `glyph::drawn`), `band` and 1:
/// widened by 8 % and kept within [1/[`LIMIT`], [`LIMIT`]].
pub(crate) fn spanning(values: Vec<f64>, band: (f64, f64)) -> LogScale {
    LogScale::around_one(
        values.into_iter().chain([band.0, band.1]),
        1.08,
        LIMIT,
        LEFT,
        RIGHT,
    )
}

/// The equivalence band of the analysis (ε of its first benchmark: one `--equivalence` for all).
fn band(analysis: &Analysis) -> (f64, f64) {
    let eps = analysis
        .benchmarks
        .first()
        .map_or(2.0, |b| b.equivalence.margin_pct)
        / 100.0;
    (1.0 / (1.0 + eps), 1.0 + eps)
}

/// The forest plot as an HTML table, rows in `order`.
pub(crate) fn forest(analysis: &Analysis, order: &[usize]) -> String {
    let band = band(analysis);
    let scale = scale(analysis, band);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<table class="forest" data-plot="forest"><thead><tr><th scope="col">Benchmark</th><th scope="col" class="strip">{}</th><th scope="col" class="figures">Speedup [interval]</th></tr></thead><tbody>"#,
        axis(&scale)
    );
    for &i in order {
        let b = &analysis.benchmarks[i];
        let class = verdict_class(b.verdict);
        let _ = write!(
            out,
            r#"<tr class="{class}"><th scope="row" title="{}">{}</th><td class="strip">{}</td><td class="figures">{}</td></tr>"#,
            escape(&b.name),
            escape(&shorten(&b.name, NAME_CHARS)),
            strip(b, &scale, band),
            figures(b, &scale)
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// The axis strip of the header: ticks labelled `0.9x`, `1x`, `1.1x`.
pub(crate) fn axis(scale: &LogScale) -> String {
    let mut out = format!(
        r#"<svg class="axis" viewBox="0 0 {} 24" role="img" aria-label="speedup, logarithmic axis">"#,
        px(WIDTH)
    );
    for t in scale.ticks(44.0) {
        if let Some(x) = scale.x(t) {
            line(&mut out, (x, 18.0), (x, 24.0), "tick");
            let label = ratio_label(t);
            let (at, anchor) = label_position(x, &label);
            text(&mut out, at, 14.0, anchor, "tick-label", &label);
        }
    }
    out.push_str("</svg>");
    out
}

/// Where the tick label `label` of the tick at `x` stays inside the strip: centred under the tick, or
/// aligned to the end it would cross (`100x` at the right end).
fn label_position(x: f64, label: &str) -> (f64, &'static str) {
    // About 0.6 em for a digit or an `x`, 0.3 em for a point, in a sans-serif font.
    let width: f64 = label
        .chars()
        .map(|c| if c == '.' { 0.3 } else { 0.6 })
        .sum::<f64>()
        * TICK_FONT;
    if x - width / 2.0 < 0.0 {
        (0.0, "start")
    } else if x + width / 2.0 > WIDTH {
        (WIDTH, "end")
    } else {
        (x, "middle")
    }
}

/// One benchmark's strip: the band, the grid, 1x, the interval and the point.
fn strip(b: &BenchmarkAnalysis, scale: &LogScale, band: (f64, f64)) -> String {
    let aria = format!(
        "{}: {}",
        b.verdict.as_str(),
        format::speedup_with_interval_against(
            b.shown_speedup(),
            b.interval(),
            b.equivalence.margin_pct
        )
    );
    let mut marks = String::new();
    interval_marks(&mut marks, b.interval(), scale);
    point_mark(&mut marks, b.shown_speedup(), scale);
    frame(&aria, scale, Some(band), &marks)
}

/// A strip of the forest's size on `scale` (labelled `aria` for screen readers): the equivalence band when
/// there is one, the line at 1x, then `marks` (drawn with [`interval_marks`] and [`point_mark`] or the
/// caller's own). The bisection's chart (`report::bisect::html`) draws one per commit.
pub(crate) fn frame(aria: &str, scale: &LogScale, band: Option<(f64, f64)>, marks: &str) -> String {
    let mut out = format!(
        r#"<svg viewBox="0 0 {} {}" role="img" aria-label="{}">"#,
        px(WIDTH),
        px(HEIGHT),
        escape(aria)
    );
    if let Some((lo, hi)) = band.and_then(|(lo, hi)| Some((scale.x(lo)?, scale.x(hi)?))) {
        let _ = write!(
            out,
            r#"<rect class="band" x="{}" y="0" width="{}" height="{}"/>"#,
            px(lo),
            px(hi - lo),
            px(HEIGHT)
        );
    }
    if let Some(x) = scale.x(1.0) {
        line(&mut out, (x, 0.0), (x, HEIGHT), "one");
    }
    out.push_str(marks);
    out.push_str("</svg>");
    out
}

/// The vertical middle of a strip, where its marks are drawn.
pub(crate) const MID: f64 = HEIGHT / 2.0;

/// An interval as a line with a tick at each end, or an arrow at an end past the axis; nothing for `None`
/// or a bound that is not a number.
pub(crate) fn interval_marks(out: &mut String, interval: Option<(f64, f64)>, scale: &LogScale) {
    let mid = MID;
    if let Some((lo, hi)) = interval {
        let end = |v: f64, edge: f64| {
            if v.is_nan() {
                None
            } else {
                Some(scale.x(v).unwrap_or(edge))
            }
        };
        if let (Some(x1), Some(x2)) = (end(lo, LEFT), end(hi, RIGHT)) {
            line(out, (x1, mid), (x2, mid), "ci");
            for (v, x, dir) in [(lo, x1, -1.0), (hi, x2, 1.0)] {
                if scale.outside(v) {
                    arrow(out, x, mid, dir);
                } else {
                    line(out, (x, mid - 4.0), (x, mid + 4.0), "ci");
                }
            }
        }
    }
}

/// The point estimate as a circle; nothing for a value that is not finite and positive.
pub(crate) fn point_mark(out: &mut String, point: f64, scale: &LogScale) {
    if let Some(x) = format::finite(point).and_then(|s| scale.x(s)) {
        let _ = write!(
            out,
            r#"<circle class="point" cx="{}" cy="{}" r="4.5"/>"#,
            px(x),
            px(MID)
        );
    }
}

/// A small arrow head at (x, y) pointing left (-1) or right (1): the interval goes on past the axis.
fn arrow(out: &mut String, x: f64, y: f64, dir: f64) {
    let _ = write!(
        out,
        r#"<path class="arrow" d="M{} {}L{} {}L{} {}Z"/>"#,
        px(x + dir * 6.0),
        px(y),
        px(x),
        px(y - 4.5),
        px(x),
        px(y + 4.5)
    );
}

/// The figures beside a strip, and why part of the picture is missing, or looks odd, when it does.
fn figures(b: &BenchmarkAnalysis, scale: &LogScale) -> String {
    let interval = b.interval();
    let mut out = escape(&format::speedup_with_interval_against(
        b.shown_speedup(),
        interval,
        b.equivalence.margin_pct,
    ));
    let mut notes = Vec::new();
    match interval {
        // No interval (`Equivalence::interval`): too few runs to reach its level, or values no test applies
        // to (all equal, not above 0). An end past the axis, infinite included, is cut with an arrow below.
        // A count compared exactly (`docs/verdicts.md` §7) has no interval to have: its point is exact.
        None if b.basis == crate::model::Basis::Deterministic => {
            notes.push("exact: counts compared, no interval needed".to_string())
        }
        None => notes.push("no interval: too few runs or the test could not apply".to_string()),
        Some((lo, hi)) => {
            if scale.outside(lo) || scale.outside(hi) {
                let (from, to) = scale.domain();
                notes.push(format!(
                    "the interval goes past the axis ({} to {}): an arrow marks the cut end",
                    ratio_label(from),
                    ratio_label(to)
                ));
            }
            let point = b.shown_speedup();
            if point.is_finite() && !(lo <= point && point <= hi) {
                notes.push(
                    "the ratio of the medians lies outside the interval, which is of the typical \
                     ratio of a BASE run to a HEAD run: the runs differ in shape, not by one factor"
                        .to_string(),
                );
            }
        }
    }
    let _ = write!(
        out,
        r#" <span class="verdict">{}</span>"#,
        b.verdict.as_str()
    );
    for note in notes {
        let _ = write!(out, r#"<br><small class="note">{}</small>"#, escape(&note));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::analyses;

    fn plot(analysis: &Analysis) -> String {
        forest(analysis, &order(analysis))
    }

    /// The strip (SVG) of the row named `name`.
    fn strip_of<'a>(html: &'a str, name: &str) -> &'a str {
        let row = html.find(&format!("title=\"{name}\"")).expect("row");
        let start = row + html[row..].find("<svg").expect("strip");
        let end = start + html[start..].find("</svg>").expect("closed");
        &html[start..end]
    }

    const MIX_HASH: (&str, f64, (f64, f64)) = ("mix_hash", 0.77, (0.76, 0.84));
    const FAST: (&str, f64, (f64, f64)) = ("fast", 1.25, (1.22, 1.28));

    #[test]
    fn one_wide_interval_leaves_the_other_rows_where_they_were() {
        let parse_ints = ("parse_ints", 1.19, (1.01, 118.0));
        let without = plot(&analyses::with_speedups(&[MIX_HASH, FAST]));
        let with = plot(&analyses::with_speedups(&[MIX_HASH, FAST, parse_ints]));
        for name in ["mix_hash", "fast"] {
            assert_eq!(strip_of(&with, name), strip_of(&without, name), "{name}");
        }
        // The axis is unchanged: 0.76 / 1.08 to 1.28 * 1.08.
        let axis = |html: &str| html[..html.find("</svg>").unwrap()].to_string();
        assert_eq!(axis(&with), axis(&without));
        let wide = strip_of(&with, "parse_ints");
        assert_eq!(wide.matches("class=\"arrow\"").count(), 1, "{wide}");
        // The arrow's tip is past the right end of the plot.
        assert!(
            wide.contains(&format!("d=\"M{} 11", px(RIGHT + 6.0))),
            "{wide}"
        );
        assert!(with.contains("the interval goes past the axis (0.704x to 1.382x)"));
    }

    #[test]
    fn tick_labels_at_the_ends_stay_inside_the_strip() {
        // A 150x point: the axis runs to its 100x limit, whose label would be cut if centred on its tick.
        let html = plot(&analyses::with_speedups(&[
            ("huge", 150.0, (140.0, 160.0)),
            MIX_HASH,
        ]));
        let axis = &html[..html.find("</svg>").unwrap()];
        assert!(
            axis.contains(
                r#"<text x="400" y="14" text-anchor="end" class="tick-label">100x</text>"#
            ),
            "{axis}"
        );
        assert!(axis.contains(r#"text-anchor="middle" class="tick-label">1x</text>"#));
    }

    #[test]
    fn a_point_outside_its_interval_is_drawn_and_said() {
        let html = plot(&analyses::with_speedups(&[
            ("bimodal", 1.3, (1.01, 1.2)),
            MIX_HASH,
        ]));
        let strip = strip_of(&html, "bimodal");
        assert!(strip.contains("class=\"point\""), "{strip}");
        assert!(html.contains("the ratio of the medians lies outside the interval"));
        assert_eq!(
            html.matches("lies outside the interval").count(),
            1,
            "only the row whose point is outside"
        );
    }
}
